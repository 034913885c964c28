/*
 * Unit tests for retrieval: ranking over a small in-memory set, query
 * syntax, filters before truncation, top_k bounds, calibration bounds,
 * shadowed attachment, hidden entries and the project boost. The set,
 * the ranking cases and the calibration queries are data files in
 * tests/data/search/ranking.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/config.h"
#include "search/search.h"
#include "search/search_cache.h"
#include "search/search_impl.h"
#include "core/skill.h"
#include "base/status.h"
#include "base/xmalloc.h"
#include "tap.h"
#include "testdata.h"

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

/*
 * Returns the entry with this uid: the winner, or with shadowed set the
 * duplicate it shadows; NULL (after a diag) when there is none.
 */
static struct skill *
fixture_get(const struct skill_set *set, const char *uid, int shadowed)
{
	size_t	 i;

	for (i = 0; i < set->n; i++)
		if (strcmp(set->v[i]->uid, uid) == 0 &&
		    (set->v[i]->shadowed_by != NULL) == shadowed)
			return set->v[i];
	diag("no %s\"%s\" in ranking/skills.tsv", shadowed ? "shadowed " : "",
	    uid);
	return NULL;
}

/* Applies one flag of ranking/skills.tsv to s; returns 0 if unknown. */
static int
fixture_flag(struct skill_set *set, struct skill *s, const char *flag)
{
	struct skill	*winner;

	if (strcmp(flag, "agent") == 0) {
		s->kind = KIND_AGENT;
		free(s->uid);
		xasprintf(&s->uid, "agent:%s", s->name);
	} else if (strcmp(flag, "hidden") == 0)
		s->disable_model_invocation = 1;
	else if (strcmp(flag, "project") == 0)
		s->is_project = 1;
	else if (strncmp(flag, "shadowed:", 9) == 0) {
		/* The winner is listed first, so it is found before s. */
		if ((winner = fixture_get(set, s->uid, 0)) == s)
			return 0;
		free(s->path);
		xasprintf(&s->path, "%s/%s/SKILL.md", flag + 9, s->name);
		free(s->scope);
		s->scope = xstrdup("other");
		s->shadowed_by = xstrdup(winner->path);
	} else
		return 0;
	return 1;
}

struct fixture {
	struct skill_set	 set;
	struct skill		*pdf, *dup, *flaky, *polish, *agent, *hidden;
	struct skill		*proj, *german, *chinese, *plans, *plans_zh;
};

/*
 * Fills f->set from tests/data/search/ranking/skills.tsv, in file order,
 * and points the named members at the entries the checks in C use.
 * Returns 0 when the file is missing or malformed.
 */
