/*
 * PostgreSQL connection strings in messages; see pgdsn.h. Plain text
 * work: nothing here needs libpq, so stats and tui can name a database
 * before (or without) loading it.
 */
#include "autoconfig.h"

#include <string.h>

#include "base/buf.h"
#include "base/pgdsn.h"

int
pg_is_uri(const char *s)
{
	return s != NULL && (strncmp(s, "postgresql://", 13) == 0 ||
	    strncmp(s, "postgres://", 11) == 0);
}

/* Masks from p up to the first byte of stop (or the end). */
static void
mask(struct buf *b, const char **p, const char *stop)
{
	buf_addstr(b, "***");
	while (**p != '\0' && strchr(stop, **p) == NULL)
		(*p)++;
}

char *
pg_dsn_redact(const char *dsn)
{
	struct buf	 b;
	const char	*p, *at, *end, *colon;

	buf_init(&b, 0);
	if (dsn == NULL)
		dsn = "";
	p = dsn;
	if (pg_is_uri(dsn)) {
		p = strstr(dsn, "://") + 3;
		buf_add(&b, dsn, (size_t)(p - dsn));
		end = p + strcspn(p, "/?");
		at = memchr(p, '@', (size_t)(end - p));
		if (at != NULL) {
			colon = memchr(p, ':', (size_t)(at - p));
			if (colon != NULL) {
				buf_add(&b, p, (size_t)(colon - p) + 1);
				p = colon + 1;
				mask(&b, &p, "@");
			}
		}
	}
	/* password=... in a URI's query string or in key=value pairs. */
	while (*p != '\0') {
		if (strncmp(p, "password", 8) == 0) {
			const char	*q = p + 8;

			while (*q == ' ')
				q++;
			if (*q == '=') {
				q++;
				while (*q == ' ')
					q++;
				buf_add(&b, p, (size_t)(q - p));
				p = q;
				if (*p == '\'') {
					p++;
					while (*p != '\0' && *p != '\'') {
						if (*p == '\\' && p[1] != '\0')
							p++;
						p++;
					}
					if (*p == '\'')
						p++;
					buf_addstr(&b, "***");
				} else
					mask(&b, &p, " &");
				continue;
			}
		}
		buf_add(&b, p, 1);
		p++;
	}
	return buf_take(&b);
}
