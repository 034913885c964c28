/*
 * The PostgreSQL telemetry writer (telemetry.backend: postgres), driven by
 * the writer thread of telemetry.c and only by it: no call here is
 * thread-safe and none is ever made from a search.
 *
 * The schema is the SQLite one of telemetry.c in PostgreSQL's dialect
 * (events with the replica column, meta, conv filled by a trigger), its
 * version in meta.schema_version; tm_pg_ready() creates or migrates it
 * under an advisory lock, so replicas starting together agree. A batch is
 * one transaction: a multi-row INSERT, serialised across writers by a
 * transaction advisory lock so event ids commit in increasing order (the
 * dashboard reads "the rows after id N"), plus the dropped-event count
 * not stored yet.
 */
#ifndef SR_TELEMETRY_PG_H
#define SR_TELEMETRY_PG_H

#include <stddef.h>
#include <stdint.h>

struct tm_event;
struct tm_pg;

/* Checks the DSN's syntax (no connection); SR_CONFIG with *cause. */
int	 tm_pg_new(const char *dsn, struct tm_pg **out, char **cause);

/*
 * Connects when not connected, creates or migrates the schema and reads
 * the query hash key into key. 0, or -1 with *cause (unreachable,
 * refused, newer schema): the caller backs off and tries again.
 */
int	 tm_pg_ready(struct tm_pg *, uint8_t key[32], char **cause);

/*
 * Appends v[0..n) and adds dropped to meta.write_failures in one
 * transaction (n may be 0). 0; -1 with *cause: nothing was written and
 * the connection is dropped, so the next tm_pg_ready() reconnects; or -2
 * with *cause: the server refused these rows (the connection is fine),
 * so trying them again cannot help.
 */
int	 tm_pg_write(struct tm_pg *, const struct tm_event *v, size_t n,
	    long long dropped, char **cause);

/* Deletes events older than days (0: never), at most once a day. */
void	 tm_pg_prune(struct tm_pg *, int days);

/*
 * Sets meta.key to value (inserting the row when missing); connected by
 * tm_pg_ready(). 0, or -1 with *cause.
 */
int	 tm_pg_meta_set(struct tm_pg *, const char *key, const char *value,
	    char **cause);

void	 tm_pg_free(struct tm_pg *);


#define TELEMETRY_PG_SCHEMA_VERSION	3

#endif
