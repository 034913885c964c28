/*
 * The indexing pipeline (DESIGN §2): scan -> parse -> validate -> trust ->
 * sanitiser flags -> duplicate precedence -> index.db. Incremental: a file
 * whose size and mtime (or, failing that, content hash) are unchanged is
 * not parsed again, as long as the settings that shape parsing are the
 * same; files that vanished are dropped; the database is rewritten in one
 * transaction only when something changed.
 *
 * struct index_report is filled by indexer_run() and released with
 * index_report_done().
 */
#ifndef SR_INDEXER_H
#define SR_INDEXER_H

#include <cjson/cJSON.h>

#include "finding.h"
#include "scan.h"
#include "skill.h"
#include "store.h"
#include "validate.h"

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

#endif
