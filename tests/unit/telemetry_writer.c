/*
 * Test helper for tests/cli/stats.sh (not a test itself):
 *   telemetry_writer write DB SESSION N [DELAY_US]
 *	appends N events (search, load, search, ...) through the telemetry
 *	API, as a server process would, then closes; prints the failures.
 *	A postgresql:// DB writes there (telemetry.backend: postgres).
 *   telemetry_writer fixture DB SQLFILE
 *	creates DB with the current schema and runs SQLFILE in it.
 *   telemetry_writer check DB
 *	prints "integrity=<PRAGMA integrity_check> rows=<events>".
 *   telemetry_writer hold DB MS
 *	creates DB in rollback-journal mode, as a process that is creating
 *	stats.db holds it for a moment, takes its write lock, prints "held"
 *	and keeps it for MS milliseconds: the interleaving in which a
 *	second process's PRAGMA journal_mode=WAL fails at once with
 *	SQLITE_BUSY, whatever its busy timeout.
 *   telemetry_writer lock DB MS
 *	takes the write lock of an existing stats.db (BEGIN IMMEDIATE), as
 *	another process's long transaction would, prints "held" and keeps
 *	it for MS milliseconds.
 */
#include "autoconfig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "base/buf.h"
#include "core/config.h"
#include "base/pgdsn.h"
#include "telemetry/telemetry.h"
#include "base/xmalloc.h"

static int
do_write(const char *db, const char *session, long n, long delay)
{
	static const char *const top[] = { "pdf", "docx", "xlsx" };
	struct telemetry_search_event	 sev;
	struct telemetry_load_event	 lev;
	struct config		*cfg;
	struct telemetry	*t;
	char			*cause = NULL, q[64];
	long			 i;
	long long		 fails;

	cfg = config_defaults();
	cfg->telemetry_enabled = 1;
	if (pg_is_uri(db)) {
		cfg->telemetry_backend = TELEMETRY_BACKEND_POSTGRES;
		free(cfg->telemetry_dsn);
		cfg->telemetry_dsn = xstrdup(db);
	} else {
		free(cfg->telemetry_path);
		cfg->telemetry_path = xstrdup(db);
	}
	if (telemetry_open(cfg, session, &t, &cause) != 0) {
		fprintf(stderr, "telemetry_writer: %s\n", cause);
		free(cause);
		config_free(cfg);
		return 1;
	}
	telemetry_set_client(t, "writer-test");
	telemetry_set_verbose(t, getenv("SR_TELEMETRY_VERBOSE") != NULL);
	for (i = 0; i < n; i++) {
		if (i % 2 == 0) {
			snprintf(q, sizeof q, "query %ld", i % 50);
			memset(&sev, 0, sizeof sev);
			sev.query = q;
			sev.top1 = 0.3 + (double)(i % 7) / 10.0;
			sev.n_results = 3;
			memcpy(sev.top, top, 3 * sizeof top[0]);
			sev.n_top = 3;
			sev.latency_ms = 1.0 + (double)(i % 13);
			telemetry_search(t, &sev);
		} else {
			memset(&lev, 0, sizeof lev);
			lev.requested = lev.resolved = top[i % 3];
			lev.found = 1;
			lev.trust = "USER";
			lev.bytes = 100;
			lev.latency_ms = 0.5;
			telemetry_load(t, &lev);
		}
		if (delay > 0)
			usleep((useconds_t)delay);
		else if (i % 500 == 499)
			telemetry_flush(t);	/* keep under the queue cap */
	}
	telemetry_flush(t);
	fails = telemetry_failures(t);
	telemetry_close(t);
	printf("queued %ld failures %lld\n", n, fails);
	config_free(cfg);
	return 0;
}

