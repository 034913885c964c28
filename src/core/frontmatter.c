/*
 * Frontmatter: split, YAML (libyaml document API) into a cJSON tree, the
 * line-by-line recovery for YAML that does not parse, then typed fields
 * read from the tree. Both the YAML and the recovery path produce the same
 * cJSON shape, so field extraction and fm->json are shared.
 *
 * Non-string scalars keep the text written in the file: a number or bool
 * item's valuestring holds that text (allocated with cJSON_malloc, freed by
 * cJSON_Delete, ignored by the printer).
 */
#include "autoconfig.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cjson/cJSON.h>
#include <yaml.h>

#include "base/buf.h"
#include "core/finding.h"
#include "core/frontmatter.h"
#include "base/strlist.h"
#include "base/xmalloc.h"
#include "core/yamlcap.h"

struct line {
	const char	*p;		/* start of the line */
	size_t		 len;		/* without \n and a trailing \r */
	size_t		 next;		/* offset of the following line */
};

struct conv {
	struct fm	*fm;
	size_t		 nodes;
	int		 too_complex;
	int		 line0;		/* file line of frontmatter line 0 */
	int		 depth;
};

/*
 * Adds a finding unless the file already has FM_MAX_FINDINGS of them:
 * a hostile file cannot make the list grow without bound. Errors are
 * always kept.
 */
static void
note(struct fm *fm, const char *rule, enum severity sev, int line,
    const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

static void
note(struct fm *fm, const char *rule, enum severity sev, int line,
    const char *fmt, ...)
{
	va_list	 ap;
	char	*msg;

	if (fm->findings.n >= FM_MAX_FINDINGS && sev != SEV_ERROR)
		return;
	va_start(ap, fmt);
	xvasprintf(&msg, fmt, ap);
	va_end(ap);
	findings_add(&fm->findings, rule, sev, line, "%s", msg);
	free(msg);
}

/* Per top-level key, the file line it was written on. */
struct keyline {
	char	**keys;
	int	 *lines;
	size_t	  n;
};

static void
keyline_add(struct keyline *kl, const char *key, int line)
{
	kl->keys = xreallocarray(kl->keys, kl->n + 1, sizeof *kl->keys);
	kl->lines = xreallocarray(kl->lines, kl->n + 1, sizeof *kl->lines);
	kl->keys[kl->n] = xstrdup(key);
	kl->lines[kl->n] = line;
	kl->n++;
}

static int
keyline_get(const struct keyline *kl, const char *key)
{
	size_t	 i;

	for (i = 0; i < kl->n; i++) {
		if (strcmp(kl->keys[i], key) == 0)
			return kl->lines[i];
	}
	return 0;
}

static void
keyline_done(struct keyline *kl)
{
	size_t	 i;

	for (i = 0; i < kl->n; i++)
		free(kl->keys[i]);
	free(kl->keys);
	free(kl->lines);
	kl->keys = NULL;
	kl->lines = NULL;
	kl->n = 0;
}

/* Reads the line starting at off; returns 0 at the end of the text. */
static int
next_line(const char *text, size_t len, size_t off, struct line *l)
{
	const char	*nl;

	if (off >= len)
		return 0;
	l->p = text + off;
	nl = memchr(l->p, '\n', len - off);
	if (nl == NULL) {
		l->len = len - off;
		l->next = len;
	} else {
		l->len = (size_t)(nl - l->p);
		l->next = off + l->len + 1;
	}
	if (l->len > 0 && l->p[l->len - 1] == '\r')
		l->len--;
	return 1;
}

/* Is this line "---" with optional trailing blanks? */
static int
is_fence(const struct line *l)
{
	size_t	 n = l->len;

	while (n > 3 && (l->p[n - 1] == ' ' || l->p[n - 1] == '\t'))
		n--;
	return n == 3 && memcmp(l->p, "---", 3) == 0;
}

/* Length of the valid UTF-8 sequence at p (n bytes left), or 0. */
static size_t
utf8_seq(const unsigned char *p, size_t n)
{
	size_t		 need, k;
	uint32_t	 cp;

	if (p[0] >= 0xc2 && p[0] <= 0xdf) {
		need = 1;
		cp = p[0] & 0x1f;
	} else if (p[0] >= 0xe0 && p[0] <= 0xef) {
		need = 2;
		cp = p[0] & 0x0f;
	} else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
		need = 3;
		cp = p[0] & 0x07;
	} else
		return 0;
	if (need >= n)
		return 0;
	for (k = 1; k <= need; k++) {
		if ((p[k] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (p[k] & 0x3f);
	}
	if (need == 2 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff)))
		return 0;
	if (need == 3 && (cp < 0x10000 || cp > 0x10ffff))
		return 0;
	return need + 1;
}

/*
 * Copies n bytes, replacing NUL and invalid UTF-8 with U+FFFD. Sets *bad
 * when something was replaced.
 */
