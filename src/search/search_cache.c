/*
 * The on-disk cache of a built search index (search_cache.h): a header
 * with the cache key, then the index's flat arrays and postings, each
 * padded to 8 bytes, so a load maps the file and uses them in place.
 */
#include "autoconfig.h"

#include <sys/mman.h>
#include <sys/stat.h>

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "search/bm25.h"
#include "base/buf.h"
#include "core/config.h"
#include "search/embed.h"
#include "search/search.h"
#include "search/search_cache.h"
#include "search/search_impl.h"
#include "base/status.h"
#include "search/xlang.h"
#include "base/xmalloc.h"

#define CACHE_MAGIC	"srsearch"
#define CACHE_VERSION	6	/* 2: flat arrays, used in place; 3: raw vectors, tf;
				   4: centred norms; 5: store key, entries;
				   6: the entries' offsets, decoded lazily */
#define CACHE_HDR	6	/* key, ndocs, dim, total, store key, config key */
#define CACHE_MAX	((uint64_t)1 << 34)	/* a sanity cap */

/*
 * The cache key hashes every indexed text at each load, so it goes a
 * word at a time (multiply and fold); the length ends each field.
 */
static uint64_t
key_mix(uint64_t h, uint64_t w)
{
	h ^= w;
	h *= 0x9e3779b97f4a7c15ULL;
	return h ^ (h >> 29);
}

static void
key_bytes(uint64_t *h, const void *p, size_t n)
{
	const unsigned char	*c = p;
	uint64_t		 w;
	size_t			 i;

	for (i = 0; i + 8 <= n; i += 8) {
		memcpy(&w, c + i, 8);
		*h = key_mix(*h, w);
	}
	w = 0;
	if (n > i)
		memcpy(&w, c + i, n - i);
	*h = key_mix(*h, w ^ ((uint64_t)n << 56));
}

static void
key_str(uint64_t *h, const char *s)
{
	key_bytes(h, s, s != NULL ? strlen(s) + 1 : 0);
	*h = key_mix(*h, 0xff);
}

/*
 * What the index depends on: the format, the parameters, the embedder and
 * every indexed field of every entry, in set order (set NULL: all but the
 * entries, the config key of search_index_open()).
 */
static uint64_t
cache_key(const struct skill_set *set, const struct search_params *p,
    const struct embedder *e)
{
	uint64_t	 h = 0xcbf29ce484222325ULL, xs;
	size_t		 i, j;
	int		 v[4];

	v[0] = CACHE_VERSION;
	v[1] = (int)sizeof(struct doc);
	v[2] = (int)sizeof(struct bm25_posting);
	v[3] = e->dim;
	key_bytes(&h, v, sizeof(v));
	v[0] = BM25_CACHE_FORMAT;
	key_bytes(&h, v, sizeof(v[0]));
	key_bytes(&h, &p->k1, sizeof(p->k1));
	key_bytes(&h, p->w_field, sizeof(p->w_field));
	key_bytes(&h, p->b_field, sizeof(p->b_field));
	key_bytes(&h, &p->gram_k1, sizeof(p->gram_k1));
	key_bytes(&h, &p->gram_b, sizeof(p->gram_b));
	key_bytes(&h, &p->center, sizeof(p->center));
	v[0] = p->w_pfx > 0;
	key_bytes(&h, v, sizeof(v[0]));
	key_str(&h, e->name);
	/* the lexicon's and dictionaries' stamp: no need to load them */
	xs = xlang_default_stamp();
	v[0] = (int)(xs >> 32);
	v[1] = (int)(xs & 0xffffffffu);
	key_bytes(&h, v, 2 * sizeof(v[0]));
	for (i = 0; set != NULL && i < set->n; i++) {
		const struct skill *s = set->v[i];

		v[0] = (int)s->kind;
		v[1] = s->disable_model_invocation;
		v[2] = s->is_project;
		v[3] = s->shadowed_by != NULL;
		key_bytes(&h, v, sizeof(v));
		key_str(&h, s->name);
		key_str(&h, s->display);
		key_str(&h, s->path);
		key_str(&h, s->shadowed_by);
		key_str(&h, s->description);
		key_str(&h, s->when_to_use);
		for (j = 0; j < s->tags.n; j++)
			key_str(&h, s->tags.v[j]);
	}
	return h;
}

