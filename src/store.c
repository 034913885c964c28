#include "autoconfig.h"

#include <sys/stat.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <sqlite3.h>

#include "buf.h"
#include "status.h"
#include "store.h"
#include "xmalloc.h"

struct store {
	sqlite3		*db;
	char		*path;
};

static const char *migrations[] = {
	/* 0 -> 1 */
	"CREATE TABLE entries ("
	"  id INTEGER PRIMARY KEY,"
	"  uid TEXT NOT NULL,"
	"  kind TEXT NOT NULL CHECK (kind IN ('skill','agent','command')),"
	"  name TEXT NOT NULL,"
	"  path TEXT NOT NULL UNIQUE,"
	"  realpath TEXT NOT NULL,"
	"  root TEXT NOT NULL,"
	"  scope TEXT NOT NULL,"
	"  is_project INTEGER NOT NULL DEFAULT 0,"
	"  trust TEXT NOT NULL,"
	"  description TEXT NOT NULL,"
	"  when_to_use TEXT NOT NULL,"
	"  tags TEXT NOT NULL,"
	"  platforms TEXT NOT NULL,"
	"  requires_tools TEXT NOT NULL,"
	"  fallback_for_tools TEXT NOT NULL,"
	"  disable_model_invocation INTEGER NOT NULL,"
	"  user_invocable INTEGER NOT NULL,"
	"  size INTEGER NOT NULL,"
	"  mtime_ns INTEGER NOT NULL,"
	"  hash TEXT NOT NULL,"
	"  warnings INTEGER NOT NULL,"
	"  flags INTEGER NOT NULL,"
	"  max_flag_sev INTEGER NOT NULL,"
	"  flag_ids TEXT,"
	"  shadowed_by TEXT,"
	"  frontmatter TEXT"
	");"
	"CREATE INDEX entries_uid ON entries(uid);"
	"CREATE TABLE rejected ("
	"  path TEXT PRIMARY KEY,"
	"  size INTEGER NOT NULL,"
	"  mtime_ns INTEGER NOT NULL,"
	"  hash TEXT NOT NULL,"
	"  rule TEXT NOT NULL,"
	"  reason TEXT NOT NULL,"
	"  skipped INTEGER NOT NULL DEFAULT 0"
	");"
	"CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);"
};

void
store_rejects_init(struct store_rejects *r)
{
	memset(r, 0, sizeof *r);
}

void
store_rejects_done(struct store_rejects *r)
{
	size_t	 i;

	for (i = 0; i < r->n; i++) {
		free(r->v[i].path);
		free(r->v[i].rule);
		free(r->v[i].reason);
	}
	free(r->v);
	store_rejects_init(r);
}

void
store_rejects_add(struct store_rejects *r, const char *path, int64_t size,
    int64_t mtime_ns, const char *hash, const char *rule, const char *reason,
    int skipped)
{
	struct store_reject	*it;

	if (r->n == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 16;
		r->v = xreallocarray(r->v, r->cap, sizeof *r->v);
	}
	it = &r->v[r->n++];
	it->path = xstrdup(path);
	it->size = size;
	it->mtime_ns = mtime_ns;
	snprintf(it->hash, sizeof it->hash, "%s", hash != NULL ? hash : "");
	it->rule = xstrdup(rule);
	it->reason = xstrdup(reason);
	it->skipped = skipped;
}

static int
db_fail(struct store *st, const char *what, char **cause)
{
	xasprintf(cause, "%s: %s: %s", st->path, what, sqlite3_errmsg(st->db));
	return SR_IO;
}

