/*
 * sqlro: what the SQLite files (index.db, stats.db) share when a
 * database cannot be used as usual: a read-only snapshot when its -shm
 * cannot be created or grown (a full disk, a read-only directory), and
 * the words of an error a user acts on ("disk full").
 *
 * Ownership: sqlro_open_snapshot() hands over a connection the caller
 * closes with sqlite3_close(). sqlro_why() returns a string owned by
 * SQLite or static, valid until the next call on that connection.
 */
#ifndef SR_SQLRO_H
#define SR_SQLRO_H

#include <sqlite3.h>

/*
 * The reason of db's last error: "disk full" when SQLite or the system
 * said so (SQLITE_FULL, ENOSPC, EDQUOT: also a -shm that cannot grow,
 * which SQLite calls "disk I/O error"), else msg when not NULL, else
 * sqlite3_errmsg(db).
 */
const char	*sqlro_why(sqlite3 *db, const char *msg);

/*
 * 1 when db's last error says the file cannot be written or its -shm
 * cannot be made (no space, no permission, a read-only file system):
 * then a reader may still read it through sqlro_open_snapshot(). 0 for
 * anything else (busy, corrupt, not a database), which a snapshot would
 * not cure.
 */
int		 sqlro_fallback(sqlite3 *db);

/*
 * Opens path read-only as an immutable snapshot: no lock, no -wal, no
 * -shm, so it works on a full disk or in a read-only directory. Only when
 * no write-ahead log holds rows yet (path-wal absent or empty), since an
 * immutable reader does not see them; then the file is the whole
 * database. Returns SQLITE_OK and *out, or an SQLite error code (also
 * SQLITE_BUSY for a log with rows) with *out NULL.
 */
int		 sqlro_open_snapshot(const char *path, sqlite3 **out);

/* strerror(e), but "disk full" for ENOSPC and EDQUOT, as sqlro_why(). */
const char	*sqlro_strerror(int e);

#endif
