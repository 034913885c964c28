/*
 * The SQLite backend of the store (store.h): index.db in WAL mode, the
 * schema version in PRAGMA user_version.
 */
#include "autoconfig.h"

#include <sys/stat.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <sqlite3.h>

#include "base/buf.h"
#include "base/sqlro.h"
#include "base/status.h"
#include "store/store.h"
#include "store/store_backend.h"
#include "base/xmalloc.h"

struct store_sqlite {
	struct store	 base;
	sqlite3		*db;
	char		*path;
	/* Why the file was opened as a read-only snapshot, or NULL. */
	char		*readonly;
	/* A write's statements, prepared once per write (end_write). */
	sqlite3_stmt	*put, *untomb, *del, *tomb;
};

static const struct store_ops sqlite_ops;
static void	 sq_close(struct store *);

static const char *migrations[] = {
	STORE_SCHEMA_V1("INTEGER PRIMARY KEY", "INTEGER"),
	STORE_SCHEMA_V2("INTEGER"),
	STORE_SCHEMA_V3,
	STORE_SCHEMA_V4("REAL")
};

#define SQ(st)	((struct store_sqlite *)(st))

/* The reason of the last error; a write to a snapshot says why it is one. */
static const char *
why(struct store_sqlite *st, const char *msg)
{
	if (st->readonly != NULL &&
	    (sqlite3_errcode(st->db) & 0xff) == SQLITE_READONLY)
		return st->readonly;
	return sqlro_why(st->db, msg);
}

static int
db_fail(struct store_sqlite *st, const char *what, char **cause)
{
	if (cause != NULL)
		xasprintf(cause, "%s: %s: %s", st->path, what, why(st, NULL));
	return SR_IO;
}

static int
exec(struct store_sqlite *st, const char *sql, char **cause)
{
	char	*msg = NULL;

	if (sqlite3_exec(st->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		if (cause != NULL)
			xasprintf(cause, "%s: %s", st->path,
			    why(st, msg ? msg : "error"));
		sqlite3_free(msg);
		return SR_IO;
	}
	return 0;
}

static int
migrate(struct store_sqlite *st, char **cause)
{
	sqlite3_stmt	*stmt;
	int		 v = 0, rv, n;
	char		 sql[160];

	n = (int)(sizeof migrations / sizeof migrations[0]);
	if (sqlite3_prepare_v2(st->db, "PRAGMA user_version", -1, &stmt,
	    NULL) != SQLITE_OK)
		return db_fail(st, "reading the schema version", cause);
	if (sqlite3_step(stmt) == SQLITE_ROW)
		v = sqlite3_column_int(stmt, 0);
	sqlite3_finalize(stmt);
	if (v == n)
		return 0;
	if (v > n) {
		xasprintf(cause, "%s: schema version %d is newer than this "
		    "program's %d: upgrade skills-radar or remove the file",
		    st->path, v, n);
		return SR_IO;
	}
	if ((rv = exec(st, "BEGIN IMMEDIATE", cause)) != 0)
		return rv;
	for (; v < n; v++) {
		if ((rv = exec(st, migrations[v], cause)) != 0) {
			exec(st, "ROLLBACK", NULL);
			return rv;
		}
	}
	/* The version in meta too, where the postgres backend keeps it. */
	snprintf(sql, sizeof sql, "PRAGMA user_version = %d;"
	    " INSERT OR REPLACE INTO meta (key, value) VALUES ('schema', '%d')",
	    n, n);
	if ((rv = exec(st, sql, cause)) != 0) {
		exec(st, "ROLLBACK", NULL);
		return rv;
	}
	return exec(st, "COMMIT", cause);
}

/*
 * The first use failed for want of space or permission (typically the
 * -shm of a WAL file on a full disk): read the file as a snapshot, as
 * long as its schema is current (there is no upgrading it now). Writes
 * then fail with the first reason. Returns 0, or -1 to report the first
 * error.
 */
static int
open_snapshot(struct store_sqlite *st)
{
	sqlite3		*db;
	sqlite3_stmt	*stmt;
	int		 v = -1;

	if (sqlro_open_snapshot(st->path, &db) != SQLITE_OK)
		return -1;
	if (sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &stmt,
	    NULL) == SQLITE_OK && sqlite3_step(stmt) == SQLITE_ROW)
		v = sqlite3_column_int(stmt, 0);
	sqlite3_finalize(stmt);
	if (v != (int)(sizeof migrations / sizeof migrations[0])) {
		sqlite3_close(db);
		return -1;
	}
	xasprintf(&st->readonly, "%s (opened read-only)",
	    sqlro_why(st->db, NULL));
	sqlite3_close(st->db);
	st->db = db;
	return 0;
}

