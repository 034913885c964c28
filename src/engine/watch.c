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

#include "base/clock.h"
#include "core/config.h"
#include "engine/engine.h"
#include "base/idset.h"
#include "index/scan.h"
#include "base/status.h"
#include "engine/watch.h"
#include "base/xmalloc.h"

#define WATCH_MASK	(IN_CREATE | IN_DELETE | IN_MODIFY | IN_CLOSE_WRITE | \
			 IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE_SELF | \
			 IN_MOVE_SELF | IN_ATTRIB | IN_EXCL_UNLINK)
/* A parent watched until a missing root appears. */
#define PARENT_MASK	(IN_CREATE | IN_MOVED_TO | IN_DELETE_SELF | \
			 IN_MOVE_SELF | IN_ONLYDIR)
/* Under a steady stream of events, update at least this often. */
#define MAX_WAIT_FACTOR	8

struct wd {
	int	 wd;
	int	 parent;	/* watches a missing root's parent */
	char	*path;		/* NULL once the kernel dropped it */
};

struct watch {
	struct engine		*engine;
	const struct config	*cfg;
	struct watch_hooks	 hooks;
	int			 backend;	/* 0 inotify, 1 poll */
	int			 fd;		/* inotify */
	int			 wake[2];	/* watch_stop() writes here */
	struct wd		*wds;		/* in use, sorted by wd */
	size_t			 nwds;
	size_t			 capwds;
	/* The batch being debounced. */
	struct strlist		 batch;		/* paths with events */
	int			 full;		/* full rescan wanted */
	int			 dirs;		/* directories came or went */
	/* poll: the files of the last walk, sorted by path */
	struct scan_item	*seen;
	size_t			 nseen;
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
	w->wds[w->nwds].wd = wd;
	w->wds[w->nwds].parent = mask == PARENT_MASK;
	w->wds[w->nwds++].path = xstrdup(path);
	return 0;
}

static int
cmp_wd(const void *a, const void *b)
{
	int	 x = ((const struct wd *)a)->wd, y = ((const struct wd *)b)->wd;

	return x < y ? -1 : x > y;
}

static struct wd *
find_wd(struct watch *w, int wd)
{
	struct wd	 key;

	key.wd = wd;
	return w->nwds == 0 ? NULL : bsearch(&key, w->wds, w->nwds,
	    sizeof *w->wds, cmp_wd);
}

static void
free_wds(struct wd *v, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		free(v[i].path);
	free(v);
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

/*
 * Watches the roots afresh: directories come and go with each change.
 * Existing watches are never dropped first (adding a watched directory
 * again returns its descriptor), so no event is lost while this runs;
 * only descriptors no longer wanted are removed at the end. Returns -1
 * when the kernel's limit on watches is reached (the caller polls then);
 * fresh (may be NULL) gets the directories watched for the first time or
 * under a new path (moved): files may have landed there unseen.
 */
static int
rewatch(struct watch *w, struct strlist *fresh)
{
	struct scan_result	 roots;
	struct idset		 seen;
	struct wd		*old, *o;
	size_t			 nold, i, j, k;
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
		qsort(w->wds, w->nwds, sizeof *w->wds, cmp_wd);
	/* One entry per descriptor (a directory reached twice: the first). */
	for (i = j = 0; i < w->nwds; i++) {
		if (j > 0 && w->wds[j - 1].wd == w->wds[i].wd) {
			free(w->wds[i].path);
			continue;
		}
		w->wds[j++] = w->wds[i];
	}
	w->nwds = j;
	for (i = 0; i < nold; i++) {
		if (old[i].path != NULL && find_wd(w, old[i].wd) == NULL)
			inotify_rm_watch(w->fd, old[i].wd);
	}
	for (k = 0; fresh != NULL && k < w->nwds; k++) {
		struct wd	 key = w->wds[k];

		o = nold ? bsearch(&key, old, nold, sizeof *old, cmp_wd) : NULL;
		if (!w->wds[k].parent && (o == NULL || o->path == NULL ||
		    strcmp(o->path, w->wds[k].path) != 0))
			strlist_add(fresh, w->wds[k].path);
	}
	free_wds(old, nold);
	pthread_mutex_lock(&w->lock);
	w->count = (int)w->nwds;
	pthread_mutex_unlock(&w->lock);
	return rv;
}

static void	poll_diff(struct watch *, int);

/* A batch as words for -v: "3 paths" or "full rescan". */
static void
report(struct watch *w, int changed, double t0, const char *what)
{
	if (w->hooks.updated != NULL)
		w->hooks.updated(w->hooks.arg, changed, clock_ms() - t0, what);
}

static int
run_update(struct watch *w, int full, const struct strlist *paths,
    char **what)
{
	char	*cause = NULL;
	int	 changed = 0, rv;

	if (full) {
		xasprintf(what, "full rescan");
		rv = engine_reload(w->engine, "watch", &changed, &cause);
	} else {
		xasprintf(what, "%zu path%s", paths->n, paths->n == 1 ? "" : "s");
		rv = engine_update_paths(w->engine, paths, "watch", &changed,
		    &cause);
	}
	if (rv != 0) {
		fail(w, cause != NULL ? cause : "hot reload failed");
		free(cause);
	}
	return changed;
}

/*
 * Runs the update of the batch: the paths it collected, or a full rescan
 * (queue overflow, a root came or went). Directories that appeared or
 * moved are watched afterwards; files written into one before its watch
 * existed raised no event, so those directories are walked once more.
 */
static void
update(struct watch *w)
{
	struct strlist	 paths, fresh;
	char		*what = NULL;
	double		 t0 = clock_ms();
	int		 changed, full = w->full, dirs = w->dirs || full;

	paths = w->batch;
	strlist_init(&w->batch);
	w->full = w->dirs = 0;
	strlist_init(&fresh);
	changed = run_update(w, full, &paths, &what);
	if (w->backend == 0 && dirs) {
		if (rewatch(w, &fresh) == -1) {
			fail(w, limit_msg);
			w->backend = 1;
			poll_diff(w, 1);
		} else if (fresh.n > 0 && !full) {
			free(what);
			changed |= run_update(w, 0, &fresh, &what);
		}
	}
	report(w, changed, t0, what);
	free(what);
	strlist_done(&fresh);
	strlist_done(&paths);
}

/* 1 when path is a directory watched now (a symlink to one, say). */
static int
watched_path(struct watch *w, const char *path)
{
	size_t	 i;

	for (i = 0; i < w->nwds; i++)
		if (w->wds[i].path != NULL && strcmp(w->wds[i].path, path) == 0)
			return 1;
	return 0;
}

/* Adds one event to the batch. */
static void
take_event(struct watch *w, const struct inotify_event *ev)
{
	struct wd	*d;
	struct stat	 st;
	char		*path;

	if (ev->mask & IN_Q_OVERFLOW) {
		w->full = 1;
		return;
	}
	if ((d = find_wd(w, ev->wd)) == NULL || d->path == NULL)
		return;
	if (ev->mask & IN_IGNORED) {
		/* The kernel dropped it (the directory is gone). */
		free(d->path);
		d->path = NULL;
		return;
	}
	if (d->parent) {
		w->full = 1;	/* a missing root may have appeared */
		return;
	}
	if (ev->mask & (IN_DELETE_SELF | IN_MOVE_SELF)) {
		/* Its parent reports it, unless it is a root. */
		w->dirs = 1;
		strlist_add(&w->batch, d->path);
		return;
	}
	if (ev->len == 0 || ev->name[0] == '\0')
		return;
	xasprintf(&path, "%s/%s", d->path, ev->name);
	if ((ev->mask & IN_ISDIR) ||
	    ((ev->mask & (IN_CREATE | IN_MOVED_TO)) && stat(path, &st) == 0 &&
	    S_ISDIR(st.st_mode)) ||
	    ((ev->mask & (IN_DELETE | IN_MOVED_FROM)) && watched_path(w, path)))
		w->dirs = 1;
	/* Coalesce: an editor's save is several events on one name. */
	if (w->batch.n == 0 || strcmp(w->batch.v[w->batch.n - 1], path) != 0)
		strlist_add_take(&w->batch, path);
	else
		free(path);
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
			take_event(w, ev);
		}
	}
	return any;
}

