/*
 * The telemetry writer. Record calls build a complete row in memory (the
 * query normalised or hashed, detail as JSON) and append it to a bounded
 * ring; a writer thread drains the ring in one short transaction per
 * batch. Searches therefore pay for a few small allocations and a mutex,
 * never for SQLite. See telemetry.h for the contract.
 */
#include "autoconfig.h"

#include <sys/random.h>
#include <sys/stat.h>
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <sqlite3.h>
#include <utf8proc.h>

#include "buf.h"
#include "config.h"
#include "sha256.h"
#include "status.h"
#include "telemetry.h"
#include "xmalloc.h"

#define TM_BATCH_MAX	512	/* events per transaction */
#define TM_TRIES	4	/* attempts per batch before counting it lost */
#define TM_BUSY_MS	5000	/* busy timeout of the writer thread */
#define TM_OPEN_BUSY_MS	10000	/* ... when creating or migrating the schema */
#define TM_TOP_MAX	20	/* result names kept per search */
#define TM_PRUNE_EVERY	86400.0	/* seconds between two prunes */

/*
 * Version 1: the public schema of DESIGN §10 (table events) with its
 * indexes, and two internal tables that may change between versions:
 * meta (key/value: query_key, the hash key of store_queries: hash;
 * last_prune, unix time; write_failures, events writers lost) and conv,
 * which a trigger fills as loads are inserted: each found load with the
 * latest search of its session at most a day before it, the time between
 * them, the rank of the loaded skill in that search's detail.top and the
 * search's top-1 score. stats reads conv instead of pairing events at
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
	" trust TEXT, found INTEGER, detail TEXT);\n"
	"CREATE INDEX IF NOT EXISTS events_ts ON events(ts);\n"
	"CREATE INDEX IF NOT EXISTS events_kind ON events(kind, ts);\n"
	"CREATE INDEX IF NOT EXISTS events_session ON events(session, kind, ts);\n"
	"CREATE INDEX IF NOT EXISTS events_latency ON events(kind, latency_ms, ts);\n"
	"CREATE INDEX IF NOT EXISTS events_query ON events(kind, query, ts,"
	" top1_score, latency_ms);\n"
	"CREATE INDEX IF NOT EXISTS events_skill ON events(kind, skill, ts,"
	" found, latency_ms);\n"
	"CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);\n"
	"INSERT OR IGNORE INTO meta VALUES ('write_failures', '0');\n"
	"INSERT OR IGNORE INTO meta VALUES ('last_prune', '0');\n"
	"CREATE TABLE IF NOT EXISTS conv (load_id INTEGER PRIMARY KEY,"
	" ts REAL NOT NULL, skill TEXT, search_id INTEGER NOT NULL,"
	" dt REAL NOT NULL, rank INTEGER, top1 REAL);\n"
	"CREATE INDEX IF NOT EXISTS conv_ts ON conv(ts, dt, search_id, rank,"
	" top1, skill);\n"
	"CREATE TRIGGER IF NOT EXISTS events_conv AFTER INSERT ON events"
	" WHEN NEW.kind = 'load' AND NEW.found = 1 AND NEW.session IS NOT NULL"
	" BEGIN"
	"  INSERT OR REPLACE INTO conv (load_id, ts, skill, search_id, dt, rank,"
	"   top1)"
	"  SELECT NEW.id, NEW.ts, NEW.skill, s.id, NEW.ts - s.ts,"
	"   (SELECT CAST(j.key AS INTEGER) + 1 FROM json_each(CASE WHEN"
	"    json_valid(s.detail) THEN s.detail ELSE '{}' END, '$.top') AS j"
	"    WHERE j.value = NEW.skill LIMIT 1),"
	"   coalesce(s.top1_score, 0)"
	"  FROM events AS s WHERE s.session = NEW.session AND s.kind = 'search'"
	"   AND s.ts <= NEW.ts AND s.ts >= NEW.ts - 86400"
	"  ORDER BY s.ts DESC, s.id DESC LIMIT 1;"
	" END;\n";

enum tm_kind {
	TM_SEARCH,
	TM_LOAD,
	TM_INDEX
};

static const char *const tm_kind_names[] = { "search", "load", "index" };

/* One row of events, owned by the queue while waiting. */
struct tm_event {
	double		 ts;
	enum tm_kind	 kind;
	char		*session;
	char		*client;
	char		*query;
	char		*skill;
	int		 has_top1;
	double		 top1;
	int		 has_n;
	long long	 n_results;
	double		 latency_ms;
	char		*trust;
	int		 found;		/* -1: NULL */
	char		*detail;
};