int
store_open(const char *path, int readonly, struct store **out, char **cause)
{
	struct store_sqlite	*st;
	int			 flags, rv;

	*out = NULL;
	if (readonly && access(path, F_OK) == -1) {
		xasprintf(cause, "%s: no index yet (run 'skills-radar index')",
		    path);
		return SR_NOTFOUND;
	}
	if (!readonly && buf_mkparents(path, 0700) == -1) {
		xasprintf(cause, "%s: cannot create its directory: %s", path,
		    sqlro_strerror(errno));
		return SR_IO;
	}
	st = xcalloc(1, sizeof *st);
	store_base_init(&st->base, &sqlite_ops, path);
	st->path = st->base.where;
	/*
	 * One handle is used by one thread at a time (store.h): no mutex
	 * around every call, which a load makes some 30 of per entry.
	 */
	flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX;
	if (!readonly)
		flags |= SQLITE_OPEN_CREATE;
	if (sqlite3_open_v2(path, &st->db, flags, NULL) != SQLITE_OK) {
		rv = db_fail(st, "cannot open", cause);
		sq_close(&st->base);
		return rv;
	}
	sqlite3_busy_timeout(st->db, 5000);
	if ((rv = exec(st, "PRAGMA journal_mode=WAL", cause)) != 0 ||
	    (rv = exec(st, "PRAGMA synchronous=NORMAL", cause)) != 0 ||
	    (rv = migrate(st, cause)) != 0) {
		if (!sqlro_fallback(st->db) || open_snapshot(st) != 0) {
			sq_close(&st->base);
			return rv;
		}
		if (cause != NULL) {
			free(*cause);
			*cause = NULL;
		}
	}
	*out = &st->base;
	return 0;
}

static void
sq_close(struct store *base)
{
	struct store_sqlite	*st = SQ(base);

	sqlite3_close(st->db);
	free(st->readonly);
	store_base_done(base);
	free(st);
}

static char *
col_str(sqlite3_stmt *stmt, int i)
{
	const unsigned char	*t = sqlite3_column_text(stmt, i);

	return t != NULL ? xstrdup((const char *)t) : NULL;
}

static const char *
col_text(sqlite3_stmt *stmt, int i)
{
	return (const char *)sqlite3_column_text(stmt, i);
}

/*
 * Reads the entries a statement selects (STORE_ENTRY_COLS or its lean
 * form, then id) into set, through the row reader the postgres backend
 * uses too: text columns as text, numeric ones as numbers (no conversion
 * to text and back).
 */
static int
read_entries(struct store_sqlite *st, sqlite3_stmt *stmt, int lean,
    struct skill_set *set, char **cause)
{
	static const int	 ints[] = STORE_COL_INTS;
	struct skill		*s;
	struct store_in		 in;
	char			 num[STORE_NCOLS];
	size_t			 k;
	int			 rc, j;

