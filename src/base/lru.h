/*
 * A thread-safe least-recently-used cache of byte strings keyed by byte
 * strings (callers key by model and input: lru_key()). A hit moves the
 * entry to the front; a put beyond the capacity evicts the least recently
 * used one. The cache owns copies of keys and values; lru_get() returns a
 * copy the caller frees, so nothing borrowed outlives the lock.
 * A capacity of 0 makes a cache that stores nothing.
 */
#ifndef SR_LRU_H
#define SR_LRU_H

#include <stddef.h>

struct lru;

struct lru	*lru_new(size_t capacity);
void		 lru_free(struct lru *);

/*
 * Looks key up. On a hit returns 1 and sets *val (allocated, NUL
 * appended, free it) and *len (may be NULL); on a miss returns 0.
 */
int		 lru_get(struct lru *, const char *key, char **val,
		    size_t *len);
/* Stores a copy of val (len bytes) under key, replacing an older value. */
void		 lru_put(struct lru *, const char *key, const void *val,
		    size_t len);

/* Entries held. */
size_t		 lru_count(struct lru *);

/* Returns "model\x1finput" (allocated): the key of one model's answer. */
char		*lru_key(const char *model, const char *input);

#endif
