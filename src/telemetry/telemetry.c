/*
 * The telemetry writer. Record calls build a complete row in memory (the
 * query normalised or hashed, detail as JSON) and append it to a bounded
 * ring; a writer thread drains the ring in one short transaction per
 * batch. Searches therefore pay for a few small allocations and a mutex,
 * never for SQLite. See telemetry.h for the contract.
 */
#include "autoconfig.h"

#include <sys/stat.h>
#include <sys/types.h>

#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <sqlite3.h>
#include <utf8proc.h>

#include "base/buf.h"
#include "core/config.h"
#include "base/pgdsn.h"
#include <sodium.h>
#include "base/sqlro.h"
#include "base/status.h"
#include "telemetry/telemetry.h"
#include "telemetry/telemetry_event.h"
#include "telemetry/telemetry_pg.h"
#include "base/xmalloc.h"

#define TM_BATCH_MAX	512	/* events per transaction */
#define TM_TRIES	4	/* attempts per batch before counting it lost */
#define TM_BUSY_MS	5000	/* busy timeout of the writer thread */
#define TM_OPEN_BUSY_MS	10000	/* ... when creating or migrating the schema */
#define TM_PRUNE_EVERY	86400.0	/* seconds between two prunes */
#define TM_FLUSH_MS	5000	/* flush waits this long for a server away */
#define TM_LINGER_MS	5	/* a batch gathers events this long */

/*
 * The conv row of load L (an SQL name: NEW in the trigger, l in the
 * migration): the latest search of its session at most a day before it
 * (last_id, last_dt, last_top1), and the latest of those searches whose
 * detail.top holds the loaded skill (search_id, dt, the skill's rank in
 * it, its top-1 score; NULL when none did). instr() skips the searches
 * whose detail cannot name the skill before json_each reads one.
 */
#define TM_CONV_HIT(L, S) \
	"(SELECT CAST(j.key AS INTEGER) + 1 FROM json_each(CASE WHEN" \
	" json_valid(" S ".detail) THEN " S ".detail ELSE '{}' END, '$.top')" \
	" AS j WHERE j.value = " L ".skill LIMIT 1)"
#define TM_CONV_IN(L) \
	"SELECT s.id FROM events AS s WHERE s.session = " L ".session AND" \
	" s.kind = 'search' AND s.ts <= " L ".ts AND" \
	" s.ts >= " L ".ts - 86400"
#define TM_CONV_LAST " ORDER BY s.ts DESC, s.id DESC LIMIT 1"
/* FROM: tables before the searches; WHERE: more conditions on L. */
#define TM_CONV_SELECT(L, FROM, WHERE) \
	"SELECT " L ".id, " L ".ts, " L ".skill, h.id, " L ".ts - h.ts, " \
	TM_CONV_HIT(L, "h") ", CASE WHEN h.id IS NOT NULL THEN" \
	" coalesce(h.top1_score, 0) END, b.id," \
	" " L ".ts - b.ts, coalesce(b.top1_score, 0) FROM " FROM \
	"events AS b LEFT JOIN events AS h ON h.id = (" TM_CONV_IN(L) \
	" AND instr(s.detail, json_quote(" L ".skill)) > 0 AND " \
	TM_CONV_HIT(L, "s") " IS NOT NULL" TM_CONV_LAST ")" \
	" WHERE b.id = (" TM_CONV_IN(L) TM_CONV_LAST ")" WHERE
#define TM_CONV_SQL \
	"CREATE TABLE IF NOT EXISTS conv (load_id INTEGER PRIMARY KEY," \
	" ts REAL NOT NULL, skill TEXT, search_id INTEGER, dt REAL," \
	" rank INTEGER, top1 REAL, last_id INTEGER NOT NULL," \
	" last_dt REAL NOT NULL, last_top1 REAL);\n" \
	"CREATE INDEX IF NOT EXISTS conv_ts ON conv(ts, dt, search_id, rank," \
	" top1, skill);\n" \
	"CREATE TRIGGER IF NOT EXISTS events_conv AFTER INSERT ON events" \
	" WHEN NEW.kind = 'load' AND NEW.found = 1 AND NEW.session IS NOT NULL" \
	" BEGIN" \
	"  INSERT OR REPLACE INTO conv (load_id, ts, skill, search_id, dt," \
	"   rank, top1, last_id, last_dt, last_top1) " \
	TM_CONV_SELECT("NEW", "", "") ";" \
	" END;\n"

/* Version 1 -> 2: the replica column (NULL in the rows written before). */
static const char migrate_2_sql[] =
	"ALTER TABLE events ADD COLUMN replica TEXT;\n"
	"CREATE INDEX IF NOT EXISTS events_replica ON events(replica, ts);\n";

/*
 * Version 3 (version 2 with the old conv; version 1 also without events.replica, the name of the process
 * that wrote the row; telemetry.replica): the public schema of DESIGN §10 (table events) with its
 * indexes, and two internal tables that may change between versions:
 * meta (key/value: query_key, the hash key of store_queries: hash;
 * last_prune, unix time; write_failures, events writers lost;
 * learn_reset, unix time before which search learns nothing from the
 * events, set by stats --reset-learning, absent until then) and conv,
 * which a trigger fills as loads are inserted (TM_CONV_SELECT): each
 * found load with the latest search of its session at most a day before
 * it and the latest of those that returned the loaded skill (the time
 * between them, the skill's rank in its detail.top, its top-1 score). stats reads conv instead of pairing events at
 * read time, so its cost does not grow with a self-join.
 * The covering indexes let each stats aggregate read an index instead of
 * the table.
 */
const char telemetry_schema_sql[] =
	"CREATE TABLE IF NOT EXISTS events ("
	" id INTEGER PRIMARY KEY,"
	" ts REAL NOT NULL,"
	" kind TEXT NOT NULL CHECK(kind IN ('search','load','index')),"
	" session TEXT, client TEXT, query TEXT, skill TEXT,"
	" top1_score REAL, n_results INTEGER, latency_ms REAL,"
	" trust TEXT, found INTEGER, detail TEXT, replica TEXT);\n"
	TM_INDEXES_SQL
	"INSERT OR IGNORE INTO meta VALUES ('write_failures', '0');\n"
	"INSERT OR IGNORE INTO meta VALUES ('last_prune', '0');\n"
	TM_CONV_SQL;