	memset(&in, 0, sizeof in);
	in.typed = 1;
	memset(num, 0, sizeof num);
	for (k = 0; k < sizeof ints / sizeof ints[0]; k++)
		num[ints[k]] = 1;
	num[STORE_COL_RISK] = 1;
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		for (j = 0; j < STORE_NCOLS; j++) {
			if (!num[j])
				in.v[j] = col_text(stmt, j);
			else if (j == STORE_COL_RISK)
				in.risk = sqlite3_column_double(stmt, j);
			else
				in.i[j] = sqlite3_column_int64(stmt, j);
		}
		if ((s = store_row_skill(&in)) == NULL)
			continue;
		s->id = sqlite3_column_int64(stmt, STORE_NCOLS);
		s->lean = lean;
		skill_set_add(set, s);
	}
	if (rc != SQLITE_DONE)
		return db_fail(st, "reading entries", cause);
	return 0;
}

/* Selects entries (lean: STORE_ENTRY_COLS_LEAN) with where's ?1 bound
 * to since (>= 0) or to key (not NULL). */
static int
select_entries(struct store_sqlite *st, const char *where, int lean,
    int64_t since, const char *key, struct skill_set *set, char **cause)
{
	sqlite3_stmt	*stmt;
	char		*sql;
	int		 rv;

	xasprintf(&sql, "SELECT %s, id FROM entries%s", lean ?
	    STORE_ENTRY_COLS_LEAN : STORE_ENTRY_COLS, where);
	rv = sqlite3_prepare_v2(st->db, sql, -1, &stmt, NULL);
	free(sql);
	if (rv != SQLITE_OK)
		return db_fail(st, "reading entries", cause);
	if (since >= 0)
		sqlite3_bind_int64(stmt, 1, since);
	else if (key != NULL)
		sqlite3_bind_text(stmt, 1, key, -1, SQLITE_STATIC);
	rv = read_entries(st, stmt, lean, set, cause);
	sqlite3_finalize(stmt);
	return rv;
}

static int
sq_load(struct store *base, struct skill_set *set, int flags, char **cause)
{
	struct store_sqlite	*st = SQ(base);
	int			 rv;

	/*
	 * Read through a mapping for this scan (no copy per page); it is
	 * switched off again so that writers never run with one.
	 */
	sqlite3_exec(st->db, "PRAGMA mmap_size=268435456", NULL, NULL, NULL);
	rv = select_entries(st, " ORDER BY id", (flags & STORE_LEAN) != 0, -1,
	    NULL, set, cause);
	sqlite3_exec(st->db, "PRAGMA mmap_size=0", NULL, NULL, NULL);
	if (rv == 0)
		store_order(set);	/* rows rewritten in place move */
	return rv;
}

static int
sq_get(struct store *base, const char *path, struct skill **out,
    char **cause)
{
	struct skill_set	 set;
	int			 rv;

	skill_set_init(&set);
	rv = select_entries(SQ(base), " WHERE path = ?1", 0, -1, path, &set,
	    cause);
	if (rv == 0 && set.n > 0) {
		*out = set.v[0];
		set.n = 0;	/* taken */
	}
	skill_set_done(&set);
	return rv;
}

static int
sq_load_rejects(struct store *base, struct store_rejects *r, char **cause)
{
	struct store_sqlite	*st = SQ(base);
	sqlite3_stmt		*stmt;
	int			 rc;

	if (sqlite3_prepare_v2(st->db, "SELECT path, size, mtime_ns, hash,"
	    " rule, reason, skipped FROM rejected ORDER BY path", -1, &stmt,
	    NULL) != SQLITE_OK)
		return db_fail(st, "reading rejected files", cause);
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		store_rejects_add(r, col_text(stmt, 0),
		    sqlite3_column_int64(stmt, 1), sqlite3_column_int64(stmt, 2),
		    col_text(stmt, 3), col_text(stmt, 4), col_text(stmt, 5),
		    sqlite3_column_int(stmt, 6));
	}
	sqlite3_finalize(stmt);
	if (rc != SQLITE_DONE)
		return db_fail(st, "reading rejected files", cause);
	return 0;
}

