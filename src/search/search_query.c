/*
 * Running a query over a built, loaded or incremental search index
 * (search_run(), search.h): parsing the query, the lexical, n-gram,
 * prefix and vector passes, fusion and calibration, shadowed duplicates.
 * The fusion and its constants are described at the top of search.c,
 * which builds the index this file reads.
 */
#include "autoconfig.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "search/bm25.h"
#include "base/buf.h"
#include "core/config.h"
#include "search/embed.h"
#include "search/search.h"
#include "search/search_impl.h"
#include "base/status.h"
#include "base/text.h"
#include "search/xlang.h"
#include "base/xmalloc.h"

struct query {
	char		*text;		/* for the embedder */
	struct strlist	 terms;		/* distinct, normalised, stemmed */
	long		 tid[SEARCH_QUERY_TERMS][PARTS];
	double		 idf[SEARCH_QUERY_TERMS];
	uint64_t	 required;	/* bit i: terms.v[i] is required */
	double		 idf_sum;
	uint64_t	 compact;
	long		(*gid)[PARTS];	/* n-gram term ids, -1 unknown */
	uint64_t	*ghash;
	struct strlist	 pterms;
	long		 pid[SEARCH_QUERY_TERMS][PARTS];
	double		 pidf[SEARCH_QUERY_TERMS];
	double		 pidf_sum;
	double		*gidf;
	size_t		 ngrams;
	double		 gidf_sum;
};

static void
query_add_terms(struct query *q, struct strlist *tok, int required)
{
	size_t	 i;

	for (i = 0; i < tok->n; i++) {
		size_t	 k;

		for (k = 0; k < q->terms.n; k++)
			if (strcmp(q->terms.v[k], tok->v[i]) == 0)
				break;
		if (k == q->terms.n) {
			if (q->terms.n == SEARCH_QUERY_TERMS)
				continue;
			strlist_add(&q->terms, tok->v[i]);
		}
		if (required)
			q->required |= 1ULL << k;
	}
}

struct qgram_sink {
	const struct search_index	*x;
	struct query			*q;
	double				 maxidf;
};

static void
query_gram(void *arg, const char *t, size_t len)
{
	struct qgram_sink	*k = arg;
	struct query		*q = k->q;
	uint64_t		 h = search_gram_hash(t, len);
	size_t			 i;

	if (q->ngrams == SEARCH_QUERY_GRAMS)
		return;
	for (i = 0; i < q->ngrams; i++)
		if (q->ghash[i] == h)
			return;
	q->ghash[q->ngrams] = h;
	q->gidf[q->ngrams] = search_term_idf(k->x, 1, NULL, h, q->gid[q->ngrams],
	    k->maxidf);
	q->gidf_sum += q->gidf[q->ngrams];
	q->ngrams++;
}

static void
query_word(void *arg, const char *t, size_t len)
{
	text_word_ngrams(t, len, GRAM_N, query_gram, arg);
}

static void
query_grams(const struct search_index *x, struct query *q, double maxidf)
{
	struct qgram_sink	 k = { x, q, maxidf };

	q->gid = xcalloc(SEARCH_QUERY_GRAMS, sizeof(*q->gid));
	q->gidf = xcalloc(SEARCH_QUERY_GRAMS, sizeof(*q->gidf));
	q->ghash = xcalloc(SEARCH_QUERY_GRAMS, sizeof(*q->ghash));
	text_tokenize_cb(NULL, q->text, TEXT_STOP, query_word, &k, 1024);
}

static void
query_pfx_tok(void *arg, const char *t, size_t len)
{
	struct strlist	*l = arg;
	char		*s;

	if (len > PFX_LEN)
		len = text_utf8_cut(t, PFX_LEN);
	s = xstrndup(t, len);
	if (l->n < SEARCH_QUERY_TERMS && !strlist_contains(l, s, 0))
		strlist_add_take(l, s);
	else
		free(s);
}

static void
query_pfx(const struct search_index *x, struct query *q, double maxidf)
{
	size_t	 i;

	text_tokenize_cb(NULL, q->text, TEXT_STOP, query_pfx_tok, &q->pterms,
	    256);
	for (i = 0; i < q->pterms.n; i++) {
		q->pidf[i] = search_term_idf(x, 2, q->pterms.v[i], 0, q->pid[i],
		    maxidf);
		q->pidf_sum += q->pidf[i];
	}
}

static void
query_parse(const struct search_index *x, const char *raw, struct query *q)
{
	struct text_ctx	*tc;
	struct strlist	 words, tok;
	struct buf	 b;
	size_t		 i, len;
	double		 maxidf;

	memset(q, 0, sizeof(*q));
	strlist_init(&q->terms);
	strlist_init(&q->pterms);
	len = strlen(raw);
	if (len > SEARCH_QUERY_BYTES)
		len = text_utf8_cut(raw, SEARCH_QUERY_BYTES);
	q->text = xstrndup(raw, len);
	q->compact = search_compact_hash(q->text);

	tc = text_ctx_new();
	strlist_init(&words);
	strlist_split(&words, q->text, " \t\r\n");
	buf_init(&b, 0);
	for (i = 0; i < words.n; i++) {
		const char *w = words.v[i];
		int req = w[0] == '+' && w[1] != '\0';

		strlist_init(&tok);
		text_tokenize(tc, req ? w + 1 : w, TEXT_INDEX, &tok, 0);
		if (req && tok.n == 0)	/* "+the": keep it, unstopped */
			text_tokenize(tc, w + 1, TEXT_STEM, &tok, 0);
		query_add_terms(q, &tok, req);
		strlist_done(&tok);
		buf_addstr(&b, req ? w + 1 : w);
		buf_addc(&b, ' ');
	}
	free(q->text);
	q->text = buf_take(&b);
	strlist_done(&words);
	text_ctx_free(tc);

	maxidf = log(1.0 + (x->nlive + 0.5) / 0.5);
	query_grams(x, q, maxidf);
	if (x->pfx != NULL)
		query_pfx(x, q, maxidf);
	for (i = 0; i < q->terms.n; i++) {
		q->idf[i] = search_term_idf(x, 0, q->terms.v[i], 0, q->tid[i],
		    maxidf);
		q->idf_sum += q->idf[i];
	}
}

