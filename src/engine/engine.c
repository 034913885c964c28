/*
 * The engine (engine.h): opening index.db into snapshots, reload, and the
 * answers to search, load, read and list. Per-entry updates and the
 * compaction of the search index are in engine_update.c; what the two
 * share is in engine_impl.h.
 */
#include "autoconfig.h"

#include <sys/stat.h>

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "index/assess.h"
#include "base/clock.h"
#include "base/buf.h"
#include "core/config.h"
#include "engine/engine.h"
#include "engine/engine_impl.h"
#include "core/files.h"
#include "core/frontmatter.h"
#include "index/indexer.h"
#include "engine/pipeline.h"
#include "search/search_cache.h"
#include "safety/sanitize.h"
#include "core/sign.h"
#include "base/status.h"
#include "store/store.h"
#include "telemetry/telemetry.h"
#include "telemetry/usage.h"
#include "base/xmalloc.h"

struct telemetry *
engine_telemetry(struct engine *e)
{
	return e->tel;
}

const char *
engine_telemetry_error(struct engine *e)
{
	return e->tel_error;
}

static int
cmp_uid(const void *a, const void *b)
{
	return strcmp((*(struct skill *const *)a)->uid,
	    (*(struct skill *const *)b)->uid);
}

void
engine_snap_prepare(struct engine_snap *e)
{
	size_t	 i;

	free(e->winners);
	e->winners = xreallocarray(NULL, e->set.n + 1, sizeof *e->winners);
	e->n_winners = 0;
	e->searchable = 0;
	for (i = 0; i < e->set.n; i++) {
		if (e->set.v[i]->shadowed_by != NULL)
			continue;
		e->winners[e->n_winners++] = e->set.v[i];
		if (!e->set.v[i]->disable_model_invocation)
			e->searchable++;
	}
	/* A set in precedence order has its winners in uid order already. */
	if (e->n_winners > 1 && !e->sorted)
		qsort(e->winners, e->n_winners, sizeof *e->winners, cmp_uid);
}

void
engine_snap_free(struct engine_snap *sn)
{
	if (sn == NULL)
		return;
	search_index_free(sn->idx);
	free(sn->winners);
	skill_set_done(&sn->set);
	free(sn->digest);
	free(sn);
}

/* Takes a reference on the current snapshot; give it back with engine_snap_unref(). */
struct engine_snap *
engine_snap_ref(struct engine *e)
{
	struct engine_snap	*sn;

	pthread_mutex_lock(&e->snap_lock);
	sn = e->cur;
	sn->refs++;
	pthread_mutex_unlock(&e->snap_lock);
	return sn;
}

void
engine_snap_unref(struct engine *e, struct engine_snap *sn)
{
	int	 last;

	pthread_mutex_lock(&e->snap_lock);
	last = --sn->refs == 0;
	pthread_mutex_unlock(&e->snap_lock);
	if (last)
		engine_snap_free(sn);
}

const struct engine_snap *
engine_snap_get(struct engine *e)
{
	return engine_snap_ref(e);
}

void
engine_snap_put(struct engine *e, const struct engine_snap *sn)
{
	if (sn != NULL)
		engine_snap_unref(e, (struct engine_snap *)sn);
}

const struct skill_set *
engine_snap_skills(const struct engine_snap *sn)
{
	return &sn->set;
}

unsigned long
engine_snap_generation(const struct engine_snap *sn)
{
	return sn->gen;
}

unsigned long
engine_generation(struct engine *e)
{
	unsigned long	 g;

	pthread_mutex_lock(&e->snap_lock);
	g = e->gen;
	pthread_mutex_unlock(&e->snap_lock);
	return g;
}

/*
 * Loads the search index from its cache beside index.db, or builds it and
 * refreshes the cache. The cache is keyed on every entry's text and the
 * search parameters, so a stale one is rejected and rebuilt; failing to
 * write it only costs the next process the build. A current cache saved
 * under another store key (or none) is saved again under this one, so
 * the next ENGINE_CACHED process need not read the store's rows; so is
 * one saved under this key that did not open by it (its entries section
 * damaged), or every later search would read the rows.
 */
int
engine_snap_index(struct engine *e, struct engine_snap *sn, char **cause)
{
	char	*path, *ignored = NULL;
	int	 rv = 0;

	xasprintf(&path, "%s.search", e->cfg->index_path);
	if (search_index_load(&sn->set, e->cfg, path, &sn->idx,
	    &ignored) == 0) {
		if (sn->skey != 0 && (search_index_store_key(sn->idx) !=
		    sn->skey || sn->resave))
			search_index_save(sn->idx, path, sn->skey, &ignored);
		goto out;
	}
	free(ignored);
	ignored = NULL;
	if ((rv = search_index_build(&sn->set, e->cfg, &sn->idx, cause)) != 0)
		goto out;
	search_index_save(sn->idx, path, sn->skey, &ignored);
out:
	free(ignored);
	free(path);
	return rv;
}

int
engine_warm(const struct config *cfg, char **cause)
{
	struct engine	*e;
	int		 rv;

	/* Opened as the CLI's search opens it, so the cache key matches. */
	if ((rv = engine_open(cfg, ENGINE_LEAN | ENGINE_QUIET, &e,
	    cause)) != 0)
		return rv;
	engine_free(e);
	return 0;
}

/* ENGINE_BACKGROUND: the serve-time rescan, off the answering path. */
static void *
first_rescan(void *arg)
{
	struct engine	*e = arg;
	char		*cause = NULL;
	int		 changed;

	if (engine_reload(e, "serve", &changed, &cause) != 0)
		e->first_error = cause;	/* the old index stays in use */
	pthread_mutex_lock(&e->ready_lock);
	e->ready = 1;
	pthread_cond_broadcast(&e->ready_cond);
	pthread_mutex_unlock(&e->ready_lock);
	return NULL;
}

