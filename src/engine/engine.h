/*
 * The engine: one process's view of the index. It loads index.db into
 * memory once (optionally after an incremental re-index), builds the
 * search index and the sanitiser, and answers search, load, read and
 * list. The CLI and the MCP server both call it, so their JSON is the same.
 *
 * Every function returning cJSON hands ownership to the caller
 * (cJSON_Delete). Errors are an enum sr_status with *cause set (free it):
 * SR_NOTFOUND messages carry "did you mean" suggestions, SR_REFUSED says
 * which policy refused. The engine borrows cfg; cfg must outlive it.
 * Calls may come from several threads, also while a reload swaps the
 * index (see engine_reload()).
 */
#ifndef SR_ENGINE_H
#define SR_ENGINE_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "core/finding.h"
#include "safety/sanitize.h"
#include "search/search.h"
#include "core/skill.h"
#include "telemetry/telemetry.h"

struct config;
struct engine;
struct sanitizer;

#define ENGINE_REINDEX	0x1	/* incremental index before loading */
/*
 * Load index.db at once and run the incremental index on a thread: the
 * engine answers at once, and engine_wait_ready() (which search, load,
 * read and list call themselves) blocks until that first rescan is in,
 * so nothing stale is ever served. serve uses it to answer initialize
 * without waiting for the rescan.
 */
#define ENGINE_BACKGROUND 0x4
#define ENGINE_QUIET	0x2	/* no progress on stderr */
/*
 * A follower (a replica of a postgres store): never index, even when the
 * store is empty; the content arrives through engine_swap() and
 * engine_apply() from the store's writer (replica.h).
 */
#define ENGINE_FOLLOW	0x8
/*
 * With ENGINE_FOLLOW: start with no skills and do not read the store (a
 * replica whose store is unreachable at start answers at once, empty,
 * and its replica thread loads everything when the store comes up).
 */
#define ENGINE_EMPTY	0x10
/*
 * A process that only searches (the CLI's search): read the store lean
 * (STORE_LEAN, store.h), without the stored findings and frontmatter it
 * never prints. A load or read of a lean entry still sees its findings:
 * they are read from the store then (engine_served()).
 */
#define ENGINE_LEAN	0x20
/*
 * With ENGINE_LEAN, a process that only runs engine_search(): when the
 * search cache names the store as it is now (search_index_open()), the
 * entries come from the cache and the store's rows are not read; the
 * snapshot's set stays empty. Otherwise as ENGINE_LEAN.
 */
#define ENGINE_CACHED	0x40

int	 engine_open(const struct config *cfg, int flags, struct engine **out,
	    char **cause);
void	 engine_free(struct engine *);

/*
 * Builds the search index of what the store holds and saves its cache
 * beside index.db, unless a current cache is there already: `index` calls
 * it so that the first search after an index run loads, never builds.
 * Returns 0 or an enum sr_status with *cause (a warning for the caller).
 */
int	 engine_warm(const struct config *cfg, char **cause);

/*
 * Telemetry (opt-in): with telemetry.enabled, engine_open() opens the log
 * (and engine_reload() and friends record index events). Searches and
 * loads are recorded by their caller (DESIGN §2: only the caller knows
 * who asked): engine_search() and engine_load() fill a telemetry event
 * that the caller completes (session) and hands to telemetry_search() or
 * telemetry_load() on engine_telemetry(). A log that cannot be opened is
 * not an error: engine_telemetry_error() says why (borrowed) and the
 * engine runs without it. engine_telemetry() is the handle, NULL when off
 * (telemetry.h calls accept NULL).
 */
struct telemetry *engine_telemetry(struct engine *);
const char *engine_telemetry_error(struct engine *);

/* Waits for the background rescan of ENGINE_BACKGROUND (no-op otherwise). */
void	 engine_wait_ready(struct engine *);

/* Searchable entries (winners without disable-model-invocation). */
size_t	 engine_count(struct engine *);
const struct sanitizer *engine_sanitizer(struct engine *);
const struct config *engine_config(struct engine *);

/*
 * {"query","matches":[{name,kind,score,description,when_to_use,trust,
 * scope,path,tags,requires_tools,fallback_for_tools,shadowed[,explain]}],
 * "total_skills","miss"}. On success, when ev is not NULL, fills it for
 * the caller's telemetry_search(): its pointers borrow from *out and
 * opts, so record it before freeing them; session is left NULL.
 */
int	 engine_search(struct engine *, const struct search_opts *,
	    cJSON **out, struct telemetry_search_event *ev, char **cause);

/* A load_skill request. */
struct engine_load_req {
	const char	*name;		/* a name or uid, as list prints it */
	size_t		 offset;	/* byte offset into the served body */
	size_t		 max_bytes;	/* page size; 0: limits.max_load_kb */
	/*
	 * Bypasses trust.min_tier_for_load (never sanitization.
	 * reject_untrusted_on_injection): the user's own request (CLI).
	 */
	int		 allow_untrusted;
};

/*
 * {"name","kind","trust","scope","path","risk":{score,severity},"content",
 * "warnings":[{id,severity,line,file,weight,excerpt}],"files":[{path,
 * size}],"truncated","next_offset"} where content is a page of the served
 * body and warnings and risk are engine_served()'s. When ev is
 * not NULL it is filled whatever the return, for the caller's
 * telemetry_load(): requested borrows from req, resolved from *out (NULL
 * when the load failed); session is left NULL.
 */
int	 engine_load(struct engine *, const struct engine_load_req *req,
	    cJSON **out, struct telemetry_load_event *ev, char **cause);