static void
query_done(struct query *q)
{
	free(q->gid);
	free(q->gidf);
	free(q->ghash);
	strlist_done(&q->pterms);
	free(q->text);
	strlist_done(&q->terms);
}

struct scratch {
	float		*lex;		/* sum idf * sat */
	float		*cov;		/* sum idf of matched terms */
	uint64_t	*mask;		/* matched terms */
	uint64_t	*nmask;		/* terms matched in the name field */
	float		*cos;
	float		*gram;		/* sum idf * sat over n-grams */
	float		*pfx;
	float		*graw;		/* group raw score, NAN: not a candidate */
	int32_t		*via;		/* doc that gave graw */
	uint8_t		*hascos;	/* cos[d] is computed */
	float		*part;		/* raw without the cosine, NAN: none */
	/*
	 * The arrays above are a pooled search_dense's, in its reset state
	 * (0, graw -inf, via d, part NAN) but for the docs touched: seen
	 * has their bits, list them in any order, ord the sorted ones
	 * sorted_touched() made last. A query's work follows the docs that
	 * share something with it, not the collection.
	 */
	struct search_dense *dn;
	uint64_t	*seen;
	uint32_t	*list;
	size_t		 nlist;
	uint32_t	*ord;
	float		*qv;		/* the query vector */
	char		*vec_error;	/* the query could not be embedded */
	/* The vector space cosines use: raw vectors, centred on mean. */
	const float	*vec;		/* docs below nbase */
	const float	*ovec;		/* the others (an overlay's) */
	uint32_t	 nbase;
	const float	*mean;
	const double	*norm;		/* squared centred norms, or NULL */
	int		 dim;
};

static struct search_dense *
dense_get(const struct search_index *cx)
{
	struct search_index	*x = (struct search_index *)cx;	/* pool only */
	struct search_dense	*dn;
	uint32_t		 d, n = x->ndocs;

	pthread_mutex_lock(&x->fb_lock);
	if ((dn = x->pool) != NULL)
		x->pool = dn->next;
	pthread_mutex_unlock(&x->fb_lock);
	if (dn != NULL)
		return dn;
	dn = xcalloc(1, sizeof(*dn));
	dn->n = n;
	dn->lex = xcalloc(n, sizeof(*dn->lex));
	dn->cov = xcalloc(n, sizeof(*dn->cov));
	dn->cos = xcalloc(n, sizeof(*dn->cos));
	dn->gram = xcalloc(n, sizeof(*dn->gram));
	dn->pfx = xcalloc(n, sizeof(*dn->pfx));
	dn->mask = xcalloc(n, sizeof(*dn->mask));
	dn->nmask = xcalloc(n, sizeof(*dn->nmask));
	dn->hascos = xcalloc(n, sizeof(*dn->hascos));
	dn->seen = xcalloc((n + 63) / 64, sizeof(*dn->seen));
	dn->graw = xreallocarray(NULL, n, sizeof(*dn->graw));
	dn->part = xreallocarray(NULL, n, sizeof(*dn->part));
	dn->via = xreallocarray(NULL, n, sizeof(*dn->via));
	dn->list = xreallocarray(NULL, n, sizeof(*dn->list));
	dn->ord = xreallocarray(NULL, n, sizeof(*dn->ord));
	for (d = 0; d < n; d++) {
		dn->graw[d] = -INFINITY;
		dn->part[d] = NAN;
		dn->via[d] = (int32_t)d;
	}
	return dn;
}

/* Resets the docs dn's query touched and gives dn back to x's pool. */
static void
dense_put(const struct search_index *cx, struct search_dense *dn)
{
	struct search_index	*x = (struct search_index *)cx;	/* pool only */
	size_t			 i;
	uint32_t		 d, n = dn->n;

	if (dn->nlist > n / 8) {	/* most docs: sequential is faster */
		memset(dn->lex, 0, n * sizeof(*dn->lex));
		memset(dn->cov, 0, n * sizeof(*dn->cov));
		memset(dn->cos, 0, n * sizeof(*dn->cos));
		memset(dn->gram, 0, n * sizeof(*dn->gram));
		memset(dn->pfx, 0, n * sizeof(*dn->pfx));
		memset(dn->mask, 0, n * sizeof(*dn->mask));
		memset(dn->nmask, 0, n * sizeof(*dn->nmask));
		memset(dn->hascos, 0, n * sizeof(*dn->hascos));
		memset(dn->seen, 0, ((size_t)n + 63) / 64 * sizeof(*dn->seen));
		for (d = 0; d < n; d++) {
			dn->graw[d] = -INFINITY;
			dn->part[d] = NAN;
			dn->via[d] = (int32_t)d;
		}
		dn->nlist = 0;
	}
	for (i = 0; i < dn->nlist; i++) {
		d = dn->list[i];
		dn->lex[d] = dn->cov[d] = dn->cos[d] = 0;
		dn->gram[d] = dn->pfx[d] = 0;
		dn->mask[d] = dn->nmask[d] = 0;
		dn->hascos[d] = 0;
		dn->graw[d] = -INFINITY;
		dn->part[d] = NAN;
		dn->via[d] = (int32_t)d;
		dn->seen[d >> 6] = 0;
	}
	dn->nlist = 0;
	pthread_mutex_lock(&x->fb_lock);
	dn->next = x->pool;
	x->pool = dn;
	pthread_mutex_unlock(&x->fb_lock);
}

/* Marks d as touched by the query (its scratch entries may change). */
static inline void
touch(struct scratch *sc, uint32_t d)
{
	uint64_t	 b = 1ULL << (d & 63);

	if (!(sc->seen[d >> 6] & b)) {
		sc->seen[d >> 6] |= b;
		sc->list[sc->nlist++] = d;
	}
}

/* Puts the touched docs in ascending order into sc->ord; their number. */
static size_t
sorted_touched(const struct search_index *x, struct scratch *sc)
{
	size_t		 n = 0, w, nw = ((size_t)x->ndocs + 63) / 64;
	uint64_t	 m;

	for (w = 0; w < nw; w++)
		for (m = sc->seen[w]; m != 0; m &= m - 1)
			sc->ord[n++] = (uint32_t)(w * 64 +
			    (unsigned)__builtin_ctzll(m));
	return n;
}