static int
exec(struct store *st, const char *sql, char **cause)
{
	char	*msg = NULL;

	if (sqlite3_exec(st->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		xasprintf(cause, "%s: %s", st->path, msg ? msg : "error");
		sqlite3_free(msg);
		return SR_IO;
	}
	return 0;
}

static int
migrate(struct store *st, char **cause)
{
	sqlite3_stmt	*stmt;
	int		 v = 0, rv, n;
	char		 sql[64];

	n = (int)(sizeof migrations / sizeof migrations[0]);
	if (sqlite3_prepare_v2(st->db, "PRAGMA user_version", -1, &stmt,
	    NULL) != SQLITE_OK)
		return db_fail(st, "reading the schema version", cause);
	if (sqlite3_step(stmt) == SQLITE_ROW)
		v = sqlite3_column_int(stmt, 0);
	sqlite3_finalize(stmt);
	if (v == n)
		return 0;
	if (v > n) {
		xasprintf(cause, "%s: schema version %d is newer than this "
		    "program's %d: upgrade skills-radar or remove the file",
		    st->path, v, n);
		return SR_IO;
	}
	if ((rv = exec(st, "BEGIN IMMEDIATE", cause)) != 0)
		return rv;
	for (; v < n; v++) {
		if ((rv = exec(st, migrations[v], cause)) != 0) {
			exec(st, "ROLLBACK", NULL);
			return rv;
		}
	}
	snprintf(sql, sizeof sql, "PRAGMA user_version = %d", n);
	if ((rv = exec(st, sql, cause)) != 0) {
		exec(st, "ROLLBACK", NULL);
		return rv;
	}
	return exec(st, "COMMIT", cause);
}

int
store_open(const char *path, int readonly, struct store **out, char **cause)
{
	struct store	*st;
	int		 flags, rv;

	*out = NULL;
	if (readonly && access(path, F_OK) == -1) {
		xasprintf(cause, "%s: no index yet (run 'skills-radar index')",
		    path);
		return SR_NOTFOUND;
	}
	if (!readonly && buf_mkparents(path, 0700) == -1) {
		xasprintf(cause, "%s: cannot create its directory: %s", path,
		    strerror(errno));
		return SR_IO;
	}
	st = xcalloc(1, sizeof *st);
	st->path = xstrdup(path);
	flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_FULLMUTEX;
	if (!readonly)
		flags |= SQLITE_OPEN_CREATE;
	if (sqlite3_open_v2(path, &st->db, flags, NULL) != SQLITE_OK) {
		rv = db_fail(st, "cannot open", cause);
		store_close(st);
		return rv;
	}
	sqlite3_busy_timeout(st->db, 5000);
	if ((rv = exec(st, "PRAGMA journal_mode=WAL", cause)) != 0 ||
	    (rv = exec(st, "PRAGMA synchronous=NORMAL", cause)) != 0 ||
	    (rv = migrate(st, cause)) != 0) {
		store_close(st);
		return rv;
	}
	*out = st;
	return 0;
}

void
store_close(struct store *st)
{
	if (st == NULL)
		return;
	sqlite3_close(st->db);
	free(st->path);
	free(st);
}

static char *
list_json(const struct strlist *l)
{
	cJSON	*a;
	char	*s;
	size_t	 i;

	a = cJSON_CreateArray();
	for (i = 0; i < l->n; i++)
		cJSON_AddItemToArray(a, cJSON_CreateString(l->v[i]));
	s = cJSON_PrintUnformatted(a);
	cJSON_Delete(a);
	return s;
}

/*
 * The lists are written by list_json() (cJSON, unformatted): ["a","b"].
 * Plain ones (no escapes, no control characters, nothing around the
 * brackets) are cut out directly; anything else goes through cJSON, so
 * both paths give the same strings.
 */
static int
list_is_plain(const char *t)
{
	if (*t++ != '[')
		return 0;
	if (*t == ']')
		return t[1] == '\0';
	for (;;) {
		if (*t++ != '"')
			return 0;
		for (; *t != '"'; t++)
			if (*t == '\\' || (unsigned char)*t < 0x20)
				return 0;	/* an escape, control, NUL */
		t++;
		if (*t == ']')
			return t[1] == '\0';
		if (*t++ != ',')
			return 0;
	}
}

static void
list_add_plain(struct strlist *l, const char *t)
{
	const char	*q;

	for (t++; *t == '"'; t = q + 2) {
		q = strchr(t + 1, '"');
		strlist_add_take(l, xstrndup(t + 1, (size_t)(q - t - 1)));
	}
}

static void
list_parse(struct strlist *l, const unsigned char *text)
{
	cJSON	*a, *it;

	if (text == NULL)
		return;
	if (list_is_plain((const char *)text)) {
		list_add_plain(l, (const char *)text);
		return;
	}
	if ((a = cJSON_Parse((const char *)text)) == NULL)
		return;
	cJSON_ArrayForEach(it, a) {
		if (cJSON_IsString(it))
			strlist_add(l, it->valuestring);
	}
	cJSON_Delete(a);
}

static char *
col_str(sqlite3_stmt *stmt, int i)
{
	const unsigned char	*t = sqlite3_column_text(stmt, i);

	return t != NULL ? xstrdup((const char *)t) : NULL;
}

#define ENTRY_COLS \
	"uid, kind, name, path, realpath, root, scope, is_project, trust," \
	" description, when_to_use, tags, platforms, requires_tools," \
	" fallback_for_tools, disable_model_invocation, user_invocable," \
	" size, mtime_ns, hash, warnings, flags, max_flag_sev, flag_ids," \
	" shadowed_by, frontmatter"

int
store_load(struct store *st, struct skill_set *set, char **cause)
{
	sqlite3_stmt	*stmt;
	struct skill	*s;
	char		*t;
	int		 rc;

	/*
	 * Read through a mapping for this scan (no copy per page); it is
	 * switched off again so that writers never run with one.
	 */
	sqlite3_exec(st->db, "PRAGMA mmap_size=268435456", NULL, NULL, NULL);
	if (sqlite3_prepare_v2(st->db, "SELECT id, " ENTRY_COLS
	    " FROM entries ORDER BY id", -1, &stmt, NULL) != SQLITE_OK) {
		sqlite3_exec(st->db, "PRAGMA mmap_size=0", NULL, NULL, NULL);
		return db_fail(st, "reading entries", cause);
	}
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		s = skill_new();
		s->id = sqlite3_column_int64(stmt, 0);
		s->uid = col_str(stmt, 1);
		t = col_str(stmt, 2);
		s->kind = kind_from_name(t) >= 0 ? (enum skill_kind)kind_from_name(t) :
		    KIND_SKILL;
		free(t);
		s->name = col_str(stmt, 3);
		s->path = col_str(stmt, 4);
		s->realpath = col_str(stmt, 5);
		s->root = col_str(stmt, 6);
		s->scope = col_str(stmt, 7);
		s->is_project = sqlite3_column_int(stmt, 8);
		t = col_str(stmt, 9);
		s->trust = tier_from_name(t) >= 0 ? (enum trust_tier)tier_from_name(t) :
		    TIER_UNTRUSTED;
		free(t);
		s->description = col_str(stmt, 10);
		s->when_to_use = col_str(stmt, 11);
		list_parse(&s->tags, sqlite3_column_text(stmt, 12));
		list_parse(&s->platforms, sqlite3_column_text(stmt, 13));
		list_parse(&s->requires_tools, sqlite3_column_text(stmt, 14));
		list_parse(&s->fallback_for_tools, sqlite3_column_text(stmt, 15));
		s->disable_model_invocation = sqlite3_column_int(stmt, 16);
		s->user_invocable = sqlite3_column_int(stmt, 17);
		s->size = sqlite3_column_int64(stmt, 18);
		s->mtime_ns = sqlite3_column_int64(stmt, 19);
		snprintf(s->hash, sizeof s->hash, "%s",
		    (const char *)sqlite3_column_text(stmt, 20));
		s->n_warnings = sqlite3_column_int(stmt, 21);
		s->n_flags = sqlite3_column_int(stmt, 22);
		s->max_flag_sev = sqlite3_column_int(stmt, 23);
		s->flag_ids = col_str(stmt, 24);
		s->shadowed_by = col_str(stmt, 25);
		s->frontmatter = col_str(stmt, 26);
		if (s->uid == NULL || s->name == NULL || s->path == NULL) {
			skill_free(s);
			continue;
		}
		if (s->description == NULL)
			s->description = xstrdup("");
		if (s->when_to_use == NULL)
			s->when_to_use = xstrdup("");
		if (s->realpath == NULL)
			s->realpath = xstrdup(s->path);
		if (s->root == NULL)
			s->root = xstrdup("");
		if (s->scope == NULL)
			s->scope = xstrdup("other");
		skill_set_add(set, s);
	}
	sqlite3_finalize(stmt);
	if (rc != SQLITE_DONE) {
		rc = db_fail(st, "reading entries", cause);
		sqlite3_exec(st->db, "PRAGMA mmap_size=0", NULL, NULL, NULL);
		return rc;
	}
	sqlite3_exec(st->db, "PRAGMA mmap_size=0", NULL, NULL, NULL);
	return 0;
}

