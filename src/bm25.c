/*
 * BM25F: a string hash of terms, per-term postings, field lengths.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bm25.h"
#include "buf.h"
#include "xmalloc.h"

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
	free(x->len);
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

void
bm25_finish(struct bm25 *x, uint32_t ndocs)
{
	double		 avg[BM25_FIELDS_MAX], tfp, norm;
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
		avg[f] = 0;
		for (d = 0; d < x->ndocs; d++)
			avg[f] += x->len[(size_t)d * x->nfields + f];
		avg[f] = x->ndocs ? avg[f] / x->ndocs : 0;
		if (avg[f] <= 0)
			avg[f] = 1;
	}
	for (i = 0; i < x->nterms; i++) {
		struct term *t = &x->terms[i];

		t->idf = log(1.0 + (x->ndocs - t->nraw + 0.5) /
		    (t->nraw + 0.5));
		t->post = xreallocarray(NULL, t->nraw ? t->nraw : 1,
		    sizeof(*t->post));
		t->npost = t->nraw;
		for (j = 0; j < t->nraw; j++) {
			d = t->raw[j].doc;
			tfp = 0;
			t->post[j].fields = 0;
			for (f = 0; f < x->nfields; f++) {
				if (t->raw[j].tf[f] == 0)
					continue;
				t->post[j].fields |= 1u << f;
				norm = 1 - x->b[f] + x->b[f] *
				    x->len[(size_t)d * x->nfields + f] / avg[f];
				tfp += x->w[f] * t->raw[j].tf[f] / norm;
			}
			t->post[j].doc = d;
			t->post[j].sat = (float)(tfp / (x->k1 + tfp));
		}
		free(t->raw);
		t->raw = NULL;
		t->nraw = t->capraw = 0;
	}
}

long
bm25_term(const struct bm25 *x, const char *token)
{
	size_t	 len = strlen(token);

	return lookup(x, token, len, hash_str(token, len), NULL);
}

long
bm25_term_hashed(const struct bm25 *x, uint64_t h)
{
	return lookup(x, NULL, 0, h, NULL);
}

double
bm25_idf(const struct bm25 *x, long t)
{
	if (t < 0 || (size_t)t >= x->nterms)
		return 0;
	return x->terms[t].idf;
}

const struct bm25_posting *
bm25_postings(const struct bm25 *x, long t, size_t *n)
{
	if (t < 0 || (size_t)t >= x->nterms || !x->finished) {
		*n = 0;
		return NULL;
	}
	*n = x->terms[t].npost;
	return x->terms[t].post;
}

uint32_t
bm25_ndocs(const struct bm25 *x)
{
	return x->ndocs;
}

size_t
bm25_nterms(const struct bm25 *x)
{
	return x->nterms;
}

/* ---- serialisation ---------------------------------------------------- */

static void
put_bytes(struct buf *b, const void *p, size_t n)
{
	buf_add(b, p, n);
}

static void
put_u64(struct buf *b, uint64_t v)
{
	put_bytes(b, &v, sizeof(v));
}

int
bm25_write(const struct bm25 *x, struct buf *b)
{
	size_t	 i;
	uint64_t v;

	if (!x->finished)
		return -1;
	put_u64(b, (uint64_t)x->nfields);
	put_bytes(b, x->w, sizeof(x->w));
	put_bytes(b, x->b, sizeof(x->b));
	put_bytes(b, &x->k1, sizeof(x->k1));
	put_u64(b, x->ndocs);
	put_u64(b, x->nterms);
	for (i = 0; i < x->nterms; i++) {
		const struct term *t = &x->terms[i];

		v = t->s != NULL ? t->len : UINT64_MAX;
		put_u64(b, v);
		if (t->s != NULL)
			put_bytes(b, t->s, t->len);
		put_u64(b, t->h);
		put_bytes(b, &t->idf, sizeof(t->idf));
		put_u64(b, t->npost);
		put_bytes(b, t->post, t->npost * sizeof(*t->post));
	}
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

struct bm25 *
bm25_read(struct bm25_reader *r)
{
	struct bm25	*x;
	uint64_t	 nf, nd, nt, len, np;
	size_t		 i;
	double		 w[BM25_FIELDS_MAX], bb[BM25_FIELDS_MAX], k1;

	if (get_u64(r, &nf) || nf < 1 || nf > BM25_FIELDS_MAX ||
	    get_bytes(r, w, sizeof(w)) || get_bytes(r, bb, sizeof(bb)) ||
	    get_bytes(r, &k1, sizeof(k1)) || get_u64(r, &nd) ||
	    nd > BM25_DOCS_MAX || get_u64(r, &nt) ||
	    nt > (r->len - r->off) / 32)
		return NULL;
	x = bm25_new((int)nf, w, bb, k1);
	x->finished = 1;
	x->ndocs = (uint32_t)nd;
	x->capterms = nt ? nt : 1;
	x->terms = xcalloc(x->capterms, sizeof(*x->terms));
	for (i = 0; i < nt; i++) {
		struct term *t = &x->terms[i];

		x->nterms++;
		if (get_u64(r, &len))
			goto bad;
		if (len != UINT64_MAX) {
			if (len > r->len - r->off)
				goto bad;
			t->s = xstrndup((const char *)r->p + r->off, len);
			t->len = len;
			r->off += len;
		}
		if (get_u64(r, &t->h) || get_bytes(r, &t->idf, sizeof(t->idf)) ||
		    get_u64(r, &np) ||
		    np > (r->len - r->off) / sizeof(*t->post))
			goto bad;
		t->npost = np;
		t->post = xreallocarray(NULL, np ? np : 1, sizeof(*t->post));
		if (get_bytes(r, t->post, np * sizeof(*t->post)))
			goto bad;
		for (len = 0; len < np; len++)
			if (t->post[len].doc >= nd)
				goto bad;
	}
	while (x->nslots < 2 * (x->nterms + 1))
		x->nslots *= 2;
	x->nslots /= 2;		/* rehash() doubles it */
	rehash(x);
	return x;
bad:
	bm25_free(x);
	return NULL;
}
