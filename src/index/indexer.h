/*
 * The indexing pipeline (DESIGN §2): scan -> parse -> validate -> trust ->
 * sanitiser flags -> duplicate precedence -> index.db. Incremental: a file
 * whose size and mtime (or, failing that, content hash) are unchanged is
 * not parsed again, as long as the settings that shape parsing are the
 * same; files that vanished are dropped; the database is rewritten in one
 * transaction only when something changed. An entry the scan did not see
 * is dropped only when the scan was complete (scan_complete()): after a
 * capped walk or with a required root missing, it is kept as it was
 * unless its file is known to be gone, so a limit or a typo never
 * empties the index.
 *
 * struct index_report is filled by indexer_run() and released with
 * index_report_done().
 */
#ifndef SR_INDEXER_H
#define SR_INDEXER_H

#include <stdint.h>

#include <cjson/cJSON.h>

#include "core/finding.h"
#include "index/scan.h"
#include "core/skill.h"
#include "store/store.h"
#include "core/validate.h"

struct config;
struct sanitizer;
struct trust;

#define INDEX_REBUILD	0x1	/* ignore what index.db holds */
#define INDEX_PROGRESS	0x2	/* progress on stderr */
#define INDEX_NOWRITE	0x4	/* validate only: never touch index.db */

struct index_report {
	size_t			 parsed;	/* parsed this run */
	size_t			 unchanged;	/* reused from index.db */
	size_t			 removed;	/* gone since the last run */
	size_t			 kept;		/* not seen, kept: see complete */
	int			 complete;	/* the scan saw every root whole */
	size_t			 total;		/* entries now in the index */
	size_t			 searchable;	/* winners without user-only */
	size_t			 by_kind[3];
	size_t			 by_tier[4];
	size_t			 flagged;	/* entries with sanitiser flags */
	int			 examples;	/* the bundled examples were used */
	int			 written;	/* index.db was rewritten */
	char			*digest;	/* of the resulting content (index.db's meta) */
	double			 duration_ms;
	struct store_rejects	 rejects;	/* every rejected or skipped file */
	struct findings		 warnings;	/* per-file warnings: "path<TAB>message" */
	struct scan_result	 scan;		/* roots and scan problems */
	struct skill_set	 set;		/* the resulting entries */
};

void	 index_report_init(struct index_report *);
void	 index_report_done(struct index_report *);

/*
 * Runs the pipeline over the configured roots (extra_projects: MCP client
 * roots, may be NULL) and, unless INDEX_NOWRITE, updates index.db at
 * cfg->index_path. san may be NULL (then one is built from cfg). Returns
 * 0 or an enum sr_status with *cause.
 */
int	 indexer_run(const struct config *, struct sanitizer *san,
	    const struct strlist *extra_projects, int flags,
	    struct index_report *, char **cause);

/*
 * Validates files and directories given on the command line (files are
 * classified by their path; directories are walked as roots). Fills rep
 * like indexer_run() with INDEX_NOWRITE.
 */
int	 indexer_validate_paths(const struct config *, struct sanitizer *san,
	    char **paths, int npaths, struct index_report *, char **cause);

/* The report as the documented index --json object. */
cJSON	*index_report_json(const struct index_report *);

/*
 * The rule ids the indexer and the scanner report themselves (the
 * frontmatter and validation ones are in validate_rules[]), terminated
 * by an entry with a NULL id.
 */
extern const struct validate_rule indexer_rules[];

/* Applies duplicate precedence over set: sets shadowed_by on the losers. */
void	 indexer_precedence(struct skill_set *);

/*
 * The digest of index.db's content (meta.digest) is the sum mod 2^64 of
 * one hash per entry line (uid, path, mtime, hash, trust, scope,
 * shadowed_by, flags, project), one per rejected file and one of the
 * settings fingerprint, written as 16 hex digits: a per-path update
 * subtracts the lines it drops and adds the ones it writes.
 */
uint64_t indexer_digest_entry(const struct skill *);
char	*indexer_digest_str(uint64_t);
int	 indexer_digest_parse(const char *, uint64_t *);

/*
 * A per-path update (hot reload): what changed below some paths, found
 * by the same scan rules and parsed by the same code as indexer_run().
 */
struct index_delta {
	struct skill_set	 up;		/* new or changed entries (owned) */
	struct strlist		 gone;		/* paths of entries gone */
	struct store_rejects	 rej;		/* files rejected now */
	struct strlist		 rej_gone;	/* rejected paths to drop */
	uint64_t		 rej_delta;	/* digest change of the rejects */
	struct findings		 warnings;	/* "path<TAB>message" */
	size_t			 parsed;
	size_t			 walked;	/* directories walked */
	double			 duration_ms;
	int			 full;		/* cannot: run indexer_run() */
	char			*why_full;
};

void	 index_delta_init(struct index_delta *);
void	 index_delta_done(struct index_delta *);

/*
 * Fills d with the changes below paths (files or directories that had
 * events; a path that is or was a directory is walked whole, a file's
 * directory otherwise) against cur, the entries st holds. Nothing is
 * written. Sets d->full (and d->why_full) when only indexer_run() can
 * tell: the settings changed, a root appeared or holds the path, a file
 * is reachable by a second path, a scan limit was hit, the bundled
 * examples are in use. san must be compiled. Returns 0 or an enum
 * sr_status with *cause.
 */
int	 indexer_scan_paths(const struct config *, struct sanitizer *san,
	    struct store *st, const struct skill_set *cur,
	    const struct strlist *paths, struct index_delta *d, char **cause);

#endif
