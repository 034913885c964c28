/*
 * Incremental updates of a built search index (search_update.h): a new
 * index shares the old one's base (postings and vectors), tombstones the
 * removed docs, indexes the added ones in an overlay and recomputes the
 * collection statistics over the live docs.
 */
#include "autoconfig.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "search/bm25.h"
#include "search/embed.h"
#include "search/search.h"
#include "search/search_impl.h"
#include "search/search_update.h"
#include "base/status.h"
#include "base/xmalloc.h"

static int
ptr_cmp(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)*(const void *const *)a;
	uintptr_t y = (uintptr_t)*(const void *const *)b;

	return x < y ? -1 : x > y;
}

static int
in_ptrs(const struct skill *const *v, size_t n, const struct skill *s)
{
	return n > 0 && bsearch(&s, v, n, sizeof(*v), ptr_cmp) != NULL;
}

/* The live, unshadowed doc at path: the overlay's first, then the base's. */
static int32_t
find_winner(const struct search_index *x, const char *path)
{
	char		**hit;
	uint32_t	  d;

	if (path == NULL)
		return -1;
	for (d = x->nbase; d < x->ndocs; d++)
		if (!x->docs[d].shadowed && strcmp(search_doc_skill(x, d)->path, path) == 0)
			return (int32_t)d;
	hit = x->base->nbkeys == 0 ? NULL : bsearch(&path, x->base->bkeys,
	    x->base->nbkeys, 2 * sizeof(*x->base->bkeys), search_path_cmp);
	if (hit == NULL)
		return -1;
	d = (uint32_t)(uintptr_t)hit[1];
	return x->docs[d].shadowed ? -1 : (int32_t)d;
}

/* The raw vector of doc d. */
static const float *
vec_of(const struct search_index *x, uint32_t d)
{
	if (d < x->nbase)
		return x->vec + (size_t)d * x->dim;
	return x->ovec + (size_t)(d - x->nbase) * x->dim;
}

static void
vec_add(double *sum, const float *v, int dim, double sign)
{
	int	 i;

	for (i = 0; i < dim; i++)
		sum[i] += sign * v[i];
}

size_t
search_index_pending(const struct search_index *x)
{
	uint32_t	 d, dead = 0;

	if (x->base == NULL)
		return 0;
	for (d = 0; d < x->nbase; d++)
		dead += x->docs[d].dead;
	return (size_t)(x->ndocs - x->nbase) + dead;
}

