#include "autoconfig.h"

#include <sys/stat.h>

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "index/assess.h"
#include "base/buf.h"
#include "safety/codescan.h"
#include "core/files.h"
#include "core/frontmatter.h"
#include "core/options.h"
#include "core/skill.h"
#include "base/strlist.h"
#include "base/xmalloc.h"

void
assess_limits_init(struct assess_limits *l, const struct config *cfg)
{
	l->max_files = cfg->max_files_per_skill;
	l->max_file = (size_t)cfg->max_related_kb * 1024;
	l->max_total = ASSESS_MAX_TOTAL;
}

/* ---- frontmatter ---------------------------------------------------- */

/* The file line of top-level key k, or 0 when the parser did not see it. */
static int
key_line(const struct fm *fm, const char *k)
{
	size_t	 i;

	if (fm->key_lines == NULL)
		return 0;
	for (i = 0; i < fm->keys.n; i++)
		if (strcmp(fm->keys.v[i], k) == 0)
			return fm->key_lines[i];
	return 0;
}

/*
 * The file line where the value of the key at `line` starts: the next
 * one for a block scalar ("key: |" or "key: >-"), else the key's own.
 */
static int
value_line(const char *text, size_t len, int line)
{
	const char	*p = text, *end = text + len, *eol, *colon;
	int		 k;

	if (line <= 0)
		return line;
	for (k = 1; k < line && p < end; k++) {
		if ((p = memchr(p, '\n', (size_t)(end - p))) == NULL)
			return line;
		p++;
	}
	if ((eol = memchr(p, '\n', (size_t)(end - p))) == NULL)
		eol = end;
	if ((colon = memchr(p, ':', (size_t)(eol - p))) == NULL)
		return line;
	for (colon++; colon < eol && (*colon == ' ' || *colon == '\t');
	    colon++)
		;
	return colon < eol && (*colon == '|' || *colon == '>') ? line + 1 :
	    line;
}

/* 1 when f has rule at line among its items from index `from` on. */
static int
has_hit(const struct findings *f, size_t from, const char *rule, int line)
{
	size_t	 i;

	for (i = from; i < f->n; i++)
		if (f->v[i].line == line && strcmp(f->v[i].rule, rule) == 0)
			return 1;
	return 0;
}

/*
 * The decoded frontmatter strings, one after another with a blank line
 * between them (so no pattern reads two as one line), scanned in one
 * call; lines[k] is the file line of the text's line k + 1.
 */
struct fmtext {
	struct buf	 b;
	int		*lines;
	size_t		 n;
	size_t		 cap;
};

static void
fmtext_line(struct fmtext *t, int line)
{
	if (t->n == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 32;
		t->lines = xreallocarray(t->lines, t->cap, sizeof *t->lines);
	}
	t->lines[t->n++] = line;
}

/* Appends str, found under the key at file line `line`. */
static void
fmtext_add(struct fmtext *t, const char *str, int line)
{
	const char	*p, *nl;
	int		 k = 0;

	for (p = str; (nl = strchr(p, '\n')) != NULL; p = nl + 1) {
		buf_add(&t->b, p, (size_t)(nl - p) + 1);
		/* A block scalar's lines follow its key's. */
		fmtext_line(t, line > 0 ? line + k++ : 0);
	}
	buf_addstr(&t->b, p);
	buf_add(&t->b, "\n\n", 2);
	fmtext_line(t, line > 0 ? line + k : 0);
	fmtext_line(t, line);
}

/*
 * The line of a nested key: the first line after `line` of the block
 * (text, blen) that starts, after blanks, with key and a colon (plain or
 * quoted); `line` when there is none. Lines are 1-based.
 */
