/*
 * The layer beneath both store backends (store_sqlite.c, store_pg.c) and
 * the dispatcher (store.c): a handle's common part, the text rows both
 * backends bind and read the same way, the counts, the old rows a write
 * diffs against, the rejects list and the precedence order of a load.
 * See store_backend.h.
 */
#include "autoconfig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "base/buf.h"
#include "base/xmalloc.h"
#include "store/store.h"
#include "store/store_backend.h"

void
store_rejects_init(struct store_rejects *r)
{
	memset(r, 0, sizeof *r);
}

void
store_rejects_done(struct store_rejects *r)
{
	size_t	 i;

	for (i = 0; i < r->n; i++) {
		free(r->v[i].path);
		free(r->v[i].rule);
		free(r->v[i].reason);
	}
	free(r->v);
	store_rejects_init(r);
}

void
store_rejects_add(struct store_rejects *r, const char *path, int64_t size,
    int64_t mtime_ns, const char *hash, const char *rule, const char *reason,
    int skipped)
{
	struct store_reject	*it;

	if (r->n == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 16;
		r->v = xreallocarray(r->v, r->cap, sizeof *r->v);
	}
	it = &r->v[r->n++];
	it->path = xstrdup(path);
	it->size = size;
	it->mtime_ns = mtime_ns;
	snprintf(it->hash, sizeof it->hash, "%s", hash != NULL ? hash : "");
	it->rule = xstrdup(rule);
	it->reason = xstrdup(reason);
	it->skipped = skipped;
}

void
store_base_init(struct store *st, const struct store_ops *ops,
    const char *where)
{
	st->ops = ops;
	st->where = xstrdup(where);
	st->tomb_versions = STORE_TOMB_VERSIONS;
}

void
store_base_done(struct store *st)
{
	free(st->where);
}

void
store_counts_add(struct store_counts *c, const char *trust,
    const char *winner, const char *user_only, const char *flagged,
    const char *n)
{
	size_t	 k = n != NULL ? strtoull(n, NULL, 10) : 0;
	int	 t = trust != NULL ? tier_from_name(trust) : -1;

	c->entries += k;
	if (winner == NULL || strcmp(winner, "1") != 0)
		return;
	c->winners += k;
	if (user_only != NULL && strcmp(user_only, "1") == 0)
		c->user_only += k;
	c->tiers[t >= 0 ? t : TIER_UNTRUSTED] += k;
	if (flagged != NULL && strcmp(flagged, "1") == 0)
		c->flagged[t >= 0 ? t : TIER_UNTRUSTED] += k;
}

/* ---- old rows: what a write diffs against ----------------------------- */

void
store_olds_add(struct store_olds *o, const char *path, const char *rowhash)
{
	struct store_old	*it;

	if (o->n == o->cap) {
		o->cap = o->cap ? o->cap * 2 : 64;
		o->v = xreallocarray(o->v, o->cap, sizeof *o->v);
	}
	it = &o->v[o->n++];
	it->path = xstrdup(path);
	snprintf(it->rowhash, sizeof it->rowhash, "%s",
	    rowhash != NULL ? rowhash : "");
	it->seen = 0;
}

void
store_olds_done(struct store_olds *o)
{
	size_t	 i;

	for (i = 0; i < o->n; i++)
		free(o->v[i].path);
	free(o->v);
	memset(o, 0, sizeof *o);
}

/* ---- text rows ---------------------------------------------------------- */

static char *
list_json(const struct strlist *l)
{
	cJSON	*a;
	char	*s;
	size_t	 i;

	a = cJSON_CreateArray();
	for (i = 0; i < l->n; i++)
		cJSON_AddItemToArray(a, cJSON_CreateString(l->v[i]));
	s = cJSON_PrintUnformatted(a);
	cJSON_Delete(a);
	return s;
}

