/*
 * Reading stats.db. Every aggregate is one SQL statement over the indexes
 * of the public schema (events_ts, events_kind on (kind, ts),
 * events_session on (session, ts)); C only copies the small results.
 * A snapshot runs inside one read transaction, so its numbers agree with
 * each other while writers append.
 */
#include "autoconfig.h"

#include <sys/stat.h>

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "telemetry/sqlq.h"

#include "telemetry/stats.h"
#include "base/status.h"
#include "telemetry/telemetry.h"
#include "base/pgdsn.h"
#include "telemetry/telemetry_pg.h"
#include "base/xmalloc.h"

struct stats_db {
	char		*path;
	struct sqlq	*db;
	int		 version;
	int		 has_conv;	/* the conv table exists */
	int		 conv_last;	/* ... with last_* (version 3) */
	int		 has_replica;	/* events.replica exists (version 2) */
	int		 indexed;	/* the indexes INDEXED BY names exist */
};

static const char *const kind_names[STATS_NKINDS] = {
	"search", "load", "index"
};

const char *
stats_kind_name(enum stats_kind k)
{
	if ((int)k < 0 || k >= STATS_NKINDS)
		return "?";
	return kind_names[k];
}

const char *
stats_badge_name(int badge)
{
	switch (badge) {
	case 2:
		return "red";
	case 1:
		return "yellow";
	default:
		return "green";
	}
}

static int
kind_from(const char *s)
{
	int	 k;

	for (k = 0; k < STATS_NKINDS; k++) {
		if (s != NULL && strcmp(s, kind_names[k]) == 0)
			return k;
	}
	return -1;
}

/* Fills *cause (when cause is not NULL) and returns SR_IO. */
static int
db_fail(struct stats_db *d, const char *what, char **cause)
{
	if (cause != NULL)
		xasprintf(cause, "%s: %s: %s", d->path, what,
		    sqlq_errmsg(d->db));
	return SR_IO;
}

/* Checks the schema of an opened database and fills d's flags. */
static int
check_schema(struct stats_db *d, char **cause)
{
	struct sqlq_stmt	*st = NULL;
	const char		*v;
	int			 pg = sqlq_is_pg(d->db);

	if (!sqlq_has_table(d->db, "events")) {
		xasprintf(cause, "%s: not a telemetry database (no events "
		    "table)", d->path);
		return SR_IO;
	}
	if (sqlq_prepare(d->db, pg ? "SELECT value FROM meta WHERE key = "
	    "'schema_version'" : "PRAGMA user_version", &st) != 0 ||
	    sqlq_step(st) == SQLQ_ERROR) {
		sqlq_finalize(st);
		return db_fail(d, "not a telemetry database", cause);
	}
	v = sqlq_text(st, 0);
	d->version = v != NULL ? atoi(v) : 0;
	sqlq_finalize(st);
	if (d->version > (pg ? TELEMETRY_PG_SCHEMA_VERSION :
	    TELEMETRY_SCHEMA_VERSION)) {
		xasprintf(cause, "%s: schema version %d is newer than this "
		    "program's %d: upgrade skills-radar", d->path, d->version,
		    TELEMETRY_SCHEMA_VERSION);
		return SR_IO;
	}
	d->has_conv = sqlq_has_table(d->db, "conv");
	d->conv_last = d->has_conv && sqlq_has_column(d->db, "conv",
	    "last_dt");
	/* Version 1 files have no replica column: read them as they are. */
	d->has_replica = sqlq_has_column(d->db, "events", "replica");
	d->indexed = 1;
	if (!pg && sqlq_prepare(d->db, "SELECT count(*) FROM sqlite_master "
	    "WHERE type = 'index' AND name IN ('events_latency', "
	    "'events_query', 'events_skill')", &st) == 0) {
		d->indexed = sqlq_step(st) == SQLQ_ROW &&
		    sqlq_int64(st, 0) == 3;
		sqlq_finalize(st);
	}
	return 0;
}

/*
 * " (N events lost ...)" when writers that could not open path counted
 * events in its side file (telemetry_lost_add), so whoever reports the
 * broken file (doctor, stats) reports what it cost; else "".
 */
static const char *
lost_note(const char *path, char *buf, size_t len)
{
	long long	 n = telemetry_lost_read(path);

	if (n <= 0)
		return "";
	snprintf(buf, len, " (%lld event%s lost by writers that could not "
	    "open it)", n, n == 1 ? "" : "s");
	return buf;
}

int
stats_open(const char *path, struct stats_db **out, char **cause)
{
	struct stats_db	*d;
	struct stat	 sb;
	char		 note[96];
	int		 rv;

	*out = NULL;
	if (pg_is_uri(path))
		return stats_open_pg(path, out, cause);
	if (stat(path, &sb) == -1) {
		if (errno == ENOENT) {
			xasprintf(cause, "%s: no telemetry database", path);
			return SR_NOTFOUND;
		}
		xasprintf(cause, "%s: %s%s", path, strerror(errno),
		    lost_note(path, note, sizeof note));
		return SR_IO;
	}
	if (!S_ISREG(sb.st_mode)) {
		xasprintf(cause, "%s: not a regular file%s", path,
		    lost_note(path, note, sizeof note));
		return SR_IO;
	}
	d = xcalloc(1, sizeof *d);
	d->path = xstrdup(path);
	if ((rv = sqlq_open_sqlite(path, &d->db, cause)) != 0 ||
	    (rv = check_schema(d, cause)) != 0) {
		stats_close(d);
		return rv;
	}
	*out = d;
	return 0;
}

int
stats_open_pg(const char *dsn, struct stats_db **out, char **cause)
{
	struct stats_db	*d;
	int		 rv;

	*out = NULL;
	d = xcalloc(1, sizeof *d);
	d->path = pg_dsn_redact(dsn);
	if ((rv = sqlq_open_pg(dsn, &d->db, cause)) != 0) {
		stats_close(d);
		return rv;
	}
	if ((rv = check_schema(d, cause)) != 0) {
		/* No schema yet: no replica has written (like a missing file). */
		if (!sqlq_has_table(d->db, "events"))
			rv = SR_NOTFOUND;
		stats_close(d);
		return rv;
	}
	*out = d;
	return 0;
}

void
stats_close(struct stats_db *d)
{
	if (d == NULL)
		return;
	sqlq_close(d->db);
	free(d->path);
	free(d);
}

/* Events counted in the side file of a full stats.db (SQLite only). */
static long long
lost_count(const struct stats_db *d)
{
	return sqlq_is_pg(d->db) ? 0 : telemetry_lost_read(d->path);
}

/*
 * SQLite: PRAGMA data_version plus the side file's lost count (a writer
 * on a full disk changes only that). PostgreSQL: the newest id plus the
 * dropped count, which change whenever a replica writes (ids commit in
 * order: telemetry_pg.c).
 */
