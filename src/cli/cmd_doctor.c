/*
 * doctor: the configuration in use, each root with its counts and
 * problems, the state of index.db against the files on disk, and the
 * telemetry backend (reachable, events, dropped).
 */
#include "autoconfig.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tier1/budget.h"
#include "cli/clients.h"
#include "cli/cmd.h"
#include "core/config.h"
#include "search/embed_cloud.h"
#include "llm/ollama.h"
#include "base/pgdsn.h"
#include "safety/sanitize.h"
#include "telemetry/stats.h"
#include "index/scan.h"
#include "base/status.h"
#include "store/store.h"
#include "telemetry/telemetry.h"
#include "search/xlang.h"
#include "base/xmalloc.h"

/*
 * The telemetry backend's state: off, or where it writes, whether that is
 * reachable, how many events it holds and how many writers dropped. An
 * unreachable or unreadable database is a problem.
 */
static cJSON *
telemetry_report(const struct config *cfg, int *problems)
{
	struct stats_query	 q;
	struct stats_snap	 snap;
	struct stats_db		*db = NULL;
	cJSON			*o = cJSON_CreateObject();
	const char		*where;
	char			*shown, *cause = NULL;
	int			 pg, rv;

	pg = cfg->telemetry_backend == TELEMETRY_BACKEND_POSTGRES;
	cJSON_AddBoolToObject(o, "enabled", cfg->telemetry_enabled);
	cJSON_AddStringToObject(o, "backend", pg ? "postgres" : "sqlite");
	where = pg ? cfg->telemetry_dsn : cfg->telemetry_path;
	shown = pg ? pg_dsn_redact(where) : xstrdup(where != NULL ? where : "");
	cJSON_AddStringToObject(o, pg ? "dsn" : "path", shown);
	free(shown);
	if (pg && (where == NULL || *where == '\0')) {
		cJSON_AddStringToObject(o, "problem", "telemetry.dsn (or "
		    "SKILLS_RADAR_DSN) is empty");
		(*problems)++;
		return o;
	}
	rv = pg ? stats_open_pg(where, &db, &cause) :
	    stats_open(where, &db, &cause);
	cJSON_AddBoolToObject(o, "reachable", rv == 0 || (pg &&
	    rv == SR_NOTFOUND));
	if (rv == SR_NOTFOUND) {
		cJSON_AddNumberToObject(o, "events", 0);
		free(cause);
		return o;
	}
	if (rv != 0) {
		cJSON_AddStringToObject(o, "problem", cause);
		if (cfg->telemetry_enabled)
			(*problems)++;
		free(cause);
		return o;
	}
	memset(&q, 0, sizeof q);
	q.limit = 1;
	q.miss_threshold = cfg->miss_threshold;
	q.conversion_window_s = cfg->conversion_window_s;
	if (stats_snapshot(db, &q, &snap, &cause) == 0) {
		cJSON_AddNumberToObject(o, "events", (double)snap.total);
		cJSON_AddNumberToObject(o, "dropped",
		    (double)snap.write_failures);
		/* ... of which a full stats.db could not store (side file). */
		if (!pg)
			cJSON_AddNumberToObject(o, "dropped_unstored",
			    (double)telemetry_lost_read(where));
		cJSON_AddNumberToObject(o, "replicas",
		    (double)snap.n_replicas);
		stats_snap_done(&snap);
	} else {
		cJSON_AddStringToObject(o, "problem", cause);
		(*problems)++;
		free(cause);
	}
	stats_close(db);
	return o;
}