void
engine_wait_ready(struct engine *e)
{
	pthread_mutex_lock(&e->ready_lock);
	while (!e->ready)
		pthread_cond_wait(&e->ready_cond, &e->ready_lock);
	pthread_mutex_unlock(&e->ready_lock);
}

/* The store's search_store_key() now (0: not known). */
static uint64_t
store_key(struct store *st)
{
	char		*counter, *digest;
	uint64_t	 k;

	counter = store_meta_get(st, "counter");
	digest = store_meta_get(st, "digest");
	k = search_store_key(counter, digest);
	free(counter);
	free(digest);
	return k;
}

/* ENGINE_CACHED: the index and its entries from the cache alone. */
static int
open_cached(struct engine *e, struct engine_snap *sn, uint64_t skey)
{
	char	*path, *ignored = NULL;
	int	 rv;

	xasprintf(&path, "%s.search", e->cfg->index_path);
	rv = search_index_open(skey, e->cfg, path, &sn->idx, &ignored);
	free(ignored);
	free(path);
	return rv;
}

int
engine_open(const struct config *cfg, int flags, struct engine **out,
    char **cause)
{
	uint64_t		 skey = 0;
	struct engine		*e;
	struct engine_snap	*sn;
	struct index_report	 rep;
	struct store		*st = NULL;
	int			 rv, need_index;

	*out = NULL;
	e = xcalloc(1, sizeof *e);
	e->cfg = cfg;
	e->pipe = pipeline_new(cfg);
	e->usage = usage_new(cfg);
	sn = xcalloc(1, sizeof *sn);
	skill_set_init(&sn->set);
	sn->refs = 1;
	e->cur = sn;
	pthread_mutex_init(&e->snap_lock, NULL);
	pthread_mutex_init(&e->reload_lock, NULL);
	pthread_mutex_init(&e->san_lock, NULL);
	pthread_mutex_init(&e->ready_lock, NULL);
	pthread_cond_init(&e->ready_cond, NULL);
	e->ready = 1;
	if (telemetry_open(cfg, NULL, &e->tel, &e->tel_error) != 0)
		e->tel = NULL;	/* a warning for the caller, never fatal */

	need_index = (flags & ENGINE_REINDEX) != 0;
	if (!need_index && !(flags & ENGINE_EMPTY)) {
		if ((rv = store_open_cfg(cfg, 0, &st, cause)) != 0)
			goto fail;
		skey = store_key(st);
		if ((flags & ENGINE_CACHED) && skey != 0 &&
		    open_cached(e, sn, skey) == 0) {
			store_close(st);
			st = NULL;
			sn->skey = skey;
			sn->digest = NULL;
			engine_snap_prepare(sn);
			*out = e;
			return 0;
		}
		if ((rv = store_load_flags(st, &sn->set,
		    (flags & ENGINE_LEAN) ? STORE_LEAN : 0, cause)) != 0)
			goto fail;
		/* a writer in between: the rows may not be the key's */
		sn->skey = store_key(st) == skey ? skey : 0;
		sn->resave = (flags & ENGINE_CACHED) && skey != 0;
		{
			sn->digest = store_meta_get(st, "digest");
			/*
			 * never indexed: do it now; a shared store is
			 * written by its writer only (index, --watch)
			 */
			if (sn->set.n == 0 && sn->digest == NULL &&
			    !(flags & ENGINE_FOLLOW) &&
			    cfg->store_backend == STORE_BACKEND_SQLITE)
				need_index = 1;
		}
		store_close(st);
		st = NULL;
	}
	if (need_index) {
		index_report_init(&rep);
		rv = indexer_run(cfg, NULL, NULL,
		    (flags & ENGINE_QUIET) || !isatty(STDERR_FILENO) ? 0 :
		    INDEX_PROGRESS, &rep, cause);
		if (rv != 0) {
			index_report_done(&rep);
			goto fail;
		}
		skill_set_done(&sn->set);
		sn->set = rep.set;		/* take the entries */
		skill_set_init(&rep.set);
		free(sn->digest);
		sn->digest = rep.digest;
		rep.digest = NULL;
		sn->sorted = 1;
		telemetry_index(e->tel, rep.total, rep.duration_ms,
		    (flags & ENGINE_REINDEX) ? "serve" : "cli");
		index_report_done(&rep);
	}
	engine_snap_prepare(sn);
	if ((rv = engine_snap_index(e, sn, cause)) != 0)
		goto fail;
	if ((flags & ENGINE_BACKGROUND) && !need_index) {
		e->ready = 0;
		if (pthread_create(&e->first, NULL, first_rescan, e) == 0)
			e->first_running = 1;
		else
			first_rescan(e);	/* no thread: do it now */
	}
	*out = e;
	return 0;
fail:
	store_close(st);
	engine_free(e);
	return rv;
}

void
engine_free(struct engine *e)
{
	if (e == NULL)
		return;
	if (e->first_running)
		pthread_join(e->first, NULL);
	if (e->compacting)
		pthread_join(e->compact, NULL);
	free(e->first_error);
	pthread_mutex_destroy(&e->ready_lock);
	pthread_cond_destroy(&e->ready_cond);
	telemetry_close(e->tel);
	free(e->tel_error);
	pipeline_free(e->pipe);
	usage_free(e->usage);
	store_close(e->st);
	if (e->cur != NULL)
		engine_snap_unref(e, e->cur);	/* callers gave theirs back already */
	sanitize_free(e->san);
	pthread_mutex_destroy(&e->snap_lock);
	pthread_mutex_destroy(&e->reload_lock);
	pthread_mutex_destroy(&e->san_lock);
	free(e);
}

