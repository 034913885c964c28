/*
 * The Tier-1 mini-index: see miniindex.h. Building is a search over
 * degradation levels: each candidate text is rendered and priced as it
 * grows, in pieces whose units add up to its tokens_estimate() exactly
 * (tokens.h), and given up once over the budget; so what is returned is
 * always measured, never predicted. Gists are made once per entry and
 * cap, when first rendered, and the pieces' prices are kept, since most
 * recur from one candidate to the next.
 */
#include "autoconfig.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "core/config.h"
#include "tier1/miniindex.h"
#include "tier1/miniindex_gist.h"
#include "tier1/miniindex_install.h"
#include "tier1/tokens.h"
#include "base/xmalloc.h"

/* A group of this many names or more may factor out a shared part. */
#define FACTOR_MIN	3
/* Name-part clusters: a part shared by this many entries is a group. */
#define CLUSTER_MIN	3
/* Fewer entries than this are listed without group headings. */
#define GROUPS_MIN_ENTRIES	6

/* A word list entry with its length, so lookups skip strlen(). */
struct word {
	const char	*s;
	size_t		 n;
};
#define WORD(lit)	{ lit, sizeof lit - 1 }

struct ent {
	const struct skill	*s;
	const char		*label;		/* uid */
	const char		*group;		/* borrowed from the group table */
	size_t			 skip;		/* label bytes shown: */
	size_t			 keep;		/* label[skip .. skip + keep) */
	char			*full;		/* FULL gist, made when needed */
	struct miniindex_gist_plan *plan;	/* keyword gist words */
	size_t			 opaque;	/* place in cmp_opaque order */
	size_t			 rank;		/* place in its group's cmp_rank */
};

/*
 * A group; when every name in it shares a prefix ("baoyu-") or a suffix
 * ("-patterns") that is written once in its heading ("baoyu-*"), the
 * lines show the rest of each name.
 */
struct group {
	char		*name;
	char		*pat;		/* "baoyu-*", "*-patterns" or NULL */
	size_t		 first;		/* index into the sorted entries */
	size_t		 n;
};

/* The units of a rendered piece, keyed by its bytes (see pricing). */
struct uslot {
	uint64_t	 h;
	size_t		 off;		/* key bytes in ucache.keys */
	size_t		 len;
	size_t		 units;
	int		 used;
};

struct ucache {
	struct uslot	*v;
	size_t		 cap;		/* a power of two */
	size_t		 n;
	struct buf	 keys;
};

/* The gists an attempt renders. */
enum gist_mode {
	GISTS_NONE,
	GISTS_FULL,		/* the summary, <= MINIINDEX_SUMMARY_MAX */
	GISTS_WORDS		/* keywords, dealt out in rounds (ent_words) */
};

struct mi {
	const struct miniindex_opts	*opts;
	struct ent			*e;
	size_t				 n;
	struct group			*g;
	size_t				 ng;
	int				 headings;
	int				 tiny;		/* one-line header */
	int				 factored;	/* a group has pat */
	int				 factor;	/* render with pats */
	enum gist_mode			 gists;		/* set_gists() */
	size_t				 gist_x;
	size_t				 gist_wmax;
	const struct group		**by_size;
	struct ucache			 cache;
};

static const char *const level_names[] = {
	"full", "short", "names", "top", "counts", "header"
};

void
miniindex_opts_from_config(struct miniindex_opts *o, const struct config *cfg)
{
	int	 g;

	memset(o, 0, sizeof *o);
	o->budget = cfg->mini_budget_tokens > 0 ?
	    (size_t)cfg->mini_budget_tokens : 0;
	g = miniindex_group_from_name(cfg->mini_group_by);
	o->group_by = g < 0 ? MINIINDEX_GROUP_AUTO : (enum miniindex_group)g;
}

int
miniindex_group_from_name(const char *s)
{
	if (s == NULL)
		return -1;
	if (strcmp(s, "auto") == 0)
		return MINIINDEX_GROUP_AUTO;
	if (strcmp(s, "tags") == 0)
		return MINIINDEX_GROUP_TAGS;
	if (strcmp(s, "scope") == 0)
		return MINIINDEX_GROUP_SCOPE;
	return -1;
}

const char *
miniindex_level_name(enum miniindex_level l)
{
	if ((size_t)l >= sizeof level_names / sizeof level_names[0])
		return "?";
	return level_names[l];
}


/*
 * Returns 1 when the entry belongs in the mini-index: a winner (not
 * shadowed) the model may invoke (no disable-model-invocation).
 */
static int
miniindex_eligible(const struct skill *s)
{
	return s != NULL && s->shadowed_by == NULL &&
	    !s->disable_model_invocation;
}


