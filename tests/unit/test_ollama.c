/*
 * Unit tests for the Ollama stages against tests/fake/fake_ollama: the
 * LRU, answer parsing and cleaning, the rewriter, the concurrent pair
 * reranker (20 pairs at 100 ms well under 400 ms; one slow pair costs
 * only its own timeout), the batch reranker, every failure mode (refused,
 * timeout, HTTP error, garbage, partial body, hang, no number), the
 * caches (asserted on the fake server's request counters), the ollama
 * embedder (vector cache, model change, fail-open) and the pipeline's
 * stage report and score blending.
 */
#include "autoconfig.h"

#include <sys/types.h>
#include <sys/wait.h>

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/clock.h"
#include "core/config.h"
#include "search/embed.h"
#include "base/lru.h"
#include "llm/ollama.h"
#include "engine/pipeline.h"
#include "llm/rerank.h"
#include "llm/rewrite.h"
#include "search/search.h"
#include "core/skill.h"
#include "base/status.h"
#include "base/xmalloc.h"
#include "tap.h"

struct fake {
	pid_t	 pid;
	char	 url[64];
};

/* Starts fake_ollama with extra arguments (NULL-terminated). */
static int
fake_start(struct fake *f, const char *a1, const char *a2)
{
	const char	*top = getenv("TOP_BUILDDIR");
	char		 bin[4096], line[32];
	int		 fd[2];
	FILE		*fp;

	snprintf(bin, sizeof bin, "%s/tests/fake/fake_ollama",
	    top != NULL ? top : ".");
	if (pipe(fd) != 0)
		return -1;
	if ((f->pid = fork()) == 0) {
		dup2(fd[1], 1);
		close(fd[0]);
		close(fd[1]);
		execl(bin, bin, "-t", "120", a1, a2, (char *)NULL);
		_exit(127);
	}
	close(fd[1]);
	fp = fdopen(fd[0], "r");
	if (fgets(line, sizeof line, fp) == NULL) {
		fclose(fp);
		return -1;
	}
	fclose(fp);
	snprintf(f->url, sizeof f->url, "http://127.0.0.1:%d", atoi(line));
	return 0;
}

static void
fake_stop(struct fake *f)
{
	if (f->pid > 0) {
		kill(f->pid, SIGTERM);
		waitpid(f->pid, NULL, 0);
		f->pid = 0;
	}
}

/* One counter of the fake server's /_stats. */
static long
fake_count(struct fake *f, const char *key)
{
	struct ollama_call	 c;
	long			 v = -1;

	ollama_call_init(&c, "/_stats", NULL, 2000);
	ollama_run(f->url, &c, 1, 1);
	if (c.json != NULL)
		v = (long)cJSON_GetNumberValue(cJSON_GetObjectItem(c.json, key));
	ollama_call_done(&c);
	return v;
}

static void
test_lru(void)
{
	struct lru	*c = lru_new(2);
	char		*v, *k;
	size_t		 len;

	lru_put(c, "a", "1", 1);
	lru_put(c, "b", "22", 2);
	ok(lru_get(c, "a", &v, &len) && strcmp(v, "1") == 0 && len == 1,
	    "lru: a value comes back");
	free(v);
	lru_put(c, "c", "333", 3);	/* evicts b: a was used more recently */
	ok(!lru_get(c, "b", &v, NULL) && v == NULL,
	    "lru: the least recently used entry is evicted");
	ok(lru_get(c, "a", &v, NULL), "lru: a hit refreshes recency (a kept)");
	free(v);
	lru_put(c, "a", "x", 1);
	ok(lru_get(c, "a", &v, NULL) && strcmp(v, "x") == 0,
	    "lru: a put replaces the value");
	free(v);
	is_int(lru_count(c), 2, "lru: capacity holds");
	lru_free(c);
	c = lru_new(0);
	lru_put(c, "a", "1", 1);
	ok(!lru_get(c, "a", &v, NULL), "lru: capacity 0 stores nothing");
	lru_free(c);
	k = lru_key("m1", "q");
	ok(strcmp(k, "m1\x1fq") == 0, "lru: keys carry the model");
	free(k);
}