void
engine_swap_in(struct engine *e, struct engine_snap *sn)
{
	struct engine_snap	*old;

	pthread_mutex_lock(&e->snap_lock);
	old = e->cur;
	sn->gen = ++e->gen;
	e->cur = sn;
	pthread_mutex_unlock(&e->snap_lock);
	engine_snap_unref(e, old);
}

/* engine_reload() with reload_lock held. */
int
engine_reload_locked(struct engine *e, const char *trigger, int *changed,
    char **cause)
{
	struct index_report	 rep;
	struct engine_snap	*sn;
	struct sanitizer	*san;
	int			 rv, same;

	*changed = 0;
	index_report_init(&rep);
	/* The indexer compiles its own sanitiser only if a file changed. */
	pthread_mutex_lock(&e->san_lock);
	san = e->san;
	pthread_mutex_unlock(&e->san_lock);
	if ((rv = indexer_run(e->cfg, san, NULL, 0, &rep, cause)) != 0)
		goto out;
	/* Unchanged, and not changed under us by another process either. */
	pthread_mutex_lock(&e->snap_lock);
	same = !rep.written && rep.digest != NULL && e->cur->digest != NULL &&
	    strcmp(rep.digest, e->cur->digest) == 0;
	pthread_mutex_unlock(&e->snap_lock);
	if (same)
		goto out;
	sn = xcalloc(1, sizeof *sn);
	sn->set = rep.set;
	skill_set_init(&rep.set);
	sn->digest = rep.digest;
	rep.digest = NULL;
	sn->refs = 1;
	sn->sorted = 1;		/* indexer_precedence() sorted it */
	engine_snap_prepare(sn);
	if ((rv = engine_snap_index(e, sn, cause)) != 0) {
		engine_snap_free(sn);
		goto out;
	}
	engine_swap_in(e, sn);
	*changed = 1;
	telemetry_index(e->tel, rep.total, rep.duration_ms, trigger);
out:
	index_report_done(&rep);
	return rv;
}

int
engine_reload(struct engine *e, const char *trigger, int *changed,
    char **cause)
{
	int	 rv;

	pthread_mutex_lock(&e->reload_lock);
	rv = engine_reload_locked(e, trigger, changed, cause);
	pthread_mutex_unlock(&e->reload_lock);
	return rv;
}

size_t
engine_count(struct engine *e)
{
	struct engine_snap	*sn = engine_snap_ref(e);
	size_t			 n = sn->searchable;

	engine_snap_unref(e, sn);
	return n;
}

/*
 * The sanitiser, compiled on first use: a search never needs it, and
 * compiling the catalogue is a good part of a short CLI run.
 */
int
engine_sanitizer_get(struct engine *e, struct sanitizer **out, char **cause)
{
	int	 rv = 0;

	pthread_mutex_lock(&e->san_lock);
	if (e->san == NULL)
		rv = sanitize_new(e->cfg, &e->san, cause);
	*out = e->san;
	pthread_mutex_unlock(&e->san_lock);
	return rv;
}

const struct sanitizer *
engine_sanitizer(struct engine *e)
{
	struct sanitizer	*san;
	char			*cause = NULL;

	if (engine_sanitizer_get(e, &san, &cause) != 0) {
		free(cause);
		return NULL;
	}
	return san;
}

const struct config *
engine_config(struct engine *e)
{
	return e->cfg;
}

const struct skill_set *
engine_skills(struct engine *e)
{
	return &e->cur->set;
}

static struct skill *
find_uid(struct engine_snap *e, const char *uid)
{
	struct skill	 key, *kp = &key, **hit;

	if (e->n_winners == 0)
		return NULL;
	key.uid = (char *)uid;
	hit = bsearch(&kp, e->winners, e->n_winners, sizeof *e->winners,
	    cmp_uid);
	return hit != NULL ? *hit : NULL;
}

/* The winner whose uid is name as a skill's, an agent's or a command's. */
static const struct skill *
resolve_id(struct engine_snap *e, const char *name)
{
	struct skill	*s;
	char		*uid;

	if ((s = find_uid(e, name)) != NULL)
		return s;
	xasprintf(&uid, "agent:%s", name);
	s = find_uid(e, uid);
	free(uid);
	if (s != NULL)
		return s;
	xasprintf(&uid, "cmd:%s", name);
	s = find_uid(e, uid);
	free(uid);
	return s;
}

/*
 * The winner a load asks for: by id (the uid, or the bare name of a
 * skill, agent or command); else by the name as written of an entry
 * indexed under a normalised id (ASCII case ignored: "PocketBase
 * Deploy"); else by the normalised id of what was asked.
 */
static const struct skill *
resolve(struct engine_snap *e, const char *name)
{
	const struct skill	*s;
	char			*id;
	size_t			 i;

	if (name == NULL || *name == '\0')
		return NULL;
	if ((s = resolve_id(e, name)) != NULL)
		return s;
	for (i = 0; i < e->n_winners; i++) {
		s = e->winners[i];
		if (s->display != NULL && strcasecmp(s->display, name) == 0)
			return s;
	}
	s = NULL;
	if ((id = skill_name_id(name)) != NULL && strcmp(id, name) != 0)
		s = resolve_id(e, id);
	free(id);
	return s;
}

