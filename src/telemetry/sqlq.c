/*
 * The portable query layer; see sqlq.h. SQLite statements are native;
 * a PostgreSQL statement keeps its translated text and text parameters
 * and runs as one PQexecParams at the first step, then walks the result.
 */
#include "autoconfig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "base/buf.h"
#include "base/pgdsn.h"
#include "base/pq.h"
#include "base/sqlro.h"
#include "telemetry/sqlq.h"
#include "base/status.h"
#include "base/xmalloc.h"

#define OID_TEXT	25	/* the type of a parameter a statement ignores */

struct sqlq {
	sqlite3		*lite;
	PGconn		*pg;
	char		*shown;		/* redacted DSN */
	char		 err[512];
};

struct sqlq_stmt {
	struct sqlq	*q;
	sqlite3_stmt	*st;
	/* PostgreSQL */
	char		*sql;
	int		 nparam;
	int		 used[SQLQ_MAXPARAM + 1];
	char		*val[SQLQ_MAXPARAM + 1];
	PGresult	*res;
	int		 row, nrows;
};

int
sqlq_open_sqlite(const char *path, struct sqlq **out, char **cause)
{
	struct sqlq	*q = xcalloc(1, sizeof *q);
	sqlite3		*snap;

	*out = NULL;
	if (sqlite3_open_v2(path, &q->lite, SQLITE_OPEN_READONLY, NULL) !=
	    SQLITE_OK) {
		xasprintf(cause, "%s: cannot open: %s", path,
		    sqlro_why(q->lite, NULL));
		sqlq_close(q);
		return SR_IO;
	}
	sqlite3_busy_timeout(q->lite, 2000);
	/*
	 * A WAL file whose -shm cannot be made (a full disk, a read-only
	 * directory) fails its first read: read a snapshot instead, or
	 * say why, rather than let the schema check call it no database.
	 */
	if (sqlite3_exec(q->lite, "SELECT count(*) FROM sqlite_master", NULL,
	    NULL, NULL) != SQLITE_OK && sqlro_fallback(q->lite)) {
		if (sqlro_open_snapshot(path, &snap) != SQLITE_OK) {
			xasprintf(cause, "%s: cannot read: %s", path,
			    sqlro_why(q->lite, NULL));
			sqlq_close(q);
			return SR_IO;
		}
		sqlite3_close(q->lite);
		q->lite = snap;
	}
	*out = q;
	return 0;
}

int
sqlq_open_pg(const char *dsn, struct sqlq **out, char **cause)
{
	static const char *const kw[] = { "dbname", "connect_timeout",
	    "application_name", NULL };
	const char	*val[] = { dsn, "5", "skills-radar", NULL };
	struct sqlq	*q = xcalloc(1, sizeof *q);
	const char	*m;
	PGresult	*r;

	*out = NULL;
	if (pq_load(cause) != 0) {
		free(q);
		return SR_IO;
	}
	q->shown = pg_dsn_redact(dsn);
	q->pg = PQconnectdbParams(kw, val, 1);
	if (q->pg == NULL || PQstatus(q->pg) != CONNECTION_OK) {
		m = q->pg != NULL ? PQerrorMessage(q->pg) : "out of memory";
		xasprintf(cause, "%s: unreachable: %.*s", q->shown,
		    (int)strcspn(m, "\n"), m);
		sqlq_close(q);
		return SR_IO;
	}
	r = PQexec(q->pg, "SET client_min_messages = warning");
	PQclear(r);
	*out = q;
	return 0;
}

void
sqlq_close(struct sqlq *q)
{
	if (q == NULL)
		return;
	sqlite3_close(q->lite);
	if (q->pg != NULL)
		PQfinish(q->pg);
	free(q->shown);
	free(q);
}

int
sqlq_is_pg(const struct sqlq *q)
{
	return q->pg != NULL;
}

const char *
sqlq_errmsg(struct sqlq *q)
{
	const char	*m;

	if (q->lite != NULL)
		return sqlro_why(q->lite, NULL);
	if (q->err[0] != '\0')
		return q->err;
	m = PQerrorMessage(q->pg);
	snprintf(q->err, sizeof q->err, "%.*s", (int)strcspn(m, "\n"), m);
	return q->err;
}

