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

#include "budget.h"
#include "clients.h"
#include "cmd.h"
#include "config.h"
#include "ollama.h"
#include "pgdsn.h"
#include "sanitize.h"
#include "stats.h"
#include "scan.h"
#include "status.h"
#include "store.h"
#include "telemetry.h"
#include "xmalloc.h"

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

int
cmd_doctor(struct cmd_ctx *ctx, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "context-tokens", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const struct config	*cfg = ctx->cfg;
	cJSON			*budget = NULL;
	long			 context_tokens = 0;
	struct scan_result	 scan;
	struct skill_set	 set;
	struct store_rejects	 rej;
	struct store		*st = NULL;
	struct sanitizer	*san = NULL;
	cJSON			*o, *roots, *r, *ix, *clients, *cl, *oll, *tel;
	char			*cause = NULL, *cfgpath, *datadir;
	size_t			 i, added = 0, changed = 0, vanished = 0;
	int			 ch, json = 0, problems = 0, rv;

	while ((ch = getopt_long(argc, argv, "jc:", longopts, NULL)) != -1) {
		switch (ch) {
		case 'j':
			json = 1;
			break;
		case 'c':
			if (cmd_parse_long(optarg, 1000, 100000000L,
			    &context_tokens) == -1)
				return cmd_usage("doctor", "--context-tokens: '%s' "
				    "is not a number of tokens from 1000 to "
				    "100000000", optarg);
			break;
		case 'h':
			return cmd_help("doctor");
		default:
			return cmd_usage("doctor", "unknown option");
		}
	}
	if (optind < argc)
		return cmd_usage("doctor", "unexpected argument '%s'",
		    argv[optind]);

	o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "version", PACKAGE_VERSION);
	cfgpath = config_default_path(ctx->config_path);
	cJSON_AddStringToObject(o, "config", cfgpath);
	cJSON_AddBoolToObject(o, "config_exists", cfg->source != NULL);
	datadir = config_pkgdata_dir();
	cJSON_AddStringToObject(o, "data_dir", datadir);
	cJSON_AddBoolToObject(o, "skill_paths_env", getenv("SKILL_PATHS") != NULL);

	scan_result_init(&scan);
	scan_roots(cfg, NULL, &scan);
	scan_walk(cfg, &scan);
	roots = cJSON_AddArrayToObject(o, "roots");
	for (i = 0; i < scan.n_roots; i++) {
		r = cJSON_CreateObject();
		cJSON_AddStringToObject(r, "path", scan.roots[i].path);
		cJSON_AddBoolToObject(r, "exists", scan.roots[i].exists);
		cJSON_AddBoolToObject(r, "project", scan.roots[i].is_project);
		cJSON_AddNumberToObject(r, "entries",
		    (double)scan.roots[i].n_found);
		if (scan.roots[i].problem != NULL)
			cJSON_AddStringToObject(r, "problem",
			    scan.roots[i].problem);
		cJSON_AddItemToArray(roots, r);
	}
	r = cJSON_AddArrayToObject(o, "scan_problems");
	for (i = 0; i < scan.problems.n; i++) {
		cJSON_AddItemToArray(r, cJSON_CreateString(
		    scan.problems.v[i].message));
		if (scan.problems.v[i].sev >= SEV_WARN)
			problems++;
	}

	ix = cJSON_AddObjectToObject(o, "index");
	cJSON_AddStringToObject(ix, "path", cfg->index_path);
	skill_set_init(&set);
	store_rejects_init(&rej);
	rv = cfg->store_backend == STORE_BACKEND_POSTGRES ||
	    access(cfg->index_path, F_OK) == 0 ?
	    store_open_cfg(cfg, 0, &st, &cause) : SR_NOTFOUND;
	cJSON_AddItemToObject(o, "store", store_json(cfg, st, rv == 0 ? NULL :
	    cause));
	if (rv == 0 && (rv = store_load(st, &set, &cause)) == 0)
		rv = store_load_rejects(st, &rej, &cause);
	if (rv == 0) {
		staleness(&set, &rej, &scan, &added, &changed, &vanished);
		cJSON_AddBoolToObject(ix, "exists", 1);
		cJSON_AddNumberToObject(ix, "entries", (double)set.n);
		cJSON_AddNumberToObject(ix, "rejected", (double)rej.n);
		cJSON_AddNumberToObject(ix, "new_files", (double)added);
		cJSON_AddNumberToObject(ix, "changed_files", (double)changed);
		cJSON_AddNumberToObject(ix, "vanished_files", (double)vanished);
		cJSON_AddBoolToObject(ix, "stale", added + changed + vanished > 0);
	} else {
		cJSON_AddBoolToObject(ix, "exists", 0);
		if (rv != SR_NOTFOUND) {
			cJSON_AddStringToObject(ix, "problem", cause);
			problems++;
		}
	}
	free(cause);
	cause = NULL;
	if ((rv = sanitize_new(cfg, &san, &cause)) == 0)
		cJSON_AddNumberToObject(o, "sanitizer_patterns",
		    (double)sanitize_count(san));
	else {
		cJSON_AddStringToObject(o, "sanitizer_problem", cause);
		problems++;
	}
	/* Which MCP clients have skills-radar in their configuration. */
	clients = clients_report("skills-radar");
	cJSON_AddItemToObject(o, "clients", clients);
	/* What the user's agent pays today for the indexed skills. */
	if (cJSON_IsTrue(cJSON_GetObjectItem(ix, "exists"))) {
		budget = budget_report(&set, cfg, san, context_tokens);
		cJSON_AddItemReferenceToObject(o, "budget", budget);
	}
	oll = ollama_report(cfg, &problems);
	cJSON_AddItemToObject(o, "ollama", oll);
	tel = telemetry_report(cfg, &problems);
	cJSON_AddItemToObject(o, "telemetry", tel);
	cJSON_AddNumberToObject(o, "problems", problems);

	if (json)
		cmd_print_json(o);
	else {
		printf("skills-radar %s\n", PACKAGE_VERSION);
		printf("config:   %s%s\n", cfgpath, cfg->source != NULL ? "" :
		    " (not found: built-in defaults)");
		printf("data:     %s\n", datadir);
		printf("roots:%s\n", getenv("SKILL_PATHS") != NULL ?
		    " (from SKILL_PATHS)" : "");
		for (i = 0; i < scan.n_roots; i++)
			printf("  %-6s %-50s %s\n", scan.roots[i].exists ?
			    "ok" : "-", scan.roots[i].path,
			    scan.roots[i].exists ? "" : scan.roots[i].problem);
		for (i = 0; i < scan.n_roots; i++) {
			if (scan.roots[i].exists)
				printf("  %zu entr%s under %s\n",
				    scan.roots[i].n_found,
				    scan.roots[i].n_found == 1 ? "y" : "ies",
				    scan.roots[i].path);
		}
		for (i = 0; i < scan.problems.n; i++)
			printf("  problem: %s\n", scan.problems.v[i].message);
		store_print(cJSON_GetObjectItem(o, "store"));
		printf("index:    %s\n", cfg->index_path);
		if (cJSON_IsTrue(cJSON_GetObjectItem(ix, "exists")))
			printf("  %zu entries, %zu rejected files; %s\n", set.n,
			    rej.n, added + changed + vanished == 0 ?
			    "up to date" : "stale: run 'skills-radar index'");
		else
			printf("  not built yet: run 'skills-radar index'\n");
		if (added + changed + vanished > 0)
			printf("  %zu new, %zu changed, %zu vanished files\n",
			    added, changed, vanished);
		if (san != NULL)
			printf("sanitiser: %zu patterns\n", sanitize_count(san));
		else
			printf("sanitiser: %s\n", cause);
		printf("clients:\n");
		i = 0;
		cJSON_ArrayForEach(cl, clients) {
			if (!cJSON_IsTrue(cJSON_GetObjectItem(cl, "configured")) &&
			    cJSON_GetObjectItem(cl, "problem") == NULL)
				continue;
			i++;
			if (cJSON_IsTrue(cJSON_GetObjectItem(cl, "configured")))
				printf("  %s (%s, %s): %s\n",
				    cJSON_GetStringValue(cJSON_GetObjectItem(cl,
				    "client")), cJSON_GetStringValue(
				    cJSON_GetObjectItem(cl, "scope")),
				    cJSON_GetObjectItem(cl, "transport") != NULL ?
				    cJSON_GetStringValue(cJSON_GetObjectItem(cl,
				    "transport")) : "unknown transport",
				    cJSON_GetStringValue(cJSON_GetObjectItem(cl,
				    "path")));
			else
				printf("  problem: %s\n", cJSON_GetStringValue(
				    cJSON_GetObjectItem(cl, "problem")));
		}
		if (i == 0)
			printf("  none configured: run 'skills-radar client add "
			    "CLIENT'\n");
		ollama_print(oll);
		telemetry_print(tel);
		if (budget != NULL)
			budget_print(stdout, budget);
		printf("%d problem%s\n", problems, problems == 1 ? "" : "s");
		cJSON_Delete(o);
	}
	cJSON_Delete(budget);
	free(cause);
	free(cfgpath);
	free(datadir);
	sanitize_free(san);
	store_close(st);
	skill_set_done(&set);
	store_rejects_done(&rej);
	scan_result_done(&scan);
	return problems > 0 ? SR_ERR : SR_OK;
}
