/*
 * The sanitiser's scan copy (DESIGN §7, layer 1): the text the pattern
 * catalogue and the override tag search run over. Code points are folded
 * so that case, width and diacritic tricks do not hide a phrase:
 * compatibility decomposition (NFKC), case folding and lumping (quotes,
 * dashes), combining marks on Latin letters dropped, everything else
 * recomposed. Every byte of the copy maps back to the offset in the
 * original it came from, hence to a line. Catalogue patterns and their
 * triggers are folded the same way (sanitize_fold_pattern()) so that
 * "für" in a pattern matches "fur" in the copy.
 *
 * A struct sanitize_fold is embedded by its user, who owns it:
 * sanitize_fold_init() allocates its buffers, sanitize_fold_done() frees
 * them. norm and map stay valid until the next put or done.
 */
#ifndef SR_SANITIZE_FOLD_H
#define SR_SANITIZE_FOLD_H

#include <stddef.h>
#include <stdint.h>

#include <utf8proc.h>

struct sanitize_fold {
	char		*norm;		/* the copy */
	size_t		 nlen, ncap;
	size_t		*map;		/* norm byte -> original offset */
	int		 last_space;	/* the copy ends with a space */
	int		 prev_latin;	/* the last code point was Latin */
};

/*
 * Decodes one code point at p (at most n bytes). Returns its length, or 1
 * with *cp = -1 for a byte that does not start valid UTF-8. Every pass of
 * the sanitiser reads text through this one decoder; it runs once per
 * byte of every body, so it is inline.
 */
static inline size_t
sanitize_fold_decode(const char *p, size_t n, int32_t *cp)
{
	const unsigned char	*u = (const unsigned char *)p;
	utf8proc_ssize_t	 r;
	utf8proc_int32_t	 c;

	if (u[0] < 0x80) {
		*cp = u[0];
		return 1;
	}
	/*
	 * Well-formed two- and three-byte sequences (most non-ASCII text)
	 * inline, as utf8proc_iterate() decodes them; the rest, and every
	 * error, through it.
	 */
	if (u[0] >= 0xC2 && u[0] <= 0xDF && n >= 2 && (u[1] & 0xC0) == 0x80) {
		*cp = (int32_t)(u[0] & 0x1F) << 6 | (u[1] & 0x3F);
		return 2;
	}
	if (u[0] >= 0xE0 && u[0] <= 0xEF && n >= 3 &&
	    (u[1] & 0xC0) == 0x80 && (u[2] & 0xC0) == 0x80 &&
	    !(u[0] == 0xED && u[1] > 0x9F) && !(u[0] == 0xE0 && u[1] < 0xA0)) {
		*cp = (int32_t)(u[0] & 0x0F) << 12 | (int32_t)(u[1] & 0x3F) << 6 |
		    (u[2] & 0x3F);
		return 3;
	}
	r = utf8proc_iterate((const utf8proc_uint8_t *)p,
	    n > 4 ? 4 : (utf8proc_ssize_t)n, &c);
	if (r <= 0) {
		*cp = -1;
		return 1;
	}
	*cp = c;
	return (size_t)r;
}

/*
 * Starts an empty copy with room for cap bytes (cap > 0), as if after a
 * space and a code point that is not Latin.
 */
void	 sanitize_fold_init(struct sanitize_fold *, size_t cap);
/* Frees the copy's buffers. */
void	 sanitize_fold_done(struct sanitize_fold *);

/* Appends n bytes at p, each mapped to original offset orig. */
void	 sanitize_fold_put(struct sanitize_fold *, const char *p, size_t n,
	    size_t orig);
/* Appends one space unless the copy is empty or ends with one. */
static inline void
sanitize_fold_space(struct sanitize_fold *f, size_t orig)
{
	if (!f->last_space && f->nlen > 0)
		sanitize_fold_put(f, " ", 1, orig);
}

/*
 * Folds one non-ASCII code point cp (its bytes src, srclen) into the
 * copy: compatibility decomposition, case folding and lumping (quotes,
 * dashes), dropping combining marks on Latin letters, recomposing
 * everything else.
 */
void	 sanitize_fold_cp(struct sanitize_fold *, int32_t cp, const char *src,
	    size_t srclen, size_t orig);

/*
 * Folds the non-ASCII characters of a pattern the way the scan copy is
 * folded; ASCII, including every escape, is left alone. Returns a new
 * string (free it).
 */
char	*sanitize_fold_pattern(const char *re);

#endif
