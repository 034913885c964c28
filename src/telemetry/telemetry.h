/*
 * The telemetry writer: appends search, load and index events to stats.db
 * (the public schema of DESIGN §10 plus replica; PRAGMA user_version
 * carries TELEMETRY_SCHEMA_VERSION), or with telemetry.backend: postgres
 * to the fleet's PostgreSQL database (telemetry_pg.c: same schema and
 * semantics). Opt-in: telemetry_open() returns a NULL
 * handle when telemetry.enabled is false, creates nothing, and every call
 * on a NULL handle does nothing.
 *
 * A record call never blocks on the database and never fails the caller:
 * it copies the event into a bounded in-memory queue
 * (telemetry.buffer_events) and returns; one background thread per handle
 * writes the queue in short transactions (WAL, busy timeout), so many
 * processes can append at once without losing events. Events stay in the
 * queue until written: while PostgreSQL is unreachable they wait there
 * and the writer reconnects with backoff. An event that cannot be written
 * (queue full, SQLite unwritable after a few tries, refused by the
 * server, still unwritten at close) is counted by telemetry_failures()
 * and added to the database's meta row "write_failures" with the next
 * batch that gets through.
 *
 * What is stored (for the TELEMETRY section of skills-radar(1)): only when
 * telemetry.enabled is true, only in the local SQLite file
 * telemetry.db_path (default $XDG_DATA_HOME/skills-radar/stats.db) or the
 * PostgreSQL database telemetry.dsn the operator configured; nothing is
 * sent anywhere else. Every row carries replica (telemetry.replica, the
 * host name by default). One row of table events per
 *   search: time, session (the server process, or the HTTP session), MCP
 *     client name, the query (telemetry.store_queries: true stores it NFC,
 *     case folded, blanks collapsed, at most 512 bytes; hash stores
 *     "hmac:" and 16 hex digits of an HMAC-SHA256 keyed by a random key
 *     kept in the same file, so equal queries group but cannot be read
 *     back; false stores nothing), the top-1 score, the number of results,
 *     the latency, and in detail (JSON) the names of the first 20 results
 *     and whether it missed and the rewriter/reranker ran;
 *   load: time, session, client, the entry loaded (its uid; the name as
 *     requested when not found), found, trust tier, latency, and in detail
 *     the name as requested, as resolved and the bytes returned;
 *   index: time, entries indexed, duration, and the trigger (cli, serve,
 *     watch) in detail.
 * Table conv pairs each found load with the search before it in the same
 * session (derived data for stats). Events older than
 * telemetry.retention_days (90) are deleted, at most once a day.
 *
 * Every string argument is borrowed for the duration of the call only.
 * The calls are thread-safe. telemetry_close() flushes the queue, joins
 * the thread and frees the handle.
 */
#ifndef SR_TELEMETRY_H
#define SR_TELEMETRY_H

#include <stddef.h>

struct cJSON;
struct config;
struct telemetry;

#define TELEMETRY_SCHEMA_VERSION	3
#define TELEMETRY_QUEUE_MAX		4096	/* default telemetry.buffer_events */
#define TELEMETRY_QUERY_MAX		512	/* bytes of query text kept */

/* telemetry.store_queries, indexed like its values in options.c. */
enum telemetry_queries {
	TELEMETRY_QUERIES_NONE = 0,	/* false */
	TELEMETRY_QUERIES_TEXT,		/* true */
	TELEMETRY_QUERIES_HASH		/* hash */
};

/*
 * Opens (creating it, its directory and its schema, migrating an older
 * schema) the database at cfg->telemetry_path and starts the writer
 * thread. session names this process's events; NULL makes one from the
 * host name, pid and start time. Returns 0 with *out = NULL when telemetry
 * is disabled, 0 with a handle, or an error with *cause (free it) when
 * the configuration or the file cannot work (an empty db_path, a bad
 * DSN, a newer schema); a caller treats that as a warning and runs on
 * without telemetry. A stats.db that cannot be opened or created at all
 * (a directory in its place, a file where its directory should be) is
 * not an error: the handle counts
 * each event it is given as lost (telemetry_lost_add(), for doctor) and
 * says so on stderr once, as when the disk is full.
 */
int	 telemetry_open(const struct config *, const char *session,
	    struct telemetry **out, char **cause);

/* Records the MCP client's name (clientInfo.name) on later events. */
void	 telemetry_set_client(struct telemetry *, const char *client);

#define TELEMETRY_TOP_MAX		20	/* result names kept per search */
#define TELEMETRY_SCORES_MAX		3	/* result scores kept per search */

