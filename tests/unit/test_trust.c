/* Unit tests: trust tiers, scopes and duplicate precedence. */
#include "autoconfig.h"

#include <sys/stat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/config.h"
#include "index/indexer.h"
#include "core/skill.h"
#include "core/trust.h"
#include "base/xmalloc.h"

#include "tap.h"

static char tmp[] = "/tmp/sr-unit-trust.XXXXXX";

static char *
mkdirs(const char *rel)
{
	char	*p, *s;

	xasprintf(&p, "%s/%s", tmp, rel);
	for (s = p + strlen(tmp) + 1; *s; s++) {
		if (*s == '/') {
			*s = '\0';
			mkdir(p, 0755);
			*s = '/';
		}
	}
	mkdir(p, 0755);
	return p;
}

static char *
path(const char *rel)
{
	char	*p;

	xasprintf(&p, "%s/%s", tmp, rel);
	return p;
}

static void
test_under(void)
{
	ok(trust_under("/a/b/c", "/a/b"), "under: below");
	ok(trust_under("/a/b", "/a/b"), "under: equal");
	ok(!trust_under("/a/bc", "/a/b"), "under: component-wise, not a string prefix");
	ok(!trust_under("/a", "/a/b"), "under: above");
	ok(trust_under("/x", "/"), "under: the root holds everything");
}

static void
test_tiers(void)
{
	struct config	*cfg;
	struct trust	 t;
	char		*home, *tr, *ver, *usr, *clone, *evil, *link, *proj, *p, *r;

	home = mkdirs("home");
	setenv("HOME", home, 1);
	unsetenv("XDG_CONFIG_HOME");
	tr = mkdirs("trusted");
	ver = mkdirs("home/.claude/plugins/cache/claude-plugins-official");
	usr = mkdirs("home/.claude/skills/mine");
	clone = mkdirs("clones/repo/skills/x");
	evil = mkdirs("elsewhere/evil");
	free(mkdirs("trusted/ok"));
	proj = mkdirs("proj/.claude/skills");

	cfg = config_defaults();
	strlist_done(&cfg->trusted_paths);
	strlist_add(&cfg->trusted_paths, tr);
	strlist_done(&cfg->verified_paths);
	strlist_add(&cfg->verified_paths, "~/.claude/plugins/cache/claude-plugins-official");
	trust_init(&t, cfg);

	p = path("trusted/ok/SKILL.md");
	is_int(trust_tier(&t, p, p, NULL), TIER_TRUSTED, "tier: under trust.trusted_paths is TRUSTED");
	free(p);
	p = path("home/.claude/plugins/cache/claude-plugins-official/plug/skills/a/SKILL.md");
	is_int(trust_tier(&t, p, p, NULL), TIER_VERIFIED, "tier: the official plugin cache is VERIFIED");
	free(p);
	p = path("home/.claude/skills/mine/SKILL.md");
	is_int(trust_tier(&t, p, p, NULL), TIER_USER, "tier: ~/.claude/skills is USER");
	free(p);
	p = path("clones/repo/skills/x/SKILL.md");
	is_int(trust_tier(&t, p, p, NULL), TIER_UNTRUSTED, "tier: anything else is UNTRUSTED");
	free(p);

	/* A symlink inside the trusted root pointing outside it. */
	link = path("trusted/evil");
	ok(symlink(evil, link) == 0, "tier: made trusted/evil -> elsewhere/evil");
	p = path("trusted/evil/SKILL.md");
	r = path("elsewhere/evil/SKILL.md");
	is_int(trust_tier(&t, p, r, NULL), TIER_UNTRUSTED,
	    "tier: a symlink into a trusted root pointing outside it is UNTRUSTED");
	free(p);
	free(r);
	free(link);

	/* A symlink from outside into the trusted root does not lift trust. */
	p = path("clones/link-to-trusted/ok/SKILL.md");
	r = path("trusted/ok/SKILL.md");
	is_int(trust_tier(&t, p, r, NULL), TIER_UNTRUSTED,
	    "tier: the lower of discovered and real path wins");
	free(p);
	free(r);

	/* A project's .claude folder is USER while the file stays inside. */
	p = path("proj/.claude/skills/a/SKILL.md");
	is_int(trust_tier(&t, p, p, proj), TIER_USER, "tier: project .claude is USER");
	r = path("clones/repo/skills/x/SKILL.md");
	is_int(trust_tier(&t, p, r, proj), TIER_UNTRUSTED,
	    "tier: a project symlink pointing out of the project is UNTRUSTED");
	free(r);
	is_int(trust_tier(&t, p, p, NULL), TIER_UNTRUSTED,
	    "tier: a .claude path outside the current project is not USER by name");
	free(p);

	/* Scopes. */
	p = path("home/.claude/plugins/cache/mkt/plug/skills/a/SKILL.md");
	r = trust_scope(&t, p, "", 0, 0);
	is_str(r, "plugin:plug", "scope: plugin cache gives plugin:NAME");
	free(r);
	free(p);
	p = path("home/.claude/skills/mine/SKILL.md");
	r = trust_scope(&t, p, "", 0, 0);
	is_str(r, "user", "scope: user roots give user");
	free(r);
	free(p);
	p = path("proj/.claude/skills/a/SKILL.md");
	r = trust_scope(&t, p, proj, 1, 0);
	{
		char	*want;

		xasprintf(&want, "project:%s/proj", tmp);
		is_str(r, want, "scope: project roots give project:DIR");
		free(want);
	}
	free(r);
	free(p);
	r = trust_scope(&t, "/x/SKILL.md", "/x", 0, 1);
	is_str(r, "example", "scope: bundled examples");
	free(r);

	trust_done(&t);
	config_free(cfg);
	free(home);
	free(tr);
	free(ver);
	free(usr);
	free(clone);
	free(evil);
	free(proj);
}