/*
 * The shadowed docs of x that have a winner, ascending: listed once per
 * index, on the first query that needs them.
 */
static const uint32_t *
shadow_list(const struct search_index *cx, size_t *n)
{
	struct search_index	*x = (struct search_index *)cx;	/* list only */
	uint32_t		 d;

	pthread_mutex_lock(&x->fb_lock);
	if (!x->have_shadow) {
		for (d = 0; d < x->ndocs; d++)
			if (x->docs[d].shadowed && x->docs[d].winner >= 0) {
				x->shadow = xreallocarray(x->shadow,
				    x->nshadow + 1, sizeof(*x->shadow));
				x->shadow[x->nshadow++] = d;
			}
		x->have_shadow = 1;
	}
	pthread_mutex_unlock(&x->fb_lock);
	*n = x->nshadow;
	return x->shadow;
}

struct feat {
	double	 lexical, coverage, cosine, name, exact, gram, pfx, raw;
};

static void
features(const struct search_index *x, const struct query *q,
    const struct scratch *sc, uint32_t d, struct feat *f)
{
	const struct search_params *p = &x->p;
	int	 nn;

	f->lexical = q->idf_sum > 0 ? sc->lex[d] / q->idf_sum : 0;
	f->coverage = q->idf_sum > 0 ? sc->cov[d] / q->idf_sum : 0;
	f->cosine = sc->cos[d];
	nn = __builtin_popcountll(sc->nmask[d]);
	f->name = x->docs[d].nname ? (double)nn / x->docs[d].nname : 0;
	if (f->name > 1)
		f->name = 1;
	f->exact = q->compact != 0 && q->compact == x->docs[d].namehash;
	f->gram = q->gidf_sum > 0 ? sc->gram[d] / q->gidf_sum : 0;
	f->pfx = q->pidf_sum > 0 ? sc->pfx[d] / q->pidf_sum : 0;
	f->raw = p->w_lex * f->lexical + p->w_cov * f->coverage +
	    p->w_cos * f->cosine + p->w_name * f->name +
	    p->w_exact * f->exact + p->w_gram * f->gram + p->w_pfx * f->pfx;
}

static double
sigmoid(double z)
{
	return 1.0 / (1.0 + exp(-z));
}

static double
calibrate(const struct search_index *x, double raw, double margin)
{
	return sigmoid(x->p.c0 + x->p.c1 * raw + x->p.c2 * margin);
}

static int
eligible(const struct search_index *x, const struct search_opts *o,
    const struct query *q, const struct scratch *sc, uint32_t d)
{
	const struct skill	*s;
	size_t			 i;

	if (x->docs[d].shadowed)
		return 0;
	if ((sc->mask[d] & q->required) != q->required)
		return 0;
	if (o->kind < 0 && (o->tags == NULL || o->tags->n == 0))
		return 1;	/* no filter: the entry need not be read */
	s = search_doc_skill(x, d);
	if (o->kind >= 0 && (int)s->kind != o->kind)
		return 0;
	if (o->tags != NULL && o->tags->n > 0) {
		for (i = 0; i < o->tags->n; i++)
			if (strlist_contains(&s->tags, o->tags->v[i], 1))
				break;
		if (i == o->tags->n)
			return 0;
	}
	return 1;
}

struct cand {
	uint32_t	 doc;
	double		 score;		/* calibrated, boosted, no margin */
	double		 raw;
	const char	*path;		/* ties: by path, whatever the numbering */
};

/* The tie-break path of c, read from its entry when not yet known. */
static const char *
cand_path(const struct search_index *x, const struct cand *c)
{
	const char	*p;

	if (c->path != NULL)
		return c->path;
	p = search_doc_skill(x, c->doc)->path;
	return p != NULL ? p : "";
}

/* Min-heap on score of size k (ties: the later path is smaller). */
static int
cand_less(const struct search_index *x, const struct cand *a,
    const struct cand *b)
{
	if (a->score != b->score)
		return a->score < b->score;
	return strcmp(cand_path(x, a), cand_path(x, b)) > 0;
}

/*
 * Pushes c into the heap h of k; a candidate's path (its entry) is read
 * only when it is kept or ties, so a search decodes few entries.
 */
static void
heap_push(const struct search_index *x, struct cand *h, size_t *n, size_t k,
    struct cand c)
{
	size_t	 i, p, l, r, m;

	if (*n < k) {
		c.path = cand_path(x, &c);
		i = (*n)++;
		h[i] = c;
		while (i > 0 && cand_less(x, &h[i], &h[p = (i - 1) / 2])) {
			struct cand t = h[i]; h[i] = h[p]; h[p] = t;
			i = p;
		}
		return;
	}
	if (!cand_less(x, &h[0], &c))
		return;
	c.path = cand_path(x, &c);
	h[0] = c;
	for (i = 0;; i = m) {
		l = 2 * i + 1;
		r = l + 1;
		m = i;
		if (l < *n && cand_less(x, &h[l], &h[m]))
			m = l;
		if (r < *n && cand_less(x, &h[r], &h[m]))
			m = r;
		if (m == i)
			break;
		struct cand t = h[i]; h[i] = h[m]; h[m] = t;
	}
}

static int
cand_cmp_desc(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;

	/* every path is known in the heap */
	if (cand_less(NULL, x, y))
		return 1;
	if (cand_less(NULL, y, x))
		return -1;
	return 0;
}

/* How many of the query's terms some entry contains. */
static size_t
query_known(const struct query *q)
{
	size_t	 i, n = 0;
	int	 p;

	for (i = 0; i < q->terms.n; i++)
		for (p = 0; p < PARTS; p++)
			if (q->tid[i][p] >= 0) {
				n++;
				break;
			}
	return n;
}

