/*
 * The remote embedders' shared part (embed_remote.h): a backend's batch
 * call behind a persistent vector cache (skill texts) and an in-memory
 * LRU (queries).
 */
#include "autoconfig.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "base/buf.h"
#include "core/config.h"
#include "search/embedder.h"
#include "search/embed_remote.h"
#include "base/lru.h"
#include "base/sha256.h"
#include "base/status.h"
#include "base/xmalloc.h"

#define PROBE_TEXT	"skills-radar: dimension probe"

struct oemb {
	char		*name;		/* "KIND:<model>" */
	char		*model;
	struct remote_api api;
	size_t		 batch;
	sqlite3		*db;		/* NULL: no disk cache */
	pthread_mutex_t	 lock;		/* db */
	struct lru	*queries;
};

static const char schema[] =
    "CREATE TABLE IF NOT EXISTS vectors ("
    " model TEXT NOT NULL, dim INTEGER NOT NULL, hash TEXT NOT NULL,"
    " v BLOB NOT NULL, PRIMARY KEY (model, dim, hash))";

/* The vector cache's path for cfg and kind (allocated). */
static char *
embed_remote_cache_path(const struct config *cfg, const char *kind)
{
	const char	*ip = cfg->index_path != NULL ? cfg->index_path : "";
	const char	*slash = strrchr(ip, '/');
	char		*p;

	if (slash == NULL)
		xasprintf(&p, "%s-vectors.db", kind);
	else
		xasprintf(&p, "%.*s/%s-vectors.db", (int)(slash - ip), ip,
		    kind);
	return p;
}