/* FNV-1a. */
static uint64_t
hash_bytes(const char *s, size_t len)
{
	uint64_t	 h = 0xcbf29ce484222325ULL;
	size_t		 i;

	for (i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

/* ---- grouping ------------------------------------------------------- */

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* "other" sorts last. */
static int
cmp_group_name(const char *a, const char *b)
{
	int	 ao = strcmp(a, "other") == 0, bo = strcmp(b, "other") == 0;

	if (ao != bo)
		return ao - bo;
	return strcmp(a, b);
}

static int
cmp_ent(const void *a, const void *b)
{
	const struct ent	*x = a, *y = b;
	int			 c;

	if ((c = cmp_group_name(x->group, y->group)) != 0)
		return c;
	return strcmp(x->label, y->label);
}

/* A simple counted set of names, sorted for lookups. */
struct counts {
	char	**name;
	size_t	 *n;
	size_t	  len;
};

static void
counts_build(struct counts *c, struct strlist *all)
{
	size_t	 i;

	memset(c, 0, sizeof *c);
	if (all->n == 0)
		return;
	qsort(all->v, all->n, sizeof *all->v, cmp_str);
	c->name = xcalloc(all->n, sizeof *c->name);
	c->n = xcalloc(all->n, sizeof *c->n);
	for (i = 0; i < all->n; i++) {
		if (c->len > 0 && strcmp(c->name[c->len - 1], all->v[i]) == 0) {
			c->n[c->len - 1]++;
			continue;
		}
		c->name[c->len] = all->v[i];
		c->n[c->len++] = 1;
	}
}

static size_t
counts_get(const struct counts *c, const char *name)
{
	char	**hit;

	if (c->len == 0)
		return 0;
	hit = bsearch(&name, c->name, c->len, sizeof *c->name, cmp_str);
	return hit != NULL ? c->n[hit - c->name] : 0;
}

static void
counts_done(struct counts *c)
{
	free(c->name);
	free(c->n);
}

/* The group of a scope: user, project, the plugin's name, other. */
static char *
scope_group(const struct skill *s)
{
	if (s->scope == NULL)
		return xstrdup("other");
	if (strncmp(s->scope, "plugin:", 7) == 0 && s->scope[7] != '\0')
		return xstrdup(s->scope + 7);
	if (strncmp(s->scope, "project", 7) == 0)
		return xstrdup("project");
	return xstrdup(s->scope);
}

/* Name parts that say nothing about a topic. */
static int
is_stop_part(const char *p, size_t n)
{
	static const struct word	 stop[] = {
		WORD("a"), WORD("an"), WORD("and"), WORD("the"), WORD("for"),
		WORD("to"), WORD("of"), WORD("with"), WORD("in"), WORD("on"),
		WORD("skill"), WORD("skills"), WORD("de"), WORD("la"),
		WORD("el"), WORD("und"), WORD("der"), WORD("die")
	};
	size_t	 i;

	for (i = 0; i < sizeof stop / sizeof stop[0]; i++)
		if (stop[i].n == n && memcmp(p, stop[i].s, n) == 0)
			return 1;
	return 0;
}

/* strcmp() order of two name parts given by pointer and length. */
static int
cmp_part(const char *a, size_t an, const char *b, size_t bn)
{
	int	 c = memcmp(a, b, an < bn ? an : bn);

	if (c != 0 || an == bn)
		return c;
	return an < bn ? -1 : 1;
}

/* A distinct name part, for cluster_greedy(). */
struct part {
	const char	*p;		/* in the entry's name, not terminated */
	size_t		 n;
	size_t		 count;		/* unassigned entries holding it */
	size_t		 first;		/* its entries: ents[first ..] */
	size_t		 nents;
};

/*
 * Clusters of shared name parts, greedily: the part most unassigned
 * entries share becomes a group of all of them, until no part is shared
 * by CLUSTER_MIN entries; the rest go to "other". Ties go to the first
 * part by name. lab[i] gets each entry's group (allocated). The parts of
 * a name ("pdf", "extract" for "pdf-extract") are its pieces between
 * "-_:.", less stop words and repeats. Each distinct part is counted
 * once, with the entries holding it, so a round is a scan of counts.
 */
static void
cluster_greedy(struct mi *m, char **lab)
{
	struct part	*pt = NULL;
	size_t		*slot, nslot, npt = 0, *ref = NULL, nref = 0, cap = 0;
	size_t		*at, *ents, *fill, i, j, k, h, n, best, bestk;
	const char	*s, *name;

	/* ref[at[i] .. at[i + 1]): entry i's part numbers. */
	at = xcalloc(m->n + 1, sizeof *at);
	for (nslot = 64; nslot < m->n * 8; nslot *= 2)
		;
	slot = xcalloc(nslot, sizeof *slot);	/* part number + 1 */
	for (i = 0; i < m->n; i++) {
		name = m->e[i].s->name != NULL ? m->e[i].s->name :
		    m->e[i].s->uid;
		for (s = name; *s != '\0'; s += n + (s[n] != '\0')) {
			n = strcspn(s, "-_:.");
			if (n == 0 || is_stop_part(s, n))
				continue;
			h = (size_t)hash_bytes(s, n) & (nslot - 1);
			for (; slot[h] != 0; h = (h + 1) & (nslot - 1))
				if (cmp_part(pt[slot[h] - 1].p,
				    pt[slot[h] - 1].n, s, n) == 0)
					break;
			if (slot[h] == 0) {
				if ((npt + 1) * 2 > nslot) {
					/* Grow and rehash. */
					free(slot);
					nslot *= 2;
					slot = xcalloc(nslot, sizeof *slot);
					for (k = 0; k < npt; k++) {
						h = (size_t)hash_bytes(pt[k].p,
						    pt[k].n) & (nslot - 1);
						while (slot[h] != 0)
							h = (h + 1) & (nslot - 1);
						slot[h] = k + 1;
					}
					h = (size_t)hash_bytes(s, n) &
					    (nslot - 1);
					while (slot[h] != 0)
						h = (h + 1) & (nslot - 1);
				}
				pt = xreallocarray(pt, npt + 1, sizeof *pt);
				memset(&pt[npt], 0, sizeof pt[npt]);
				pt[npt].p = s;
				pt[npt].n = n;
				slot[h] = ++npt;
			}
			k = slot[h] - 1;
			for (j = at[i]; j < nref; j++)
				if (ref[j] == k)
					break;
			if (j < nref)
				continue;	/* a repeat within the name */
			if (nref == cap) {
				cap = cap > 0 ? cap * 2 : 256;
				ref = xreallocarray(ref, cap, sizeof *ref);
			}
			ref[nref++] = k;
			pt[k].count++;
		}
		at[i + 1] = nref;
	}
	/* Each part's entries, in entry order. */
	ents = xcalloc(nref + 1, sizeof *ents);
	fill = xcalloc(npt + 1, sizeof *fill);
	for (k = 0, j = 0; k < npt; k++) {
		pt[k].first = j;
		j += pt[k].count;
	}
	for (i = 0; i < m->n; i++)
		for (j = at[i]; j < at[i + 1]; j++) {
			k = ref[j];
			ents[pt[k].first + fill[k]++] = i;
			pt[k].nents++;
		}
	for (;;) {
		best = 0;
		bestk = 0;
		for (k = 0; k < npt; k++) {
			if (pt[k].count > bestk || (pt[k].count == bestk &&
			    bestk > 0 && cmp_part(pt[k].p, pt[k].n, pt[best].p,
			    pt[best].n) < 0)) {
				best = k;
				bestk = pt[k].count;
			}
		}
		if (bestk < CLUSTER_MIN)
			break;
		for (j = pt[best].first; j < pt[best].first + pt[best].nents;
		    j++) {
			i = ents[j];
			if (lab[i] != NULL)
				continue;
			lab[i] = xstrndup(pt[best].p, pt[best].n);
			for (k = at[i]; k < at[i + 1]; k++)
				pt[ref[k]].count--;
		}
	}
	for (i = 0; i < m->n; i++)
		if (lab[i] == NULL)
			lab[i] = xstrdup("other");
	free(fill);
	free(ents);
	free(slot);
	free(ref);
	free(pt);
	free(at);
}

/* Sets every entry's group name (allocated into *names). */
static void
assign_groups(struct mi *m, enum miniindex_group by, struct strlist *names)
{
	struct strlist	 all;
	struct counts	 c;
	char		**lab;
	size_t		 i, j, tagged = 0, best, k;
	const char	*pick;
	int		 mode = (int)by;	/* -1: name-part clusters */

	lab = xcalloc(m->n > 0 ? m->n : 1, sizeof *lab);
	for (i = 0; i < m->n; i++)
		tagged += m->e[i].s->tags.n > 0;
	if (mode == MINIINDEX_GROUP_AUTO) {
		if (tagged * 2 >= m->n && tagged > 0)
			mode = MINIINDEX_GROUP_TAGS;
		else {
			strlist_init(&all);
			for (i = 0; i < m->n; i++)
				strlist_add_take(&all, scope_group(m->e[i].s));
			/* Two scopes or more? */
			for (i = 1, k = all.n > 0; i < all.n && k < 2; i++)
				k += strcmp(all.v[i], all.v[0]) != 0;
			strlist_done(&all);
			mode = k >= 2 ? MINIINDEX_GROUP_SCOPE : -1;
		}
	}
	strlist_init(&all);
	if (mode == -1) {
		/* Clusters of a shared first name part. */
		cluster_greedy(m, lab);
	} else if (mode == MINIINDEX_GROUP_TAGS) {
		/* Each entry once, under its most shared tag. */
		for (i = 0; i < m->n; i++)
			for (j = 0; j < m->e[i].s->tags.n; j++)
				strlist_add(&all, m->e[i].s->tags.v[j]);
		counts_build(&c, &all);
		for (i = 0; i < m->n; i++) {
			pick = NULL;
			best = 0;
			for (j = 0; j < m->e[i].s->tags.n; j++) {
				const char *t = m->e[i].s->tags.v[j];
				k = counts_get(&c, t);
				if (k > best || (k == best && pick != NULL &&
				    strcmp(t, pick) < 0)) {
					best = k;
					pick = t;
				}
			}
			lab[i] = xstrdup(pick != NULL ? pick : "other");
		}
		counts_done(&c);
	} else {
		for (i = 0; i < m->n; i++)
			lab[i] = scope_group(m->e[i].s);
	}
	strlist_done(&all);
	for (i = 0; i < m->n; i++) {
		strlist_add_take(names, lab[i]);
		m->e[i].group = lab[i];
	}
	free(lab);
}

static void
build_groups(struct mi *m)
{
	size_t	 i;

	qsort(m->e, m->n, sizeof *m->e, cmp_ent);
	for (i = 0; i < m->n; i++) {
		if (m->ng == 0 ||
		    strcmp(m->g[m->ng - 1].name, m->e[i].group) != 0) {
			m->g = xreallocarray(m->g, m->ng + 1, sizeof *m->g);
			m->g[m->ng].name = xstrdup(m->e[i].group);
			m->g[m->ng].pat = NULL;
			m->g[m->ng].first = i;
			m->g[m->ng].n = 0;
			m->ng++;
		}
		m->g[m->ng - 1].n++;
	}
	m->headings = m->ng > 1 && m->n >= GROUPS_MIN_ENTRIES;
	if (!m->headings && m->ng > 1) {
		/* One plain list, in name order. */
		for (i = 0; i < m->n; i++)
			m->e[i].group = m->g[0].name;
		qsort(m->e, m->n, sizeof *m->e, cmp_ent);
		for (i = 1; i < m->ng; i++)
			free(m->g[i].name);
		m->ng = 1;
		m->g[0].n = m->n;
	}
}

/*
 * Factors a shared name prefix or suffix out of each group's lines: when
 * all of a group's (at least FACTOR_MIN) names start with the same text
 * up to a "-" ("baoyu-"), or end with one from a "-" ("-patterns"), the
 * heading shows it once ("baoyu-*") and the lines the rest. Every entry
 * shows its whole label otherwise.
 */
static void
factor_groups(struct mi *m)
{
	const char	*a, *l;
	size_t		 i, j, pre, suf, n, la;

	for (i = 0; i < m->n; i++) {
		m->e[i].skip = 0;
		m->e[i].keep = strlen(m->e[i].label);
	}
	for (i = 0; m->headings && i < m->ng; i++) {
		if (m->g[i].n < FACTOR_MIN)
			continue;
		a = m->e[m->g[i].first].label;
		la = strlen(a);
		pre = suf = la;
		for (j = 1; j < m->g[i].n; j++) {
			l = m->e[m->g[i].first + j].label;
			n = strlen(l);
			for (pre = pre < n ? pre : n;
			    pre > 0 && strncmp(a, l, pre) != 0; pre--)
				;
			for (suf = suf < n ? suf : n; suf > 0 &&
			    strcmp(a + la - suf, l + n - suf) != 0; suf--)
				;
		}
		/* To a "-", leaving something of every name. */
		while (pre > 0 && a[pre - 1] != '-')
			pre--;
		while (suf > 0 && a[la - suf] != '-')
			suf--;
		for (j = 0; j < m->g[i].n; j++) {
			n = m->e[m->g[i].first + j].keep;
			if (pre >= n)
				pre = 0;
			if (suf >= n)
				suf = 0;
		}
		if (pre < 3 && suf < 3)
			continue;
		if (pre >= suf) {
			xasprintf(&m->g[i].pat, "%.*s*", (int)pre, a);
			suf = 0;
		} else {
			xasprintf(&m->g[i].pat, "*%s", a + la - suf);
			pre = 0;
		}
		m->factored = 1;
		for (j = 0; j < m->g[i].n; j++) {
			m->e[m->g[i].first + j].skip = pre;
			m->e[m->g[i].first + j].keep -= pre + suf;
		}
	}
}

/* ---- rendering ------------------------------------------------------ */

/* An entry's name as shown (less its group's factored part). */
static void
render_name(const struct mi *m, struct buf *b, const struct ent *e)
{
	if (m->factor)
		buf_add(b, e->label + e->skip, e->keep);
	else
		buf_addstr(b, e->label);
}

/* A group's name as shown: its pattern when names are factored. */
static const char *
group_shown(const struct mi *m, const struct group *g)
{
	return m->factor && g->pat != NULL ? g->pat : g->name;
}

static void
render_header(const struct mi *m, struct buf *b, enum miniindex_level lv)
{
	if (m->tiny) {
		buf_printf(b, "# Skills\n%zu skills: search_skills(\"task\") or "
		    "load_skill(\"name\") (skills-radar MCP).\n", m->n);
		return;
	}
	/*
	 * Every token here is paid on every turn: short, but it must say
	 * what to call and when (the MCP instructions say it just before).
	 */
	if (m->opts->flags & MINIINDEX_MCP)
		buf_printf(b, "# Skills\n%zu skill%s.", m->n,
		    m->n == 1 ? "" : "s");
	else
		buf_printf(b, "# Skills\n%zu skill%s (skills-radar MCP). "
		    "Before a task, call search_skills(\"task\") or "
		    "load_skill(\"name\") and follow it.", m->n,
		    m->n == 1 ? "" : "s");
	if (lv >= MINIINDEX_TOP)
		buf_addstr(b, " Each line: a group, its skill count, some "
		    "names; search finds all.");
	if (m->factor && m->factored && lv <= MINIINDEX_TOP)
		buf_addstr(b, " In a group like x-*, * stands for each name "
		    "listed.");
	buf_addstr(b, "\n");
}

static void
render_heading(const struct mi *m, struct buf *b, const struct group *g)
{
	if (m->headings)
		buf_printf(b, "\n## %s\n", group_shown(m, g));
}

/* Gists for the next attempts: none, the summaries, or x keywords. */
static void
set_gists(struct mi *m, enum gist_mode mode, size_t x)
{
	m->gists = mode;
	m->gist_x = x;
}

/*
 * Keyword gists are dealt out in rounds, a word at a time, to the
 * entries whose names say least first (ent.opaque): with x words to deal,
 * each entry gets x / n of them, and the first x % n one more, within
 * what its description holds.
 */
static size_t
ent_words(const struct mi *m, const struct ent *e)
{
	size_t	 w, n;

	if (m->n == 0)
		return 0;
	w = m->gist_x / m->n + (e->opaque < m->gist_x % m->n);
	n = miniindex_gist_plan_words(e->plan);
	return w < n ? w : n;
}

/* The entry's gist under set_gists() (NULL or "": none); *len its bytes. */
static const char *
ent_gist(const struct mi *m, struct ent *e, size_t *len)
{
	size_t	 w;

	*len = 0;
	/* A description that says no more than the name ("API Reviewer"). */
	if (m->gists != GISTS_NONE && miniindex_gist_plan_words(e->plan) == 0)
		return NULL;
	if (m->gists == GISTS_FULL) {
		if (e->full == NULL)
			e->full = miniindex_summary(
			    miniindex_gist_plan_source(e->plan),
			    MINIINDEX_SUMMARY_MAX);
		*len = strlen(e->full);
		return e->full;
	}
	if (m->gists != GISTS_WORDS || (w = ent_words(m, e)) == 0)
		return NULL;
	return miniindex_gist_plan_prefix(e->plan, w, len);
}

static int
cmp_opaque(const void *a, const void *b)
{
	const struct ent	*x = *(const struct ent *const *)a;
	const struct ent	*y = *(const struct ent *const *)b;
	size_t			 lx = strlen(x->label), ly = strlen(y->label);

	if (lx != ly)
		return lx < ly ? -1 : 1;
	return strcmp(x->label, y->label);
}

/* Order within a group for the top names: trust, project, then name. */
static int
cmp_rank(const void *a, const void *b)
{
	const struct ent	*x = *(const struct ent *const *)a;
	const struct ent	*y = *(const struct ent *const *)b;

	if (x->s->trust != y->s->trust)
		return (int)y->s->trust - (int)x->s->trust;
	if (x->s->is_project != y->s->is_project)
		return y->s->is_project - x->s->is_project;
	return strcmp(x->label, y->label);
}

static int
cmp_group_size(const void *a, const void *b)
{
	const struct group	*x = *(const struct group *const *)a;
	const struct group	*y = *(const struct group *const *)b;

	int			 xo = strcmp(x->name, "other") == 0;
	int			 yo = strcmp(y->name, "other") == 0;

	/* The least telling group last, whatever its size. */
	if (xo != yo)
		return xo - yo;
	if (x->n != y->n)
		return x->n < y->n ? 1 : -1;
	return cmp_group_name(x->name, y->name);
}

/*
 * The orders every attempt uses, sorted once: entries by how little
 * their names say (ent.opaque), each group's entries by rank (ent.rank)
 * and the groups by size. qsort() sees the same input each time, so its
 * answer is the one a sort per attempt would give.
 */
static void
build_orders(struct mi *m)
{
	struct ent	**order;
	size_t		  i, j;

	order = xcalloc(m->n > 0 ? m->n : 1, sizeof *order);
	for (i = 0; i < m->n; i++)
		order[i] = &m->e[i];
	qsort(order, m->n, sizeof *order, cmp_opaque);
	for (i = 0; i < m->n; i++)
		order[i]->opaque = i;
	free(order);

	for (i = 0; i < m->ng; i++) {
		order = xcalloc(m->g[i].n > 0 ? m->g[i].n : 1, sizeof *order);
		for (j = 0; j < m->g[i].n; j++)
			order[j] = &m->e[m->g[i].first + j];
		qsort(order, m->g[i].n, sizeof *order, cmp_rank);
		for (j = 0; j < m->g[i].n; j++)
			order[j]->rank = j;
		free(order);
	}
	m->by_size = xcalloc(m->ng > 0 ? m->ng : 1, sizeof *m->by_size);
	for (i = 0; i < m->ng; i++)
		m->by_size[i] = &m->g[i];
	qsort(m->by_size, m->ng, sizeof *m->by_size, cmp_group_size);
}

/* ---- pricing -------------------------------------------------------- */

/*
 * A text is priced as it is rendered, in pieces cut where tokens.h says
 * the units add up: after a newline followed by an ASCII byte that is not
 * a blank. Pieces (mostly single lines) recur from one attempt to the
 * next, so their units are kept in a hash table keyed by their bytes.
 */
static void
ucache_init(struct ucache *c)
{
	memset(c, 0, sizeof *c);
	buf_init(&c->keys, 0);
}

static void
ucache_done(struct ucache *c)
{
	free(c->v);
	buf_done(&c->keys);
}

static void
ucache_grow(struct ucache *c)
{
	struct uslot	*old = c->v;
	size_t		 oldcap = c->cap, i, k;

	c->cap = oldcap > 0 ? oldcap * 2 : 1024;
	c->v = xcalloc(c->cap, sizeof *c->v);
	for (i = 0; i < oldcap; i++) {
		if (!old[i].used)
			continue;
		for (k = old[i].h & (c->cap - 1); c->v[k].used;
		    k = (k + 1) & (c->cap - 1))
			;
		c->v[k] = old[i];
	}
	free(old);
}

/* The units of s[0..len), from the table or priced and kept. */
static size_t
ucache_units(struct ucache *c, const char *s, size_t len)
{
	uint64_t	 h = hash_bytes(s, len);
	size_t		 k;

	if ((c->n + 1) * 2 > c->cap)
		ucache_grow(c);
	for (k = h & (c->cap - 1); c->v[k].used; k = (k + 1) & (c->cap - 1)) {
		if (c->v[k].h == h && c->v[k].len == len &&
		    memcmp(c->keys.p + c->v[k].off, s, len) == 0)
			return c->v[k].units;
	}
	c->v[k].used = 1;
	c->v[k].h = h;
	c->v[k].off = c->keys.len;
	c->v[k].len = len;
	c->v[k].units = tokens_units(s, len);
	buf_add(&c->keys, s, len);
	c->n++;
	return c->v[k].units;
}

/* A text being rendered and priced. */
struct pricer {
	struct mi	*m;
	struct buf	 b;
	size_t		 start;		/* first byte not yet priced */
	size_t		 scan;		/* where to look for the next cut */
	size_t		 units;		/* of b.p[0..start) */
};

static void
pricer_init(struct pricer *pr, struct mi *m)
{
	pr->m = m;
	buf_init(&pr->b, 0);
	pr->start = pr->scan = pr->units = 0;
}

/*
 * Prices the complete pieces rendered so far; returns 1 when the text is
 * already over the budget (every piece costs >= 0, so it stays over).
 */
static int
pricer_over(struct pricer *pr)
{
	const char	*p = pr->b.p, *nl;
	size_t		 len = pr->b.len, q;
	unsigned char	 c;

	while (pr->scan + 1 < len) {
		nl = memchr(p + pr->scan, '\n', len - 1 - pr->scan);
		if (nl == NULL) {
			pr->scan = len - 1;
			break;
		}
		q = (size_t)(nl - p) + 1;
		pr->scan = q;
		c = (unsigned char)p[q];
		if (c >= 0x80 || c == ' ' || (c >= '\t' && c <= '\r'))
			continue;
		pr->units += ucache_units(&pr->m->cache, p + pr->start,
		    q - pr->start);
		pr->start = q;
	}
	return pr->m->opts->budget != 0 &&
	    tokens_from_units(pr->units) > pr->m->opts->budget;
}

/* Prices the rest; returns the units of the whole text. */
static size_t
pricer_end(struct pricer *pr)
{
	if (pr->b.len > pr->start)
		pr->units += ucache_units(&pr->m->cache, pr->b.p + pr->start,
		    pr->b.len - pr->start);
	pr->start = pr->scan = pr->b.len;
	return pr->units;
}

/*
 * An entry's line: "- name: gist" at FULL; at SHORT and NAMES, where
 * every token counts, without the bullet (a token a line).
 */
static void
render_entry(struct mi *m, struct buf *b, struct ent *e,
    enum miniindex_level lv)
{
	const char	*gist;
	size_t		 len;

	gist = ent_gist(m, e, &len);
	if (lv == MINIINDEX_FULL)
		buf_add(b, "- ", 2);
	render_name(m, b, e);
	if (gist != NULL && len > 0) {
		buf_add(b, ": ", 2);
		buf_add(b, gist, len);
	}
	buf_addc(b, '\n');
}

/*
 * How many of group g's names TOP shows for x names in all: dealt out in
 * rounds over the groups by size (m->by_size), one name each per round,
 * so the most topics get a name before any gets two. Its slot is gi in
 * by_size order.
 */
static size_t
top_share(const struct mi *m, size_t gi, size_t x)
{
	size_t	 r, i, k = 0, left = x, live;

	for (r = 0; left > 0; r++) {
		live = 0;
		for (i = 0; i < m->ng && left > 0; i++) {
			if (m->by_size[i]->n <= r)
				continue;
			live++;
			left--;
			if (i == gi)
				k++;
		}
		if (live == 0)
			break;
	}
	return k;
}

/*
 * Renders the text at a level into pr: arg is the number of gist words
 * dealt (SHORT), the names shown in all (TOP), or the groups shown
 * (COUNTS). Returns 0, stopping early, once the text is over the budget.
 */
static int
render(struct mi *m, enum miniindex_level lv, size_t arg, size_t *named,
    struct pricer *pr)
{
	struct buf		*b = &pr->b;
	const struct group	*g;
	const struct ent	*e;
	size_t			 i, j, k, n, rest;

	*named = 0;
	render_header(m, b, lv);
	if (lv == MINIINDEX_COUNTS && m->ng > 0) {
		buf_addstr(b, "\nGroups: ");
		for (i = 0; i < m->ng && i < arg; i++)
			buf_printf(b, "%s%s %zu", i > 0 ? ", " : "",
			    m->by_size[i]->name, m->by_size[i]->n);
		if (i < m->ng)
			buf_printf(b, ", %zu more", m->ng - i);
		buf_addstr(b, "\n");
	}
	if (lv == MINIINDEX_COUNTS || lv == MINIINDEX_HEADER)
		return 1;
	if (pricer_over(pr))
		return 0;
	if (lv == MINIINDEX_TOP)
		goto top;
	if (!m->headings)
		buf_addstr(b, "\n");
	for (i = 0; i < m->ng; i++) {
		g = &m->g[i];
		render_heading(m, b, g);
		for (j = 0; j < g->n; j++) {
			render_entry(m, b, &m->e[g->first + j], lv);
			if (pricer_over(pr))
				return 0;
		}
		*named += g->n;
	}
	return 1;

top:
	/*
	 * One line per group given a name, "group n: a, b" (the count
	 * says how many more there are), largest first; the groups given
	 * none share one last line.
	 */
	buf_addstr(b, "\n");
	for (i = 0, rest = 0; i < m->ng; i++) {
		g = m->by_size[i];
		if ((k = top_share(m, i, arg)) == 0) {
			rest++;
			continue;
		}
		buf_printf(b, "%s %zu: ", group_shown(m, g), g->n);
		/* The k first by rank, in name order. */
		for (j = 0, n = 0; j < g->n && n < k; j++) {
			e = &m->e[g->first + j];
			if (e->rank >= k)
				continue;
			if (n++ > 0)
				buf_add(b, ", ", 2);
			render_name(m, b, e);
		}
		buf_addstr(b, "\n");
		*named += k;
		if (pricer_over(pr))
			return 0;
	}
	if (rest > 0) {
		buf_addstr(b, "Also: ");
		for (i = 0, n = 0; i < m->ng; i++) {
			g = m->by_size[i];
			if (top_share(m, i, arg) > 0)
				continue;
			buf_printf(b, "%s%s %zu", n++ > 0 ? ", " : "",
			    group_shown(m, g), g->n);
		}
		buf_addstr(b, "\n");
	}
	return 1;
}

/* ---- the budget search ---------------------------------------------- */

struct try {
	char	*text;
	size_t	 tokens;
	size_t	 named;
};

/*
 * Renders and prices; keeps the result in *best when it fits. A text is
 * given up as soon as the part rendered is over the budget.
 */
static int
attempt(struct mi *m, enum miniindex_level lv, size_t arg, struct try *best)
{
	struct pricer	 pr;
	size_t		 tok, named;

	pricer_init(&pr, m);
	if (!render(m, lv, arg, &named, &pr)) {
		buf_done(&pr.b);
		return 0;
	}
	tok = tokens_from_units(pricer_end(&pr));
	if (m->opts->budget != 0 && tok > m->opts->budget) {
		buf_done(&pr.b);
		return 0;
	}
	free(best->text);
	best->text = buf_take(&pr.b);
	best->tokens = tok;
	best->named = named;
	return 1;
}

/*
 * Largest arg in [lo, hi] for which the level fits, by bisection (the
 * cost grows with arg); 0 when even lo does not fit. With words, arg is
 * the number of keyword gist words dealt.
 */
static size_t
bisect(struct mi *m, enum miniindex_level lv, size_t lo, size_t hi,
    struct try *best, int words)
{
	size_t	 mid, good = 0;

	while (lo <= hi) {
		mid = lo + (hi - lo) / 2;
		if (words)
			set_gists(m, GISTS_WORDS, mid);
		if (attempt(m, lv, mid, best)) {
			good = mid;
			lo = mid + 1;
		} else {
			if (mid == 0)
				break;
			hi = mid - 1;
		}
	}
	return good;
}

/* Keyword plans for every entry; returns the most words one holds. */
static size_t
make_plans(struct mi *m)
{
	size_t	 i, n, w = 0;

	for (i = 0; i < m->n; i++) {
		if (m->e[i].plan == NULL)
			m->e[i].plan = miniindex_gist_plan_new(m->e[i].s,
			    m->opts->san, MINIINDEX_SUMMARY_MAX - 1);
		if ((n = miniindex_gist_plan_words(m->e[i].plan)) > w)
			w = n;
	}
	return w;
}

char *
miniindex_text(const struct skill_set *set, const struct miniindex_opts *opts,
    size_t *tokens_out, struct miniindex_info *info)
{
	struct mi		 m;
	struct strlist		 names;
	struct try		 best = { NULL, 0, 0 };
	struct miniindex_info	 in;
	const char		*gist;
	size_t			 i, arg, len, w, words = 0;
	enum miniindex_level	 lv;

	memset(&m, 0, sizeof m);
	memset(&in, 0, sizeof in);
	m.opts = opts;
	m.e = xcalloc(set->n > 0 ? set->n : 1, sizeof *m.e);
	for (i = 0; i < set->n; i++) {
		if (!miniindex_eligible(set->v[i]))
			continue;
		m.e[m.n].s = set->v[i];
		m.e[m.n].label = set->v[i]->uid != NULL ? set->v[i]->uid :
		    set->v[i]->name;
		if (m.e[m.n].label == NULL)
			continue;
		m.n++;
	}
	strlist_init(&names);
	assign_groups(&m, opts->group_by, &names);
	build_groups(&m);
	factor_groups(&m);
	build_orders(&m);
	ucache_init(&m.cache);

	w = make_plans(&m);
	lv = MINIINDEX_FULL;
	arg = MINIINDEX_SUMMARY_MAX;
	set_gists(&m, GISTS_FULL, 0);
	if (attempt(&m, lv, arg, &best))
		goto done;
	/* From here on, shared name parts are written once. */
	m.factor = m.factored;
	if (m.factor && attempt(&m, lv, arg, &best))
		goto done;
	/* Keywords, dealt a word at a time to every entry in turn. */
	lv = MINIINDEX_SHORT;
	if (m.n > 0 && w > 0 &&
	    (arg = bisect(&m, lv, 1, w * m.n, &best, 1)) != 0) {
		set_gists(&m, GISTS_WORDS, arg);
		goto done;
	}
	set_gists(&m, GISTS_NONE, 0);
	lv = MINIINDEX_NAMES;
	arg = 0;
	if (attempt(&m, lv, 0, &best))
		goto done;
	lv = MINIINDEX_TOP;
	if (m.n > 0 && (arg = bisect(&m, lv, 1, m.n, &best, 0)) != 0)
		goto done;
	lv = MINIINDEX_COUNTS;
	if ((arg = bisect(&m, lv, 1, m.ng, &best, 0)) != 0)
		goto done;
	lv = MINIINDEX_HEADER;
	if (attempt(&m, lv, 0, &best))
		goto done;
	m.tiny = 1;
	if (attempt(&m, lv, 0, &best))
		goto done;
	free(best.text);
	best.text = xstrdup("");
	best.tokens = 0;
	best.named = 0;
done:
	in.level = lv;
	in.skills = m.n;
	in.named = best.named;
	for (i = 0; lv <= MINIINDEX_SHORT && i < m.n; i++) {
		gist = ent_gist(&m, &m.e[i], &len);
		in.with_gist += gist != NULL && len > 0;
		if (lv == MINIINDEX_SHORT && ent_words(&m, &m.e[i]) > words)
			words = ent_words(&m, &m.e[i]);
	}
	in.gist_chars = lv == MINIINDEX_FULL ? arg : 0;
	in.gist_words = words;
	in.groups = m.ng;
	in.tokens = best.tokens;
	if (tokens_out != NULL)
		*tokens_out = best.tokens;
	if (info != NULL)
		*info = in;
	for (i = 0; i < m.n; i++) {
		free(m.e[i].full);
		miniindex_gist_plan_free(m.e[i].plan);
	}
	for (i = 0; i < m.ng; i++) {
		free(m.g[i].name);
		free(m.g[i].pat);
	}
	free(m.by_size);
	ucache_done(&m.cache);
	free(m.g);
	free(m.e);
	strlist_done(&names);
	return best.text;
}

char *
miniindex_mcp_instructions(const struct skill_set *set,
    const struct config *cfg)
{
	struct miniindex_opts	 o;

	if (cfg->instructions_budget <= 0)
		return NULL;
	miniindex_opts_from_config(&o, cfg);
	o.budget = (size_t)cfg->instructions_budget;
	o.flags = MINIINDEX_MCP;
	return miniindex_text(set, &o, NULL, NULL);
}

/* ---- the file ------------------------------------------------------- */

int
miniindex_auto(const struct config *cfg, const struct skill_set *set,
    const struct sanitizer *san, int *written, char **cause)
{
	struct miniindex_opts	 o;
	char			*text;
	int			 rv;

	*cause = NULL;
	if (written != NULL)
		*written = 0;
	if (!cfg->mini_auto || cfg->mini_path == NULL)
		return 0;
	miniindex_opts_from_config(&o, cfg);
	o.san = san;
	text = miniindex_text(set, &o, NULL, NULL);
	rv = miniindex_check_file(cfg->mini_path, text, cause);
	if (rv == 1) {
		rv = miniindex_write_file(cfg->mini_path, text, strlen(text),
		    cause);
		if (rv == 0 && written != NULL)
			*written = 1;
	}
	free(text);
	return rv;
}