static cJSON *
explain_json(const struct search_index *x, const struct query *q,
    const struct scratch *sc, uint32_t d, const struct feat *f,
    double margin, double boost, double score)
{
	cJSON	*o, *terms;
	size_t	 i;

	o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "bm25", sc->lex[d]);
	cJSON_AddNumberToObject(o, "lexical", f->lexical);
	cJSON_AddNumberToObject(o, "coverage", f->coverage);
	cJSON_AddNumberToObject(o, "cosine", f->cosine);
	cJSON_AddNumberToObject(o, "name", f->name);
	cJSON_AddNumberToObject(o, "exact", f->exact);
	cJSON_AddNumberToObject(o, "ngram", f->gram);
	cJSON_AddNumberToObject(o, "prefix", f->pfx);
	cJSON_AddNumberToObject(o, "raw", f->raw);
	cJSON_AddNumberToObject(o, "margin", margin);
	cJSON_AddNumberToObject(o, "project_boost", boost);
	cJSON_AddNumberToObject(o, "score", score);
	cJSON_AddStringToObject(o, "embedder", x->emb->name);
	cJSON_AddNumberToObject(o, "query_terms", (double)q->terms.n);
	cJSON_AddNumberToObject(o, "known_terms", (double)query_known(q));
	terms = cJSON_AddArrayToObject(o, "matched_terms");
	for (i = 0; i < q->terms.n; i++)
		if (sc->mask[d] & (1ULL << i))
			cJSON_AddItemToArray(terms,
			    cJSON_CreateString(q->terms.v[i]));
	return o;
}

/*
 * Adds w times the saturated weight of each live posting of po (n, of
 * the part at off) to acc; an index of its own (not derived) has no dead
 * docs and precomputed weights, so it skips both checks.
 */
static void
add_postings(const struct search_index *x, int which, const struct bm25 *b,
    const struct bm25_posting *po, size_t n, uint32_t off, double w,
    float *acc, struct scratch *sc)
{
	uint32_t	 d;
	size_t		 j;

	if (!x->derived) {
		for (j = 0; j < n; j++) {
			touch(sc, d = po[j].doc);
			acc[d] += (float)(w * po[j].sat);
		}
		return;
	}
	for (j = 0; j < n; j++)
		if (!x->docs[d = off + po[j].doc].dead) {
			touch(sc, d);
			acc[d] += (float)(w * search_post_sat(x, which, b, &po[j]));
		}
}

static void
lexical_pass(const struct search_index *x, const struct query *q,
    struct scratch *sc)
{
	const struct bm25_posting	*po;
	const struct bm25		*b;
	size_t				 i, j, n;
	uint32_t			 off, d;
	int				 p;

	for (i = 0; i < q->terms.n; i++) {
		for (p = 0; p < PARTS; p++) {
			if (q->tid[i][p] < 0 || (b = search_part_bm(x, p, 0)) == NULL)
				continue;
			po = bm25_postings(b, q->tid[i][p], &n);
			off = search_part_off(x, p);
			for (j = 0; j < n; j++) {
				if (x->docs[d = off + po[j].doc].dead)
					continue;
				touch(sc, d);
				sc->lex[d] += (float)(q->idf[i] *
				    search_post_sat(x, 0, b, &po[j]));
				sc->cov[d] += (float)q->idf[i];
				sc->mask[d] |= 1ULL << i;
				if (po[j].fields & (1u << F_NAME))
					sc->nmask[d] |= 1ULL << i;
			}
		}
	}
	for (i = 0; i < q->ngrams; i++) {
		for (p = 0; p < PARTS; p++) {
			if (q->gid[i][p] < 0 || (b = search_part_bm(x, p, 1)) == NULL)
				continue;
			po = bm25_postings(b, q->gid[i][p], &n);
			add_postings(x, 1, b, po, n, search_part_off(x, p),
			    q->gidf[i], sc->gram, sc);
		}
	}
	for (i = 0; x->pfx != NULL && i < q->pterms.n; i++) {
		for (p = 0; p < PARTS; p++) {
			if (q->pid[i][p] < 0 || (b = search_part_bm(x, p, 2)) == NULL)
				continue;
			po = bm25_postings(b, q->pid[i][p], &n);
			add_postings(x, 2, b, po, n, search_part_off(x, p),
			    q->pidf[i], sc->pfx, sc);
		}
	}
}

/* Lexical or n-gram evidence (the cosine is not known yet). */
static int
lexical_evidence(const struct query *q, const struct scratch *sc, uint32_t d)
{
	return sc->mask[d] != 0 ||
	    (q->gidf_sum > 0 && sc->gram[d] >= MIN_GRAM * q->gidf_sum);
}

/*
 * The cosine of d, computed on first use: of the query vector (centred
 * and normalised in vector_pass()) and d's raw vector centred on the mean
 * of the live docs, so that adding or removing docs needs no pass over
 * the others.
 */
static float
cosine_of(const struct search_index *x, struct scratch *sc, uint32_t d)
{
	const float	*v;
	double		 a = 0, b = 0;
	float		 c, w;
	int		 i;

	if (!sc->hascos[d]) {
		touch(sc, d);
		v = d < sc->nbase ? sc->vec + (size_t)d * sc->dim :
		    sc->ovec + (size_t)(d - sc->nbase) * sc->dim;
		c = x->p.center > 0 ? (float)x->p.center : 0;
		for (i = 0; i < sc->dim; i++) {
			w = v[i] - c * sc->mean[i];
			a += (double)sc->qv[i] * w;
		}
		b = sc->norm != NULL ? sc->norm[d] :
		    search_centred_sq(v, sc->mean, c, sc->dim);
		sc->cos[d] = b > 0 ? (float)(a / sqrt(b)) : 0;
		sc->hascos[d] = 1;
	}
	return sc->cos[d];
}

/*
 * The cosines of the n docs ds that lack one, as cosine_of() computes
 * them (the same operations in the same order for each doc), four docs
 * at a time so that their sums run side by side.
 */
