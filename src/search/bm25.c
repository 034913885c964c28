/*
 * BM25F: a string hash of terms, per-term postings, field lengths.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "search/bm25.h"
#include "base/buf.h"
#include "base/xmalloc.h"

struct raw_post {
	uint32_t	 doc;
	uint16_t	 tf[BM25_FIELDS_MAX];
};

struct term {
	char		*s;
	size_t		 len;
	uint64_t	 h;
	struct raw_post	*raw;		/* while building */
	size_t		 nraw, capraw;
	struct bm25_posting *post;	/* after finish */
	size_t		 npost;
	double		 idf;
};

/*
 * A finished index is flat: fixed-size term records, one open-addressing
 * table of term ids, one array of postings and one pool of term bytes.
 * bm25_write() dumps these arrays and bm25_read() points into the
 * caller's (mapped) bytes after checking the sizes, so a loaded index
 * costs no copy; offsets and ids are checked where they are used.
 * own_* are the allocations a built index frees. Offsets are 32-bit:
 * 4G postings would take 32 GB to build.
 */
struct bm25_term {
	uint64_t	 h;
	double		 idf;
	uint32_t	 str;		/* offset in strs */
	uint32_t	 len;		/* FLAT_HASHED: a hashed token */
	uint32_t	 post;		/* first posting in posts */
	uint32_t	 npost;
};

#define FLAT_HASHED	UINT32_MAX
#define FLAT_EMPTY	UINT32_MAX

struct bm25 {
	int		 nfields;
	double		 w[BM25_FIELDS_MAX];
	double		 b[BM25_FIELDS_MAX];
	double		 k1;

	struct term	*terms;
	size_t		 nterms, capterms;
	long		*slots;		/* open addressing, -1 empty */
	size_t		 nslots;

	uint32_t	*len;		/* len[doc * nfields + f] */
	size_t		 caplen;
	uint32_t	 ndocs;
	int		 finished;

	/* after finish */
	const struct bm25_term	*ft;
	size_t		 nft;
	const uint32_t	*fslots;	/* FLAT_EMPTY or a term id */
	size_t		 nfslots;	/* a power of two > nft */
	const struct bm25_posting *posts;
	size_t		 nposts;
	const char	*strs;
	size_t		 nstrs;
	void		*own_ft, *own_slots, *own_posts, *own_strs;
	int		 borrowed;	/* bm25_read(): checked on use */
	const uint32_t	*blen;		/* bm25_read(): len, borrowed */
	/*
	 * bm25_read(): [nft] 0 a term's postings not checked yet, 1 good,
	 * 2 bad; written once (atomically: queries may run in threads) so
	 * a term is checked on its first use, not on every query.
	 */
	uint8_t		*checked;
};

static uint64_t
hash_str(const char *s, size_t len)
{
	uint64_t	 h = 0xcbf29ce484222325ULL;
	size_t		 i;

	for (i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 0x100000001b3ULL;
	}
	return h ^ (h >> 29);
}

struct bm25 *
bm25_new(int nfields, const double *weights, const double *b, double k1)
{
	struct bm25	*x;
	int		 f;

	if (nfields < 1)
		nfields = 1;
	if (nfields > BM25_FIELDS_MAX)
		nfields = BM25_FIELDS_MAX;
	x = xcalloc(1, sizeof(*x));
	x->nfields = nfields;
	for (f = 0; f < nfields; f++) {
		x->w[f] = weights[f];
		x->b[f] = b[f];
	}
	x->k1 = k1;
	x->nslots = 1024;
	x->slots = xreallocarray(NULL, x->nslots, sizeof(*x->slots));
	memset(x->slots, 0xff, x->nslots * sizeof(*x->slots));
	return x;
}

void
bm25_free(struct bm25 *x)
{
	size_t	 i;

	if (x == NULL)
		return;
	for (i = 0; i < x->nterms; i++) {
		free(x->terms[i].s);
		free(x->terms[i].raw);
		free(x->terms[i].post);
	}
	free(x->terms);
	free(x->slots);
	free(x->checked);
	if (x->blen == NULL)
		free(x->len);
	free(x->own_ft);
	free(x->own_slots);
	free(x->own_posts);
	free(x->own_strs);
	free(x);
}

