/*
 * The entries of an index opened from its cache alone (search_lite.h),
 * decoded one at a time from the mapped entries section when a search
 * first needs them. Beneath search.c and search_cache.c, which both use
 * it.
 */
#include "autoconfig.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/skill.h"
#include "search/search_lite.h"
#include "base/xmalloc.h"

/* A word at a time (multiply and fold), as the cache key goes. */
static uint64_t
mix(uint64_t h, uint64_t w)
{
	h ^= w;
	h *= 0x9e3779b97f4a7c15ULL;
	return h ^ (h >> 29);
}

uint64_t
search_lite_hash(const void *p, size_t n)
{
	uint64_t		 h = 0xcbf29ce484222325ULL, w;
	const unsigned char	*c = p;
	size_t			 i;

	for (i = 0; i + 8 <= n; i += 8) {
		memcpy(&w, c + i, 8);
		h = mix(h, w);
	}
	w = 0;
	if (n > i)
		memcpy(&w, c + i, n - i);
	h = mix(h, w ^ ((uint64_t)n << 56));
	return h;
}

/* The next string of the section at *off, or NULL past its end. */
static char *
take_str(const char *p, size_t len, size_t *off)
{
	const char	*z;
	char		*s;

	if (*off >= len || (z = memchr(p + *off, '\0', len - *off)) == NULL)
		return NULL;
	s = (char *)(uintptr_t)(p + *off);
	*off = (size_t)(z - p) + 1;
	return s;
}

static int
take_list(const char *p, size_t len, size_t *off, struct strlist *l,
    char **slot, size_t n)
{
	size_t	 i;

	l->v = n > 0 ? slot : NULL;
	l->n = l->cap = n;
	for (i = 0; i < n; i++)
		if ((slot[i] = take_str(p, len, off)) == NULL)
			return -1;
	return 0;
}

/*
 * Decodes an entry from its strings (p, len bytes) into s, its
 * strings borrowed from the mapping, its lists' pointers in one array
 * (s->tags.v, freed with the entry). Returns 0, or -1 when the entry is
 * damaged.
 */
static int
lite_read(int shadowed, const char *p, size_t len, struct skill *s)
{
	size_t	 off = 0, a, bb, c;
	char	*head, **slot;
	int	 kind, proj, trust, sev, fl, used;
	double	 risk;

	if ((head = take_str(p, len, &off)) == NULL ||
	    sscanf(head, "%d %d %d %d %d %lg %zu %zu %zu%n", &kind,
	    &proj, &trust, &sev, &fl, &risk, &a, &bb, &c, &used) != 9 ||
	    head[used] != '\0' || kind < 0 || kind > KIND_COMMAND ||
	    trust < TIER_UNTRUSTED || trust > TIER_TRUSTED ||
	    a > len || bb > len || c > len || a + bb + c > len)
		return -1;
	s->kind = (enum skill_kind)kind;
	s->is_project = proj;
	s->trust = (enum trust_tier)trust;
	s->risk_sev = sev;
	s->risk = risk;
	s->lean = 1;
	if ((s->uid = take_str(p, len, &off)) == NULL ||
	    (s->name = take_str(p, len, &off)) == NULL ||
	    ((fl & E_DISPLAY) &&
	    (s->display = take_str(p, len, &off)) == NULL) ||
	    (s->path = take_str(p, len, &off)) == NULL ||
	    (s->scope = take_str(p, len, &off)) == NULL ||
	    (s->description = take_str(p, len, &off)) == NULL ||
	    (s->when_to_use = take_str(p, len, &off)) == NULL ||
	    ((fl & E_SHADOWED) &&
	    (s->shadowed_by = take_str(p, len, &off)) == NULL) ||
	    ((fl & E_SIGNATURE) &&
	    (s->signature = take_str(p, len, &off)) == NULL) ||
	    ((fl & E_SIGNER) &&
	    (s->signer = take_str(p, len, &off)) == NULL))
		return -1;
	if ((shadowed != 0) != (s->shadowed_by != NULL))
		return -1;
	/* never NULL: the lists below offset it */
	slot = xreallocarray(NULL, a + bb + c > 0 ? a + bb + c : 1,
	    sizeof(*slot));
	if (take_list(p, len, &off, &s->tags, slot, a) != 0 ||
	    take_list(p, len, &off, &s->requires_tools, slot + a, bb) != 0 ||
	    take_list(p, len, &off, &s->fallback_for_tools, slot + a + bb,
	    c) != 0 || off != len) {
		free(slot);
		return -1;
	}
	if (a == 0)
		s->tags.v = slot;	/* freed through tags.v */
	return 0;
}

/* Decodes doc d into l->v[d], under l->lock. */
static void
lite_decode(struct search_lite *l, uint32_t d, int shadowed)
{
	struct skill	*s = &l->v[d];
	size_t		 from = (size_t)l->off[d];
	size_t		 len = (size_t)l->off[d + 1] - from;

	if (search_lite_hash(l->blob + from, len) != l->off[l->ndocs + 1 + d] ||
	    lite_read(shadowed, l->blob + from, len, s) != 0) {
		/* damaged: an entry that shows nothing, never a crash */
		l->damaged = 1;
		memset(s, 0, sizeof(*s));
		s->uid = s->name = s->path = s->scope = s->description =
		    s->when_to_use = (char *)(uintptr_t)"";
		s->lean = 1;
	}
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 64;
		l->list = xreallocarray(l->list, l->cap, sizeof(*l->list));
	}
	l->list[l->n++] = d;
	l->done[d] = 1;
}

int
search_lite_init(struct search_lite *l, const uint64_t *off,
    const char *blob, uint64_t len, uint32_t ndocs)
{
	uint32_t	 d;

	memset(l, 0, sizeof(*l));
	if (off[0] != 0 || off[ndocs] != len ||
	    (len > 0 && blob[len - 1] != '\0'))
		return -1;
	for (d = 0; d < ndocs; d++)
		if (off[d] >= off[d + 1])
			return -1;
	l->off = off;
	l->blob = blob;
	l->ndocs = ndocs;
	pthread_mutex_init(&l->lock, NULL);
	/* zeroed pages until an entry is decoded */
	l->v = xcalloc(ndocs ? ndocs : 1, sizeof(*l->v));
	l->done = xcalloc(ndocs ? ndocs : 1, 1);
	return 0;
}

const struct skill *
search_lite_get(const struct search_lite *cl, uint32_t d, int shadowed)
{
	struct search_lite	*l = (struct search_lite *)(uintptr_t)cl;

	pthread_mutex_lock(&l->lock);
	if (!l->done[d])
		lite_decode(l, d, shadowed);
	pthread_mutex_unlock(&l->lock);
	return &l->v[d];
}

int
search_lite_damaged(const struct search_lite *cl)
{
	struct search_lite	*l = (struct search_lite *)(uintptr_t)cl;
	int			 bad;

	if (l->v == NULL)
		return 0;
	pthread_mutex_lock(&l->lock);
	bad = l->damaged;
	pthread_mutex_unlock(&l->lock);
	return bad;
}

void
search_lite_done(struct search_lite *l)
{
	size_t	 i;

	if (l->v == NULL)
		return;
	for (i = 0; i < l->n; i++)
		free(l->v[l->list[i]].tags.v);
	free(l->list);
	free(l->done);
	free(l->v);
	pthread_mutex_destroy(&l->lock);
	memset(l, 0, sizeof(*l));
}
