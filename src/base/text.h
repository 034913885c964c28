/*
 * The text pipeline shared by the lexical index and the built-in
 * embedder: Unicode normalisation (NFKC, full case folding, marks
 * stripped, a few letters folded by hand: "Zażółć" -> "zazolc",
 * "Größe" -> "grosse"), word tokens for alphabetic scripts, overlapping
 * character bigrams for Han/Hiragana/Katakana runs, stop-words for the
 * main languages, the Snowball English stemmer (libstemmer) and name
 * splitting ("pdf-form-filler", "pdfFormFiller" -> pdf, form, filler).
 *
 * Every function that returns a string returns an allocated one the
 * caller frees. Token lists are struct strlist, which owns its items.
 * A struct text_ctx holds a stemmer, which is not thread safe: use one
 * context per thread (a search creates its own).
 */
#ifndef SR_TEXT_H
#define SR_TEXT_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include "base/strlist.h"

struct text_ctx;

#define TEXT_STEM	0x1	/* stem word tokens */
#define TEXT_STOP	0x2	/* drop stop-words */
#define TEXT_CJK_UNI	0x4	/* also emit CJK unigrams */
#define TEXT_INDEX	(TEXT_STEM | TEXT_STOP)

#define TEXT_TOKEN_MAX	64	/* longer word tokens are cut to this many bytes */

struct text_ctx	*text_ctx_new(void);
void		 text_ctx_free(struct text_ctx *);

/*
 * Returns s (len bytes, or up to NUL when len is (size_t)-1) normalised:
 * invalid UTF-8 replaced by spaces, NFKC, case folded, marks stripped,
 * dashes and quotes lumped to ASCII, and ł ø đ æ œ ı þ folded to Latin.
 * Never NULL.
 */
char	*text_normalize(const char *s, size_t len);

/*
 * Appends the tokens of s (raw text, normalised here) to out, at most
 * max_tokens in total in out (0: unlimited). flags is TEXT_*; ctx may be
 * NULL when TEXT_STEM is not set. Returns the number of tokens added.
 */
size_t	 text_tokenize(struct text_ctx *, const char *s, int flags,
	    struct strlist *out, size_t max_tokens);

/*
 * Like text_tokenize(), but hands each token to fn(arg, token, len)
 * instead of copying it; the token is valid only during the call.
 */
size_t	 text_tokenize_cb(struct text_ctx *, const char *s, int flags,
	    void (*fn)(void *, const char *, size_t), void *arg,
	    size_t max_tokens);

/*
 * Splits a skill name into its parts on '-', '_', ':', '.', '/', blanks
 * and camelCase boundaries ("HTTPServer" -> HTTP, Server). The parts are
 * appended raw (not normalised). Returns the number of parts.
 */
size_t	 text_split_name(const char *name, struct strlist *out);

/* Returns 1 when the normalised word w is a stop-word of en/de/es/pl/fr/pt/it. */
int	 text_is_stopword(const char *w);

/*
 * Stems one normalised word token into an allocated string (a copy when
 * no stemmer applies).
 */
char	*text_stem(struct text_ctx *, const char *w);

/*
 * Appends the character n-grams (n codepoints) of each word of words,
 * padded as "^word$" (a padded word shorter than n is added whole).
 * Han/Kana tokens pass through when they are one character (bigrams are
 * skipped). Returns the number added.
 */
size_t	 text_char_ngrams(const struct strlist *words, int n,
	    struct strlist *out, size_t max);

/*
 * The n-grams of one word w (len bytes) as in text_char_ngrams(), handed
 * to fn(arg, gram, len). Returns the number of n-grams.
 */
size_t	 text_word_ngrams(const char *w, size_t len, int n,
	    void (*fn)(void *, const char *, size_t), void *arg);

/* Returns 1 when codepoint c is Han, Hiragana or Katakana. */
/*
 * The value of a base64 digit c (0..63), standard or URL-safe alphabet
 * ("+/" or "-_"), or -1.
 */
int	 text_b64_digit(int c);
int	 text_is_cjk(int32_t c);

/*
 * Decodes one UTF-8 codepoint at s (n bytes available) into *cp; returns
 * its length, or -1 for an invalid sequence.
 */
int	 text_utf8_decode(const char *s, size_t n, int32_t *cp);

/* Returns the largest length <= n that does not split a UTF-8 char of s. */
size_t	 text_utf8_cut(const char *s, size_t n);

/*
 * Returns the length of the longest valid UTF-8 prefix of s[0..n): n when
 * all of it is valid (overlong forms, surrogates and truncated sequences
 * are not).
 */
size_t	 text_utf8_valid(const char *s, size_t n);

/*
 * Returns a new string (free it): s with every byte that does not start a
 * valid UTF-8 sequence replaced by U+FFFD, or NULL when s is valid UTF-8
 * already (nothing to replace).
 */
char	*text_utf8_scrub(const char *s);

/*
 * The one escape for human-readable output: a new string (free it), s
 * (NULL: "") with control characters spelt out, C0 and DEL as \xNN and
 * C1 as \u00NN. Names, paths and excerpts are a skill author's and must
 * never drive the terminal (clear it, set its title, forge a row).
 */
char	*text_escape_controls(const char *s);

/* Writes text_escape_controls(s) to fp. */
void	 text_fputs_safe(const char *s, FILE *fp);

#endif
