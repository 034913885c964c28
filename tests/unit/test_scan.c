/* Unit tests: discovery (kinds by path shape, symlinks, caps). */
#include "autoconfig.h"

#include <sys/stat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/config.h"
#include "index/scan.h"
#include "base/xmalloc.h"

#include "tap.h"

static char tmp[] = "/tmp/sr-unit-scan.XXXXXX";

static void
mkfile(const char *rel)
{
	char	*p, *q, *s;
	FILE	*fp;

	xasprintf(&p, "%s/%s", tmp, rel);
	q = xstrdup(p);
	for (s = q + strlen(tmp) + 1; *s; s++) {
		if (*s == '/') {
			*s = '\0';
			mkdir(q, 0755);
			*s = '/';
		}
	}
	free(q);
	fp = fopen(p, "w");
	fputs("---\nname: x\ndescription: y\n---\nbody\n", fp);
	fclose(fp);
	free(p);
}

static void
mklink(const char *target, const char *rel)
{
	char	*p;

	xasprintf(&p, "%s/%s", tmp, rel);
	if (symlink(target, p) != 0)
		diag("symlink %s failed", p);
	free(p);
}

static const struct scan_item *
find(const struct scan_result *res, const char *suffix)
{
	size_t	 i, n = strlen(suffix), m;

	for (i = 0; i < res->n_items; i++) {
		m = strlen(res->items[i].path);
		if (m >= n && strcmp(res->items[i].path + m - n, suffix) == 0)
			return &res->items[i];
	}
	return NULL;
}

static int
count_rule(const struct scan_result *res, const char *rule)
{
	size_t	 i;
	int	 n = 0;

	for (i = 0; i < res->problems.n; i++)
		n += strcmp(res->problems.v[i].rule, rule) == 0;
	return n;
}

/* The message of the first finding of rule, or "". */
static const char *
rule_message(const struct scan_result *res, const char *rule)
{
	size_t	 i;

	for (i = 0; i < res->problems.n; i++)
		if (strcmp(res->problems.v[i].rule, rule) == 0)
			return res->problems.v[i].message;
	return "";
}

static void
test_classify(void)
{
	char	*fb, *ns;

#define CLASSIFY(path, kind, wantfb, wantns) do {			\
	int k = scan_classify(path, &fb, &ns);				\
	is_int(k, kind, "classify %s", path);				\
	is_str(fb, wantfb, "classify %s: fallback name", path);	\
	is_str(ns, wantns, "classify %s: namespace", path);		\
	free(fb); free(ns);						\
} while (0)
	CLASSIFY("skills/pdf/SKILL.md", KIND_SKILL, "pdf", NULL);
	CLASSIFY("root/SKILL.md", KIND_SKILL, "root", NULL);
	CLASSIFY("skills/pdf/skill.md", -1, NULL, NULL);
	CLASSIFY("x/agents/helper.md", KIND_AGENT, "helper", NULL);
	CLASSIFY("x/agents/sub/helper.md", -1, NULL, NULL);
	CLASSIFY("commands/top.md", KIND_COMMAND, "top", NULL);
	CLASSIFY("commands/perf/report.md", KIND_COMMAND, "report", "perf");
	CLASSIFY("commands/a/b/c.MD", KIND_COMMAND, "c", "a:b");
	CLASSIFY("docs/readme.md", -1, NULL, NULL);
	CLASSIFY("commands/notes.txt", -1, NULL, NULL);
}

