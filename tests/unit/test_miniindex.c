/*
 * The Tier-1 mini-index, the token estimator and the budget report:
 * gists, grouping, the hard budget on generated sets of 10, 80 and 500
 * skills, determinism, CLAUDE.md install/uninstall, and (when the test-only
 * npm package is installed under tests/e2e/node_modules) the budget as the
 * real Claude tokenizer counts it.
 */
#include "autoconfig.h"

#include <sys/stat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <utf8proc.h>

#include "tier1/budget.h"
#include "base/buf.h"
#include "core/config.h"
#include "tier1/miniindex.h"
#include "tier1/miniindex_gist.h"
#include "tier1/miniindex_install.h"
#include "core/skill.h"
#include "tier1/tokens.h"
#include "base/xmalloc.h"

#include "tap.h"

static char	 tmpdir[] = "/tmp/sr-test-miniindex.XXXXXX";

static int
valid_utf8(const char *s)
{
	utf8proc_int32_t	 c;
	utf8proc_ssize_t	 n, len = (utf8proc_ssize_t)strlen(s), i = 0;

	while (i < len) {
		n = utf8proc_iterate((const utf8proc_uint8_t *)s + i, len - i,
		    &c);
		if (n <= 0)
			return 0;
		i += n;
	}
	return 1;
}

static size_t
codepoints(const char *s)
{
	size_t	 n = 0;

	for (; *s != '\0'; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

static struct skill *
mk(const char *name, const char *desc, const char *tags)
{
	struct skill	*s = skill_new();

	s->kind = KIND_SKILL;
	s->uid = xstrdup(name);
	s->name = xstrdup(name);
	s->path = xstrdup("/x/SKILL.md");
	s->scope = xstrdup("user");
	free(s->description);
	s->description = xstrdup(desc);
	if (tags != NULL)
		strlist_split(&s->tags, tags, ",");
	return s;
}

/* A deterministic generated set of n skills. */
static unsigned long	 rng;
static unsigned long
next_rand(void)
{
	rng = rng * 6364136223846793005UL + 1442695040888963407UL;
	return rng >> 33;
}

static void
generate(struct skill_set *set, size_t n, int tagged)
{
	static const char *const verbs[] = { "build", "audit", "deploy",
	    "review", "convert", "write", "test", "plan", "design", "scan" };
	static const char *const nouns[] = { "pdf", "api", "docs", "images",
	    "kubernetes", "invoices", "tickets", "slides", "schemas", "logs",
	    "contracts", "dashboards" };
	static const char *const words[] = { "quickly", "with", "checks",
	    "for", "teams", "and", "reports", "using", "the", "project",
	    "configuration", "safely", "incremental", "validation", "Übersicht",
	    "zażółć", "整理", "analysis" };
	char	 name[96], tags[64];
	struct buf d;
	size_t	 i, k, w;

	rng = 42 + n;
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof name, "%s-%s-%zu",
		    verbs[next_rand() % 10], nouns[next_rand() % 12], i);
		buf_init(&d, 0);
		buf_printf(&d, "%c%s %s", 'A' + (int)(next_rand() % 26),
		    nouns[next_rand() % 12], verbs[next_rand() % 10]);
		w = 3 + next_rand() % 25;
		for (k = 0; k < w; k++)
			buf_printf(&d, " %s", words[next_rand() % 18]);
		buf_addstr(&d, ". A second sentence never shown.");
		snprintf(tags, sizeof tags, "%s", nouns[next_rand() % 12]);
		skill_set_add(set, mk(name, d.p, tagged ? tags : NULL));
		buf_done(&d);
	}
}

