/*
 * One telemetry event as the writer queue holds it (private to the
 * telemetry writers: telemetry.c and telemetry_pg.c), and the helpers
 * both writers share (telemetry_event.c, beneath them). Every string is
 * owned by the event; NULL stores SQL NULL.
 */
#ifndef SR_TELEMETRY_EVENT_H
#define SR_TELEMETRY_EVENT_H

#include <stddef.h>

enum tm_kind {
	TM_SEARCH,
	TM_LOAD,
	TM_INDEX
};

struct tm_event {
	double		 ts;
	enum tm_kind	 kind;
	char		*session;
	char		*client;
	char		*query;		/* normalised text; hashed before writing */
	int		 hashed;	/* query already replaced by its hash */
	char		*skill;
	int		 has_top1;
	double		 top1;
	int		 has_n;
	long long	 n_results;
	double		 latency_ms;
	char		*trust;
	int		 found;		/* -1: NULL */
	char		*detail;
	char		*replica;
};

/*
 * The indexes of events and the meta table, the same in SQLite and
 * PostgreSQL (the covering indexes stats reads; events_replica for the
 * per-replica breakdown).
 */
#define TM_INDEXES_SQL \
	"CREATE INDEX IF NOT EXISTS events_ts ON events(ts);\n" \
	"CREATE INDEX IF NOT EXISTS events_kind ON events(kind, ts);\n" \
	"CREATE INDEX IF NOT EXISTS events_session ON events(session, kind, ts);\n" \
	"CREATE INDEX IF NOT EXISTS events_latency ON events(kind, latency_ms, ts);\n" \
	"CREATE INDEX IF NOT EXISTS events_query ON events(kind, query, ts," \
	" top1_score, latency_ms);\n" \
	"CREATE INDEX IF NOT EXISTS events_skill ON events(kind, skill, ts," \
	" found, latency_ms);\n" \
	"CREATE INDEX IF NOT EXISTS events_replica ON events(replica, ts);\n" \
	"CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);\n"

/* Writes n bytes as 2n lowercase hex digits and a NUL into out. */
void	 tm_hex(const unsigned char *p, size_t n, char *out);

/* Decodes 2n lowercase hex digits into out; -1 when s is not that. */
int	 tm_unhex(const char *s, unsigned char *out, size_t n);

/* A new query hash key: 32 random bytes as 64 hex digits; -1 (errno). */
int	 tm_random_key(char out[65]);

/* "search", "load", "index" */
extern const char *const tm_kind_names[];

#endif
