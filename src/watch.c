#include "autoconfig.h"

#include <sys/inotify.h>
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "config.h"
#include "engine.h"
#include "idset.h"
#include "scan.h"
#include "status.h"
#include "watch.h"
#include "xmalloc.h"

#define WATCH_MASK	(IN_CREATE | IN_DELETE | IN_MODIFY | IN_CLOSE_WRITE | \
			 IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE_SELF | \
			 IN_MOVE_SELF | IN_ATTRIB | IN_EXCL_UNLINK)
/* A parent watched until a missing root appears. */
#define PARENT_MASK	(IN_CREATE | IN_MOVED_TO | IN_DELETE_SELF | \
			 IN_MOVE_SELF | IN_ONLYDIR)
/* Under a steady stream of events, update at least this often. */
#define MAX_WAIT_FACTOR	8

struct watch {
	struct engine		*engine;
	const struct config	*cfg;
	struct watch_hooks	 hooks;
	int			 backend;	/* 0 inotify, 1 poll */
	int			 fd;		/* inotify */
	int			 wake[2];	/* watch_stop() writes here */
	int			*wds;		/* watch descriptors in use */
	size_t			 nwds;
	size_t			 capwds;
	int			 count;		/* directories watched */
	int			 started;
	pthread_t		 thread;
	pthread_mutex_t		 lock;		/* count */
};

static void
fail(struct watch *w, const char *msg)
{
	if (w->hooks.failed != NULL)
		w->hooks.failed(w->hooks.arg, msg);
}

static const char limit_msg[] = "hot reload: the kernel's inotify watch "
    "limit is reached (fs.inotify.max_user_watches); polling instead";

/* Returns -1 when the kernel's watch limit is reached. */
static int
add_wd(struct watch *w, const char *path, uint32_t mask)
{
	int	 wd;

	if ((wd = inotify_add_watch(w->fd, path, mask)) == -1)
		return errno == ENOSPC ? -1 : 0;
	if (w->nwds == w->capwds) {
		w->capwds = w->capwds ? w->capwds * 2 : 64;
		w->wds = xreallocarray(w->wds, w->capwds, sizeof *w->wds);
	}
	w->wds[w->nwds++] = wd;
	return 0;
}

