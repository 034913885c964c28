/*
 * index.db: the persistent index (SQLite, WAL). The schema carries a
 * version in PRAGMA user_version and is migrated forward on open. The
 * whole content is replaced in one transaction by store_replace(), so a
 * reader (another process) sees the old or the new index, never a mix,
 * and a killed writer leaves the previous index intact.
 *
 * struct store is an opaque handle: store_open() / store_close().
 */
#ifndef SR_STORE_H
#define SR_STORE_H

#include <stdint.h>

#include "skill.h"

struct store;

#define STORE_SCHEMA_VERSION 1

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
 * Opens (readonly: without creating) the database at path. When creating,
 * missing parent directories are made. Returns 0, SR_NOTFOUND when
 * readonly and the file does not exist, or SR_IO with *cause.
 */
int	 store_open(const char *path, int readonly, struct store **out,
	    char **cause);
void	 store_close(struct store *);

/* Loads every entry (ordered by uid, then precedence) into set. */
int	 store_load(struct store *, struct skill_set *set, char **cause);
int	 store_load_rejects(struct store *, struct store_rejects *, char **cause);

/* Replaces the whole content in one transaction, and sets meta.digest. */
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
 * old or the new content and a killed writer leaves the old one. When
 * expect is not NULL and meta.digest is not expect (another process wrote
 * the index meanwhile), nothing is written and *stale is set to 1.
 */
int	 store_update(struct store *, const struct store_delta *d,
	    const char *expect, const char *digest, int *stale, char **cause);

/* meta table: key/value strings. store_meta_get returns NULL when unset. */
char	*store_meta_get(struct store *, const char *key);
int	 store_meta_set(struct store *, const char *key, const char *value,
	    char **cause);

#endif
