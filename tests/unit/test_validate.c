/*
 * validate_name(), validate_entry() and the rule table: DESIGN §6.
 */
#include "autoconfig.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "core/config.h"
#include "core/frontmatter.h"
#include "core/skill.h"
#include "base/strlist.h"
#include "core/validate.h"
#include "base/xmalloc.h"

#include "tap.h"

static struct strlist	 seen;	/* every rule id emitted by the tests */

struct res {
	int		 rejected;
	char		*name;
	struct findings	 out;
};

static void
note_rules(const struct findings *f)
{
	size_t	 i;

	for (i = 0; i < f->n; i++)
		strlist_add_unique(&seen, f->v[i].rule, 0);
}

static void
run(const char *in, enum skill_kind kind, const char *fallback,
    size_t size, const struct config *cfg, struct res *r)
{
	struct fm	 fm;

	fm_parse(in, strlen(in), &fm);
	findings_init(&r->out);
	r->rejected = validate_entry(&fm, kind, fallback,
	    size != 0 ? size : strlen(in), cfg, &r->out, &r->name);
	note_rules(&r->out);
	fm_done(&fm);
}

static void
run_fixture(const char *file, enum skill_kind kind, const char *fallback,
    struct res *r)
{
	char	*path, *text = NULL;
	size_t	 len;

	xasprintf(&path, "%s/tests/data/frontmatter/%s", SR_SRCDIR, file);
	if (buf_read_file(path, 0, &text, &len) == -1) {
		diag("cannot read %s", path);
		text = xstrdup("");
	}
	run(text, kind, fallback, 0, NULL, r);
	free(text);
	free(path);
}

static void
res_done(struct res *r)
{
	findings_done(&r->out);
	free(r->name);
}

static const struct finding *
find(const struct res *r, const char *rule)
{
	size_t	 i;

	for (i = 0; i < r->out.n; i++) {
		if (strcmp(r->out.v[i].rule, rule) == 0)
			return &r->out.v[i];
	}
	return NULL;
}

static size_t
count(const struct res *r, const char *rule)
{
	size_t	 i, n = 0;

	for (i = 0; i < r->out.n; i++)
		n += strcmp(r->out.v[i].rule, rule) == 0;
	return n;
}

static void
test_names(void)
{
	char	 s[80];

	is_str(validate_name("a"), NULL, "name: one character");
	is_str(validate_name("0"), NULL, "name: a digit");
	is_str(validate_name("pdf-tools-2"), NULL, "name: hyphens and digits");
	is_str(validate_name("a--b"), NULL, "name: double hyphens allowed");
	is_str(validate_name("-ab"), "name-invalid", "name: leading hyphen");
	is_str(validate_name("ab-"), "name-invalid", "name: trailing hyphen");
	is_str(validate_name("-"), "name-invalid", "name: a lone hyphen");
	is_str(validate_name("Pdf"), "name-invalid", "name: upper case");
	is_str(validate_name("a_b"), "name-invalid", "name: underscore");
	is_str(validate_name("a b"), "name-invalid", "name: space");
	is_str(validate_name("abc\n"), "name-invalid",
	    "name: strict $, a trailing newline is invalid");
	is_str(validate_name("caf\xc3\xa9"), "name-invalid", "name: non-ASCII");
	is_str(validate_name(""), "name-invalid", "name: empty");
	is_str(validate_name(NULL), "name-invalid", "name: NULL");
	memset(s, 'a', 64);
	s[64] = '\0';
	is_str(validate_name(s), NULL, "name: 64 characters");
	s[64] = 'a';
	s[65] = '\0';
	is_str(validate_name(s), "name-too-long", "name: 65 characters");
	is_str(validate_name("claude"), "name-reserved", "name: claude");
	is_str(validate_name("anthropic"), "name-reserved", "name: anthropic");
	is_str(validate_name("claude-api"), NULL,
	    "name: containing a reserved word is valid");
}

