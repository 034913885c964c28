/*
 * A dictionary into English made by reading one from English backwards:
 * Debian packages FreeDict's eng-pol and eng-rus but no pol-eng or
 * rus-eng, so a Polish or Russian word is looked up among the
 * translations of the eng-XXX entries and glossed by their English
 * headwords ("rozmowa" -> "conversation").
 *
 * Built from the entries xdict_each() hands over (xlang_dict.h): each
 * entry's translation lines are cut into items (at "," and ";"), notes in
 * brackets dropped; an item of one word maps to the headword (one word
 * too), the earlier in its entry the better ("note: 1. notatka 2. nota"
 * ranks "notatka" before "nota"). Idioms (lines that translate a phrase,
 * not the headword) are skipped.
 *
 * Inflection: Polish and Russian words are matched also by a light stem,
 * the word with its longest inflectional ending removed (four characters
 * kept at least) on the dictionary side, and each of its endings tried,
 * shortest first, on the looked-up side: "notatki" and "notatka" meet at
 * "notatk", "podwładnymi" and "podwładny" at "podwladn". Other languages
 * are matched as written.
 *
 * Ownership: xinv_new() returns an immutable map the caller frees with
 * xinv_free(); lookups only read it, so threads may share it.
 */
#ifndef SR_XLANG_INV_H
#define SR_XLANG_INV_H

#include <stddef.h>

struct strlist;
struct xdict;
struct xinv;

#define XINV_HEADWORDS	2	/* English headwords kept per word */
#define XINV_STEM_MIN	4	/* characters a stem keeps */

/*
 * Reads every entry of d (an eng-XXX dictionary; lang is XXX, ISO 639-3)
 * into a map from XXX words to English ones. NULL when d cannot be read
 * (a broken dictionary only loses its glosses).
 */
struct xinv	*xinv_new(struct xdict *d, const char *lang);
void		 xinv_free(struct xinv *);
/* The number of words mapped (for tests). */
size_t		 xinv_size(const struct xinv *);

/*
 * Appends to out (at most max items in it) the English words of the
 * normalised word (len bytes): as written, else by its stems. Returns
 * the number added.
 */
size_t		 xinv_gloss(const struct xinv *, const char *word, size_t len,
		    struct strlist *out, size_t max);

#endif
