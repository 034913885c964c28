/*
 * Private to the store: what a backend provides (store_sqlite.c,
 * store_pg.c) and the helpers they share (store_base.c, a layer beneath
 * both and the dispatcher store.c). A backend's handle starts with
 * struct store; the ops table is its only entry point. Text
 * rows: every entry column as a string (NULL for SQL NULL) in the order
 * of STORE_ENTRY_COLS, which both backends bind and read the same way.
 * The name column holds the name as the author wrote it (skill_display());
 * an entry indexed under a normalised id has its id in the uid only, and
 * skill_split_display() separates the two on read.
 */
#ifndef SR_STORE_BACKEND_H
#define SR_STORE_BACKEND_H

#include <stdint.h>

#include "store/store.h"

#define STORE_ENTRY_COLS_(RP, ROOT, PL, UI, SZ, HASH, FM, FINDINGS, BUNDLE) \
	"uid, kind, name, path, " RP ", " ROOT ", scope, is_project, trust," \
	" description, when_to_use, tags, " PL ", requires_tools," \
	" fallback_for_tools, disable_model_invocation, " UI "," \
	" " SZ ", mtime_ns, " HASH ", warnings, flags, max_flag_sev, flag_ids," \
	" shadowed_by, " FM ", signature, risk, risk_sev, " FINDINGS "," \
	" " BUNDLE
#define STORE_ENTRY_COLS	STORE_ENTRY_COLS_("realpath", "root", \
	"platforms", "user_invocable", "size", "hash", "frontmatter", \
	"findings", "bundle")
/*
 * What a lean load (STORE_LEAN) selects: the same columns in the same
 * order, with NULL for those only the indexer, a load or a scan read: the
 * two large texts (frontmatter, findings), and what tells the indexer
 * whether a file changed or what it is (realpath, root, platforms,
 * user_invocable, size, hash, bundle). The database neither copies those
 * out nor follows their overflow pages, and each costs a column less.
 */
#define STORE_ENTRY_COLS_LEAN	STORE_ENTRY_COLS_("NULL", "NULL", "NULL", \
	"NULL", "NULL", "NULL", "NULL", "NULL", "NULL")
/* The SET list of an upsert on path (the same in both SQL dialects). */
#define STORE_UPSERT_SET \
	"uid = excluded.uid, kind = excluded.kind, name = excluded.name," \
	" realpath = excluded.realpath, root = excluded.root," \
	" scope = excluded.scope, is_project = excluded.is_project," \
	" trust = excluded.trust, description = excluded.description," \
	" when_to_use = excluded.when_to_use, tags = excluded.tags," \
	" platforms = excluded.platforms," \
	" requires_tools = excluded.requires_tools," \
	" fallback_for_tools = excluded.fallback_for_tools," \
	" disable_model_invocation = excluded.disable_model_invocation," \
	" user_invocable = excluded.user_invocable, size = excluded.size," \
	" mtime_ns = excluded.mtime_ns, hash = excluded.hash," \
	" warnings = excluded.warnings, flags = excluded.flags," \
	" max_flag_sev = excluded.max_flag_sev, flag_ids = excluded.flag_ids," \
	" shadowed_by = excluded.shadowed_by," \
	" frontmatter = excluded.frontmatter, signature = excluded.signature,"\
	" risk = excluded.risk, risk_sev = excluded.risk_sev," \
	" findings = excluded.findings, bundle = excluded.bundle," \
	" version = excluded.version," \
	" rowhash = excluded.rowhash"
#define STORE_NCOLS	31
/* Columns a backend may hand over as numbers (struct store_nums). */
#define STORE_COL_INTS \
	{ 7, 15, 16, 17, 18, 20, 21, 22, 28 }
#define STORE_COL_RISK	27
/*
 * store_count(): one row per (trust, winner, user-only) with its count,
 * integers 0/1 rather than booleans so both backends read them alike.
 */
#define STORE_COUNTS_SQL \
	"SELECT trust, CASE WHEN shadowed_by IS NULL THEN 1 ELSE 0 END," \
	" CASE WHEN disable_model_invocation <> 0 THEN 1 ELSE 0 END," \
	" CASE WHEN risk_sev >= 1 THEN 1 ELSE 0 END," \
	" count(*) FROM entries GROUP BY 1, 2, 3, 4"