static int
exec_simple(struct sqlq *q, const char *sql)
{
	PGresult	*r;
	int		 ok;

	if (q->lite != NULL)
		return sqlite3_exec(q->lite, sql, NULL, NULL, NULL) ==
		    SQLITE_OK ? 0 : -1;
	r = PQexec(q->pg, sql);
	ok = PQresultStatus(r) == PGRES_COMMAND_OK;
	PQclear(r);
	return ok ? 0 : -1;
}

int
sqlq_begin_read(struct sqlq *q)
{
	return exec_simple(q, q->lite != NULL ? "BEGIN" :
	    "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
}

void
sqlq_end_read(struct sqlq *q)
{
	exec_simple(q, "COMMIT");
}

/*
 * ?N -> $N outside quotes, "INDEXED BY name" dropped, for PostgreSQL;
 * records which parameters the text uses.
 */
static char *
translate(const char *sql, struct sqlq_stmt *s)
{
	struct buf	 b;
	const char	*p = sql;
	char		 quote = 0;
	int		 n;

	buf_init(&b, 0);
	while (*p != '\0') {
		if (quote) {
			if (*p == quote)
				quote = 0;
			buf_addc(&b, *p++);
			continue;
		}
		if (*p == '\'' || *p == '"') {
			quote = *p;
			buf_addc(&b, *p++);
			continue;
		}
		if (*p == '?' && p[1] >= '0' && p[1] <= '9') {
			n = (int)strtol(p + 1, (char **)&p, 10);
			if (n >= 1 && n <= SQLQ_MAXPARAM) {
				s->used[n] = 1;
				if (n > s->nparam)
					s->nparam = n;
			}
			buf_printf(&b, "$%d", n);
			continue;
		}
		if (strncmp(p, "COLLATE BINARY", 14) == 0) {
			buf_addstr(&b, "COLLATE \"C\"");	/* byte order */
			p += 14;
			continue;
		}
		if (strncmp(p, "INDEXED BY ", 11) == 0) {
			p += 11;
			while (*p != '\0' && *p != ' ')
				p++;
			continue;
		}
		buf_addc(&b, *p++);
	}
	return buf_take(&b);
}

int
sqlq_prepare(struct sqlq *q, const char *sql, struct sqlq_stmt **out)
{
	struct sqlq_stmt	*s = xcalloc(1, sizeof *s);

	*out = NULL;
	s->q = q;
	q->err[0] = '\0';
	if (q->lite != NULL) {
		if (sqlite3_prepare_v2(q->lite, sql, -1, &s->st, NULL) !=
		    SQLITE_OK) {
			free(s);
			return -1;
		}
		s->nparam = sqlite3_bind_parameter_count(s->st);
	} else
		s->sql = translate(sql, s);
	*out = s;
	return 0;
}

int
sqlq_param_count(const struct sqlq_stmt *s)
{
	return s->nparam;
}

static void
set_val(struct sqlq_stmt *s, int i, char *v)
{
	if (i < 1 || i > SQLQ_MAXPARAM) {
		free(v);
		return;
	}
	free(s->val[i]);
	s->val[i] = v;
}

void
sqlq_bind_double(struct sqlq_stmt *s, int i, double v)
{
	char	*t;

	if (s->st != NULL) {
		sqlite3_bind_double(s->st, i, v);
		return;
	}
	xasprintf(&t, "%.17g", v);
	set_val(s, i, t);
}

void
sqlq_bind_int64(struct sqlq_stmt *s, int i, long long v)
{
	char	*t;

	if (s->st != NULL) {
		sqlite3_bind_int64(s->st, i, v);
		return;
	}
	xasprintf(&t, "%lld", v);
	set_val(s, i, t);
}

void
sqlq_bind_text(struct sqlq_stmt *s, int i, const char *v)
{
	if (s->st != NULL) {
		sqlite3_bind_text(s->st, i, v, -1, SQLITE_TRANSIENT);
		return;
	}
	set_val(s, i, v != NULL ? xstrdup(v) : NULL);
}

int
sqlq_step(struct sqlq_stmt *s)
{
	const char	*vals[SQLQ_MAXPARAM];
	unsigned int	 types[SQLQ_MAXPARAM];
	int		 rc, i, st;

	if (s->st != NULL) {
		rc = sqlite3_step(s->st);
		return rc == SQLITE_ROW ? SQLQ_ROW : rc == SQLITE_DONE ?
		    SQLQ_DONE : SQLQ_ERROR;
	}
	if (s->res == NULL) {
		for (i = 1; i <= s->nparam; i++) {
			vals[i - 1] = s->val[i];
			/* Unused: a type, or the server cannot infer one. */
			types[i - 1] = s->used[i] ? 0 : OID_TEXT;
		}
		s->res = PQexecParams(s->q->pg, s->sql, s->nparam, types,
		    vals, NULL, NULL, 0);
		st = PQresultStatus(s->res);
		if (st != PGRES_TUPLES_OK && st != PGRES_COMMAND_OK) {
			const char	*m = PQresultErrorMessage(s->res);

			snprintf(s->q->err, sizeof s->q->err, "%.*s",
			    (int)strcspn(m, "\n"), m);
			PQclear(s->res);
			s->res = NULL;
			return SQLQ_ERROR;
		}
		s->nrows = PQntuples(s->res);
		s->row = -1;
	}
	if (s->row + 1 >= s->nrows) {
		s->row = s->nrows;
		return SQLQ_DONE;
	}
	s->row++;
	return SQLQ_ROW;
}

void
sqlq_reset(struct sqlq_stmt *s)
{
	if (s->st != NULL) {
		sqlite3_reset(s->st);
		return;
	}
	if (s->res != NULL)
		PQclear(s->res);
	s->res = NULL;
}

void
sqlq_finalize(struct sqlq_stmt *s)
{
	int	 i;

	if (s == NULL)
		return;
	sqlite3_finalize(s->st);
	if (s->res != NULL)	/* libpq is loaded only for PostgreSQL */
		PQclear(s->res);
	for (i = 0; i <= SQLQ_MAXPARAM; i++)
		free(s->val[i]);
	free(s->sql);
	free(s);
}

/* The current row's value, NULL for SQL NULL or no row. */
static const char *
pgval(struct sqlq_stmt *s, int col)
{
	if (s->res == NULL || s->row < 0 || s->row >= s->nrows ||
	    col >= PQnfields(s->res) || PQgetisnull(s->res, s->row, col))
		return NULL;
	return PQgetvalue(s->res, s->row, col);
}

int
sqlq_is_null(struct sqlq_stmt *s, int col)
{
	if (s->st != NULL)
		return sqlite3_column_type(s->st, col) == SQLITE_NULL;
	return pgval(s, col) == NULL;
}

double
sqlq_double(struct sqlq_stmt *s, int col)
{
	const char	*v;

	if (s->st != NULL)
		return sqlite3_column_double(s->st, col);
	return (v = pgval(s, col)) != NULL ? strtod(v, NULL) : 0;
}

long long
sqlq_int64(struct sqlq_stmt *s, int col)
{
	const char	*v;

	if (s->st != NULL)
		return sqlite3_column_int64(s->st, col);
	if ((v = pgval(s, col)) == NULL)
		return 0;
	/* numeric sums print "12" or "12.000"; booleans t/f. */
	if (*v == 't')
		return 1;
	return (long long)strtod(v, NULL);
}

const char *
sqlq_text(struct sqlq_stmt *s, int col)
{
	if (s->st != NULL)
		return (const char *)sqlite3_column_text(s->st, col);
	return pgval(s, col);
}

/* 1 when the one-row query with ?1 = a (and ?2 = b) returns a row. */
static int
exists(struct sqlq *q, const char *sql, const char *a, const char *b)
{
	struct sqlq_stmt	*s;
	int			 found;

	if (sqlq_prepare(q, sql, &s) != 0)
		return 0;
	sqlq_bind_text(s, 1, a);
	if (b != NULL)
		sqlq_bind_text(s, 2, b);
	found = sqlq_step(s) == SQLQ_ROW;
	sqlq_finalize(s);
	return found;
}

int
sqlq_has_table(struct sqlq *q, const char *table)
{
	return exists(q, q->lite != NULL ? "SELECT 1 FROM sqlite_master WHERE "
	    "type = 'table' AND name = ?1" : "SELECT 1 FROM "
	    "information_schema.tables WHERE table_schema = current_schema() "
	    "AND table_name = ?1", table, NULL);
}

int
sqlq_has_column(struct sqlq *q, const char *table, const char *col)
{
	return exists(q, q->lite != NULL ? "SELECT 1 FROM pragma_table_info(?1) "
	    "WHERE name = ?2" : "SELECT 1 FROM information_schema.columns "
	    "WHERE table_schema = current_schema() AND table_name = ?1 AND "
	    "column_name = ?2", table, col);
}
