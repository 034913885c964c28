/*
 * mkstats DB: a test helper that creates (or opens) a stats.db with the
 * telemetry writer's current schema (telemetry_schema_sql, WAL) and runs
 * the SQL read from stdin in it, so fixtures are inserts only and follow
 * the schema as it evolves. Exit 0, or 1 with a message.
 */
#include "autoconfig.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/buf.h"
#include "telemetry/telemetry.h"
#include "base/xmalloc.h"

int
main(int argc, char **argv)
{
	sqlite3		*db = NULL;
	struct buf	 sql;
	char		 tmp[4096], *err = NULL, ver[64];
	size_t		 n;
	int		 rv = 1;

	xmalloc_init();
	if (argc != 2) {
		fprintf(stderr, "usage: mkstats DB <SQL\n");
		return 2;
	}
	buf_init(&sql, 4 << 20);
	while ((n = fread(tmp, 1, sizeof tmp, stdin)) > 0) {
		if (buf_add(&sql, tmp, n) == -1) {
			fprintf(stderr, "mkstats: SQL over 4 MiB\n");
			goto out;
		}
	}
	if (sqlite3_open(argv[1], &db) != SQLITE_OK)
		goto fail;
	sqlite3_busy_timeout(db, 5000);
	snprintf(ver, sizeof ver, "PRAGMA user_version = %d;",
	    TELEMETRY_SCHEMA_VERSION);
	if (sqlite3_exec(db, "PRAGMA journal_mode = WAL;", NULL, NULL,
	    &err) != SQLITE_OK ||
	    sqlite3_exec(db, telemetry_schema_sql, NULL, NULL, &err) !=
	    SQLITE_OK ||
	    sqlite3_exec(db, ver, NULL, NULL, &err) != SQLITE_OK ||
	    sqlite3_exec(db, sql.p, NULL, NULL, &err) != SQLITE_OK)
		goto fail;
	rv = 0;
	goto out;
fail:
	fprintf(stderr, "mkstats: %s: %s\n", argv[1],
	    err != NULL ? err : sqlite3_errmsg(db));
out:
	sqlite3_free(err);
	sqlite3_close(db);
	buf_done(&sql);
	return rv;
}