static void
rehash(struct bm25 *x)
{
	size_t	 i, j, mask;

	free(x->slots);
	x->nslots *= 2;
	x->slots = xreallocarray(NULL, x->nslots, sizeof(*x->slots));
	memset(x->slots, 0xff, x->nslots * sizeof(*x->slots));
	mask = x->nslots - 1;
	for (i = 0; i < x->nterms; i++) {
		for (j = x->terms[i].h & mask; x->slots[j] != -1;
		    j = (j + 1) & mask)
			;
		x->slots[j] = (long)i;
	}
}

static long
lookup(const struct bm25 *x, const char *s, size_t len, uint64_t h,
    size_t *slot)
{
	size_t	 j, mask = x->nslots - 1;
	long	 t;

	for (j = h & mask; (t = x->slots[j]) != -1; j = (j + 1) & mask)
		if (x->terms[t].h == h && (s == NULL ||
		    (x->terms[t].len == len &&
		    memcmp(x->terms[t].s, s, len) == 0)))
			return t;
	if (slot != NULL)
		*slot = j;
	return -1;
}

static long
intern(struct bm25 *x, const char *s, size_t len, uint64_t h)
{
	size_t		 slot;
	long		 t;

	if ((t = lookup(x, s, len, h, &slot)) != -1)
		return t;
	if ((x->nterms + 1) * 2 > x->nslots) {
		rehash(x);
		lookup(x, s, len, h, &slot);
	}
	if (x->nterms == x->capterms) {
		x->capterms = x->capterms ? x->capterms * 2 : 1024;
		x->terms = xreallocarray(x->terms, x->capterms,
		    sizeof(*x->terms));
	}
	t = (long)x->nterms++;
	memset(&x->terms[t], 0, sizeof(x->terms[t]));
	x->terms[t].s = s != NULL ? xstrndup(s, len) : NULL;
	x->terms[t].len = len;
	x->terms[t].h = h;
	x->slots[slot] = t;
	return t;
}

static void	 add_token(struct bm25 *, uint32_t, int, const char *, size_t,
		    uint64_t, int);

void
bm25_add(struct bm25 *x, uint32_t doc, int field,
    const struct strlist *tokens)
{
	size_t	 i;

	for (i = 0; i < tokens->n; i++)
		bm25_add_token(x, doc, field, tokens->v[i],
		    strlen(tokens->v[i]));
	if (tokens->n == 0)
		bm25_add_token(x, doc, field, NULL, 0);
}

void
bm25_add_token(struct bm25 *x, uint32_t doc, int field, const char *tok,
    size_t len)
{
	add_token(x, doc, field, tok, len, tok != NULL ?
	    hash_str(tok, len) : 0, tok != NULL);
}

void
bm25_add_hashed(struct bm25 *x, uint32_t doc, int field, uint64_t h)
{
	add_token(x, doc, field, NULL, 0, h, 1);
}

static void
add_token(struct bm25 *x, uint32_t doc, int field, const char *tok,
    size_t len, uint64_t h, int have)
{
	struct term	*t;
	size_t		 need;
	long		 id;

	if (x->finished || field < 0 || field >= x->nfields ||
	    doc > BM25_DOCS_MAX)
		return;
	if (doc + 1 > x->ndocs)
		x->ndocs = doc + 1;
	need = (size_t)x->ndocs * (size_t)x->nfields;
	if (need > x->caplen) {
		size_t old = x->caplen;

		x->caplen = need * 2;
		x->len = xreallocarray(x->len, x->caplen, sizeof(*x->len));
		memset(x->len + old, 0, (x->caplen - old) * sizeof(*x->len));
	}
	if (!have)
		return;
	id = intern(x, tok, len, h);
	t = &x->terms[id];
	if (t->nraw == 0 || t->raw[t->nraw - 1].doc != doc) {
		if (t->nraw == t->capraw) {
			t->capraw = t->capraw ? t->capraw * 2 : 4;
			t->raw = xreallocarray(t->raw, t->capraw,
			    sizeof(*t->raw));
		}
		memset(&t->raw[t->nraw], 0, sizeof(t->raw[0]));
		t->raw[t->nraw++].doc = doc;
	}
	if (t->raw[t->nraw - 1].tf[field] < UINT16_MAX)
		t->raw[t->nraw - 1].tf[field]++;
	x->len[(size_t)doc * x->nfields + field]++;
}

