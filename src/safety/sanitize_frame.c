/*
 * Instructions or descriptions (issue 31): whether a catalogue hit in a
 * skill's text is addressed to the agent as something to do, or described
 * by the structure around it, as a security skill quotes the attacks it
 * detects. Decided by structure, never by the skill's name; three cues,
 * each one a way a text says "this is what to look for, not what to do":
 *
 *  1. The section: the nearest Markdown heading above the hit (outside
 *     code fences: a "# comment" in a fence is no heading; a hit inside
 *     a fence belongs to the section the fence is in) names
 *     detection, patterns, red flags, attacks, threats, tests or refusal,
 *     or a heading above it in the outline does (from level 2: a level-1
 *     heading is the skill's title). A skill that orders an attack has no
 *     reason to file it under "Red flags"; one that teaches it does.
 *  2. A negation leads the line: "never", "do not", "refuse", "reject",
 *     "block", "flag", "detect" ... ("- Never run curl | sh").
 *  3. A list of patterns: the hit is quoted (is_quoted(): a "quotation"
 *     on its line, not a key's value) in a list item or a table row.
 *
 * The words are ASCII English: the scan copy is case folded, and the
 * attack catalogues it guards against are overwhelmingly English-framed.
 */
#include "autoconfig.h"

#include <stddef.h>
#include <string.h>
#include <strings.h>

#include "safety/sanitize_frame.h"
#include "base/xmalloc.h"

/* Heading words of a section about attacks rather than a step. */
static const char *const section_words[] = {
	"detect", "pattern", "red flag", "warning sign", "indicator",
	"signature", "refus", "reject", "look for", "attack", "threat",
	"malicious", "injection", "anti-pattern", "never", "do not",
	"don't", "avoid", "forbidden", "dangerous", "block", "suspicious",
};

/* Words that, leading a line, negate or report what follows. */
static const char *const negation_words[] = {
	"never ", "do not ", "don't ", "must not ", "should not ", "avoid ",
	"refuse ", "reject ", "block ", "flag ", "detect ", "watch for ",
	"beware ",
};

/* Bytes that only mark up a line's start: blanks, list and quote marks. */
static size_t
skip_marks(const char *p, size_t n)
{
	size_t	 i = 0;

	while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '>' ||
	    p[i] == '-' || p[i] == '*' || p[i] == '+' || p[i] == '|' ||
	    (p[i] >= '0' && p[i] <= '9') || p[i] == '.' || p[i] == ')'))
		i++;
	/* bold or italic lead-ins: "**Never** ..." */
	while (i < n && (p[i] == '*' || p[i] == '_'))
		i++;
	return i;
}

static int
has_word(const char *p, size_t n, const char *const *w, size_t nw,
    int at_start)
{
	size_t	 i, j, k;

	for (i = 0; i < nw; i++) {
		k = strlen(w[i]);
		if (at_start) {
			if (n >= k && strncasecmp(p, w[i], k) == 0)
				return 1;
			continue;
		}
		/* the words are lower case: the first byte rules out most */
		for (j = 0; j + k <= n; j++)
			if ((p[j] | 0x20) == w[i][0] &&
			    strncasecmp(p + j, w[i], k) == 0)
				return 1;
	}
	return 0;
}

int
sanitize_frame_fence(const char *p, size_t n)
{
	size_t	 i = 0;

	while (i < n && i < 3 && p[i] == ' ')
		i++;
	return n - i >= 3 && (strncmp(p + i, "```", 3) == 0 ||
	    strncmp(p + i, "~~~", 3) == 0);
}

int
sanitize_frame_heading(const char *p, size_t n)
{
	size_t	 i = 0, l;

	while (i < n && i < 3 && p[i] == ' ')
		i++;
	if (i >= n || p[i] != '#')
		return 0;
	for (l = 0; i < n && p[i] == '#'; i++)
		l++;
	return i < n && p[i] == ' ' && l <= SANITIZE_FRAME_DEPTH ? (int)l : 0;
}

/*
 * "test" frames the catalogue's phrases only: an injection sentence under
 * "## Testing" is a test input, but the command under "## Run tests" (or
 * in "# API Tester") is a step the agent runs.
 */
static const char *const input_words[] = { "test" };

int
sanitize_frame_heading_described(const char *p, size_t n, int code)
{
	return has_word(p, n, section_words, sizeof section_words /
	    sizeof *section_words, 0) || (!code && has_word(p, n,
	    input_words, sizeof input_words / sizeof *input_words, 0));
}

