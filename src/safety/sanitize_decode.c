/*
 * Decode and rescan (issue 31): a command or an instruction the catalogue
 * would catch, hidden from it by an encoding or by being cut into pieces.
 * Each string below is turned back into the text it stands for and that
 * text is scanned again, once more for what it decodes to (depth 2):
 *
 *  - base64 (standard or URL-safe) runs of 24 or more characters,
 *  - hex runs of 32 or more digits, and \xNN or %NN runs of 6 or more
 *    bytes (decoded by libsodium's sodium_base642bin and sodium_hex2bin),
 *  - \uNNNN runs of 4 or more escapes,
 *  - literals joined by + ("cu" + "rl"), and lists of literals that are
 *    joined (['cu', 'rl'].join(''), ''.join([...]), -join).
 *
 * A decoding is kept only when it is text (cs_printable(): 95 % printable
 * bytes and some word separator), so hashes, keys and images, the benign
 * bulk of long base64 and hex, decode to bytes and are dropped. Decoded
 * text gets the catalogue (sanitize_scan()) and the shell analysis of
 * codescan.h, and each finding's message says which encoding it came
 * from ("decoded base64: ..."); its line is the encoded string's.
 *
 * Bounds: a string decodes to at most DEC_MAX bytes, and one scan decodes
 * at most DEC_TOTAL bytes in all, so a body of nothing but base64 costs
 * twice its size, never more.
 */
#include "autoconfig.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "safety/sanitize.h"
#include "safety/codescan.h"
#include "safety/codescan_impl.h"
#include "base/buf.h"
#include "base/xmalloc.h"

#define DEC_MAX		8192	/* one string's decoded bytes */
#define DEC_TOTAL	65536	/* one scan's decoded bytes */
#define DEC_DEPTH	2	/* decoded text is decoded once more */
#define B64_MIN		24	/* 18 bytes: "curl x.io/a | sh" is 16 */
#define HEX_MIN		32	/* 16 bytes; shorter runs are ids */
#define ESC_MIN		6	/* \xNN, %NN and \uNNNN escapes in a row */

/* The nesting of the current thread's rescans (sanitize_scan() calls
 * back into sanitize_decoded()). */
static _Thread_local int dec_depth;

struct dec {
	const struct sanitizer	*s;
	const char		*text;
	size_t			 len;
	int			 line_base;
	struct findings		*out;
	size_t			(*scan_cb)(const struct sanitizer *,
				    const char *, size_t, int,
				    struct findings *);
	size_t			 total;
	size_t			 line_off;	/* offset of the line cache */
	int			 line_no;
};

static int
line_at(struct dec *d, size_t off)
{
	size_t	 i;

	if (off < d->line_off) {
		d->line_off = 0;
		d->line_no = 1;
	}
	for (i = d->line_off; i < off && i < d->len; i++)
		if (d->text[i] == '\n')
			d->line_no++;
	d->line_off = off;
	return d->line_no;
}

/* Whether one of the first n findings has f's rule on f's line. */
static int
seen(const struct findings *out, size_t n, const struct finding *f)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		if (out->v[i].line == f->line &&
		    strcmp(out->v[i].rule, f->rule) == 0)
			return 1;
	return 0;
}

/*
 * Scans decoded text t (n bytes, kind its encoding) found at offset off
 * and marks the new findings.
 */
