/*
 * The persistent index, behind one interface with two backends:
 *
 *   sqlite    index.db (WAL), the single-user default (store_sqlite.c)
 *   postgres  a shared PostgreSQL database for a team (store_pg.c)
 *
 * chosen by store.backend (store_open_cfg()). Both hold the same schema
 * and keep the same semantics: a version in the meta table ("schema",
 * PRAGMA user_version on SQLite) migrated forward on open, a newer one
 * refused; store_replace() writes a new content in one transaction, so a
 * reader sees the old or the new index, never a mix, and a killed writer
 * leaves the previous one intact.
 *
 * Change tracking (both backends): every store_replace() that changes
 * anything bumps the change counter (meta "counter") by one; each entry
 * written carries the counter of the write as its version, and each path
 * that disappeared leaves a tombstone with that version. A reader that
 * knows the counter it last saw fetches only what changed since with
 * store_changes(). Tombstones older than the last STORE_TOMB_VERSIONS
 * writes (store.tombstone_writes, through store_open_cfg()) are pruned
 * (meta "tomb_floor"); a reader further behind must reload everything
 * (store_changes() returns STORE_GAP). On postgres the write also sends
 * NOTIFY STORE_CHANNEL with the counter, in the same transaction, and
 * store_wait() waits for such a notification.
 *
 * struct store is an opaque handle: store_open*() / store_close(). One
 * handle is used by one thread at a time.
 */
#ifndef SR_STORE_H
#define SR_STORE_H

#include <stdint.h>

#include "core/skill.h"
#include "base/strlist.h"

struct config;
struct store;

#define STORE_SCHEMA_VERSION	4
#define STORE_TOMB_VERSIONS	10000	/* writes a tombstone is kept for */
#define STORE_CHANNEL		"skills_radar"	/* NOTIFY channel (postgres) */
#define STORE_GAP		100	/* store_changes(): reload everything */

/* A file that was rejected or skipped, kept so it is not re-parsed. */
struct store_reject {
	char	*path;
	int64_t	 size;
	int64_t	 mtime_ns;
	char	 hash[17];
	char	*rule;
	char	*reason;
	int	 skipped;	/* skipped by policy (platform), not an error */
};

struct store_rejects {
	struct store_reject	*v;
	size_t			 n;
	size_t			 cap;
};

void	 store_rejects_init(struct store_rejects *);
void	 store_rejects_done(struct store_rejects *);
void	 store_rejects_add(struct store_rejects *, const char *path,
	    int64_t size, int64_t mtime_ns, const char *hash, const char *rule,
	    const char *reason, int skipped);

/*
 * Opens the store cfg names: store.backend sqlite (store.path; readonly:
 * without creating) or postgres (store.dsn, else $SKILLS_RADAR_DSN).
 * Returns 0, SR_NOTFOUND when a readonly SQLite file does not exist,
 * SR_CONFIG when trying again cannot help (postgres without a DSN or
 * with one libpq cannot parse, libpq not installed), or SR_IO with
 * *cause (the server is unreachable or failed: a replica retries). The
 * store keeps tombstones for store.tombstone_writes writes. No cause
 * contains a password.
 */
int	 store_open_cfg(const struct config *, int readonly, struct store **out,
	    char **cause);
/* The SQLite backend at path (missing parent directories are made). */
int	 store_open(const char *path, int readonly, struct store **out,
	    char **cause);
/* The PostgreSQL backend: dsn is a libpq URI or key=value string. */
int	 store_open_pg(const char *dsn, struct store **out, char **cause);
void	 store_close(struct store *);

/* "sqlite" or "postgres", and where: a path or the DSN without password. */
const char *store_backend(struct store *);
const char *store_where(struct store *);

/* Loads every entry (ordered by uid, then precedence) into set. */
int	 store_load(struct store *, struct skill_set *set, char **cause);
/*
 * store_load() with flags. STORE_LEAN leaves out what only a load or a
 * scan shows, the stored findings and the frontmatter JSON (the largest
 * columns), and what only the indexer reads (realpath, which becomes the
 * path; root, platforms, user_invocable, size, hash, bundle: empty or 0):
 * the entries are marked lean, for a process that only searches or lists
 * (the CLI's search, list, mini-index). A lean entry is never
 * written back (store_replace() and store_update() refuse it, or the
 * texts it lacks would be lost); store_get() reads the whole entry when
 * one is needed after all.
 */
#define STORE_LEAN	0x1
int	 store_load_flags(struct store *, struct skill_set *set, int flags,
	    char **cause);
