/*
 * The PostgreSQL backend of the store (store.h), on libpq: the same
 * tables as SQLite (entries, rejected, tombstones, meta), the schema
 * version in meta "schema", migrations under an advisory lock so two
 * processes starting together do not race. A write locks the entries
 * table against other writers (readers go on) and announces the new
 * counter with pg_notify() in the same transaction, so a listener is
 * woken exactly when the rows it will read are committed.
 */
#include "autoconfig.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/pgdsn.h"
#include "base/pq.h"
#include "base/status.h"
#include "store/store.h"
#include "store/store_backend.h"
#include "base/xmalloc.h"

struct store_pg {
	struct store	 base;
	PGconn		*conn;
	int		 prepared;	/* sr_put is prepared on conn */
};

static const struct store_ops pg_ops;
static void	 pg_close(struct store *);

#define PG(st)	((struct store_pg *)(st))

/* An arbitrary constant: the advisory lock of the migrations. */
#define MIGRATE_LOCK	"7163205515"

static const char *migrations[] = {
	STORE_SCHEMA_V1("BIGSERIAL PRIMARY KEY", "BIGINT"),
	STORE_SCHEMA_V2("BIGINT"),
	STORE_SCHEMA_V3,
	STORE_SCHEMA_V4("DOUBLE PRECISION")
};

static int
pg_fail(struct store_pg *st, const char *what, PGresult *res, char **cause)
{
	const char	*msg;
	size_t		 n;

	msg = res != NULL && PQresultErrorMessage(res)[0] != '\0' ?
	    PQresultErrorMessage(res) : PQerrorMessage(st->conn);
	n = strlen(msg);
	while (n > 0 && (msg[n - 1] == '\n' || msg[n - 1] == ' '))
		n--;
	if (cause != NULL)
		xasprintf(cause, "postgres (%s): %s: %.*s", st->base.where, what,
		    (int)n, msg);
	PQclear(res);
	return SR_IO;
}

/* Runs sql with text parameters; the result is kept in *out when given. */
static int
q(struct store_pg *st, const char *sql, int n, const char *const *v,
    PGresult **out, const char *what, char **cause)
{
	PGresult	*res;
	int		 s;

	if (out != NULL)
		*out = NULL;
	res = n > 0 ? PQexecParams(st->conn, sql, n, NULL, v, NULL, NULL, 0) :
	    PQexec(st->conn, sql);
	s = res != NULL ? (int)PQresultStatus(res) : PGRES_FATAL_ERROR;
	if (s != PGRES_COMMAND_OK && s != PGRES_TUPLES_OK)
		return pg_fail(st, what, res, cause);
	if (out != NULL)
		*out = res;
	else
		PQclear(res);
	return 0;
}

static const char *
val(PGresult *res, int row, int col)
{
	return PQgetisnull(res, row, col) ? NULL : PQgetvalue(res, row, col);
}

static char *
pg_meta_get(struct store *base, const char *key)
{
	PGresult	*res;
	char		*v = NULL;

	if (q(PG(base), "SELECT value FROM meta WHERE key = $1", 1, &key, &res,
	    "reading meta", NULL) != 0)
		return NULL;
	if (PQntuples(res) == 1 && val(res, 0, 0) != NULL)
		v = xstrdup(val(res, 0, 0));
	PQclear(res);
	return v;
}

static int
pg_meta_set(struct store *base, const char *key, const char *value,
    char **cause)
{
	const char	*v[2];

	v[0] = key;
	v[1] = value;
	return q(PG(base), "INSERT INTO meta (key, value) VALUES ($1, $2)"
	    " ON CONFLICT (key) DO UPDATE SET value = excluded.value", 2, v,
	    NULL, "writing meta", cause);
}