/* "; did you mean 'a', 'b'?" or "" (allocated). */
static char *
suggestions(struct engine_snap *e, const char *name)
{
	struct buf	 b;
	const char	*best[3] = { NULL, NULL, NULL };
	size_t		 bestd[3] = { (size_t)-1, (size_t)-1, (size_t)-1 };
	size_t		 i, k, d, cap;

	cap = strlen(name) / 3 + 1;
	if (cap > 4)
		cap = 4;
	for (i = 0; i < e->n_winners; i++) {
		const struct skill	*s = e->winners[i];

		d = strlist_distance(name, s->name, cap);
		if (d > cap && strlen(name) >= 3 && strstr(s->name, name) != NULL)
			d = cap;	/* a part of the name */
		if (d > cap)
			continue;
		for (k = 0; k < 3; k++) {
			if (d < bestd[k]) {
				memmove(&best[k + 1], &best[k],
				    (2 - k) * sizeof best[0]);
				memmove(&bestd[k + 1], &bestd[k],
				    (2 - k) * sizeof bestd[0]);
				best[k] = s->uid;
				bestd[k] = d;
				break;
			}
		}
	}
	buf_init(&b, 0);
	for (k = 0; k < 3 && best[k] != NULL; k++)
		buf_printf(&b, "%s'%s'", k == 0 ? "; did you mean " : ", ",
		    best[k]);
	if (b.len > 0)
		buf_addstr(&b, "?");
	else
		buf_addstr(&b, "; use search_skills to find skills by intent");
	return buf_take(&b);
}

static int
not_found(struct engine_snap *e, const char *name, char **cause)
{
	char	*id = skill_name_id(name);
	char	*sug = suggestions(e, id != NULL ? id : name);

	free(id);	/* "Telegram Bot Buildr" is compared as an id */

	xasprintf(cause, "no skill named '%s'%s", name, sug);
	free(sug);
	return SR_NOTFOUND;
}

static cJSON *
strlist_json(const struct strlist *l)
{
	cJSON	*a = cJSON_CreateArray();
	size_t	 i;

	for (i = 0; i < l->n; i++)
		cJSON_AddItemToArray(a, cJSON_CreateString(l->v[i]));
	return a;
}

/*
 * Who signed the entry: "signer" (the trust.signers name, or null) and,
 * when the folder carries a signature, "signature" {status, signer,
 * key_id, detail} as the index recorded it (sign.h).
 */
static void
signature_fields(cJSON *o, const struct skill *s)
{
	cJSON	*sig;

	if (s->signer != NULL)
		cJSON_AddStringToObject(o, "signer", s->signer);
	else
		cJSON_AddNullToObject(o, "signer");
	if (s->signature != NULL &&
	    (sig = cJSON_Parse(s->signature)) != NULL)
		cJSON_AddItemToObject(o, "signature", sig);
}

/* A signature that is there but does not verify is a load warning. */
static void
signature_warning(cJSON *warnings, const struct skill *s)
{
	cJSON		*sig, *w;
	const char	*st, *detail, *rule = NULL;

	if (s->signature == NULL || s->signer != NULL ||
	    (sig = cJSON_Parse(s->signature)) == NULL)
		return;
	st = cJSON_GetStringValue(cJSON_GetObjectItem(sig, "status"));
	detail = cJSON_GetStringValue(cJSON_GetObjectItem(sig, "detail"));
	if (st != NULL && strcmp(st, "unknown-key") == 0)
		rule = sign_rule(SIGN_UNKNOWN_KEY);
	else if (st != NULL && strcmp(st, "changed") == 0)
		rule = sign_rule(SIGN_CHANGED);
	else if (st != NULL && strcmp(st, "valid") != 0)
		rule = sign_rule(SIGN_BAD);
	if (rule != NULL) {
		w = cJSON_CreateObject();
		cJSON_AddStringToObject(w, "id", rule);
		cJSON_AddStringToObject(w, "severity", "warn");
		cJSON_AddNumberToObject(w, "line", 0);
		cJSON_AddStringToObject(w, "excerpt", detail != NULL ? detail :
		    "the signature does not verify");
		cJSON_AddItemToArray(warnings, w);
	}
	cJSON_Delete(sig);
}

/*
 * "name" is the id to load it by; "display_name", only when the author
 * wrote a name that breaks the naming rule, is that name as written.
 */
static void
name_fields(cJSON *o, const struct skill *s)
{
	cJSON_AddStringToObject(o, "name", s->uid);
	if (s->display != NULL)
		cJSON_AddStringToObject(o, "display_name", s->display);
}

/* The fields every entry carries in search, list and load results. */
static void
entry_fields(cJSON *o, const struct skill *s)
{
	name_fields(o, s);
	cJSON_AddStringToObject(o, "kind", kind_name(s->kind));
	cJSON_AddStringToObject(o, "trust", tier_name(s->trust));
	cJSON_AddStringToObject(o, "scope", s->scope);
	cJSON_AddStringToObject(o, "path", s->path);
	signature_fields(o, s);
}

static cJSON *
match_json(const struct search_match *m)
{
	const struct skill	*s = m->skill;
	cJSON			*o, *sh, *it;
	size_t			 i;

	o = cJSON_CreateObject();
	name_fields(o, s);
	cJSON_AddStringToObject(o, "kind", kind_name(s->kind));
	cJSON_AddNumberToObject(o, "score",
	    (double)(long long)(m->score * 10000 + 0.5) / 10000);
	cJSON_AddStringToObject(o, "description", s->description);
	cJSON_AddStringToObject(o, "when_to_use", s->when_to_use);
	cJSON_AddStringToObject(o, "trust", tier_name(s->trust));
	cJSON_AddItemToObject(o, "risk", assess_risk_json(s->risk,
	    s->risk_sev));
	cJSON_AddStringToObject(o, "scope", s->scope);
	cJSON_AddStringToObject(o, "path", s->path);
	signature_fields(o, s);
	cJSON_AddItemToObject(o, "tags", strlist_json(&s->tags));
	cJSON_AddItemToObject(o, "requires_tools",
	    strlist_json(&s->requires_tools));
	cJSON_AddItemToObject(o, "fallback_for_tools",
	    strlist_json(&s->fallback_for_tools));
	sh = cJSON_AddArrayToObject(o, "shadowed");
	for (i = 0; i < m->n_shadowed; i++) {
		it = cJSON_CreateObject();
		entry_fields(it, m->shadowed[i]);
		cJSON_AddItemToArray(sh, it);
	}
	if (m->explain != NULL)
		cJSON_AddItemToObject(o, "explain",
		    cJSON_Duplicate(m->explain, 1));
	return o;
}

