/*
 * bench_feed DB [rounds]: the dashboard's telemetry feed on a large
 * stats.db (tests/tui/bench.sh builds one). Times the full snapshot the
 * feed takes at the start (best of 3), then rounds times: append 10
 * events in one transaction from another connection and time the
 * feed_poll() that folds them in (stats_since_id); and a poll with
 * nothing written (PRAGMA data_version only); last, checks the folded
 * aggregates against a fresh full snapshot. Appends to DB. Prints
 * "name value" lines for bench.sh; exit 0, or 1 with a message.
 */
#include "autoconfig.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tui/feed.h"
#include "../bench/bench.h"
#include "base/xmalloc.h"

/* Ten events: seven searches (old and new queries), three loads. */
static int
append10(sqlite3 *h, int round)
{
	char	 sql[2048];
	size_t	 n;
	int	 i;

	n = (size_t)snprintf(sql, sizeof sql, "BEGIN; INSERT INTO events(ts, "
	    "kind, session, client, query, skill, top1_score, n_results, "
	    "latency_ms, trust, found) VALUES ");
	for (i = 0; i < 10 && n < sizeof sql; i++) {
		if (i % 3 == 2)
			n += (size_t)snprintf(sql + n, sizeof sql - n, "%s"
			    "(strftime('%%s','now'), 'load', 'live', 'bench', "
			    "NULL, 'skill-%d', NULL, 5, 1.5, 'USER', 1)",
			    i ? "," : "", (round * 7 + i) % 300);
		else
			n += (size_t)snprintf(sql + n, sizeof sql - n, "%s"
			    "(strftime('%%s','now'), 'search', 'live', 'bench', "
			    "'%s %d', NULL, 0.%d, 5, 2.5, NULL, NULL)",
			    i ? "," : "", i % 2 ? "query" : "live query",
			    i % 2 ? (round * 13 + i) % 5000 : round, i);
	}
	if (n + 8 >= sizeof sql)
		return -1;
	strcat(sql, "; COMMIT");
	return sqlite3_exec(h, sql, NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
}

/* Do the folded aggregates a agree with the full snapshot b? */
static int
same(const struct stats_snap *a, const struct stats_snap *b)
{
	size_t	 i;

	if (a->total != b->total || a->misses != b->misses ||
	    a->loads_found != b->loads_found || a->last_ts != b->last_ts ||
	    a->n_top_queries != b->n_top_queries ||
	    a->n_top_loads != b->n_top_loads || a->n_recent != b->n_recent)
		return 0;
	for (i = 0; i < a->n_top_queries; i++) {
		if (strcmp(a->top_queries[i].key, b->top_queries[i].key) != 0 ||
		    a->top_queries[i].n != b->top_queries[i].n ||
		    a->top_queries[i].value != b->top_queries[i].value)
			return 0;
	}
	for (i = 0; i < a->n_top_loads; i++) {
		if (strcmp(a->top_loads[i].key, b->top_loads[i].key) != 0 ||
		    a->top_loads[i].n != b->top_loads[i].n)
			return 0;
	}
	for (i = 0; i < a->n_recent; i++) {
		if (a->recent[i].id != b->recent[i].id)
			return 0;
	}
	return 1;
}

int
main(int argc, char **argv)
{
	struct tui_opts		 o;
	struct feed		*f = NULL;
	struct feed_result	 r, full_r;
	struct feed		*fresh;
	sqlite3			*h = NULL;
	double			 full = 1e9, t0, *inc, idle;
	int			 rounds = argc > 2 ? atoi(argv[2]) : 20, i;
	int			 n_full = 0, rv = 1;

	xmalloc_init();
	if (argc < 2 || rounds < 1) {
		fprintf(stderr, "usage: bench_feed DB [rounds]\n");
		return 2;
	}
	inc = calloc((size_t)rounds, sizeof *inc);
	memset(&o, 0, sizeof o);
	o.stats_path = argv[1];
	for (i = 0; i < 3; i++) {
		feed_free(f);
		f = feed_new(&o, 0.4, 300);
		if (feed_poll(f, RANGE_ALL, 1, &r) != 1 || !r.have_snap) {
			fprintf(stderr, "bench_feed: %s: %s\n", argv[1],
			    r.msg != NULL ? r.msg : "no snapshot");
			goto out;
		}
		if (r.snap_ms < full)
			full = r.snap_ms;
		if (i == 0)
			printf("events %lld\n", r.snap.total);
		feed_result_done(&r);
	}
	if (sqlite3_open(argv[1], &h) != SQLITE_OK) {
		fprintf(stderr, "bench_feed: %s: %s\n", argv[1],
		    sqlite3_errmsg(h));
		goto out;
	}
	sqlite3_busy_timeout(h, 5000);
	for (i = 0; i < rounds; i++) {
		if (append10(h, i) != 0) {
			fprintf(stderr, "bench_feed: append: %s\n",
			    sqlite3_errmsg(h));
			goto out;
		}
		t0 = bench_now_ms();
		if (feed_poll(f, RANGE_ALL, 0, &r) != 1 || !r.have_snap) {
			fprintf(stderr, "bench_feed: the append was not seen\n");
			feed_result_done(&r);
			goto out;
		}
		inc[i] = bench_now_ms() - t0;
		if (!r.incremental)
			n_full++;
		feed_result_done(&r);
	}
	if (append10(h, rounds) != 0 || feed_poll(f, RANGE_ALL, 0, &r) != 1) {
		fprintf(stderr, "bench_feed: the last append was not seen\n");
		goto out;
	}
	fresh = feed_new(&o, 0.4, 300);
	if (feed_poll(fresh, RANGE_ALL, 1, &full_r) == 1 && full_r.have_snap)
		printf("matches_full %s\n", same(&r.snap, &full_r.snap) ?
		    "yes" : "NO");
	feed_result_done(&full_r);
	feed_result_done(&r);
	feed_free(fresh);
	t0 = bench_now_ms();
	for (i = 0; i < 100; i++) {
		if (feed_poll(f, RANGE_ALL, 0, &r) != 0) {
			fprintf(stderr, "bench_feed: a result with no write\n");
			feed_result_done(&r);
			goto out;
		}
	}
	idle = (bench_now_ms() - t0) / 100;
	qsort(inc, (size_t)rounds, sizeof *inc, bench_cmp_double);
	printf("full_ms %.1f\n", full);
	printf("refresh10_p50_ms %.2f\n", inc[rounds / 2]);
	printf("refresh10_max_ms %.2f\n", inc[rounds - 1]);
	printf("refresh10_full %d\n", n_full);
	printf("idle_poll_ms %.3f\n", idle);
	rv = 0;
out:
	sqlite3_close(h);
	feed_free(f);
	free(inc);
	return rv;
}