int
search_index_update(const struct search_index *old,
    const struct skill_set *set, const struct skill *const *gone,
    size_t ngone, const struct skill *const *added, size_t nadded,
    const struct config *cfg, struct search_index **out, char **cause)
{
	struct search_index	*x, *base;
	const struct skill	**gs;
	struct doc		*docs;
	uint64_t		 sum[F_N + 2];
	uint32_t		 d, k;
	size_t			 i;
	int			 f, rv;

	*out = NULL;
	*cause = NULL;
	base = old->base != NULL ? old->base : (struct search_index *)old;
	x = xcalloc(1, sizeof(*x));
	x->set = set;
	x->p = old->p;
	x->miss_threshold = old->miss_threshold;
	x->project_boost = old->project_boost;
	if ((rv = search_open_embedder(x, cfg, cause)) != SR_OK ||
	    x->dim != old->dim || x->dense_only != old->dense_only ||
	    strcmp(x->emb->name, old->emb->name) != 0) {
		/* Another vector space than old's: only a build will do. */
		embed_free(x->emb);
		free(x->emb_note);
		pthread_mutex_destroy(&x->fb_lock);
		free(x);
		if (rv == SR_OK)
			*cause = xstrdup("the embedder changed: build the index");
		return rv != SR_OK ? rv : SR_USAGE;
	}
	if (old->base == NULL)
		search_base_keys(base);	/* a loaded index: on its first update */
	__atomic_add_fetch(&base->refs, 1, __ATOMIC_RELAXED);
	x->base = base;
	x->derived = 1;
	x->bm = base->bm;
	x->gram = base->gram;
	x->pfx = base->pfx;
	x->vec = base->vec;
	x->nbase = base->ndocs;

	gs = xreallocarray(NULL, ngone + 1, sizeof(*gs));
	if (ngone > 0)
		memcpy(gs, gone, ngone * sizeof(*gs));
	if (ngone > 1)
		qsort(gs, ngone, sizeof(*gs), ptr_cmp);
	/* The overlay: the old one's docs still there, and the new ones. */
	skill_set_init(&x->oset);
	for (d = old->nbase; d < old->ndocs; d++)
		if (!in_ptrs(gs, ngone, search_doc_skill(old, d)))
			skill_set_add(&x->oset,
			    (struct skill *)search_doc_skill(old, d));
	for (i = 0; i < nadded; i++)
		if (!added[i]->disable_model_invocation)
			skill_set_add(&x->oset, (struct skill *)added[i]);
	if (x->oset.n > 0 && (rv = search_index_build_params(&x->oset, cfg,
	    &x->p, &x->over, cause)) != SR_OK) {
		free(gs);
		search_index_free(x);
		return rv;
	}
	if (x->over != NULL && (x->over->dim != x->dim ||
	    strcmp(x->over->emb->name, x->emb->name) != 0)) {
		/* The overlay fell back to another embedder. */
		free(gs);
		search_index_free(x);
		*cause = xstrdup("the overlay's embedder differs: build the index");
		return SR_USAGE;
	}
	x->ovec = x->over != NULL ? x->over->vec : NULL;
	x->ndocs = x->nbase + (x->over != NULL ? x->over->ndocs : 0);
	x->docs = docs = xcalloc(x->ndocs ? x->ndocs : 1, sizeof(*docs));
	x->own_docs = docs;
	x->dsk = xreallocarray(NULL, x->ndocs ? x->ndocs : 1, sizeof(*x->dsk));

	/* The sum of the live vectors: the old one, moved by what changed. */
	x->vsum = xcalloc((size_t)x->dim, sizeof(*x->vsum));
	if (old->vsum != NULL)
		memcpy(x->vsum, old->vsum, (size_t)x->dim * sizeof(*x->vsum));
	else
		for (d = 0; d < old->ndocs; d++)
			if (!old->docs[d].dead)
				vec_add(x->vsum, vec_of(old, d), x->dim, 1);
	for (d = old->nbase; d < old->ndocs; d++)
		vec_add(x->vsum, vec_of(old, d), x->dim, -1);
	for (d = 0; d < x->nbase; d++) {
		docs[d] = old->docs[d];
		x->dsk[d] = search_doc_skill(old, d);
		if (!docs[d].dead && in_ptrs(gs, ngone, x->dsk[d])) {
			docs[d].dead = docs[d].shadowed = 1;
			docs[d].winner = -1;
			vec_add(x->vsum, vec_of(old, d), x->dim, -1);
		}
	}
	free(gs);
	for (k = 0; x->over != NULL && k < x->over->ndocs; k++) {
		docs[x->nbase + k] = x->over->docs[k];
		docs[x->nbase + k].winner = -1;
		x->dsk[x->nbase + k] = search_doc_skill(x->over, k);
		vec_add(x->vsum, x->over->vec + (size_t)k * x->dim, x->dim, 1);
	}

	/* Collection statistics over the live docs: the base's less the dead. */
	if (!base->have_lsum) {
		for (f = 0; f < F_N; f++)
			base->lsum[f] = bm25_len_sum(base->bm, f);
		base->lsum[F_N] = bm25_len_sum(base->gram, 0);
		base->lsum[F_N + 1] = base->pfx != NULL ?
		    bm25_len_sum(base->pfx, 0) : 0;
		base->have_lsum = 1;
	}
	memcpy(sum, base->lsum, sizeof(sum));
	x->nlive = x->nbase;
	for (d = 0; d < x->nbase; d++) {
		if (!docs[d].dead)
			continue;
		x->nlive--;
		for (f = 0; f < F_N; f++)
			sum[f] -= bm25_len(base->bm, d, f);
		sum[F_N] -= bm25_len(base->gram, d, 0);
		if (base->pfx != NULL)
			sum[F_N + 1] -= bm25_len(base->pfx, d, 0);
	}
	if (x->over != NULL) {
		x->nlive += x->over->ndocs;
		for (f = 0; f < F_N; f++)
			sum[f] += bm25_len_sum(x->over->bm, f);
		sum[F_N] += bm25_len_sum(x->over->gram, 0);
		if (x->over->pfx != NULL)
			sum[F_N + 1] += bm25_len_sum(x->over->pfx, 0);
	}
	for (f = 0; f < F_N + 2; f++) {
		double a = x->nlive ? (double)sum[f] / x->nlive : 0;

		if (a <= 0)
			a = 1;	/* as bm25_finish() */
		if (f < F_N)
			x->avg_bm[f] = a;
		else if (f == F_N)
			x->avg_gram = a;
		else
			x->avg_pfx = a;
	}
	x->mean = x->own_mean = xcalloc((size_t)x->dim, sizeof(float));
	search_set_mean(x);
	search_set_norms(x);

	/* Winners: kept while alive, else found again by path. */
	for (d = 0; d < x->ndocs; d++) {
		int32_t w = docs[d].winner;

		if (!docs[d].shadowed || docs[d].dead)
			continue;
		if (d >= x->nbase || w < 0 || (uint32_t)w >= x->nbase ||
		    docs[w].dead)
			docs[d].winner = find_winner(x, search_doc_skill(x, d)->shadowed_by);
	}
	for (d = 0; d < x->ndocs; d++)
		if (!docs[d].shadowed)
			x->total++;
	*out = x;
	return SR_OK;
}