static void
test_tokens(void)
{
	const char	*s = "Extract text and tables from PDF files.";
	char		 bad[] = "abc\xff\xfe def \xc3";
	size_t		 a, b;

	is_int(tokens_estimate_str(""), 0, "tokens: empty text is 0");
	is_int(tokens_estimate_str(NULL), 0, "tokens: NULL is 0");
	a = tokens_estimate_str(s);
	/*
	 * The real count is 9 (@anthropic-ai/tokenizer); the margin on a
	 * text this short is about 5 (sqrt + 1).
	 */
	ok(a >= 9 && a <= 15, "tokens: an English sentence is near 9 (%zu)", a);
	b = tokens_estimate_str("会议记录整理工具");
	ok(b >= 8, "tokens: CJK is about a token per character (%zu)", b);
	ok(tokens_estimate(bad, sizeof bad - 1) > 0,
	    "tokens: invalid UTF-8 is priced, not a crash");
	ok(tokens_estimate_str("Deploy services to Kubernetes clusters. "
	    "Deploy services to Kubernetes clusters.") >
	    tokens_estimate_str("Deploy services to Kubernetes clusters."),
	    "tokens: more text costs more");
	ok(tokens_estimate_part(s, strlen(s)) < a,
	    "tokens: a part has no per-text allowance");
}

static void
test_summary(void)
{
	char	*g;
	size_t	 i;
	static const char *const hard[] = {
		"Rozpoznawanie tekstu z dokumentów po polsku — zachowuje znaki "
		"ąęśćżźółń w całości i nie tnie słów w połowie ąęśćżźółń",
		"会议记录整理工具把会议录音转写成结构化的会议纪要并提取待办事项和负"
		"责人适合每周例会和项目评审会使用会议记录整理工具把会议录音转写成结构",
		"Pick emoji 👩🏽‍💻👩🏽‍💻👩🏽‍💻👩🏽‍💻👩🏽‍💻👩🏽‍💻👩🏽‍💻👩🏽‍💻👩🏽‍💻👩🏽‍💻👩🏽‍💻👩🏽‍💻👩🏽‍💻👩🏽‍💻 for commits",
		/* e + COMBINING ACUTE ACCENT, 42 times */
		"e\314\201e\314\201e\314\201e\314\201e\314\201e\314\201e\314\201"
		"e\314\201e\314\201e\314\201e\314\201e\314\201e\314\201e\314\201"
		"e\314\201e\314\201e\314\201e\314\201e\314\201e\314\201e\314\201"
		"e\314\201e\314\201e\314\201e\314\201e\314\201e\314\201e\314\201"
		"e\314\201e\314\201e\314\201e\314\201e\314\201e\314\201e\314\201"
		"e\314\201e\314\201e\314\201e\314\201e\314\201e\314\201e\314\201",
	};

	g = miniindex_summary("Extract text from PDFs. Then more.", 80);
	is_str(g, "Extract text from PDFs", "summary: first sentence, no period");
	free(g);
	g = miniindex_summary("Fill forms, e.g. tax forms. More.", 80);
	is_str(g, "Fill forms, e.g. tax forms", "summary: e.g. is not an end");
	free(g);
	g = miniindex_summary("  Many\n\tspaces   here!  Next", 80);
	is_str(g, "Many spaces here!", "summary: blanks collapsed");
	free(g);
	g = miniindex_summary("", 80);
	is_str(g, "", "summary: empty description");
	free(g);
	g = miniindex_summary("This skill should be used when the user asks to "
	    "rebase commits.", 80);
	is_str(g, "rebase commits", "summary: boilerplate opening dropped");
	free(g);
	g = miniindex_summary("会议记录整理工具。把会议录音转写。", 80);
	is_str(g, "会议记录整理工具。", "summary: CJK full stop ends it");
	free(g);
	g = miniindex_summary("one two three four five six seven eight nine "
	    "ten eleven twelve thirteen fourteen fifteen sixteen seventeen", 40);
	ok(codepoints(g) <= 40, "summary: at most 40 characters (%s)", g);
	ok(strstr(g, "…") != NULL && g[strlen(g) - 4] != ' ',
	    "summary: cut at a word with an ellipsis");
	free(g);
	for (i = 0; i < sizeof hard / sizeof hard[0]; i++) {
		g = miniindex_summary(hard[i], 20);
		ok(valid_utf8(g) && codepoints(g) <= 20,
		    "summary: multibyte text %zu cut whole (%s)", i, g);
		/* A cut never leaves a bare combining mark or a broken ZWJ. */
		ok(strstr(g, "\342\200\215…") == NULL && (i != 3 ||
		    strcmp(g + strlen(g) - 5, "\314\201…") == 0),
		    "summary: text %zu cut at a grapheme boundary", i);
		free(g);
	}
	g = miniindex_keywords("Use when the user wants to deploy services to "
	    "Kubernetes with Helm.", "deploy-k8s", 79, 4);
	ok(strstr(g, "the") == NULL && strstr(g, "deploy") == NULL &&
	    strncmp(g, "services", 8) == 0,
	    "keywords: filler and name words dropped (%s)", g);
	ok(tokens_estimate_part(g, strlen(g)) <= 4, "keywords: token cap kept");
	free(g);
	g = miniindex_keywords("Flight delays skill. Checks EU claims, fast.",
	    "flight-delays", 79, 20);
	is_str(g, "Checks EU claims fast",
	    "keywords: the next sentence when the first only repeats the name");
	free(g);
	g = miniindex_keywords("Deploy — 5 services & more", "x", 79, 20);
	is_str(g, "Deploy services", "keywords: no bare numbers or punctuation");
	free(g);
}

