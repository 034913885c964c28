/*
 * What every remote embedder shares (embed_ollama.c, embed_cloud.c): a
 * persistent vector cache for skill texts, an in-memory LRU for queries,
 * batching, and learning the dimension from a probe text.
 *
 * Skill vectors are kept in an SQLite file of their own, KIND-vectors.db
 * next to store.path (never in index.db), keyed by model, dimension and
 * the SHA-256 of the embedded text: a rebuild sends only texts it has not
 * seen, and a model change (or a model whose dimension changed)
 * re-embeds by itself. Query vectors stay in memory only (an LRU of
 * embedder.cache_size), so no query text or vector is written to disk.
 *
 * A backend supplies one function that embeds a batch. When the first
 * call (the probe) fails and nothing is cached, embed_remote_new() fails
 * with SR_IO and *cause, and the caller falls back to the builtin
 * embedder. The embedder is safe to use from several threads.
 */
#ifndef SR_EMBED_REMOTE_H
#define SR_EMBED_REMOTE_H

#include <stddef.h>

struct config;
struct embedder;

struct remote_api {
	const char	*kind;		/* "ollama", "openai", "voyage" */
	/*
	 * Embeds n texts (query: 1 when they are search queries) into *out,
	 * n * *dim floats the caller frees. Returns 0 or an enum sr_status
	 * with *cause.
	 */
	int		(*fetch)(void *arg, const char *const *texts, size_t n,
			    int query, float **out, int *dim, char **cause);
	void		*arg;
	void		(*free_arg)(void *);
};

/*
 * A remote embedder for model through api (copied; api->arg is owned from
 * here on, even on failure). name is what results show ("ollama:MODEL").
 */
int	 embed_remote_new(const struct config *cfg, const char *name,
	    const char *model, const struct remote_api *api,
	    struct embedder **out, char **cause);

#endif