struct telemetry {
	char		*path;
	sqlite3		*db;
	sqlite3_stmt	*ins;
	int		 mode;		/* enum telemetry_queries */
	int		 retention_days;
	uint8_t		 key[32];	/* query hash key */
	double		 next_prune;	/* earliest time to check again */

	pthread_t	 thread;
	pthread_mutex_t	 mu;
	pthread_cond_t	 work;		/* events queued or stop */
	pthread_cond_t	 done;		/* a batch finished */
	struct tm_event	 ring[TELEMETRY_QUEUE_MAX];
	size_t		 head, n;
	unsigned long long queued;	/* events accepted or dropped so far */
	unsigned long long settled;	/* events written or counted lost */
	int		 stop;
	long long	 failures;
	char		*session;
	char		*client;
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
	memset(e, 0, sizeof *e);
}

static int
db_fail(sqlite3 *db, const char *path, const char *what, char **cause)
{
	xasprintf(cause, "%s: %s: %s", path, what,
	    db != NULL ? sqlite3_errmsg(db) : "out of memory");
	return SR_IO;
}

static int
exec(sqlite3 *db, const char *path, const char *sql, char **cause)
{
	char	*msg = NULL;

	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		if (cause != NULL)
			xasprintf(cause, "%s: %s", path,
			    msg != NULL ? msg : sqlite3_errmsg(db));
		sqlite3_free(msg);
		return SR_IO;
	}
	return 0;
}

static void
hexify(const uint8_t *p, size_t n, char *out)
{
	static const char	 hx[] = "0123456789abcdef";
	size_t			 i;

	for (i = 0; i < n; i++) {
		out[2 * i] = hx[p[i] >> 4];
		out[2 * i + 1] = hx[p[i] & 0xf];
	}
	out[2 * n] = '\0';
}

static int
unhex(const char *s, uint8_t *out, size_t n)
{
	size_t	 i;
	int	 hi, lo;

	if (strlen(s) != 2 * n)
		return -1;
	for (i = 0; i < n; i++) {
		hi = s[2 * i] <= '9' ? s[2 * i] - '0' : s[2 * i] - 'a' + 10;
		lo = s[2 * i + 1] <= '9' ? s[2 * i + 1] - '0' :
		    s[2 * i + 1] - 'a' + 10;
		if (hi < 0 || hi > 15 || lo < 0 || lo > 15)
			return -1;
		out[i] = (uint8_t)(hi << 4 | lo);
	}
	return 0;
}