long long
stats_data_version(struct stats_db *d)
{
	struct sqlq_stmt	*st;
	long long		 v = -1;

	if (d == NULL)
		return -1;
	if (sqlq_prepare(d->db, sqlq_is_pg(d->db) ? "SELECT coalesce((SELECT "
	    "max(id) FROM events), 0) + coalesce((SELECT CAST(value AS "
	    "BIGINT) FROM meta WHERE key = 'write_failures'), 0)" :
	    "PRAGMA data_version", &st) != 0)
		return -1;
	if (sqlq_step(st) == SQLQ_ROW)
		v = sqlq_int64(st, 0) + lost_count(d);
	sqlq_finalize(st);
	return v;
}

/*
 * Parameters every statement may use: ?1 since, ?2 miss threshold,
 * ?3 conversion window, ?4 row limit, ?5 a kind name (or a query text).
 */
/*
 * Copies sql without its "INDEXED BY name" clauses, for a database that
 * lacks the indexes (written by another tool): slower, still right.
 */
static char *
strip_indexed_by(const char *sql)
{
	char		*out, *o;
	const char	*p = sql, *hit;

	out = o = xmalloc(strlen(sql) + 1);
	while ((hit = strstr(p, "INDEXED BY ")) != NULL) {
		memcpy(o, p, (size_t)(hit - p));
		o += hit - p;
		p = hit + strlen("INDEXED BY ");
		while (*p != '\0' && *p != ' ')
			p++;
	}
	strcpy(o, p);
	return out;
}

static int
prep(struct stats_db *d, const struct stats_query *q, const char *sql,
    const char *kind, struct sqlq_stmt **st, char **cause)
{
	char	*plain = NULL;
	int	 n, rc;

	if (!d->indexed && strstr(sql, "INDEXED BY") != NULL)
		sql = plain = strip_indexed_by(sql);
	rc = sqlq_prepare(d->db, sql, st);
	free(plain);
	if (rc != 0)
		return db_fail(d, "query", cause);
	n = sqlq_param_count(*st);
	if (n >= 1)
		sqlq_bind_double(*st, 1, q->since);
	if (n >= 2)
		sqlq_bind_double(*st, 2, q->miss_threshold);
	if (n >= 3)
		sqlq_bind_double(*st, 3, q->conversion_window_s);
	if (n >= 4)
		sqlq_bind_int64(*st, 4, q->limit > 0 ? q->limit : 10);
	if (n >= 5)
		sqlq_bind_text(*st, 5, kind);
	return 0;
}

/* Runs a statement returning one integer (0 when no row). */
static int
one_int(struct stats_db *d, const struct stats_query *q, const char *sql,
    const char *kind, long long *out, char **cause)
{
	struct sqlq_stmt	*st;
	int		 rc, rv;

	*out = 0;
	if ((rv = prep(d, q, sql, kind, &st, cause)) != 0)
		return rv;
	rc = sqlq_step(st);
	if (rc == SQLQ_ROW)
		*out = sqlq_int64(st, 0);
	else if (rc != SQLQ_DONE) {
		rv = db_fail(d, "query", cause);
	}
	sqlq_finalize(st);
	return rv;
}

static char *
col_str(struct sqlq_stmt *st, int i)
{
	const char		*s = sqlq_text(st, i);

	return s != NULL ? xstrdup((const char *)s) : NULL;
}

/* Runs a statement returning (key, n, value) rows into a list. */
static int
counts(struct stats_db *d, const struct stats_query *q, const char *sql,
    struct stats_count **v, size_t *n, char **cause)
{
	struct sqlq_stmt	*st;
	size_t		 cap = 0;
	int		 rc, rv;

	*v = NULL;
	*n = 0;
	if ((rv = prep(d, q, sql, NULL, &st, cause)) != 0)
		return rv;
	while ((rc = sqlq_step(st)) == SQLQ_ROW) {
		if (*n == cap) {
			cap = cap ? cap * 2 : 16;
			*v = xreallocarray(*v, cap, sizeof **v);
		}
		(*v)[*n].key = col_str(st, 0);
		if ((*v)[*n].key == NULL)
			(*v)[*n].key = xstrdup("");
		(*v)[*n].n = sqlq_int64(st, 1);
		(*v)[*n].value = sqlq_double(st, 2);
		(*n)++;
	}
	if (rc != SQLQ_DONE)
		rv = db_fail(d, "query", cause);
	sqlq_finalize(st);
	return rv;
}

/*
 * The range of the events counted, and the index runs; the searches and
 * loads are counted by their passes. Each subquery is one probe of
 * events_ts; the count is a range of events_kind (kind, ts).
 */
static int
totals(struct stats_db *d, const struct stats_query *q, struct stats_snap *s,
    char **cause)
{
	struct sqlq_stmt	*st;
	int		 rv;

	if ((rv = prep(d, q, "SELECT (SELECT min(ts) FROM events WHERE "
	    "ts >= ?1), (SELECT max(ts) FROM events WHERE ts >= ?1), "
	    "(SELECT count(*) FROM events WHERE kind = 'index' AND ts >= ?1), "
	    "(SELECT count(latency_ms) FROM events INDEXED BY events_latency "
	    "WHERE kind = 'index' AND ts >= ?1)", NULL, &st, cause)) != 0)
		return rv;
	if (sqlq_step(st) == SQLQ_ROW) {
		s->first_ts = sqlq_double(st, 0);
		s->last_ts = sqlq_double(st, 1);
		s->by_kind[STATS_INDEX] = sqlq_int64(st, 2);
		s->n_latency[STATS_INDEX] = sqlq_int64(st, 3);
	} else
		rv = db_fail(d, "counting events", cause);
	sqlq_finalize(st);
	return rv;
}

/*
 * The latency at 1-based rank r (of n) of one kind, walking
 * events_latency from whichever end is nearer.
 */
static int
latency_at(struct stats_db *d, const struct stats_query *q, int k,
    long long r, long long n, double *out, char **cause)
{
	struct sqlq_stmt	*st;
	int		 rc, rv, desc = r > n / 2;

	if ((rv = prep(d, q, desc ? "SELECT latency_ms FROM events INDEXED BY "
	    "events_latency WHERE kind = ?5 AND latency_ms IS NOT NULL AND "
	    "ts >= ?1 ORDER BY latency_ms DESC LIMIT 1 OFFSET ?6" :
	    "SELECT latency_ms FROM events INDEXED BY "
	    "events_latency WHERE kind = ?5 AND latency_ms IS NOT NULL AND "
	    "ts >= ?1 ORDER BY latency_ms LIMIT 1 OFFSET ?6", kind_names[k],
	    &st, cause)) != 0)
		return rv;
	sqlq_bind_int64(st, 6, desc ? n - r : r - 1);
	rc = sqlq_step(st);
	if (rc == SQLQ_ROW)
		*out = sqlq_double(st, 0);
	else if (rc != SQLQ_DONE)
		rv = db_fail(d, "latency percentiles", cause);
	sqlq_finalize(st);
	return rv;
}

/* Nearest-rank percentiles p50 and p95 of one kind's latency. */
static int
percentiles(struct stats_db *d, const struct stats_query *q, int k,
    struct stats_snap *s, char **cause)
{
	long long	 n = s->n_latency[k];
	int		 rv;