static char *
utf8_clean(const char *s, size_t n, int *bad)
{
	const unsigned char	*p = (const unsigned char *)s;
	struct buf		 b;
	size_t			 i = 0, k;

	buf_init(&b, 0);
	while (i < n) {
		if (p[i] != 0 && p[i] < 0x80) {
			buf_addc(&b, p[i++]);
			continue;
		}
		if (p[i] == 0 || (k = utf8_seq(p + i, n - i)) == 0) {
			buf_addstr(&b, "\xef\xbf\xbd");
			*bad = 1;
			i++;
			continue;
		}
		buf_add(&b, p + i, k);
		i += k;
	}
	return buf_take(&b);
}

static char *
trim_dup(const char *s)
{
	const char	*e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		e--;
	return xstrndup(s, (size_t)(e - s));
}

static void
lower(char *s)
{
	for (; *s != '\0'; s++)
		*s = (char)tolower((unsigned char)*s);
}

/* ---- scalars ------------------------------------------------------------ */

static int
all_digits(const char *s, int (*pred)(int))
{
	if (*s == '\0')
		return 0;
	for (; *s != '\0'; s++) {
		if (!pred((unsigned char)*s))
			return 0;
	}
	return 1;
}

static int
is_octal(int c)
{
	return c >= '0' && c <= '7';
}

static int
is_float(const char *s)
{
	int	 digits = 0;

	if (*s == '-' || *s == '+')
		s++;
	while (isdigit((unsigned char)*s)) {
		s++;
		digits++;
	}
	if (*s == '.') {
		s++;
		while (isdigit((unsigned char)*s)) {
			s++;
			digits++;
		}
	}
	if (digits == 0)
		return 0;
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '-' || *s == '+')
			s++;
		if (!isdigit((unsigned char)*s))
			return 0;
		while (isdigit((unsigned char)*s))
			s++;
	}
	return *s == '\0';
}

static cJSON *
with_raw(cJSON *item, const char *raw)
{
	size_t	 n = strlen(raw);

	item->valuestring = cJSON_malloc(n + 1);
	if (item->valuestring == NULL)
		abort();
	memcpy(item->valuestring, raw, n + 1);
	return item;
}

/*
 * Resolves a plain (unquoted) scalar with the YAML 1.2 core schema. Numbers
 * with more digits than a double holds stay strings.
 */
static cJSON *
plain_scalar(const char *s)
{
	const char	*d;
	double		 v;
	size_t		 ndig = 0;

	if (*s == '\0' || strcmp(s, "~") == 0 || strcmp(s, "null") == 0 ||
	    strcmp(s, "Null") == 0 || strcmp(s, "NULL") == 0)
		return cJSON_CreateNull();
	if (strcmp(s, "true") == 0 || strcmp(s, "True") == 0 ||
	    strcmp(s, "TRUE") == 0)
		return with_raw(cJSON_CreateTrue(), s);
	if (strcmp(s, "false") == 0 || strcmp(s, "False") == 0 ||
	    strcmp(s, "FALSE") == 0)
		return with_raw(cJSON_CreateFalse(), s);
	for (d = s; *d != '\0'; d++) {
		if (isdigit((unsigned char)*d))
			ndig++;
	}
	if (ndig > 15)
		return cJSON_CreateString(s);
	if (strncmp(s, "0o", 2) == 0 && all_digits(s + 2, is_octal)) {
		v = (double)strtoll(s + 2, NULL, 8);
		return with_raw(cJSON_CreateNumber(v), s);
	}
	if (strncmp(s, "0x", 2) == 0 && all_digits(s + 2, isxdigit)) {
		v = (double)strtoll(s + 2, NULL, 16);
		return with_raw(cJSON_CreateNumber(v), s);
	}
	if (is_float(s)) {
		v = strtod(s, NULL);
		return with_raw(cJSON_CreateNumber(v), s);
	}
	return cJSON_CreateString(s);
}

/* The text of a scalar item: a string, or what was written for a number. */
static const char *
raw_text(const cJSON *it)
{
	if (cJSON_IsString(it))
		return it->valuestring;
	if ((cJSON_IsNumber(it) || cJSON_IsBool(it)) && it->valuestring != NULL)
		return it->valuestring;
	if (cJSON_IsTrue(it))
		return "true";
	if (cJSON_IsFalse(it))
		return "false";
	return NULL;
}

/* ---- YAML -> cJSON ---------------------------------------------------- */

static void
obj_put(struct conv *c, cJSON *obj, const char *key, cJSON *val, int line,
    struct keyline *kl)
{
	if (cJSON_GetObjectItemCaseSensitive(obj, key) != NULL) {
		note(c->fm, "key-duplicate", SEV_WARN, line,
		    "key \"%s\" appears more than once; the last value is used",
		    key);
		cJSON_ReplaceItemInObjectCaseSensitive(obj, key, val);
		return;
	}
	cJSON_AddItemToObject(obj, key, val);
	if (kl != NULL) {
		strlist_add(&c->fm->keys, key);
		c->fm->key_lines = xreallocarray(c->fm->key_lines,
		    c->fm->keys.n, sizeof *c->fm->key_lines);
		c->fm->key_lines[c->fm->keys.n - 1] = line;
		keyline_add(kl, key, line);
	}
}

static cJSON *
conv_node(struct conv *c, yaml_document_t *doc, yaml_node_t *n,
    struct keyline *kl)
{
	yaml_node_item_t	*it;
	yaml_node_pair_t	*pr;
	yaml_node_t		*k, *v;
	cJSON			*out, *child;
	char			*s;