static int
sub_line(const char *text, size_t blen, int line, const char *key)
{
	const char	*p = text, *e = text + blen, *eol;
	size_t		 k = strlen(key);
	int		 ln;

	if (line <= 0 || k == 0)
		return line;
	for (ln = 1; p < e; ln++, p = eol + 1) {
		if ((eol = memchr(p, '\n', (size_t)(e - p))) == NULL)
			eol = e;
		if (ln > line) {
			while (p < eol && (*p == ' ' || *p == '\t' ||
			    *p == '-'))
				p++;
			if (p < eol && (*p == '"' || *p == '\''))
				p++;
			if ((size_t)(eol - p) > k && memcmp(p, key, k) == 0 &&
			    (p[k] == ':' || ((p[k] == '"' || p[k] == '\'') &&
			    (size_t)(eol - p) > k + 1 && p[k + 1] == ':')))
				return ln;
		}
		if (eol == e)
			break;
	}
	return line;
}

/*
 * Every string of a value, keys of maps included, at the line of the key
 * it sits under (text, blen: the block, to find nested keys in).
 */
static void
fmtext_value(struct fmtext *t, const cJSON *v, int line, const char *text,
    size_t blen)
{
	const cJSON	*c;
	int		 l;

	if (cJSON_IsString(v) && v->valuestring != NULL) {
		fmtext_add(t, v->valuestring, line);
		return;
	}
	cJSON_ArrayForEach(c, v) {
		l = line;
		/* A key is shown to the agent as much as a value. */
		if (c->string != NULL && cJSON_IsObject(v)) {
			l = sub_line(text, blen, line, c->string);
			fmtext_add(t, c->string, l);
			l = value_line(text, blen, l);
		}
		fmtext_value(t, c, l, text, blen);
	}
}

/*
 * Scans t in one call and appends its findings to out with their file
 * lines, leaving out repeats (same rule, same line) of out's items from
 * index `from` on.
 */
static void
fmtext_scan(const struct sanitizer *san, const struct fmtext *t,
    size_t from, struct findings *out)
{
	struct findings	 tmp;
	size_t		 i;
	int		 l;

	if (t->b.len == 0)
		return;
	findings_init(&tmp);
	sanitize_scan(san, t->b.p, t->b.len, 0, &tmp);
	for (i = 0; i < tmp.n; i++) {
		l = tmp.v[i].line;
		l = l >= 1 && (size_t)l <= t->n ? t->lines[l - 1] : 0;
		if (!has_hit(out, from, tmp.v[i].rule, l))
			findings_add(out, tmp.v[i].rule, tmp.v[i].sev, l, "%s",
			    tmp.v[i].message);
	}
	findings_done(&tmp);
}

/*
 * Where a YAML comment starts in the line [p, e): a '#' at its start or
 * after a blank, outside a quoted scalar (a quote opens one only where a
 * scalar can start, so the apostrophe of "don't" does not). NULL: none.
 */
static const char *
comment_start(const char *p, const char *e)
{
	const char	*s = p;
	char		 q = 0;

	for (; p < e; p++) {
		if (q == '"' && *p == '\\' && p + 1 < e) {
			p++;
			continue;
		}
		if (q != 0) {
			if (*p == q)
				q = 0;
			continue;
		}
		if ((*p == '"' || *p == '\'') && (p == s ||
		    strchr(" \t:[{,-", p[-1]) != NULL))
			q = *p;
		else if (*p == '#' && (p == s || p[-1] == ' ' ||
		    p[-1] == '\t'))
			return p;
	}
	return NULL;
}

/*
 * What only the block as written holds: its YAML comments, and the lines
 * before the first key (the decoded strings cover the rest). The
 * skill:// resource serves the block verbatim, so they reach the agent.
 */
