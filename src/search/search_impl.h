/*
 * Private to the search modules (search.c, search_query.c, search_cache.c,
 * search_update.c): the layout of an index and the helpers they share.
 * Nothing else includes this header; callers use search.h. The index
 * owns every pointer below unless its comment says borrowed; a loaded
 * index's arrays point into its mapping, an incremental one's into its
 * base and overlay (search_index_free() knows which).
 */
#ifndef SR_SEARCH_IMPL_H
#define SR_SEARCH_IMPL_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "search/search.h"
#include "search/search_lite.h"
#include "core/skill.h"

struct bm25;
struct config;
struct embedder;
struct fallback;

enum { F_NAME, F_WHEN, F_DESC, F_TAGS, F_N };

struct doc {
	uint32_t	 skill;		/* index in the set */
	int32_t		 winner;	/* doc of the winner when shadowed, else -1 */
	uint16_t	 nname;		/* distinct terms in the name field */
	uint8_t		 shadowed;
	uint8_t		 project;
	uint8_t		 dead;		/* incremental: removed since the base */
	uint64_t	 namehash;	/* compact normalised name */
};

/*
 * Postings come in parts: a built or loaded index has one (its own); an
 * incremental one (search_index_update()) has the shared base's, whose
 * docs keep their numbers, and an overlay's for the docs added since,
 * numbered from nbase on.
 */
#define PARTS	2

struct search_index {
	const struct skill_set	*set;
	struct search_params	 p;
	double			 miss_threshold;
	double			 project_boost;
	struct bm25		*bm;
	struct bm25		*gram;		/* character n-grams */
	struct bm25		*pfx;		/* word prefixes, NULL: off */
	struct embedder		*emb;
	char			*emb_note;	/* why not the configured one */
	/*
	 * A dense (ollama) index whose query cannot be embedded falls back
	 * to builtin vectors of every entry, made on first need.
	 */
	pthread_mutex_t		 fb_lock;
	struct fallback		*fb;
	int			 fb_dim;	/* embedder.dim */
	/*
	 * Under fb_lock too: the per-document scratch arrays of finished
	 * queries, kept in their reset state for the next ones
	 * (search_query.c), and the shadowed docs with a winner, listed on
	 * the first query that needs them.
	 */
	struct search_dense	*pool;
	uint32_t		*shadow;
	size_t			 nshadow;
	int			 have_shadow;
	int			 dim;
	int			 dense_only;	/* cosine for every entry */
	const float		*vec;		/* nbase * dim, raw (not centred) */
	const float		*mean;		/* dim */
	/*
	 * [ndocs] the length of each raw vector centred on mean with
	 * norm_center (cosine_of() uses it when that is still p.center),
	 * or NULL: computed per query.
	 */
	const double		*norm;
	double			 norm_center;
	const struct doc	*docs;
	const struct skill	**dsk;		/* [ndocs] the entry of each doc */
	uint32_t		 ndocs;
	size_t			 total;		/* searchable */
	/* built: the arrays above; loaded: NULL, they point into map */
	float			*own_vec, *own_mean;
	double			*own_norm;
	struct doc		*own_docs;
	void			*map;		/* the mapped cache */
	size_t			 maplen;
	uint64_t		 store_key;	/* loaded: the cache's (0: none) */
	/*
	 * Opened from the cache alone (search_index_open()): set and dsk are
	 * NULL, and search_doc_skill() decodes an entry from the mapped
	 * cache when a search first needs it (its strings point into map):
	 * a search touches the entries it shows, not all of them.
	 */
	struct search_lite	 lite;

	/* Collection statistics: of this index, or recomputed (incremental). */
	uint32_t		 nlive;		/* docs not dead */
	int			 derived;	/* scores use the fields below */
	double			 avg_bm[F_N], avg_gram, avg_pfx;
	double			*vsum;		/* [dim] sum of live raw vectors */

	/* incremental */
	struct search_index	*base;		/* shared, a reference held */
	struct search_index	*over;		/* the docs added since */
	struct skill_set	 oset;		/* over's entries (borrowed) */
	uint32_t		 nbase;		/* docs below are base's */
	const float		*ovec;		/* over's vectors */
	unsigned		 refs;		/* other holders of a base */
	char			**bkeys;	/* base: "path", doc; sorted */
	size_t			 nbkeys;
	uint64_t		 lsum[F_N + 2];	/* base: field length sums */
	int			 have_lsum;
};

/*
 * Opens the configured embedder into x (x->emb, dim, dense_only, the
 * fallback lock), or the builtin one when an ollama backend cannot be
 * reached (the reason goes to x->emb_note). A bad value in the
 * configuration stays an error: returns 0 or an enum sr_status with
 * *cause set (the caller frees it). It exists so a build, a load and an
 * update pick the vector space the same way.
 */
int	 search_open_embedder(struct search_index *x, const struct config *,
	    char **cause);

/*
 * Sets x->own_mean to the damped mean of the live raw vectors, from
 * x->vsum: a build and an update centre vectors the same way.
 */
void	 search_set_mean(struct search_index *x);

/*
 * Sets x->own_norm (and norm, norm_center) to the length of every doc's
 * raw vector centred on x->mean, with the arithmetic of a query's
 * cosine: call after search_set_mean(), once the vectors are in place.
 */