	if (n == NULL)
		return cJSON_CreateNull();
	if (++c->nodes > FM_MAX_NODES || c->depth >= FM_MAX_DEPTH) {
		c->too_complex = 1;
		return NULL;
	}
	switch (n->type) {
	case YAML_SCALAR_NODE:
		/* An escaped NUL ("\0") ends the C string: kept up to it. */
		s = xstrndup((const char *)n->data.scalar.value,
		    n->data.scalar.length);
		if (n->data.scalar.style == YAML_PLAIN_SCALAR_STYLE)
			out = plain_scalar(s);
		else
			out = cJSON_CreateString(s);
		free(s);
		return out;
	case YAML_SEQUENCE_NODE:
		out = cJSON_CreateArray();
		c->depth++;
		for (it = n->data.sequence.items.start;
		    it < n->data.sequence.items.top; it++) {
			child = conv_node(c, doc,
			    yaml_document_get_node(doc, *it), NULL);
			if (child == NULL) {
				cJSON_Delete(out);
				c->depth--;
				return NULL;
			}
			cJSON_AddItemToArray(out, child);
		}
		c->depth--;
		return out;
	case YAML_MAPPING_NODE:
		out = cJSON_CreateObject();
		c->depth++;
		for (pr = n->data.mapping.pairs.start;
		    pr < n->data.mapping.pairs.top; pr++) {
			k = yaml_document_get_node(doc, pr->key);
			v = yaml_document_get_node(doc, pr->value);
			if (k == NULL || k->type != YAML_SCALAR_NODE) {
				note(c->fm, "key-invalid",
				    SEV_WARN, k != NULL ?
				    c->line0 + (int)k->start_mark.line : 0,
				    "a key that is a list or mapping is "
				    "ignored");
				if (++c->nodes > FM_MAX_NODES) {
					c->too_complex = 1;
					cJSON_Delete(out);
					c->depth--;
					return NULL;
				}
				continue;
			}
			child = conv_node(c, doc, v, NULL);
			if (child == NULL) {
				cJSON_Delete(out);
				c->depth--;
				return NULL;
			}
			s = xstrndup((const char *)k->data.scalar.value,
			    k->data.scalar.length);
			obj_put(c, out, s, child,
			    c->line0 + (int)k->start_mark.line, kl);
			free(s);
		}
		c->depth--;
		return out;
	default:
		return cJSON_CreateNull();
	}
}

/*
 * Parses the YAML. Returns the tree, or NULL with *err and *errline set
 * (YAML error), or NULL with c->too_complex set.
 */
static cJSON *
parse_yaml(struct conv *c, const char *s, size_t n, struct keyline *kl,
    char **err, int *errline)
{
	yaml_parser_t	 parser;
	yaml_document_t	 doc;
	yaml_node_t	*root;
	cJSON		*out = NULL;

	*err = NULL;
	*errline = 0;
	if (!yaml_parser_initialize(&parser)) {
		*err = xstrdup("cannot initialise the YAML parser");
		return NULL;
	}
	yaml_parser_set_input_string(&parser, (const unsigned char *)s, n);
	if (!yaml_parser_load(&parser, &doc)) {
		xasprintf(err, "%s%s%s",
		    parser.problem ? parser.problem : "YAML error",
		    parser.context ? " " : "",
		    parser.context ? parser.context : "");
		*errline = c->line0 + (int)parser.problem_mark.line;
		yaml_parser_delete(&parser);
		return NULL;
	}
	root = yaml_document_get_root_node(&doc);
	if (root == NULL)
		out = cJSON_CreateObject();
	else
		out = conv_node(c, &doc, root, root->type ==
		    YAML_MAPPING_NODE ? kl : NULL);
	yaml_document_delete(&doc);
	yaml_parser_delete(&parser);
	return out;
}

/* ---- line-by-line recovery ----------------------------------------------- */

struct rline {
	const char	*p;
	size_t		 len;
	size_t		 indent;
	int		 blank;		/* empty, spaces, or a # comment */
	int		 no;		/* file line */
};

struct rec {
	struct rline	*v;
	size_t		 n;
	size_t		 i;
	int		 bad_utf8;
	struct conv	*c;
};

static char *
rec_str(struct rec *r, const char *p, size_t n)
{
	return utf8_clean(p, n, &r->bad_utf8);
}

/*
 * Splits a "key: value" line at the first ": " (or a ':' ending the line):
 * returns 1 with the key length and the trimmed value, or 0 when the line
 * is not a key line (a list item, a comment, prose without ": ").
 */
