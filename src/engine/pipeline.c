/*
 * The retrieval pipeline: rewriter, retrieval (fused), reranker.
 */
#include "autoconfig.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/buf.h"
#include "base/clock.h"
#include "core/config.h"
#include "base/lru.h"
#include "engine/pipeline.h"
#include "llm/rerank.h"
#include "llm/rewrite.h"
#include "base/status.h"
#include "base/xmalloc.h"

struct pipeline {
	const struct config	*cfg;
	struct lru		*rewrites;
	struct lru		*pairs;
};

struct pipeline *
pipeline_new(const struct config *cfg)
{
	struct pipeline	*p = xcalloc(1, sizeof(*p));

	p->cfg = cfg;
	p->rewrites = lru_new(cfg->rw_cache > 0 ? (size_t)cfg->rw_cache : 0);
	p->pairs = lru_new(cfg->rr_cache > 0 ? (size_t)cfg->rr_cache : 0);
	return p;
}

void
pipeline_free(struct pipeline *p)
{
	if (p == NULL)
		return;
	lru_free(p->rewrites);
	lru_free(p->pairs);
	free(p);
}

/* Scores as the result prints them (4 decimals), times to 0.1 ms. */
static double
round_to(double v, double unit)
{
	return (double)(long long)(v / unit + 0.5) * unit;
}

static int
stage_on(int flag, int configured)
{
	return flag == SEARCH_STAGE_ON || (flag == SEARCH_STAGE_CONFIG &&
	    configured);
}

static void
match_drop(struct search_match *m)
{
	free(m->shadowed);
	cJSON_Delete(m->explain);
	memset(m, 0, sizeof(*m));
}

/* Sorts by score, descending; ties keep their order. */
static void
sort_matches(struct search_match *v, size_t n)
{
	struct search_match	 t;
	size_t			 i, j;

	for (i = 1; i < n; i++) {
		t = v[i];
		for (j = i; j > 0 && v[j - 1].score < t.score; j--)
			v[j] = v[j - 1];
		v[j] = t;
	}
}

static void
truncate_result(struct search_result *r, size_t k, double miss_threshold)
{
	while (r->n > k)
		match_drop(&r->v[--r->n]);
	r->miss = r->n == 0 || r->v[0].score < miss_threshold;
}

/* Merges b into a: each skill once, with its better score; b is emptied. */
static void
fuse(struct search_result *a, struct search_result *b)
{
	size_t	 i, j;

	a->v = xreallocarray(a->v, a->n + b->n + 1, sizeof(*a->v));
	for (j = 0; j < b->n; j++) {
		for (i = 0; i < a->n; i++)
			if (a->v[i].skill == b->v[j].skill)
				break;
		if (i == a->n)
			a->v[a->n++] = b->v[j];
		else {
			if (b->v[j].score > a->v[i].score)
				a->v[i].score = b->v[j].score;
			match_drop(&b->v[j]);
		}
	}
	b->n = 0;
	if (a->embed_error == NULL) {
		a->embed_error = b->embed_error;
		b->embed_error = NULL;
	}
	search_result_done(b);
	sort_matches(a->v, a->n);
}

/*
 * Returns keywords with the raw query's "+word" terms appended (allocated;
 * takes kw): a required term must stay required whatever the model wrote.
 */
static char *
keep_required(const char *raw, char *kw)
{
	struct buf	 b;
	const char	*p = raw, *e;

	buf_init(&b, 0);
	buf_addstr(&b, kw);
	while ((p = strchr(p, '+')) != NULL) {
		if (p > raw && p[-1] != ' ' && p[-1] != '\t') {
			p++;
			continue;
		}
		e = p + strcspn(p, " \t\r\n");
		if (e - p > 1)
			buf_printf(&b, " %.*s", (int)(e - p), p);
		p = e;
	}
	free(kw);
	return buf_take(&b);
}

/* The rewriter; fills *q with the query to search (allocated) or NULL. */
static cJSON *
run_rewriter(struct pipeline *p, const char *raw, char **q)
{
	cJSON	*st = cJSON_CreateObject();
	char	*out, *err;
	double	 t0 = clock_ms();
	int	 cached;

	*q = NULL;
	cJSON_AddStringToObject(st, "mode", p->cfg->rw_mode);
	cJSON_AddStringToObject(st, "model", p->cfg->rw_model);
	if (rewrite_query(p->cfg, p->rewrites, raw, &out, &cached,
	    &err) != SR_OK) {
		cJSON_AddBoolToObject(st, "ran", 0);
		cJSON_AddStringToObject(st, "error", err);
		free(err);
	} else {
		cJSON_AddBoolToObject(st, "ran", 1);
		out = keep_required(raw, out);
		cJSON_AddStringToObject(st, "query", out);
		cJSON_AddBoolToObject(st, "cached", cached);
		if (strcasecmp(out, raw) != 0)
			*q = out;
		else
			free(out);
	}
	cJSON_AddNumberToObject(st, "ms", round_to(clock_ms() - t0, 0.1));
	return st;
}