/*
 * The telemetry event of a search answered with o: names and stages
 * borrowed from o (the result), the query from opts.
 */
static void
search_event(struct telemetry_search_event *ev, const struct search_opts *opts,
    const cJSON *o, const struct search_result *res,
    const struct pipeline_report *rep, double ms)
{
	const cJSON	*m;
	size_t		 k = 0;

	memset(ev, 0, sizeof *ev);
	ev->query = opts->query;
	ev->top1 = res->n > 0 ? res->v[0].score : 0;
	ev->n_results = (int)res->n;
	cJSON_ArrayForEach(m, cJSON_GetObjectItem(o, "matches")) {
		if (k == TELEMETRY_TOP_MAX)
			break;
		if (k < TELEMETRY_SCORES_MAX)
			ev->scores[k] = cJSON_GetNumberValue(
			    cJSON_GetObjectItem(m, "score"));
		ev->top[k++] = cJSON_GetStringValue(cJSON_GetObjectItem(m,
		    "name"));
	}
	ev->n_top = k;
	ev->latency_ms = ms;
	ev->miss = res->miss;
	ev->rewritten = rep->rewritten;
	ev->reranked = rep->reranked;
	ev->stages = cJSON_GetObjectItem(o, "stages");
}

/* Learning from use (usage.h), as the pipeline's boost. */
static void
apply_usage(void *arg, const struct search_index *idx,
    const struct search_opts *o, struct search_result *res)
{
	usage_apply(arg, idx, o, res, clock_wall());
}

/*
 * An ENGINE_CACHED engine whose cache proved damaged mid-search: removes
 * the cache, loads the entries from the store, builds the index (and a
 * new cache) and swaps that snapshot in.
 */
static int
recache(struct engine *e, char **cause)
{
	struct engine_snap	*sn;
	struct store		*st = NULL;
	uint64_t		 skey;
	char			*path;
	int			 rv;

	xasprintf(&path, "%s.search", e->cfg->index_path);
	(void)unlink(path);
	free(path);
	if ((rv = store_open_cfg(e->cfg, 0, &st, cause)) != 0)
		return rv;
	sn = xcalloc(1, sizeof *sn);
	skill_set_init(&sn->set);
	sn->refs = 1;
	skey = store_key(st);
	if ((rv = store_load_flags(st, &sn->set, STORE_LEAN, cause)) == 0) {
		sn->skey = store_key(st) == skey ? skey : 0;
		sn->digest = store_meta_get(st, "digest");
	}
	store_close(st);
	if (rv == 0) {
		engine_snap_prepare(sn);
		rv = engine_snap_index(e, sn, cause);
	}
	if (rv != 0) {
		engine_snap_free(sn);
		return rv;
	}
	engine_swap_in(e, sn);
	return 0;
}

int
engine_search(struct engine *e, const struct search_opts *opts, cJSON **out,
    struct telemetry_search_event *ev, char **cause)
{
	struct engine_snap	*sn;
	struct search_result	 res;
	struct pipeline_report	 rep;
	struct pipeline_boost	 boost;
	cJSON			*o, *arr, *m, *stages;
	double			 t0;
	size_t			 i;
	int			 rv, use, retried = 0;

	engine_wait_ready(e);
	*out = NULL;
	memset(&res, 0, sizeof res);
	t0 = clock_ms();
again:
	sn = engine_snap_ref(e);
	/*
	 * The Ollama stages (pipeline.h); with them off, search_run() alone.
	 * The usage boost is the engine's, applied after retrieval and the
	 * reranker, when the model has learned something.
	 */
	boost.pool = USAGE_POOL;
	boost.apply = apply_usage;
	boost.arg = e->usage;
	use = search_select_list(opts->query) == NULL &&
	    usage_refresh(e->usage, clock_wall(), 0);
	if ((rv = pipeline_search(e->pipe, sn->idx, opts, use ? &boost : NULL,
	    &res, &stages, &rep, cause)) != 0) {
		engine_snap_unref(e, sn);
		return rv;
	}
	if (search_index_damaged(sn->idx) && !retried) {
		/* a damaged cache: never its answer; rebuilt from the store */
		search_result_done(&res);
		memset(&res, 0, sizeof res);
		cJSON_Delete(stages);
		engine_snap_unref(e, sn);
		if ((rv = recache(e, cause)) != 0)
			return rv;
		retried = 1;
		goto again;
	}
	o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "query", opts->query);
	arr = cJSON_AddArrayToObject(o, "matches");
	for (i = 0; i < res.n; i++) {
		m = match_json(&res.v[i]);
		cJSON_AddItemToArray(arr, m);
	}
	cJSON_AddNumberToObject(o, "total_skills", (double)res.total);
	cJSON_AddBoolToObject(o, "miss", res.miss);
	if (stages != NULL)
		cJSON_AddItemToObject(o, "stages", stages);
	if (ev != NULL)
		search_event(ev, opts, o, &res, &rep, clock_ms() - t0);
	search_result_done(&res);
	engine_snap_unref(e, sn);
	*out = o;
	return 0;
}