static int
split_key(const struct rline *l, size_t *klen, const char **val,
    size_t *vlen)
{
	const char	*p = l->p + l->indent, *e = l->p + l->len;
	const char	*q;

	if (p >= e || *p == '-' || *p == '#')
		return 0;
	if (*p == '"' || *p == '\'') {
		q = memchr(p + 1, *p, (size_t)(e - p - 1));
		if (q == NULL || q + 1 >= e || q[1] != ':')
			return 0;
		q++;
	} else {
		for (q = p; q < e; q++) {
			if (*q == ':' && (q + 1 == e || q[1] == ' ' ||
			    q[1] == '\t'))
				break;
		}
		if (q >= e)
			return 0;
	}
	*klen = (size_t)(q - p);
	q++;
	while (q < e && (*q == ' ' || *q == '\t'))
		q++;
	while (e > q && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	*val = q;
	*vlen = (size_t)(e - q);
	return *klen > 0;
}

static char *
rec_key(struct rec *r, const struct rline *l, size_t klen)
{
	const char	*p = l->p + l->indent;
	char		*k;

	while (klen > 0 && (p[klen - 1] == ' ' || p[klen - 1] == '\t'))
		klen--;
	if (klen >= 2 && (p[0] == '"' || p[0] == '\'') && p[klen - 1] == p[0])
		return rec_str(r, p + 1, klen - 2);
	k = rec_str(r, p, klen);
	return k;
}

/* A scalar written on one line: quoted → string, plain → resolved. */
static cJSON *
rec_scalar(struct rec *r, const char *p, size_t n)
{
	char	*s;
	cJSON	*out;

	if (n >= 2 && (p[0] == '"' || p[0] == '\'') && p[n - 1] == p[0]) {
		s = rec_str(r, p + 1, n - 2);
		out = cJSON_CreateString(s);
	} else {
		s = rec_str(r, p, n);
		out = plain_scalar(s);
	}
	free(s);
	return out;
}

static cJSON	*rec_block(struct rec *, size_t indent, int depth,
		    struct keyline *);

/*
 * The lines more indented than indent: a block scalar (literal keeps the
 * line breaks) or the continuation lines of a plain value after first.
 */
static cJSON *
rec_more(struct rec *r, size_t indent, const char *first, size_t flen,
    int literal)
{
	struct buf	 b;
	struct rline	*l;
	size_t		 base = 0, i;
	char		*s;
	cJSON		*out;

	buf_init(&b, 0);
	if (first != NULL)
		buf_add(&b, first, flen);
	for (; r->i < r->n; r->i++) {
		l = &r->v[r->i];
		if (l->len > l->indent && l->indent <= indent)
			break;
		if (l->len <= l->indent) {	/* empty line */
			if (literal)
				buf_addc(&b, '\n');
			continue;
		}
		if (literal) {
			if (base == 0)
				base = l->indent;
			i = l->indent < base ? l->indent : base;
			buf_add(&b, l->p + i, l->len - i);
			buf_addc(&b, '\n');
		} else {
			if (b.len > 0)
				buf_addc(&b, ' ');
			buf_add(&b, l->p + l->indent, l->len - l->indent);
		}
	}
	/* A quoted value that spans lines: drop the quotes. */
	if (first != NULL && b.len >= 2 && (b.p[0] == '"' || b.p[0] == '\'') &&
	    b.p[b.len - 1] == b.p[0])
		s = rec_str(r, b.p + 1, b.len - 2);
	else
		s = rec_str(r, b.p != NULL ? b.p : "", b.len);
	out = cJSON_CreateString(s);
	free(s);
	buf_done(&b);
	return out;
}

static cJSON *
rec_flow(struct rec *r, const char *p, size_t n)
{
	cJSON		*out = cJSON_CreateArray();
	const char	*e = p + n - 1, *q;

	p++;
	while (p < e) {
		while (p < e && (*p == ' ' || *p == '\t'))
			p++;
		q = memchr(p, ',', (size_t)(e - p));
		if (q == NULL)
			q = e;
		n = (size_t)(q - p);
		while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == '\t'))
			n--;
		if (n > 0)
			cJSON_AddItemToArray(out, rec_scalar(r, p, n));
		p = q + 1;
	}
	return out;
}

static int
is_item(const struct rline *l)
{
	const char	*p = l->p + l->indent;
	size_t		 n = l->len - l->indent;

	return n >= 1 && p[0] == '-' && (n == 1 || p[1] == ' ' || p[1] == '\t');
}

static cJSON *
rec_seq(struct rec *r, size_t indent)
{
	cJSON		*out = cJSON_CreateArray();
	struct rline	*l;
	const char	*p;
	size_t		 n;

	while (r->i < r->n) {
		l = &r->v[r->i];
		if (l->blank) {
			r->i++;
			continue;
		}
		if (l->indent != indent || !is_item(l))
			break;
		p = l->p + l->indent + 1;
		n = l->len - l->indent - 1;
		while (n > 0 && (*p == ' ' || *p == '\t')) {
			p++;
			n--;
		}
		r->i++;
		if (r->i < r->n && !r->v[r->i].blank &&
		    r->v[r->i].indent > indent && !is_item(&r->v[r->i]))
			cJSON_AddItemToArray(out, rec_more(r, indent, p, n, 0));
		else
			cJSON_AddItemToArray(out, rec_scalar(r, p, n));
	}
	return out;
}