static int
fixture_init(struct fixture *f)
{
	struct strlist	 flags;
	struct skill	*s;
	char		*buf, *cur, *col[4];
	size_t		 i;
	int		 n, good = 1;

	skill_set_init(&f->set);
	if ((buf = testdata_read("search/ranking/skills.tsv")) == NULL)
		return 0;
	cur = buf;
	while (good && (n = testdata_row(&cur, col, 4)) > 0) {
		if (n != 4) {
			diag("skills.tsv: \"%s\" wants 4 fields", col[0]);
			good = 0;
			break;
		}
		s = mk(&f->set, col[0], col[3],
		    strcmp(col[1], "-") == 0 ? NULL : col[1]);
		strlist_init(&flags);
		if (strcmp(col[2], "-") != 0)
			strlist_split(&flags, col[2], ",");
		for (i = 0; i < flags.n; i++)
			if (!fixture_flag(&f->set, s, flags.v[i])) {
				diag("skills.tsv: %s: bad flag \"%s\"", s->name,
				    flags.v[i]);
				good = 0;
			}
		strlist_done(&flags);
	}
	free(buf);
	f->pdf = fixture_get(&f->set, "pdf-form-filler", 0);
	f->dup = fixture_get(&f->set, "pdf-form-filler", 1);
	f->flaky = fixture_get(&f->set, "playwright-flaky-tests", 0);
	f->polish = fixture_get(&f->set, "linkedin-post-writer", 0);
	f->agent = fixture_get(&f->set, "agent:code-reviewer", 0);
	f->hidden = fixture_get(&f->set, "secret-deploy", 0);
	f->proj = fixture_get(&f->set, "pdf-toolbox", 0);
	f->german = fixture_get(&f->set, "dateigroessen", 0);
	f->chinese = fixture_get(&f->set, "biaodan", 0);
	f->plans = fixture_get(&f->set, "executing-plans", 0);
	f->plans_zh = fixture_get(&f->set, "executing-plans", 1);
	return good && f->pdf && f->dup && f->flaky && f->polish && f->agent &&
	    f->hidden && f->proj && f->german && f->chinese && f->plans &&
	    f->plans_zh;
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

/*
 * A generated set of n entries over a small vocabulary (many equal
 * scores, so ties are broken by path), every 7th a project entry and
 * every 11th shadowed by the entry before it.
 */
static void
gen_set(struct skill_set *set, size_t n, unsigned long long *st)
{
	static const char *w[] = { "pdf", "merge", "test", "flaky", "deploy",
	    "docker", "sql", "query", "cache", "email", "video", "resize",
	    "audit", "token", "login", "report", "chart", "backup", "lint",
	    "format" };
	char		 name[64], desc[256];
	size_t		 i, len;
	int		 k;

	for (i = 0; i < n; i++) {
		struct skill	*s;

		len = 0;
		for (k = 0; k < 4 + (int)(*st % 6); k++) {
			*st ^= *st << 13; *st ^= *st >> 7; *st ^= *st << 17;
			len += (size_t)snprintf(desc + len, sizeof(desc) - len,
			    "%s%s", k ? " " : "", w[*st % 20]);
		}
		snprintf(name, sizeof(name), "%s-%s-%zu", w[i % 20],
		    w[(i / 20) % 20], i % 97);
		s = mk(set, name, desc, NULL);
		s->is_project = i % 7 == 3;
		if (i % 11 == 10 && i > 0) {
			free(s->uid);
			s->uid = xstrdup(set->v[i - 1]->uid);
			free(s->name);
			s->name = xstrdup(set->v[i - 1]->name);
			s->shadowed_by = xstrdup(set->v[i - 1]->path);
		}
	}
}

/*
 * How many answers of the pruned index ix differ from the full scan's
 * (ixf) for these queries and top_k: the same entries in the same order,
 * the same scores, shadowed lists and miss flag, to the bit.
 */
static int
pruned_diffs(struct search_index *ix, struct search_index *ixf,
    const char *const *qs, size_t nq, int top_k)
{
	struct search_result	 r, r2;
	size_t			 i, k;
	int			 bad = 0;

	for (i = 0; i < nq; i++) {
		if (run(ix, qs[i], top_k, -1, NULL, &r) != SR_OK ||
		    run(ixf, qs[i], top_k, -1, NULL, &r2) != SR_OK) {
			diag("\"%s\" failed", qs[i]);
			bad++;
			continue;
		}
		if (r.n != r2.n || r.miss != r2.miss) {
			diag("\"%s\" top %d: %zu vs %zu results", qs[i], top_k,
			    r.n, r2.n);
			bad++;
		}
		for (k = 0; k < r.n && k < r2.n; k++)
			if (r.v[k].skill != r2.v[k].skill ||
			    r.v[k].score != r2.v[k].score ||
			    r.v[k].n_shadowed != r2.v[k].n_shadowed) {
				diag("\"%s\" top %d #%zu: %s %.9f vs %s %.9f",
				    qs[i], top_k, k, r.v[k].skill->path,
				    r.v[k].score, r2.v[k].skill->path,
				    r2.v[k].score);
				bad++;
			}
		search_result_done(&r);
		search_result_done(&r2);
	}
	return bad;
}

/* Pruning on generated sets of n entries answers like the full scan. */
static void
pruned_like_full(struct config *cfg, size_t n, const char *what)
{
	static const char *const qs[] = { "merge pdf", "flaky test",
	    "deploy docker sql cache", "email video resize report", "pdf",
	    "audit login token backup lint format chart", "pdf-merge-3",
	    "how do I query the cache for my team", "resze vidoe",
	    "zebra unknown words" };
	struct skill_set	 set;
	struct search_params	 pp;
	struct search_index	*ix = NULL, *ixf = NULL;
	unsigned long long	 st = 0x2545F4914F6CDD1DULL;
	char			*cause = NULL;
	static const int	 ks[] = { 1, 2, 5, 10, 50 };
	size_t			 j;
	int			 bad = 0;

	skill_set_init(&set);
	gen_set(&set, n, &st);
	search_params_default(&pp);
	pp.full_scan = 1;
	if (search_index_build(&set, cfg, &ix, &cause) != SR_OK ||
	    search_index_build_params(&set, cfg, &pp, &ixf, &cause) != SR_OK) {
		diag("build: %s", cause ? cause : "?");
		free(cause);
		bad = 1;
	}
	for (j = 0; !bad && j < sizeof(ks) / sizeof(ks[0]); j++)
		bad += pruned_diffs(ix, ixf, qs, sizeof(qs) / sizeof(qs[0]),
		    ks[j]);
	ok(bad == 0, "cosine pruning answers like the full scan: %s", what);
	search_index_free(ix);
	search_index_free(ixf);
	skill_set_done(&set);
}

/*
 * Queries on one index reuse its pooled per-entry scratch (reset after
 * each query, wholly or entry by entry): every answer must be the one a
 * fresh index gives, whatever ran before, broad or narrow.
 */
static void
reused_like_fresh(struct config *cfg, size_t n, const char *what)
{
	static const char *const qs[] = { "audit login token backup lint",
	    "pdf-merge-3", "merge pdf", "zebra unknown words", "resze vidoe",
	    "deploy docker sql cache", "pdf", "flaky test", "merge pdf",
	    "audit login token backup lint" };
	struct skill_set	 set;
	struct search_index	*ix = NULL, *fresh = NULL;
	unsigned long long	 st = 0x9E3779B97F4A7C15ULL;
	char			*cause = NULL;
	size_t			 i;
	int			 bad = 0;

	skill_set_init(&set);
	gen_set(&set, n, &st);
	if (search_index_build(&set, cfg, &ix, &cause) != SR_OK) {
		diag("build: %s", cause ? cause : "?");
		free(cause);
		bad = 1;
	}
	for (i = 0; !bad && i < sizeof(qs) / sizeof(qs[0]); i++) {
		if (search_index_build(&set, cfg, &fresh, &cause) != SR_OK) {
			diag("build: %s", cause ? cause : "?");
			free(cause);
			bad = 1;
			break;
		}
		bad += pruned_diffs(ix, fresh, &qs[i], 1, 10);
		search_index_free(fresh);
	}
	ok(bad == 0, "a query after others answers as on a fresh index: %s",
	    what);
	search_index_free(ix);
	skill_set_done(&set);
}

/* Overwrites one byte of the file at off. */
static void
poke(const char *path, size_t off, char c)
{
	FILE	*fp;

	if ((fp = fopen(path, "r+b")) == NULL || fseek(fp, (long)off,
	    SEEK_SET) != 0 || fputc(c, fp) == EOF)
		diag("poke %s at %zu failed", path, off);
	if (fp != NULL)
		fclose(fp);
}

/*
 * An index opened from its cache alone decodes the entries a search
 * shows, not every entry; a damaged entry is noticed when decoded, and a
 * damaged offset table when opened.
 */
static void
lazy_entries(struct config *cfg)
{
	static const char *const qs[] = { "merge pdf", "flaky test",
	    "deploy docker sql cache", "resze vidoe" };
	struct skill_set	 set;
	struct search_index	*ix = NULL, *ixl = NULL;
	struct search_result	 r, r2;
	unsigned long long	 st = 0x2545F4914F6CDD1DULL;
	char			 tmpl[] = "/tmp/sr-search-lazy.XXXXXX";
	char			*cause = NULL, *path;
	size_t			 i, k, blob = 0, toff = 0;
	int			 fd, same = 1, rv;

	if ((fd = mkstemp(tmpl)) != -1)
		close(fd);
	xasprintf(&path, "%s.cache", tmpl);
	skill_set_init(&set);
	gen_set(&set, 600, &st);
	if (search_index_build(&set, cfg, &ix, &cause) != SR_OK ||
	    search_index_save(ix, path, 5, &cause) != SR_OK) {
		diag("build: %s", cause ? cause : "?");
		free(cause);
		cause = NULL;
	}
	rv = search_index_open(5, cfg, path, &ixl, &cause);
	is_int(rv, SR_OK, "lazy: open by the store key");
	if (rv == SR_OK) {
		ok(ixl->lite.n == 0, "lazy: opening decodes no entry");
		for (i = 0; i < sizeof(qs) / sizeof(qs[0]); i++) {
			run(ix, qs[i], 5, -1, NULL, &r);
			run(ixl, qs[i], 5, -1, NULL, &r2);
			if (r.n != r2.n)
				same = 0;
			for (k = 0; same && k < r.n; k++)
				if (strcmp(r.v[k].skill->path,
				    r2.v[k].skill->path) != 0 ||
				    r.v[k].score != r2.v[k].score)
					same = 0;
			search_result_done(&r);
			search_result_done(&r2);
		}
		ok(same, "lazy: answers as the built index");
		ok(ixl->lite.n > 0 && ixl->lite.n < 120, "lazy: %zu of %u "
		    "entries decoded by 4 searches", ixl->lite.n, ixl->ndocs);
		ok(!search_index_damaged(ixl), "lazy: a sound cache is "
		    "not damaged");
		blob = (size_t)(ixl->lite.blob - (const char *)ixl->map);
		toff = (size_t)((const char *)ixl->lite.off -
		    (const char *)ixl->map);
		search_index_free(ixl);
		ixl = NULL;
	}
	/* one letter of every entry's uid changed: the hashes see it */
	if (rv == SR_OK) {
		struct search_index *c = NULL;

		if (search_index_open(5, cfg, path, &c, &cause) == SR_OK) {
			for (i = 0; i < c->ndocs; i++) {
				size_t at = (size_t)c->lite.off[i];

				at += strlen(c->lite.blob + at) + 1;
				poke(path, blob + at, c->lite.blob[at] == 'Z' ?
				    'Y' : 'Z');
			}
			search_index_free(c);
		}
		rv = search_index_open(5, cfg, path, &ixl, &cause);
		is_int(rv, SR_OK, "lazy: damaged entries open (not read yet)");
		if (rv == SR_OK) {
			run(ixl, "merge pdf", 5, -1, NULL, &r2);
			ok(search_index_damaged(ixl), "lazy: a damaged entry "
			    "is noticed when a search reads it");
			for (k = 0, same = 1; k < r2.n; k++)
				if (r2.v[k].skill->path == NULL)
					same = 0;
			ok(same, "lazy: a damaged entry reads as empty strings");
			search_result_done(&r2);
			search_index_free(ixl);
		}
		poke(path, toff + 15, 0x7f);	/* the second offset, huge */
		is_int(search_index_open(5, cfg, path, &ixl, &cause),
		    SR_NOTFOUND, "lazy: a damaged offset table is not opened");
		free(cause);
		cause = NULL;
	}
	search_index_free(ix);
	skill_set_done(&set);
	unlink(path);
	unlink(tmpl);
	free(path);
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

/*
 * Checks one token of an expect.tsv row against r (see the file's head);
 * returns 1 if it holds, else 0 after a diag naming it.
 */
static int
check_token(const struct skill_set *set, const struct search_result *r,
    const char *tok)
{
	struct strlist	 ids;
	size_t		 i;
	int		 good;

	if (strcmp(tok, "none") == 0)
		good = r->n == 0 && r->miss;
	else if (strncmp(tok, "top=", 4) == 0)
		good = r->n > 0 &&
		    r->v[0].skill == fixture_get(set, tok + 4, 0);
	else if (strncmp(tok, "only=", 5) == 0) {
		strlist_init(&ids);
		strlist_split(&ids, tok + 5, ",");
		good = r->n == ids.n;
		for (i = 0; good && i < ids.n; i++)
			good = r->v[i].skill == fixture_get(set, ids.v[i], 0);
		strlist_done(&ids);
	} else if (strncmp(tok, "absent=", 7) == 0)
		good = !has(r, fixture_get(set, tok + 7, 0));
	else if (strncmp(tok, "count=", 6) == 0)
		good = r->n == strtoul(tok + 6, NULL, 10);
	else if (strncmp(tok, "score>", 6) == 0)
		good = r->n > 0 && r->v[0].score > strtod(tok + 6, NULL);
	else if (strncmp(tok, "tag=", 4) == 0)
		good = r->n > 0 &&
		    strlist_contains(&r->v[0].skill->tags, tok + 4, 1);
	else if (strncmp(tok, "notag=", 6) == 0)
		good = r->n > 0 &&
		    !strlist_contains(&r->v[0].skill->tags, tok + 6, 1);
	else {
		diag("expect.tsv: unknown check \"%s\"", tok);
		return 0;
	}
	if (!good)
		diag("does not hold: %s", tok);
	return good;
}

/*
 * Runs every row of tests/data/search/ranking/expect.tsv against ix, one
 * TAP line each, labelled by the row. Returns 0 if the file is missing.
 */
static int
run_cases(struct search_index *ix, const struct skill_set *set)
{
	struct search_result	 r;
	struct strlist		 tags;
	char			*buf, *cur, *col[5], *tok, *next;
	int			 n, kind, good;

	if ((buf = testdata_read("search/ranking/expect.tsv")) == NULL)
		return 0;
	cur = buf;
	while ((n = testdata_row(&cur, col, 5)) > 0) {
		if (n != 5) {
			ok(0, "expect.tsv: \"%s\" wants 5 fields", col[0]);
			continue;
		}
		memset(&r, 0, sizeof(r));
		good = 1;
		kind = -1;
		strlist_init(&tags);
		if (strncmp(col[2], "kind=", 5) == 0)
			good = (kind = kind_from_name(col[2] + 5)) != -1;
		else if (strncmp(col[2], "tags=", 5) == 0)
			strlist_split(&tags, col[2] + 5, ",");
		else if (strcmp(col[2], "-") != 0)
			good = 0;
		if (!good)
			diag("expect.tsv: bad filter \"%s\"", col[2]);
		else if (run(ix, col[0], atoi(col[1]), kind,
		    tags.n > 0 ? &tags : NULL, &r) != SR_OK) {
			diag("the search for \"%s\" failed", col[0]);
			good = 0;
		} else {
			for (tok = col[3]; tok != NULL; tok = next) {
				if ((next = strchr(tok, ' ')) != NULL)
					*next++ = '\0';
				if (*tok != '\0' && !check_token(set, &r, tok))
					good = 0;
			}
		}
		ok(good, "%s", col[4]);
		search_result_done(&r);
		strlist_done(&tags);
	}
	free(buf);
	return 1;
}

/*
 * Fills q with the queries of tests/data/search/ranking/calibrate.txt,
 * one a line; q owns copies. Returns 0 if the file is missing or empty.
 */
static int
load_queries(struct strlist *q)
{
	char	*buf, *cur, *line;

	strlist_init(q);
	if ((buf = testdata_read("search/ranking/calibrate.txt")) == NULL)
		return 0;
	cur = buf;
	while (testdata_row(&cur, &line, 1) > 0)
		strlist_add(q, line);
	free(buf);
	return q->n > 0;
}

int
main(void)
{
	struct fixture		 f;
	struct config		*cfg;
	struct search_index	*ix, *ix0;
	struct search_result	 r;
	struct strlist		 queries;
	struct search_opts	 o;
	char			*cause = NULL, *longq;
	double			 s_boost, s_plain;
	size_t			 i;
	int			 rv, allok;

	xmalloc_init();
	if (!fixture_init(&f) || !load_queries(&queries)) {
		ok(0, "the fixtures in tests/data/search/ranking load");
		return done_testing();
	}
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

	/* hidden entries, languages, typos, +term, select:, filters */
	if (!run_cases(ix, &f.set))
		ok(0, "tests/data/search/ranking/expect.tsv is read");

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

	run(ix, "按照实现计划执行", 3, -1, NULL, &r);
	ok(r.n > 0 && r.v[0].skill == f.plans && r.v[0].n_shadowed == 1 &&
	    r.v[0].shadowed[0] == f.plans_zh,
	    "a matching duplicate lifts its winner and is attached");
	ok(r.n > 0 && cJSON_GetObjectItem(r.v[0].explain, "matched_via") != NULL,
	    "explain says which duplicate matched");
	search_result_done(&r);

	/* select: answers score 1 (expect.tsv checks which, in what order) */
	run(ix, "select:linkedin-post-writer,nope,pdf-form-filler", 5, -1,
	    NULL, &r);
	ok(r.n == 2 && r.v[0].score == 1 && r.v[1].score == 1 && !r.miss,
	    "select: scores 1");
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
	for (i = 0; i < queries.n; i++) {
		if (run(ix, queries.v[i], 10, -1, NULL, &r) != SR_OK ||
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
		for (i = 0; rv == SR_OK && i < queries.n;
		    i++) {
			size_t k;

			run(ix, queries.v[i], 3, -1, NULL, &r);
			run(ixf, queries.v[i], 3, -1, NULL, &r2);
			for (k = 0; k < r.n && k < r2.n; k++)
				if (r.v[k].skill != r2.v[k].skill ||
				    fabs(r.v[k].score - r2.v[k].score) > 1e-6) {
					diag("%s #%zu: %s %.6f vs %s %.6f",
					    queries.v[i], k,
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

	pruned_like_full(cfg, 3, "3 entries, top_k up to 50");
	pruned_like_full(cfg, 3000, "3000 entries with ties");
	reused_like_fresh(cfg, 40, "40 entries");
	reused_like_fresh(cfg, 2000, "2000 entries");
	lazy_entries(cfg);

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
		is_int(search_index_save(ix, path, 0, &cause), SR_OK, "cache: save");
		rv = search_index_load(&f.set, cfg, path, &ixl, &cause);
		is_int(rv, SR_OK, "cache: load");
		for (i = 0; rv == SR_OK && i < queries.n;
		    i++) {
			size_t k;

			run(ix, queries.v[i], 10, -1, NULL, &r);
			run(ixl, queries.v[i], 10, -1, NULL, &r2);
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
		/* opened from the cache alone, by its store key */
		is_int(search_index_open(77, cfg, path, &ixl, &cause),
		    SR_NOTFOUND, "cache: no store key saved, no open");
		free(cause);
		cause = NULL;
		is_int(search_index_save(ix, path, 77, &cause), SR_OK,
		    "cache: save with a store key");
		is_int(search_index_open(78, cfg, path, &ixl, &cause),
		    SR_NOTFOUND, "cache: another store key is stale");
		free(cause);
		cause = NULL;
		rv = search_index_open(77, cfg, path, &ixl, &cause);
		is_int(rv, SR_OK, "cache: open by the store key");
		same = 1;
		for (i = 0; rv == SR_OK && i < queries.n; i++) {
			size_t k, t;

			run(ix, queries.v[i], 10, -1, NULL, &r);
			run(ixl, queries.v[i], 10, -1, NULL, &r2);
			if (r.n != r2.n || r.miss != r2.miss || r.total != r2.total)
				same = 0;
			for (k = 0; same && k < r.n; k++) {
				const struct skill *a = r.v[k].skill;
				const struct skill *b = r2.v[k].skill;

				if (a == b || strcmp(a->path, b->path) != 0 ||
				    strcmp(a->uid, b->uid) != 0 ||
				    strcmp(a->description, b->description) != 0 ||
				    strcmp(a->when_to_use, b->when_to_use) != 0 ||
				    (a->display == NULL) != (b->display == NULL) ||
				    a->kind != b->kind || a->trust != b->trust ||
				    a->risk != b->risk ||
				    a->tags.n != b->tags.n ||
				    r.v[k].score != r2.v[k].score ||
				    r.v[k].n_shadowed != r2.v[k].n_shadowed)
					same = 0;
				for (t = 0; same && t < a->tags.n; t++)
					if (strcmp(a->tags.v[t], b->tags.v[t]) != 0)
						same = 0;
			}
			search_result_done(&r);
			search_result_done(&r2);
		}
		ok(rv == SR_OK && same, "cache: an opened index answers the "
		    "same, with copies of the entries");
		if (rv == SR_OK) {
			struct strlist tg;

			strlist_init(&tg);
			strlist_add(&tg, "testing");
			run(ix, "test", 10, -1, &tg, &r);
			run(ixl, "test", 10, -1, &tg, &r2);
			ok(r.n == r2.n && r.n > 0, "cache: a tag filter on an "
			    "opened index as on the built one");
			search_result_done(&r);
			search_result_done(&r2);
			strlist_done(&tg);
			is_int(search_index_save(ixl, path, 77, &cause),
			    SR_USAGE, "cache: an opened index is not saved");
			free(cause);
			cause = NULL;
			search_index_free(ixl);
		}
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
		is_int(search_index_open(77, cfg, path, &ixl, &cause),
		    SR_NOTFOUND, "cache: a truncated file is not opened");
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
	strlist_done(&queries);
	skill_set_done(&f.set);
	return done_testing();
}