	if (n == 0)
		return 0;
	if ((rv = latency_at(d, q, k, (long long)ceil(0.50 * (double)n), n,
	    &s->p50_ms[k], cause)) != 0)
		return rv;
	return latency_at(d, q, k, (long long)ceil(0.95 * (double)n), n,
	    &s->p95_ms[k], cause);
}

/*
 * Search-to-load conversion from the conv table, which the events_conv
 * trigger fills as loads are written (see telemetry.c): a load in the
 * range converts the latest search of its session that returned the
 * loaded skill when dt is within the window. A load that follows a
 * search in the window but that no search in the window returned
 * converts none and counts under the rank "none"; it is loaded after a
 * miss when the session's latest search (last_*) missed. A conv table
 * of version 2 (no last_*) holds the latest search only: read as it is.
 */
static int
conversion(struct stats_db *d, const struct stats_query *q,
    struct stats_snap *s, char **cause)
{
	struct sqlq_stmt	*st;
	int		 rv;

	if (!d->has_conv)
		return 0;
	if ((rv = prep(d, q, "SELECT count(DISTINCT search_id), count(*), "
	    "coalesce(avg(rank), 0) FROM conv WHERE ts >= ?1 AND dt <= ?3 "
	    "AND search_id IS NOT NULL",
	    NULL, &st, cause)) != 0)
		return rv;
	if (sqlq_step(st) == SQLQ_ROW) {
		s->conversions = sqlq_int64(st, 0);
		s->converted_loads = sqlq_int64(st, 1);
		s->mean_load_rank = sqlq_double(st, 2);
	} else
		rv = db_fail(d, "search-to-load conversion", cause);
	sqlq_finalize(st);
	if (rv != 0)
		return rv;
	if (!d->conv_last) {
		if ((rv = counts(d, q, "SELECT coalesce(CAST(rank AS TEXT), "
		    "'none'), count(*), coalesce(rank, 0) FROM conv WHERE "
		    "ts >= ?1 AND dt <= ?3 GROUP BY rank ORDER BY rank IS "
		    "NULL, rank", &s->load_ranks, &s->n_load_ranks,
		    cause)) != 0)
			return rv;
		return counts(d, q, "SELECT skill, count(*) AS n, "
		    "coalesce(avg(rank), 0) FROM conv WHERE ts >= ?1 AND "
		    "dt <= ?3 AND top1 < ?2 GROUP BY skill ORDER BY n DESC, "
		    "skill COLLATE BINARY LIMIT ?4", &s->after_miss,
		    &s->n_after_miss, cause);
	}
	if ((rv = counts(d, q, "SELECT coalesce(CAST(r AS TEXT), 'none'), "
	    "count(*), coalesce(r, 0) FROM (SELECT CASE WHEN dt <= ?3 THEN "
	    "rank END AS r FROM conv WHERE ts >= ?1 AND (dt <= ?3 OR "
	    "last_dt <= ?3)) AS c GROUP BY r ORDER BY r IS NULL, r",
	    &s->load_ranks, &s->n_load_ranks, cause)) != 0)
		return rv;
	/* The mean rank of the skill in the search that missed. */
	return counts(d, q, "SELECT skill, count(*) AS n, coalesce(avg("
	    "CASE WHEN search_id = last_id THEN rank END), 0) FROM conv "
	    "WHERE ts >= ?1 AND last_dt <= ?3 AND last_top1 < ?2 "
	    "GROUP BY skill ORDER BY n DESC, skill COLLATE BINARY LIMIT ?4",
	    &s->after_miss, &s->n_after_miss, cause);
}

/* The columns event_from() reads, in its order. */
#define EVENT_COLS	"ts, kind, session, client, query, skill, " \
	"top1_score, n_results, latency_ms, trust, found, id, %s, " \
	"CASE WHEN kind = 'search' THEN detail END"

/*
 * Prepares SELECT EVENT_COLS FROM events WHERE <rest>; the replica column
 * reads NULL in a version 1 file.
 */
static int
prep_events(struct stats_db *d, const struct stats_query *q,
    const char *rest, struct sqlq_stmt **st, char **cause)
{
	char	*sql;
	int	 rv;

	xasprintf(&sql, "SELECT " EVENT_COLS " FROM events WHERE %s",
	    d->has_replica ? "replica" : "NULL", rest);
	rv = prep(d, q, sql, NULL, st, cause);
	free(sql);
	return rv;
}

/* Fills *e from a row of EVENT_COLS whose kind is k. */
static void
event_from(struct sqlq_stmt *st, int k, struct stats_event *e)
{
	e->ts = sqlq_double(st, 0);
	e->kind = (enum stats_kind)k;
	e->session = col_str(st, 2);
	e->client = col_str(st, 3);
	e->query = col_str(st, 4);
	e->skill = col_str(st, 5);
	e->top1_score = sqlq_is_null(st, 6) ||
	    k != STATS_SEARCH ? -1 : sqlq_double(st, 6);
	e->n_results = (int)sqlq_int64(st, 7);
	e->latency_ms = sqlq_double(st, 8);
	e->trust = col_str(st, 9);
	e->found = sqlq_is_null(st, 10) ? -1 :
	    (int)sqlq_int64(st, 10) != 0;
	e->id = sqlq_int64(st, 11);
	e->replica = col_str(st, 12);
	e->detail = col_str(st, 13);
}

