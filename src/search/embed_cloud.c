/*
 * Cloud embedders (embed_cloud.h): OpenAI and Voyage AI. Both take
 * POST URL/embeddings {"model", "input": [texts]} with a bearer key and
 * answer {"data": [{"index": i, "embedding": [...]}, ...]}; Voyage also
 * takes "input_type" (document or query).
 */
#include "autoconfig.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "base/clock.h"
#include "core/config.h"
#include "search/embed_cloud.h"
#include "search/embed_remote.h"
#include "search/embedder.h"
#include "llm/ollama.h"
#include "base/status.h"
#include "base/xmalloc.h"

#define CLOUD_BODY_MAX	(64u << 20)
#define CLOUD_RETRIES	3

static const struct provider {
	const char	*kind;
	const char	*url;
	const char	*model;
	const char	*key_env;
	int		 input_type;	/* sends "input_type" */
} providers[] = {
	{ "openai", "https://api.openai.com/v1", "text-embedding-3-small",
	  "OPENAI_API_KEY", 0 },
	{ "voyage", "https://api.voyageai.com/v1", "voyage-3.5-lite",
	  "VOYAGE_API_KEY", 1 },
};

/*
 * List prices, US dollars per million input tokens, as the providers
 * published them (openai.com/api/pricing, docs.voyageai.com/docs/pricing)
 * in 2025; embedder.price_per_mtok overrides them.
 */
static const struct {
	const char	*model;
	double		 usd;
} prices[] = {
	{ "text-embedding-3-small", 0.02 },
	{ "text-embedding-3-large", 0.13 },
	{ "text-embedding-ada-002", 0.10 },
	{ "voyage-3.5-lite", 0.02 },
	{ "voyage-3.5", 0.06 },
	{ "voyage-3-large", 0.18 },
	{ "voyage-multilingual-2", 0.12 },
	{ "voyage-code-3", 0.18 },
};

static const struct provider *
provider_of(const struct config *cfg)
{
	size_t	 i;

	for (i = 0; i < sizeof providers / sizeof *providers; i++) {
		if (strcmp(cfg->embedder, providers[i].kind) == 0)
			return &providers[i];
	}
	return &providers[0];
}

/* The provider defaults embedder.url / .model / .api_key_env fall to. */
static const char *
embed_cloud_url(const struct config *cfg)
{
	/* embedder.url left at the Ollama default means "the provider's" */
	if (cfg->embed_url == NULL ||
	    strcmp(cfg->embed_url, OLLAMA_URL_DEFAULT) == 0)
		return provider_of(cfg)->url;
	return cfg->embed_url;
}

static const char *
embed_cloud_model(const struct config *cfg)
{
	if (cfg->embed_model == NULL ||
	    strcmp(cfg->embed_model, "nomic-embed-text") == 0)
		return provider_of(cfg)->model;
	return cfg->embed_model;
}

static const char *
embed_cloud_key_env(const struct config *cfg)
{
	if (cfg->embed_key_env == NULL || *cfg->embed_key_env == '\0')
		return provider_of(cfg)->key_env;
	return cfg->embed_key_env;
}

/*
 * The list price in US dollars per million input tokens of the model
 * (embedder.price_per_mtok when set), or a negative number when unknown.
 */
static double
embed_cloud_price(const struct config *cfg)
{
	const char	*model = embed_cloud_model(cfg);
	size_t		 i;

	if (cfg->embed_price >= 0)
		return cfg->embed_price;
	for (i = 0; i < sizeof prices / sizeof *prices; i++) {
		if (strcmp(prices[i].model, model) == 0)
			return prices[i].usd;
	}
	return -1;
}

struct cloud_arg {
	const struct provider	*p;
	char			*url;
	char			*model;
	char			*key;
	long			 timeout_ms;
};

