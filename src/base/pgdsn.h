/*
 * PostgreSQL connection strings as the user wrote them (a libpq
 * key=value string or a postgresql:// URI), for messages.
 * pg_dsn_redact() is for every message that shows a DSN, from every
 * module that talks to PostgreSQL (store, telemetry, stats, tui,
 * doctor): the password of a URI (user:secret@) or of password=... (in
 * a URI's query or a key=value string, quoted or not) becomes "***", and
 * the rest is kept as written so the user recognises it.
 */
#ifndef SR_PGDSN_H
#define SR_PGDSN_H

/* The DSN with its password replaced by ***; allocated. */
char	*pg_dsn_redact(const char *dsn);

/* 1 when s names a PostgreSQL database: postgresql:// or postgres://. */
int	 pg_is_uri(const char *s);

#endif