static void
test_entry_names(void)
{
	struct res		 r;
	const struct finding	*f;

	run("---\nname: claude-api\ndescription: d\n---\n", KIND_SKILL,
	    "claude-api", 0, NULL, &r);
	is_int(r.rejected, 0, "entry: claude-api accepted");
	f = find(&r, "name-contains-reserved");
	ok(f != NULL && f->sev == SEV_WARN, "entry: contains-reserved warns");
	res_done(&r);

	run("---\nname: claude\ndescription: d\n---\n", KIND_SKILL, "x", 0,
	    NULL, &r);
	is_int(r.rejected, 1, "entry: claude rejected");
	ok(find(&r, "name-reserved") != NULL, "entry: name-reserved");
	res_done(&r);

	run("---\nname: |\n  abc\ndescription: d\n---\n", KIND_SKILL, "abc",
	    0, NULL, &r);
	is_int(r.rejected, 1, "entry: a name with a newline is rejected");
	f = find(&r, "name-invalid");
	ok(f != NULL && f->sev == SEV_ERROR && strstr(f->message, "abc?")
	    != NULL, "entry: the message shows the newline as ?");
	res_done(&r);

	run("---\nname: Pdf_Tools\ndescription: d\n---\n", KIND_SKILL,
	    "pdf-tools", 0, NULL, &r);
	is_int(r.rejected, 1, "entry: frontmatter names are not lower-cased");
	res_done(&r);

	run("---\nname: abcdefghij-abcdefghij-abcdefghij-abcdefghij-abcdefghij-"
	    "abcdefghij\ndescription: d\n---\n", KIND_SKILL, "x", 0, NULL, &r);
	is_int(r.rejected, 1, "entry: a 65-character name is rejected");
	f = find(&r, "name-too-long");
	ok(f != NULL && strstr(f->message, "65 characters") != NULL,
	    "entry: name-too-long gives the length");
	res_done(&r);

	run("---\nname: one\ndescription: d\n---\n", KIND_SKILL, "other", 0,
	    NULL, &r);
	is_int(r.rejected, 0, "entry: mismatch accepted");
	f = find(&r, "name-mismatch");
	ok(f != NULL && f->line == 2, "entry: name-mismatch warns on line 2");
	is_str(r.name, "one", "entry: the frontmatter name is used");
	res_done(&r);

	run("---\nname: one\ndescription: d\n---\n", KIND_AGENT, "other", 0,
	    NULL, &r);
	ok(find(&r, "name-mismatch") == NULL,
	    "entry: agents are not checked against the file stem");
	res_done(&r);

	run("---\ndescription: d\n---\n", KIND_SKILL, "My-Skill", 0, NULL, &r);
	is_int(r.rejected, 0, "fallback: directory name accepted");
	is_str(r.name, "my-skill", "fallback: lower-cased");
	ok(find(&r, "name-fallback") != NULL, "fallback: reported as info");
	res_done(&r);

	run("---\nname: \"\"\ndescription: d\n---\n", KIND_SKILL, "dir", 0,
	    NULL, &r);
	is_str(r.name, "dir", "fallback: an empty name falls back");
	res_done(&r);

	run("---\ndescription: d\n---\n", KIND_SKILL, "My Skill", 0, NULL, &r);
	is_int(r.rejected, 1, "fallback: an invalid directory name rejects");
	f = find(&r, "name-invalid");
	ok(f != NULL && strstr(f->message, "directory name") != NULL &&
	    strstr(f->message, "\"My Skill\"") != NULL,
	    "fallback: the reason names the directory as written");
	ok(f != NULL && strstr(f->message, "indexes it as \"my-skill\"") !=
	    NULL, "fallback: the reason tells authors the normalised id");
	res_done(&r);

	run("---\ndescription: d\n---\n", KIND_COMMAND, NULL, 0, NULL, &r);
	is_int(r.rejected, 1, "fallback: no name and no fallback rejects");
	is_str(r.name, NULL, "fallback: no name derived");
	res_done(&r);
}

