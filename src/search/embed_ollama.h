/*
 * The ollama embedder backend (embedder.backend: ollama): vectors from
 * Ollama's /api/embed, sent in batches of embedder.batch texts.
 *
 * Skill vectors are kept in an SQLite file of their own,
 * ollama-vectors.db next to store.path (never in index.db), keyed by
 * model, dimension and the SHA-256 of the embedded text: a rebuild sends
 * only texts it has not seen, and a model change (or a model whose
 * dimension changed) re-embeds by itself. Query vectors stay in memory
 * only (an LRU of embedder.cache_size), so no query text or vector is
 * written to disk.
 *
 * embed_ollama_new() learns the dimension from the vector cache or by
 * embedding a probe text; when the server cannot be reached and nothing
 * is cached it fails with SR_IO and *cause, and the caller falls back to
 * the builtin embedder. The embedder is safe to use from several
 * threads; embed_free() releases it.
 */
#ifndef SR_EMBED_OLLAMA_H
#define SR_EMBED_OLLAMA_H

struct config;
struct embedder;

int	 embed_ollama_new(const struct config *cfg, struct embedder **out,
	    char **cause);

#endif