static cJSON *
rec_value(struct rec *r, const struct rline *l, const char *v, size_t vn,
    int depth)
{
	struct rline	*nx;

	if (vn > 0 && (v[0] == '|' || v[0] == '>') &&
	    strspn(v + 1, "+-0123456789") >= vn - 1)
		return rec_more(r, l->indent, NULL, 0, v[0] == '|');
	if (vn >= 2 && v[0] == '[' && v[vn - 1] == ']')
		return rec_flow(r, v, vn);
	if (vn > 0) {
		if (r->i < r->n && !r->v[r->i].blank &&
		    r->v[r->i].indent > l->indent)
			return rec_more(r, l->indent, v, vn, 0);
		return rec_scalar(r, v, vn);
	}
	while (r->i < r->n && r->v[r->i].blank)
		r->i++;
	if (r->i >= r->n)
		return cJSON_CreateNull();
	nx = &r->v[r->i];
	if (is_item(nx) && nx->indent >= l->indent)
		return rec_seq(r, nx->indent);
	if (nx->indent > l->indent) {
		if (depth + 1 >= FM_MAX_DEPTH)
			return rec_more(r, l->indent, NULL, 0, 0);
		return rec_block(r, nx->indent, depth + 1, NULL);
	}
	return cJSON_CreateNull();
}

/* The "key: value" lines at one indentation, as an object. */
static cJSON *
rec_block(struct rec *r, size_t indent, int depth, struct keyline *kl)
{
	cJSON		*out = cJSON_CreateObject(), *val;
	struct rline	*l;
	const char	*v;
	size_t		 klen, vn;
	char		*key;

	while (r->i < r->n) {
		l = &r->v[r->i];
		if (l->blank) {
			r->i++;
			continue;
		}
		if (l->indent < indent)
			break;
		if (l->indent > indent || !split_key(l, &klen, &v, &vn)) {
			r->i++;		/* stray line: dropped */
			continue;
		}
		key = rec_key(r, l, klen);
		r->i++;
		val = rec_value(r, l, v, vn, depth);
		obj_put(r->c, out, key, val, l->no, kl);
		free(key);
	}
	return out;
}

/*
 * Re-reads the frontmatter line by line the way Claude Code tolerates it:
 * "key: value" where the value is everything after the first ": ".
 */
static cJSON *
recover(struct conv *c, const char *s, size_t n, struct keyline *kl,
    int *bad_utf8)
{
	struct rec	 r;
	struct line	 ln;
	struct rline	*l;
	size_t		 off = 0, j;
	cJSON		*out;

	memset(&r, 0, sizeof r);
	r.c = c;
	while (next_line(s, n, off, &ln)) {
		r.v = xreallocarray(r.v, r.n + 1, sizeof *r.v);
		l = &r.v[r.n];
		l->p = ln.p;
		l->len = ln.len;
		for (j = 0; j < ln.len && (ln.p[j] == ' ' || ln.p[j] == '\t');)
			j++;
		l->indent = j;
		l->blank = j == ln.len || ln.p[j] == '#';
		l->no = c->line0 + (int)r.n;
		r.n++;
		off = ln.next;
	}
	out = rec_block(&r, 0, 0, kl);
	/* Anything indented before the first key is dropped by rec_block. */
	free(r.v);
	*bad_utf8 = r.bad_utf8;
	return out;
}

/* ---- typed fields ----------------------------------------------------- */

struct ctx {
	struct fm		*fm;
	cJSON			*root;
	cJSON			*radar;
	const struct keyline	*kl;
};

static int
key_line(const struct ctx *x, const char *key)
{
	return keyline_get(x->kl, key);
}

static const char *
type_name(const cJSON *it)
{
	if (cJSON_IsObject(it))
		return "a mapping";
	if (cJSON_IsArray(it))
		return "a list";
	if (cJSON_IsNumber(it))
		return "a number";
	if (cJSON_IsBool(it))
		return "a boolean";
	if (cJSON_IsNull(it))
		return "empty";
	return "a string";
}

/*
 * Finds the first usable value for one of keys: under metadata.radar
 * first when radar is set, then at the top level. Nulls and mappings are
 * skipped (a mapping with a warning), so lookup falls through.
 */
static cJSON *
lookup(struct ctx *x, const char *const *keys, int use_radar,
    const char **which)
{
	cJSON		*src[2], *it;
	size_t		 s;
	const char	*const *k;

	src[0] = use_radar ? x->radar : NULL;
	src[1] = x->root;
	for (s = 0; s < 2; s++) {
		if (src[s] == NULL)
			continue;
		for (k = keys; *k != NULL; k++) {
			it = cJSON_GetObjectItemCaseSensitive(src[s], *k);
			if (it == NULL || cJSON_IsNull(it))
				continue;
			if (cJSON_IsObject(it)) {
				note(x->fm, "value-ignored",
				    SEV_WARN, s == 1 ? key_line(x, *k) : 0,
				    "%s%s: a mapping is not a usable value; "
				    "ignored", s == 0 ?
				    "metadata.radar." : "", *k);
				continue;
			}
			*which = *k;
			return it;
		}
	}
	return NULL;
}

/*
 * A string field. A number or boolean becomes the text written, with a
 * warning; a list or mapping is a finding of severity bad_sev.
 */
static char *
get_string(struct ctx *x, const char *const *keys, int use_radar, int trim,
    enum severity bad_sev)
{
	const char	*which = NULL, *raw;
	cJSON		*it;
	char		*s;

