/*
 * The Tier-1 mini-index: a short Markdown text naming every skill an agent
 * may search for or load, grouped by hub-tag (or by plugin, scope or
 * shared name part when skills carry no tags), one line per skill with a
 * one-sentence gist, inside a hard token budget (tokens.h estimates).
 * When the full text does not fit it degrades in steps that keep every
 * skill discoverable as long as possible: a name part that every name of
 * a group shares is written once in its heading ("## baoyu-*"), gists
 * become keywords dealt out a word at a time to every skill, then names
 * only, then one line per group with its count and a share of its names
 * (every group one before any two), then the groups' counts alone. A
 * description that says no more than the name is replaced by the skill's
 * when_to_use or its body's first paragraph (see miniindex_opts.san).
 * The gists themselves are made in miniindex_gist.h.
 *
 * The same text goes to ~/.claude/SKILLS-INDEX.md (imported from
 * CLAUDE.md; see miniindex_install.h) and, with MINIINDEX_MCP (a shorter
 * header), into the MCP server's instructions.
 * Everything returned is allocated and owned by the caller (free()); the
 * skill set is borrowed for the call only. Output is deterministic: the
 * same entries and options give the same bytes.
 */
#ifndef SR_MINIINDEX_H
#define SR_MINIINDEX_H

#include <stddef.h>

#include "core/skill.h"

struct config;
struct sanitizer;

enum miniindex_group {
	MINIINDEX_GROUP_AUTO = 0,	/* tags, else scopes, else name parts */
	MINIINDEX_GROUP_TAGS,
	MINIINDEX_GROUP_SCOPE
};

/* How far the text had to degrade to fit (miniindex_info.level). */
enum miniindex_level {
	MINIINDEX_FULL = 0,	/* every skill with its gist (<= 80 chars) */
	MINIINDEX_SHORT,	/* every skill, keyword gists dealt to fit */
	MINIINDEX_NAMES,	/* every skill by name, no gists */
	MINIINDEX_TOP,		/* per group: count and a share of names */
	MINIINDEX_COUNTS,	/* per group: count only */
	MINIINDEX_HEADER	/* only the header and the total */
};

/*
 * For the MCP instructions, which say what to call just before the list:
 * the header only counts the skills.
 */
#define MINIINDEX_MCP	0x1

/* Characters of a full gist. */
#define MINIINDEX_SUMMARY_MAX	80

struct miniindex_opts {
	size_t			 budget;	/* tokens; 0: no limit (the MCP
						   server sends no text for
						   mcp.instructions_budget 0) */
	enum miniindex_group	 group_by;
	int			 flags;		/* MINIINDEX_MCP */
	/*
	 * A skill whose description says no more than its name gets its
	 * gist from its when_to_use, else from the first prose paragraph
	 * of its body, made safe by san (borrowed; NULL: no body gists,
	 * which every caller writing the same file must agree on).
	 */
	const struct sanitizer	*san;
};

struct miniindex_info {
	enum miniindex_level	 level;
	size_t			 skills;	/* entries eligible */
	size_t			 named;		/* entries named in the text */
	size_t			 with_gist;	/* entries given a gist */
	size_t			 gist_chars;	/* FULL: gist cap (characters) */
	size_t			 gist_words;	/* SHORT: most keywords a gist
						   got (dealt a word at a time) */
	size_t			 groups;
	size_t			 tokens;	/* estimated tokens of the text */
};

/* Options from the configuration (mini_index.*); flags 0. */
void	 miniindex_opts_from_config(struct miniindex_opts *,
	    const struct config *);
/* Parses "auto", "tags" or "scope"; returns the value or -1. */
int	 miniindex_group_from_name(const char *);
const char *miniindex_level_name(enum miniindex_level);

/*
 * Builds the Tier-1 text for the eligible entries of set within
 * opts->budget estimated tokens. Returns the text (never NULL; free() it);
 * *tokens_out (may be NULL) gets its estimated tokens and *info (may be
 * NULL) how it was built. With a budget too small for even the header the
 * text is empty. The MCP server calls this with MINIINDEX_MCP and
 * mcp.instructions_budget.
 */
char	*miniindex_text(const struct skill_set *set,
	    const struct miniindex_opts *opts, size_t *tokens_out,
	    struct miniindex_info *info);

/*
 * The MCP server's instructions text: miniindex_text() with MINIINDEX_MCP
 * and mcp.instructions_budget, grouped as mini_index.group_by says.
 * Returns NULL when the budget is 0 (send no instructions); free() it.
 */
char	*miniindex_mcp_instructions(const struct skill_set *set,
	    const struct config *cfg);

/*
 * Regenerates mini_index.path from set with the configured options when
 * mini_index.auto is true and the text changed; the lead calls it after
 * index and on hot reload. *written (may be NULL) tells whether the file
 * was written; san as in miniindex_opts. Returns 0 (also when auto is off) or SR_IO with *cause.
 */
int	 miniindex_auto(const struct config *cfg, const struct skill_set *set,
	    const struct sanitizer *san, int *written, char **cause);

#endif
