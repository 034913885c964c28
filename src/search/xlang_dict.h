/*
 * Installed bilingual dictionaries in dictd format (FreeDict's
 * dict-freedict-XXX-eng packages: NAME.index and NAME.dict.dz, or an
 * uncompressed NAME.dict), read in place: the sorted index is mapped
 * and searched, and an entry is inflated from the dictzip chunk that
 * holds it. Dictionaries into English (XXX-eng) are used, and those from
 * English (eng-XXX) for a language that has none into English, read
 * backwards (xlang_inv.h); they gloss the words of a query or a skill
 * that the built-in lexicon lacks.
 *
 * Ownership: xdict_scan() returns an array the caller frees with
 * xdict_free() on each item and free() on the array. A struct xdict is
 * read-only after the scan (lookups only read the mapping and open the
 * .dict.dz file anew), so threads may share it.
 */
#ifndef SR_XLANG_DICT_H
#define SR_XLANG_DICT_H

#include <stddef.h>
#include <stdint.h>

struct strlist;
struct xdict;

#define XDICT_DIR	"/usr/share/dictd"
#define XDICT_GLOSSES	2	/* English words taken from one entry */
#define XDICT_ENTRIES	3	/* entries of one headword read */

/*
 * The XXX-eng dictionaries under dir whose index and dictionary files
 * are regular files, sorted by name; *n is set to their count and *fp
 * mixed with their names, sizes and mtimes. Never NULL.
 */
struct xdict	**xdict_scan(const char *dir, size_t *n, uint64_t *fp);
/* Mixes into *fp what xdict_scan() would, from stat() alone. */
void		  xdict_stamp(const char *dir, uint64_t *fp);
void		  xdict_free(struct xdict *);
/* "deu-eng" for freedict-deu-eng. */
const char	 *xdict_name(const struct xdict *);
/* The ISO 639-3 code of the source language ("deu"). */
const char	 *xdict_lang(const struct xdict *);

/*
 * Looks the normalised word (len bytes) up in the dictionaries of
 * language lang (ISO 639-3; NULL: none) and appends up to XDICT_GLOSSES
 * English words of each of its first XDICT_ENTRIES entries to out (at most max items in
 * out). Returns the number added; 0 when nothing was found or a file
 * could not be read (a broken dictionary only loses its glosses).
 */
size_t		  xdict_gloss_word(struct xdict *const *v, size_t n,
		    const char *word, size_t len, const char *lang,
		    struct strlist *out, size_t max);

/*
 * The same for a word's stem (its language's Snowball stem, so an
 * inflected form finds its dictionary form: "bussgelder" -> "bussgeld",
 * "preparame" -> "prepar" -> "preparar"): the headword equal to stem (an
 * accented one too), else the shortest one-word headword that starts
 * with it as written (accented spellings of every stem of every word
 * cost a third more time building a search index). Stems shorter than
 * XDICT_STEM_MIN characters are not looked up (too many headwords share
 * them).
 */
#define XDICT_STEM_MIN	5
#define XDICT_STEM_CUT	2	/* characters a prefix lookup may drop */
size_t		  xdict_gloss_stem(struct xdict *const *v, size_t n,
		    const char *stem, size_t len, const char *lang,
		    struct strlist *out, size_t max);

/*
 * Where the maps of eng-XXX dictionaries read backwards are kept
 * (DIR/xlang-eng-pol.cache; NULL: nowhere), so that only the first
 * process after a dictionary changes reads it whole.
 */
void		  xdict_cache_dir(struct xdict *const *v, size_t n,
		    const char *dir);

/*
 * Reads the definition of the headword equal (after normalisation) to
 * word from d into *out (allocated, NUL-terminated). Returns 0, SR_NOTFOUND
 * or SR_IO (with *cause set). For tests and doctor.
 */
int		  xdict_define(struct xdict *d, const char *word, char **out,
		    char **cause);

#endif
