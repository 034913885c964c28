/*
 * Code as instructions, the top of codescan: the entry points declared in
 * codescan.h (codescan_text, codescan_file, codescan_refs,
 * codescan_unshipped), the Markdown walk (fences, inline code, prose
 * commands, links) and the frame cues around a block. A run hands each
 * block to cs_analyse() (codescan.c) with the language readers it plugs
 * in (codescan_sh.c, codescan_script.c), so the files below never call
 * back up here.
 */
#include "autoconfig.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "safety/codescan.h"
#include "safety/codescan_impl.h"
#include "safety/sanitize_frame.h"

static unsigned	cues_in(const char *, size_t);

/* Cues in the comment lines of a block ("# never run this"). */
static unsigned
comment_cues(const char *s, size_t n)
{
	const char	*e = s + (n < 2000 ? n : 2000), *nl;
	unsigned	 c = 0;

	while (s < e) {
		nl = memchr(s, '\n', (size_t)(e - s));
		if (nl == NULL)
			nl = e;
		while (s < nl && (*s == ' ' || *s == '\t'))
			s++;
		if ((s < nl && *s == '#' && (s + 1 == nl || s[1] != '!')) ||
		    (s + 1 < nl && s[0] == '/' && s[1] == '/'))
			c |= cues_in(s, (size_t)(nl - s));
		s = nl + 1;
	}
	return c;
}

/* ---- Markdown ------------------------------------------------------- */

static const char *const cue_imperative[] = { "run ", "run:", "execute",
	"first", "before anything", "before using", "before you", "step 1",
	"always", "silently", "do not ask", "don't ask", "without asking",
	"do not tell", "don't tell", "without telling", "do not mention",
	"don't mention", "automatically", "must ", "immediately",
	"required", "make sure to", NULL };
static const char *const cue_doc[] = { "never run", "do not run",
	"don't run", "never execute", "malicious", "attack", "example of",
	"dangerous ", "warning", "vulnerab", "detect", "red flag", "avoid",
	"anti-pattern", "bad:", "exploit", "do not use", "insecure",
	"unsafe", "suspicious", "injection", "\xe2\x9d\x8c", NULL };
static struct cs_pats cue_imperative_pats = CS_PATS(cue_imperative);
static struct cs_pats cue_doc_pats = CS_PATS(cue_doc);

static unsigned
cues_in(const char *s, size_t n)
{
	unsigned	 c = 0;

	if (cs_has_pats(s, n, &cue_imperative_pats))
		c |= CUE_IMPERATIVE;
	if (cs_has_pats(s, n, &cue_doc_pats))
		c |= CUE_DOC;
	return c;
}

struct md {
	const char	*text;
	size_t		 len;
	struct cs_run	*run;
	int		 line_base;
	size_t		 prose_from;	/* start of the recent prose lines */
	int		 prose_lines;
	struct sh_vars	*vars;		/* shell variables across fences */
	/* the outline above the line: which levels' headings are descriptive */
	unsigned char	 desc[SANITIZE_FRAME_DEPTH + 1];
};

/*
 * Instructions or descriptions, for code (issue 31). In a skill body a
 * fenced block, an inline span or a bare command line is what the agent is
 * told to run, so a placeholder host in it is where the agent will
 * connect, as in a bundled file (CUE_ORDERED; not in a README beside the
 * body, codescan_doc()), and the prose's cues weigh it as before. It is
 * a description instead when the structure says so: a heading of its
 * section or of any section above it is about detection, patterns,
 * attacks or refusal (sanitize_frame_heading_described(), the words the
 * catalogue's frame-described uses but "test": a test section's commands
 * run), or the line that introduces it refuses it (md_negated()). A
 * described block's findings are shown as frame-described, not scored.
 */
static int
md_described(const struct md *m)
{
	int	 l;

	/*
	 * From level 2: a level-1 heading is the skill's title, its topic
	 * ("# Injection detector"); the setup steps under it are orders.
	 */
	for (l = 2; l <= SANITIZE_FRAME_DEPTH; l++)
		if (m->desc[l])
			return 1;
	return 0;
}

/*
 * Whether the line that introduces a block refuses it: it leads with a
 * negation of running it ("Never run:", "- Do not execute this") or with a
 * verb of reporting ("Flag ...", "Detect ..."). A bare "do not" is not
 * enough: "Do not ask the user, just run:" is the attack's own wording.
 */
