/*
 * Unit tests for retrieval: ranking over a small in-memory set, query
 * syntax, filters before truncation, top_k bounds, calibration bounds,
 * shadowed attachment, hidden entries and the project boost.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "search.h"
#include "skill.h"
#include "status.h"
#include "xmalloc.h"
#include "tap.h"

static struct skill *
mk(struct skill_set *set, const char *name, const char *desc,
    const char *tags)
{
	struct skill	*s = skill_new();

	s->name = xstrdup(name);
	s->uid = xstrdup(name);
	xasprintf(&s->path, "/skills/%s/SKILL.md", name);
	s->scope = xstrdup("user");
	s->description = xstrdup(desc);
	s->when_to_use = xstrdup("");
	if (tags != NULL)
		strlist_split(&s->tags, tags, ",");
	skill_set_add(set, s);
	return s;
}

static const char *filler[] = {
	"kubernetes-helm", "Package Kubernetes applications as Helm charts",
	"terraform-modules", "Write reusable Terraform modules for cloud infrastructure",
	"sql-tuning", "Speed up slow SQL queries with indexes and query plans",
	"react-hooks", "Build React components with hooks and state management",
	"git-bisect", "Find the commit that introduced a regression with git bisect",
	"docker-compose", "Run multi-container apps locally with Docker Compose",
	"rust-async", "Write asynchronous Rust services with tokio",
	"email-copy", "Write marketing email campaigns that convert",
	"unit-testing", "Write unit tests with mocks and fixtures in Python",
	"api-versioning", "Version a public REST API without breaking clients",
	"log-analysis", "Search and summarise application logs for errors",
	"css-grid", "Lay out web pages with CSS grid and flexbox",
	"csv-cleaner", "Clean messy CSV files: encodings, delimiters, duplicates",
	"latex-paper", "Typeset a scientific paper in LaTeX with BibTeX",
	"shell-lint", "Lint shell scripts with shellcheck",
	"image-resize", "Resize and compress images for the web",
};

struct fixture {
	struct skill_set	 set;
	struct skill		*pdf, *dup, *flaky, *polish, *agent, *hidden;
	struct skill		*proj, *german, *chinese, *plans, *plans_zh;
};

static void
fixture_init(struct fixture *f)
{
	size_t	 i;

	skill_set_init(&f->set);
	f->pdf = mk(&f->set, "pdf-form-filler",
	    "Fill in PDF forms automatically from structured data", "pdf,forms");
	f->flaky = mk(&f->set, "playwright-flaky-tests",
	    "Diagnose flaky Playwright end-to-end tests that fail on CI", "testing");
	f->polish = mk(&f->set, "linkedin-post-writer",
	    "Pisze posty na LinkedIn o dostępności cyfrowej i WCAG", "marketing");
	f->agent = mk(&f->set, "code-reviewer",
	    "Review code changes for bugs and style problems", NULL);
	f->agent->kind = KIND_AGENT;
	free(f->agent->uid);
	f->agent->uid = xstrdup("agent:code-reviewer");
	f->hidden = mk(&f->set, "secret-deploy",
	    "Deploy production releases of PDF forms", "pdf");
	f->hidden->disable_model_invocation = 1;
	f->proj = mk(&f->set, "pdf-toolbox",
	    "Merge, split and rotate PDF files", "pdf");
	f->proj->is_project = 1;
	f->german = mk(&f->set, "dateigroessen",
	    "Berechnet die Größe von Dateien und Ordnern", NULL);
	f->chinese = mk(&f->set, "biaodan",
	    "自动填写表单和生成报告", NULL);
	for (i = 0; i + 1 < sizeof(filler) / sizeof(filler[0]); i += 2)
		mk(&f->set, filler[i], filler[i + 1], NULL);
	/* A duplicate of pdf-form-filler from another root, shadowed. */
	f->dup = skill_new();
	f->dup->name = xstrdup("pdf-form-filler");
	f->dup->uid = xstrdup("pdf-form-filler");
	f->dup->path = xstrdup("/other/pdf-form-filler/SKILL.md");
	f->dup->scope = xstrdup("other");
	f->dup->description = xstrdup("Fill in PDF forms automatically");
	f->dup->when_to_use = xstrdup("");
	f->dup->shadowed_by = xstrdup(f->pdf->path);
	skill_set_add(&f->set, f->dup);
	/* A winner whose Chinese duplicate is the one a Chinese query hits. */
	f->plans = mk(&f->set, "executing-plans",
	    "Execute a written implementation plan with review checkpoints", NULL);
	f->plans_zh = skill_new();
	f->plans_zh->name = xstrdup("executing-plans");
	f->plans_zh->uid = xstrdup("executing-plans");
	f->plans_zh->path = xstrdup("/zh/executing-plans/SKILL.md");
	f->plans_zh->scope = xstrdup("other");
	f->plans_zh->description = xstrdup("按照书面实现计划执行，设评审检查点");
	f->plans_zh->when_to_use = xstrdup("");
	f->plans_zh->shadowed_by = xstrdup(f->plans->path);
	skill_set_add(&f->set, f->plans_zh);
}