static int
migrate(struct store_pg *st, char **cause)
{
	char	*s, num[16];
	int	 v, n, rv;

	n = (int)(sizeof migrations / sizeof migrations[0]);
	if ((rv = q(st, "BEGIN", 0, NULL, NULL, "migrating", cause)) != 0)
		return rv;
	if ((rv = q(st, "SELECT pg_advisory_xact_lock(" MIGRATE_LOCK ")", 0,
	    NULL, NULL, "migrating", cause)) != 0 ||
	    (rv = q(st, "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY,"
	    " value TEXT)", 0, NULL, NULL, "migrating", cause)) != 0)
		goto fail;
	s = pg_meta_get(&st->base, "schema");
	v = s != NULL ? atoi(s) : 0;
	free(s);
	if (v > n) {
		xasprintf(cause, "postgres (%s): schema version %d is newer than "
		    "this program's %d: upgrade skills-radar", st->base.where, v,
		    n);
		rv = SR_IO;
		goto fail;
	}
	for (; v < n; v++)
		if ((rv = q(st, migrations[v], 0, NULL, NULL, "migrating",
		    cause)) != 0)
			goto fail;
	snprintf(num, sizeof num, "%d", n);
	if ((rv = pg_meta_set(&st->base, "schema", num, cause)) != 0)
		goto fail;
	return q(st, "COMMIT", 0, NULL, NULL, "migrating", cause);
fail:
	q(st, "ROLLBACK", 0, NULL, NULL, "migrating", NULL);
	return rv;
}

/* Server notices (a shutdown's FATAL, IF NOT EXISTS) reach no terminal. */
static void
no_notice(void *arg, const char *msg)
{
	(void)arg;
	(void)msg;
}

int
store_open_pg(const char *dsn, struct store **out, char **cause)
{
	struct store_pg	*st;
	char		*where;
	int		 rv;

	*out = NULL;
	if ((rv = pq_check_dsn(dsn, "store.dsn", cause)) != 0)
		return rv;
	where = pg_dsn_redact(dsn);
	st = xcalloc(1, sizeof *st);
	store_base_init(&st->base, &pg_ops, where);
	free(where);
	st->conn = PQconnectdb(dsn);
	if (st->conn == NULL || PQstatus(st->conn) != CONNECTION_OK) {
		rv = pg_fail(st, "cannot connect", NULL, cause);
		pg_close(&st->base);
		return rv;
	}
	PQsetNoticeProcessor(st->conn, no_notice, NULL);
	if ((rv = migrate(st, cause)) != 0) {
		pg_close(&st->base);
		return rv;
	}
	*out = &st->base;
	return 0;
}

static void
pg_close(struct store *base)
{
	struct store_pg	*st = PG(base);

	if (st->conn != NULL)
		PQfinish(st->conn);
	store_base_done(base);
	free(st);
}

/*
 * Reads the entries selected by where (lean: STORE_ENTRY_COLS_LEAN), its
 * $1 being param when that is not NULL, into set.
 */
static int
read_entries(struct store_pg *st, const char *where, int lean,
    const char *param, struct skill_set *set, char **cause)
{
	PGresult	*res;
	struct skill	*s;
	struct store_in	 in;
	char		*sql;
	int		 i, j, n, rv;

	memset(&in, 0, sizeof in);	/* every column as text */
	xasprintf(&sql, "SELECT %s FROM entries %s", lean ?
	    STORE_ENTRY_COLS_LEAN : STORE_ENTRY_COLS, where);
	rv = q(st, sql, param != NULL ? 1 : 0, &param, &res,
	    "reading entries", cause);
	free(sql);
	if (rv != 0)
		return rv;
	n = PQntuples(res);
	for (i = 0; i < n; i++) {
		for (j = 0; j < STORE_NCOLS; j++)
			in.v[j] = val(res, i, j);
		if ((s = store_row_skill(&in)) != NULL) {
			s->lean = lean;
			skill_set_add(set, s);
		}
	}
	PQclear(res);
	return 0;
}

static int
pg_load(struct store *base, struct skill_set *set, int flags, char **cause)
{
	int	 rv;

	if ((rv = read_entries(PG(base), "ORDER BY id",
	    (flags & STORE_LEAN) != 0, NULL, set, cause)) == 0)
		store_order(set);
	return rv;
}

static int
pg_get(struct store *base, const char *path, struct skill **out,
    char **cause)
{
	struct skill_set	 set;
	int			 rv;

	skill_set_init(&set);
	rv = read_entries(PG(base), "WHERE path = $1", 0, path, &set, cause);
	if (rv == 0 && set.n > 0) {
		*out = set.v[0];
		set.n = 0;	/* taken */
	}
	skill_set_done(&set);
	return rv;
}

