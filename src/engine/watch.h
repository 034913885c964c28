/*
 * Hot reload: a thread that watches the roots and, after a quiet period
 * (watcher.debounce_ms), brings the engine up to date with the paths that
 * had events: engine_update_paths() walks only those (a file's directory,
 * or a directory that appeared, moved or vanished), parses what changed
 * and writes only those rows, so one edit costs about the same at 10,000
 * skills as at 10. An event queue overflow or a root that appears or
 * vanishes runs the full incremental rescan (engine_reload()) instead.
 *
 * The inotify backend watches every directory below every root
 * (following symbolic links, skipping scan.exclude_dirs) and, for a root
 * that does not exist yet, its nearest existing parent; after a batch in
 * which directories came or went the watch set is rebuilt, and the
 * directories watched for the first time (or under a new path) are
 * walked once more, since a file written there before its watch existed
 * raised no event. The poll backend (watcher.backend: poll) walks the
 * roots every watcher.poll_interval_ms without reading files and diffs
 * sizes, mtimes and link targets against the last walk: the same update
 * with the paths that differ.
 *
 * watch_start() returns a running watcher the caller stops with
 * watch_stop(); the callback runs on the watcher's thread after each
 * batch with changed = 1 when the index changed, the time the update took
 * and what it did ("2 paths", "full rescan"; borrowed).
 */
#ifndef SR_WATCH_H
#define SR_WATCH_H

struct config;
struct engine;
struct watch;

struct watch_hooks {
	void	(*updated)(void *arg, int changed, double ms,
		    const char *what);
	void	(*failed)(void *arg, const char *cause);
	void	*arg;
};

int	 watch_start(struct engine *, const struct config *,
	    const struct watch_hooks *, struct watch **out, char **cause);
void	 watch_stop(struct watch *);

/* Directories currently watched (inotify), for tests and -v. */
int	 watch_count(struct watch *);

#endif
