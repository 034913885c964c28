/*
 * Imported collections: public skill collections brought in as UNTRUSTED,
 * each looked at before anything is added (issue 22).
 *
 * A collection lives in <data dir>/imports/NAME/ (a default root, so the
 * index picks it up, and UNTRUSTED by its path): one folder per accepted
 * skill, plus .import.json, the record of where it came from (source,
 * subpath, ref, commit) and what was accepted (each skill's folder, the
 * digest of its files, its risk and signer at import time).
 *
 * import_fetch() brings a source into a temporary folder (a shallow git
 * clone, or a local folder read in place); import_discover() finds its
 * skills and assesses each (risk score, findings, signer) before anything
 * is copied; import_plan() compares them with a collection's record
 * (new, changed, removed, risk changes); import_apply() copies the
 * accepted folders and writes the record. The command (cmd_import.c)
 * decides what is accepted.
 */
#ifndef SR_IMPORT_H
#define SR_IMPORT_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "core/finding.h"
#include "safety/sanitize.h"
#include "base/strlist.h"

struct config;
struct trust;

/* Bounds on a source: skills found, and bytes copied per skill. */
#define IMPORT_MAX_SKILLS	2000
#define IMPORT_MAX_DEPTH	12
#define IMPORT_MAX_COPY		(64u << 20)

enum import_change {
	IMPORT_NEW = 0,		/* not in the collection yet */
	IMPORT_CHANGED,		/* in it, with other files */
	IMPORT_SAME,		/* in it, unchanged */
	IMPORT_REMOVED		/* in it, gone from the source */
};

struct import_skill {
	char		*name;		/* frontmatter name, else folder name */
	char		*dir;		/* folder name inside the collection */
	char		*src;		/* absolute folder in the source */
	char		*rel;		/* folder relative to the source root */
	char		 digest[65];	/* SHA-256 of its files' manifest */
	struct findings	 findings;
	struct risk	 risk;
	char		*signer;	/* trust.signers name, or NULL */
	char		*sign_status;	/* sign_status_name(), "unsigned" */
	enum import_change change;
	double		 old_score;	/* the record's, for IMPORT_CHANGED */
	int		 old_sev;	/* -1: none */
	int		 accept;	/* set by the command */
};

struct import_set {
	struct import_skill	*v;
	size_t			 n;
};

void	 import_set_done(struct import_set *);

/* The collections folder, <data dir>/imports (allocated). */
char	*import_root(void);

/*
 * A valid collection name: 1..64 of [a-z0-9._-], not starting with '.'.
 * Derives one from a source (its last path component, ".git" removed)
 * into a new string, or NULL when none can be made.
 */
int	 import_name_valid(const char *);
char	*import_name_from_source(const char *source);

/*
 * Brings source into a fresh temporary folder *dir (free it; remove it
 * with import_cleanup()): a git URL (scheme://..., user@host:path, or a
 * path ending in .git) is cloned shallow at ref (a branch or tag; NULL:
 * the default branch) and *commit gets the commit (free it); a local
 * folder is used in place (*dir is a copy of its real path, nothing to
 * remove, *commit NULL). Returns an enum sr_status with *cause.
 */
int	 import_fetch(const char *source, const char *ref, char **dir,
	    char **commit, int *temporary, char **cause);
void	 import_cleanup(const char *dir, int temporary);

/*
 * Finds the skills under root/subpath (subpath NULL: the root) and
 * assesses each. Returns an enum sr_status with *cause (a subpath that
 * leaves the root or does not exist; no skill found is not an error).
 */
int	 import_discover(const struct config *, const struct sanitizer *,
	    const struct trust *, const char *root, const char *subpath,
	    struct import_set *out, char **cause);

/*
 * The record of collection name (NULL when there is none; free with
 * cJSON_Delete()). Returns an enum sr_status: SR_NOTFOUND when the
 * collection does not exist, SR_IO with *cause when its record is bad.
 */
int	 import_record(const char *name, cJSON **out, char **cause);

/*
 * Marks each skill of set new, changed or unchanged against record (NULL:
 * all new) and appends the record's skills missing from set as
 * IMPORT_REMOVED.
 */
void	 import_plan(struct import_set *set, const cJSON *record);

/*
 * Writes collection name: copies the accepted new and changed skills,
 * removes the removed ones, keeps the others as they are, and writes the
 * record (source, subpath, ref, commit). Returns an enum sr_status with
 * *cause.
 */
int	 import_apply(const char *name, const struct import_set *set,
	    const char *source, const char *subpath, const char *ref,
	    const char *commit, const cJSON *record, char **cause);

/* Removes collection name. Returns an enum sr_status with *cause. */
int	 import_remove(const char *name, char **cause);

/* The collection names, sorted. */
void	 import_list(struct strlist *out);

#endif