static int
sq_count(struct store *base, struct store_counts *c, char **cause)
{
	struct store_sqlite	*st = SQ(base);
	sqlite3_stmt		*stmt;
	int			 rc;

	if (sqlite3_prepare_v2(st->db, STORE_COUNTS_SQL, -1, &stmt,
	    NULL) != SQLITE_OK)
		return db_fail(st, "counting entries", cause);
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW)
		store_counts_add(c, col_text(stmt, 0), col_text(stmt, 1),
		    col_text(stmt, 2), col_text(stmt, 3), col_text(stmt, 4));
	sqlite3_finalize(stmt);
	if (rc != SQLITE_DONE)
		return db_fail(st, "counting entries", cause);
	return 0;
}

static int
sq_begin_read(struct store *base, char **cause)
{
	return exec(SQ(base), "BEGIN", cause);
}

static void
sq_end_read(struct store *base)
{
	exec(SQ(base), "COMMIT", NULL);
}

static int
sq_since(struct store *base, int64_t since, struct skill_set *up,
    char **cause)
{
	return select_entries(SQ(base), " WHERE version > ?1", 0, since, NULL,
	    up, cause);
}

static int
sq_tombs(struct store *base, int64_t since, struct strlist *removed,
    char **cause)
{
	struct store_sqlite	*st = SQ(base);
	sqlite3_stmt		*stmt;
	int			 rc;

	if (sqlite3_prepare_v2(st->db, "SELECT path FROM tombstones WHERE"
	    " version > ?1", -1, &stmt, NULL) != SQLITE_OK)
		return db_fail(st, "reading tombstones", cause);
	sqlite3_bind_int64(stmt, 1, since);
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW)
		strlist_add(removed, col_text(stmt, 0));
	sqlite3_finalize(stmt);
	return rc == SQLITE_DONE ? 0 : db_fail(st, "reading tombstones", cause);
}

static int
sq_begin_write(struct store *base, char **cause)
{
	if (SQ(base)->readonly != NULL) {
		xasprintf(cause, "%s: %s", SQ(base)->path, SQ(base)->readonly);
		return SR_IO;
	}
	return exec(SQ(base), "BEGIN IMMEDIATE", cause);
}

static int
sq_olds(struct store *base, struct store_olds *o, char **cause)
{
	struct store_sqlite	*st = SQ(base);
	sqlite3_stmt		*stmt;
	int			 rc;

	if (sqlite3_prepare_v2(st->db, "SELECT path, rowhash FROM entries",
	    -1, &stmt, NULL) != SQLITE_OK)
		return db_fail(st, "reading entries", cause);
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW)
		store_olds_add(o, col_text(stmt, 0), col_text(stmt, 1));
	sqlite3_finalize(stmt);
	if (rc != SQLITE_DONE)
		return db_fail(st, "reading entries", cause);
	return 0;
}

static void
bind_text(sqlite3_stmt *stmt, int i, const char *s)
{
	if (s == NULL)
		sqlite3_bind_null(stmt, i);
	else
		sqlite3_bind_text(stmt, i, s, -1, SQLITE_TRANSIENT);
}

/*
 * Runs sql with the text parameters v[0..n-1] (NULL: SQL NULL), through
 * *cache when given: prepared on first use, kept until end_write.
 */
static int
run(struct store_sqlite *st, sqlite3_stmt **cache, const char *sql,
    const char *const *v, int n, const char *what, char **cause)
{
	sqlite3_stmt	*stmt = cache != NULL ? *cache : NULL;
	int		 i, rc;

	if (stmt == NULL && sqlite3_prepare_v2(st->db, sql, -1, &stmt,
	    NULL) != SQLITE_OK)
		return db_fail(st, what, cause);
	for (i = 0; i < n; i++)
		bind_text(stmt, i + 1, v[i]);
	rc = sqlite3_step(stmt);
	if (cache != NULL) {
		*cache = stmt;
		sqlite3_reset(stmt);
	} else
		sqlite3_finalize(stmt);
	return rc == SQLITE_DONE ? 0 : db_fail(st, what, cause);
}