static void
rescan(struct dec *d, const char *t, size_t n, const char *kind, size_t off)
{
	struct findings		*out = d->out;
	size_t			 from = out->n, i, k;
	int			 line;
	char			*m;

	if (n == 0 || d->total + n > DEC_TOTAL)
		return;
	d->total += n;
	line = d->line_base + line_at(d, off);
	dec_depth++;
	d->scan_cb(d->s, t, n, line - 1, out);
	codescan_file(t, n, LANG_SH, line - 1, out, NULL);
	dec_depth--;
	for (i = from, k = from; i < out->n; i++) {
		out->v[i].line = line;
		/* what the code analysis decoded itself, or a rule two
		 * rescans of the same text both report, counts once */
		/* nor is a decoded payload documentation or an example:
		 * the context rules (frame-doc, host-placeholder ...) speak
		 * of the text around a string, not of what it hides */
		if (seen(out, k, &out->v[i]) ||
		    strncmp(out->v[i].rule, "frame-", 6) == 0 ||
		    strcmp(out->v[i].rule, "host-placeholder") == 0) {
			free(out->v[i].rule);
			free(out->v[i].message);
			free(out->v[i].file);
			continue;
		}
		out->v[k++] = out->v[i];
		if (strncmp(out->v[k - 1].message != NULL ?
		    out->v[k - 1].message : "", "decoded ", 8) == 0)
			continue;
		xasprintf(&m, "decoded %s: %s", kind,
		    out->v[k - 1].message != NULL ? out->v[k - 1].message : "");
		free(out->v[k - 1].message);
		out->v[k - 1].message = m;
	}
	out->n = k;
}

/* Runs once per byte of every body: ranges, not the locale's isalnum. */
static inline int
b64_char(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '+' || c == '/' || c == '-' ||
	    c == '_';
}

/* A base64 run at p (n bytes, padding excluded): decode it as text. */
static void
try_b64(struct dec *d, const char *p, size_t n, size_t pad)
{
	unsigned char	 buf[DEC_MAX];
	size_t		 bl = 0, i;
	int		 upper = 0, lower = 0, url = 0;

	for (i = 0; i < n; i++) {
		upper |= isupper((unsigned char)p[i]) != 0;
		lower |= islower((unsigned char)p[i]) != 0;
		url |= p[i] == '-' || p[i] == '_';
	}
	/* a word, a path or a long identifier is not base64 */
	if (!upper || !lower || (memchr(p, '/', n) != NULL && url))
		return;
	if (sodium_base642bin(buf, sizeof buf, p, n + pad, NULL, &bl, NULL,
	    url ? (pad ? sodium_base64_VARIANT_URLSAFE :
	    sodium_base64_VARIANT_URLSAFE_NO_PADDING) :
	    pad ? sodium_base64_VARIANT_ORIGINAL :
	    sodium_base64_VARIANT_ORIGINAL_NO_PADDING) != 0 &&
	    sodium_base642bin(buf, sizeof buf, p, n - n % 4, NULL, &bl, NULL,
	    url ? sodium_base64_VARIANT_URLSAFE_NO_PADDING :
	    sodium_base64_VARIANT_ORIGINAL_NO_PADDING) != 0)
		return;
	if (cs_printable(buf, bl))
		rescan(d, (const char *)buf, bl, "base64", (size_t)(p - d->text));
}

/* Hex digits (ignore: separators such as "\\x" or "%"): decode as text. */
static void
try_hex(struct dec *d, const char *p, size_t n, const char *ignore,
    const char *kind)
{
	unsigned char	 buf[DEC_MAX];
	size_t		 bl = 0;

	if (sodium_hex2bin(buf, sizeof buf, p, n, ignore, &bl, NULL) != 0 ||
	    !cs_printable(buf, bl))
		return;
	rescan(d, (const char *)buf, bl, kind, (size_t)(p - d->text));
}

/* \uNNNN escapes at p (count of them): UTF-16 to UTF-8, then rescan. */
static void
try_uesc(struct dec *d, const char *p, size_t count)
{
	unsigned char	 u16[2], buf[DEC_MAX];
	size_t		 i, o = 0, bl;
	unsigned	 cp;

	for (i = 0; i < count && o + 3 < sizeof buf; i++) {
		if (sodium_hex2bin(u16, 2, p + i * 6 + 2, 4, NULL, &bl,
		    NULL) != 0 || bl != 2)
			return;
		cp = (unsigned)u16[0] << 8 | u16[1];
		if (cp < 0x80)
			buf[o++] = (unsigned char)cp;
		else if (cp < 0x800) {
			buf[o++] = (unsigned char)(0xC0 | cp >> 6);
			buf[o++] = (unsigned char)(0x80 | (cp & 0x3F));
		} else {
			buf[o++] = (unsigned char)(0xE0 | cp >> 12);
			buf[o++] = (unsigned char)(0x80 | (cp >> 6 & 0x3F));
			buf[o++] = (unsigned char)(0x80 | (cp & 0x3F));
		}
	}
	if (cs_printable(buf, o))
		rescan(d, (const char *)buf, o, "unicode escapes",
		    (size_t)(p - d->text));
}

