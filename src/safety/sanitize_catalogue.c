/*
 * The sanitiser's pattern catalogue (see sanitize_catalogue.h): reading
 * and checking the catalogue files, compiling each entry (folded like the
 * scan copy), the combined alternation that gates the entries without
 * triggers, and the trigger index that finds where the others may match.
 */
#include "autoconfig.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "safety/sanitize_catalogue.h"
#include "safety/sanitize_fold.h"
#include "base/status.h"
#include "base/strlist.h"
#include "base/xmalloc.h"

#define PATFILE_MAX	(1024 * 1024)
#define TRIG_BUCKETS	4096
#define TRIG_WINDOW	256	/* default bytes either side of a trigger */
#define TRIG_WINDOW_MAX	8192
#define CLASS_EXPAND_MAX (64 * 1024)	/* bytes of a regex after {{class}} */

#define BYTE_ALNUM	1	/* an ASCII letter or digit */
#define BYTE_FIRST	2	/* the first byte of a trigger */

/* A trigger literal of a pattern (field 5 of the catalogue). */
struct trigger {
	char		*s;
	size_t		 len;
	size_t		 pat;
	unsigned	 cls;		/* 0: 2 bytes, 1: 3 bytes, 2: 4 or more */
	uint32_t	 key;		/* hash of the first 2, 3 or 4 bytes */
};

struct sanitize_catalogue {
	struct sanitize_pattern	*pats;
	size_t			 npats, patcap;
	pcre2_code		*combined;	/* NULL: no prefilter */
	struct trigger		*trigs;		/* sorted by bucket */
	size_t			 ntrigs, trigcap;
	uint64_t		 trigbits[3][65536 / 64];
	uint64_t		 first2[65536 / 64];	/* exact 2-byte prefixes */
	unsigned char		 bytecls[256];	/* BYTE_* */
	uint32_t		 bucket[TRIG_BUCKETS + 1];
	int			 has_cls[3];
	struct strlist		 cls_names;	/* @class names */
	struct strlist		 cls_res;	/* their regexes, expanded */
};

struct sanitize_catalogue *
sanitize_catalogue_new(void)
{
	struct sanitize_catalogue	*cat;

	cat = xcalloc(1, sizeof *cat);
	strlist_init(&cat->cls_names);
	strlist_init(&cat->cls_res);
	return cat;
}

size_t
sanitize_catalogue_count(const struct sanitize_catalogue *cat)
{
	return cat->npats;
}

const struct sanitize_pattern *
sanitize_catalogue_pattern(const struct sanitize_catalogue *cat, size_t i)
{
	return &cat->pats[i];
}

const pcre2_code *
sanitize_catalogue_combined(const struct sanitize_catalogue *cat)
{
	return cat->combined;
}

/* ---- where triggers occur ------------------------------------------- */

static int
window_cmp(const void *a, const void *b)
{
	const struct sanitize_window	*x = a, *y = b;

	if (x->pat != y->pat)
		return x->pat < y->pat ? -1 : 1;
	return x->start < y->start ? -1 : x->start > y->start;
}

static size_t
char_start(const char *p, size_t i, size_t lo)
{
	while (i > lo && ((unsigned char)p[i] & 0xC0) == 0x80)
		i--;
	return i;
}

static inline int
is_alnum(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
	    (c >= 'A' && c <= 'Z');
}

/* Hashes the first 2, 3 or 4 bytes at p (class 0, 1, 2) to 16 bits. */
static inline uint32_t
trig_hash(const unsigned char *p, unsigned cls)
{
	uint32_t	 v;

	v = (uint32_t)p[0] << 8 | p[1];
	if (cls >= 1)
		v = v << 8 | p[2];
	if (cls >= 2)
		v = v << 8 | p[3];
	return ((v * 2654435761u) >> 16) ^ cls;
}

