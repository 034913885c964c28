/*
 * The sanitiser (DESIGN §7). Three layers run over every text:
 *
 *  1. A character pass over the original bytes classifies each code point.
 *     Invisible characters (zero-width, bidi controls, Unicode tag
 *     characters, supplementary variation selectors, C0/C1 controls) and
 *     invalid UTF-8 are reported (one finding per kind per line) and left
 *     out of the rewritten text. The same pass builds a scan copy: case
 *     folded, NFKC (width folded), Latin diacritics dropped, runs of blanks
 *     folded to one space, invisibles removed and tag characters decoded to
 *     the ASCII they smuggle, with a map from every byte of the copy back
 *     to the original offset (hence to a line). The folding itself is in
 *     sanitize_fold.c.
 *  2. The pattern catalogue (config/patterns/NAME.txt plus the user's files)
 *     runs over the scan copy. An entry with triggers (literals every match
 *     contains) only runs within its window (default 256 bytes) of their
 *     occurrences, found in one pass with hashed 2/3/4-byte prefix
 *     bitmaps; entries without triggers share a combined alternation that
 *     gates them (no hit: none runs; a hit: each runs from there). Loading
 *     and indexing the catalogue is sanitize_catalogue.c; running it and
 *     reporting its hits is here. Hits are flagged,
 *     never rewritten. Code is not quotation: in a skill a code block is
 *     what the agent runs, so a hit in code counts like any other, and
 *     the code analysis of codescan.c runs over fenced and inline code
 *     (and over bundled scripts, sanitize_file()). Context is weighed by
 *     rules, not by formatting: a hit inside a "quotation" on its line
 *     adds frame-quoted (once a call), the code analysis adds
 *     frame-imperative, frame-doc and host-placeholder.
 *  3. XML override tags (system override jailbreak admin sudo root plus
 *     sanitization.xml_tags), found on the scan copy so width and case
 *     tricks do not hide them, are redacted: a <tag>...</tag> pair with the
 *     same name as one block, a lone, unclosed or self-closing tag by
 *     itself. Live-exec !`cmd` is rewritten when strip_live_exec is set.
 *  4. sanitize_risk() weighs the findings with the risk table
 *     (risktable.c, config/risk.tsv plus sanitization.risk_files).
 *
 * A struct sanitizer is immutable after sanitize_new(); every call
 * allocates its own match data, so it can be shared between threads.
 */
#include "autoconfig.h"

#define PCRE2_CODE_UNIT_WIDTH 8

#include <glob.h>
#include <pcre2.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <utf8proc.h>

#include "base/buf.h"
#include "safety/codescan.h"
#include "core/config.h"
#include "core/finding.h"
#include "safety/risktable.h"
#include "safety/sanitize.h"
#include "safety/sanitize_catalogue.h"
#include "safety/sanitize_fold.h"
#include "safety/sanitize_frame.h"
#include "core/skill.h"
#include "base/status.h"
#include "base/strlist.h"
#include "base/xmalloc.h"

#define EXCERPT_MAX	80	/* bytes of a finding's excerpt */
#define MESSAGE_MAX	160	/* bytes of a code analysis message */
#define FINDINGS_MAX	256	/* findings one call may add */
#define TAG_SCAN_MAX	512	/* bytes from '<' to '>' in an override tag */
#define MATCH_LIMIT	2000000
#define HEAP_LIMIT_KB	20000

static const char *builtin_tags[] = {
	"system", "override", "jailbreak", "admin", "sudo", "root"
};
/* Built-in names that are also everyday XML elements (xml-lookalike-tag). */
#define WEAK_TAGS_FROM	3

struct sanitizer {
	struct sanitize_catalogue *cat;		/* owned */
	struct risk_table	*risk;		/* owned */
	pcre2_code		*role_re;	/* role markers, for inline */
	pcre2_match_context	*mctx;
	struct strlist		 tags;		/* override tag names, lower case */
	int			 strip_live_exec;
};

/* Kinds of hidden characters, each its own rule. */
enum hidden {
	HID_NONE = 0,
	HID_ZW,			/* zero-width and other invisible formatting */
	HID_ZW_QUIET,		/* removed, no finding (BOM at offset 0) */
	HID_BIDI,		/* bidi embedding, override, isolate */
	HID_BIDI_MARK,		/* LRM, RLM, ALM */
	HID_TAG,		/* U+E0000..U+E007F outside a flag emoji */
	HID_VS,			/* U+E0100..U+E01EF */
	HID_CTRL,		/* C0/C1 controls other than tab, LF, CR */
	HID_INVALID,		/* not UTF-8 */
	HID_NKINDS
};

static const struct {
	const char	*rule;
	enum severity	 sev;
} hidden_rules[HID_NKINDS] = {
	[HID_ZW] =	  { "hidden-zero-width", SEV_WARN },
	[HID_BIDI] =	  { "hidden-bidi", SEV_WARN },
	[HID_BIDI_MARK] = { "hidden-bidi-mark", SEV_INFO },
	[HID_TAG] =	  { "hidden-tag-chars", SEV_HIGH },
	[HID_VS] =	  { "hidden-variation-selector", SEV_WARN },
	[HID_CTRL] =	  { "hidden-control", SEV_WARN },
	[HID_INVALID] =	  { "invalid-utf8", SEV_INFO },
};

/* Decoder state shared by the scan pass and the rewrite pass. */
struct cpstate {
	int32_t		 prev;		/* previous code point kept */
	int		 flag_seq;	/* inside a U+1F3F4 tag sequence */
};

/* One line of the original: where it starts. */
struct line {
	size_t		 start;
};

/* A rewrite of the original [start, end). */
struct span {
	size_t		 start, end;
	int		 kind;		/* SPAN_XML_BLOCK, SPAN_XML_TAG, SPAN_LIVE */
	char		 tag[32];
};
enum { SPAN_XML_BLOCK, SPAN_XML_TAG, SPAN_LIVE };

/* Per-call working state. */
struct scan {
	const struct sanitizer	*s;
	const char		*text;
	size_t			 len;
	int			 line_base;
	struct findings		*out;
	size_t			 first;		/* out->n on entry */
	size_t			 added;
	int			 truncated;

	struct line		*lines;
	size_t			 nlines;

	struct sanitize_fold	 f;		/* the scan copy */

	int			 hid_line[HID_NKINDS][2];
	int			 quoted;	/* frame-quoted reported */
	int			 aside;		/* sanitize_file_aside(): every
						   hit is described */

	struct span		*spans;
	size_t			 nspans, spancap;

	size_t			*heading;	/* sanitize_frame_sections(),
						   on the first hit */
};

/* ---- code points ---------------------------------------------------- */

static int
cp_is_emoji(int32_t cp)
{
	return (cp >= 0x1F000 && cp <= 0x1FAFF) ||
	    (cp >= 0x2600 && cp <= 0x27BF) || cp == 0xFE0F;
}

/*
 * Classifies cp given the previous kept code point. ZWJ and ZWNJ are kept
 * in emoji sequences and after non-Latin letters (Arabic, Indic, Persian
 * text needs them); tag characters are kept inside a flag emoji.
 */
