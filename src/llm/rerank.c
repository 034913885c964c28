/*
 * The reranker: pair prompts through ollama_run() concurrently, or one
 * batch prompt; strict number parsing; an LRU of pair scores.
 */
#include "autoconfig.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "core/config.h"
#include "base/lru.h"
#include "llm/ollama.h"
#include "llm/rerank.h"
#include "base/status.h"
#include "base/xmalloc.h"

static const char pair_system[] =
    "You are a relevance scorer for a skill discovery system. Given a user "
    "query and the description of one skill, rate how well the skill "
    "serves the query on a scale of 0 to 10: 0 irrelevant, 5 tangentially "
    "related, 10 a perfect match. Output only the integer, nothing else.";

static const char batch_system[] =
    "You are a relevance scorer for a skill discovery system. Given a user "
    "query and numbered skill descriptions, rate how well each skill "
    "serves the query on a scale of 0 to 10 (0 irrelevant, 5 tangentially "
    "related, 10 a perfect match). Output one line per candidate in the "
    "form N=score, for example 1=8, and nothing else.";

void
rerank_item_done(struct rerank_item *it)
{
	free(it->error);
	it->error = NULL;
}

int
rerank_parse_score(const char *s, double *score)
{
	const char	*p;
	long		 v;

	for (p = s; *p != '\0'; p++) {
		if (!isdigit((unsigned char)*p) || (p > s &&
		    (isalnum((unsigned char)p[-1]) || p[-1] == '.')))
			continue;
		v = 0;
		while (isdigit((unsigned char)*p) && v <= 100)
			v = v * 10 + (*p++ - '0');
		if (isalpha((unsigned char)*p) || (*p == '.' &&
		    isdigit((unsigned char)p[1])) || v > 10)
			return -1;
		*score = (double)v;
		return 0;
	}
	return -1;
}

size_t
rerank_parse_batch(const char *s, double *scores, size_t n)
{
	const char	*p = s, *e;
	unsigned char	*seen;
	size_t		 got = 0;
	long		 idx, v;
	char		*end;

	seen = xcalloc(n ? n : 1, 1);
	while (*p != '\0') {
		if ((e = strchr(p, '\n')) == NULL)
			e = p + strlen(p);
		while (p < e && isspace((unsigned char)*p))
			p++;
		if (!isdigit((unsigned char)*p))
			goto next;
		idx = strtol(p, &end, 10);
		p = end;
		while (p < e && (*p == ' ' || *p == '\t'))
			p++;
		if (*p != '=')
			goto next;
		p++;
		while (p < e && (*p == ' ' || *p == '\t'))
			p++;
		if (!isdigit((unsigned char)*p))
			goto next;
		v = strtol(p, &end, 10);
		p = end;
		while (p < e && isspace((unsigned char)*p))
			p++;
		if (p != e || idx < 1 || (size_t)idx > n || seen[idx - 1])
			goto next;
		seen[idx - 1] = 1;
		scores[idx - 1] = v < 0 ? 0 : v > 10 ? 10 : (double)v;
		got++;
next:
		p = *e == '\n' ? e + 1 : e;
	}
	free(seen);
	return got;
}

/* The text sent for a candidate: at most RERANK_TEXT_MAX bytes, whole UTF-8. */
static char *
clip(const char *text, size_t max, int oneline)
{
	size_t	 n = strlen(text);
	char	*s;

	if (n > max) {
		n = max;
		while (n > 0 && ((unsigned char)text[n] & 0xc0) == 0x80)
			n--;
	}
	s = xstrndup(text, n);
	if (oneline)
		for (n = 0; s[n] != '\0'; n++)
			if (s[n] == '\n' || s[n] == '\r' || s[n] == '\t')
				s[n] = ' ';
	return s;
}

static char *
pair_key(const struct config *cfg, const char *mode, const char *query,
    const char *text)
{
	char	*in, *key;

	xasprintf(&in, "%s\x1f%s\x1f%s", mode, query, text);
	key = lru_key(cfg->rr_model, in);
	free(in);
	return key;
}

static int
cache_score(struct lru *cache, const char *key, double *score)
{
	char	*val;
	int	 ok;

	if (cache == NULL || !lru_get(cache, key, &val, NULL))
		return 0;
	ok = rerank_parse_score(val, score) == 0;
	free(val);
	return ok;
}

static void
cache_put_score(struct lru *cache, const char *key, double score)
{
	char	 s[8];

	if (cache == NULL)
		return;
	snprintf(s, sizeof s, "%d", (int)score);
	lru_put(cache, key, s, strlen(s));
}

void
rerank_pairs(const struct config *cfg, struct lru *cache, const char *query,
    struct rerank_item *items, size_t n)
{
	struct ollama_call	*calls;
	char			**keys, *prompt, *text, *url_err = NULL;
	size_t			*at, ncalls = 0, i;
	const char		*r;

