/*
 * The gists of the Tier-1 mini-index (see miniindex_gist.h): a
 * description cut to its first sentence or boiled down to keywords, and,
 * for a skill whose description says no more than its name, a gist taken
 * from its when_to_use or the first prose paragraph of its body. Nothing
 * here knows about groups, rendering or the search for a text within the
 * budget; miniindex.c asks for a plan per entry and deals its words out.
 */
#include "autoconfig.h"

#include <ctype.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <utf8proc.h>

#include "base/buf.h"
#include "core/finding.h"
#include "tier1/miniindex_gist.h"
#include "safety/sanitize.h"
#include "core/skill.h"
#include "tier1/tokens.h"
#include "base/xmalloc.h"

/* Sentences of a description looked at for keywords. */
#define KW_SENTENCES	3
/* Long words without spaces (CJK) are gist words of this many characters. */
#define GLUE_CHARS	4
/*
 * cut_to_tokens() tries at most this many lengths: from 79 characters
 * by quarters down to 8, then one less down to 5.
 */
#define CUT_TRIES_MAX	32
/* Bytes of a description collapsed before looking for its first sentence. */
#define SUMMARY_PREFIX	512

/* A word list entry with its length, so lookups skip strlen(). */
struct word {
	const char	*s;
	size_t		 n;
};
#define WORD(lit)	{ lit, sizeof lit - 1 }

/*
 * The words a keyword gist may hold, in order, worked out once for a
 * description, name and character cap; kwplan_gist() then picks the
 * longest run of them within a token cap, so the gists of several caps
 * share the work. Word k ends at end[k] in the joined text (words one
 * space apart); tok[k] caches the estimate of the first k + 1 words.
 */
struct miniindex_gist_plan {
	char		*t;		/* the sentence; words point in */
	char		*src;		/* the description from that sentence */
	struct buf	 b;		/* every word the character cap admits */
	size_t		*end;
	size_t		*tok;		/* (size_t)-1: not yet priced */
	size_t		 n;
	const char	*first;		/* the first word */
	size_t		 first_n;
	const char	*stop;		/* the word the character cap refused */
	size_t		 stop_n;
	size_t		 max;
	/* cut_to_tokens()'s tries for the text to cut, made as needed */
	char		*cut_r[CUT_TRIES_MAX];
	size_t		 cut_c[CUT_TRIES_MAX];
	size_t		 cut_t[CUT_TRIES_MAX];
	size_t		 ncut;
};

/* ---- gists ---------------------------------------------------------- */

static int
is_blank(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' ||
	    c == '\f' || c == '\v';
}

/*
 * Whitespace runs to one space, trimmed; at most limit bytes of it (0: no
 * limit), which are then the start of the whole. *complete tells whether
 * all of s was read.
 */
static char *
collapse(const char *s, size_t limit, int *complete)
{
	char	*out, *o;
	size_t	 n = strlen(s);
	int	 pend = 0;

	if (limit == 0 || limit > n)
		limit = n;
	out = o = xmalloc(limit + 1);
	for (; *s != '\0'; s++) {
		if (is_blank((unsigned char)*s)) {
			pend = o != out;
			continue;
		}
		if ((size_t)(o - out) + pend + 1 > limit)
			break;
		if (pend)
			*o++ = ' ';
		pend = 0;
		*o++ = *s;
	}
	*complete = *s == '\0';
	*o = '\0';
	return out;
}

