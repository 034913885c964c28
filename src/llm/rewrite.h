/*
 * The query rewriter (retrieval.rewriter.*): asks an Ollama model
 * (/api/generate, stream false) for English search keywords for a query,
 * so casual, fuzzy and non-English queries reach the indexed text.
 * Answers are cleaned (rewrite_clean()) and kept in an LRU by model and
 * query. Nothing here is fatal to a search: a failure returns an error
 * message and the caller searches the raw query.
 */
#ifndef SR_REWRITE_H
#define SR_REWRITE_H

#include <stddef.h>

struct config;
struct lru;

#define REWRITE_MAX_BYTES	200	/* the cleaned keywords, at most */
#define REWRITE_MAX_WORDS	12

/*
 * Rewrites query. On success returns 0 and sets *out to the cleaned
 * keywords (allocated) and *cached to whether the cache answered; on
 * failure returns SR_IO and sets *cause (allocated: connection refused,
 * timeout, HTTP error, malformed JSON, an empty answer). cache may be
 * NULL.
 */
int	 rewrite_query(const struct config *, struct lru *cache,
	    const char *query, char **out, int *cached, char **cause);

/*
 * Cleans a model's answer: its first non-blank line, quotes and
 * punctuation other than inner - _ . + # turned into blanks, blanks
 * collapsed, at most REWRITE_MAX_WORDS words and REWRITE_MAX_BYTES bytes
 * (cut at a word, never inside a UTF-8 sequence). Returns the allocated
 * result, "" when nothing is left.
 */
char	*rewrite_clean(const char *answer);

#endif