int
store_load_rejects(struct store *st, struct store_rejects *r, char **cause)
{
	sqlite3_stmt	*stmt;
	int		 rc;

	if (sqlite3_prepare_v2(st->db, "SELECT path, size, mtime_ns, hash,"
	    " rule, reason, skipped FROM rejected ORDER BY path", -1, &stmt,
	    NULL) != SQLITE_OK)
		return db_fail(st, "reading rejected files", cause);
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		store_rejects_add(r, (const char *)sqlite3_column_text(stmt, 0),
		    sqlite3_column_int64(stmt, 1), sqlite3_column_int64(stmt, 2),
		    (const char *)sqlite3_column_text(stmt, 3),
		    (const char *)sqlite3_column_text(stmt, 4),
		    (const char *)sqlite3_column_text(stmt, 5),
		    sqlite3_column_int(stmt, 6));
	}
	sqlite3_finalize(stmt);
	if (rc != SQLITE_DONE)
		return db_fail(st, "reading rejected files", cause);
	return 0;
}

static void
bind_text(sqlite3_stmt *stmt, int i, const char *s)
{
	if (s == NULL)
		sqlite3_bind_null(stmt, i);
	else
		sqlite3_bind_text(stmt, i, s, -1, SQLITE_TRANSIENT);
}