/* One line: "telemetry: off" or the backend, where, and its counts. */
static void
telemetry_print(const cJSON *t)
{
	const cJSON	*v;

	printf("telemetry: %s %s", cJSON_GetStringValue(cJSON_GetObjectItem(t,
	    "backend")), cJSON_GetStringValue(cJSON_GetObjectItem(t,
	    "dsn")) != NULL ? cJSON_GetStringValue(cJSON_GetObjectItem(t,
	    "dsn")) : cJSON_GetStringValue(cJSON_GetObjectItem(t, "path")));
	if (!cJSON_IsTrue(cJSON_GetObjectItem(t, "enabled")))
		printf(" (telemetry.enabled: false)");
	printf("\n");
	if ((v = cJSON_GetObjectItem(t, "problem")) != NULL) {
		printf("  problem: %s\n", cJSON_GetStringValue(v));
		return;
	}
	printf("  reachable, %.0f events", cJSON_GetNumberValue(
	    cJSON_GetObjectItem(t, "events")));
	if ((v = cJSON_GetObjectItem(t, "replicas")) != NULL)
		printf(" from %.0f replica%s", cJSON_GetNumberValue(v),
		    cJSON_GetNumberValue(v) == 1 ? "" : "s");
	if ((v = cJSON_GetObjectItem(t, "dropped")) != NULL)
		printf(", %.0f dropped by writers", cJSON_GetNumberValue(v));
	if ((v = cJSON_GetObjectItem(t, "dropped_unstored")) != NULL &&
	    cJSON_GetNumberValue(v) > 0)
		printf(" (%.0f while stats.db was full or unwritable)",
		    cJSON_GetNumberValue(v));
	printf("\n");
}

static int
cmp_path(const void *a, const void *b)
{
	return strcmp((*(struct skill *const *)a)->path,
	    (*(struct skill *const *)b)->path);
}

/* Compares the scan with index.db: new, changed and vanished files. */
static void
staleness(struct skill_set *set, const struct store_rejects *rej,
    const struct scan_result *scan, size_t *added, size_t *changed,
    size_t *vanished)
{
	struct skill	 key, *kp = &key, **hit;
	size_t		 i, j, seen = 0;
	int		 found;

	*added = *changed = *vanished = 0;
	if (set->n > 1)
		qsort(set->v, set->n, sizeof *set->v, cmp_path);
	for (i = 0; i < scan->n_items; i++) {
		key.path = scan->items[i].path;
		hit = set->n == 0 ? NULL :
		    bsearch(&kp, set->v, set->n, sizeof *set->v, cmp_path);
		if (hit != NULL) {
			seen++;
			if ((*hit)->mtime_ns != scan->items[i].mtime_ns ||
			    (*hit)->size != scan->items[i].size)
				(*changed)++;
			continue;
		}
		found = 0;
		for (j = 0; j < rej->n && !found; j++)
			found = strcmp(rej->v[j].path, scan->items[i].path) == 0;
		if (!found)
			(*added)++;
	}
	*vanished = set->n - seen;
}

#define DOCTOR_OLLAMA_TIMEOUT_MS	3000

/*
 * The Ollama check: for each stage that uses Ollama (rewriter, reranker,
 * embedder), whether its server answers /api/tags and has its model.
 * {"used", "servers":[{url, reachable, error?, models:[...]}],
 * "stages":[{stage, url, model, present}]}; every unreachable server and
 * missing model counts as a problem.
 */