static void
test_descriptions(void)
{
	struct res		 r;
	struct buf		 b;
	struct fm		 fm;
	int			 i;

	run("---\nname: a\n---\n", KIND_SKILL, "a", 0, NULL, &r);
	is_int(r.rejected, 1, "desc: required for a skill");
	ok(find(&r, "description-missing") != NULL,
	    "desc: description-missing");
	res_done(&r);

	run("---\nname: a\ndescription: \"   \"\n---\n", KIND_AGENT, "a", 0,
	    NULL, &r);
	is_int(r.rejected, 1, "desc: blank counts as missing for an agent");
	res_done(&r);

	run("---\nname: a\n---\n\n## Deploy it  \nmore\n", KIND_COMMAND, "a",
	    0, NULL, &r);
	is_int(r.rejected, 0, "desc: a command may omit it");
	ok(find(&r, "description-from-body") != NULL,
	    "desc: command falls back to its body");
	res_done(&r);
	fm_parse("# Deploy it\n", 12, &fm);
	is_str(validate_description(&fm, KIND_COMMAND), "Deploy it",
	    "desc: the effective description of a command");
	is_str(validate_description(&fm, KIND_SKILL), NULL,
	    "desc: skills never use the body");
	fm_done(&fm);

	run("---\nname: a\n---\n", KIND_COMMAND, "a", 0, NULL, &r);
	is_int(r.rejected, 0, "desc: an empty command is accepted");
	ok(find(&r, "command-description-empty") != NULL,
	    "desc: ... with a warning");
	res_done(&r);

	buf_init(&b, 0);
	buf_addstr(&b, "---\nname: a\ndescription: ");
	for (i = 0; i < 1025; i++)
		buf_addstr(&b, "\xc3\xa9");
	buf_addstr(&b, "\n---\n");
	run(b.p, KIND_SKILL, "a", 0, NULL, &r);
	is_int(r.rejected, 0, "desc: long accepted");
	ok(find(&r, "description-too-long") != NULL,
	    "desc: over 1024 characters warns");
	res_done(&r);
	buf_done(&b);

	buf_init(&b, 0);
	buf_addstr(&b, "---\nname: a\ndescription: ");
	for (i = 0; i < 1000; i++)
		buf_addstr(&b, "\xc3\xa9");
	buf_addstr(&b, "\n---\n");
	run(b.p, KIND_SKILL, "a", 0, NULL, &r);
	ok(find(&r, "description-too-long") == NULL,
	    "desc: counted in characters, not bytes");
	res_done(&r);
	buf_done(&b);
}

static void
test_frontmatter_rules(void)
{
	struct res		 r;
	const struct finding	*f;

	run_fixture("nofm.md", KIND_SKILL, "deploy", &r);
	is_int(r.rejected, 1, "nofm: a skill without frontmatter is rejected");
	f = find(&r, "frontmatter-missing");
	ok(f != NULL && f->sev == SEV_ERROR, "nofm: frontmatter-missing");
	res_done(&r);

	run_fixture("nofm.md", KIND_COMMAND, "Deploy", &r);
	is_int(r.rejected, 0, "nofm: a command without frontmatter is fine");
	is_str(r.name, "deploy", "nofm: command name from the file stem");
	res_done(&r);

	run_fixture("unclosed.md", KIND_SKILL, "never-closed", &r);
	is_int(r.rejected, 1, "unclosed: rejected for a skill");
	f = find(&r, "frontmatter-missing");
	ok(f != NULL && strstr(f->message, "never closed") != NULL,
	    "unclosed: the reason says so");
	ok(find(&r, "frontmatter-unclosed") != NULL,
	    "unclosed: parse finding copied to out");
	res_done(&r);

	run_fixture("colon.md", KIND_SKILL, "colon-prose", &r);
	is_int(r.rejected, 0, "colon: recovered file accepted");
	is_str(r.name, "colon-prose", "colon: the name: line's name");
	ok(find(&r, "yaml-recovered") != NULL, "colon: warning kept");
	res_done(&r);

	run_fixture("invalid.md", KIND_SKILL, "invalid", &r);
	is_int(r.rejected, 1, "invalid: rejected");
	ok(find(&r, "description-missing") == NULL,
	    "invalid: no piled-on description-missing");
	res_done(&r);

	run_fixture("desc-mapping.md", KIND_SKILL, "desc-mapping", &r);
	is_int(r.rejected, 1, "mapping: rejected");
	ok(find(&r, "value-type") != NULL && find(&r, "description-missing")
	    == NULL, "mapping: one clear reason");
	res_done(&r);

	run_fixture("bomb.md", KIND_SKILL, "alias-bomb", &r);
	is_int(r.rejected, 1, "bomb: rejected");
	res_done(&r);

	run_fixture("not-mapping.md", KIND_SKILL, "x", &r);
	is_int(r.rejected, 1, "list root: rejected");
	res_done(&r);

	run_fixture("coerce.md", KIND_SKILL, "coerce-values", &r);
	is_int(r.rejected, 0, "coerce: accepted with warnings");
	res_done(&r);

	run_fixture("unknown-keys.md", KIND_SKILL, "unknown-keys", &r);
	f = find(&r, "key-unknown");
	ok(f != NULL && f->sev == SEV_INFO && strstr(f->message, "author")
	    != NULL, "keys: author is unknown (info)");
	ok(f != NULL && f->line == 5, "keys: on its line");
	is_int(count(&r, "key-unknown"), 1,
	    "keys: argument-hint and model are known");
	f = find(&r, "key-case");
	ok(f != NULL && f->sev == SEV_WARN && strstr(f->message, "\"version\"")
	    != NULL, "keys: Version suggests version");
	res_done(&r);

	/* Findings already in out are not added twice. */
	{
		struct fm	 fm;
		struct findings	 out;
		char		*name;
		const char	*in = "---\nname: a\ndescription: x: y\n---\n";

		fm_parse(in, strlen(in), &fm);
		findings_init(&out);
		findings_extend(&out, &fm.findings);
		validate_entry(&fm, KIND_SKILL, "a", strlen(in), NULL, &out,
		    &name);
		is_int(fm.findings.n, 1, "dedup: one parse finding");
		{
			size_t i, n = 0;

			for (i = 0; i < out.n; i++)
				n += strcmp(out.v[i].rule,
				    "yaml-recovered") == 0;
			is_int(n, 1, "dedup: not copied twice into out");
		}
		free(name);
		findings_done(&out);
		fm_done(&fm);
	}
}

