/*
 * Hybrid retrieval over the indexed text of a skill set (DESIGN §8):
 * BM25F over normalised, stemmed tokens (name parts weighted most), the
 * built-in hashed character n-gram embedder, and a fusion into one
 * calibrated score in [0, 1].
 *
 * search_index_build() borrows the skill set: the set must outlive the
 * index and must not change while the index exists (rebuild instead).
 * A built index is read-only, so concurrent search_run() calls are safe.
 * A search does no file I/O.
 */
#ifndef SR_SEARCH_H
#define SR_SEARCH_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "core/skill.h"
#include "base/strlist.h"

struct config;
struct search_index;

#define SEARCH_TOP_K_MAX 50

struct search_opts {
	const char		*query;
	int			 top_k;		/* 1..SEARCH_TOP_K_MAX */
	const struct strlist	*tags;		/* any-of, case-insensitive; NULL: none */
	int			 kind;		/* enum skill_kind, -1: any */
	int			 explain;	/* fill search_match.explain */
	/* Ollama stages for this query: SEARCH_STAGE_* (0: as configured). */
	int			 rewrite;
	int			 rerank;
};

#define SEARCH_STAGE_CONFIG	0
#define SEARCH_STAGE_ON		1
#define SEARCH_STAGE_OFF	(-1)

struct search_match {
	const struct skill	 *skill;	/* borrowed from the set */
	double			  score;	/* calibrated, [0, 1] */
	const struct skill	**shadowed;	/* duplicates that matched as well */
	size_t			  n_shadowed;
	cJSON			 *explain;	/* owned; NULL unless opts.explain */
};

struct search_result {
	struct search_match	*v;
	size_t			 n;
	size_t			 total;		/* searchable skills in the index */
	int			 miss;		/* no match, or top-1 < miss_threshold */
	/*
	 * Owned; NULL unless a dense (ollama) embedder could not embed the
	 * query: the ranking then used the builtin embedder's vectors of the
	 * entries (made on first need) and of the query.
	 */
	char			*embed_error;
};

/*
 * Builds the in-memory index over every entry of set (shadowed entries and
 * entries with disable_model_invocation are kept out of the results but
 * shadowed ones are attached to their winner). Returns 0 or an
 * enum sr_status with *cause set (free it).
 */
int	 search_index_build(const struct skill_set *set, const struct config *,
	    struct search_index **out, char **cause);
void	 search_index_free(struct search_index *);

/*
 * The name of the embedder the index uses ("builtin", "ollama:MODEL").
 * *note (may be NULL) is set to why the configured embedder is not the
 * one in use (the server could not be reached...), else NULL; both are
 * borrowed from the index.
 */
const char *search_index_embedder(const struct search_index *,
	    const char **note);

/*
 * Runs one query. Query syntax: "+term" must match; "select:a,b" returns
 * exactly the named skills (in that order, score 1); otherwise free text.
 * Bad top_k or kind is SR_USAGE with *cause. Fills *res (release it with
 * search_result_done()).
 */
int	 search_run(const struct search_index *, const struct search_opts *,
	    struct search_result *res, char **cause);
void	 search_result_done(struct search_result *);

/*
 * The fusion constants (see the comment at the top of search.c). The
 * defaults were fitted on the dev queries; search_params_default()
 * returns them and search_index_build_params() builds with others.
 */
struct search_params {
	double	 k1;		/* BM25 saturation (used at build time) */
	double	 w_field[4];	/* BM25F weights: name, when_to_use, description, tags */
	double	 b_field[4];	/* BM25F length normalisation per field */
	double	 w_lex;		/* ranking: normalised BM25 */
	double	 w_cov;		/* ranking: idf-weighted coverage of query terms */
	double	 w_cos;		/* ranking: cosine of the vectors */
	double	 w_name;	/* ranking: share of the name's parts in the query */
	double	 w_exact;	/* ranking: query equals the name */
	double	 w_gram;	/* ranking: BM25 over character 4-grams */
	double	 gram_k1, gram_b;	/* its saturation and length normalisation */
	double	 w_pfx;		/* ranking: BM25 over 5-character word prefixes */
	double	 c0, c1, c2;	/* calibration: sigmoid(c0 + c1 raw + c2 margin) */
	double	 center;	/* vector centring strength */
	double	 shadow_ratio;	/* attach a duplicate scoring >= ratio * winner */
	int	 full_scan;	/* no cosine pruning (tests) */
};

void	 search_params_default(struct search_params *);
/* Builds with explicit params (NULL: the defaults). */
int	 search_index_build_params(const struct skill_set *set,
	    const struct config *, const struct search_params *,
	    struct search_index **out, char **cause);

/*
 * The cache file and incremental updates have headers of their own,
 * search_cache.h and search_update.h: a caller includes the one it uses.
 */

/*
 * The one parse of the "select:" prefix: the list after it (leading
 * blanks skipped), or NULL when q is not a select query. SEARCH_SELECT
 * writes one.
 */
#define SEARCH_SELECT	"select:"
const char	*search_select_list(const char *q);

#endif