static cJSON *
ollama_report(const struct config *cfg, int *problems)
{
	struct {
		const char	*stage, *url, *model;
		int		 on;
	} st[3] = {
		{ "rewriter", cfg->rw_url, cfg->rw_model, cfg->rw_enabled },
		{ "reranker", cfg->rr_url, cfg->rr_model, cfg->rr_enabled },
		{ "embedder", cfg->embed_url, cfg->embed_model,
		    strcmp(cfg->embedder, "ollama") == 0 },
	};
	struct strlist	 names[3];
	cJSON		*o, *servers, *stages, *sv, *m;
	char		*cause;
	size_t		 i, j, k;
	int		 ok[3], used = 0;

	o = cJSON_CreateObject();
	servers = cJSON_AddArrayToObject(o, "servers");
	stages = cJSON_AddArrayToObject(o, "stages");
	for (i = 0; i < 3; i++) {
		strlist_init(&names[i]);
		ok[i] = 0;
		if (!st[i].on)
			continue;
		used = 1;
		for (j = 0; j < i; j++)
			if (st[j].on && strcmp(st[j].url, st[i].url) == 0)
				break;
		if (j < i) {	/* asked already */
			strlist_copy(&names[i], &names[j]);
			ok[i] = ok[j];
			continue;
		}
		sv = cJSON_CreateObject();
		cJSON_AddStringToObject(sv, "url", st[i].url);
		if (ollama_url_check(st[i].url, &cause) == 0)
			ok[i] = ollama_tags(st[i].url, DOCTOR_OLLAMA_TIMEOUT_MS,
			    &names[i], &cause) == 0;
		cJSON_AddBoolToObject(sv, "reachable", ok[i]);
		if (!ok[i]) {
			cJSON_AddStringToObject(sv, "error", cause);
			(*problems)++;
		}
		free(cause);
		m = cJSON_AddArrayToObject(sv, "models");
		for (k = 0; k < names[i].n; k++)
			cJSON_AddItemToArray(m, cJSON_CreateString(
			    names[i].v[k]));
		cJSON_AddItemToArray(servers, sv);
	}
	for (i = 0; i < 3; i++) {
		if (!st[i].on)
			continue;
		m = cJSON_CreateObject();
		cJSON_AddStringToObject(m, "stage", st[i].stage);
		cJSON_AddStringToObject(m, "url", st[i].url);
		cJSON_AddStringToObject(m, "model", st[i].model);
		cJSON_AddBoolToObject(m, "reachable", ok[i]);
		cJSON_AddBoolToObject(m, "present", ok[i] &&
		    ollama_has_model(&names[i], st[i].model));
		if (ok[i] && !ollama_has_model(&names[i], st[i].model))
			(*problems)++;
		cJSON_AddItemToArray(stages, m);
	}
	for (i = 0; i < 3; i++)
		strlist_done(&names[i]);
	cJSON_AddBoolToObject(o, "used", used);
	return o;
}

static void
ollama_print(cJSON *o)
{
	cJSON		*it, *m;
	const char	*s;
	int		 n;

	if (!cJSON_IsTrue(cJSON_GetObjectItem(o, "used"))) {
		printf("ollama:   not used (rewriter, reranker off; builtin "
		    "embedder)\n");
		return;
	}
	printf("ollama:\n");
	cJSON_ArrayForEach(it, cJSON_GetObjectItem(o, "servers")) {
		s = cJSON_GetStringValue(cJSON_GetObjectItem(it, "url"));
		if (!cJSON_IsTrue(cJSON_GetObjectItem(it, "reachable"))) {
			printf("  %s: unreachable: %s\n", s, cJSON_GetStringValue(
			    cJSON_GetObjectItem(it, "error")));
			continue;
		}
		printf("  %s: ok, models:", s);
		n = 0;
		cJSON_ArrayForEach(m, cJSON_GetObjectItem(it, "models"))
			printf("%s %s", n++ ? "," : "",
			    cJSON_GetStringValue(m));
		printf("%s\n", n == 0 ? " none" : "");
	}
	cJSON_ArrayForEach(it, cJSON_GetObjectItem(o, "stages")) {
		printf("  %-8s %s: %s\n", cJSON_GetStringValue(
		    cJSON_GetObjectItem(it, "stage")), cJSON_GetStringValue(
		    cJSON_GetObjectItem(it, "model")),
		    cJSON_IsTrue(cJSON_GetObjectItem(it, "present")) ? "present" :
		    !cJSON_IsTrue(cJSON_GetObjectItem(it, "reachable")) ?
		    "unknown (server unreachable; the stage fails open)" :
		    "missing: run 'ollama pull' for it");
	}
}

/*
 * {"backend","where","reachable","problem","entries","counter",
 * "replicas":[{"name","counter","lag","seen_s"}]}: lag is how many writes
 * a replica is behind the store's counter, seen_s how long ago it last
 * reported (its own clock).
 */
