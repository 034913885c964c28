/*
 * The dashboard's building blocks: the character grid (display widths,
 * cutting, printing), the colour tables, the cell formatters, and the
 * telemetry feed against a stats.db written here.
 */
#include "autoconfig.h"

#include <dirent.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/clock.h"
#include "telemetry/stats.h"
#include "tap.h"
#include "telemetry/telemetry.h"
#include "tui/colors.h"
#include "tui/feed.h"
#include "tui/fmt.h"
#include "tui/grid.h"
#include "base/xmalloc.h"

/* Row y of g as UTF-8, trailing blanks dropped; static buffer. */
static const char *
row(const struct grid *g, int y)
{
	static char	 out[1024];
	char		 u[8];
	size_t		 n = 0;
	int		 x;

	out[0] = '\0';
	for (x = 0; x < g->w; x++) {
		const struct cell *c = &g->c[y * g->w + x];

		if (c->width == 0)
			continue;
		grid_utf8(c->cp, u);
		if (n + strlen(u) + 1 < sizeof out) {
			memcpy(out + n, u, strlen(u) + 1);
			n += strlen(u);
		}
	}
	while (n > 0 && out[n - 1] == ' ')
		out[--n] = '\0';
	return out;
}

static void
test_grid(void)
{
	struct grid	 g;
	char		 buf[256];
	FILE		*fp;
	size_t		 len;
	int		 n;

	is_int(text_width("abc"), 3, "ASCII width");
	is_int(text_width("数据库"), 6, "CJK characters are two columns wide");
	is_int(text_width("e\xcc\x81"), 1, "a combining mark takes no column");
	is_int(text_width("a\xff" "b"), 3, "an invalid byte counts one column");

	grid_init(&g);
	grid_resize(&g, 3, 10);
	n = grid_put(&g, 0, 0, "数据库迁移工具", 7, 0, 0);
	is_int(n, 6, "a wide character that does not fit is not cut");
	is_str(row(&g, 0), "数据库", "three CJK characters in 7 columns");
	n = grid_put(&g, 1, 0, "abcdefghijkl", 6, 0, 1);
	is_int(n, 6, "cut text fills its width");
	is_str(row(&g, 1), "abcde\xe2\x80\xa6", "cut text ends with an ellipsis");
	n = grid_put(&g, 2, 0, "abc", 6, 0, 1);
	is_str(row(&g, 2), "abc", "text that fits gets no ellipsis");
	grid_put(&g, 2, 0, "a\tb\x01" "c", -1, 0, 0);
	is_str(row(&g, 2), "a b\xef\xbf\xbd" "c",
	    "tabs become spaces, control characters U+FFFD");
	grid_put(&g, 0, 9, "数", -1, 0, 0);
	is_str(row(&g, 0), "数据库", "a wide character at the last column is dropped");
	grid_put(&g, 0, 1, "x", -1, 0, 0);
	is_str(row(&g, 0), " x据库", "overwriting half a wide character blanks it");
	is_int(grid_put(&g, 5, 0, "x", -1, 0, 0), 0, "outside the grid: nothing");
	is_int(grid_put(&g, 0, 20, "x", -1, 0, 0), 0, "right of the grid: nothing");

	grid_clear(&g);
	grid_put(&g, 0, 0, "hi", -1, C_EVENT_GOOD, 0);
	fp = tmpfile();
	ok(fp != NULL, "tmpfile");
	if (fp != NULL) {
		grid_print(&g, fp, NULL);
		rewind(fp);
		len = fread(buf, 1, sizeof buf - 1, fp);
		buf[len] = '\0';
		is_str(buf, "hi\n\n\n", "plain print drops trailing blanks");
		fclose(fp);
	}
	colors_set_scheme(SCHEME_COLOR);
	fp = tmpfile();
	if (fp != NULL) {
		grid_print(&g, fp, colors_sgr);
		rewind(fp);
		len = fread(buf, 1, sizeof buf - 1, fp);
		buf[len] = '\0';
		is_str(buf, "\033[0;32mhi\033[0m\n\n\n",
		    "colour print: green text, reset at the end of the line");
		fclose(fp);
	}
	grid_done(&g);
}

