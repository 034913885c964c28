/*
 * Hybrid retrieval: BM25F + character n-grams + embedder vectors, fused
 * into one calibrated score.
 *
 * HOW THE SCORE IS BUILT
 *
 * Indexed text per entry (never the body): the name split into parts
 * ("pdf-form-filler", "pdfFormFiller" -> pdf form filler), when_to_use,
 * description and tags. Text is normalised (NFKC, case folded, marks
 * stripped: "Zażółć" = "zazolc", "Größe" = "grosse"), cut into words
 * (overlapping character bigrams for Han and Kana), stop-words of
 * en/de/es/pl/fr/pt/it dropped, English words Snowball-stemmed.
 *
 * For a query (at most SEARCH_QUERY_BYTES, SEARCH_QUERY_TERMS distinct
 * terms) and an entry d, these components are computed:
 *
 *   lexical   BM25F(d) / sum_t idf(t). BM25F sums per field
 *             w_f * tf / (1 - b_f + b_f * len_f / avglen_f), field weights
 *             name 3, when_to_use 1.5, description 1, tags 1; saturation
 *             k1 = 1.2. Dividing by the idf mass of the query (terms found
 *             nowhere count with the largest idf) puts it in [0, 1) and
 *             makes it comparable across queries.
 *   coverage  idf mass of the query terms d contains / sum_t idf(t).
 *   ngram     the same as lexical over character 4-grams of the unstemmed
 *             words ("^word$"), one field, k1 1.2, b 0.75: catches typos,
 *             inflection and cognates across languages.
 *   prefix    the same over the first 5 characters of each unstemmed word
 *             (a truncation stemmer: "reduce" = "reduction", Polish and
 *             German inflections).
 *   cosine    cosine of the query's and d's embedder vectors (built-in:
 *             hashed character 3-5-grams and words, embedder.dim), both first
 *             centred on the mean entry vector.
 *   exact     1 when the query, without separators, equals the name.
 *   name      share of d's name parts found in the query (shown by
 *             explain; weight 0: the name field of BM25F carries it).
 *
 *   raw    = 1.0 lexical + 0.5 coverage + 2.0 ngram + 1.0 prefix
 *            + 0.25 cosine + 0.5 exact
 *   score  = sigmoid(c0 + c1 raw),  c0 = -2.419, c1 = 2.490
 *   top-1  = sigmoid(c0 + c1 raw' + c2 margin),  c2 = 2.778, where margin =
 *            raw(top-1) - raw(runner-up): a clear winner is surer than
 *            one of several near-ties; raw' is raw, or for a match of the
 *            query's English rendering raw with its XLANG_QUERY_WEIGHT
 *            discount taken back in the measure the query was translated
 *            (undiscount(), xlang_render_cover()): the discount makes a
 *            match as typed rank first, it is no evidence that a whole
 *            translation's match is wrong, but a query one word of which
 *            was translated is that word's guess (left-out log-loss 0.212
 *            on dev2, 0.214 with the discount taken back whole). Scores
 *            stay non-increasing by rank.
 *   Entries of the current project add retrieval.project_boost (capped
 *   at 1) before ranking.
 *
 * c0..c2 are a logistic regression of "the top-1 is right", so the score
 * reads as a probability: under retrieval.miss_threshold (0.4) the top
 * result is probably not what was asked for; at 0.6 and above it probably
 * is. "select:a,b" scores 1. Every component is a share of the query's
 * own idf mass (or a cosine), so raw means the same on any collection:
 * halving or doubling a corpus moves the raw score of the same right
 * answer by 0.01 to 0.08 on average (of about 2). tests/eval/fit-calibration fits
 * c0..c2 on ../shared/corpus, on two random halves of it (other sizes,
 * and queries whose answer fell out become near-miss negatives, weighted
 * back to the real share of negatives), and checks them on
 * ../shared/corpus-dev2 and its halves, left out; skills-radar(1) SEARCH
 * has the figures. A margin ratio, the share of known query terms, a
 * flag for a translated match and the per-component scores were tried as
 * features and did not improve the left-out figures on both sides.
 *
 * Candidates: an entry needs some evidence (a query term, 3 % of the
 * n-gram mass, or cosine >= 0.2); "+term" entries must contain the term;
 * the kind and tags filters apply before truncation to top_k. Entries
 * with disable-model-invocation are never indexed. A shadowed duplicate
 * (shadowed_by set) is never a result of its own: it lends its raw score
 * to its winner when it matches better, and is listed in the winner's
 * "shadowed" when it is the one that matched or scores at least 0.9 of
 * the winner (both without the margin bonus).
 */