/*
 * The names a text lists in lines ("- name: gist", "name: gist",
 * "name"), with a "## x-*" or "## *-x" heading's part put back, as an
 * agent reads them. Only the lines after the header count.
 */
static void
text_names(const char *text, struct strlist *out)
{
	const char	*p, *e, *star;
	char		*pat = NULL, *line, *name;
	size_t		 n;
	int		 body = 0;

	for (p = text; *p != '\0'; p = *e != '\0' ? e + 1 : e) {
		e = strchr(p, '\n');
		if (e == NULL)
			e = p + strlen(p);
		line = xstrndup(p, (size_t)(e - p));
		if (*line == '\0')
			body = 1;
		else if (strncmp(line, "## ", 3) == 0) {
			free(pat);
			pat = strchr(line, '*') != NULL ? xstrdup(line + 3) :
			    NULL;
		} else if (body) {
			name = line + (strncmp(line, "- ", 2) == 0 ? 2 : 0);
			n = strcspn(name, ":");
			name[n] = '\0';
			if (pat != NULL) {
				star = strchr(pat, '*');
				xasprintf(&name, "%.*s%s%s", (int)(star - pat),
				    pat, name, star + 1);
				strlist_add_take(out, name);
			} else
				strlist_add(out, name);
		}
		free(line);
	}
	free(pat);
}

static int
names_has(const struct strlist *l, const char *name)
{
	size_t	 i;

	for (i = 0; i < l->n; i++)
		if (strcmp(l->v[i], name) == 0)
			return 1;
	return 0;
}