static int
pg_load_rejects(struct store *base, struct store_rejects *r, char **cause)
{
	PGresult	*res;
	int		 i, rv;

	if ((rv = q(PG(base), "SELECT path, size, mtime_ns, hash, rule, reason,"
	    " skipped FROM rejected ORDER BY path", 0, NULL, &res,
	    "reading rejected files", cause)) != 0)
		return rv;
	for (i = 0; i < PQntuples(res); i++)
		store_rejects_add(r, val(res, i, 0),
		    strtoll(PQgetvalue(res, i, 1), NULL, 10),
		    strtoll(PQgetvalue(res, i, 2), NULL, 10), val(res, i, 3),
		    val(res, i, 4), val(res, i, 5), atoi(PQgetvalue(res, i, 6)));
	PQclear(res);
	return 0;
}

static int
pg_count(struct store *base, struct store_counts *c, char **cause)
{
	PGresult	*res;
	int		 i, rv;

	if ((rv = q(PG(base), STORE_COUNTS_SQL, 0, NULL, &res,
	    "counting entries", cause)) != 0)
		return rv;
	for (i = 0; i < PQntuples(res); i++)
		store_counts_add(c, val(res, i, 0), val(res, i, 1),
		    val(res, i, 2), val(res, i, 3), val(res, i, 4));
	PQclear(res);
	return 0;
}

static int
pg_begin_read(struct store *base, char **cause)
{
	return q(PG(base), "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", 0,
	    NULL, NULL, "reading changes", cause);
}

static void
pg_end_read(struct store *base)
{
	/* After an error the transaction is aborted: COMMIT rolls back. */
	q(PG(base), "COMMIT", 0, NULL, NULL, "reading changes", NULL);
}

static int
pg_since(struct store *base, int64_t since, struct skill_set *up,
    char **cause)
{
	char	 num[24];

	snprintf(num, sizeof num, "%lld", (long long)since);
	return read_entries(PG(base), "WHERE version > $1", 0, num, up, cause);
}

static int
pg_tombs(struct store *base, int64_t since, struct strlist *removed,
    char **cause)
{
	PGresult	*res;
	const char	*p[1];
	char		 num[24];
	int		 i, rv;

	snprintf(num, sizeof num, "%lld", (long long)since);
	p[0] = num;
	if ((rv = q(PG(base), "SELECT path FROM tombstones WHERE version > $1",
	    1, p, &res, "reading tombstones", cause)) != 0)
		return rv;
	for (i = 0; i < PQntuples(res); i++)
		strlist_add(removed, PQgetvalue(res, i, 0));
	PQclear(res);
	return 0;
}

static int
pg_begin_write(struct store *base, char **cause)
{
	struct store_pg	*st = PG(base);
	int		 rv;

	if ((rv = q(st, "BEGIN", 0, NULL, NULL, "writing", cause)) != 0)
		return rv;
	/* Self-exclusive: one writer at a time; readers are not blocked. */
	return q(st, "LOCK TABLE entries IN SHARE ROW EXCLUSIVE MODE", 0, NULL,
	    NULL, "writing", cause);
}

static int
pg_olds(struct store *base, struct store_olds *o, char **cause)
{
	PGresult	*res;
	int		 i, rv;

	if ((rv = q(PG(base), "SELECT path, rowhash FROM entries", 0, NULL,
	    &res, "reading entries", cause)) != 0)
		return rv;
	for (i = 0; i < PQntuples(res); i++)
		store_olds_add(o, PQgetvalue(res, i, 0), val(res, i, 1));
	PQclear(res);
	return 0;
}