/* Length of a run of escapes "pfx HH" (pfx "\\x" or "%") at p. */
static size_t
esc_run(const char *p, const char *e, const char *pfx, size_t *count)
{
	size_t	 pl = strlen(pfx);
	const char *q = p;

	*count = 0;
	while ((size_t)(e - q) >= pl + 2 && memcmp(q, pfx, pl) == 0 &&
	    isxdigit((unsigned char)q[pl]) && isxdigit((unsigned char)q[pl + 1])) {
		q += pl + 2;
		(*count)++;
	}
	return (size_t)(q - p);
}

/* How many of the n bytes at p are hex digits, from the start. */
static size_t
strspn_n(const char *p, size_t n)
{
	size_t	 i;

	for (i = 0; i < n && isxdigit((unsigned char)p[i]); i++)
		;
	return i;
}

/*
 * A token (up to white space or a quote) at p holding ESC_MIN / 2 or
 * more %NN escapes among plain characters, a URL-encoded command:
 * decodes it and rescans. Returns its end, or NULL.
 */
static const char *
pct_token(struct dec *d, const char *p, const char *e)
{
	char		 buf[DEC_MAX];
	unsigned char	 c;
	const char	*q;
	size_t		 o = 0, n = 0, bl;

	while (p > d->text && !isspace((unsigned char)p[-1]) && p[-1] != '"' &&
	    p[-1] != '\'' && p[-1] != '`')
		p--;
	for (q = p; q < e && o < sizeof buf && !isspace((unsigned char)*q) &&
	    *q != '"' && *q != '\'' && *q != '`'; q++) {
		if (*q == '%' && e - q >= 3 && sodium_hex2bin(&c, 1, q + 1, 2,
		    NULL, &bl, NULL) == 0 && bl == 1) {
			buf[o++] = (char)c;
			q += 2;
			n++;
		} else
			buf[o++] = *q;
	}
	if (n < ESC_MIN / 2 || !cs_printable((unsigned char *)buf, o))
		return NULL;
	rescan(d, buf, o, "percent escapes", (size_t)(p - d->text));
	return q;
}

/*
 * A string literal at p ('...' or "...", no newline): its body's bounds.
 * Returns the end past the closing quote, or NULL.
 */
static const char *
literal(const char *p, const char *e, const char **b, const char **be)
{
	const char	*q;

	if (p >= e || (*p != '"' && *p != '\''))
		return NULL;
	for (q = p + 1; q < e && *q != *p && *q != '\n'; q++)
		if (*q == '\\')
			q++;
	if (q >= e || *q != *p)
		return NULL;
	*b = p + 1;
	*be = q;
	return q + 1;
}