/*
 * Version 2 -> 3: conv gains the latest search (last_*) beside the
 * search that returned the loaded skill; the rows are rebuilt from the
 * events, which the new trigger reads the same way.
 */
static const char migrate_3_sql[] =
	"DROP TRIGGER IF EXISTS events_conv;\n"
	"DROP TABLE IF EXISTS conv;\n"
	TM_CONV_SQL
	"INSERT OR REPLACE INTO conv (load_id, ts, skill, search_id, dt, rank,"
	" top1, last_id, last_dt, last_top1) "
	TM_CONV_SELECT("l", "events AS l, ", " AND l.kind = 'load' AND"
	" l.found = 1 AND l.session IS NOT NULL") ";\n";

struct telemetry {
	int		 backend;	/* enum telemetry_backend */
	char		*path;		/* sqlite: the file; postgres: redacted DSN */
	sqlite3		*db;
	sqlite3_stmt	*ins;
	struct tm_pg	*pg;
	int		 mode;		/* enum telemetry_queries */
	int		 retention_days;
	uint8_t		 key[32];	/* query hash key */
	int		 have_key;
	double		 next_prune;	/* earliest time to check again */
	int		 verbose;	/* report state changes on stderr */

	pthread_t	 thread;
	pthread_mutex_t	 mu;
	pthread_cond_t	 work;		/* events queued or stop */
	pthread_cond_t	 done;		/* a batch finished */
	struct tm_event	*ring;		/* cap slots */
	size_t		 cap;
	size_t		 head, n;
	unsigned long long queued;	/* events accepted or dropped so far */
	unsigned long long settled;	/* events written or counted lost */
	unsigned long long written;
	int		 stop;
	int		 flushing;	/* callers waiting in telemetry_flush */
	int		 down;		/* the database is unreachable */
	int		 dead;		/* stats.db never opened: all is lost */
	long long	 failures;	/* events lost: dropped or unwritable */
	long long	 failures_saved;	/* ... of which meta or the side file counts */
	char		*last_error;	/* why the database is down */
	char		*session;
	char		*client;
	char		*replica;

	int		 wait_ms;	/* busy handler: how long to wait */
	struct timespec	 wait_t0;	/* ... since when */
	unsigned	 wait_seed;	/* ... its jitter */
	int		 busy;		/* the last write failed on a lock */
};

static double
now_s(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void
event_done(struct tm_event *e)
{
	free(e->session);
	free(e->client);
	free(e->query);
	free(e->skill);
	free(e->trust);
	free(e->detail);
	free(e->replica);
	memset(e, 0, sizeof *e);
}

static int
db_fail(sqlite3 *db, const char *path, const char *what, char **cause)
{
	xasprintf(cause, "%s: %s: %s", path, what, sqlro_why(db, NULL));
	return SR_IO;
}

static int
exec(sqlite3 *db, const char *path, const char *sql, char **cause)
{
	char	*msg = NULL;

	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		if (cause != NULL)
			xasprintf(cause, "%s: %s", path, sqlro_why(db, msg));
		sqlite3_free(msg);
		return SR_IO;
	}
	return 0;
}

/*
 * The busy handler of a writer's connection. SQLite's own sleeps longer
 * the longer it has waited (up to 100 ms between tries), so under steady
 * contention a process that has waited long loses every race to one that
 * just came back: with eight writers on two cores, one waited past its
 * timeout. This one tries again every 1 to 4 ms (random, so waiters do
 * not move in step) for as long as wait_ms: every waiter has the same
 * chance at each release of the lock.
 */
static int
busy_wait(void *arg, int count)
{
	struct telemetry	*t = arg;
	struct timespec		 now, nap = { 0, 0 };
	long			 ms;

	clock_gettime(CLOCK_MONOTONIC, &now);
	if (count == 0)
		t->wait_t0 = now;
	ms = (now.tv_sec - t->wait_t0.tv_sec) * 1000 +
	    (now.tv_nsec - t->wait_t0.tv_nsec) / 1000000L;
	if (ms >= t->wait_ms)
		return 0;
	nap.tv_nsec = (1 + (long)(rand_r(&t->wait_seed) % 4)) * 1000000L;
	nanosleep(&nap, NULL);
	return 1;
}

static void
set_wait(struct telemetry *t, int ms)
{
	t->wait_ms = ms;
	sqlite3_busy_handler(t->db, busy_wait, t);
}

/*
 * exec() for the statements that open stats.db: SQLite answers
 * SQLITE_BUSY at once, without calling the busy handler, when waiting
 * could deadlock (PRAGMA journal_mode=WAL while a process that created
 * the file a moment before holds its write lock in rollback mode).
 * Several processes creating stats.db at once hit that; each waits its
 * turn here, up to TM_OPEN_BUSY_MS, instead of giving up its telemetry.
 */
static int
exec_open(sqlite3 *db, const char *path, const char *sql, char **cause)
{
	struct timespec	 nap = { 0, 5 * 1000000L }, t0, now;
	int		 rc;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
		if (rc == SQLITE_OK)
			return 0;
		if ((rc & 0xff) != SQLITE_BUSY && (rc & 0xff) != SQLITE_LOCKED)
			break;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if ((now.tv_sec - t0.tv_sec) * 1000 +
		    (now.tv_nsec - t0.tv_nsec) / 1000000L >= TM_OPEN_BUSY_MS)
			break;
		nanosleep(&nap, NULL);
		if (nap.tv_nsec < 100 * 1000000L)
			nap.tv_nsec *= 2;
	}
	return exec(db, path, sql, cause);
}