static void
test_parse(void)
{
	static const struct {
		const char	*in;
		int		 rv;
		double		 want;
	} sc[] = {
		{ "8", 0, 8 }, { " 10 ", 0, 10 }, { "Score: 7/10", 0, 7 },
		{ "0", 0, 0 }, { "11", -1, 0 }, { "3.5", -1, 0 },
		{ "I cannot say.", -1, 0 }, { "", -1, 0 }, { "x9", -1, 0 },
		{ "9.", 0, 9 }, { "-", -1, 0 },
	};
	double	 s, v[4];
	size_t	 i;
	char	*c;

	for (i = 0; i < sizeof(sc) / sizeof(sc[0]); i++) {
		s = -1;
		is_int(rerank_parse_score(sc[i].in, &s), sc[i].rv,
		    "pair answer \"%s\" %s", sc[i].in, sc[i].rv == 0 ?
		    "parses" : "is refused");
		if (sc[i].rv == 0)
			ok(s == sc[i].want, "  ... as %g", sc[i].want);
	}
	for (i = 0; i < 4; i++)
		v[i] = -1;
	is_int(rerank_parse_batch("Scores:\n1=8\n 2 = 3 \n3=99\n2=7\n9=5\n"
	    "4=x\nnoise 4=2\n", v, 4), 3, "batch: three valid N=score lines");
	ok(v[0] == 8 && v[1] == 3 && v[2] == 10 && v[3] == -1,
	    "batch: scores set, clamped to 10, first of a repeat wins, "
	    "garbage and out-of-range ignored");
	is_int(rerank_parse_batch("<html>garbage", v, 4), 0,
	    "batch: garbage gives nothing");

	c = rewrite_clean("  \"PDF form, filling!\"\nSecond line");
	is_str(c, "PDF form filling", "clean: first line, no quotes or "
	    "punctuation");
	free(c);
	c = rewrite_clean("'c++ c# node.js'.");
	is_str(c, "c++ c# node.js", "clean: c++ c# node.js survive");
	free(c);
	c = rewrite_clean("\n\n  ...  \n");
	is_str(c, "", "clean: punctuation only is empty");
	free(c);
	c = rewrite_clean("a b c d e f g h i j k l m n o p");
	is_str(c, "a b c d e f g h i j k l", "clean: at most 12 words");
	free(c);
	{
		char	 big[1024];

		memset(big, 'x', sizeof big - 1);
		big[sizeof big - 1] = '\0';
		c = rewrite_clean(big);
		is_str(c, "", "clean: one word over the byte cap is dropped");
		free(c);
	}
}

static struct config *
cfg_for(const char *url)
{
	struct config	*cfg = config_defaults();

	free(cfg->rw_url);
	free(cfg->rr_url);
	free(cfg->rw_model);
	free(cfg->rr_model);
	cfg->rw_url = xstrdup(url);
	cfg->rr_url = xstrdup(url);
	cfg->rw_model = xstrdup("fake-gen");
	cfg->rr_model = xstrdup("fake-gen");
	cfg->rr_parallel = 20;
	return cfg;
}