/*
 * A search as its caller records it (DESIGN §2: the caller, CLI or MCP,
 * records the event, since only it knows who asked). engine_search()
 * fills every field but session; the pointers are borrowed.
 *   top1		the best score (ignored when n_results is 0)
 *   top		the names of the first n_top results in rank order (kept
 *			in detail as "top"; stats finds the rank of a later load
 *			there)
 *   scores	the scores of the first min(n_top, TELEMETRY_SCORES_MAX)
 *			results (kept in detail as "scores": which skills came
 *			close to a missed query, for stats' advice)
 *   miss		the search's miss flag
 *   rewritten,
 *   reranked		the optional Ollama stages: 1 ran, 0 not
 *   stages		what each stage did and why it failed (the "stages"
 *			object of the search result, may be NULL), stored as
 *			detail.stages: per stage ran, failed (reranker
 *			candidates) and error (no query text)
 *   session		an HTTP session id; NULL: the process's session
 */
struct telemetry_search_event {
	const char		*query;
	double			 top1;
	int			 n_results;
	const char		*top[TELEMETRY_TOP_MAX];
	size_t			 n_top;
	double			 scores[TELEMETRY_SCORES_MAX];
	double			 latency_ms;
	int			 miss;
	int			 rewritten;
	int			 reranked;
	const struct cJSON	*stages;
	const char		*session;
};

/*
 * A load as its caller records it; engine_load() fills every field but
 * session. requested is the name as asked, resolved the entry it reached
 * (its uid, as list prints it; NULL when none), trust that entry's tier
 * name, bytes the content returned.
 */
struct telemetry_load_event {
	const char	*requested;
	const char	*resolved;
	int		 found;
	const char	*trust;
	size_t		 bytes;
	double		 latency_ms;
	const char	*session;
};

/* Record a search or a load (the event is borrowed for the call only). */
void	 telemetry_search(struct telemetry *,
	    const struct telemetry_search_event *);
void	 telemetry_load(struct telemetry *,
	    const struct telemetry_load_event *);

/* Records an index run: entries indexed, duration, trigger cli|serve|watch. */
void	 telemetry_index(struct telemetry *, size_t count, double duration_ms,
	    const char *trigger);

/* Events this handle could not write so far (0 for NULL). */
long long telemetry_failures(const struct telemetry *);

/*
 * Events lost with a stats.db that could not store their count (a full
 * disk): kept in a side file, DB_PATH followed by "-lost", which doctor
 * and the dashboard add to meta's write_failures. telemetry_lost_read()
 * is 0 when the file is missing or unreadable; telemetry_lost_add()
 * creates it (N may be 0) and returns 0, or -1 with errno.
 */
char	*telemetry_lost_path(const char *db_path);
long long telemetry_lost_read(const char *db_path);
int	 telemetry_lost_add(const char *db_path, long long n);

/* telemetry.backend, indexed like its values in options.c. */
enum telemetry_backend {
	TELEMETRY_BACKEND_SQLITE = 0,
	TELEMETRY_BACKEND_POSTGRES
};

/* What doctor and -v report about a handle (telemetry_state()). */
struct telemetry_state {
	int			 backend;	/* enum telemetry_backend */
	int			 reachable;	/* the last write or connect worked */
	unsigned long long	 queued;	/* record calls so far */
	unsigned long long	 written;	/* events stored */
	size_t			 pending;	/* waiting in memory */
	size_t			 capacity;	/* telemetry.buffer_events */
	long long		 dropped;	/* lost: buffer full or unwritable */
	char			 error[256];	/* why unreachable, "" when fine */
};

/* Fills *st (all zero for NULL). */
void	 telemetry_state(const struct telemetry *, struct telemetry_state *st);

/*
 * With verbose set, the writer reports on stderr when the database goes
 * away and comes back, and at close how many events were written and
 * dropped.
 */
void	 telemetry_set_verbose(struct telemetry *, int verbose);

/*
 * Waits until every event queued so far is written or counted as failed.
 * For tests and for callers about to report; close does it too.
 */
void	 telemetry_flush(struct telemetry *);

/*
 * Sets one row of the meta table (key/value) in the configured telemetry
 * database, for commands that change what readers derive from the events
 * (stats --reset-learning sets learn_reset). SQLite: the file must exist
 * already (nothing recorded: nothing to change, *changed 0); PostgreSQL:
 * the schema is created when missing. Returns 0, or SR_IO / SR_CONFIG
 * with *cause.
 */
int	 telemetry_meta_set(const struct config *, const char *key,
	    const char *value, int *changed, char **cause);

/* Flushes, stops the writer thread and frees the handle. NULL is a no-op. */
void	 telemetry_close(struct telemetry *);

/*
 * The normal form a query is stored and grouped in (NFC, case folded,
 * blanks collapsed and trimmed, cut to TELEMETRY_QUERY_MAX bytes on a
 * character boundary); allocated.
 */
char	*telemetry_query_normal(const char *query);

/*
 * The schema, for the writer and for tests that build fixture databases:
 * the SQL creating every table and index of the current version.
 */
extern const char telemetry_schema_sql[];

#endif