static int
skill_dir(const struct skill *s, char **dir)
{
	char	*slash;

	*dir = xstrdup(s->path);
	if ((slash = strrchr(*dir, '/')) != NULL)
		*slash = '\0';
	return 0;
}

/* The bundled files; *truncated (may be NULL) says the cap was hit. */
static cJSON *
list_files(struct engine *e, const struct skill *s, int *truncated)
{
	cJSON	*arr;
	char	*dir;
	int	 cut = 0;

	if (s->kind == KIND_SKILL) {
		skill_dir(s, &dir);
		arr = files_list(dir, e->cfg->max_files_per_skill, &cut);
		free(dir);
	} else
		arr = cJSON_CreateArray();
	if (truncated != NULL)
		*truncated = cut;
	return arr;
}

cJSON *
engine_files(struct engine *e, const struct skill *s)
{
	return list_files(e, s, NULL);
}

/*
 * The load policy, one place for load_skill, read_skill_file, the skill://
 * resources and the CLI: disable-model-invocation, then
 * trust.min_tier_for_load (unless allow_untrusted). cause may be NULL.
 */
int
engine_policy(struct engine *e, const struct skill *s, int allow_untrusted,
    char **cause)
{
	if (s->disable_model_invocation) {
		if (cause != NULL)
			xasprintf(cause, "'%s' can only be invoked by the user "
			    "(disable-model-invocation: true): ask the user to "
			    "run /%s themselves", s->uid, s->name);
		return SR_REFUSED;
	}
	if ((int)s->trust < e->cfg->min_tier_for_load && !allow_untrusted) {
		if (cause != NULL)
			xasprintf(cause, "'%s' is %s (%s) and trust."
			    "min_tier_for_load is %s: refused; the user can "
			    "allow it with allow_untrusted or by trusting its "
			    "path", s->uid, tier_name(s->trust), s->path,
			    tier_name((enum trust_tier)
			    e->cfg->min_tier_for_load));
		return SR_REFUSED;
	}
	return 0;
}

static cJSON *
warnings_json(const struct findings *f)
{
	cJSON	*a = cJSON_CreateArray();
	size_t	 i;

	for (i = 0; i < f->n; i++)
		cJSON_AddItemToArray(a, assess_finding_json(&f->v[i]));
	return a;
}

/* Refuses UNTRUSTED content at high risk when the config says so. */
static int
check_injection(struct engine *e, const struct skill *s, int sev,
    char **cause)
{
	if (!e->cfg->reject_untrusted_on_injection || s->trust != TIER_UNTRUSTED)
		return 0;
	if (sev < SEV_HIGH)
		return 0;
	xasprintf(cause, "'%s' is UNTRUSTED and its content is flagged as a "
	    "likely prompt injection (sanitization.reject_untrusted_on_"
	    "injection is on): refused", s->uid);
	return SR_REFUSED;
}

/*
 * Appends the bundled files' findings the index stored for s: reading
 * and scanning a whole folder on every load would cost what an index run
 * does, and the index notices an edited file (assess_stamp()). The model
 * judge's verdict (judge-*, judge.h) is stored too: a load never asks a
 * model.
 */
static void
stored_files(struct engine *e, const struct skill *s, struct findings *out)
{
	struct findings	 all;
	struct store	*st;
	struct skill	*full = NULL;
	size_t		 i;

	/* A lean entry (ENGINE_LEAN) has them in the store only. */
	if (s->lean && store_open_cfg(e->cfg, 1, &st, NULL) == 0) {
		(void)store_get(st, s->path, &full, NULL);
		store_close(st);
	}
	findings_init(&all);
	if (assess_findings_parse(full != NULL ? full->findings : s->findings,
	    &all) == 0) {
		for (i = 0; i < all.n; i++) {
			if (all.v[i].file == NULL &&
			    strncmp(all.v[i].rule, "judge-", 6) != 0)
				continue;
			findings_add(out, all.v[i].rule, all.v[i].sev,
			    all.v[i].line, "%s", all.v[i].message);
			if (all.v[i].file != NULL)
				findings_set_file(out, out->n - 1,
				    all.v[i].file);
		}
	}
	findings_done(&all);
	skill_free(full);
}

void
engine_served_done(struct engine_served *sv)
{
	free(sv->text);
	findings_done(&sv->findings);
	memset(sv, 0, sizeof *sv);
	findings_init(&sv->findings);
}

/*
 * The file a skill was indexed from, opened by the path the index resolved
 * without following a symlink: a SKILL.md (or a folder above it) turned
 * into a symlink since is refused (ELOOP), never followed to what it
 * points at.
 */
static int
read_served(const struct skill *s, size_t max, char **raw, size_t *len)
{
	struct stat	 st;
	int		 fd, rv, saved;

	*raw = NULL;
	*len = 0;
	if (s->realpath == NULL || s->realpath[0] != '/')
		return buf_read_file(s->path, max, raw, len);
	if ((fd = files_open_resolved(s->realpath)) == -1)
		return -1;
	rv = -1;
	if (fstat(fd, &st) == -1)
		goto out;
	if (!S_ISREG(st.st_mode)) {
		errno = S_ISDIR(st.st_mode) ? EISDIR : BUF_ENOTREG;
		goto out;
	}
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) == -1)
		goto out;
	rv = buf_read_fd(fd, &st, max, raw, len);
out:
	saved = errno;
	close(fd);
	errno = saved;
	return rv;
}