/* Appends n bytes and zeros up to a multiple of 8 (the arrays stay aligned). */
static void
put_padded(struct buf *b, const void *p, size_t n)
{
	static const char	 zero[8];

	if (n > 0)
		buf_add(b, p, n);
	if (n % 8 != 0)
		buf_add(b, zero, 8 - n % 8);
}

/* Borrows n bytes at r->off and skips them and their padding, or NULL. */
static const void *
take_padded(struct bm25_reader *r, size_t n)
{
	const void	*p = r->p + r->off;

	if (n > r->len - r->off || ((n + 7) & ~(size_t)7) > r->len - r->off)
		return NULL;
	r->off += (n + 7) & ~(size_t)7;
	return p;
}

/*
 * Maps path read-only; the pages come from the page cache when first
 * touched (a search touches few), so a load copies nothing. Writers
 * replace the file by rename (search_index_save()), never in place, so
 * the mapped inode stays whole. Returns 0, or -1 when there is no usable
 * file.
 */
static int
map_file(const char *path, void **map, size_t *len)
{
	struct stat	 sb;
	void		*p;
	int		 fd;

	*map = NULL;
	*len = 0;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return -1;
	if (fstat(fd, &sb) == -1 || !S_ISREG(sb.st_mode) || sb.st_size <= 0 ||
	    (uint64_t)sb.st_size > CACHE_MAX ||
	    (uint64_t)sb.st_size > SIZE_MAX) {
		close(fd);
		return -1;
	}
	p = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return -1;
	*map = p;
	*len = (size_t)sb.st_size;
	return 0;
}

/*
 * The entries section: for each doc, what a search answer shows of its
 * entry, as NUL-terminated strings: "kind project trust risk_sev flags
 * risk ntags nreq nfall" (flags: 1 display, 2 shadowed_by), uid, name,
 * [display], path, scope, description, when_to_use, [shadowed_by],
 * [signature], [signer] (flags 4 and 8), then the tags, requires_tools and fallback_for_tools.
 * The section is its length, the offset of each doc's strings (ndocs + 1
 * of them, the last the length), a hash of each doc's strings (ndocs),
 * then the strings: an entry is decoded alone, when a search needs it,
 * and checked against its hash then.
 */

static void
put_str(struct buf *b, const char *s)
{
	buf_add(b, s != NULL ? s : "", (s != NULL ? strlen(s) : 0) + 1);
}

static void
put_list(struct buf *b, const struct strlist *l)
{
	size_t	 i;

	for (i = 0; i < l->n; i++)
		put_str(b, l->v[i]);
}

static void
put_entries(struct buf *b, const struct search_index *x)
{
	struct buf	 e;
	uint64_t	 n, *off;
	uint32_t	 d;
	char		 head[160];

	buf_init(&e, 0);
	off = xreallocarray(NULL, 2 * (size_t)x->ndocs + 1, sizeof(*off));
	for (d = 0; d < x->ndocs; d++) {
		const struct skill *s = x->dsk[d];

		off[d] = e.len;
		snprintf(head, sizeof head, "%d %d %d %d %d %.17g %zu %zu %zu",
		    (int)s->kind, s->is_project, (int)s->trust, s->risk_sev,
		    (s->display != NULL ? E_DISPLAY : 0) |
		    (s->shadowed_by != NULL ? E_SHADOWED : 0) |
		    (s->signature != NULL ? E_SIGNATURE : 0) |
		    (s->signer != NULL ? E_SIGNER : 0), s->risk,
		    s->tags.n, s->requires_tools.n, s->fallback_for_tools.n);
		put_str(&e, head);
		put_str(&e, s->uid);
		put_str(&e, s->name);
		if (s->display != NULL)
			put_str(&e, s->display);
		put_str(&e, s->path);
		put_str(&e, s->scope);
		put_str(&e, s->description);
		put_str(&e, s->when_to_use);
		if (s->shadowed_by != NULL)
			put_str(&e, s->shadowed_by);
		if (s->signature != NULL)
			put_str(&e, s->signature);
		if (s->signer != NULL)
			put_str(&e, s->signer);
		put_list(&e, &s->tags);
		put_list(&e, &s->requires_tools);
		put_list(&e, &s->fallback_for_tools);
	}
	off[x->ndocs] = e.len;
	for (d = 0; d < x->ndocs; d++)
		off[x->ndocs + 1 + d] = search_lite_hash(e.p + off[d],
		    (size_t)(off[d + 1] - off[d]));
	n = e.len;
	buf_add(b, &n, sizeof(n));
	put_padded(b, off, (2 * (size_t)x->ndocs + 1) * sizeof(*off));
	put_padded(b, e.p, e.len);
	free(off);
	buf_done(&e);
}