static void
test_rewrite(struct fake *f)
{
	struct config	*cfg = cfg_for(f->url);
	struct lru	*cache = lru_new(8);
	char		*out, *err;
	long		 before;
	int		 cached;

	is_int(rewrite_query(cfg, cache, "mrof fdp", &out, &cached, &err),
	    0, "rewrite: answered");
	is_str(out, "form pdf", "rewrite: the answer is cleaned to keywords");
	ok(!cached, "rewrite: first time from the server");
	free(out);
	before = fake_count(f, "rewrites");
	is_int(rewrite_query(cfg, cache, "mrof fdp", &out, &cached, &err),
	    0, "rewrite: again");
	ok(cached, "rewrite: a cache hit");
	is_int(fake_count(f, "rewrites"), before,
	    "rewrite: the cache hit sent no request");
	free(out);
	free(cfg->rw_model);
	cfg->rw_model = xstrdup("no-such-model");
	is_int(rewrite_query(cfg, cache, "mrof fdp", &out, &cached, &err),
	    SR_IO, "rewrite: another model is not served from the cache");
	ok(err != NULL && strstr(err, "HTTP 404") != NULL &&
	    strstr(err, "not found") != NULL,
	    "rewrite: the HTTP error and Ollama's message are reported");
	free(err);
	is_int(rewrite_query(cfg, cache, "fake-hang", &out, &cached, &err),
	    SR_IO, "rewrite: a model that hangs...");
	free(err);
	free(cfg->rw_model);
	cfg->rw_model = xstrdup("fake-gen");
	cfg->rw_timeout_ms = 200;
	{
		double t0 = clock_ms();

		is_int(rewrite_query(cfg, cache, "fake-hang", &out, &cached,
		    &err), SR_IO, "rewrite: a hang fails");
		ok(clock_ms() - t0 < 1500, "rewrite: ...within its timeout "
		    "(%.0f ms)", clock_ms() - t0);
		ok(err != NULL && strstr(err, "timed out") != NULL,
		    "rewrite: the error says it timed out");
		free(err);
	}
	is_int(rewrite_query(cfg, cache, "fake-garbage", &out, &cached,
	    &err), SR_IO, "rewrite: garbage fails");
	ok(err != NULL && strstr(err, "malformed JSON") != NULL,
	    "rewrite: ...as malformed JSON");
	free(err);
	is_int(rewrite_query(cfg, cache, "fake-partial", &out, &cached,
	    &err), SR_IO, "rewrite: a partial body fails");
	free(err);
	is_int(rewrite_query(cfg, cache, "!!! ...", &out, &cached, &err),
	    SR_IO, "rewrite: an answer with no keywords fails");
	free(err);
	lru_free(cache);
	config_free(cfg);
}

/* n pair items, all mentioning "widget" so the fake scores them. */
static struct rerank_item *
items_new(size_t n, const char *odd, size_t odd_at)
{
	struct rerank_item	*it = xcalloc(n, sizeof(*it));
	size_t			 i;
	char			*t;

	for (i = 0; i < n; i++) {
		xasprintf(&t, "Widget %zu tool%s%s", i, i == odd_at ? " " : "",
		    i == odd_at && odd != NULL ? odd : "");
		it[i].text = t;
	}
	return it;
}

static void
items_free(struct rerank_item *it, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++) {
		free((char *)it[i].text);
		rerank_item_done(&it[i]);
	}
	free(it);
}

static size_t
scored(const struct rerank_item *it, size_t n)
{
	size_t	 i, k = 0;

	for (i = 0; i < n; i++)
		k += it[i].score >= 0;
	return k;
}

