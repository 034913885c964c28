/*
 * The words of the index: every token (cut, folded and stemmed as search
 * indexes text, TEXT_INDEX) of each searchable entry's name parts,
 * description, when_to_use and tags, to tell which words of a query no
 * entry contains. stats' advice names them so an operator knows which
 * description to improve. A struct vocab owns a table of 64-bit token
 * hashes, nothing of the set it was built from.
 */
#ifndef SR_VOCAB_H
#define SR_VOCAB_H

#include <stddef.h>

struct skill_set;
struct strlist;

/*
 * Returns the words of the entries of set that search can return (not
 * shadowed, model invocation allowed); the caller frees it with
 * vocab_free().
 */
struct vocab	*vocab_new(const struct skill_set *set);
void		 vocab_free(struct vocab *);

/*
 * Appends to out each word of query (split at white space, as typed
 * without the punctuation around it, once) that has tokens and none of
 * which any entry has; stop-words and
 * punctuation have no tokens and are never listed. Returns how many were
 * added. A query stored as a hash ("hmac:...") has no words to compare.
 */
size_t		 vocab_unknown(const struct vocab *, const char *query,
		    struct strlist *out);

#endif