static cJSON *
store_json(const struct config *cfg, struct store *st, const char *problem)
{
	struct store_replica	*rv = NULL;
	struct skill_set	 set;
	cJSON			*o, *a, *r;
	int64_t			 counter = 0;
	size_t			 i, n = 0;
	char			*cause = NULL;

	o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "backend", cfg->store_backend ==
	    STORE_BACKEND_POSTGRES ? "postgres" : "sqlite");
	if (st == NULL) {
		cJSON_AddStringToObject(o, "where", cfg->store_backend ==
		    STORE_BACKEND_POSTGRES ? "" : cfg->index_path);
		cJSON_AddBoolToObject(o, "reachable", 0);
		if (problem != NULL)
			cJSON_AddStringToObject(o, "problem", problem);
		return o;
	}
	cJSON_AddStringToObject(o, "where", store_where(st));
	cJSON_AddBoolToObject(o, "reachable", 1);
	skill_set_init(&set);
	store_changes(st, -1, &set, NULL, &counter, &cause);
	cJSON_AddNumberToObject(o, "entries", (double)set.n);
	cJSON_AddNumberToObject(o, "counter", (double)counter);
	skill_set_done(&set);
	a = cJSON_AddArrayToObject(o, "replicas");
	if (store_replicas(st, &rv, &n, &cause) == 0) {
		for (i = 0; i < n; i++) {
			r = cJSON_CreateObject();
			cJSON_AddStringToObject(r, "name", rv[i].name);
			cJSON_AddNumberToObject(r, "counter",
			    (double)rv[i].counter);
			cJSON_AddNumberToObject(r, "lag",
			    (double)(counter - rv[i].counter));
			cJSON_AddNumberToObject(r, "seen_s",
			    (double)(time(NULL) - rv[i].seen));
			cJSON_AddItemToArray(a, r);
		}
		store_replicas_free(rv, n);
	}
	free(cause);
	return o;
}

static void
store_print(const cJSON *o)
{
	const cJSON	*r;

	printf("store:    %s (%s)\n", cJSON_GetStringValue(
	    cJSON_GetObjectItem(o, "backend")), cJSON_GetStringValue(
	    cJSON_GetObjectItem(o, "where")));
	if (!cJSON_IsTrue(cJSON_GetObjectItem(o, "reachable"))) {
		if (cJSON_GetObjectItem(o, "problem") != NULL)
			printf("  not reachable: %s\n", cJSON_GetStringValue(
			    cJSON_GetObjectItem(o, "problem")));
		return;
	}
	printf("  reachable, %.0f entries, change counter %.0f\n",
	    cJSON_GetNumberValue(cJSON_GetObjectItem(o, "entries")),
	    cJSON_GetNumberValue(cJSON_GetObjectItem(o, "counter")));
	if (cJSON_GetArraySize(cJSON_GetObjectItem(o, "replicas")) == 0)
		return;
	printf("  replicas:\n");
	cJSON_ArrayForEach(r, cJSON_GetObjectItem(o, "replicas"))
		printf("    %-30s counter %.0f, %.0f behind, seen %.0f s ago\n",
		    cJSON_GetStringValue(cJSON_GetObjectItem(r, "name")),
		    cJSON_GetNumberValue(cJSON_GetObjectItem(r, "counter")),
		    cJSON_GetNumberValue(cJSON_GetObjectItem(r, "lag")),
		    cJSON_GetNumberValue(cJSON_GetObjectItem(r, "seen_s")));
}

/*
 * What the checks share: the configuration, what the scan found and
 * index.db holds (the index check fills them, the budget check reads
 * them), and the count of problems that decides the exit status.
 */
struct doctor {
	struct cmd_ctx		*ctx;
	const struct config	*cfg;
	long			 context_tokens;
	struct scan_result	 scan;
	struct skill_set	 set;
	struct store_rejects	 rej;
	struct store		*st;
	struct sanitizer	*san;
	int			 index_exists;
	int			 problems;
};

/* The version, the configuration file in use and the data directory. */
static void
check_config(struct doctor *d, cJSON *o)
{
	char	*s;

	cJSON_AddStringToObject(o, "version", PACKAGE_VERSION);
	s = config_default_path(d->ctx->config_path);
	cJSON_AddStringToObject(o, "config", s);
	free(s);
	cJSON_AddBoolToObject(o, "config_exists", d->cfg->source != NULL);
	s = config_pkgdata_dir();
	cJSON_AddStringToObject(o, "data_dir", s);
	free(s);
	cJSON_AddBoolToObject(o, "skill_paths_env", getenv("SKILL_PATHS") !=
	    NULL);
}

