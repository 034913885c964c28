/*
 * fm_parse(): every oddity real SKILL.md files contain, from the fixtures
 * in tests/data/frontmatter/ and a few inputs built here.
 */
#include "autoconfig.h"

#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "core/frontmatter.h"
#include "base/xmalloc.h"

#include "tap.h"

static char	*text;
static size_t	 text_len;

/* Parses tests/data/frontmatter/name into fm; the text stays in `text`. */
static int
parse_fixture(const char *name, struct fm *fm)
{
	char	*path;
	int	 rv;

	free(text);
	text = NULL;
	xasprintf(&path, "%s/tests/data/frontmatter/%s", SR_SRCDIR, name);
	rv = buf_read_file(path, 0, &text, &text_len);
	if (rv == -1) {
		diag("cannot read %s", path);
		text = xstrdup("");
		text_len = 0;
	}
	free(path);
	fm_parse(text, text_len, fm);
	return rv;
}

static const struct finding *
find(const struct fm *fm, const char *rule)
{
	size_t	 i;

	for (i = 0; i < fm->findings.n; i++) {
		if (strcmp(fm->findings.v[i].rule, rule) == 0)
			return &fm->findings.v[i];
	}
	return NULL;
}

static int
has(const struct fm *fm, const char *rule)
{
	return find(fm, rule) != NULL;
}

static const char *
item(const struct strlist *l, size_t i)
{
	return i < l->n ? l->v[i] : NULL;
}

static const char *
body(const struct fm *fm)
{
	return text + fm->body_offset;
}

static void
test_basic(void)
{
	struct fm	 fm;

	is_int(parse_fixture("basic.md", &fm), 0, "basic: fixture read");
	is_int(fm.has_frontmatter, 1, "basic: has frontmatter");
	is_str(fm.name, "pdf-tools", "basic: name");
	is_str(fm.description, "Extract text and tables from PDF files.",
	    "basic: description");
	is_str(fm.license, "MIT", "basic: license");
	is_str(fm.version, "1.2", "basic: quoted version stays a string");
	is_int(fm.findings.n, 0, "basic: no findings");
	is_int(fm.body_line, 7, "basic: body starts on line 7");
	ok(strncmp(body(&fm), "# PDF tools\n", 12) == 0,
	    "basic: body offset points after the closing ---");
	is_str(fm.summary, "PDF tools", "basic: summary strips #");
	is_int(fm.keys.n, 4, "basic: four keys");
	is_str(item(&fm.keys, 3), "version", "basic: keys in file order");
	ok(fm.key_lines != NULL && fm.key_lines[3] == 5,
	    "basic: key line of version is 5");
	is_str(fm.json, "{\"name\":\"pdf-tools\",\"description\":"
	    "\"Extract text and tables from PDF files.\",\"license\":"
	    "\"MIT\",\"version\":\"1.2\"}", "basic: json is faithful");
	is_int(fm.user_invocable, 1, "basic: user-invocable defaults to 1");
	is_int(fm.disable_model_invocation, 0, "basic: dmi defaults to 0");
	fm_done(&fm);
}

static void
test_bom_crlf(void)
{
	struct fm	 fm;

	parse_fixture("bom-crlf.md", &fm);
	is_int(fm.has_frontmatter, 1, "bom+crlf: frontmatter found after BOM");
	is_str(fm.name, "bom-crlf", "bom+crlf: name has no \\r");
	is_str(fm.description, "Saved on Windows", "bom+crlf: description");
	is_int(fm.tags.n, 2, "bom+crlf: two tags");
	is_str(item(&fm.tags, 0), "office", "bom+crlf: tags lower-cased");
	is_str(body(&fm), "Body line\r\n", "bom+crlf: body after \\r\\n fence");
	is_str(fm.summary, "Body line", "bom+crlf: summary has no \\r");
	fm_done(&fm);
}

static void
test_block_scalars(void)
{
	struct fm	 fm;

	parse_fixture("block.md", &fm);
	is_str(fm.description, "First line.\nSecond line.",
	    "block: literal | keeps line breaks, trimmed");
	is_str(fm.when_to_use, "Use when the user asks for folding.",
	    "block: folded > joins lines");
	ok(strstr(fm.json, "\"First line.\\nSecond line.\\n\"") != NULL,
	    "block: json keeps the literal's final newline");
	fm_done(&fm);
}

