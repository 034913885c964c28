/*
 * Trust tiers and scopes (DESIGN §6); duplicate precedence, which reads
 * the tier, is skill_cmp_precedence() (skill.h).
 *
 * A tier is decided on the path as discovered and on its real path; the
 * lower of the two wins, so a symlink cannot launder trust. struct trust
 * holds the expanded and resolved prefix lists; trust_init() /
 * trust_done().
 */
#ifndef SR_TRUST_H
#define SR_TRUST_H

#include "core/sign.h"
#include "core/skill.h"
#include "base/strlist.h"

struct config;

struct trust {
	struct strlist	 trusted;	/* each prefix as configured and resolved */
	struct strlist	 verified;
	struct strlist	 user;		/* ~/.claude/{skills,agents,commands} */
	struct strlist	 user_scope;	/* every default user root */
	char		*plugins;	/* ~/.claude/plugins */
	struct keyring	 signers;	/* trust.signers that loaded */
	struct strlist	 signer_errors;	/* "entry: why" for those that did not */
};

void		 trust_init(struct trust *, const struct config *);
void		 trust_done(struct trust *);

/*
 * The tier of an entry found at path (real path real). project_root is
 * the root when it is one of the current project's .claude folders, else
 * NULL: a file there is USER while both its paths stay inside that folder.
 */
enum trust_tier	 trust_tier(const struct trust *, const char *path,
		    const char *real, const char *project_root);

/*
 * The tier of a skill of path tier `tier` whose folder is dir, after its
 * signature (sign.h): a signature that verifies against trust.signers
 * lifts it to VERIFIED, never higher (a symlink into a TRUSTED path that
 * the lower real path already capped stays capped at VERIFIED). Fills *r
 * (sign_result_done() it).
 */
enum trust_tier	 trust_signed(const struct trust *, const char *dir,
		    enum trust_tier tier, struct sign_result *r);

/* The scope string (allocated): user, project:DIR, plugin:NAME, example, other. */
char		*trust_scope(const struct trust *, const char *path,
		    const char *root, int is_project, int is_example);

/* 1 when path equals prefix or lies below it, component-wise. */
int		 trust_under(const char *path, const char *prefix);

#endif