/* Each root with its count of entries, and what the scan complained of. */
static void
check_roots(struct doctor *d, cJSON *o)
{
	struct scan_result	*scan = &d->scan;
	cJSON			*a, *r;
	size_t			 i;

	scan_roots(d->cfg, NULL, scan);
	scan_walk(d->cfg, scan);
	a = cJSON_AddArrayToObject(o, "roots");
	for (i = 0; i < scan->n_roots; i++) {
		r = cJSON_CreateObject();
		cJSON_AddStringToObject(r, "path", scan->roots[i].path);
		cJSON_AddBoolToObject(r, "exists", scan->roots[i].exists);
		cJSON_AddBoolToObject(r, "project", scan->roots[i].is_project);
		cJSON_AddNumberToObject(r, "entries",
		    (double)scan->roots[i].n_found);
		if (scan->roots[i].problem != NULL)
			cJSON_AddStringToObject(r, "problem",
			    scan->roots[i].problem);
		cJSON_AddItemToArray(a, r);
	}
	/* A scan capped by limits.max_entries: how many it skipped. */
	cJSON_AddBoolToObject(o, "scan_capped", scan->capped);
	cJSON_AddNumberToObject(o, "scan_skipped", (double)scan->skipped);
	a = cJSON_AddArrayToObject(o, "scan_problems");
	for (i = 0; i < scan->problems.n; i++) {
		cJSON_AddItemToArray(a, cJSON_CreateString(
		    scan->problems.v[i].message));
		if (scan->problems.v[i].sev >= SEV_WARN)
			d->problems++;
	}
}

/*
 * The store (reachable, entries, replicas) and index.db against the files
 * on disk. Leaves the store open and its entries loaded for the budget.
 */
static void
check_index(struct doctor *d, cJSON *o)
{
	const struct config	*cfg = d->cfg;
	cJSON			*ix;
	char			*cause = NULL;
	size_t			 added, changed, vanished;
	int			 rv;

	ix = cJSON_AddObjectToObject(o, "index");
	cJSON_AddStringToObject(ix, "path", cfg->index_path);
	rv = cfg->store_backend == STORE_BACKEND_POSTGRES ||
	    access(cfg->index_path, F_OK) == 0 ?
	    store_open_cfg(cfg, 0, &d->st, &cause) : SR_NOTFOUND;
	cJSON_AddItemToObject(o, "store", store_json(cfg, d->st, rv == 0 ?
	    NULL : cause));
	if (rv == 0 && (rv = store_load(d->st, &d->set, &cause)) == 0)
		rv = store_load_rejects(d->st, &d->rej, &cause);
	if (rv == 0) {
		staleness(&d->set, &d->rej, &d->scan, &added, &changed,
		    &vanished);
		d->index_exists = 1;
		cJSON_AddBoolToObject(ix, "exists", 1);
		cJSON_AddNumberToObject(ix, "entries", (double)d->set.n);
		cJSON_AddNumberToObject(ix, "rejected", (double)d->rej.n);
		cJSON_AddNumberToObject(ix, "new_files", (double)added);
		cJSON_AddNumberToObject(ix, "changed_files", (double)changed);
		cJSON_AddNumberToObject(ix, "vanished_files",
		    (double)vanished);
		cJSON_AddBoolToObject(ix, "stale", added + changed +
		    vanished > 0);
	} else {
		cJSON_AddBoolToObject(ix, "exists", 0);
		if (rv != SR_NOTFOUND) {
			cJSON_AddStringToObject(ix, "problem", cause);
			d->problems++;
		}
	}
	free(cause);
}

/* Whether the sanitiser's pattern catalogue loads, and its size. */
static void
check_sanitizer(struct doctor *d, cJSON *o)
{
	char	*cause = NULL;

	if (sanitize_new(d->cfg, &d->san, &cause) == 0)
		cJSON_AddNumberToObject(o, "sanitizer_patterns",
		    (double)sanitize_count(d->san));
	else {
		cJSON_AddStringToObject(o, "sanitizer_problem", cause);
		d->problems++;
	}
	free(cause);
}

/*
 * Which MCP clients have skills-radar in their configuration, and what
 * in their files the client would refuse or ignore: each is a problem.
 */
