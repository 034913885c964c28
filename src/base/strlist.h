/*
 * A growable list of strings. The list owns its items: strlist_add()
 * copies, strlist_done() frees every item and the array.
 */
#ifndef SR_STRLIST_H
#define SR_STRLIST_H

#include <stddef.h>

struct strlist {
	char	**v;
	size_t	  n;
	size_t	  cap;
};

void	 strlist_init(struct strlist *);
void	 strlist_done(struct strlist *);
void	 strlist_add(struct strlist *, const char *);
/* Adds s without copying: the list takes ownership. */
void	 strlist_add_take(struct strlist *, char *);
/* Adds s unless an equal string (case-insensitive when ci) is present. */
int	 strlist_add_unique(struct strlist *, const char *, int ci);
int	 strlist_contains(const struct strlist *, const char *, int ci);
void	 strlist_copy(struct strlist *dst, const struct strlist *src);
/* Joins the items with sep into a new string (free() it). */
char	*strlist_join(const struct strlist *, const char *sep);
/* Splits s on any byte of seps, trimming blanks and dropping empty items. */
void	 strlist_split(struct strlist *, const char *s, const char *seps);

/*
 * Levenshtein distance between a and b, ignoring ASCII case, for "did you
 * mean" suggestions. Stops early: returns cap + 1 when the distance is
 * larger than cap (or a string is over 128 bytes).
 */
size_t	 strlist_distance(const char *a, const char *b, size_t cap);

#endif