#include "autoconfig.h"

#include <sys/mman.h>

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


/* The bm25 index of part p (0: own or base, 1: overlay), or NULL. */
const struct bm25 *
search_part_bm(const struct search_index *x, int p, int which)
{
	const struct search_index *y = p == 0 ? (x->base ? x->base : x) :
	    x->over;

	if (y == NULL)
		return NULL;
	return which == 0 ? y->bm : which == 1 ? y->gram : y->pfx;
}

uint32_t
search_part_off(const struct search_index *x, int p)
{
	return p == 0 ? 0 : x->nbase;
}

/*
 * The saturated weight of a posting: precomputed when the statistics are
 * the index's own, else the same arithmetic with the current averages.
 */
float
search_post_sat(const struct search_index *x, int which, const struct bm25 *b,
    const struct bm25_posting *po)
{
	if (!x->derived)
		return po->sat;
	if (which == 0)
		return bm25_sat_avg(b, po, x->avg_bm);
	return bm25_sat_avg(b, po, which == 1 ? &x->avg_gram : &x->avg_pfx);
}

/*
 * Looks a term up in every part (tid[p], -1: absent) and returns its idf
 * over the live docs, or maxidf when no live doc has it.
 */
double
search_term_idf(const struct search_index *x, int which, const char *tok,
    uint64_t h, long *tid, double maxidf)
{
	const struct bm25		*b;
	const struct bm25_posting	*po;
	uint32_t			 df = 0, off;
	size_t				 n, j;
	int				 p;

	for (p = 0; p < PARTS; p++) {
		tid[p] = -1;
		if ((b = search_part_bm(x, p, which)) == NULL)
			continue;
		tid[p] = tok != NULL ? bm25_term(b, tok) :
		    bm25_term_hashed(b, h);
		if (!x->derived || tid[p] < 0)
			continue;
		po = bm25_postings(b, tid[p], &n);
		off = search_part_off(x, p);
		for (j = 0; j < n; j++)
			if (!x->docs[off + po[j].doc].dead)
				df++;
	}
	if (!x->derived)
		return tid[0] >= 0 ? bm25_idf(search_part_bm(x, 0, which), tid[0]) :
		    maxidf;
	return df > 0 ? bm25_idf_n(x->nlive, df) : maxidf;
}

void
search_params_default(struct search_params *p)
{
	memset(p, 0, sizeof(*p));
	p->k1 = 1.2;
	p->w_field[F_NAME] = 3.0;
	p->w_field[F_WHEN] = 1.5;
	p->w_field[F_DESC] = 1.0;
	p->w_field[F_TAGS] = 1.0;
	p->b_field[F_NAME] = 0.5;
	p->b_field[F_WHEN] = 0.75;
	p->b_field[F_DESC] = 0.75;
	p->b_field[F_TAGS] = 0.5;
	p->w_lex = 1.0;
	p->w_cov = 0.5;
	p->w_cos = 0.25;
	p->w_name = 0.0;
	p->w_exact = 0.5;
	p->w_gram = 2.0;
	p->gram_k1 = 1.2;
	p->gram_b = 0.75;
	p->w_pfx = 1.0;
	/* tests/eval/fit-calibration; see "c0..c2" at the top */
	p->c0 = -2.419;
	p->c1 = 2.490;
	p->c2 = 2.778;
	p->center = 1.0;
	p->shadow_ratio = 0.9;
}