static void
check_clients(struct doctor *d, cJSON *o)
{
	cJSON	*arr = clients_report("skills-radar"), *cl;

	cJSON_ArrayForEach(cl, arr)
		d->problems += (cJSON_GetObjectItem(cl, "problem") != NULL) +
		    cJSON_GetArraySize(cJSON_GetObjectItem(cl, "problems"));
	cJSON_AddItemToObject(o, "clients", arr);
}

/* What the user's agent pays today for the indexed skills. */
static void
check_budget(struct doctor *d, cJSON *o)
{
	if (d->index_exists)
		cJSON_AddItemToObject(o, "budget", budget_report(&d->set,
		    d->cfg, d->san, d->context_tokens));
}

/*
 * The cross-lingual lexicon and the dictionaries search reads (xlang.h):
 * a lexicon that does not load is a problem (search then works in the
 * query's language only); missing dictionaries are not.
 */
static void
check_xlang(struct doctor *d, cJSON *o)
{
	struct xlang	*xl;
	cJSON		*x, *a;
	char		*cause = NULL;
	size_t		 i;

	x = cJSON_AddObjectToObject(o, "xlang");
	if (xlang_open_default(&xl, &cause) != 0) {
		cJSON_AddStringToObject(x, "problem", cause);
		d->problems++;
		free(cause);
		return;
	}
	if (xlang_lexicon_path(xl) != NULL)
		cJSON_AddStringToObject(x, "lexicon", xlang_lexicon_path(xl));
	cJSON_AddNumberToObject(x, "concepts", (double)xlang_nconcepts(xl));
	if (xlang_dict_dir(xl) != NULL)
		cJSON_AddStringToObject(x, "dict_dir", xlang_dict_dir(xl));
	a = cJSON_AddArrayToObject(x, "dictionaries");
	for (i = 0; i < xlang_ndicts(xl); i++)
		cJSON_AddItemToArray(a,
		    cJSON_CreateString(xlang_dict_name(xl, i)));
	xlang_free(xl);
}

static void
check_ollama(struct doctor *d, cJSON *o)
{
	cJSON_AddItemToObject(o, "ollama", ollama_report(d->cfg,
	    &d->problems));
}

/* A cloud embedder: its key, reachability and what it would cost. */
static void
check_embedder(struct doctor *d, cJSON *o)
{
	size_t	 i, bytes = 0;

	if (strcmp(d->cfg->embedder, "openai") != 0 &&
	    strcmp(d->cfg->embedder, "voyage") != 0)
		return;
	for (i = 0; i < d->set.n; i++)
		bytes += strlen(d->set.v[i]->name) +
		    strlen(d->set.v[i]->description) +
		    strlen(d->set.v[i]->when_to_use) + 2;
	cJSON_AddItemToObject(o, "embedder", embed_cloud_report(d->cfg,
	    bytes, d->set.n, &d->problems));
}

static void
check_telemetry(struct doctor *d, cJSON *o)
{
	cJSON_AddItemToObject(o, "telemetry", telemetry_report(d->cfg,
	    &d->problems));
}

/*
 * The checks in the order their members appear in the --json report;
 * later checks may use what earlier ones left in struct doctor.
 */
static const struct doctor_check {
	const char	*name;
	void		(*fn)(struct doctor *, cJSON *);
} doctor_checks[] = {
	{ "config",	check_config },
	{ "roots",	check_roots },
	{ "index",	check_index },
	{ "sanitizer",	check_sanitizer },
	{ "xlang",	check_xlang },
	{ "clients",	check_clients },
	{ "budget",	check_budget },
	{ "ollama",	check_ollama },
	{ "embedder",	check_embedder },
	{ "telemetry",	check_telemetry },
};

static const char *
jstr(const cJSON *o, const char *key)
{
	return cJSON_GetStringValue(cJSON_GetObjectItem(o, key));
}

static double
jnum(const cJSON *o, const char *key)
{
	return cJSON_GetNumberValue(cJSON_GetObjectItem(o, key));
}

static int
jtrue(const cJSON *o, const char *key)
{
	return cJSON_IsTrue(cJSON_GetObjectItem(o, key));
}