static void
cosines_of(const struct search_index *x, struct scratch *sc,
    const uint32_t *ds, size_t n)
{
	const float	*v[4];
	uint32_t	 d[4];
	double		 a[4], b;
	float		 c, m;
	size_t		 i, j, nb = 0;
	int		 t;

	c = x->p.center > 0 ? (float)x->p.center : 0;
	for (i = 0; i <= n; i++) {
		if (i < n) {
			if (sc->hascos[ds[i]])
				continue;
			d[nb++] = ds[i];
			if (nb < 4)
				continue;
		} else if (nb == 0)
			break;
		if (nb < 4) {		/* the last few */
			for (j = 0; j < nb; j++)
				cosine_of(x, sc, d[j]);
			break;
		}
		for (j = 0; j < 4; j++) {
			v[j] = d[j] < sc->nbase ? sc->vec + (size_t)d[j] * sc->dim :
			    sc->ovec + (size_t)(d[j] - sc->nbase) * sc->dim;
			a[j] = 0;
		}
		for (t = 0; t < sc->dim; t++) {
			m = c * sc->mean[t];
			a[0] += (double)sc->qv[t] * (float)(v[0][t] - m);
			a[1] += (double)sc->qv[t] * (float)(v[1][t] - m);
			a[2] += (double)sc->qv[t] * (float)(v[2][t] - m);
			a[3] += (double)sc->qv[t] * (float)(v[3][t] - m);
		}
		for (j = 0; j < 4; j++) {
			touch(sc, d[j]);
			b = sc->norm != NULL ? sc->norm[d[j]] :
			    search_centred_sq(v[j], sc->mean, c, sc->dim);
			sc->cos[d[j]] = b > 0 ? (float)(a[j] / sqrt(b)) : 0;
			sc->hascos[d[j]] = 1;
		}
		nb = 0;
	}
}

/* Keeps the k largest values seen in a min-heap h of *n <= k floats. */
static void
topk_push(float *h, size_t *n, size_t k, float v)
{
	size_t	 i, p, c;
	float	 t;

	if (*n < k) {
		for (i = (*n)++; i > 0 && h[p = (i - 1) / 2] > v; i = p)
			h[i] = h[p];
		h[i] = v;
		return;
	}
	if (v <= h[0])
		return;
	for (i = 0; (c = 2 * i + 1) < *n; i = c) {
		if (c + 1 < *n && h[c + 1] < h[c])
			c++;
		if (h[c] >= v)
			break;
		t = h[c];
		h[i] = t;
	}
	h[i] = v;
}

/*
 * Switches the scratch to the builtin vector space of a dense index whose
 * query could not be embedded: the entries' builtin vectors (made once,
 * under fb_lock, on first need) and the query's, so the search ranks as
 * a builtin index would.
 */
static int
fallback_space(const struct search_index *cx, const char *text,
    struct scratch *sc, char **cause)
{
	struct search_index	*x = (struct search_index *)cx;	/* fb only */
	struct fallback		*fb;
	char			**texts;
	uint32_t		 d;
	int			 rv = SR_OK, dim = x->fb_dim;

	pthread_mutex_lock(&x->fb_lock);
	if ((fb = x->fb) == NULL) {
		fb = xcalloc(1, sizeof(*fb));
		fb->emb = embed_builtin_new(dim);
		fb->vec = xcalloc((size_t)(x->ndocs ? x->ndocs : 1) * dim,
		    sizeof(float));
		fb->mean = xcalloc((size_t)dim, sizeof(float));
		texts = xreallocarray(NULL, x->ndocs ? x->ndocs : 1,
		    sizeof(*texts));
		for (d = 0; d < x->ndocs; d++)
			/* A dead doc's entry may be gone: no text, no vector. */
			texts[d] = x->docs[d].dead ? xstrdup("") :
			    search_embed_text(search_doc_skill(x, d));
		rv = fb->emb->embed(fb->emb, (const char *const *)texts,
		    x->ndocs, fb->vec, cause);
		for (d = 0; d < x->ndocs; d++)
			free(texts[d]);
		free(texts);
		search_raw_mean(x, fb->vec, fb->mean, dim);
		fb->norm = search_centred_norms(fb->vec, NULL, x->ndocs, x->ndocs,
		    fb->mean, dim, x->p.center);
		fb->norm_center = x->p.center;
		x->fb = fb;
	}
	pthread_mutex_unlock(&x->fb_lock);
	if (rv != SR_OK)
		return rv;
	free(sc->qv);
	sc->qv = xcalloc((size_t)dim, sizeof(*sc->qv));
	if ((rv = fb->emb->embed(fb->emb, &text, 1, sc->qv, cause)) != SR_OK)
		return rv;
	search_center_with(x, fb->mean, dim, sc->qv);
	sc->vec = fb->vec;
	sc->ovec = NULL;
	sc->nbase = x->ndocs;
	sc->mean = fb->mean;
	sc->norm = fb->norm_center == x->p.center ? fb->norm : NULL;
	sc->dim = dim;
	return SR_OK;
}

/*
 * Whether d's score may get the project boost: a project entry, or the
 * shadowed duplicate of one (whose score it may lift). The pruning bounds
 * rank by raw score, which the boost does not follow.
 */
static int
boosted(const struct search_index *x, uint32_t d)
{
	int32_t	 w = x->docs[d].winner;

	return x->docs[d].project || (x->docs[d].shadowed && w >= 0 &&
	    x->docs[w].project);
}

/*
 * The partial score under which an entry cannot reach the top k, given
 * best, the min-heap of the k best eligible partials. The entries at or
 * over its k-th partial (k at least, all eligible ones with evidence among
 * them) get their cosines now; the k-th best of their full raw scores, L,
 * is a floor of the true k-th best, and an entry with partial + w_cos
 * under L cannot reach it whatever its cosine. That bound is w_cos above
 * the first one (the k-th partial minus 2 w_cos) when the k-th entry's
 * cosine is 0, and more when it is positive, so fewer cosines follow. A
 * small slack covers the rounding of the float sums.
 */
static float
tighter_bound(const struct search_index *x, const struct search_opts *o,
    const struct query *q, struct scratch *sc, float *best, size_t k,
    size_t nord, uint32_t *tmp)
{
	float		 wc = (float)x->p.w_cos, pk = best[0], lo;
	size_t		 n = 0, i, nt = 0;
	uint32_t	 d;

	for (i = 0; i < nord; i++) {
		d = sc->ord[i];
		if (!isnan(sc->part[d]) && sc->part[d] >= pk)
			tmp[nt++] = d;
	}
	cosines_of(x, sc, tmp, nt);
	for (i = 0; i < nt; i++)
		if (eligible(x, o, q, sc, d = tmp[i]))
			topk_push(best, &n, k, sc->part[d] + wc * sc->cos[d]);
	if (n < k)		/* cannot happen: the k entries of best */
		return pk - 2 * wc;
	lo = best[0] - wc;
	lo -= 1e-5f * (1 + fabsf(lo));
	return lo < pk - 2 * wc ? pk - 2 * wc : lo;
}

