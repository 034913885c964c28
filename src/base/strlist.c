#include "autoconfig.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/buf.h"
#include "base/strlist.h"
#include "base/xmalloc.h"

void
strlist_init(struct strlist *l)
{
	l->v = NULL;
	l->n = 0;
	l->cap = 0;
}

void
strlist_done(struct strlist *l)
{
	size_t	 i;

	for (i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	strlist_init(l);
}

void
strlist_add_take(struct strlist *l, char *s)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 4;
		l->v = xreallocarray(l->v, l->cap, sizeof *l->v);
	}
	l->v[l->n++] = s;
}

void
strlist_add(struct strlist *l, const char *s)
{
	strlist_add_take(l, xstrdup(s));
}

int
strlist_contains(const struct strlist *l, const char *s, int ci)
{
	size_t	 i;

	for (i = 0; i < l->n; i++) {
		if (ci ? strcasecmp(l->v[i], s) == 0 : strcmp(l->v[i], s) == 0)
			return 1;
	}
	return 0;
}

int
strlist_add_unique(struct strlist *l, const char *s, int ci)
{
	if (strlist_contains(l, s, ci))
		return 0;
	strlist_add(l, s);
	return 1;
}

void
strlist_copy(struct strlist *dst, const struct strlist *src)
{
	size_t	 i;

	strlist_init(dst);
	for (i = 0; i < src->n; i++)
		strlist_add(dst, src->v[i]);
}

char *
strlist_join(const struct strlist *l, const char *sep)
{
	struct buf	 b;
	size_t		 i;

	buf_init(&b, 0);
	for (i = 0; i < l->n; i++) {
		if (i != 0)
			buf_addstr(&b, sep);
		buf_addstr(&b, l->v[i]);
	}
	return buf_take(&b);
}

void
strlist_split(struct strlist *l, const char *s, const char *seps)
{
	const char	*start, *end;
	size_t		 n;

	while (*s != '\0') {
		n = strcspn(s, seps);
		start = s;
		end = s + n;
		while (start < end && isspace((unsigned char)*start))
			start++;
		while (end > start && isspace((unsigned char)end[-1]))
			end--;
		if (end > start)
			strlist_add_take(l, xstrndup(start, (size_t)(end - start)));
		s += n;
		if (*s != '\0')
			s++;
	}
}

size_t
strlist_distance(const char *a, const char *b, size_t cap)
{
	size_t	 la = strlen(a), lb = strlen(b), i, j, *row, prev, tmp, best, d;

	if (la > 128 || lb > 128)
		return cap + 1;
	if ((la > lb ? la - lb : lb - la) > cap)
		return cap + 1;
	row = xreallocarray(NULL, lb + 1, sizeof *row);
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = i;
		best = row[0];
		for (j = 1; j <= lb; j++) {
			tmp = row[j];
			d = prev + (tolower((unsigned char)a[i - 1]) !=
			    tolower((unsigned char)b[j - 1]));
			if (row[j] + 1 < d)
				d = row[j] + 1;
			if (row[j - 1] + 1 < d)
				d = row[j - 1] + 1;
			row[j] = d;
			prev = tmp;
			if (d < best)
				best = d;
		}
		if (best > cap) {
			free(row);
			return cap + 1;
		}
	}
	d = row[lb];
	free(row);
	return d;
}
