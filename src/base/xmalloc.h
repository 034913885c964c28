/*
 * Allocation wrappers. Out-of-memory is fatal: each function prints a
 * message and aborts rather than returning NULL, so callers never check.
 * Everything returned is owned by the caller and released with free().
 */
#ifndef SR_XMALLOC_H
#define SR_XMALLOC_H

#include <stdarg.h>
#include <stddef.h>

void	*xmalloc(size_t);
void	*xcalloc(size_t, size_t);
void	*xrealloc(void *, size_t);
void	*xreallocarray(void *, size_t, size_t);
char	*xstrdup(const char *);
char	*xstrndup(const char *, size_t);
/* Like asprintf(3); returns the length written. */
int	 xasprintf(char **, const char *, ...)
	    __attribute__((format(printf, 2, 3)));
int	 xvasprintf(char **, const char *, va_list);
/* Duplicates s, or returns NULL when s is NULL. */
char	*xstrdup_or_null(const char *);
/*
 * Makes cJSON allocate through xmalloc(), so that running out of memory
 * while building or printing JSON is fatal with the same message as
 * everywhere else instead of a NULL nobody checks. Every program's
 * main() calls it first, before any cJSON call.
 */
void	 xmalloc_init(void);

#endif