static int
pg_put(struct store *base, const struct store_row *r, int64_t version,
    char **cause)
{
	struct store_pg	*st = PG(base);
	PGresult	*res;
	const char	*v[STORE_NCOLS + 2];
	char		 ver[24];
	int		 s;

	if (!st->prepared) {
		res = PQprepare(st->conn, "sr_put", "INSERT INTO entries ("
		    STORE_ENTRY_COLS ", version, rowhash) VALUES ($1,$2,$3,$4,"
		    "$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,$20,"
		    "$21,$22,$23,$24,$25,$26,$27,$28,$29,$30,$31,$32,$33)"
		    " ON CONFLICT (path) DO UPDATE SET " STORE_UPSERT_SET, STORE_NCOLS + 2, NULL);
		if (res == NULL || PQresultStatus(res) != PGRES_COMMAND_OK)
			return pg_fail(st, "preparing the index update", res,
			    cause);
		PQclear(res);
		st->prepared = 1;
	}
	memcpy(v, r->v, sizeof r->v);
	snprintf(ver, sizeof ver, "%lld", (long long)version);
	v[STORE_NCOLS] = ver;
	v[STORE_NCOLS + 1] = r->rowhash;
	res = PQexecPrepared(st->conn, "sr_put", STORE_NCOLS + 2, v, NULL, NULL,
	    0);
	s = res != NULL ? (int)PQresultStatus(res) : PGRES_FATAL_ERROR;
	if (s != PGRES_COMMAND_OK)
		return pg_fail(st, r->v[STORE_COL_PATH], res, cause);
	PQclear(res);
	return q(st, "DELETE FROM tombstones WHERE path = $1", 1,
	    &r->v[STORE_COL_PATH], NULL, r->v[STORE_COL_PATH], cause);
}

static int
pg_drop(struct store *base, const char *path, int64_t version, char **cause)
{
	struct store_pg	*st = PG(base);
	const char	*v[2];
	char		 ver[24];
	int		 rv;

	snprintf(ver, sizeof ver, "%lld", (long long)version);
	v[0] = path;
	v[1] = ver;
	if ((rv = q(st, "DELETE FROM entries WHERE path = $1", 1, v, NULL, path,
	    cause)) != 0)
		return rv;
	return q(st, "INSERT INTO tombstones (path, version) VALUES ($1, $2)"
	    " ON CONFLICT (path) DO UPDATE SET version = excluded.version", 2, v,
	    NULL, path, cause);
}

static int
pg_put_rejects(struct store *base, const struct store_rejects *rej,
    int replace, char **cause)
{
	struct store_pg	*st = PG(base);
	const char	*v[7];
	char		 size[24], mtime[24], skipped[8];
	size_t		 i;
	int		 rv;

	if (replace && (rv = q(st, "DELETE FROM rejected", 0, NULL, NULL,
	    "writing rejected files", cause)) != 0)
		return rv;
	for (i = 0; rej != NULL && i < rej->n; i++) {
		snprintf(size, sizeof size, "%lld", (long long)rej->v[i].size);
		snprintf(mtime, sizeof mtime, "%lld",
		    (long long)rej->v[i].mtime_ns);
		snprintf(skipped, sizeof skipped, "%d", rej->v[i].skipped);
		v[0] = rej->v[i].path;
		v[1] = size;
		v[2] = mtime;
		v[3] = rej->v[i].hash;
		v[4] = rej->v[i].rule;
		v[5] = rej->v[i].reason;
		v[6] = skipped;
		if ((rv = q(st, "INSERT INTO rejected (path, size, mtime_ns, hash,"
		    " rule, reason, skipped) VALUES ($1,$2,$3,$4,$5,$6,$7)"
		    " ON CONFLICT (path) DO UPDATE SET size = excluded.size,"
		    " mtime_ns = excluded.mtime_ns, hash = excluded.hash,"
		    " rule = excluded.rule, reason = excluded.reason,"
		    " skipped = excluded.skipped", 7, v, NULL,
		    rej->v[i].path, cause)) != 0)
			return rv;
	}
	return 0;
}

static int
pg_drop_reject(struct store *base, const char *path, char **cause)
{
	return q(PG(base), "DELETE FROM rejected WHERE path = $1", 1, &path,
	    NULL, path, cause);
}

static int
pg_prune(struct store *base, int64_t floor, char **cause)
{
	const char	*p[1];
	char		 num[24];

	snprintf(num, sizeof num, "%lld", (long long)floor);
	p[0] = num;
	return q(PG(base), "DELETE FROM tombstones WHERE version <= $1", 1, p,
	    NULL, "pruning tombstones", cause);
}

static int
pg_end_write(struct store *base, int commit, int64_t notify, char **cause)
{
	struct store_pg	*st = PG(base);
	const char	*p[1];
	char		 num[24];
	int		 rv;

	if (!commit)
		return q(st, "ROLLBACK", 0, NULL, NULL, "rolling back", cause);
	if (notify > 0) {
		snprintf(num, sizeof num, "%lld", (long long)notify);
		p[0] = num;
		if ((rv = q(st, "SELECT pg_notify('" STORE_CHANNEL "', $1)", 1,
		    p, NULL, "notifying", cause)) != 0) {
			q(st, "ROLLBACK", 0, NULL, NULL, "rolling back", NULL);
			return rv;
		}
	}
	return q(st, "COMMIT", 0, NULL, NULL, "committing", cause);
}