	if (bad_sev == SEV_ERROR) {
		/* name, description: a mapping is an error, not skipped. */
		it = cJSON_GetObjectItemCaseSensitive(x->root, keys[0]);
		which = keys[0];
	} else
		it = lookup(x, keys, use_radar, &which);
	if (it == NULL || cJSON_IsNull(it))
		return NULL;
	if (cJSON_IsObject(it) || cJSON_IsArray(it)) {
		note(x->fm, bad_sev == SEV_ERROR ?
		    "value-type" : "value-ignored", bad_sev,
		    key_line(x, which), "%s: expected a string, found %s%s",
		    which, type_name(it), bad_sev == SEV_ERROR ? "" :
		    "; ignored");
		return NULL;
	}
	raw = raw_text(it);
	if (raw == NULL)
		return NULL;
	if (!cJSON_IsString(it))
		note(x->fm, "value-coerced", SEV_WARN,
		    key_line(x, which), "%s: %s %s read as the string \"%s\"",
		    which, type_name(it), raw, raw);
	s = trim ? trim_dup(raw) : xstrdup(raw);
	if (*s == '\0') {
		free(s);
		return NULL;
	}
	return s;
}

enum split_mode {
	SPLIT_NONE,
	SPLIT_COMMA,
	SPLIT_TOOLS		/* commas and blanks outside parentheses */
};

static void
list_add(struct strlist *l, const char *s, int lc)
{
	char	*t = trim_dup(s);

	if (lc)
		lower(t);
	if (*t == '\0' || strlist_contains(l, t, 0))
		free(t);
	else
		strlist_add_take(l, t);
}

static void
split_tools(struct strlist *l, const char *s)
{
	struct buf	 b;
	int		 depth = 0;

	buf_init(&b, 0);
	for (;; s++) {
		if (*s == '\0' || (depth == 0 && (*s == ',' ||
		    isspace((unsigned char)*s)))) {
			if (b.len > 0)
				list_add(l, b.p, 0);
			buf_reset(&b);
			if (*s == '\0')
				break;
			continue;
		}
		if (*s == '(')
			depth++;
		else if (*s == ')' && depth > 0)
			depth--;
		buf_addc(&b, *s);
	}
	buf_done(&b);
}

static void
add_split(struct strlist *l, const char *s, enum split_mode mode, int lc)
{
	size_t	 n;
	char	*t;

	switch (mode) {
	case SPLIT_NONE:
		list_add(l, s, lc);
		break;
	case SPLIT_COMMA:
		/* Not strlist_split(): items are trimmed by list_add(). */
		for (;;) {
			n = strcspn(s, ",");
			t = xstrndup(s, n);
			list_add(l, t, lc);
			free(t);
			if (s[n] == '\0')
				break;
			s += n + 1;
		}
		break;
	case SPLIT_TOOLS:
		split_tools(l, s);
		break;
	}
}

/* A list field: a list, or a scalar taken as a one-item (or split) list. */
static void
get_list(struct ctx *x, const char *const *keys, int use_radar,
    enum split_mode mode, int lc, struct strlist *out)
{
	const char	*which = NULL, *raw;
	cJSON		*it, *el;
	int		 idx = 0;

	if ((it = lookup(x, keys, use_radar, &which)) == NULL)
		return;
	if (!cJSON_IsArray(it)) {
		raw = raw_text(it);
		if (raw == NULL)
			return;
		if (!cJSON_IsString(it))
			note(x->fm, "value-coerced",
			    SEV_WARN, key_line(x, which),
			    "%s: %s %s read as the string \"%s\"", which,
			    type_name(it), raw, raw);
		add_split(out, raw, mode, lc);
		return;
	}
	cJSON_ArrayForEach(el, it) {
		idx++;
		if (cJSON_IsNull(el))
			continue;
		if ((raw = cJSON_IsArray(el) || cJSON_IsObject(el) ? NULL :
		    raw_text(el)) == NULL) {
			note(x->fm, "value-ignored",
			    SEV_WARN, key_line(x, which),
			    "%s: item %d is %s, expected a string; ignored",
			    which, idx, type_name(el));
			continue;
		}
		if (!cJSON_IsString(el))
			note(x->fm, "value-coerced",
			    SEV_WARN, key_line(x, which),
			    "%s: item %d, %s %s, read as the string \"%s\"",
			    which, idx, type_name(el), raw, raw);
		add_split(out, raw, mode == SPLIT_TOOLS ? SPLIT_TOOLS :
		    SPLIT_NONE, lc);
	}
}

/* 1 for true/"true"/"yes", 0 for false/"false"/"no", -1 otherwise. */
static int
get_bool(struct ctx *x, const char *key)
{
	cJSON	*it;
	char	*s;
	int	 v = -1;

	it = cJSON_GetObjectItemCaseSensitive(x->root, key);
	if (it == NULL || cJSON_IsNull(it))
		return -1;
	if (cJSON_IsTrue(it))
		return 1;
	if (cJSON_IsFalse(it))
		return 0;
	if (cJSON_IsString(it)) {
		s = trim_dup(it->valuestring);
		if (strcasecmp(s, "true") == 0 || strcasecmp(s, "yes") == 0)
			v = 1;
		else if (strcasecmp(s, "false") == 0 ||
		    strcasecmp(s, "no") == 0)
			v = 0;
		free(s);
	}
	if (v == -1)
		note(x->fm, "value-ignored", SEV_WARN,
		    key_line(x, key), "%s: expected true or false, found %s; "
		    "ignored", key, type_name(it));
	return v;
}

