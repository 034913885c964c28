/*
 * The store interface (store.h): backend choice, the dispatch to the
 * backend's ops, and the diff every store_replace() writes. What both
 * backends share lies beneath them, in store_base.c.
 */
#include "autoconfig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/buf.h"
#include "core/config.h"
#include "base/status.h"
#include "store/store.h"
#include "store/store_backend.h"
#include "base/xmalloc.h"

static int	 store_meta_int(struct store *, const char *key, int64_t *out);

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

static int
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
