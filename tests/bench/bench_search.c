/*
 * Benchmark: in-process retrieval over generated skill sets. For each size
 * (default 1000, 10000, 100000 skills with synthetic names and
 * descriptions drawn from a word list) it prints the index build time,
 * search latency p50/p99 over a fixed query mix, and the resident memory
 * (VmRSS and VmHWM from /proc/self/status) after the build.
 * The target is p50 <= 1 ms at 10k skills.
 * A second table times the same searches through the pipeline with
 * learning from use active (usage.h): a stats.db with BENCH_PAIRS (5000)
 * sessions, each a search of the query mix followed by a load of a
 * random skill; it shows the first build of the model and p50/p99.
 * Usage: bench_search [queries-per-size] [size ...]   (default 300)
 */
#include "autoconfig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sqlite3.h>
#include <unistd.h>

#include "base/clock.h"
#include "core/config.h"
#include "engine/pipeline.h"
#include "search/search.h"
#include "telemetry/telemetry.h"
#include "telemetry/usage.h"
#include "core/skill.h"
#include "base/status.h"
#include "base/xmalloc.h"
#include "bench.h"

static const char *words[] = {
	"api", "pdf", "form", "test", "flaky", "deploy", "docker", "kubernetes",
	"helm", "chart", "terraform", "module", "cloud", "aws", "azure", "gcp",
	"sql", "query", "index", "postgres", "mysql", "sqlite", "cache", "redis",
	"queue", "kafka", "stream", "event", "ledger", "payment", "invoice",
	"email", "marketing", "campaign", "seo", "content", "blog", "post",
	"linkedin", "social", "video", "image", "resize", "compress", "audio",
	"music", "podcast", "transcribe", "translate", "summarise", "review",
	"code", "refactor", "lint", "format", "style", "python", "rust", "go",
	"java", "typescript", "react", "vue", "svelte", "css", "html", "design",
	"figma", "poster", "brand", "logo", "font", "color", "layout", "grid",
	"mobile", "android", "ios", "swift", "kotlin", "flutter", "game",
	"unity", "shader", "render", "physics", "simulate", "quantum", "qubit",
	"protein", "genome", "sequence", "phylogeny", "chemistry", "molecule",
	"spectra", "astronomy", "telescope", "climate", "weather", "finance",
	"trading", "backtest", "portfolio", "risk", "tax", "legal", "contract",
	"court", "patent", "privacy", "gdpr", "security", "audit", "vulnerability",
	"fuzz", "exploit", "malware", "reverse", "binary", "protocol", "packet",
	"network", "dns", "tls", "certificate", "oauth", "token", "login",
	"session", "browser", "playwright", "selenium", "scrape", "crawl",
	"spreadsheet", "excel", "csv", "json", "yaml", "xml", "schema",
	"migration", "backup", "restore", "monitor", "alert", "incident",
	"runbook", "oncall", "pager", "latency", "profile", "benchmark",
	"memory", "leak", "thread", "async", "parallel", "gpu", "cuda", "model",
	"train", "finetune", "embedding", "vector", "search", "rag", "prompt",
	"agent", "workflow", "plan", "task", "calendar", "meeting", "notes",
	"slides", "presentation", "report", "dashboard", "metric", "kpi",
	"churn", "growth", "pricing", "sales", "crm", "support", "ticket",
	"helpdesk", "onboarding", "hiring", "interview", "resume", "docs",
	"readme", "changelog", "release", "version", "git", "commit", "branch",
	"merge", "monorepo", "build", "compile", "package", "dependency",
};
#define NWORDS (sizeof(words) / sizeof(words[0]))

static unsigned long long rng = 88172645463325252ULL;

/* Zipf-like: small indexes are more frequent. */
static const char *
word(void)
{
	unsigned a = bench_rnd(&rng, NWORDS), b = bench_rnd(&rng, NWORDS);

	return words[a < b ? a : b];
}

static void
generate(struct skill_set *set, size_t n)
{
	char	 name[256], desc[1024];
	size_t	 i, len;
	int	 k, nw;

	for (i = 0; i < n; i++) {
		struct skill *s = skill_new();

		snprintf(name, sizeof(name), "%s-%s-%zu", word(), word(), i);
		len = 0;
		nw = 12 + (int)bench_rnd(&rng, 20);
		for (k = 0; k < nw && len + 40 < sizeof(desc); k++)
			len += (size_t)snprintf(desc + len, sizeof(desc) - len,
			    "%s%s", k ? " " : "", word());
		s->name = xstrdup(name);
		s->uid = xstrdup(name);
		xasprintf(&s->path, "/bench/%s/SKILL.md", name);
		s->scope = xstrdup("user");
		s->description = xstrdup(desc);
		s->when_to_use = xstrdup("");
		if (bench_rnd(&rng, 4) == 0)
			strlist_add(&s->tags, word());
		skill_set_add(set, s);
	}
}

