/*
 * Learning from use: the usage boost and learned query words (usage.h).
 */
#include "autoconfig.h"

#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/buf.h"
#include "base/clock.h"
#include "core/config.h"
#include "base/idset.h"
#include "search/search.h"
#include "telemetry/sqlq.h"
#include "base/status.h"
#include "telemetry/telemetry.h"
#include "base/text.h"
#include "telemetry/usage.h"
#include "base/xmalloc.h"

#define USAGE_ROWS	20000	/* rows read per statement and step */
#define USAGE_TERMS	64	/* distinct words of a query looked up */
#define USAGE_SAT	1.0	/* learned weight w counts w / (w + USAGE_SAT) */
#define USAGE_FLOOR	0.1	/* decay floor of a load count (Claude Code) */
#define USAGE_ADD	5	/* skills added by learned words alone, at most */
#define DAY		86400.0

/* A word learned for a skill: its weight at the model's epoch. */
struct ulearn {
	uint32_t	 term;
	double		 w;
};

struct uskill {
	char		*uid;
	double		 loads;		/* found loads since the reset */
	double		 last;		/* unix time of the latest */
	struct ulearn	*lt;
	size_t		 nlt, caplt;
};

/* A posting of the compiled word index: skill, weight at the epoch. */
struct upost {
	uint32_t	 skill;
	double		 w;
};

struct uterm {
	char		*s;
	struct upost	*post;		/* compiled: skills holding the word */
	size_t		 npost;
};

/* Open addressing from a string to an index into an array of names. */
struct umap {
	uint32_t	*slot;		/* index + 1, 0: empty */
	size_t		 cap, n;
};

struct usage {
	const struct config	*cfg;
	pthread_mutex_t		 mu;
	struct sqlq		*db;
	double			 next;		/* next refresh, unix time */
	double			 reset;		/* meta.learn_reset */
	double			 epoch;		/* weights are relative to it */
	long long		 last_load, last_conv;	/* ids read */
	int			 conv_last;	/* conv has last_id (version 3) */
	struct uskill		*sk;
	size_t			 nsk, capsk;
	struct umap		 skmap;
	struct uterm		*tm;
	size_t			 ntm, captm;
	struct umap		 tmmap;
	struct idset		 seen;		/* (session, skill << 32 | term) */
	double			 max_use;	/* largest decayed count */
	int			 dirty;		/* compile before the next lookup */
	struct text_ctx		*tc;		/* used under mu */
};