/* A period after these words does not end a sentence. */
static int
is_abbrev(const char *start, const char *dot)
{
	static const struct word	 abbr[] = {
		WORD("e.g"), WORD("i.e"), WORD("etc"), WORD("vs"),
		WORD("approx"), WORD("incl"), WORD("eg"), WORD("ie"),
		WORD("cf"), WORD("Dr"), WORD("Mr"), WORD("Ms"), WORD("z.B"),
		WORD("bzw"), WORD("ca"), WORD("u.a"), WORD("p.ej")
	};
	const char	*w;
	size_t		 n, i;

	for (w = dot; w > start && !is_blank((unsigned char)w[-1]) &&
	    w[-1] != '('; w--)
		;
	n = (size_t)(dot - w);
	if (n == 1 && ((*w >= 'A' && *w <= 'Z') || (*w >= 'a' && *w <= 'z')))
		return 1;	/* an initial, "A. Smith" */
	for (i = 0; i < sizeof abbr / sizeof abbr[0]; i++) {
		if (abbr[i].n == n && strncmp(w, abbr[i].s, n) == 0)
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
 * (when last_space is not NULL) gets the offset of the last space before
 * it (0 if none).
 */
static size_t
grapheme_prefix(const char *s, size_t len, size_t max, size_t *last_space)
{
	utf8proc_int32_t	 c, prev = -1;
	utf8proc_int32_t	 state = 0;
	utf8proc_ssize_t	 w;
	size_t			 i = 0, n = 0, ok = 0, dummy;

	if (max >= len) {
		/*
		 * No cut can be needed (a code point is at least a byte), so
		 * the answer is where valid UTF-8 ends. In ASCII every space
		 * starts a cluster; elsewhere, the boundaries are needed
		 * only for *last_space.
		 */
		if (last_space != NULL)
			*last_space = 0;
		for (i = 0; i < len && (unsigned char)s[i] < 0x80; i++)
			if (s[i] == ' ' && last_space != NULL)
				*last_space = i;
		if (i == len)
			return len;
		if (last_space == NULL) {
			while (i < len) {
				w = utf8proc_iterate(
				    (const utf8proc_uint8_t *)s + i,
				    (utf8proc_ssize_t)(len - i), &c);
				if (w <= 0)
					break;
				i += (size_t)w;
			}
			return i;
		}
		i = 0;
	}
	if (last_space == NULL)
		last_space = &dummy;
	*last_space = 0;
	/*
	 * ASCII first: each byte starts a cluster, but an LF after a CR.
	 * At the first other byte, start over the Unicode way.
	 */
	for (i = 0; i < len && (unsigned char)s[i] < 0x80; i++) {
		if (i == 0 || s[i - 1] != '\r' || s[i] != '\n') {
			ok = i;
			if (s[i] == ' ')
				*last_space = i;
		}
		if (++n > max)
			return ok;
	}
	if (i == len)
		return len;
	i = n = ok = 0;
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
static const struct word boilerplate[] = {
	WORD("this skill should be used when the user asks to "),
	WORD("this skill should be used when the user wants to "),
	WORD("this skill should be used when the user asks for "),
	WORD("this skill should be used when "),
	WORD("use this skill when the user asks to "),
	WORD("use this skill when the user wants to "),
	WORD("use this skill when you need to "),
	WORD("use this skill when "),
	WORD("use this skill for "),
	WORD("use this skill to "),
	WORD("use when the user asks to "),
	WORD("use when the user wants to "),
	WORD("use when the user asks for "),
	WORD("use when you need to "),
	WORD("use when "),
	WORD("use this when "),
	WORD("use for "),
	WORD("this skill helps "),
	WORD("this skill provides "),
	WORD("this skill "),
	WORD("a skill that "),
	WORD("cuando el usuario quiere "),
};

/* Skips a boilerplate opening; returns s itself when there is none. */
static const char *
skip_boilerplate(const char *s)
{
	size_t	 i, n;
	int	 c0 = tolower((unsigned char)*s);

	for (i = 0; i < sizeof boilerplate / sizeof boilerplate[0]; i++) {
		/* strncasecmp() would stop at the first byte: skip it early. */
		if (tolower((unsigned char)boilerplate[i].s[0]) != c0)
			continue;
		n = boilerplate[i].n;
		if (strncasecmp(s, boilerplate[i].s, n) == 0 && s[n] != '\0')
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
	int		 complete;

	if (description == NULL || max == 0)
		return xstrdup("");
	/*
	 * The first sentence is usually near the start: collapse a prefix,
	 * and the whole only when the prefix cannot tell where the sentence
	 * ends (first_sentence() looks at most two bytes past its end; the
	 * boilerplate is shorter than the prefix).
	 */
	out = collapse(description, SUMMARY_PREFIX, &complete);
	body = skip_boilerplate(out);
	t = xstrdup(body);
	free(out);
	len = first_sentence(t);
	if (!complete && len + 2 >= strlen(t)) {
		free(t);
		out = collapse(description, 0, &complete);
		body = skip_boilerplate(out);
		t = xstrdup(body);
		free(out);
		len = first_sentence(t);
	}
	/* A final period costs a token on every line: drop it. */
	if (len > 0 && t[len - 1] == '.')
		len--;
	cut = grapheme_prefix(t, len, max, NULL);
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
	static const struct word	 filler[] = {
		WORD("a"), WORD("about"), WORD("across"), WORD("after"),
		WORD("all"), WORD("also"), WORD("before"), WORD("between"),
		WORD("during"), WORD("each"), WORD("every"), WORD("if"),
		WORD("more"), WORD("not"), WORD("then"), WORD("whether"),
		WORD("while"), WORD("within"),
		WORD("an"), WORD("and"),
		WORD("any"), WORD("are"), WORD("as"), WORD("asked"),
		WORD("asks"),
		WORD("at"), WORD("be"), WORD("by"), WORD("can"),
		WORD("complete"), WORD("comprehensive"), WORD("expert"),
		WORD("for"), WORD("from"), WORD("guidance"), WORD("guide"),
		WORD("help"), WORD("helps"), WORD("in"), WORD("into"),
		/* verbs that the rest of a gist implies */
		WORD("build"), WORD("builds"), WORD("building"),
		WORD("create"), WORD("creates"), WORD("creating"),
		WORD("generate"), WORD("generates"), WORD("generating"),
		WORD("handle"), WORD("handles"), WORD("implement"),
		WORD("implements"), WORD("make"), WORD("makes"),
		WORD("perform"), WORD("performs"), WORD("produce"),
		WORD("produces"), WORD("understand"), WORD("work"),
		WORD("working"), WORD("works"), WORD("various"),
		WORD("is"), WORD("it"), WORD("its"), WORD("master"),
		WORD("how"), WORD("including"), WORD("like"),
		WORD("need"), WORD("needs"),
		WORD("of"), WORD("on"), WORD("or"), WORD("provides"),
		WORD("should"), WORD("skill"), WORD("skills"), WORD("such"),
		WORD("that"), WORD("the"), WORD("these"),
		WORD("their"), WORD("this"), WORD("to"), WORD("tool"),
		WORD("toolkit"), WORD("use"), WORD("used"), WORD("user"),
		WORD("using"), WORD("via"), WORD("wants"), WORD("when"),
		WORD("whenever"), WORD("which"), WORD("with"), WORD("you"),
		WORD("your"),
		/* Spanish, German, French */
		WORD("con"), WORD("de"), WORD("del"), WORD("el"), WORD("en"),
		WORD("la"), WORD("las"), WORD("los"), WORD("para"),
		WORD("por"), WORD("un"), WORD("una"), WORD("y"),
		WORD("das"), WORD("der"), WORD("die"), WORD("für"),
		WORD("mit"), WORD("oder"), WORD("und"), WORD("von"),
		WORD("zu"), WORD("des"), WORD("et"), WORD("le"), WORD("les"),
		WORD("pour"), WORD("o"), WORD("e"), WORD("u"), WORD("hat"),
		WORD("ist"), WORD("sind"), WORD("wird"), WORD("ein"),
		WORD("eine"), WORD("einen"), WORD("es"), WORD("sie"),
		WORD("wenn"), WORD("als"), WORD("auf"), WORD("bei"),
		WORD("im"), WORD("nach"), WORD("um"), WORD("workflow-skill")
	};
	size_t	 i;

	for (i = 0; i < sizeof filler / sizeof filler[0]; i++) {
		if (filler[i].n == n && strncasecmp(w, filler[i].s, n) == 0)
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

/*
 * How many code points of w[0..n) pred accepts; *total gets how many
 * there are (up to invalid UTF-8).
 */
static size_t
count_cps(const char *w, size_t n, int (*pred)(utf8proc_int32_t),
    size_t *total)
{
	utf8proc_int32_t	 c;
	utf8proc_ssize_t	 k;
	size_t			 i = 0, hits = 0;

	*total = 0;
	while (i < n) {
		k = utf8proc_iterate((const utf8proc_uint8_t *)w + i,
		    (utf8proc_ssize_t)(n - i), &c);
		if (k <= 0)
			break;
		hits += pred(c) != 0;
		(*total)++;
		i += (size_t)k;
	}
	return hits;
}

/* From U+2E80: CJK, kana, hangul, the full-width forms. */
static int
is_spaceless_cp(utf8proc_int32_t c)
{
	return c >= 0x2e80;
}

static int
is_punct_cp(utf8proc_int32_t c)
{
	switch (utf8proc_category(c)) {
	case UTF8PROC_CATEGORY_PC: case UTF8PROC_CATEGORY_PD:
	case UTF8PROC_CATEGORY_PS: case UTF8PROC_CATEGORY_PE:
	case UTF8PROC_CATEGORY_PI: case UTF8PROC_CATEGORY_PF:
	case UTF8PROC_CATEGORY_PO: case UTF8PROC_CATEGORY_SM:
		return 1;
	default:
		return 0;
	}
}

/* Does the word hold a character of a script written without spaces? */
static int
spaceless(const char *w, size_t n)
{
	size_t	 total;

	return count_cps(w, n, is_spaceless_cp, &total) > 0;
}

/* A word of punctuation only ("—", "&", "/"). */
static int
is_punct(const char *w, size_t n)
{
	size_t	 total, hits = count_cps(w, n, is_punct_cp, &total);

	return total > 0 && hits == total;
}

/* A bare number ("5", "20+") says nothing without its noun. */
static int
is_number(const char *w, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		if (!isdigit((unsigned char)w[i]) && w[i] != '+' &&
		    w[i] != '%')
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

static void
kwplan_words(struct miniindex_gist_plan *p, const char *description,
    const char *name, size_t max)
{
	const char	*w, *e, *end;
	size_t		 n, chars = 0, wc, sp, cap = 0, piece;

	memset(p, 0, sizeof *p);
	p->max = max;
	p->t = miniindex_summary(description, (size_t)-1);
	buf_init(&p->b, 0);
	end = p->t + strlen(p->t);
	for (w = p->t; w < end; w = e) {
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
		if (n == 0 || is_filler(w, n) || is_number(w, n) ||
		    is_punct(w, n) ||
		    (name != NULL && in_name(name, w, n)))
			continue;
		/* Characters, not bytes: count code points. */
		wc = 0;
		for (sp = 0; sp < n; sp++)
			wc += ((unsigned char)w[sp] & 0xc0) != 0x80;
		if (chars + (p->b.len > 0) + wc > max) {
			p->stop = w;
			p->stop_n = n;
			break;
		}
		if (p->n == 0) {
			p->first = w;
			p->first_n = n;
		}
		if (p->b.len > 0)
			buf_addc(&p->b, ' ');
		chars += wc + (p->b.len > 0);
		/*
		 * A long word of text written without spaces (CJK) is
		 * taken in pieces of a few characters, cut at grapheme
		 * boundaries and joined without a space, so a gist of k
		 * words is a natural prefix of it.
		 */
		for (sp = 0; sp < n; sp += piece) {
			piece = n - sp;
			if (wc > GLUE_CHARS * 2 && spaceless(w, n))
				piece = grapheme_prefix(w + sp, n - sp,
				    GLUE_CHARS, NULL);
			if (piece == 0)
				piece = n - sp;
			if (p->n == cap) {
				cap = cap > 0 ? cap * 2 : 16;
				p->end = xreallocarray(p->end, cap,
				    sizeof *p->end);
				p->tok = xreallocarray(p->tok, cap,
				    sizeof *p->tok);
			}
			buf_add(&p->b, w + sp, piece);
			p->end[p->n] = p->b.len;
			p->tok[p->n++] = (size_t)-1;
		}
	}
}

static void
kwplan_done(struct miniindex_gist_plan *p)
{
	size_t	 i;

	for (i = 0; i < p->ncut; i++)
		free(p->cut_r[i]);
	free(p->src);
	free(p->t);
	buf_done(&p->b);
	free(p->end);
	free(p->tok);
}

/*
 * The keyword plan of a description: its first sentence's words, or when
 * that sentence says nothing the name does not ("Workflow skill for
 * flight delays." for flight-delays), the next sentence's, up to
 * KW_SENTENCES. p->src keeps the description from the sentence used.
 */
static void
kwplan_init(struct miniindex_gist_plan *p, const char *description,
    const char *name, size_t max)
{
	char		*all;
	const char	*s, *body;
	int		 complete, k;

	all = collapse(description != NULL ? description : "", 0, &complete);
	for (s = all, k = 1;; k++) {
		kwplan_words(p, s, name, max);
		if (p->n > 0 || k == KW_SENTENCES)
			break;
		body = skip_boilerplate(s);
		body += first_sentence(body);
		while (*body == ' ')
			body++;
		if (*body == '\0')
			break;
		kwplan_done(p);
		s = body;
	}
	p->src = xstrdup(s);
	free(all);
}

/*
 * cut_to_tokens(w, p->max, max_tokens) for the one w a plan cuts (its
 * first word, or the word refused when there is none), keeping each try
 * (a cut and its estimate) for the next token cap.
 */
static char *
kwplan_cut(struct miniindex_gist_plan *p, const char *w, size_t max_tokens)
{
	size_t	 i, c;

	for (i = 0;; i++) {
		if (i == p->ncut) {
			if (i == CUT_TRIES_MAX)	/* cannot happen; be exact */
				return cut_to_tokens(w, p->max, max_tokens);
			c = i == 0 ? p->max : p->cut_c[i - 1] > 8 ?
			    p->cut_c[i - 1] * 3 / 4 : p->cut_c[i - 1] - 1;
			p->cut_c[i] = c;
			p->cut_r[i] = miniindex_summary(w, c);
			p->cut_t[i] = tokens_estimate_part(p->cut_r[i],
			    strlen(p->cut_r[i]));
			p->ncut++;
		}
		if (p->cut_t[i] <= max_tokens || p->cut_c[i] <= 5)
			break;
	}
	/* A stub of a word tells nothing. */
	if (p->cut_t[i] > max_tokens || p->cut_c[i] <= 5)
		return xstrdup("");
	return xstrdup(p->cut_r[i]);
}

/*
 * The keyword gist within max_tokens: the words up to the first whose
 * addition goes over (as adding them one by one and pricing each time
 * would find), or for text without spaces a cut of it. Allocated.
 */
static char *
kwplan_gist(struct miniindex_gist_plan *p, size_t max_tokens)
{
	const char	*w = NULL;
	size_t		 k, wn = 0;

	for (k = 0; k < p->n; k++) {
		if (p->tok[k] == (size_t)-1)
			p->tok[k] = tokens_estimate_part(p->b.p, p->end[k]);
		if (p->tok[k] > max_tokens)
			break;
	}
	if (k == 0 && p->n > 0) {
		w = p->first;
		wn = p->first_n;
	} else if (k == 0) {
		w = p->stop;
		wn = p->stop_n;
	}
	/* CJK text without spaces: a cut. */
	if (w != NULL && !is_ascii_word(w, wn))
		return kwplan_cut(p, w, max_tokens);
	if (k == 0)
		return xstrdup("");
	return xstrndup(p->b.p, p->end[k - 1]);
}

char *
miniindex_keywords(const char *description, const char *name,
    size_t max, size_t max_tokens)
{
	struct miniindex_gist_plan	 p;
	char				*r;

	kwplan_init(&p, description, name, max);
	r = kwplan_gist(&p, max_tokens);
	kwplan_done(&p);
	return r;
}

/* ---- body gists ---------------------------------------------------- */

/* Bytes of a SKILL.md read for a body gist, and kept of the paragraph. */
#define BODY_READ_MAX	16384
#define BODY_PARA_MAX	1024
#define BODY_PARA_MIN	24

/* A line that is markup rather than prose: headings, rules, lists, ... */
static int
is_markup_line(const char *l, size_t n)
{
	size_t	 i;

	if (n == 0)
		return 1;
	switch (l[0]) {
	case '#': case '|': case '>': case '<': case '!': case '[':
	case '-': case '*': case '+': case '=': case '_': case '`': case '~':
	case '{': case '$':
		/* "**Tier:** POWERFUL" and other bold key lines are markup. */
		return 1;
	}
	for (i = 0; i < n && isdigit((unsigned char)l[i]); i++)
		;
	if (i > 0 && i < n && (l[i] == '.' || l[i] == ')'))
		return 1;	/* an ordered list */
	return 0;
}

/*
 * The first paragraph of prose in a SKILL.md text (after the frontmatter,
 * skipping headings, rules, lists, tables, quotes, HTML, code fences and
 * bold "Key: value" lines), joined into one line; NULL when there is none.
 */
static char *
first_paragraph(const char *t, size_t len)
{
	struct buf	 b;
	const char	*p = t, *end = t + len, *nl;
	size_t		 n;
	int		 fence = 0, fm = 0;

	buf_init(&b, 0);
	buf_add(&b, "", 0);
	for (; p < end; p = nl < end ? nl + 1 : end) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
		n = (size_t)(nl - p);
		if (n > 0 && p[n - 1] == '\r')
			n--;
		while (n > 0 && (*p == ' ' || *p == '\t')) {
			p++;
			n--;
		}
		if (p == t && n == 3 && memcmp(p, "---", 3) == 0) {
			fm = 1;
			continue;
		}
		if (fm) {
			if ((n == 3 && memcmp(p, "---", 3) == 0) ||
			    (n == 3 && memcmp(p, "...", 3) == 0))
				fm = 0;
			continue;
		}
		if (n >= 3 && (memcmp(p, "```", 3) == 0 ||
		    memcmp(p, "~~~", 3) == 0)) {
			fence = !fence;
			if (b.len > 0)
				break;
			continue;
		}
		if (fence)
			continue;
		if (is_markup_line(p, n)) {
			if (b.len >= BODY_PARA_MIN)
				break;
			b.len = 0;	/* a fragment before markup: not prose */
			b.p[0] = '\0';
			continue;
		}
		if (b.len > 0)
			buf_addc(&b, ' ');
		buf_add(&b, p, n);
		if (b.len >= BODY_PARA_MAX)
			break;
	}
	if (fm || b.len < BODY_PARA_MIN || memchr(b.p, ' ', b.len) == NULL) {
		buf_done(&b);
		return NULL;
	}
	if (b.len > BODY_PARA_MAX)
		b.len = BODY_PARA_MAX;	/* the summary rules cut on a character */
	b.p[b.len] = '\0';
	return b.p;
}

/*
 * 1 when the sanitiser flags str at warn or above: such a frontmatter
 * string is not copied into CLAUDE.md, where an agent reads it on every
 * session.
 */
static int
flagged(const struct sanitizer *san, const char *str)
{
	struct findings	 f;
	int		 r;

	if (san == NULL || str == NULL || *str == '\0')
		return 0;
	findings_init(&f);
	sanitize_scan(san, str, strlen(str), 0, &f);
	r = findings_count(&f, SEV_WARN) > 0;
	findings_done(&f);
	return r;
}

/*
 * The gist source of a skill whose description says nothing its name does
 * not ("Agent Workflow Designer"): its when_to_use, else the first prose
 * paragraph of its body, made safe like a description and refused when
 * the skill or the paragraph raises a sanitiser finding at warn or above.
 * NULL when there is nothing better.
 */
static char *
body_gist(const struct sanitizer *san, const struct skill *s)
{
	struct findings	 f;
	char		 raw[BODY_READ_MAX];
	char		*para, *clean;
	ssize_t		 n;
	int		 fd;

	if (s->when_to_use != NULL && s->when_to_use[0] != '\0')
		return flagged(san, s->when_to_use) ? NULL :
		    xstrdup(s->when_to_use);
	if (san == NULL || s->n_flags > 0 || s->path == NULL)
		return NULL;
	if ((fd = buf_open_regular(s->path, NULL)) == -1)
		return NULL;	/* a FIFO would block the whole index */
	n = read(fd, raw, sizeof raw);
	close(fd);
	if (n <= 0 || (para = first_paragraph(raw, (size_t)n)) == NULL)
		return NULL;
	findings_init(&f);
	sanitize_scan(san, para, strlen(para), 0, &f);
	clean = findings_count(&f, SEV_WARN) == 0 ?
	    sanitize_inline(san, para) : NULL;
	findings_done(&f);
	free(para);
	return clean;
}

/* ---- plans ---------------------------------------------------------- */

struct miniindex_gist_plan *
miniindex_gist_plan_new(const struct skill *s, const struct sanitizer *san,
    size_t max)
{
	struct miniindex_gist_plan	*p;
	char				*alt;

	p = xmalloc(sizeof *p);
	/* A flagged description leaves the name alone (or a clean gist). */
	kwplan_init(p, flagged(san, s->description) ? "" : s->description,
	    s->name, max);
	if (p->n == 0 && (alt = body_gist(san, s)) != NULL) {
		kwplan_done(p);
		kwplan_init(p, alt, s->name, max);
		free(alt);
	}
	return p;
}

void
miniindex_gist_plan_free(struct miniindex_gist_plan *p)
{
	if (p == NULL)
		return;
	kwplan_done(p);
	free(p);
}

size_t
miniindex_gist_plan_words(const struct miniindex_gist_plan *p)
{
	return p->n;
}

const char *
miniindex_gist_plan_source(const struct miniindex_gist_plan *p)
{
	return p->src;
}

const char *
miniindex_gist_plan_prefix(const struct miniindex_gist_plan *p, size_t w,
    size_t *len)
{
	*len = p->end[w - 1];
	return p->b.p;
}