static void
test_pairs(struct fake *f, struct fake *slow)
{
	struct config		*cfg = cfg_for(slow->url);
	struct rerank_item	*it;
	struct lru		*cache = lru_new(100);
	double			 t0, ms;
	long			 before;

	/* the slow fake answers every request after 100 ms */
	it = items_new(20, NULL, 99);
	t0 = clock_ms();
	rerank_pairs(cfg, NULL, "widget tool", it, 20);
	ms = clock_ms() - t0;
	is_int(scored(it, 20), 20, "pairs: all 20 scored");
	/* one after another they take 2,000 ms: well under that is
	   concurrent, with room for a loaded sanitizer build */
	ok(ms < 1200, "pairs: 20 pairs at 100 ms each took %.0f ms (< 1200, "
	    "not 2000: concurrent)", ms);
	ok(ms >= 100, "pairs: ...and the delay was real (%.0f ms >= 100)", ms);
	ok(it[0].score == 8, "pairs: the fake's score (2 words * 4 = 8)");
	items_free(it, 20);

	cfg->rr_parallel = 1;
	it = items_new(4, NULL, 99);
	t0 = clock_ms();
	rerank_pairs(cfg, NULL, "widget tool", it, 4);
	ms = clock_ms() - t0;
	ok(ms >= 400, "pairs: parallel 1 runs them one after another "
	    "(%.0f ms >= 400)", ms);
	items_free(it, 4);
	config_free(cfg);

	/* one slow pair among fast ones */
	cfg = cfg_for(f->url);
	cfg->rr_timeout_ms = 500;
	it = items_new(20, "fake-delay-5000", 7);
	t0 = clock_ms();
	rerank_pairs(cfg, cache, "widget tool", it, 20);
	ms = clock_ms() - t0;
	is_int(scored(it, 20), 19, "slow pair: the other 19 are scored");
	ok(it[7].score < 0 && it[7].error != NULL &&
	    strstr(it[7].error, "timed out") != NULL,
	    "slow pair: the slow one is unscored and says it timed out");
	ok(ms < 3500, "slow pair: the batch took %.0f ms, bounded by the "
	    "500 ms timeout, not the 5 s delay", ms);
	before = fake_count(f, "generate");
	items_free(it, 20);
	it = items_new(20, "fake-delay-5000", 7);
	t0 = clock_ms();
	cfg->rr_timeout_ms = 100;
	rerank_pairs(cfg, cache, "widget tool", it, 20);
	is_int(scored(it, 20), 19, "pair cache: the 19 scored pairs hit");
	ok(it[0].cached && !it[7].cached, "pair cache: hits are marked; the "
	    "failure was not cached");
	is_int(fake_count(f, "generate") - before, 1,
	    "pair cache: only the uncached pair went to the server");
	items_free(it, 20);

	/* every failure mode in one request set */
	{
		static const char *modes[] = { "fake-error", "fake-garbage",
		    "fake-partial", "fake-hang", "fake-nonumber" };
		static const char *want[] = { "HTTP 500", "malformed JSON",
		    "127.0.0.1", "timed out", "no score" };
		size_t	 i;

		cfg->rr_timeout_ms = 300;
		it = xcalloc(6, sizeof(*it));
		for (i = 0; i < 5; i++)
			it[i].text = xstrdup(modes[i]);
		it[5].text = xstrdup("widget tool");
		rerank_pairs(cfg, NULL, "widget tool", it, 6);
		for (i = 0; i < 5; i++)
			ok(it[i].score < 0 && it[i].error != NULL &&
			    strstr(it[i].error, want[i]) != NULL,
			    "pair %s: unscored, error \"%s\"", modes[i],
			    it[i].error != NULL ? it[i].error : "(none)");
		ok(it[5].score == 8, "failures: the healthy pair still scores");
		items_free(it, 6);
	}
	lru_free(cache);
	config_free(cfg);
}

static void
test_batch(struct fake *f, struct fake *bad)
{
	struct config		*cfg = cfg_for(f->url);
	struct rerank_item	*it;
	char			*err;

	it = items_new(5, NULL, 99);
	is_int(rerank_batch(cfg, NULL, "widget tool", it, 5, &err), 0,
	    "batch: answered");
	is_int(scored(it, 5), 5, "batch: every N=score line read");
	ok(it[4].score == 8, "batch: the fifth candidate's score");
	is_int(fake_count(f, "batches"), 1, "batch: one request for five");
	items_free(it, 5);

	free(cfg->rr_url);
	cfg->rr_url = xstrdup(bad->url);	/* answers without numbers */
	it = items_new(3, NULL, 99);
	is_int(rerank_batch(cfg, NULL, "widget tool", it, 3, &err), SR_IO,
	    "batch: an answer without N=score lines fails");
	ok(err != NULL && strstr(err, "N=score") != NULL,
	    "batch: ...saying so");
	ok(scored(it, 3) == 0 && it[0].error != NULL,
	    "batch: every candidate carries the error");
	free(err);
	items_free(it, 3);
	config_free(cfg);
}