size_t
sanitize_catalogue_windows(const struct sanitize_catalogue *cat,
    const char *norm, size_t nlen, struct sanitize_window **out)
{
	const struct trigger	*t;
	struct sanitize_window	*w = NULL;
	size_t			 nw = 0, cap = 0, i, j, *last, st, en, ws;
	const unsigned char	*p = (const unsigned char *)norm;
	unsigned		 key, b, c, k;

	*out = NULL;
	if (cat->ntrigs == 0 || nlen < 2)
		return 0;
	last = xreallocarray(NULL, cat->npats, sizeof *last);
	for (i = 0; i < cat->npats; i++)
		last[i] = (size_t)-1;
	for (i = 0; i + 1 < nlen; i++) {
	    /*
	     * Most positions start no trigger's first byte, or its first
	     * two; triggers starting with a letter or digit start a word;
	     * none starts inside a UTF-8 sequence (no first byte does).
	     */
	    k = cat->bytecls[p[i]];
	    if (!(k & BYTE_FIRST) || ((k & BYTE_ALNUM) && i > 0 &&
		(cat->bytecls[p[i - 1]] & BYTE_ALNUM)))
		    continue;
	    key = (unsigned)p[i] << 8 | p[i + 1];
	    if (!(cat->first2[key >> 6] >> (key & 63) & 1))
		    continue;
	    for (c = 0; c < 3; c++) {
		if (!cat->has_cls[c] || i + c + 2 > nlen)
			continue;
		key = trig_hash(p + i, c) & 0xFFFF;
		if (!(cat->trigbits[c][key >> 6] >> (key & 63) & 1))
			continue;
		b = key % TRIG_BUCKETS;
		for (j = cat->bucket[b]; j < cat->bucket[b + 1]; j++) {
			t = &cat->trigs[j];
			if (t->cls != c || t->key != key ||
			    i + t->len > nlen ||
			    memcmp(p + i, t->s, t->len) != 0)
				continue;
			ws = cat->pats[t->pat].window;
			st = i > ws ? i - ws : 0;
			en = i + t->len + ws;
			if (en >= nlen)
				en = nlen;
			else {
				while (en < nlen && p[en] != '\n' &&
				    en < i + t->len + 2 * ws)
					en++;
				en = char_start(norm, en, i + t->len);
			}
			st = char_start(norm, st, 0);
			if (last[t->pat] != (size_t)-1 &&
			    st <= w[last[t->pat]].end) {
				if (en > w[last[t->pat]].end)
					w[last[t->pat]].end = en;
				w[last[t->pat]].lim = i;
				continue;
			}
			if (nw == cap) {
				cap = cap ? cap * 2 : 16;
				w = xreallocarray(w, cap, sizeof *w);
			}
			w[nw].pat = t->pat;
			w[nw].start = st;
			w[nw].end = en;
			w[nw].lim = i;
			last[t->pat] = nw++;
		}
	    }
	}
	free(last);
	if (nw > 1)
		qsort(w, nw, sizeof *w, window_cmp);
	*out = w;
	return nw;
}

/* ---- loading -------------------------------------------------------- */

/* sanitize_catalogue_compile() with extra compile options. */
static int
compile_opts(const char *re, uint32_t opts, pcre2_code **out, char *err,
    size_t errsz)
{
	pcre2_code	*c;
	PCRE2_UCHAR	 msg[256];
	PCRE2_SIZE	 eoff;
	int		 ec;

	*out = NULL;
	c = pcre2_compile((PCRE2_SPTR)re, PCRE2_ZERO_TERMINATED, opts |
	    PCRE2_UTF | PCRE2_UCP | PCRE2_CASELESS | PCRE2_MULTILINE, &ec,
	    &eoff, NULL);
	if (c == NULL) {
		pcre2_get_error_message(ec, msg, sizeof msg);
		snprintf(err, errsz, "bad regex at offset %zu: %s",
		    (size_t)eoff, (char *)msg);
		return -1;
	}
	(void)pcre2_jit_compile(c, PCRE2_JIT_COMPLETE);
	*out = c;
	return 0;
}

int
sanitize_catalogue_compile(const char *re, pcre2_code **out, char *err,
    size_t errsz)
{
	return compile_opts(re, 0, out, err, errsz);
}