static enum hidden
cp_hidden(int32_t cp, size_t off, struct cpstate *st)
{
	if (cp < 0)
		return HID_INVALID;
	if (cp < 0x20) {
		if (cp == '\t' || cp == '\n' || cp == '\r')
			return HID_NONE;
		return HID_CTRL;
	}
	if (cp < 0x7F)
		return HID_NONE;
	if (cp == 0x7F || (cp >= 0x80 && cp <= 0x9F))
		return HID_CTRL;
	if (cp == 0x200C || cp == 0x200D) {
		if (cp_is_emoji(st->prev) ||
		    (st->prev >= 0x0590 && st->prev < 0x2000))
			return HID_NONE;
		return HID_ZW;
	}
	if (cp == 0xFEFF)
		return off == 0 ? HID_ZW_QUIET : HID_ZW;
	if (cp == 0x200B || (cp >= 0x2060 && cp <= 0x2064) ||
	    cp == 0x180E || cp == 0x00AD || cp == 0x034F ||
	    cp == 0x115F || cp == 0x1160 || cp == 0x3164 || cp == 0xFFA0 ||
	    cp == 0x17B4 || cp == 0x17B5)
		return HID_ZW;
	if ((cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069))
		return HID_BIDI;
	if (cp == 0x200E || cp == 0x200F || cp == 0x061C)
		return HID_BIDI_MARK;
	if (cp >= 0xE0000 && cp <= 0xE007F)
		return st->flag_seq ? HID_NONE : HID_TAG;
	if (cp >= 0xE0100 && cp <= 0xE01EF)
		return HID_VS;
	return HID_NONE;
}

/* Updates the decoder state after cp was kept. */
static void
cp_keep(struct cpstate *st, int32_t cp)
{
	if (cp == 0x1F3F4)
		st->flag_seq = 1;
	else if (!(cp >= 0xE0000 && cp <= 0xE007F))
		st->flag_seq = 0;
	else if (cp == 0xE007F)
		st->flag_seq = 0;
	st->prev = cp;
}

static int
cp_is_blank(int32_t cp)
{
	return cp == ' ' || cp == '\t' || cp == 0xA0 || cp == 0x1680 ||
	    (cp >= 0x2000 && cp <= 0x200A) || cp == 0x202F ||
	    cp == 0x205F || cp == 0x3000 || cp == 0x2028 || cp == 0x2029;
}

/* ---- excerpts ------------------------------------------------------- */

/*
 * Whether out[0, o) ends with a chat role name (system, assistant, user,
 * human, developer, tool) that starts a word: the ':' after it is a role
 * marker.
 */
static int
ends_with_role(const char *out, size_t o)
{
	static const char *roles[] = { "system", "assistant", "user", "human",
	    "developer", "tool" };
	size_t	 i, n;

	while (o > 0 && out[o - 1] == ' ')
		o--;
	for (i = 0; i < sizeof roles / sizeof *roles; i++) {
		n = strlen(roles[i]);
		if (o >= n && strncasecmp(out + o - n, roles[i], n) == 0 &&
		    (o == n || !((out[o - n - 1] | 0x20) >= 'a' &&
		    (out[o - n - 1] | 0x20) <= 'z')))
			return 1;
	}
	return 0;
}

/* Whether p (n bytes) starts a [INST] / [/INST] / [SYS] chat token. */
static int
is_bracket_token(const char *p, size_t n)
{
	static const char *toks[] = { "[inst]", "[/inst]", "[sys]", "[/sys]" };
	size_t	 i, k;

	for (i = 0; i < sizeof toks / sizeof *toks; i++) {
		k = strlen(toks[i]);
		if (n >= k && strncasecmp(p, toks[i], k) == 0)
			return 1;
	}
	return 0;
}

/*
 * Writes a display-safe excerpt of text[start, end) into out (at most
 * max bytes plus NUL): whole characters only, blanks folded, invisible
 * and control characters spelled <U+200B>, bad bytes <0xFF>. What could
 * act on a model is neutralised so that a finding never re-serves the
 * attack it reports: < and > become the single angle quotes U+2039 and
 * U+203A (<system> reads as ‹system›), the ':' of a role marker
 * ("system:", "assistant:") becomes U+2236 RATIO and the '[' of [INST]
 * or [SYS] becomes U+27E6. Spelled code points (<U+200B>) name no tag
 * a model knows.
 */
static void
excerpt_max(const char *text, size_t len, size_t start, size_t end,
    char *out, size_t max)
{
	struct cpstate	 st = { 0, 0 };
	size_t		 o = 0, i = start, n, tl;
	int32_t		 cp;
	char		 tok[24];
	int		 blank = 0;

	if (end > len)
		end = len;
	while (i < end) {
		n = sanitize_fold_decode(text + i, end - i, &cp);
		if (cp < 0) {
			snprintf(tok, sizeof tok, "<0x%02X>",
			    (unsigned char)text[i]);
			tl = strlen(tok);
		} else if (cp == '<' || cp == '>') {
			snprintf(tok, sizeof tok, "%s",
			    cp == '<' ? "\u2039" : "\u203A");
			tl = strlen(tok);
		} else if (cp == ':' && ends_with_role(out, o)) {
			snprintf(tok, sizeof tok, "\u2236");
			tl = strlen(tok);
		} else if (cp == '[' && is_bracket_token(text + i, end - i)) {
			snprintf(tok, sizeof tok, "\u27E6");
			tl = strlen(tok);
		} else if (cp == '\n' || cp == '\r' || cp_is_blank(cp)) {
			if (blank || o == 0) {
				i += n;
				continue;
			}
			tok[0] = ' ';
			tl = 1;
		} else if (cp_hidden(cp, i, &st) != HID_NONE ||
		    (cp >= 0xE0000 && cp <= 0xE007F)) {
			snprintf(tok, sizeof tok, "<U+%04X>", (unsigned)cp);
			tl = strlen(tok);
		} else {
			memcpy(tok, text + i, n);
			tl = n;
		}
		if (o + tl > max)
			break;
		memcpy(out + o, tok, tl);
		o += tl;
		blank = tok[0] == ' ' && tl == 1;
		if (cp >= 0)
			cp_keep(&st, cp);
		i += n;
	}
	while (o > 0 && out[o - 1] == ' ')
		o--;
	out[o] = '\0';
}

static void
excerpt(const char *text, size_t len, size_t start, size_t end, char *out)
{
	excerpt_max(text, len, start, end, out, EXCERPT_MAX);
}

/* ---- lines and code blocks ------------------------------------------ */