/*
 * Embeds the query, computes every entry's partial raw score (all
 * components but the cosine; NAN without lexical or n-gram evidence) and
 * the cosines that can matter. With the built-in embedder an entry
 * without lexical or n-gram evidence cannot be close, and an entry whose
 * partial is under the k-th best partial minus 2 w_cos cannot reach the
 * top k even with a perfect cosine (|cosine| <= 1); tighter_bound() raises
 * that floor with the cosines of the leaders. Only the rest (and project
 * entries and their shadowed duplicates, which the boost may lift: see
 * boosted()) get a cosine: the ranking is exactly that of the full scan. A dense embedder (dense_only) gets every
 * cosine.
 */
static int
vector_pass(const struct search_index *x, const struct search_opts *o,
    const struct query *q, struct scratch *sc, size_t k, char **cause)
{
	const char	*texts[1];
	struct feat	 f;
	float		*best, thr = -INFINITY;
	size_t		 nbest = 0, nord, i, nt;
	uint32_t	*tmp;
	uint32_t	 d;
	int		 rv, dense = x->dense_only;

	sc->qv = xcalloc((size_t)x->dim, sizeof(*sc->qv));
	sc->vec = x->vec;
	sc->ovec = x->ovec;
	sc->nbase = x->nbase;
	sc->mean = x->mean;
	sc->norm = x->norm_center == x->p.center ? x->norm : NULL;
	sc->dim = x->dim;
	texts[0] = q->text;
	rv = (x->emb->embed_query != NULL ? x->emb->embed_query :
	    x->emb->embed)(x->emb, texts, 1, sc->qv, cause);
	if (rv == SR_IO && x->dense_only) {
		/* fail open: the builtin embedder's space */
		sc->vec_error = *cause;
		*cause = NULL;
		if ((rv = fallback_space(x, q->text, sc, cause)) != SR_OK)
			return rv;
		dense = 0;
	} else if (rv != SR_OK)
		return rv;
	else
		search_center_vec(x, sc->qv);
	best = xreallocarray(NULL, k, sizeof(*best));
	if (dense)		/* every entry gets a score */
		for (d = 0; d < x->ndocs; d++)
			touch(sc, d);
	/* the others have no evidence: part stays NAN */
	nord = sorted_touched(x, sc);
	for (i = 0; i < nord; i++) {
		d = sc->ord[i];
		if (!dense && !lexical_evidence(q, sc, d)) {
			sc->part[d] = NAN;
			continue;
		}
		features(x, q, sc, d, &f);	/* cosine still 0 */
		sc->part[d] = (float)f.raw;
		if (!dense && eligible(x, o, q, sc, d))
			topk_push(best, &nbest, k, (float)f.raw);
	}
	tmp = xreallocarray(NULL, nord ? nord : 1, sizeof(*tmp));
	if (nbest == k && x->p.w_cos > 0 && !x->p.full_scan)
		thr = tighter_bound(x, o, q, sc, best, k, nord, tmp);
	free(best);
	nt = 0;
	for (i = 0; i < nord; i++)
		if (!isnan(sc->part[d = sc->ord[i]]) && (sc->part[d] >= thr ||
		    boosted(x, d) || dense))
			tmp[nt++] = d;
	cosines_of(x, sc, tmp, nt);
	free(tmp);
	return SR_OK;
}

static int
skill_path_cmp(const void *a, const void *b)
{
	const struct skill *x = *(const struct skill *const *)a;
	const struct skill *y = *(const struct skill *const *)b;

	return strcmp(x->path ? x->path : "", y->path ? y->path : "");
}

static void
attach_shadowed(const struct search_index *x, const struct query *q,
    struct scratch *sc, struct search_result *res,
    const struct cand *top, size_t ntop)
{
	struct feat	 f;
	const uint32_t	*sh;
	uint32_t	 d;
	size_t		 i, j, nsh;
	double		 s;

	if (ntop == 0)
		return;
	sh = shadow_list(x, &nsh);
	for (j = 0; j < nsh; j++) {
		d = sh[j];
		for (i = 0; i < ntop; i++)
			if (top[i].doc == (uint32_t)x->docs[d].winner)
				break;
		if (i == ntop)
			continue;
		if ((sc->mask[d] & q->required) != q->required)
			continue;
		cosine_of(x, sc, d);
		features(x, q, sc, d, &f);
		s = calibrate(x, f.raw, 0);
		if (sc->via[top[i].doc] != (int32_t)d && s < x->p.shadow_ratio *
		    calibrate(x, sc->graw[top[i].doc], 0))
			continue;
		res->v[i].shadowed = xreallocarray(res->v[i].shadowed,
		    res->v[i].n_shadowed + 1, sizeof(*res->v[i].shadowed));
		res->v[i].shadowed[res->v[i].n_shadowed++] =
		    search_doc_skill(x, d);
	}
}

static void
scratch_free(const struct search_index *x, struct scratch *sc)
{
	if (sc->dn != NULL) {
		sc->dn->nlist = sc->nlist;
		dense_put(x, sc->dn);
	}
	free(sc->qv);
	free(sc->vec_error);
}

/*
 * The group score of every eligible winner: its own raw score, or that of
 * a shadowed duplicate that matches better (the duplicate is what matched;
 * the winner is what load resolves). An entry is a candidate only with
 * some evidence: a query term, 3 % of the n-gram mass, or a cosine of at
 * least MIN_COSINE. graw[d] is NAN when d fails the filters, -inf when it
 * has no evidence of its own (a duplicate may still lift it if d passes
 * them); via[d] is the doc that gave the score.
 */