static void
test_size(void)
{
	struct config	*cfg;
	struct res	 r;
	const char	*in = "---\nname: big\ndescription: d\n---\n";

	cfg = config_defaults();
	ok(cfg->max_skill_size_kb >= 64, "size: default cap at least 64 KiB");
	cfg->max_skill_size_kb = 64;
	run(in, KIND_SKILL, "big", 64 * 1024, cfg, &r);
	is_int(r.rejected, 0, "size: exactly 64 KiB is fine");
	res_done(&r);
	run(in, KIND_SKILL, "big", 64 * 1024 + 1, cfg, &r);
	is_int(r.rejected, 1, "size: one byte over is rejected");
	ok(find(&r, "file-too-large") != NULL, "size: file-too-large");
	res_done(&r);
	cfg->allow_large = 1;
	run(in, KIND_SKILL, "big", 200 * 1024, cfg, &r);
	is_int(r.rejected, 0, "size: allow_large indexes it");
	ok(find(&r, "file-large") != NULL, "size: ... with an info finding");
	res_done(&r);
	cfg->allow_large = 0;
	cfg->max_skill_size_kb = 1;
	run(in, KIND_SKILL, "big", 2048, cfg, &r);
	is_int(r.rejected, 1, "size: the configured cap is used");
	res_done(&r);
	config_free(cfg);
}

/* validate_entry_index(): the index with or without normalising names. */
static void
run_index(const char *in, const char *fallback, int normalise, struct res *r,
    char **display)
{
	struct fm	 fm;

	fm_parse(in, strlen(in), &fm);
	findings_init(&r->out);
	r->rejected = validate_entry_index(&fm, KIND_SKILL, fallback,
	    strlen(in), NULL, normalise, &r->out, &r->name, display);
	note_rules(&r->out);
	fm_done(&fm);
}

static void
test_name_ids(void)
{
	static const struct { const char *in, *want, *what; } c[] = {
		{ "Telegram Bot Builder", "telegram-bot-builder", "spaces" },
		{ "PocketBase Deploy", "pocketbase-deploy", "camel case kept "
		    "as one word" },
		{ "sl_auto-pr-merger", "sl-auto-pr-merger", "underscore" },
		{ "r-lib/cli", "r-lib-cli", "slash" },
		{ "--a--b--", "a-b", "edge and double hyphens" },
		{ "Größe Über", "grosse-uber", "German: folded to ASCII" },
		{ "Café  Crème!", "cafe-creme", "accents and punctuation" },
		{ "ＰＤＦ Tools", "pdf-tools", "full-width letters (NFKC)" },
		{ "Dave’s Release Notes", "daves-release-notes", "an apostrophe "
		    "(curly) joins the word" },
		{ "数据分析", NULL, "CJK only: no id" },
		{ "Анализ", NULL, "Cyrillic only: no id" },
		{ "数据 analysis", "analysis", "mixed: the ASCII part" },
		{ "", NULL, "empty" },
		{ "  ---  ", NULL, "punctuation only" },
	};
	char	*id, *longname;
	size_t	 i;

	for (i = 0; i < sizeof c / sizeof c[0]; i++) {
		id = skill_name_id(c[i].in);
		if (c[i].want == NULL)
			ok(id == NULL, "id: %s (got %s)", c[i].what,
			    id ? id : "NULL");
		else
			is_str(id, c[i].want, "id: %s", c[i].what);
		free(id);
	}
	/* 13 words of 5 letters: 77 characters, cut at a hyphen. */
	longname = xstrdup("Alpha Bravo Delta Gamma Kappa Omega Sigma Theta "
	    "Tango Hotel Lemon Mango Zebra");
	id = skill_name_id(longname);
	ok(id != NULL && strlen(id) <= 64 && id[strlen(id) - 1] != '-' &&
	    strcmp(id, "alpha-bravo-delta-gamma-kappa-omega-sigma-theta-"
	    "tango-hotel") == 0, "id: a long name is cut at a hyphen (%s)",
	    id ? id : "NULL");
	free(id);
	free(longname);
	id = skill_name_id("abcdefghijabcdefghijabcdefghijabcdefghijabcdefghij"
	    "abcdefghijabcdefghij");
	ok(id != NULL && strlen(id) == 64, "id: one long word is cut at 64");
	free(id);
}