/* Retrieval: the raw query, the rewritten one or both (expand). */
static int
retrieve(struct pipeline *p, const struct search_index *idx,
    const struct search_opts *o, const char *rewritten, int k,
    cJSON *rw_stage, struct search_result *res, char **cause)
{
	struct search_opts	 so = *o;
	struct search_result	 b;
	char			*c2 = NULL;
	int			 rv;

	so.top_k = k;
	if (rewritten == NULL)
		return search_run(idx, &so, res, cause);
	if (strcmp(p->cfg->rw_mode, "replace") == 0) {
		so.query = rewritten;
		if ((rv = search_run(idx, &so, res, &c2)) != SR_USAGE)
			return rv;
		/* keywords the index cannot use: search the raw query */
		cJSON_AddStringToObject(rw_stage, "error", c2);
		free(c2);
		so.query = o->query;
		return search_run(idx, &so, res, cause);
	}
	if ((rv = search_run(idx, &so, res, cause)) != SR_OK)
		return rv;
	so.query = rewritten;
	if (search_run(idx, &so, &b, &c2) == SR_OK) {
		fuse(res, &b);
		truncate_result(res, (size_t)k, p->cfg->miss_threshold);
	} else {
		cJSON_AddStringToObject(rw_stage, "error", c2);
		search_result_done(&b);
	}
	free(c2);
	return SR_OK;
}

/* The text a candidate is judged by: description, then when_to_use. */
static char *
candidate_text(const struct skill *s)
{
	char	*t;

	xasprintf(&t, "%s%s%s", s->description != NULL ? s->description : "",
	    s->when_to_use != NULL && *s->when_to_use ? " " : "",
	    s->when_to_use != NULL ? s->when_to_use : "");
	return t;
}

static cJSON *
run_reranker(struct pipeline *p, const char *raw, struct search_result *res,
    int *reranked)
{
	const struct config	*cfg = p->cfg;
	struct rerank_item	*it;
	cJSON			*st, *scores, *errs, *e;
	char			*err = NULL;
	size_t			 i, scored = 0, failed = 0, cached = 0;
	double			 t0 = clock_ms(), w = cfg->rr_weight;

	st = cJSON_CreateObject();
	cJSON_AddStringToObject(st, "mode", cfg->rr_mode);
	cJSON_AddStringToObject(st, "model", cfg->rr_model);
	it = xcalloc(res->n ? res->n : 1, sizeof(*it));
	for (i = 0; i < res->n; i++)
		it[i].text = candidate_text(res->v[i].skill);
	if (strcmp(cfg->rr_mode, "batch") == 0)
		rerank_batch(cfg, p->pairs, raw, it, res->n, &err);
	else
		rerank_pairs(cfg, p->pairs, raw, it, res->n);
	scores = cJSON_CreateArray();
	errs = cJSON_CreateArray();
	for (i = 0; i < res->n; i++) {
		e = cJSON_CreateObject();
		cJSON_AddStringToObject(e, "name", res->v[i].skill->uid);
		cJSON_AddNumberToObject(e, "fused", round_to(res->v[i].score,
		    1e-4));
		if (it[i].score >= 0) {
			scored++;
			cached += it[i].cached != 0;
			cJSON_AddNumberToObject(e, "rerank", it[i].score);
			if (res->v[i].explain != NULL) {
				cJSON_AddNumberToObject(res->v[i].explain,
				    "fused", res->v[i].score);
				cJSON_AddNumberToObject(res->v[i].explain,
				    "rerank", it[i].score);
			}
			res->v[i].score = w * it[i].score / 10.0 +
			    (1 - w) * res->v[i].score;
			cJSON_AddItemToArray(scores, e);
		} else {
			failed++;
			cJSON_AddStringToObject(e, "error", it[i].error != NULL ?
			    it[i].error : "not scored");
			cJSON_AddItemToArray(errs, e);
		}
		free((char *)it[i].text);
		rerank_item_done(&it[i]);
	}
	free(it);
	sort_matches(res->v, res->n);
	*reranked = scored > 0;
	cJSON_AddBoolToObject(st, "ran", scored > 0);
	cJSON_AddNumberToObject(st, "pool", (double)res->n);
	cJSON_AddNumberToObject(st, "scored", (double)scored);
	cJSON_AddNumberToObject(st, "failed", (double)failed);
	cJSON_AddNumberToObject(st, "cached", (double)cached);
	cJSON_AddNumberToObject(st, "weight", w);
	cJSON_AddNumberToObject(st, "ms", round_to(clock_ms() - t0, 0.1));
	if (err != NULL)
		cJSON_AddStringToObject(st, "error", err);
	else if (failed > 0)
		cJSON_AddStringToObject(st, "error", cJSON_GetStringValue(
		    cJSON_GetObjectItem(cJSON_GetArrayItem(errs, 0), "error")));
	cJSON_AddItemToObject(st, "scores", scores);
	cJSON_AddItemToObject(st, "failures", errs);
	free(err);
	return st;
}