static void
group_scores(const struct search_index *x, const struct search_opts *o,
    const struct query *q, struct scratch *sc)
{
	uint32_t	 d;
	int32_t		 w;
	float		 raw;
	float		 wc = (float)x->p.w_cos;
	size_t		 i, nord;

	/* the untouched docs have no evidence: graw -inf, via themselves */
	nord = sorted_touched(x, sc);
	for (i = 0; i < nord; i++) {
		d = sc->ord[i];
		sc->via[d] = (int32_t)d;
		/*
		 * No evidence (most entries): -inf whether it passes the
		 * filters or not, both never ranked; a duplicate's lift below
		 * asks the filters then.
		 */
		if (isnan(sc->part[d])) {
			sc->graw[d] = -INFINITY;
			continue;
		}
		if (!eligible(x, o, q, sc, d)) {
			sc->graw[d] = NAN;
			continue;
		}
		/* -inf: eligible, but only a matching duplicate can lift it */
		if (sc->mask[d] == 0 && sc->cos[d] < MIN_COSINE &&
		    (q->gidf_sum <= 0 || sc->gram[d] < MIN_GRAM * q->gidf_sum))
			sc->graw[d] = -INFINITY;
		else
			sc->graw[d] = sc->part[d] + wc * sc->cos[d];
	}
	for (i = 0; i < nord; i++) {
		d = sc->ord[i];
		if (!x->docs[d].shadowed || (w = x->docs[d].winner) < 0 ||
		    isnan(sc->graw[w]) || isnan(sc->part[d]))
			continue;
		if (isnan(sc->part[w]) && !eligible(x, o, q, sc, (uint32_t)w))
			continue;	/* the winner fails the filters */
		if ((sc->mask[d] & q->required) != q->required)
			continue;
		if (sc->mask[d] == 0 && sc->cos[d] < MIN_COSINE &&
		    (q->gidf_sum <= 0 || sc->gram[d] < MIN_GRAM * q->gidf_sum))
			continue;
		raw = sc->part[d] + wc * sc->cos[d];
		if (raw > sc->graw[w]) {
			touch(sc, (uint32_t)w);
			sc->graw[w] = raw;
			sc->via[w] = (int32_t)d;
		}
	}
}

/*
 * Scores every entry for the query text raw: q and sc are set up (the
 * caller frees them with query_done() and scratch_free(), whatever this
 * returns) and sc->graw holds each entry's group raw score.
 */
static int
text_pass(const struct search_index *x, const struct search_opts *o,
    const char *raw, struct query *q, struct scratch *sc, size_t k,
    char **cause)
{
	int	 rv;

	query_parse(x, raw, q);
	memset(sc, 0, sizeof(*sc));
	if (x->ndocs == 0)
		return SR_OK;
	sc->dn = dense_get(x);
	sc->lex = sc->dn->lex;
	sc->cov = sc->dn->cov;
	sc->mask = sc->dn->mask;
	sc->nmask = sc->dn->nmask;
	sc->cos = sc->dn->cos;
	sc->gram = sc->dn->gram;
	sc->pfx = sc->dn->pfx;
	sc->graw = sc->dn->graw;
	sc->via = sc->dn->via;
	sc->hascos = sc->dn->hascos;
	sc->part = sc->dn->part;
	sc->seen = sc->dn->seen;
	sc->list = sc->dn->list;
	sc->ord = sc->dn->ord;
	lexical_pass(x, q, sc);
	if ((rv = vector_pass(x, o, q, sc, k, cause)) != SR_OK)
		return rv;
	group_scores(x, o, q, sc);
	return SR_OK;
}

/*
 * Whether the collection has every word of a dictionary sense (as the
 * index cuts and stems it): the rendering of a query keeps such senses
 * (xlang_render_for()). A sense of function words alone is not had.
 */
static int
collection_has(void *arg, const char *gloss)
{
	const struct search_index *x = arg;
	struct text_ctx	*tc = text_ctx_new();
	struct strlist	 tok;
	long		 tid[PARTS];
	double		 maxidf = log(1.0 + (x->nlive + 0.5) / 0.5);
	size_t		 i;
	int		 has;

	strlist_init(&tok);
	text_tokenize(tc, gloss, TEXT_INDEX, &tok, 0);
	has = tok.n > 0;
	for (i = 0; i < tok.n && has; i++)
		if (search_term_idf(x, 0, tok.v[i], 0, tid, maxidf) >= maxidf)
			has = 0;
	strlist_done(&tok);
	text_ctx_free(tc);
	return has;
}

/*
 * A query with words in another language that finds nothing as typed
 * (its best score is a miss) is also scored as its English rendering
 * (xlang.h; skills in other languages carry the same English glosses),
 * and each entry keeps the better of its two scores: a skill matches a
 * query by meaning in English or as written. A query that finds a skill
 * as typed (a Chinese query, a Chinese skill) keeps its ranking. Sets
 * *won[d] for the entries whose score came from the rendering (NULL: no
 * rendering).
 */
static int
rendered_pass(const struct search_index *x, const struct search_opts *o,
    struct query *q2, struct scratch *sc2, struct scratch *sc, size_t k,
    uint64_t **won, double *covered, char **cause)
{
	const char	*p;
	char		*r;
	uint32_t	 d;
	size_t		 i, nord;
	int		 rv;
	float		 best = -INFINITY;

	*won = NULL;
	for (i = 0; i < sc->nlist; i++)	/* the others are -inf */
		if (isfinite(sc->graw[d = sc->list[i]]) && sc->graw[d] > best)
			best = sc->graw[d];
	if (calibrate(x, best, 0) >= x->miss_threshold)
		return SR_OK;	/* found as typed: no need to translate */
	for (p = o->query; (p = strchr(p, '+')) != NULL; p++)
		if (p == o->query || strchr(" \t\r\n", p[-1]) != NULL)
			return SR_OK;	/* "+term" queries run as typed */
	if (x->ndocs == 0 || (r = xlang_render_for(xlang_default(),
	    o->query, XLANG_QUERY_GLOSSES, covered, collection_has,
	    (void *)x)) == NULL)
		return SR_OK;
	rv = text_pass(x, o, r, q2, sc2, k, cause);
	free(r);
	if (rv != SR_OK)
		return rv;
	*won = xcalloc(((size_t)x->ndocs + 63) / 64, sizeof(**won));
	nord = sorted_touched(x, sc2);
	for (i = 0; i < nord; i++) {
		d = sc2->ord[i];
		if (isfinite(sc2->graw[d]))
			sc2->graw[d] *= (float)XLANG_QUERY_WEIGHT;
		if (isfinite(sc2->graw[d]) && (!isfinite(sc->graw[d]) ||
		    sc2->graw[d] > sc->graw[d])) {
			touch(sc, d);
			sc->graw[d] = sc2->graw[d];
			sc->via[d] = sc2->via[d];
			(*won)[d >> 6] |= 1ULL << (d & 63);
		}
	}
	return SR_OK;
}