static void
test_refused(void)
{
	struct config		*cfg;
	struct rerank_item	*it;
	struct fake		 dead;
	char			*out, *err;
	int			 cached;

	/* a port that was just free: connection refused */
	if (fake_start(&dead, NULL, NULL) != 0) {
		ok(0, "refused: start a server to stop");
		return;
	}
	fake_stop(&dead);
	cfg = cfg_for(dead.url);
	is_int(rewrite_query(cfg, NULL, "pdf", &out, &cached, &err), SR_IO,
	    "refused: the rewriter fails");
	ok(err != NULL && (strstr(err, "refused") != NULL ||
	    strstr(err, "connect") != NULL), "refused: \"%s\"",
	    err != NULL ? err : "");
	free(err);
	it = items_new(3, NULL, 99);
	rerank_pairs(cfg, NULL, "q", it, 3);
	ok(scored(it, 3) == 0 && it[2].error != NULL,
	    "refused: no pair scored, each has the error");
	items_free(it, 3);
	free(cfg->rr_url);
	cfg->rr_url = xstrdup("ftp://x");
	it = items_new(2, NULL, 99);
	rerank_pairs(cfg, NULL, "q", it, 2);
	ok(it[0].error != NULL && strstr(it[0].error, "http://") != NULL,
	    "a bad URL is an error, not a crash");
	items_free(it, 2);
	config_free(cfg);
}

/* ---- the embedder and the pipeline over a small set ------------------ */

static const char *docs[] = {
	"pdf-form-filler", "Fill in PDF forms from structured data",
	"helm-charts", "Package Kubernetes applications as Helm charts",
	"sql-tuning", "Speed up slow SQL queries with indexes",
	"css-grid", "Lay out web pages with CSS grid",
	"csv-cleaner", "Clean messy CSV files and duplicates",
	"git-bisect", "Find the commit that introduced a regression",
};

static void
set_fill(struct skill_set *set)
{
	size_t	 i;

	skill_set_init(set);
	for (i = 0; i < sizeof(docs) / sizeof(docs[0]); i += 2) {
		struct skill *s = skill_new();

		s->name = xstrdup(docs[i]);
		s->uid = xstrdup(docs[i]);
		xasprintf(&s->path, "/skills/%s/SKILL.md", docs[i]);
		s->scope = xstrdup("user");
		s->description = xstrdup(docs[i + 1]);
		s->when_to_use = xstrdup("");
		skill_set_add(set, s);
	}
}

static struct config *
cfg_embed(const char *url, const char *model, const char *dir)
{
	struct config	*cfg = cfg_for(url);

	free(cfg->embedder);
	free(cfg->embed_url);
	free(cfg->embed_model);
	free(cfg->index_path);
	cfg->embedder = xstrdup("ollama");
	cfg->embed_url = xstrdup(url);
	cfg->embed_model = xstrdup(model);
	xasprintf(&cfg->index_path, "%s/index.db", dir);
	return cfg;
}