/* Parses "high" or "high/info". */
static int
parse_sev(const char *f, enum severity *sev, enum severity *code_sev)
{
	char		 a[16];
	const char	*slash;
	int		 s1, s2;

	if ((slash = strchr(f, '/')) == NULL) {
		if ((s1 = severity_from_name(f)) < 0 || s1 > SEV_HIGH)
			return -1;
		*sev = *code_sev = (enum severity)s1;
		return 0;
	}
	if ((size_t)(slash - f) >= sizeof a)
		return -1;
	memcpy(a, f, (size_t)(slash - f));
	a[slash - f] = '\0';
	if ((s1 = severity_from_name(a)) < 0 || s1 > SEV_HIGH ||
	    (s2 = severity_from_name(slash + 1)) < 0 || s2 > SEV_HIGH)
		return -1;
	*sev = (enum severity)s1;
	*code_sev = (enum severity)s2;
	return 0;
}

static int
valid_id(const char *id)
{
	size_t	 i;

	if (id[0] == '\0' || strlen(id) > 64)
		return 0;
	for (i = 0; id[i] != '\0'; i++) {
		if (!((id[i] >= 'a' && id[i] <= 'z') ||
		    (id[i] >= '0' && id[i] <= '9') ||
		    (id[i] == '-' && i > 0)))
			return 0;
	}
	return 1;
}

/*
 * Whether a pattern can join the combined alternation unchanged: no
 * comments, quoting, named or numbered references, recursion or branch
 * reset, whose meaning depends on the whole pattern.
 */
static int
combinable(const char *re)
{
	const char	*p;

	if (strchr(re, '#') != NULL || strstr(re, "\\Q") != NULL ||
	    strstr(re, "\\g") != NULL || strstr(re, "\\k") != NULL ||
	    strstr(re, "(*") != NULL)
		return 0;
	for (p = re; (p = strchr(p, '\\')) != NULL; p += 2) {
		if (p[1] >= '1' && p[1] <= '9')
			return 0;
		if (p[1] == '\0')
			return 0;
	}
	for (p = re; (p = strstr(p, "(?")) != NULL; p++) {
		if (p[2] == 'P' || p[2] == '\'' || p[2] == '|' || p[2] == 'R' ||
		    p[2] == '&' || p[2] == '+' || p[2] == '-' ||
		    (p[2] >= '0' && p[2] <= '9') ||
		    (p[2] == '<' && p[3] != '=' && p[3] != '!'))
			return 0;
	}
	return 1;
}

/*
 * Adds the comma-separated trigger literals of pattern pat, folded like
 * the scan copy, after an optional "N:" window size (16..8192 bytes
 * either side, default 256). Returns -1 when the window is bad or a
 * trigger is shorter than two bytes.
 */
static int
add_triggers(struct sanitize_catalogue *cat, size_t pat, const char *list)
{
	struct strlist	 v;
	struct trigger	*t;
	char		*f, *c;
	size_t		 i;
	int		 rv = 0;

	cat->pats[pat].window = TRIG_WINDOW;
	if (list[0] >= '0' && list[0] <= '9') {
		char	*end;
		long	 w = strtol(list, &end, 10);

		if (*end != ':' || w < 16 || w > TRIG_WINDOW_MAX)
			return -1;
		cat->pats[pat].window = (size_t)w;
		list = end + 1;
	}
	strlist_init(&v);
	strlist_split(&v, list, ",");
	for (i = 0; i < v.n; i++) {
		f = sanitize_fold_pattern(v.v[i]);
		for (c = f; *c != '\0'; c++) {
			if (*c >= 'A' && *c <= 'Z')
				*c += 'a' - 'A';
		}
		if (strlen(f) < 2) {
			free(f);
			rv = -1;
			break;
		}
		if (cat->ntrigs == cat->trigcap) {
			cat->trigcap = cat->trigcap ? cat->trigcap * 2 : 64;
			cat->trigs = xreallocarray(cat->trigs, cat->trigcap,
			    sizeof *cat->trigs);
		}
		t = &cat->trigs[cat->ntrigs++];
		t->s = f;
		t->len = strlen(f);
		t->pat = pat;
		t->cls = t->len >= 4 ? 2 : t->len - 2;
		t->key = trig_hash((const unsigned char *)f, t->cls) & 0xFFFF;
	}
	if (rv == 0 && v.n > 0)
		cat->pats[pat].has_triggers = 1;
	strlist_done(&v);
	return rv;
}