	for (i = 0; i < n; i++) {
		items[i].score = -1;
		items[i].cached = 0;
	}
	if (ollama_url_check(cfg->rr_url, &url_err) != SR_OK) {
		for (i = 0; i < n; i++)
			items[i].error = xstrdup(url_err);
		free(url_err);
		return;
	}
	calls = xcalloc(n ? n : 1, sizeof(*calls));
	keys = xcalloc(n ? n : 1, sizeof(*keys));
	at = xcalloc(n ? n : 1, sizeof(*at));
	for (i = 0; i < n; i++) {
		text = clip(items[i].text, RERANK_TEXT_MAX, 0);
		keys[i] = pair_key(cfg, "pair", query, text);
		if (cache_score(cache, keys[i], &items[i].score)) {
			items[i].cached = 1;
			free(text);
			continue;
		}
		xasprintf(&prompt, "Query: %s\n\nSkill description: %s\n\n"
		    "Score 0-10:", query, text);
		free(text);
		ollama_call_init(&calls[ncalls], "/api/generate",
		    ollama_generate_body(cfg->rr_model, pair_system, prompt,
		    0.0, 4), cfg->rr_timeout_ms);
		free(prompt);
		at[ncalls++] = i;
	}
	ollama_run(cfg->rr_url, calls, ncalls, cfg->rr_parallel);
	for (i = 0; i < ncalls; i++) {
		struct rerank_item *it = &items[at[i]];

		it->ms = calls[i].ms;
		if ((r = ollama_response(&calls[i])) == NULL) {
			it->error = calls[i].error;
			calls[i].error = NULL;
		} else if (rerank_parse_score(r, &it->score) != 0) {
			xasprintf(&it->error, "the answer holds no score from "
			    "0 to 10: \"%.40s\"", r);
			it->score = -1;
		} else
			cache_put_score(cache, keys[at[i]], it->score);
		ollama_call_done(&calls[i]);
	}
	for (i = 0; i < n; i++)
		free(keys[i]);
	free(keys);
	free(at);
	free(calls);
}

int
rerank_batch(const struct config *cfg, struct lru *cache, const char *query,
    struct rerank_item *items, size_t n, char **cause)
{
	struct ollama_call	 c;
	struct buf		 b;
	double			*scores;
	char			**keys, *text, *prompt;
	size_t			*at, nask = 0, i;
	const char		*r;
	int			 rv = SR_OK;

	*cause = NULL;
	keys = xcalloc(n ? n : 1, sizeof(*keys));
	at = xcalloc(n ? n : 1, sizeof(*at));
	scores = xcalloc(n ? n : 1, sizeof(*scores));
	buf_init(&b, 0);
	buf_printf(&b, "Query: %s\n\nCandidates:\n", query);
	for (i = 0; i < n; i++) {
		items[i].score = -1;
		items[i].cached = 0;
		text = clip(items[i].text, 240, 1);
		keys[i] = pair_key(cfg, "batch", query, text);
		if (cache_score(cache, keys[i], &items[i].score)) {
			items[i].cached = 1;
			free(text);
			continue;
		}
		scores[nask] = -1;
		at[nask++] = i;
		buf_printf(&b, "%zu. %s\n", nask, text);
		free(text);
	}
	buf_addstr(&b, "\nScore each (0-10):");
	prompt = buf_take(&b);
	if (nask == 0)
		goto out;
	if (ollama_url_check(cfg->rr_url, cause) != SR_OK) {
		rv = SR_IO;
		goto fail;
	}
	ollama_call_init(&c, "/api/generate", ollama_generate_body(
	    cfg->rr_model, batch_system, prompt, 0.0,
	    (int)(nask * 8 > 200 ? nask * 8 : 200)), cfg->rr_timeout_ms);
	ollama_run(cfg->rr_url, &c, 1, 1);
	if ((r = ollama_response(&c)) == NULL) {
		*cause = c.error;
		c.error = NULL;
		rv = SR_IO;
	} else if (rerank_parse_batch(r, scores, nask) == 0) {
		xasprintf(cause, "the answer holds no N=score line: \"%.40s\"",
		    r);
		rv = SR_IO;
	}
	for (i = 0; i < nask && rv == SR_OK; i++) {
		items[at[i]].ms = c.ms;
		if (scores[i] < 0)
			items[at[i]].error = xstrdup("the answer has no line "
			    "for this candidate");
		else {
			items[at[i]].score = scores[i];
			cache_put_score(cache, keys[at[i]], scores[i]);
		}
	}
	ollama_call_done(&c);
fail:
	for (i = 0; i < nask && rv != SR_OK; i++)
		items[at[i]].error = xstrdup(*cause);
out:
	free(prompt);
	for (i = 0; i < n; i++)
		free(keys[i]);
	free(keys);
	free(at);
	free(scores);
	return rv;
}