static void
test_flow_lists(void)
{
	struct fm	 fm;

	parse_fixture("flow.md", &fm);
	is_int(fm.tags.n, 2, "flow: hub-tags trimmed, lower-cased, unique");
	is_str(item(&fm.tags, 0), "writing", "flow: first tag");
	is_str(item(&fm.tags, 1), "docs", "flow: second tag");
	is_str(item(&fm.platforms, 1), "macos", "flow: platforms lower-cased");
	is_int(fm.allowed_tools.n, 2, "flow: allowed-tools list");
	is_str(item(&fm.allowed_tools, 1), "Bash(git add:*)",
	    "flow: a tool with a space inside parentheses stays whole");
	is_int(fm.triggers.n, 2, "flow: triggers");
	is_str(item(&fm.triggers, 1), "edit, then publish",
	    "flow: list items are not split on commas");
	is_int(fm.body_offset, text_len, "flow: empty body at the end");
	is_str(fm.summary, NULL, "flow: no summary without a body");
	fm_done(&fm);
}

static void
test_radar(void)
{
	struct fm	 fm;

	parse_fixture("radar.md", &fm);
	is_int(fm.tags.n, 2, "radar: metadata.radar.hub-tags wins over tags");
	is_str(item(&fm.tags, 0), "research", "radar: namespaced tag");
	is_int(fm.platforms.n, 0, "radar: an empty list there wins too");
	is_int(fm.requires_tools.n, 2, "radar: requires-tools string split");
	is_str(item(&fm.requires_tools, 1), "jq", "radar: second tool");
	is_str(item(&fm.fallback_for_tools, 0), "web-search",
	    "radar: fallback_for_tools");
	is_str(fm.when_to_use, "radar text", "radar: whenToUse under radar");
	ok(strstr(fm.json, "\"metadata\":{\"author\":\"someone\",\"radar\":")
	    != NULL, "radar: json keeps the nested mapping");
	fm_done(&fm);

	parse_fixture("radar-fallthrough.md", &fm);
	is_int(fm.tags.n, 1, "radar: null and mapping fall through to top");
	is_str(item(&fm.tags, 0), "top", "radar: hub_tags scalar -> 1 item");
	ok(has(&fm, "value-ignored"), "radar: the mapping is reported");
	fm_done(&fm);
}

static void
test_coercion(void)
{
	struct fm		 fm;
	const struct finding	*f;

	parse_fixture("coerce.md", &fm);
	is_str(fm.description, "42", "coerce: number description -> \"42\"");
	is_str(fm.version, "1.10", "coerce: version keeps the text 1.10");
	is_str(fm.license, "true", "coerce: bool license -> \"true\"");
	is_int(fm.tags.n, 3, "coerce: scalar list items kept, others dropped");
	is_str(item(&fm.tags, 0), "1", "coerce: number tag");
	is_str(item(&fm.tags, 1), "true", "coerce: bool tag");
	f = find(&fm, "value-coerced");
	ok(f != NULL && f->sev == SEV_WARN, "coerce: value-coerced warning");
	ok(f != NULL && f->line == 3, "coerce: finding on the key's line");
	ok(has(&fm, "value-ignored"), "coerce: nested items ignored, reported");
	ok(findings_first_error(&fm.findings) == NULL, "coerce: no error");
	ok(strstr(fm.json, "\"description\":42") != NULL,
	    "coerce: json keeps the number");
	ok(strstr(fm.json, "\"license\":true") != NULL,
	    "coerce: json keeps the boolean");
	fm_done(&fm);

	parse_fixture("desc-mapping.md", &fm);
	is_str(fm.description, NULL, "mapping: no description");
	f = find(&fm, "value-type");
	ok(f != NULL && f->sev == SEV_ERROR, "mapping: value-type error");
	ok(f != NULL && strstr(f->message, "description") != NULL,
	    "mapping: the message names the key");
	fm_done(&fm);
}