/*
 * Moves the finished terms into the flat arrays (same term ids, so the
 * same answers) and drops the build-time table.
 */
static void
flatten(struct bm25 *x)
{
	struct bm25_term	*ft;
	struct bm25_posting	*posts;
	uint32_t		*slots;
	char			*strs;
	size_t			 i, j, mask, np = 0, ns = 0;
	size_t			 nslots = 1024;

	for (i = 0; i < x->nterms; i++) {
		np += x->terms[i].npost;
		if (x->terms[i].s != NULL)
			ns += x->terms[i].len;
	}
	if (np >= UINT32_MAX || ns >= UINT32_MAX || x->nterms >= UINT32_MAX)
		abort();	/* see struct bm25_term */
	while (nslots < 2 * (x->nterms + 1))
		nslots *= 2;
	ft = xcalloc(x->nterms ? x->nterms : 1, sizeof(*ft));
	posts = xreallocarray(NULL, np ? np : 1, sizeof(*posts));
	strs = xmalloc(ns ? ns : 1);
	slots = xreallocarray(NULL, nslots, sizeof(*slots));
	memset(slots, 0xff, nslots * sizeof(*slots));
	mask = nslots - 1;
	np = ns = 0;
	for (i = 0; i < x->nterms; i++) {
		struct term *t = &x->terms[i];

		ft[i].h = t->h;
		ft[i].idf = t->idf;
		ft[i].post = (uint32_t)np;
		ft[i].npost = (uint32_t)t->npost;
		if (t->npost > 0)
			memcpy(posts + np, t->post, t->npost * sizeof(*posts));
		np += t->npost;
		if (t->s != NULL) {
			ft[i].str = (uint32_t)ns;
			ft[i].len = (uint32_t)t->len;
			memcpy(strs + ns, t->s, t->len);
			ns += t->len;
		} else
			ft[i].len = FLAT_HASHED;
		j = t->h & mask;
		while (slots[j] != FLAT_EMPTY)
			j = (j + 1) & mask;
		slots[j] = (uint32_t)i;
		free(t->s);
		free(t->post);
	}
	free(x->terms);
	x->terms = NULL;
	free(x->slots);
	x->slots = NULL;
	x->nft = x->nterms;
	x->nterms = x->capterms = 0;
	x->ft = x->own_ft = ft;
	x->posts = x->own_posts = posts;
	x->nposts = np;
	x->strs = x->own_strs = strs;
	x->nstrs = ns;
	x->fslots = x->own_slots = slots;
	x->nfslots = nslots;
}

/*
 * A read index is checked where it is used: a probe sequence is at most
 * nfslots long, and a slot, a term's bytes or its postings out of bounds
 * read as "no such term" (damaged data never reads outside the arrays).
 */
static long
flat_lookup(const struct bm25 *x, const char *s, size_t len, uint64_t h)
{
	size_t			 j, k, mask = x->nfslots - 1;
	uint32_t		 t;
	const struct bm25_term	*e;

	for (j = h & mask, k = 0; k < x->nfslots; j = (j + 1) & mask, k++) {
		if ((t = x->fslots[j]) == FLAT_EMPTY || t >= x->nft)
			return -1;
		e = &x->ft[t];
		if (e->h != h)
			continue;
		if (s == NULL)
			return (long)t;
		if (e->len == len && e->str <= x->nstrs &&
		    len <= x->nstrs - e->str &&
		    memcmp(x->strs + e->str, s, len) == 0)
			return (long)t;
	}
	return -1;
}

double
bm25_idf_n(uint32_t ndocs, uint32_t df)
{
	return log(1.0 + ((double)(ndocs - df) + 0.5) / ((double)df + 0.5));
}

uint32_t
bm25_len(const struct bm25 *x, uint32_t doc, int f)
{
	if (doc >= x->ndocs || f < 0 || f >= x->nfields || x->len == NULL)
		return 0;
	return x->len[(size_t)doc * x->nfields + f];
}

uint64_t
bm25_len_sum(const struct bm25 *x, int f)
{
	uint64_t	 sum = 0;
	uint32_t	 d;

	for (d = 0; x->len != NULL && d < x->ndocs; d++)
		sum += x->len[(size_t)d * x->nfields + f];
	return sum;
}