static void
test_colors(void)
{
	int	 i, colour = 0;

	is_int(colors_score(0.6, 0.4), C_EVENT_GOOD, "0.6 is green");
	is_int(colors_score(0.59, 0.4), C_EVENT_FAIR, "0.59 is yellow");
	is_int(colors_score(0.4, 0.4), C_EVENT_FAIR, "0.4 is yellow");
	is_int(colors_score(0.39, 0.4), C_EVENT_BAD, "0.39 is red: a miss");
	is_int(colors_badge(0), C_MISS_OK, "badge 0");
	is_int(colors_badge(1), C_MISS_WARN, "badge 1");
	is_int(colors_badge(2), C_MISS_BAD, "badge 2");
	colors_set_scheme(SCHEME_COLOR);
	is_str(colors_sgr(C_EVENT_BAD), "31", "a miss is red");
	is_str(colors_sgr(C_MISS_WARN), "1;30;43", "the yellow badge");
	is_str(colors_sgr(C_NORMAL), "", "normal text has no attributes");
	colors_set_scheme(SCHEME_MONO);
	for (i = 0; i < C_NCOLORS; i++) {
		char	 tmp[32], *p, *tok;

		snprintf(tmp, sizeof tmp, "%s", colors_sgr(i));
		for (p = tmp; (tok = strsep(&p, ";")) != NULL;) {
			if (strlen(tok) == 2 && (tok[0] == '3' || tok[0] == '4'))
				colour++;
		}
	}
	is_int(colour, 0, "the monochrome scheme uses no colour");
	is_str(colors_sgr(C_MISS_BAD), "1;7", "mono: a red badge is bold reverse");
	colors_set_scheme(SCHEME_COLOR);
}

/* fmt.c links without tui.c since the cut (issue 35): its cells. */
static void
test_fmt(void)
{
	char	 tmp[16];
	double	 now = 1700000000;

	tui_fmt_ms(0.42, tmp, sizeof tmp);
	is_str(tmp, "0.4ms", "under 10 ms: one decimal");
	tui_fmt_ms(12.4, tmp, sizeof tmp);
	is_str(tmp, "12ms", "under 1 s: whole milliseconds");
	tui_fmt_ms(1234, tmp, sizeof tmp);
	is_str(tmp, "1.23s", "1 s and over: seconds");
	tui_fmt_ms(NAN, tmp, sizeof tmp);
	is_str(tmp, "-", "no latency: a dash");
	tui_fmt_score(0.789, tmp, sizeof tmp);
	is_str(tmp, "0.79", "a score in 4 columns");
	tui_fmt_score(-1, tmp, sizeof tmp);
	is_str(tmp, "  - ", "no score: a dash in 4 columns");
	tui_fmt_score(12, tmp, sizeof tmp);
	is_str(tmp, ">9.9", "a score over 9.99 still fits");
	tui_fmt_time(0, now, tmp, sizeof tmp);
	is_str(tmp, "--:--:--", "no time");
	tui_fmt_time(now, now, tmp, sizeof tmp);
	ok(strlen(tmp) == 8 && tmp[2] == ':' && tmp[5] == ':',
	    "the same day: HH:MM:SS (%s)", tmp);
	tui_fmt_time(now - 3 * 86400, now, tmp, sizeof tmp);
	ok(strlen(tmp) == 11 && tmp[2] == '-' && tmp[8] == ':',
	    "another day: MM-DD HH:MM (%s)", tmp);
}

static const char fixture[] =
	"INSERT INTO events(ts, kind, query, top1_score) VALUES "
	"(1000, 'search', 'pdf', 0.9), (1001, 'search', 'zzz', 0.1);"
	"INSERT INTO events(ts, kind, skill, found) VALUES "
	"(1002, 'load', 'pdf-tools', 1);";

