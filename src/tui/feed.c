/*
 * The telemetry feed and its worker thread: see feed.h.
 */
#include "autoconfig.h"

#include <sys/stat.h>

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/clock.h"
#include "tui/feed.h"
#include "telemetry/stats.h"
#include "base/status.h"
#include "base/xmalloc.h"

#define SNAP_LIMIT	200	/* rows per list in a snapshot */
#define RANGE_TICK_S	30.0	/* re-snapshot a sliding range this often, */
#define RANGE_TICK_PART	1000.0	/* or each 1/1000 of the range, */
#define RANGE_TICK_MAX	300.0	/* at most this long */
#define FULL_EVERY_S	300.0	/* safety net: a full snapshot after writes */

struct feed {
	struct tui_opts		 o;
	char			*path;
	double			 miss_threshold;
	double			 conversion_window_s;
	struct stats_db		*db;
	long long		 version;
	enum tui_range		 range;		/* of the last snapshot */
	double			 snap_time;	/* of the last full snapshot */
	double			 since;		/* its lower bound on ts */
	/*
	 * The aggregates shown, which the feed keeps: a full snapshot at
	 * the start, on a range change, a prune, or every FULL_EVERY_S;
	 * in between, stats_since_id() folds in the new rows only.
	 */
	struct stats_snap	 cur;
	int			 have_cur;
	enum tui_stats_state	 state;		/* last reported */
	int			 reported;
	struct stat		 opened;	/* the SQLite file db has open */
};

struct feed_worker {
	struct feed		*feed;
	pthread_t		 thread;
	pthread_mutex_t		 mu;
	pthread_cond_t		 cv;
	int			 refresh_ms;
	/* Requests, main thread to worker. */
	enum tui_range		 range;
	int			 paused;
	int			 force;
	int			 quit;
	/* State and results, worker to main thread. */
	int			 busy;		/* polling outside the lock */
	int			 detached;	/* the worker frees itself */
	int			 pending;
	struct feed_result	 res;
};

static double
range_seconds(enum tui_range r)
{
	switch (r) {
	case RANGE_1H:
		return 3600;
	case RANGE_24H:
		return 86400;
	case RANGE_7D:
		return 7 * 86400;
	default:
		return 0;
	}
}

void
feed_result_done(struct feed_result *r)
{
	if (r->have_snap)
		stats_snap_done(&r->snap);
	free(r->msg);
	memset(r, 0, sizeof *r);
}

struct feed *
feed_new(const struct tui_opts *o, double miss_threshold,
    double conversion_window_s)
{
	struct feed	*f;

	f = xcalloc(1, sizeof *f);
	f->o = *o;
	f->path = xstrdup(o->stats_path != NULL ? o->stats_path : "");
	f->o.stats_path = f->path;
	f->miss_threshold = miss_threshold;
	f->conversion_window_s = conversion_window_s;
	f->version = -1;
	return f;
}

void
feed_free(struct feed *f)
{
	if (f == NULL)
		return;
	if (f->db != NULL)
		stats_close(f->db);
	if (f->have_cur)
		stats_snap_done(&f->cur);
	free(f->path);
	free(f);
}

/* Reports a state without a snapshot, once per change. */
static int
report_state(struct feed *f, enum tui_stats_state st, char *msg,
    struct feed_result *res)
{
	if (f->reported && f->state == st && st != TS_ERROR) {
		free(msg);
		return 0;
	}
	f->reported = 1;
	f->state = st;
	res->state = st;
	res->msg = msg;
	res->range = f->range;
	return 1;
}

static void
query_init(struct feed *f, double since, struct stats_query *q)
{
	memset(q, 0, sizeof *q);
	q->since = since;
	q->limit = SNAP_LIMIT;
	q->miss_threshold = f->miss_threshold;
	q->conversion_window_s = f->conversion_window_s;
}

/* Hands a copy of the feed's aggregates to the result. */
static int
publish(struct feed *f, struct feed_result *res, double t0)
{
	stats_snap_copy(&res->snap, &f->cur);
	res->snap_ms = clock_ms() - t0;
	res->have_snap = 1;
	res->range = f->range;
	res->state = TS_OK;
	f->state = TS_OK;
	f->reported = 1;
	return 1;
}

