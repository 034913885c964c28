/*
 * Benchmark: the cost of one hot-reload update in process, without the
 * watcher's debounce. For each size (default 1000 and 10000 generated
 * skills under a temporary root) it indexes the tree, opens the engine,
 * then edits one SKILL.md at a time (EDITS times, default 100) and times
 * engine_update_paths() on its path: walk, parse, row-level index.db
 * write, incremental search index and snapshot swap. It also times the
 * parts separately on the same engine: engine_apply() (no file system,
 * the PostgreSQL replica's path), a full engine_reload() after a change
 * (what every update cost before), and a fresh search index build (what
 * a compaction costs). Prints p50/p95/max per row, wall time and (the
 * machine may be shared) the thread's CPU time. Target: <= 5 ms at
 * 10,000 skills for engine_update_paths().
 * Edits are GAP ms apart (default 300, a debounce and then some: the
 * background compaction of the search index runs in between, as it does
 * under a watcher).
 * Usage: bench_update [edits] [size ...]   (environment: GAP)
 */
#include "autoconfig.h"

#include <sys/stat.h>

#include <time.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/clock.h"
#include "core/config.h"
#include "engine/engine.h"
#include "search/search.h"
#include "core/skill.h"
#include "base/strlist.h"
#include "base/xmalloc.h"
#include "bench.h"

static void
row(const char *what, size_t size, double *v, int n)
{
	if (n == 0)
		return;
	qsort(v, (size_t)n, sizeof(*v), bench_cmp_double);
	printf("  %6zu  %-34s %8.2f %8.2f %8.2f %6d\n", size, what,
	    v[n / 2], v[(int)(n * 0.95) < n ? (int)(n * 0.95) : n - 1],
	    v[n - 1], n);
}

static void
write_skill(const char *root, int i, int gen)
{
	char	 path[4096];
	FILE	*fp;

	snprintf(path, sizeof path, "%s/s%d", root, i);
	mkdir(path, 0755);
	snprintf(path, sizeof path, "%s/s%d/SKILL.md", root, i);
	if ((fp = fopen(path, "w")) == NULL)
		return;
	fprintf(fp, "---\nname: gen-%d\ndescription: Generated skill %d about "
	    "topic%d and area%d, edit %d.\n---\nBody.\n", i, i, i % 97, i % 13,
	    gen);
	fclose(fp);
}

static int	 gap = 300;

static int
bench(size_t n, int edits)
{
	struct config	*cfg;
	struct engine	*e;
	struct strlist	 paths;
	struct skill	*up;
	char		 dir[] = "/tmp/bench_update.XXXXXX", *root, *cause = NULL;
	char		 path[4096], cmd[4200];
	double		*t, *c, t0, c0;
	int		 k, changed, rv = 0;

	if (mkdtemp(dir) == NULL)
		return 1;
	xasprintf(&root, "%s/root", dir);
	mkdir(root, 0755);
	for (k = 0; k < (int)n; k++)
		write_skill(root, k, 0);
	setenv("SKILL_PATHS", root, 1);
	cfg = config_defaults();
	strlist_done(&cfg->paths);
	strlist_init(&cfg->paths);
	strlist_add(&cfg->paths, root);
	cfg->project_roots = 0;
	free(cfg->index_path);
	xasprintf(&cfg->index_path, "%s/index.db", dir);
	if (engine_open(cfg, ENGINE_REINDEX | ENGINE_QUIET, &e, &cause) != 0) {
		fprintf(stderr, "bench_update: %s\n", cause);
		return 1;
	}
	t = xcalloc((size_t)edits + 1, sizeof(*t));
	c = xcalloc((size_t)edits + 1, sizeof(*c));

	/* The watcher's path: one file edited, its path handed over. */
	for (k = 0; k < edits; k++) {
		usleep((useconds_t)gap * 1000);
		write_skill(root, k % (int)n, k + 1);
		strlist_init(&paths);
		snprintf(path, sizeof path, "%s/s%d/SKILL.md", root,
		    k % (int)n);
		strlist_add(&paths, path);
		t0 = clock_ms();
		c0 = bench_cpu_ms();
		if (engine_update_paths(e, &paths, "bench", &changed,
		    &cause) != 0 || !changed) {
			fprintf(stderr, "bench_update: edit %d: %s\n", k,
			    cause ? cause : "no change");
			free(cause);
			cause = NULL;
			rv = 1;
		}
		t[k] = clock_ms() - t0;
		c[k] = bench_cpu_ms() - c0;
		strlist_done(&paths);
	}
	row("engine_update_paths (1 edit)", n, t, edits);
	row("  the same, CPU time", n, c, edits);

	/* The same through engine_apply(): no walk, no parse, no index.db. */
	for (k = 0; k < edits; k++) {
		usleep((useconds_t)gap * 1000);
		up = skill_new();
		snprintf(path, sizeof path, "%s/s%d/SKILL.md", root,
		    k % (int)n);
		up->path = xstrdup(path);
		up->realpath = xstrdup(path);
		xasprintf(&up->name, "gen-%d", k % (int)n);
		up->uid = xstrdup(up->name);
		up->root = xstrdup(root);
		up->scope = xstrdup("other");
		xasprintf(&up->description, "Applied edit %d of skill %d.", k,
		    k % (int)n);
		up->when_to_use = xstrdup("");
		t0 = clock_ms();
		c0 = bench_cpu_ms();
		if (engine_apply(e, &up, 1, NULL, 0, "bench", &changed,
		    &cause) != 0) {
			free(cause);
			cause = NULL;
			rv = 1;
		}
		t[k] = clock_ms() - t0;
		c[k] = bench_cpu_ms() - c0;
	}
	row("engine_apply (1 entry)", n, t, edits);
	row("  the same, CPU time", n, c, edits);

	/* Before: every update was a full incremental rescan. */
	for (k = 0; k < 5; k++) {
		write_skill(root, k, 1000 + k);
		t0 = clock_ms();
		if (engine_reload(e, "bench", &changed, &cause) != 0) {
			free(cause);
			cause = NULL;
			rv = 1;
		}
		t[k] = clock_ms() - t0;
	}
	row("engine_reload (full rescan, 1 edit)", n, t, 5);

	/* A compaction: the search index built afresh. */
	for (k = 0; k < 5; k++) {
		struct search_index	*x;

		t0 = clock_ms();
		if (search_index_build(engine_skills(e), cfg, &x, &cause) != 0) {
			free(cause);
			cause = NULL;
			rv = 1;
		} else
			search_index_free(x);
		t[k] = clock_ms() - t0;
	}
	row("search_index_build (compaction)", n, t, 5);
	free(t);
	free(c);
	engine_free(e);
	config_free(cfg);
	free(root);
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "bench_update: could not remove %s\n", dir);
	unsetenv("SKILL_PATHS");
	return rv;
}

int
main(int argc, char **argv)
{
	int	 edits = argc > 1 ? atoi(argv[1]) : 100, i, rv = 0;

	xmalloc_init();
	if (edits < 1)
		edits = 100;
	if (getenv("GAP") != NULL)
		gap = atoi(getenv("GAP"));
	printf("hot reload: cost of one update in process (ms), %d edits %d ms "
	    "apart\n", edits, gap);
	printf("  %6s  %-34s %8s %8s %8s %6s\n", "skills", "operation", "p50",
	    "p95", "max", "n");
	if (argc > 2)
		for (i = 2; i < argc; i++)
			rv |= bench((size_t)strtoul(argv[i], NULL, 10), edits);
	else {
		rv |= bench(1000, edits);
		rv |= bench(10000, edits);
	}
	return rv;
}
