#include "autoconfig.h"

#include <sys/stat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assess.h"
#include "buf.h"
#include "codescan.h"
#include "files.h"
#include "frontmatter.h"
#include "options.h"
#include "skill.h"
#include "strlist.h"
#include "xmalloc.h"

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

static void
scan_str(const struct sanitizer *san, const char *str, int line,
    struct findings *out)
{
	sanitize_scan(san, str, strlen(str), line > 0 ? line - 1 : 0, out);
}

/* Scans every string of a value, keys of maps included. */
static void
scan_value(const struct sanitizer *san, const cJSON *v, int line,
    struct findings *out)
{
	const cJSON	*c;

	if (cJSON_IsString(v) && v->valuestring != NULL) {
		scan_str(san, v->valuestring, line, out);
		return;
	}
	cJSON_ArrayForEach(c, v) {
		/* A key is shown to the agent as much as a value. */
		if (c->string != NULL && cJSON_IsObject(v))
			scan_str(san, c->string, line, out);
		scan_value(san, c, line, out);
	}
}

size_t
assess_frontmatter(const struct sanitizer *san, const char *text,
    size_t len, const struct fm *fm, struct findings *out)
{
	struct findings	 raw;
	cJSON		*root, *c;
	size_t		 before = out->n, i;
	int		 line;

	if (!fm->has_frontmatter)
		return 0;
	/*
	 * The decoded strings decide (a quoted YAML value is what the
	 * agent reads, not a quotation); the block as written adds what
	 * only it has, comments for one: the skill:// resource serves it
	 * verbatim.
	 */
	if (fm->json != NULL && (root = cJSON_Parse(fm->json)) != NULL) {
		cJSON_ArrayForEach(c, root) {
			line = c->string != NULL ? key_line(fm, c->string) : 0;
			if (c->string != NULL)
				scan_str(san, c->string, line, out);
			scan_value(san, c, line, out);
		}
		cJSON_Delete(root);
	}
	findings_init(&raw);
	sanitize_scan(san, text, fm->body_offset <= len ? fm->body_offset :
	    len, 0, &raw);
	for (i = 0; i < raw.n; i++)
		if (!has_hit(out, before, raw.v[i].rule, raw.v[i].line))
			findings_add(out, raw.v[i].rule, raw.v[i].sev,
			    raw.v[i].line, "%s", raw.v[i].message);
	findings_done(&raw);
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

/* Reads and scans one bundled file; *total counts the bytes read. */
static void
scan_one(const struct sanitizer *san, const struct assess_limits *l,
    const char *dir, const char *rel, size_t *total, struct findings *out)
{
	char	*text = NULL, *cause = NULL;
	size_t	 len;

	if (binary_name(rel) || *total >= l->max_total)
		return;
	if (files_read(dir, rel, strlen(rel), l->max_file, &text, &len,
	    &cause) != 0) {
		free(cause);
		return;
	}
	if (*total + len > l->max_total)
		len = files_utf8_cut(text, len, l->max_total - *total);
	*total += len;
	sanitize_file(san, rel, text, len, out);
	free(text);
}

size_t
assess_bundled(const struct sanitizer *san, const struct assess_limits *l,
    const char *entry_path, const char *body, size_t blen,
    struct findings *out)
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
	arr = files_list(dir, l->max_files, &cut);
	cJSON_ArrayForEach(it, arr) {
		rel = cJSON_GetStringValue(cJSON_GetObjectItem(it, "path"));
		if (rel == NULL)
			continue;
		strlist_add(&done, rel);
		scan_one(san, l, dir, rel, &total, out);
	}
	cJSON_Delete(arr);
	/* What the body runs may sit deeper than files_list() looks. */
	if (body != NULL)
		codescan_refs(body, blen, &refs);
	for (i = 0; i < refs.n && (int)done.n < l->max_files; i++) {
		if (strlist_contains(&done, refs.v[i], 0))
			continue;
		strlist_add(&done, refs.v[i]);
		scan_one(san, l, dir, refs.v[i], &total, out);
	}
	free(dir);
	strlist_done(&refs);
	strlist_done(&done);
	return out->n - before;
}

void
assess_stamp(const struct assess_limits *l, const char *entry_path,
    char out[17])
{
	struct buf	 b;
	struct stat	 st;
	cJSON		*arr, *it;
	const char	*rel;
	char		*dir, *full;
	int		 cut;

	out[0] = '\0';
	dir = folder_of(entry_path);
	arr = files_list(dir, l->max_files, &cut);
	buf_init(&b, 0);
	cJSON_ArrayForEach(it, arr) {
		rel = cJSON_GetStringValue(cJSON_GetObjectItem(it, "path"));
		if (rel == NULL)
			continue;
		xasprintf(&full, "%s/%s", dir, rel);
		if (stat(full, &st) == 0)
			buf_printf(&b, "%s|%lld|%lld.%09ld\n", rel,
			    (long long)st.st_size, (long long)st.st_mtim.tv_sec,
			    (long)st.st_mtim.tv_nsec);
		free(full);
	}
	if (b.len > 0)
		skill_hash(b.p, b.len, out);
	buf_done(&b);
	cJSON_Delete(arr);
	free(dir);
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
	if (e->bundled)
		assess_bundled(san, l, e->path, e->text + off, e->len - off,
		    out);
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