static void
test_embedder(struct fake *f, const char *dir)
{
	struct skill_set	 set;
	struct search_index	*idx;
	struct search_opts	 so;
	struct search_result	 res;
	struct config		*cfg;
	struct fake		 g;
	const char		*name, *note;
	char			*cause = NULL;
	long			 n0, q0;
	size_t			 ndocs = sizeof(docs) / sizeof(docs[0]) / 2;

	set_fill(&set);
	cfg = cfg_embed(f->url, "fake-embed", dir);
	n0 = fake_count(f, "embed_inputs");
	is_int(search_index_build(&set, cfg, &idx, &cause), 0,
	    "embedder: the index builds");
	name = search_index_embedder(idx, &note);
	is_str(name, "ollama:fake-embed", "embedder: ollama:MODEL in use");
	ok(note == NULL, "embedder: no fallback note");
	is_int(fake_count(f, "embed_inputs") - n0, (long)ndocs + 1,
	    "embedder: every text (and one dimension probe) embedded");
	memset(&so, 0, sizeof so);
	so.query = "pdf forms";
	so.top_k = 3;
	so.kind = -1;
	is_int(search_run(idx, &so, &res, &cause), 0, "embedder: search");
	ok(res.n > 0 && strcmp(res.v[0].skill->name, "pdf-form-filler") == 0,
	    "embedder: the right skill first");
	ok(res.embed_error == NULL, "embedder: the query was embedded");
	search_result_done(&res);
	q0 = fake_count(f, "embed");
	is_int(search_run(idx, &so, &res, &cause), 0, "embedder: again");
	is_int(fake_count(f, "embed"), q0,
	    "embedder: the query vector came from the cache");
	search_result_done(&res);
	search_index_free(idx);

	n0 = fake_count(f, "embed_inputs");
	is_int(search_index_build(&set, cfg, &idx, &cause), 0,
	    "embedder: a rebuild");
	is_int(fake_count(f, "embed_inputs"), n0,
	    "embedder: the rebuild took every vector from the vector cache");
	search_index_free(idx);

	free(cfg->embed_model);
	cfg->embed_model = xstrdup("fake-embed-b");
	n0 = fake_count(f, "embed_inputs");
	is_int(search_index_build(&set, cfg, &idx, &cause), 0,
	    "embedder: another model");
	is_str(search_index_embedder(idx, NULL), "ollama:fake-embed-b",
	    "embedder: the new model in use");
	is_int(fake_count(f, "embed_inputs") - n0, (long)ndocs + 1,
	    "embedder: a model change re-embeds everything");
	search_index_free(idx);
	config_free(cfg);

	/* Ollama down at index time: the builtin embedder, and why */
	if (fake_start(&g, NULL, NULL) != 0)
		return;
	fake_stop(&g);
	cfg = cfg_embed(g.url, "fake-embed", dir);
	free(cfg->index_path);
	xasprintf(&cfg->index_path, "%s/other/index.db", dir);
	is_int(search_index_build(&set, cfg, &idx, &cause), 0,
	    "embedder down at index time: the index still builds");
	name = search_index_embedder(idx, &note);
	is_str(name, "builtin", "embedder down: builtin in use");
	ok(note != NULL && strstr(note, "ollama embedder") != NULL,
	    "embedder down: the note says why (%s)", note ? note : "");
	search_index_free(idx);
	config_free(cfg);

	/* answers that cannot be used: the builtin embedder, and why */
	{
		static const char *marks[] = { "fake-wrongdim", "fake-garbage",
		    "fake-partial", "fake-error" };
		static const char *want[] = { "dimension 17", "malformed JSON",
		    "/api/embed", "HTTP 500" };
		size_t	 i;

		cfg = cfg_embed(f->url, "fake-embed", dir);
		for (i = 0; i < 4; i++) {
			struct skill *s = set.v[0];

			free(s->when_to_use);
			s->when_to_use = xstrdup(marks[i]);
			is_int(search_index_build(&set, cfg, &idx, &cause), 0,
			    "embedder %s: the index builds", marks[i]);
			name = search_index_embedder(idx, &note);
			ok(strcmp(name, "builtin") == 0 && note != NULL &&
			    strstr(note, want[i]) != NULL, "embedder %s: "
			    "builtin, because \"%s\"", marks[i],
			    note != NULL ? note : "");
			search_index_free(idx);
		}
		free(set.v[0]->when_to_use);
		set.v[0]->when_to_use = xstrdup("");
		config_free(cfg);
	}

	/* Ollama gone at search time: builtin vectors, and why */
	if (fake_start(&g, NULL, NULL) != 0)
		return;
	cfg = cfg_embed(g.url, "fake-embed", dir);
	is_int(search_index_build(&set, cfg, &idx, &cause), 0,
	    "embedder: built while the server is up");
	fake_stop(&g);
	so.query = "slow sql queries";
	is_int(search_run(idx, &so, &res, &cause), 0,
	    "embedder down at search time: the search returns");
	ok(res.embed_error != NULL, "embedder down at search time: it says "
	    "why (%s)", res.embed_error ? res.embed_error : "");
	ok(res.n > 0 && strcmp(res.v[0].skill->name, "sql-tuning") == 0,
	    "embedder down at search time: the builtin ranking is right");
	search_result_done(&res);
	{
		struct search_index	*bidx;
		struct search_result	 bres;
		struct config		*bcfg = config_defaults();
		size_t			 i;
		int			 same;

		/* the fallback ranks exactly as a builtin index */
		is_int(search_index_build(&set, bcfg, &bidx, &cause), 0,
		    "a builtin index to compare with");
		so.query = "clean duplicate csv rows";
		search_run(idx, &so, &res, &cause);
		search_run(bidx, &so, &bres, &cause);
		same = res.n == bres.n && res.n > 0;
		for (i = 0; same && i < res.n; i++)
			same = strcmp(res.v[i].skill->uid,
			    bres.v[i].skill->uid) == 0 &&
			    fabs(res.v[i].score - bres.v[i].score) < 1e-6;
		ok(same, "embedder down at search time: the same results and "
		    "scores as a builtin index");
		search_result_done(&bres);
		search_index_free(bidx);
		config_free(bcfg);
	}
	search_result_done(&res);
	search_index_free(idx);
	config_free(cfg);
	skill_set_done(&set);
}