/* Watches dir and every directory below it (symlinks followed, once). */
static int
add_tree(struct watch *w, struct idset *seen, const char *dir, int depth)
{
	DIR		*d;
	struct dirent	*de;
	struct stat	 st;
	char		*sub;
	int		 rv = 0;

	if (stat(dir, &st) == -1 || !S_ISDIR(st.st_mode) ||
	    !idset_add(seen, (uint64_t)st.st_dev, (uint64_t)st.st_ino))
		return 0;
	if (add_wd(w, dir, WATCH_MASK) == -1)
		return -1;
	if (depth >= w->cfg->max_depth || (d = opendir(dir)) == NULL)
		return 0;
	while (rv == 0 && (de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (de->d_type != DT_DIR && de->d_type != DT_LNK &&
		    de->d_type != DT_UNKNOWN)
			continue;
		if (strlist_contains(&w->cfg->exclude_dirs, de->d_name, 0))
			continue;
		xasprintf(&sub, "%s/%s", dir, de->d_name);
		rv = add_tree(w, seen, sub, depth + 1);
		free(sub);
	}
	closedir(d);
	return rv;
}

/* For a root that does not exist: its nearest existing parent. */
static int
add_parent(struct watch *w, const char *root)
{
	struct stat	 st;
	char		*p, *slash;
	int		 rv = 0;

	p = xstrdup(root);
	while ((slash = strrchr(p, '/')) != NULL) {
		*slash = '\0';
		if (*p == '\0')
			break;
		if (stat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
			rv = add_wd(w, p, PARENT_MASK);
			break;
		}
	}
	free(p);
	return rv;
}

static int
cmp_int(const void *a, const void *b)
{
	int	 x = *(const int *)a, y = *(const int *)b;

	return x < y ? -1 : x > y;
}

/*
 * Watches the roots afresh: directories come and go with each change.
 * Existing watches are never dropped first (adding a watched directory
 * again returns its descriptor), so no event is lost while this runs;
 * only descriptors no longer wanted are removed at the end. Returns -1
 * when the kernel's limit on watches is reached (the caller polls then);
 * *added (may be NULL) counts the directories watched for the first time.
 */
static int
rewatch(struct watch *w, size_t *added)
{
	struct scan_result	 roots;
	struct idset		 seen;
	int			*old;
	size_t			 nold, i, j;
	int			 rv = 0;

	old = w->wds;
	nold = w->nwds;
	w->wds = NULL;
	w->nwds = w->capwds = 0;
	memset(&seen, 0, sizeof seen);
	scan_result_init(&roots);
	scan_roots(w->cfg, NULL, &roots);
	for (i = 0; i < roots.n_roots && rv == 0; i++) {
		if (roots.roots[i].exists)
			rv = add_tree(w, &seen, roots.roots[i].path, 0);
		else
			rv = add_parent(w, roots.roots[i].path);
	}
	scan_result_done(&roots);
	idset_done(&seen);
	if (w->nwds > 1)
		qsort(w->wds, w->nwds, sizeof *w->wds, cmp_int);
	if (nold > 1)
		qsort(old, nold, sizeof *old, cmp_int);
	for (i = j = 0; i < nold; i++) {
		while (j < w->nwds && w->wds[j] < old[i])
			j++;
		if (j == w->nwds || w->wds[j] != old[i])
			inotify_rm_watch(w->fd, old[i]);
	}
	if (added != NULL) {
		/* New descriptors: in the new list but not in the old one. */
		*added = 0;
		for (i = j = 0; i < w->nwds; i++) {
			while (j < nold && old[j] < w->wds[i])
				j++;
			if (j == nold || old[j] != w->wds[i])
				(*added)++;
		}
	}
	free(old);
	pthread_mutex_lock(&w->lock);
	w->count = (int)w->nwds;
	pthread_mutex_unlock(&w->lock);
	return rv;
}

/*
 * Runs one update. Returns 1 when directories appeared that were not
 * watched during the rescan: a file written into one of them after the
 * scan and before its watch existed raised no event, so the caller runs
 * one more update after the debounce.
 */
static int
update(struct watch *w)
{
	char	*cause = NULL;
	double	 t0 = clock_ms();
	size_t	 added = 0;
	int	 changed = 0;

	if (engine_reload(w->engine, "watch", &changed, &cause) != 0) {
		fail(w, cause != NULL ? cause : "hot reload failed");
		free(cause);
	}
	if (w->backend == 0 && rewatch(w, &added) == -1) {
		fail(w, limit_msg);
		w->backend = 1;
	}
	if (w->hooks.updated != NULL)
		w->hooks.updated(w->hooks.arg, changed, clock_ms() - t0);
	return w->backend == 0 && added > 0;
}

/* Reads the pending events; returns 1 when any was not our own IN_IGNORED. */
static int
drain(struct watch *w)
{
	char			 buf[65536]
	    __attribute__((aligned(__alignof__(struct inotify_event))));
	const struct inotify_event *ev;
	ssize_t			 n;
	char			*p;
	int			 any = 0;

	while ((n = read(w->fd, buf, sizeof buf)) > 0) {
		for (p = buf; p < buf + n; p += sizeof *ev + ev->len) {
			ev = (const struct inotify_event *)p;
			if ((ev->mask & IN_IGNORED) == 0)
				any = 1;	/* IN_Q_OVERFLOW included */
		}
	}
	return any;
}

static void *
watch_main(void *arg)
{
	struct watch	*w = arg;
	struct pollfd	 pfd[2];
	double		 first = 0, deadline = 0, t;
	int		 timeout, pending = 0, debounce, n;
	char		 c;

	debounce = w->cfg->debounce_ms;
	for (;;) {
		if (w->backend == 1)
			timeout = w->cfg->poll_interval_ms;
		else if (pending) {
			t = deadline - clock_ms();
			timeout = t > 0 ? (int)t + 1 : 0;
		} else
			timeout = -1;
		pfd[0].fd = w->wake[0];
		pfd[0].events = POLLIN;
		pfd[1].fd = w->backend == 0 ? w->fd : -1;
		pfd[1].events = POLLIN;
		n = poll(pfd, 2, timeout);
		if (n == -1 && errno != EINTR)
			break;
		if (n > 0 && (pfd[0].revents & POLLIN)) {
			if (read(w->wake[0], &c, 1) >= 0)
				break;
		}
		if (w->backend == 1) {
			if (n == 0)
				(void)update(w);
			continue;
		}
		if (n > 0 && (pfd[1].revents & POLLIN) && drain(w)) {
			t = clock_ms();
			if (!pending)
				first = t;
			pending = 1;
			deadline = t + debounce;
			if (deadline > first + (double)debounce * MAX_WAIT_FACTOR)
				deadline = first + (double)debounce * MAX_WAIT_FACTOR;
		}
		if (pending && clock_ms() >= deadline) {
			pending = 0;
			if (update(w)) {
				/* New directories: look once more after a pause. */
				pending = 1;
				first = clock_ms();
				deadline = first + debounce;
			}
		}
	}
	return NULL;
}

int
watch_start(struct engine *e, const struct config *cfg,
    const struct watch_hooks *hooks, struct watch **out, char **cause)
{
	struct watch	*w;

	*out = NULL;
	w = xcalloc(1, sizeof *w);
	w->engine = e;
	w->cfg = cfg;
	if (hooks != NULL)
		w->hooks = *hooks;
	w->backend = cfg->watch_backend;
	w->fd = -1;
	pthread_mutex_init(&w->lock, NULL);
	if (pipe2(w->wake, O_CLOEXEC) == -1) {
		xasprintf(cause, "watcher: %s", strerror(errno));
		pthread_mutex_destroy(&w->lock);
		free(w);
		return SR_IO;
	}
	if (w->backend == 0) {
		if ((w->fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC)) == -1) {
			fail(w, "hot reload: inotify is not available; "
			    "polling instead");
			w->backend = 1;
		} else if (rewatch(w, NULL) == -1) {
			fail(w, limit_msg);
			w->backend = 1;
		}
	}
	if (pthread_create(&w->thread, NULL, watch_main, w) != 0) {
		xasprintf(cause, "watcher: cannot start its thread");
		watch_stop(w);
		return SR_IO;
	}
	w->started = 1;
	*out = w;
	return 0;
}

void
watch_stop(struct watch *w)
{
	char	 c = 'q';

	if (w == NULL)
		return;
	if (w->started && write(w->wake[1], &c, 1) == 1)
		pthread_join(w->thread, NULL);
	if (w->fd != -1)
		close(w->fd);
	close(w->wake[0]);
	close(w->wake[1]);
	free(w->wds);
	pthread_mutex_destroy(&w->lock);
	free(w);
}

int
watch_count(struct watch *w)
{
	int	 n;

	pthread_mutex_lock(&w->lock);
	n = w->count;
	pthread_mutex_unlock(&w->lock);
	return n;
}