static void
test_feed(void)
{
	struct tui_opts		 o;
	struct feed		*f;
	struct feed_result	 r;
	sqlite3			*db;
	char			 dir[] = "/tmp/test_tui.XXXXXX", path[64];

	if (mkdtemp(dir) == NULL) {
		ok(0, "mkdtemp");
		return;
	}
	snprintf(path, sizeof path, "%s/stats.db", dir);
	memset(&o, 0, sizeof o);
	o.stats_path = path;

	f = feed_new(&o, 0.4, 300);
	is_int(feed_poll(f, RANGE_ALL, 0, &r), 1, "no stats.db: reported");
	is_int(r.state, TS_MISSING, "no stats.db: TS_MISSING");
	ok(!r.have_snap, "no stats.db: no snapshot");
	feed_result_done(&r);
	is_int(feed_poll(f, RANGE_ALL, 0, &r), 0, "still missing: reported once");
	feed_result_done(&r);
	ok(access(path, F_OK) != 0, "the feed never creates stats.db");

	ok(sqlite3_open(path, &db) == SQLITE_OK &&
	    sqlite3_exec(db, telemetry_schema_sql, NULL, NULL, NULL) ==
	    SQLITE_OK &&
	    sqlite3_exec(db, fixture, NULL, NULL, NULL) == SQLITE_OK,
	    "another process writes stats.db");
	is_int(feed_poll(f, RANGE_ALL, 0, &r), 1, "stats.db appears: a snapshot");
	is_int(r.state, TS_OK, "TS_OK");
	if (r.msg != NULL)
		diag("%s", r.msg);
	is_int(r.snap.by_kind[STATS_SEARCH], 2, "two searches");
	is_int(r.snap.misses, 1, "one miss");
	is_int(r.snap.n_recent, 3, "three recent events");
	feed_result_done(&r);
	is_int(feed_poll(f, RANGE_ALL, 0, &r), 0, "no write: no new snapshot");
	feed_result_done(&r);
	is_int(feed_poll(f, RANGE_ALL, 1, &r), 1, "force: a new snapshot");
	feed_result_done(&r);
	sqlite3_exec(db, "INSERT INTO events(ts, kind, query, top1_score) "
	    "VALUES (1003, 'search', 'new', 0.5)", NULL, NULL, NULL);
	is_int(feed_poll(f, RANGE_ALL, 0, &r), 1, "a write: a new snapshot");
	is_int(r.snap.by_kind[STATS_SEARCH], 3, "the new search is counted");
	if (r.snap.n_recent > 0)
		is_str(r.snap.recent[0].query, "new", "newest first");
	feed_result_done(&r);
	is_int(feed_poll(f, RANGE_1H, 0, &r), 1, "a new range: a new snapshot");
	is_int(r.snap.total, 0, "1h: the old events are out of range");
	is_int(r.range, RANGE_1H, "the result says its range");
	feed_result_done(&r);
	feed_free(f);
	sqlite3_close(db);

	/* Not a telemetry database: an error, never a crash. */
	f = feed_new(&o, 0.4, 300);
	unlink(path);
	ok(sqlite3_open(path, &db) == SQLITE_OK &&
	    sqlite3_exec(db, "CREATE TABLE x(y)", NULL, NULL, NULL) ==
	    SQLITE_OK, "a database without events");
	sqlite3_close(db);
	is_int(feed_poll(f, RANGE_ALL, 0, &r), 1, "bad stats.db: reported");
	is_int(r.state, TS_ERROR, "TS_ERROR");
	ok(r.msg != NULL && strstr(r.msg, "not a telemetry database") != NULL,
	    "the message says why");
	feed_result_done(&r);
	feed_free(f);
	unlink(path);
	rmdir(dir);
}

/* "" when the lists agree, else what differs; static buffer. */
static const char *
counts_diff(const char *what, const struct stats_count *a, size_t na,
    const struct stats_count *b, size_t nb)
{
	static char	 why[256];
	size_t		 i;

	if (na != nb) {
		snprintf(why, sizeof why, "%s: %zu rows, not %zu", what, na,
		    nb);
		return why;
	}
	for (i = 0; i < na; i++) {
		if (strcmp(a[i].key, b[i].key) != 0 || a[i].n != b[i].n ||
		    a[i].value != b[i].value) {
			snprintf(why, sizeof why, "%s[%zu]: %s %lld %g, not "
			    "%s %lld %g", what, i, a[i].key, a[i].n,
			    a[i].value, b[i].key, b[i].n, b[i].value);
			return why;
		}
	}
	return "";
}

static int
str_same(const char *a, const char *b)
{
	return (a == NULL && b == NULL) ||
	    (a != NULL && b != NULL && strcmp(a, b) == 0);
}

/*
 * "" when the aggregates stats_since_id() keeps exact agree between an
 * incremental snapshot a and a full one b.
 */