float
bm25_sat_avg(const struct bm25 *x, const struct bm25_posting *p,
    const double *avg)
{
	double	 tfp = 0, norm;
	int	 f;

	for (f = 0; f < x->nfields; f++) {
		if (p->tf[f] == 0)
			continue;
		norm = 1 - x->b[f] + x->b[f] * bm25_len(x, p->doc, f) / avg[f];
		tfp += x->w[f] * p->tf[f] / norm;
	}
	return (float)(tfp / (x->k1 + tfp));
}

void
bm25_finish(struct bm25 *x, uint32_t ndocs)
{
	double		 avg[BM25_FIELDS_MAX];
	size_t		 i, j;
	uint32_t	 d;
	int		 f;

	if (x->finished)
		return;
	x->finished = 1;
	if (ndocs > x->ndocs) {
		size_t need = (size_t)ndocs * x->nfields, old = x->caplen;

		if (need > x->caplen) {
			x->caplen = need;
			x->len = xreallocarray(x->len, need, sizeof(*x->len));
			memset(x->len + old, 0, (need - old) * sizeof(*x->len));
		}
		x->ndocs = ndocs;
	}
	for (f = 0; f < x->nfields; f++) {
		avg[f] = x->ndocs ? (double)bm25_len_sum(x, f) / x->ndocs : 0;
		if (avg[f] <= 0)
			avg[f] = 1;
	}
	for (i = 0; i < x->nterms; i++) {
		struct term *t = &x->terms[i];

		t->idf = bm25_idf_n(x->ndocs, (uint32_t)t->nraw);
		t->post = xreallocarray(NULL, t->nraw ? t->nraw : 1,
		    sizeof(*t->post));
		t->npost = t->nraw;
		for (j = 0; j < t->nraw; j++) {
			d = t->raw[j].doc;
			memset(&t->post[j], 0, sizeof(t->post[j]));
			for (f = 0; f < x->nfields; f++) {
				t->post[j].tf[f] = t->raw[j].tf[f];
				if (t->raw[j].tf[f] != 0)
					t->post[j].fields |= 1u << f;
			}
			t->post[j].doc = d;
			t->post[j].sat = bm25_sat_avg(x, &t->post[j], avg);
		}
		free(t->raw);
		t->raw = NULL;
		t->nraw = t->capraw = 0;
	}
	flatten(x);
}

long
bm25_term(const struct bm25 *x, const char *token)
{
	size_t	 len = strlen(token);

	if (x->finished)
		return flat_lookup(x, token, len, hash_str(token, len));
	return lookup(x, token, len, hash_str(token, len), NULL);
}

long
bm25_term_hashed(const struct bm25 *x, uint64_t h)
{
	if (x->finished)
		return flat_lookup(x, NULL, 0, h);
	return lookup(x, NULL, 0, h, NULL);
}

double
bm25_idf(const struct bm25 *x, long t)
{
	if (!x->finished || t < 0 || (size_t)t >= x->nft)
		return 0;
	return x->ft[t].idf;
}

const struct bm25_posting *
bm25_postings(const struct bm25 *x, long t, size_t *n)
{
	const struct bm25_term		*e;
	const struct bm25_posting	*p;
	size_t				 i;

	*n = 0;
	if (t < 0 || !x->finished || (size_t)t >= x->nft)
		return NULL;
	e = &x->ft[t];
	if (e->post > x->nposts || e->npost > x->nposts - e->post)
		return NULL;
	p = x->posts + e->post;
	if (x->borrowed) {
		uint8_t c = __atomic_load_n(&x->checked[t], __ATOMIC_RELAXED);

		if (c == 0) {
			c = 1;
			for (i = 0; i < e->npost; i++)
				if (p[i].doc >= x->ndocs) {
					c = 2;
					break;
				}
			__atomic_store_n(&x->checked[t], c, __ATOMIC_RELAXED);
		}
		if (c == 2)
			return NULL;
	}
	*n = e->npost;
	return p;
}

uint32_t
bm25_ndocs(const struct bm25 *x)
{
	return x->ndocs;
}

/* ---- serialisation ---------------------------------------------------- */

/*
 * Layout (native endianness and struct layout; the cache key holds the
 * sizes): u64 nfields, double w[4], b[4], k1, u64 ndocs, nterms, nslots,
 * nposts, nstrs; then the terms, the slots, the postings and the term
 * bytes, each section padded to 8 bytes.
 */