/*
 * The lists are written by list_json() (cJSON, unformatted): ["a","b"].
 * Plain ones (no escapes, no control characters, nothing around the
 * brackets) are cut out directly; anything else goes through cJSON, so
 * both paths give the same strings.
 */
static int
list_is_plain(const char *t)
{
	if (*t++ != '[')
		return 0;
	if (*t == ']')
		return t[1] == '\0';
	for (;;) {
		if (*t++ != '"')
			return 0;
		for (; *t != '"'; t++)
			if (*t == '\\' || (unsigned char)*t < 0x20)
				return 0;	/* an escape, control, NUL */
		t++;
		if (*t == ']')
			return t[1] == '\0';
		if (*t++ != ',')
			return 0;
	}
}

static void
list_add_plain(struct strlist *l, const char *t)
{
	const char	*q;

	for (t++; *t == '"'; t = q + 2) {
		q = strchr(t + 1, '"');
		strlist_add_take(l, xstrndup(t + 1, (size_t)(q - t - 1)));
	}
}

static void
store_list_parse(struct strlist *l, const char *text)
{
	cJSON	*a, *it;

	if (text == NULL)
		return;
	if (list_is_plain(text)) {
		list_add_plain(l, text);
		return;
	}
	if ((a = cJSON_Parse(text)) == NULL)
		return;
	cJSON_ArrayForEach(it, a) {
		if (cJSON_IsString(it))
			strlist_add(l, it->valuestring);
	}
	cJSON_Delete(a);
}

static const char *
num(struct store_row *r, int slot, long long v)
{
	snprintf(r->num[slot], sizeof r->num[slot], "%lld", v);
	return r->num[slot];
}

void
store_row_fill(struct store_row *r, const struct skill *s)
{
	struct buf	 b;
	int		 i;

	r->lists[0] = list_json(&s->tags);
	r->lists[1] = list_json(&s->platforms);
	r->lists[2] = list_json(&s->requires_tools);
	r->lists[3] = list_json(&s->fallback_for_tools);
	r->v[0] = s->uid;
	r->v[1] = kind_name(s->kind);
	r->v[2] = skill_display(s);	/* the name as written */
	r->v[3] = s->path;
	r->v[4] = s->realpath;
	r->v[5] = s->root;
	r->v[6] = s->scope;
	r->v[7] = num(r, 0, s->is_project);
	r->v[8] = tier_name(s->trust);
	r->v[9] = s->description != NULL ? s->description : "";
	r->v[10] = s->when_to_use != NULL ? s->when_to_use : "";
	for (i = 0; i < 4; i++)
		r->v[11 + i] = r->lists[i];
	r->v[15] = num(r, 1, s->disable_model_invocation);
	r->v[16] = num(r, 2, s->user_invocable);
	r->v[17] = num(r, 3, (long long)s->size);
	r->v[18] = num(r, 4, (long long)s->mtime_ns);
	r->v[19] = s->hash;
	r->v[20] = num(r, 5, s->n_warnings);
	r->v[21] = num(r, 6, s->n_flags);
	r->v[22] = num(r, 7, s->max_flag_sev);
	r->v[23] = s->flag_ids;
	r->v[24] = s->shadowed_by;
	r->v[25] = s->frontmatter;
	r->v[26] = s->signature;
	snprintf(r->num[8], sizeof r->num[8], "%.4f", s->risk);
	r->v[27] = r->num[8];
	r->v[28] = num(r, 9, s->risk_sev);
	r->v[29] = s->findings;
	r->v[30] = s->bundle;
	/* NULL and "" differ: a NUL-separated text with a marker for NULL. */
	buf_init(&b, 0);
	for (i = 0; i < STORE_NCOLS; i++) {
		if (r->v[i] == NULL)
			buf_addc(&b, '\1');
		else
			buf_addstr(&b, r->v[i]);
		buf_add(&b, "", 1);
	}
	skill_hash(b.p, b.len, r->rowhash);
	buf_done(&b);
}

