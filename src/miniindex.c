/*
 * The Tier-1 mini-index: see miniindex.h. Building is a search over
 * degradation levels: each candidate text is rendered in full and priced
 * with tokens_estimate(), so what is returned is always measured, never
 * predicted.
 */
#include "autoconfig.h"

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <utf8proc.h>

#include "buf.h"
#include "config.h"
#include "miniindex.h"
#include "status.h"
#include "tokens.h"
#include "xmalloc.h"

/*
 * Keyword gists under tight budgets, in estimated tokens: fewer than the
 * minimum tell nothing (names only then); at the maximum a gist is about
 * as long as a full one.
 */
#define GIST_MIN_TOKENS	2
#define GIST_MAX_TOKENS	20
/* When not every entry fits a gist: gists of this size for some. */
#define GIST_SOME_TOKENS	4
/* Name-part clusters: a part shared by this many entries is a group. */
#define CLUSTER_MIN	3
/* Fewer entries than this are listed without group headings. */
#define GROUPS_MIN_ENTRIES	6
/* Largest CLAUDE.md or mini-index file read back. */
#define FILE_MAX	(8 * 1024 * 1024)

struct ent {
	const struct skill	*s;
	const char		*label;		/* uid */
	const char		*group;		/* borrowed from the group table */
	char			*gist;		/* at the current cap */
};

struct group {
	char		*name;
	size_t		 first;		/* index into the sorted entries */
	size_t		 n;
};

