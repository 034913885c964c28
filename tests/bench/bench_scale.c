/*
 * Benchmark: in-process search over the configured index (as serve runs
 * it). Opens the engine on the current configuration (SKILL_PATHS, HOME:
 * the bench driver's temporary home, already indexed), waits until it is
 * ready, then runs every query of QUERIES (one a line) ROUNDS times through
 * engine_search() and prints one line:
 *	open_ms  first_ms  p50_ms  p99_ms  rss_kb  hwm_kb
 * open is engine_open() (store read, search index loaded or built), first
 * the first query, rss/hwm the process's VmRSS/VmHWM after the searches.
 * Usage: bench_scale QUERIES [ROUNDS]   (default 3)
 */
#include "autoconfig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/strlist.h"
#include "base/xmalloc.h"
#include "core/config.h"
#include "engine/engine.h"
#include "search/search.h"
#include "bench.h"

int
main(int argc, char **argv)
{
	struct config		*cfg = NULL;
	struct engine		*e = NULL;
	struct strlist		 warn, qs;
	struct search_opts	 o;
	char			*cause = NULL, line[8192];
	double			 t0, open_ms, first_ms = 0, *lat;
	size_t			 i, n = 0;
	int			 rounds, r;
	FILE			*fp;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: bench_scale QUERIES [ROUNDS]\n");
		return 2;
	}
	rounds = argc == 3 ? atoi(argv[2]) : 3;
	if (rounds < 1)
		rounds = 1;
	strlist_init(&qs);
	if ((fp = fopen(argv[1], "r")) == NULL) {
		fprintf(stderr, "bench_scale: %s: cannot open\n", argv[1]);
		return 1;
	}
	while (fgets(line, sizeof line, fp) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0] != '\0')
			strlist_add(&qs, line);
	}
	fclose(fp);
	if (qs.n == 0) {
		fprintf(stderr, "bench_scale: %s: no queries\n", argv[1]);
		return 1;
	}
	strlist_init(&warn);
	if (config_load(NULL, &cfg, &warn, &cause) != 0) {
		fprintf(stderr, "bench_scale: %s\n", cause);
		return 1;
	}
	t0 = bench_now_ms();
	if (engine_open(cfg, ENGINE_QUIET, &e, &cause) != 0) {
		fprintf(stderr, "bench_scale: %s\n", cause);
		return 1;
	}
	engine_wait_ready(e);
	open_ms = bench_now_ms() - t0;
	lat = xreallocarray(NULL, qs.n * (size_t)rounds, sizeof(*lat));
	for (r = 0; r < rounds; r++)
		for (i = 0; i < qs.n; i++) {
			cJSON	*out = NULL;

			memset(&o, 0, sizeof o);
			o.query = qs.v[i];
			o.top_k = 10;
			o.kind = -1;
			t0 = bench_now_ms();
			if (engine_search(e, &o, &out, NULL, &cause) != 0) {
				fprintf(stderr, "bench_scale: %s\n", cause);
				free(cause);
				cause = NULL;
			}
			lat[n] = bench_now_ms() - t0;
			if (n == 0)
				first_ms = lat[0];
			n++;
			cJSON_Delete(out);
		}
	qsort(lat, n, sizeof(*lat), bench_cmp_double);
	printf("%.1f %.2f %.3f %.3f %ld %ld\n", open_ms, first_ms, lat[n / 2],
	    lat[n * 99 / 100], bench_proc_kb(getpid(), "VmRSS"),
	    bench_proc_kb(getpid(), "VmHWM"));
	free(lat);
	engine_free(e);
	config_free(cfg);
	strlist_done(&warn);
	strlist_done(&qs);
	return 0;
}