int
engine_served(struct engine *e, const struct skill *s, int allow_untrusted,
    struct engine_served *sv, char **cause)
{
	struct sanitizer	*san;
	struct fm		 fm;
	struct buf		 b;
	char			*raw = NULL, *body;
	size_t			 len, max, blen;
	int			 rv, err;

	memset(sv, 0, sizeof *sv);
	findings_init(&sv->findings);
	memset(&fm, 0, sizeof fm);
	if ((rv = engine_policy(e, s, allow_untrusted, cause)) != 0)
		return rv;
	max = e->cfg->allow_large ? CONFIG_LARGE_MAX :
	    (size_t)e->cfg->max_skill_size_kb * 1024;
	if (read_served(s, max, &raw, &len) == -1) {
		err = errno;
		if (err == EFBIG && e->cfg->allow_large)
			xasprintf(cause, "%s: over %zu MiB, the limit for a "
			    "skill file even with limits.allow_large", s->path,
			    CONFIG_LARGE_MAX >> 20);
		else if (err == EFBIG)
			xasprintf(cause, "%s: over limits.max_skill_size_kb; "
			    "set limits.allow_large to load it in pages",
			    s->path);
		else if (err == ELOOP || err == ENOTDIR || err == EXDEV)
			xasprintf(cause, "%s: became a symlink (or sits below "
			    "one) since it was indexed and is not followed: "
			    "refused (re-run 'skills-radar index')", s->path);
		else
			xasprintf(cause, "%s: %s (re-run 'skills-radar "
			    "index')", s->path, buf_strerror(s->path, err));
		return err == EFBIG || err == BUF_ENOTREG || err == ELOOP ||
		    err == ENOTDIR || err == EXDEV ? SR_REFUSED :
		    err == ENOENT ? SR_NOTFOUND : SR_IO;
	}
	if ((rv = engine_sanitizer_get(e, &san, cause)) != 0)
		goto out;
	/* The parser's split: what the index read is what is served. */
	fm_parse(raw, len, &fm);
	assess_frontmatter(san, raw, len, &fm, &sv->findings);
	body = sanitize_text(san, raw + fm.body_offset, len - fm.body_offset,
	    fm.body_line > 0 ? fm.body_line - 1 : 0, &blen, &sv->findings);
	stored_files(e, s, &sv->findings);
	sanitize_risk(san, &sv->findings, (int)s->trust, &sv->risk);
	if ((rv = check_injection(e, s, (int)sv->risk.sev, cause)) != 0) {
		free(body);
		engine_served_done(sv);
		goto out;
	}
	buf_init(&b, fm.body_offset + blen + 1);
	buf_add(&b, raw, fm.body_offset);
	buf_add(&b, body, blen);
	free(body);
	sv->body = fm.body_offset;
	sv->len = b.len;
	sv->text = buf_take(&b);
out:
	fm_done(&fm);
	free(raw);
	return rv;
}

static int	load_locked(struct engine *, const struct engine_load_req *,
		    cJSON **, struct telemetry_load_event *, char **);

int
engine_load(struct engine *e, const struct engine_load_req *req, cJSON **out,
    struct telemetry_load_event *ev, char **cause)
{
	struct telemetry_load_event	 dummy;
	double				 t0 = clock_ms();
	int				 rv;

	engine_wait_ready(e);
	if (ev == NULL)
		ev = &dummy;
	memset(ev, 0, sizeof *ev);
	ev->requested = req->name;
	rv = load_locked(e, req, out, ev, cause);
	ev->found = rv == 0;
	ev->latency_ms = clock_ms() - t0;
	return rv;
}

static int
load_locked(struct engine *e, const struct engine_load_req *req, cJSON **out,
    struct telemetry_load_event *ev, char **cause)
{
	struct engine_snap	*sn;
	const struct skill	*s;
	struct engine_served	 sv;
	cJSON			*o;
	const char		*clean;
	char			*page;
	size_t			 clen, max_bytes = req->max_bytes, n;
	size_t			 offset = req->offset;
	int			 rv;

	*out = NULL;
	if (req->name == NULL || *req->name == '\0') {
		xasprintf(cause, "a skill name is required");
		return SR_USAGE;
	}
	memset(&sv, 0, sizeof sv);
	findings_init(&sv.findings);
	sn = engine_snap_ref(e);
	if ((s = resolve(sn, req->name)) == NULL) {
		rv = not_found(sn, req->name, cause);
		goto out;
	}
	ev->trust = tier_name(s->trust);
	if ((rv = engine_served(e, s, req->allow_untrusted, &sv, cause)) != 0)
		goto out;
	clean = sv.text + sv.body;
	clen = sv.len - sv.body;
	if (offset > clen) {
		xasprintf(cause, "offset %zu is past the end of '%s' (%zu "
		    "bytes)", offset, s->uid, clen);
		rv = SR_USAGE;
		goto out;
	}
	if (offset < clen && ((unsigned char)clean[offset] & 0xC0) == 0x80) {
		/* A page must start on a character, or its JSON breaks. */
		xasprintf(cause, "offset %zu falls inside a multi-byte "
		    "character of '%s'; pass 0 or the next_offset of the "
		    "previous page", offset, s->uid);
		rv = SR_USAGE;
		goto out;
	}
	if (max_bytes == 0)
		max_bytes = (size_t)e->cfg->max_load_kb * 1024;
	n = files_utf8_cut(clean + offset, clen - offset, max_bytes);
	if (n == 0 && offset < clen) {
		/* A page smaller than one character: that character. */
		n = 1;
		while (offset + n < clen &&
		    ((unsigned char)clean[offset + n] & 0xC0) == 0x80)
			n++;
	}
	o = cJSON_CreateObject();
	entry_fields(o, s);
	cJSON_AddItemToObject(o, "risk", assess_risk_full(&sv.risk));
	cJSON_AddStringToObject(o, "description", s->description);
	page = xstrndup(clean + offset, n);
	cJSON_AddStringToObject(o, "content", page);
	ev->bytes = strlen(page);
	free(page);
	cJSON_AddItemToObject(o, "warnings", warnings_json(&sv.findings));
	signature_warning(cJSON_GetObjectItem(o, "warnings"), s);
	{
		int	 cut;

		cJSON_AddItemToObject(o, "files", list_files(e, s, &cut));
		/* limits.max_files_per_skill was hit: more files exist. */
		cJSON_AddBoolToObject(o, "files_truncated", cut);
	}
	cJSON_AddBoolToObject(o, "truncated", offset + n < clen);
	if (offset + n < clen)
		cJSON_AddNumberToObject(o, "next_offset", (double)(offset + n));
	else
		cJSON_AddNullToObject(o, "next_offset");
	cJSON_AddNumberToObject(o, "size", (double)clen);
	/* Borrowed from the answer: the snapshot is let go below. */
	ev->resolved = cJSON_GetStringValue(cJSON_GetObjectItem(o, "name"));
	*out = o;
out:
	engine_snap_unref(e, sn);
	engine_served_done(&sv);
	return rv;
}