/* Returns the index of the line holding original offset off. */
static size_t
line_of(const struct scan *sc, size_t off)
{
	size_t	 lo = 0, hi = sc->nlines, mid;

	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (sc->lines[mid].start <= off)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* Splits the original into lines. */
static void
lines_build(struct scan *sc)
{
	const char	*p = sc->text, *e = sc->text + sc->len, *nl;
	size_t		 cap = 64;

	sc->lines = xreallocarray(NULL, cap, sizeof *sc->lines);
	sc->nlines = 0;
	for (;;) {
		if (sc->nlines == cap) {
			cap *= 2;
			sc->lines = xreallocarray(sc->lines, cap,
			    sizeof *sc->lines);
		}
		sc->lines[sc->nlines++].start = (size_t)(p - sc->text);
		if ((nl = memchr(p, '\n', (size_t)(e - p))) == NULL)
			break;
		p = nl + 1;
	}
}

/*
 * Returns whether original offset off lies inside a quotation on its line
 * ("...", “...”, «...», 「...」) that closes after end: a quoted mention,
 * as in a security skill's table of attack phrases. A quoted value of a
 * key (JSON, key="...", YAML) is not a quotation.
 */
static int
is_quoted(const struct scan *sc, size_t off, size_t end)
{
	size_t		 li = line_of(sc, off), i, n, lend, q = 0;
	int32_t		 cp;
	int		 open = 0;

	lend = li + 1 < sc->nlines ? sc->lines[li + 1].start : sc->len;
	for (i = sc->lines[li].start; i < off; i += n) {
		n = sanitize_fold_decode(sc->text + i, off - i, &cp);
		if (cp == '"') {
			open = !open;
			q = i;
		} else if (cp == 0x201C || cp == 0x201E || cp == 0xAB ||
		    cp == 0x300C || cp == 0x300E) {
			open = 1;
			q = (size_t)-1;
		} else if (cp == 0x201D || cp == 0xBB || cp == 0x300D ||
		    cp == 0x300F)
			open = 0;
	}
	if (!open)
		return 0;
	if (q != (size_t)-1 && sanitize_frame_value_quote(sc->text,
	    sc->lines[li].start, q))
		return 0;
	if (end > lend)
		return 0;
	for (i = end; i < lend; i += n) {
		n = sanitize_fold_decode(sc->text + i, lend - i, &cp);
		if (cp == '"' || cp == 0x201D || cp == 0xBB || cp == 0x300D ||
		    cp == 0x300F)
			return 1;
	}
	return 0;
}

/* Whether the hit at o0 on line li is described (sanitize_frame.c). */
static int
described(struct scan *sc, size_t li, size_t o0, int quoted)
{
	if (sc->aside)
		return 1;
	if (sc->heading == NULL)
		sc->heading = sanitize_frame_sections(sc->text, sc->len,
		    sc->nlines);
	return sanitize_frame_described(sc->text, sc->len, sc->lines[li].start,
	    li + 1 < sc->nlines ? sc->lines[li + 1].start : sc->len, o0,
	    quoted, sc->heading[li]);
}

/* ---- findings ------------------------------------------------------- */

/* A finding of rule at [start, end); about: the rule it describes. */
static void
scan_finding_as(struct scan *sc, const char *rule, enum severity sev,
    size_t start, size_t end, const char *about)
{
	char	 ex[EXCERPT_MAX + 1];
	size_t	 li, lend;

	if (sc->added >= FINDINGS_MAX) {
		if (!sc->truncated) {
			findings_add(sc->out, "sanitize-truncated", SEV_INFO, 0,
			    "more than %d findings; the rest are not listed",
			    FINDINGS_MAX);
			sc->truncated = 1;
		}
		return;
	}
	li = line_of(sc, start);
	lend = li + 1 < sc->nlines ? sc->lines[li + 1].start : sc->len;
	if (end < start + 24 || end > lend)
		end = lend;
	excerpt(sc->text, sc->len, start, end, ex);
	findings_add(sc->out, rule, sev, (int)li + 1 + sc->line_base, "%s%s%s",
	    about != NULL ? about : "", about != NULL ? ": " : "", ex);
	sc->added++;
}

static void
scan_finding(struct scan *sc, const char *rule, enum severity sev,
    size_t start, size_t end)
{
	scan_finding_as(sc, rule, sev, start, end, NULL);
}

/* Reports a hidden character at original offset off (once per line). */
static void
scan_hidden(struct scan *sc, enum hidden h, size_t off, int quiet)
{
	char		 ex[EXCERPT_MAX + 1], dec[EXCERPT_MAX - 22];
	size_t		 li, from, lend, i, n, k = 0;
	int32_t		 cp;
	enum severity	 sev;
	const char	*rule;

	if (h == HID_ZW_QUIET || h == HID_NONE)
		return;
	sev = quiet ? SEV_INFO : hidden_rules[h].sev;
	/* Between words, by CJK text or emoji: typography, its own rule. */
	rule = quiet ? "hidden-zero-width-between" : hidden_rules[h].rule;
	li = line_of(sc, off);
	if (sc->hid_line[h][quiet != 0] == (int)li + 1)
		return;
	sc->hid_line[h][quiet != 0] = (int)li + 1;
	if (sc->added >= FINDINGS_MAX) {
		scan_finding(sc, rule, sev, off, off);
		return;
	}
	lend = li + 1 < sc->nlines ? sc->lines[li + 1].start : sc->len;
	if (h == HID_TAG) {
		/* Show the ASCII the tag characters spell. */
		for (i = off; i < lend && k < sizeof dec - 1; i += n) {
			n = sanitize_fold_decode(sc->text + i, lend - i, &cp);
			if (cp < 0xE0000 || cp > 0xE007F)
				break;
			if (cp >= 0xE0020 && cp <= 0xE007E)
				dec[k++] = (char)(cp - 0xE0000);
		}
		dec[k] = '\0';
		excerpt_max(dec, k, 0, k, ex, sizeof dec - 1);
		findings_add(sc->out, rule, sev,
		    (int)li + 1 + sc->line_base, "tag characters spell \"%s\"",
		    ex);
		sc->added++;
		return;
	}
	/* A little context before the character, on a char boundary. */
	from = off > sc->lines[li].start + 16 ? off - 16 : sc->lines[li].start;
	while (from > sc->lines[li].start &&
	    ((unsigned char)sc->text[from] & 0xC0) == 0x80)
		from--;
	excerpt(sc->text, sc->len, from, lend, ex);
	findings_add(sc->out, rule, sev,
	    (int)li + 1 + sc->line_base, "%s", ex);
	sc->added++;
}

/* A letter or digit of an alphabetic script (Latin, Greek, Cyrillic...). */
static int
cp_is_word(int32_t cp)
{
	utf8proc_category_t	 c;

	if (cp < 0 || cp >= 0x0590)
		return 0;
	if (cp < 0x80)
		return (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z') ||
		    (cp >= '0' && cp <= '9');
	c = utf8proc_category(cp);
	return c >= UTF8PROC_CATEGORY_LU && c <= UTF8PROC_CATEGORY_LO;
}

/*
 * Whether the zero-width character at off splits a word: a letter of an
 * alphabetic script on both sides (skipping other hidden characters).
 * Elsewhere (CJK text, next to spaces or emoji) it is only info.
 */
static int
zw_in_word(const struct scan *sc, int32_t prev, size_t off)
{
	struct cpstate	 st = { 0, 0 };
	size_t		 i = off, n;
	int32_t		 cp;

	if (!cp_is_word(prev))
		return 0;
	for (;;) {
		n = sanitize_fold_decode(sc->text + i, sc->len - i, &cp);
		i += n;
		if (i >= sc->len)
			return 0;
		n = sanitize_fold_decode(sc->text + i, sc->len - i, &cp);
		if (cp_hidden(cp, i, &st) == HID_NONE)
			return cp_is_word(cp);
	}
}

/* ---- the scan copy -------------------------------------------------- */

/*
 * Appends the run of printable ASCII at text[i] (up to len) to the copy
 * the way norm_build() does byte by byte: lower-cased, runs of spaces
 * folded to one, none at the start. Stops early when the copy has no
 * room left (sanitize_fold_put() grows it). Returns the end of what it
 * took; *last gets the last byte taken, lower-cased.
 */
static size_t
norm_ascii(struct sanitize_fold *f, const char *text, size_t i, size_t len,
    unsigned char *last)
{
	char		*norm = f->norm;
	size_t		*map = f->map, o = f->nlen;
	int		 sp = f->last_space;
	unsigned char	 c;

	for (; i < len && o + 2 < f->ncap; i++) {
		c = (unsigned char)text[i];
		if (c < 0x20 || c >= 0x7F)
			break;
		if (c == ' ') {
			if (!sp && o > 0) {
				norm[o] = ' ';
				map[o++] = i;
				sp = 1;
			}
		} else {
			if (c >= 'A' && c <= 'Z')
				c += 'a' - 'A';
			norm[o] = (char)c;
			map[o++] = i;
			sp = 0;
		}
		*last = c;
	}
	f->nlen = o;
	f->last_space = sp;
	return i;
}

/*
 * Builds the scan copy and reports hidden characters. Tag characters that
 * spell ASCII are decoded into the copy between spaces so the catalogue
 * sees the smuggled text.
 */
static void
norm_build(struct scan *sc)
{
	struct cpstate	 st = { 0, 0 };
	size_t		 i = 0, n;
	int32_t		 cp;
	enum hidden	 h;
	int		 in_tags = 0;
	char		 c;
	unsigned char	 last;

	sanitize_fold_init(&sc->f, sc->len + 64);
	while (i < sc->len) {
		c = sc->text[i];
		if ((unsigned char)c >= 0x20 && (unsigned char)c < 0x7F) {
			if (in_tags) {
				sanitize_fold_space(&sc->f, i);
				in_tags = 0;
			}
			if ((n = norm_ascii(&sc->f, sc->text, i, sc->len,
			    &last)) > i) {
				st.prev = last;
				st.flag_seq = 0;
				sc->f.prev_latin = 1;
				i = n;
				continue;
			}
			if (c == ' ')
				sanitize_fold_space(&sc->f, i);
			else if (sc->f.nlen + 2 < sc->f.ncap) {
				/* The common case, inline. */
				if (c >= 'A' && c <= 'Z')
					c += 'a' - 'A';
				sc->f.norm[sc->f.nlen] = c;
				sc->f.map[sc->f.nlen++] = i;
				sc->f.last_space = 0;
			} else {
				if (c >= 'A' && c <= 'Z')
					c += 'a' - 'A';
				sanitize_fold_put(&sc->f, &c, 1, i);
			}
			st.prev = (unsigned char)c;
			st.flag_seq = 0;
			sc->f.prev_latin = 1;
			i++;
			continue;
		}
		n = sanitize_fold_decode(sc->text + i, sc->len - i, &cp);
		h = cp_hidden(cp, i, &st);
		if (h == HID_TAG) {
			scan_hidden(sc, h, i, 0);
			if (!in_tags) {
				sanitize_fold_space(&sc->f, i);
				in_tags = 1;
			}
			if (cp >= 0xE0020 && cp <= 0xE007E) {
				c = (char)(cp - 0xE0000);
				if (c >= 'A' && c <= 'Z')
					c += 'a' - 'A';
				if (c == ' ')
					sanitize_fold_space(&sc->f, i);
				else
					sanitize_fold_put(&sc->f, &c, 1, i);
			}
			i += n;
			continue;
		}
		if (in_tags) {
			sanitize_fold_space(&sc->f, i);
			in_tags = 0;
		}
		if (h != HID_NONE) {
			scan_hidden(sc, h, i, h == HID_ZW &&
			    !zw_in_word(sc, st.prev, i));
			i += n;
			continue;
		}
		cp_keep(&st, cp);
		if (cp == '\n') {
			if (sc->f.nlen > 0 && sc->f.norm[sc->f.nlen - 1] == ' ')
				sc->f.nlen--;
			sanitize_fold_put(&sc->f, "\n", 1, i);
		} else if (cp == '\r')
			;
		else if (cp_is_blank(cp))
			sanitize_fold_space(&sc->f, i);
		else if (cp >= 0xE0000 && cp <= 0xE007F)
			;	/* flag emoji tag: kept in output, not scanned */
		else
			sanitize_fold_cp(&sc->f, cp, sc->text + i, n, i);
		i += n;
	}
	sc->f.norm[sc->f.nlen] = '\0';
	sc->f.map[sc->f.nlen] = sc->len;
}

/* Original offset of the end of a scan copy range ending at nend. */
static size_t
norm_orig_end(const struct scan *sc, size_t nend)
{
	return nend < sc->f.nlen ? sc->f.map[nend] : sc->len;
}

/* ---- running the catalogue ------------------------------------------ */

/*
 * The send sinks of the catalogue that name their address: ordered (not
 * described) and sent to a real host, the payload is as concrete as a
 * curl -d to that host in code, and weighs as code-concrete does there.
 * A placeholder (example.com, {host}, localhost) stays a stub.
 */
static void
send_host(struct scan *sc, const char *id, size_t o0, size_t li)
{
	static const char *const sinks[] = { "exfil-send-url",
	    "exfil-git-push-remote", NULL };
	const char *const *p;
	const char	*s = sc->text + o0, *e;
	size_t		 end;

	for (p = sinks; *p != NULL && strcmp(*p, id) != 0; p++)
		;
	if (*p == NULL)
		return;
	end = li + 1 < sc->nlines ? sc->lines[li + 1].start : sc->len;
	e = sc->text + end;
	if (s < e && codescan_host_kind(s, (size_t)(e - s)) == 2)
		scan_finding(sc, "code-concrete", SEV_INFO, o0, end);
}

/*
 * Runs one pattern over the scan copy [noff, nend), adding at most one
 * finding per line (*last_line carries over between windows).
 */
static void
run_pattern(struct scan *sc, const struct sanitize_pattern *pt,
    size_t noff, size_t nend, pcre2_match_data *md,
    pcre2_match_context *mctx, size_t *last_line)
{
	PCRE2_SIZE	*ov;
	size_t		 so, eo, o0, o1, li;
	int		 rc;

	while (noff <= nend) {
		rc = pcre2_match(pt->re, (PCRE2_SPTR)sc->f.norm, nend, noff,
		    PCRE2_NO_UTF_CHECK, md, mctx);
		if (rc == PCRE2_ERROR_NOMATCH)
			return;
		if (rc < 0) {
			findings_add(sc->out, "sanitize-limit", SEV_INFO, 0,
			    "pattern %s gave up (PCRE2 error %d)", pt->id, rc);
			return;
		}
		ov = pcre2_get_ovector_pointer(md);
		so = ov[0];
		eo = ov[1];
		if (so > nend || eo > nend || eo < so)
			return;
		o0 = sc->f.map[so];
		o1 = norm_orig_end(sc, eo);
		li = line_of(sc, o0);
		if (li != *last_line) {
			int	 q = is_quoted(sc, o0, o1);

			/*
			 * Described, not ordered: shown, not scored.
			 */
			if (strncmp(pt->id, "frame-", 6) != 0 &&
			    described(sc, li, o0, q))
				scan_finding_as(sc, "frame-described", SEV_INFO,
				    o0, o1, pt->id);
			else {
				scan_finding(sc, pt->id, pt->sev, o0, o1);
				send_host(sc, pt->id, o0, li);
			}
			if (!sc->quoted && q) {
				scan_finding(sc, "frame-quoted", SEV_INFO, o0,
				    o1);
				sc->quoted = 1;
			}
			*last_line = li;
		}
		if (sc->truncated)
			return;
		noff = eo > so ? eo : so + 1;
		/* Do not restart inside a UTF-8 sequence. */
		while (noff < nend &&
		    ((unsigned char)sc->f.norm[noff] & 0xC0) == 0x80)
			noff++;
	}
}

static void
run_catalogue(struct scan *sc)
{
	const struct sanitizer		*s = sc->s;
	const struct sanitize_pattern	*pt;
	const pcre2_code		*combined;
	pcre2_match_data		*md;
	pcre2_match_context		*wctx;
	struct sanitize_window		*w;
	size_t				 i, k, nw, npats, from = 0, last;
	int				 rc, hit = 1;

	if ((npats = sanitize_catalogue_count(s->cat)) == 0)
		return;
	md = pcre2_match_data_create(1, NULL);
	if ((combined = sanitize_catalogue_combined(s->cat)) != NULL) {
		rc = pcre2_match(combined, (PCRE2_SPTR)sc->f.norm,
		    sc->f.nlen, 0, PCRE2_NO_UTF_CHECK, md, s->mctx);
		if (rc >= 0)
			from = pcre2_get_ovector_pointer(md)[0];
		else if (rc == PCRE2_ERROR_NOMATCH)
			hit = 0;
		/* Any other error: run everything from the start. */
	}
	nw = sanitize_catalogue_windows(s->cat, sc->f.norm, sc->f.nlen, &w);
	/* A window's matches start at its last trigger or before. */
	wctx = pcre2_match_context_copy(s->mctx);
	for (i = 0, k = 0; i < npats && !sc->truncated; i++) {
		pt = sanitize_catalogue_pattern(s->cat, i);
		last = (size_t)-1;
		if (pt->has_triggers) {
			for (; k < nw && w[k].pat < i; k++)
				;
			for (; k < nw && w[k].pat == i && !sc->truncated;
			    k++) {
				if (wctx != NULL)
					pcre2_set_offset_limit(wctx, w[k].lim);
				run_pattern(sc, pt, w[k].start, w[k].end, md,
				    wctx != NULL ? wctx : s->mctx, &last);
			}
			continue;
		}
		if (pt->in_combined && !hit)
			continue;
		run_pattern(sc, pt, pt->in_combined ? from : 0, sc->f.nlen, md,
		    s->mctx, &last);
	}
	pcre2_match_context_free(wctx);
	free(w);
	pcre2_match_data_free(md);
}

/* ---- override tags and live exec ------------------------------------ */

static void
span_add(struct scan *sc, size_t start, size_t end, int kind,
    const char *tag)
{
	struct span	*sp;

	if (sc->nspans == sc->spancap) {
		sc->spancap = sc->spancap ? sc->spancap * 2 : 8;
		sc->spans = xreallocarray(sc->spans, sc->spancap,
		    sizeof *sc->spans);
	}
	sp = &sc->spans[sc->nspans++];
	sp->start = start;
	sp->end = end;
	sp->kind = kind;
	snprintf(sp->tag, sizeof sp->tag, "%s", tag != NULL ? tag : "");
}

struct tag {
	size_t	 start, end;		/* [<, >] + 1 in the buffer */
	size_t	 name;			/* index in the tag list */
	int	 type;			/* 0 open, 1 close, 2 self-closing */
	size_t	 mate;			/* closing tag index, or (size_t)-1 */
};

/*
 * Finds override tags in p[0, n) (case-insensitively). Returns the number
 * found in *out (free it), each opening tag paired with the nearest
 * following closing tag of the same name.
 */
static size_t
tags_find(const struct strlist *names, const char *p, size_t n,
    struct tag **out)
{
	struct tag	*v = NULL;
	size_t		 nv = 0, cap = 0, i, j, k, nl, lim, *next;
	const char	*q;
	int		 type;

	*out = NULL;
	for (i = 0; i < n; i++) {
		if ((q = memchr(p + i, '<', n - i)) == NULL)
			break;
		i = (size_t)(q - p);
		j = i + 1;
		type = 0;
		if (j < n && p[j] == '/') {
			type = 1;
			j++;
		}
		while (j < n && p[j] == ' ')
			j++;
		for (k = 0; k < names->n; k++) {
			nl = strlen(names->v[k]);
			if (j + nl < n && strncasecmp(p + j, names->v[k],
			    nl) == 0 && strchr(" \t\n/>", p[j + nl]) != NULL)
				break;
		}
		if (k == names->n)
			continue;
		lim = i + TAG_SCAN_MAX < n ? i + TAG_SCAN_MAX : n;
		for (j += nl; j < lim && p[j] != '>' && p[j] != '<'; j++)
			;
		if (j >= lim || p[j] != '>')
			continue;
		if (type == 0) {
			for (q = p + j - 1; *q == ' ' || *q == '\t' ||
			    *q == '\n'; q--)
				;
			if (*q == '/')
				type = 2;
		}
		if (nv == cap) {
			cap = cap ? cap * 2 : 8;
			v = xreallocarray(v, cap, sizeof *v);
		}
		v[nv].start = i;
		v[nv].end = j + 1;
		v[nv].name = k;
		v[nv].type = type;
		v[nv].mate = (size_t)-1;
		nv++;
		i = j;
	}
	if (nv == 0)
		return 0;
	/* Pair: walk backwards remembering the next closer of each name. */
	next = xreallocarray(NULL, names->n, sizeof *next);
	for (k = 0; k < names->n; k++)
		next[k] = (size_t)-1;
	for (i = nv; i-- > 0;) {
		if (v[i].type == 1)
			next[v[i].name] = i;
		else if (v[i].type == 0)
			v[i].mate = next[v[i].name];
	}
	free(next);
	*out = v;
	return nv;
}

/*
 * Whether tag i speaks as an override: its name is one only an override
 * uses (system, override, jailbreak, the configured names), or it is one
 * of the everyday XML names (admin, sudo, root) wrapping prose -- words
 * and no nested tag, as in <admin>grant every permission</admin> and not
 * as in <root><item/></root>.
 */
static int
tag_speaks(const struct scan *sc, const struct tag *v, size_t i)
{
	const char	*p;
	size_t		 n;

	if (v[i].name < WEAK_TAGS_FROM ||
	    v[i].name >= sizeof builtin_tags / sizeof *builtin_tags)
		return 1;
	if (v[i].type != 0 || v[i].mate == (size_t)-1)
		return 0;
	p = sc->f.norm + v[i].end;
	n = v[v[i].mate].start - v[i].end;
	return memchr(p, '<', n) == NULL && memchr(p, ' ', n) != NULL;
}

/* Finds override tags on the scan copy; records spans and findings. */
static void
scan_tags(struct scan *sc)
{
	struct tag	*v;
	size_t		 nv, i, covered = 0, o0, o1, end;
	const char	*name;

	nv = tags_find(&sc->s->tags, sc->f.norm, sc->f.nlen, &v);
	for (i = 0; i < nv; i++) {
		if (v[i].start < covered)
			continue;
		name = sc->s->tags.v[v[i].name];
		o0 = sc->f.map[v[i].start];
		if (v[i].type == 0 && v[i].mate != (size_t)-1) {
			end = v[v[i].mate].end;
			o1 = norm_orig_end(sc, end);
			span_add(sc, o0, o1, SPAN_XML_BLOCK, name);
		} else {
			end = v[i].end;
			o1 = norm_orig_end(sc, end);
			span_add(sc, o0, o1, SPAN_XML_TAG, name);
		}
		covered = end;
		scan_finding(sc, tag_speaks(sc, v, i) ? "xml-override-tag" :
		    "xml-lookalike-tag", SEV_HIGH, o0,
		    norm_orig_end(sc, v[i].end));
	}
	free(v);
}

/*
 * Finds Claude Code pre-execution !`cmd` (one line, no backtick inside,
 * not empty) in the original.
 */
static void
scan_live_exec(struct scan *sc)
{
	const char	*p = sc->text, *e = sc->text + sc->len, *q, *c;

	while ((q = memchr(p, '!', (size_t)(e - p))) != NULL) {
		p = q + 1;
		if (p >= e || *p != '`')
			continue;
		for (c = p + 1; c < e && *c != '`' && *c != '\n'; c++)
			;
		if (c >= e || *c != '`' || c == p + 1)
			continue;
		span_add(sc, (size_t)(q - sc->text), (size_t)(c + 1 - sc->text),
		    SPAN_LIVE, NULL);
		scan_finding(sc, "live-exec", SEV_WARN, (size_t)(q - sc->text),
		    (size_t)(c + 1 - sc->text));
		p = c + 1;
	}
}

/* ---- the rewrite ---------------------------------------------------- */

/*
 * Appends text[start, end) without hidden characters; bad bytes become
 * U+FFFD. When esc is set, < and > are written as &lt; and &gt; (text
 * quoted inside a replacement must not form a tag).
 */
static void
clean_append(struct buf *b, const char *text, size_t start, size_t end,
    struct cpstate *st, int esc)
{
	size_t	 i = start, n, run = start;
	int32_t	 cp;

	while (i < end) {
		if ((unsigned char)text[i] >= 0x20 &&
		    (unsigned char)text[i] < 0x7F) {
			if (esc && (text[i] == '<' || text[i] == '>')) {
				buf_add(b, text + run, i - run);
				buf_addstr(b, text[i] == '<' ? "&lt;" : "&gt;");
				run = i + 1;
			}
			/* The rest of the printable ASCII run, in one go. */
			for (n = i + 1; n < end && (unsigned char)text[n] >=
			    0x20 && (unsigned char)text[n] < 0x7F &&
			    !(esc && (text[n] == '<' || text[n] == '>')); n++)
				;
			st->prev = (unsigned char)text[n - 1];
			st->flag_seq = 0;
			i = n;
			continue;
		}
		n = sanitize_fold_decode(text + i, end - i, &cp);
		if (cp_hidden(cp, i, st) != HID_NONE) {
			buf_add(b, text + run, i - run);
			if (cp < 0)
				buf_addstr(b, "\xEF\xBF\xBD");
			run = i + n;
		} else
			cp_keep(st, cp);
		i += n;
	}
	buf_add(b, text + run, end - run);
}

static int
span_cmp(const void *a, const void *b)
{
	const struct span	*x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->end > y->end ? -1 : x->end < y->end;
}

static char *
rewrite(struct scan *sc, size_t *outlen)
{
	struct buf	 b;
	struct cpstate	 st = { 0, 0 };
	struct span	*sp;
	size_t		 i, pos = 0, cs, ce;

	buf_init(&b, 0);
	buf_add(&b, "", 0);
	if (sc->nspans > 1)
		qsort(sc->spans, sc->nspans, sizeof *sc->spans, span_cmp);
	for (i = 0; i < sc->nspans; i++) {
		sp = &sc->spans[i];
		if (sp->start < pos)
			continue;	/* inside an earlier span */
		if (sp->kind == SPAN_LIVE && !sc->s->strip_live_exec)
			continue;
		clean_append(&b, sc->text, pos, sp->start, &st, 0);
		switch (sp->kind) {
		case SPAN_XML_BLOCK:
			buf_printf(&b, "[redacted: <%s> block]", sp->tag);
			break;
		case SPAN_XML_TAG:
			buf_printf(&b, "[redacted: <%s> tag]", sp->tag);
			break;
		default:
			cs = sp->start + 2;
			ce = sp->end - 1;
			buf_addstr(&b, "[live-exec removed: ");
			clean_append(&b, sc->text, cs, ce, &st, 1);
			buf_addstr(&b, "]");
			break;
		}
		pos = sp->end;
	}
	clean_append(&b, sc->text, pos, sc->len, &st, 0);
	*outlen = b.len;
	return buf_take(&b);
}

/* ---- one call ------------------------------------------------------- */

static int
finding_cmp(const void *a, const void *b)
{
	const struct finding	*x = a, *y = b;
	int			 c;

	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	if ((c = strcmp(x->rule, y->rule)) != 0)
		return c;
	return strcmp(x->message, y->message);
}

/*
 * Rewrites the messages of out from index `from` on the way excerpts are
 * written: the code analysis quotes commands, and a quoted command must
 * not serve a tag or a role marker either.
 */
static void
neutralise_from(struct findings *out, size_t from)
{
	char	 m[MESSAGE_MAX + 1];
	size_t	 i, n;

	for (i = from; i < out->n; i++) {
		n = strlen(out->v[i].message);
		excerpt_max(out->v[i].message, n, 0, n, m, MESSAGE_MAX);
		if (strcmp(m, out->v[i].message) != 0) {
			free(out->v[i].message);
			out->v[i].message = xstrdup(m);
		}
	}
}

/*
 * The code analysis of codescan.h over text as lang. In a skill a code
 * block is what the agent will run: its findings are weighed like any
 * other, and the frame rules (frame-imperative, frame-doc,
 * host-placeholder) carry the context.
 */
static void
scan_code(const char *text, size_t len, enum code_lang lang, int line_base,
    struct findings *out, struct codescan_caps *caps)
{
	size_t	 from = out->n;

	if (lang == LANG_TEXT || text == NULL || len == 0)
		return;
	codescan_file(text, len, lang, line_base, out, caps);
	neutralise_from(out, from);
}

/* scan_run()'s Markdown code: none, the body's, a bundled file's. */
enum { MD_NONE, MD_BODY, MD_DOC };

static void
scan_run(struct scan *sc, const struct sanitizer *s, const char *text,
    size_t len, int line_base, struct findings *out, int markdown, int aside)
{
	memset(sc, 0, sizeof *sc);
	sc->aside = aside;
	sc->s = s;
	sc->text = text != NULL ? text : "";
	sc->len = text != NULL ? len : 0;
	sc->line_base = line_base;
	sc->out = out;
	sc->first = out->n;
	lines_build(sc);
	norm_build(sc);
	run_catalogue(sc);
	scan_tags(sc);
	scan_live_exec(sc);
	if (markdown == MD_DOC && sc->len > 0) {
		size_t	 from = out->n;

		codescan_doc(sc->text, sc->len, line_base, out, aside);
		neutralise_from(out, from);
	} else if (markdown)
		scan_code(sc->text, sc->len, LANG_MARKDOWN, line_base, out,
		    NULL);
	sanitize_decoded(s, sc->text, sc->len, line_base, out, sanitize_scan);
	/* Sort this call's findings by line; the truncation note stays. */
	if (out->n - sc->first > 1)
		qsort(out->v + sc->first, out->n - sc->first, sizeof *out->v,
		    finding_cmp);
}

static void
scan_done(struct scan *sc)
{
	free(sc->lines);
	free(sc->heading);
	sanitize_fold_done(&sc->f);
	free(sc->spans);
}

char *
sanitize_text(const struct sanitizer *s, const char *text, size_t len,
    int line_base, size_t *outlen, struct findings *out)
{
	struct scan	 sc;
	char		*r;
	size_t		 n;

	scan_run(&sc, s, text, len, line_base, out, MD_BODY, 0);
	r = rewrite(&sc, &n);
	scan_done(&sc);
	if (outlen != NULL)
		*outlen = n;
	return r;
}

size_t
sanitize_scan(const struct sanitizer *s, const char *text, size_t len,
    int line_base, struct findings *out)
{
	struct scan	 sc;
	size_t		 before = out->n;

	scan_run(&sc, s, text, len, line_base, out, MD_BODY, 0);
	scan_done(&sc);
	return out->n - before;
}

size_t
sanitize_file(const struct sanitizer *s, const char *relpath,
    const char *text, size_t len, struct findings *out)
{
	struct codescan_caps	 caps;

	return sanitize_file_caps(s, relpath, text, len, out, &caps);
}

size_t
sanitize_file_caps(const struct sanitizer *s, const char *relpath,
    const char *text, size_t len, struct findings *out,
    struct codescan_caps *caps)
{
	return sanitize_file_aside(s, relpath, text, len, out, caps, 0);
}

size_t
sanitize_file_aside(const struct sanitizer *s, const char *relpath,
    const char *text, size_t len, struct findings *out,
    struct codescan_caps *caps, int aside)
{
	struct scan	 sc;
	enum code_lang	 lang;
	size_t		 before = out->n;

	memset(caps, 0, sizeof *caps);
	if (text == NULL)
		len = 0;
	/* The catalogue over any text; Markdown code is analysed by
	 * scan_run(), scripts here in their own language. */
	lang = codescan_lang(relpath, text != NULL ? text : "", len);
	scan_run(&sc, s, text, len, 0, out, lang == LANG_MARKDOWN ? MD_DOC :
	    MD_NONE, aside);
	scan_done(&sc);
	if (lang != LANG_MARKDOWN)
		scan_code(text, len, lang, 0, out, caps);
	findings_set_file(out, before, relpath);
	return out->n - before;
}

/* ---- inline strings ------------------------------------------------- */

/* Rewrites each !`cmd` of a (one line, not empty) in place. */
static void
inline_live_exec(struct buf *a)
{
	struct buf	 b;
	const char	*p = a->p, *e = a->p + a->len, *q, *c;

	buf_init(&b, 0);
	buf_add(&b, "", 0);
	while ((q = memchr(p, '!', (size_t)(e - p))) != NULL) {
		for (c = q + 2; q + 1 < e && q[1] == '`' && c < e &&
		    *c != '`'; c++)
			;
		if (q + 1 >= e || q[1] != '`' || c >= e || c == q + 2) {
			buf_add(&b, p, (size_t)(q + 1 - p));
			p = q + 1;
			continue;
		}
		buf_add(&b, p, (size_t)(q - p));
		buf_addstr(&b, "[live-exec removed]");
		p = c + 1;
	}
	buf_add(&b, p, (size_t)(e - p));
	buf_reset(a);
	buf_add(a, b.p, b.len);
	buf_done(&b);
}

char *
sanitize_inline(const struct sanitizer *s, const char *str)
{
	struct buf		 a, b;
	struct cpstate		 st = { 0, 0 };
	struct strlist		 deftags;
	const struct strlist	*tags;
	struct tag		*v;
	pcre2_match_data	*md;
	PCRE2_SIZE		*ov;
	size_t			 i, n, len, nv, pos, covered;
	int32_t			 cp;
	int			 blank = 1, rc;
	char			*r;

	if (str == NULL)
		return xstrdup("");
	len = strlen(str);
	buf_init(&a, 0);
	buf_add(&a, "", 0);
	/* 1. Hidden characters out, blanks folded. */
	for (i = 0; i < len; i += n) {
		n = sanitize_fold_decode(str + i, len - i, &cp);
		if (cp == '\n' || cp == '\r' || cp_is_blank(cp) ||
		    cp == 0x0B || cp == 0x0C) {
			if (!blank)
				buf_addc(&a, ' ');
			blank = 1;
			continue;
		}
		if (cp_hidden(cp, i, &st) != HID_NONE || cp == 0x200C ||
		    cp == 0x200D || (cp >= 0xE0000 && cp <= 0xE007F))
			continue;
		cp_keep(&st, cp);
		buf_add(&a, str + i, n);
		blank = 0;
	}
	while (a.len > 0 && a.p[a.len - 1] == ' ')
		a.p[--a.len] = '\0';

	/* 2. Override tags out. */
	strlist_init(&deftags);
	if (s != NULL)
		tags = &s->tags;
	else {
		for (i = 0; i < sizeof builtin_tags / sizeof *builtin_tags; i++)
			strlist_add(&deftags, builtin_tags[i]);
		tags = &deftags;
	}
	buf_init(&b, 0);
	buf_add(&b, "", 0);
	nv = tags_find(tags, a.p, a.len, &v);
	pos = covered = 0;
	for (i = 0; i < nv; i++) {
		if (v[i].start < covered)
			continue;
		buf_add(&b, a.p + pos, v[i].start - pos);
		buf_addstr(&b, "[redacted]");
		pos = covered = v[i].type == 0 && v[i].mate != (size_t)-1 ?
		    v[v[i].mate].end : v[i].end;
	}
	buf_add(&b, a.p + pos, a.len - pos);
	free(v);
	strlist_done(&deftags);

	/* 3. Role markers out. */
	buf_reset(&a);
	if (s != NULL && s->role_re != NULL) {
		md = pcre2_match_data_create(1, NULL);
		pos = 0;
		while (pos <= b.len) {
			rc = pcre2_match(s->role_re, (PCRE2_SPTR)b.p, b.len, pos,
			    0, md, s->mctx);
			if (rc < 0)
				break;
			ov = pcre2_get_ovector_pointer(md);
			if (ov[1] <= ov[0] || ov[0] < pos)
				break;
			buf_add(&a, b.p + pos, ov[0] - pos);
			buf_addstr(&a, "[redacted]");
			pos = ov[1];
		}
		pcre2_match_data_free(md);
		if (pos < b.len)
			buf_add(&a, b.p + pos, b.len - pos);
	} else
		buf_add(&a, b.p, b.len);
	buf_done(&b);

	/* 4. Live exec out, as in bodies, when configured. */
	if (s != NULL && s->strip_live_exec)
		inline_live_exec(&a);

	/* 5. Trim. */
	for (i = 0; i < a.len && a.p[i] == ' '; i++)
		;
	while (a.len > i && a.p[a.len - 1] == ' ')
		a.len--;
	r = xstrndup(a.p + i, a.len - i);
	buf_done(&a);
	return r;
}

/* ---- the sanitizer -------------------------------------------------- */

/*
 * Reads the risk table: datadir/risk.tsv, then sanitization.risk_files
 * (later lines for an id replace earlier ones).
 */
static int
risk_load(struct sanitizer *s, const struct config *cfg, const char *datadir,
    char **cause)
{
	char	*path;
	size_t	 i;
	int	 rv = SR_OK;

	s->risk = risktable_new();
	if (datadir != NULL) {
		xasprintf(&path, "%s/risk.tsv", datadir);
		rv = risktable_load(s->risk, path, cause);
		free(path);
	}
	for (i = 0; cfg != NULL && rv == SR_OK && i < cfg->risk_files.n; i++)
		rv = risktable_load(s->risk, cfg->risk_files.v[i], cause);
	if (rv == SR_OK)
		rv = risktable_check(s->risk, cause);
	return rv;
}

int
sanitize_new_dir(const struct config *cfg, const char *datadir,
    struct sanitizer **out, char **cause)
{
	struct sanitizer	*s;
	glob_t			 g;
	char			*pat, err[320];
	size_t			 i;
	int			 rv = SR_OK, gr;

	*out = NULL;
	*cause = NULL;
	s = xcalloc(1, sizeof *s);
	s->cat = sanitize_catalogue_new();
	strlist_init(&s->tags);
	for (i = 0; i < sizeof builtin_tags / sizeof *builtin_tags; i++)
		strlist_add(&s->tags, builtin_tags[i]);
	if (cfg != NULL) {
		for (i = 0; i < cfg->xml_tags.n; i++) {
			char	*t = xstrdup(cfg->xml_tags.v[i]), *c;

			for (c = t; *c != '\0'; c++) {
				if (*c >= 'A' && *c <= 'Z')
					*c += 'a' - 'A';
			}
			if (*t != '\0' && strlen(t) < 32 &&
			    strcspn(t, " \t\n<>/") == strlen(t))
				strlist_add_unique(&s->tags, t, 1);
			free(t);
		}
		s->strip_live_exec = cfg->strip_live_exec;
	}
	s->mctx = pcre2_match_context_create(NULL);
	pcre2_set_match_limit(s->mctx, MATCH_LIMIT);
	pcre2_set_heap_limit(s->mctx, HEAP_LIMIT_KB);

	if ((cfg == NULL || cfg->builtin_patterns) && datadir != NULL) {
		xasprintf(&pat, "%s/patterns/*.txt", datadir);
		gr = glob(pat, 0, NULL, &g);
		free(pat);
		if (gr != 0) {
			if (gr != GLOB_NOMATCH)
				globfree(&g);
			xasprintf(cause, "%s/patterns: no pattern files (the "
			    "built-in catalogue is missing; set "
			    "sanitization.builtin_patterns: false to run "
			    "without it)", datadir);
			rv = SR_CONFIG;
			goto out;
		}
		for (i = 0; i < g.gl_pathc && rv == SR_OK; i++)
			rv = sanitize_catalogue_load(s->cat, g.gl_pathv[i],
			    cause);
		globfree(&g);
		if (rv != SR_OK)
			goto out;
	}
	if (cfg != NULL) {
		for (i = 0; i < cfg->pattern_files.n; i++) {
			if ((rv = sanitize_catalogue_load(s->cat,
			    cfg->pattern_files.v[i], cause)) != SR_OK)
				goto out;
		}
	}
	if (sanitize_catalogue_compile(
	    "<\\|[a-z_]{1,32}\\|>|\\[/?(?:inst|sys)\\]|<</?sys>>|"
	    "</?(?:function_results|function_calls|tool_results?|tool_use|"
	    "tool_call|tool_response|system-reminder|antml:[a-z_]+)\\b"
	    "[^>]{0,200}>|(?<!\\S)(?:human|assistant|system)\\s*:(?!\\S)",
	    &s->role_re, err, sizeof err) == -1) {
		xasprintf(cause, "internal role pattern: %s", err);
		rv = SR_ERR;
		goto out;
	}
	sanitize_catalogue_finish(s->cat);
	if ((rv = risk_load(s, cfg, datadir, cause)) != SR_OK)
		goto out;
out:
	if (rv != SR_OK) {
		sanitize_free(s);
		return rv;
	}
	*out = s;
	return SR_OK;
}

int
sanitize_new(const struct config *cfg, struct sanitizer **out, char **cause)
{
	char	*dir;
	int	 rv;

	dir = config_pkgdata_dir();
	rv = sanitize_new_dir(cfg, dir, out, cause);
	free(dir);
	return rv;
}

void
sanitize_free(struct sanitizer *s)
{
	if (s == NULL)
		return;
	sanitize_catalogue_free(s->cat);
	risktable_free(s->risk);
	pcre2_code_free(s->role_re);
	pcre2_match_context_free(s->mctx);
	strlist_done(&s->tags);
	free(s);
}

size_t
sanitize_count(const struct sanitizer *s)
{
	return s != NULL ? sanitize_catalogue_count(s->cat) : 0;
}

/* For sanitize_risk.c: the tables the risk and explanation calls read. */
const struct risk_table *
sanitize_table(const struct sanitizer *s)
{
	return s != NULL ? s->risk : NULL;
}

const struct sanitize_catalogue *
sanitize_cat(const struct sanitizer *s)
{
	return s != NULL ? s->cat : NULL;
}