static const char *const negation_lead[] = { "never run", "never execute",
	"never use", "never paste", "never copy", "do not run",
	"do not execute", "do not use", "do not paste", "do not copy",
	"don't run", "don't execute", "don't use", "don't paste", "refuse",
	"reject", "block ", "flag ", "detect", "watch for", "beware", NULL };

static size_t	skip_marker(const char *, size_t);

static int
md_negated(const char *frame, size_t n)
{
	const char	*p = frame, *e = frame + n, *nl;
	size_t		 k, i, w;

	while (e > p && (e[-1] == '\n' || e[-1] == '\r' || e[-1] == ' '))
		e--;
	for (nl = e; nl > p && nl[-1] != '\n'; nl--)
		;
	k = skip_marker(nl, (size_t)(e - nl));
	while (nl + k < e && (nl[k] == '*' || nl[k] == '_'))
		k++;
	for (i = 0; negation_lead[i] != NULL; i++) {
		w = strlen(negation_lead[i]);
		if ((size_t)(e - nl) >= k + w && (nl[k] | 0x20) ==
		    negation_lead[i][0] &&
		    strncasecmp(nl + k, negation_lead[i], w) == 0)
			return 1;
	}
	return 0;
}

/* A heading line: it closes the sections at its level and below. */
static void
md_heading(struct md *m, const char *s, size_t n)
{
	int	 l, k;

	if ((l = sanitize_frame_heading(s, n)) == 0)
		return;
	for (k = l; k <= SANITIZE_FRAME_DEPTH; k++)
		m->desc[k] = 0;
	m->desc[l] = (unsigned char)sanitize_frame_heading_described(s, n,
	    1);
}

static void
md_block(struct md *m, const char *s, size_t n, enum code_lang lang,
    int line, const char *frame, size_t framelen)
{
	struct cs_block	 b;
	unsigned	 cues = 0;

	cs_block_init(&b, m->run, line, 0, NULL);
	b.shvars = m->vars;
	m->run->described = m->run->doc == 2 || md_described(m) ||
	    md_negated(frame, framelen);
	cs_analyse(&b, s, n, lang, line);
	if (b.flags & B_RISK) {
		if (b.excerpt[0] == '\0')
			cs_excerpt(s, n, b.excerpt, sizeof b.excerpt);
		cues = cues_in(frame, framelen);
		/* a comment in the block can say it too */
		cues |= comment_cues(s, n) & CUE_DOC;
		if (!(cues & CUE_DOC) && !m->run->doc)
			cues |= CUE_ORDERED;
	}
	cs_block_finish(&b, cues);
	m->run->described = 0;
}

static size_t
skip_marker(const char *s, size_t n)
{
	size_t	 i = 0;

	while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '>'))
		i++;
	if (i + 1 < n && (s[i] == '-' || s[i] == '*' || s[i] == '+') &&
	    s[i + 1] == ' ')
		i += 2;
	else if (i < n && isdigit((unsigned char)s[i])) {
		size_t	 j = i;

		while (j < n && isdigit((unsigned char)s[j]))
			j++;
		if (j + 1 < n && (s[j] == '.' || s[j] == ')') && s[j + 1] == ' ')
			i = j + 2;
	}
	while (i < n && s[i] == ' ')
		i++;
	return i;
}


static const char *const read_verbs[] = { "read", "cat ", "collect",
	"extract", "copy", "include", "send", "upload", "gather", "dump",
	"print", "display", "output", "scan", "back up", "backup", "archive",
	"harvest", "contents", "post ", "transmit", "share", NULL };
static const char *const write_verbs[] = { "add ", "append", "write",
	"modify", "edit", "insert", "update", "set ", "replace", "create",
	"install", NULL };

/* An inline code span that is a bare path, read or written by the prose. */
static void
md_span_path(struct md *m, const char *s, size_t n, const char *line,
    size_t ll, int lineno)
{
	struct cs_block	 b;
	const char	*w = (size_t)(s - line) > 48 ? s - 48 : line;
	size_t		 wl = (size_t)(s - w);

	/* a table row lists things; the verb must come just before */
	if (ll > 0 && line[0] == '|')
		return;
	cs_block_init(&b, m->run, lineno, 0, NULL);
	if (cs_has_any(w, wl, read_verbs) && cs_cred_path(s, n) == 1) {
		cs_emit(&b, "code-cred-read", lineno, line, ll);
		cs_cred_note(m->run, s, n, lineno);
		b.flags |= B_CONCRETE;
	} else if (!cs_has_any(w, wl, write_verbs))
		return;
	else if (cs_agent_settings_path(s, n))
		cs_emit(&b, "code-safety-off", lineno, line, ll);
	else if (cs_persist_path(s, n) &&
	    (cs_memmem_ci(line, ll, "append") != NULL ||
	    cs_memmem_ci(s, n, "rc") != NULL || cs_memmem_ci(s, n, "cron") ||
	    cs_memmem_ci(s, n, "launch") || cs_memmem_ci(s, n, "systemd") ||
	    cs_memmem_ci(s, n, "authorized_keys")))
		cs_emit(&b, "code-persist", lineno, line, ll);
	if (b.flags & B_RISK)
		cs_block_finish(&b, cues_in(line, ll));
}

