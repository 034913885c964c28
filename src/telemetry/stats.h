/*
 * Reading stats.db: the aggregates that both `skills-radar stats` and the
 * dashboard show. No SQL outside this module. A struct stats_db is a
 * read-only handle; stats_open() never creates or migrates the database.
 * stats_snapshot() fills an embedded struct stats_snap that owns all its
 * arrays and strings; stats_snap_done() releases them. stats_since_id()
 * brings a snapshot up to date by reading only the rows written since
 * (the dashboard's refresh); stats_snap_copy() duplicates one.
 */
#ifndef SR_STATS_H
#define SR_STATS_H

#include <stddef.h>

struct stats_db;

enum stats_kind {
	STATS_SEARCH = 0,
	STATS_LOAD,
	STATS_INDEX,
	STATS_NKINDS
};

struct stats_query {
	double		 since;			/* unix time; 0: everything */
	int		 limit;			/* rows per list (top, recent, missed) */
	double		 miss_threshold;	/* retrieval.miss_threshold */
	double		 conversion_window_s;	/* stats.conversion_window_s */
	/*
	 * Optional (added): the names (uids) of the indexed entries, so the
	 * snapshot can list those never loaded; NULL/0 skips that list.
	 * Borrowed for the duration of stats_snapshot().
	 */
	const char *const *skills;
	size_t		 n_skills;
};

struct stats_count {
	char		*key;		/* query text, or skill name */
	long long	 n;
	double		 value;		/* list-specific: mean top-1 score, mean rank... */
};

/*
 * The skills that came close to a missed query: the results of its
 * newest missed search in the range, as that search's telemetry detail
 * kept them (names in rank order; scores from events written since
 * detail.scores exists, else -1).
 */
#define STATS_NEAR_MAX	3
struct stats_near {
	char		*skill[STATS_NEAR_MAX];
	double		 score[STATS_NEAR_MAX];
	size_t		 n;
	int		 stored;	/* the detail listed the results */
};

struct stats_event {
	double		 ts;
	enum stats_kind	 kind;
	char		*session;
	char		*client;
	char		*query;		/* NULL when not stored */
	char		*skill;
	double		 top1_score;	/* -1 when not a search */
	int		 n_results;
	double		 latency_ms;
	char		*trust;
	int		 found;		/* load: 1 found, 0 not; -1 n/a */
	long long	 id;		/* events.id (added): orders equal ts */
	char		*replica;	/* the writing process (NULL: version 1 rows) */
	char		*detail;	/* a search's detail JSON ("top", "scores"), or NULL */
};

/* Buckets of stats_snap's pictures. */
#define STATS_SERIES	40	/* miss rate over time: first_ts .. last_ts */
#define STATS_HIST	20	/* top-1 scores: 0.05 wide, 0 .. 1 */

struct stats_snap {
	/*
	 * Pictures (stats_snapshot() only; stats_since_id() leaves them):
	 * searches and misses in STATS_SERIES equal slices of the events'
	 * time range, and searches by top-1 score.
	 */
	long long		 series_searches[STATS_SERIES];
	long long		 series_misses[STATS_SERIES];
	long long		 score_hist[STATS_HIST];
	long long		 total;
	long long		 by_kind[STATS_NKINDS];
	long long		 misses;		/* searches with top-1 < threshold */
	double			 miss_rate;		/* misses / searches, 0 when none */
	double			 p50_ms[STATS_NKINDS];
	double			 p95_ms[STATS_NKINDS];
	long long		 conversions;		/* searches followed by a load */
	double			 conversion_rate;
	double			 mean_load_rank;	/* rank of the loaded skill, 0 n/a */
	struct stats_count	*top_queries;	size_t n_top_queries;
	struct stats_count	*top_loads;	size_t n_top_loads;
	struct stats_count	*missed;	size_t n_missed;	/* missed queries */
	struct stats_count	*after_miss;	size_t n_after_miss;	/* skills loaded after a miss */
	struct stats_event	*recent;	size_t n_recent;	/* newest first */
	long long		 write_failures;	/* counted by writers, if recorded */
	const char		*advice;		/* static text from the miss rate */
	int			 badge;			/* 0 green, 1 yellow, 2 red */