void
store_row_done(struct store_row *r)
{
	int	 i;

	for (i = 0; i < 4; i++)
		cJSON_free(r->lists[i]);
}

static char *
dup_or(const char *s, const char *def)
{
	return s != NULL ? xstrdup(s) : def != NULL ? xstrdup(def) : NULL;
}

static long long
to_ll(const char *s)
{
	return s != NULL ? strtoll(s, NULL, 10) : 0;
}

/* An integer column (one of STORE_COL_INTS) of in. */
static long long
in_ll(const struct store_in *in, int col)
{
	return in->typed ? in->i[col] : to_ll(in->v[col]);
}

/* A fixed-size hex stamp (hash, bundle): "" for NULL, cut to fit. */
static void
copy_stamp(char *dst, size_t size, const char *src)
{
	size_t	 n = src != NULL ? strnlen(src, size - 1) : 0;

	memcpy(dst, src != NULL ? src : "", n);
	dst[n] = '\0';
}

struct skill *
store_row_skill(const struct store_in *in)
{
	const char *const	*v = in->v;
	struct skill		*s;
	int			 k, t;

	if (v[0] == NULL || v[2] == NULL || v[3] == NULL)
		return NULL;
	s = skill_new();
	s->uid = xstrdup(v[0]);
	k = v[1] != NULL ? kind_from_name(v[1]) : -1;
	s->kind = k >= 0 ? (enum skill_kind)k : KIND_SKILL;
	s->name = xstrdup(v[2]);
	s->path = xstrdup(v[3]);
	s->realpath = dup_or(v[4], v[3]);
	s->root = dup_or(v[5], "");
	s->scope = dup_or(v[6], "other");
	s->is_project = (int)in_ll(in, 7);
	t = v[8] != NULL ? tier_from_name(v[8]) : -1;
	s->trust = t >= 0 ? (enum trust_tier)t : TIER_UNTRUSTED;
	s->description = dup_or(v[9], "");
	s->when_to_use = dup_or(v[10], "");
	store_list_parse(&s->tags, v[11]);
	store_list_parse(&s->platforms, v[12]);
	store_list_parse(&s->requires_tools, v[13]);
	store_list_parse(&s->fallback_for_tools, v[14]);
	s->disable_model_invocation = (int)in_ll(in, 15);
	s->user_invocable = (int)in_ll(in, 16);
	s->size = in_ll(in, 17);
	s->mtime_ns = in_ll(in, 18);
	copy_stamp(s->hash, sizeof s->hash, v[19]);
	s->n_warnings = (int)in_ll(in, 20);
	s->n_flags = (int)in_ll(in, 21);
	s->max_flag_sev = (int)in_ll(in, 22);
	s->flag_ids = dup_or(v[23], NULL);
	s->shadowed_by = dup_or(v[24], NULL);
	s->frontmatter = dup_or(v[25], NULL);
	skill_set_signature(s, v[26]);
	if (in->typed)
		s->risk = in->risk;
	else
		s->risk = v[STORE_COL_RISK] != NULL ?
		    strtod(v[STORE_COL_RISK], NULL) : 0;
	s->risk_sev = (int)in_ll(in, 28);
	s->findings = dup_or(v[29], NULL);
	copy_stamp(s->bundle, sizeof s->bundle, v[30]);
	skill_split_display(s);
	return s;
}

static int
cmp_order(const void *a, const void *b)
{
	return skill_cmp_precedence(*(struct skill *const *)a,
	    *(struct skill *const *)b);
}

void
store_order(struct skill_set *set)
{
	size_t	 i;

	for (i = 1; i < set->n; i++)
		if (skill_cmp_precedence(set->v[i - 1], set->v[i]) > 0)
			break;
	if (i < set->n)		/* not already in order */
		qsort(set->v, set->n, sizeof *set->v, cmp_order);
}