static uint64_t
hash_str(const char *s)
{
	uint64_t	 h = 1469598103934665603ULL;

	for (; *s != '\0'; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

/*
 * The index of key in map, or -1; with add, a missing key is added as
 * index n (the caller appends it). names is the array of elements of
 * size elt whose first member is the key string.
 */
#define UKEY(base, elt, i) \
	(*(char *const *)((const char *)(base) + (size_t)(i) * (elt)))

static long
umap_find(struct umap *m, const char *key, const void *names, size_t elt,
    int add, size_t n)
{
	size_t		 i, cap, j;
	uint32_t	*old, v;
	const char	*k;

	if (m->cap == 0 && !add)
		return -1;
	if (m->cap == 0 || (add && 2 * (m->n + 1) > m->cap)) {
		old = m->slot;
		cap = m->cap;
		m->cap = cap ? 2 * cap : 64;
		m->slot = xcalloc(m->cap, sizeof(*m->slot));
		for (j = 0; j < cap; j++) {
			if ((v = old[j]) == 0)
				continue;
			k = UKEY(names, elt, v - 1);
			for (i = hash_str(k) & (m->cap - 1); m->slot[i] != 0;
			    i = (i + 1) & (m->cap - 1))
				;
			m->slot[i] = v;
		}
		free(old);
	}
	for (i = hash_str(key) & (m->cap - 1); (v = m->slot[i]) != 0;
	    i = (i + 1) & (m->cap - 1)) {
		k = UKEY(names, elt, v - 1);
		if (strcmp(k, key) == 0)
			return (long)(v - 1);
	}
	if (!add)
		return -1;
	m->slot[i] = (uint32_t)n + 1;
	m->n++;
	return (long)n;
}

/*
 * The index of key in the array *arr of *n elements of size elt whose
 * first member is the key string, appending a zeroed element with a copy
 * of key when missing (which may move *arr).
 */
static uint32_t
intern(struct umap *m, void **arr, size_t *n, size_t *cap, size_t elt,
    const char *key)
{
	long	 i;
	char	*e;

	i = umap_find(m, key, *arr, elt, 1, *n);
	if ((size_t)i == *n) {
		if (*n == *cap) {
			*cap = *cap ? 2 * *cap : 64;
			*arr = xreallocarray(*arr, *cap, elt);
		}
		e = (char *)*arr + *n * elt;
		memset(e, 0, elt);
		*(char **)e = xstrdup(key);
		(*n)++;
	}
	return (uint32_t)i;
}

static uint32_t
skill_id(struct usage *u, const char *uid)
{
	void		*a = u->sk;
	uint32_t	 i;

	i = intern(&u->skmap, &a, &u->nsk, &u->capsk, sizeof(*u->sk), uid);
	u->sk = a;
	return i;
}

static uint32_t
term_id(struct usage *u, const char *t)
{
	void		*a = u->tm;
	uint32_t	 i;

	i = intern(&u->tmmap, &a, &u->ntm, &u->captm, sizeof(*u->tm), t);
	u->tm = a;
	return i;
}

struct usage *
usage_new(const struct config *cfg)
{
	struct usage	*u;

	if (!cfg->telemetry_enabled || (cfg->usage_boost <= 0 &&
	    (!cfg->learn_enabled || cfg->learn_weight <= 0)))
		return NULL;
	u = xcalloc(1, sizeof(*u));
	u->cfg = cfg;
	pthread_mutex_init(&u->mu, NULL);
	return u;
}

/* Forgets everything learned (a reset, or a database that went away). */
static void
forget(struct usage *u)
{
	size_t	 i;

	for (i = 0; i < u->nsk; i++) {
		free(u->sk[i].uid);
		free(u->sk[i].lt);
	}
	for (i = 0; i < u->ntm; i++) {
		free(u->tm[i].s);
		free(u->tm[i].post);
	}
	free(u->sk);
	free(u->tm);
	free(u->skmap.slot);
	free(u->tmmap.slot);
	idset_done(&u->seen);
	u->sk = NULL;
	u->tm = NULL;
	u->nsk = u->capsk = u->ntm = u->captm = 0;
	memset(&u->skmap, 0, sizeof(u->skmap));
	memset(&u->tmmap, 0, sizeof(u->tmmap));
	u->last_load = u->last_conv = 0;
	u->max_use = 0;
	u->dirty = 0;
}

void
usage_free(struct usage *u)
{
	if (u == NULL)
		return;
	forget(u);
	sqlq_close(u->db);
	text_ctx_free(u->tc);
	pthread_mutex_destroy(&u->mu);
	free(u);
}

static int
open_db(struct usage *u)
{
	const struct config	*cfg = u->cfg;
	char			*cause = NULL;
	int			 rv;

	if (u->db != NULL)
		return 0;
	if (cfg->telemetry_backend == TELEMETRY_BACKEND_POSTGRES)
		rv = sqlq_open_pg(cfg->telemetry_dsn, &u->db, &cause);
	else
		rv = sqlq_open_sqlite(cfg->telemetry_path, &u->db, &cause);
	free(cause);	/* nothing recorded yet is not an error */
	if (rv == 0 && (!sqlq_has_table(u->db, "events") ||
	    !sqlq_has_table(u->db, "conv") || !sqlq_has_table(u->db, "meta"))) {
		sqlq_close(u->db);
		u->db = NULL;
		rv = -1;
	}
	if (rv == 0)
		u->conv_last = sqlq_has_column(u->db, "conv", "last_id");
	return rv == 0 ? 0 : -1;
}

/* meta.learn_reset, 0 when never reset; -1 on a read error. */
static double
read_reset(struct usage *u)
{
	struct sqlq_stmt	*st;
	double			 v = 0;
	int			 r;

	if (sqlq_prepare(u->db, "SELECT value FROM meta WHERE key = "
	    "'learn_reset'", &st) != 0)
		return -1;
	if ((r = sqlq_step(st)) == SQLQ_ROW && sqlq_text(st, 0) != NULL)
		v = strtod(sqlq_text(st, 0), NULL);
	sqlq_finalize(st);
	return r == SQLQ_ERROR ? -1 : v;
}

/* The largest event id, 0 when none; -1 on a read error. */
static long long
read_max_id(struct usage *u)
{
	struct sqlq_stmt	*st;
	long long		 v = 0;
	int			 r;

	if (sqlq_prepare(u->db, "SELECT max(id) FROM events", &st) != 0)
		return -1;
	if ((r = sqlq_step(st)) == SQLQ_ROW)
		v = sqlq_int64(st, 0);
	sqlq_finalize(st);
	return r == SQLQ_ERROR ? -1 : v;
}

static double
decay(double age, double half_life_days)
{
	return pow(0.5, age / (half_life_days * DAY));
}

/*
 * The found loads after last_load, counted per skill by the database (a
 * covering index: cheap however long the log). 0, or -1 on an error.
 */
static int
read_loads(struct usage *u)
{
	struct sqlq_stmt	*st;
	struct uskill		*s;
	uint32_t		 id;
	long long		 last = u->last_load;
	int			 r;

	if (sqlq_prepare(u->db, "SELECT skill, count(*), max(ts), max(id) "
	    "FROM events WHERE kind = 'load' AND found = 1 AND id > ?1 AND "
	    "ts > ?2 AND skill IS NOT NULL GROUP BY skill", &st) != 0)
		return -1;
	sqlq_bind_int64(st, 1, u->last_load);
	sqlq_bind_double(st, 2, u->reset);
	while ((r = sqlq_step(st)) == SQLQ_ROW) {
		id = skill_id(u, sqlq_text(st, 0));	/* may move u->sk */
		s = &u->sk[id];
		s->loads += (double)sqlq_int64(st, 1);
		if (sqlq_double(st, 2) > s->last)
			s->last = sqlq_double(st, 2);
		if (sqlq_int64(st, 3) > last)
			last = sqlq_int64(st, 3);
	}
	sqlq_finalize(st);
	u->last_load = last;
	return r == SQLQ_ERROR ? -1 : 0;
}

/* Adds weight w of word t to skill s (once per session: the caller). */
static void
learn_term(struct usage *u, uint32_t s, uint32_t t, double w)
{
	struct uskill	*k = &u->sk[s];
	size_t		 i;

	for (i = 0; i < k->nlt; i++)
		if (k->lt[i].term == t) {
			k->lt[i].w += w;
			return;
		}
	if (k->nlt == k->caplt) {
		k->caplt = k->caplt ? 2 * k->caplt : 8;
		k->lt = xreallocarray(k->lt, k->caplt, sizeof(*k->lt));
	}
	k->lt[k->nlt].term = t;
	k->lt[k->nlt++].w = w;
}

/* The distinct index words of a query (stemmed, no stop-words). */
static void
query_terms(struct usage *u, const char *q, struct strlist *out)
{
	struct strlist	 all;
	size_t		 i;

	strlist_init(out);
	strlist_init(&all);
	if (u->tc == NULL)
		u->tc = text_ctx_new();
	text_tokenize(u->tc, q, TEXT_INDEX, &all, 4 * USAGE_TERMS);
	for (i = 0; i < all.n && out->n < USAGE_TERMS; i++)
		strlist_add_unique(out, all.v[i], 0);
	strlist_done(&all);
}

/*
 * Search-then-load pairs after last_conv: each load with the latest
 * search of its session (last_id: the words the user typed before
 * choosing the skill, returned or not); returns rows read or -1.
 */
static long
read_pairs(struct usage *u)
{
	const struct config	*cfg = u->cfg;
	struct sqlq_stmt	*st;
	struct strlist		 terms;
	const char		*q, *sess;
	uint64_t		 sh;
	uint32_t		 s, t;
	double			 w;
	size_t			 i;
	long			 n = 0;
	int			 r;

	if (sqlq_prepare(u->db, u->conv_last ?
	    "SELECT c.load_id, c.ts, c.skill, e.session,"
	    " e.query FROM conv AS c JOIN events AS e ON e.id = c.last_id"
	    " WHERE c.load_id > ?1 AND c.last_dt <= ?2 AND c.ts > ?3 AND"
	    " c.skill IS NOT NULL ORDER BY c.load_id LIMIT ?4" :
	    "SELECT c.load_id, c.ts, c.skill, e.session,"
	    " e.query FROM conv AS c JOIN events AS e ON e.id = c.search_id"
	    " WHERE c.load_id > ?1 AND c.dt <= ?2 AND c.ts > ?3 AND"
	    " c.skill IS NOT NULL ORDER BY c.load_id LIMIT ?4", &st) != 0)
		return -1;
	sqlq_bind_int64(st, 1, u->last_conv);
	sqlq_bind_double(st, 2, (double)cfg->learn_window);
	sqlq_bind_double(st, 3, u->reset);
	sqlq_bind_int64(st, 4, USAGE_ROWS);
	while ((r = sqlq_step(st)) == SQLQ_ROW) {
		u->last_conv = sqlq_int64(st, 0);
		n++;
		q = sqlq_text(st, 4);
		sess = sqlq_text(st, 3);
		/* a hashed query ("hmac:...") has no words to learn */
		if (q == NULL || sess == NULL || strncmp(q, "hmac:", 5) == 0)
			continue;
		sh = hash_str(sess);
		s = skill_id(u, sqlq_text(st, 2));
		w = decay(u->epoch - sqlq_double(st, 1),
		    cfg->learn_half_life);
		query_terms(u, q, &terms);
		for (i = 0; i < terms.n; i++) {
			t = term_id(u, terms.v[i]);
			if (idset_add(&u->seen, sh, (uint64_t)s << 32 | t))
				learn_term(u, s, t, w);
		}
		strlist_done(&terms);
		u->dirty = 1;
	}
	sqlq_finalize(st);
	return r == SQLQ_ERROR ? -1 : n;
}

static int
ulearn_cmp(const void *a, const void *b)
{
	const struct ulearn *x = a, *y = b;

	if (x->w != y->w)
		return x->w < y->w ? 1 : -1;
	return x->term < y->term ? -1 : x->term > y->term;
}

/*
 * Keeps each skill's heaviest max_terms words (decay is the same for
 * all, so the order at the epoch is the order now) and rebuilds the
 * postings from word to skills.
 */
static void
compile(struct usage *u)
{
	size_t		 i, j, max = (size_t)u->cfg->learn_max_terms;
	struct uterm	*t;

	for (i = 0; i < u->ntm; i++) {
		free(u->tm[i].post);
		u->tm[i].post = NULL;
		u->tm[i].npost = 0;
	}
	for (i = 0; i < u->nsk; i++) {
		struct uskill *k = &u->sk[i];

		if (k->nlt > 1)
			qsort(k->lt, k->nlt, sizeof(*k->lt), ulearn_cmp);
		if (k->nlt > max)
			k->nlt = max;
		for (j = 0; j < k->nlt; j++) {
			t = &u->tm[k->lt[j].term];
			t->post = xreallocarray(t->post, t->npost + 1,
			    sizeof(*t->post));
			t->post[t->npost].skill = (uint32_t)i;
			t->post[t->npost++].w = k->lt[j].w;
		}
	}
	u->dirty = 0;
}

/* The largest decayed load count now (Claude Code's listing rank). */
static double
use_count(const struct usage *u, const struct uskill *s, double now)
{
	double	 d;

	if (s->loads <= 0)
		return 0;
	d = decay(now - s->last, u->cfg->usage_half_life);
	return s->loads * (d > USAGE_FLOOR ? d : USAGE_FLOOR);
}

static int
has_any(const struct usage *u)
{
	size_t	 i;

	for (i = 0; i < u->nsk; i++)
		if (u->sk[i].loads > 0 || u->sk[i].nlt > 0)
			return 1;
	return 0;
}

int
usage_refresh(struct usage *u, double now, int force)
{
	const struct config	*cfg;
	double			 reset;
	long			 n;
	size_t			 i;
	int			 rv;

	if (u == NULL)
		return 0;
	cfg = u->cfg;
	pthread_mutex_lock(&u->mu);
	if (!force && now < u->next)
		goto done;
	u->next = now + USAGE_REFRESH_SEC;
	if (u->epoch == 0)
		u->epoch = now;
	if (open_db(u) != 0)
		goto done;
	if ((reset = read_reset(u)) < 0) {
		/* the database went away or was replaced: read it anew */
		sqlq_close(u->db);
		u->db = NULL;
		goto done;
	}
	/* reset, or a new database in its place (its ids start again) */
	if (reset != u->reset || read_max_id(u) < (u->last_load >
	    u->last_conv ? u->last_load : u->last_conv)) {
		forget(u);
		u->reset = reset;
	}
	if (sqlq_begin_read(u->db) != 0) {
		sqlq_close(u->db);
		u->db = NULL;
		goto done;
	}
	if (cfg->usage_boost > 0)
		read_loads(u);
	if (cfg->learn_enabled && cfg->learn_weight > 0)
		while ((n = read_pairs(u)) == USAGE_ROWS)
			;
	sqlq_end_read(u->db);
	/*
	 * Closed between refreshes: a reader left open would outlive the
	 * telemetry writer at exit and keep stats.db's -wal and -shm.
	 */
	sqlq_close(u->db);
	u->db = NULL;
	u->max_use = 0;
	for (i = 0; i < u->nsk; i++)
		if (use_count(u, &u->sk[i], now) > u->max_use)
			u->max_use = use_count(u, &u->sk[i], now);
done:
	if (u->dirty)
		compile(u);
	rv = has_any(u);
	pthread_mutex_unlock(&u->mu);
	return rv;
}

/* Per-query state: each skill's learned evidence and its matched words. */
struct uq {
	double		*ev;		/* [nsk], 0: none */
	uint32_t	*hit;		/* skills with evidence */
	size_t		 nhit;
	uint32_t	 terms[USAGE_TERMS];	/* learned word ids of the query */
	double		 idf[USAGE_TERMS];
	size_t		 nterms;
};

/*
 * Learned evidence: sum over the query's words learned for s of
 * idf * w / (w + USAGE_SAT), over the idf of all the query's words (a
 * word learned for no skill counts with the largest idf). idf is over
 * the skills that learned anything: a word learned for many says little.
 */
static void
evidence(struct usage *u, const char *query, double now, struct uq *q)
{
	struct strlist	 terms;
	const struct uterm *t;
	double		 nsk = 0, idf, sum = 0, dk, w;
	size_t		 i, j;
	long		 id;

	memset(q, 0, sizeof(*q));
	for (i = 0; i < u->nsk; i++)
		nsk += u->sk[i].nlt > 0;
	if (nsk == 0)
		return;
	q->ev = xcalloc(u->nsk, sizeof(*q->ev));
	q->hit = xcalloc(u->nsk, sizeof(*q->hit));
	dk = decay(now - u->epoch, u->cfg->learn_half_life);
	query_terms(u, query, &terms);
	for (i = 0; i < terms.n; i++) {
		id = umap_find(&u->tmmap, terms.v[i], u->tm,
		    sizeof(*u->tm), 0, u->ntm);
		t = id >= 0 ? &u->tm[id] : NULL;
		if (t == NULL || t->npost == 0) {
			sum += log(1 + nsk);
			continue;
		}
		idf = log(1 + nsk / (double)t->npost);
		sum += idf;
		q->terms[q->nterms] = (uint32_t)id;
		q->idf[q->nterms++] = idf;
		for (j = 0; j < t->npost; j++) {
			w = t->post[j].w * dk;
			if (q->ev[t->post[j].skill] == 0)
				q->hit[q->nhit++] = t->post[j].skill;
			q->ev[t->post[j].skill] += idf * w / (w + USAGE_SAT);
		}
	}
	strlist_done(&terms);
	for (i = 0; i < q->nhit; i++)
		q->ev[q->hit[i]] /= sum;
}

/* The explain "usage" object of skill s (id, or -1: no usage). */
static cJSON *
explain_usage(struct usage *u, long s, const struct uq *q, double base,
    double boost, double learned, double now)
{
	const struct uskill	*k;
	cJSON			*o, *arr, *e;
	size_t			 i, j;
	double			 dk;

	o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "base", base);
	cJSON_AddNumberToObject(o, "loads", s >= 0 ?
	    use_count(u, &u->sk[s], now) : 0);
	cJSON_AddNumberToObject(o, "usage_boost", boost);
	cJSON_AddNumberToObject(o, "learned_boost", learned);
	arr = cJSON_AddArrayToObject(o, "learned_terms");
	if (s < 0)
		return o;
	k = &u->sk[s];
	dk = decay(now - u->epoch, u->cfg->learn_half_life);
	for (i = 0; i < q->nterms; i++)
		for (j = 0; j < k->nlt; j++)
			if (k->lt[j].term == q->terms[i]) {
				e = cJSON_CreateObject();
				cJSON_AddStringToObject(e, "term",
				    u->tm[q->terms[i]].s);
				cJSON_AddNumberToObject(e, "weight",
				    k->lt[j].w * dk);
				cJSON_AddItemToArray(arr, e);
			}
	return o;
}

/*
 * The new score of a match with calibrated score base. The score reads
 * as a probability (search.c), so each kind of evidence is combined as
 * one: use shifts the log-odds by at most retrieval.usage_boost (a prior:
 * 0 stays 0, and a score under the miss threshold stays under it), and
 * learned words join as a noisy-OR, 1 - (1 - s)(1 - weight * evidence),
 * so they matter most where the skill's own text says least.
 */
static double
rescore(struct usage *u, long s, const struct uq *q, double base,
    double now, double *boost, double *learned)
{
	const struct config	*cfg = u->cfg;
	double			 pop = 0, v = base, thr = cfg->miss_threshold, l;

	if (s >= 0 && u->max_use > 0 && cfg->usage_boost > 0)
		pop = log1p(use_count(u, &u->sk[s], now)) / log1p(u->max_use);
	if (pop > 1)
		pop = 1;
	if (pop > 0 && base > 0 && base < 1)
		v = 1 / (1 + (1 - base) / base * exp(-cfg->usage_boost * pop));
	if (base < thr && v >= thr)
		v = base > thr - 1e-4 ? base : thr - 1e-4;
	*boost = v - base;
	l = s >= 0 && q->ev != NULL ? cfg->learn_weight * q->ev[s] : 0;
	*learned = (1 - v) * l;
	v += *learned;
	return v > 1 ? 1 : v;
}

static int
kind_tags_ok(const struct search_opts *o, const struct skill *s)
{
	size_t	 i;

	if (o->kind >= 0 && (int)s->kind != o->kind)
		return 0;
	if (o->tags == NULL || o->tags->n == 0)
		return 1;
	for (i = 0; i < o->tags->n; i++)
		if (strlist_contains(&s->tags, o->tags->v[i], 1))
			return 1;
	return 0;
}

/* 1 when the query has a "+word" (the learned-only skills lack it). */
static int
has_required(const char *q)
{
	const char	*p;

	for (p = q; *p != '\0'; p++)
		if (*p == '+' && p[1] != '\0' && p[1] != ' ' &&
		    (p == q || p[-1] == ' ' || p[-1] == '\t'))
			return 1;
	return 0;
}

/*
 * Adds the skills the learned words point to that retrieval did not
 * return, with score 0 before rescoring: the USAGE_ADD with the most
 * evidence, and only those whose learned score alone would beat the
 * weakest result retrieved (a full pool, else any). They are found by
 * uid in idx (SEARCH_SELECT), so shadowed and hidden entries stay out.
 */
static void
add_learned(struct usage *u, const struct search_index *idx,
    const struct search_opts *o, const struct uq *q,
    struct search_result *res)
{
	struct search_opts	 so;
	struct search_result	 sel;
	struct buf		 b;
	uint32_t		 best[USAGE_ADD];
	char			*cause = NULL;
	double			 floor = 0;
	size_t			 i, j, n = 0;

	if (res->n >= USAGE_POOL)
		for (i = 0; i < res->n; i++)
			if (i == 0 || res->v[i].score < floor)
				floor = res->v[i].score;
	for (i = 0; i < q->nhit; i++) {
		uint32_t s = q->hit[i];

		if (u->cfg->learn_weight * q->ev[s] <= floor)
			continue;
		for (j = 0; j < res->n; j++)
			if (strcmp(res->v[j].skill->uid, u->sk[s].uid) == 0)
				break;
		if (j < res->n || strchr(u->sk[s].uid, ',') != NULL)
			continue;
		/* insertion into the best USAGE_ADD by evidence */
		for (j = n < USAGE_ADD ? n++ : USAGE_ADD; j > 0 &&
		    q->ev[best[j - 1]] < q->ev[s]; j--)
			if (j < USAGE_ADD)
				best[j] = best[j - 1];
		if (j < USAGE_ADD)
			best[j] = s;
	}
	if (n == 0)
		return;
	buf_init(&b, 0);
	buf_addstr(&b, SEARCH_SELECT);
	for (i = 0; i < n; i++)
		buf_printf(&b, "%s%s", i ? "," : "", u->sk[best[i]].uid);
	memset(&so, 0, sizeof(so));
	so.query = b.p;
	so.top_k = (int)n;
	so.kind = -1;
	if (search_run(idx, &so, &sel, &cause) == SR_OK) {
		res->v = xreallocarray(res->v, res->n + sel.n + 1,
		    sizeof(*res->v));
		for (i = 0; i < sel.n; i++) {
			if (!kind_tags_ok(o, sel.v[i].skill))
				continue;
			memset(&res->v[res->n], 0, sizeof(*res->v));
			res->v[res->n].skill = sel.v[i].skill;
			res->v[res->n++].score = 0;
		}
	}
	search_result_done(&sel);
	free(cause);
	buf_done(&b);
}

void
usage_apply(struct usage *u, const struct search_index *idx,
    const struct search_opts *o, struct search_result *res, double now)
{
	struct uq	 q;
	size_t		 i;
	long		 s;
	double		 base, boost, learned;

	if (u == NULL || o->query == NULL)
		return;
	pthread_mutex_lock(&u->mu);
	memset(&q, 0, sizeof(q));
	if (u->cfg->learn_enabled && u->cfg->learn_weight > 0)
		evidence(u, o->query, now, &q);
	if (q.nhit > 0 && !has_required(o->query))
		add_learned(u, idx, o, &q, res);
	for (i = 0; i < res->n; i++) {
		struct search_match *m = &res->v[i];

		s = umap_find(&u->skmap, m->skill->uid,
		    u->sk, sizeof(*u->sk), 0, u->nsk);
		base = m->score;
		m->score = rescore(u, s, &q, base, now, &boost, &learned);
		if (!o->explain)
			continue;
		if (m->explain == NULL || cJSON_GetObjectItem(m->explain,
		    "select") != NULL) {
			/* added by learned words: nothing else to explain */
			cJSON_Delete(m->explain);
			m->explain = cJSON_CreateObject();
		}
		cJSON_DeleteItemFromObject(m->explain, "score");
		cJSON_AddNumberToObject(m->explain, "score", m->score);
		cJSON_AddItemToObject(m->explain, "usage", explain_usage(u, s,
		    &q, base, boost, learned, now));
	}
	free(q.ev);
	free(q.hit);
	pthread_mutex_unlock(&u->mu);
}

int
usage_reset(const struct config *cfg, int *changed, char **cause)
{
	char	 v[32];

	*changed = 0;
	*cause = NULL;
	if (!cfg->telemetry_enabled) {
		*cause = xstrdup("telemetry is off (telemetry.enabled: false): "
		    "nothing was learned");
		return SR_CONFIG;
	}
	snprintf(v, sizeof(v), "%.3f", clock_wall());
	return telemetry_meta_set(cfg, "learn_reset", v, changed, cause);
}
