/*
 * A skill's assessment: everything of an entry that can reach an agent,
 * scanned in one place (DESIGN §7, threat model v2). assess_skill() runs
 * the sanitiser over every frontmatter string (with the line of its key),
 * the body (sanitize_scan(), code-aware) and, for a skill, every bundled
 * file that read_skill_file can serve plus the files the body tells the
 * agent to run (codescan_refs()), each through sanitize_file() with the
 * same caps and traversal rules as files.c; then scores the findings
 * (sanitize_risk()). The indexer stores the result with the entry; the
 * load path (engine_served()) recomputes the frontmatter and body parts
 * and takes the bundled files' findings from the index.
 *
 * Findings are stored as a JSON array text (assess_findings_json() and
 * assess_findings_parse(), each other's inverse): [{"id","severity",
 * "line","file","weight","excerpt"}], file null for the entry file itself.
 * The same object is what load output lists (assess_finding_json()).
 *
 * Everything here is a pure function of its input and the file system;
 * thread-safe (the sanitizer is immutable).
 */
#ifndef SR_ASSESS_H
#define SR_ASSESS_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "safety/codescan.h"
#include "core/finding.h"
#include "safety/sanitize.h"

struct config;
struct fm;

/* Bumped when what assess_skill() produces changes: the index re-parses. */
#define ASSESS_VERSION		1
/*
 * Bytes of bundled files read per skill in total. Per file the cap is
 * limits.max_related_kb (what read_skill_file serves); the total keeps a
 * folder of many large files from dominating an index run.
 */
#define ASSESS_MAX_TOTAL	(4 * 1024 * 1024)

/* What bundled files are read: from limits.* (assess_limits_init()). */
struct assess_limits {
	int		 max_files;	/* limits.max_files_per_skill */
	size_t		 max_file;	/* limits.max_related_kb, in bytes */
	size_t		 max_total;	/* ASSESS_MAX_TOTAL */
};

void	 assess_limits_init(struct assess_limits *, const struct config *);

/* One entry to assess; every pointer is borrowed for the call. */
struct assess_entry {
	const char	*path;		/* the entry file (SKILL.md, agent.md) */
	int		 bundled;	/* 1: a skill folder, scan its files */
	const char	*text;		/* the whole file */
	size_t		 len;
	const struct fm	*fm;		/* fm_parse() of text */
	int		 trust;		/* enum trust_tier */
	const char	*stamp;		/* assess_stamp() of path, or NULL;
					   "" skips listing the folder */
};

/*
 * Appends to out the findings of every part of e (frontmatter strings,
 * body, bundled files), scores them for e->trust and fills *risk. Never
 * fails: an unreadable bundled file is left out (read_skill_file would
 * refuse it too).
 */
void	 assess_skill(const struct sanitizer *, const struct assess_limits *,
	    const struct assess_entry *e, struct findings *out,
	    struct risk *risk);

/*
 * The frontmatter part alone (text, len: the whole file fm was parsed
 * from): every string of fm->json, keys and nested lists and maps
 * included, decoded (a quoted YAML value is read as what the agent sees,
 * not as a quotation), with the line of its key (of its first line for a
 * block scalar); then what only the block as written holds, YAML comments
 * and lines before the first key (the skill:// resource serves the block
 * verbatim). A hit that repeats one (same rule, same line) is dropped.
 * Returns the number of findings added.
 */
size_t	 assess_frontmatter(const struct sanitizer *, const char *text,
	    size_t len, const struct fm *fm, struct findings *out);

/*
 * The bundled-file part alone: the files of the folder of entry_path
 * (files_list(), files_read(); list 0 skips the listing, for a folder
 * whose stamp says it has none) and those body tells the agent to run,
 * each through sanitize_file(), except the files of a subfolder with a
 * SKILL.md of its own (a nested skill: an entry of its own); then the
 * scripts body tells the agent to run that the folder does not ship
 * (codescan_unshipped(), lines counted from line_base, the body's first
 * line in the file minus one). Returns the number of findings added.
 */
size_t	 assess_bundled(const struct sanitizer *, const struct assess_limits *,
	    const char *entry_path, const char *body, size_t blen,
	    int line_base, int list, struct findings *out);

/*
 * The rules that need more than one file of a skill (assess_bundled()
 * runs them; tests/eval/risk_dump too): code-claim-mismatch, a capability
 * the entry or the file itself says the skill does without and the file's
 * code has; code-cred-exfil-split, secrets read in one bundled file and
 * data sent from another. _init takes the entry's text (its claims; NULL
 * is none); _add each bundled file with its codescan_caps (from
 * sanitize_file_caps()), adding mismatches to out; _done adds the split
 * finding, if any, and frees what the struct holds.
 */
struct assess_files {
	unsigned	 claims;	/* codescan_claims() of the entry */
	const char	*phrase[CODESCAN_CAPS];
	char		*secrets_file;	/* first file reading secrets */
	int		 secrets_line;
	char		*send_file;	/* first file sending data */
	int		 send_line;
};

void	 assess_files_init(struct assess_files *, const char *text,
	    size_t len);
void	 assess_files_add(struct assess_files *, const char *rel,
	    const char *text, size_t len, const struct codescan_caps *,
	    struct findings *out);
void	 assess_files_done(struct assess_files *, struct findings *out);

/*
 * The bundled files' stamp: a hash of the relative path, size and mtime
 * of each regular file in the folder of entry_path and its subfolders
 * (where files_list() looks, nested skills' folders left out; at most
 * max_files + 1 of them), written as
 * 16 hex digits into out; "" when the folder has none. The index keeps it with the entry
 * so that an edited script is re-scanned although SKILL.md is unchanged.
 */
void	 assess_stamp(const struct assess_limits *, const char *entry_path,
	    char out[17]);

/* The stored form of f (free with cJSON_free()); NULL when f is empty. */
char	*assess_findings_json(const struct findings *f);

/*
 * Appends the findings of a stored text (NULL or "" is none). Returns 0,
 * or -1 when the text is not such an array (out is left as it was).
 */
int	 assess_findings_parse(const char *text, struct findings *out);

/* One finding as listed by load and scan (a new object). */
cJSON	*assess_finding_json(const struct finding *);

/* {"score": n, "severity": "info"|"warn"|"high"} (a new object). */
cJSON	*assess_risk_json(double score, int sev);
/*
 * assess_risk_json() of r plus "capabilities": the names of r->caps
 * (sanitize_cap_name(): "reads-secrets", "sends-data", ...).
 */
cJSON	*assess_risk_full(const struct risk *r);

#endif
