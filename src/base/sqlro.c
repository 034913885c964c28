/*
 * Reading an SQLite database that cannot be written (sqlro.h). See
 * https://sqlite.org/wal.html#readonly: a WAL reader needs the -shm, or
 * the right to create it, or the immutable URI parameter.
 */
#include "autoconfig.h"

#include <sys/stat.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/sqlro.h"
#include "base/xmalloc.h"

static int
no_space(sqlite3 *db)
{
	int	 e = sqlite3_system_errno(db);

	if ((sqlite3_extended_errcode(db) & 0xff) == SQLITE_FULL)
		return 1;
	return (sqlite3_errcode(db) == SQLITE_IOERR ||
	    sqlite3_errcode(db) == SQLITE_CANTOPEN) &&
	    (e == ENOSPC || e == EDQUOT);
}

const char *
sqlro_why(sqlite3 *db, const char *msg)
{
	if (db == NULL)
		return msg != NULL ? msg : "out of memory";
	if (no_space(db))
		return "disk full";
	return msg != NULL ? msg : sqlite3_errmsg(db);
}

const char *
sqlro_strerror(int e)
{
	return e == ENOSPC || e == EDQUOT ? "disk full" : strerror(e);
}

int
sqlro_fallback(sqlite3 *db)
{
	int	 ext, e;

	if (db == NULL)
		return 0;
	ext = sqlite3_extended_errcode(db);
	e = sqlite3_system_errno(db);
	switch (ext & 0xff) {
	case SQLITE_FULL:
	case SQLITE_READONLY:
	case SQLITE_CANTOPEN:
		return 1;
	case SQLITE_IOERR:
		return ext == SQLITE_IOERR_SHMOPEN ||
		    ext == SQLITE_IOERR_SHMSIZE || ext == SQLITE_IOERR_SHMMAP ||
		    e == ENOSPC || e == EDQUOT || e == EACCES || e == EPERM ||
		    e == EROFS;
	}
	return 0;
}

/* "file:" and path with every byte a URI could read otherwise escaped. */
static char *
file_uri(const char *path)
{
	static const char hex[] = "0123456789ABCDEF";
	const unsigned char	*p;
	char			*uri, *o;

	uri = o = xmalloc(sizeof "file:?immutable=1" + 3 * strlen(path));
	o += sprintf(o, "file:");
	for (p = (const unsigned char *)path; *p != '\0'; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || strchr("/-._~", *p) != NULL) {
			*o++ = (char)*p;
			continue;
		}
		*o++ = '%';
		*o++ = hex[*p >> 4];
		*o++ = hex[*p & 15];
	}
	strcpy(o, "?immutable=1");
	return uri;
}

int
sqlro_open_snapshot(const char *path, sqlite3 **out)
{
	struct stat	 sb;
	sqlite3		*db = NULL;
	char		*wal, *uri;
	int		 rc;

	*out = NULL;
	xasprintf(&wal, "%s-wal", path);
	rc = stat(wal, &sb);
	free(wal);
	if (rc == 0 && sb.st_size > 0)
		return SQLITE_BUSY;
	uri = file_uri(path);
	rc = sqlite3_open_v2(uri, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI,
	    NULL);
	free(uri);
	/* Opening is lazy: read the schema now, so a bad file fails here. */
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(db, "SELECT count(*) FROM sqlite_master",
		    NULL, NULL, NULL);
	if (rc != SQLITE_OK) {
		sqlite3_close(db);
		return rc;
	}
	*out = db;
	return SQLITE_OK;
}