static void
test_index_names(void)
{
	const struct finding	*f;
	struct res		 r;
	char			*d;

	run_index("---\nname: Telegram Bot Builder\ndescription: d\n---\n",
	    "telegram-bot", 1, &r, &d);
	is_int(r.rejected, 0, "index: a name with spaces is indexed");
	is_str(r.name, "telegram-bot-builder", "index: under its normalised id");
	is_str(d, "Telegram Bot Builder", "index: the name as written is kept");
	f = find(&r, "name-normalised");
	ok(f != NULL && f->sev == SEV_WARN && f->line == 2 &&
	    strstr(f->message, "telegram-bot-builder") != NULL,
	    "index: name-normalised warns on the name line with the id");
	ok(findings_first_error(&r.out) == NULL, "index: no error left");
	ok(find(&r, "name-mismatch") != NULL,
	    "index: a directory that is neither the id nor the name mismatches");
	res_done(&r);
	free(d);

	run_index("---\nname: Telegram Bot Builder\ndescription: d\n---\n",
	    "telegram-bot", 0, &r, &d);
	ok(r.rejected && find(&r, "name-invalid") != NULL && d == NULL,
	    "index: strict names reject it as name-invalid");
	res_done(&r);

	run_index("---\nname: CRO-forecast\ndescription: d\n---\n",
	    "CRO-forecast", 1, &r, &d);
	ok(!r.rejected && find(&r, "name-mismatch") == NULL,
	    "index: a directory named as written is no mismatch");
	res_done(&r);
	free(d);

	run_index("---\nname: Bad_Name\ndescription: d\n---\n", "bad-name",
	    1, &r, &d);
	ok(!r.rejected && find(&r, "name-mismatch") == NULL,
	    "index: a directory named as the id is no mismatch");
	res_done(&r);
	free(d);

	run_index("---\nname: 数据分析\ndescription: d\n---\n",
	    "data-analysis", 1, &r, &d);
	is_str(r.name, "data-analysis", "index: a CJK name falls back to the "
	    "directory");
	is_str(d, "数据分析", "index: ... and is shown as written");
	res_done(&r);
	free(d);

	run_index("---\nname: 数据分析\ndescription: d\n---\n", "数据", 1, &r,
	    &d);
	ok(r.rejected && find(&r, "name-invalid") != NULL && d == NULL,
	    "index: no id from the name or the directory rejects");
	res_done(&r);

	run_index("---\nname: Claude\ndescription: d\n---\n", "x", 1, &r,
	    &d);
	ok(r.rejected && find(&r, "name-reserved") != NULL,
	    "index: a name normalising to a reserved word is rejected");
	res_done(&r);

	run_index("---\nname: claude\ndescription: d\n---\n", "x", 1, &r,
	    &d);
	ok(r.rejected && find(&r, "name-reserved") != NULL,
	    "index: a reserved name is still rejected");
	res_done(&r);

	run_index("---\ndescription: d\n---\n", "My Skill", 1, &r, &d);
	ok(!r.rejected && strcmp(r.name, "my-skill") == 0 && d != NULL &&
	    strcmp(d, "My Skill") == 0,
	    "index: an invalid directory name is normalised too");
	res_done(&r);
	free(d);

	run_index("---\nname: pdf-tools\ndescription: d\n---\n", "pdf-tools",
	    1, &r, &d);
	ok(!r.rejected && d == NULL && r.out.n == 0,
	    "index: a valid name has no display name and no finding");
	res_done(&r);

	run_index("---\nname: pdf-tools\n---\n", "pdf-tools", 1, &r, &d);
	ok(r.rejected && find(&r, "description-missing") != NULL,
	    "index: a missing description still hides the skill");
	res_done(&r);
}