static void
fmtext_raw(struct fmtext *r, const char *text, size_t blen,
    const struct fm *fm)
{
	const char	*p = text, *e = text + blen, *eol, *from;
	char		*piece;
	size_t		 i;
	int		 ln, first = 0;

	for (i = 0; fm->key_lines != NULL && i < fm->keys.n; i++)
		if (fm->key_lines[i] > 0 &&
		    (first == 0 || fm->key_lines[i] < first))
			first = fm->key_lines[i];
	for (ln = 1; p < e; ln++, p = eol + 1) {
		if ((eol = memchr(p, '\n', (size_t)(e - p))) == NULL)
			eol = e;
		from = first > 0 && ln >= first ? comment_start(p, eol) : p;
		if (from != NULL && from < eol) {
			piece = xstrndup(from, (size_t)(eol - from));
			fmtext_add(r, piece, ln);
			free(piece);
		}
		if (eol == e)
			break;
	}
}

size_t
assess_frontmatter(const struct sanitizer *san, const char *text,
    size_t len, const struct fm *fm, struct findings *out)
{
	struct fmtext	 t, r;
	cJSON		*root, *c;
	size_t		 before = out->n, blen;
	int		 l;

	if (!fm->has_frontmatter)
		return 0;
	/*
	 * The decoded strings decide: a quoted YAML value is what the
	 * agent reads, not a quotation.
	 */
	blen = fm->body_offset <= len ? fm->body_offset : len;
	memset(&t, 0, sizeof t);
	buf_init(&t.b, 0);
	if (fm->json != NULL && (root = cJSON_Parse(fm->json)) != NULL) {
		cJSON_ArrayForEach(c, root) {
			if (c->string == NULL)
				continue;
			l = key_line(fm, c->string);
			fmtext_add(&t, c->string, l);
			fmtext_value(&t, c, value_line(text, blen, l), text,
			    blen);
		}
		cJSON_Delete(root);
	}
	fmtext_scan(san, &t, before, out);
	buf_done(&t.b);
	free(t.lines);
	memset(&r, 0, sizeof r);
	buf_init(&r.b, 0);
	fmtext_raw(&r, text, blen, fm);
	fmtext_scan(san, &r, before, out);
	buf_done(&r.b);
	free(r.lines);
	return out->n - before;
}

/* ---- bundled files -------------------------------------------------- */

static char *
folder_of(const char *path)
{
	char	*dir = xstrdup(path), *slash;

	if ((slash = strrchr(dir, '/')) != NULL)
		*slash = '\0';
	else {
		free(dir);
		dir = xstrdup(".");
	}
	return dir;
}

/* Media and archives: files_read() would refuse them as binary anyway. */
static int
binary_name(const char *rel)
{
	static const char *const ext[] = {
		".png", ".jpg", ".jpeg", ".gif", ".webp", ".ico", ".pdf",
		".zip", ".gz", ".tgz", ".bz2", ".xz", ".7z", ".woff",
		".woff2", ".ttf", ".otf", ".mp3", ".mp4", ".wav", ".mov",
		NULL
	};
	const char	*dot = strrchr(rel, '.');
	size_t		 i;

	if (dot == NULL)
		return 0;
	for (i = 0; ext[i] != NULL; i++)
		if (strcasecmp(dot, ext[i]) == 0)
			return 1;
	return 0;
}

static const char *const cap_does[CODESCAN_CAPS] = {
	[CAP_NET] = "reaches the network",
	[CAP_DELETE] = "deletes or moves files",
	[CAP_EXEC] = "starts processes",
};

/*
 * code-claim-mismatch: a capability the entry or the file itself says
 * the skill does without, and the file's code has.
 */
static void
claims_check(const struct assess_files *bd, const char *rel,
    const char *text, size_t len, const struct codescan_caps *caps,
    struct findings *out)
{
	const char	*own[CODESCAN_CAPS], *ph;
	unsigned	 mine, broken;
	size_t		 i;

	if ((caps->has & (1u << CAP_NET | 1u << CAP_DELETE |
	    1u << CAP_EXEC)) == 0)
		return;
	mine = codescan_claims(text, len, own);
	broken = (bd->claims | mine) & caps->has;
	for (i = 0; i <= CAP_EXEC; i++) {
		if (!(broken & 1u << i))
			continue;
		ph = bd->phrase[i] != NULL ? bd->phrase[i] : own[i];
		findings_add(out, "code-claim-mismatch", SEV_WARN,
		    caps->line[i], "says \"%s\"; the code %s", ph,
		    cap_does[i]);
		findings_set_file(out, out->n - 1, rel);
	}
}