/* A full snapshot: stats_snapshot() over the whole range. */
static int
snapshot(struct feed *f, enum tui_range range, struct feed_result *res)
{
	struct stats_query	 q;
	struct stats_snap	 s;
	char			*cause = NULL;
	double			 t0, now;

	now = clock_wall();
	query_init(f, range_seconds(range) > 0 ?
	    now - range_seconds(range) : 0, &q);
	t0 = clock_ms();
	if (stats_snapshot(f->db, &q, &s, &cause) != 0) {
		memset(&res->snap, 0, sizeof res->snap);
		return report_state(f, TS_ERROR, cause != NULL ? cause :
		    xstrdup("snapshot failed"), res);
	}
	if (f->have_cur)
		stats_snap_done(&f->cur);
	f->cur = s;
	f->have_cur = 1;
	f->range = range;
	f->since = q.since;
	f->snap_time = res->snap_time = now;
	return publish(f, res, t0);
}

/*
 * New rows only (stats_since_id), or a full snapshot when the rows under
 * the last one changed (a prune) or too many are new.
 */
static int
refresh(struct feed *f, struct feed_result *res)
{
	struct stats_query	 q;
	char			*cause = NULL;
	double			 t0;
	int			 rv;

	query_init(f, f->since, &q);
	t0 = clock_ms();
	rv = stats_since_id(f->db, &q, &f->cur, &res->n_new, &cause);
	if (rv == STATS_RESCAN)
		return snapshot(f, f->range, res);
	if (rv != 0)
		return report_state(f, TS_ERROR, cause != NULL ? cause :
		    xstrdup("refresh failed"), res);
	res->incremental = 1;
	res->snap_time = clock_wall();
	return publish(f, res, t0);
}

/*
 * Does a sliding range need a new snapshot, its oldest events falling
 * out? Every 30 s for 1h, 86 s for 24h, 5 min for 7d: a full snapshot
 * of a large database costs a few hundred ms; in between, the range
 * keeps the events up to one tick older than it says.
 */
static int
range_slid(const struct feed *f, enum tui_range range)
{
	double	 tick = range_seconds(range) / RANGE_TICK_PART;

	if (range_seconds(range) <= 0)
		return 0;
	if (tick < RANGE_TICK_S)
		tick = RANGE_TICK_S;
	if (tick > RANGE_TICK_MAX)
		tick = RANGE_TICK_MAX;
	return clock_wall() - f->snap_time > tick;
}

/*
 * 1 when the stats.db path no longer names the file opened (deleted, or
 * replaced by another: a new dev/ino), so the dashboard does not show a
 * deleted file for ever.
 */
static int
replaced(const struct feed *f)
{
	struct stat	 st;

	if (f->opened.st_ino == 0)
		return 0;
	if (stat(f->path, &st) != 0)
		return 1;
	return st.st_dev != f->opened.st_dev || st.st_ino != f->opened.st_ino;
}

int
feed_poll(struct feed *f, enum tui_range range, int force,
    struct feed_result *res)
{
	char		*cause = NULL;
	long long	 v;
	int		 rv;

	memset(res, 0, sizeof *res);
	if (f->db != NULL && !f->o.stats_pg && replaced(f)) {
		/* Deleted or replaced: what db shows is no longer the file. */
		stats_close(f->db);
		f->db = NULL;
		if (f->have_cur)
			stats_snap_done(&f->cur);
		f->have_cur = 0;
		f->version = -1;
	}
	if (f->db == NULL) {
		rv = f->o.stats_pg ? stats_open_pg(f->path, &f->db, &cause) :
		    stats_open(f->path, &f->db, &cause);
		if (rv == SR_NOTFOUND) {
			free(cause);
			f->db = NULL;
			return report_state(f, f->o.telemetry_off ? TS_OFF :
			    TS_MISSING, NULL, res);
		}
		if (rv != 0) {
			f->db = NULL;
			return report_state(f, TS_ERROR, cause, res);
		}
		if (f->o.stats_pg || stat(f->path, &f->opened) != 0)
			memset(&f->opened, 0, sizeof f->opened);
		force = 1;
	}
	v = stats_data_version(f->db);
	if (!force && v == f->version && range == f->range &&
	    !range_slid(f, range))
		return 0;
	f->version = v;
	if (!f->have_cur || range != f->range || range_slid(f, range) ||
	    clock_wall() - f->snap_time > FULL_EVERY_S)
		return snapshot(f, range, res);
	return refresh(f, res);
}