/* Copies data[].embedding into out, by index. */
static int
take(const struct cloud_arg *a, cJSON *j, size_t n, float **out, int *dim,
    char **cause)
{
	cJSON	*data = cJSON_GetObjectItem(j, "data"), *it, *emb, *x;
	float	*v = NULL;
	char	*seen;
	int	 d = -1, idx;
	size_t	 k, got = 0;

	if (!cJSON_IsArray(data) || (size_t)cJSON_GetArraySize(data) != n) {
		xasprintf(cause, "%s/embeddings: expected %zu embeddings, got "
		    "%d", a->url, n, cJSON_IsArray(data) ?
		    cJSON_GetArraySize(data) : 0);
		return SR_IO;
	}
	seen = xcalloc(n, 1);
	cJSON_ArrayForEach(it, data) {
		emb = cJSON_GetObjectItem(it, "embedding");
		x = cJSON_GetObjectItem(it, "index");
		idx = cJSON_IsNumber(x) ? x->valueint : (int)got;
		if (idx < 0 || (size_t)idx >= n || seen[idx] ||
		    !cJSON_IsArray(emb) || cJSON_GetArraySize(emb) < 1 ||
		    (d != -1 && cJSON_GetArraySize(emb) != d)) {
			xasprintf(cause, "%s/embeddings: embedding %zu has a "
			    "bad shape or index", a->url, got);
			goto fail;
		}
		if (d == -1) {
			d = cJSON_GetArraySize(emb);
			v = xreallocarray(NULL, n * (size_t)d, sizeof *v);
		}
		seen[idx] = 1;
		k = 0;
		cJSON_ArrayForEach(x, emb) {
			if (!cJSON_IsNumber(x)) {
				xasprintf(cause, "%s/embeddings: embedding %d "
				    "holds a non-number", a->url, idx);
				goto fail;
			}
			v[(size_t)idx * (size_t)d + k++] =
			    (float)x->valuedouble;
		}
		got++;
	}
	free(seen);
	*out = v;
	*dim = d;
	return SR_OK;
fail:
	free(seen);
	free(v);
	return SR_IO;
}

static int
cloud_fetch(void *arg, const char *const *texts, size_t n, int query,
    float **out, int *dim, char **cause)
{
	struct cloud_arg	*a = arg;
	struct ollama_call	 c;
	cJSON			*o, *in;
	char			*body;
	double			 t0 = clock_ms(), left;
	long			 wait_s;
	size_t			 i;
	int			 attempt, rv = SR_IO;

	*out = NULL;
	*cause = NULL;
	o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "model", a->model);
	in = cJSON_AddArrayToObject(o, "input");
	for (i = 0; i < n; i++)
		cJSON_AddItemToArray(in, cJSON_CreateString(texts[i]));
	if (a->p->input_type)
		cJSON_AddStringToObject(o, "input_type", query ? "query" :
		    "document");
	body = cJSON_PrintUnformatted(o);
	cJSON_Delete(o);
	for (attempt = 0; ; attempt++) {
		left = (double)a->timeout_ms - (clock_ms() - t0);
		ollama_call_init(&c, "/embeddings", xstrdup(body),
		    left > 1 ? (long)left : 1);
		c.max_bytes = CLOUD_BODY_MAX;
		c.bearer = a->key;
		ollama_run(a->url, &c, 1, 1);
		if (c.error == NULL) {
			rv = take(a, c.json, n, out, dim, cause);
			ollama_call_done(&c);
			break;
		}
		/* Rate limited or busy: wait as told, while time allows. */
		wait_s = c.retry_after >= 0 ? c.retry_after : 1L << attempt;
		left = (double)a->timeout_ms - (clock_ms() - t0);
		if ((c.status == 429 || c.status == 503) &&
		    attempt < CLOUD_RETRIES && wait_s * 1000.0 < left) {
			ollama_call_done(&c);
			sleep((unsigned)wait_s);
			continue;
		}
		if (c.status == 429)
			xasprintf(cause, "%s (rate limited%s%ld s; waited "
			    "%d times)", c.error, c.retry_after >= 0 ?
			    ", Retry-After " : ", next wait ", wait_s,
			    attempt);
		else {
			*cause = c.error;
			c.error = NULL;
		}
		ollama_call_done(&c);
		break;
	}
	free(body);
	return rv;
}

static void
cloud_arg_free(void *arg)
{
	struct cloud_arg	*a = arg;

	free(a->url);
	free(a->model);
	if (a->key != NULL)
		explicit_bzero(a->key, strlen(a->key));
	free(a->key);
	free(a);
}

