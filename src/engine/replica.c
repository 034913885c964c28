#include "autoconfig.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "core/config.h"
#include "engine/engine.h"
#include "engine/replica.h"
#include "base/status.h"
#include "store/store.h"
#include "base/strlist.h"
#include "base/xmalloc.h"

#define REPORT_EVERY_S	10	/* the replicas row is refreshed this often */

struct replica {
	struct engine		*e;
	const struct config	*cfg;
	struct replica_hooks	 hooks;
	char			*name;
	pthread_t		 thread;
	int			 wake[2];	/* replica_stop writes here */
	pthread_mutex_t		 lock;
	int64_t			 counter;	/* under lock */
	int			 up;		/* under lock; -1 before the first */
	int			 stop;		/* under lock */
	time_t			 reported;
};

static void
set_state(struct replica *r, int up, const char *why)
{
	int	 was;

	pthread_mutex_lock(&r->lock);
	was = r->up;
	r->up = up;
	pthread_mutex_unlock(&r->lock);
	/* The first connection is the normal case: only changes are news. */
	if (was != up && (was == 0 || !up) && r->hooks.state != NULL)
		r->hooks.state(r->hooks.arg, up, why);
}

static int
stopping(struct replica *r)
{
	int	 s;

	pthread_mutex_lock(&r->lock);
	s = r->stop;
	pthread_mutex_unlock(&r->lock);
	return s;
}

/* Sleeps up to ms, or until replica_stop(). */
static void
nap(struct replica *r, int ms)
{
	struct pollfd	 pfd;

	pfd.fd = r->wake[0];
	pfd.events = POLLIN;
	poll(&pfd, 1, ms);
}

/* Brings the engine up to the store's counter. SR_IO: connection lost. */
static int
catch_up(struct replica *r, struct store *st, char **cause)
{
	struct skill_set	 up;
	struct strlist		 removed;
	int64_t			 since, counter;
	double			 t0 = clock_ms();
	int			 rv, full = 0, changed = 0;
	size_t			 nup, nrm;

	pthread_mutex_lock(&r->lock);
	since = r->counter;
	pthread_mutex_unlock(&r->lock);
	skill_set_init(&up);
	strlist_init(&removed);
	rv = store_changes(st, since, &up, &removed, &counter, cause);
	if (rv == STORE_GAP) {
		full = 1;
		rv = store_changes(st, -1, &up, &removed, &counter, cause);
	}
	if (rv != 0)
		goto out;
	full = full || since < 0;
	nup = up.n;
	nrm = removed.n;
	if (full)
		rv = engine_swap(r->e, &up, "replica", &changed, cause);
	else if (nup > 0 || nrm > 0) {
		/* The entries are handed over (also on error): not freed here. */
		rv = engine_apply(r->e, up.v, up.n,
		    (const char *const *)removed.v, removed.n, "replica",
		    &changed, cause);
		free(up.v);
		skill_set_init(&up);
	}
	if (rv != 0)
		goto out;
	pthread_mutex_lock(&r->lock);
	r->counter = counter;
	pthread_mutex_unlock(&r->lock);
	if ((changed || counter != since) && r->hooks.updated != NULL)
		r->hooks.updated(r->hooks.arg, full, nup, nrm, counter,
		    clock_ms() - t0);
	if (counter != since || time(NULL) - r->reported >= REPORT_EVERY_S) {
		r->reported = time(NULL);
		rv = store_report(st, r->name, counter, cause);
	}
out:
	skill_set_done(&up);
	strlist_done(&removed);
	return rv;
}

static void *
follow(void *arg)
{
	struct replica	*r = arg;
	struct store	*st = NULL;
	char		*cause = NULL;
	int		 backoff, listening = 0, rv;

	backoff = r->cfg->store_poll_ms;
	while (!stopping(r)) {
		if (st == NULL) {
			rv = store_open_cfg(r->cfg, 0, &st, &cause);
			if (rv == 0) {
				listening = store_listen(st, NULL) == 0;
				rv = catch_up(r, st, &cause);
			}
			if (rv != 0) {
				set_state(r, 0, cause);
				free(cause);
				cause = NULL;
				store_close(st);
				st = NULL;
				nap(r, backoff);
				if (backoff < r->cfg->store_poll_ms * 10)
					backoff *= 2;
				continue;
			}
			set_state(r, 1, listening ? "listening" : "polling");
			backoff = r->cfg->store_poll_ms;
		}
		if (listening)
			rv = store_wait(st, r->cfg->store_poll_ms, r->wake[0],
			    &cause);
		else {
			nap(r, r->cfg->store_poll_ms);
			rv = 0;
		}
		if (stopping(r))
			break;
		/* Notified or not: a poll also covers a lost notification. */
		if (rv == 0 || rv == 1)
			rv = catch_up(r, st, &cause);
		if (rv != 0) {
			set_state(r, 0, cause);
			free(cause);
			cause = NULL;
			store_close(st);
			st = NULL;
		}
	}
	store_close(st);
	return NULL;
}

int
replica_start(struct engine *e, const struct config *cfg, int64_t since,
    const char *name, const struct replica_hooks *hooks,
    struct replica **out, char **cause)
{
	struct replica	*r;

	*out = NULL;
	r = xcalloc(1, sizeof *r);
	r->e = e;
	r->cfg = cfg;
	r->counter = since;
	r->up = -1;	/* not connected yet, nothing reported */
	r->name = xstrdup(name);
	if (hooks != NULL)
		r->hooks = *hooks;
	pthread_mutex_init(&r->lock, NULL);
	if (pipe(r->wake) == -1) {
		xasprintf(cause, "pipe: %s", strerror(errno));
		goto fail;
	}
	fcntl(r->wake[0], F_SETFD, FD_CLOEXEC);
	fcntl(r->wake[1], F_SETFD, FD_CLOEXEC);
	if ((errno = pthread_create(&r->thread, NULL, follow, r)) != 0) {
		xasprintf(cause, "cannot start the replica thread: %s",
		    strerror(errno));
		close(r->wake[0]);
		close(r->wake[1]);
		goto fail;
	}
	*out = r;
	return 0;
fail:
	pthread_mutex_destroy(&r->lock);
	free(r->name);
	free(r);
	return SR_IO;
}

void
replica_stop(struct replica *r)
{
	if (r == NULL)
		return;
	pthread_mutex_lock(&r->lock);
	r->stop = 1;
	pthread_mutex_unlock(&r->lock);
	if (write(r->wake[1], "x", 1) == -1) {
		/* the thread still sees stop within store.poll_ms */
	}
	pthread_join(r->thread, NULL);
	close(r->wake[0]);
	close(r->wake[1]);
	pthread_mutex_destroy(&r->lock);
	free(r->name);
	free(r);
}