static const char *
snap_diff(const struct stats_snap *a, const struct stats_snap *b)
{
	static char	 why[256];
	const char	*d;
	size_t		 i;
	int		 k;

	for (k = 0; k < STATS_NKINDS; k++) {
		if (a->by_kind[k] != b->by_kind[k] ||
		    a->n_latency[k] != b->n_latency[k]) {
			snprintf(why, sizeof why, "%s: %lld/%lld, not %lld/%lld",
			    stats_kind_name(k), a->by_kind[k], a->n_latency[k],
			    b->by_kind[k], b->n_latency[k]);
			return why;
		}
	}
	if (a->total != b->total || a->misses != b->misses ||
	    a->searches != b->searches || a->loads_found != b->loads_found ||
	    a->miss_rate != b->miss_rate || a->badge != b->badge ||
	    a->advice != b->advice || a->first_ts != b->first_ts ||
	    a->last_ts != b->last_ts || a->last_id != b->last_id ||
	    a->min_id != b->min_id || a->write_failures != b->write_failures)
		return "totals, misses, rates, ts or id range";
	if (*(d = counts_diff("top_queries", a->top_queries, a->n_top_queries,
	    b->top_queries, b->n_top_queries)) != '\0' ||
	    *(d = counts_diff("missed", a->missed, a->n_missed, b->missed,
	    b->n_missed)) != '\0' ||
	    *(d = counts_diff("top_loads", a->top_loads, a->n_top_loads,
	    b->top_loads, b->n_top_loads)) != '\0' ||
	    *(d = counts_diff("never_loaded", a->never_loaded,
	    a->n_never_loaded, b->never_loaded, b->n_never_loaded)) != '\0')
		return d;
	if (a->n_near != a->n_missed || b->n_near != b->n_missed)
		return "near: not one per missed query";
	for (i = 0; i < a->n_near; i++) {
		const struct stats_near *x = &a->near[i], *y = &b->near[i];
		size_t j;

		if (x->n != y->n || x->stored != y->stored) {
			snprintf(why, sizeof why, "near[%zu] (%s): %zu, not %zu",
			    i, a->missed[i].key, x->n, y->n);
			return why;
		}
		for (j = 0; j < x->n; j++)
			if (strcmp(x->skill[j], y->skill[j]) != 0 ||
			    x->score[j] != y->score[j]) {
				snprintf(why, sizeof why, "near[%zu] (%s): %s, "
				    "not %s", i, a->missed[i].key, x->skill[j],
				    y->skill[j]);
				return why;
			}
	}
	if (a->n_recent != b->n_recent)
		return "recent: not as many events";
	for (i = 0; i < a->n_recent; i++) {
		const struct stats_event *x = &a->recent[i], *y = &b->recent[i];

		if (x->id != y->id || x->ts != y->ts || x->kind != y->kind ||
		    !str_same(x->query, y->query) ||
		    !str_same(x->skill, y->skill) ||
		    !str_same(x->session, y->session) ||
		    !str_same(x->client, y->client) ||
		    !str_same(x->trust, y->trust) ||
		    x->top1_score != y->top1_score ||
		    x->n_results != y->n_results ||
		    x->latency_ms != y->latency_ms || x->found != y->found) {
			snprintf(why, sizeof why, "recent[%zu]: id %lld, not "
			    "%lld", i, x->id, y->id);
			return why;
		}
	}
	return "";
}

/* The first rows, then batches that reorder the top lists. */
static const char inc_base[] =
	"INSERT INTO events(ts, kind, session, query, top1_score, latency_ms, "
	"detail) VALUES (100, 'search', 'a', 'alpha', 0.9, 1.5, NULL), "
	"(101, 'search', 'a', 'alpha', 0.2, 2.5, "
	"'{\"top\":[\"pdf\",\"docx\"],\"scores\":[0.2,0.1]}'), "
	"(102, 'search', 'a', 'beta', 0.8, NULL, NULL), "
	"(103, 'search', 'a', 'gamma', NULL, 1, '{\"top\":[]}'), "
	"(104, 'search', 'b', NULL, 0.1, 1, NULL);"
	"INSERT INTO events(ts, kind, session, skill, found, latency_ms) "
	"VALUES (105, 'load', 'a', 'pdf', 1, 0.5), "
	"(106, 'load', 'a', 'pdf', 1, 0.7), (107, 'load', 'b', 'docx', 1, 2), "
	"(108, 'load', 'b', 'xlsx', 0, 1);"
	"INSERT INTO events(ts, kind, n_results, latency_ms) VALUES "
	"(109, 'index', 6, 30);";