static struct skill *
mk(const char *uid, const char *path, enum trust_tier tier, int project,
    long long mtime)
{
	struct skill	*s = skill_new();

	s->uid = xstrdup(uid);
	s->name = xstrdup(uid);
	s->path = xstrdup(path);
	s->trust = tier;
	s->is_project = project;
	s->mtime_ns = mtime;
	return s;
}

static const struct skill *
winner(const struct skill_set *set, const char *uid)
{
	size_t	 i;

	for (i = 0; i < set->n; i++) {
		if (strcmp(set->v[i]->uid, uid) == 0 && set->v[i]->shadowed_by == NULL)
			return set->v[i];
	}
	return NULL;
}

static void
test_precedence(void)
{
	struct skill_set	 set;
	size_t			 i, shadowed = 0;

	skill_set_init(&set);
	skill_set_add(&set, mk("a", "/plugins/a", TIER_VERIFIED, 0, 9));
	skill_set_add(&set, mk("a", "/user/a", TIER_USER, 0, 1));
	skill_set_add(&set, mk("a", "/proj/a", TIER_USER, 1, 1));
	skill_set_add(&set, mk("a", "/trusted/a", TIER_TRUSTED, 0, 1));
	skill_set_add(&set, mk("b", "/plugins/b", TIER_VERIFIED, 0, 1));
	skill_set_add(&set, mk("b", "/clone/b", TIER_UNTRUSTED, 0, 99));
	skill_set_add(&set, mk("c", "/x/c", TIER_UNTRUSTED, 0, 5));
	skill_set_add(&set, mk("c", "/y/c", TIER_UNTRUSTED, 0, 7));
	skill_set_add(&set, mk("d", "/user/d", TIER_USER, 0, 1));
	skill_set_add(&set, mk("d", "/proj/d", TIER_USER, 1, 1));
	skill_set_add(&set, mk("e", "/user/e", TIER_USER, 0, 1));
	skill_set_add(&set, mk("e", "/plugins/e", TIER_VERIFIED, 0, 50));
	skill_set_add(&set, mk("agent:a", "/agents/a.md", TIER_UNTRUSTED, 0, 1));
	indexer_precedence(&set);
	is_str(winner(&set, "a")->path, "/trusted/a", "precedence: explicitly trusted wins");
	is_str(winner(&set, "b")->path, "/plugins/b", "precedence: verified beats untrusted, whatever the mtime");
	is_str(winner(&set, "c")->path, "/y/c", "precedence: same rank, newest mtime wins");
	is_str(winner(&set, "d")->path, "/proj/d", "precedence: current project beats user");
	is_str(winner(&set, "e")->path, "/user/e", "precedence: user beats verified plugin");
	ok(winner(&set, "agent:a") != NULL, "precedence: kinds do not collide");
	for (i = 0; i < set.n; i++) {
		if (set.v[i]->shadowed_by != NULL)
			shadowed++;
	}
	is_int(shadowed, 7, "precedence: every loser is kept and marked shadowed");
	for (i = 0; i < set.n; i++) {
		if (strcmp(set.v[i]->path, "/clone/b") == 0)
			is_str(set.v[i]->shadowed_by, "/plugins/b", "precedence: shadowed_by names the winner");
	}
	skill_set_done(&set);
}

