/*
 * Private to the engine's two files: engine.c (opening, snapshots,
 * reload, search, load, read, list) and engine_update.c (per-entry
 * updates and the background compaction of the search index). Nothing
 * else includes it; everyone else goes through engine.h.
 *
 * Snapshots are reference counted under engine.snap_lock:
 * engine_snap_ref() takes one on the current snapshot,
 * engine_snap_unref() gives it back and the last reference frees it.
 * Whatever replaces e->cur (engine_swap_in()) holds reload_lock.
 */
#ifndef SR_ENGINE_IMPL_H
#define SR_ENGINE_IMPL_H

#include <pthread.h>

#include "search/search.h"
#include "core/skill.h"

struct pipeline;
struct sanitizer;
struct store;
struct telemetry;
struct usage;

/*
 * One immutable state of the index: the entries and the search index
 * over them. A reload builds a new snapshot and swaps it in; calls in
 * flight keep the snapshot they started with (a reference each), so they
 * see the old or the new index, never a mix, and a swap never waits for
 * them. The last reference frees it.
 */
struct engine_snap {
	struct skill_set	 set;		/* every entry, owned */
	struct skill		**winners;	/* sorted by uid, borrowed */
	size_t			 n_winners;
	size_t			 searchable;
	struct search_index	*idx;
	unsigned long		 gen;
	char			*digest;	/* index.db content it was built from */
	uint64_t		 skey;		/* search_store_key() of that, 0: none */
	int			 sorted;	/* set in indexer_precedence() order */
	int			 resave;	/* its cache did not open by skey */
	int			 refs;		/* under engine.snap_lock */
};

struct engine {
	const struct config	*cfg;
	struct engine_snap	*cur;		/* holds one reference */
	unsigned long		 gen;
	pthread_mutex_t		 snap_lock;
	pthread_mutex_t		 reload_lock;	/* one reload at a time */
	/*
	 * index.db for per-path updates, under reload_lock: kept open, since
	 * closing the last connection checkpoints the WAL (an fsync).
	 */
	struct store		*st;
	/* The background compaction of the search index (one at a time). */
	pthread_t		 compact;
	int			 compacting;	/* a thread to join, under reload_lock */
	int			 compact_done;	/* atomic: it finished */
	struct sanitizer	*san;		/* compiled on first use */
	struct telemetry	*tel;		/* NULL: telemetry off */
	struct pipeline		*pipe;		/* Ollama stages and caches */
	struct usage		*usage;		/* learning from use; NULL: off */
	char			*tel_error;
	pthread_mutex_t		 san_lock;
	/* ENGINE_BACKGROUND: the first rescan runs on this thread. */
	pthread_t		 first;
	int			 first_running;	/* thread to join */
	int			 ready;		/* under ready_lock */
	char			*first_error;
	pthread_mutex_t		 ready_lock;
	pthread_cond_t		 ready_cond;
};

/* The snapshot's winners and counts, from its set (after any change). */
void	 engine_snap_prepare(struct engine_snap *);
void	 engine_snap_free(struct engine_snap *);
struct engine_snap *engine_snap_ref(struct engine *);
void	 engine_snap_unref(struct engine *, struct engine_snap *);
/* The snapshot's search index, from the cache beside index.db or built. */
int	 engine_snap_index(struct engine *, struct engine_snap *, char **);
/* Makes sn current (its reference is taken); with reload_lock held. */
void	 engine_swap_in(struct engine *, struct engine_snap *);
/* engine_reload() with reload_lock held. */
int	 engine_reload_locked(struct engine *, const char *trigger,
	    int *changed, char **cause);
/* The sanitiser, compiled on first use (borrowed, lives with e). */
int	 engine_sanitizer_get(struct engine *, struct sanitizer **, char **);

#endif
