/*
 * Unit tests: the telemetry writer (opt-in, schema, rows, query modes,
 * retention, failures) and the stats reader (read-only open, every
 * aggregate on the fixture log, --since parsing).
 */
#include "autoconfig.h"

#include <sys/stat.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "base/buf.h"
#include "core/config.h"
#include "base/pgdsn.h"
#include "telemetry/stats.h"
#include "base/status.h"
#include "telemetry/telemetry.h"
#include "base/xmalloc.h"

#include "tap.h"

static char tmp[] = "/tmp/sr-unit-telemetry.XXXXXX";

/* Records a search or a load from its fields, as the engine's callers do. */
static void
rec_search(struct telemetry *t, const char *q, double top1, int n,
    const char *const *top, size_t ntop, double ms, int miss,
    const char *session)
{
	struct telemetry_search_event	 ev;
	size_t				 i;

	memset(&ev, 0, sizeof ev);
	ev.query = q;
	ev.top1 = top1;
	ev.n_results = n;
	for (i = 0; i < ntop && i < TELEMETRY_TOP_MAX; i++) {
		ev.top[i] = top[i];
		if (i < TELEMETRY_SCORES_MAX)	/* made up: top1, then less */
			ev.scores[i] = top1 - 0.125 * (double)i;
	}
	ev.n_top = i;
	ev.latency_ms = ms;
	ev.miss = miss;
	ev.session = session;
	telemetry_search(t, &ev);
}

static void
rec_load(struct telemetry *t, const char *requested, const char *resolved,
    int found, const char *trust, size_t bytes, double ms,
    const char *session)
{
	struct telemetry_load_event	 ev;

	memset(&ev, 0, sizeof ev);
	ev.requested = requested;
	ev.resolved = resolved;
	ev.found = found;
	ev.trust = trust;
	ev.bytes = bytes;
	ev.latency_ms = ms;
	ev.session = session;
	telemetry_load(t, &ev);
}

static struct config *
cfg_for(const char *db, int enabled, int mode)
{
	struct config	*cfg = config_defaults();

	cfg->telemetry_enabled = enabled;
	free(cfg->telemetry_path);
	cfg->telemetry_path = xstrdup(db);
	cfg->store_queries = mode;
	return cfg;
}

static sqlite3 *
raw(const char *db)
{
	sqlite3	*h = NULL;

	if (sqlite3_open(db, &h) != SQLITE_OK)
		return h;
	sqlite3_busy_timeout(h, 5000);
	return h;
}

/* First column of the first row as text (allocated, "" when NULL/none). */
static char *
q1(sqlite3 *h, const char *sql)
{
	sqlite3_stmt	*st;
	const char	*v;
	char		*r;

	if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) != SQLITE_OK)
		return xstrdup("(error)");
	if (sqlite3_step(st) == SQLITE_ROW &&
	    (v = (const char *)sqlite3_column_text(st, 0)) != NULL)
		r = xstrdup(v);
	else
		r = xstrdup("");
	sqlite3_finalize(st);
	return r;
}

static void
is_q(sqlite3 *h, const char *sql, const char *want, const char *desc)
{
	char	*got = q1(h, sql);

	is_str(got, want, "%s", desc);
	free(got);
}

static int
exists(const char *p)
{
	return access(p, F_OK) == 0;
}

static void
test_disabled(void)
{
	struct config		*cfg;
	struct telemetry	*t = (struct telemetry *)1;
	char			*db, *cause = NULL;

	xasprintf(&db, "%s/off/stats.db", tmp);
	cfg = cfg_for(db, 0, TELEMETRY_QUERIES_TEXT);
	is_int(telemetry_open(cfg, NULL, &t, &cause), 0, "disabled: open succeeds");
	ok(t == NULL, "disabled: the handle is NULL");
	telemetry_set_client(t, "x");
	rec_search(t, "q", 0.5, 1, NULL, 0, 1.0, 0, NULL);
	rec_load(t, "a", "a", 1, "USER", 1, 1.0, NULL);
	telemetry_index(t, 1, 1.0, "cli");
	telemetry_flush(t);
	is_int(telemetry_failures(t), 0, "disabled: no failures on NULL");
	telemetry_close(t);
	ok(!exists(db), "disabled: no file is created");
	xasprintf(&cause, "%s/off", tmp);
	ok(!exists(cause), "disabled: not even its directory");
	free(cause);
	config_free(cfg);
	free(db);
}