/*
 * The raw score a top-1 match of the English rendering is calibrated on:
 * its XLANG_QUERY_WEIGHT discount taken back in the measure the query
 * was translated (xlang_render_cover()): all of a query translated is as
 * sure as typed, a query one word of which was translated is judged on
 * that word's discounted match.
 */
static double
undiscount(double raw, double covered)
{
	return raw * (1 + (1 / XLANG_QUERY_WEIGHT - 1) * covered);
}

/* Whether d's score came from the rendering (won: a bitmap or NULL). */
#define WON(won, d)	((won) != NULL && ((won)[(d) >> 6] >> ((d) & 63) & 1))

static int
run_text(const struct search_index *x, const struct search_opts *o,
    struct search_result *res, char **cause)
{
	struct query	 q, q2;
	struct scratch	 sc, sc2;
	struct cand	*heap = NULL, c;
	struct feat	 f;
	size_t		 nheap = 0, k, i, nord;
	uint32_t	 d;
	uint64_t	*won = NULL;
	double		 boost, margin, covered = 0;
	int		 rv = SR_OK;

	k = (size_t)o->top_k + 1;	/* one more for the margin */
	memset(&q2, 0, sizeof(q2));
	memset(&sc2, 0, sizeof(sc2));
	if ((rv = text_pass(x, o, o->query, &q, &sc, k, cause)) != SR_OK)
		goto out;
	if (q.terms.n == 0 && q.compact == 0) {
		rv = SR_USAGE;
		*cause = xstrdup("the query has no searchable words");
		goto out;
	}
	if (x->ndocs == 0)
		goto out;
	if ((rv = rendered_pass(x, o, &q2, &sc2, &sc, k, &won, &covered,
	    cause)) != SR_OK)
		goto out;

	heap = xreallocarray(NULL, k, sizeof(*heap));
	nord = sorted_touched(x, &sc);	/* the others are -inf */
	for (i = 0; i < nord; i++) {
		d = sc.ord[i];
		if (!isfinite(sc.graw[d]))
			continue;
		c.doc = d;
		c.path = NULL;
		c.raw = sc.graw[d];
		c.score = calibrate(x, c.raw, 0);
		if (x->docs[d].project)
			c.score += x->project_boost;
		if (c.score > 1)
			c.score = 1;
		heap_push(x, heap, &nheap, k, c);
	}
	qsort(heap, nheap, sizeof(*heap), cand_cmp_desc);
	res->n = nheap < (size_t)o->top_k ? nheap : (size_t)o->top_k;
	res->v = xcalloc(res->n ? res->n : 1, sizeof(*res->v));
	for (i = 0; i < res->n; i++) {
		d = heap[i].doc;
		res->v[i].skill = search_doc_skill(x, d);
		res->v[i].score = heap[i].score;
		margin = 0;
		boost = x->docs[d].project ? x->project_boost : 0;
		if (i == 0) {
			margin = nheap > 1 ? heap[0].raw - heap[1].raw :
			    heap[0].raw;
			if (margin < 0)
				margin = 0;
			res->v[0].score = calibrate(x, WON(won, d) ?
			    undiscount(heap[0].raw, covered) : heap[0].raw,
			    margin) + boost;
			if (res->v[0].score > 1)
				res->v[0].score = 1;
			heap[0].score = res->v[0].score;
		}
		if (o->explain) {
			uint32_t v = (uint32_t)sc.via[d];
			int r2 = WON(won, d);

			features(x, r2 ? &q2 : &q, r2 ? &sc2 : &sc, v, &f);
			res->v[i].explain = explain_json(x, r2 ? &q2 : &q,
			    r2 ? &sc2 : &sc, v, &f, margin, boost,
			    res->v[i].score);
			/* what ranking and calibrate() saw (raw: before the
			 * rendering's XLANG_QUERY_WEIGHT) */
			cJSON_AddNumberToObject(res->v[i].explain, "fused",
			    heap[i].raw);
			if (r2) {
				cJSON_AddStringToObject(res->v[i].explain,
				    "translated", q2.text);
				cJSON_AddNumberToObject(res->v[i].explain,
				    "covered", covered);
			}
			if (v != d)
				cJSON_AddStringToObject(res->v[i].explain,
				    "matched_via",
				    search_doc_skill(x, v)->path);
		}
	}
	attach_shadowed(x, &q, &sc, res, heap, res->n);
	for (i = 0; i < res->n; i++)
		if (res->v[i].n_shadowed > 1)
			qsort(res->v[i].shadowed, res->v[i].n_shadowed,
			    sizeof(*res->v[i].shadowed), skill_path_cmp);
out:
	res->embed_error = sc.vec_error;
	sc.vec_error = NULL;
	free(won);
	free(heap);
	scratch_free(x, &sc);
	scratch_free(x, &sc2);
	query_done(&q);
	if (q2.text != NULL)
		query_done(&q2);
	return rv;
}

int
search_run(const struct search_index *x, const struct search_opts *o,
    struct search_result *res, char **cause)
{
	const char	*qs, *sel;
	int		 rv;

	memset(res, 0, sizeof(*res));
	*cause = NULL;
	if (o->top_k < 1 || o->top_k > SEARCH_TOP_K_MAX) {
		xasprintf(cause, "top_k must be between 1 and %d, not %d",
		    SEARCH_TOP_K_MAX, o->top_k);
		return SR_USAGE;
	}
	if (o->kind < -1 || o->kind > KIND_COMMAND) {
		xasprintf(cause, "unknown kind %d", o->kind);
		return SR_USAGE;
	}
	qs = o->query != NULL ? o->query : "";
	while (*qs == ' ' || *qs == '\t' || *qs == '\n' || *qs == '\r')
		qs++;
	if (*qs == '\0') {
		*cause = xstrdup("empty query");
		return SR_USAGE;
	}
	res->total = x->total;
	if ((sel = search_select_list(qs)) != NULL)
		rv = search_select(x, o, sel, res);
	else {
		struct search_opts oo = *o;

		oo.query = qs;
		rv = run_text(x, &oo, res, cause);
	}
	if (rv != SR_OK) {
		search_result_done(res);
		res->total = x->total;
		return rv;
	}
	res->miss = res->n == 0 || res->v[0].score < x->miss_threshold;
	return SR_OK;
}
