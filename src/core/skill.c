#include "autoconfig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cjson/cJSON.h>

#include "core/finding.h"
#include "core/skill.h"
#include "base/text.h"
#include "base/xmalloc.h"

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
	s->display = dup_or_null(o->display);
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
	s->signature = dup_or_null(o->signature);
	s->signer = dup_or_null(o->signer);
	return s;
}

/*
 * A JSON string without escapes or control characters at *pp: returns its
 * text (*n bytes) and moves *pp past it, or NULL.
 */
static const char *
plain_str(const char **pp, size_t *n)
{
	const char	*p = *pp, *s;

	if (*p++ != '"')
		return NULL;
	for (s = p; *p != '"'; p++)
		if (*p == '\\' || (unsigned char)*p < 0x20)
			return NULL;	/* an escape, a control, the NUL */
	*n = (size_t)(p - s);
	*pp = p + 1;
	return s;
}

/*
 * The signature as the indexer writes it (cJSON, unformatted) is a flat
 * object of plain strings: {"status":"valid","signer":"acme",...}. Finds
 * the first "status" and "signer" (keys matched without case, as
 * cJSON_GetObjectItem() does) without building a tree: a load reads one
 * per signed entry, and cJSON_Parse() cost ~7,000 instructions each.
 * Returns 0, or -1 when json is not that plain shape (escapes, spaces,
 * other values): cJSON reads it then.
 */
static int
sig_plain(const char *p, const char **st, size_t *stn, const char **who,
    size_t *whon)
{
	const char	*k, *v;
	size_t		 kn, vn;

	*st = *who = NULL;
	if (*p++ != '{')
		return -1;
	if (*p == '}')
		return p[1] == '\0' ? 0 : -1;
	for (;;) {
		if ((k = plain_str(&p, &kn)) == NULL || *p++ != ':' ||
		    (v = plain_str(&p, &vn)) == NULL)
			return -1;
		if (kn == 6 && strncasecmp(k, "status", 6) == 0 && *st == NULL) {
			*st = v;
			*stn = vn;
		} else if (kn == 6 && strncasecmp(k, "signer", 6) == 0 &&
		    *who == NULL) {
			*who = v;
			*whon = vn;
		}
		if (*p == '}')
			return p[1] == '\0' ? 0 : -1;
		if (*p++ != ',')
			return -1;
	}
}

void
skill_set_signature(struct skill *s, const char *json)
{
	cJSON		*o;
	const char	*st, *who;
	size_t		 stn = 0, whon = 0;

	free(s->signature);
	free(s->signer);
	s->signature = s->signer = NULL;
	if (json == NULL || *json == '\0')
		return;
	s->signature = xstrdup(json);
	if (sig_plain(json, &st, &stn, &who, &whon) == 0) {
		if (st != NULL && stn == 5 && memcmp(st, "valid", 5) == 0 &&
		    who != NULL)
			s->signer = xstrndup(who, whon);
		return;
	}
	if ((o = cJSON_Parse(json)) == NULL)
		return;
	st = cJSON_GetStringValue(cJSON_GetObjectItem(o, "status"));
	who = cJSON_GetStringValue(cJSON_GetObjectItem(o, "signer"));
	if (st != NULL && strcmp(st, "valid") == 0 && who != NULL)
		s->signer = xstrdup(who);
	cJSON_Delete(o);
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
	free(s->display);
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
	free(s->signature);
	free(s->signer);
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

int
skill_flagged(const struct skill *s)
{
	return s->n_flags > 0 || s->risk_sev >= SEV_WARN;
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

char *
skill_name_id(const char *name)
{
	char	*norm, *out;
	size_t	 i, n = 0;
	int	 sep = 0;

	if (name == NULL)
		return NULL;
	norm = text_normalize(name, (size_t)-1);
	out = xmalloc(strlen(norm) + 1);
	for (i = 0; norm[i] != '\0'; i++) {
		unsigned char	 c = (unsigned char)norm[i];

		if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
			if (sep && n > 0)
				out[n++] = '-';
			sep = 0;
			out[n++] = (char)c;
		} else if (c >= 'A' && c <= 'Z') {
			/* text_normalize() folds case; this is belt and braces. */
			if (sep && n > 0)
				out[n++] = '-';
			sep = 0;
			out[n++] = (char)(c - 'A' + 'a');
		} else if (c != '\'')	/* "Dave's Tools": daves-tools */
			sep = 1;
	}
	out[n] = '\0';
	free(norm);
	if (n > SKILL_NAME_MAX) {
		n = SKILL_NAME_MAX;
		/* Cut at the last hyphen that fits, so a word stays whole. */
		while (n > 0 && out[n] != '-')
			n--;
		if (n == 0)
			n = SKILL_NAME_MAX;
		out[n] = '\0';
		while (n > 0 && out[n - 1] == '-')
			out[--n] = '\0';
	}
	if (n == 0) {
		free(out);
		return NULL;
	}
	return out;
}

const char *
skill_display(const struct skill *s)
{
	return s->display != NULL ? s->display : s->name;
}

void
skill_split_display(struct skill *s)
{
	const char	*id, *colon;

	if (s->uid == NULL || s->name == NULL || s->display != NULL)
		return;
	id = s->uid;
	if (strncmp(id, "agent:", 6) == 0)
		id += 6;
	else if (strncmp(id, "cmd:", 4) == 0 &&
	    (colon = strrchr(id, ':')) != NULL)
		id = colon + 1;
	if (strcmp(id, s->name) == 0)
		return;
	s->display = s->name;
	s->name = xstrdup(id);
}
