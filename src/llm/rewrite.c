/*
 * The query rewriter: one /api/generate request, its answer cleaned.
 */
#include "autoconfig.h"

#include <string.h>
#include <stdlib.h>

#include "base/buf.h"
#include "core/config.h"
#include "base/lru.h"
#include "llm/ollama.h"
#include "llm/rewrite.h"
#include "base/status.h"
#include "base/xmalloc.h"

static const char system_prompt[] =
    "You rewrite user queries into concise English keyword phrases for "
    "searching short technical descriptions of agent skills. Do not answer "
    "the query, do not explain, do not write sentences. Output 3 to 8 "
    "English keywords separated by spaces on one line, no punctuation, no "
    "quotes. Keep technical terms and product names verbatim.";

static int
keep_inner(unsigned char c)
{
	return c == '-' || c == '_' || c == '.' || c == '+' || c == '#';
}

static int
is_blank(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

char *
rewrite_clean(const char *answer)
{
	struct buf	 b;
	const char	*p = answer, *e;
	char		*line, *out;
	size_t		 i, n, words = 0, wstart;

	while (*p != '\0' && is_blank((unsigned char)*p))
		p++;
	e = strchr(p, '\n');
	line = e != NULL ? xstrndup(p, (size_t)(e - p)) : xstrdup(p);
	n = strlen(line);
	/* ASCII punctuation is a separator; inner - _ . + # stay */
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)line[i];

		if (c < 0x80 && !((c >= '0' && c <= '9') ||
		    (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    keep_inner(c)))
			line[i] = ' ';
	}
	buf_init(&b, 0);
	i = 0;
	while (i < n && words < REWRITE_MAX_WORDS) {
		while (i < n && line[i] == ' ')
			i++;
		wstart = i;
		while (i < n && line[i] != ' ')
			i++;
		/* a word is trimmed of the kept characters at its ends */
		while (wstart < i && keep_inner((unsigned char)line[wstart]) &&
		    line[wstart] != '#')
			wstart++;
		e = line + i;
		while (e > line + wstart && keep_inner((unsigned char)e[-1]) &&
		    e[-1] != '+' && e[-1] != '#')
			e--;
		if (e == line + wstart)
			continue;
		if (b.len + (b.len > 0) + (size_t)(e - (line + wstart)) >
		    REWRITE_MAX_BYTES)
			break;
		if (b.len > 0)
			buf_addc(&b, ' ');
		buf_add(&b, line + wstart, (size_t)(e - (line + wstart)));
		words++;
	}
	free(line);
	out = buf_take(&b);
	return out;
}

int
rewrite_query(const struct config *cfg, struct lru *cache, const char *query,
    char **out, int *cached, char **cause)
{
	struct ollama_call	 c;
	const char		*r;
	char			*key, *clean;
	int			 rv = SR_OK;

	*out = *cause = NULL;
	*cached = 0;
	key = lru_key(cfg->rw_model, query);
	if (cache != NULL && lru_get(cache, key, out, NULL)) {
		*cached = 1;
		free(key);
		return SR_OK;
	}
	if (ollama_url_check(cfg->rw_url, cause) != SR_OK) {
		free(key);
		return SR_IO;
	}
	ollama_call_init(&c, "/api/generate", ollama_generate_body(
	    cfg->rw_model, system_prompt, query, 0.2, 60), cfg->rw_timeout_ms);
	ollama_run(cfg->rw_url, &c, 1, 1);
	if ((r = ollama_response(&c)) == NULL) {
		*cause = c.error;
		c.error = NULL;
		rv = SR_IO;
	} else if (*(clean = rewrite_clean(r)) == '\0') {
		free(clean);
		xasprintf(cause, "%s: the rewrite has no keywords", c.path);
		rv = SR_IO;
	} else {
		if (cache != NULL)
			lru_put(cache, key, clean, strlen(clean));
		*out = clean;
	}
	ollama_call_done(&c);
	free(key);
	return rv;
}
