/*
 * Discovery: walks the roots and classifies files by path shape
 * (DESIGN §6): a SKILL.md at any depth is a skill, agents/NAME.md an agent,
 * commands/[DIR/...]NAME.md a command. Symlinked files and directories are
 * followed with cycle detection; a file reachable twice is reported once
 * (first root wins, roots in priority order). Directories named in
 * scan.exclude_dirs are skipped below a root; dot-folders are not.
 * Markdown files inside a skill folder are bundled files, never agents or
 * commands. Caps (limits.max_depth, limits.max_entries) are reported as
 * findings when hit, and mark the result capped: what lies beyond was not
 * seen, so a caller must not take its absence for a deletion. A configured
 * root that is not one of the defaults is required: when it is missing,
 * the scan is not complete either. A SKILL.md (or agent, command) that is not a
 * regular file (a FIFO, a device) is an item with special set, never
 * opened.
 *
 * struct scan_result owns everything in it; scan_result_done() frees it.
 */
#ifndef SR_SCAN_H
#define SR_SCAN_H

#include <stdint.h>
#include <sys/types.h>

#include "core/finding.h"
#include "core/skill.h"
#include "base/idset.h"
#include "base/strlist.h"

struct config;

struct scan_root {
	char		*path;		/* expanded, as configured */
	int		 is_project;	/* a root of the current project */
	int		 is_example;	/* the bundled example skills */
	int		 exists;
	int		 required;	/* configured, not a default root */
	size_t		 n_found;	/* entries found under it */
	char		*problem;	/* why it was not walked, or NULL */
};

struct scan_item {
	char		*path;		/* absolute, as discovered */
	char		*realpath;
	const struct scan_root *root;	/* borrowed from the result */
	enum skill_kind	 kind;
	char		*fallback;	/* directory name (skill) or file stem */
	char		*ns;		/* command namespace "dir:sub", or NULL */
	int64_t		 size;
	int64_t		 mtime_ns;
	const char	*special;	/* "FIFO", ... when not a regular file */
};

struct scan_result {
	struct scan_root	*roots;
	size_t			 n_roots;
	struct idset		 root_ids;	/* dev/ino of the roots that exist */
	struct scan_item	*items;
	size_t			 n_items;
	size_t			 items_cap;
	size_t			 entries_seen;	/* directory entries looked at */
	size_t			 skipped;	/* past limits.max_entries */
	int			 capped;	/* a limit stopped the walk */
	struct findings		 problems;	/* line 0; message names the path */
};

/*
 * Builds the root list: cfg->paths in order, then (cfg->project_roots)
 * the current project's .claude/{skills,agents,commands} and .agents/skills
 * from the working directory up to the git root. Roots with the same real
 * path are merged (first kept). extra_projects adds project directories
 * (MCP client roots) the same way; may be NULL.
 */
void	 scan_roots(const struct config *, const struct strlist *extra_projects,
	    struct scan_result *);

/* Walks every root of res (after scan_roots()). */
void	 scan_walk(const struct config *, struct scan_result *);

/*
 * Walks only the directory relsub ("a/b", relative to root number root of
 * res; "" for the whole root) with the same rules as scan_walk(), without
 * listing the directories above it; items are appended to res. Files
 * reachable twice are only detected within this walk. Returns -1 when a
 * limit (limits.max_entries, limits.max_depth) was hit, else 0.
 */
int	 scan_walk_under(const struct config *, struct scan_result *,
	    size_t root, const char *relsub);

/*
 * 1 when the walk saw everything it was asked to: no limit stopped it
 * and every required root exists. Absence from an incomplete scan proves
 * nothing about a file.
 */
int	 scan_complete(const struct scan_result *);

/*
 * Adds a scan-root-missing finding for each required root that does not
 * exist (doctor lists the roots itself; index reports them this way).
 */
void	 scan_report_missing(struct scan_result *);

/* Adds one root (used for the bundled examples). */
void	 scan_add_root(struct scan_result *, const char *path, int is_project,
	    int is_example);

void	 scan_result_init(struct scan_result *);
void	 scan_result_done(struct scan_result *);

/*
 * What a file of this mode is, for a message ("a FIFO", "a character
 * device"), or NULL for a regular file: only a regular file is read.
 */
const char *scan_special(mode_t);

/* Classifies a path relative to its root; -1 when it is not an entry. */
int	 scan_classify(const char *relpath, char **fallback, char **ns);

#endif
