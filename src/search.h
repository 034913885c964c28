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

#include "skill.h"
#include "strlist.h"

struct config;
struct search_index;

#define SEARCH_TOP_K_MAX 50

struct search_opts {
	const char		*query;
	int			 top_k;		/* 1..SEARCH_TOP_K_MAX */
	const struct strlist	*tags;		/* any-of, case-insensitive; NULL: none */
	int			 kind;		/* enum skill_kind, -1: any */
	int			 explain;	/* fill search_match.explain */
};

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
 * Runs one query. Query syntax: "+term" must match; "select:a,b" returns
 * exactly the named skills (in that order, score 1); otherwise free text.
 * Bad top_k or kind is SR_USAGE with *cause. Fills *res (release it with
 * search_result_done()).
 */
int	 search_run(const struct search_index *, const struct search_opts *,
	    struct search_result *res, char **cause);
void	 search_result_done(struct search_result *);

#endif
