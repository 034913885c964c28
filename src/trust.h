/*
 * Trust tiers, scopes and duplicate precedence (DESIGN §6).
 *
 * A tier is decided on the path as discovered and on its real path; the
 * lower of the two wins, so a symlink cannot launder trust. struct trust
 * holds the expanded and resolved prefix lists; trust_init() /
 * trust_done().
 */
#ifndef SR_TRUST_H
#define SR_TRUST_H

#include "skill.h"
#include "strlist.h"

struct config;

struct trust {
	struct strlist	 trusted;	/* each prefix as configured and resolved */
	struct strlist	 verified;
	struct strlist	 user;		/* ~/.claude/{skills,agents,commands} */
	struct strlist	 user_scope;	/* every default user root */
	char		*plugins;	/* ~/.claude/plugins */
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

/* The scope string (allocated): user, project:DIR, plugin:NAME, example, other. */
char		*trust_scope(const struct trust *, const char *path,
		    const char *root, int is_project, int is_example);

/* 1 when path equals prefix or lies below it, component-wise. */
int		 trust_under(const char *path, const char *prefix);

/*
 * Duplicate precedence: returns > 0 when a beats b. Explicitly trusted >
 * current project > user > verified > the rest, then newest mtime, then
 * the path that sorts first.
 */
int		 trust_precedes(const struct skill *a, const struct skill *b);

#endif