void
assess_files_init(struct assess_files *bd, const char *text, size_t len)
{
	memset(bd, 0, sizeof *bd);
	bd->claims = codescan_claims(text, text != NULL ? len : 0, bd->phrase);
}

void
assess_files_add(struct assess_files *bd, const char *rel, const char *text,
    size_t len, const struct codescan_caps *caps, struct findings *out)
{
	claims_check(bd, rel, text, len, caps, out);
	/* the first file that reads secrets and the first that sends */
	if ((caps->has & 1u << CAP_SECRETS) && bd->secrets_file == NULL) {
		bd->secrets_file = xstrdup(rel);
		bd->secrets_line = caps->line[CAP_SECRETS];
	}
	if ((caps->has & 1u << CAP_SEND) && bd->send_file == NULL) {
		bd->send_file = xstrdup(rel);
		bd->send_line = caps->line[CAP_SEND];
	}
}

void
assess_files_done(struct assess_files *bd, struct findings *out)
{
	/* code-cred-exfil-split across files: one reads, another sends */
	if (bd->secrets_file != NULL && bd->send_file != NULL &&
	    strcmp(bd->secrets_file, bd->send_file) != 0) {
		findings_add(out, "code-cred-exfil-split", SEV_WARN,
		    bd->send_line, "secrets read in another bundled file "
		    "(line %d), data sent from this one", bd->secrets_line);
		findings_set_file(out, out->n - 1, bd->send_file);
	}
	free(bd->secrets_file);
	free(bd->send_file);
	memset(bd, 0, sizeof *bd);
}

/* Reads and scans one bundled file; *total counts the bytes read. */
/*
 * Whether rel is a test file: a folder named test, tests, __tests__, spec
 * or testdata on its path, or a name like test_x.py, x_test.go,
 * x.test.ts, x.spec.js.
 */
static int
test_path(const char *rel)
{
	static const char *const dirs[] = { "test", "tests", "__tests__",
		"spec", "testdata" };
	const char	*p = rel, *e, *b = strrchr(rel, '/');
	size_t		 i, n;

	for (; (e = strchr(p, '/')) != NULL; p = e + 1)
		for (i = 0; i < sizeof dirs / sizeof *dirs; i++) {
			n = strlen(dirs[i]);
			if ((size_t)(e - p) == n && strncmp(p, dirs[i], n) == 0)
				return 1;
		}
	b = b != NULL ? b + 1 : rel;
	return strncmp(b, "test_", 5) == 0 || strstr(b, "_test.") != NULL ||
	    strstr(b, ".test.") != NULL || strstr(b, ".spec.") != NULL;
}

/*
 * Whether the agent does not act on the text of the bundled file rel
 * (refs: what the body points to, codescan_refs()): a test file, whose
 * literals are the inputs it feeds the code under test. A file the body
 * points to is acted on. Other files, Markdown under references/ too, are
 * what the agent may read on its own: they count in full.
 */
static int
aside_file(const char *rel, const struct strlist *refs)
{
	return !strlist_contains(refs, rel, 0) && test_path(rel);
}

