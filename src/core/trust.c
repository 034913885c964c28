#include "autoconfig.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/config.h"
#include "core/trust.h"
#include "base/xmalloc.h"

/* Adds a prefix both as written (tilde-expanded) and as resolved. */
static void
add_prefix(struct strlist *l, const char *p)
{
	char	 real[PATH_MAX], *exp;
	size_t	 n;

	exp = config_expand_tilde(p);
	n = strlen(exp);
	while (n > 1 && exp[n - 1] == '/')
		exp[--n] = '\0';
	strlist_add_unique(l, exp, 0);
	if (realpath(exp, real) != NULL)
		strlist_add_unique(l, real, 0);
	free(exp);
}

void
trust_init(struct trust *t, const struct config *cfg)
{
	static const char *user[] = {
		"~/.claude/skills", "~/.claude/agents", "~/.claude/commands"
	};
	static const char *scope[] = {
		"~/.claude/skills", "~/.claude/agents", "~/.claude/commands",
		"~/.agents/skills", "~/.agent/skills"
	};
	const char	*xdg;
	char		*p;
	size_t		 i;

	strlist_init(&t->trusted);
	strlist_init(&t->verified);
	strlist_init(&t->user);
	strlist_init(&t->user_scope);
	for (i = 0; i < cfg->trusted_paths.n; i++)
		add_prefix(&t->trusted, cfg->trusted_paths.v[i]);
	for (i = 0; i < cfg->verified_paths.n; i++)
		add_prefix(&t->verified, cfg->verified_paths.v[i]);
	for (i = 0; i < sizeof user / sizeof user[0]; i++)
		add_prefix(&t->user, user[i]);
	for (i = 0; i < sizeof scope / sizeof scope[0]; i++)
		add_prefix(&t->user_scope, scope[i]);
	if ((xdg = getenv("XDG_CONFIG_HOME")) != NULL && *xdg == '/')
		xasprintf(&p, "%s/agents/skills", xdg);
	else
		p = xstrdup("~/.config/agents/skills");
	add_prefix(&t->user_scope, p);
	free(p);
	t->plugins = config_expand_tilde("~/.claude/plugins");
	t->signers.v = NULL;
	t->signers.n = 0;
	strlist_init(&t->signer_errors);
	for (i = 0; i < cfg->signers.n; i++) {
		const char	*why;

		if (keyring_add(&t->signers, cfg->signers.v[i], &why) != 0) {
			xasprintf(&p, "trust.signers entry %zu (%s): %s",
			    i + 1, cfg->signers.v[i], why);
			strlist_add(&t->signer_errors, p);
			free(p);
		}
	}
}

enum trust_tier
trust_signed(const struct trust *t, const char *dir, enum trust_tier tier,
    struct sign_result *r)
{
	sign_check(&t->signers, dir, r);
	if (r->status == SIGN_VALID && tier < TIER_VERIFIED)
		return TIER_VERIFIED;
	return tier;
}

void
trust_done(struct trust *t)
{
	strlist_done(&t->trusted);
	strlist_done(&t->verified);
	strlist_done(&t->user);
	strlist_done(&t->user_scope);
	free(t->plugins);
	t->plugins = NULL;
	keyring_done(&t->signers);
	strlist_done(&t->signer_errors);
}

int
trust_under(const char *path, const char *prefix)
{
	size_t	 n = strlen(prefix);

	if (n == 1 && prefix[0] == '/')
		return path[0] == '/';
	if (strncmp(path, prefix, n) != 0)
		return 0;
	return path[n] == '\0' || path[n] == '/';
}

static int
under_any(const struct strlist *l, const char *path)
{
	size_t	 i;

	for (i = 0; i < l->n; i++) {
		if (trust_under(path, l->v[i]))
			return 1;
	}
	return 0;
}

static enum trust_tier
tier_of(const struct trust *t, const char *p, int project_claude)
{
	if (under_any(&t->trusted, p))
		return TIER_TRUSTED;
	if (under_any(&t->verified, p))
		return TIER_VERIFIED;
	if (under_any(&t->user, p))
		return TIER_USER;
	if (project_claude)
		return TIER_USER;
	return TIER_UNTRUSTED;
}

enum trust_tier
trust_tier(const struct trust *t, const char *path, const char *real,
    const char *project_root)
{
	enum trust_tier	 a, b;
	char		 rroot[PATH_MAX];
	int		 pa = 0, pb = 0;

	if (project_root != NULL) {
		pa = trust_under(path, project_root);
		if (realpath(project_root, rroot) == NULL)
			snprintf(rroot, sizeof rroot, "%s", project_root);
		pb = trust_under(real, rroot);
	}
	a = tier_of(t, path, pa);
	b = tier_of(t, real, pb);
	return a < b ? a : b;
}

char *
trust_scope(const struct trust *t, const char *path, const char *root,
    int is_project, int is_example)
{
	const char	*rest, *end;
	char		*s, *dir;
	size_t		 n;

	if (is_example)
		return xstrdup("example");
	if (trust_under(path, t->plugins)) {
		/* plugins/cache/<marketplace>/<plugin>/... or plugins/<plugin>/... */
		rest = path + strlen(t->plugins);
		if (strncmp(rest, "/cache/", 7) == 0) {
			rest += 7;
			if ((rest = strchr(rest, '/')) == NULL)
				return xstrdup("plugin:?");
		}
		rest++;
		if ((end = strchr(rest, '/')) == NULL)
			return xstrdup("plugin:?");
		xasprintf(&s, "plugin:%.*s", (int)(end - rest), rest);
		return s;
	}
	if (is_project) {
		/* The project directory is the root minus /.claude/x or /.agents/x. */
		dir = xstrdup(root);
		for (n = 0; n < 2; n++) {
			char	*slash = strrchr(dir, '/');

			if (slash == NULL)
				break;
			*slash = '\0';
		}
		xasprintf(&s, "project:%s", *dir != '\0' ? dir : "/");
		free(dir);
		return s;
	}
	if (under_any(&t->user_scope, path))
		return xstrdup("user");
	return xstrdup("other");
}
