/*
 * The sanitiser's scan copy (see sanitize_fold.h): decoding UTF-8 and
 * folding code points (compatibility decomposition, case folding,
 * lumping, Latin diacritics dropped) into a copy that remembers, for
 * every byte, the offset it came from in the original.
 */
#include "autoconfig.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <utf8proc.h>

#include "base/buf.h"
#include "safety/sanitize_fold.h"
#include "base/xmalloc.h"

void
sanitize_fold_put(struct sanitize_fold *f, const char *p, size_t n,
    size_t orig)
{
	size_t	 i;

	if (f->nlen + n + 1 > f->ncap) {
		while (f->nlen + n + 1 > f->ncap)
			f->ncap *= 2;
		f->norm = xrealloc(f->norm, f->ncap);
		f->map = xreallocarray(f->map, f->ncap, sizeof *f->map);
	}
	for (i = 0; i < n; i++) {
		f->norm[f->nlen] = p[i];
		f->map[f->nlen++] = orig;
	}
	f->last_space = n == 1 && (p[0] == ' ' || p[0] == '\n');
}

static void
fold_encode(struct sanitize_fold *f, int32_t cp, size_t orig)
{
	utf8proc_uint8_t	 enc[4];
	utf8proc_ssize_t	 n;

	n = utf8proc_encode_char(cp, enc);
	if (n > 0)
		sanitize_fold_put(f, (const char *)enc, (size_t)n, orig);
}

static int
cp_is_mark(int32_t cp)
{
	utf8proc_category_t	 c = utf8proc_category(cp);

	return c == UTF8PROC_CATEGORY_MN || c == UTF8PROC_CATEGORY_MC ||
	    c == UTF8PROC_CATEGORY_ME;
}

void
sanitize_fold_cp(struct sanitize_fold *f, int32_t cp, const char *src,
    size_t srclen, size_t orig)
{
	utf8proc_int32_t	 d[32];
	utf8proc_ssize_t	 n, i;
	int			 bc = 0, latin;

	/* Scripts with nothing to fold: copy. */
	if ((cp >= 0x3040 && cp <= 0x30FF) || (cp >= 0x3400 && cp <= 0x9FFF) ||
	    (cp >= 0xAC00 && cp <= 0xD7A3)) {
		sanitize_fold_put(f, src, srclen, orig);
		f->prev_latin = 0;
		return;
	}
	n = utf8proc_decompose_char(cp, d, 32, UTF8PROC_DECOMPOSE |
	    UTF8PROC_COMPAT | UTF8PROC_CASEFOLD | UTF8PROC_LUMP, &bc);
	if (n <= 0 || n > 32) {
		sanitize_fold_put(f, src, srclen, orig);
		return;
	}
	if (cp_is_mark(d[0])) {
		if (f->prev_latin)
			return;		/* a mark stacked on a Latin letter */
		sanitize_fold_put(f, src, srclen, orig);
		return;
	}
	latin = d[0] < 0x0370;
	if (!latin && n > 1)
		n = utf8proc_normalize_utf32(d, n, UTF8PROC_COMPOSE);
	for (i = 0; i < n; i++) {
		if (latin && i > 0 && cp_is_mark(d[i]))
			continue;
		if (d[i] == ' ')
			sanitize_fold_space(f, orig);
		else
			fold_encode(f, d[i], orig);
	}
	f->prev_latin = latin;
}

void
sanitize_fold_init(struct sanitize_fold *f, size_t cap)
{
	f->ncap = cap;
	f->norm = xmalloc(f->ncap);
	f->map = xreallocarray(NULL, f->ncap, sizeof *f->map);
	f->nlen = 0;
	f->last_space = 1;
	f->prev_latin = 0;
}

void
sanitize_fold_done(struct sanitize_fold *f)
{
	free(f->norm);
	free(f->map);
}

char *
sanitize_fold_pattern(const char *re)
{
	struct sanitize_fold	 f;
	struct buf		 b;
	size_t			 i, n, len = strlen(re);
	int32_t			 cp;

	buf_init(&b, 0);
	buf_add(&b, "", 0);
	memset(&f, 0, sizeof f);
	for (i = 0; i < len; i += n) {
		if ((unsigned char)re[i] < 0x80) {
			n = 1;
			buf_addc(&b, re[i]);
			f.prev_latin = 1;
			continue;
		}
		n = sanitize_fold_decode(re + i, len - i, &cp);
		if (cp < 0) {
			buf_addc(&b, re[i]);
			continue;
		}
		f.ncap = 64;
		f.nlen = 0;
		f.norm = xmalloc(f.ncap);
		f.map = xreallocarray(NULL, f.ncap, sizeof *f.map);
		sanitize_fold_cp(&f, cp, re + i, n, 0);
		buf_add(&b, f.norm, f.nlen);
		sanitize_fold_done(&f);
	}
	return buf_take(&b);
}