static void
roots_print(const cJSON *o)
{
	const cJSON	*r;

	printf("roots:%s\n", jtrue(o, "skill_paths_env") ?
	    " (from SKILL_PATHS)" : "");
	cJSON_ArrayForEach(r, cJSON_GetObjectItem(o, "roots"))
		printf("  %-6s %-50s %s\n", jtrue(r, "exists") ? "ok" : "-",
		    jstr(r, "path"), jtrue(r, "exists") ? "" :
		    jstr(r, "problem"));
	cJSON_ArrayForEach(r, cJSON_GetObjectItem(o, "roots")) {
		if (jtrue(r, "exists"))
			printf("  %.0f entr%s under %s\n", jnum(r, "entries"),
			    jnum(r, "entries") == 1 ? "y" : "ies",
			    jstr(r, "path"));
	}
	cJSON_ArrayForEach(r, cJSON_GetObjectItem(o, "scan_problems"))
		printf("  problem: %s\n", cJSON_GetStringValue(r));
}

static void
index_print(const cJSON *ix)
{
	double	 stale;

	printf("index:    %s\n", jstr(ix, "path"));
	stale = jnum(ix, "new_files") + jnum(ix, "changed_files") +
	    jnum(ix, "vanished_files");
	if (!jtrue(ix, "exists")) {
		printf("  not built yet: run 'skills-radar index'\n");
		return;
	}
	printf("  %.0f entries, %.0f rejected files; %s\n", jnum(ix,
	    "entries"), jnum(ix, "rejected"), stale == 0 ? "up to date" :
	    "stale: run 'skills-radar index'");
	if (stale > 0)
		printf("  %.0f new, %.0f changed, %.0f vanished files\n",
		    jnum(ix, "new_files"), jnum(ix, "changed_files"),
		    jnum(ix, "vanished_files"));
}

static void
clients_print(const cJSON *clients)
{
	const cJSON	*cl, *p;
	int		 n = 0;

	printf("clients:\n");
	cJSON_ArrayForEach(cl, clients) {
		if (jtrue(cl, "configured")) {
			n++;
			printf("  %s (%s, %s): %s\n", jstr(cl, "client"),
			    jstr(cl, "scope"), jstr(cl, "transport") != NULL ?
			    jstr(cl, "transport") : "unknown transport",
			    jstr(cl, "path"));
		}
		if (cJSON_GetObjectItem(cl, "problem") != NULL) {
			n++;
			printf("  problem: %s\n", jstr(cl, "problem"));
		}
		cJSON_ArrayForEach(p, cJSON_GetObjectItem(cl, "problems")) {
			n++;
			printf("  problem: %s: %s\n", jstr(cl, "path"),
			    cJSON_GetStringValue(p));
		}
	}
	if (n == 0)
		printf("  none configured: run 'skills-radar client add "
		    "CLIENT'\n");
}

static void
embedder_print(const cJSON *e)
{
	if (e == NULL)
		return;
	printf("embedder: %s %s at %s\n", jstr(e, "backend"), jstr(e, "model"),
	    jstr(e, "url"));
	if (jtrue(e, "reachable"))
		printf("  reachable, dimension %.0f\n", jnum(e, "dim"));
	else
		printf("  problem: %s\n", jstr(e, "error"));
	if (cJSON_IsNumber(cJSON_GetObjectItem(e, "monthly_usd")))
		printf("  %.0f entries, about %.0f tokens: $%.4f to embed them "
		    "all, about $%.2f a month (%s)\n", jnum(e, "entries"),
		    jnum(e, "index_tokens"), jnum(e, "index_usd"),
		    jnum(e, "monthly_usd"), jstr(e, "assumptions"));
	else
		printf("  no list price known for this model: set "
		    "embedder.price_per_mtok for a cost estimate\n");
}