static void
test_budget_levels(size_t n, int tagged, struct strlist *files)
{
	static const size_t budgets[] = { 60, 150, 400, 1000, 3000, 20000 };
	struct skill_set	 set, rev;
	struct miniindex_opts	 o;
	struct miniindex_info	 in, in2;
	struct strlist		 listed;
	char			*t, *t2, *path;
	size_t			 i, j, tok, missing;

	skill_set_init(&set);
	generate(&set, n, tagged);
	for (i = 0; i < sizeof budgets / sizeof budgets[0]; i++) {
		memset(&o, 0, sizeof o);
		o.budget = budgets[i];
		o.group_by = MINIINDEX_GROUP_AUTO;
		t = miniindex_text(&set, &o, &tok, &in);
		ok(tok <= budgets[i] && tokens_estimate_str(t) == tok,
		    "budget %zu, %zu skills: %zu estimated tokens (%s)",
		    budgets[i], n, tok, miniindex_level_name(in.level));
		missing = 0;
		strlist_init(&listed);
		text_names(t, &listed);
		if (in.level <= MINIINDEX_NAMES)
			for (j = 0; j < set.n; j++)
				missing += !names_has(&listed, set.v[j]->uid);
		strlist_done(&listed);
		is_int(missing, 0, "budget %zu, %zu skills: every skill named "
		    "while names fit (%zu named)", budgets[i], n, in.named);
		ok(valid_utf8(t), "budget %zu, %zu skills: valid UTF-8",
		    budgets[i], n);

		/* Same bytes for the same entries in another order. */
		skill_set_init(&rev);
		for (j = set.n; j > 0; j--)
			skill_set_add(&rev, set.v[j - 1]);
		t2 = miniindex_text(&rev, &o, NULL, &in2);
		is_str(t2, t, "budget %zu, %zu skills: deterministic",
		    budgets[i], n);
		free(rev.v);
		free(t2);
		if (files != NULL) {
			xasprintf(&path, "%s/b%zu-%zu.md", tmpdir, budgets[i], n);
			miniindex_write_file(path, t, strlen(t), &t2);
			free(t2);
			strlist_add_take(files, path);
		}
		free(t);
	}
	skill_set_done(&set);
}

/*
 * At the per-group level, names are dealt one per group per round: no
 * group shows two more names than another that still has names left.
 */
static void
test_top_rounds(void)
{
	struct skill_set	 set;
	struct miniindex_opts	 o;
	struct miniindex_info	 in;
	char			*t, *line, *colon;
	const char		*p, *e;
	size_t			 k, n, kmin = (size_t)-1, kmax = 0, lines = 0;
	int			 fair = 1;

	skill_set_init(&set);
	generate(&set, 500, 1);
	memset(&o, 0, sizeof o);
	o.budget = 400;
	t = miniindex_text(&set, &o, NULL, &in);
	is_int(in.level, MINIINDEX_TOP, "500 skills at 400 tokens: per-group lines");
	for (p = strstr(t, "\n\n"); p != NULL && *p != '\0'; p = e) {
		while (*p == '\n')
			p++;
		if ((e = strchr(p, '\n')) == NULL)
			e = p + strlen(p);
		line = xstrndup(p, (size_t)(e - p));
		colon = strstr(line, ": ");
		if (strncmp(line, "Also: ", 6) != 0 && colon != NULL) {
			/* "label N: ...": N is the word before the colon. */
			*colon = '\0';
			n = strtoul(strrchr(line, ' ') != NULL ?
			    strrchr(line, ' ') + 1 : line, NULL, 10);
			*colon = ':';
			for (k = 1, p = colon; (p = strstr(p + 1, ", ")) != NULL;)
				k++;
			lines++;
			if (k < n && k < kmin)
				kmin = k;	/* a group with names left */
			if (k > kmax)
				kmax = k;
		}
		free(line);
	}
	if (kmin != (size_t)-1 && kmax > kmin + 1)
		fair = 0;
	ok(lines > 0 && fair, "per-group names dealt in rounds (%zu lines, "
	    "%zu to %zu names)", lines, kmin == (size_t)-1 ? 0 : kmin, kmax);
	free(t);
	skill_set_done(&set);
}