static void
test_scalar_lists(void)
{
	struct fm	 fm;

	parse_fixture("scalar-lists.md", &fm);
	is_int(fm.tags.n, 1, "scalar: a scalar tag is a 1-item list");
	is_str(item(&fm.tags, 0), "single tag", "scalar: lower-cased");
	is_int(fm.allowed_tools.n, 4, "scalar: allowed-tools split");
	is_str(item(&fm.allowed_tools, 0), "Read", "scalar: tool 1");
	is_str(item(&fm.allowed_tools, 1), "Bash(git add:*)", "scalar: tool 2");
	is_str(item(&fm.allowed_tools, 2), "Write", "scalar: tool 3");
	is_str(item(&fm.allowed_tools, 3), "Grep", "scalar: tool 4");
	is_str(item(&fm.platforms, 0), "linux", "scalar: platform");
	is_int(fm.triggers.n, 1, "scalar: a trigger string is not split");
	fm_done(&fm);
}

static void
test_empty_and_missing(void)
{
	struct fm	 fm;

	parse_fixture("empty.md", &fm);
	is_int(fm.has_frontmatter, 1, "empty: ---/--- is a frontmatter");
	is_str(fm.json, "{}", "empty: json {}");
	ok(has(&fm, "frontmatter-empty"), "empty: info finding");
	ok(findings_first_error(&fm.findings) == NULL, "empty: not an error");
	is_str(body(&fm), "Body after an empty block.\n", "empty: body");
	is_int(fm.body_line, 3, "empty: body line 3");
	fm_done(&fm);

	parse_fixture("empty-blank.md", &fm);
	is_int(fm.has_frontmatter, 1, "blank: frontmatter with a comment");
	is_int(fm.keys.n, 0, "blank: no keys");
	is_int(fm.body_line, 5, "blank: body line");
	fm_done(&fm);

	parse_fixture("nofm.md", &fm);
	is_int(fm.has_frontmatter, 0, "nofm: no frontmatter");
	is_int(fm.body_offset, 0, "nofm: body is the whole file");
	is_int(fm.body_line, 1, "nofm: body line 1");
	is_int(fm.findings.n, 0, "nofm: no parse finding");
	is_str(fm.summary, "Deploy the app", "nofm: summary");
	is_str(fm.json, "{}", "nofm: json {}");
	fm_done(&fm);

	parse_fixture("unclosed.md", &fm);
	is_int(fm.has_frontmatter, 0, "unclosed: read as no frontmatter");
	is_int(fm.body_offset, 0, "unclosed: body is the whole file");
	ok(has(&fm, "frontmatter-unclosed"), "unclosed: finding");
	is_str(fm.name, NULL, "unclosed: no fields taken");
	ok(fm.summary != NULL && strncmp(fm.summary, "name:", 5) == 0,
	    "unclosed: the --- line is not the summary");
	fm_done(&fm);

	parse_fixture("eof-fence.md", &fm);
	is_int(fm.has_frontmatter, 1, "eof fence: closing --- at EOF counts");
	is_str(fm.name, "eof-fence", "eof fence: name");
	is_int(fm.body_offset, text_len, "eof fence: empty body");
	fm_done(&fm);
}

