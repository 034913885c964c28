/*
 * Benchmark: the telemetry event path per backend (issue 11). For each of
 * off (no handle), sqlite, postgres and postgres-unreachable it times
 * (1) the record call a search pays, telemetry_search(), over CALLS calls
 * (flushing every 500 outside the timing: a search rate, not a flood),
 * and (2) the write throughput: BURST events recorded at once, timed
 * until the writer thread has stored them all (events/s; batches of up
 * to 512 rows, one transaction each). Prints one table.
 * Usage: bench_telemetry_pg DSN SQLITE_PATH [calls] [burst]
 * (tests/bench/bench_telemetry_pg.sh starts a throwaway cluster.)
 */
#include "autoconfig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/config.h"
#include "telemetry/telemetry.h"
#include "base/xmalloc.h"
#include "bench.h"

static const char *const top[] = { "pdf", "docx", "xlsx", "pptx", "git" };

struct row {
	const char	*name;
	double		 p50, p99, max;	/* record call, microseconds */
	double		 rate;		/* events/s written, 0: n/a */
	long long	 stored, dropped;
};

static struct telemetry *
open_backend(const char *backend, const char *where, int buffer)
{
	struct config		*cfg = config_defaults();
	struct telemetry	*t = NULL;
	char			*cause = NULL;

	if (strcmp(backend, "off") != 0) {
		cfg->telemetry_enabled = 1;
		cfg->telemetry_buffer = buffer;
		if (strcmp(backend, "sqlite") == 0) {
			free(cfg->telemetry_path);
			cfg->telemetry_path = xstrdup(where);
		} else {
			cfg->telemetry_backend = TELEMETRY_BACKEND_POSTGRES;
			free(cfg->telemetry_dsn);
			cfg->telemetry_dsn = xstrdup(where);
		}
		if (telemetry_open(cfg, "bench", &t, &cause) != 0) {
			fprintf(stderr, "%s: %s\n", backend, cause);
			exit(1);
		}
	}
	config_free(cfg);
	return t;
}

static void
measure(struct row *r, const char *backend, const char *where, long calls,
    long burst)
{
	struct telemetry_state	 st;
	struct telemetry	*t;
	double			*lat, t0, t1;
	char			 q[64];
	long			 i;

	lat = xreallocarray(NULL, (size_t)calls, sizeof *lat);
	t = open_backend(backend, where, (int)(burst > 4096 ? burst : 4096));
	for (i = 0; i < calls; i++) {
		snprintf(q, sizeof q, "Bench Query %ld", i % 300);
		t0 = bench_now_ms();
		bench_record_search(t, q, top);
		lat[i] = (bench_now_ms() - t0) * 1e3;
		if (i % 500 == 499 && strcmp(r->name, "postgres, server away") != 0)
			telemetry_flush(t);
	}
	telemetry_flush(t);
	qsort(lat, (size_t)calls, sizeof *lat, bench_cmp_double);
	r->p50 = lat[calls / 2];
	r->p99 = lat[calls * 99 / 100];
	r->max = lat[calls - 1];
	r->rate = 0;
	if (t != NULL && strcmp(r->name, "postgres, server away") != 0) {
		t0 = bench_now_ms();
		for (i = 0; i < burst; i++) {
			snprintf(q, sizeof q, "burst %ld", i % 300);
			bench_record_search(t, q, top);
		}
		telemetry_flush(t);
		t1 = bench_now_ms();
		r->rate = (double)burst / ((t1 - t0) / 1e3);
	}
	telemetry_state(t, &st);
	r->stored = (long long)st.written;
	r->dropped = st.dropped;
	telemetry_close(t);
	free(lat);
}

int
main(int argc, char **argv)
{
	struct row	 rows[4];
	const char	*names[] = { "off", "sqlite", "postgres",
	    "postgres, server away" };
	const char	*backend[] = { "off", "sqlite", "postgres", "postgres" };
	const char	*where[4];
	long		 calls, burst;
	int		 i;

	xmalloc_init();
	if (argc < 3) {
		fprintf(stderr, "usage: bench_telemetry_pg DSN SQLITE_PATH "
		    "[calls] [burst]\n");
		return 2;
	}
	calls = argc > 3 ? atol(argv[3]) : 20000;
	burst = argc > 4 ? atol(argv[4]) : 50000;
	if (calls < 100 || burst < 100) {
		fprintf(stderr, "calls and burst must be at least 100\n");
		return 2;
	}
	where[0] = "";
	where[1] = argv[2];
	where[2] = argv[1];
	where[3] = "postgresql:///sr?host=/nonexistent-socket-dir";
	for (i = 0; i < 4; i++) {
		rows[i].name = names[i];
		measure(&rows[i], backend[i], where[i], calls, burst);
	}
	printf("%-24s %10s %10s %10s %14s %9s %9s\n", "telemetry backend",
	    "p50 us", "p99 us", "max us", "write ev/s", "stored", "dropped");
	for (i = 0; i < 4; i++)
		printf("%-24s %10.2f %10.2f %10.1f %14.0f %9lld %9lld\n",
		    rows[i].name, rows[i].p50, rows[i].p99, rows[i].max,
		    rows[i].rate, rows[i].stored, rows[i].dropped);
	printf("record call = telemetry_search() as a search pays it (%ld "
	    "calls); write = %ld events recorded at once until stored, "
	    "batches of up to 512 rows per transaction. Target: the "
	    "postgres rows add nothing over sqlite/off on the search path.\n",
	    calls, burst);
	return 0;
}
