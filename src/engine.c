#include "autoconfig.h"

#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "buf.h"
#include "config.h"
#include "engine.h"
#include "files.h"
#include "frontmatter.h"
#include "indexer.h"
#include "pipeline.h"
#include "sanitize.h"
#include "status.h"
#include "store.h"
#include "telemetry.h"
#include "xmalloc.h"

/*
 * One immutable state of the index: the entries and the search index
 * over them. A reload builds a new snapshot and swaps it in; calls in
 * flight keep the snapshot they started with (a reference each), so they
 * see the old or the new index, never a mix, and a swap never waits for
 * them. The last reference frees it.
 */
struct engine_snap {
	struct skill_set	 set;		/* every entry, owned */
	struct skill		**winners;	/* sorted by uid, borrowed */
	size_t			 n_winners;
	size_t			 searchable;
	struct search_index	*idx;
	unsigned long		 gen;
	char			*digest;	/* index.db content it was built from */
	int			 sorted;	/* set in indexer_precedence() order */
	int			 refs;		/* under engine.snap_lock */
};

struct engine {
	const struct config	*cfg;
	struct engine_snap	*cur;		/* holds one reference */
	unsigned long		 gen;
	pthread_mutex_t		 snap_lock;
	pthread_mutex_t		 reload_lock;	/* one reload at a time */
	/*
	 * index.db for per-path updates, under reload_lock: kept open, since
	 * closing the last connection checkpoints the WAL (an fsync).
	 */
	struct store		*st;
	/* The background compaction of the search index (one at a time). */
	pthread_t		 compact;
	int			 compacting;	/* a thread to join, under reload_lock */
	int			 compact_done;	/* atomic: it finished */
	struct sanitizer	*san;		/* compiled on first use */
	struct telemetry	*tel;		/* NULL: telemetry off */
	struct pipeline		*pipe;		/* Ollama stages and caches */
	char			*tel_error;
	pthread_mutex_t		 san_lock;
	/* ENGINE_BACKGROUND: the first rescan runs on this thread. */
	pthread_t		 first;
	int			 first_running;	/* thread to join */
	int			 ready;		/* under ready_lock */
	char			*first_error;
	pthread_mutex_t		 ready_lock;
	pthread_cond_t		 ready_cond;
};

/* The HTTP session of the current caller, for telemetry (engine_caller()). */
static _Thread_local const char *caller_session;

void
engine_caller(const char *session)
{
	caller_session = session;
}

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

static void
snap_prepare(struct engine_snap *e)
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

static void
snap_free(struct engine_snap *sn)
{
	if (sn == NULL)
		return;
	search_index_free(sn->idx);
	free(sn->winners);
	skill_set_done(&sn->set);
	free(sn->digest);
	free(sn);
}

/* Takes a reference on the current snapshot; give it back with snap_put(). */
static struct engine_snap *
snap_get(struct engine *e)
{
	struct engine_snap	*sn;

	pthread_mutex_lock(&e->snap_lock);
	sn = e->cur;
	sn->refs++;
	pthread_mutex_unlock(&e->snap_lock);
	return sn;
}

static void
snap_put(struct engine *e, struct engine_snap *sn)
{
	int	 last;

	pthread_mutex_lock(&e->snap_lock);
	last = --sn->refs == 0;
	pthread_mutex_unlock(&e->snap_lock);
	if (last)
		snap_free(sn);
}

const struct engine_snap *
engine_snap_get(struct engine *e)
{
	return snap_get(e);
}

