#include "autoconfig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "skill.h"
#include "xmalloc.h"

static const char *kinds[] = { "skill", "agent", "command" };
static const char *tiers[] = { "UNTRUSTED", "USER", "VERIFIED", "TRUSTED" };

struct skill *
skill_new(void)
{
	struct skill	*s;

	s = xcalloc(1, sizeof *s);
	strlist_init(&s->tags);
	strlist_init(&s->platforms);
	strlist_init(&s->requires_tools);
	strlist_init(&s->fallback_for_tools);
	s->max_flag_sev = -1;
	s->user_invocable = 1;
	return s;
}

struct skill *
skill_ref(struct skill *s)
{
	__atomic_add_fetch(&s->refs, 1, __ATOMIC_RELAXED);
	return s;
}

static char *
dup_or_null(const char *s)
{
	return s != NULL ? xstrdup(s) : NULL;
}

struct skill *
skill_dup(const struct skill *o)
{
	struct skill	*s;

	s = xcalloc(1, sizeof *s);
	*s = *o;
	s->refs = 0;
	s->uid = dup_or_null(o->uid);
	s->name = dup_or_null(o->name);
	s->path = dup_or_null(o->path);
	s->realpath = dup_or_null(o->realpath);
	s->root = dup_or_null(o->root);
	s->scope = dup_or_null(o->scope);
	s->description = dup_or_null(o->description);
	s->when_to_use = dup_or_null(o->when_to_use);
	strlist_init(&s->tags);
	strlist_init(&s->platforms);
	strlist_init(&s->requires_tools);
	strlist_init(&s->fallback_for_tools);
	strlist_copy(&s->tags, &o->tags);
	strlist_copy(&s->platforms, &o->platforms);
	strlist_copy(&s->requires_tools, &o->requires_tools);
	strlist_copy(&s->fallback_for_tools, &o->fallback_for_tools);
	s->flag_ids = dup_or_null(o->flag_ids);
	s->findings = dup_or_null(o->findings);
	s->shadowed_by = dup_or_null(o->shadowed_by);
	s->frontmatter = dup_or_null(o->frontmatter);
	return s;
}

void
skill_free(struct skill *s)
{
	if (s == NULL)
		return;
	/* Another owner remains: the last one frees. */
	if (__atomic_load_n(&s->refs, __ATOMIC_ACQUIRE) > 0 &&
	    __atomic_fetch_sub(&s->refs, 1, __ATOMIC_ACQ_REL) > 0)
		return;
	free(s->uid);
	free(s->name);
	free(s->path);
	free(s->realpath);
	free(s->root);
	free(s->scope);
	free(s->description);
	free(s->when_to_use);
	strlist_done(&s->tags);
	strlist_done(&s->platforms);
	strlist_done(&s->requires_tools);
	strlist_done(&s->fallback_for_tools);
	free(s->flag_ids);
	free(s->findings);
	free(s->shadowed_by);
	free(s->frontmatter);
	free(s);
}

void
skill_set_init(struct skill_set *set)
{
	set->v = NULL;
	set->n = 0;
	set->cap = 0;
}

void
skill_set_done(struct skill_set *set)
{
	size_t	 i;

	for (i = 0; i < set->n; i++)
		skill_free(set->v[i]);
	free(set->v);
	skill_set_init(set);
}

void
skill_set_add(struct skill_set *set, struct skill *s)
{
	if (set->n == set->cap) {
		set->cap = set->cap ? set->cap * 2 : 64;
		set->v = xreallocarray(set->v, set->cap, sizeof *set->v);
	}
	set->v[set->n++] = s;
}

const char *
kind_name(enum skill_kind k)
{
	return (unsigned)k < 3 ? kinds[k] : "?";
}

int
kind_from_name(const char *s)
{
	int	 i;

	for (i = 0; i < 3; i++) {
		if (strcasecmp(s, kinds[i]) == 0)
			return i;
	}
	return -1;
}

/* The precedence class of an entry: higher wins. */
static int
precedence_rank(const struct skill *s)
{
	if (s->trust == TIER_TRUSTED)
		return 5;
	if (s->is_project)
		return 4;
	if (s->trust == TIER_USER)
		return 3;
	if (s->trust == TIER_VERIFIED)
		return 2;
	return 1;
}

int
skill_cmp_precedence(const struct skill *a, const struct skill *b)
{
	int	 c;

	if ((c = strcmp(a->uid, b->uid)) != 0)
		return c;
	if ((c = precedence_rank(b) - precedence_rank(a)) != 0)
		return c > 0 ? 1 : -1;
	if (a->mtime_ns != b->mtime_ns)
		return a->mtime_ns > b->mtime_ns ? -1 : 1;
	c = strcmp(a->path, b->path);
	return c > 0 ? 1 : c < 0 ? -1 : 0;
}

const char *
tier_name(enum trust_tier t)
{
	return (unsigned)t < 4 ? tiers[t] : "?";
}

int
tier_from_name(const char *s)
{
	int	 i;

	for (i = 0; i < 4; i++) {
		if (strcasecmp(s, tiers[i]) == 0)
			return i;
	}
	return -1;
}

void
skill_hash(const void *data, size_t len, char out[17])
{
	const unsigned char	*p = data;
	uint64_t		 h = 0xcbf29ce484222325ULL;
	size_t			 i;

	for (i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3ULL;
	}
	snprintf(out, 17, "%016llx", (unsigned long long)h);
}
