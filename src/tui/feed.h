/*
 * The telemetry feed: opens stats.db read-only when it appears, polls
 * PRAGMA data_version (stats_data_version) and, when another process
 * wrote or on request, folds the rows newer than the last seen id into
 * the aggregates it keeps (stats_since_id): a refresh costs what was
 * written, not the size of the table. A full stats_snapshot() is taken
 * at the start, on a range change, when the range slid (1h every 30 s,
 * 24h every 86 s, 7d every 5 minutes), when a retention prune deleted
 * rows (stats_since_id says STATS_RESCAN), and, after writes, every 5
 * minutes as a safety net: it also refreshes the percentiles and the
 * conversion figures, which the incremental path leaves as they were
 * (see stats.h). A result is a copy of those aggregates.
 *
 * The dashboard runs the feed on a worker thread (feed_worker_*) so a
 * slow snapshot of a large database never blocks the keys or the screen;
 * --once polls it directly (feed_poll). The feed owns its database handle
 * and is used by one thread at a time. A struct feed_result owns its
 * snapshot and message: feed_result_done() releases them.
 */
#ifndef SR_TUI_FEED_H
#define SR_TUI_FEED_H

#include "telemetry/stats.h"
#include "tui/model.h"

struct feed;
struct feed_worker;

struct feed_result {
	int			 have_snap;
	struct stats_snap	 snap;
	double			 snap_time;	/* wall clock when taken */
	double			 snap_ms;	/* how long it took */
	int			 incremental;	/* folded new rows only */
	long long		 n_new;		/* the rows it read */
	enum tui_range		 range;		/* the range it covers */
	enum tui_stats_state	 state;
	char			*msg;		/* TS_ERROR: why */
};

void	 feed_result_done(struct feed_result *);

/* Returns a feed for o->stats_path; nothing is opened yet. */
struct feed *feed_new(const struct tui_opts *o, double miss_threshold,
	    double conversion_window_s);
void	 feed_free(struct feed *);

/*
 * Polls once. Returns 1 and fills *res (which the caller then owns) when
 * there is something new to show: a snapshot, or a change of state (the
 * database appeared, went missing, failed). Returns 0 otherwise. force
 * takes a snapshot even when nothing was written.
 */
int	 feed_poll(struct feed *, enum tui_range, int force,
	    struct feed_result *res);

/*
 * Starts a thread that polls the feed every refresh_ms. The worker owns
 * the feed from now on. Signals are blocked in the thread.
 */
struct feed_worker *feed_worker_start(struct feed *, int refresh_ms,
	    enum tui_range);
/* Sets the range and pause state; force asks for a snapshot now. */
void	 feed_worker_request(struct feed_worker *, enum tui_range, int paused,
	    int force);
/* Moves the latest unread result into *res; returns 1, or 0 when none. */
int	 feed_worker_take(struct feed_worker *, struct feed_result *res);
/*
 * Stops the worker. When a snapshot is still running the thread is
 * detached and finishes on its own (the process is exiting): a quit
 * never waits for a slow query.
 */
void	 feed_worker_stop(struct feed_worker *);

#endif
