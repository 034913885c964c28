/*
 * The on-disk cache of a built search index (search_cache.c), beside
 * search.h (whose index it takes). Ownership: save borrows the index;
 * load returns an index the caller frees with search_index_free(), which
 * borrows the set like search_index_build() and owns the file mapping.
 */
#ifndef SR_SEARCH_CACHE_H
#define SR_SEARCH_CACHE_H

#include <stdint.h>

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
	    uint64_t store_key, char **cause);
int	 search_index_load(const struct skill_set *set, const struct config *,
	    const char *path, struct search_index **out, char **cause);

/*
 * A search without the entries: the cache also holds what an answer
 * shows of each entry, and a store key (search_store_key() of the store
 * the set was read from, given to search_index_save(); 0: none). When
 * it and the configuration's part of the key match, search_index_open()
 * returns an index that owns its entries (set NULL), so a CLI search
 * reads neither the store's rows nor hashes their texts. Anything else
 * is SR_NOTFOUND with *cause, and the caller loads the set and uses
 * search_index_load() (which checks the full key) or builds.
 */
int	 search_index_open(uint64_t store_key, const struct config *,
	    const char *path, struct search_index **out, char **cause);
/*
 * Whether a search on an index from search_index_open() met an entry that
 * failed its check (each is decoded, and checked, when a search first
 * needs it): its answers are not to be trusted, and the caller removes
 * the cache and searches again without it. 0 for any other index.
 */
int	 search_index_damaged(const struct search_index *);
/* The store key a loaded index was saved with (0: none or built). */
uint64_t search_index_store_key(const struct search_index *);
/*
 * The store key of a store whose meta "counter" (moves with every write
 * that changes an entry) and "digest" (the content) are these; 0 when
 * either is missing.
 */
uint64_t search_store_key(const char *counter, const char *digest);

#endif