static void
test_degrade_order(void)
{
	struct skill_set	 set;
	struct miniindex_opts	 o;
	struct miniindex_info	 in;
	char			*t;
	size_t			 b, prev_named = (size_t)-1;
	int			 prev_level = -1, monotone = 1;

	skill_set_init(&set);
	generate(&set, 80, 1);
	memset(&o, 0, sizeof o);
	for (b = 4000; b >= 60; b = b * 4 / 5) {
		o.budget = b;
		t = miniindex_text(&set, &o, NULL, &in);
		if ((int)in.level < prev_level || in.named > prev_named)
			monotone = 0;
		prev_level = (int)in.level;
		prev_named = in.named;
		free(t);
	}
	ok(monotone, "a smaller budget never names more nor degrades less");
	o.budget = 0;
	t = miniindex_text(&set, &o, NULL, &in);
	is_int(in.level, MINIINDEX_FULL, "no budget: full text");
	is_int(in.with_gist, 80, "no budget: 80 gists");
	free(t);
	o.budget = 40;
	t = miniindex_text(&set, &o, NULL, &in);
	ok(strncmp(t, "# Skills\n80 skills: search_skills", 33) == 0 &&
	    in.tokens <= 40, "a tiny budget keeps a one-line header");
	free(t);
	o.budget = 5;
	t = miniindex_text(&set, &o, NULL, &in);
	is_str(t, "", "a budget below the header gives an empty text");
	free(t);
	skill_set_done(&set);
}

static void
test_groups_and_filters(void)
{
	struct skill_set	 set;
	struct miniindex_opts	 o;
	struct miniindex_info	 in;
	struct skill		*s;
	struct config		*cfg;
	char			*t;
	size_t			 i;

	skill_set_init(&set);
	generate(&set, 30, 1);
	s = mk("hidden-user-only", "Only for the user.", "pdf");
	s->disable_model_invocation = 1;
	skill_set_add(&set, s);
	s = mk("shadowed-copy", "A loser of a duplicate.", "pdf");
	s->shadowed_by = xstrdup("/y/SKILL.md");
	skill_set_add(&set, s);
	memset(&o, 0, sizeof o);
	t = miniindex_text(&set, &o, NULL, &in);
	ok(strstr(t, "hidden-user-only") == NULL,
	    "disable-model-invocation is left out");
	ok(strstr(t, "shadowed-copy") == NULL, "shadowed entries are left out");
	is_int(in.skills, 30, "30 eligible skills");
	ok(strstr(t, "\n## pdf\n") != NULL && strstr(t, "\n## api\n") != NULL,
	    "auto groups by hub-tag when skills have tags");
	ok(strncmp(t, "# Skills\n30 skills (skills-radar MCP). Before a task, "
	    "call search_skills(", 64) == 0,
	    "the text starts with the short header that says what to call");
	free(t);
	o.flags = MINIINDEX_MCP;
	t = miniindex_text(&set, &o, NULL, NULL);
	ok(strncmp(t, "# Skills\n30 skills.\n", 20) == 0,
	    "MCP text: the instructions say what to call, the header counts");
	free(t);
	cfg = config_defaults();
	cfg->instructions_budget = 200;
	t = miniindex_mcp_instructions(&set, cfg);
	ok(t != NULL && strncmp(t, "# Skills", 8) == 0 &&
	    tokens_estimate_str(t) <= 200,
	    "MCP instructions keep mcp.instructions_budget");
	free(t);
	cfg->instructions_budget = 0;
	ok(miniindex_mcp_instructions(&set, cfg) == NULL,
	    "mcp.instructions_budget 0 sends none");
	config_free(cfg);

	/* No tags, one scope: clusters of shared name parts. */
	for (i = 0; i < set.n; i++)
		strlist_done(&set.v[i]->tags);
	o.flags = 0;
	t = miniindex_text(&set, &o, NULL, &in);
	ok(in.groups > 1 && strstr(t, "\n## other\n") != NULL,
	    "untagged skills cluster by name part (%zu groups)", in.groups);
	free(t);
	free(set.v[0]->scope);
	set.v[0]->scope = xstrdup("plugin:acme");
	o.group_by = MINIINDEX_GROUP_SCOPE;
	t = miniindex_text(&set, &o, NULL, &in);
	ok(strstr(t, "\n## acme\n") != NULL && strstr(t, "\n## user\n") != NULL,
	    "group by scope: plugin and user sections");
	free(t);
	skill_set_done(&set);
}

static char *
slurp(const char *path)
{
	char	*d;
	size_t	 n;

	if (buf_read_file(path, 0, &d, &n) == -1)
		return NULL;
	return d;
}