static int
sq_put(struct store *base, const struct store_row *r, int64_t version,
    char **cause)
{
	struct store_sqlite	*st = SQ(base);
	const char		*v[STORE_NCOLS + 2];
	char			 ver[24];
	int			 rv;

	memcpy(v, r->v, sizeof r->v);
	snprintf(ver, sizeof ver, "%lld", (long long)version);
	v[STORE_NCOLS] = ver;
	v[STORE_NCOLS + 1] = r->rowhash;
	/* Integer columns take the text by affinity. */
	if ((rv = run(st, &st->put, "INSERT INTO entries (" STORE_ENTRY_COLS
	    ", version, rowhash) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,"
	    "?,?,?,?,?,?,?,?,?,?,?,?,?,?) ON CONFLICT(path) DO UPDATE SET "
	    STORE_UPSERT_SET, v, STORE_NCOLS + 2, r->v[STORE_COL_PATH],
	    cause)) != 0)
		return rv;
	return run(st, &st->untomb, "DELETE FROM tombstones WHERE path = ?",
	    &r->v[STORE_COL_PATH], 1, r->v[STORE_COL_PATH], cause);
}

static int
sq_drop(struct store *base, const char *path, int64_t version, char **cause)
{
	struct store_sqlite	*st = SQ(base);
	const char		*v[2];
	char			 ver[24];
	int			 rv;

	snprintf(ver, sizeof ver, "%lld", (long long)version);
	v[0] = path;
	v[1] = ver;
	if ((rv = run(st, &st->del, "DELETE FROM entries WHERE path = ?", v, 1, path,
	    cause)) != 0)
		return rv;
	return run(st, &st->tomb, "INSERT OR REPLACE INTO tombstones (path, version)"
	    " VALUES (?, CAST(? AS INTEGER))", v, 2, path, cause);
}

static int
sq_put_rejects(struct store *base, const struct store_rejects *rej,
    int replace, char **cause)
{
	struct store_sqlite	*st = SQ(base);
	sqlite3_stmt		*rins;
	size_t			 i;
	int			 rv = 0;

	if (replace && (rv = exec(st, "DELETE FROM rejected", cause)) != 0)
		return rv;
	if (rej == NULL || rej->n == 0)
		return 0;
	if (sqlite3_prepare_v2(st->db, "INSERT OR REPLACE INTO rejected (path,"
	    " size, mtime_ns, hash, rule, reason, skipped) VALUES"
	    " (?,?,?,?,?,?,?)", -1, &rins, NULL) != SQLITE_OK)
		return db_fail(st, "preparing the index update", cause);
	for (i = 0; i < rej->n; i++) {
		sqlite3_reset(rins);
		bind_text(rins, 1, rej->v[i].path);
		sqlite3_bind_int64(rins, 2, rej->v[i].size);
		sqlite3_bind_int64(rins, 3, rej->v[i].mtime_ns);
		bind_text(rins, 4, rej->v[i].hash);
		bind_text(rins, 5, rej->v[i].rule);
		bind_text(rins, 6, rej->v[i].reason);
		sqlite3_bind_int(rins, 7, rej->v[i].skipped);
		if (sqlite3_step(rins) != SQLITE_DONE) {
			rv = db_fail(st, rej->v[i].path, cause);
			break;
		}
	}
	sqlite3_finalize(rins);
	return rv;
}

static int
sq_drop_reject(struct store *base, const char *path, char **cause)
{
	return run(SQ(base), NULL, "DELETE FROM rejected WHERE path = ?", &path,
	    1, path, cause);
}

static int
sq_prune(struct store *base, int64_t floor, char **cause)
{
	char	 sql[80];

	snprintf(sql, sizeof sql, "DELETE FROM tombstones WHERE version <= %lld",
	    (long long)floor);
	return exec(SQ(base), sql, cause);
}

static int
sq_end_write(struct store *base, int commit, int64_t notify, char **cause)
{
	struct store_sqlite	*st = SQ(base);

	(void)notify;	/* readers poll the counter */
	sqlite3_finalize(st->put);
	sqlite3_finalize(st->untomb);
	sqlite3_finalize(st->del);
	sqlite3_finalize(st->tomb);
	st->put = st->untomb = st->del = st->tomb = NULL;
	return exec(st, commit ? "COMMIT" : "ROLLBACK", cause);
}