static uint64_t
hash_bytes(const char *s, size_t n)
{
	uint64_t	 h = 0xcbf29ce484222325ULL;
	size_t		 i;

	for (i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

/* Hash of the normalised text with everything but letters/digits dropped. */
uint64_t
search_compact_hash(const char *raw)
{
	struct strlist	 t;
	struct buf	 b;
	uint64_t	 h;
	size_t		 i;

	strlist_init(&t);
	text_tokenize(NULL, raw, 0, &t, 256);
	buf_init(&b, 0);
	for (i = 0; i < t.n; i++)
		buf_addstr(&b, t.v[i]);
	h = b.len ? hash_bytes(b.p, b.len) : 0;
	buf_done(&b);
	strlist_done(&t);
	return h;
}

static void
name_tokens(struct text_ctx *c, const char *name, struct strlist *out)
{
	struct strlist	 parts;
	size_t		 i;

	strlist_init(&parts);
	text_split_name(name, &parts);
	for (i = 0; i < parts.n; i++)
		text_tokenize(c, parts.v[i], TEXT_INDEX, out, 0);
	if (out->n == 0)	/* a name made only of stop-words */
		for (i = 0; i < parts.n; i++)
			text_tokenize(c, parts.v[i], TEXT_STEM, out, 0);
	strlist_done(&parts);
}

/*
 * The name field of an entry: its id's tokens, plus those of the name as
 * written (name-normalised) that the id lacks ("PocketBase" adds pocket
 * and base; a CJK name indexed under its directory adds its bigrams).
 */
static void
skill_name_tokens(struct text_ctx *c, const struct skill *s,
    struct strlist *out)
{
	struct strlist	 more;
	size_t		 i;

	name_tokens(c, s->name != NULL ? s->name : "", out);
	if (s->display == NULL)
		return;
	strlist_init(&more);
	name_tokens(c, s->display, &more);
	for (i = 0; i < more.n; i++)
		strlist_add_unique(out, more.v[i], 0);
	strlist_done(&more);
}

static size_t
count_distinct(const struct strlist *l)
{
	size_t	 i, j, n = 0;

	for (i = 0; i < l->n; i++) {
		for (j = 0; j < i; j++)
			if (strcmp(l->v[i], l->v[j]) == 0)
				break;
		if (j == i)
			n++;
	}
	return n;
}

char *
search_embed_text(const struct skill *s)
{
	struct strlist	 parts;
	struct buf	 b;
	size_t		 i;

	buf_init(&b, 0);
	strlist_init(&parts);
	text_split_name(skill_display(s), &parts);
	for (i = 0; i < parts.n; i++) {
		buf_addstr(&b, parts.v[i]);
		buf_addc(&b, ' ');
	}
	strlist_done(&parts);
	buf_printf(&b, "\n%s\n%s\n", s->description ? s->description : "",
	    s->when_to_use ? s->when_to_use : "");
	for (i = 0; i < s->tags.n; i++) {
		buf_addstr(&b, s->tags.v[i]);
		buf_addc(&b, ' ');
	}
	return buf_take(&b);
}

/* The hash that keys a character n-gram in the n-gram index. */
uint64_t
search_gram_hash(const char *t, size_t len)
{
	uint64_t	 h = 0xcbf29ce484222325ULL;
	size_t		 i;

	for (i = 0; i < len; i++) {
		h ^= (unsigned char)t[i];
		h *= 0x100000001b3ULL;
	}
	h ^= h >> 31;
	h *= 0x94d049bb133111ebULL;
	h ^= h >> 29;
	return h;
}

struct field_sink {
	struct bm25	*bm;
	uint32_t	 doc;
	int		 field;
};

static void
field_token(void *arg, const char *t, size_t len)
{
	struct field_sink *fs = arg;

	bm25_add_token(fs->bm, fs->doc, fs->field, t, len);
}

static void
gram_token(void *arg, const char *t, size_t len)
{
	struct field_sink *fs = arg;

	bm25_add_hashed(fs->bm, fs->doc, fs->field, search_gram_hash(t, len));
}

static void
word_grams(void *arg, const char *t, size_t len)
{
	text_word_ngrams(t, len, GRAM_N, gram_token, arg);
}

static void
add_grams(struct bm25 *g, uint32_t d, const char *text)
{
	struct field_sink	 fs = { g, d, 0 };

	bm25_add_token(g, d, 0, NULL, 0);
	text_tokenize_cb(NULL, text, TEXT_STOP, word_grams, &fs, 0);
}

static void
pfx_token(void *arg, const char *t, size_t len)
{
	struct field_sink *fs = arg;

	if (len > PFX_LEN)
		len = text_utf8_cut(t, PFX_LEN);
	bm25_add_token(fs->bm, fs->doc, fs->field, t, len);
}

static void
add_pfx(struct bm25 *g, uint32_t d, const char *text)
{
	struct field_sink	 fs = { g, d, 0 };

	bm25_add_token(g, d, 0, NULL, 0);
	text_tokenize_cb(NULL, text, TEXT_STOP, pfx_token, &fs, 0);
}

static void
add_field(struct bm25 *bm, struct text_ctx *tc, uint32_t d, int field,
    const char *text)
{
	struct field_sink	 fs = { bm, d, field };

	bm25_add_token(bm, d, field, NULL, 0);
	text_tokenize_cb(tc, text, TEXT_INDEX, field_token, &fs, 0);
}

/*
 * English glosses of a skill written in another language (xlang.h), as
 * more description text: an English query then finds it by meaning. An
 * English skill gets none.
 */
static void
add_glosses(struct bm25 *bm, struct text_ctx *tc, uint32_t d,
    const struct skill *s)
{
	struct strlist	 g;
	char		*t, *j;

	xasprintf(&t, "%s\n%s\n%s", s->name ? s->name : "",
	    s->description ? s->description : "",
	    s->when_to_use ? s->when_to_use : "");
	strlist_init(&g);
	if (xlang_gloss(xlang_default(), t, &g, XLANG_DOC_GLOSSES) > 0) {
		j = strlist_join(&g, " ");
		add_field(bm, tc, d, F_DESC, j);
		free(j);
	}
	strlist_done(&g);
	free(t);
}

/* Subtracts center * mean (of dim floats) and renormalises. */
void
search_center_with(const struct search_index *x, const float *mean, int dim,
    float *v)
{
	int	 i;

	if (x->p.center <= 0)
		return;
	for (i = 0; i < dim; i++)
		v[i] -= (float)x->p.center * mean[i];
	embedder_normalize(v, dim);
}

void
search_center_vec(const struct search_index *x, float *v)
{
	search_center_with(x, x->mean, x->dim, v);
}

/*
 * The mean of n vectors whose sum is sum (dim values), scaled down for
 * small sets (no reliable background: centre less), into mean.
 */
static void
damped_mean(const double *sum, uint32_t n, int dim, float *mean)
{
	int	 j;

	for (j = 0; j < dim; j++)
		mean[j] = n == 0 ? 0 : (float)(sum[j] / n *
		    ((double)n / (n + 20.0)));
}

void
search_set_mean(struct search_index *x)
{
	damped_mean(x->vsum, x->nlive, x->dim, x->own_mean);
}

/*
 * The squared length of raw vector v centred on c * mean: the same
 * arithmetic, in the same order, as the per-query sum in cosine_of(), so
 * a norm read from the table is the one the query would compute.
 */
double
search_centred_sq(const float *v, const float *mean, float c, int dim)
{
	double	 b = 0;
	float	 w;
	int	 i;

	for (i = 0; i < dim; i++) {
		w = v[i] - c * mean[i];
		b += (double)w * w;
	}
	return b;
}

/* n squared norms of the vectors vec (docs below nbase) and ovec. */
double *
search_centred_norms(const float *vec, const float *ovec, uint32_t nbase,
    uint32_t n, const float *mean, int dim, double center)
{
	double		*nv;
	const float	*v;
	uint32_t	 d;
	float		 c = center > 0 ? (float)center : 0;

	nv = xreallocarray(NULL, n ? n : 1, sizeof(*nv));
	for (d = 0; d < n; d++) {
		v = d < nbase ? vec + (size_t)d * dim :
		    ovec + (size_t)(d - nbase) * dim;
		nv[d] = search_centred_sq(v, mean, c, dim);
	}
	return nv;
}

void
search_set_norms(struct search_index *x)
{
	free(x->own_norm);
	x->norm = x->own_norm = search_centred_norms(x->vec, x->ovec, x->nbase,
	    x->ndocs, x->mean, x->dim, x->p.center);
	x->norm_center = x->p.center;
}

/*
 * Sets mean (dim floats) to the damped mean of the live docs' raw vectors
 * vec (ndocs * dim), as search_set_mean() does; the vectors stay raw
 * (cosine_of() centres them).
 */
void
search_raw_mean(const struct search_index *x, const float *vec, float *mean, int dim)
{
	double		*sum;
	uint32_t	 d;
	int		 j;

	sum = xcalloc((size_t)dim, sizeof(*sum));
	for (d = 0; d < x->ndocs; d++)
		if (!x->docs[d].dead)
			for (j = 0; j < dim; j++)
				sum[j] += vec[(size_t)d * dim + j];
	damped_mean(sum, x->nlive, dim, mean);
	free(sum);
}

int
search_open_embedder(struct search_index *x, const struct config *cfg,
    char **cause)
{
	int	 rv;

	pthread_mutex_init(&x->fb_lock, NULL);
	x->fb_dim = cfg != NULL && cfg->embed_dim != 0 ? cfg->embed_dim :
	    EMBED_DIM_DEFAULT;
	if ((rv = embed_new(cfg, &x->emb, cause)) == SR_IO) {
		free(x->emb_note);
		x->emb_note = *cause;
		*cause = NULL;
		x->emb = embed_builtin_new(x->fb_dim);
		rv = SR_OK;
	}
	if (rv != SR_OK)
		return rv;
	x->dim = x->emb->dim;
	x->dense_only = strcmp(x->emb->name, "builtin") != 0;
	return SR_OK;
}

/* Embeds the entries, falling back to the builtin embedder on failure. */
static int
embed_docs(struct search_index *x, const char *const *texts, char **cause)
{
	int	 rv;

	x->vec = x->own_vec = xcalloc((size_t)(x->ndocs ? x->ndocs : 1) *
	    x->dim, sizeof(float));
	rv = x->emb->embed(x->emb, texts, x->ndocs, x->own_vec, cause);
	if (rv != SR_IO || !x->dense_only)
		return rv;
	free(x->emb_note);
	x->emb_note = *cause;
	*cause = NULL;
	embed_free(x->emb);
	x->emb = embed_builtin_new(x->fb_dim);
	x->dim = x->emb->dim;
	x->dense_only = 0;
	free(x->own_vec);
	x->vec = x->own_vec = xcalloc((size_t)(x->ndocs ? x->ndocs : 1) *
	    x->dim, sizeof(float));
	return x->emb->embed(x->emb, texts, x->ndocs, x->own_vec, cause);
}

const char *
search_index_embedder(const struct search_index *x, const char **note)
{
	if (note != NULL)
		*note = x->emb_note;
	return x->emb->name;
}

int
search_index_build_params(const struct skill_set *set,
    const struct config *cfg, const struct search_params *params,
    struct search_index **out, char **cause)
{
	struct search_index	*x;
	struct text_ctx		*tc;
	struct strlist		 tok;
	char			**texts = NULL;
	size_t			 i, j;
	uint32_t		 d;
	int			 rv;

	*out = NULL;
	*cause = NULL;
	x = xcalloc(1, sizeof(*x));
	x->set = set;
	if (params != NULL)
		x->p = *params;
	else
		search_params_default(&x->p);
	x->miss_threshold = cfg != NULL ? cfg->miss_threshold : 0.4;
	x->project_boost = cfg != NULL ? cfg->project_boost : 0.0;
	if ((rv = search_open_embedder(x, cfg, cause)) != SR_OK) {
		free(x->emb_note);
		free(x);
		return rv;
	}
	x->bm = bm25_new(F_N, x->p.w_field, x->p.b_field, x->p.k1);
	{
		double gw = 1.0, gb = x->p.gram_b;

		x->gram = bm25_new(1, &gw, &gb, x->p.gram_k1);
		if (x->p.w_pfx > 0)
			x->pfx = bm25_new(1, &gw, &gb, x->p.gram_k1);
	}
	x->docs = x->own_docs = xreallocarray(NULL, set->n ? set->n : 1,
	    sizeof(*x->own_docs));
	x->dsk = xreallocarray(NULL, set->n ? set->n : 1, sizeof(*x->dsk));
	texts = xreallocarray(NULL, set->n ? set->n : 1, sizeof(*texts));
	tc = text_ctx_new();
	strlist_init(&tok);
	for (i = 0; i < set->n; i++) {
		const struct skill *s = set->v[i];

		if (s->disable_model_invocation)
			continue;
		d = x->ndocs++;
		memset(&x->own_docs[d], 0, sizeof(x->own_docs[d]));
		x->own_docs[d].skill = (uint32_t)i;
		x->dsk[d] = s;
		x->own_docs[d].shadowed = s->shadowed_by != NULL;
		x->own_docs[d].project = s->is_project != 0;
		if (!x->own_docs[d].shadowed)
			x->total++;
		x->own_docs[d].namehash = search_compact_hash(s->name ? s->name : "");

		skill_name_tokens(tc, s, &tok);
		x->own_docs[d].nname = (uint16_t)count_distinct(&tok);
		bm25_add(x->bm, d, F_NAME, &tok);
		strlist_done(&tok);
		add_field(x->bm, tc, d, F_WHEN,
		    s->when_to_use ? s->when_to_use : "");
		add_field(x->bm, tc, d, F_DESC,
		    s->description ? s->description : "");
		add_glosses(x->bm, tc, d, s);
		bm25_add_token(x->bm, d, F_TAGS, NULL, 0);
		for (j = 0; j < s->tags.n; j++)
			add_field(x->bm, tc, d, F_TAGS, s->tags.v[j]);
		texts[d] = search_embed_text(s);
		add_grams(x->gram, d, texts[d]);
		if (x->pfx != NULL)
			add_pfx(x->pfx, d, texts[d]);
	}
	text_ctx_free(tc);
	bm25_finish(x->bm, x->ndocs);
	bm25_finish(x->gram, x->ndocs);
	if (x->pfx != NULL)
		bm25_finish(x->pfx, x->ndocs);
	search_link_winners(x);

	rv = embed_docs(x, (const char *const *)texts, cause);
	x->mean = x->own_mean = xcalloc((size_t)x->dim, sizeof(float));
	for (d = 0; d < x->ndocs; d++)
		free(texts[d]);
	free(texts);
	if (rv != SR_OK) {
		search_index_free(x);
		return rv;
	}
	x->nbase = x->nlive = x->ndocs;
	search_base_keys(x);	/* for later updates, while the entries live */
	x->vsum = xcalloc((size_t)x->dim, sizeof(*x->vsum));
	for (d = 0; d < x->ndocs; d++)
		for (j = 0; j < (size_t)x->dim; j++)
			x->vsum[j] += x->vec[(size_t)d * x->dim + j];
	search_set_mean(x);
	search_set_norms(x);
	*out = x;
	return SR_OK;
}

int
search_index_build(const struct skill_set *set, const struct config *cfg,
    struct search_index **out, char **cause)
{
	return search_index_build_params(set, cfg, NULL, out, cause);
}

void
search_index_free(struct search_index *x)
{
	if (x == NULL)
		return;
	if (x->base == NULL && x->over == NULL &&
	    __atomic_load_n(&x->refs, __ATOMIC_ACQUIRE) > 0 &&
	    __atomic_fetch_sub(&x->refs, 1, __ATOMIC_ACQ_REL) > 0)
		return;		/* a base still used by incremental indexes */
	search_index_free(x->base);
	search_index_free(x->over);
	free(x->oset.v);
	for (size_t i = 0; i < x->nbkeys; i++)
		free(x->bkeys[2 * i]);
	free(x->bkeys);
	free(x->vsum);
	free(x->dsk);
	search_lite_done(&x->lite);
	embed_free(x->emb);
	free(x->emb_note);
	if (x->fb != NULL) {
		embed_free(x->fb->emb);
		free(x->fb->vec);
		free(x->fb->mean);
		free(x->fb->norm);
		free(x->fb);
	}
	search_query_free(x);
	pthread_mutex_destroy(&x->fb_lock);
	if (x->base != NULL) {
		/* Borrowed from base and over: only the own arrays go. */
		free(x->own_mean);
		free(x->own_norm);
		free(x->own_docs);
		free(x);
		return;
	}
	bm25_free(x->bm);
	bm25_free(x->gram);
	bm25_free(x->pfx);
	free(x->own_vec);
	free(x->own_mean);
	free(x->own_norm);
	free(x->own_docs);
	if (x->map != NULL)
		munmap(x->map, x->maplen);
	free(x);
}

void
search_result_done(struct search_result *r)
{
	size_t	 i;

	if (r == NULL)
		return;
	for (i = 0; i < r->n; i++) {
		free(r->v[i].shadowed);
		cJSON_Delete(r->v[i].explain);
	}
	free(r->v);
	free(r->embed_error);
	memset(r, 0, sizeof(*r));
}

void
search_base_keys(struct search_index *b)
{
	uint32_t	 d;

	if (b->bkeys != NULL)
		return;
	b->bkeys = xreallocarray(NULL, b->ndocs + 1, 2 * sizeof(*b->bkeys));
	for (d = 0; d < b->ndocs; d++) {
		if (b->docs[d].shadowed || search_doc_skill(b, d)->path == NULL)
			continue;
		b->bkeys[2 * b->nbkeys] = xstrdup(search_doc_skill(b, d)->path);
		b->bkeys[2 * b->nbkeys + 1] = (char *)(uintptr_t)d;
		b->nbkeys++;
	}
	if (b->nbkeys > 1)
		qsort(b->bkeys, b->nbkeys, 2 * sizeof(*b->bkeys), search_path_cmp);
}