/* The query mix: paraphrase-like word bags, short keywords, names, typos. */
static char *
make_query(const struct skill_set *set, int i)
{
	char		 q[512];
	const struct skill *s = set->v[bench_rnd(&rng, (unsigned)set->n)];
	size_t		 len = 0;
	int		 k;

	switch (i % 4) {
	case 0:
		for (k = 0; k < 6; k++)
			len += (size_t)snprintf(q + len, sizeof(q) - len, "%s%s",
			    k ? " " : "", word());
		break;
	case 1:
		snprintf(q, sizeof(q), "%s %s", word(), word());
		break;
	case 2:
		snprintf(q, sizeof(q), "%s", s->name);
		break;
	default:
		snprintf(q, sizeof(q), "how do I %s the %sx %s for my team",
		    word(), word(), word());
		break;
	}
	return xstrdup(q);
}

/* A stats.db at path with npairs search-then-load sessions. */
static int
make_stats(const char *path, const struct skill_set *set, char **qs, int nq,
    int npairs)
{
	sqlite3		*h = NULL;
	sqlite3_stmt	*st = NULL;
	double		 t = 1.7e9;
	char		 sess[32];
	int		 i, rv = -1;

	unlink(path);
	if (sqlite3_open(path, &h) != SQLITE_OK ||
	    sqlite3_exec(h, telemetry_schema_sql, NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_exec(h, "BEGIN", NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(h, "INSERT INTO events (ts, kind, session, "
	    "query, skill, found) VALUES (?1, ?2, ?3, ?4, ?5, ?6)", -1, &st,
	    NULL) != SQLITE_OK)
		goto out;
	for (i = 0; i < npairs; i++) {
		snprintf(sess, sizeof(sess), "s%d", i);
		t += 60;
		sqlite3_bind_double(st, 1, t);
		sqlite3_bind_text(st, 2, "search", -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 3, sess, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 4, qs[bench_rnd(&rng, (unsigned)nq)], -1,
		    SQLITE_STATIC);
		sqlite3_bind_null(st, 5);
		sqlite3_bind_null(st, 6);
		sqlite3_step(st);
		sqlite3_reset(st);
		sqlite3_bind_double(st, 1, t + 5);
		sqlite3_bind_text(st, 2, "load", -1, SQLITE_STATIC);
		sqlite3_bind_null(st, 4);
		sqlite3_bind_text(st, 5, set->v[bench_rnd(&rng,
		    (unsigned)set->n)]->uid, -1, SQLITE_STATIC);
		sqlite3_bind_int(st, 6, 1);
		sqlite3_step(st);
		sqlite3_reset(st);
	}
	rv = sqlite3_exec(h, "COMMIT", NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
out:
	sqlite3_finalize(st);
	sqlite3_close(h);
	return rv;
}

/* The usage model as the engine gives it to the pipeline (engine.c). */
static void
apply_usage(void *arg, const struct search_index *idx,
    const struct search_opts *o, struct search_result *res)
{
	usage_apply(arg, idx, o, res, clock_wall());
}

/* The learned path: pipeline_search() with the usage model active. */
static void
bench_learned(const struct skill_set *set, const struct search_index *ix,
    char **qs, int nq, double *lat)
{
	struct config		*cfg = config_defaults();
	struct pipeline		*p;
	struct search_result	 r;
	struct search_opts	 o;
	struct pipeline_report	 rep;
	struct pipeline_boost	 boost;
	struct usage		*u;
	cJSON			*stages;
	char			*cause = NULL, path[] = "/tmp/sr-bench-usage.XXXXXX";
	const char		*env = getenv("BENCH_PAIRS");
	double			 t0, first;
	int			 i, fd, npairs = env != NULL ? atoi(env) : 5000;

	if ((fd = mkstemp(path)) == -1)
		return;
	close(fd);
	if (make_stats(path, set, qs, nq, npairs > 0 ? npairs : 5000) != 0) {
		fprintf(stderr, "bench_search: cannot write %s\n", path);
		goto out;
	}
	cfg->telemetry_enabled = 1;
	free(cfg->telemetry_path);
	cfg->telemetry_path = xstrdup(path);
	p = pipeline_new(cfg);
	u = usage_new(cfg);
	boost.pool = USAGE_POOL;
	boost.apply = apply_usage;
	boost.arg = u;
	memset(&o, 0, sizeof(o));
	o.top_k = 5;
	o.kind = -1;
	for (i = 0; i < nq; i++) {
		o.query = qs[i];
		t0 = bench_now_ms();
		if (pipeline_search(p, ix, &o, usage_refresh(u,
		    clock_wall(), 0) ? &boost : NULL, &r, &stages,
		    &rep, &cause) != SR_OK) {
			free(cause);
			cause = NULL;
		}
		lat[i] = bench_now_ms() - t0;
		cJSON_Delete(stages);
		search_result_done(&r);
	}
	first = lat[0];
	qsort(lat, (size_t)nq, sizeof(*lat), bench_cmp_double);
	printf("%8zu %8d %10.1f %9.3f %9.3f   (learned, usage boost)\n",
	    set->n, npairs > 0 ? npairs : 5000, first, lat[nq / 2],
	    lat[(nq * 99) / 100 < nq ? (nq * 99) / 100 : nq - 1]);
	pipeline_free(p);
	usage_free(u);
out:
	unlink(path);
	config_free(cfg);
}

static int
bench(size_t n, int nq, struct config *cfg)
{
	struct skill_set	 set;
	struct search_index	*ix;
	struct search_result	 r;
	struct search_opts	 o;
	char			*cause = NULL, **qs;
	double			*lat, t0, build;
	int			 i;

	skill_set_init(&set);
	generate(&set, n);
	t0 = bench_now_ms();
	if (search_index_build(&set, cfg, &ix, &cause) != SR_OK) {
		fprintf(stderr, "bench_search: %s\n", cause);
		free(cause);
		return -1;
	}
	build = bench_now_ms() - t0;
	qs = xcalloc((size_t)nq, sizeof(*qs));
	lat = xcalloc((size_t)nq, sizeof(*lat));
	for (i = 0; i < nq; i++)
		qs[i] = make_query(&set, i);
	memset(&o, 0, sizeof(o));
	o.top_k = 5;
	o.kind = -1;
	for (i = 0; i < nq; i++) {
		o.query = qs[i];
		t0 = bench_now_ms();
		if (search_run(ix, &o, &r, &cause) != SR_OK) {
			fprintf(stderr, "bench_search: %s: %s\n", qs[i], cause);
			free(cause);
			cause = NULL;
		}
		lat[i] = bench_now_ms() - t0;
		search_result_done(&r);
	}
	qsort(lat, (size_t)nq, sizeof(*lat), bench_cmp_double);
	printf("%8zu %10.1f %9.3f %9.3f %10ld %10ld\n", n, build,
	    lat[nq / 2], lat[(nq * 99) / 100 < nq ? (nq * 99) / 100 : nq - 1],
	    bench_proc_kb(0, "VmRSS"), bench_proc_kb(0, "VmHWM"));
	bench_learned(&set, ix, qs, nq, lat);
	fflush(stdout);
	for (i = 0; i < nq; i++)
		free(qs[i]);
	free(qs);
	free(lat);
	search_index_free(ix);
	skill_set_done(&set);
	return 0;
}

int
main(int argc, char **argv)
{
	static const size_t def[] = { 1000, 10000, 100000 };
	struct config	*cfg;
	int		 nq = 300, i, rv = 0;

	xmalloc_init();
	if (argc > 1 && (nq = atoi(argv[1])) < 1)
		nq = 300;
	cfg = config_defaults();
	printf("search: in-process, top_k 5, embedder %s dim %d, %d queries "
	    "per size\n", cfg->embedder ? cfg->embedder : "builtin",
	    cfg->embed_dim, nq);
	printf("%8s %10s %9s %9s %10s %10s\n", "skills", "build_ms", "p50_ms",
	    "p99_ms", "rss_kb", "hwm_kb");
	printf("%8s %8s %10s %9s %9s   (learning from use rows)\n", "skills",
	    "pairs", "first_ms", "p50_ms", "p99_ms");
	if (argc > 2) {
		for (i = 2; i < argc; i++)
			if (bench((size_t)strtoul(argv[i], NULL, 10), nq, cfg) != 0)
				rv = 1;
	} else
		for (i = 0; i < 3; i++)
			if (bench(def[i], nq, cfg) != 0)
				rv = 1;
	config_free(cfg);
	return rv;
}