/* The signer a stored signature JSON gives, or "(none)" (static buffer). */
static const char *
signer_of(const char *json)
{
	static char	 buf[64];
	struct skill	*s = skill_new();

	skill_set_signature(s, json);
	snprintf(buf, sizeof buf, "%s", s->signer != NULL ? s->signer :
	    "(none)");
	if ((json == NULL || *json == '\0') != (s->signature == NULL))
		snprintf(buf, sizeof buf, "(signature lost)");
	skill_free(s);
	return buf;
}

/* skill_set_signature(): the plain fast path and cJSON agree. */
static void
test_signature(void)
{
	is_str(signer_of("{\"status\":\"valid\",\"signer\":\"acme\","
	    "\"key_id\":\"0123456789abcdef\",\"detail\":\"ok\"}"), "acme",
	    "signature: a valid one names its signer");
	is_str(signer_of("{\"status\":\"bad\",\"signer\":\"acme\"}"),
	    "(none)", "signature: a bad one names none");
	is_str(signer_of("{\"status\":\"valid\",\"signer\":\"acme\","
	    "\"detail\":\"the \\\"key\\\" file\"}"), "acme",
	    "signature: an escape elsewhere (read by cJSON)");
	is_str(signer_of("{\"status\":\"valid\",\"signer\":\"a\\u00e9\"}"),
	    "a\xc3\xa9", "signature: an escaped signer is decoded");
	is_str(signer_of("{ \"status\": \"valid\", \"signer\": \"acme\" }"),
	    "acme", "signature: spaces (read by cJSON)");
	is_str(signer_of("{\"Status\":\"valid\",\"SIGNER\":\"acme\"}"),
	    "acme", "signature: keys match without case, as cJSON's do");
	is_str(signer_of("{\"status\":\"valid\",\"signer\":\"first\","
	    "\"signer\":\"second\"}"), "first",
	    "signature: the first of two keys, as cJSON's");
	is_str(signer_of("{\"status\":\"valid\",\"signer\":7}"), "(none)",
	    "signature: a signer that is no string names none");
	is_str(signer_of("{\"status\":\"valid\",\"signer\":\"acme\""),
	    "(none)", "signature: a cut text names none");
	is_str(signer_of("{\"status\":\"VALID\",\"signer\":\"acme\"}"),
	    "(none)", "signature: the status is compared exactly");
	is_str(signer_of("{\"status\":\"valid\",\"signer\":\"\"}"), "",
	    "signature: an empty signer stays empty");
	is_str(signer_of("{}"), "(none)", "signature: an empty object");
	is_str(signer_of(""), "(none)", "signature: none stored");
	is_str(signer_of(NULL), "(none)", "signature: NULL");
}

int
main(void)
{
	char	*cmd;

	xmalloc_init();
	if (mkdtemp(tmp) == NULL)
		return 1;
	test_under();
	test_tiers();
	test_precedence();
	test_signature();
	xasprintf(&cmd, "rm -rf '%s'", tmp);
	if (system(cmd) != 0)
		diag("cleanup failed");
	free(cmd);
	return done_testing();
}
