/*
 * The ollama embedder (embed_ollama.h): Ollama's /api/embed as the batch
 * call of a remote embedder (embed_remote.h).
 */
#include "autoconfig.h"

#include <stdlib.h>

#include "core/config.h"
#include "search/embed_ollama.h"
#include "search/embed_remote.h"
#include "llm/ollama.h"
#include "base/status.h"
#include "base/xmalloc.h"

struct ollama_arg {
	char		*url;
	char		*model;
	long		 timeout_ms;
};

static int
ollama_fetch(void *arg, const char *const *texts, size_t n, int query,
    float **out, int *dim, char **cause)
{
	struct ollama_arg	*a = arg;

	(void)query;
	return ollama_embed(a->url, a->model, texts, n, a->timeout_ms, out,
	    dim, cause);
}

static void
ollama_arg_free(void *arg)
{
	struct ollama_arg	*a = arg;

	free(a->url);
	free(a->model);
	free(a);
}

int
embed_ollama_new(const struct config *cfg, struct embedder **out,
    char **cause)
{
	struct remote_api	 api;
	struct ollama_arg	*a;
	char			*name;
	int			 rv;

	*out = NULL;
	if ((rv = ollama_url_check(cfg->embed_url, cause)) != SR_OK)
		return rv;
	a = xcalloc(1, sizeof(*a));
	a->url = xstrdup(cfg->embed_url);
	a->model = xstrdup(cfg->embed_model);
	a->timeout_ms = cfg->embed_timeout_ms > 0 ? cfg->embed_timeout_ms :
	    30000;
	api.kind = "ollama";
	api.fetch = ollama_fetch;
	api.arg = a;
	api.free_arg = ollama_arg_free;
	xasprintf(&name, "ollama:%s", cfg->embed_model);
	rv = embed_remote_new(cfg, name, cfg->embed_model, &api, out, cause);
	free(name);
	return rv;
}
