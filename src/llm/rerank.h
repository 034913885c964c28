/*
 * The reranker (retrieval.reranker.*): an Ollama model scores how well
 * each candidate skill answers the raw query, 0 to 10.
 *
 * Pair mode sends one /api/generate request per candidate, all in flight
 * at once (at most retrieval.reranker.parallel), each with its own
 * timeout, so one slow or failing pair costs only itself. Batch mode
 * sends one prompt listing every candidate and reads "N=score" lines.
 * Pair scores are cached by model, query and candidate text.
 *
 * A candidate the model could not score keeps score -1 and an error
 * message; the caller keeps its fused score. Items are the caller's;
 * rerank_item_done() frees the error.
 */
#ifndef SR_RERANK_H
#define SR_RERANK_H

#include <stddef.h>

struct config;
struct lru;

#define RERANK_TEXT_MAX		500	/* bytes of a candidate's text sent */

struct rerank_item {
	const char	*text;		/* borrowed: description and when_to_use */
	double		 score;		/* 0..10, -1: not scored */
	char		*error;		/* owned; why not scored */
	int		 cached;
	double		 ms;		/* request time, 0 when cached */
};

void	 rerank_item_done(struct rerank_item *);

/* Scores every item with one request each (pair mode). */
void	 rerank_pairs(const struct config *, struct lru *cache,
	    const char *query, struct rerank_item *items, size_t n);

/*
 * Scores the items with one request (batch mode). Returns 0, or SR_IO
 * with *cause set when the request failed as a whole (every item then
 * carries the error too); items the answer has no line for are left
 * unscored with their own error.
 */
int	 rerank_batch(const struct config *, struct lru *cache,
	    const char *query, struct rerank_item *items, size_t n,
	    char **cause);

/*
 * Reads the first whole number 0..10 in a pair answer ("8", "Score: 7/10"
 * gives 7; "11", "3.5" or no number at all fail). Returns 0 and sets
 * *score, or -1.
 */
int	 rerank_parse_score(const char *answer, double *score);

/*
 * Reads "N=score" lines (1-based N, blanks allowed around '=') into
 * scores[N-1] for N <= n, scores clamped to 0..10; other lines, indexes
 * out of range and repeated indexes (the first wins) are ignored.
 * scores not found stay as they were. Returns how many were set.
 */
size_t	 rerank_parse_batch(const char *answer, double *scores, size_t n);

#endif