static void
scan_one(const struct sanitizer *san, const struct assess_limits *l,
    const char *dir, const char *rel, size_t *total, struct assess_files *bd,
    int aside, struct findings *out)
{
	struct codescan_caps	 caps;
	struct files_ends	 ends;
	char	*text = NULL, *cause = NULL;
	size_t	 len, i, n0;

	if (binary_name(rel) || *total >= l->max_total)
		return;
	/* Padding past the cap must not hide a payload: head and tail. */
	if (files_read_ends(dir, rel, l->max_file, &text, &len, &ends,
	    &cause) != 0) {
		free(cause);
		return;
	}
	if (ends.size > (int64_t)l->max_file) {
		findings_add(out, "file-over-cap", SEV_WARN, 0, "%s: %lld "
		    "bytes, over limits.max_related_kb (%zu KiB): only its "
		    "first and last %zu KiB were scanned", rel,
		    (long long)ends.size, l->max_file / 1024,
		    l->max_file / 2048);
		findings_set_file(out, out->n - 1, rel);
	}
	if (*total + len > l->max_total)
		len = files_utf8_cut(text, len, l->max_total - *total);
	*total += len;
	n0 = out->n;
	sanitize_file_aside(san, rel, text, len, out, &caps, aside);
	/* Lines of the tail as the file's own, not the joined text's. */
	for (i = n0; i < out->n; i++)
		out->v[i].line = files_ends_line(&ends, out->v[i].line);
	for (i = 0; i < CODESCAN_CAPS; i++)
		caps.line[i] = files_ends_line(&ends, caps.line[i]);
	assess_files_add(bd, rel, text, len, &caps, out);	/* caps' lines */
	free(text);
}

/* 1 when folder holds a SKILL.md (a regular file). */
static int
has_skill_md(const char *folder)
{
	struct stat	 st;
	char		*p;
	int		 r;

	xasprintf(&p, "%s/SKILL.md", folder);
	r = stat(p, &st) == 0 && S_ISREG(st.st_mode);
	free(p);
	return r;
}

/*
 * 1 when rel lies in a subfolder of dir that holds a SKILL.md of its own:
 * a nested skill, indexed and assessed as an entry of its own, not as a
 * file of this one (a collection's folder would count every member).
 */
static int
in_nested_skill(const char *dir, const char *rel)
{
	const char	*slash;
	char		*sub;
	int		 r;

	if ((slash = strchr(rel, '/')) == NULL)
		return 0;
	xasprintf(&sub, "%s/%.*s", dir, (int)(slash - rel), rel);
	r = has_skill_md(sub);
	free(sub);
	return r;
}

static size_t	bundled(const struct sanitizer *, const struct assess_limits *,
		    const char *, const char *, size_t, int, int,
		    struct assess_files *, struct findings *);

size_t
assess_bundled(const struct sanitizer *san, const struct assess_limits *l,
    const char *entry_path, const char *body, size_t blen, int line_base,
    int list, struct findings *out)
{
	struct assess_files	 bd;

	assess_files_init(&bd, body, blen);
	return bundled(san, l, entry_path, body, blen, line_base, list, &bd,
	    out);
}

static size_t
bundled(const struct sanitizer *san, const struct assess_limits *l,
    const char *entry_path, const char *body, size_t blen, int line_base,
    int list, struct assess_files *bd, struct findings *out)
{
	struct strlist	 done, refs;
	cJSON		*arr, *it;
	const char	*rel;
	char		*dir;
	size_t		 before = out->n, total = 0, i;
	int		 cut;

	strlist_init(&done);
	strlist_init(&refs);
	dir = folder_of(entry_path);
	if (body != NULL)
		codescan_refs(body, blen, &refs);
	arr = list ? files_list(dir, l->max_files, &cut) : NULL;
	cJSON_ArrayForEach(it, arr) {
		rel = cJSON_GetStringValue(cJSON_GetObjectItem(it, "path"));
		if (rel == NULL || in_nested_skill(dir, rel))
			continue;
		strlist_add(&done, rel);
		scan_one(san, l, dir, rel, &total, bd, aside_file(rel, &refs),
		    out);
	}
	cJSON_Delete(arr);
	/* What the body runs may sit deeper than files_list() looks. */
	for (i = 0; i < refs.n && (int)done.n < l->max_files; i++) {
		if (strlist_contains(&done, refs.v[i], 0) ||
		    in_nested_skill(dir, refs.v[i]))
			continue;
		strlist_add(&done, refs.v[i]);
		scan_one(san, l, dir, refs.v[i], &total, bd, 0, out);
	}
	/*
	 * Scripts the body tells the agent to run that the folder does not
	 * ship (code-run-unshipped): code nobody can review before it runs.
	 */
	if (body != NULL) {
		struct strlist	 shipped;
		struct stat	 st;
		char		*p;

		strlist_init(&shipped);
		for (i = 0; i < done.n; i++) {
			xasprintf(&p, "%s/%s", dir, done.v[i]);
			if (stat(p, &st) == 0 && S_ISREG(st.st_mode))
				strlist_add(&shipped, done.v[i]);
			free(p);
		}
		codescan_unshipped(body, blen, &shipped, line_base, out);
		strlist_done(&shipped);
	}
	assess_files_done(bd, out);
	free(dir);
	strlist_done(&refs);
	strlist_done(&done);
	return out->n - before;
}