static int
put_entry(sqlite3_stmt *stmt, const struct skill *s)
{
	char	*tags, *plat, *req, *fb;
	int	 rc;

	tags = list_json(&s->tags);
	plat = list_json(&s->platforms);
	req = list_json(&s->requires_tools);
	fb = list_json(&s->fallback_for_tools);
	sqlite3_reset(stmt);
	sqlite3_clear_bindings(stmt);
	bind_text(stmt, 1, s->uid);
	bind_text(stmt, 2, kind_name(s->kind));
	bind_text(stmt, 3, s->name);
	bind_text(stmt, 4, s->path);
	bind_text(stmt, 5, s->realpath);
	bind_text(stmt, 6, s->root);
	bind_text(stmt, 7, s->scope);
	sqlite3_bind_int(stmt, 8, s->is_project);
	bind_text(stmt, 9, tier_name(s->trust));
	bind_text(stmt, 10, s->description != NULL ? s->description : "");
	bind_text(stmt, 11, s->when_to_use != NULL ? s->when_to_use : "");
	bind_text(stmt, 12, tags);
	bind_text(stmt, 13, plat);
	bind_text(stmt, 14, req);
	bind_text(stmt, 15, fb);
	sqlite3_bind_int(stmt, 16, s->disable_model_invocation);
	sqlite3_bind_int(stmt, 17, s->user_invocable);
	sqlite3_bind_int64(stmt, 18, s->size);
	sqlite3_bind_int64(stmt, 19, s->mtime_ns);
	bind_text(stmt, 20, s->hash);
	sqlite3_bind_int(stmt, 21, s->n_warnings);
	sqlite3_bind_int(stmt, 22, s->n_flags);
	sqlite3_bind_int(stmt, 23, s->max_flag_sev);
	bind_text(stmt, 24, s->flag_ids);
	bind_text(stmt, 25, s->shadowed_by);
	bind_text(stmt, 26, s->frontmatter);
	rc = sqlite3_step(stmt);
	cJSON_free(tags);
	cJSON_free(plat);
	cJSON_free(req);
	cJSON_free(fb);
	return rc == SQLITE_DONE ? 0 : -1;
}

static int
put_reject(sqlite3_stmt *rins, const struct store_reject *r)
{
	sqlite3_reset(rins);
	bind_text(rins, 1, r->path);
	sqlite3_bind_int64(rins, 2, r->size);
	sqlite3_bind_int64(rins, 3, r->mtime_ns);
	bind_text(rins, 4, r->hash);
	bind_text(rins, 5, r->rule);
	bind_text(rins, 6, r->reason);
	sqlite3_bind_int(rins, 7, r->skipped);
	return sqlite3_step(rins) == SQLITE_DONE ? 0 : -1;
}

