/*
 * The words of the index, as a set of token hashes (see vocab.h).
 */
#include "autoconfig.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/skill.h"
#include "base/strlist.h"
#include "base/text.h"
#include "search/vocab.h"
#include "base/xmalloc.h"

#define VOCAB_WORDS	64	/* tokens of one query word looked at */

struct vocab {
	uint64_t	*h;		/* 0: empty slot */
	size_t		 cap;		/* a power of two */
	size_t		 n;
};

static uint64_t
hash_token(const char *s, size_t len)
{
	uint64_t	 h = 0xcbf29ce484222325ULL;
	size_t		 i;

	for (i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 0x100000001b3ULL;
	}
	return h != 0 ? h : 1;
}

static int
has(const struct vocab *v, uint64_t h)
{
	size_t	 i;

	if (v->cap == 0)
		return 0;
	for (i = h & (v->cap - 1); v->h[i] != 0; i = (i + 1) & (v->cap - 1))
		if (v->h[i] == h)
			return 1;
	return 0;
}

static void
put(struct vocab *v, uint64_t h)
{
	uint64_t	*old = v->h;
	size_t		 i, oc = v->cap;

	if (has(v, h))
		return;
	if ((v->n + 1) * 2 > v->cap) {
		v->cap = oc ? oc * 2 : 1024;
		v->h = xcalloc(v->cap, sizeof *v->h);
		v->n = 0;
		for (i = 0; i < oc; i++)
			if (old[i] != 0)
				put(v, old[i]);
		free(old);
	}
	for (i = h & (v->cap - 1); v->h[i] != 0; i = (i + 1) & (v->cap - 1))
		;
	v->h[i] = h;
	v->n++;
}

static void
add_token(void *arg, const char *t, size_t len)
{
	put(arg, hash_token(t, len));
}

/* A name or tag in parts, as search indexes it ("pdfFormFiller"). */
static void
add_name(struct vocab *v, struct text_ctx *tc, const char *name)
{
	struct strlist	 parts;
	size_t		 i;

	strlist_init(&parts);
	text_split_name(name, &parts);
	for (i = 0; i < parts.n; i++)
		text_tokenize_cb(tc, parts.v[i], TEXT_STEM, add_token, v, 0);
	strlist_done(&parts);
}

struct vocab *
vocab_new(const struct skill_set *set)
{
	struct vocab		*v = xcalloc(1, sizeof *v);
	struct text_ctx		*tc = text_ctx_new();
	const struct skill	*s;
	size_t			 i, k;

	for (i = 0; i < set->n; i++) {
		s = set->v[i];
		if (s->shadowed_by != NULL || s->disable_model_invocation)
			continue;
		if (s->name != NULL)
			add_name(v, tc, s->name);
		text_tokenize_cb(tc, s->description, TEXT_INDEX, add_token, v,
		    0);
		text_tokenize_cb(tc, s->when_to_use, TEXT_INDEX, add_token, v,
		    0);
		for (k = 0; k < s->tags.n; k++)
			add_name(v, tc, s->tags.v[k]);
	}
	text_ctx_free(tc);
	return v;
}

void
vocab_free(struct vocab *v)
{
	if (v == NULL)
		return;
	free(v->h);
	free(v);
}

/* w without the ASCII punctuation around it ("deck," -> "deck"), owned. */
static char *
bare_word(const char *w)
{
	static const char	 punct[] = ".,;:!?\"'()[]{}<>";
	size_t			 n = strlen(w);

	while (*w != '\0' && strchr(punct, *w) != NULL) {
		w++;
		n--;
	}
	while (n > 0 && strchr(punct, w[n - 1]) != NULL)
		n--;
	return xstrndup(w, n);
}

size_t
vocab_unknown(const struct vocab *v, const char *query, struct strlist *out)
{
	struct text_ctx	*tc;
	struct strlist	 words, tok;
	size_t		 i, k, added = 0;
	char		*w;

	if (query == NULL || strncmp(query, "hmac:", 5) == 0)
		return 0;
	tc = text_ctx_new();
	strlist_init(&words);
	strlist_split(&words, query, " \t\r\n");
	for (i = 0; i < words.n; i++) {
		strlist_init(&tok);
		text_tokenize(tc, words.v[i], TEXT_INDEX, &tok, VOCAB_WORDS);
		for (k = 0; k < tok.n; k++)
			if (has(v, hash_token(tok.v[k], strlen(tok.v[k]))))
				break;
		w = bare_word(words.v[i]);
		if (tok.n > 0 && k == tok.n && *w != '\0' &&
		    !strlist_contains(out, w, 0)) {
			strlist_add(out, w);
			added++;
		}
		free(w);
		strlist_done(&tok);
	}
	strlist_done(&words);
	text_ctx_free(tc);
	return added;
}
