/*
 * A token estimator for Claude models, in C, so the Tier-1 mini-index and
 * doctor's report can keep a hard token budget without a tokenizer at run
 * time. The text is split the way Claude's BPE pre-tokenizer splits it
 * (contractions, an optional space and a run of letters, of digits or of
 * other symbols, runs of blanks); each piece is priced by a table fitted
 * on real skill descriptions against @anthropic-ai/tokenizer (the ASCII
 * word tables by case shape, length and leading space; per-character
 * rates for accented Latin, Cyrillic, CJK and symbols), and a safety
 * margin is added to the sum, so the estimate stays above the real count:
 * 4 % of it plus its square root plus one (the spread of the raw sum
 * shrinks, relative to the text, as the text grows).
 * Measured error on the corpus is in the README and tests/unit/
 * test_miniindex.c. Pure functions: no allocation, thread-safe.
 */
#ifndef SR_TOKENS_H
#define SR_TOKENS_H

#include <stddef.h>

/*
 * Returns the estimated number of Claude tokens in len bytes of UTF-8 text
 * (invalid bytes are priced as one token each). Meant to be an upper
 * bound: on the calibration corpus it never fell below the real count.
 */
size_t	tokens_estimate(const char *s, size_t len);
/*
 * The estimate with only the proportional part of the margin, for
 * pricing a piece (a word, a gist) that will sit inside a larger text.
 */
size_t	tokens_estimate_part(const char *s, size_t len);
/* The same for a NUL-terminated string; NULL counts 0. */
size_t	tokens_estimate_str(const char *s);

/*
 * The estimate in internal units, before rounding: for pricing a long
 * text piece by piece. The units of a text are the sum of the units of
 * its pieces when it is cut only just after a newline that is followed
 * by a byte other than a blank (space, \t to \r) or a non-ASCII byte (a
 * newline run then ends the piece before, and the language guess starts
 * afresh after it). tokens_from_units() turns the sum for a non-empty
 * text into what tokens_estimate() returns for it.
 */
size_t	tokens_units(const char *s, size_t len);
size_t	tokens_from_units(size_t units);

#endif