static int
rule_id_ok(const char *id)
{
	const char	*p;

	if (!islower((unsigned char)*id))
		return 0;
	for (p = id; *p != '\0'; p++) {
		if (!islower((unsigned char)*p) && !isdigit((unsigned char)*p)
		    && *p != '-')
			return 0;
	}
	return p[-1] != '-' && strstr(id, "--") == NULL;
}

static void
test_rules_table(void)
{
	const struct validate_rule	*r, *q;
	size_t				 i, n = 0;
	int				 shape = 1, dup = 0, found;

	for (r = validate_rules; r->id != NULL; r++) {
		n++;
		if (!rule_id_ok(r->id) || r->what == NULL ||
		    r->sev < SEV_INFO || r->sev > SEV_ERROR)
			shape = 0;
		for (q = validate_rules; q < r; q++)
			dup |= strcmp(q->id, r->id) == 0;
	}
	ok(n >= 20, "rules: table lists %zu rules", n);
	ok(shape, "rules: ids lower-case-hyphenated, each described");
	ok(!dup, "rules: no id listed twice");
	for (i = 0; i < seen.n; i++) {
		found = 0;
		for (r = validate_rules; r->id != NULL; r++)
			found |= strcmp(r->id, seen.v[i]) == 0;
		ok(found, "rules: emitted id %s is in the table", seen.v[i]);
	}
	for (r = validate_rules; r->id != NULL; r++)
		ok(strlist_contains(&seen, r->id, 0),
		    "rules: table id %s is exercised by a test", r->id);
}

/* Every rule id emitted anywhere carries the table's severity. */
static void
test_rule_severities(void)
{
	const char *const files[] = { "aliases.md", "bad-utf8.md", "basic.md",
	    "block.md", "bom-crlf.md", "bomb.md", "coerce.md", "colon.md",
	    "deep.md", "desc-mapping.md", "dmi-number.md",
	    "dmi-string-false.md",
	    "dmi-true.md", "dmi-yes.md", "duplicate.md", "empty-blank.md",
	    "empty.md", "eof-fence.md", "flow.md", "invalid.md", "nofm.md",
	    "not-mapping.md", "radar-fallthrough.md", "radar.md", "recover.md",
	    "scalar-lists.md", "unclosed.md", "unknown-keys.md",
	    "complex-key.md", "recover-quoted.md", NULL };
	const struct validate_rule	*r;
	const char *const		*f;
	struct res			 res;
	size_t				 i;
	int				 good = 1;

	for (f = files; *f != NULL; f++) {
		run_fixture(*f, KIND_SKILL, "dir", &res);
		for (i = 0; i < res.out.n; i++) {
			for (r = validate_rules; r->id != NULL; r++) {
				if (strcmp(r->id, res.out.v[i].rule) == 0 &&
				    r->sev != (int)res.out.v[i].sev) {
					diag("%s: %s is %s, table says %s",
					    *f, r->id, severity_name(
					    res.out.v[i].sev),
					    severity_name(r->sev));
					good = 0;
				}
			}
		}
		res_done(&res);
	}
	ok(good, "rules: emitted severities match the table");

	/* A frontmatter block over the cap. */
	{
		struct buf	 b;

		buf_init(&b, 0);
		buf_addstr(&b, "---\nname: big\ndescription: d\nx: |\n");
		while (b.len <= FM_MAX_BYTES)
			buf_addstr(&b, "  filler filler filler filler\n");
		buf_addstr(&b, "---\n");
		run(b.p, KIND_SKILL, "big", 0, NULL, &res);
		is_int(res.rejected, 1,
		    "rules: frontmatter over 64 KiB rejected");
		ok(find(&res, "frontmatter-too-large") != NULL,
		    "rules: frontmatter-too-large");
		res_done(&res);
		buf_done(&b);
	}
	run_fixture("complex-key.md", KIND_SKILL, "complex-key", &res);
	is_int(res.rejected, 0, "rules: a list key is skipped, not fatal");
	ok(find(&res, "key-invalid") != NULL, "rules: key-invalid");
	res_done(&res);
}

int
main(void)
{
	xmalloc_init();
	strlist_init(&seen);
	test_names();
	test_entry_names();
	test_descriptions();
	test_frontmatter_rules();
	test_size();
	test_name_ids();
	test_index_names();
	test_rule_severities();
	test_rules_table();
	strlist_done(&seen);
	return done_testing();
}
