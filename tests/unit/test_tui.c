/*
 * The dashboard's building blocks: the character grid (display widths,
 * cutting, printing), the colour tables, and the telemetry feed against
 * a stats.db written here.
 */
#include "autoconfig.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "telemetry.h"
#include "../../tui/colors.h"
#include "../../tui/feed.h"
#include "../../tui/grid.h"

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

static void
test_worker(void)
{
	struct tui_opts		 o;
	struct feed_worker	*w;
	struct feed_result	 r;
	int			 i, got = 0;

	memset(&o, 0, sizeof o);
	o.stats_path = "/nonexistent/stats.db";
	o.telemetry_off = 1;
	w = feed_worker_start(feed_new(&o, 0.4, 300), 20, RANGE_ALL);
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
	feed_worker_stop(w);
	ok(1, "the worker stops");
}

int
main(void)
{
	test_grid();
	test_colors();
	test_feed();
	test_worker();
	return done_testing();
}