static void
test_rows(void)
{
	static const char *const top[] = { "pdf", "docx", "agent:review" };
	struct config		*cfg;
	struct telemetry	*t;
	sqlite3			*h;
	char			*db, *cause = NULL, *v;
	int			 rv;

	xasprintf(&db, "%s/a/b/stats.db", tmp);
	cfg = cfg_for(db, 1, TELEMETRY_QUERIES_TEXT);
	rv = telemetry_open(cfg, "sess-1", &t, &cause);
	ok(rv == 0 && t != NULL, "open creates the database and its directories");
	if (rv != 0) {
		diag("%s", cause);
		free(cause);
		config_free(cfg);
		free(db);
		return;
	}
	telemetry_set_client(t, "claude-code");
	rec_search(t, "  PDF\t Formulare   AUSFÜLLEN ", 0.75, 3, top, 3,
	    12.5, 0, NULL);
	{
		struct telemetry_search_event	 ev;

		memset(&ev, 0, sizeof ev);
		ev.query = "nothing";
		ev.top1 = 0.9;
		ev.latency_ms = 3.0;
		ev.miss = 1;
		ev.rewritten = 1;
		ev.session = "http-7";
		telemetry_search(t, &ev);
	}
	rec_load(t, "PDF", "pdf", 1, "USER", 2048, 1.25, NULL);
	rec_load(t, "nosuch", NULL, 0, NULL, 0, 0.5, NULL);
	telemetry_index(t, 42, 300.0, "watch");
	telemetry_flush(t);
	is_int(telemetry_failures(t), 0, "no write failures");
	h = raw(db);
	is_q(h, "PRAGMA user_version", "3", "schema version in user_version");
	is_q(h, "PRAGMA journal_mode", "wal", "the database is in WAL mode");
	is_q(h, "SELECT count(*) FROM events", "5", "five rows written");
	is_q(h, "SELECT group_concat(kind) FROM (SELECT kind FROM events "
	    "ORDER BY id)", "search,search,load,load,index", "kinds in order");
	is_q(h, "SELECT query FROM events WHERE id = 1",
	    "pdf formulare ausfüllen", "query stored case folded, blanks collapsed");
	is_q(h, "SELECT session || '|' || client FROM events WHERE id = 1",
	    "sess-1|claude-code", "session and client recorded");
	is_q(h, "SELECT session FROM events WHERE id = 2", "http-7",
	    "session override for HTTP sessions");
	is_q(h, "SELECT printf('%.2f|%d|%.1f', top1_score, n_results, "
	    "latency_ms) FROM events WHERE id = 1", "0.75|3|12.5",
	    "search score, count and latency");
	is_q(h, "SELECT detail FROM events WHERE id = 1",
	    "{\"top\":[\"pdf\",\"docx\",\"agent:review\"],"
	    "\"scores\":[0.75,0.625,0.5],\"miss\":false,"
	    "\"rewritten\":false,\"reranked\":false}",
	    "search detail: top names, their scores and stage flags");
	is_q(h, "SELECT printf('%.1f', top1_score) || json_extract(detail, "
	    "'$.miss') || json_extract(detail, '$.rewritten') FROM events "
	    "WHERE id = 2", "0.011", "no results: top-1 stored as 0, flags kept");
	is_q(h, "SELECT skill || '|' || trust || '|' || found || '|' || "
	    "json_extract(detail, '$.requested') || '|' || "
	    "json_extract(detail, '$.bytes') FROM events WHERE id = 3",
	    "pdf|USER|1|PDF|2048", "load: resolved name, requested in detail");
	is_q(h, "SELECT skill || '|' || found || '|' || (trust IS NULL) "
	    "FROM events WHERE id = 4", "nosuch|0|1",
	    "load not found: the requested name");
	is_q(h, "SELECT n_results || '|' || latency_ms || '|' || "
	    "json_extract(detail, '$.trigger') FROM events WHERE id = 5",
	    "42|300.0|watch", "index: count, duration and trigger");
	v = q1(h, "SELECT value FROM meta WHERE key = 'query_key'");
	is_int(strlen(v), 64, "a 256-bit query key lives in meta");
	free(v);
	sqlite3_close(h);
	telemetry_close(t);

	/* Reopening keeps the rows and the key. */
	rv = telemetry_open(cfg, NULL, &t, &cause);
	ok(rv == 0 && t != NULL, "reopen an existing database");
	rec_search(t, "x", 0.5, 1, top, 1, 1.0, 0, NULL);
	telemetry_close(t);
	h = raw(db);
	is_q(h, "SELECT count(*) FROM events", "6", "close flushes the queue");
	is_q(h, "SELECT substr(session, 1, 1) FROM events WHERE id = 6", "p",
	    "default session names the process");
	sqlite3_close(h);
	config_free(cfg);
	free(db);
}

static void
test_query_modes(void)
{
	struct config		*cfg;
	struct telemetry	*t;
	sqlite3			*h;
	char			*db, *db2, *cause = NULL, *a, *b;

	xasprintf(&db, "%s/hash.db", tmp);
	xasprintf(&db2, "%s/hash2.db", tmp);
	cfg = cfg_for(db, 1, TELEMETRY_QUERIES_HASH);
	if (telemetry_open(cfg, "s", &t, &cause) != 0) {
		ok(0, "open hash db: %s", cause);
		free(cause);
		return;
	}
	rec_search(t, "Fill PDF forms", 0.5, 1, NULL, 0, 1, 0, NULL);
	rec_search(t, "fill  pdf FORMS", 0.5, 1, NULL, 0, 1, 0, NULL);
	rec_search(t, "merge pdfs", 0.5, 1, NULL, 0, 1, 0, NULL);
	telemetry_close(t);
	if (telemetry_open(cfg, "s", &t, &cause) == 0) {
		rec_search(t, "fill pdf forms", 0.5, 1, NULL, 0, 1, 0,
		    NULL);
		telemetry_close(t);
	}
	h = raw(db);
	a = q1(h, "SELECT query FROM events WHERE id = 1");
	ok(strncmp(a, "hmac:", 5) == 0 && strlen(a) == 21,
	    "hash mode stores hmac: and 16 hex digits (%s)", a);
	ok(strstr(a, "pdf") == NULL, "hash mode: no query text");
	is_q(h, "SELECT count(DISTINCT query) FROM events WHERE id IN (1, 2, 4)",
	    "1", "the same query (any case/blanks, any session) groups");
	is_q(h, "SELECT (SELECT query FROM events WHERE id = 3) <> "
	    "(SELECT query FROM events WHERE id = 1)", "1",
	    "another query hashes differently");
	sqlite3_close(h);
	free(cfg->telemetry_path);
	cfg->telemetry_path = xstrdup(db2);
	if (telemetry_open(cfg, "s", &t, &cause) == 0) {
		rec_search(t, "fill pdf forms", 0.5, 1, NULL, 0, 1, 0,
		    NULL);
		telemetry_close(t);
	}
	h = raw(db2);
	b = q1(h, "SELECT query FROM events WHERE id = 1");
	ok(strcmp(a, b) != 0, "another database has another key");
	sqlite3_close(h);
	free(a);
	free(b);

	cfg->store_queries = TELEMETRY_QUERIES_NONE;
	if (telemetry_open(cfg, "s", &t, &cause) == 0) {
		rec_search(t, "secret project name", 0.5, 1, NULL, 0, 1,
		    0, NULL);
		telemetry_close(t);
	}
	h = raw(db2);
	is_q(h, "SELECT coalesce(query, 'NULL') FROM events WHERE id = 2",
	    "NULL", "store_queries false: no query at all");
	sqlite3_close(h);
	config_free(cfg);
	free(db);
	free(db2);
}