static void
test_install(void)
{
	char		*md, *idx, *cause = NULL, *d, *bak;
	int		 changed = -1, rv;
	FILE		*fp;

	xasprintf(&md, "%s/claude/CLAUDE.md", tmpdir);
	xasprintf(&idx, "%s/home/.claude/SKILLS-INDEX.md", tmpdir);
	xasprintf(&bak, "%s.bak", md);
	setenv("HOME", tmpdir, 1);
	free(idx);
	xasprintf(&idx, "%s/.claude/SKILLS-INDEX.md", tmpdir);
	d = miniindex_import_line(idx);
	is_str(d, "@~/.claude/SKILLS-INDEX.md", "import line uses ~");
	free(d);

	rv = miniindex_install(md, idx, &changed, &cause);
	ok(rv == 0 && changed == 1, "install creates a missing CLAUDE.md");
	d = slurp(md);
	is_str(d, "@~/.claude/SKILLS-INDEX.md\n", "CLAUDE.md holds the line");
	free(d);
	rv = miniindex_install(md, idx, &changed, &cause);
	ok(rv == 0 && changed == 0, "install again changes nothing");

	fp = fopen(md, "w");
	fputs("# My rules\nBe terse.", fp);	/* no final newline */
	fclose(fp);
	rv = miniindex_install(md, idx, &changed, &cause);
	d = slurp(md);
	is_str(d, "# My rules\nBe terse.\n@~/.claude/SKILLS-INDEX.md\n",
	    "install appends after existing text");
	free(d);
	d = slurp(bak);
	is_str(d, "# My rules\nBe terse.", "install kept a backup");
	free(d);
	miniindex_install(md, idx, &changed, &cause);
	ok(changed == 0, "never a duplicate line");

	rv = miniindex_uninstall(md, idx, &changed, &cause);
	d = slurp(md);
	ok(rv == 0 && changed == 1, "uninstall removes the line");
	is_str(d, "# My rules\nBe terse.\n", "uninstall leaves the rest");
	free(d);
	rv = miniindex_uninstall(md, idx, &changed, &cause);
	ok(rv == 0 && changed == 0, "uninstall again changes nothing");

	ok(miniindex_check_file(idx, "x", &cause) == 1,
	    "check: a missing file is stale");
	miniindex_write_file(idx, "x", 1, &cause);
	ok(miniindex_check_file(idx, "x", &cause) == 0,
	    "check: equal file is up to date");
	ok(miniindex_check_file(idx, "y", &cause) == 1,
	    "check: a different file is stale");
	free(md);
	free(idx);
	free(bak);
	free(cause);
}

static void
test_budget_report(void)
{
	struct skill_set	 set;
	struct config		*cfg;
	cJSON			*r, *d;
	struct skill		*s;

	skill_set_init(&set);
	generate(&set, 80, 0);
	s = mk("plugged", "A plugin skill.", NULL);
	free(s->scope);
	s->scope = xstrdup("plugin:acme");
	skill_set_add(&set, s);
	cfg = config_defaults();
	unsetenv("SLASH_COMMAND_TOOL_CHAR_BUDGET");
	r = budget_report(&set, cfg, NULL, 0);
	is_int(cJSON_GetObjectItem(r, "budget_chars")->valueint, 8000,
	    "budget: 200k context gives 8,000 chars");
	is_int(cJSON_GetObjectItem(r, "skills")->valueint, 81,
	    "budget: 81 listed skills");
	d = cJSON_GetObjectItem(r, "skill_overrides");
	ok(cJSON_GetObjectItem(d, "acme:plugged") != NULL,
	    "budget: plugin skills listed as plugin:name");
	cJSON_Delete(r);
	setenv("SLASH_COMMAND_TOOL_CHAR_BUDGET", "500", 1);
	r = budget_report(&set, cfg, NULL, 0);
	ok(cJSON_GetObjectItem(r, "budget_chars")->valueint == 500 &&
	    cJSON_GetObjectItem(r, "dropped")->valueint > 0 &&
	    cJSON_GetArraySize(cJSON_GetObjectItem(r, "dropped_names")) ==
	    cJSON_GetObjectItem(r, "dropped")->valueint,
	    "budget: the env budget drops descriptions and names them");
	unsetenv("SLASH_COMMAND_TOOL_CHAR_BUDGET");
	cJSON_Delete(r);
	r = budget_report(&set, cfg, NULL, 1000000);
	is_int(cJSON_GetObjectItem(r, "budget_chars")->valueint, 40000,
	    "budget: 1M context gives 40,000 chars");
	ok(cJSON_IsTrue(cJSON_GetObjectItem(r, "fits")), "budget: it fits");
	cJSON_Delete(r);
	config_free(cfg);
	skill_set_done(&set);
}