void
engine_snap_put(struct engine *e, const struct engine_snap *sn)
{
	if (sn != NULL)
		snap_put(e, (struct engine_snap *)sn);
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
 * write it only costs the next process the build.
 */
static int
snap_search_index(struct engine *e, struct engine_snap *sn, char **cause)
{
	char	*path, *ignored = NULL;
	int	 rv = 0;

	xasprintf(&path, "%s.search", e->cfg->index_path);
	if (search_index_load(&sn->set, e->cfg, path, &sn->idx, &ignored) == 0)
		goto out;
	free(ignored);
	ignored = NULL;
	if ((rv = search_index_build(&sn->set, e->cfg, &sn->idx, cause)) != 0)
		goto out;
	search_index_save(sn->idx, path, &ignored);
out:
	free(ignored);
	free(path);
	return rv;
}

static int	get_sanitizer(struct engine *, struct sanitizer **, char **);

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

int
engine_open(const struct config *cfg, int flags, struct engine **out,
    char **cause)
{
	struct engine		*e;
	struct engine_snap	*sn;
	struct index_report	 rep;
	struct store		*st = NULL;
	int			 rv, need_index;

	*out = NULL;
	e = xcalloc(1, sizeof *e);
	e->cfg = cfg;
	e->pipe = pipeline_new(cfg);
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
		if ((rv = store_load(st, &sn->set, cause)) != 0)
			goto fail;
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
	snap_prepare(sn);
	if ((rv = snap_search_index(e, sn, cause)) != 0)
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
	store_close(e->st);
	if (e->cur != NULL)
		snap_put(e, e->cur);	/* callers gave theirs back already */
	sanitize_free(e->san);
	pthread_mutex_destroy(&e->snap_lock);
	pthread_mutex_destroy(&e->reload_lock);
	pthread_mutex_destroy(&e->san_lock);
	free(e);
}

/*
 * An incremental search index carries an overlay (re-indexed by each
 * update) and tombstones. Past ENGINE_COMPACT_AT of them a thread builds
 * the index afresh for the current snapshot and swaps it in, unless an
 * update came first (then the next update tries again); past
 * ENGINE_OVERLAY_MAX the update itself builds afresh, which bounds its
 * cost under a stream of edits faster than a build (~150 ms at 10,000).
 */
#define ENGINE_COMPACT_AT	32
#define ENGINE_OVERLAY_MAX	256

static void	swap_in(struct engine *, struct engine_snap *);

/*
 * The compaction thread: a fresh search index over the snapshot current
 * when it started, swapped in as a new snapshot with the same entries if
 * no update swapped meanwhile; the search cache beside index.db is
 * refreshed with it.
 */
static void *
compact_main(void *arg)
{
	struct engine		*e = arg;
	struct engine_snap	*sn, *nsn;
	char			*cause = NULL, *path;
	size_t			 i;
	int			 swapped = 0;

	sn = snap_get(e);
	nsn = xcalloc(1, sizeof *nsn);
	skill_set_init(&nsn->set);
	for (i = 0; i < sn->set.n; i++)
		skill_set_add(&nsn->set, skill_ref(sn->set.v[i]));
	nsn->digest = sn->digest != NULL ? xstrdup(sn->digest) : NULL;
	nsn->sorted = sn->sorted;
	nsn->refs = 1;
	snap_prepare(nsn);
	if (search_index_build(&nsn->set, e->cfg, &nsn->idx, &cause) == 0) {
		pthread_mutex_lock(&e->reload_lock);
		pthread_mutex_lock(&e->snap_lock);
		swapped = e->cur == sn;
		pthread_mutex_unlock(&e->snap_lock);
		if (swapped) {
			/* The digest may have moved with rejected files only. */
			free(nsn->digest);
			nsn->digest = sn->digest != NULL ?
			    xstrdup(sn->digest) : NULL;
			nsn->refs++;	/* ours, for the save below */
			swap_in(e, nsn);
		}
		pthread_mutex_unlock(&e->reload_lock);
	}
	free(cause);
	cause = NULL;
	if (swapped) {
		xasprintf(&path, "%s.search", e->cfg->index_path);
		search_index_save(nsn->idx, path, &cause);
		free(cause);
		free(path);
		snap_put(e, nsn);
	} else
		snap_free(nsn);
	snap_put(e, sn);
	__atomic_store_n(&e->compact_done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* Starts the compaction when the search index has grown (reload_lock held). */
static void
maybe_compact(struct engine *e, struct engine_snap *sn)
{
	if (search_index_pending(sn->idx) < ENGINE_COMPACT_AT)
		return;
	if (e->compacting) {
		/* Running: it may be waiting for our lock, never join it then. */
		if (!__atomic_load_n(&e->compact_done, __ATOMIC_ACQUIRE))
			return;
		pthread_join(e->compact, NULL);
		e->compacting = 0;
	}
	e->compact_done = 0;
	if (pthread_create(&e->compact, NULL, compact_main, e) == 0)
		e->compacting = 1;
}

static void
swap_in(struct engine *e, struct engine_snap *sn)
{
	struct engine_snap	*old;

	pthread_mutex_lock(&e->snap_lock);
	old = e->cur;
	sn->gen = ++e->gen;
	e->cur = sn;
	pthread_mutex_unlock(&e->snap_lock);
	snap_put(e, old);
}

/* engine_reload() with reload_lock held. */
static int
reload_locked(struct engine *e, const char *trigger, int *changed,
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
	snap_prepare(sn);
	if ((rv = snap_search_index(e, sn, cause)) != 0) {
		snap_free(sn);
		goto out;
	}
	swap_in(e, sn);
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
	rv = reload_locked(e, trigger, changed, cause);
	pthread_mutex_unlock(&e->reload_lock);
	return rv;
}

/* ---- per-path updates ------------------------------------------------ */

static int
cmp_entry(const void *a, const void *b)
{
	return skill_cmp_precedence(*(struct skill *const *)a,
	    *(struct skill *const *)b);
}

static int
cmp_strp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The first index in v[0..n) whose uid is not below uid. */
static size_t
lower_uid(struct skill *const *v, size_t n, const char *uid)
{
	size_t	 lo = 0, hi = n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (strcmp(v[mid]->uid, uid) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}


/* What a delta did, for the writer of index.db. */
struct derived {
	struct engine_snap	*sn;		/* the next snapshot */
	struct skill		**rows;		/* entries to write (borrowed) */
	size_t			  nrows;
	const char		**gone;		/* paths to delete (borrowed) */
	size_t			  ngone;
	int			  changed;
};

static void
derived_done(struct derived *dv)
{
	snap_free(dv->sn);
	free(dv->rows);
	free(dv->gone);
	memset(dv, 0, sizeof *dv);
}

/*
 * The next snapshot: cur's entries (shared, not copied) minus removed[]
 * and the paths of ups[], plus ups[] (taken), with duplicate precedence
 * re-evaluated only for the uids involved. An entry whose shadowed_by
 * changes is copied first: the old snapshot keeps its own. The digest is
 * adjusted by the lines that changed (and extra, for the rejects); it is
 * NULL when cur's is not one this build can adjust.
 */
static int
derive(struct engine *e, struct engine_snap *cur, struct skill **ups,
    size_t nup, const char *const *removed, size_t nrm, uint64_t extra,
    struct derived *dv, char **cause)
{
	struct skill	**base, **nv, **uv, *s;
	const char	**drop, **uids, **upp, *want;
	const struct skill **sgone;
	size_t		  n = cur->set.n, nd = 0, nsg = 0, nu = 0, i, j, k, lo,
			  hi, olo, nn = 0;
	uint64_t	  sum = 0;
	int		  have_sum, rv = 0;

	memset(dv, 0, sizeof *dv);
	have_sum = indexer_digest_parse(cur->digest, &sum) == 0;
	sum += extra;
	/* cur's entries in precedence order (a copy: readers use cur's). */
	base = xreallocarray(NULL, n + 1, sizeof *base);
	if (n > 0)
		memcpy(base, cur->set.v, n * sizeof *base);
	if (!cur->sorted && n > 1)
		qsort(base, n, sizeof *base, cmp_entry);
	drop = xreallocarray(NULL, nrm + nup + 1, sizeof *drop);
	for (i = 0; i < nrm; i++)
		drop[nd++] = removed[i];
	for (i = 0; i < nup; i++)
		drop[nd++] = ups[i]->path;
	if (nd > 1)
		qsort(drop, nd, sizeof *drop, cmp_strp);
	uv = xreallocarray(NULL, nup + 1, sizeof *uv);
	if (nup > 0)
		memcpy(uv, ups, nup * sizeof *uv);
	if (nup > 1)
		qsort(uv, nup, sizeof *uv, cmp_entry);
	/* The uids whose precedence is looked at again. */
	uids = xreallocarray(NULL, 2 * nup + nrm + 1, sizeof *uids);
	for (i = 0; i < nup; i++)
		uids[nu++] = ups[i]->uid;
	upp = xreallocarray(NULL, nup + 1, sizeof *upp);
	for (i = 0; i < nup; i++)
		upp[i] = ups[i]->path;
	if (nup > 1)
		qsort(upp, nup, sizeof *upp, cmp_strp);
	dv->gone = xreallocarray(NULL, nrm + nup + 1, sizeof *dv->gone);
	/* Entries of cur the new set no longer has (for the search index). */
	sgone = xreallocarray(NULL, n + 1, sizeof *sgone);
	/* Kept old entries, merged with the new ones in order. */
	nv = xreallocarray(NULL, n + nup + 1, sizeof *nv);
	for (i = 0, j = 0; i < n || j < nup;) {
		if (i < n && bsearch(&base[i]->path, drop, nd, sizeof *drop,
		    cmp_strp) != NULL) {
			uids[nu++] = base[i]->uid;
			sgone[nsg++] = base[i];
			/* Gone unless an upsert has this path. */
			if (bsearch(&base[i]->path, upp, nup, sizeof *upp,
			    cmp_strp) == NULL)
				dv->gone[dv->ngone++] = base[i]->path;
			dv->changed = 1;
			i++;
			continue;
		}
		if (j < nup && (i == n || skill_cmp_precedence(uv[j], base[i]) < 0))
			nv[nn++] = uv[j++];
		else
			nv[nn++] = skill_ref(base[i++]);
	}
	if (nup > 0)
		dv->changed = 1;
	dv->rows = xreallocarray(NULL, nn + 1, sizeof *dv->rows);
	for (i = 0; i < nup; i++)
		dv->rows[dv->nrows++] = ups[i];
	if (nu > 1)
		qsort(uids, nu, sizeof *uids, cmp_strp);
	for (k = 0; k < nu; k++) {
		if (k > 0 && strcmp(uids[k], uids[k - 1]) == 0)
			continue;
		/* The old group leaves the digest, the new one enters. */
		olo = lower_uid(base, n, uids[k]);
		for (i = olo; i < n && strcmp(base[i]->uid, uids[k]) == 0; i++)
			sum -= indexer_digest_entry(base[i]);
		lo = lower_uid(nv, nn, uids[k]);
		for (hi = lo; hi < nn && strcmp(nv[hi]->uid, uids[k]) == 0; hi++)
			;
		for (i = lo; i < hi; i++) {
			s = nv[i];
			want = i == lo ? NULL : nv[lo]->path;
			if ((want == NULL) != (s->shadowed_by == NULL) ||
			    (want != NULL && strcmp(want, s->shadowed_by) != 0)) {
				for (j = 0; j < nup && ups[j] != s; j++)
					;
				if (j == nup) {
					/* Shared with cur: change a copy. */
					sgone[nsg++] = s;
					nv[i] = skill_dup(s);
					skill_free(s);
					s = nv[i];
					dv->rows[dv->nrows++] = s;
				}
				free(s->shadowed_by);
				s->shadowed_by = want != NULL ? xstrdup(want) :
				    NULL;
				dv->changed = 1;
			}
			sum += indexer_digest_entry(s);
		}
	}
	free(uids);
	free(upp);
	free(uv);
	free(drop);
	free(base);
	dv->sn = xcalloc(1, sizeof *dv->sn);
	dv->sn->set.v = nv;
	dv->sn->set.n = dv->sn->set.cap = nn;
	dv->sn->refs = 1;
	dv->sn->sorted = 1;
	dv->sn->digest = have_sum ? indexer_digest_str(sum) : NULL;
	if (!dv->changed) {
		free(sgone);
		return 0;
	}
	snap_prepare(dv->sn);
	/*
	 * The search index: cur's plus an overlay of the rows written (new
	 * entries, and copies whose precedence changed), or a fresh build
	 * once the overlay and tombstones outgrow ENGINE_OVERLAY_MAX.
	 */
	if (search_index_pending(cur->idx) + dv->nrows + nsg >
	    ENGINE_OVERLAY_MAX)
		rv = search_index_build(&dv->sn->set, e->cfg, &dv->sn->idx,
		    cause);
	else if ((rv = search_index_update(cur->idx, &dv->sn->set, sgone, nsg,
	    (const struct skill *const *)dv->rows, dv->nrows, e->cfg,
	    &dv->sn->idx, cause)) != 0) {
		/* Another vector space (the embedder changed): build afresh. */
		free(*cause);
		*cause = NULL;
		rv = search_index_build(&dv->sn->set, e->cfg, &dv->sn->idx,
		    cause);
	}
	free(sgone);
	if (rv != 0)
		derived_done(dv);
	return rv;
}

int
engine_apply(struct engine *e, struct skill **ups, size_t nup,
    const char *const *removed, size_t nrm, const char *trigger,
    int *changed, char **cause)
{
	struct derived		 dv;
	struct engine_snap	*cur;
	double			 t0 = clock_ms();
	size_t			 i;
	int			 rv;

	*changed = 0;
	for (i = 0; i < nup; i++) {
		if (ups[i] == NULL || ups[i]->path == NULL ||
		    ups[i]->uid == NULL || ups[i]->name == NULL) {
			xasprintf(cause, "engine_apply: an entry without a "
			    "path, uid or name");
			for (i = 0; i < nup; i++)
				skill_free(ups[i]);
			return SR_USAGE;
		}
	}
	pthread_mutex_lock(&e->reload_lock);
	cur = snap_get(e);
	rv = derive(e, cur, ups, nup, removed, nrm, 0, &dv, cause);
	snap_put(e, cur);
	if (rv == 0 && dv.changed) {
		swap_in(e, dv.sn);
		dv.sn = NULL;
		*changed = 1;
		maybe_compact(e, e->cur);
		telemetry_index(e->tel, e->cur->set.n, clock_ms() - t0,
		    trigger);
	}
	derived_done(&dv);
	pthread_mutex_unlock(&e->reload_lock);
	return rv;
}

int
engine_update_paths(struct engine *e, const struct strlist *paths,
    const char *trigger, int *changed, char **cause)
{
	struct index_delta	 d;
	struct derived		 dv;
	struct store_delta	 sd;
	struct engine_snap	*cur;
	struct sanitizer	*san;
	struct store		*st = NULL;
	const char		**rg = NULL;
	double			 t0 = clock_ms();
	size_t			 i;
	int			 rv, stale = 0;

	*changed = 0;
	memset(&dv, 0, sizeof dv);
	index_delta_init(&d);
	if ((rv = get_sanitizer(e, &san, cause)) != 0)
		return rv;
	pthread_mutex_lock(&e->reload_lock);
	cur = snap_get(e);
	if (e->st == NULL &&
	    (rv = store_open_cfg(e->cfg, 0, &e->st, cause)) != 0)
		goto out;
	st = e->st;
	if (cur->digest == NULL || indexer_digest_parse(cur->digest,
	    &(uint64_t){ 0 }) != 0) {
		d.full = 1;	/* an index.db this build did not write */
		goto out;
	}
	if ((rv = indexer_scan_paths(e->cfg, san, st, &cur->set, paths, &d,
	    cause)) != 0 || d.full)
		goto out;
	rv = derive(e, cur, d.up.v, d.up.n, (const char *const *)d.gone.v,
	    d.gone.n, d.rej_delta, &dv, cause);
	d.up.n = 0;		/* taken */
	if (rv != 0)
		goto out;
	if (!dv.changed && d.rej.n == 0 && d.rej_gone.n == 0)
		goto out;
	rg = xreallocarray(NULL, d.rej_gone.n + 1, sizeof *rg);
	for (i = 0; i < d.rej_gone.n; i++)
		rg[i] = d.rej_gone.v[i];
	memset(&sd, 0, sizeof sd);
	sd.gone = dv.gone;
	sd.ngone = dv.ngone;
	sd.up = dv.rows;
	sd.nup = dv.nrows;
	sd.rej_gone = rg;
	sd.nrej_gone = d.rej_gone.n;
	sd.rej = &d.rej;
	if ((rv = store_update(st, &sd, cur->digest, dv.sn->digest, &stale,
	    cause)) != 0)
		goto out;

	if (stale) {
		d.full = 1;	/* another process wrote index.db */
		goto out;
	}
	if (!dv.changed) {
		/* Only rejected files changed: the entries are the same. */
		pthread_mutex_lock(&e->snap_lock);
		free(e->cur->digest);
		e->cur->digest = dv.sn->digest;
		dv.sn->digest = NULL;
		pthread_mutex_unlock(&e->snap_lock);
		goto out;
	}
	swap_in(e, dv.sn);
	dv.sn = NULL;
	*changed = 1;
	telemetry_index(e->tel, e->cur->set.n, clock_ms() - t0, trigger);
	maybe_compact(e, e->cur);
out:
	free(rg);
	derived_done(&dv);
	if (rv != 0 && st != NULL) {
		store_close(st);	/* opened afresh next time */
		e->st = NULL;
	}
	snap_put(e, cur);
	if (rv == 0 && d.full)
		rv = reload_locked(e, trigger, changed, cause);
	pthread_mutex_unlock(&e->reload_lock);
	index_delta_done(&d);
	return rv;
}

int
engine_swap(struct engine *e, struct skill_set *set, const char *trigger,
    int *changed, char **cause)
{
	struct engine_snap	*sn;
	double			 t0 = clock_ms();
	int			 rv;

	*changed = 0;
	pthread_mutex_lock(&e->reload_lock);
	sn = xcalloc(1, sizeof *sn);
	sn->set = *set;
	skill_set_init(set);
	sn->refs = 1;
	sn->sorted = 1;		/* store_load()'s order */
	snap_prepare(sn);
	if ((rv = snap_search_index(e, sn, cause)) != 0) {
		snap_free(sn);
		goto out;
	}
	swap_in(e, sn);
	*changed = 1;
	telemetry_index(e->tel, sn->set.n, clock_ms() - t0, trigger);
out:
	pthread_mutex_unlock(&e->reload_lock);
	return rv;
}

size_t
engine_count(struct engine *e)
{
	struct engine_snap	*sn = snap_get(e);
	size_t			 n = sn->searchable;

	snap_put(e, sn);
	return n;
}

/*
 * The sanitiser, compiled on first use: a search never needs it, and
 * compiling the catalogue is a good part of a short CLI run.
 */
static int
get_sanitizer(struct engine *e, struct sanitizer **out, char **cause)
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

	if (get_sanitizer(e, &san, &cause) != 0) {
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

static const struct skill *
resolve(struct engine_snap *e, const char *name)
{
	struct skill	*s;
	char		*uid;

	if (name == NULL || *name == '\0')
		return NULL;
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
	char	*sug = suggestions(e, name);

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

/* The fields every entry carries in search, list and load results. */
static void
entry_fields(cJSON *o, const struct skill *s)
{
	cJSON_AddStringToObject(o, "name", s->uid);
	cJSON_AddStringToObject(o, "kind", kind_name(s->kind));
	cJSON_AddStringToObject(o, "trust", tier_name(s->trust));
	cJSON_AddStringToObject(o, "scope", s->scope);
	cJSON_AddStringToObject(o, "path", s->path);
}

static cJSON *
match_json(const struct search_match *m)
{
	const struct skill	*s = m->skill;
	cJSON			*o, *sh, *it;
	size_t			 i;

	o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "name", s->uid);
	cJSON_AddStringToObject(o, "kind", kind_name(s->kind));
	cJSON_AddNumberToObject(o, "score",
	    (double)(long long)(m->score * 10000 + 0.5) / 10000);
	cJSON_AddStringToObject(o, "description", s->description);
	cJSON_AddStringToObject(o, "when_to_use", s->when_to_use);
	cJSON_AddStringToObject(o, "trust", tier_name(s->trust));
	cJSON_AddStringToObject(o, "scope", s->scope);
	cJSON_AddStringToObject(o, "path", s->path);
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

int
engine_search(struct engine *e, const struct search_opts *opts, cJSON **out,
    char **cause)
{
	struct engine_snap	*sn;
	struct search_result	 res;
	struct pipeline_report	 rep;
	cJSON			*o, *arr, *m, *stages;
	double			 t0;
	size_t			 i;
	int			 rv;

	engine_wait_ready(e);
	*out = NULL;
	memset(&res, 0, sizeof res);
	t0 = clock_ms();
	sn = snap_get(e);
	/* The Ollama stages (pipeline.h); with them off, search_run() alone. */
	if ((rv = pipeline_search(e->pipe, sn->idx, opts, &res, &stages, &rep,
	    cause)) != 0) {
		snap_put(e, sn);
		return rv;
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
	if (e->tel != NULL) {
		const char	*names[20];
		size_t		 k, n = res.n < 20 ? res.n : 20;

		for (k = 0; k < n; k++)
			names[k] = res.v[k].skill->uid;
		telemetry_search_ex(e->tel, opts->query, res.n > 0 ?
		    res.v[0].score : 0, (int)res.n, names, n, clock_ms() - t0,
		    res.miss, rep.rewritten, rep.reranked, stages,
		    caller_session);
	}
	search_result_done(&res);
	snap_put(e, sn);
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

/* The load policy shared by load and read. */
static int
check_policy(struct engine *e, const struct skill *s, int allow_untrusted,
    char **cause)
{
	if (s->disable_model_invocation) {
		xasprintf(cause, "'%s' can only be invoked by the user "
		    "(disable-model-invocation: true): ask the user to run "
		    "/%s themselves", s->uid, s->name);
		return SR_REFUSED;
	}
	if ((int)s->trust < e->cfg->min_tier_for_load && !allow_untrusted) {
		xasprintf(cause, "'%s' is %s (%s) and trust.min_tier_for_load "
		    "is %s: refused; the user can allow it with "
		    "allow_untrusted or by trusting its path", s->uid,
		    tier_name(s->trust), s->path,
		    tier_name((enum trust_tier)e->cfg->min_tier_for_load));
		return SR_REFUSED;
	}
	return 0;
}

static cJSON *
warnings_json(const struct findings *f)
{
	cJSON	*a = cJSON_CreateArray(), *o;
	size_t	 i;

	for (i = 0; i < f->n; i++) {
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "id", f->v[i].rule);
		cJSON_AddStringToObject(o, "severity",
		    severity_name(f->v[i].sev));
		cJSON_AddNumberToObject(o, "line", f->v[i].line);
		cJSON_AddStringToObject(o, "excerpt", f->v[i].message);
		cJSON_AddItemToArray(a, o);
	}
	return a;
}

/* Refuses flagged UNTRUSTED content when the config says so. */
static int
check_injection(struct engine *e, const struct skill *s,
    const struct findings *f, char **cause)
{
	if (!e->cfg->reject_untrusted_on_injection || s->trust != TIER_UNTRUSTED)
		return 0;
	if (findings_max(f) < SEV_HIGH)
		return 0;
	xasprintf(cause, "'%s' is UNTRUSTED and its content is flagged as a "
	    "likely prompt injection (sanitization.reject_untrusted_on_"
	    "injection is on): refused", s->uid);
	return SR_REFUSED;
}

static int	load_locked(struct engine *, const char *, size_t, size_t, int,
		    cJSON **, char **);

int
engine_load(struct engine *e, const char *name, size_t offset,
    size_t max_bytes, int allow_untrusted, cJSON **out, char **cause)
{
	struct engine_snap	*sn;
	const struct skill	*s;
	const char		*content;
	double			 t0 = clock_ms();
	int			 rv;

	engine_wait_ready(e);
	rv = load_locked(e, name, offset, max_bytes, allow_untrusted, out,
	    cause);
	if (e->tel != NULL && name != NULL) {
		sn = snap_get(e);
		s = resolve(sn, name);
		content = rv == 0 ? cJSON_GetStringValue(cJSON_GetObjectItem(*out,
		    "content")) : NULL;
		telemetry_load(e->tel, name, s != NULL ? s->uid : NULL, rv == 0,
		    s != NULL ? tier_name(s->trust) : NULL,
		    content != NULL ? strlen(content) : 0, clock_ms() - t0,
		    caller_session);
		snap_put(e, sn);
	}
	return rv;
}

static int
load_locked(struct engine *e, const char *name, size_t offset,
    size_t max_bytes, int allow_untrusted, cJSON **out, char **cause)
{
	struct engine_snap	*sn;
	const struct skill	*s;
	struct sanitizer	*san;
	struct findings		 f;
	struct fm		 fm;
	cJSON			*o;
	char			*text = NULL, *clean = NULL;
	size_t			 len, clen, max, n;
	int			 rv;

	*out = NULL;
	if (name == NULL || *name == '\0') {
		xasprintf(cause, "a skill name is required");
		return SR_USAGE;
	}
	findings_init(&f);
	memset(&fm, 0, sizeof fm);
	sn = snap_get(e);
	if ((s = resolve(sn, name)) == NULL) {
		rv = not_found(sn, name, cause);
		goto out;
	}
	if ((rv = check_policy(e, s, allow_untrusted, cause)) != 0)
		goto out;
	max = e->cfg->allow_large ? (size_t)16 << 20 :
	    (size_t)e->cfg->max_skill_size_kb * 1024;
	if (buf_read_file(s->path, max, &text, &len) == -1) {
		if (errno == EFBIG) {
			xasprintf(cause, "%s: over limits.max_skill_size_kb; "
			    "set limits.allow_large to load it in pages",
			    s->path);
			rv = SR_REFUSED;
		} else {
			xasprintf(cause, "%s: %s (re-run 'skills-radar index')",
			    s->path, strerror(errno));
			rv = errno == ENOENT ? SR_NOTFOUND : SR_IO;
		}
		goto out;
	}
	if ((rv = get_sanitizer(e, &san, cause)) != 0)
		goto out;
	fm_parse(text, len, &fm);
	clean = sanitize_text(san, text + fm.body_offset,
	    len - fm.body_offset, fm.body_line > 0 ? fm.body_line - 1 : 0,
	    &clen, &f);
	if ((rv = check_injection(e, s, &f, cause)) != 0)
		goto out;
	if (offset > clen) {
		xasprintf(cause, "offset %zu is past the end of '%s' (%zu "
		    "bytes)", offset, s->uid, clen);
		rv = SR_USAGE;
		goto out;
	}
	if (max_bytes == 0)
		max_bytes = (size_t)e->cfg->max_load_kb * 1024;
	n = files_utf8_cut(clean + offset, clen - offset, max_bytes);
	if (n == 0 && offset < clen)
		n = clen - offset < 4 ? clen - offset : 4;	/* tiny page */
	o = cJSON_CreateObject();
	entry_fields(o, s);
	cJSON_AddStringToObject(o, "description", s->description);
	{
		char	*page = xstrndup(clean + offset, n);

		cJSON_AddStringToObject(o, "content", page);
		free(page);
	}
	cJSON_AddItemToObject(o, "warnings", warnings_json(&f));
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
	*out = o;
out:
	snap_put(e, sn);
	fm_done(&fm);
	findings_done(&f);
	free(text);
	free(clean);
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
	sn = snap_get(e);
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
	if ((rv = check_policy(e, s, 0, cause)) != 0)
		goto out;
	skill_dir(s, &dir);
	if ((rv = files_read(dir, relpath, strlen(relpath),
	    (size_t)e->cfg->max_related_kb * 1024, &text, &len, cause)) != 0)
		goto out;
	if ((rv = get_sanitizer(e, &san, cause)) != 0)
		goto out;
	clean = sanitize_text(san, text, len, 0, &clen, &f);
	if ((rv = check_injection(e, s, &f, cause)) != 0)
		goto out;
	o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "name", s->uid);
	cJSON_AddStringToObject(o, "path", relpath);
	cJSON_AddNumberToObject(o, "size", (double)clen);
	page = xstrndup(clean, clen);
	cJSON_AddStringToObject(o, "content", page);
	free(page);
	cJSON_AddItemToObject(o, "warnings", warnings_json(&f));
	cJSON_AddStringToObject(o, "trust", tier_name(s->trust));
	*out = o;
out:
	snap_put(e, sn);
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
	sn = snap_get(e);
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
		if (lf->flagged && s->n_flags == 0)
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
		if (s->flag_ids != NULL)
			cJSON_AddStringToObject(o, "flag_ids", s->flag_ids);
		if (s->shadowed_by != NULL)
			cJSON_AddStringToObject(o, "shadowed_by", s->shadowed_by);
		else
			cJSON_AddNullToObject(o, "shadowed_by");
		cJSON_AddItemToArray(arr, o);
	}
	snap_put(e, sn);
	*out = arr;
	return 0;
}
