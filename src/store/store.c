/*
 * The store interface (store.h): backend choice, the diff every
 * store_replace() writes, and the text-row helpers both backends share.
 */
#include "autoconfig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "base/buf.h"
#include "core/config.h"
#include "base/status.h"
#include "store/store.h"
#include "store/store_backend.h"
#include "base/xmalloc.h"

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

/* ---- opening ----------------------------------------------------------- */

int
store_open_cfg(const struct config *cfg, int readonly, struct store **out,
    char **cause)
{
	int	 rv;

	*out = NULL;
	if (cfg->store_backend == STORE_BACKEND_POSTGRES) {
		if (cfg->store_dsn == NULL || *cfg->store_dsn == '\0') {
			xasprintf(cause, "store.backend is postgres but there is "
			    "no store.dsn (or SKILLS_RADAR_DSN)");
			return SR_CONFIG;
		}
		/* The search index cache stays local, beside store.path. */
		if (cfg->index_path != NULL)
			(void)buf_mkparents(cfg->index_path, 0700);
		rv = store_open_pg(cfg->store_dsn, out, cause);
	} else
		rv = store_open(cfg->index_path, readonly, out, cause);
	if (rv == 0 && cfg->store_tomb_writes > 0)
		store_set_tomb_versions(*out, cfg->store_tomb_writes);
	return rv;
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
store_close(struct store *st)
{
	if (st != NULL)
		st->ops->close(st);
}

const char *
store_backend(struct store *st)
{
	return st->ops->name;
}

const char *
store_where(struct store *st)
{
	return st->where;
}

void
store_set_tomb_versions(struct store *st, int64_t n)
{
	st->tomb_versions = n > 0 ? n : 1;
}

/* ---- reading ----------------------------------------------------------- */

int
store_load(struct store *st, struct skill_set *set, char **cause)
{
	return st->ops->load(st, set, 0, cause);
}

int
store_load_flags(struct store *st, struct skill_set *set, int flags,
    char **cause)
{
	return st->ops->load(st, set, flags, cause);
}

int
store_get(struct store *st, const char *path, struct skill **out,
    char **cause)
{
	int	 rv;

	*out = NULL;
	if ((rv = st->ops->get(st, path, out, cause)) != 0)
		return rv;
	if (*out == NULL) {
		if (cause != NULL)
			xasprintf(cause, "%s: %s: not in the index", st->where,
			    path);
		return SR_NOTFOUND;
	}
	return 0;
}

/* A lean entry lacks stored texts: writing it would erase them. */
static int
refuse_lean(struct store *st, const struct skill *s, char **cause)
{
	if (!s->lean)
		return 0;
	xasprintf(cause, "%s: %s: a lean entry (read without its findings) "
	    "cannot be written", st->where, s->path);
	return SR_IO;
}

int
store_count(struct store *st, struct store_counts *out, char **cause)
{
	memset(out, 0, sizeof *out);
	return st->ops->count(st, out, cause);
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

int
store_load_rejects(struct store *st, struct store_rejects *r, char **cause)
{
	return st->ops->load_rejects(st, r, cause);
}

int
store_changes(struct store *st, int64_t since, struct skill_set *up,
    struct strlist *removed, int64_t *counter, char **cause)
{
	const struct store_ops	*op = st->ops;
	int64_t			 floor;
	int			 rv;

	*counter = 0;
	if ((rv = op->begin_read(st, cause)) != 0)
		return rv;
	store_meta_int(st, "counter", counter);
	store_meta_int(st, "tomb_floor", &floor);
	if (since < 0)
		rv = op->load(st, up, 0, cause);
	/* Pruned past since, or a newer store than the one since is from. */
	else if (since < floor || since > *counter)
		rv = STORE_GAP;
	else if (since < *counter &&
	    (rv = op->since(st, since, up, cause)) == 0)
		rv = op->tombs(st, since, removed, cause);
	op->end_read(st);
	return rv;
}

int
store_meta_int(struct store *st, const char *key, int64_t *out)
{
	char	*v = st->ops->meta_get(st, key);

	*out = v != NULL ? strtoll(v, NULL, 10) : 0;
	free(v);
	return 0;
}

int
store_counter(struct store *st, int64_t *counter, char **cause)
{
	(void)cause;
	return store_meta_int(st, "counter", counter);
}

int
store_listen(struct store *st, char **cause)
{
	return st->ops->listen(st, cause);
}

int
store_wait(struct store *st, int timeout_ms, int wake_fd, char **cause)
{
	return st->ops->wait(st, timeout_ms, wake_fd, cause);
}

int
store_report(struct store *st, const char *name, int64_t counter,
    char **cause)
{
	return st->ops->report(st, name, counter, (int64_t)time(NULL), cause);
}

int
store_replicas(struct store *st, struct store_replica **v, size_t *n,
    char **cause)
{
	*v = NULL;
	*n = 0;
	return st->ops->replicas(st, v, n, cause);
}

void
store_replicas_free(struct store_replica *v, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		free(v[i].name);
	free(v);
}

char *
store_meta_get(struct store *st, const char *key)
{
	return st->ops->meta_get(st, key);
}

int
store_meta_set(struct store *st, const char *key, const char *value,
    char **cause)
{
	return st->ops->meta_set(st, key, value, cause);
}

/* ---- writing: only what changed ---------------------------------------- */

static int
cmp_old(const void *a, const void *b)
{
	return strcmp(((const struct store_old *)a)->path,
	    ((const struct store_old *)b)->path);
}

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

static int
put_meta_int(struct store *st, const char *key, int64_t v, char **cause)
{
	char	 num[24];

	snprintf(num, sizeof num, "%lld", (long long)v);
	return st->ops->meta_set(st, key, num, cause);
}

/*
 * Ends a write: a counter that moved (0: nothing changed) is stored and
 * announced, old tombstones are pruned, the digest is set, then commit.
 */
static int
finish_write(struct store *st, int64_t counter, const char *digest,
    char **cause)
{
	const struct store_ops	*op = st->ops;
	int64_t			 floor;
	int			 rv;

	if (counter > 0) {
		if ((rv = put_meta_int(st, "counter", counter, cause)) != 0)
			goto fail;
		floor = counter - st->tomb_versions;
		if (floor > 0 && ((rv = op->prune(st, floor, cause)) != 0 ||
		    (rv = put_meta_int(st, "tomb_floor", floor, cause)) != 0))
			goto fail;
	}
	if (digest != NULL &&
	    (rv = op->meta_set(st, "digest", digest, cause)) != 0)
		goto fail;
	return op->end_write(st, 1, counter, cause);
fail:
	op->end_write(st, 0, 0, NULL);
	return rv;
}

int
store_replace(struct store *st, const struct skill_set *set,
    const struct store_rejects *rej, const char *digest, char **cause)
{
	const struct store_ops	*op = st->ops;
	struct store_olds	 olds;
	struct store_old	 key, *o;
	struct store_row	 row;
	int64_t			 counter;
	size_t			 i, changed = 0;
	int			 rv;

	memset(&olds, 0, sizeof olds);
	if ((rv = op->begin_write(st, cause)) != 0)
		return rv;
	if ((rv = op->olds(st, &olds, cause)) != 0)
		goto fail;
	if (olds.n > 1)
		qsort(olds.v, olds.n, sizeof *olds.v, cmp_old);
	store_meta_int(st, "counter", &counter);
	counter++;
	for (i = 0; i < set->n; i++) {
		if ((rv = refuse_lean(st, set->v[i], cause)) != 0)
			goto fail;
		store_row_fill(&row, set->v[i]);
		key.path = set->v[i]->path;
		o = olds.n > 0 ? bsearch(&key, olds.v, olds.n, sizeof *olds.v,
		    cmp_old) : NULL;
		if (o != NULL && o->seen) {
			xasprintf(cause, "%s: %s: two entries with this path",
			    st->where, set->v[i]->path);
			store_row_done(&row);
			rv = SR_IO;
			goto fail;
		}
		if (o != NULL)
			o->seen = 1;
		if (o == NULL || strcmp(o->rowhash, row.rowhash) != 0) {
			rv = op->put(st, &row, counter, cause);
			changed++;
		}
		store_row_done(&row);
		if (rv != 0)
			goto fail;
	}
	for (i = 0; i < olds.n; i++) {
		if (olds.v[i].seen)
			continue;
		if ((rv = op->drop(st, olds.v[i].path, counter, cause)) != 0)
			goto fail;
		changed++;
	}
	if ((rv = op->put_rejects(st, rej, 1, cause)) != 0)
		goto fail;
	store_olds_done(&olds);
	return finish_write(st, changed > 0 ? counter : 0, digest, cause);
fail:
	store_olds_done(&olds);
	op->end_write(st, 0, 0, NULL);
	return rv;
}

int
store_update(struct store *st, const struct store_delta *d,
    const char *expect, const char *digest, int *stale, char **cause)
{
	const struct store_ops	*op = st->ops;
	struct store_row	 row;
	int64_t			 counter;
	char			*now;
	size_t			 i;
	int			 rv;

	*stale = 0;
	for (i = 0; i < d->nup; i++)
		if ((rv = refuse_lean(st, d->up[i], cause)) != 0)
			return rv;
	if ((rv = op->begin_write(st, cause)) != 0)
		return rv;
	if (expect != NULL) {
		now = op->meta_get(st, "digest");
		*stale = now == NULL || strcmp(now, expect) != 0;
		free(now);
		if (*stale)
			return op->end_write(st, 0, 0, cause);
	}
	store_meta_int(st, "counter", &counter);
	counter++;
	for (i = 0; i < d->ngone; i++)
		if ((rv = op->drop(st, d->gone[i], counter, cause)) != 0)
			goto fail;
	for (i = 0; i < d->nrej_gone; i++)
		if ((rv = op->drop_reject(st, d->rej_gone[i], cause)) != 0)
			goto fail;
	for (i = 0; i < d->nup; i++) {
		store_row_fill(&row, d->up[i]);
		rv = op->put(st, &row, counter, cause);
		store_row_done(&row);
		if (rv != 0)
			goto fail;
	}
	if (d->rej != NULL && (rv = op->put_rejects(st, d->rej, 0, cause)) != 0)
		goto fail;
	return finish_write(st, d->ngone + d->nup > 0 ? counter : 0, digest,
	    cause);
fail:
	op->end_write(st, 0, 0, NULL);
	return rv;
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

void
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