	/* Added after the first draft. */
	long long		 searches;		/* == by_kind[STATS_SEARCH] */
	long long		 loads_found;		/* loads that found a skill */
	long long		 converted_loads;	/* loads within the window after a search */
	/* Rank of the loaded skill in the search it followed: key "1".."20", or "none". */
	struct stats_count	*load_ranks;	size_t n_load_ranks;
	/* Indexed entries (stats_query.skills) with no load in the range, sorted. */
	struct stats_count	*never_loaded;	size_t n_never_loaded;
	double			 first_ts, last_ts;	/* range of the events counted, 0 when none */
	int			 schema_version;	/* PRAGMA user_version of the file */
	long long		 n_latency[STATS_NKINDS];	/* events with a latency */

	/*
	 * Added for stats_since_id(): the events ids the snapshot covers.
	 * last_id is the newest row counted (0: the table was empty);
	 * min_id the oldest row of the table, which a retention prune
	 * moves. n_folded counts the rows stats_since_id() added since
	 * the last stats_snapshot().
	 */
	long long		 last_id;
	long long		 min_id;
	long long		 n_folded;

	/*
	 * Per replica (events.replica; key "-" for rows written before the
	 * column existed): n events, value the searches among them; most
	 * events first. Empty for a version 1 file.
	 */
	struct stats_count	*replicas;	size_t n_replicas;

	/* near[i]: the close candidates of missed[i] (n_near == n_missed). */
	struct stats_near	*near;		size_t n_near;
};

/*
 * Opens the database read-only (SQLITE_OPEN_READONLY: it is never created
 * nor migrated); a postgresql:// or postgres:// path opens PostgreSQL. Returns 0, SR_NOTFOUND when the file does not exist
 * (telemetry never wrote), or SR_IO with *cause: not a telemetry database,
 * or a schema newer than this program's.
 */
int	 stats_open(const char *path, struct stats_db **out, char **cause);

/*
 * Opens the fleet's telemetry in PostgreSQL (telemetry.backend: postgres;
 * stats_open() calls it for a postgresql:// path). SR_NOTFOUND when no
 * replica has written yet (no schema), SR_IO when unreachable; the DSN
 * in *cause has its password masked.
 */
int	 stats_open_pg(const char *dsn, struct stats_db **out, char **cause);

void	 stats_close(struct stats_db *);

/* PRAGMA data_version: changes when another connection wrote. */
long long stats_data_version(struct stats_db *);

int	 stats_snapshot(struct stats_db *, const struct stats_query *,
	    struct stats_snap *out, char **cause);
void	 stats_snap_done(struct stats_snap *);

/*
 * Copies src into dst (which owns its copy: stats_snap_done). advice
 * stays a pointer to static text.
 */
void	 stats_snap_copy(struct stats_snap *dst, const struct stats_snap *src);

/* stats_since_id(): the rows changed under the snapshot; take a new one. */
#define STATS_RESCAN	(-1)
/* stats_since_id() refuses to fold more rows than this at once. */
#define STATS_FOLD_MAX	2000

/*
 * Folds the events written since s was taken (q must be the query that
 * took it) into s, reading only the rows with id > s->last_id through
 * the primary key, so a refresh costs what was written, not the size of
 * the table. Kept exact: the totals per kind, the latency counts, the
 * misses and miss rate, first_ts/last_ts, loads_found, the top queries,
 * missed queries and top loads (each query or skill the new rows touch
 * is re-counted through its covering index, which is all a top list of
 * counts that only grow can change), the close candidates of the missed
 * queries, never_loaded, the recent events and write_failures. Left as the last snapshot had them, until the
 * next stats_snapshot(): the percentiles p50_ms/p95_ms and the
 * conversion figures (conversions, converted_loads, mean_load_rank,
 * load_ranks, after_miss), whose exact update needs a scan.
 * Returns 0 (s updated; *n_new, when not NULL, the rows read),
 * STATS_RESCAN when rows were deleted or replaced under it (a retention
 * prune moved min(id), or max(id) went back) or more than STATS_FOLD_MAX
 * rows are new, leaving s unchanged: call stats_snapshot(); or SR_IO
 * with *cause, s unchanged.
 */
int	 stats_since_id(struct stats_db *, const struct stats_query *,
	    struct stats_snap *s, long long *n_new, char **cause);

/* "search", "load", "index" */
const char *stats_kind_name(enum stats_kind);

/* "green", "yellow", "red" for a badge value. */
const char *stats_badge_name(int badge);

/*
 * Returns 0 with *out = unix time for a --since value: a duration (a
 * positive integer with s, m, h, d or w: "24h", "7d") counted back from
 * now, or a local date "YYYY-MM-DD", optionally followed by "THH:MM" or
 * "THH:MM:SS" (a space works too). Returns -1 for anything else.
 */
int	 stats_parse_since(const char *s, double now, double *out);

#endif