/*
 * Adds the regular files of dir (and, at depth 0, of its subfolders) to
 * *sum; *left counts down l->max_files. Names in readdir order: the sum
 * does not depend on it.
 */
static void
stamp_dir(const char *dir, const char *prefix, int depth, int *left,
    uint64_t *sum, int *any)
{
	struct dirent	*de;
	struct stat	 st;
	DIR		*d;
	char		*line, *sub, hex[17];
	int		 n;

	if ((d = opendir(dir)) == NULL)
		return;
	while (*left > 0 && (de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0 ||
		    (depth == 0 && strcmp(de->d_name, "SKILL.md") == 0))
			continue;
		if (fstatat(dirfd(d), de->d_name, &st, 0) == -1)
			continue;
		if (S_ISDIR(st.st_mode) && depth == 0) {
			xasprintf(&sub, "%s/%s", dir, de->d_name);
			if (!has_skill_md(sub))
				stamp_dir(sub, de->d_name, 1, left, sum, any);
			free(sub);
			continue;
		}
		if (!S_ISREG(st.st_mode))
			continue;
		n = xasprintf(&line, "%s/%s|%lld|%lld.%09ld", prefix,
		    de->d_name, (long long)st.st_size,
		    (long long)st.st_mtim.tv_sec, (long)st.st_mtim.tv_nsec);
		skill_hash(line, (size_t)n, hex);
		*sum += strtoull(hex, NULL, 16);
		*any = 1;
		free(line);
		(*left)--;
	}
	closedir(d);
}

void
assess_stamp(const struct assess_limits *l, const char *entry_path,
    char out[17])
{
	uint64_t	 sum = 0;
	char		*dir;
	int		 left = l->max_files + 1, any = 0;

	/*
	 * Cheaper than files_list() (no realpath per file): a stamp only
	 * has to change when a file the assessment read could have.
	 */
	dir = folder_of(entry_path);
	stamp_dir(dir, ".", 0, &left, &sum, &any);
	free(dir);
	if (any)
		snprintf(out, 17, "%016llx", (unsigned long long)sum);
	else
		out[0] = '\0';
}

/* ---- the whole entry ------------------------------------------------ */

void
assess_skill(const struct sanitizer *san, const struct assess_limits *l,
    const struct assess_entry *e, struct findings *out, struct risk *risk)
{
	const struct fm	*fm = e->fm;
	size_t		 off = fm->body_offset <= e->len ? fm->body_offset :
			    e->len;

	assess_frontmatter(san, e->text, e->len, fm, out);
	sanitize_scan(san, e->text + off, e->len - off,
	    fm->body_line > 0 ? fm->body_line - 1 : 0, out);
	if (e->bundled) {
		struct assess_files	 bd;

		/* the description's claims too ("locally, no network") */
		assess_files_init(&bd, e->text, e->len);
		bundled(san, l, e->path, e->text + off, e->len - off,
		    fm->body_line > 0 ? fm->body_line - 1 : 0,
		    e->stamp == NULL || *e->stamp != '\0', &bd, out);
	}
	sanitize_risk(san, out, e->trust, risk);
}