static void
test_walk(void)
{
	struct config		*cfg;
	struct scan_result	 res;
	const struct scan_item	*it;
	char			*root, *other;
	size_t			 total_items;

	mkfile("root/alpha/SKILL.md");
	mkfile("root/.curated/beta/SKILL.md");
	mkfile("root/node_modules/pkg/SKILL.md");
	mkfile("root/agents/helper.md");
	mkfile("root/commands/perf/report.md");
	mkfile("root/gamma/SKILL.md");
	mkfile("root/gamma/agents/inner.md");
	mkfile("root/gamma/commands/inner.md");
	mkfile("root/deep/a/b/c/d/SKILL.md");
	mkfile("other/delta/SKILL.md");
	mklink(".", "root/loop");
	xasprintf(&other, "%s/other", tmp);
	mklink(other, "root/linked");
	free(other);
	mklink("alpha", "root/alpha-again");
	mklink("/nonexistent/target", "root/broken");
	{
		char	*d;

		xasprintf(&d, "%s/root/fifo", tmp);
		mkdir(d, 0755);
		free(d);
		xasprintf(&d, "%s/root/fifo/SKILL.md", tmp);
		if (mkfifo(d, 0644) != 0)
			diag("mkfifo %s failed", d);
		free(d);
	}

	cfg = config_defaults();
	strlist_done(&cfg->paths);
	xasprintf(&root, "%s/root", tmp);
	strlist_add(&cfg->paths, root);
	cfg->project_roots = 0;

	scan_result_init(&res);
	scan_roots(cfg, NULL, &res);
	scan_walk(cfg, &res);
	is_int(res.n_roots, 1, "walk: one root");
	ok(find(&res, "root/alpha/SKILL.md") != NULL, "walk: a skill");
	ok(find(&res, "root/.curated/beta/SKILL.md") != NULL, "walk: dot-folders are walked");
	ok(find(&res, "node_modules/pkg/SKILL.md") == NULL, "walk: excluded dirs are skipped");
	it = find(&res, "root/agents/helper.md");
	ok(it != NULL && it->kind == KIND_AGENT, "walk: an agent");
	it = find(&res, "root/commands/perf/report.md");
	ok(it != NULL && it->kind == KIND_COMMAND && it->ns != NULL &&
	    strcmp(it->ns, "perf") == 0, "walk: a nested command keeps its namespace");
	ok(find(&res, "gamma/agents/inner.md") == NULL &&
	    find(&res, "gamma/commands/inner.md") == NULL,
	    "walk: markdown inside a skill folder is not an agent or command");
	ok(find(&res, "linked/delta/SKILL.md") != NULL, "walk: symlinked directories are followed");
	ok(find(&res, "alpha-again/SKILL.md") == NULL, "walk: a file reachable twice is listed once");
	ok(find(&res, "deep/a/b/c/d/SKILL.md") != NULL, "walk: deep skills under the default depth");
	ok(find(&res, "loop/alpha/SKILL.md") == NULL, "walk: a symlink cycle is not followed");
	is_int(res.roots[0].n_found, 8, "walk: entries counted per root");
	total_items = res.n_items;
	it = find(&res, "root/fifo/SKILL.md");
	ok(it != NULL && it->special != NULL && strcmp(it->special, "a FIFO") == 0,
	    "walk: a FIFO named SKILL.md is an item marked special");
	it = find(&res, "root/alpha/SKILL.md");
	ok(it != NULL && it->special == NULL, "walk: a regular file is not special");
	ok(scan_complete(&res), "walk: a walk that saw everything is complete");
	scan_result_done(&res);

	cfg->max_depth = 3;
	scan_result_init(&res);
	scan_roots(cfg, NULL, &res);
	scan_walk(cfg, &res);
	ok(find(&res, "deep/a/b/c/d/SKILL.md") == NULL, "caps: deeper than max_depth not walked");
	ok(count_rule(&res, "scan-depth-limit") > 0, "caps: scan-depth-limit finding present");
	ok(res.capped && !scan_complete(&res), "caps: a depth cap marks the scan incomplete");
	scan_result_done(&res);

	cfg->max_depth = 32;
	cfg->max_entries = 5;
	scan_result_init(&res);
	scan_roots(cfg, NULL, &res);
	scan_walk(cfg, &res);
	ok(count_rule(&res, "scan-entries-limit") > 0, "caps: scan-entries-limit reported");
	ok(res.n_items == 5, "caps: max_entries counts entries kept, not files");
	ok(res.skipped > 0 && res.n_items + res.skipped == total_items,
	    "caps: every entry past the cap is counted as skipped");
	ok(count_rule(&res, "scan-entries-limit") == 1,
	    "caps: one scan-entries-limit finding");
	{
		char	 want[64];

		snprintf(want, sizeof want, "5 entries indexed, %zu skipped",
		    res.skipped);
		ok(strstr(rule_message(&res, "scan-entries-limit"), want) != NULL,
		    "caps: the finding says how many were indexed and skipped");
	}
	ok(res.capped && !scan_complete(&res), "caps: an entries cap marks the scan incomplete");
	scan_result_done(&res);

	/* A root that does not exist is reported, not fatal. */
	strlist_add(&cfg->paths, "/nonexistent/skills-radar-root");
	cfg->max_entries = 1000;
	scan_result_init(&res);
	scan_roots(cfg, NULL, &res);
	scan_walk(cfg, &res);
	ok(res.n_roots == 2 && !res.roots[1].exists && res.roots[1].problem != NULL,
	    "roots: a missing root is reported with a reason");
	ok(!res.capped && !scan_complete(&res), "roots: a missing configured root makes the scan incomplete");
	is_int(count_rule(&res, "scan-root-missing"), 0,
	    "roots: scan_roots() adds no finding (doctor lists roots itself)");
	scan_report_missing(&res);
	is_int(count_rule(&res, "scan-root-missing"), 1,
	    "roots: scan_report_missing() names the missing root");
	scan_result_done(&res);

	/* A default root that does not exist is normal. */
	{
		struct config	*def = config_defaults();

		scan_result_init(&res);
		scan_roots(def, NULL, &res);
		ok(!res.roots[0].required && scan_complete(&res) == !res.capped,
		    "roots: a default root is not required");
		scan_result_done(&res);
		config_free(def);
	}

	/* Two spellings of one directory are one root. */
	strlist_done(&cfg->paths);
	strlist_add(&cfg->paths, root);
	{
		char	*again;

		xasprintf(&again, "%s/root/", tmp);
		strlist_add(&cfg->paths, again);
		free(again);
	}
	scan_result_init(&res);
	scan_roots(cfg, NULL, &res);
	is_int(res.n_roots, 1, "roots: the same real path is merged");
	scan_result_done(&res);
	free(root);
	config_free(cfg);
}