struct mi {
	const struct miniindex_opts	*opts;
	struct ent			*e;
	size_t				 n;
	struct group			*g;
	size_t				 ng;
	int				 headings;
	int				 tiny;		/* one-line header */
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

int
miniindex_eligible(const struct skill *s)
{
	return s != NULL && s->shadowed_by == NULL &&
	    !s->disable_model_invocation;
}

/* ---- gists ---------------------------------------------------------- */

static int
is_blank(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' ||
	    c == '\f' || c == '\v';
}

/* Whitespace runs to one space, trimmed. */
static char *
collapse(const char *s)
{
	char	*out, *o;
	int	 pend = 0;

	out = o = xmalloc(strlen(s) + 1);
	for (; *s != '\0'; s++) {
		if (is_blank((unsigned char)*s)) {
			pend = o != out;
			continue;
		}
		if (pend)
			*o++ = ' ';
		pend = 0;
		*o++ = *s;
	}
	*o = '\0';
	return out;
}

/* A period after these words does not end a sentence. */
static int
is_abbrev(const char *start, const char *dot)
{
	static const char *const abbr[] = {
		"e.g", "i.e", "etc", "vs", "approx", "incl", "eg", "ie", "cf",
		"Dr", "Mr", "Ms", "z.B", "bzw", "ca", "u.a", "p.ej", NULL
	};
	const char	*w;
	size_t		 n, i;

	for (w = dot; w > start && !is_blank((unsigned char)w[-1]) &&
	    w[-1] != '('; w--)
		;
	n = (size_t)(dot - w);
	if (n == 1 && ((*w >= 'A' && *w <= 'Z') || (*w >= 'a' && *w <= 'z')))
		return 1;	/* an initial, "A. Smith" */
	for (i = 0; abbr[i] != NULL; i++) {
		if (strlen(abbr[i]) == n && strncmp(w, abbr[i], n) == 0)
			return 1;
	}
	return 0;
}

/* Length in bytes of the first sentence of s (collapsed). */
static size_t
first_sentence(const char *s)
{
	const char	*p;

	for (p = s; *p != '\0'; p++) {
		if ((*p == '.' || *p == '!' || *p == '?') &&
		    (p[1] == ' ' || p[1] == '\0') && p > s) {
			if (*p == '.' && is_abbrev(s, p))
				continue;
			return (size_t)(p - s) + 1;
		}
		/* 。！？ (U+3002, U+FF01, U+FF1F) */
		if ((unsigned char)p[0] == 0xe3 && (unsigned char)p[1] == 0x80 &&
		    (unsigned char)p[2] == 0x82)
			return (size_t)(p - s) + 3;
		if ((unsigned char)p[0] == 0xef && (unsigned char)p[1] == 0xbc &&
		    ((unsigned char)p[2] == 0x81 || (unsigned char)p[2] == 0x9f))
			return (size_t)(p - s) + 3;
	}
	return (size_t)(p - s);
}

/*
 * Byte offset of the end of the longest prefix of s[0..len) holding at
 * most max code points and ending on a grapheme boundary; *last_space
 * gets the offset of the last space before it (0 if none).
 */
static size_t
grapheme_prefix(const char *s, size_t len, size_t max, size_t *last_space)
{
	utf8proc_int32_t	 c, prev = -1;
	utf8proc_int32_t	 state = 0;
	utf8proc_ssize_t	 w;
	size_t			 i = 0, n = 0, ok = 0;

	*last_space = 0;
	while (i < len) {
		w = utf8proc_iterate((const utf8proc_uint8_t *)s + i,
		    (utf8proc_ssize_t)(len - i), &c);
		if (w <= 0)
			break;		/* invalid UTF-8: stop before it */
		if (prev < 0 || utf8proc_grapheme_break_stateful(prev, c,
		    &state)) {
			ok = i;		/* a cluster may end here */
			if (c == ' ')
				*last_space = i;
		}
		if (++n > max)
			return ok;
		prev = c;
		i += (size_t)w;
	}
	return i;
}

static int
is_trailing_junk(int c)
{
	return c == ' ' || c == ',' || c == ';' || c == ':' || c == '-' ||
	    c == '(' || c == '/' || c == '.' || c == '&';
}

/*
 * Openings that say nothing in a one-line gist ("This skill should be used
 * when the user asks to ..."); matched without regard to ASCII case.
 */
static const char *const boilerplate[] = {
	"this skill should be used when the user asks to ",
	"this skill should be used when the user wants to ",
	"this skill should be used when the user asks for ",
	"this skill should be used when ",
	"use this skill when the user asks to ",
	"use this skill when the user wants to ",
	"use this skill when you need to ",
	"use this skill when ",
	"use this skill for ",
	"use this skill to ",
	"use when the user asks to ",
	"use when the user wants to ",
	"use when the user asks for ",
	"use when you need to ",
	"use when ",
	"use this when ",
	"use for ",
	"this skill helps ",
	"this skill provides ",
	"this skill ",
	"a skill that ",
	"cuando el usuario quiere ",
	NULL
};

/* Skips a boilerplate opening; returns s itself when there is none. */
static const char *
skip_boilerplate(const char *s)
{
	size_t	 i, n;

	for (i = 0; boilerplate[i] != NULL; i++) {
		n = strlen(boilerplate[i]);
		if (strncasecmp(s, boilerplate[i], n) == 0 && s[n] != '\0')
			return s + n;
	}
	return s;
}

char *
miniindex_summary(const char *description, size_t max)
{
	char		*t, *out;
	const char	*body;
	size_t		 len, cut, sp, n;

	if (description == NULL || max == 0)
		return xstrdup("");
	out = collapse(description);
	body = skip_boilerplate(out);
	t = xstrdup(body);
	free(out);
	len = first_sentence(t);
	/* A final period costs a token on every line: drop it. */
	if (len > 0 && t[len - 1] == '.')
		len--;
	cut = grapheme_prefix(t, len, max, &sp);
	if (cut >= len) {
		out = xstrndup(t, len);
		free(t);
		return out;
	}
	/* Too long: room for the ellipsis, at a word boundary if one is near. */
	cut = grapheme_prefix(t, len, max - 1, &sp);
	if (sp > 0 && sp * 2 >= cut)
		cut = sp;
	while (cut > 0 && is_trailing_junk((unsigned char)t[cut - 1]))
		cut--;
	n = cut;
	out = xmalloc(n + sizeof "…");
	memcpy(out, t, n);
	memcpy(out + n, "…", sizeof "…");
	free(t);
	return out;
}

/* Words a keyword gist leaves out (ASCII, lower case). */
static int
is_filler(const char *w, size_t n)
{
	static const char *const filler[] = {
		"a", "about", "an", "and", "any", "are", "as", "asks", "at",
		"be", "by", "can", "complete", "comprehensive", "expert",
		"for", "from", "guidance", "guide", "help", "helps", "in",
		"into", "is", "it", "its", "master", "of", "on", "or",
		"provides", "skill", "such", "that", "the", "their", "this",
		"to", "tool", "toolkit", "use", "used", "user", "using", "via",
		"wants", "when", "which", "with", "you", "your", NULL
	};
	size_t	 i;

	for (i = 0; filler[i] != NULL; i++) {
		if (strlen(filler[i]) == n && strncasecmp(w, filler[i], n) == 0)
			return 1;
	}
	return 0;
}

/* Is w (n bytes) one of the parts of name? */
static int
in_name(const char *name, const char *w, size_t n)
{
	const char	*p = name;
	size_t		 k;

	while (*p != '\0') {
		k = strcspn(p, "-_:.");
		/* "design" and "designer" cover each other */
		if (k >= 4 && n >= 4 && strncasecmp(p, w, k < n ? k : n) == 0 &&
		    (k > n ? k - n : n - k) <= 3)
			return 1;
		if (k == n && strncasecmp(p, w, n) == 0)
			return 1;
		p += k;
		if (*p != '\0')
			p++;
	}
	return 0;
}

static int
is_ascii_word(const char *w, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		if ((unsigned char)w[i] >= 0x80)
			return 0;
	return 1;
}

/* The longest cut of s (summary rules) within max_tokens; allocated. */
static char *
cut_to_tokens(const char *s, size_t max_chars, size_t max_tokens)
{
	char	*r;
	size_t	 c = max_chars;

	for (;;) {
		r = miniindex_summary(s, c);
		if (tokens_estimate_part(r, strlen(r)) <= max_tokens || c <= 5)
			break;
		free(r);
		c = c > 8 ? c * 3 / 4 : c - 1;
	}
	/* A stub of a word tells nothing. */
	if (tokens_estimate_part(r, strlen(r)) > max_tokens || c <= 5)
		*r = '\0';
	return r;
}

char *
miniindex_keywords(const char *description, const char *name,
    size_t max, size_t max_tokens)
{
	struct buf	 b;
	char		*t, *sent;
	const char	*w, *e, *end;
	size_t		 n, chars = 0, wc, sp, before;

	t = miniindex_summary(description, (size_t)-1);
	buf_init(&b, 0);
	end = t + strlen(t);
	for (w = t; w < end; w = e) {
		while (w < end && (*w == ' ' || *w == ',' || *w == ';' ||
		    *w == '(' || *w == ')' || *w == '"' || *w == '.' ||
		    *w == ':'))
			w++;
		for (e = w; e < end && *e != ' ' && *e != ',' && *e != ';' &&
		    *e != '(' && *e != ')' && *e != '"' && *e != ':'; e++)
			;
		if (e > w && e[-1] == '.')
			n = (size_t)(e - w) - 1;
		else
			n = (size_t)(e - w);
		if (n == 0 || is_filler(w, n) ||
		    (name != NULL && in_name(name, w, n)))
			continue;
		/* Characters, not bytes: count code points. */
		wc = 0;
		for (sp = 0; sp < n; sp++)
			wc += ((unsigned char)w[sp] & 0xc0) != 0x80;
		if (chars + (b.len > 0) + wc > max) {
			if (b.len == 0 && !is_ascii_word(w, n)) {
				/* CJK text without spaces: a cut. */
				sent = cut_to_tokens(w, max, max_tokens);
				buf_addstr(&b, sent);
				free(sent);
			}
			break;
		}
		before = b.len;
		if (b.len > 0)
			buf_addc(&b, ' ');
		buf_add(&b, w, n);
		if (tokens_estimate_part(b.p, b.len) > max_tokens) {
			b.len = before;
			b.p[b.len] = '\0';
			if (b.len == 0 && !is_ascii_word(w, n)) {
				sent = cut_to_tokens(w, max, max_tokens);
				buf_addstr(&b, sent);
				free(sent);
			}
			break;
		}
		chars += wc + (before > 0);
	}
	free(t);
	return buf_take(&b);
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
is_stop_part(const char *p)
{
	static const char *const stop[] = {
		"a", "an", "and", "the", "for", "to", "of", "with", "in", "on",
		"skill", "skills", "de", "la", "el", "und", "der", "die", NULL
	};
	size_t	 i;

	for (i = 0; stop[i] != NULL; i++)
		if (strcmp(p, stop[i]) == 0)
			return 1;
	return 0;
}

/* Adds the parts of a name ("pdf", "extract" for "pdf-extract") to l. */
static void
name_parts(const struct skill *s, struct strlist *l)
{
	const char	*n = s->name != NULL ? s->name : s->uid;
	char		*p;
	size_t		 k;

	struct strlist	 own;

	strlist_init(&own);
	while (*n != '\0') {
		k = strcspn(n, "-_:.");
		if (k > 0) {
			p = xstrndup(n, k);
			if (is_stop_part(p) || strlist_contains(&own, p, 0))
				free(p);
			else
				strlist_add_take(&own, p);
		}
		n += k;
		if (*n != '\0')
			n++;
	}
	for (k = 0; k < own.n; k++)
		strlist_add(l, own.v[k]);
	strlist_done(&own);
}

/*
 * Clusters of shared name parts, greedily: the part most unassigned
 * entries share becomes a group of all of them, until no part is shared
 * by CLUSTER_MIN entries; the rest go to "other". lab[i] gets each
 * entry's group (allocated).
 */
static void
cluster_greedy(struct mi *m, char **lab)
{
	struct strlist	*parts, all;
	struct counts	 c;
	const char	*best;
	size_t		 i, j, k, bestk;

	parts = xcalloc(m->n > 0 ? m->n : 1, sizeof *parts);
	for (i = 0; i < m->n; i++) {
		strlist_init(&parts[i]);
		name_parts(m->e[i].s, &parts[i]);
	}
	for (;;) {
		strlist_init(&all);
		for (i = 0; i < m->n; i++)
			if (lab[i] == NULL)
				for (j = 0; j < parts[i].n; j++)
					strlist_add(&all, parts[i].v[j]);
		counts_build(&c, &all);
		best = NULL;
		bestk = 0;
		for (k = 0; k < c.len; k++) {
			if (c.n[k] > bestk) {	/* ties: the first by name */
				best = c.name[k];
				bestk = c.n[k];
			}
		}
		if (best == NULL || bestk < CLUSTER_MIN) {
			counts_done(&c);
			strlist_done(&all);
			break;
		}
		for (i = 0; i < m->n; i++)
			if (lab[i] == NULL &&
			    strlist_contains(&parts[i], best, 0))
				lab[i] = xstrdup(best);
		counts_done(&c);
		strlist_done(&all);
	}
	for (i = 0; i < m->n; i++) {
		if (lab[i] == NULL)
			lab[i] = xstrdup("other");
		strlist_done(&parts[i]);
	}
	free(parts);
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
			qsort(all.v, all.n, sizeof *all.v, cmp_str);
			for (i = 1, k = all.n > 0; i < all.n; i++)
				k += strcmp(all.v[i], all.v[i - 1]) != 0;
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

/* ---- rendering ------------------------------------------------------ */

static void
render_header(const struct mi *m, struct buf *b, enum miniindex_level lv)
{
	if (m->tiny) {
		buf_printf(b, "# Skills\n%zu skills: search_skills(\"task\") or "
		    "load_skill(\"name\") (skills-radar MCP).\n", m->n);
		return;
	}
	if ((m->opts->flags & MINIINDEX_MCP) == 0)
		buf_addstr(b, "<!-- skills-radar mini-index: generated, "
		    "do not edit -->\n");
	buf_printf(b, "# Skills\n%zu skill%s via the skills-radar MCP server. "
	    "Before a task, check this list, then call search_skills(\"task "
	    "in plain words\") or load_skill(\"name\") and follow what it "
	    "returns.", m->n, m->n == 1 ? "" : "s");
	if (lv >= MINIINDEX_TOP)
		buf_addstr(b, " Not every skill is named here: search_skills "
		    "finds the rest.");
	buf_addstr(b, "\n");
}

static void
render_heading(const struct mi *m, struct buf *b, const struct group *g,
    int with_count)
{
	if (!m->headings && !with_count)
		return;
	if (with_count)
		buf_printf(b, "\n## %s (%zu)\n", g->name, g->n);
	else
		buf_printf(b, "\n## %s\n", g->name);
}

/*
 * Gists at cap characters (0: none) for every entry: the first sentence
 * when it fits whole, else keywords.
 */
static void
set_gists(struct mi *m, size_t cap)
{
	size_t	 i;

	for (i = 0; i < m->n; i++) {
		free(m->e[i].gist);
		m->e[i].gist = NULL;
		if (cap == 0)
			continue;
		if (cap >= MINIINDEX_SUMMARY_MAX)
			m->e[i].gist = miniindex_summary(
			    m->e[i].s->description, cap);
		else
			m->e[i].gist = miniindex_keywords(
			    m->e[i].s->description, m->e[i].s->name,
			    MINIINDEX_SUMMARY_MAX - 1, cap);
	}
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

/*
 * Gists of cap tokens for the n entries whose names say least (the
 * shortest), none for the rest.
 */
static void
set_gists_some(struct mi *m, size_t cap, size_t n)
{
	struct ent	**order;
	size_t		  i;

	set_gists(m, 0);
	order = xcalloc(m->n > 0 ? m->n : 1, sizeof *order);
	for (i = 0; i < m->n; i++)
		order[i] = &m->e[i];
	qsort(order, m->n, sizeof *order, cmp_opaque);
	for (i = 0; i < n && i < m->n; i++)
		order[i]->gist = miniindex_keywords(order[i]->s->description,
		    order[i]->s->name, MINIINDEX_SUMMARY_MAX - 1, cap);
	free(order);
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
cmp_label(const void *a, const void *b)
{
	return strcmp((*(const struct ent *const *)a)->label,
	    (*(const struct ent *const *)b)->label);
}

static int
cmp_group_size(const void *a, const void *b)
{
	const struct group	*x = *(const struct group *const *)a;
	const struct group	*y = *(const struct group *const *)b;

	if (x->n != y->n)
		return x->n < y->n ? 1 : -1;
	return cmp_group_name(x->name, y->name);
}

/*
 * Renders the text at a level: arg is the gist cap (FULL, SHORT), the
 * share of each group named, per mille (TOP), or the groups shown (COUNTS).
 */
static char *
render(struct mi *m, enum miniindex_level lv, size_t arg, size_t *named)
{
	struct buf		 b;
	const struct group	*g, **gs;
	const struct ent	**top;
	size_t			 i, j, k;

	buf_init(&b, 0);
	*named = 0;
	render_header(m, &b, lv);
	if (lv == MINIINDEX_COUNTS && m->ng > 0) {
		gs = xcalloc(m->ng, sizeof *gs);
		for (i = 0; i < m->ng; i++)
			gs[i] = &m->g[i];
		qsort(gs, m->ng, sizeof *gs, cmp_group_size);
		buf_addstr(&b, "\nGroups: ");
		for (i = 0; i < m->ng && i < arg; i++)
			buf_printf(&b, "%s%s (%zu)", i > 0 ? ", " : "",
			    gs[i]->name, gs[i]->n);
		if (i < m->ng)
			buf_printf(&b, ", %zu more", m->ng - i);
		buf_addstr(&b, "\n");
		free(gs);
	}
	if (lv == MINIINDEX_COUNTS || lv == MINIINDEX_HEADER)
		return buf_take(&b);
	for (i = 0; i < m->ng; i++) {
		g = &m->g[i];
		if (lv != MINIINDEX_TOP)
			render_heading(m, &b, g, 0);
		else if (i == 0)
			buf_addstr(&b, "\n");
		if (lv == MINIINDEX_FULL || lv == MINIINDEX_SHORT) {
			if (!m->headings && i == 0)
				buf_addstr(&b, "\n");
			for (j = 0; j < g->n; j++) {
				const struct ent *e = &m->e[g->first + j];
				/* Short gists go without the bullet. */
				if (lv == MINIINDEX_FULL)
					buf_addstr(&b, "- ");
				if (e->gist != NULL && *e->gist != '\0')
					buf_printf(&b, "%s: %s\n", e->label,
					    e->gist);
				else
					buf_printf(&b, "%s\n", e->label);
			}
			*named += g->n;
			continue;
		}
		if (!m->headings && lv == MINIINDEX_NAMES && i == 0)
			buf_addstr(&b, "\n");
		top = xcalloc(g->n, sizeof *top);
		for (j = 0; j < g->n; j++)
			top[j] = &m->e[g->first + j];
		k = g->n;
		if (lv == MINIINDEX_TOP) {
			/*
			 * One line per group, "group (n): a, b, +k more"; the
			 * same share of every group is named, rounded down.
			 */
			k = g->n * arg / 1000;
			qsort(top, g->n, sizeof *top, cmp_rank);
			qsort(top, k, sizeof *top, cmp_label);
			buf_printf(&b, "%s (%zu)%s", g->name, g->n,
			    k > 0 ? ": " : "");
		}
		for (j = 0; j < k; j++)
			buf_printf(&b, "%s%s", j > 0 ? ", " : "", top[j]->label);
		if (k < g->n && k > 0)
			buf_printf(&b, ", +%zu more", g->n - k);
		buf_addstr(&b, "\n");
		*named += k;
		free(top);
	}
	return buf_take(&b);
}

/* ---- the budget search ---------------------------------------------- */

struct try {
	char	*text;
	size_t	 tokens;
	size_t	 named;
};

/* Renders and prices; keeps the result in *best when it fits. */
static int
attempt(struct mi *m, enum miniindex_level lv, size_t arg, struct try *best)
{
	char	*t;
	size_t	 tok, named;

	t = render(m, lv, arg, &named);
	tok = tokens_estimate_str(t);
	if (m->opts->budget != 0 && tok > m->opts->budget) {
		free(t);
		return 0;
	}
	free(best->text);
	best->text = t;
	best->tokens = tok;
	best->named = named;
	return 1;
}

/*
 * Largest arg in [lo, hi] for which the level fits, by bisection (the
 * cost grows with arg); 0 when even lo does not fit.
 */
static size_t
bisect(struct mi *m, enum miniindex_level lv, size_t lo, size_t hi,
    struct try *best, int gists)
{
	size_t	 mid, good = 0;

	while (lo <= hi) {
		mid = lo + (hi - lo) / 2;
		if (gists == 1)
			set_gists(m, mid);
		else if (gists == 2)
			set_gists_some(m, GIST_SOME_TOKENS, mid);
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

char *
miniindex_text(const struct skill_set *set, const struct miniindex_opts *opts,
    size_t *tokens_out, struct miniindex_info *info)
{
	struct mi		 m;
	struct strlist		 names;
	struct try		 best = { NULL, 0, 0 };
	struct miniindex_info	 in;
	size_t			 i, maxg = 0, arg;
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
	for (i = 0; i < m.ng; i++)
		if (m.g[i].n > maxg)
			maxg = m.g[i].n;

	lv = MINIINDEX_FULL;
	arg = MINIINDEX_SUMMARY_MAX;
	set_gists(&m, arg);
	if (attempt(&m, lv, arg, &best))
		goto done;
	lv = MINIINDEX_SHORT;
	if ((arg = bisect(&m, lv, GIST_MIN_TOKENS, GIST_MAX_TOKENS,
	    &best, 1)) != 0) {
		set_gists(&m, arg);
		goto done;
	}
	/* Gists for some: the shortest, most opaque names first. */
	if (m.n > 1 && (arg = bisect(&m, lv, 1, m.n - 1, &best, 2)) != 0) {
		set_gists_some(&m, GIST_SOME_TOKENS, arg);
		arg = GIST_SOME_TOKENS;
		goto done;
	}
	set_gists(&m, 0);
	lv = MINIINDEX_NAMES;
	arg = 0;
	if (attempt(&m, lv, 0, &best))
		goto done;
	lv = MINIINDEX_TOP;
	if (maxg > 1 && (arg = bisect(&m, lv, 1, 999, &best, 0)) != 0)
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
	for (i = 0; lv <= MINIINDEX_SHORT && i < m.n; i++)
		in.with_gist += m.e[i].gist != NULL && *m.e[i].gist != '\0';
	in.gist_chars = lv == MINIINDEX_FULL ? arg : 0;
	in.gist_tokens = lv == MINIINDEX_SHORT ? arg : 0;
	in.groups = m.ng;
	in.tokens = best.tokens;
	if (tokens_out != NULL)
		*tokens_out = best.tokens;
	if (info != NULL)
		*info = in;
	for (i = 0; i < m.n; i++)
		free(m.e[i].gist);
	for (i = 0; i < m.ng; i++)
		free(m.g[i].name);
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

/* ---- files ---------------------------------------------------------- */

/* Creates the parent directories of path (mode 0755). */
static int
make_parents(const char *path, char **cause)
{
	char	*p, *s;

	p = xstrdup(path);
	for (s = p + 1; *s != '\0'; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0755) == -1 && errno != EEXIST) {
			xasprintf(cause, "%s: %s", p, strerror(errno));
			free(p);
			return SR_IO;
		}
		*s = '/';
	}
	free(p);
	return 0;
}

int
miniindex_write_file(const char *path, const char *data, size_t len,
    char **cause)
{
	struct stat	 st;
	char		*tmp = NULL;
	mode_t		 mode, mask;
	size_t		 off = 0;
	ssize_t		 w;
	int		 fd = -1, rv = SR_IO;

	*cause = NULL;
	if ((rv = make_parents(path, cause)) != 0)
		return rv;
	rv = SR_IO;
	if (stat(path, &st) == 0)
		mode = st.st_mode & 07777;
	else {
		mask = umask(022);
		umask(mask);
		mode = 0666 & ~mask;
	}
	xasprintf(&tmp, "%s.XXXXXX", path);
	if ((fd = mkstemp(tmp)) == -1) {
		xasprintf(cause, "%s: %s", tmp, strerror(errno));
		free(tmp);
		return SR_IO;
	}
	while (off < len) {
		if ((w = write(fd, data + off, len - off)) == -1) {
			if (errno == EINTR)
				continue;
			xasprintf(cause, "%s: %s", tmp, strerror(errno));
			goto out;
		}
		off += (size_t)w;
	}
	if (fchmod(fd, mode) == -1 || fsync(fd) == -1) {
		xasprintf(cause, "%s: %s", tmp, strerror(errno));
		goto out;
	}
	if (close(fd) == -1) {
		fd = -1;
		xasprintf(cause, "%s: %s", tmp, strerror(errno));
		goto out;
	}
	fd = -1;
	if (rename(tmp, path) == -1) {
		xasprintf(cause, "%s: %s", path, strerror(errno));
		goto out;
	}
	rv = 0;
out:
	if (fd != -1)
		close(fd);
	if (rv != 0)
		unlink(tmp);
	free(tmp);
	return rv;
}

int
miniindex_check_file(const char *path, const char *text, char **cause)
{
	char	*data;
	size_t	 len;
	int	 rv;

	*cause = NULL;
	if (buf_read_file(path, FILE_MAX, &data, &len) == -1) {
		if (errno == ENOENT)
			return 1;
		xasprintf(cause, "%s: %s", path, strerror(errno));
		return SR_IO;
	}
	rv = len == strlen(text) && memcmp(data, text, len) == 0 ? 0 : 1;
	free(data);
	return rv;
}

char *
miniindex_import_line(const char *path)
{
	const char	*home = getenv("HOME");
	char		*line;
	size_t		 n;

	if (home != NULL && (n = strlen(home)) > 0 && home[n - 1] == '/')
		n--;
	if (home != NULL && n > 0 && strncmp(path, home, n) == 0 &&
	    path[n] == '/')
		xasprintf(&line, "@~%s", path + n);
	else
		xasprintf(&line, "@%s", path);
	return line;
}

char *
miniindex_claude_md_path(void)
{
	return config_expand_tilde("~/.claude/CLAUDE.md");
}

/* Reads a file that may be missing (*data NULL then). */
static int
read_optional(const char *path, char **data, size_t *len, char **cause)
{
	*data = NULL;
	*len = 0;
	if (buf_read_file(path, FILE_MAX, data, len) == 0)
		return 0;
	*data = NULL;
	if (errno == ENOENT)
		return 0;
	xasprintf(cause, "%s: %s", path, strerror(errno));
	return SR_IO;
}

/* Does [s, e) hold exactly line, ignoring a trailing CR and blanks? */
static int
line_is(const char *s, const char *e, const char *line)
{
	size_t	 n = strlen(line);

	while (e > s && (e[-1] == '\r' || e[-1] == ' ' || e[-1] == '\t'))
		e--;
	return (size_t)(e - s) == n && memcmp(s, line, n) == 0;
}

static int
backup(const char *path, const char *data, size_t len, char **cause)
{
	char	*bak;
	int	 rv;

	xasprintf(&bak, "%s.bak", path);
	rv = miniindex_write_file(bak, data, len, cause);
	free(bak);
	return rv;
}

int
miniindex_install(const char *claude_md, const char *index_path,
    int *changed, char **cause)
{
	struct buf	 b;
	char		*data = NULL, *line;
	const char	*s, *e;
	size_t		 len;
	int		 rv;

	*cause = NULL;
	if (changed != NULL)
		*changed = 0;
	line = miniindex_import_line(index_path);
	buf_init(&b, 0);
	if ((rv = read_optional(claude_md, &data, &len, cause)) != 0)
		goto out;
	if (data != NULL) {
		for (s = data; s < data + len; s = e + 1) {
			if ((e = memchr(s, '\n', (size_t)(data + len - s))) ==
			    NULL)
				e = data + len;
			if (line_is(s, e, line))
				goto out;	/* already there */
		}
		if ((rv = backup(claude_md, data, len, cause)) != 0)
			goto out;
		buf_add(&b, data, len);
		if (len > 0 && data[len - 1] != '\n')
			buf_addc(&b, '\n');
	}
	buf_printf(&b, "%s\n", line);
	if ((rv = miniindex_write_file(claude_md, b.p, b.len, cause)) != 0)
		goto out;
	if (changed != NULL)
		*changed = 1;
out:
	buf_done(&b);
	free(data);
	free(line);
	return rv;
}

int
miniindex_uninstall(const char *claude_md, const char *index_path,
    int *changed, char **cause)
{
	struct buf	 b;
	char		*data = NULL, *line;
	const char	*s, *e;
	size_t		 len;
	int		 rv, hit = 0;

	*cause = NULL;
	if (changed != NULL)
		*changed = 0;
	line = miniindex_import_line(index_path);
	buf_init(&b, 0);
	if ((rv = read_optional(claude_md, &data, &len, cause)) != 0 ||
	    data == NULL)
		goto out;
	for (s = data; s < data + len; s = e + 1) {
		if ((e = memchr(s, '\n', (size_t)(data + len - s))) == NULL)
			e = data + len;
		if (line_is(s, e, line)) {
			hit = 1;
			continue;
		}
		buf_add(&b, s, (size_t)(e - s) + (e < data + len));
	}
	if (!hit)
		goto out;
	if ((rv = backup(claude_md, data, len, cause)) != 0)
		goto out;
	if ((rv = miniindex_write_file(claude_md, b.p, b.len, cause)) != 0)
		goto out;
	if (changed != NULL)
		*changed = 1;
out:
	buf_done(&b);
	free(data);
	free(line);
	return rv;
}

int
miniindex_auto(const struct config *cfg, const struct skill_set *set,
    int *written, char **cause)
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
