/*
 * BM25F postings in memory. Documents are numbered 0..n-1 and added in
 * order, field by field; bm25_finish() computes the idf of every term and,
 * per (term, document), the saturated field-weighted term frequency
 *	tf' = sum_f w_f * tf_f / (1 - b_f + b_f * len_f / avglen_f)
 *	sat = tf' / (k1 + tf')
 * so that a query scores sum_t idf(t) * sat(t, d) with one pass over the
 * postings of its terms. idf(t) = ln(1 + (N - n_t + 0.5) / (n_t + 0.5)),
 * always positive.
 *
 * The index owns everything it stores (terms are copied), except that a
 * bm25_read() index borrows its arrays (see there). After bm25_finish()
 * it is read-only and may be shared between threads.
 */
#ifndef SR_BM25_H
#define SR_BM25_H

#include <stddef.h>
#include <stdint.h>

#include "base/strlist.h"

#define BM25_FIELDS_MAX	4
#define BM25_DOCS_MAX	((1u << 28) - 1)
#define BM25_CACHE_FORMAT 3	/* bm25_write() layout version */

struct bm25;

struct bm25_posting {
	unsigned	 doc : 28;
	unsigned	 fields : 4;	/* bit f: the term occurs in field f */
	float		 sat;		/* tf' / (k1 + tf') */
	uint16_t	 tf[BM25_FIELDS_MAX];	/* raw term frequency per field */
};

/* weights[f], b[f] for f < nfields (<= BM25_FIELDS_MAX). */
struct bm25	*bm25_new(int nfields, const double *weights, const double *b,
		    double k1);
void		 bm25_free(struct bm25 *);

/*
 * Adds the tokens of one field of document doc. doc must be the current
 * document or the next one (documents without tokens are allowed), and at
 * most BM25_DOCS_MAX; later documents are ignored.
 */
void		 bm25_add(struct bm25 *, uint32_t doc, int field,
		    const struct strlist *tokens);
/* Adds one token (len bytes, not NUL-terminated); NULL only registers doc. */
void		 bm25_add_token(struct bm25 *, uint32_t doc, int field,
		    const char *tok, size_t len);
/*
 * Adds a token known only by a 64-bit hash (character n-grams: no string
 * is stored). Do not mix with string tokens in one index.
 */
void		 bm25_add_hashed(struct bm25 *, uint32_t doc, int field,
		    uint64_t h);
/* Computes idf and saturated weights; call once after the last add. */
void		 bm25_finish(struct bm25 *, uint32_t ndocs);

/* Returns the term id of token, or -1 when no document has it. */
long		 bm25_term(const struct bm25 *, const char *token);
/* The term id of a hashed token, or -1. */
long		 bm25_term_hashed(const struct bm25 *, uint64_t h);
double		 bm25_idf(const struct bm25 *, long term);
/* The postings of a term, sorted by document; borrowed from the index. */
const struct bm25_posting *bm25_postings(const struct bm25 *, long term,
		    size_t *n);
uint32_t	 bm25_ndocs(const struct bm25 *);

/*
 * Scoring against other collection statistics (an incremental search
 * index: the same postings, but more or fewer documents around them).
 * bm25_len() is the length of field f of doc; bm25_len_sum() the sum over
 * every document. bm25_sat_avg() is the sat of posting p (of this index)
 * with the average field lengths avg[] instead of this index's own: the
 * same arithmetic as bm25_finish(), so with the same averages it returns
 * exactly p->sat. bm25_idf_n() is the idf of a term in ndocs documents of
 * which df have it, as bm25_finish() computes it.
 */
uint32_t	 bm25_len(const struct bm25 *, uint32_t doc, int field);
uint64_t	 bm25_len_sum(const struct bm25 *, int field);
float		 bm25_sat_avg(const struct bm25 *, const struct bm25_posting *p,
		    const double *avg);
double		 bm25_idf_n(uint32_t ndocs, uint32_t df);

/*
 * Serialisation for a cache file (same build only: the layout is the
 * in-memory one, flat arrays padded to 8 bytes). bm25_write() appends a
 * finished index to b; returns 0 or -1. bm25_read() parses one from r
 * (advancing r->off; r->p + r->off must be 8-aligned): it checks the
 * counts against the bytes and returns a new index that borrows its
 * arrays from r->p (which must stay valid and unchanged until
 * bm25_free()), or NULL when they do not fit. Nothing is copied and the
 * rest is checked on use: a damaged slot, term or posting list makes
 * that term unknown (-1, no postings), never an access out of bounds.
 */
struct buf;
struct bm25_reader {
	const unsigned char	*p;
	size_t			 len;
	size_t			 off;
};
int		 bm25_write(const struct bm25 *, struct buf *);
struct bm25	*bm25_read(struct bm25_reader *);

#endif