static unsigned
trig_bucket(const struct trigger *t)
{
	return t->key % TRIG_BUCKETS;
}

static int
trig_cmp(const void *a, const void *b)
{
	unsigned	 x = trig_bucket(a), y = trig_bucket(b);

	return x < y ? -1 : x > y;
}

/* Sorts the triggers into buckets and fills the prefix bitmaps. */
static void
build_triggers(struct sanitize_catalogue *cat)
{
	const unsigned char	*s;
	size_t			 i;
	unsigned		 b, k;

	if (cat->ntrigs > 1)
		qsort(cat->trigs, cat->ntrigs, sizeof *cat->trigs, trig_cmp);
	memset(cat->bucket, 0, sizeof cat->bucket);
	for (i = 0; i < cat->ntrigs; i++) {
		b = trig_bucket(&cat->trigs[i]);
		cat->bucket[b + 1]++;
		cat->trigbits[cat->trigs[i].cls][cat->trigs[i].key >> 6] |=
		    (uint64_t)1 << (cat->trigs[i].key & 63);
		cat->has_cls[cat->trigs[i].cls] = 1;
		s = (const unsigned char *)cat->trigs[i].s;
		k = (unsigned)s[0] << 8 | s[1];
		cat->first2[k >> 6] |= (uint64_t)1 << (k & 63);
		if ((s[0] & 0xC0) != 0x80)	/* never matches mid-sequence */
			cat->bytecls[s[0]] |= BYTE_FIRST;
	}
	for (b = 0; b < TRIG_BUCKETS; b++)
		cat->bucket[b + 1] += cat->bucket[b];
	for (b = 0; b < 256; b++) {
		if (is_alnum((unsigned char)b))
			cat->bytecls[b] |= BYTE_ALNUM;
	}
}

static void
pattern_done(struct sanitize_pattern *pt)
{
	free(pt->id);
	free(pt->explain);
	free(pt->where);
	free(pt->src);
	pcre2_code_free(pt->re);
}

char *
sanitize_catalogue_line(char **pos, int *lineno)
{
	char	*line, *next;
	size_t	 k, i;

	for (line = *pos; line != NULL; line = next) {
		(*lineno)++;
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		k = strlen(line);
		if (k > 0 && line[k - 1] == '\r')
			line[--k] = '\0';
		for (i = 0; line[i] == ' ' || line[i] == '\t'; i++)
			;
		if (line[i] != '\0' && line[i] != '#') {
			*pos = next;
			return line;
		}
	}
	*pos = NULL;
	return NULL;
}

size_t
sanitize_catalogue_split(char *line, char **f, size_t max)
{
	size_t	 n = 0;
	char	*p = line;

	while (n < max && *p != '\0') {
		f[n++] = p;
		if (n == max)
			break;
		if ((p = strchr(p, '\t')) == NULL)
			break;
		while (*p == '\t')
			*p++ = '\0';
	}
	return n;
}

/*
 * Expands each {{name}} of re with the regex of the word class name (an
 * earlier @class line), as a non-capturing group. Returns a new string,
 * or NULL with err set for an unknown class or an expansion past
 * CLASS_EXPAND_MAX.
 */
static char *
class_expand(const struct sanitize_catalogue *cat, const char *re, char *err,
    size_t errlen)
{
	struct buf	 b;
	const char	*p = re, *q, *e;
	size_t		 i, n;

	buf_init(&b, 0);
	buf_add(&b, "", 0);
	while ((q = strstr(p, "{{")) != NULL) {
		if ((e = strstr(q + 2, "}}")) == NULL)
			break;
		n = (size_t)(e - (q + 2));
		for (i = 0; i < cat->cls_names.n; i++) {
			if (strlen(cat->cls_names.v[i]) == n &&
			    strncmp(cat->cls_names.v[i], q + 2, n) == 0)
				break;
		}
		if (i == cat->cls_names.n) {
			snprintf(err, errlen, "unknown word class \"{{%.*s}}\" "
			    "(define it first with an @class line)",
			    (int)(n > 64 ? 64 : n), q + 2);
			buf_done(&b);
			return NULL;
		}
		buf_add(&b, p, (size_t)(q - p));
		buf_printf(&b, "(?:%s)", cat->cls_res.v[i]);
		p = e + 2;
		if (b.len > CLASS_EXPAND_MAX)
			break;
	}
	buf_addstr(&b, p);
	if (b.len > CLASS_EXPAND_MAX) {
		snprintf(err, errlen, "regex longer than %d bytes once its "
		    "word classes are expanded", CLASS_EXPAND_MAX);
		buf_done(&b);
		return NULL;
	}
	return buf_take(&b);
}