static void
test_recovery(void)
{
	struct fm		 fm;
	const struct finding	*f;

	parse_fixture("colon.md", &fm);
	is_str(fm.name, "colon-prose", "colon: name recovered");
	is_str(fm.description, "Use when: the user asks for x: y, or z",
	    "colon: value is everything after the first \": \"");
	is_int(fm.tags.n, 2, "colon: flow list recovered");
	f = find(&fm, "yaml-recovered");
	ok(f != NULL && f->sev == SEV_WARN, "colon: yaml-recovered warning");
	ok(f != NULL && f->line == 3, "colon: on the YAML error's line");
	ok(findings_first_error(&fm.findings) == NULL, "colon: no error");
	ok(strstr(fm.json, "\"description\":\"Use when: the user") != NULL,
	    "colon: json holds the recovered value");
	fm_done(&fm);

	parse_fixture("recover.md", &fm);
	ok(has(&fm, "yaml-recovered"), "recover: recovered");
	is_str(fm.name, "recover-all", "recover: name");
	is_str(fm.description, "Review code: finds bugs and continues here.",
	    "recover: continuation line joined");
	is_str(fm.when_to_use, "Literal block\n  keeps indentation",
	    "recover: literal block keeps inner indentation");
	is_int(fm.disable_model_invocation, 1, "recover: bool true resolved");
	is_str(item(&fm.tags, 0), "research",
	    "recover: nested metadata.radar kept and wins");
	is_str(item(&fm.platforms, 0), "linux", "recover: radar platforms");
	is_int(fm.allowed_tools.n, 2, "recover: flow list");
	is_str(fm.version, "2", "recover: number version coerced");
	ok(strstr(fm.json, "\"tags\":[\"One\",\"Two\"]") != NULL,
	    "recover: block list unquoted in json");
	fm_done(&fm);

	parse_fixture("recover-quoted.md", &fm);
	ok(has(&fm, "yaml-recovered"), "quoted: recovered");
	is_str(fm.description, "Spans two lines: still quoted",
	    "quoted: a quoted value over two lines loses its quotes");
	ok(strstr(fm.json, "\"argument-hint\":\"[file]: optional\"") != NULL,
	    "quoted: a [..] value with more text is a string");
	fm_done(&fm);

	parse_fixture("bad-utf8.md", &fm);
	is_str(fm.name, "bad-utf8", "utf8: name recovered");
	is_str(fm.description, "caf\xef\xbf\xbd: broken",
	    "utf8: invalid byte replaced with U+FFFD");
	ok(has(&fm, "utf8-invalid"), "utf8: reported");
	fm_done(&fm);

	parse_fixture("invalid.md", &fm);
	f = find(&fm, "yaml-invalid");
	ok(f != NULL && f->sev == SEV_ERROR, "invalid: yaml-invalid error");
	ok(f != NULL && f->line == 3, "invalid: error line is the file line");
	is_str(fm.name, NULL, "invalid: no name");
	is_str(fm.json, "{}", "invalid: json {}");
	fm_done(&fm);

	parse_fixture("not-mapping.md", &fm);
	ok(has(&fm, "frontmatter-not-mapping"), "list root: not a mapping");
	is_int(fm.keys.n, 0, "list root: no keys");
	fm_done(&fm);
}

static void
test_flags(void)
{
	struct fm	 fm;

	parse_fixture("dmi-true.md", &fm);
	is_int(fm.disable_model_invocation, 1, "dmi: true");
	is_int(fm.user_invocable, 0, "dmi: user-invocable false");
	fm_done(&fm);

	parse_fixture("dmi-string-false.md", &fm);
	is_int(fm.disable_model_invocation, 0, "dmi: \"false\" is false");
	fm_done(&fm);

	parse_fixture("dmi-yes.md", &fm);
	is_int(fm.disable_model_invocation, 1, "dmi: yes counts");
	is_int(fm.user_invocable, 0, "dmi: user-invocable \"no\"");
	fm_done(&fm);

	parse_fixture("dmi-number.md", &fm);
	is_int(fm.disable_model_invocation, 0, "dmi: 1 is not true");
	ok(has(&fm, "value-ignored"), "dmi: number reported");
	fm_done(&fm);
}

static void
test_keys(void)
{
	struct fm		 fm;
	const struct finding	*f;

	parse_fixture("aliases.md", &fm);
	is_str(fm.when_to_use, "dashed key", "aliases: when-to-use");
	is_str(item(&fm.requires_tools, 0), "Docker",
	    "aliases: requires-tools, case kept");
	is_str(item(&fm.fallback_for_tools, 0), "web_fetch",
	    "aliases: fallback-for-tools");
	is_int(fm.tags.n, 1, "aliases: hub-tags before tags");
	is_str(item(&fm.tags, 0), "x", "aliases: hub-tags value");
	fm_done(&fm);

	parse_fixture("duplicate.md", &fm);
	is_str(fm.name, "second-name", "duplicate: last value wins");
	f = find(&fm, "key-duplicate");
	ok(f != NULL && f->line == 4, "duplicate: reported on line 4");
	is_int(fm.keys.n, 2, "duplicate: key listed once");
	fm_done(&fm);
}

