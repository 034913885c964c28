/*
 * SKILL.md frontmatter: splits a file into frontmatter and body and parses
 * the YAML (libyaml) into typed fields. Tolerates what real files contain:
 * a UTF-8 BOM, CRLF line ends, block scalars, flow lists, nested
 * metadata.radar.* (which wins over top-level keys), non-string values
 * (coerced, with a finding), empty frontmatter, a missing closing ---, and
 * unquoted "key: value: more" prose (recovered line by line the way
 * Claude Code tolerates it, with a finding).
 *
 * fm_parse() fills an embedded struct fm; fm_done() releases it. Nothing
 * is ever fatal to the caller: problems become findings (rule ids
 * documented in skills-radar(1)); only a broken frontmatter that cannot be
 * recovered adds a SEV_ERROR finding.
 *
 * Decisions (documented in skills-radar(1), VALIDATION RULES):
 *  - No leading "---" line: has_frontmatter = 0, the body is the whole file
 *    (after a BOM), json is "{}".
 *  - An opening "---" with no closing "---" line: treated as no
 *    frontmatter (has_frontmatter = 0, body = whole file) with a
 *    frontmatter-unclosed warning; validation rejects skills and agents
 *    for it, commands keep working from their body.
 *  - YAML that does not parse is re-read line by line ("key: value", the
 *    value being everything after the first ": ", indented lists, block
 *    scalars and nested keys kept) with a yaml-recovered warning; only
 *    when that yields no key at all is it a yaml-invalid error.
 *  - Caps: a frontmatter block over FM_MAX_BYTES is an error
 *    (frontmatter-too-large); more than FM_MAX_NODES nodes after alias
 *    expansion or nesting deeper than FM_MAX_DEPTH is yaml-too-complex,
 *    found on the event stream before the YAML is loaded (yamlcap.h), so
 *    the cost is bounded; such input is never read line by line.
 *  - Scalars follow the YAML 1.2 core schema (yes/no are strings): in
 *    json, plain true/false are booleans, plain numbers numbers, ~ and
 *    null are null. Typed string fields take numbers and booleans as the
 *    text written in the file, with a value-coerced warning.
 *  - At most FM_MAX_FINDINGS warnings are kept per file (errors always).
 *  - String fields are trimmed, except name, which is kept exactly as
 *    written so that validation can be strict about it.
 *
 * Every string in struct fm is owned by it and valid until fm_done().
 */
#ifndef SR_FRONTMATTER_H
#define SR_FRONTMATTER_H

#include <stddef.h>

#include "core/finding.h"
#include "base/strlist.h"

#define FM_MAX_BYTES	(64 * 1024)	/* frontmatter block cap */
#define FM_MAX_NODES	10000		/* YAML nodes, aliases expanded */
#define FM_MAX_DEPTH	32		/* YAML nesting */
#define FM_SUMMARY_MAX	300		/* characters of fm.summary */
#define FM_MAX_FINDINGS	100		/* warnings kept per file */

struct fm {
	int		 has_frontmatter;	/* a leading --- block was found */
	char		*name;			/* NULL when absent */
	char		*description;		/* NULL when absent */
	char		*when_to_use;		/* when_to_use | whenToUse | when-to-use */
	struct strlist	 tags;			/* hub-tags | hub_tags | tags */
	struct strlist	 platforms;		/* lower-cased */
	struct strlist	 requires_tools;	/* requires_tools | requires-tools */
	struct strlist	 fallback_for_tools;
	struct strlist	 allowed_tools;		/* allowed-tools (list or spaced/comma string) */
	struct strlist	 triggers;
	char		*license;
	char		*version;
	int		 disable_model_invocation;	/* 1 only for true/"true"/"yes" */
	int		 user_invocable;		/* default 1 */
	struct strlist	 keys;			/* top-level keys, in file order */
	int		*key_lines;		/* file line of each of keys */
	char		*json;			/* the frontmatter as a JSON object text */
	char		*summary;		/* first non-blank body line, leading
						   '#' stripped, at most 300
						   characters; NULL when none
						   (the description of a command
						   that has none) */
	size_t		 body_offset;		/* byte offset of the body in the input */
	int		 body_line;		/* 1-based line of the body's first line */
	struct findings	 findings;
};

/*
 * Parses text (len bytes, need not be NUL-terminated). Always fills *fm
 * (call fm_done() afterwards) and returns 0; problems are in fm->findings.
 */
int	 fm_parse(const char *text, size_t len, struct fm *fm);
void	 fm_done(struct fm *);

#endif