/*
 * An "@class <TAB> name <TAB> regex" line: a named word class (a verb,
 * object or target class of an instruction family) that later entries
 * use as {{name}}, in this file and in every file loaded after it.
 */
static int
class_line(struct sanitize_catalogue *cat, char *line, const char *path,
    int lineno, char **cause)
{
	char		*f[3], *re, *folded, err[320];
	pcre2_code	*code;
	size_t		 nf;

	nf = sanitize_catalogue_split(line, f, 3);
	if (nf != 3 || !valid_id(f[1]) || *f[2] == '\0') {
		xasprintf(cause, "%s:%d: expected \"@class <TAB> name <TAB> "
		    "regex\" (name: lower-case letters, digits and '-')",
		    path, lineno);
		return SR_CONFIG;
	}
	if (strlist_contains(&cat->cls_names, f[1], 0)) {
		xasprintf(cause, "%s:%d: word class \"%s\" defined twice", path,
		    lineno, f[1]);
		return SR_CONFIG;
	}
	if ((re = class_expand(cat, f[2], err, sizeof err)) == NULL) {
		xasprintf(cause, "%s:%d: %s", path, lineno, err);
		return SR_CONFIG;
	}
	/* A class must be a regex by itself, not half of one. */
	folded = sanitize_fold_pattern(re);
	if (compile_opts(folded, 0, &code, err, sizeof err) == -1) {
		xasprintf(cause, "%s:%d: %s", path, lineno, err);
		free(folded);
		free(re);
		return SR_CONFIG;
	}
	pcre2_code_free(code);
	free(folded);
	strlist_add(&cat->cls_names, f[1]);
	strlist_add_take(&cat->cls_res, re);
	return SR_OK;
}

/*
 * Reads one catalogue file. Format, one entry per line:
 *	id <TAB> severity[/code-severity, ignored] <TAB> regex <TAB> explanation
 *	    [<TAB> trigger,trigger,...]
 * Blank lines and lines starting with # are ignored.
 */