/* Opens (creating) the cache; a failure leaves o->db NULL. */
static void
cache_open(struct oemb *o, const struct config *cfg)
{
	char	*path = embed_remote_cache_path(cfg, o->api.kind);

	buf_mkparents(path, 0700);
	if (sqlite3_open_v2(path, &o->db, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK ||
	    sqlite3_exec(o->db, schema, NULL, NULL, NULL) != SQLITE_OK) {
		sqlite3_close(o->db);
		o->db = NULL;
	} else
		sqlite3_busy_timeout(o->db, 5000);
	free(path);
}

/*
 * Reads the cached vector of text for the model at dim (dim 0: any
 * dimension, which is then set). Returns 1 on a hit.
 */
static int
cache_get(struct oemb *o, const char *text, int *dim, float *out)
{
	sqlite3_stmt	*st = NULL;
	char		 hex[SHA256_HEX_LEN + 1];
	int		 hit = 0, n;

	if (o->db == NULL)
		return 0;
	sha256_hex(text, strlen(text), hex);
	pthread_mutex_lock(&o->lock);
	if (sqlite3_prepare_v2(o->db, *dim != 0 ?
	    "SELECT dim, v FROM vectors WHERE model = ?1 AND hash = ?2 AND "
	    "dim = ?3" : "SELECT dim, v FROM vectors WHERE model = ?1 AND "
	    "hash = ?2 ORDER BY rowid DESC LIMIT 1", -1, &st, NULL) !=
	    SQLITE_OK)
		goto out;
	sqlite3_bind_text(st, 1, o->model, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, hex, -1, SQLITE_STATIC);
	if (*dim != 0)
		sqlite3_bind_int(st, 3, *dim);
	if (sqlite3_step(st) == SQLITE_ROW) {
		n = sqlite3_column_int(st, 0);
		if (n >= EMBED_DIM_MIN && n <= EMBED_DIM_MAX &&
		    sqlite3_column_bytes(st, 1) == n * (int)sizeof(float) &&
		    (out != NULL || *dim == 0)) {
			if (out != NULL)
				memcpy(out, sqlite3_column_blob(st, 1),
				    (size_t)n * sizeof(float));
			*dim = n;
			hit = 1;
		}
	}
out:
	sqlite3_finalize(st);
	pthread_mutex_unlock(&o->lock);
	return hit;
}

/* Stores n vectors of dim floats; failures only cost a later re-embed. */
static void
cache_put(struct oemb *o, const char *const *texts, size_t n, int dim,
    const float *v)
{
	sqlite3_stmt	*st = NULL;
	char		 hex[SHA256_HEX_LEN + 1];
	size_t		 i;

	if (o->db == NULL)
		return;
	pthread_mutex_lock(&o->lock);
	sqlite3_exec(o->db, "BEGIN", NULL, NULL, NULL);
	if (sqlite3_prepare_v2(o->db, "INSERT OR REPLACE INTO vectors "
	    "(model, dim, hash, v) VALUES (?1, ?2, ?3, ?4)", -1, &st,
	    NULL) == SQLITE_OK)
		for (i = 0; i < n; i++) {
			sha256_hex(texts[i], strlen(texts[i]), hex);
			sqlite3_bind_text(st, 1, o->model, -1, SQLITE_STATIC);
			sqlite3_bind_int(st, 2, dim);
			sqlite3_bind_text(st, 3, hex, -1, SQLITE_STATIC);
			sqlite3_bind_blob(st, 4, v + i * (size_t)dim,
			    dim * (int)sizeof(float), SQLITE_STATIC);
			sqlite3_step(st);
			sqlite3_reset(st);
		}
	sqlite3_finalize(st);
	sqlite3_exec(o->db, "COMMIT", NULL, NULL, NULL);
	pthread_mutex_unlock(&o->lock);
}

/* One backend call for n texts of the embedder's dimension. */
static int
fetch(struct embedder *e, const char *const *texts, size_t n, int query,
    float *out, char **cause)
{
	struct oemb	*o = e->priv;
	float		*v;
	size_t		 i;
	int		 dim, rv;

	if ((rv = o->api.fetch(o->api.arg, texts, n, query, &v, &dim,
	    cause)) != SR_OK)
		return rv;
	if (dim != e->dim) {
		xasprintf(cause, "%s embedder: model %s answered vectors of "
		    "dimension %d, not %d", o->api.kind, o->model, dim, e->dim);
		free(v);
		return SR_IO;
	}
	for (i = 0; i < n; i++)
		embedder_normalize(v + i * (size_t)dim, dim);
	memcpy(out, v, n * (size_t)dim * sizeof(float));
	free(v);
	return SR_OK;
}

static int
oemb_embed(struct embedder *e, const char *const *texts, size_t n,
    float *out, char **cause)
{
	struct oemb	 *o = e->priv;
	const char	**miss;
	size_t		 *at, nmiss = 0, i, j, k;
	float		 *buf;
	int		  dim, rv = SR_OK;

	*cause = NULL;
	miss = xreallocarray(NULL, n ? n : 1, sizeof(*miss));
	at = xreallocarray(NULL, n ? n : 1, sizeof(*at));
	for (i = 0; i < n; i++) {
		dim = e->dim;
		if (!cache_get(o, texts[i], &dim, out + i * (size_t)e->dim)) {
			miss[nmiss] = texts[i];
			at[nmiss++] = i;
		}
	}
	buf = xreallocarray(NULL, o->batch, (size_t)e->dim * sizeof(float));
	for (j = 0; j < nmiss && rv == SR_OK; j += o->batch) {
		k = nmiss - j < o->batch ? nmiss - j : o->batch;
		if ((rv = fetch(e, miss + j, k, 0, buf, cause)) != SR_OK)
			break;
		cache_put(o, miss + j, k, e->dim, buf);
		for (i = 0; i < k; i++)
			memcpy(out + at[j + i] * (size_t)e->dim,
			    buf + i * (size_t)e->dim,
			    (size_t)e->dim * sizeof(float));
	}
	free(buf);
	free(miss);
	free(at);
	return rv;
}

static int
oemb_embed_query(struct embedder *e, const char *const *texts, size_t n,
    float *out, char **cause)
{
	struct oemb	*o = e->priv;
	char		*key, *val;
	size_t		 i, len;
	int		 rv;

	*cause = NULL;
	for (i = 0; i < n; i++) {
		float	*v = out + i * (size_t)e->dim;

		key = lru_key(o->model, texts[i]);
		if (lru_get(o->queries, key, &val, &len)) {
			if (len == (size_t)e->dim * sizeof(float)) {
				memcpy(v, val, len);
				free(val);
				free(key);
				continue;
			}
			free(val);
		}
		if ((rv = fetch(e, texts + i, 1, 1, v, cause)) != SR_OK) {
			free(key);
			return rv;
		}
		lru_put(o->queries, key, v, (size_t)e->dim * sizeof(float));
		free(key);
	}
	return SR_OK;
}

static void
oemb_free(struct embedder *e)
{
	struct oemb	*o = e->priv;

	if (o->db != NULL)
		sqlite3_close(o->db);
	pthread_mutex_destroy(&o->lock);
	lru_free(o->queries);
	if (o->api.free_arg != NULL)
		o->api.free_arg(o->api.arg);
	free(o->name);
	free(o->model);
	free(o);
	free(e);
}

int
embed_remote_new(const struct config *cfg, const char *name,
    const char *model, const struct remote_api *api, struct embedder **out,
    char **cause)
{
	struct embedder	*e;
	struct oemb	*o;
	const char	*probe = PROBE_TEXT;
	float		*v;
	int		 dim = 0, rv;

	*out = NULL;
	*cause = NULL;
	o = xcalloc(1, sizeof(*o));
	pthread_mutex_init(&o->lock, NULL);
	o->api = *api;
	o->model = xstrdup(model);
	o->name = xstrdup(name);
	o->batch = cfg->embed_batch > 0 ? (size_t)cfg->embed_batch : 64;
	o->queries = lru_new(cfg->embed_cache > 0 ?
	    (size_t)cfg->embed_cache : 0);
	cache_open(o, cfg);
	e = xcalloc(1, sizeof(*e));
	e->name = o->name;
	e->embed = oemb_embed;
	e->embed_query = oemb_embed_query;
	e->free = oemb_free;
	e->priv = o;
	if (!cache_get(o, probe, &dim, NULL)) {
		char	*c2 = NULL;

		if ((rv = o->api.fetch(o->api.arg, &probe, 1, 0, &v, &dim,
		    &c2)) != SR_OK) {
			xasprintf(cause, "%s embedder: %s", api->kind, c2);
			free(c2);
			oemb_free(e);
			return rv;
		}
		if (dim < EMBED_DIM_MIN || dim > EMBED_DIM_MAX) {
			xasprintf(cause, "%s embedder: model %s has "
			    "dimension %d, outside %d..%d", api->kind, model,
			    dim, EMBED_DIM_MIN, EMBED_DIM_MAX);
			free(v);
			oemb_free(e);
			return SR_IO;
		}
		embedder_normalize(v, dim);
		cache_put(o, &probe, 1, dim, v);
		free(v);
	}
	e->dim = dim;
	*out = e;
	return SR_OK;
}