static const char *const inc_batches[] = {
	/* beta and gamma overtake; a query outside the list enters it. */
	"INSERT INTO events(ts, kind, session, query, top1_score, detail) VALUES "
	"(110, 'search', 'c', 'beta', 0.3, '{\"top\":[\"xlsx\"]}'), "
	"(110, 'search', 'c', 'beta', 0.7, NULL),"
	"(111, 'search', 'c', 'gamma', 0.95, NULL), (111, 'search', 'c', "
	"'delta', 0, '{\"top\":[\"xlsx\"],\"scores\":[0]}'),"
	"(112, 'search', 'c', '', 0.5, NULL);",
	/* Loads: xlsx found now, a new skill, a load out of order in time. */
	"INSERT INTO events(ts, kind, session, skill, found, latency_ms) "
	"VALUES (113, 'load', 'c', 'xlsx', 1, 3), (113, 'load', 'c', 'xlsx', "
	"1, 4), (99, 'load', 'c', 'canvas', 1, 1), (114, 'load', 'c', NULL, "
	"1, NULL);"
	"UPDATE meta SET value = '3' WHERE key = 'write_failures';",
	/* Nothing new. */
	"",
	/* Everything at once, with the same ts as older rows. */
	"INSERT INTO events(ts, kind, session, query, top1_score, latency_ms, "
	"detail) VALUES (114, 'search', 'd', 'delta', 0.1, 9, "
	"'{\"top\":[\"canvas\"],\"scores\":[0.1]}'), (114, 'search', 'd', "
	"'delta', 0.2, 8, '{\"top\":[\"pptx\",\"pdf\"],\"scores\":"
	"[0.2,0.15]}'), (115, 'search', 'd', 'alpha', 0.6, 7, NULL);"
	"INSERT INTO events(ts, kind, latency_ms) VALUES (115, 'index', NULL);",
};

