/*
 * Incremental updates of a search index (search_update.c), beside search.h
 * (whose index it takes). Ownership: the caller frees the
 * result with search_index_free(); it holds a reference on the base it
 * shares with old and borrows set and the added entries.
 */
#ifndef SR_SEARCH_UPDATE_H
#define SR_SEARCH_UPDATE_H

#include <stddef.h>

struct config;
struct search_index;
struct skill;
struct skill_set;

/*
 * An incremental update: the index over set, which is old's set minus
 * gone[] plus added[] (entries, by pointer; entries shared with old's set
 * must be unchanged). The result shares old's postings and vectors (its
 * base) and adds an overlay index over the added docs; removed docs are
 * tombstoned. Scores use statistics recomputed over the live docs (idf,
 * average field lengths, the mean vector): they equal those of
 * search_index_build() over set, up to the last bits of the mean vector's
 * double sums (~1e-12), and ties rank by path either way. Each update
 * costs about the overlay's size, so callers build afresh (compact) when
 * search_index_pending() (overlay plus tombstoned docs) grows. old stays
 * valid; calls on indexes sharing a base must not run concurrently (one
 * writer), searches may. An incremental index is never saved.
 */
int	 search_index_update(const struct search_index *old,
	    const struct skill_set *set, const struct skill *const *gone,
	    size_t ngone, const struct skill *const *added, size_t nadded,
	    const struct config *, struct search_index **out, char **cause);
size_t	 search_index_pending(const struct search_index *);

#endif