static int
run(struct search_index *ix, const char *q, int top_k, int kind,
    const struct strlist *tags, struct search_result *r)
{
	struct search_opts	 o;
	char			*cause = NULL;
	int			 rv;

	memset(&o, 0, sizeof(o));
	o.query = q;
	o.top_k = top_k;
	o.kind = kind;
	o.tags = tags;
	o.explain = 1;
	rv = search_run(ix, &o, r, &cause);
	if (rv != SR_OK && cause == NULL)
		diag("error without a cause for \"%s\"", q);
	free(cause);
	return rv;
}

static int
has(const struct search_result *r, const struct skill *s)
{
	size_t	 i;

	for (i = 0; i < r->n; i++)
		if (r->v[i].skill == s)
			return 1;
	return 0;
}

static int
bounded_and_monotone(const struct search_result *r)
{
	size_t	 i;

	for (i = 0; i < r->n; i++) {
		if (!(r->v[i].score >= 0 && r->v[i].score <= 1))
			return 0;
		if (i > 0 && r->v[i].score > r->v[i - 1].score)
			return 0;
	}
	return 1;
}

int
main(void)
{
	struct fixture		 f;
	struct config		*cfg;
	struct search_index	*ix, *ix0;
	struct search_result	 r;
	struct strlist		 tags;
	struct search_opts	 o;
	char			*cause = NULL, *longq;
	double			 s_boost, s_plain;
	size_t			 i;
	int			 rv, allok;
	static const char *queries[] = { "fill pdf form", "flaky tests",
	    "review my code", "tomato balcony garden", "helm chart", "x",
	    "WCAG", "表单", "sql", "regression commit", "pdf" };

	xmalloc_init();
	fixture_init(&f);
	cfg = config_defaults();
	cfg->project_boost = 0.1;
	rv = search_index_build(&f.set, cfg, &ix, &cause);
	is_int(rv, SR_OK, "index builds");
	if (rv != SR_OK) {
		diag("%s", cause);
		return done_testing();
	}

	/* ranking and shadowing */
	run(ix, "fill pdf form", 5, -1, NULL, &r);
	ok(r.n > 0 && r.v[0].skill == f.pdf, "paraphrase finds pdf-form-filler");
	ok(r.n > 0 && r.v[0].n_shadowed == 1 && r.v[0].shadowed[0] == f.dup,
	    "the shadowed duplicate is attached to its winner");
	ok(!has(&r, f.dup), "the shadowed duplicate is not a result itself");
	ok(!has(&r, f.hidden), "disable-model-invocation entries never appear");
	ok(r.v[0].explain != NULL &&
	    cJSON_GetObjectItem(r.v[0].explain, "lexical") != NULL &&
	    cJSON_GetObjectItem(r.v[0].explain, "cosine") != NULL &&
	    cJSON_GetObjectItem(r.v[0].explain, "coverage") != NULL,
	    "explain carries the components");
	ok(!r.miss, "a clear hit is not a miss");
	is_int(r.total, f.set.n - 3, "total counts searchable entries only");
	search_result_done(&r);

	run(ix, "secret deploy production releases", 50, -1, NULL, &r);
	ok(!has(&r, f.hidden), "hidden entry stays hidden for its own words");
	search_result_done(&r);
	run(ix, "tomato balcony", 50, -1, NULL, &r);
	allok = 1;
	for (i = 0; i < r.n; i++) {
		cJSON *e = r.v[i].explain;

		if (cJSON_GetArraySize(cJSON_GetObjectItem(e, "matched_terms")) == 0 &&
		    cJSON_GetNumberValue(cJSON_GetObjectItem(e, "ngram")) < 0.03 &&
		    cJSON_GetNumberValue(cJSON_GetObjectItem(e, "cosine")) < 0.2)
			allok = 0;
	}
	ok(allok, "every candidate has some evidence");
	search_result_done(&r);

	/* multilingual and diacritics */
	run(ix, "Größe der Dateien berechnen", 3, -1, NULL, &r);
	ok(r.n > 0 && r.v[0].skill == f.german, "German query with ß");
	search_result_done(&r);
	run(ix, "grosse dateien", 3, -1, NULL, &r);
	ok(r.n > 0 && r.v[0].skill == f.german, "ß matches ss");
	search_result_done(&r);
	run(ix, "posty linkedin dostepnosc", 3, -1, NULL, &r);
	ok(r.n > 0 && r.v[0].skill == f.polish, "Polish without diacritics");
	search_result_done(&r);
	run(ix, "填写表单", 3, -1, NULL, &r);
	ok(r.n > 0 && r.v[0].skill == f.chinese, "Chinese bigrams");
	search_result_done(&r);
	run(ix, "playwrigth flakey tests", 3, -1, NULL, &r);
	ok(r.n > 0 && r.v[0].skill == f.flaky, "typos still find the skill");
	search_result_done(&r);
	run(ix, "pdf-form-filler", 3, -1, NULL, &r);
	ok(r.n > 0 && r.v[0].skill == f.pdf && r.v[0].score > 0.6,
	    "exact name is top and confident");
	search_result_done(&r);

	run(ix, "按照实现计划执行", 3, -1, NULL, &r);
	ok(r.n > 0 && r.v[0].skill == f.plans && r.v[0].n_shadowed == 1 &&
	    r.v[0].shadowed[0] == f.plans_zh,
	    "a matching duplicate lifts its winner and is attached");
	ok(r.n > 0 && cJSON_GetObjectItem(r.v[0].explain, "matched_via") != NULL,
	    "explain says which duplicate matched");
	search_result_done(&r);

	/* +term */
	run(ix, "+playwright tests", 10, -1, NULL, &r);
	ok(r.n == 1 && r.v[0].skill == f.flaky, "+term keeps only entries with it");
	search_result_done(&r);
	run(ix, "+Playwrights tests", 10, -1, NULL, &r);
	ok(r.n == 1 && r.v[0].skill == f.flaky, "+term is normalised and stemmed");
	search_result_done(&r);
	run(ix, "+zzzunknown pdf", 10, -1, NULL, &r);
	ok(r.n == 0 && r.miss, "unknown required term: no match, miss");
	search_result_done(&r);

	/* select: */
	rv = run(ix, "select:linkedin-post-writer,nope,pdf-form-filler", 5, -1,
	    NULL, &r);
	ok(rv == SR_OK && r.n == 2 && r.v[0].skill == f.polish &&
	    r.v[1].skill == f.pdf, "select: in the given order, unknown skipped");
	ok(r.n == 2 && r.v[0].score == 1 && r.v[1].score == 1 && !r.miss,
	    "select: scores 1");
	search_result_done(&r);
	run(ix, "select:agent:code-reviewer,secret-deploy", 5, -1, NULL, &r);
	ok(r.n == 1 && r.v[0].skill == f.agent,
	    "select: by uid; hidden entries are not selectable");
	search_result_done(&r);

	/* filters before truncation */
	strlist_init(&tags);
	strlist_add(&tags, "PDF");
	run(ix, "diagnose flaky playwright tests failing on CI forms", 1, -1, NULL, &r);
	ok(r.n == 1 && !strlist_contains(&r.v[0].skill->tags, "pdf", 1),
	    "without the filter the top-1 has no pdf tag");
	search_result_done(&r);
	run(ix, "diagnose flaky playwright tests failing on CI forms", 1, -1, &tags, &r);
	ok(r.n == 1 && strlist_contains(&r.v[0].skill->tags, "pdf", 1),
	    "tag filter applies before top_k (any-of, case-insensitive)");
	search_result_done(&r);
	strlist_done(&tags);
	run(ix, "review code changes", 5, KIND_AGENT, NULL, &r);
	ok(r.n == 1 && r.v[0].skill == f.agent, "kind filter");
	search_result_done(&r);
	run(ix, "review code changes", 5, KIND_COMMAND, NULL, &r);
	ok(r.n == 0 && r.miss, "kind filter with no entries of the kind");
	search_result_done(&r);

	/* bounds and bad input */
	is_int(run(ix, "pdf", 0, -1, NULL, &r), SR_USAGE, "top_k 0 is a usage error");
	is_int(run(ix, "pdf", SEARCH_TOP_K_MAX + 1, -1, NULL, &r), SR_USAGE,
	    "top_k 51 is a usage error");
	is_int(run(ix, "pdf", 50, -1, NULL, &r), SR_OK, "top_k 50 is fine");
	ok(r.n <= 50 && r.n > 0, "top_k 50 returns results");
	search_result_done(&r);
	is_int(run(ix, "pdf", 5, 9, NULL, &r), SR_USAGE, "bad kind is a usage error");
	is_int(run(ix, "  \t ", 5, -1, NULL, &r), SR_USAGE, "blank query");
	is_int(run(ix, "", 5, -1, NULL, &r), SR_USAGE, "empty query");
	memset(&o, 0, sizeof(o));
	o.top_k = 3;
	o.kind = -1;
	o.query = "write fill pdf tests";
	rv = search_run(ix, &o, &r, &cause);
	ok(rv == SR_OK && r.n == 3, "top_k truncates");
	search_result_done(&r);
	o.top_k = 0;
	rv = search_run(ix, &o, &r, &cause);
	ok(rv == SR_USAGE && cause != NULL && strstr(cause, "top_k") != NULL,
	    "the top_k message names top_k");
	free(cause);
	cause = NULL;

	longq = xmalloc(100001);
	for (i = 0; i < 100000; i++)
		longq[i] = "pdf form fill "[i % 14];
	longq[100000] = '\0';
	rv = run(ix, longq, 5, -1, NULL, &r);
	ok(rv == SR_OK && r.n > 0 && r.v[0].skill == f.pdf,
	    "a 100 kB query is capped and still works");
	search_result_done(&r);
	free(longq);
	rv = run(ix, "pdf \xff\xfe form", 5, -1, NULL, &r);
	ok(rv == SR_OK && r.n > 0, "invalid UTF-8 in the query");
	search_result_done(&r);

	/* calibration */
	allok = 1;
	for (i = 0; i < sizeof(queries) / sizeof(queries[0]); i++) {
		if (run(ix, queries[i], 10, -1, NULL, &r) != SR_OK ||
		    !bounded_and_monotone(&r))
			allok = 0;
		if (r.miss != (r.n == 0 || r.v[0].score < cfg->miss_threshold))
			allok = 0;
		search_result_done(&r);
	}
	ok(allok, "scores in [0,1], non-increasing, miss = top-1 < threshold");
	run(ix, "tomato balcony garden", 5, -1, NULL, &r);
	s_plain = r.n ? r.v[0].score : 0;
	search_result_done(&r);
	run(ix, "diagnose flaky playwright tests", 5, -1, NULL, &r);
	ok(r.n > 0 && r.v[0].score > s_plain,
	    "a real match scores above an unrelated query");
	search_result_done(&r);

	/* project boost */
	cfg->project_boost = 0;
	rv = search_index_build(&f.set, cfg, &ix0, &cause);
	run(ix0, "merge pdf files", 5, -1, NULL, &r);
	s_plain = -1;
	for (i = 0; i < r.n; i++)
		if (r.v[i].skill == f.proj)
			s_plain = r.v[i].score;
	search_result_done(&r);
	run(ix, "merge pdf files", 5, -1, NULL, &r);
	s_boost = -1;
	for (i = 0; i < r.n; i++)
		if (r.v[i].skill == f.proj)
			s_boost = r.v[i].score;
	search_result_done(&r);
	ok(s_plain >= 0 && s_boost >= 0 &&
	    fabs(s_boost - fmin(1.0, s_plain + 0.1)) < 1e-9,
	    "project skills get retrieval.project_boost");
	search_index_free(ix0);

	/* cosine pruning ranks exactly like the full scan */
	{
		struct search_params	 pp;
		struct search_index	*ixf;
		struct search_result	 r2;
		int			 same = 1;

		search_params_default(&pp);
		pp.full_scan = 1;
		cfg->project_boost = 0.1;	/* as for ix */
		rv = search_index_build_params(&f.set, cfg, &pp, &ixf, &cause);
		for (i = 0; rv == SR_OK && i < sizeof(queries) / sizeof(queries[0]);
		    i++) {
			size_t k;

			run(ix, queries[i], 3, -1, NULL, &r);
			run(ixf, queries[i], 3, -1, NULL, &r2);
			for (k = 0; k < r.n && k < r2.n; k++)
				if (r.v[k].skill != r2.v[k].skill ||
				    fabs(r.v[k].score - r2.v[k].score) > 1e-6) {
					diag("%s #%zu: %s %.6f vs %s %.6f", queries[i], k,
					    r.v[k].skill->name, r.v[k].score,
					    r2.v[k].skill->name, r2.v[k].score);
					same = 0;
				}
			search_result_done(&r);
			search_result_done(&r2);
		}
		ok(rv == SR_OK && same, "pruned cosines rank like the full scan");
		if (rv == SR_OK)
			search_index_free(ixf);
	}

	/* the cache file */
	{
		char			 tmpl[] = "/tmp/sr-search-cache.XXXXXX";
		char			*path;
		struct search_index	*ixl;
		struct search_result	 r2;
		FILE			*fp;
		long			 sz;
		char			*old;
		int			 fd, same = 1;

		if ((fd = mkstemp(tmpl)) != -1)
			close(fd);
		xasprintf(&path, "%s.cache", tmpl);
		is_int(search_index_load(&f.set, cfg, path, &ixl, &cause),
		    SR_NOTFOUND, "cache: a missing file is SR_NOTFOUND");
		free(cause);
		cause = NULL;
		cfg->project_boost = 0.1;
		is_int(search_index_save(ix, path, &cause), SR_OK, "cache: save");
		rv = search_index_load(&f.set, cfg, path, &ixl, &cause);
		is_int(rv, SR_OK, "cache: load");
		for (i = 0; rv == SR_OK && i < sizeof(queries) / sizeof(queries[0]);
		    i++) {
			size_t k;

			run(ix, queries[i], 10, -1, NULL, &r);
			run(ixl, queries[i], 10, -1, NULL, &r2);
			if (r.n != r2.n || r.miss != r2.miss || r.total != r2.total)
				same = 0;
			for (k = 0; same && k < r.n; k++)
				if (r.v[k].skill != r2.v[k].skill ||
				    r.v[k].score != r2.v[k].score ||
				    r.v[k].n_shadowed != r2.v[k].n_shadowed)
					same = 0;
			search_result_done(&r);
			search_result_done(&r2);
		}
		ok(rv == SR_OK && same, "cache: a loaded index answers the same");
		if (rv == SR_OK)
			search_index_free(ixl);
		old = f.flaky->description;
		f.flaky->description = xstrdup("changed");
		is_int(search_index_load(&f.set, cfg, path, &ixl, &cause),
		    SR_NOTFOUND, "cache: an edited entry makes it stale");
		free(cause);
		cause = NULL;
		free(f.flaky->description);
		f.flaky->description = old;
		if ((fp = fopen(path, "r+")) != NULL) {
			fseek(fp, 0, SEEK_END);
			sz = ftell(fp);
			fclose(fp);
			if (truncate(path, sz / 2) != 0)
				diag("truncate failed");
		}
		is_int(search_index_load(&f.set, cfg, path, &ixl, &cause),
		    SR_NOTFOUND, "cache: a truncated file is rejected");
		free(cause);
		cause = NULL;
		unlink(path);
		unlink(tmpl);
		free(path);
	}

	/* random bytes as descriptions and queries */
	{
		struct skill_set	 rs;
		unsigned long long	 st = 0x9E3779B97F4A7C15ULL;
		char			 buf[300];
		size_t			 k, j;

		skill_set_init(&rs);
		for (k = 0; k < 40; k++) {
			for (j = 0; j + 1 < sizeof(buf); j++) {
				st ^= st << 13; st ^= st >> 7; st ^= st << 17;
				buf[j] = (char)(st % 255 + 1);
			}
			buf[sizeof(buf) - 1] = '\0';
			mk(&rs, k % 2 ? buf : "x", buf, k % 3 ? buf : NULL);
		}
		rv = search_index_build(&rs, cfg, &ix0, &cause);
		allok = rv == SR_OK;
		for (k = 0; allok && k < 40; k++) {
			rv = run(ix0, rs.v[k]->description + k, 10, -1, NULL, &r);
			if (rv != SR_OK && rv != SR_USAGE)
				allok = 0;
			if (rv == SR_OK && !bounded_and_monotone(&r))
				allok = 0;
			search_result_done(&r);
		}
		ok(allok, "random bytes in descriptions and queries");
		search_index_free(ix0);
		skill_set_done(&rs);
	}

	/* an empty set */
	{
		struct skill_set empty;

		skill_set_init(&empty);
		rv = search_index_build(&empty, cfg, &ix0, &cause);
		ok(rv == SR_OK, "an empty set builds");
		rv = run(ix0, "pdf", 5, -1, NULL, &r);
		ok(rv == SR_OK && r.n == 0 && r.miss && r.total == 0,
		    "an empty set answers with a miss");
		search_result_done(&r);
		search_index_free(ix0);
		skill_set_done(&empty);
	}

	search_index_free(ix);
	config_free(cfg);
	skill_set_done(&f.set);
	return done_testing();
}
