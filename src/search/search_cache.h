/*
 * The on-disk cache of a built search index (search_cache.c), beside
 * search.h (whose index it takes). Ownership: save borrows the index;
 * load returns an index the caller frees with search_index_free(), which
 * borrows the set like search_index_build() and owns the file mapping.
 */
#ifndef SR_SEARCH_CACHE_H
#define SR_SEARCH_CACHE_H

struct config;
struct search_index;
struct skill_set;

/*
 * A cache of the built index, so a short-lived process (the CLI) need not
 * rebuild it. search_index_save() writes the index to path (via path.tmp
 * and rename); returns 0 or SR_IO with *cause. search_index_load() reads
 * one back for exactly this set (same entries, texts and order), config
 * (embedder, dim) and the default parameters; a missing, stale or damaged
 * file is SR_NOTFOUND with *cause, and the caller builds (and saves)
 * instead. The layout is this build's in-memory one: the key includes
 * the format version and struct sizes. The loaded index maps the file
 * read-only and uses its arrays in place (bounds are checked on load and
 * on use), so a load copies nothing; the mapping lives until
 * search_index_free(). Like search_index_build(), it borrows set.
 */
int	 search_index_save(const struct search_index *, const char *path,
	    char **cause);
int	 search_index_load(const struct skill_set *set, const struct config *,
	    const char *path, struct search_index **out, char **cause);

#endif