/* Reads the schema version and, when there, the hash key; no lock kept. */
static int
current_schema(struct telemetry *t)
{
	sqlite3_stmt	*st = NULL;
	const char	*v;
	int		 version = -1, ok = 0;

	if (sqlite3_prepare_v2(t->db, "PRAGMA user_version", -1, &st,
	    NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		version = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	st = NULL;
	if (version != TELEMETRY_SCHEMA_VERSION)
		return 0;
	if (sqlite3_prepare_v2(t->db, "SELECT value FROM meta WHERE "
	    "key = 'query_key'", -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW &&
	    (v = (const char *)sqlite3_column_text(st, 0)) != NULL &&
	    tm_unhex(v, t->key, sizeof t->key) == 0)
		ok = 1;
	sqlite3_finalize(st);
	return ok;
}

/*
 * Creates or migrates the schema inside one write transaction, so two
 * processes creating the file at once agree on one hash key. An up to
 * date database (the usual case: every server start) is only read, so
 * opening never queues behind busy writers for the write lock.
 */
static int
schema(struct telemetry *t, char **cause)
{
	sqlite3_stmt	*st = NULL;
	char		 key[65], sql[128];
	const char	*v;
	int		 version = 0, rv;

	if (current_schema(t))
		return 0;
	set_wait(t, TM_OPEN_BUSY_MS);
	if ((rv = exec_open(t->db, t->path, "BEGIN IMMEDIATE", cause)) != 0)
		return rv;
	if (sqlite3_prepare_v2(t->db, "PRAGMA user_version", -1, &st,
	    NULL) != SQLITE_OK) {
		rv = db_fail(t->db, t->path, "reading the schema version", cause);
		goto out;
	}
	if (sqlite3_step(st) == SQLITE_ROW)
		version = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	st = NULL;
	if (version > TELEMETRY_SCHEMA_VERSION) {
		xasprintf(cause, "%s: schema version %d is newer than this "
		    "program's %d: upgrade skills-radar", t->path, version,
		    TELEMETRY_SCHEMA_VERSION);
		rv = SR_IO;
		goto out;
	}
	/*
	 * Version 0: create the current schema. Older versions migrate
	 * forward one step at a time (their rows stay as they are).
	 */
	if ((rv = exec(t->db, t->path, version == 0 ? telemetry_schema_sql :
	    "SELECT 1", cause)) != 0)
		goto out;
	if (version == 1 && (rv = exec(t->db, t->path, migrate_2_sql,
	    cause)) != 0)
		goto out;
	if (version >= 1 && version < 3 && (rv = exec(t->db, t->path,
	    migrate_3_sql, cause)) != 0)
		goto out;
	if (tm_random_key(key) == -1) {
		xasprintf(cause, "%s: no random bytes for the query key: %s",
		    t->path, strerror(errno));
		rv = SR_IO;
		goto out;
	}
	if (sqlite3_prepare_v2(t->db, "INSERT OR IGNORE INTO meta "
	    "VALUES ('query_key', ?1)", -1, &st, NULL) != SQLITE_OK) {
		rv = db_fail(t->db, t->path, "storing the query key", cause);
		goto out;
	}
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	if (sqlite3_step(st) != SQLITE_DONE) {
		rv = db_fail(t->db, t->path, "storing the query key", cause);
		goto out;
	}
	sqlite3_finalize(st);
	st = NULL;
	if (sqlite3_prepare_v2(t->db, "SELECT value FROM meta WHERE "
	    "key = 'query_key'", -1, &st, NULL) != SQLITE_OK ||
	    sqlite3_step(st) != SQLITE_ROW ||
	    (v = (const char *)sqlite3_column_text(st, 0)) == NULL ||
	    tm_unhex(v, t->key, sizeof t->key) == -1) {
		xasprintf(cause, "%s: meta.query_key is missing or damaged",
		    t->path);
		rv = SR_IO;
		goto out;
	}
	sqlite3_finalize(st);
	st = NULL;
	snprintf(sql, sizeof sql, "PRAGMA user_version = %d",
	    TELEMETRY_SCHEMA_VERSION);
	if ((rv = exec(t->db, t->path, sql, cause)) != 0)
		goto out;
	rv = exec(t->db, t->path, "COMMIT", cause);
out:
	if (st != NULL)
		sqlite3_finalize(st);
	if (rv != 0)
		exec(t->db, t->path, "ROLLBACK", NULL);
	set_wait(t, TM_BUSY_MS);
	return rv;
}

/*
 * Deletes events older than the retention, at most once a day across all
 * writers: the last time is kept in meta.last_prune and checked inside
 * the write transaction. Runs on the writer thread only.
 */
static void
prune(struct telemetry *t)
{
	sqlite3_stmt	*st = NULL;
	double		 now = now_s(), last = 0;
	char		 sql[256];

	if (t->retention_days <= 0 || now < t->next_prune)
		return;
	t->next_prune = now + 3600;	/* look again in an hour at most */
	/* A read first: most starts find a recent prune and take no lock. */
	if (sqlite3_prepare_v2(t->db, "SELECT value FROM meta WHERE key = "
	    "'last_prune'", -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		last = sqlite3_column_double(st, 0);
	sqlite3_finalize(st);
	st = NULL;
	if (now - last < TM_PRUNE_EVERY) {
		t->next_prune = last + TM_PRUNE_EVERY;
		return;
	}
	if (exec(t->db, t->path, "BEGIN IMMEDIATE", NULL) != 0)
		return;
	if (sqlite3_prepare_v2(t->db, "SELECT value FROM meta WHERE key = "
	    "'last_prune'", -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		last = sqlite3_column_double(st, 0);
	sqlite3_finalize(st);
	if (now - last < TM_PRUNE_EVERY) {
		exec(t->db, t->path, "COMMIT", NULL);
		t->next_prune = last + TM_PRUNE_EVERY;
		return;
	}
	snprintf(sql, sizeof sql, "DELETE FROM events WHERE ts < %.3f; "
	    "DELETE FROM conv WHERE ts < %.3f; "
	    "UPDATE meta SET value = '%.3f' WHERE key = 'last_prune'",
	    now - (double)t->retention_days * 86400.0,
	    now - (double)t->retention_days * 86400.0, now);
	if (exec(t->db, t->path, sql, NULL) != 0 ||
	    exec(t->db, t->path, "COMMIT", NULL) != 0)
		exec(t->db, t->path, "ROLLBACK", NULL);
	else
		t->next_prune = now + TM_PRUNE_EVERY;
}

/* Fills *why with the last error and rolls back; returns -1. */
static int
write_fail(struct telemetry *t, char **why)
{
	int	 e = sqlite3_errcode(t->db) & 0xff;

	t->busy = e == SQLITE_BUSY || e == SQLITE_LOCKED;
	xasprintf(why, "%s: %s", t->path, sqlro_why(t->db, NULL));
	exec(t->db, t->path, "ROLLBACK", NULL);
	return -1;
}

/*
 * Writes v[0..n) and the dropped count not stored yet, in one
 * transaction; -1 with *why filled when it could not.
 */
static int
sqlite_write(struct telemetry *t, struct tm_event *v, size_t n,
    long long dropped, char **why)
{
	sqlite3_stmt	*s = t->ins;
	char		 sql[160];
	size_t		 i;

	if (exec(t->db, t->path, "BEGIN IMMEDIATE", NULL) != 0)
		return write_fail(t, why);
	for (i = 0; i < n; i++) {
		sqlite3_reset(s);
		sqlite3_clear_bindings(s);
		sqlite3_bind_double(s, 1, v[i].ts);
		sqlite3_bind_text(s, 2, tm_kind_names[v[i].kind], -1,
		    SQLITE_STATIC);
		sqlite3_bind_text(s, 3, v[i].session, -1, SQLITE_STATIC);
		sqlite3_bind_text(s, 4, v[i].client, -1, SQLITE_STATIC);
		sqlite3_bind_text(s, 5, v[i].query, -1, SQLITE_STATIC);
		sqlite3_bind_text(s, 6, v[i].skill, -1, SQLITE_STATIC);
		if (v[i].has_top1)
			sqlite3_bind_double(s, 7, v[i].top1);
		if (v[i].has_n)
			sqlite3_bind_int64(s, 8, v[i].n_results);
		sqlite3_bind_double(s, 9, v[i].latency_ms);
		sqlite3_bind_text(s, 10, v[i].trust, -1, SQLITE_STATIC);
		if (v[i].found >= 0)
			sqlite3_bind_int(s, 11, v[i].found);
		sqlite3_bind_text(s, 12, v[i].detail, -1, SQLITE_STATIC);
		sqlite3_bind_text(s, 13, v[i].replica, -1, SQLITE_STATIC);
		if (sqlite3_step(s) != SQLITE_DONE) {
			write_fail(t, why);
			sqlite3_reset(s);
			return -1;
		}
	}
	sqlite3_reset(s);
	if (dropped > 0) {
		snprintf(sql, sizeof sql, "UPDATE meta SET value = CAST(value "
		    "AS INTEGER) + %lld WHERE key = 'write_failures'", dropped);
		if (exec(t->db, t->path, sql, NULL) != 0)
			return write_fail(t, why);
	}
	if (exec(t->db, t->path, "COMMIT", NULL) != 0)
		return write_fail(t, why);
	return 0;
}

/*
 * The lost-events side file. A full disk that refuses stats.db's pages
 * refuses new pages of any file, so appending a record when the loss
 * happens would fail just the same; nor can the count wait in memory for
 * space to come back (a CLI search exits at once). The file is therefore
 * one fixed-size record, created while there is space (when telemetry
 * opens stats.db) and then rewritten in place: overwriting bytes of a
 * block it already has needs no new space (tmpfs, ext4, xfs; a
 * copy-on-write file system may still refuse). Writers of several
 * processes add to it under an fcntl() lock, which takes no space either.
 * The count only grows: it is what was lost, not what is pending.
 */
#define TM_LOST_REC	32	/* "lost %26lld\n" */

static atomic_flag	 lost_warned = ATOMIC_FLAG_INIT;	/* once a process */

char *
telemetry_lost_path(const char *db_path)
{
	char	*p;

	xasprintf(&p, "%s-lost", db_path);
	return p;
}

/* The count in an open side file's record, 0 when short or malformed. */
static long long
lost_parse(int fd)
{
	char		 rec[TM_LOST_REC + 1];
	char		*end;
	long long	 v;
	ssize_t		 r;

	r = pread(fd, rec, TM_LOST_REC, 0);
	if (r != TM_LOST_REC || strncmp(rec, "lost ", 5) != 0)
		return 0;
	rec[TM_LOST_REC] = '\0';
	errno = 0;
	v = strtoll(rec + 5, &end, 10);
	if (errno != 0 || *end != '\n' || v < 0)
		return 0;
	return v;
}

long long
telemetry_lost_read(const char *db_path)
{
	char		*p;
	long long	 v = 0;
	int		 fd;

	if (db_path == NULL)
		return 0;
	p = telemetry_lost_path(db_path);
	if ((fd = open(p, O_RDONLY | O_CLOEXEC)) != -1) {
		v = lost_parse(fd);
		close(fd);
	}
	free(p);
	return v;
}

int
telemetry_lost_add(const char *db_path, long long n)
{
	struct flock	 lk;
	struct stat	 sb;
	char		 rec[TM_LOST_REC + 1];
	char		*p;
	int		 fd, rv = -1, e;

	p = telemetry_lost_path(db_path);
	fd = open(p, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	free(p);
	if (fd == -1)
		return -1;
	memset(&lk, 0, sizeof lk);
	lk.l_type = F_WRLCK;
	lk.l_whence = SEEK_SET;
	if (fcntl(fd, F_SETLKW, &lk) == -1 || fstat(fd, &sb) == -1)
		goto out;
	if (n == 0 && sb.st_size == TM_LOST_REC) {
		rv = 0;		/* only making sure it exists */
		goto out;
	}
	snprintf(rec, sizeof rec, "lost %26lld\n", lost_parse(fd) + n);
	if (pwrite(fd, rec, TM_LOST_REC, 0) == TM_LOST_REC)
		rv = 0;
	else if (errno == 0)
		errno = ENOSPC;
out:
	e = errno;
	close(fd);	/* releases the lock */
	errno = e;
	return rv;
}

/*
 * Stores the lost count that meta could not (SQLite): in the side file.
 * Called and returns with t->mu held; once per process, says on stderr
 * that events are being lost.
 */
static void
lost_save(struct telemetry *t)
{
	long long	 d = t->failures - t->failures_saved;
	int		 ok;

	if (t->backend != TELEMETRY_BACKEND_SQLITE || d <= 0)
		return;
	pthread_mutex_unlock(&t->mu);
	ok = telemetry_lost_add(t->path, d) == 0;
	pthread_mutex_lock(&t->mu);
	if (ok)
		t->failures_saved += d;
	if (!atomic_flag_test_and_set(&lost_warned))
		fprintf(stderr, "skills-radar: telemetry: %s; events are being "
		    "lost (%lld so far, %s)\n", t->last_error != NULL ?
		    t->last_error : t->path, t->failures, ok ? "counted for "
		    "doctor" : "the count could not be stored");
}

static char	*query_hash(const struct telemetry *, const char *);

/* Replaces the normalised queries of v[0..n) by their hash (hash mode). */
static void
hash_queries(struct telemetry *t, struct tm_event *v, size_t n)
{
	char	*h;
	size_t	 i;

	if (t->mode != TELEMETRY_QUERIES_HASH)
		return;
	for (i = 0; i < n; i++) {
		if (v[i].hashed || v[i].query == NULL)
			continue;
		h = query_hash(t, v[i].query);
		free(v[i].query);
		v[i].query = h;
		v[i].hashed = 1;
	}
}

/* Sleeps up to ms unless stop is set; called and returns with t->mu held. */
static void
nap(struct telemetry *t, unsigned ms)
{
	struct timespec	 until;

	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += ms / 1000;
	until.tv_nsec += (long)(ms % 1000) * 1000000L;
	if (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
	if (!t->stop)
		pthread_cond_timedwait(&t->work, &t->mu, &until);
}

/*
 * Group commit: before a write, waits up to TM_LINGER_MS for more events
 * to share its transaction, unless the batch is full or someone waits
 * for it. A process writing event by event would otherwise take the
 * write lock once per event; several such processes keep it held nearly
 * all the time, and one that waits only gets it by luck. t->mu held.
 */
static void
linger(struct telemetry *t)
{
	struct timespec	 until;

	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_nsec += TM_LINGER_MS * 1000000L;
	if (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
	while (!t->stop && t->flushing == 0 && t->n < TM_BATCH_MAX)
		if (pthread_cond_timedwait(&t->work, &t->mu, &until) ==
		    ETIMEDOUT)
			break;
}

/* Notes a change of reachability (with -v, on stderr). t->mu held. */
static void
set_down(struct telemetry *t, int down, char *why)
{
	if (down && !t->down && t->verbose)
		fprintf(stderr, "skills-radar: telemetry: %s; buffering up to "
		    "%zu events\n", why != NULL ? why : "write failed", t->cap);
	else if (!down && t->down && t->verbose)
		fprintf(stderr, "skills-radar: telemetry: %s reachable again "
		    "(%lld events dropped so far)\n", t->path, t->failures);
	if (why != NULL) {
		free(t->last_error);
		t->last_error = why;
	}
	t->down = down;
}

/*
 * One attempt at the oldest n queued events (left in the ring: producers
 * only append behind them). 0 when written, -1 when the database is
 * away or busy, -2 when it refused the rows (no use trying again).
 */
static int
write_some(struct telemetry *t, struct tm_event *batch, size_t n,
    long long dropped, char **why)
{
	int	 rc;

	if (t->backend == TELEMETRY_BACKEND_POSTGRES) {
		if (tm_pg_ready(t->pg, t->key, why) != 0)
			return -1;
		t->have_key = 1;
		hash_queries(t, batch, n);
		if ((rc = tm_pg_write(t->pg, batch, n, dropped, why)) != 0)
			return rc;
		tm_pg_prune(t->pg, t->retention_days);
		return 0;
	}
	if (t->dead) {
		*why = xstrdup(t->last_error);
		return -2;
	}
	hash_queries(t, batch, n);
	if (sqlite_write(t, batch, n, dropped, why) != 0)
		return -1;
	prune(t);
	return 0;
}

/*
 * Whether the last failed write is worth waiting out: a PostgreSQL
 * server away, or a stats.db whose write lock others held for all of
 * TM_BUSY_MS. Any other SQLite failure means the file is broken.
 */
static int
away(const struct telemetry *t)
{
	return t->backend == TELEMETRY_BACKEND_POSTGRES || t->busy;
}

/*
 * The writer thread. Takes up to TM_BATCH_MAX events from the front of
 * the ring and writes them; the slots are released only once written, so
 * telemetry.buffer_events bounds everything held in memory. A database
 * away (see away()) is retried with backoff (100 ms doubling to 2 s) for
 * as long as the process runs, while new events beyond the bound are
 * dropped and counted; at close, one still away after TM_TRIES attempts
 * loses what is left. A broken stats.db: a batch that fails TM_TRIES
 * times is counted lost.
 */
static void *
writer(void *arg)
{
	struct telemetry	*t = arg;
	struct tm_event		*batch;
	long long		 dropped, parked = -1;
	size_t			 n, i, at;
	unsigned		 backoff = 100;
	int			 tries = 0, rc;
	char			*why;

	batch = xreallocarray(NULL, TM_BATCH_MAX, sizeof *batch);
	if (t->backend == TELEMETRY_BACKEND_SQLITE && !t->dead)
		prune(t);	/* PostgreSQL: once connected */
	pthread_mutex_lock(&t->mu);
	for (;;) {
		/* Work: events, or a dropped count to store (unless parked). */
		while (t->n == 0 && !t->stop &&
		    (t->failures == t->failures_saved ||
		    t->failures == parked))
			pthread_cond_wait(&t->work, &t->mu);
		if (t->n == 0 && t->stop && (t->failures == t->failures_saved ||
		    tries >= TM_TRIES))
			break;
		if (tries == 0)
			linger(t);
		n = t->n < TM_BATCH_MAX ? t->n : TM_BATCH_MAX;
		for (i = 0, at = t->head; i < n; i++) {
			batch[i] = t->ring[at];
			at = (at + 1) % t->cap;
		}
		dropped = t->failures - t->failures_saved;
		pthread_mutex_unlock(&t->mu);

		why = NULL;
		rc = write_some(t, batch, n, dropped, &why);

		pthread_mutex_lock(&t->mu);
		/* hash_queries() changed the copies: keep them in the ring. */
		for (i = 0, at = t->head; i < n; i++) {
			t->ring[at] = batch[i];
			at = (at + 1) % t->cap;
		}
		if (rc == 0) {
			free(why);
			set_down(t, 0, NULL);
			t->failures_saved += dropped;
			tries = 0;
			backoff = 100;
		} else {
			if (rc == -2) {
				/* Refused, not away: these rows are lost. */
				if (t->verbose)
					fprintf(stderr, "skills-radar: "
					    "telemetry: %zu events refused: "
					    "%s\n", n, why != NULL ? why : "?");
				free(why);
				why = NULL;
			}
			set_down(t, rc == -1 || t->dead, why);
			tries++;
			if (rc == -1 && (away(t) ? !t->stop || tries < TM_TRIES :
			    tries < TM_TRIES)) {
				nap(t, away(t) ? backoff : 20U * (unsigned)tries);
				if (backoff < 2000)
					backoff *= 2;
				continue;
			}
			/* Given up on this batch: it is lost. */
			t->failures += (long long)n;
			tries = 0;
			/* Only a count to store: try again with new events. */
			if (n == 0)
				parked = t->failures;
		}
		for (i = 0; i < n; i++) {
			event_done(&t->ring[t->head]);
			t->head = (t->head + 1) % t->cap;
		}
		t->n -= n;
		if (rc == 0)
			t->written += n;
		t->settled += n;
		if (rc != 0)
			lost_save(t);
		pthread_cond_broadcast(&t->done);
		/* Closing and the database is away: the rest is lost too. */
		if ((rc == -1 || t->dead) && t->stop)
			break;
	}
	/* Whatever could not be written is lost: count it. */
	while (t->n > 0) {
		event_done(&t->ring[t->head]);
		t->head = (t->head + 1) % t->cap;
		t->n--;
		t->failures++;
		t->settled++;
	}
	lost_save(t);
	pthread_cond_broadcast(&t->done);
	pthread_mutex_unlock(&t->mu);
	free(batch);
	return NULL;
}

static char *
default_session(void)
{
	char	*s;

	xasprintf(&s, "p%ld-%lx", (long)getpid(), (unsigned long)time(NULL));
	return s;
}

/* telemetry.replica, or the host name. */
static char *
replica_name(const struct config *cfg)
{
	char	 host[256];

	if (cfg->telemetry_replica != NULL && *cfg->telemetry_replica != '\0')
		return xstrdup(cfg->telemetry_replica);
	if (gethostname(host, sizeof host) == -1)
		return xstrdup("localhost");
	host[sizeof host - 1] = '\0';
	return xstrdup(host);
}

/*
 * Opens stats.db, its schema and the insert statement (SQLite); *opened
 * is set once the file is open as a database (what fails after that is
 * the file's content: a newer schema, another program's file).
 */
static int
open_sqlite(struct telemetry *t, char **cause, int *opened)
{
	int	 rv;

	if (buf_mkparents(t->path, 0700) == -1) {
		xasprintf(cause, "%s: cannot create its directory: %s",
		    t->path, sqlro_strerror(errno));
		return SR_IO;
	}
	if (sqlite3_open_v2(t->path, &t->db, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK)
		return db_fail(t->db, t->path, "cannot open", cause);
	t->wait_seed = (unsigned)getpid() ^ (unsigned)time(NULL);
	set_wait(t, TM_BUSY_MS);
	if ((rv = exec_open(t->db, t->path, "PRAGMA journal_mode=WAL",
	    cause)) != 0)
		return rv;
	*opened = 1;
	if ((rv = exec(t->db, t->path, "PRAGMA synchronous=NORMAL",
	    cause)) != 0 || (rv = schema(t, cause)) != 0)
		return rv;
	t->have_key = 1;
	/* While there is space: see telemetry_lost_add(). */
	(void)telemetry_lost_add(t->path, 0);
	if (sqlite3_prepare_v2(t->db, "INSERT INTO events (ts, kind, session, "
	    "client, query, skill, top1_score, n_results, latency_ms, trust, "
	    "found, detail, replica) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, "
	    "?9, ?10, ?11, ?12, ?13)", -1, &t->ins, NULL) != SQLITE_OK)
		return db_fail(t->db, t->path, "preparing the insert", cause);
	return 0;
}

static void
handle_free(struct telemetry *t)
{
	sqlite3_finalize(t->ins);
	sqlite3_close(t->db);
	tm_pg_free(t->pg);
	pthread_mutex_destroy(&t->mu);
	pthread_cond_destroy(&t->work);
	pthread_cond_destroy(&t->done);
	free(t->ring);
	free(t->last_error);
	free(t->session);
	free(t->client);
	free(t->replica);
	free(t->path);
	free(t);
}

/*
 * stats.db could not be opened (a directory in its place, a file where
 * its directory should be, no permission): the handle runs on without
 * it, and every event it is given is counted lost in the side file
 * (telemetry_lost_add), where doctor finds it, as on a full disk.
 */
static void
dead_sqlite(struct telemetry *t)
{
	sqlite3_finalize(t->ins);
	t->ins = NULL;
	sqlite3_close(t->db);
	t->db = NULL;
	if (t->last_error == NULL)
		t->last_error = xstrdup(t->path);
	t->dead = t->down = 1;
}

int
telemetry_open(const struct config *cfg, const char *session,
    struct telemetry **out, char **cause)
{
	struct telemetry	*t = NULL;
	int			 rv, opened = 0;

	*out = NULL;
	if (cfg == NULL || !cfg->telemetry_enabled)
		return 0;
	/*
	 * A file-size limit (ulimit -f) must not kill the search whose events
	 * these are: ignored, write() fails with EFBIG and the batch is
	 * counted lost like one on a full disk.
	 */
	signal(SIGXFSZ, SIG_IGN);
	t = xcalloc(1, sizeof *t);
	t->backend = cfg->telemetry_backend;
	t->mode = cfg->store_queries;
	t->retention_days = cfg->retention_days;
	t->session = session != NULL ? xstrdup(session) : default_session();
	t->replica = replica_name(cfg);
	t->cap = cfg->telemetry_buffer > 0 ? (size_t)cfg->telemetry_buffer :
	    TELEMETRY_QUEUE_MAX;
	t->ring = xcalloc(t->cap, sizeof *t->ring);
	pthread_mutex_init(&t->mu, NULL);
	pthread_cond_init(&t->work, NULL);
	pthread_cond_init(&t->done, NULL);

	if (t->backend == TELEMETRY_BACKEND_POSTGRES) {
		/* Only the syntax now: the server may come up later. */
		if ((rv = tm_pg_new(cfg->telemetry_dsn, &t->pg, cause)) != 0)
			goto fail;
		t->path = pg_dsn_redact(cfg->telemetry_dsn);
	} else {
		if (cfg->telemetry_path == NULL ||
		    *cfg->telemetry_path == '\0') {
			xasprintf(cause, "telemetry.db_path is empty");
			rv = SR_CONFIG;
			goto fail;
		}
		t->path = xstrdup(cfg->telemetry_path);
		if ((rv = open_sqlite(t, cause, &opened)) != 0) {
			if (opened)
				goto fail;
			/* No file to write to: count what is lost. */
			t->last_error = *cause;
			*cause = NULL;
			dead_sqlite(t);
		}
	}
	if ((errno = pthread_create(&t->thread, NULL, writer, t)) != 0) {
		xasprintf(cause, "telemetry: cannot start the writer thread: %s",
		    strerror(errno));
		rv = SR_IO;
		goto fail;
	}
	*out = t;
	return 0;
fail:
	handle_free(t);
	return rv;
}

void
telemetry_set_verbose(struct telemetry *t, int verbose)
{
	if (t == NULL)
		return;
	pthread_mutex_lock(&t->mu);
	t->verbose = verbose;
	pthread_mutex_unlock(&t->mu);
}

void
telemetry_set_client(struct telemetry *t, const char *client)
{
	char	*c;

	if (t == NULL)
		return;
	c = xstrdup_or_null(client);
	pthread_mutex_lock(&t->mu);
	free(t->client);
	t->client = c;
	pthread_mutex_unlock(&t->mu);
}

/* Takes the event over: queues it, or counts and frees it when full. */
static void
enqueue(struct telemetry *t, struct tm_event *e, const char *session)
{
	e->ts = now_s();
	if (session != NULL)
		e->session = xstrdup(session);
	pthread_mutex_lock(&t->mu);
	if (session == NULL)
		e->session = xstrdup(t->session);
	e->client = xstrdup_or_null(t->client);
	e->replica = xstrdup(t->replica);
	t->queued++;
	if (t->n == t->cap || t->stop) {
		t->failures++;
		t->settled++;
		pthread_mutex_unlock(&t->mu);
		event_done(e);
		return;
	}
	t->ring[(t->head + t->n) % t->cap] = *e;
	t->n++;
	pthread_cond_signal(&t->work);
	pthread_mutex_unlock(&t->mu);
}

/* Length of the longest prefix of s (n bytes) that ends on a character. */
static size_t
utf8_cut(const char *s, size_t n)
{
	while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
		n--;
	return n;
}

char *
telemetry_query_normal(const char *query)
{
	utf8proc_uint8_t	*m = NULL;
	utf8proc_ssize_t	 r;
	const unsigned char	*p;
	char			*out, *o;
	size_t			 len;
	int			 blank;

	if (query == NULL)
		query = "";
	r = utf8proc_map((const utf8proc_uint8_t *)query, 0, &m,
	    UTF8PROC_NULLTERM | UTF8PROC_STABLE | UTF8PROC_COMPOSE |
	    UTF8PROC_CASEFOLD);
	if (r < 0) {
		/* Invalid UTF-8: keep ASCII, lower-cased; mark the rest. */
		m = (utf8proc_uint8_t *)xstrdup(query);
		for (o = (char *)m; *o != '\0'; o++) {
			if ((unsigned char)*o >= 0x80)
				*o = '?';
			else if (*o >= 'A' && *o <= 'Z')
				*o = (char)(*o - 'A' + 'a');
		}
	}
	out = o = xmalloc(strlen((char *)m) + 1);
	blank = 1;
	for (p = m; *p != '\0'; p++) {
		if (*p == ' ' || (*p >= '\t' && *p <= '\r')) {
			if (!blank)
				*o++ = ' ';
			blank = 1;
			continue;
		}
		*o++ = (char)*p;
		blank = 0;
	}
	if (o > out && o[-1] == ' ')
		o--;
	*o = '\0';
	free(m);
	len = strlen(out);
	if (len > TELEMETRY_QUERY_MAX)
		out[utf8_cut(out, TELEMETRY_QUERY_MAX)] = '\0';
	return out;
}

/*
 * HMAC-SHA256 (RFC 2104, libsodium's) of msg under the database's key,
 * 16 hex digits.
 */
static char *
query_hash(const struct telemetry *t, const char *msg)
{
	uint8_t		 d[crypto_auth_hmacsha256_BYTES];
	char		 hex[2 * 8 + 1], *s;

	_Static_assert(sizeof t->key == crypto_auth_hmacsha256_KEYBYTES,
	    "the query key is an HMAC-SHA256 key");
	crypto_auth_hmacsha256(d, (const unsigned char *)msg, strlen(msg),
	    t->key);
	tm_hex(d, 8, hex);
	xasprintf(&s, "hmac:%s", hex);
	return s;
}

static char *
print_detail(cJSON *d)
{
	char	*s, *r;

	s = cJSON_PrintUnformatted(d);
	cJSON_Delete(d);
	if (s == NULL)
		return NULL;
	r = xstrdup(s);
	cJSON_free(s);
	return r;
}

/*
 * detail.stages: each stage's ran flag, failures and error. The
 * rewritten query is left out on purpose: telemetry.store_queries
 * decides what of a query is kept, and it applies to e.query only.
 */
static void
add_stages(cJSON *d, const cJSON *stages)
{
	const cJSON	*st, *v;
	cJSON		*out, *o;

	out = cJSON_AddObjectToObject(d, "stages");
	cJSON_ArrayForEach(st, stages) {
		if (st->string == NULL)
			continue;
		o = cJSON_AddObjectToObject(out, st->string);
		cJSON_AddBoolToObject(o, "ran", cJSON_IsTrue(
		    cJSON_GetObjectItem(st, "ran")));
		if ((v = cJSON_GetObjectItem(st, "failed")) != NULL &&
		    cJSON_IsNumber(v))
			cJSON_AddNumberToObject(o, "failed", v->valuedouble);
		if ((v = cJSON_GetObjectItem(st, "error")) != NULL &&
		    cJSON_IsString(v))
			cJSON_AddStringToObject(o, "error", v->valuestring);
	}
}

void
telemetry_search(struct telemetry *t, const struct telemetry_search_event *ev)
{
	struct tm_event	 e;
	cJSON		*d, *top;
	size_t		 i;

	if (t == NULL)
		return;
	memset(&e, 0, sizeof e);
	e.kind = TM_SEARCH;
	/* hash mode: the writer hashes it (the key is in the database). */
	if (t->mode != TELEMETRY_QUERIES_NONE)
		e.query = telemetry_query_normal(ev->query);
	e.has_top1 = 1;
	e.top1 = ev->n_results > 0 ? ev->top1 : 0.0;
	e.has_n = 1;
	e.n_results = ev->n_results < 0 ? 0 : ev->n_results;
	e.latency_ms = ev->latency_ms;
	e.found = -1;
	d = cJSON_CreateObject();
	top = cJSON_AddArrayToObject(d, "top");
	for (i = 0; i < ev->n_top && i < TELEMETRY_TOP_MAX; i++) {
		if (ev->top[i] != NULL)
			cJSON_AddItemToArray(top,
			    cJSON_CreateString(ev->top[i]));
	}
	top = cJSON_AddArrayToObject(d, "scores");
	for (i = 0; i < ev->n_top && i < TELEMETRY_SCORES_MAX; i++)
		cJSON_AddItemToArray(top, cJSON_CreateNumber(
		    round(ev->scores[i] * 1e4) / 1e4));
	cJSON_AddBoolToObject(d, "miss", ev->miss != 0);
	cJSON_AddBoolToObject(d, "rewritten", ev->rewritten != 0);
	cJSON_AddBoolToObject(d, "reranked", ev->reranked != 0);
	if (ev->stages != NULL)
		add_stages(d, ev->stages);
	e.detail = print_detail(d);
	enqueue(t, &e, ev->session);
}

void
telemetry_load(struct telemetry *t, const struct telemetry_load_event *ev)
{
	struct tm_event	 e;
	cJSON		*d;

	if (t == NULL)
		return;
	memset(&e, 0, sizeof e);
	e.kind = TM_LOAD;
	/* Count loads by the entry they reached, not by how it was asked. */
	e.skill = xstrdup_or_null(ev->found && ev->resolved != NULL ?
	    ev->resolved : ev->requested);
	e.trust = xstrdup_or_null(ev->trust);
	e.found = ev->found != 0;
	e.latency_ms = ev->latency_ms;
	d = cJSON_CreateObject();
	cJSON_AddStringToObject(d, "requested", ev->requested != NULL ?
	    ev->requested : "");
	if (ev->resolved != NULL)
		cJSON_AddStringToObject(d, "resolved", ev->resolved);
	cJSON_AddNumberToObject(d, "bytes", (double)ev->bytes);
	e.detail = print_detail(d);
	enqueue(t, &e, ev->session);
}

void
telemetry_index(struct telemetry *t, size_t count, double duration_ms,
    const char *trigger)
{
	struct tm_event	 e;
	cJSON		*d;

	if (t == NULL)
		return;
	memset(&e, 0, sizeof e);
	e.kind = TM_INDEX;
	e.has_n = 1;
	e.n_results = (long long)count;
	e.latency_ms = duration_ms;
	e.found = -1;
	d = cJSON_CreateObject();
	cJSON_AddNumberToObject(d, "count", (double)count);
	cJSON_AddStringToObject(d, "trigger", trigger != NULL ? trigger :
	    "cli");
	e.detail = print_detail(d);
	enqueue(t, &e, NULL);
}

long long
telemetry_failures(const struct telemetry *t)
{
	struct telemetry_state	 st;

	telemetry_state(t, &st);
	return st.dropped;
}

void
telemetry_state(const struct telemetry *t, struct telemetry_state *st)
{
	struct telemetry	*m = (struct telemetry *)t;

	memset(st, 0, sizeof *st);
	if (t == NULL)
		return;
	pthread_mutex_lock(&m->mu);
	st->backend = t->backend;
	st->reachable = !t->down;
	st->queued = t->queued;
	st->written = t->written;
	st->pending = t->n;
	st->dropped = t->failures;
	st->capacity = t->cap;
	snprintf(st->error, sizeof st->error, "%s", t->down &&
	    t->last_error != NULL ? t->last_error : "");
	pthread_mutex_unlock(&m->mu);
}

/*
 * Waits until every event queued so far is written or counted as failed;
 * on PostgreSQL at most TM_FLUSH_MS while the server is unreachable.
 */
void
telemetry_flush(struct telemetry *t)
{
	struct timespec		 until;
	unsigned long long	 target;

	if (t == NULL)
		return;
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += TM_FLUSH_MS / 1000;
	pthread_mutex_lock(&t->mu);
	target = t->queued;
	t->flushing++;
	pthread_cond_signal(&t->work);
	while (t->settled < target) {
		if (!t->down) {
			pthread_cond_wait(&t->done, &t->mu);
			continue;
		}
		if (pthread_cond_timedwait(&t->done, &t->mu, &until) ==
		    ETIMEDOUT)
			break;
	}
	t->flushing--;
	pthread_mutex_unlock(&t->mu);
}

void
telemetry_close(struct telemetry *t)
{
	if (t == NULL)
		return;
	pthread_mutex_lock(&t->mu);
	t->stop = 1;
	pthread_cond_signal(&t->work);
	pthread_mutex_unlock(&t->mu);
	pthread_join(t->thread, NULL);
	if (t->verbose)
		fprintf(stderr, "skills-radar: telemetry: %llu events written "
		    "to %s, %lld dropped%s\n", t->written, t->path, t->failures,
		    t->failures > t->failures_saved ? " (the count could not "
		    "be stored)" : "");
	handle_free(t);
}

int
telemetry_meta_set(const struct config *cfg, const char *key,
    const char *value, int *changed, char **cause)
{
	struct tm_pg	*g = NULL;
	sqlite3		*db = NULL;
	sqlite3_stmt	*st = NULL;
	uint8_t		 k[32];
	int		 rv;

	*changed = 0;
	*cause = NULL;
	if (cfg->telemetry_backend == TELEMETRY_BACKEND_POSTGRES) {
		if ((rv = tm_pg_new(cfg->telemetry_dsn, &g, cause)) != 0)
			return rv;
		rv = tm_pg_ready(g, k, cause) == 0 &&
		    tm_pg_meta_set(g, key, value, cause) == 0 ? 0 : SR_IO;
		tm_pg_free(g);
		*changed = rv == 0;
		return rv;
	}
	if (access(cfg->telemetry_path, F_OK) == -1 && errno == ENOENT)
		return 0;
	if (sqlite3_open_v2(cfg->telemetry_path, &db, SQLITE_OPEN_READWRITE,
	    NULL) != SQLITE_OK) {
		rv = db_fail(db, cfg->telemetry_path, "cannot open", cause);
		goto out;
	}
	sqlite3_busy_timeout(db, TM_BUSY_MS);
	if (sqlite3_prepare_v2(db, "INSERT OR REPLACE INTO meta (key, value) "
	    "VALUES (?1, ?2)", -1, &st, NULL) != SQLITE_OK) {
		rv = db_fail(db, cfg->telemetry_path, "not a stats database",
		    cause);
		goto out;
	}
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, value, -1, SQLITE_STATIC);
	if (sqlite3_step(st) != SQLITE_DONE) {
		rv = db_fail(db, cfg->telemetry_path, "writing meta", cause);
		goto out;
	}
	*changed = 1;
	rv = 0;
out:
	sqlite3_finalize(st);
	sqlite3_close(db);
	return rv;
}
