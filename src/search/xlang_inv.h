/*
 * A dictionary into English made by reading one from English backwards:
 * Debian packages FreeDict's eng-pol and eng-rus but no pol-eng or
 * rus-eng, so a Polish or Russian word is looked up among the
 * translations of the eng-XXX entries and glossed by their English
 * headwords ("rozmowa" -> "conversation").
 *
 * Built from the entries of the dictionary (xlang_dict.c reads them): each
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
 * Ownership: the caller frees what xinv_new() returns with xinv_free().
 * Once sealed the map is not changed: lookups only read it, so threads
 * may share it (xlang_dict.c builds it under a lock on first use).
 */
#ifndef SR_XLANG_INV_H
#define SR_XLANG_INV_H

#include <stddef.h>
#include <stdint.h>

struct strlist;
struct xinv;

#define XINV_HEADWORDS	2	/* English headwords kept per word */
#define XINV_STEM_MIN	4	/* characters a stem keeps */

/*
 * An empty map from words of lang (ISO 639-3: "pol" and "rus" are
 * stemmed) to English; xinv_add() each entry of the eng-XXX dictionary
 * (its headword, hwlen bytes, and its text), then xinv_seal() before the
 * first lookup.
 */
struct xinv	*xinv_new(const char *lang);
void		 xinv_add(struct xinv *, const char *hw, size_t hwlen,
		    const char *def);
void		 xinv_seal(struct xinv *);

/*
 * A sealed map written to path (parent directories made) with stamp, the
 * fingerprint of the dictionary it was read from; read back by
 * xinv_load() when the stamp matches (NULL otherwise, or when the file is
 * missing or damaged): a process that needs the map reads it in a few
 * milliseconds instead of reading the dictionary whole. xinv_save()
 * returns 0 or -1 (the map then stays in memory only).
 */
int		 xinv_save(const struct xinv *, const char *path,
		    uint64_t stamp);
struct xinv	*xinv_load(const char *path, uint64_t stamp, const char *lang);
void		 xinv_free(struct xinv *);

/*
 * Appends to out (at most max items in it) the English words of the
 * normalised word (len bytes): as written, else by its stems. Returns
 * the number added.
 */
size_t		 xinv_gloss(const struct xinv *, const char *word, size_t len,
		    struct strlist *out, size_t max);

#endif
