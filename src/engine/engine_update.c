/*
 * Per-entry updates of the engine (engine.h: engine_apply(),
 * engine_update_paths(), engine_swap()) and the background compaction of
 * the incremental search index they grow. Split from engine.c along the
 * seam it had: everything here builds a next snapshot from the current
 * one and swaps it in under reload_lock.
 */
#include "autoconfig.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "core/config.h"
#include "engine/engine.h"
#include "engine/engine_impl.h"
#include "index/indexer.h"
#include "search/search.h"
#include "search/search_cache.h"
#include "search/search_update.h"
#include "base/status.h"
#include "store/store.h"
#include "telemetry/telemetry.h"
#include "base/xmalloc.h"

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

	sn = engine_snap_ref(e);
	nsn = xcalloc(1, sizeof *nsn);
	skill_set_init(&nsn->set);
	for (i = 0; i < sn->set.n; i++)
		skill_set_add(&nsn->set, skill_ref(sn->set.v[i]));
	nsn->digest = sn->digest != NULL ? xstrdup(sn->digest) : NULL;
	nsn->sorted = sn->sorted;
	nsn->refs = 1;
	engine_snap_prepare(nsn);
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
			engine_swap_in(e, nsn);
		}
		pthread_mutex_unlock(&e->reload_lock);
	}
	free(cause);
	cause = NULL;
	if (swapped) {
		xasprintf(&path, "%s.search", e->cfg->index_path);
		/* 0: its rows are the store's of some moment, unnamed */
		search_index_save(nsn->idx, path, 0, &cause);
		free(cause);
		free(path);
		engine_snap_unref(e, nsn);
	} else
		engine_snap_free(nsn);
	engine_snap_unref(e, sn);
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
	engine_snap_free(dv->sn);
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
		if (j < nup && (i == n ||
		    skill_cmp_precedence(uv[j], base[i]) < 0))
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
	engine_snap_prepare(dv->sn);
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
	cur = engine_snap_ref(e);
	rv = derive(e, cur, ups, nup, removed, nrm, 0, &dv, cause);
	engine_snap_unref(e, cur);
	if (rv == 0 && dv.changed) {
		engine_swap_in(e, dv.sn);
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
	if ((rv = engine_sanitizer_get(e, &san, cause)) != 0)
		return rv;
	pthread_mutex_lock(&e->reload_lock);
	cur = engine_snap_ref(e);
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
	engine_swap_in(e, dv.sn);
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
	engine_snap_unref(e, cur);
	if (rv == 0 && d.full)
		rv = engine_reload_locked(e, trigger, changed, cause);
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
	engine_snap_prepare(sn);
	if ((rv = engine_snap_index(e, sn, cause)) != 0) {
		engine_snap_free(sn);
		goto out;
	}
	engine_swap_in(e, sn);
	*changed = 1;
	telemetry_index(e->tel, sn->set.n, clock_ms() - t0, trigger);
out:
	pthread_mutex_unlock(&e->reload_lock);
	return rv;
}