static int
pg_listen(struct store *base, char **cause)
{
	return q(PG(base), "LISTEN " STORE_CHANNEL, 0, NULL, NULL, "listening",
	    cause);
}

/* Drains the notifications libpq has read; returns how many. */
static int
drain(struct store_pg *st)
{
	PGnotify	*n;
	int		 got = 0;

	while ((n = PQnotifies(st->conn)) != NULL) {
		got++;
		PQfreemem(n);
	}
	return got;
}

static int
pg_wait(struct store *base, int timeout_ms, int wake_fd, char **cause)
{
	struct store_pg	*st = PG(base);
	struct pollfd	 pfd[2];
	int		 n, nfd = 1;

	if (drain(st) > 0)
		return 1;
	if (PQstatus(st->conn) != CONNECTION_OK || PQsocket(st->conn) < 0)
		return pg_fail(st, "connection lost", NULL, cause);
	pfd[0].fd = PQsocket(st->conn);
	pfd[0].events = POLLIN;
	if (wake_fd >= 0) {
		pfd[1].fd = wake_fd;
		pfd[1].events = POLLIN;
		nfd = 2;
	}
	n = poll(pfd, (nfds_t)nfd, timeout_ms);
	if (n <= 0 || (nfd == 2 && (pfd[1].revents & POLLIN)))
		return 0;	/* timeout, a signal, or woken */
	if (PQconsumeInput(st->conn) == 0 ||
	    PQstatus(st->conn) != CONNECTION_OK)
		return pg_fail(st, "connection lost", NULL, cause);
	return drain(st) > 0;
}

static int
pg_report(struct store *base, const char *name, int64_t counter,
    int64_t seen, char **cause)
{
	const char	*v[3];
	char		 c[24], t[24];

	snprintf(c, sizeof c, "%lld", (long long)counter);
	snprintf(t, sizeof t, "%lld", (long long)seen);
	v[0] = name;
	v[1] = c;
	v[2] = t;
	return q(PG(base), "INSERT INTO replicas (name, counter, seen) VALUES"
	    " ($1, $2, $3) ON CONFLICT (name) DO UPDATE SET counter ="
	    " excluded.counter, seen = excluded.seen", 3, v, NULL,
	    "recording the replica", cause);
}

static int
pg_replicas(struct store *base, struct store_replica **v, size_t *n,
    char **cause)
{
	PGresult	*res;
	int		 i, rv;

	if ((rv = q(PG(base), "SELECT name, counter, seen FROM replicas ORDER"
	    " BY seen DESC, name", 0, NULL, &res, "reading replicas",
	    cause)) != 0)
		return rv;
	*n = (size_t)PQntuples(res);
	*v = xcalloc(*n + 1, sizeof **v);
	for (i = 0; i < PQntuples(res); i++) {
		(*v)[i].name = xstrdup(PQgetvalue(res, i, 0));
		(*v)[i].counter = strtoll(PQgetvalue(res, i, 1), NULL, 10);
		(*v)[i].seen = strtoll(PQgetvalue(res, i, 2), NULL, 10);
	}
	PQclear(res);
	return 0;
}

static const struct store_ops pg_ops = {
	.name = "postgres",
	.close = pg_close,
	.load = pg_load,
	.get = pg_get,
	.load_rejects = pg_load_rejects,
	.count = pg_count,
	.begin_read = pg_begin_read,
	.since = pg_since,
	.tombs = pg_tombs,
	.end_read = pg_end_read,
	.begin_write = pg_begin_write,
	.olds = pg_olds,
	.put = pg_put,
	.drop = pg_drop,
	.put_rejects = pg_put_rejects,
	.drop_reject = pg_drop_reject,
	.prune = pg_prune,
	.end_write = pg_end_write,
	.listen = pg_listen,
	.wait = pg_wait,
	.report = pg_report,
	.replicas = pg_replicas,
	.meta_get = pg_meta_get,
	.meta_set = pg_meta_set,
};