static void
test_caps(void)
{
	struct fm	 fm;
	struct buf	 b;
	size_t		 i;
	char		*s;

	parse_fixture("bomb.md", &fm);
	ok(has(&fm, "yaml-too-complex"), "bomb: alias expansion capped");
	is_str(fm.name, NULL, "bomb: nothing taken");
	is_int(fm.keys.n, 0, "bomb: no keys");
	fm_done(&fm);

	parse_fixture("deep.md", &fm);
	ok(has(&fm, "yaml-too-complex"), "deep: nesting capped");
	fm_done(&fm);

	buf_init(&b, 0);
	buf_addstr(&b, "---\nname: big\ndescription: |\n");
	while (b.len < FM_MAX_BYTES + 100)
		buf_addstr(&b, "  0123456789012345678901234567890123456789\n");
	buf_addstr(&b, "---\nbody\n");
	fm_parse(b.p, b.len, &fm);
	ok(has(&fm, "frontmatter-too-large"), "large: frontmatter over 64 KiB");
	ok(findings_first_error(&fm.findings) != NULL, "large: is an error");
	is_str(b.p + fm.body_offset, "body\n", "large: body still found");
	fm_done(&fm);
	buf_done(&b);

	/*
	 * 60 KB of flow nesting: refused as too complex at once (it took
	 * seconds to load), never read line by line as "recovered".
	 */
	for (i = 0; i < 2; i++) {
		buf_init(&b, 0);
		buf_addstr(&b, "---\nname: deep\ndescription: d\nx: ");
		while (b.len < 60000)
			buf_addc(&b, i == 0 ? '[' : '{');
		buf_addstr(&b, "\n---\nbody\n");
		fm_parse(b.p, b.len, &fm);
		ok(has(&fm, "yaml-too-complex"), "flow bomb %c: too complex",
		    i == 0 ? '[' : '{');
		ok(!has(&fm, "yaml-recovered"), "flow bomb %c: not recovered",
		    i == 0 ? '[' : '{');
		is_str(fm.name, NULL, "flow bomb %c: nothing taken",
		    i == 0 ? '[' : '{');
		fm_done(&fm);
		buf_done(&b);
	}

	/* Not NUL-terminated: an exact-size copy (ASan checks overreads). */
	s = xmalloc(28);
	memcpy(s, "---\nname: x\ndescription: y\n", 28);
	fm_parse(s, 27, &fm);
	is_int(fm.has_frontmatter, 0, "exact: no closing fence");
	fm_done(&fm);
	memcpy(s, "---\nname: x\n---\nbody: a: b\n", 28);
	fm_parse(s, 27, &fm);
	is_str(fm.name, "x", "exact: name");
	is_str(fm.summary, "body: a: b", "exact: summary");
	fm_done(&fm);
	free(s);

	/* Embedded NUL bytes and a NULL text. */
	fm_parse("---\nname: a\0b\n---\n", 18, &fm);
	is_str(fm.name, "a\xef\xbf\xbd" "b", "nul: NUL replaced, recovered");
	ok(has(&fm, "yaml-recovered"), "nul: libyaml refuses, recovery reads");
	fm_done(&fm);
	fm_parse(NULL, 10, &fm);
	is_int(fm.has_frontmatter, 0, "null text: no frontmatter");
	is_str(fm.json, "{}", "null text: json {}");
	fm_done(&fm);

	/* A summary is at most 300 characters, cut on a UTF-8 boundary. */
	buf_init(&b, 0);
	buf_addstr(&b, "# ");
	for (i = 0; i < 400; i++)
		buf_addstr(&b, "\xc3\xa9");
	fm_parse(b.p, b.len, &fm);
	is_int(fm.summary != NULL ? strlen(fm.summary) : 0, 600,
	    "summary: 300 two-byte characters");
	fm_done(&fm);
	buf_done(&b);
}

static void
test_scalars(void)
{
	struct fm	 fm;
	const char	*in = "---\nname: s\ndescription: d\na: yes\nb: ~\n"
	    "c: 0x1F\nd: 1e3\ne: .inf\nf: 12345678901234567890\ng: 'true'\n"
	    "h: TRUE\n---\n";

	fm_parse(in, strlen(in), &fm);
	is_str(fm.json, "{\"name\":\"s\",\"description\":\"d\",\"a\":\"yes\","
	    "\"b\":null,\"c\":31,\"d\":1000,\"e\":\".inf\","
	    "\"f\":\"12345678901234567890\",\"g\":\"true\",\"h\":true}",
	    "scalars: YAML 1.2 core schema in json");
	fm_done(&fm);
}

int
main(void)
{
	xmalloc_init();
	test_basic();
	test_bom_crlf();
	test_block_scalars();
	test_flow_lists();
	test_radar();
	test_coercion();
	test_scalar_lists();
	test_empty_and_missing();
	test_recovery();
	test_flags();
	test_keys();
	test_caps();
	test_scalars();
	free(text);
	return done_testing();
}