static cJSON *
embedder_stage(const struct config *cfg, const struct search_index *idx,
    const struct search_result *res)
{
	const char	*note, *used = search_index_embedder(idx, &note);
	cJSON		*st;

	if (note == NULL && res->embed_error == NULL &&
	    strcmp(used, "builtin") == 0)
		return NULL;
	st = cJSON_CreateObject();
	cJSON_AddStringToObject(st, "backend", cfg->embedder);
	cJSON_AddStringToObject(st, "indexed_with", used);
	/* a query Ollama could not embed was ranked in the builtin space */
	cJSON_AddStringToObject(st, "used", res->embed_error != NULL ?
	    "builtin" : used);
	cJSON_AddBoolToObject(st, "ran", note == NULL &&
	    res->embed_error == NULL);
	if (note != NULL)
		cJSON_AddStringToObject(st, "error", note);
	else if (res->embed_error != NULL)
		cJSON_AddStringToObject(st, "error", res->embed_error);
	return st;
}

int
pipeline_search(struct pipeline *p, const struct search_index *idx,
    const struct search_opts *o, const struct pipeline_boost *boost,
    struct search_result *res, cJSON **stages, struct pipeline_report *rep,
    char **cause)
{
	const struct config	*cfg = p->cfg;
	const char		*qs = o->query != NULL ? o->query : "";
	cJSON			*st = NULL, *rw = NULL, *emb;
	char			*rewritten = NULL;
	int			 do_rw, do_rr, sel, use, k, rv;

	*stages = NULL;
	memset(rep, 0, sizeof(*rep));
	qs += strspn(qs, " \t\r\n");
	/* select:a,b names skills exactly: nothing to rewrite or rerank */
	sel = search_select_list(qs) != NULL;
	do_rw = stage_on(o->rewrite, cfg->rw_enabled) && !sel;
	do_rr = stage_on(o->rerank, cfg->rr_enabled) && !sel;
	/* the caller's boost (learning from use): after calibration, over a pool */
	use = boost != NULL && !sel;
	if (!do_rw && !do_rr && !use && strcmp(cfg->embedder, "builtin") == 0)
		return search_run(idx, o, res, cause);

	k = o->top_k;
	if (do_rr && k >= 1 && k <= SEARCH_TOP_K_MAX && cfg->rr_pool > k)
		k = cfg->rr_pool;
	if (use && k >= 1 && k <= SEARCH_TOP_K_MAX && k < boost->pool)
		k = boost->pool;
	if (do_rw && *qs != '\0' && o->top_k >= 1 &&
	    o->top_k <= SEARCH_TOP_K_MAX)
		rw = run_rewriter(p, o->query, &rewritten);
	if ((rv = retrieve(p, idx, o, rewritten, k, rw, res, cause)) != SR_OK) {
		cJSON_Delete(rw);
		free(rewritten);
		return rv;
	}
	st = cJSON_CreateObject();
	if (rw != NULL) {
		cJSON_AddItemToObject(st, "rewriter", rw);
		rep->rewritten = rewritten != NULL;
	}
	if (do_rr) {
		cJSON_AddItemToObject(st, "reranker", run_reranker(p, o->query,
		    res, &rep->reranked));
	}
	if (use) {
		boost->apply(boost->arg, idx, o, res);
		sort_matches(res->v, res->n);
	}
	truncate_result(res, (size_t)o->top_k, cfg->miss_threshold);
	if ((emb = embedder_stage(cfg, idx, res)) != NULL)
		cJSON_AddItemToObject(st, "embedder", emb);
	free(rewritten);
	if (st->child == NULL) {	/* only learning ran: no stage to report */
		cJSON_Delete(st);
		st = NULL;
	}
	*stages = st;
	return SR_OK;
}