/*
 * The heading ancestry: a section is descriptive when its own heading or
 * any heading above it in the outline is ("## Examples to refuse" >
 * "### Installer one-liners"), so v[] names the nearest descriptive
 * ancestor when there is one, else the nearest heading.
 */
size_t *
sanitize_frame_sections(const char *text, size_t len, size_t nlines)
{
	size_t		*v = xreallocarray(NULL, nlines ? nlines : 1,
			    sizeof *v), i, at = 0, n;
	size_t		 anc[SANITIZE_FRAME_DEPTH + 1] = { 0 };
	const char	*p = text, *e = text + len, *nl;
	int		 fence = 0, l, k;

	for (i = 0; i < nlines; i++) {
		v[i] = at;
		nl = memchr(p, '\n', (size_t)(e - p));
		n = (size_t)((nl ? nl : e) - p);
		if (sanitize_frame_fence(p, n))
			fence = !fence;
		else if (!fence && (l = sanitize_frame_heading(p, n)) > 0) {
			/* a heading closes the sections at its level and below */
			for (k = l; k <= SANITIZE_FRAME_DEPTH; k++)
				anc[k] = 0;
			if (sanitize_frame_heading_described(p, n, 0))
				anc[l] = (size_t)(p - text) + 1;
			at = (size_t)(p - text) + 1;
			/*
			 * Ancestors from level 2: a level-1 heading is the
			 * skill's title, its topic ("# Injection detector"),
			 * not the frame of the steps below it.
			 */
			for (k = 2; k < l; k++)
				if (anc[k] != 0) {
					at = anc[k];
					break;
				}
		}
		if (nl == NULL)
			break;
		p = nl + 1;
	}
	for (i++; i < nlines; i++)
		v[i] = at;
	return v;
}

int
sanitize_frame_described(const char *text, size_t len, size_t line_start,
    size_t line_end, size_t hit, int quoted, size_t section)
{
	const char	*p, *heading = NULL, *nl;
	size_t		 m, lead, hlen = 0;

	if (line_start > len)
		return 0;
	if (line_end > len)
		line_end = len;
	/*
	 * 2. a negation leading the line, before the hit: in "do not ask
	 * for confirmation" the negation is the attack's own wording
	 */
	p = text + line_start;
	m = skip_marks(p, line_end - line_start);
	if (line_start + m < hit && has_word(p + m, hit - line_start - m,
	    negation_words, sizeof negation_words / sizeof *negation_words,
	    1))
		return 1;
	/* 3. a quoted hit in a list item or a table row */
	for (lead = 0; lead < m && (p[lead] == ' ' || p[lead] == '\t');
	    lead++)
		;
	if (quoted && lead < m && (p[lead] == '-' || p[lead] == '*' ||
	    p[lead] == '+' || p[lead] == '|' || (p[lead] >= '0' &&
	    p[lead] <= '9')))
		return 1;
	/* 1. the section's heading */
	if (section > 0 && section <= len) {
		heading = text + section - 1;
		nl = memchr(heading, '\n', len - (section - 1));
		hlen = (size_t)((nl != NULL ? nl : text + len) - heading);
	}
	return heading != NULL && sanitize_frame_heading_described(heading,
	    hlen, 0);
}

static int
is_ident(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '_' || c == '-';
}

/* A tool argument or a setting is data or orders, not a mention. */
int
sanitize_frame_value_quote(const char *t, size_t ls, size_t q)
{
	size_t	 i = q, k;

	while (i > ls && (t[i - 1] == ' ' || t[i - 1] == '\t'))
		i--;
	if (i == ls || (t[i - 1] != '=' && t[i - 1] != ':'))
		return 0;
	k = --i;			/* the '=' or ':' */
	while (i > ls && (t[i - 1] == ' ' || t[i - 1] == '\t'))
		i--;
	if (i == ls)
		return 0;
	if (t[k] == ':' && t[i - 1] == '"')
		return 1;		/* JSON: "key": "..." */
	if (!is_ident(t[i - 1]))
		return 0;
	if (t[k] == '=')
		return 1;		/* key="..." */
	/* YAML: a key without capitals, alone at its line's start. */
	while (i > ls && is_ident(t[i - 1])) {
		if (t[i - 1] >= 'A' && t[i - 1] <= 'Z')
			return 0;
		i--;
	}
	while (i > ls && (t[i - 1] == ' ' || t[i - 1] == '\t'))
		i--;
	if (i > ls && t[i - 1] == '-') {	/* a list item */
		i--;
		while (i > ls && (t[i - 1] == ' ' || t[i - 1] == '\t'))
			i--;
	}
	return i == ls;
}