static void
test_pipeline(struct fake *f)
{
	struct skill_set	 set;
	struct search_index	*idx;
	struct search_opts	 so;
	struct search_result	 res, plain;
	struct pipeline_report	 rep;
	struct pipeline		*p;
	struct config		*cfg;
	cJSON			*st;
	char			*cause = NULL;
	size_t			 i;
	double			 w;

	set_fill(&set);
	cfg = cfg_for(f->url);
	cfg->rw_enabled = 1;
	cfg->rr_enabled = 1;
	free(cfg->rw_mode);
	cfg->rw_mode = xstrdup("replace");
	is_int(search_index_build(&set, cfg, &idx, &cause), 0, "pipeline: "
	    "index");
	p = pipeline_new(cfg);
	memset(&so, 0, sizeof so);
	so.query = "sfdp mrof";		/* the fake rewrites to "pdfs form" */
	so.top_k = 2;
	so.kind = -1;
	is_int(pipeline_search(p, idx, &so, NULL, &res, &st, &rep, &cause), 0,
	    "pipeline: replace + rerank");
	ok(st != NULL && cJSON_IsTrue(cJSON_GetObjectItem(
	    cJSON_GetObjectItem(st, "rewriter"), "ran")), "pipeline: the "
	    "rewriter ran");
	ok(rep.rewritten && rep.reranked, "pipeline: report flags");
	ok(res.n > 0 && strcmp(res.v[0].skill->name, "pdf-form-filler") == 0,
	    "pipeline: the rewritten query found the skill");
	for (i = 0; i < res.n; i++)
		ok(res.v[i].score >= 0 && res.v[i].score <= 1,
		    "pipeline: score %zu in [0, 1]", i);
	cJSON_Delete(st);
	search_result_done(&res);

	/* blending: weight 1 makes the score the reranker's / 10 */
	cfg->rr_weight = 1;
	so.query = "pdf forms";
	so.rewrite = SEARCH_STAGE_OFF;
	is_int(pipeline_search(p, idx, &so, NULL, &res, &st, &rep, &cause), 0,
	    "pipeline: weight 1");
	ok(cJSON_GetObjectItem(st, "rewriter") == NULL,
	    "pipeline: --no-rewrite leaves the rewriter out");
	ok(res.n > 0 && fabs(res.v[0].score - 0.8) < 1e-9,
	    "pipeline: weight 1 gives the reranker's 8/10 (%g)",
	    res.n ? res.v[0].score : -1);
	cJSON_Delete(st);
	search_result_done(&res);

	/* expand: raw and rewritten fused; stage off: no stages at all */
	free(cfg->rw_mode);
	cfg->rw_mode = xstrdup("expand");
	so.rewrite = SEARCH_STAGE_CONFIG;
	so.rerank = SEARCH_STAGE_OFF;
	so.query = "lqs slow";		/* raw finds sql-tuning via "slow" */
	is_int(pipeline_search(p, idx, &so, NULL, &res, &st, &rep, &cause), 0,
	    "pipeline: expand");
	ok(res.n > 0 && strcmp(res.v[0].skill->name, "sql-tuning") == 0,
	    "pipeline: expand finds it");
	ok(cJSON_GetObjectItem(st, "reranker") == NULL,
	    "pipeline: --no-rerank leaves the reranker out");
	cJSON_Delete(st);
	search_result_done(&res);
	so.rewrite = SEARCH_STAGE_OFF;
	is_int(pipeline_search(p, idx, &so, NULL, &res, &st, &rep, &cause), 0,
	    "pipeline: every stage off");
	ok(st == NULL, "pipeline: no stages reported when none ran");
	search_result_done(&res);
	pipeline_free(p);

	/* fail-open: a dead server changes nothing but the report */
	free(cfg->rw_url);
	free(cfg->rr_url);
	cfg->rw_url = xstrdup("http://127.0.0.1:1");
	cfg->rr_url = xstrdup("http://127.0.0.1:1");
	cfg->rr_weight = 0.5;
	p = pipeline_new(cfg);
	so.query = "pdf forms";
	so.rewrite = so.rerank = SEARCH_STAGE_CONFIG;
	is_int(pipeline_search(p, idx, &so, NULL, &res, &st, &rep, &cause), 0,
	    "fail-open: the search returns");
	so.rewrite = so.rerank = SEARCH_STAGE_OFF;
	is_int(search_run(idx, &so, &plain, &cause), 0, "fail-open: plain");
	w = res.n == plain.n ? 0 : 1;
	for (i = 0; i < res.n && i < plain.n; i++)
		if (res.v[i].skill != plain.v[i].skill ||
		    res.v[i].score != plain.v[i].score)
			w = 1;
	ok(w == 0, "fail-open: the fused ranking and scores are kept");
	ok(!cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetObjectItem(st,
	    "rewriter"), "ran")) && cJSON_GetStringValue(cJSON_GetObjectItem(
	    cJSON_GetObjectItem(st, "rewriter"), "error")) != NULL,
	    "fail-open: rewriter ran false with an error");
	ok(!cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetObjectItem(st,
	    "reranker"), "ran")) && cJSON_GetStringValue(cJSON_GetObjectItem(
	    cJSON_GetObjectItem(st, "reranker"), "error")) != NULL,
	    "fail-open: reranker ran false with an error");
	ok(!rep.rewritten && !rep.reranked, "fail-open: report flags off");
	cJSON_Delete(st);
	search_result_done(&res);
	search_result_done(&plain);
	pipeline_free(p);
	search_index_free(idx);
	config_free(cfg);
	skill_set_done(&set);
}