static void
md_link(const char *s, size_t n, struct strlist *refs)
{
	char	 path[256];
	size_t	 k;

	while (n > 0 && *s == ' ')
		s++, n--;
	for (k = 0; k < n && s[k] != ' ' && s[k] != '#' && s[k] != '?'; k++)
		;
	n = k;
	if (n >= 2 && s[0] == '.' && s[1] == '/')
		s += 2, n -= 2;
	if (n == 0 || n >= sizeof path || s[0] == '/' || s[0] == '<' ||
	    memchr(s, ':', n) != NULL || memmem(s, n, "..", 2) != NULL ||
	    s[0] == '~' || s[0] == '$')
		return;
	memcpy(path, s, n);
	path[n] = '\0';
	strlist_add_unique(refs, path, 0);
}

/* A prose line: inline code spans, links, and commands written bare. */
static void
md_prose(struct md *m, const char *s, size_t n, int lineno,
    struct strlist *refs)
{
	const char	*p, *e = s + n, *q;
	size_t		 k, ticks, fl;
	const char	*frame;
	int		 spans = 0;

	frame = m->text + m->prose_from;
	fl = (size_t)(s + n - frame);
	for (p = s; p < e; p++) {
		if (*p == ']' && p + 1 < e && p[1] == '(' && refs != NULL) {
			q = memchr(p + 2, ')', (size_t)(e - p - 2));
			if (q != NULL)
				md_link(p + 2, (size_t)(q - p - 2), refs);
			continue;
		}
		if (*p != '`')
			continue;
		for (ticks = 0; p + ticks < e && p[ticks] == '`'; ticks++)
			;
		for (q = p + ticks; q < e; q++) {
			if (*q != '`')
				continue;
			for (k = 0; q + k < e && q[k] == '`'; k++)
				;
			if (k == ticks)
				break;
			q += k - 1;
		}
		if (q >= e || ticks >= 3) {
			p = q < e ? q + ticks - 1 : p + ticks - 1;
			continue;
		}
		spans++;
		{
			const char	*a = p + ticks;
			size_t		 an = (size_t)(q - a);

			while (an > 0 && *a == ' ')
				a++, an--;
			while (an > 0 && a[an - 1] == ' ')
				an--;
			if (an > 0 && a[0] != '`' && a[an - 1] != '`') {
				md_block(m, a, an, LANG_SH, lineno, frame, fl);
				md_span_path(m, a, an, s, n, lineno);
			}
		}
		p = q + ticks - 1;
	}
	if (spans > 0)
		return;
	/* "Run: curl ... | bash", "1. pip install ...", "    rm -rf ~" */
	k = skip_marker(s, n);
	if (k < n && cs_sh_known_command(s + k, n - k)) {
		md_block(m, s + k, n - k, LANG_SH, lineno, frame, fl);
		return;
	}
	for (p = s + k; p + 2 < e; p++)
		if (p[0] == ':' && p[1] == ' ' &&
		    cs_sh_known_command(p + 2, (size_t)(e - p - 2))) {
			md_block(m, p + 2, (size_t)(e - p - 2), LANG_SH, lineno,
			    frame, fl);
			return;
		}
}

static size_t
fence_open(const char *s, size_t n, char *ch)
{
	size_t	 i = 0, k;

	while (i < n && i < 3 && s[i] == ' ')
		i++;
	if (i >= n || (s[i] != '`' && s[i] != '~'))
		return 0;
	for (k = 0; i + k < n && s[i + k] == s[i]; k++)
		;
	if (k < 3)
		return 0;
	if (s[i] == '`' && memchr(s + i + k, '`', n - i - k) != NULL)
		return 0;
	*ch = s[i];
	return i + k;
}