static void
test_normal(void)
{
	char	*s, big[2000];

	s = telemetry_query_normal("  ZAŻÓŁĆ   Gęślą\n JAŹŃ ");
	is_str(s, "zażółć gęślą jaźń", "normal form keeps diacritics, folds case");
	free(s);
	s = telemetry_query_normal("Stra\xc3\x9f" "e");
	is_str(s, "strasse", "full case folding (ß)");
	free(s);
	s = telemetry_query_normal("bad \xff\xfe UTF-8 HERE");
	is_str(s, "bad ?? utf-8 here", "invalid UTF-8 survives");
	free(s);
	s = telemetry_query_normal(NULL);
	is_str(s, "", "NULL query: empty");
	free(s);
	memset(big, 0, sizeof big);
	for (size_t i = 0; i + 2 < sizeof big - 1; i += 2)
		memcpy(big + i, "\xc3\xa9", 2);	/* é */
	s = telemetry_query_normal(big);
	ok(strlen(s) <= TELEMETRY_QUERY_MAX && strlen(s) % 2 == 0,
	    "a long query is cut on a character boundary (%zu bytes)",
	    strlen(s));
	free(s);
}

static void
test_retention(void)
{
	struct config		*cfg;
	struct telemetry	*t;
	sqlite3			*h;
	char			*db, *cause = NULL, sql[256];
	double			 now = (double)time(NULL);

	xasprintf(&db, "%s/ret.db", tmp);
	cfg = cfg_for(db, 1, TELEMETRY_QUERIES_TEXT);
	cfg->retention_days = 90;
	if (telemetry_open(cfg, "s", &t, &cause) != 0) {
		ok(0, "open: %s", cause);
		free(cause);
		return;
	}
	telemetry_close(t);		/* first open prunes: nothing old yet */
	h = raw(db);
	snprintf(sql, sizeof sql, "INSERT INTO events (ts, kind) VALUES "
	    "(%f, 'search'), (%f, 'load'), (%f, 'index'); UPDATE meta SET "
	    "value = '0' WHERE key = 'last_prune'", now - 100 * 86400.0,
	    now - 91 * 86400.0, now - 10 * 86400.0);
	sqlite3_exec(h, sql, NULL, NULL, NULL);
	sqlite3_close(h);

	telemetry_open(cfg, "s", &t, &cause);
	telemetry_close(t);
	h = raw(db);
	is_q(h, "SELECT group_concat(kind) FROM events", "index",
	    "events older than retention_days are pruned");
	is_q(h, "SELECT CAST(value AS REAL) > 0 FROM meta WHERE key = "
	    "'last_prune'", "1", "the prune time is kept in meta");
	snprintf(sql, sizeof sql, "INSERT INTO events (ts, kind) VALUES "
	    "(%f, 'search')", now - 200 * 86400.0);
	sqlite3_exec(h, sql, NULL, NULL, NULL);
	sqlite3_close(h);
	telemetry_open(cfg, "s", &t, &cause);
	telemetry_close(t);
	h = raw(db);
	is_q(h, "SELECT count(*) FROM events", "2",
	    "pruned at most once a day");
	sqlite3_exec(h, "UPDATE meta SET value = '0' WHERE key = 'last_prune'",
	    NULL, NULL, NULL);
	sqlite3_close(h);
	cfg->retention_days = 0;
	telemetry_open(cfg, "s", &t, &cause);
	telemetry_close(t);
	h = raw(db);
	is_q(h, "SELECT count(*) FROM events", "2",
	    "retention_days 0 keeps everything");
	sqlite3_close(h);
	config_free(cfg);
	free(db);
}

static void
test_failures(void)
{
	struct config		*cfg;
	struct telemetry	*t;
	struct stats_db		*sd;
	struct stats_query	 q;
	struct stats_snap	 s;
	sqlite3			*h;
	char			*db, *cause = NULL;

	xasprintf(&db, "%s/fail.db", tmp);
	cfg = cfg_for(db, 1, TELEMETRY_QUERIES_TEXT);
	if (telemetry_open(cfg, "s", &t, &cause) != 0) {
		ok(0, "open: %s", cause);
		free(cause);
		return;
	}
	/* Another process breaks the table: inserts fail, searches don't. */
	h = raw(db);
	sqlite3_exec(h, "ALTER TABLE events RENAME TO gone", NULL, NULL, NULL);
	sqlite3_close(h);
	rec_search(t, "a", 0.5, 1, NULL, 0, 1, 0, NULL);
	rec_search(t, "b", 0.5, 1, NULL, 0, 1, 0, NULL);
	telemetry_flush(t);
	is_int(telemetry_failures(t), 2, "unwritable events are counted");
	h = raw(db);
	sqlite3_exec(h, "ALTER TABLE gone RENAME TO events", NULL, NULL, NULL);
	sqlite3_close(h);
	telemetry_close(t);
	memset(&q, 0, sizeof q);
	q.limit = 5;
	q.miss_threshold = 0.4;
	q.conversion_window_s = 300;
	if (stats_open(db, &sd, &cause) == 0) {
		if (stats_snapshot(sd, &q, &s, &cause) == 0) {
			is_int(s.write_failures, 2,
			    "close records the failures for stats");
			stats_snap_done(&s);
		} else {
			ok(0, "snapshot: %s", cause);
			free(cause);
		}
		stats_close(sd);
	} else {
		ok(0, "stats_open: %s", cause);
		free(cause);
	}
	config_free(cfg);
	free(db);
}