int
sanitize_catalogue_load(struct sanitize_catalogue *cat, const char *path,
    char **cause)
{
	struct sanitize_pattern	*pt;
	char		*data = NULL, *line, *next, *f[5], *folded, *expanded;
	char		 err[320];
	size_t		 len, nf, i;
	int		 lineno = 0, rv = SR_OK, trig;
	enum severity	 sev, csev;

	if (buf_read_file(path, PATFILE_MAX, &data, &len) == -1) {
		xasprintf(cause, "%s: %s", path, strerror(errno));
		return SR_CONFIG;
	}
	if (memchr(data, '\0', len) != NULL) {
		xasprintf(cause, "%s: not a text file", path);
		rv = SR_CONFIG;
		goto out;
	}
	next = data;
	while ((line = sanitize_catalogue_line(&next, &lineno)) != NULL) {
		if (strncmp(line, "@class\t", 7) == 0) {
			if ((rv = class_line(cat, line, path, lineno,
			    cause)) != SR_OK)
				goto out;
			continue;
		}
		nf = sanitize_catalogue_split(line, f, 5);
		if (nf < 4 || *f[2] == '\0' || *f[3] == '\0') {
			xasprintf(cause, "%s:%d: expected 4 or 5 tab-separated "
			    "fields: id, severity, regex, explanation, "
			    "[triggers]", path, lineno);
			rv = SR_CONFIG;
			goto out;
		}
		if (!valid_id(f[0])) {
			xasprintf(cause, "%s:%d: bad id \"%s\" (lower-case "
			    "letters, digits and '-')", path, lineno, f[0]);
			rv = SR_CONFIG;
			goto out;
		}
		for (i = 0; i < cat->npats; i++) {
			if (strcmp(cat->pats[i].id, f[0]) == 0) {
				xasprintf(cause, "%s:%d: duplicate id \"%s\" "
				    "(first at %s)", path, lineno, f[0],
				    cat->pats[i].where);
				rv = SR_CONFIG;
				goto out;
			}
		}
		if (parse_sev(f[1], &sev, &csev) == -1) {
			xasprintf(cause, "%s:%d: bad severity \"%s\" (info, "
			    "warn or high, optionally /info|warn|high for "
			    "code)", path, lineno, f[1]);
			rv = SR_CONFIG;
			goto out;
		}
		if ((expanded = class_expand(cat, f[2], err,
		    sizeof err)) == NULL) {
			xasprintf(cause, "%s:%d: %s", path, lineno, err);
			rv = SR_CONFIG;
			goto out;
		}
		folded = sanitize_fold_pattern(expanded);
		free(expanded);
		if (cat->npats == cat->patcap) {
			cat->patcap = cat->patcap ? cat->patcap * 2 : 64;
			cat->pats = xreallocarray(cat->pats, cat->patcap,
			    sizeof *cat->pats);
		}
		pt = &cat->pats[cat->npats];
		memset(pt, 0, sizeof *pt);
		/* Entries with triggers run with an offset limit. */
		trig = nf == 5 && strcmp(f[4], "-") != 0;
		if (compile_opts(folded, trig ? PCRE2_USE_OFFSET_LIMIT : 0,
		    &pt->re, err, sizeof err) == -1) {
			xasprintf(cause, "%s:%d: %s", path, lineno, err);
			free(folded);
			rv = SR_CONFIG;
			goto out;
		}
		pt->in_combined = combinable(folded);
		pt->src = folded;
		pt->id = xstrdup(f[0]);
		pt->sev = sev;
		pt->explain = xstrdup(f[3]);
		xasprintf(&pt->where, "%s:%d", path, lineno);
		cat->npats++;
		if (trig && add_triggers(cat, cat->npats - 1, f[4]) == -1) {
			xasprintf(cause, "%s:%d: bad triggers (\"[N:]a,b,...\": "
			    "window 16..8192, each trigger 2 bytes or more)",
			    path, lineno);
			rv = SR_CONFIG;
			goto out;
		}
	}
out:
	free(data);
	return rv;
}

/*
 * Joins the patterns without triggers that can be combined into one
 * alternation that gates them; none when it does not compile.
 */
static void
build_combined(struct sanitize_catalogue *cat)
{
	struct buf	 b;
	char		 err[320];
	size_t		 i, n = 0;

	buf_init(&b, 0);
	for (i = 0; i < cat->npats; i++) {
		if (cat->pats[i].has_triggers)
			cat->pats[i].in_combined = 0;
		if (!cat->pats[i].in_combined)
			continue;
		buf_printf(&b, "%s(?:%s)", n++ ? "|" : "", cat->pats[i].src);
	}
	if (n == 0 || sanitize_catalogue_compile(b.p, &cat->combined, err,
	    sizeof err) == -1) {
		cat->combined = NULL;
		for (i = 0; i < cat->npats; i++)
			cat->pats[i].in_combined = 0;
	}
	buf_done(&b);
}

void
sanitize_catalogue_finish(struct sanitize_catalogue *cat)
{
	build_combined(cat);
	build_triggers(cat);
}

void
sanitize_catalogue_free(struct sanitize_catalogue *cat)
{
	size_t	 i;

	if (cat == NULL)
		return;
	for (i = 0; i < cat->npats; i++)
		pattern_done(&cat->pats[i]);
	free(cat->pats);
	for (i = 0; i < cat->ntrigs; i++)
		free(cat->trigs[i].s);
	free(cat->trigs);
	pcre2_code_free(cat->combined);
	strlist_done(&cat->cls_names);
	strlist_done(&cat->cls_res);
	free(cat);
}

const char *
sanitize_catalogue_explain(const struct sanitize_catalogue *cat,
    const char *id)
{
	size_t	 i;

	for (i = 0; i < cat->npats; i++) {
		if (strcmp(cat->pats[i].id, id) == 0)
			return cat->pats[i].explain;
	}
	return NULL;
}