/* replace: an entry replaces the row with its path (else a duplicate fails). */
static int
prepare_puts(struct store *st, int replace, sqlite3_stmt **ins,
    sqlite3_stmt **rins, char **cause)
{
	if (sqlite3_prepare_v2(st->db, replace ? "INSERT OR REPLACE INTO "
	    "entries (" ENTRY_COLS ") VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,"
	    "?,?,?,?,?,?,?,?,?,?)" : "INSERT INTO entries (" ENTRY_COLS
	    ") VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
	    -1, ins, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(st->db, "INSERT OR REPLACE INTO rejected (path,"
	    " size, mtime_ns, hash, rule, reason, skipped) VALUES"
	    " (?,?,?,?,?,?,?)", -1, rins, NULL) != SQLITE_OK)
		return db_fail(st, "preparing the index update", cause);
	return 0;
}

/* Writes the entries and rejects, then meta.digest, then commits. */
static int
put_all(struct store *st, int replace, struct skill *const *v, size_t n,
    const struct store_rejects *rej, const char *digest, char **cause)
{
	sqlite3_stmt	*ins = NULL, *rins = NULL;
	size_t		 i;
	int		 rv;

	if ((rv = prepare_puts(st, replace, &ins, &rins, cause)) != 0)
		goto fail;
	for (i = 0; i < n; i++) {
		if (put_entry(ins, v[i]) == -1) {
			rv = db_fail(st, v[i]->path, cause);
			goto fail;
		}
	}
	for (i = 0; rej != NULL && i < rej->n; i++) {
		if (put_reject(rins, &rej->v[i]) == -1) {
			rv = db_fail(st, rej->v[i].path, cause);
			goto fail;
		}
	}
	sqlite3_finalize(ins);
	sqlite3_finalize(rins);
	ins = rins = NULL;
	if (digest != NULL &&
	    (rv = store_meta_set(st, "digest", digest, cause)) != 0)
		goto fail;
	return exec(st, "COMMIT", cause);
fail:
	sqlite3_finalize(ins);
	sqlite3_finalize(rins);
	exec(st, "ROLLBACK", NULL);
	return rv;
}

int
store_replace(struct store *st, const struct skill_set *set,
    const struct store_rejects *rej, const char *digest, char **cause)
{
	int	 rv;

	if ((rv = exec(st, "BEGIN IMMEDIATE", cause)) != 0)
		return rv;
	if ((rv = exec(st, "DELETE FROM entries; DELETE FROM rejected;",
	    cause)) != 0) {
		exec(st, "ROLLBACK", NULL);
		return rv;
	}
	return put_all(st, 0, set->v, set->n, rej, digest, cause);
}

static int
delete_paths(struct store *st, const char *sql, const char *const *paths,
    size_t n, char **cause)
{
	sqlite3_stmt	*del;
	size_t		 i;

	if (sqlite3_prepare_v2(st->db, sql, -1, &del, NULL) != SQLITE_OK)
		return db_fail(st, "preparing the index update", cause);
	for (i = 0; i < n; i++) {
		sqlite3_reset(del);
		bind_text(del, 1, paths[i]);
		if (sqlite3_step(del) != SQLITE_DONE) {
			sqlite3_finalize(del);
			return db_fail(st, paths[i], cause);
		}
	}
	sqlite3_finalize(del);
	return 0;
}

int
store_update(struct store *st, const struct store_delta *d,
    const char *expect, const char *digest, int *stale, char **cause)
{
	char	*now;
	int	 rv;

	*stale = 0;
	if ((rv = exec(st, "BEGIN IMMEDIATE", cause)) != 0)
		return rv;
	if (expect != NULL) {
		now = store_meta_get(st, "digest");
		*stale = now == NULL || strcmp(now, expect) != 0;
		free(now);
		if (*stale)
			return exec(st, "ROLLBACK", cause);
	}
	if ((rv = delete_paths(st, "DELETE FROM entries WHERE path = ?",
	    d->gone, d->ngone, cause)) != 0 ||
	    (rv = delete_paths(st, "DELETE FROM rejected WHERE path = ?",
	    d->rej_gone, d->nrej_gone, cause)) != 0) {
		exec(st, "ROLLBACK", NULL);
		return rv;
	}
	return put_all(st, 1, d->up, d->nup, d->rej, digest, cause);
}

char *
store_meta_get(struct store *st, const char *key)
{
	sqlite3_stmt	*stmt;
	char		*v = NULL;

	if (sqlite3_prepare_v2(st->db, "SELECT value FROM meta WHERE key = ?",
	    -1, &stmt, NULL) != SQLITE_OK)
		return NULL;
	sqlite3_bind_text(stmt, 1, key, -1, SQLITE_STATIC);
	if (sqlite3_step(stmt) == SQLITE_ROW)
		v = col_str(stmt, 0);
	sqlite3_finalize(stmt);
	return v;
}

int
store_meta_set(struct store *st, const char *key, const char *value,
    char **cause)
{
	sqlite3_stmt	*stmt;
	int		 rc;

	if (sqlite3_prepare_v2(st->db, "INSERT OR REPLACE INTO meta (key,"
	    " value) VALUES (?, ?)", -1, &stmt, NULL) != SQLITE_OK)
		return db_fail(st, "writing meta", cause);
	sqlite3_bind_text(stmt, 1, key, -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, 2, value, -1, SQLITE_STATIC);
	rc = sqlite3_step(stmt);
	sqlite3_finalize(stmt);
	if (rc != SQLITE_DONE)
		return db_fail(st, "writing meta", cause);
	return 0;
}