static void
put_u64(struct buf *b, uint64_t v)
{
	buf_add(b, &v, sizeof(v));
}

static void
put_section(struct buf *b, const void *p, size_t n)
{
	static const char	 zero[8];

	if (n > 0)
		buf_add(b, p, n);
	if (n % 8 != 0)
		buf_add(b, zero, 8 - n % 8);
}

int
bm25_write(const struct bm25 *x, struct buf *b)
{
	if (!x->finished)
		return -1;
	put_u64(b, (uint64_t)x->nfields);
	buf_add(b, x->w, sizeof(x->w));
	buf_add(b, x->b, sizeof(x->b));
	buf_add(b, &x->k1, sizeof(x->k1));
	put_u64(b, x->ndocs);
	put_u64(b, x->nft);
	put_u64(b, x->nfslots);
	put_u64(b, x->nposts);
	put_u64(b, x->nstrs);
	put_section(b, x->ft, x->nft * sizeof(*x->ft));
	put_section(b, x->fslots, x->nfslots * sizeof(*x->fslots));
	put_section(b, x->posts, x->nposts * sizeof(*x->posts));
	put_section(b, x->strs, x->nstrs);
	put_section(b, x->len, (size_t)x->ndocs * x->nfields * sizeof(*x->len));
	return 0;
}

static int
get_bytes(struct bm25_reader *r, void *p, size_t n)
{
	if (n > r->len - r->off)
		return -1;
	memcpy(p, r->p + r->off, n);
	r->off += n;
	return 0;
}

static int
get_u64(struct bm25_reader *r, uint64_t *v)
{
	return get_bytes(r, v, sizeof(*v));
}

/* Borrows n elements of size sz at r (8-aligned), or NULL. */
static const void *
get_section(struct bm25_reader *r, uint64_t n, size_t sz)
{
	const void	*p;
	size_t		 bytes;

	if (n > (r->len - r->off) / sz)
		return NULL;
	bytes = (size_t)n * sz;
	p = r->p + r->off;
	if (((uintptr_t)p & 7) != 0)
		return NULL;
	bytes = (bytes + 7) & ~(size_t)7;
	if (bytes > r->len - r->off)
		return NULL;
	r->off += bytes;
	return p;
}

struct bm25 *
bm25_read(struct bm25_reader *r)
{
	struct bm25	*x;
	uint64_t	 nf, nd, nt, nsl, np, ns;
	double		 w[BM25_FIELDS_MAX], bb[BM25_FIELDS_MAX], k1;
	int		 f;

	if (get_u64(r, &nf) || nf < 1 || nf > BM25_FIELDS_MAX ||
	    get_bytes(r, w, sizeof(w)) || get_bytes(r, bb, sizeof(bb)) ||
	    get_bytes(r, &k1, sizeof(k1)) || get_u64(r, &nd) ||
	    nd > BM25_DOCS_MAX || get_u64(r, &nt) || get_u64(r, &nsl) ||
	    get_u64(r, &np) || get_u64(r, &ns) ||
	    nt >= UINT32_MAX || np >= UINT32_MAX || ns >= UINT32_MAX ||
	    nsl <= nt || nsl >= UINT32_MAX || (nsl & (nsl - 1)) != 0)
		return NULL;
	x = xcalloc(1, sizeof(*x));
	x->nfields = (int)nf;
	for (f = 0; f < x->nfields; f++) {
		x->w[f] = w[f];
		x->b[f] = bb[f];
	}
	x->k1 = k1;
	x->finished = 1;
	x->borrowed = 1;
	x->ndocs = (uint32_t)nd;
	x->nft = nt;
	x->nfslots = nsl;
	x->nposts = np;
	x->nstrs = ns;
	if ((x->ft = get_section(r, nt, sizeof(*x->ft))) == NULL ||
	    (x->fslots = get_section(r, nsl, sizeof(*x->fslots))) == NULL ||
	    (x->posts = get_section(r, np, sizeof(*x->posts))) == NULL ||
	    (x->strs = get_section(r, ns, 1)) == NULL ||
	    (x->blen = get_section(r, nd * nf, sizeof(*x->len))) == NULL) {
		free(x);
		return NULL;
	}
	x->len = (uint32_t *)(uintptr_t)x->blen;	/* read only */
	x->checked = xcalloc(nt ? nt : 1, 1);
	return x;
}