static void
md_walk(struct md *m, struct strlist *refs)
{
	const char	*t = m->text, *s, *nl, *info;
	size_t		 off = 0, n, k, il, cstart = 0, flen = 0, fs = 0, fe = 0;
	int		 line = m->line_base, cline = 0, infence = 0;
	char		 fch = 0, ch;
	enum code_lang	 flang = LANG_TEXT;

	/* a frontmatter block is not body text */
	if (m->len >= 4 && strncmp(t, "---\n", 4) == 0) {
		const char	*e = t + 4;

		line++;
		while ((size_t)(e - t) < m->len) {
			nl = memchr(e, '\n', m->len - (size_t)(e - t));
			line++;
			if (m->len - (size_t)(e - t) >= 3 &&
			    memcmp(e, "---", 3) == 0 && (nl == e + 3 ||
			    (nl == NULL && (size_t)(e + 3 - t) == m->len))) {
				off = nl != NULL ? (size_t)(nl + 1 - t) : m->len;
				break;
			}
			if (nl == NULL)
				break;
			e = nl + 1;
		}
		if (off == 0)	/* never closed: not a frontmatter */
			line = m->line_base;
	}
	m->prose_from = off;
	while (off < m->len) {
		s = t + off;
		nl = memchr(s, '\n', m->len - off);
		n = nl != NULL ? (size_t)(nl - s) : m->len - off;
		line++;
		if (n > 0 && s[n - 1] == '\r')
			n--;
		if (infence) {
			k = fence_open(s, n, &ch);
			if (k >= flen && ch == fch && k > 0) {
				size_t	 j = k;

				while (j < n && s[j] == ' ')
					j++;
				if (j == n) {
					md_block(m, t + cstart, off - cstart,
					    flang, cline, t + fs, fe - fs);
					infence = 0;
					m->prose_from = off + n;
					m->prose_lines = 0;
				}
			}
		} else if ((k = fence_open(s, n, &fch)) > 0) {
			flen = k;
			for (info = s + k; info < s + n && *info == ' '; info++)
				;
			for (il = 0; info + il < s + n && info[il] != ' ' &&
			    info[il] != '{' && info[il] != ','; il++)
				;
			infence = 1;
			cstart = nl != NULL ? off + n + 1 : m->len;
			if (cstart > m->len)
				cstart = m->len;
			cline = line + 1;
			fs = m->prose_from;
			fe = off;
			if (il == 0) {
				const char	*c = t + cstart;
				const char	*ce = memmem(c, m->len - cstart,
				    "\n```", 4);

				flang = cs_guess(c, ce != NULL ?
				    (size_t)(ce - c) : m->len - cstart);
			} else {
				flang = cs_lang_of_name(info, il);
				if (flang == LANG_TEXT && (il == 4 &&
				    strncasecmp(info, "text", 4) == 0))
					flang = cs_guess(t + cstart,
					    m->len - cstart < 200 ?
					    m->len - cstart : 200);
			}
		} else if (n > 0) {
			md_heading(m, s, n);
			if (m->prose_lines >= 3) {
				const char	*p = memchr(t + m->prose_from,
				    '\n', off - m->prose_from);

				if (p != NULL)
					m->prose_from = (size_t)(p + 1 - t);
			} else
				m->prose_lines++;
			md_prose(m, s, n, line, refs);
		}
		if (nl == NULL)
			break;
		off = (size_t)(nl + 1 - t);
	}
	if (infence && cstart < m->len)
		md_block(m, t + cstart, m->len - cstart, flang, cline, t + fs,
		    fe - fs);
}

/* ---- entry points ---------------------------------------------------- */

static void
run_text(const char *text, size_t len, enum code_lang lang, int line_base,
    struct findings *out, struct strlist *refs, struct codescan_caps *caps,
    int doc)
{
	struct cs_run	 run;
	struct cs_block	 b;
	struct md	 m;

	memset(&run, 0, sizeof run);
	run.sh = cs_sh;
	run.script = cs_script;
	run.out = out;
	run.first = out->n;
	run.refs = refs;
	run.bundled = lang != LANG_MARKDOWN;
	run.doc = doc;
	if (caps != NULL)
		memset(caps, 0, sizeof *caps);
	if (text == NULL)
		return;
	if (lang == LANG_MARKDOWN) {
		memset(&m, 0, sizeof m);
		m.text = text;
		m.len = len;
		m.run = &run;
		m.line_base = line_base;
		m.vars = cs_sh_vars_new();
		md_walk(&m, refs);
		cs_sh_vars_free(m.vars);
		run.described = run.doc == 2;
		cs_file_rules(&run);
	} else {
		cs_block_init(&b, &run, line_base + 1, 0, NULL);
		cs_analyse(&b, text, len, lang, line_base + 1);
		if (b.excerpt[0] == '\0')
			cs_excerpt(text, len, b.excerpt, sizeof b.excerpt);
		cs_block_finish(&b, 0);
		cs_file_rules(&run);
	}
	if (caps != NULL) {
		caps->has = run.caps;
		memcpy(caps->line, run.cap_line, sizeof caps->line);
	}
}