/* 32 random bytes from the kernel, hex encoded. */
static int
random_key(char out[65])
{
	uint8_t	 k[32];
	size_t	 got = 0;
	ssize_t	 r;

	while (got < sizeof k) {
		r = getrandom(k + got, sizeof k - got, 0);
		if (r == -1 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		got += (size_t)r;
	}
	hexify(k, sizeof k, out);
	return 0;
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
	    unhex(v, t->key, sizeof t->key) == 0)
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
	sqlite3_busy_timeout(t->db, TM_OPEN_BUSY_MS);
	if ((rv = exec(t->db, t->path, "BEGIN IMMEDIATE", cause)) != 0)
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
	/* Version 0 -> 1: create. Later migrations go here, in order. */
	if ((rv = exec(t->db, t->path, telemetry_schema_sql, cause)) != 0)
		goto out;
	if (random_key(key) == -1) {
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
	    unhex(v, t->key, sizeof t->key) == -1) {
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
	sqlite3_busy_timeout(t->db, TM_BUSY_MS);
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

static int
write_batch(struct telemetry *t, struct tm_event *v, size_t n)
{
	sqlite3_stmt	*s = t->ins;
	size_t		 i;
	int		 rc;

	if (exec(t->db, t->path, "BEGIN IMMEDIATE", NULL) != 0)
		return -1;
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
		if ((rc = sqlite3_step(s)) != SQLITE_DONE) {
			sqlite3_reset(s);
			exec(t->db, t->path, "ROLLBACK", NULL);
			return -1;
		}
	}
	sqlite3_reset(s);
	if (exec(t->db, t->path, "COMMIT", NULL) != 0) {
		exec(t->db, t->path, "ROLLBACK", NULL);
		return -1;
	}
	return 0;
}

static void *
writer(void *arg)
{
	struct telemetry	*t = arg;
	struct tm_event		 batch[TM_BATCH_MAX];
	size_t			 n, i;
	int			 try;

	prune(t);
	pthread_mutex_lock(&t->mu);
	for (;;) {
		while (t->n == 0 && !t->stop)
			pthread_cond_wait(&t->work, &t->mu);
		if (t->n == 0 && t->stop)
			break;
		for (n = 0; n < TM_BATCH_MAX && t->n > 0; n++) {
			batch[n] = t->ring[t->head];
			memset(&t->ring[t->head], 0, sizeof t->ring[0]);
			t->head = (t->head + 1) % TELEMETRY_QUEUE_MAX;
			t->n--;
		}
		pthread_mutex_unlock(&t->mu);

		for (try = 0; try < TM_TRIES; try++) {
			if (write_batch(t, batch, n) == 0)
				break;
			usleep(20000U * (unsigned)(try + 1));
		}
		for (i = 0; i < n; i++)
			event_done(&batch[i]);
		prune(t);

		pthread_mutex_lock(&t->mu);
		if (try == TM_TRIES)
			t->failures += (long long)n;
		t->settled += n;
		pthread_cond_broadcast(&t->done);
	}
	pthread_mutex_unlock(&t->mu);
	return NULL;
}

static char *
default_session(void)
{
	char	*s;

	xasprintf(&s, "p%ld-%lx", (long)getpid(), (unsigned long)time(NULL));
	return s;
}

int
telemetry_open(const struct config *cfg, const char *session,
    struct telemetry **out, char **cause)
{
	struct telemetry	*t = NULL;
	int			 rv;

	*out = NULL;
	if (cfg == NULL || !cfg->telemetry_enabled)
		return 0;
	if (cfg->telemetry_path == NULL || *cfg->telemetry_path == '\0') {
		xasprintf(cause, "telemetry.db_path is empty");
		return SR_CONFIG;
	}
	t = xcalloc(1, sizeof *t);
	t->path = xstrdup(cfg->telemetry_path);
	t->mode = cfg->store_queries;
	t->retention_days = cfg->retention_days;
	t->session = session != NULL ? xstrdup(session) : default_session();
	pthread_mutex_init(&t->mu, NULL);
	pthread_cond_init(&t->work, NULL);
	pthread_cond_init(&t->done, NULL);

	if (buf_mkparents(t->path, 0700) == -1) {
		xasprintf(cause, "%s: cannot create its directory: %s",
		    t->path, strerror(errno));
		rv = SR_IO;
		goto fail;
	}
	if (sqlite3_open_v2(t->path, &t->db, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		rv = db_fail(t->db, t->path, "cannot open", cause);
		goto fail;
	}
	sqlite3_busy_timeout(t->db, TM_BUSY_MS);
	if ((rv = exec(t->db, t->path, "PRAGMA journal_mode=WAL", cause)) != 0 ||
	    (rv = exec(t->db, t->path, "PRAGMA synchronous=NORMAL",
	    cause)) != 0 || (rv = schema(t, cause)) != 0)
		goto fail;
	if (sqlite3_prepare_v2(t->db, "INSERT INTO events (ts, kind, session, "
	    "client, query, skill, top1_score, n_results, latency_ms, trust, "
	    "found, detail) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, "
	    "?11, ?12)", -1, &t->ins, NULL) != SQLITE_OK) {
		rv = db_fail(t->db, t->path, "preparing the insert", cause);
		goto fail;
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
	sqlite3_finalize(t->ins);
	sqlite3_close(t->db);
	pthread_mutex_destroy(&t->mu);
	pthread_cond_destroy(&t->work);
	pthread_cond_destroy(&t->done);
	free(t->session);
	free(t->path);
	free(t);
	return rv;
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
	t->queued++;
	if (t->n == TELEMETRY_QUEUE_MAX || t->stop) {
		t->failures++;
		t->settled++;
		pthread_mutex_unlock(&t->mu);
		event_done(e);
		return;
	}
	t->ring[(t->head + t->n) % TELEMETRY_QUEUE_MAX] = *e;
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

/* HMAC-SHA256 (RFC 2104) of msg under the database's key, 16 hex digits. */
static char *
query_hash(const struct telemetry *t, const char *msg)
{
	struct sha256	 c;
	uint8_t		 pad[64], inner[SHA256_DIGEST_LEN], d[SHA256_DIGEST_LEN];
	char		 hex[2 * 8 + 1], *s;
	size_t		 i;

	memset(pad, 0, sizeof pad);
	memcpy(pad, t->key, sizeof t->key);
	for (i = 0; i < sizeof pad; i++)
		pad[i] ^= 0x36;
	sha256_init(&c);
	sha256_update(&c, pad, sizeof pad);
	sha256_update(&c, msg, strlen(msg));
	sha256_final(&c, inner);
	for (i = 0; i < sizeof pad; i++)
		pad[i] ^= 0x36 ^ 0x5c;
	sha256_init(&c);
	sha256_update(&c, pad, sizeof pad);
	sha256_update(&c, inner, sizeof inner);
	sha256_final(&c, d);
	hexify(d, 8, hex);
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
telemetry_search_ex(struct telemetry *t, const char *query, double top1,
    int n_results, const char *const *top_names, size_t n_top,
    double latency_ms, int miss, int rewritten, int reranked,
    const cJSON *stages, const char *session_override)
{
	struct tm_event	 e;
	cJSON		*d, *top;
	char		*norm;
	size_t		 i;

	if (t == NULL)
		return;
	memset(&e, 0, sizeof e);
	e.kind = TM_SEARCH;
	if (t->mode != TELEMETRY_QUERIES_NONE) {
		norm = telemetry_query_normal(query);
		if (t->mode == TELEMETRY_QUERIES_HASH) {
			e.query = query_hash(t, norm);
			free(norm);
		} else
			e.query = norm;
	}
	e.has_top1 = 1;
	e.top1 = n_results > 0 ? top1 : 0.0;
	e.has_n = 1;
	e.n_results = n_results < 0 ? 0 : n_results;
	e.latency_ms = latency_ms;
	e.found = -1;
	d = cJSON_CreateObject();
	top = cJSON_AddArrayToObject(d, "top");
	for (i = 0; i < n_top && i < TM_TOP_MAX && top_names != NULL; i++) {
		if (top_names[i] != NULL)
			cJSON_AddItemToArray(top,
			    cJSON_CreateString(top_names[i]));
	}
	cJSON_AddBoolToObject(d, "miss", miss != 0);
	cJSON_AddBoolToObject(d, "rewritten", rewritten != 0);
	cJSON_AddBoolToObject(d, "reranked", reranked != 0);
	if (stages != NULL)
		add_stages(d, stages);
	e.detail = print_detail(d);
	enqueue(t, &e, session_override);
}

void
telemetry_search(struct telemetry *t, const char *query, double top1,
    int n_results, const char *const *top_names, size_t n_top,
    double latency_ms, int miss, const char *session_override)
{
	telemetry_search_ex(t, query, top1, n_results, top_names, n_top,
	    latency_ms, miss, 0, 0, NULL, session_override);
}

void
telemetry_load(struct telemetry *t, const char *requested,
    const char *resolved, int found, const char *trust, size_t bytes,
    double latency_ms, const char *session_override)
{
	struct tm_event	 e;
	cJSON		*d;

	if (t == NULL)
		return;
	memset(&e, 0, sizeof e);
	e.kind = TM_LOAD;
	/* Count loads by the entry they reached, not by how it was asked. */
	e.skill = xstrdup_or_null(found && resolved != NULL ? resolved :
	    requested);
	e.trust = xstrdup_or_null(trust);
	e.found = found != 0;
	e.latency_ms = latency_ms;
	d = cJSON_CreateObject();
	cJSON_AddStringToObject(d, "requested", requested != NULL ?
	    requested : "");
	if (resolved != NULL)
		cJSON_AddStringToObject(d, "resolved", resolved);
	cJSON_AddNumberToObject(d, "bytes", (double)bytes);
	e.detail = print_detail(d);
	enqueue(t, &e, session_override);
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
	long long	 n;

	if (t == NULL)
		return 0;
	pthread_mutex_lock((pthread_mutex_t *)&t->mu);
	n = t->failures;
	pthread_mutex_unlock((pthread_mutex_t *)&t->mu);
	return n;
}

void
telemetry_flush(struct telemetry *t)
{
	unsigned long long	 target;

	if (t == NULL)
		return;
	pthread_mutex_lock(&t->mu);
	target = t->queued;
	pthread_cond_signal(&t->work);
	while (t->settled < target)
		pthread_cond_wait(&t->done, &t->mu);
	pthread_mutex_unlock(&t->mu);
}

/* Adds this handle's lost events to meta.write_failures, best effort. */
static void
save_failures(struct telemetry *t)
{
	char	 sql[128];

	if (t->failures <= 0)
		return;
	snprintf(sql, sizeof sql, "UPDATE meta SET value = CAST(value AS "
	    "INTEGER) + %lld WHERE key = 'write_failures'", t->failures);
	exec(t->db, t->path, sql, NULL);
}

void
telemetry_close(struct telemetry *t)
{
	size_t	 i;

	if (t == NULL)
		return;
	pthread_mutex_lock(&t->mu);
	t->stop = 1;
	pthread_cond_signal(&t->work);
	pthread_mutex_unlock(&t->mu);
	pthread_join(t->thread, NULL);
	save_failures(t);
	for (i = 0; i < TELEMETRY_QUEUE_MAX; i++)
		event_done(&t->ring[i]);
	sqlite3_finalize(t->ins);
	sqlite3_close(t->db);
	pthread_mutex_destroy(&t->mu);
	pthread_cond_destroy(&t->work);
	pthread_cond_destroy(&t->done);
	free(t->session);
	free(t->client);
	free(t->path);
	free(t);
}
