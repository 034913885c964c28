/*
 * Cloud embedders, bring your own key (embedder.backend: openai | voyage):
 * the providers' /embeddings endpoints as the batch call of a remote
 * embedder (embed_remote.h: the vector cache keyed by model, dimension
 * and content hash, the query LRU, batching, fail-open to the builtin
 * vectors when the probe fails).
 *
 * The key is read from the environment variable embedder.api_key_env
 * names (default OPENAI_API_KEY or VOYAGE_API_KEY), never from the
 * config file. A 429 or 503 answer is retried after its Retry-After (or
 * 1, 2, 4 s) while embedder.timeout_ms allows, at most three times; then
 * the call fails and the caller falls back.
 */
#ifndef SR_EMBED_CLOUD_H
#define SR_EMBED_CLOUD_H

struct config;
struct embedder;

int	 embed_cloud_new(const struct config *cfg, struct embedder **out,
	    char **cause);

/*
 * doctor's report for a cloud backend: {backend, url, model, key_env,
 * key_set, reachable, error, dim, price_per_mtok, index_tokens,
 * index_usd, monthly_usd, assumptions}. index_bytes is the size of the
 * texts the index embeds (name, description, when_to_use of every
 * entry); one probe text is sent. *problems is raised when the key is
 * missing or the server is not reachable.
 */
struct cJSON;
struct cJSON *embed_cloud_report(const struct config *cfg,
	    size_t index_bytes, size_t entries, int *problems);

#endif