/* ---- poll backend: a stat diff of the walk ---------------------------- */

static int
cmp_item(const void *a, const void *b)
{
	return strcmp(((const struct scan_item *)a)->path,
	    ((const struct scan_item *)b)->path);
}

static void
free_items(struct scan_item *v, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++) {
		free(v[i].path);
		free(v[i].realpath);
		free(v[i].fallback);
		free(v[i].ns);
	}
	free(v);
}

/*
 * Walks the roots (no file is read) and compares the candidate files with
 * the last walk: the paths that appeared, vanished or changed size, mtime
 * or target go into the batch; a root that appeared or vanished means a
 * full rescan. The first walk only records.
 */
static void
poll_diff(struct watch *w, int first)
{
	struct scan_result	 res;
	struct scan_item	*v;
	size_t			 n, i = 0, j = 0, r;
	int			 c;
	static const char	 roots_key[] = "";

	scan_result_init(&res);
	scan_roots(w->cfg, NULL, &res);
	scan_walk(w->cfg, &res);
	/* The roots' existence, as one more pseudo-item each. */
	for (r = 0; r < res.n_roots; r++) {
		res.items = xreallocarray(res.items, res.n_items + 1,
		    sizeof *res.items);
		memset(&res.items[res.n_items], 0, sizeof *res.items);
		xasprintf(&res.items[res.n_items].path, "%s%s", roots_key,
		    res.roots[r].path);
		res.items[res.n_items].size = res.roots[r].exists ? -1 : -2;
		res.n_items++;
	}
	v = res.items;
	n = res.n_items;
	res.items = NULL;
	res.n_items = 0;
	scan_result_done(&res);
	if (n > 1)
		qsort(v, n, sizeof *v, cmp_item);
	while (!first && (i < n || j < w->nseen)) {
		c = i == n ? 1 : j == w->nseen ? -1 :
		    strcmp(v[i].path, w->seen[j].path);
		if (c == 0 && v[i].size == w->seen[j].size &&
		    v[i].mtime_ns == w->seen[j].mtime_ns &&
		    ((v[i].realpath == NULL) == (w->seen[j].realpath == NULL)) &&
		    (v[i].realpath == NULL ||
		    strcmp(v[i].realpath, w->seen[j].realpath) == 0)) {
			i++, j++;
			continue;
		}
		/* Appeared, vanished or changed. */
		{
			const struct scan_item *it = c <= 0 ? &v[i] : &w->seen[j];

			if (it->size < 0)
				w->full = 1;	/* a root came or went */
			else
				strlist_add(&w->batch, it->path);
		}
		if (c <= 0)
			i++;
		if (c >= 0)
			j++;
	}
	free_items(w->seen, w->nseen);
	w->seen = v;
	w->nseen = n;
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
			if (n == 0) {
				poll_diff(w, 0);
				if (w->full || w->batch.n > 0)
					update(w);
			}
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
			update(w);
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
	strlist_init(&w->batch);
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
	if (w->backend == 1)
		poll_diff(w, 1);
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
	free_wds(w->wds, w->nwds);
	strlist_done(&w->batch);
	free_items(w->seen, w->nseen);
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
