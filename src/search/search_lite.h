/*
 * The entries of an index opened from its cache alone, decoded lazily
 * (search_cache.h's search_index_open()). The entries section holds, per
 * doc, NUL-terminated strings: "kind project trust risk_sev flags risk
 * ntags nreq nfall" (flags: E_*), uid, name, [display], path, scope,
 * description, when_to_use, [shadowed_by], [signature], [signer], then
 * the tags, requires_tools and fallback_for_tools.
 *
 * Ownership: the decoded entries belong to the index (x->lite), their
 * strings point into its mapping; both live until search_index_free().
 */
#ifndef SR_SEARCH_LITE_H
#define SR_SEARCH_LITE_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#define E_DISPLAY	1
#define E_SHADOWED	2
#define E_SIGNATURE	4
#define E_SIGNER	8

struct skill;

/*
 * The entries section of a mapped cache: off[ndocs + 1] offsets into
 * blob, then ndocs hashes (off[ndocs + 1 + d]); v[d] once decoded.
 */
struct search_lite {
	struct skill		*v;		/* [ndocs], NULL: not in use */
	unsigned char		*done;		/* [ndocs] whether decoded */
	uint32_t		*list;		/* the docs decoded */
	size_t			 n, cap;
	const uint64_t		*off;
	const char		*blob;
	uint32_t		 ndocs;
	int			 damaged;	/* some entry failed its check */
	pthread_mutex_t		 lock;		/* over all of the above */
};

/* The hash one entry's n bytes of strings at p are checked against. */
uint64_t search_lite_hash(const void *p, size_t n);

/*
 * Checks the offsets of an entries section (len bytes of strings at
 * blob) and sets l up to decode from it, borrowing off and blob (the
 * mapping must outlive l). Returns 0, or -1 when the offsets are
 * damaged (l is then not in use).
 */
int	 search_lite_init(struct search_lite *l, const uint64_t *off,
	    const char *blob, uint64_t len, uint32_t ndocs);
/*
 * The entry of doc d (shadowed: whether the index says it is), decoded
 * and checked on first use and kept until search_lite_done(); safe from
 * several threads. A damaged entry reads as one with empty strings and
 * sets l->damaged (search_lite_damaged()).
 */
const struct skill *search_lite_get(const struct search_lite *l, uint32_t d,
	    int shadowed);
/* Whether some entry decoded so far was damaged. */
int	 search_lite_damaged(const struct search_lite *l);
/* Frees what l decoded; l is then not in use. */
void	 search_lite_done(struct search_lite *l);

#endif