/*
 * The whole entry stored at path into *out (the caller frees it), or
 * SR_NOTFOUND and *out NULL when there is none. Returns SR_IO with *cause
 * on a read error.
 */
int	 store_get(struct store *, const char *path, struct skill **out,
	    char **cause);
int	 store_load_rejects(struct store *, struct store_rejects *, char **cause);
/* Sorts set by uid, then duplicate precedence (the order of store_load). */
void	 store_order(struct skill_set *);

/* The index at a glance: what the dashboard shows without loading it. */
struct store_counts {
	size_t	 entries;	/* every stored entry, shadowed ones included */
	size_t	 winners;	/* entries no duplicate shadows */
	size_t	 user_only;	/* winners with disable-model-invocation */
	size_t	 tiers[4];	/* winners per enum trust_tier */
	size_t	 flagged[4];	/* of those, risk at warn or above */
};

/*
 * Fills *out with the counts of the stored entries, computed by the
 * database in one query (GROUP BY) so a caller that only needs the
 * numbers does not load every entry; an unknown trust counts as
 * UNTRUSTED, as store_load() reads it. Returns 0, or SR_IO with *cause
 * (the caller frees it); *out is zeroed first either way.
 */
int	 store_count(struct store *, struct store_counts *out, char **cause);

/*
 * Replaces the whole content in one transaction, and sets meta.digest:
 * only entries that differ are written (with a new version), vanished
 * ones become tombstones, and the counter moves when anything changed.
 */
int	 store_replace(struct store *, const struct skill_set *,
	    const struct store_rejects *, const char *digest, char **cause);

/*
 * A row-level update (hot reload): the entries at gone[] and the rejected
 * files at rej_gone[] are deleted, up[] and rej written (replacing rows
 * with the same path).
 */
struct store_delta {
	const char *const	 *gone;
	size_t			  ngone;
	struct skill *const	 *up;
	size_t			  nup;
	const char *const	 *rej_gone;
	size_t			  nrej_gone;
	const struct store_rejects *rej;	/* may be NULL */
};

/*
 * Applies d and sets meta.digest in one transaction, so a reader sees the
 * old or the new content and a killed writer leaves the old one; the
 * counter, versions, tombstones and notification are those of a
 * store_replace() writing the same change. When expect is not NULL and
 * meta.digest is not expect (another process wrote the index meanwhile),
 * nothing is written and *stale is set to 1.
 */
int	 store_update(struct store *, const struct store_delta *d,
	    const char *expect, const char *digest, int *stale, char **cause);

/*
 * What changed after counter since, read in one snapshot: the entries
 * written since (added to upserts, unordered) and the paths removed since
 * (added to removed); *counter gets the counter they bring the reader to.
 * since < 0 loads everything (ordered as store_load). Returns 0,
 * STORE_GAP when the tombstones no longer cover since, or since is ahead
 * of the counter (the store was recreated): nothing is added, load
 * everything instead. Or SR_IO.
 */
int	 store_changes(struct store *, int64_t since, struct skill_set *upserts,
	    struct strlist *removed, int64_t *counter, char **cause);
/* The current change counter (0: never written). */
int	 store_counter(struct store *, int64_t *counter, char **cause);

/*
 * postgres: LISTEN on STORE_CHANNEL (store_listen), then wait up to
 * timeout_ms for a notification or for wake_fd to become readable
 * (store_wait: 1 notified, 0 timeout or woken, SR_IO when the connection
 * is lost). sqlite has no notifications: store_listen answers SR_IO
 * ("not supported") and callers poll store_counter().
 */
int	 store_listen(struct store *, char **cause);
int	 store_wait(struct store *, int timeout_ms, int wake_fd, char **cause);

/* meta table: key/value strings. store_meta_get returns NULL when unset. */
char	*store_meta_get(struct store *, const char *key);
int	 store_meta_set(struct store *, const char *key, const char *value,
	    char **cause);

/*
 * The replicas table: each replica records its name, the counter it has
 * applied and when (unix seconds, its own clock); doctor lists them.
 */
struct store_replica {
	char	*name;
	int64_t	 counter;
	int64_t	 seen;
};
int	 store_report(struct store *, const char *name, int64_t counter,
	    char **cause);
/* *v gets n replicas (free with store_replicas_free), newest first. */
int	 store_replicas(struct store *, struct store_replica **v, size_t *n,
	    char **cause);
void	 store_replicas_free(struct store_replica *, size_t);

/* For tests: keep tombstones for only the last n writes (default above). */
void	 store_set_tomb_versions(struct store *, int64_t n);

#endif