/* ---- the worker ------------------------------------------------------- */

static void
worker_free(struct feed_worker *w)
{
	if (w->pending)
		feed_result_done(&w->res);
	feed_free(w->feed);
	pthread_mutex_destroy(&w->mu);
	pthread_cond_destroy(&w->cv);
	free(w);
}

static void
deadline(struct timespec *ts, int ms)
{
	clock_gettime(CLOCK_REALTIME, ts);
	ts->tv_sec += ms / 1000;
	ts->tv_nsec += (long)(ms % 1000) * 1000000L;
	if (ts->tv_nsec >= 1000000000L) {
		ts->tv_sec++;
		ts->tv_nsec -= 1000000000L;
	}
}

static void *
worker_main(void *arg)
{
	struct feed_worker	*w = arg;
	struct feed_result	 res;
	struct timespec		 ts;
	enum tui_range		 range;
	double			 last_ms = 0;
	int			 force, paused, got, gone, wait_ms;

	pthread_mutex_lock(&w->mu);
	while (!w->quit) {
		if (!w->force) {
			/*
			 * A slow snapshot (a large database) waits four times
			 * its own duration before the next one: a steady
			 * stream of events costs at most a fifth of a core.
			 */
			wait_ms = w->refresh_ms;
			if (4 * last_ms > wait_ms)
				wait_ms = (int)(4 * last_ms);
			deadline(&ts, wait_ms);
			while (!w->quit && !w->force &&
			    pthread_cond_timedwait(&w->cv, &w->mu, &ts) == 0)
				;
		}
		if (w->quit)
			break;
		force = w->force;
		w->force = 0;
		range = w->range;
		paused = w->paused;
		if (paused && !force)
			continue;
		w->busy = 1;
		pthread_mutex_unlock(&w->mu);

		got = feed_poll(w->feed, range, force, &res);
		if (got && res.have_snap)
			last_ms = res.snap_ms;

		pthread_mutex_lock(&w->mu);
		w->busy = 0;
		if (got) {
			if (w->pending)
				feed_result_done(&w->res);
			w->res = res;
			w->pending = 1;
		}
	}
	gone = w->detached;
	pthread_mutex_unlock(&w->mu);
	if (gone)
		worker_free(w);
	return NULL;
}

struct feed_worker *
feed_worker_start(struct feed *f, int refresh_ms, enum tui_range range)
{
	struct feed_worker	*w;
	sigset_t		 all, old;

	w = xcalloc(1, sizeof *w);
	w->feed = f;
	w->refresh_ms = refresh_ms > 0 ? refresh_ms : 250;
	w->range = range;
	w->force = 1;
	pthread_mutex_init(&w->mu, NULL);
	pthread_cond_init(&w->cv, NULL);
	/* Signals go to the main thread, whose getch they interrupt. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	if (pthread_create(&w->thread, NULL, worker_main, w) != 0) {
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		w->feed = NULL;
		worker_free(w);
		return NULL;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return w;
}

void
feed_worker_request(struct feed_worker *w, enum tui_range range, int paused,
    int force)
{
	pthread_mutex_lock(&w->mu);
	w->range = range;
	w->paused = paused;
	if (force)
		w->force = 1;
	pthread_cond_signal(&w->cv);
	pthread_mutex_unlock(&w->mu);
}

int
feed_worker_take(struct feed_worker *w, struct feed_result *res)
{
	int	 got = 0;

	pthread_mutex_lock(&w->mu);
	if (w->pending) {
		*res = w->res;
		memset(&w->res, 0, sizeof w->res);
		w->pending = 0;
		got = 1;
	}
	pthread_mutex_unlock(&w->mu);
	return got;
}

void
feed_worker_stop(struct feed_worker *w)
{
	int	 busy;

	if (w == NULL)
		return;
	pthread_mutex_lock(&w->mu);
	w->quit = 1;
	busy = w->busy;
	if (busy)
		w->detached = 1;
	pthread_cond_signal(&w->cv);
	pthread_mutex_unlock(&w->mu);
	if (busy) {
		pthread_detach(w->thread);
		return;
	}
	pthread_join(w->thread, NULL);
	worker_free(w);
}