static void
extract(struct fm *fm, cJSON *root, const struct keyline *kl)
{
	static const char *const k_name[] = { "name", NULL };
	static const char *const k_desc[] = { "description", NULL };
	static const char *const k_when[] = { "when_to_use", "whenToUse",
	    "when-to-use", NULL };
	static const char *const k_tags[] = { "hub-tags", "hub_tags", "tags",
	    NULL };
	static const char *const k_plat[] = { "platforms", NULL };
	static const char *const k_req[] = { "requires_tools",
	    "requires-tools", NULL };
	static const char *const k_fb[] = { "fallback_for_tools",
	    "fallback-for-tools", NULL };
	static const char *const k_allowed[] = { "allowed-tools", NULL };
	static const char *const k_trig[] = { "triggers", NULL };
	static const char *const k_lic[] = { "license", NULL };
	static const char *const k_ver[] = { "version", NULL };
	struct ctx	 x;
	cJSON		*meta;
	int		 b;

	x.fm = fm;
	x.root = root;
	x.kl = kl;
	x.radar = NULL;
	meta = cJSON_GetObjectItemCaseSensitive(root, "metadata");
	if (cJSON_IsObject(meta)) {
		x.radar = cJSON_GetObjectItemCaseSensitive(meta, "radar");
		if (x.radar != NULL && !cJSON_IsObject(x.radar)) {
			if (!cJSON_IsNull(x.radar))
				note(fm, "value-ignored",
				    SEV_WARN, key_line(&x, "metadata"),
				    "metadata.radar: expected a mapping, found "
				    "%s; ignored", type_name(x.radar));
			x.radar = NULL;
		}
	}

	fm->name = get_string(&x, k_name, 0, 0, SEV_ERROR);
	fm->description = get_string(&x, k_desc, 0, 1, SEV_ERROR);
	fm->when_to_use = get_string(&x, k_when, 1, 1, SEV_WARN);
	fm->license = get_string(&x, k_lic, 0, 1, SEV_WARN);
	fm->version = get_string(&x, k_ver, 0, 1, SEV_WARN);
	get_list(&x, k_tags, 1, SPLIT_COMMA, 1, &fm->tags);
	get_list(&x, k_plat, 1, SPLIT_COMMA, 1, &fm->platforms);
	get_list(&x, k_req, 1, SPLIT_COMMA, 0, &fm->requires_tools);
	get_list(&x, k_fb, 1, SPLIT_COMMA, 0, &fm->fallback_for_tools);
	get_list(&x, k_allowed, 0, SPLIT_TOOLS, 0, &fm->allowed_tools);
	get_list(&x, k_trig, 0, SPLIT_NONE, 0, &fm->triggers);
	fm->disable_model_invocation =
	    get_bool(&x, "disable-model-invocation") == 1;
	b = get_bool(&x, "user-invocable");
	fm->user_invocable = b != 0;
}

/* ---- body ---------------------------------------------------------------- */

static void
summarise(struct fm *fm, const char *text, size_t len)
{
	struct line	 l;
	size_t		 off = fm->body_offset, n, i, chars;
	const char	*p;
	char		*s;
	int		 bad = 0;

	while (next_line(text, len, off, &l)) {
		off = l.next;
		p = l.p;
		n = l.len;
		while (n > 0 && (isspace((unsigned char)*p) || *p == '#')) {
			p++;
			n--;
		}
		while (n > 0 && isspace((unsigned char)p[n - 1]))
			n--;
		/* Blank, or a rule such as --- or ***: not a summary. */
		for (i = 0; i < n && memchr("-=*_ \t", p[i], 6) != NULL; i++)
			;
		if (i == n)
			continue;
		s = utf8_clean(p, n, &bad);
		for (i = 0, chars = 0; s[i] != '\0'; i++) {
			if (((unsigned char)s[i] & 0xc0) != 0x80 &&
			    ++chars > FM_SUMMARY_MAX) {
				s[i] = '\0';
				break;
			}
		}
		fm->summary = s;
		return;
	}
}

/* ---- entry points ----------------------------------------------------- */

static void
fm_init(struct fm *fm)
{
	memset(fm, 0, sizeof *fm);
	strlist_init(&fm->tags);
	strlist_init(&fm->platforms);
	strlist_init(&fm->requires_tools);
	strlist_init(&fm->fallback_for_tools);
	strlist_init(&fm->allowed_tools);
	strlist_init(&fm->triggers);
	strlist_init(&fm->keys);
	findings_init(&fm->findings);
	fm->user_invocable = 1;
	fm->body_line = 1;
}

/*
 * The flow collection openers in [s, s + n). Only flow nesting makes
 * loading quadratic (yamlcap.h), and with fewer openers than FM_MAX_DEPTH
 * it cannot nest that deep: the event pre-pass is skipped, and block
 * depth and the value count are still checked while converting. Most
 * frontmatter is parsed once, not twice.
 */