/*
 * Counts the written texts with the real tokenizer when the test-only npm
 * package is installed; skips otherwise.
 */
static void
test_real_tokenizer(struct strlist *files)
{
	const char	*top = getenv("TOP_SRCDIR");
	char		*mods = NULL, *cmd = NULL, *list;
	char		 line[64];
	struct stat	 st;
	FILE		*p;
	size_t		 i = 0, budget, n, bad = 0, got = 0;

	if (top == NULL)
		top = SR_SRCDIR;
	xasprintf(&mods, "%s/tests/e2e/node_modules", top);
	xasprintf(&cmd, "%s/@anthropic-ai/tokenizer", mods);
	/* tests/e2e/run.sh installs into the build tree in a VPATH build. */
	if (stat(cmd, &st) == -1 && getenv("TOP_BUILDDIR") != NULL) {
		free(mods);
		free(cmd);
		xasprintf(&mods, "%s/tests/e2e/node_modules",
		    getenv("TOP_BUILDDIR"));
		xasprintf(&cmd, "%s/@anthropic-ai/tokenizer", mods);
	}
	if (stat(cmd, &st) == -1 || system("node --version >/dev/null 2>&1")) {
		ok(1, "real tokenizer # SKIP tests/e2e/node_modules or node "
		    "missing");
		free(mods);
		free(cmd);
		return;
	}
	free(cmd);
	list = strlist_join(files, " ");
	xasprintf(&cmd, "NODE_PATH=%s node %s/tests/data/tier1/count-tokens.js "
	    "%s", mods, top, list);
	if ((p = popen(cmd, "r")) != NULL) {
		while (fgets(line, sizeof line, p) != NULL && i < files->n) {
			n = strtoul(line, NULL, 10);
			sscanf(strrchr(files->v[i], '/'), "/b%zu-", &budget);
			if (n > budget) {
				bad++;
				diag("%s: %zu tokens > %zu", files->v[i], n,
				    budget);
			}
			got++;
			i++;
		}
		pclose(p);
	}
	is_int(got, files->n, "real tokenizer counted every text");
	is_int(bad, 0, "real tokenizer: no text over its budget");
	free(list);
	free(cmd);
	free(mods);
}

int
main(void)
{
	struct strlist	 files;
	char		*cmd;

	xmalloc_init();
	if (mkdtemp(tmpdir) == NULL)
		return 1;
	strlist_init(&files);
	test_tokens();
	test_summary();
	test_budget_levels(10, 1, &files);
	test_budget_levels(80, 1, &files);
	test_budget_levels(80, 0, NULL);
	test_budget_levels(500, 1, &files);
	test_degrade_order();
	test_top_rounds();
	test_groups_and_filters();
	test_real_tokenizer(&files);
	test_install();
	test_budget_report();
	strlist_done(&files);
	xasprintf(&cmd, "rm -rf '%s'", tmpdir);
	if (system(cmd) != 0)
		diag("could not remove %s", tmpdir);
	free(cmd);
	return done_testing();
}