int
search_index_save(const struct search_index *x, const char *path,
    uint64_t store_key, char **cause)
{
	struct buf	 b;
	char		*tmp = NULL;
	FILE		*fp = NULL;
	uint64_t	 v[CACHE_HDR];
	int		 rv = SR_IO;

	*cause = NULL;
	if (x->set == NULL) {
		xasprintf(cause, "%s: an index opened from its cache is not "
		    "saved", path);
		return SR_USAGE;
	}
	if (x->base != NULL) {
		xasprintf(cause, "%s: an incremental index is not saved "
		    "(build one)", path);
		return SR_USAGE;
	}
	buf_init(&b, 0);
	buf_add(&b, CACHE_MAGIC, 8);
	v[0] = cache_key(x->set, &x->p, x->emb);
	v[1] = x->ndocs;
	v[2] = (uint64_t)x->dim;
	v[3] = x->total;
	v[4] = store_key;
	v[5] = cache_key(NULL, &x->p, x->emb);
	buf_add(&b, v, sizeof(v));
	put_padded(&b, x->docs, (size_t)x->ndocs * sizeof(*x->docs));
	put_padded(&b, x->mean, (size_t)x->dim * sizeof(float));
	put_padded(&b, x->vec, (size_t)x->ndocs * x->dim * sizeof(float));
	if (x->norm == NULL || x->norm_center != x->p.center) {
		xasprintf(cause, "%s: the index has no norms", path);
		goto out;
	}
	put_padded(&b, x->norm, (size_t)x->ndocs * sizeof(double));
	if (bm25_write(x->bm, &b) != 0 || bm25_write(x->gram, &b) != 0 ||
	    (x->pfx != NULL && bm25_write(x->pfx, &b) != 0)) {
		xasprintf(cause, "%s: the index is not finished", path);
		goto out;
	}
	put_entries(&b, x);
	xasprintf(&tmp, "%s.%ld.tmp", path, (long)getpid());
	if ((fp = fopen(tmp, "wb")) == NULL ||
	    fwrite(b.p, 1, b.len, fp) != b.len || fclose(fp) != 0) {
		if (fp == NULL)
			xasprintf(cause, "%s: cannot write", tmp);
		else
			xasprintf(cause, "%s: write failed", tmp);
		fp = NULL;
		remove(tmp);
		goto out;
	}
	fp = NULL;
	if (rename(tmp, path) != 0) {
		xasprintf(cause, "%s: cannot rename to %s", tmp, path);
		remove(tmp);
		goto out;
	}
	rv = SR_OK;
out:
	free(tmp);
	buf_done(&b);
	return rv;
}

int
search_index_damaged(const struct search_index *x)
{
	return search_lite_damaged(&x->lite);
}

/*
 * Takes the entries section in place: the offsets are checked here (a
 * few bytes per doc), each entry when first decoded (search_lite.h):
 * nothing else is read until then. Returns 0, or -1 when the
 * section is damaged.
 */
static int
take_entries(struct search_index *x, struct bm25_reader *r)
{
	const uint64_t	*off;
	const char	*p;
	uint64_t	 n;

	if (r->len - r->off < sizeof(n))
		return -1;
	memcpy(&n, r->p + r->off, sizeof(n));
	r->off += sizeof(n);
	if ((off = take_padded(r, (2 * (size_t)x->ndocs + 1) *
	    sizeof(*off))) == NULL ||
	    n > r->len - r->off || (p = take_padded(r, (size_t)n)) == NULL)
		return -1;
	return search_lite_init(&x->lite, off, p, n, x->ndocs);
}

/*
 * The load shared by search_index_load() (set: the entries it must
 * match, by the full key) and search_index_open() (set NULL: the store
 * key and the config key, and the entries from the file).
 */