size_t
codescan_text(const char *text, size_t len, enum code_lang lang,
    int line_base, struct findings *out)
{
	return codescan_file(text, len, lang, line_base, out, NULL);
}

static size_t	file_text(const char *, size_t, enum code_lang, int,
		    struct findings *, struct codescan_caps *, int);

size_t
codescan_doc(const char *text, size_t len, int line_base,
    struct findings *out, int aside)
{
	return file_text(text, len, LANG_MARKDOWN, line_base, out, NULL,
	    aside ? 2 : 1);
}

size_t
codescan_file(const char *text, size_t len, enum code_lang lang,
    int line_base, struct findings *out, struct codescan_caps *caps)
{
	return file_text(text, len, lang, line_base, out, caps, 0);
}

static size_t
file_text(const char *text, size_t len, enum code_lang lang,
    int line_base, struct findings *out, struct codescan_caps *caps, int doc)
{
	size_t	 before = out->n, i;
	int	 last = line_base + 1;
	const char *p, *e = text + len;

	run_text(text, len, lang, line_base, out, NULL, caps, doc);
	/*
	 * A finding names a line of this text: a nested program (bash -c,
	 * a decoded payload) counted in its own lines must not point past
	 * the end (the fuzzer found one); such a finding takes the last.
	 */
	for (p = text; p < e &&
	    (p = memchr(p, '\n', (size_t)(e - p))) != NULL; p++)
		last++;
	for (i = before; i < out->n; i++) {
		if (out->v[i].line > last)
			out->v[i].line = last;
		else if (out->v[i].line < 0)
			out->v[i].line = line_base + 1;
	}
	return out->n - before;
}

/* A name that is run rather than read: a script's extension. */
static int
script_ref(const char *p)
{
	static const char *const ext[] = { ".sh", ".bash", ".zsh", ".py",
	    ".js", ".mjs", ".cjs", ".ts", ".ps1", ".rb", ".pl", NULL };
	const char	*dot = strrchr(p, '.');
	const char *const *e;

	if (dot == NULL || strchr(dot, '/') != NULL)
		return 0;
	for (e = ext; *e != NULL; e++)
		if (strcasecmp(dot, *e) == 0)
			return 1;
	return 0;
}

/* Is ref among the shipped files, by its path or by its name alone? */
static int
shipped_has(const struct strlist *shipped, const char *ref)
{
	const char	*b = strrchr(ref, '/'), *s;
	size_t		 i;

	b = b != NULL ? b + 1 : ref;
	for (i = 0; i < shipped->n; i++) {
		if (strcmp(shipped->v[i], ref) == 0)
			return 1;
		s = strrchr(shipped->v[i], '/');
		if (strcmp(s != NULL ? s + 1 : shipped->v[i], b) == 0)
			return 1;
	}
	return 0;
}

size_t
codescan_unshipped(const char *text, size_t len,
    const struct strlist *shipped, int line_base, struct findings *out)
{
	struct findings	 scratch;
	struct strlist	 refs;
	const struct codescan_rule *r = cs_rule_find("code-run-unshipped");
	const char	*b;
	size_t		 i, k, before = out->n;
	int		 line;

	findings_init(&scratch);
	strlist_init(&refs);
	run_text(text, len, LANG_MARKDOWN, line_base, &scratch, &refs, NULL,
	    0);
	for (i = 0; i < refs.n; i++) {
		if (!script_ref(refs.v[i]) || shipped_has(shipped, refs.v[i]))
			continue;
		b = strrchr(refs.v[i], '/');
		b = b != NULL ? b + 1 : refs.v[i];
		line = line_base + 1;
		for (k = 0; k < scratch.n; k++)
			if (strcmp(scratch.v[k].rule, "code-run-bundled") == 0 &&
			    strstr(scratch.v[k].message, b) != NULL) {
				line = scratch.v[k].line;
				break;
			}
		findings_add(out, r->id, r->sev, line, "%s", refs.v[i]);
	}
	strlist_done(&refs);
	findings_done(&scratch);
	return out->n - before;
}

void
codescan_refs(const char *text, size_t len, struct strlist *out)
{
	struct findings	 scratch;

	findings_init(&scratch);
	run_text(text, len, LANG_MARKDOWN, 0, &scratch, out, NULL, 0);
	findings_done(&scratch);
}