#define STORE_COL_PATH	3

/*
 * The schema, one text for both backends (their migrations 0 -> 1,
 * 1 -> 2 and 2 -> 3): ID is the key column's type, INT64 a 64-bit
 * integer's, DOUBLE a double's. SQLite
 * creates meta in the first migration, PostgreSQL already before it (it
 * keeps the version there).
 */
#define STORE_SCHEMA_V1(ID, INT64) \
	"CREATE TABLE entries (" \
	"  id " ID "," \
	"  uid TEXT NOT NULL," \
	"  kind TEXT NOT NULL CHECK (kind IN ('skill','agent','command'))," \
	"  name TEXT NOT NULL," \
	"  path TEXT NOT NULL UNIQUE," \
	"  realpath TEXT NOT NULL," \
	"  root TEXT NOT NULL," \
	"  scope TEXT NOT NULL," \
	"  is_project INTEGER NOT NULL DEFAULT 0," \
	"  trust TEXT NOT NULL," \
	"  description TEXT NOT NULL," \
	"  when_to_use TEXT NOT NULL," \
	"  tags TEXT NOT NULL," \
	"  platforms TEXT NOT NULL," \
	"  requires_tools TEXT NOT NULL," \
	"  fallback_for_tools TEXT NOT NULL," \
	"  disable_model_invocation INTEGER NOT NULL," \
	"  user_invocable INTEGER NOT NULL," \
	"  size " INT64 " NOT NULL," \
	"  mtime_ns " INT64 " NOT NULL," \
	"  hash TEXT NOT NULL," \
	"  warnings INTEGER NOT NULL," \
	"  flags INTEGER NOT NULL," \
	"  max_flag_sev INTEGER NOT NULL," \
	"  flag_ids TEXT," \
	"  shadowed_by TEXT," \
	"  frontmatter TEXT" \
	");" \
	"CREATE INDEX entries_uid ON entries(uid);" \
	"CREATE TABLE rejected (" \
	"  path TEXT PRIMARY KEY," \
	"  size " INT64 " NOT NULL," \
	"  mtime_ns " INT64 " NOT NULL," \
	"  hash TEXT NOT NULL," \
	"  rule TEXT NOT NULL," \
	"  reason TEXT NOT NULL," \
	"  skipped INTEGER NOT NULL DEFAULT 0" \
	");" \
	"CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);"
#define STORE_SCHEMA_V2(INT64) \
	"ALTER TABLE entries ADD COLUMN version " INT64 " NOT NULL DEFAULT 0;" \
	"ALTER TABLE entries ADD COLUMN rowhash TEXT;" \
	"CREATE INDEX entries_version ON entries(version);" \
	"CREATE TABLE tombstones (path TEXT PRIMARY KEY," \
	"  version " INT64 " NOT NULL);" \
	"CREATE INDEX tombstones_version ON tombstones(version);" \
	"CREATE TABLE replicas (name TEXT PRIMARY KEY," \
	"  counter " INT64 " NOT NULL, seen " INT64 " NOT NULL);"
/* 2 -> 3: the folder's signature check (sign.h), JSON; NULL: unsigned. */
#define STORE_SCHEMA_V3 \
	"ALTER TABLE entries ADD COLUMN signature TEXT;"
/*
 * 3 -> 4: the assessment of an entry (assess.h): its risk score and
 * severity, every finding (JSON, with file and line) and the stamp of its
 * bundled files. Rows of an older index get none; the indexer's
 * fingerprint (ASSESS_VERSION) re-parses them on the next run. DOUBLE is
 * a double's type.
 */
#define STORE_SCHEMA_V4(DOUBLE) \
	"ALTER TABLE entries ADD COLUMN risk " DOUBLE " NOT NULL DEFAULT 0;" \
	"ALTER TABLE entries ADD COLUMN risk_sev INTEGER NOT NULL DEFAULT 0;" \
	"ALTER TABLE entries ADD COLUMN findings TEXT;" \
	"ALTER TABLE entries ADD COLUMN bundle TEXT NOT NULL DEFAULT '';"

