/*
 * The retrieval pipeline around search_run(): the optional Ollama stages
 * (DESIGN §8) in one place. With every stage off it is search_run() and
 * nothing more. Otherwise:
 *
 *   rewriter  the query is rewritten into keywords (rewrite.h); mode
 *             replace searches the keywords, expand searches the raw
 *             query and the keywords and keeps each skill's better score.
 *   retrieval search_run(), asking for retrieval.reranker.pool results
 *             when the reranker runs.
 *   reranker  each candidate gets a 0..10 score for the RAW query
 *             (rerank.h); final = weight * score/10 + (1 - weight) *
 *             fused, so it stays a calibrated score in [0, 1]; a
 *             candidate that could not be scored keeps its fused score.
 *   boost     the caller's (the engine applies learning from use,
 *             usage.h, this way): over a pool of boost->pool results,
 *             after the reranker and before the cut to top_k.
 *   embedder  reported only: which embedder the index was built with
 *             (indexed_with) and why it is not the configured one, or why
 *             the query could not be embedded (it is then ranked with
 *             the builtin embedder: used).
 *
 * Every stage fails open: the search returns and *stages says what ran
 * and what failed, e.g. {"rewriter":{"ran":false,"error":"..."}}.
 * struct pipeline holds the caches (LRU) and is safe to share between
 * threads; it borrows cfg.
 */
#ifndef SR_PIPELINE_H
#define SR_PIPELINE_H

#include <cjson/cJSON.h>

#include "search/search.h"

struct config;
struct pipeline;

struct pipeline	*pipeline_new(const struct config *cfg);
void		 pipeline_free(struct pipeline *);

/* What ran, for telemetry flags. */
struct pipeline_report {
	int	 rewritten;	/* the rewriter ran and changed the query */
	int	 reranked;	/* the reranker scored at least one candidate */
};

/*
 * A re-scoring the caller applies after retrieval and the reranker: it
 * wants pool candidates, and apply re-scores res in place (the pipeline
 * sorts it again). The pipeline leaves it out of select: queries.
 */
struct pipeline_boost {
	int	  pool;
	void	(*apply)(void *arg, const struct search_index *,
		    const struct search_opts *, struct search_result *);
	void	 *arg;
};

/*
 * Runs one search through the stages, with boost (NULL: none). Returns what search_run() returns
 * (errors are the query's own: bad top_k, empty query); on success fills
 * *res (search_result_done()), sets *stages to a new object (NULL when no
 * stage was involved; cJSON_Delete() it) and *rep.
 */
int	 pipeline_search(struct pipeline *, const struct search_index *,
	    const struct search_opts *, const struct pipeline_boost *boost,
	    struct search_result *res, cJSON **stages,
	    struct pipeline_report *rep, char **cause);

#endif