static int
load(const struct skill_set *set, uint64_t store_key,
    const struct config *cfg, const char *path, struct search_index **out,
    char **cause)
{
	struct search_index	*x = NULL;
	struct bm25_reader	 r;
	void			*map;
	size_t			 len;
	uint64_t		 v[CACHE_HDR];
	uint32_t		 d;
	int			 rv;

	*out = NULL;
	*cause = NULL;
	if (map_file(path, &map, &len) != 0) {
		xasprintf(cause, "%s: no search cache", path);
		return SR_NOTFOUND;
	}
	x = xcalloc(1, sizeof(*x));
	x->set = set;
	x->map = map;
	x->maplen = len;
	search_params_default(&x->p);
	x->miss_threshold = cfg != NULL ? cfg->miss_threshold : 0.4;
	x->project_boost = cfg != NULL ? cfg->project_boost : 0.0;
	if ((rv = search_open_embedder(x, cfg, cause)) != SR_OK) {
		search_index_free(x);
		return rv;
	}
	r.p = map;
	r.len = len;
	r.off = 8 + sizeof(v);
	if (len < r.off || memcmp(map, CACHE_MAGIC, 8) != 0)
		goto stale;
	memcpy(v, r.p + 8, sizeof(v));
	if (v[2] != (uint64_t)x->dim || v[3] > v[1] || v[1] > UINT32_MAX ||
	    v[5] != cache_key(NULL, &x->p, x->emb))
		goto stale;
	if (set != NULL && (v[0] != cache_key(set, &x->p, x->emb) ||
	    v[1] > set->n))
		goto stale;
	if (set == NULL && (store_key == 0 || v[4] != store_key))
		goto stale;
	x->store_key = v[4];
	x->ndocs = (uint32_t)v[1];
	x->total = v[3];
	if ((x->docs = take_padded(&r, (size_t)x->ndocs *
	    sizeof(*x->docs))) == NULL ||
	    (x->mean = take_padded(&r, (size_t)x->dim *
	    sizeof(float))) == NULL ||
	    (x->vec = take_padded(&r, (size_t)x->ndocs * x->dim *
	    sizeof(float))) == NULL ||
	    (x->norm = take_padded(&r, (size_t)x->ndocs *
	    sizeof(double))) == NULL)
		goto stale;
	x->norm_center = x->p.center;
	for (d = 0; d < x->ndocs; d++)
		if ((set != NULL && x->docs[d].skill >= set->n) ||
		    (x->docs[d].winner >= 0 &&
		    (uint32_t)x->docs[d].winner >= x->ndocs) || x->docs[d].dead)
			goto stale;
	if (set != NULL) {
		x->dsk = xreallocarray(NULL, x->ndocs ? x->ndocs : 1,
		    sizeof(*x->dsk));
		for (d = 0; d < x->ndocs; d++)
			x->dsk[d] = set->v[x->docs[d].skill];
	}
	x->nbase = x->nlive = x->ndocs;
	if ((x->bm = bm25_read(&r)) == NULL ||
	    (x->gram = bm25_read(&r)) == NULL ||
	    bm25_ndocs(x->bm) != x->ndocs || bm25_ndocs(x->gram) != x->ndocs)
		goto stale;
	if (x->p.w_pfx > 0 && ((x->pfx = bm25_read(&r)) == NULL ||
	    bm25_ndocs(x->pfx) != x->ndocs))
		goto stale;
	if (set == NULL && take_entries(x, &r) != 0)
		goto stale;
	*out = x;
	return SR_OK;
stale:
	search_index_free(x);
	xasprintf(cause, "%s: stale or damaged search cache", path);
	return SR_NOTFOUND;
}

int
search_index_load(const struct skill_set *set, const struct config *cfg,
    const char *path, struct search_index **out, char **cause)
{
	return load(set, 0, cfg, path, out, cause);
}

int
search_index_open(uint64_t store_key, const struct config *cfg,
    const char *path, struct search_index **out, char **cause)
{
	return load(NULL, store_key, cfg, path, out, cause);
}

uint64_t
search_index_store_key(const struct search_index *x)
{
	return x->store_key;
}

uint64_t
search_store_key(const char *counter, const char *digest)
{
	uint64_t	 h = 0xcbf29ce484222325ULL;

	if (counter == NULL || digest == NULL)
		return 0;
	key_str(&h, counter);
	key_str(&h, digest);
	return h != 0 ? h : 1;
}