static int
recent(struct stats_db *d, const struct stats_query *q, struct stats_snap *s,
    char **cause)
{
	struct sqlq_stmt	*st;
	struct stats_event	*e;
	size_t			 cap = 0;
	int			 rc, rv, k;

	if ((rv = prep_events(d, q, "ts >= ?1 ORDER BY ts DESC, id DESC "
	    "LIMIT ?4", &st, cause)) != 0)
		return rv;
	while ((rc = sqlq_step(st)) == SQLQ_ROW) {
		if ((k = kind_from((const char *)sqlq_text(st,
		    1))) < 0)
			continue;
		if (s->n_recent == cap) {
			cap = cap ? cap * 2 : 16;
			s->recent = xreallocarray(s->recent, cap,
			    sizeof *s->recent);
		}
		e = &s->recent[s->n_recent++];
		event_from(st, k, e);
	}
	if (rc != SQLQ_DONE)
		rv = db_fail(d, "recent events", cause);
	sqlq_finalize(st);
	return rv;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The indexed names (q->skills) absent from loaded (n names, sorted by
 * strcmp), sorted.
 */
static void
never_loaded(const struct stats_query *q, char **loaded, size_t n,
    struct stats_snap *s)
{
	const char	**names, *key;
	size_t		  i;

	if (q->skills == NULL || q->n_skills == 0)
		return;
	names = xreallocarray(NULL, q->n_skills, sizeof *names);
	memcpy(names, q->skills, q->n_skills * sizeof *names);
	qsort(names, q->n_skills, sizeof *names, cmp_str);
	s->never_loaded = xcalloc(q->n_skills, sizeof *s->never_loaded);
	for (i = 0; i < q->n_skills; i++) {
		key = names[i];
		if (key == NULL || (i > 0 && names[i - 1] != NULL &&
		    strcmp(names[i - 1], key) == 0))
			continue;
		if (n > 0 && bsearch(&key, loaded, n, sizeof *loaded,
		    cmp_str) != NULL)
			continue;
		s->never_loaded[s->n_never_loaded++].key = xstrdup(key);
	}
	free(names);
}

/* Orders a list by count, most first, then by key. */
static int
cmp_count(const void *a, const void *b)
{
	const struct stats_count	*x = a, *y = b;

	if (x->n != y->n)
		return x->n > y->n ? -1 : 1;
	return strcmp(x->key, y->key);
}

static void
push(struct stats_count **v, size_t *n, struct sqlq_stmt *st)
{
	*v = xreallocarray(*v, *n + 1, sizeof **v);
	(*v)[*n].key = col_str(st, 1);
	if ((*v)[*n].key == NULL)
		(*v)[*n].key = xstrdup("");
	(*v)[*n].n = sqlq_int64(st, 2);
	(*v)[*n].value = sqlq_double(st, 3);
	(*n)++;
}

/*
 * One pass over the searches in events_query (kind, query, ts, top1):
 * the groups by query are materialised once, then give the top queries
 * (tag 0), the missed queries (tag 1) and the number of misses (tag 2).
 */
static const char search_sql[] =
	"WITH g AS MATERIALIZED (SELECT query, count(*) AS n, "
	" avg(top1_score) AS a, sum(CASE WHEN coalesce(top1_score, 0) < ?2 THEN 1 ELSE 0 END) AS m, "
	" avg(CASE WHEN coalesce(top1_score, 0) < ?2 THEN "
	"  coalesce(top1_score, 0) END) AS am, count(latency_ms) AS nl "
	" FROM events INDEXED BY events_query "
	" WHERE kind = 'search' AND ts >= ?1 GROUP BY query) "
	"SELECT * FROM (SELECT 0, query, n, a, 0 FROM g WHERE query IS NOT "
	" NULL AND query <> '' ORDER BY n DESC, query COLLATE BINARY LIMIT ?4) AS t0 "
	"UNION ALL SELECT * FROM (SELECT 1, query, m, am, 0 FROM g WHERE "
	" m > 0 AND query IS NOT NULL AND query <> '' ORDER BY m DESC, query COLLATE BINARY "
	" LIMIT ?4) AS t1 "
	"UNION ALL SELECT 2, NULL, coalesce(sum(m), 0), coalesce(sum(n), 0), "
	" coalesce(sum(nl), 0) FROM g";

/*
 * One pass over the loads in events_skill (kind, skill, ts, found,
 * latency): the top loaded skills (tag 0), the number of found loads
 * (tag 2) and, when ?6 is set, every loaded name in order (tag 3).
 */
static const char load_sql[] =
	"WITH g AS MATERIALIZED (SELECT skill, sum(CASE WHEN found = 1 THEN 1 ELSE 0 END) AS n, "
	" avg(CASE WHEN found = 1 THEN latency_ms END) AS a, count(*) AS t, "
	" count(latency_ms) AS nl "
	" FROM events INDEXED BY events_skill "
	" WHERE kind = 'load' AND ts >= ?1 GROUP BY skill) "
	"SELECT * FROM (SELECT 0, skill, n, a, 0, 0 FROM g WHERE n > 0 AND "
	" skill IS NOT NULL ORDER BY n DESC, skill COLLATE BINARY LIMIT ?4) AS t0 "
	"UNION ALL SELECT 2, NULL, coalesce(sum(n), 0), coalesce(sum(t), 0), "
	" coalesce(sum(nl), 0), 0 FROM g "
	"UNION ALL SELECT 3, skill, n, 0, 0, 0 FROM g WHERE ?6 = 1 AND n > 0 AND "
	" skill IS NOT NULL";

static int
searches_pass(struct stats_db *d, const struct stats_query *q,
    struct stats_snap *s, char **cause)
{
	struct sqlq_stmt	*st;
	int		 rc, rv;

	if ((rv = prep(d, q, search_sql, NULL, &st, cause)) != 0)
		return rv;
	while ((rc = sqlq_step(st)) == SQLQ_ROW) {
		switch ((int)sqlq_int64(st, 0)) {
		case 0:
			push(&s->top_queries, &s->n_top_queries, st);
			break;
		case 1:
			push(&s->missed, &s->n_missed, st);
			break;
		default:
			s->misses = sqlq_int64(st, 2);
			s->by_kind[STATS_SEARCH] = sqlq_int64(st, 3);
			s->n_latency[STATS_SEARCH] = sqlq_int64(st, 4);
			break;
		}
	}
	if (rc != SQLQ_DONE)
		rv = db_fail(d, "query counts", cause);
	sqlq_finalize(st);
	if (s->n_top_queries > 1)
		qsort(s->top_queries, s->n_top_queries, sizeof *s->top_queries,
		    cmp_count);
	if (s->n_missed > 1)
		qsort(s->missed, s->n_missed, sizeof *s->missed, cmp_count);
	return rv;
}

static int
loads_pass(struct stats_db *d, const struct stats_query *q,
    struct stats_snap *s, char **cause)
{
	struct sqlq_stmt	*st;
	char		**loaded = NULL;
	size_t		  n = 0, i;
	int		  rc, rv;

	if ((rv = prep(d, q, load_sql, NULL, &st, cause)) != 0)
		return rv;
	sqlq_bind_int64(st, 6, q->skills != NULL && q->n_skills > 0);
	while ((rc = sqlq_step(st)) == SQLQ_ROW) {
		switch ((int)sqlq_int64(st, 0)) {
		case 0:
			push(&s->top_loads, &s->n_top_loads, st);
			break;
		case 2:
			s->loads_found = sqlq_int64(st, 2);
			s->by_kind[STATS_LOAD] = sqlq_int64(st, 3);
			s->n_latency[STATS_LOAD] = sqlq_int64(st, 4);
			break;
		default:
			loaded = xreallocarray(loaded, n + 1, sizeof *loaded);
			loaded[n++] = col_str(st, 1);
			break;
		}
	}
	if (rc != SQLQ_DONE)
		rv = db_fail(d, "load counts", cause);
	sqlq_finalize(st);
	if (s->n_top_loads > 1)
		qsort(s->top_loads, s->n_top_loads, sizeof *s->top_loads,
		    cmp_count);
	if (rv == 0) {
		if (n > 1)
			qsort(loaded, n, sizeof *loaded, cmp_str);
		never_loaded(q, loaded, n, s);
	}
	for (i = 0; i < n; i++)
		free(loaded[i]);
	free(loaded);
	return rv;
}

/* The detail of the newest missed search of query ?5 in the range. */
static const char near_sql[] =
	"SELECT detail FROM events INDEXED BY events_query WHERE kind = 'search' "
	"AND query = ?5 AND ts >= ?1 AND coalesce(top1_score, 0) < ?2 "
	"ORDER BY ts DESC, id DESC LIMIT 1";

/* Fills n from a search's detail JSON ("top", "scores"); bad JSON: none. */
static void
near_parse(const char *detail, struct stats_near *n)
{
	cJSON		*d, *top, *sc, *v;
	size_t		 i;

	if (detail == NULL || (d = cJSON_Parse(detail)) == NULL)
		return;
	top = cJSON_GetObjectItem(d, "top");
	sc = cJSON_GetObjectItem(d, "scores");
	n->stored = cJSON_IsArray(top);
	for (i = 0; i < STATS_NEAR_MAX && cJSON_IsArray(top) &&
	    (v = cJSON_GetArrayItem(top, (int)i)) != NULL; i++) {
		if (!cJSON_IsString(v))
			break;
		n->skill[i] = xstrdup(v->valuestring);
		v = cJSON_IsArray(sc) ? cJSON_GetArrayItem(sc, (int)i) : NULL;
		n->score[i] = cJSON_IsNumber(v) ? v->valuedouble : -1;
		n->n++;
	}
	cJSON_Delete(d);
}

static void
near_free(struct stats_near *v, size_t n)
{
	size_t	 i, k;

	for (i = 0; v != NULL && i < n; i++)
		for (k = 0; k < v[i].n; k++)
			free(v[i].skill[k]);
	free(v);
}

/* n: the close candidates of query key, one probe of events_query. */
static int
near_probe(struct stats_db *d, const struct stats_query *q, const char *key,
    struct stats_near *n, char **cause)
{
	struct sqlq_stmt	*st;
	char			*detail;
	int			 rc, rv;

	if ((rv = prep(d, q, near_sql, key, &st, cause)) != 0)
		return rv;
	if ((rc = sqlq_step(st)) == SQLQ_ROW) {
		detail = col_str(st, 0);
		near_parse(detail, n);
		free(detail);
	} else if (rc != SQLQ_DONE)
		rv = db_fail(d, "close candidates", cause);
	sqlq_finalize(st);
	return rv;
}

static void
near_copy(struct stats_near *dst, const struct stats_near *src)
{
	size_t	 k;

	*dst = *src;
	for (k = 0; k < src->n; k++)
		dst->skill[k] = xstrdup(src->skill[k]);
}

/*
 * s->near for s->missed: a probe per missed query (at most the row
 * limit), except that a query keep() says is unchanged copies the
 * candidates prev had for it (a fold: the rows it did not touch).
 */
static int
near_pass(struct stats_db *d, const struct stats_query *q,
    struct stats_snap *s, const struct stats_snap *prev,
    int (*keep)(const void *, const char *), const void *arg, char **cause)
{
	size_t	 i, j;
	int	 rv = 0;

	near_free(s->near, s->n_near);
	s->near = s->n_missed ? xcalloc(s->n_missed, sizeof *s->near) : NULL;
	s->n_near = s->n_missed;
	for (i = 0; i < s->n_missed && rv == 0; i++) {
		if (prev != NULL && keep(arg, s->missed[i].key)) {
			for (j = 0; j < prev->n_near; j++)
				if (strcmp(prev->missed[j].key,
				    s->missed[i].key) == 0)
					break;
			if (j < prev->n_near) {
				near_copy(&s->near[i], &prev->near[j]);
				continue;
			}
		}
		rv = near_probe(d, q, s->missed[i].key, &s->near[i], cause);
	}
	return rv;
}

static const char advice_none[] =
	"No searches recorded yet: nothing to tune.";
static const char advice_red[] =
	"Miss rate above 30 %: enable the Ollama query rewriter (and the "
	"reranker), so vague queries are turned into the words the skills "
	"use.";
static const char advice_yellow[] =
	"Miss rate between 15 % and 30 %: read the missed queries and improve "
	"the description or when_to_use of the skills that should have "
	"matched them, starting with the skills loaded after a miss.";
static const char advice_green[] =
	"Miss rate below 15 %: search finds the skills; nothing to tune.";

/* min(id) and max(id) of events, 0 when empty: two probes of the key. */
static int
id_range(struct stats_db *d, long long *min_id, long long *max_id,
    char **cause)
{
	struct sqlq_stmt	*st;
	int		 rv = 0;

	*min_id = *max_id = 0;
	if (sqlq_prepare(d->db, "SELECT coalesce((SELECT min(id) FROM "
	    "events), 0), coalesce((SELECT max(id) FROM events), 0)", &st) != 0)
		return db_fail(d, "event ids", cause);
	if (sqlq_step(st) == SQLQ_ROW) {
		*min_id = sqlq_int64(st, 0);
		*max_id = sqlq_int64(st, 1);
	} else
		rv = db_fail(d, "event ids", cause);
	sqlq_finalize(st);
	return rv;
}

/* The figures derived from the counts: rates, badge, advice. */
static void
derive(struct stats_snap *s)
{
	/* A load in the range may follow a search just before it. */
	if (s->conversions > s->searches)
		s->conversions = s->searches;
	s->miss_rate = s->conversion_rate = 0;
	if (s->searches > 0) {
		s->miss_rate = (double)s->misses / (double)s->searches;
		s->conversion_rate = (double)s->conversions /
		    (double)s->searches;
	}
	s->badge = s->miss_rate > 0.30 ? 2 : s->miss_rate > 0.15 ? 1 : 0;
	if (s->searches == 0)
		s->advice = advice_none;
	else
		s->advice = s->badge == 2 ? advice_red : s->badge == 1 ?
		    advice_yellow : advice_green;
}

/*
 * Adds a statement's rows (bucket, count[, count]) into a[bucket] (and
 * b[bucket]), a bucket out of 0 .. n-1 clamped into it.
 */
static int
add_buckets(struct stats_db *d, const struct stats_query *q,
    const char *sql, int n, long long *a, long long *b, const char *what,
    char **cause)
{
	struct sqlq_stmt	*st;
	long long		 k;
	int			 rv, rc;

	if ((rv = prep(d, q, sql, NULL, &st, cause)) != 0)
		return rv;
	while ((rc = sqlq_step(st)) == SQLQ_ROW) {
		k = sqlq_int64(st, 0);
		k = k < 0 ? 0 : k >= n ? n - 1 : k;
		a[k] += sqlq_int64(st, 1);
		if (b != NULL)
			b[k] += sqlq_int64(st, 2);
	}
	if (rc != SQLQ_DONE)
		rv = db_fail(d, what, cause);
	sqlq_finalize(st);
	return rv;
}

/*
 * The pictures' numbers: searches and misses per slice of the time range
 * (the slice computed in SQL from first_ts and its width, both written
 * into the statement as numbers), and searches per 0.05 of top-1 score.
 */
/*
 * floor() of a non-negative expression in SQL both backends read alike:
 * CAST truncates in SQLite but rounds in PostgreSQL, so one is taken off
 * where the cast went above the value. (SQLite's floor() needs its math
 * functions, which a build may leave out.)
 */
#define FLOOR_SQL	"(CAST(%1$s AS INTEGER) - CASE WHEN CAST(%1$s AS " \
	"INTEGER) > %1$s THEN 1 ELSE 0 END)"

static int
pictures(struct stats_db *d, const struct stats_query *q,
    struct stats_snap *s, char **cause)
{
	char	 sql[768], x[128];
	double	 width;
	int	 rv;

	if (s->by_kind[STATS_SEARCH] == 0)
		return 0;
	width = (s->last_ts - s->first_ts) / STATS_SERIES;
	if (width <= 0)
		width = 1;
	snprintf(x, sizeof x, "((ts - %.6f) / %.6f)", s->first_ts, width);
	snprintf(sql, sizeof sql, "SELECT " FLOOR_SQL " AS b, count(*), "
	    "sum(CASE WHEN coalesce(top1_score, 0) < ?2 THEN 1 ELSE 0 END) "
	    "FROM events WHERE kind = 'search' AND ts >= ?1 GROUP BY b",
	    x);
	if ((rv = add_buckets(d, q, sql, STATS_SERIES, s->series_searches,
	    s->series_misses, "miss rate over time", cause)) != 0)
		return rv;
	snprintf(x, sizeof x, "(CASE WHEN top1_score >= 1 THEN %d ELSE "
	    "top1_score * %d END)", STATS_HIST - 1, STATS_HIST);
	snprintf(sql, sizeof sql, "SELECT " FLOOR_SQL " AS b, count(*) FROM "
	    "events WHERE kind = 'search' AND ts >= ?1 AND top1_score IS NOT "
	    "NULL GROUP BY b", x);
	return add_buckets(d, q, sql, STATS_HIST, s->score_hist, NULL,
	    "score histogram", cause);
}

int
stats_snapshot(struct stats_db *d, const struct stats_query *q,
    struct stats_snap *s, char **cause)
{
	long long	 v;
	int		 rv, k;

	memset(s, 0, sizeof *s);
	s->schema_version = d->version;
	if (sqlq_begin_read(d->db) != 0)
		return db_fail(d, "starting a read", cause);
	if ((rv = id_range(d, &s->min_id, &s->last_id, cause)) != 0 ||
	    (rv = totals(d, q, s, cause)) != 0 ||
	    (rv = searches_pass(d, q, s, cause)) != 0 ||
	    (rv = near_pass(d, q, s, NULL, NULL, NULL, cause)) != 0 ||
	    (rv = loads_pass(d, q, s, cause)) != 0)
		goto out;
	s->searches = s->by_kind[STATS_SEARCH];
	for (k = 0; k < STATS_NKINDS; k++) {
		s->total += s->by_kind[k];
		if ((rv = percentiles(d, q, k, s, cause)) != 0)
			goto out;
	}
	if (s->total == 0)
		s->first_ts = s->last_ts = 0;
	if ((rv = conversion(d, q, s, cause)) != 0 ||
	    (rv = pictures(d, q, s, cause)) != 0 ||
	    (rv = recent(d, q, s, cause)) != 0)
		goto out;
	if (d->has_replica && (rv = counts(d, q, "SELECT coalesce(replica, '-'), count(*) "
	    "AS n, sum(CASE WHEN kind = 'search' THEN 1 ELSE 0 END) FROM events "
	    "INDEXED BY events_replica WHERE ts >= ?1 GROUP BY replica "
	    "ORDER BY n DESC, replica COLLATE BINARY", &s->replicas, &s->n_replicas,
	    cause)) != 0)
		goto out;
	/* meta may be missing in a database another tool wrote. */
	if (one_int(d, q, "SELECT CAST(value AS INTEGER) FROM meta WHERE "
	    "key = 'write_failures'", NULL, &v, NULL) == 0)
		s->write_failures = v;
	s->write_failures += lost_count(d);

	derive(s);
out:
	sqlq_end_read(d->db);
	if (rv != 0)
		stats_snap_done(s);
	return rv;
}

static void
counts_free(struct stats_count *v, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		free(v[i].key);
	free(v);
}

void
stats_snap_done(struct stats_snap *s)
{
	size_t	 i;

	if (s == NULL)
		return;
	counts_free(s->top_queries, s->n_top_queries);
	counts_free(s->top_loads, s->n_top_loads);
	near_free(s->near, s->n_near);
	counts_free(s->missed, s->n_missed);
	counts_free(s->after_miss, s->n_after_miss);
	counts_free(s->load_ranks, s->n_load_ranks);
	counts_free(s->never_loaded, s->n_never_loaded);
	counts_free(s->replicas, s->n_replicas);
	for (i = 0; i < s->n_recent; i++) {
		free(s->recent[i].session);
		free(s->recent[i].client);
		free(s->recent[i].query);
		free(s->recent[i].skill);
		free(s->recent[i].trust);
		free(s->recent[i].replica);
		free(s->recent[i].detail);
	}
	free(s->recent);
	memset(s, 0, sizeof *s);
}

static struct stats_count *
counts_copy(const struct stats_count *v, size_t n)
{
	struct stats_count	*out;
	size_t			 i;

	if (n == 0)
		return NULL;
	out = xreallocarray(NULL, n, sizeof *out);
	for (i = 0; i < n; i++) {
		out[i] = v[i];
		out[i].key = xstrdup(v[i].key != NULL ? v[i].key : "");
	}
	return out;
}

static char *
strdup_or_null(const char *s)
{
	return s != NULL ? xstrdup(s) : NULL;
}

static void
event_copy(struct stats_event *dst, const struct stats_event *src)
{
	*dst = *src;
	dst->session = strdup_or_null(src->session);
	dst->client = strdup_or_null(src->client);
	dst->query = strdup_or_null(src->query);
	dst->skill = strdup_or_null(src->skill);
	dst->trust = strdup_or_null(src->trust);
	dst->replica = strdup_or_null(src->replica);
	dst->detail = strdup_or_null(src->detail);
}

static void
event_free(struct stats_event *e)
{
	free(e->session);
	free(e->client);
	free(e->query);
	free(e->skill);
	free(e->trust);
	free(e->replica);
	free(e->detail);
}

void
stats_snap_copy(struct stats_snap *dst, const struct stats_snap *src)
{
	size_t	 i;

	*dst = *src;
	dst->top_queries = counts_copy(src->top_queries, src->n_top_queries);
	dst->top_loads = counts_copy(src->top_loads, src->n_top_loads);
	dst->missed = counts_copy(src->missed, src->n_missed);
	dst->near = NULL;
	if (src->near != NULL && src->n_near > 0) {
		dst->near = xcalloc(src->n_near, sizeof *dst->near);
		for (i = 0; i < src->n_near; i++)
			near_copy(&dst->near[i], &src->near[i]);
	}
	dst->after_miss = counts_copy(src->after_miss, src->n_after_miss);
	dst->load_ranks = counts_copy(src->load_ranks, src->n_load_ranks);
	dst->never_loaded = counts_copy(src->never_loaded,
	    src->n_never_loaded);
	dst->replicas = counts_copy(src->replicas, src->n_replicas);
	dst->recent = NULL;
	if (src->n_recent > 0) {
		dst->recent = xreallocarray(NULL, src->n_recent,
		    sizeof *dst->recent);
		for (i = 0; i < src->n_recent; i++)
			event_copy(&dst->recent[i], &src->recent[i]);
	}
}

/* ---- incremental: stats_since_id ------------------------------------- */

/* The names the new rows touched: distinct, in first-seen order. */
struct keyset {
	char	**v;
	size_t	  n;
};

static void
keyset_add(struct keyset *ks, const char *key)
{
	size_t	 i;

	for (i = 0; i < ks->n; i++) {
		if (strcmp(ks->v[i], key) == 0)
			return;
	}
	ks->v = xreallocarray(ks->v, ks->n + 1, sizeof *ks->v);
	ks->v[ks->n++] = xstrdup(key);
}

/* 1 when no new row touched key (ks: the keys the new rows touched). */
static int
untouched(const void *arg, const char *key)
{
	const struct keyset	*ks = arg;
	size_t			 i;

	for (i = 0; i < ks->n; i++)
		if (strcmp(ks->v[i], key) == 0)
			return 0;
	return 1;
}

static void
keyset_done(struct keyset *ks)
{
	size_t	 i;

	for (i = 0; i < ks->n; i++)
		free(ks->v[i]);
	free(ks->v);
	memset(ks, 0, sizeof *ks);
}

/*
 * Sets key's entry of a top list to (n, value): updated in place, added,
 * or (n == 0) left out; then sorted like the snapshot's and cut to limit.
 * Exact because counts only grow between two snapshots: a name the new
 * rows did not touch keeps its count, so it cannot overtake the list.
 */
static void
top_set(struct stats_count **v, size_t *nv, size_t limit, const char *key,
    long long n, double value)
{
	size_t	 i;

	for (i = 0; i < *nv; i++) {
		if (strcmp((*v)[i].key, key) == 0)
			break;
	}
	if (i == *nv) {
		if (n <= 0)
			return;
		*v = xreallocarray(*v, *nv + 1, sizeof **v);
		(*v)[i].key = xstrdup(key);
		(*nv)++;
	}
	(*v)[i].n = n;
	(*v)[i].value = value;
	if (*nv > 1)
		qsort(*v, *nv, sizeof **v, cmp_count);
	while (*nv > limit) {
		(*nv)--;
		free((*v)[*nv].key);
	}
}

/* One query re-counted over events_query: the search_sql group for it. */
static const char query_one_sql[] =
	"SELECT count(*), avg(top1_score), "
	" sum(CASE WHEN coalesce(top1_score, 0) < ?2 THEN 1 ELSE 0 END), "
	" avg(CASE WHEN coalesce(top1_score, 0) < ?2 THEN "
	"  coalesce(top1_score, 0) END) "
	"FROM events INDEXED BY events_query "
	"WHERE kind = 'search' AND query = ?6 AND ts >= ?1";

/* One skill re-counted over events_skill: the load_sql group for it. */
static const char skill_one_sql[] =
	"SELECT coalesce(sum(CASE WHEN found = 1 THEN 1 ELSE 0 END), 0), "
	" avg(CASE WHEN found = 1 THEN latency_ms END) "
	"FROM events INDEXED BY events_skill "
	"WHERE kind = 'load' AND skill = ?6 AND ts >= ?1";

static int
refold_queries(struct stats_db *d, const struct stats_query *q,
    struct stats_snap *s, const struct keyset *ks, size_t limit,
    char **cause)
{
	struct sqlq_stmt	*st;
	size_t		 i;
	int		 rv;

	if (ks->n == 0)
		return 0;
	if ((rv = prep(d, q, query_one_sql, NULL, &st, cause)) != 0)
		return rv;
	for (i = 0; i < ks->n && rv == 0; i++) {
		sqlq_reset(st);
		sqlq_bind_text(st, 6, ks->v[i]);
		if (sqlq_step(st) != SQLQ_ROW) {
			rv = db_fail(d, "query counts", cause);
			break;
		}
		top_set(&s->top_queries, &s->n_top_queries, limit, ks->v[i],
		    sqlq_int64(st, 0), sqlq_double(st, 1));
		top_set(&s->missed, &s->n_missed, limit, ks->v[i],
		    sqlq_int64(st, 2), sqlq_double(st, 3));
	}
	sqlq_finalize(st);
	return rv;
}

static int
refold_skills(struct stats_db *d, const struct stats_query *q,
    struct stats_snap *s, const struct keyset *ks, size_t limit,
    char **cause)
{
	struct sqlq_stmt	*st;
	size_t		 i, j;
	int		 rv;

	if (ks->n == 0)
		return 0;
	if ((rv = prep(d, q, skill_one_sql, NULL, &st, cause)) != 0)
		return rv;
	for (i = 0; i < ks->n && rv == 0; i++) {
		sqlq_reset(st);
		sqlq_bind_text(st, 6, ks->v[i]);
		if (sqlq_step(st) != SQLQ_ROW) {
			rv = db_fail(d, "load counts", cause);
			break;
		}
		top_set(&s->top_loads, &s->n_top_loads, limit, ks->v[i],
		    sqlq_int64(st, 0), sqlq_double(st, 1));
		/* A found load takes the skill off never_loaded. */
		for (j = 0; j < s->n_never_loaded; j++) {
			if (strcmp(s->never_loaded[j].key, ks->v[i]) != 0)
				continue;
			free(s->never_loaded[j].key);
			memmove(&s->never_loaded[j], &s->never_loaded[j + 1],
			    (s->n_never_loaded - j - 1) *
			    sizeof *s->never_loaded);
			s->n_never_loaded--;
			break;
		}
	}
	sqlq_finalize(st);
	return rv;
}

/* Newest first, as recent() orders them: ts DESC, id DESC. */
static int
cmp_recent(const void *a, const void *b)
{
	const struct stats_event	*x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts > y->ts ? -1 : 1;
	if (x->id != y->id)
		return x->id > y->id ? -1 : 1;
	return 0;
}

/* One more event of replica (NULL: version 1 rows, key "") in s->replicas. */
static void
count_replica(struct stats_snap *s, const char *replica, int search)
{
	size_t	 i;

	if (replica == NULL)
		replica = "-";
	for (i = 0; i < s->n_replicas; i++) {
		if (strcmp(s->replicas[i].key, replica) == 0)
			break;
	}
	if (i == s->n_replicas) {
		s->replicas = xreallocarray(s->replicas, i + 1,
		    sizeof *s->replicas);
		s->replicas[i].key = xstrdup(replica);
		s->replicas[i].n = 0;
		s->replicas[i].value = 0;
		s->n_replicas++;
	}
	s->replicas[i].n++;
	s->replicas[i].value += search;
	qsort(s->replicas, s->n_replicas, sizeof *s->replicas, cmp_count);
}

/* Counts one new row (kind k, in the range) into s and the key sets. */
static void
fold_row(struct sqlq_stmt *st, int k, const struct stats_query *q,
    struct stats_snap *s, struct keyset *queries, struct keyset *skills)
{
	const char	*key;
	double		 ts = sqlq_double(st, 0), top1;

	s->by_kind[k]++;
	s->total++;
	count_replica(s, sqlq_text(st, 12), k == STATS_SEARCH);
	if (!sqlq_is_null(st, 8))
		s->n_latency[k]++;
	if (s->first_ts == 0 || ts < s->first_ts)
		s->first_ts = ts;
	if (ts > s->last_ts)
		s->last_ts = ts;
	if (k == STATS_SEARCH) {
		top1 = sqlq_double(st, 6);	/* NULL reads 0 */
		if (top1 < q->miss_threshold)
			s->misses++;
		key = (const char *)sqlq_text(st, 4);
		if (key != NULL && *key != '\0')
			keyset_add(queries, key);
	} else if (k == STATS_LOAD && !sqlq_is_null(st, 10) && (int)sqlq_int64(st, 10) == 1) {
		s->loads_found++;
		key = (const char *)sqlq_text(st, 5);
		if (key != NULL)
			keyset_add(skills, key);
	}
}

/*
 * Reads the rows after s->last_id (up to max_id) into s: the counts,
 * the recent list, the names to re-count.
 */
static int
read_new(struct stats_db *d, const struct stats_query *q,
    struct stats_snap *s, long long max_id, size_t limit,
    struct keyset *queries, struct keyset *skills, char **cause)
{
	struct sqlq_stmt	*st;
	int			 rc, rv, k;
	size_t			 cap = s->n_recent;

	if ((rv = prep_events(d, q, "id > ?6 AND id <= ?7 AND ts >= ?1 "
	    "ORDER BY id", &st, cause)) != 0)
		return rv;
	sqlq_bind_int64(st, 6, s->last_id);
	sqlq_bind_int64(st, 7, max_id);
	while ((rc = sqlq_step(st)) == SQLQ_ROW) {
		if ((k = kind_from((const char *)sqlq_text(st,
		    1))) < 0)
			continue;
		fold_row(st, k, q, s, queries, skills);
		if (s->n_recent == cap) {
			cap = cap ? cap * 2 : 16;
			s->recent = xreallocarray(s->recent, cap,
			    sizeof *s->recent);
		}
		event_from(st, k, &s->recent[s->n_recent++]);
	}
	if (rc != SQLQ_DONE)
		rv = db_fail(d, "new events", cause);
	sqlq_finalize(st);
	if (s->n_recent > 1)
		qsort(s->recent, s->n_recent, sizeof *s->recent, cmp_recent);
	while (s->n_recent > limit)
		event_free(&s->recent[--s->n_recent]);
	return rv;
}

int
stats_since_id(struct stats_db *d, const struct stats_query *q,
    struct stats_snap *s, long long *n_new, char **cause)
{
	struct stats_snap	 t;
	struct keyset		 queries, skills;
	long long		 min_id, max_id, v;
	size_t			 limit = q->limit > 0 ? (size_t)q->limit : 10;
	int			 rv;

	if (n_new != NULL)
		*n_new = 0;
	memset(&t, 0, sizeof t);
	memset(&queries, 0, sizeof queries);
	memset(&skills, 0, sizeof skills);
	if (sqlq_begin_read(d->db) != 0)
		return db_fail(d, "starting a read", cause);
	if ((rv = id_range(d, &min_id, &max_id, cause)) != 0)
		goto out;
	/* A prune moved the oldest row, or rows went away at the end. */
	if (s->last_id > 0 && (min_id != s->min_id || max_id < s->last_id)) {
		rv = STATS_RESCAN;
		goto out;
	}
	if (max_id - s->last_id > STATS_FOLD_MAX) {
		rv = STATS_RESCAN;
		goto out;
	}
	stats_snap_copy(&t, s);
	if (s->last_id == 0)
		t.min_id = min_id;
	if (max_id > s->last_id) {
		if ((rv = read_new(d, q, &t, max_id, limit, &queries, &skills,
		    cause)) != 0 ||
		    (rv = refold_queries(d, q, &t, &queries, limit,
		    cause)) != 0 ||
		    (rv = refold_skills(d, q, &t, &skills, limit, cause)) != 0 ||
		    (rv = near_pass(d, q, &t, s, untouched, &queries,
		    cause)) != 0)
			goto out;
		t.n_folded += max_id - s->last_id;
		if (n_new != NULL)
			*n_new = max_id - s->last_id;
		t.last_id = max_id;
	}
	t.searches = t.by_kind[STATS_SEARCH];
	if (one_int(d, q, "SELECT CAST(value AS INTEGER) FROM meta WHERE "
	    "key = 'write_failures'", NULL, &v, NULL) == 0)
		t.write_failures = v;
	t.write_failures += lost_count(d);
	derive(&t);
out:
	sqlq_end_read(d->db);
	keyset_done(&queries);
	keyset_done(&skills);
	if (rv != 0) {
		stats_snap_done(&t);
		return rv;
	}
	stats_snap_done(s);
	*s = t;
	return 0;
}

/* Reads exactly n digits at *p into *out. */
static int
digits(const char **p, int n, int *out)
{
	int	 v = 0;

	while (n-- > 0) {
		if (!isdigit((unsigned char)**p))
			return -1;
		v = v * 10 + (**p - '0');
		(*p)++;
	}
	*out = v;
	return 0;
}

int
stats_parse_since(const char *s, double now, double *out)
{
	struct tm	 tm, chk;
	const char	*p = s;
	char		*end;
	long		 n;
	int		 y, mo, da, h = 0, mi = 0, se = 0;
	time_t		 t;

	if (s == NULL || *s == '\0')
		return -1;
	if (isdigit((unsigned char)*s) && strlen(s) <= 8 &&
	    strchr(s, '-') == NULL) {
		errno = 0;
		n = strtol(s, &end, 10);
		if (errno != 0 || n <= 0 || end[0] == '\0' || end[1] != '\0')
			return -1;
		switch (*end) {
		case 's':
			break;
		case 'm':
			n *= 60;
			break;
		case 'h':
			n *= 3600;
			break;
		case 'd':
			n *= 86400;
			break;
		case 'w':
			n *= 7 * 86400;
			break;
		default:
			return -1;
		}
		*out = now - (double)n;
		return 0;
	}
	if (digits(&p, 4, &y) == -1 || *p++ != '-' ||
	    digits(&p, 2, &mo) == -1 || *p++ != '-' ||
	    digits(&p, 2, &da) == -1)
		return -1;
	if (*p == 'T' || *p == ' ') {
		p++;
		if (digits(&p, 2, &h) == -1 || *p++ != ':' ||
		    digits(&p, 2, &mi) == -1)
			return -1;
		if (*p == ':') {
			p++;
			if (digits(&p, 2, &se) == -1)
				return -1;
		}
	}
	if (*p != '\0' || y < 1970 || mo < 1 || mo > 12 || da < 1 ||
	    da > 31 || h > 23 || mi > 59 || se > 59)
		return -1;
	memset(&tm, 0, sizeof tm);
	tm.tm_year = y - 1900;
	tm.tm_mon = mo - 1;
	tm.tm_mday = da;
	tm.tm_hour = h;
	tm.tm_min = mi;
	tm.tm_sec = se;
	tm.tm_isdst = -1;
	chk = tm;
	if ((t = mktime(&tm)) == (time_t)-1)
		return -1;
	/* mktime normalises 2026-02-31 to March: refuse it. */
	if (tm.tm_mday != chk.tm_mday || tm.tm_mon != chk.tm_mon)
		return -1;
	*out = (double)t;
	return 0;
}