/* ollama_url_check(): the host through libcurl's parser. */
static void
url_check(void)
{
	static const struct {
		const char	*url;
		int		 good;
	} c[] = {
		{ "http://127.0.0.1:11434", 1 },
		{ "https://api.openai.com/v1", 1 },
		{ "http://[::1]:11434", 1 },
		{ "http://", 0 },
		{ "http:///x", 0 },
		{ "ftp://host", 0 },
		{ "http://127.0.0.1:11434/", 0 },
		{ "http://127.0.0.1:99999", 0 },
		{ "http://[::1:11434", 0 },
		{ "http://ho st:11434", 0 },
	};
	char	*cause;
	size_t	 i;
	int	 rv;

	for (i = 0; i < sizeof c / sizeof c[0]; i++) {
		rv = ollama_url_check(c[i].url, &cause);
		ok((rv == SR_OK) == c[i].good && (cause == NULL) == c[i].good,
		    "url check: %s %s%s", c[i].url, c[i].good ? "taken" :
		    "refused: ", cause ? cause : "");
		free(cause);
	}
}

int
main(void)
{
	struct fake	 f, slow, bad;
	char		 dir[] = "/tmp/sr-ollama.XXXXXX";
	char		*cmd;

	xmalloc_init();
	test_lru();
	test_parse();
	url_check();
	if (mkdtemp(dir) == NULL || fake_start(&f, NULL, NULL) != 0 ||
	    fake_start(&slow, "-d", "100") != 0 ||
	    fake_start(&bad, "-f", "nonumber") != 0) {
		ok(0, "start the fake Ollama servers");
		return done_testing();
	}
	test_rewrite(&f);
	test_pairs(&f, &slow);
	test_batch(&f, &bad);
	test_refused();
	test_embedder(&f, dir);
	test_pipeline(&f);
	fake_stop(&f);
	fake_stop(&slow);
	fake_stop(&bad);
	xasprintf(&cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		ok(0, "remove %s", dir);
	free(cmd);
	return done_testing();
}