int
embed_cloud_new(const struct config *cfg, struct embedder **out,
    char **cause)
{
	const struct provider	*p = provider_of(cfg);
	struct remote_api	 api;
	struct cloud_arg	*a;
	const char		*env = embed_cloud_key_env(cfg), *key;
	char			*name;
	int			 rv;

	*out = NULL;
	*cause = NULL;
	if ((rv = ollama_url_check(embed_cloud_url(cfg), cause)) != SR_OK)
		return rv;
	if ((key = getenv(env)) == NULL || *key == '\0') {
		xasprintf(cause, "%s embedder: no API key: the environment "
		    "variable %s (embedder.api_key_env) is not set", p->kind,
		    env);
		return SR_IO;	/* fail open, like an unreachable server */
	}
	a = xcalloc(1, sizeof *a);
	a->p = p;
	a->url = xstrdup(embed_cloud_url(cfg));
	a->model = xstrdup(embed_cloud_model(cfg));
	a->key = xstrdup(key);
	a->timeout_ms = cfg->embed_timeout_ms > 0 ? cfg->embed_timeout_ms :
	    30000;
	api.kind = p->kind;
	api.fetch = cloud_fetch;
	api.arg = a;
	api.free_arg = cloud_arg_free;
	xasprintf(&name, "%s:%s", p->kind, a->model);
	rv = embed_remote_new(cfg, name, a->model, &api, out, cause);
	free(name);
	return rv;
}

/* Tokens of a text, as the providers' tokenizers average for English. */
#define BYTES_PER_TOKEN		4.0
/* The monthly estimate's assumptions. */
#define QUERIES_PER_DAY		100
#define QUERY_TOKENS		12
#define REEMBEDS_PER_MONTH	1

cJSON *
embed_cloud_report(const struct config *cfg, size_t index_bytes,
    size_t entries, int *problems)
{
	const struct provider	*p = provider_of(cfg);
	struct cloud_arg	 a;
	const char		*env = embed_cloud_key_env(cfg), *key;
	const char		*probe = "skills-radar doctor";
	cJSON			*o;
	float			*v = NULL;
	char			*cause = NULL, *why;
	double			 price = embed_cloud_price(cfg), tok, q;
	int			 dim = 0;

	o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "backend", p->kind);
	cJSON_AddStringToObject(o, "url", embed_cloud_url(cfg));
	cJSON_AddStringToObject(o, "model", embed_cloud_model(cfg));
	cJSON_AddStringToObject(o, "key_env", env);
	key = getenv(env);
	cJSON_AddBoolToObject(o, "key_set", key != NULL && *key != '\0');
	if (key == NULL || *key == '\0') {
		xasprintf(&why, "no API key: set %s (embedder.api_key_env)",
		    env);
		cJSON_AddBoolToObject(o, "reachable", 0);
		cJSON_AddStringToObject(o, "error", why);
		free(why);
		(*problems)++;
	} else if (ollama_url_check(embed_cloud_url(cfg), &cause) != SR_OK) {
		cJSON_AddBoolToObject(o, "reachable", 0);
		cJSON_AddStringToObject(o, "error", cause);
		(*problems)++;
	} else {
		memset(&a, 0, sizeof a);
		a.p = p;
		a.url = (char *)embed_cloud_url(cfg);
		a.model = (char *)embed_cloud_model(cfg);
		a.key = (char *)key;
		a.timeout_ms = cfg->embed_timeout_ms > 0 ?
		    cfg->embed_timeout_ms : 30000;
		if (cloud_fetch(&a, &probe, 1, 1, &v, &dim, &cause) ==
		    SR_OK) {
			cJSON_AddBoolToObject(o, "reachable", 1);
			cJSON_AddNumberToObject(o, "dim", dim);
		} else {
			cJSON_AddBoolToObject(o, "reachable", 0);
			cJSON_AddStringToObject(o, "error", cause);
			(*problems)++;
		}
		free(v);
	}
	free(cause);
	tok = (double)index_bytes / BYTES_PER_TOKEN;
	q = 30.0 * QUERIES_PER_DAY * QUERY_TOKENS;
	cJSON_AddNumberToObject(o, "entries", (double)entries);
	cJSON_AddNumberToObject(o, "index_tokens", (double)(long)tok);
	if (price >= 0) {
		cJSON_AddNumberToObject(o, "price_per_mtok", price);
		cJSON_AddNumberToObject(o, "index_usd", tok * price / 1e6);
		cJSON_AddNumberToObject(o, "monthly_usd",
		    (tok * REEMBEDS_PER_MONTH + q) * price / 1e6);
	} else
		cJSON_AddNullToObject(o, "price_per_mtok");
	cJSON_AddStringToObject(o, "assumptions", "4 bytes a token; "
	    "100 searches a day of 12 tokens; the whole index embedded "
	    "once a month (unchanged skills come from the vector cache)");
	return o;
}