int
engine_read(struct engine *e, const char *name, const char *relpath,
    cJSON **out, char **cause)
{
	struct engine_snap	*sn;
	const struct skill	*s;
	struct sanitizer	*san;
	struct findings		 f;
	cJSON			*o;
	char			*dir = NULL, *text = NULL, *clean = NULL, *page;
	size_t			 len, clen;
	int			 rv;

	engine_wait_ready(e);
	*out = NULL;
	if (name == NULL || *name == '\0' || relpath == NULL) {
		xasprintf(cause, "a skill name and a file path are required");
		return SR_USAGE;
	}
	findings_init(&f);
	sn = engine_snap_ref(e);
	if ((s = resolve(sn, name)) == NULL) {
		rv = not_found(sn, name, cause);
		goto out;
	}
	if (s->kind != KIND_SKILL) {
		xasprintf(cause, "'%s' is an %s: only skills have bundled files",
		    s->uid, kind_name(s->kind));
		rv = SR_NOTFOUND;
		goto out;
	}
	if ((rv = engine_policy(e, s, 0, cause)) != 0)
		goto out;
	skill_dir(s, &dir);
	if ((rv = files_read(dir, relpath, strlen(relpath),
	    (size_t)e->cfg->max_related_kb * 1024, &text, &len, cause)) != 0)
		goto out;
	if ((rv = engine_sanitizer_get(e, &san, cause)) != 0)
		goto out;
	clean = sanitize_text(san, text, len, 0, &clen, &f);
	findings_set_file(&f, 0, relpath);
	if ((rv = check_injection(e, s, findings_max(&f), cause)) != 0)
		goto out;
	o = cJSON_CreateObject();
	name_fields(o, s);
	cJSON_AddStringToObject(o, "path", relpath);
	cJSON_AddNumberToObject(o, "size", (double)clen);
	page = xstrndup(clean, clen);
	cJSON_AddStringToObject(o, "content", page);
	free(page);
	cJSON_AddItemToObject(o, "warnings", warnings_json(&f));
	cJSON_AddStringToObject(o, "trust", tier_name(s->trust));
	*out = o;
out:
	engine_snap_unref(e, sn);
	findings_done(&f);
	free(dir);
	free(text);
	free(clean);
	return rv;
}

static int
has_tag(const struct skill *s, const char *tag)
{
	return strlist_contains(&s->tags, tag, 1);
}

int
engine_list(struct engine *e, const struct list_filter *lf, cJSON **out,
    char **cause)
{
	struct engine_snap	*sn;
	cJSON	*arr, *o;
	size_t	 i;

	engine_wait_ready(e);
	(void)cause;
	sn = engine_snap_ref(e);
	arr = cJSON_CreateArray();
	for (i = 0; i < sn->set.n; i++) {
		const struct skill	*s = sn->set.v[i];

		if (!lf->all && (s->shadowed_by != NULL ||
		    s->disable_model_invocation))
			continue;
		if (lf->kind >= 0 && (int)s->kind != lf->kind)
			continue;
		if (lf->tier >= 0 && (int)s->trust != lf->tier)
			continue;
		if (lf->tag != NULL && !has_tag(s, lf->tag))
			continue;
		if (lf->flagged && !skill_flagged(s))
			continue;
		o = cJSON_CreateObject();
		entry_fields(o, s);
		cJSON_AddStringToObject(o, "description", s->description);
		cJSON_AddStringToObject(o, "when_to_use", s->when_to_use);
		cJSON_AddItemToObject(o, "tags", strlist_json(&s->tags));
		cJSON_AddBoolToObject(o, "user_only",
		    s->disable_model_invocation);
		cJSON_AddNumberToObject(o, "warnings", s->n_warnings);
		cJSON_AddNumberToObject(o, "flags", s->n_flags);
		cJSON_AddItemToObject(o, "risk", assess_risk_json(s->risk,
		    s->risk_sev));
		if (s->flag_ids != NULL)
			cJSON_AddStringToObject(o, "flag_ids", s->flag_ids);
		if (s->shadowed_by != NULL)
			cJSON_AddStringToObject(o, "shadowed_by", s->shadowed_by);
		else
			cJSON_AddNullToObject(o, "shadowed_by");
		cJSON_AddItemToArray(arr, o);
	}
	engine_snap_unref(e, sn);
	*out = arr;
	return 0;
}