static int
do_fixture(const char *db, const char *sqlfile)
{
	sqlite3	*h;
	char	*sql = NULL, *msg = NULL, ver[64];
	size_t	 len;
	int	 rv = 1;

	if (buf_read_file(sqlfile, 64 << 20, &sql, &len) == -1) {
		perror(sqlfile);
		return 1;
	}
	unlink(db);
	if (sqlite3_open(db, &h) != SQLITE_OK)
		goto out;
	snprintf(ver, sizeof ver, "PRAGMA user_version = %d",
	    TELEMETRY_SCHEMA_VERSION);
	if (sqlite3_exec(h, telemetry_schema_sql, NULL, NULL, &msg) !=
	    SQLITE_OK || sqlite3_exec(h, ver, NULL,
	    NULL, &msg) != SQLITE_OK || sqlite3_exec(h, sql, NULL, NULL,
	    &msg) != SQLITE_OK) {
		fprintf(stderr, "telemetry_writer: %s\n",
		    msg ? msg : sqlite3_errmsg(h));
		goto out;
	}
	rv = 0;
out:
	sqlite3_free(msg);
	sqlite3_close(h);
	free(sql);
	return rv;
}

static int
do_check(const char *db)
{
	sqlite3		*h;
	sqlite3_stmt	*st;
	const char	*ic = "?";
	char		*res = NULL;
	long long	 rows = -1;

	if (sqlite3_open_v2(db, &h, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
		fprintf(stderr, "telemetry_writer: %s\n", sqlite3_errmsg(h));
		return 1;
	}
	sqlite3_busy_timeout(h, 5000);
	if (sqlite3_prepare_v2(h, "PRAGMA integrity_check", -1, &st,
	    NULL) == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW)
			ic = (const char *)sqlite3_column_text(st, 0);
		res = xstrdup(ic != NULL ? ic : "?");
		sqlite3_finalize(st);
	}
	if (sqlite3_prepare_v2(h, "SELECT count(*) FROM events", -1, &st,
	    NULL) == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW)
			rows = sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
	}
	printf("integrity=%s rows=%lld\n", res != NULL ? res : "?", rows);
	free(res);
	sqlite3_close(h);
	return 0;
}

/* hold (create: 1) and lock (create: 0). */
static int
do_hold(const char *db, long ms, int create)
{
	sqlite3	*h;
	int	 rv = 1;

	if (create)
		unlink(db);
	if (sqlite3_open(db, &h) != SQLITE_OK ||
	    sqlite3_exec(h, create ? "CREATE TABLE held (x); BEGIN IMMEDIATE; "
	    "INSERT INTO held VALUES (1)" : "BEGIN IMMEDIATE", NULL, NULL,
	    NULL) != SQLITE_OK) {
		fprintf(stderr, "telemetry_writer: %s\n", sqlite3_errmsg(h));
		goto out;
	}
	printf("held\n");
	fflush(stdout);
	usleep((useconds_t)ms * 1000);
	if (sqlite3_exec(h, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
		fprintf(stderr, "telemetry_writer: %s\n", sqlite3_errmsg(h));
		goto out;
	}
	rv = 0;
out:
	sqlite3_close(h);
	return rv;
}

int
main(int argc, char **argv)
{
	xmalloc_init();
	if (argc >= 5 && strcmp(argv[1], "write") == 0)
		return do_write(argv[2], argv[3], atol(argv[4]),
		    argc > 5 ? atol(argv[5]) : 0);
	if (argc == 4 && strcmp(argv[1], "fixture") == 0)
		return do_fixture(argv[2], argv[3]);
	if (argc == 3 && strcmp(argv[1], "check") == 0)
		return do_check(argv[2]);
	if (argc == 4 && strcmp(argv[1], "hold") == 0)
		return do_hold(argv[2], atol(argv[3]), 1);
	if (argc == 4 && strcmp(argv[1], "lock") == 0)
		return do_hold(argv[2], atol(argv[3]), 0);
	fprintf(stderr, "usage: telemetry_writer write DB SESSION N [DELAY_US]"
	    " | fixture DB SQLFILE | check DB | hold DB MS | lock DB MS\n");
	return 2;
}