/* The cross-lingual lexicon and the dictionaries found. */
static void
xlang_print(const cJSON *x)
{
	const cJSON	*a, *n;
	int		 first = 1;

	if (cJSON_GetObjectItem(x, "problem") != NULL) {
		printf("languages: problem: %s\n", jstr(x, "problem"));
		return;
	}
	printf("languages: %.0f concepts in the lexicon", jnum(x, "concepts"));
	if (cJSON_GetObjectItem(x, "lexicon") != NULL)
		printf(" (%s)", jstr(x, "lexicon"));
	printf("\n  dictionaries:");
	a = cJSON_GetObjectItem(x, "dictionaries");
	cJSON_ArrayForEach(n, a) {
		printf("%s %s", first ? "" : ",", cJSON_GetStringValue(n));
		first = 0;
	}
	if (first)
		printf(" none");
	if (cJSON_GetObjectItem(x, "dict_dir") != NULL)
		printf(" (under %s)", jstr(x, "dict_dir"));
	else
		printf(" (turned off: SKILLS_RADAR_DICT_DIR is empty)");
	printf("\n");
	if (first && cJSON_GetObjectItem(x, "dict_dir") != NULL)
		printf("  more words: apt-get install dict-freedict-deu-eng "
		    "dict-freedict-spa-eng dict-freedict-jpn-eng ...\n");
}

/* The text report, from the same object --json prints. */
static void
doctor_print(const cJSON *o)
{
	const cJSON	*v;
	int		 problems;

	printf("skills-radar %s\n", jstr(o, "version"));
	printf("config:   %s%s\n", jstr(o, "config"), jtrue(o,
	    "config_exists") ? "" : " (not found: built-in defaults)");
	printf("data:     %s\n", jstr(o, "data_dir"));
	roots_print(o);
	store_print(cJSON_GetObjectItem(o, "store"));
	index_print(cJSON_GetObjectItem(o, "index"));
	if ((v = cJSON_GetObjectItem(o, "sanitizer_patterns")) != NULL)
		printf("sanitiser: %.0f patterns\n", cJSON_GetNumberValue(v));
	else
		printf("sanitiser: %s\n", jstr(o, "sanitizer_problem"));
	xlang_print(cJSON_GetObjectItem(o, "xlang"));
	clients_print(cJSON_GetObjectItem(o, "clients"));
	ollama_print(cJSON_GetObjectItem(o, "ollama"));
	embedder_print(cJSON_GetObjectItem(o, "embedder"));
	telemetry_print(cJSON_GetObjectItem(o, "telemetry"));
	if ((v = cJSON_GetObjectItem(o, "budget")) != NULL)
		budget_print(stdout, v);
	problems = (int)jnum(o, "problems");
	printf("%d problem%s\n", problems, problems == 1 ? "" : "s");
}

static int
cmd_doctor(struct cmd_ctx *ctx, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "context-tokens", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct doctor	 d;
	cJSON		*o;
	size_t		 i;
	int		 ch, stop, json = 0;

	memset(&d, 0, sizeof d);
	while ((ch = cmd_getopt("doctor", argc, argv, "jc:", longopts,
	    &stop)) != -1) {
		switch (ch) {
		case 'j':
			json = 1;
			break;
		case 'c':
			if (cmd_parse_long(optarg, 1000, 100000000L,
			    &d.context_tokens) == -1)
				return cmd_usage("doctor", "--context-tokens: '%s' "
				    "is not a number of tokens from 1000 to "
				    "100000000", optarg);
			break;
		}
	}
	if (stop != -1 || (stop = cmd_no_args("doctor", argc, argv)) != 0)
		return stop;

	d.ctx = ctx;
	d.cfg = ctx->cfg;
	scan_result_init(&d.scan);
	skill_set_init(&d.set);
	store_rejects_init(&d.rej);
	o = cJSON_CreateObject();
	for (i = 0; i < sizeof doctor_checks / sizeof doctor_checks[0]; i++)
		doctor_checks[i].fn(&d, o);
	cJSON_AddNumberToObject(o, "problems", d.problems);
	if (json)
		cmd_print_json(o);
	else {
		doctor_print(o);
		cJSON_Delete(o);
	}
	sanitize_free(d.san);
	store_close(d.st);
	skill_set_done(&d.set);
	store_rejects_done(&d.rej);
	scan_result_done(&d.scan);
	return d.problems > 0 ? SR_ERR : SR_OK;
}

const struct cmd_entry cmd_doctor_entry = {
	"doctor", cmd_doctor, CMD_NEEDS_CONFIG,
	"[--context-tokens N] [--json]",
	"check the setup and report problems"
};