void	 search_set_norms(struct search_index *x);

/*
 * A qsort()/bsearch() comparator of two string pointers (the paths of
 * key pairs); returns as strcmp().
 */
int	 search_path_cmp(const void *a, const void *b);

/* Links each shadowed doc of x to the doc of its winner (by path). */
void	 search_link_winners(struct search_index *x);

/*
 * "select:a,b": fills res with the exact names in list (uid first, then
 * the bare name, case-insensitive), in order, score 1; returns SR_OK.
 */
int	 search_select(const struct search_index *x,
	    const struct search_opts *o, const char *list,
	    struct search_result *res);

/*
 * Copies b's winners by path into b->bkeys (owned by b, freed by
 * search_index_free()), once: after the snapshot the base was built for
 * is gone its entries may be too, so a build takes them while they are
 * all alive and an update finds winners again from the copy.
 */
void	 search_base_keys(struct search_index *b);

/*
 * Shared by the build (search.c) and the query (search_query.c): the
 * same tokens, hashes, idf and centring on both sides, so a query scores
 * against the index exactly as it was built.
 */
#define SEARCH_QUERY_TERMS	64	/* distinct query terms kept */
#define SEARCH_QUERY_BYTES	4096	/* longer queries are cut */
#define SEARCH_QUERY_GRAMS	512	/* distinct query n-grams kept */
#define GRAM_N			4
#define MIN_GRAM		0.03	/* evidence without a shared term */
#define MIN_COSINE		0.2
#define PFX_LEN			5

/* The builtin vector space of a dense index (search_index.fb). */
struct fallback {
	struct embedder	*emb;
	float		*vec;		/* ndocs * emb->dim, centred */
	float		*mean;
	double		*norm;		/* ndocs squared centred norms */
	double		 norm_center;
};

struct bm25_posting;
struct skill;


/* The bm25 index of part p (0: own or base, 1: overlay), or NULL. */
const struct bm25 *search_part_bm(const struct search_index *x, int p,
	    int which);
/* The number of part p's first doc in x (0, or nbase for the overlay). */
uint32_t search_part_off(const struct search_index *x, int p);
/* The sat of posting po of b, against x's collection statistics. */
float	 search_post_sat(const struct search_index *x, int which,
	    const struct bm25 *b, const struct bm25_posting *po);
/* The idf of tok (or hash h) in x; its term ids per part go to tid. */
double	 search_term_idf(const struct search_index *x, int which,
	    const char *tok, uint64_t h, long *tid, double maxidf);
/* The hash of a normalised name with separators dropped. */
uint64_t search_compact_hash(const char *raw);
/* The text an entry is embedded from (allocated). */
char	*search_embed_text(const struct skill *s);
/* The hash of a character n-gram (len bytes). */
uint64_t search_gram_hash(const char *t, size_t len);
/* Centring of raw vectors on a mean (see search.c). */
void	 search_center_vec(const struct search_index *x, float *v);
void	 search_center_with(const struct search_index *x, const float *mean,
	    int dim, float *v);
double	 search_centred_sq(const float *v, const float *mean, float c,
	    int dim);
double	*search_centred_norms(const float *vec, const float *ovec,
	    uint32_t nbase, uint32_t n, const float *mean, int dim,
	    double center);
void	 search_raw_mean(const struct search_index *x, const float *vec,
	    float *mean, int dim);

/*
 * The entry of doc d: x->dsk[d], or for an index opened from its cache
 * alone the entry decoded from the cache when first needed.
 */
static inline const struct skill *
search_doc_skill(const struct search_index *x, uint32_t d)
{
	if (x->lite.v == NULL)
		return x->dsk[d];
	return search_lite_get(&x->lite, d, x->docs[d].shadowed);
}

/*
 * Per-document scratch arrays of a query (search_query.c), pooled in
 * their index in their reset state; here so that search_index_free()
 * frees the pool without calling into the query module.
 */
struct search_dense {
	struct search_dense	*next;
	uint32_t		 n;
	float			*lex, *cov, *cos, *gram, *pfx, *graw, *part;
	uint64_t		*mask, *nmask, *seen;
	int32_t			*via;
	uint8_t			*hascos;
	uint32_t		*list, *ord;
	size_t			 nlist;
};

static inline void
search_dense_free(struct search_dense *dn)
{
	free(dn->lex);
	free(dn->cov);
	free(dn->cos);
	free(dn->gram);
	free(dn->pfx);
	free(dn->mask);
	free(dn->nmask);
	free(dn->hascos);
	free(dn->seen);
	free(dn->graw);
	free(dn->part);
	free(dn->via);
	free(dn->list);
	free(dn->ord);
	free(dn);
}

/* Frees x's scratch pool and shadow list (search_index_free()). */
static inline void
search_query_free(struct search_index *x)
{
	struct search_dense	*dn;

	while ((dn = x->pool) != NULL) {
		x->pool = dn->next;
		search_dense_free(dn);
	}
	free(x->shadow);
	x->shadow = NULL;
	x->nshadow = 0;
	x->have_shadow = 0;
}

#endif
