/*
 * The built-in embedder: signed feature hashing (Weinberger et al.) of
 *  - every word token of the normalised text (unstemmed, stop-words
 *    dropped), weight 1;
 *  - character 3-, 4- and 5-grams of each word padded as "^word$",
 *    weight 0.5 spread over the word's n-grams of each size, so long
 *    words do not dominate;
 *  - for Han/Kana runs the character bigrams (as tokens) plus unigrams.
 * A feature hashes (FNV-1a 64) to an index h % dim and a sign from a high
 * bit; the vector is L2-normalised.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/config.h"
#include "search/embed.h"
#include "search/embed_cloud.h"
#include "search/embed_ollama.h"
#include "base/status.h"
#include "base/strlist.h"
#include "base/text.h"
#include "base/xmalloc.h"

static uint64_t
fnv(const char *s, size_t n, uint64_t seed)
{
	uint64_t	 h = 0xcbf29ce484222325ULL ^ seed;
	size_t		 i;

	for (i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 0x100000001b3ULL;
	}
	/* final avalanche (splitmix64) */
	h ^= h >> 30;
	h *= 0xbf58476d1ce4e5b9ULL;
	h ^= h >> 27;
	h *= 0x94d049bb133111ebULL;
	h ^= h >> 31;
	return h;
}

static void
add_feature(float *v, int dim, const char *s, size_t n, uint64_t seed,
    float w)
{
	uint64_t	 h = fnv(s, n, seed);

	v[h % (uint64_t)dim] += (h >> 63) ? -w : w;
}

struct vsink {
	float	*v;
	int	 dim;
	int	 g;		/* n-gram size being added */
	float	 w;		/* weight of each n-gram */
};

static void
add_gram(void *arg, const char *t, size_t len)
{
	struct vsink *k = arg;

	add_feature(k->v, k->dim, t, len, (uint64_t)k->g, k->w);
}

static void
add_word(void *arg, const char *t, size_t len)
{
	struct vsink	*k = arg;
	int32_t		 cp;
	size_t		 nc = 0, i;
	int		 l;

	add_feature(k->v, k->dim, t, len, 0, 1.0f);
	if (text_utf8_decode(t, len, &cp) > 0 && text_is_cjk(cp))
		return;
	for (i = 0; i < len; i += (size_t)l, nc++)
		if ((unsigned char)t[i] < 0x80 ||
		    (l = text_utf8_decode(t + i, len - i, &cp)) < 0)
			l = 1;
	nc += 2;	/* the padding */
	for (k->g = 3; k->g <= 5; k->g++) {
		if (nc < (size_t)k->g)
			break;
		k->w = 0.5f / sqrtf((float)(nc - (size_t)k->g + 1));
		text_word_ngrams(t, len, k->g, add_gram, k);
	}
}

static void
embed_one(const char *text, float *v, int dim)
{
	struct vsink	 k = { v, dim, 0, 0 };

	memset(v, 0, (size_t)dim * sizeof(*v));
	text_tokenize_cb(NULL, text, TEXT_STOP | TEXT_CJK_UNI, add_word, &k,
	    4096);
	embedder_normalize(v, dim);
}

static int
builtin_embed(struct embedder *e, const char *const *texts, size_t n,
    float *out, char **cause)
{
	size_t	 i;

	*cause = NULL;
	for (i = 0; i < n; i++)
		embed_one(texts[i] ? texts[i] : "", out + i * (size_t)e->dim,
		    e->dim);
	return SR_OK;
}

static void
builtin_free(struct embedder *e)
{
	free(e);
}

struct embedder *
embed_builtin_new(int dim)
{
	struct embedder	*e;

	e = xcalloc(1, sizeof(*e));
	e->name = "builtin";
	e->dim = dim;
	e->embed = builtin_embed;
	e->free = builtin_free;
	return e;
}

int
embed_new(const struct config *cfg, struct embedder **out, char **cause)
{
	int	 dim = EMBED_DIM_DEFAULT;

	*out = NULL;
	*cause = NULL;
	if (cfg != NULL && cfg->embed_dim != 0)
		dim = cfg->embed_dim;
	if (dim < EMBED_DIM_MIN || dim > EMBED_DIM_MAX) {
		xasprintf(cause, "embedder.dim: %d is outside %d..%d", dim,
		    EMBED_DIM_MIN, EMBED_DIM_MAX);
		return SR_CONFIG;
	}
	if (cfg != NULL && cfg->embedder != NULL &&
	    strcmp(cfg->embedder, "ollama") == 0)
		return embed_ollama_new(cfg, out, cause);
	if (cfg != NULL && cfg->embedder != NULL &&
	    (strcmp(cfg->embedder, "openai") == 0 ||
	    strcmp(cfg->embedder, "voyage") == 0))
		return embed_cloud_new(cfg, out, cause);
	if (cfg != NULL && cfg->embedder != NULL && *cfg->embedder != '\0' &&
	    strcmp(cfg->embedder, "builtin") != 0) {
		xasprintf(cause, "embedder.backend: unknown backend \"%s\" "
		    "(known: builtin, ollama, openai, voyage)", cfg->embedder);
		return SR_CONFIG;
	}
	*out = embed_builtin_new(dim);
	return SR_OK;
}

void
embed_free(struct embedder *e)
{
	if (e != NULL && e->free != NULL)
		e->free(e);
}