static int
sq_listen(struct store *base, char **cause)
{
	xasprintf(cause, "%s: SQLite has no notifications (poll the counter)",
	    base->where);
	return SR_IO;
}

static int
sq_wait(struct store *base, int timeout_ms, int wake_fd, char **cause)
{
	(void)timeout_ms;
	(void)wake_fd;
	return sq_listen(base, cause);
}

static char *
sq_meta_get(struct store *base, const char *key)
{
	struct store_sqlite	*st = SQ(base);
	sqlite3_stmt		*stmt;
	char			*v = NULL;

	if (sqlite3_prepare_v2(st->db, "SELECT value FROM meta WHERE key = ?",
	    -1, &stmt, NULL) != SQLITE_OK)
		return NULL;
	sqlite3_bind_text(stmt, 1, key, -1, SQLITE_STATIC);
	if (sqlite3_step(stmt) == SQLITE_ROW)
		v = col_str(stmt, 0);
	sqlite3_finalize(stmt);
	return v;
}

static int
sq_meta_set(struct store *base, const char *key, const char *value,
    char **cause)
{
	const char	*v[2];

	v[0] = key;
	v[1] = value;
	return run(SQ(base), NULL, "INSERT OR REPLACE INTO meta (key, value) VALUES"
	    " (?, ?)", v, 2, "writing meta", cause);
}

static int
sq_report(struct store *base, const char *name, int64_t counter,
    int64_t seen, char **cause)
{
	const char	*v[3];
	char		 c[24], t[24];

	snprintf(c, sizeof c, "%lld", (long long)counter);
	snprintf(t, sizeof t, "%lld", (long long)seen);
	v[0] = name;
	v[1] = c;
	v[2] = t;
	return run(SQ(base), NULL, "INSERT OR REPLACE INTO replicas (name,"
	    " counter, seen) VALUES (?, ?, ?)", v, 3, "recording the replica",
	    cause);
}

static int
sq_replicas(struct store *base, struct store_replica **v, size_t *n,
    char **cause)
{
	struct store_sqlite	*st = SQ(base);
	sqlite3_stmt		*stmt;
	size_t			 cap = 8;
	int			 rc;

	if (sqlite3_prepare_v2(st->db, "SELECT name, counter, seen FROM"
	    " replicas ORDER BY seen DESC, name", -1, &stmt, NULL) != SQLITE_OK)
		return db_fail(st, "reading replicas", cause);
	*v = xcalloc(cap, sizeof **v);
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		if (*n + 1 == cap) {
			cap *= 2;
			*v = xreallocarray(*v, cap, sizeof **v);
		}
		(*v)[*n].name = col_str(stmt, 0);
		(*v)[*n].counter = sqlite3_column_int64(stmt, 1);
		(*v)[*n].seen = sqlite3_column_int64(stmt, 2);
		(*n)++;
	}
	sqlite3_finalize(stmt);
	if (rc != SQLITE_DONE)
		return db_fail(st, "reading replicas", cause);
	return 0;
}

static const struct store_ops sqlite_ops = {
	.name = "sqlite",
	.close = sq_close,
	.load = sq_load,
	.get = sq_get,
	.load_rejects = sq_load_rejects,
	.count = sq_count,
	.begin_read = sq_begin_read,
	.since = sq_since,
	.tombs = sq_tombs,
	.end_read = sq_end_read,
	.begin_write = sq_begin_write,
	.olds = sq_olds,
	.put = sq_put,
	.drop = sq_drop,
	.put_rejects = sq_put_rejects,
	.drop_reject = sq_drop_reject,
	.prune = sq_prune,
	.end_write = sq_end_write,
	.listen = sq_listen,
	.wait = sq_wait,
	.report = sq_report,
	.replicas = sq_replicas,
	.meta_get = sq_meta_get,
	.meta_set = sq_meta_set,
};
