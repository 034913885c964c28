/*
 * Hot reload: a thread that watches the roots and, after a quiet period
 * (watcher.debounce_ms), brings the engine up to date with
 * engine_reload(): an incremental index of every root, so creates, edits,
 * atomic rename-over saves, deletes, directory renames, symlink swaps, a
 * git checkout and roots that appear late are all seen the same way, and
 * duplicate precedence is re-evaluated each time.
 *
 * The inotify backend watches every directory below every root
 * (following symbolic links, skipping scan.exclude_dirs) and, for a root
 * that does not exist yet, its nearest existing parent; the watch set is
 * rebuilt after each update, so new directories are watched and removed
 * ones dropped. An event queue overflow is just another change. The poll
 * backend (watcher.backend: poll) runs the same update every
 * watcher.poll_interval_ms instead.
 *
 * watch_start() returns a running watcher the caller stops with
 * watch_stop(); the callback runs on the watcher's thread after each
 * update with changed = 1 when the index changed.
 */
#ifndef SR_WATCH_H
#define SR_WATCH_H

struct config;
struct engine;
struct watch;

struct watch_hooks {
	void	(*updated)(void *arg, int changed, double ms);
	void	(*failed)(void *arg, const char *cause);
	void	*arg;
};

int	 watch_start(struct engine *, const struct config *,
	    const struct watch_hooks *, struct watch **out, char **cause);
void	 watch_stop(struct watch *);

/* Directories currently watched (inotify), for tests and -v. */
int	 watch_count(struct watch *);

#endif