static size_t
flow_openers(const char *s, size_t n)
{
	size_t	 i, k = 0;

	for (i = 0; i < n; i++)
		k += s[i] == '[' || s[i] == '{';
	return k;
}

/* Parses the block [s, s + n) whose first line is file line line0. */
static void
parse_block(struct fm *fm, const char *s, size_t n, int line0)
{
	struct conv	 c;
	struct keyline	 kl = { NULL, NULL, 0 };
	cJSON		*root = NULL;
	char		*err = NULL, *json;
	size_t		 capline = 0, capcol;
	int		 errline = 0, bad = 0;

	memset(&c, 0, sizeof c);
	c.fm = fm;
	c.line0 = line0;
	/*
	 * The caps are checked on the event stream first: loading deep flow
	 * nesting costs quadratic time, and input refused as too complex
	 * must not reach the line-by-line recovery either.
	 */
	if (flow_openers(s, n) >= FM_MAX_DEPTH &&
	    yamlcap_check(s, n, FM_MAX_DEPTH, FM_MAX_NODES, &capline,
	    &capcol) != YAMLCAP_OK)
		c.too_complex = 1;
	else
		root = parse_yaml(&c, s, n, &kl, &err, &errline);
	if (root == NULL && c.too_complex) {
		strlist_done(&fm->keys);
		free(fm->key_lines);
		fm->key_lines = NULL;
		note(fm, "yaml-too-complex", SEV_ERROR,
		    line0 + (int)capline, "the frontmatter nests deeper than %d levels or "
		    "expands to more than %d values (aliases included)",
		    FM_MAX_DEPTH, FM_MAX_NODES);
		goto out;
	}
	if (root == NULL) {
		root = recover(&c, s, n, &kl, &bad);
		if (cJSON_GetArraySize(root) == 0) {
			note(fm, "yaml-invalid", SEV_ERROR,
			    errline, "invalid YAML: %s (line %d)", err,
			    errline);
			cJSON_Delete(root);
			root = NULL;
			goto out;
		}
		note(fm, "yaml-recovered", SEV_WARN,
		    errline, "invalid YAML (%s, line %d); read line by line "
		    "as key: value", err, errline);
		if (bad)
			note(fm, "utf8-invalid", SEV_WARN,
			    0, "invalid UTF-8 in the frontmatter was replaced "
			    "with U+FFFD");
	}
	if (!cJSON_IsObject(root)) {
		note(fm, "frontmatter-not-mapping",
		    SEV_ERROR, line0, "the frontmatter is %s, not a mapping of "
		    "key: value", type_name(root));
		goto out;
	}
	if (cJSON_GetArraySize(root) == 0)
		note(fm, "frontmatter-empty", SEV_INFO,
		    line0 - 1, "the frontmatter block holds no keys");
	extract(fm, root, &kl);
	if ((json = cJSON_PrintUnformatted(root)) != NULL) {
		fm->json = xstrdup(json);
		cJSON_free(json);
	}
out:
	cJSON_Delete(root);
	keyline_done(&kl);
	free(err);
}

int
fm_parse(const char *text, size_t len, struct fm *fm)
{
	struct line	 l;
	size_t		 off = 0, start, n;
	int		 lineno;

	fm_init(fm);
	if (text == NULL)
		len = 0;
	if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0)
		off = 3;
	fm->body_offset = off;
	if (!next_line(text, len, off, &l) || !is_fence(&l))
		goto out;

	start = l.next;
	lineno = 2;
	off = start;
	while (next_line(text, len, off, &l)) {
		if (is_fence(&l))
			break;
		off = l.next;
		lineno++;
	}
	if (off >= len) {
		note(fm, "frontmatter-unclosed", SEV_WARN, 1,
		    "the opening --- has no closing --- line; the file is read "
		    "as having no frontmatter");
		goto out;
	}
	fm->has_frontmatter = 1;
	fm->body_offset = l.next;
	fm->body_line = lineno + 1;
	if (off - start > FM_MAX_BYTES) {
		note(fm, "frontmatter-too-large", SEV_ERROR,
		    1, "the frontmatter is %zu bytes, over the %d byte limit",
		    off - start, FM_MAX_BYTES);
		goto out;
	}
	/*
	 * The line break before the closing --- ends the block, as in
	 * other tools: a trailing block scalar gets no final newline.
	 */
	n = off - start;
	if (n > 0 && text[start + n - 1] == '\n')
		n--;
	if (n > 0 && text[start + n - 1] == '\r')
		n--;
	parse_block(fm, text + start, n, 2);
out:
	if (fm->json == NULL)
		fm->json = xstrdup("{}");
	summarise(fm, text, len);
	return 0;
}

void
fm_done(struct fm *fm)
{
	free(fm->name);
	free(fm->description);
	free(fm->when_to_use);
	strlist_done(&fm->tags);
	strlist_done(&fm->platforms);
	strlist_done(&fm->requires_tools);
	strlist_done(&fm->fallback_for_tools);
	strlist_done(&fm->allowed_tools);
	strlist_done(&fm->triggers);
	free(fm->license);
	free(fm->version);
	strlist_done(&fm->keys);
	free(fm->key_lines);
	free(fm->json);
	free(fm->summary);
	findings_done(&fm->findings);
	memset(fm, 0, sizeof *fm);
}