static const char *
skip_ws(const char *p, const char *e)
{
	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

/*
 * Literals joined at p: "a" + "b" (sep '+') or the items of a list
 * (sep ','). Appends their bodies to b; returns the end of the last
 * literal and the number of them in *n.
 */
static const char *
joined(const char *p, const char *e, int sep, struct buf *b, size_t *n)
{
	const char	*bs, *be, *q, *last = p;

	*n = 0;
	buf_reset(b);
	while ((q = literal(p, e, &bs, &be)) != NULL && b->len < DEC_MAX) {
		buf_add(b, bs, (size_t)(be - bs));
		(*n)++;
		last = q;
		p = skip_ws(q, e);
		if (p >= e || *p != sep)
			break;
		p = skip_ws(p + 1, e);
	}
	return last;
}

/* Whether a list ending at p is joined: ].join( or ] -join. */
static int
list_joined(const char *p, const char *e, const char *start,
    const char *text)
{
	const char	*q = skip_ws(p, e);
	size_t		 k;

	if (q < e && *q == ']') {
		q = skip_ws(q + 1, e);
		if ((size_t)(e - q) >= 6 && memcmp(q, ".join(", 6) == 0)
			return 1;
		if ((size_t)(e - q) >= 5 && strncasecmp(q, "-join", 5) == 0)
			return 1;
	}
	/* ''.join([ or "".join([ before the list */
	for (k = 0; k < 8 && start > text && start[-1] != '\n'; k++)
		start--;
	return (size_t)(p - start) >= 8 && memmem(start, 8, ".join(", 6) !=
	    NULL;
}

void
sanitize_decoded(const struct sanitizer *s, const char *text, size_t len,
    int line_base, struct findings *out,
    size_t (*scan_cb)(const struct sanitizer *, const char *, size_t, int,
    struct findings *))
{
	struct dec	 d = { s, text, len, line_base, out, scan_cb, 0, 0, 1 };
	const char	*p = text, *e = text + len, *q;
	struct buf	 b;
	size_t		 n, run, cnt;

	if (text == NULL || dec_depth >= DEC_DEPTH)
		return;
	buf_init(&b, 0);
	while (p < e && d.total < DEC_TOTAL) {
		if (*p == '\\' && p + 1 < e && p[1] == 'x' &&
		    (run = esc_run(p, e, "\\x", &cnt)) > 0 && cnt >= ESC_MIN) {
			try_hex(&d, p, run, "\\x", "hex escapes");
			p += run;
			continue;
		}
		if (*p == '%' && (run = esc_run(p, e, "%", &cnt)) > 0 &&
		    cnt >= ESC_MIN) {
			try_hex(&d, p, run, "%", "percent escapes");
			p += run;
			continue;
		}
		if (*p == '\\' && p + 1 < e && p[1] == 'u') {
			for (cnt = 0; (size_t)(e - p) >= (cnt + 1) * 6 &&
			    p[cnt * 6] == '\\' && p[cnt * 6 + 1] == 'u' &&
			    strspn_n(p + cnt * 6 + 2, 4) == 4; cnt++)
				;
			if (cnt >= ESC_MIN) {
				try_uesc(&d, p, cnt);
				p += cnt * 6;
				continue;
			}
		}
		if (*p == '%' && (q = pct_token(&d, p, e)) != NULL) {
			p = q;
			continue;
		}
		if ((*p == '"' || *p == '\'') && (p == text || p[-1] != '\\')) {
			q = joined(p, e, '+', &b, &n);
			if (n < 2) {
				q = joined(p, e, ',', &b, &n);
				if (n < 2 || !list_joined(q, e, p, text))
					n = 0;
			}
			if (n >= 2 && b.len >= 4) {
				rescan(&d, b.p, b.len, "joined string",
				    (size_t)(p - text));
				p = q;
				continue;
			}
		}
		if (b64_char((unsigned char)*p) && (p == text ||
		    !b64_char((unsigned char)p[-1]))) {
			for (q = p; q < e && b64_char((unsigned char)*q); q++)
				;
			n = (size_t)(q - p);
			for (run = 0; q + run < e && q[run] == '=' && run < 2;
			    run++)
				;
			if (n >= HEX_MIN && n % 2 == 0 &&
			    strspn_n(p, n) == n)
				try_hex(&d, p, n, NULL, "hex");
			else if (n >= B64_MIN && n <= DEC_MAX * 4 / 3)
				try_b64(&d, p, n, run);
			p = q + run;
			continue;
		}
		p++;
	}
	buf_done(&b);
}