static void
test_project_roots(void)
{
	struct config		*cfg;
	struct scan_result	 res;
	char			*proj, *sub, cwd[4096];
	size_t			 i;
	int			 has_top = 0, has_sub = 0;

	xasprintf(&proj, "%s/proj", tmp);
	mkfile("proj/.git/HEAD");
	mkfile("proj/.claude/skills/p1/SKILL.md");
	mkfile("proj/pkg/.claude/skills/p2/SKILL.md");
	xasprintf(&sub, "%s/proj/pkg", tmp);
	if (getcwd(cwd, sizeof cwd) == NULL || chdir(sub) != 0)
		diag("chdir failed");
	cfg = config_defaults();
	strlist_done(&cfg->paths);
	cfg->project_roots = 1;
	scan_result_init(&res);
	scan_roots(cfg, NULL, &res);
	for (i = 0; i < res.n_roots; i++) {
		if (!res.roots[i].is_project)
			continue;
		has_top |= strstr(res.roots[i].path, "/proj/.claude/skills") != NULL;
		has_sub |= strstr(res.roots[i].path, "/proj/pkg/.claude/skills") != NULL;
	}
	ok(has_top && has_sub, "project roots: the working directory and each parent up to the git root");
	scan_walk(cfg, &res);
	ok(find(&res, "p1/SKILL.md") != NULL && find(&res, "p2/SKILL.md") != NULL,
	    "project roots: project skills are found");
	scan_result_done(&res);
	config_free(cfg);
	if (chdir(cwd) != 0)
		diag("chdir back failed");
	free(sub);
	free(proj);
}

int
main(void)
{
	char	*cmd;

	xmalloc_init();
	if (mkdtemp(tmp) == NULL)
		return 1;
	test_classify();
	test_walk();
	test_project_roots();
	xasprintf(&cmd, "rm -rf '%s'", tmp);
	if (system(cmd) != 0)
		diag("cleanup failed");
	free(cmd);
	return done_testing();
}