static double
mono_ms(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Another process holds the write lock: searches go on, the queue caps. */
static void
test_locked(void)
{
	struct config		*cfg;
	struct telemetry	*t;
	sqlite3			*h;
	char			*db, *cause = NULL, *v;
	double			 t0, took;
	long long		 lost;
	int			 i, n = TELEMETRY_QUEUE_MAX + 1000;

	xasprintf(&db, "%s/locked.db", tmp);
	cfg = cfg_for(db, 1, TELEMETRY_QUERIES_TEXT);
	if (telemetry_open(cfg, "s", &t, &cause) != 0) {
		ok(0, "open: %s", cause);
		free(cause);
		return;
	}
	rec_search(t, "first", 0.5, 1, NULL, 0, 1, 0, NULL);
	telemetry_flush(t);
	h = raw(db);
	sqlite3_exec(h, "BEGIN EXCLUSIVE", NULL, NULL, NULL);
	t0 = mono_ms();
	for (i = 0; i < n; i++)
		rec_search(t, "while locked", 0.5, 1, NULL, 0, 1, 0,
		    NULL);
	took = mono_ms() - t0;
	ok(took < 2000, "%d searches while the database is locked take "
	    "%.1f ms: recording never waits for the lock", n, took);
	lost = telemetry_failures(t);
	ok(lost >= n - TELEMETRY_QUEUE_MAX - 512 - 1 && lost <= n -
	    TELEMETRY_QUEUE_MAX, "a full queue drops and counts (%lld)", lost);
	sqlite3_exec(h, "COMMIT", NULL, NULL, NULL);
	sqlite3_close(h);
	telemetry_flush(t);
	is_int(telemetry_failures(t), lost, "after the lock: the queue is written");
	telemetry_close(t);
	h = raw(db);
	v = q1(h, "SELECT count(*) + (SELECT CAST(value AS INTEGER) FROM meta "
	    "WHERE key = 'write_failures') FROM events");
	is_int(atoll(v), n + 1, "every event is written or counted");
	free(v);
	sqlite3_close(h);
	config_free(cfg);
	free(db);
}

static void
test_open_states(void)
{
	struct config		*cfg;
	struct telemetry	*t;
	struct stats_db		*sd = (struct stats_db *)1;
	struct stat		 before, after;
	sqlite3			*h;
	FILE			*fp;
	char			*db, *junk, *cause = NULL;

	xasprintf(&db, "%s/missing/stats.db", tmp);
	is_int(stats_open(db, &sd, &cause), SR_NOTFOUND,
	    "stats_open: a missing file is not found");
	ok(sd == NULL && cause != NULL, "  with a cause, no handle");
	free(cause);
	cause = NULL;
	ok(!exists(db), "stats_open never creates the file");

	xasprintf(&junk, "%s/junk.db", tmp);
	fp = fopen(junk, "w");
	fputs("this is not a database, just text that is long enough to "
	    "look like a header but is not one at all, really, no.\n", fp);
	fclose(fp);
	is_int(stats_open(junk, &sd, &cause), SR_IO, "a text file is refused");
	free(cause);
	cause = NULL;
	free(junk);

	xasprintf(&junk, "%s/other.db", tmp);
	h = raw(junk);
	sqlite3_exec(h, "CREATE TABLE t(x)", NULL, NULL, NULL);
	sqlite3_close(h);
	stat(junk, &before);
	is_int(stats_open(junk, &sd, &cause), SR_IO,
	    "a database without events is refused");
	ok(cause != NULL && strstr(cause, "not a telemetry database") != NULL,
	    "  saying it is not a telemetry database");
	free(cause);
	cause = NULL;
	stat(junk, &after);
	ok(before.st_size == after.st_size &&
	    before.st_mtime == after.st_mtime, "  and leaves it untouched");
	h = raw(junk);
	is_q(h, "SELECT count(*) FROM sqlite_master", "1",
	    "  no schema added");
	sqlite3_close(h);
	free(junk);

	xasprintf(&junk, "%s/newer.db", tmp);
	cfg = cfg_for(junk, 1, TELEMETRY_QUERIES_TEXT);
	if (telemetry_open(cfg, "s", &t, &cause) == 0)
		telemetry_close(t);
	h = raw(junk);
	sqlite3_exec(h, "PRAGMA user_version = 99", NULL, NULL, NULL);
	sqlite3_close(h);
	is_int(telemetry_open(cfg, "s", &t, &cause), SR_IO,
	    "the writer refuses a newer schema");
	ok(t == NULL && cause != NULL && strstr(cause, "newer") != NULL,
	    "  saying so");
	free(cause);
	cause = NULL;
	is_int(stats_open(junk, &sd, &cause), SR_IO,
	    "the reader refuses a newer schema");
	free(cause);
	config_free(cfg);
	free(junk);
	free(db);
}

static int
load_fixture(const char *db)
{
	sqlite3	*h;
	char	*sql, *path, *msg = NULL;
	size_t	 len;
	int	 rv;

	xasprintf(&path, "%s/tests/data/stats/fixture.sql", SR_SRCDIR);
	if (buf_read_file(path, 1 << 20, &sql, &len) == -1) {
		free(path);
		return -1;
	}
	free(path);
	h = raw(db);
	rv = sqlite3_exec(h, telemetry_schema_sql, NULL, NULL, &msg) ||
	    sqlite3_exec(h, "PRAGMA user_version = 2", NULL, NULL, &msg) ||
	    sqlite3_exec(h, sql, NULL, NULL, &msg);
	if (rv)
		diag("fixture: %s", msg);
	sqlite3_free(msg);
	sqlite3_close(h);
	free(sql);
	return rv ? -1 : 0;
}

static void
test_snapshot(void)
{
	static const char *const skills[] = {
		"pdf", "docx", "xlsx", "pptx", "canvas", "k8s-deploy", "pdf"
	};
	struct stats_db		*sd;
	struct stats_query	 q;
	struct stats_snap	 s;
	char			*db, *cause = NULL;
	long long		 v0;

	xasprintf(&db, "%s/fixture.db", tmp);
	if (load_fixture(db) == -1 || stats_open(db, &sd, &cause) != 0) {
		ok(0, "fixture database: %s", cause ? cause : "?");
		free(cause);
		free(db);
		return;
	}
	memset(&q, 0, sizeof q);
	q.limit = 10;
	q.miss_threshold = 0.4;
	q.conversion_window_s = 300;
	q.skills = skills;
	q.n_skills = sizeof skills / sizeof skills[0];
	v0 = stats_data_version(sd);
	ok(v0 >= 0, "data_version readable");
	if (stats_snapshot(sd, &q, &s, &cause) != 0) {
		ok(0, "snapshot: %s", cause);
		free(cause);
		stats_close(sd);
		free(db);
		return;
	}
	is_int(s.total, 14, "total events");
	is_int(s.by_kind[STATS_SEARCH], 7, "searches");
	is_int(s.by_kind[STATS_LOAD], 6, "loads");
	is_int(s.by_kind[STATS_INDEX], 1, "index runs");
	is_int(s.loads_found, 5, "loads that found a skill");
	is_int(s.misses, 3, "misses: top-1 below the threshold");
	ok(fabs(s.miss_rate - 3.0 / 7) < 1e-9, "miss rate 3/7");
	is_int(s.badge, 2, "badge red above 30 %%");
	ok(s.advice != NULL && strstr(s.advice, "rewriter") != NULL,
	    "advice: enable the rewriter");
	ok(s.p50_ms[STATS_SEARCH] == 15 && s.p95_ms[STATS_SEARCH] == 30,
	    "search latency p50 15, p95 30 (nearest rank)");
	ok(s.p50_ms[STATS_LOAD] == 1.5 && s.p95_ms[STATS_LOAD] == 3.0,
	    "load latency p50 1.5, p95 3");
	ok(s.p50_ms[STATS_INDEX] == 300, "index duration p50");
	/* k8s-deploy: no search of sb returned it, so it converts none. */
	is_int(s.conversions, 3, "searches followed by a load of a result");
	is_int(s.converted_loads, 3, "loads counted as conversions");
	ok(fabs(s.conversion_rate - 3.0 / 7) < 1e-9, "conversion rate 3/7");
	ok(fabs(s.mean_load_rank - 4.0 / 3) < 1e-9,
	    "mean rank of the loaded skill (1, 1, 2)");
	is_int(s.n_load_ranks, 3, "rank groups 1, 2, none");
	if (s.n_load_ranks == 3) {
		is_str(s.load_ranks[0].key, "1", "rank 1 first");
		is_int(s.load_ranks[0].n, 2, "  twice");
		is_str(s.load_ranks[2].key, "none", "not in results last");
	}
	is_int(s.n_after_miss, 2, "two skills loaded after a miss");
	if (s.n_after_miss == 2) {
		is_str(s.after_miss[0].key, "k8s-deploy", "  k8s-deploy");
		is_str(s.after_miss[1].key, "pptx", "  pptx");
	}
	is_int(s.n_top_queries, 4, "four distinct stored queries");
	if (s.n_top_queries == 4) {
		is_str(s.top_queries[0].key, "deploy kubernetes",
		    "top query: most frequent, ties by text");
		is_int(s.top_queries[0].n, 2, "  counted twice");
		is_str(s.top_queries[1].key, "pdf forms", "second");
		ok(fabs(s.top_queries[1].value - 0.81) < 1e-9,
		    "  mean top-1 0.81");
	}
	is_int(s.n_missed, 2, "two missed queries");
	if (s.n_missed == 2) {
		is_str(s.missed[0].key, "deploy kubernetes", "most missed first");
		is_str(s.missed[1].key, "make a slide deck", "then the other");
	}
	is_int(s.n_top_loads, 4, "four loaded skills");
	if (s.n_top_loads == 4) {
		is_str(s.top_loads[0].key, "pdf", "pdf loaded most");
		is_int(s.top_loads[0].n, 2, "  twice");
	}
	is_int(s.n_never_loaded, 2, "never loaded among the indexed");
	if (s.n_never_loaded == 2) {
		is_str(s.never_loaded[0].key, "canvas", "  canvas");
		is_str(s.never_loaded[1].key, "xlsx", "  xlsx");
	}
	is_int(s.n_recent, 10, "recent events: limit");
	if (s.n_recent > 1) {
		ok(s.recent[0].ts == 1764550200.0 && s.recent[0].kind ==
		    STATS_SEARCH && s.recent[0].query == NULL,
		    "newest first; query not stored is NULL");
		ok(s.recent[1].kind == STATS_INDEX && s.recent[1].n_results
		    == 42, "index event with its count");
	}
	ok(s.first_ts == 1764548200.0 && s.last_ts == 1764550200.0,
	    "time range of the events");
	stats_snap_done(&s);

	/* --since keeps the last events only. */
	q.since = 1764549300.0;
	q.limit = 3;
	if (stats_snapshot(sd, &q, &s, &cause) == 0) {
		is_int(s.total, 6, "since: events at or after the time");
		is_int(s.by_kind[STATS_SEARCH], 3, "since: searches");
		is_int(s.n_recent, 3, "since: limit 3");
		is_int(s.conversions, 0,
		    "since: the load in the range returned by no search");
		is_int(s.n_load_ranks, 1, "  counted under rank none");
		stats_snap_done(&s);
	} else {
		ok(0, "snapshot since: %s", cause);
		free(cause);
	}
	q.since = 1764600000.0;
	if (stats_snapshot(sd, &q, &s, &cause) == 0) {
		ok(s.total == 0 && s.miss_rate == 0 && s.n_recent == 0 &&
		    s.badge == 0, "since after every event: empty, no NaN");
		ok(s.advice != NULL && strstr(s.advice, "No searches") != NULL,
		    "empty: advice says there is nothing yet");
		is_int(s.n_never_loaded, 6, "empty: every skill never loaded");
		stats_snap_done(&s);
	}
	q.since = 0;
	q.miss_threshold = 0.11;
	q.skills = NULL;
	q.n_skills = 0;
	if (stats_snapshot(sd, &q, &s, &cause) == 0) {
		is_int(s.misses, 1, "the threshold is a parameter");
		is_int(s.badge, 0, "1/7 is green");
		ok(strstr(s.advice, "below 15") != NULL, "green advice");
		is_int(s.n_never_loaded, 0, "no skills given: no list");
		stats_snap_done(&s);
	}
	q.miss_threshold = 0.13;
	q.conversion_window_s = 1000;
	if (stats_snapshot(sd, &q, &s, &cause) == 0) {
		is_int(s.badge, 1, "2/7 is yellow");
		ok(strstr(s.advice, "missed queries") != NULL, "yellow advice");
		is_int(s.conversions, 4, "a wider window converts more");
		stats_snap_done(&s);
	}
	stats_close(sd);
	free(db);
}

/* A log written by another tool: the public table only, no indexes. */
static void
test_foreign(void)
{
	struct config		*cfg;
	struct telemetry	*t = (struct telemetry *)1;
	struct stats_db		*sd;
	struct stats_query	 q;
	struct stats_snap	 s;
	sqlite3			*h;
	FILE			*fp;
	char			*db, *cause = NULL;

	xasprintf(&db, "%s/foreign.db", tmp);
	h = raw(db);
	sqlite3_exec(h, "CREATE TABLE events (id INTEGER PRIMARY KEY, ts REAL "
	    "NOT NULL, kind TEXT NOT NULL, session TEXT, client TEXT, query "
	    "TEXT, skill TEXT, top1_score REAL, n_results INTEGER, latency_ms "
	    "REAL, trust TEXT, found INTEGER, detail TEXT); INSERT INTO events "
	    "(ts, kind, query, top1_score, latency_ms) VALUES (1, 'search', "
	    "'a', 0.9, 2), (2, 'search', 'a', 0.1, 4), (3, 'search', NULL, "
	    "NULL, NULL); INSERT INTO events (ts, kind, skill, found, "
	    "latency_ms) VALUES (4, 'load', 'x', 1, 1)", NULL, NULL, NULL);
	sqlite3_close(h);
	memset(&q, 0, sizeof q);
	q.limit = 5;
	q.miss_threshold = 0.4;
	q.conversion_window_s = 300;
	if (stats_open(db, &sd, &cause) != 0) {
		ok(0, "foreign: open: %s", cause);
		free(cause);
		free(db);
		return;
	}
	if (stats_snapshot(sd, &q, &s, &cause) == 0) {
		ok(s.total == 4 && s.searches == 3 && s.misses == 2,
		    "foreign log without our indexes: counted (NULL top-1 "
		    "is a miss)");
		ok(s.p50_ms[STATS_SEARCH] == 2 && s.p95_ms[STATS_SEARCH] == 4,
		    "foreign log: percentiles skip NULL latencies");
		ok(s.n_top_queries == 1 && s.top_queries[0].n == 2 &&
		    s.conversions == 0, "foreign log: queries, no conversions");
		stats_snap_done(&s);
	} else {
		ok(0, "foreign: snapshot: %s", cause);
		free(cause);
	}
	stats_close(sd);
	free(db);

	/*
	 * A path whose directory cannot be made: not a crash, and the
	 * events are lost and counted (#32), though the side file cannot
	 * be made there either.
	 */
	xasprintf(&db, "%s/plainfile", tmp);
	fp = fopen(db, "w");
	fclose(fp);
	free(db);
	xasprintf(&db, "%s/plainfile/stats.db", tmp);
	cfg = cfg_for(db, 1, TELEMETRY_QUERIES_TEXT);
	is_int(telemetry_open(cfg, NULL, &t, &cause), 0,
	    "an impossible db_path: a handle all the same");
	ok(t != NULL && cause == NULL, "  that runs on without stats.db");
	free(cause);
	cause = NULL;
	rec_search(t, "lost", 0.5, 1, NULL, 0, 1.0, 0, NULL);
	telemetry_flush(t);
	is_int(telemetry_failures(t), 1, "  counting its event lost");
	telemetry_close(t);
	t = NULL;
	config_free(cfg);
	free(db);

	/* stats.db a directory: the loss lands in stats.db-lost. */
	xasprintf(&db, "%s/dirdb", tmp);
	mkdir(db, 0700);
	cfg = cfg_for(db, 1, TELEMETRY_QUERIES_TEXT);
	is_int(telemetry_open(cfg, NULL, &t, &cause), 0,
	    "stats.db a directory: a handle");
	free(cause);
	cause = NULL;
	rec_search(t, "lost 1", 0.5, 1, NULL, 0, 1.0, 0, NULL);
	rec_load(t, "x", "x", 1, "USER", 1, 1.0, NULL);
	telemetry_close(t);
	t = NULL;
	is_int(telemetry_lost_read(db), 2,
	    "  its two events counted in stats.db-lost, for doctor");
	config_free(cfg);
	free(db);
}

static void
test_since(void)
{
	static const char *const bad[] = {
		"", "abc", "0h", "-5d", "5x", "24hh", "h", "2026-13-01",
		"2026-02-31", "2026-1-5", "2026-01-05T25:00", "2026-01-05T10",
		"2026-01-05X", "99999999999999999999d", "1969-12-31", NULL
	};
	double		 now = 1764633600.0, t;
	size_t		 i;
	struct tm	 tm;

	ok(stats_parse_since("24h", now, &t) == 0 && t == now - 86400,
	    "since 24h");
	ok(stats_parse_since("7d", now, &t) == 0 && t == now - 7 * 86400,
	    "since 7d");
	ok(stats_parse_since("30m", now, &t) == 0 && t == now - 1800,
	    "since 30m");
	ok(stats_parse_since("2w", now, &t) == 0 && t == now - 14 * 86400,
	    "since 2w");
	ok(stats_parse_since("90s", now, &t) == 0 && t == now - 90,
	    "since 90s");
	memset(&tm, 0, sizeof tm);
	tm.tm_year = 126;
	tm.tm_mon = 0;
	tm.tm_mday = 5;
	tm.tm_isdst = -1;
	ok(stats_parse_since("2026-01-05", now, &t) == 0 &&
	    t == (double)mktime(&tm), "since a local date");
	tm.tm_hour = 10;
	tm.tm_min = 30;
	tm.tm_isdst = -1;
	ok(stats_parse_since("2026-01-05T10:30", now, &t) == 0 &&
	    t == (double)mktime(&tm), "since a date and time");
	ok(stats_parse_since("2026-01-05 10:30:15", now, &t) == 0,
	    "since a date, a blank and seconds");
	for (i = 0; bad[i] != NULL; i++)
		is_int(stats_parse_since(bad[i], now, &t), -1,
		    "bad since '%s' refused", bad[i]);
	is_str(stats_kind_name(STATS_LOAD), "load", "kind names");
	is_str(stats_badge_name(1), "yellow", "badge names");
}

static void
test_config_keys(void)
{
	struct config	*cfg;
	FILE		*fp;
	char		*path, *cause = NULL;

	cfg = config_defaults();
	ok(!cfg->telemetry_enabled, "default: telemetry off");
	ok(cfg->telemetry_path != NULL && strstr(cfg->telemetry_path,
	    "/skills-radar/stats.db") != NULL, "default db_path under the "
	    "data directory (%s)", cfg->telemetry_path);
	is_int(cfg->store_queries, TELEMETRY_QUERIES_TEXT,
	    "default store_queries: true");
	is_int(cfg->retention_days, 90, "default retention_days 90");
	ok(cfg->conversion_window_s == 300, "default conversion window 300 s");
	config_free(cfg);

	xasprintf(&path, "%s/config.yaml", tmp);
	fp = fopen(path, "w");
	fputs("telemetry:\n  enabled: true\n  db_path: ~/t/s.db\n"
	    "  store_queries: hash\n  retention_days: 0\n"
	    "stats:\n  conversion_window_s: 60\n", fp);
	fclose(fp);
	cfg = NULL;
	if (config_load(path, &cfg, NULL, &cause) != 0) {
		ok(0, "config_load: %s", cause);
		free(cause);
	} else {
		ok(cfg->telemetry_enabled && cfg->retention_days == 0 &&
		    cfg->conversion_window_s == 60 &&
		    cfg->store_queries == TELEMETRY_QUERIES_HASH,
		    "the telemetry keys load from a file");
		ok(cfg->telemetry_path[0] == '/' &&
		    strstr(cfg->telemetry_path, "/t/s.db") != NULL,
		    "db_path expands ~ (%s)", cfg->telemetry_path);
	}
	config_free(cfg);
	fp = fopen(path, "w");
	fputs("telemetry:\n  store_queries: sometimes\n", fp);
	fclose(fp);
	cfg = NULL;
	is_int(config_load(path, &cfg, NULL, &cause), SR_CONFIG,
	    "a bad store_queries value is a config error");
	ok(cause != NULL && strstr(cause, "hash") != NULL,
	    "  naming the values: %s", cause ? cause : "");
	free(cause);
	config_free(cfg);
	free(path);
}

/*
 * A version 1 file (no replica column) stays readable by stats, and the
 * first writer migrates it forward in place: old rows keep NULL, new
 * rows carry telemetry.replica.
 */
static void
test_migrate_v1(void)
{
	struct stats_query	 q;
	struct stats_snap	 s;
	struct stats_db		*sd = NULL;
	struct telemetry	*t = NULL;
	struct config		*cfg;
	sqlite3			*h;
	char			*db, *cause = NULL;

	xasprintf(&db, "%s/v1.db", tmp);
	h = raw(db);
	ok(sqlite3_exec(h, telemetry_schema_sql, NULL, NULL, NULL) == 0 &&
	    sqlite3_exec(h, "DROP INDEX events_replica; ALTER TABLE events "
	    "DROP COLUMN replica; PRAGMA user_version = 1; INSERT INTO events "
	    "(ts, kind, session, query, top1_score, n_results, latency_ms) "
	    "VALUES (unixepoch() - 60, 'search', 's', 'old query', 0.7, 3, 2.0)",
	    NULL, NULL, NULL) == 0, "a version 1 file");
	sqlite3_close(h);
	memset(&q, 0, sizeof q);
	q.limit = 10;
	q.miss_threshold = 0.4;
	q.conversion_window_s = 300;
	ok(stats_open(db, &sd, &cause) == 0, "stats opens a version 1 file");
	free(cause);
	cause = NULL;
	if (sd != NULL && stats_snapshot(sd, &q, &s, &cause) == 0) {
		ok(s.total == 1 && s.schema_version == 1 && s.n_replicas == 0 &&
		    s.n_recent == 1 && s.recent[0].replica == NULL,
		    "  and reads it: 1 event, no replicas");
		stats_snap_done(&s);
	} else
		ok(0, "  and reads it: %s", cause != NULL ? cause : "?");
	free(cause);
	cause = NULL;
	stats_close(sd);
	cfg = cfg_for(db, 1, TELEMETRY_QUERIES_TEXT);
	free(cfg->telemetry_replica);
	cfg->telemetry_replica = xstrdup("web-7");
	ok(telemetry_open(cfg, "s2", &t, &cause) == 0 && t != NULL,
	    "a writer opens it%s%s", cause != NULL ? ": " : "",
	    cause != NULL ? cause : "");
	free(cause);
	rec_search(t, "new query", 0.8, 2, NULL, 0, 1.0, 0, NULL);
	telemetry_close(t);
	h = raw(db);
	is_q(h, "PRAGMA user_version", "3", "  and migrates it to version 3");
	is_q(h, "SELECT count(*) FROM events", "2", "  keeping the old row");
	is_q(h, "SELECT coalesce(replica, 'NULL') FROM events ORDER BY id",
	    "NULL", "  whose replica is NULL");
	is_q(h, "SELECT replica FROM events WHERE query = 'new query'",
	    "web-7", "  new rows carry telemetry.replica");
	sqlite3_close(h);
	config_free(cfg);
	free(db);
}

/* The stats of the file db: conversion figures only. */
static int
conv_snap(const char *db, struct stats_snap *s)
{
	struct stats_query	 q;
	struct stats_db		*sd = NULL;
	char			*cause = NULL;
	int			 rv;

	memset(&q, 0, sizeof q);
	q.limit = 10;
	q.miss_threshold = 0.4;
	q.conversion_window_s = 300;
	if ((rv = stats_open(db, &sd, &cause)) == 0)
		rv = stats_snapshot(sd, &q, s, &cause);
	if (rv != 0)
		diag("conv_snap: %s", cause != NULL ? cause : "?");
	free(cause);
	stats_close(sd);
	return rv;
}

/*
 * A load converts the latest search of its session that returned the
 * loaded skill, with the skill's rank there (#34: a CLI user's searches
 * in between do not take it); a load no search returned converts none,
 * counts under rank none, and after a miss when the latest search missed.
 */
static void
test_conv_by_skill(void)
{
	static const char *const a[] = { "w", "x" }, *const b[] = { "y" },
	    *const c[] = { "z" };
	struct telemetry	*t = NULL;
	struct stats_snap	 s;
	struct config		*cfg;
	sqlite3			*h;
	char			*db, *cause = NULL;
	size_t			 i;
	int			 none = 0, two = 0;

	xasprintf(&db, "%s/conv.db", tmp);
	cfg = cfg_for(db, 1, TELEMETRY_QUERIES_TEXT);
	if (telemetry_open(cfg, "cli:u@h", &t, &cause) != 0) {
		ok(0, "open: %s", cause);
		free(cause);
		config_free(cfg);
		free(db);
		return;
	}
	rec_search(t, "search a", 0.8, 2, a, 2, 1.0, 0, NULL);
	rec_search(t, "search b", 0.7, 1, b, 1, 1.0, 0, NULL);
	rec_load(t, "x", "x", 1, "USER", 10, 1.0, NULL);
	rec_search(t, "search c", 0.1, 1, c, 1, 1.0, 1, NULL);
	rec_load(t, "q", "q", 1, "USER", 10, 1.0, NULL);
	telemetry_close(t);
	h = raw(db);
	is_q(h, "SELECT s.query || ' ' || c.rank FROM conv AS c JOIN events "
	    "AS s ON s.id = c.search_id WHERE c.skill = 'x'", "search a 2",
	    "load x converts search a (which returned x at rank 2), not b");
	is_q(h, "SELECT coalesce(search_id, 'none') || ' ' || s.query FROM "
	    "conv AS c JOIN events AS s ON s.id = c.last_id WHERE "
	    "c.skill = 'q'", "none search c",
	    "load q: no search returned it; its latest search is c");
	sqlite3_close(h);
	if (conv_snap(db, &s) == 0) {
		is_int(s.conversions, 1, "stats: one search converted");
		is_int(s.converted_loads, 1, "  by one load");
		ok(fabs(s.mean_load_rank - 2) < 1e-9, "  at rank 2");
		for (i = 0; i < s.n_load_ranks; i++) {
			if (strcmp(s.load_ranks[i].key, "none") == 0)
				none = (int)s.load_ranks[i].n;
			if (strcmp(s.load_ranks[i].key, "2") == 0)
				two = (int)s.load_ranks[i].n;
		}
		ok(none == 1 && two == 1, "  ranks: 2 once, none once");
		ok(s.n_after_miss == 1 && strcmp(s.after_miss[0].key, "q") == 0,
		    "  q loaded after a miss (search c missed)");
		stats_snap_done(&s);
	} else
		ok(0, "stats of conv.db");

	/* A version 2 file: conv is rebuilt by the rule above on open. */
	h = raw(db);
	sqlite3_exec(h, "DROP TRIGGER events_conv; DROP TABLE conv; "
	    "CREATE TABLE conv (load_id INTEGER PRIMARY KEY, ts REAL NOT NULL,"
	    " skill TEXT, search_id INTEGER NOT NULL, dt REAL NOT NULL, rank "
	    "INTEGER, top1 REAL); PRAGMA user_version = 2", NULL, NULL, NULL);
	sqlite3_close(h);
	ok(telemetry_open(cfg, "cli:u@h", &t, &cause) == 0,
	    "a writer opens a version 2 file");
	free(cause);
	telemetry_close(t);
	h = raw(db);
	is_q(h, "SELECT group_concat(skill || ':' || coalesce(rank, 'none'), "
	    "',') FROM (SELECT skill, rank FROM conv ORDER BY load_id)",
	    "x:2,q:none", "  and rebuilds conv from the events");
	is_q(h, "PRAGMA user_version", "3", "  at version 3");
	sqlite3_close(h);
	config_free(cfg);
	free(db);
}

/* A DSN is shown with its password masked, in every form libpq takes. */
static void
test_redact(void)
{
	static const char *const cases[][2] = {
		{ "postgresql://u:sekret@db.example/radar",
		  "postgresql://u:***@db.example/radar" },
		{ "postgres://u@db/radar", "postgres://u@db/radar" },
		{ "postgresql:///sr?host=/tmp/s&password=sekret&user=u",
		  "postgresql:///sr?host=/tmp/s&password=***&user=u" },
		{ "host=db password=sekret dbname=radar",
		  "host=db password=*** dbname=radar" },
		{ "host=db password = 'se cr\\'et' dbname=radar",
		  "host=db password = *** dbname=radar" },
	};
	size_t	 i;
	char	*r;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		r = pg_dsn_redact(cases[i][0]);
		is_str(r, cases[i][1], "redact %s", cases[i][0]);
		ok(strstr(r, "sekret") == NULL && strstr(r, "se cr") == NULL,
		    "  no password left");
		free(r);
	}
	ok(pg_is_uri("postgresql://x") && pg_is_uri("postgres://x") &&
	    !pg_is_uri("/var/lib/stats.db"), "pg_is_uri tells URIs from paths");
}