/* One entry as text, ready to bind; filled by store_row_fill(). */
struct store_row {
	const char	*v[STORE_NCOLS];
	char		*lists[4];	/* owned JSON texts */
	char		 num[10][24];
	char		 rowhash[17];	/* of every column: is it unchanged? */
};

/* A stored entry's path and rowhash, for the diff a replace writes. */
struct store_old {
	char	*path;
	char	 rowhash[17];
	int	 seen;
};

struct store_olds {
	struct store_old	*v;
	size_t			 n;
	size_t			 cap;
};

struct store_ops {
	const char	*name;
	void	(*close)(struct store *);
	/* flags: STORE_LEAN selects STORE_ENTRY_COLS_LEAN */
	int	(*load)(struct store *, struct skill_set *, int, char **);
	/* one entry by path (all columns), or *out NULL when there is none */
	int	(*get)(struct store *, const char *, struct skill **, char **);
	int	(*load_rejects)(struct store *, struct store_rejects *, char **);
	/* store_count: each STORE_COUNTS_SQL row to store_counts_add() */
	int	(*count)(struct store *, struct store_counts *, char **);
	/*
	 * A read in one snapshot (store_changes): begin, the entries and
	 * the tombstoned paths with version > since, end.
	 */
	int	(*begin_read)(struct store *, char **);
	int	(*since)(struct store *, int64_t, struct skill_set *, char **);
	int	(*tombs)(struct store *, int64_t, struct strlist *, char **);
	void	(*end_read)(struct store *);
	/* A write: begin (locks out other writers), the stored rows, ... */
	int	(*begin_write)(struct store *, char **);
	int	(*olds)(struct store *, struct store_olds *, char **);
	int	(*put)(struct store *, const struct store_row *, int64_t version,
		    char **);
	int	(*drop)(struct store *, const char *path, int64_t version,
		    char **);
	/* replace: delete every rejected row first, else upsert by path */
	int	(*put_rejects)(struct store *, const struct store_rejects *,
		    int replace, char **);
	int	(*drop_reject)(struct store *, const char *path, char **);
	int	(*prune)(struct store *, int64_t floor, char **);
	/* commit (notify: the counter to announce, 0 none) or roll back */
	int	(*end_write)(struct store *, int commit, int64_t notify, char **);
	int	(*listen)(struct store *, char **);
	int	(*wait)(struct store *, int, int, char **);
	int	(*report)(struct store *, const char *, int64_t, int64_t,
		    char **);
	int	(*replicas)(struct store *, struct store_replica **, size_t *,
		    char **);
	char	*(*meta_get)(struct store *, const char *);
	int	(*meta_set)(struct store *, const char *, const char *, char **);
};

struct store {
	const struct store_ops	*ops;
	char			*where;		/* path or DSN without password */
	int64_t			 tomb_versions;
};

void	 store_base_init(struct store *, const struct store_ops *,
	    const char *where);
void	 store_base_done(struct store *);

void	 store_row_fill(struct store_row *, const struct skill *);
void	 store_row_done(struct store_row *);
/*
 * One entry as read: every column as text (v, NULL for SQL NULL), or,
 * when typed is set, the numeric columns as numbers instead (i[] at the
 * STORE_COL_INTS positions, risk), which spares SQLite the conversion to
 * text and us the parse back.
 */
struct store_in {
	const char	*v[STORE_NCOLS];
	int64_t		 i[STORE_NCOLS];
	double		 risk;
	int		 typed;
};

/* A new entry from a row, or NULL when uid, name or path is missing. */
struct skill *store_row_skill(const struct store_in *);

void	 store_olds_add(struct store_olds *, const char *path,
	    const char *rowhash);
void	 store_olds_done(struct store_olds *);

/*
 * Adds one STORE_COUNTS_SQL row (its text columns: trust, winner 0/1,
 * user-only 0/1, flagged 0/1 (risk at warn or above), count) to c, so
 * both backends map a trust name to a tier the way store_row_skill()
 * does.
 */
void	 store_counts_add(struct store_counts *c, const char *trust,
	    const char *winner, const char *user_only, const char *flagged,
	    const char *n);

#endif