/* ---- stored and listed forms ---------------------------------------- */

cJSON *
assess_finding_json(const struct finding *f)
{
	cJSON	*o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "id", f->rule);
	cJSON_AddStringToObject(o, "severity", severity_name(f->sev));
	cJSON_AddNumberToObject(o, "line", f->line);
	if (f->file != NULL)
		cJSON_AddStringToObject(o, "file", f->file);
	else
		cJSON_AddNullToObject(o, "file");
	cJSON_AddNumberToObject(o, "weight", f->weight);
	cJSON_AddStringToObject(o, "excerpt",
	    f->message != NULL ? f->message : "");
	return o;
}

cJSON *
assess_risk_json(double score, int sev)
{
	cJSON	*o = cJSON_CreateObject();
	char	 num[32];

	/* Two decimals: a score is a sum of weights, not a measurement. */
	snprintf(num, sizeof num, "%.2f", score);
	cJSON_AddNumberToObject(o, "score", strtod(num, NULL));
	cJSON_AddStringToObject(o, "severity",
	    severity_name(sev >= 0 ? (enum severity)sev : SEV_INFO));
	return o;
}

cJSON *
assess_risk_full(const struct risk *r)
{
	cJSON		*o = assess_risk_json(r->score, (int)r->sev), *a;
	const char	*name;
	int		 i;

	/* what the skill makes the agent do: the operator sees why */
	a = cJSON_AddArrayToObject(o, "capabilities");
	for (i = 0; (name = sanitize_cap_name((enum sanitize_cap)i)) != NULL;
	    i++)
		if (r->caps & 1u << i)
			cJSON_AddItemToArray(a, cJSON_CreateString(name));
	return o;
}

char *
assess_findings_json(const struct findings *f)
{
	cJSON	*a;
	char	*s;
	size_t	 i;

	if (f->n == 0)
		return NULL;
	a = cJSON_CreateArray();
	for (i = 0; i < f->n; i++)
		cJSON_AddItemToArray(a, assess_finding_json(&f->v[i]));
	s = cJSON_PrintUnformatted(a);
	cJSON_Delete(a);
	return s;
}

/* A number member of o clamped to [lo, hi]; 0 when absent or not finite. */
static double
number(const cJSON *o, const char *k, double lo, double hi)
{
	const cJSON	*v = cJSON_GetObjectItem(o, k);
	double		 d;

	if (!cJSON_IsNumber(v) || !(v->valuedouble == v->valuedouble))
		return 0;
	d = v->valuedouble;
	return d < lo ? lo : d > hi ? hi : d;
}

int
assess_findings_parse(const char *text, struct findings *out)
{
	cJSON		*a, *o;
	const char	*id, *file, *msg;
	int		 sev;

	if (text == NULL || *text == '\0')
		return 0;
	if ((a = cJSON_Parse(text)) == NULL)
		return -1;
	if (!cJSON_IsArray(a)) {
		cJSON_Delete(a);
		return -1;
	}
	cJSON_ArrayForEach(o, a) {
		id = cJSON_GetStringValue(cJSON_GetObjectItem(o, "id"));
		msg = cJSON_GetStringValue(cJSON_GetObjectItem(o, "severity"));
		if (id == NULL || msg == NULL ||
		    (sev = severity_from_name(msg)) < 0)
			continue;
		msg = cJSON_GetStringValue(cJSON_GetObjectItem(o, "excerpt"));
		findings_add(out, id, (enum severity)sev,
		    (int)number(o, "line", 0, 1e9), "%s",
		    msg != NULL ? msg : "");
		file = cJSON_GetStringValue(cJSON_GetObjectItem(o, "file"));
		findings_set_file(out, out->n - 1, file);
		out->v[out->n - 1].weight = number(o, "weight", -1e6, 1e6);
	}
	cJSON_Delete(a);
	return 0;
}