/* The lost-events side file: created empty, added to, a bad one reads 0. */
static void
test_lost_file(void)
{
	char	*db, *side;
	FILE	*fp;

	xasprintf(&db, "%s/lost.db", tmp);
	side = telemetry_lost_path(db);
	ok(telemetry_lost_read(db) == 0, "lost file: missing reads 0");
	ok(telemetry_lost_add(db, 0) == 0 && access(side, F_OK) == 0 &&
	    telemetry_lost_read(db) == 0, "lost file: adding 0 creates it");
	ok(telemetry_lost_add(db, 3) == 0 && telemetry_lost_add(db, 4) == 0 &&
	    telemetry_lost_read(db) == 7, "lost file: adds up (3 + 4)");
	if ((fp = fopen(side, "w")) != NULL) {
		fputs("garbage\n", fp);
		fclose(fp);
	}
	ok(telemetry_lost_read(db) == 0, "lost file: a malformed one reads 0");
	ok(telemetry_lost_add(db, 2) == 0 && telemetry_lost_read(db) == 2,
	    "lost file: ... and is rewritten whole by the next add");
	free(side);
	free(db);
}

int
main(void)
{
	char	*cmd;

	xmalloc_init();
	if (mkdtemp(tmp) == NULL)
		return 1;
	test_config_keys();
	test_disabled();
	test_rows();
	test_query_modes();
	test_normal();
	test_retention();
	test_failures();
	test_locked();
	test_open_states();
	test_snapshot();
	test_foreign();
	test_since();
	test_migrate_v1();
	test_conv_by_skill();
	test_redact();
	test_lost_file();
	xasprintf(&cmd, "rm -rf '%s'", tmp);
	if (system(cmd) != 0)
		diag("could not remove %s", tmp);
	free(cmd);
	return done_testing();
}