/*
 * The one path from a skill file to the text an agent receives, used by
 * load_skill, the skill:// resources and the CLI: the load policy
 * (engine_policy()), the file re-read (limits.max_skill_size_kb, 16 MiB
 * with limits.allow_large), split where the frontmatter parser says the
 * body starts, the body sanitised, the skill assessed (assess.h) and
 * sanitization.reject_untrusted_on_injection applied to its risk. On
 * success sv->text holds the frontmatter block verbatim (SEP-2640 hosts
 * compare it with the entry) followed by the sanitised body, which starts
 * at sv->body; sv->findings are every finding that reaches the agent: the
 * frontmatter's and the body's as the file is now (file NULL), then the
 * bundled files' as the index found them (file set); sv->risk scores
 * them all. s must stay valid during the call (an entry of a
 * snapshot the caller holds). Free with engine_served_done(), also after
 * an error.
 */
struct engine_served {
	char		*text;
	size_t		 len;
	size_t		 body;		/* offset of the body in text */
	struct findings	 findings;
	struct risk	 risk;
};
int	 engine_served(struct engine *, const struct skill *,
	    int allow_untrusted, struct engine_served *sv, char **cause);
void	 engine_served_done(struct engine_served *);

/*
 * The load policy alone: 0 when a model may load s, SR_REFUSED (with
 * *cause when cause is not NULL) when disable-model-invocation or
 * trust.min_tier_for_load (unless allow_untrusted) forbids it.
 */
int	 engine_policy(struct engine *, const struct skill *,
	    int allow_untrusted, char **cause);

/* {"name","path","size","content","warnings"}: one bundled text file. */
int	 engine_read(struct engine *, const char *name, const char *relpath,
	    cJSON **out, char **cause);

struct list_filter {
	int		 kind;		/* -1: any */
	int		 tier;		/* -1: any */
	const char	*tag;		/* NULL: any */
	int		 all;		/* include shadowed and user-only entries */
	int		 flagged;	/* only entries with sanitiser flags */
};

/* An array of entries: name, kind, trust, scope, path, description, tags,... */
int	 engine_list(struct engine *, const struct list_filter *, cJSON **out,
	    char **cause);

/*
 * Every entry, shadowed included, in index order (borrowed). Valid until
 * the next engine_reload() or update (whose background compaction swaps
 * later on its own thread): only for callers that do not update while
 * they use it (the CLI). Servers take a snapshot instead.
 */
const struct skill_set *engine_skills(struct engine *);

/*
 * Hot reload. engine_reload() runs an incremental index and, when the
 * content changed (here or by another process), builds a new snapshot and
 * swaps it in; calls in flight finish on the snapshot they started with,
 * so none sees a mix. *changed says whether it swapped; trigger names the
 * telemetry index event (serve, watch). One reload runs at a time.
 * engine_generation() grows with every swap.
 *
 * A server that keeps pointers into the entries (the MCP resources) takes
 * a snapshot with engine_snap_get(): its entries stay valid until
 * engine_snap_put(), whatever reloads happen meanwhile.
 */
struct engine_snap;
int		 engine_reload(struct engine *, const char *trigger,
		    int *changed, char **cause);
unsigned long	 engine_generation(struct engine *);
/*
 * Swaps in a snapshot of set (ownership of its entries taken; set is left
 * empty), as read from the store, without touching the file system.
 */
int		 engine_swap(struct engine *, struct skill_set *set,
		    const char *trigger, int *changed, char **cause);
const struct engine_snap *engine_snap_get(struct engine *);
void		 engine_snap_put(struct engine *, const struct engine_snap *);
const struct skill_set *engine_snap_skills(const struct engine_snap *);
unsigned long	 engine_snap_generation(const struct engine_snap *);

/*
 * Per-entry updates. engine_apply() applies a delta without touching the
 * file system: upserts (ownership taken, also on error; matched to
 * existing entries by path) replace or add, removed lists the paths that
 * are gone. Duplicate precedence is re-evaluated for the uids involved
 * (removing a winner restores the entry it shadowed) and a new snapshot,
 * sharing the untouched entries with the old one, is swapped in; *changed
 * says whether it did. index.db is not written: the caller owns where the
 * delta came from (the PostgreSQL replica feeds it from the database).
 *
 * engine_update_paths() is the file-system path the watcher uses: paths
 * are files or directories that had events. It walks only what they
 * touch (a directory, or a file's directory), parses new and changed
 * files exactly like indexer_run(), writes only the changed rows of
 * index.db in one transaction (meta.digest kept right, so the next index
 * sees no change) and swaps a snapshot as engine_apply() does. When a
 * per-path update cannot be exact (settings changed, index.db written by
 * another process or an older build, a root appeared, a file reachable
 * by two paths, a scan limit, the bundled examples) it runs
 * engine_reload() instead. Both take the reload lock: one update at a time.
 */
int	 engine_apply(struct engine *, struct skill **upserts, size_t nup,
	    const char *const *removed, size_t nrm, const char *trigger,
	    int *changed, char **cause);
int	 engine_update_paths(struct engine *, const struct strlist *paths,
	    const char *trigger, int *changed, char **cause);

/*
 * The bundled files of a skill: [{path, size}] relative to the skill
 * folder, one level of references/ scripts/ assets/ and the folder's own
 * files, capped at limits.max_files_per_skill. Returns a new array.
 */
cJSON	*engine_files(struct engine *, const struct skill *);

#endif
