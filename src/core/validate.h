/*
 * Validation of a parsed entry, with stable rule ids and severities
 * (DESIGN §6). Rejections are SEV_ERROR findings; everything else warns.
 */
#ifndef SR_VALIDATE_H
#define SR_VALIDATE_H

#include <stddef.h>

#include "core/finding.h"
#include "core/frontmatter.h"
#include "core/skill.h"

struct config;

/*
 * Checks a name against ^[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$ and the
 * reserved words. Returns 0 when valid, else a finding rule id
 * ("name-invalid", "name-too-long", "name-reserved").
 */
const char	*validate_name(const char *);

/*
 * Validates fm for an entry of the given kind. fallback is the directory
 * name (skill) or file stem (agent, command) used when fm has no name;
 * file_size is the size of the whole file. Appends findings to out and
 * stores the effective name in *name (allocated; NULL when none could be
 * derived). Returns 1 when the entry is rejected, else 0.
 *
 * out receives fm->findings first (findings already in out are not added
 * twice), then validation's own, so it is the entry's complete list and
 * any SEV_ERROR from parsing rejects the entry. cfg may be NULL (the
 * limits.max_skill_size_kb default, 256 KiB; allow_large off). The name is returned even when rejected (NULL
 * only when none could be derived), for messages.
 */
int		 validate_entry(const struct fm *fm, enum skill_kind kind,
		    const char *fallback, size_t file_size,
		    const struct config *cfg, struct findings *out, char **name);

/*
 * validate_entry() as the indexer applies it. With normalise (the index,
 * unless validation.strict_names), a name that breaks the naming rule
 * (name-invalid, name-too-long; never name-reserved) does not reject the
 * entry: *name is its normalised id (skill_name_id(), else the
 * fallback's), *display the name as written (allocated), and out gets a
 * name-normalised warning instead of the error. *display is NULL when
 * the name is the id. Without normalise it is validate_entry(), which
 * `validate` uses so authors still see the error.
 */
int		 validate_entry_index(const struct fm *fm,
		    enum skill_kind kind, const char *fallback,
		    size_t file_size, const struct config *cfg, int normalise,
		    struct findings *out, char **name, char **display);

/*
 * The description to index: fm->description, or for a command without
 * one its first body line (fm->summary). NULL when none. Borrowed from
 * fm: valid until fm_done().
 */
const char	*validate_description(const struct fm *, enum skill_kind);

/* One line per rule id: "id severity description", for docs and tests. */
struct validate_rule {
	const char	*id;
	int		 sev;		/* enum severity */
	const char	*what;
};
extern const struct validate_rule validate_rules[];

#endif