/* An incremental update (stats_since_id) equals a full snapshot. */
static void
test_since_id(void)
{
	static const char *const skills[] = { "pdf", "docx", "xlsx", "canvas",
	    "pptx" };
	struct stats_query	 q;
	struct stats_db		*d = NULL;
	struct stats_snap	 inc, full;
	sqlite3			*db;
	char			 dir[] = "/tmp/test_tui.XXXXXX", path[64];
	char			*cause = NULL;
	const char		*why;
	long long		 n;
	size_t			 i;
	int			 limit, rv;

	if (mkdtemp(dir) == NULL) {
		ok(0, "mkdtemp");
		return;
	}
	snprintf(path, sizeof path, "%s/stats.db", dir);
	for (limit = 2; limit <= 200; limit += 198) {
		unlink(path);
		ok(sqlite3_open(path, &db) == SQLITE_OK &&
		    sqlite3_exec(db, telemetry_schema_sql, NULL, NULL, NULL) ==
		    SQLITE_OK && sqlite3_exec(db, inc_base, NULL, NULL, NULL) ==
		    SQLITE_OK, "limit %d: the first rows", limit);
		ok(stats_open(path, &d, &cause) == 0, "stats_open");
		if (d == NULL) {
			diag("%s", cause);
			free(cause);
			sqlite3_close(db);
			break;
		}
		memset(&q, 0, sizeof q);
		q.limit = limit;
		q.miss_threshold = 0.4;
		q.conversion_window_s = 300;
		q.since = 100;
		q.skills = skills;
		q.n_skills = 5;
		ok(stats_snapshot(d, &q, &inc, &cause) == 0, "a first snapshot");
		for (i = 0; i < sizeof inc_batches / sizeof *inc_batches; i++) {
			ok(sqlite3_exec(db, inc_batches[i], NULL, NULL, NULL) ==
			    SQLITE_OK, "batch %zu written", i);
			rv = stats_since_id(d, &q, &inc, &n, &cause);
			is_int(rv, 0, "limit %d, batch %zu: folded (%lld rows)",
			    limit, i, n);
			if (rv != 0) {
				diag("%s", cause != NULL ? cause : "rescan");
				free(cause);
				cause = NULL;
			}
			if (stats_snapshot(d, &q, &full, &cause) != 0) {
				ok(0, "a full snapshot: %s", cause);
				free(cause);
				cause = NULL;
				continue;
			}
			why = snap_diff(&inc, &full);
			ok(*why == '\0', "limit %d, batch %zu: the incremental "
			    "aggregates equal a full snapshot", limit, i);
			if (*why != '\0')
				diag("%s", why);
			stats_snap_done(&full);
		}
		is_int(inc.n_folded, 13, "13 new rows read, one of them out of range");
		for (i = 0; i < inc.n_missed; i++)
			if (strcmp(inc.missed[i].key, "delta") == 0)
				break;
		ok(i < inc.n_near && inc.near[i].n == 2 &&
		    strcmp(inc.near[i].skill[0], "pptx") == 0 &&
		    inc.near[i].score[1] == 0.15, "limit %d: delta's close "
		    "skills are those of its newest missed search", limit);
		ok(sqlite3_exec(db, "DELETE FROM events WHERE ts < 101", NULL,
		    NULL, NULL) == SQLITE_OK, "a retention prune");
		is_int(stats_since_id(d, &q, &inc, NULL, &cause), STATS_RESCAN,
		    "a prune asks for a full snapshot");
		stats_snap_done(&inc);
		ok(stats_snapshot(d, &q, &inc, &cause) == 0, "a new snapshot");
		ok(sqlite3_exec(db, "WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL "
		    "SELECT i + 1 FROM c WHERE i <= 2000) INSERT INTO "
		    "events(ts, kind, query) SELECT 200, 'search', 'q' || i "
		    "FROM c", NULL, NULL, NULL) == SQLITE_OK, "2001 new rows");
		is_int(stats_since_id(d, &q, &inc, NULL, &cause), STATS_RESCAN,
		    "more than STATS_FOLD_MAX new rows: a full snapshot");
		stats_snap_done(&inc);
		stats_close(d);
		d = NULL;
		sqlite3_close(db);
	}
	unlink(path);
	rmdir(dir);
}

/* The threads of this process (Linux: /proc/self/task), or -1. */
static int
count_threads(void)
{
	DIR		*d;
	struct dirent	*e;
	int		 n = 0;

	if ((d = opendir("/proc/self/task")) == NULL)
		return -1;
	while ((e = readdir(d)) != NULL)
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n;
}

/*
 * The worker polls every refresh_ms, here a minute: a stop must wake it
 * rather than wait for the next poll, and join its thread.
 */
static void
test_worker(void)
{
	struct tui_opts		 o;
	struct feed_worker	*w;
	struct feed_result	 r;
	double			 t0;
	int			 i, got = 0, before, after = -1;

	memset(&o, 0, sizeof o);
	o.stats_path = "/nonexistent/stats.db";
	o.telemetry_off = 1;
	before = count_threads();
	w = feed_worker_start(feed_new(&o, 0.4, 300), 60000, RANGE_ALL);
	ok(w != NULL, "the worker starts");
	if (w == NULL)
		return;
	for (i = 0; i < 200 && !got; i++) {
		got = feed_worker_take(w, &r);
		if (!got)
			usleep(10000);
	}
	ok(got, "the worker reports within 2 s");
	if (got) {
		is_int(r.state, TS_OFF, "telemetry off and no database: TS_OFF");
		feed_result_done(&r);
	}
	feed_worker_request(w, RANGE_24H, 1, 0);
	usleep(50000);		/* the request handled, it sleeps again */
	t0 = clock_ms();
	feed_worker_stop(w);
	ok(clock_ms() - t0 < 1000, "the worker stops at once, not at its next "
	    "poll a minute away (%.0f ms)", clock_ms() - t0);
	/* An idle worker is joined; a busy one would exit on its own. */
	for (i = 0; i < 200 && (after = count_threads()) != before; i++)
		usleep(10000);
	ok(before < 0 || after == before, "the worker's thread has exited "
	    "(threads: %d before, %d after)", before, after);
}

int
main(void)
{
	xmalloc_init();
	test_grid();
	test_colors();
	test_fmt();
	test_feed();
	test_since_id();
	test_worker();
	return done_testing();
}
