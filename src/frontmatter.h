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
 */
#ifndef SR_FRONTMATTER_H
#define SR_FRONTMATTER_H

#include <stddef.h>

#include "finding.h"
#include "strlist.h"

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
	char		*json;			/* the frontmatter as a JSON object text */
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
