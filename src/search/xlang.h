/*
 * Cross-lingual glosses without a model file: a bilingual lexicon maps
 * words of German, Spanish, French, Portuguese, Italian, Dutch, Polish,
 * Russian, Chinese, Japanese and Korean to English, so a query in one of
 * them finds English skills by meaning (its glosses are added to the
 * query with a lower weight) and a skill written in one of them gets
 * English glosses of its name and description at index time (so English
 * queries find it).
 *
 * The lexicon is data: config/xlang/lexicon.tsv (installed under
 * pkgdatadir; the header of the file documents its columns). Installed
 * bilingual dictionaries (FreeDict in dictd format, see xlang_dict.h)
 * extend it for Latin-script and Japanese words the lexicon lacks.
 *
 * Which words are translated: the text is cut into words (Latin and
 * Cyrillic letters), runs of Han/kana and runs of Hangul. Words of a
 * non-Latin script always are. Latin words are when the text reads as
 * one of the languages more than as English: each language scores one
 * vote per word found in its column or its list of function words, and
 * English scores the lexicon's English words and its own function words;
 * only the winning languages' columns are used, and none when English
 * ties or wins. So an English text is never glossed.
 *
 * Ownership: a struct xlang is immutable once built and may be shared
 * by threads; xlang_gloss() keeps its scratch state on the caller's
 * stack and heap. xlang_default() returns a process-wide instance that
 * lives until exit.
 */
#ifndef SR_XLANG_H
#define SR_XLANG_H

#include <stddef.h>
#include <stdint.h>

struct strlist;
struct xlang;

/*
 * Weight of a query's English rendering against the query as typed
 * (search scores both and keeps the better per skill): below one, as a
 * translation word for word is less sure than the words typed, so it
 * overrides them only with clearly better evidence and its scores stay
 * lower (a translated query misses more readily). An English query has
 * no rendering and is scored as before.
 */
#define XLANG_QUERY_WEIGHT	0.7
#define XLANG_QUERY_GLOSSES	24	/* glosses added to a query at most */
#define XLANG_DOC_GLOSSES	48	/* glosses added to a skill at most */

/*
 * Reads the lexicon at lexicon_path (NULL or missing file: an empty
 * lexicon) and notes the dictionaries under dict_dir (NULL: none).
 * Returns 0, or SR_EDATA with *cause set when the file exists but cannot
 * be read or a line is malformed (the line number is in the message).
 * The caller frees *out with xlang_free().
 */
int	 xlang_open(const char *lexicon_path, const char *dict_dir,
	    struct xlang **out, char **cause);
void	 xlang_free(struct xlang *);

/*
 * Opens what xlang_default() uses (below), reporting why it cannot: for
 * doctor. The caller frees *out.
 */
int	 xlang_open_default(struct xlang **out, char **cause);

/*
 * The instance search uses: the lexicon from the data directory
 * (config_pkgdata_dir(), so $SKILLS_RADAR_DATADIR) and the dictionaries
 * under $SKILLS_RADAR_DICT_DIR (default /usr/share/dictd; an empty value
 * turns them off). Built on first use; never NULL (empty when the lexicon
 * is missing or bad: search then works as without it).
 */
const struct xlang *xlang_default(void);

/*
 * Appends to out the English glosses of the foreign words in text (raw
 * UTF-8), each gloss word once, at most max words in out; returns how
 * many were added. Deterministic: the same text gives the same glosses.
 */
size_t	 xlang_gloss(const struct xlang *, const char *text,
	    struct strlist *out, size_t max);

/*
 * The text with its foreign words replaced by their English glosses and
 * the rest as written (normalised), at most max glosses; NULL when
 * nothing was translated (English text, or no word known). The caller
 * frees it. Search runs a foreign query as this rendering, so the query
 * and the skills (which carry the same glosses) meet in English.
 */
char	*xlang_render(const struct xlang *, const char *text, size_t max);
/*
 * The same, and in *covered the share of the text's content that was
 * translated: of its words in a Latin or Cyrillic script that are not
 * function words, those glossed; of its Han, kana (hiragana aside) and
 * Hangul characters, those inside a glossed stretch. 0 when nothing was
 * translated. A rendering of a text half translated is half a
 * translation: search judges its matches by this share.
 */
char	*xlang_render_cover(const struct xlang *, const char *text,
	    size_t max, double *covered);
/*
 * The same, rendered for one collection: known(arg, gloss) tells whether
 * the collection has the words of a dictionary sense. Of the senses of a
 * word looked up in a dictionary, the rendering keeps those it has,
 * XLANG_RENDER_SENSES at most, in the dictionary's order, or the first
 * one when it has none (render_from() in xlang.c says why). known NULL:
 * every sense, as xlang_render_cover().
 */
typedef int (*xlang_known_fn)(void *arg, const char *gloss);
#define XLANG_RENDER_SENSES	2
char	*xlang_render_for(const struct xlang *, const char *text,
	    size_t max, double *covered, xlang_known_fn known, void *arg);

/*
 * A hash of everything xlang_gloss() depends on (the lexicon's text, the
 * dictionaries' names, sizes and mtimes), for the search cache key.
 */
uint64_t xlang_fingerprint(const struct xlang *);
/*
 * What the fingerprint of xlang_default() depends on (the lexicon file's
 * path, size and mtime, the dictionaries' names, sizes and mtimes), from
 * stat() alone: a search keys its cache on it without loading the
 * lexicon, which only a query that misses or an index build needs.
 */
uint64_t xlang_default_stamp(void);

/* Concepts in the lexicon; dictionaries found (for doctor). */
size_t	 xlang_nconcepts(const struct xlang *);
size_t	 xlang_ndicts(const struct xlang *);
/* Dictionary i's name ("deu-eng", "edict"), or NULL past the end. */
const char *xlang_dict_name(const struct xlang *, size_t i);
/* Where dictionaries were looked for (NULL: turned off). */
const char *xlang_dict_dir(const struct xlang *);
/* Where the lexicon was read from (NULL: none). */
const char *xlang_lexicon_path(const struct xlang *);

#endif
