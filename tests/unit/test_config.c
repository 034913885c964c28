/*
 * Unit tests for the configuration: defaults, each type's errors with
 * their file:line:column, unknown keys and suggestions, SKILL_PATHS with
 * ~ and globs, the template round trip and the resolution order.
 */
#include "autoconfig.h"

#include <sys/stat.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "core/config.h"
#include "core/options.h"
#include "core/skill.h"
#include "base/status.h"
#include "base/strlist.h"
#include "base/xmalloc.h"

#include "tap.h"

static char	 tmp[PATH_MAX];

static char *
tpath(const char *name)
{
	char	*p;

	xasprintf(&p, "%s/%s", tmp, name);
	return p;
}

/* Writes text to tmp/name; returns the path (free it). */
static char *
write_file(const char *name, const char *text)
{
	FILE	*fp;
	char	*p;

	p = tpath(name);
	if ((fp = fopen(p, "w")) == NULL) {
		perror(p);
		exit(1);
	}
	fputs(text, fp);
	fclose(fp);
	return p;
}

static void
mkdirs(const char *name)
{
	char	*p, *s;

	p = tpath(name);
	for (s = p + strlen(tmp) + 1; *s != '\0'; s++) {
		if (*s == '/') {
			*s = '\0';
			mkdir(p, 0755);
			*s = '/';
		}
	}
	mkdir(p, 0755);
	free(p);
}

/*
 * Loads text as a config file; returns the status and puts the cause
 * (or "") into *cause and the joined warnings into *warn.
 */
static int
load_str(const char *text, struct config **cfg, char **cause, char **warn)
{
	struct strlist	 w;
	char		*p;
	int		 rv;

	strlist_init(&w);
	p = write_file("c.yaml", text);
	rv = config_load(p, cfg, &w, cause);
	if (*cause == NULL)
		*cause = xstrdup("");
	*warn = strlist_join(&w, "\n");
	strlist_done(&w);
	free(p);
	return rv;
}

/* Expects text to fail with exactly "<tmp>/c.yaml:" msg. */
static void
load_fails(const char *text, const char *msg, const char *desc)
{
	struct config	*cfg;
	char		*cause, *warn, *want;

	xasprintf(&want, "%s/c.yaml:%s", tmp, msg);
	is_int(load_str(text, &cfg, &cause, &warn), SR_CONFIG, "%s: status",
	    desc);
	is_str(cause, want, "%s: message", desc);
	ok(cfg == NULL, "%s: no config returned", desc);
	free(cause);
	free(warn);
	free(want);
}

static char *
home_join(const char *rest)
{
	char	*p;

	xasprintf(&p, "%s%s", getenv("HOME"), rest);
	return p;
}

static void
test_defaults(void)
{
	struct config	*c;
	char		*p;

	c = config_defaults();
	ok(c->source == NULL, "defaults: no source");
	is_int(c->paths.n, 8, "defaults: seven user roots and the imports folder");
	p = home_join("/.claude/skills");
	is_str(c->paths.v[0], p, "defaults: ~ expanded in paths");
	free(p);
	p = home_join("/.config/agents/skills");
	is_str(c->paths.v[6], p, "defaults: XDG_CONFIG_HOME fallback");
	free(p);
	ok(c->project_roots == 1, "defaults: project_roots");
	is_int(c->exclude_dirs.n, 7, "defaults: seven excluded names");
	ok(strlist_contains(&c->exclude_dirs, "node_modules", 0),
	    "defaults: node_modules excluded");
	is_str(c->platform, "auto", "defaults: platform auto");
	p = home_join("/.local/share/skills-radar/index.db");
	is_str(c->index_path, p, "defaults: index path");
	free(p);
	is_int(c->max_skill_size_kb, 256, "defaults: max_skill_size_kb");
	is_int(c->allow_large, 0, "defaults: allow_large");
	is_int(c->strict_names, 0, "defaults: strict_names off");
	is_int(c->max_related_kb, 256, "defaults: max_related_kb");
	is_int(c->max_load_kb, 64, "defaults: max_load_kb");
	is_int(c->max_files_per_skill, 200, "defaults: max_files_per_skill");
	is_int(c->max_entries, 100000, "defaults: max_entries");
	is_int(c->max_depth, 32, "defaults: max_depth");
	is_int(c->trusted_paths.n, 0, "defaults: no trusted paths");
	is_int(c->verified_paths.n, 1, "defaults: one verified path");
	p = home_join("/.claude/plugins/cache/claude-plugins-official");
	is_str(c->verified_paths.v[0], p, "defaults: verified path");
	free(p);
	is_int(c->min_tier_for_load, TIER_UNTRUSTED, "defaults: min tier");
	is_int(c->strip_live_exec, 0, "defaults: strip_live_exec");
	is_int(c->reject_untrusted_on_injection, 0, "defaults: reject");
	is_int(c->xml_tags.n, 0, "defaults: xml_tags");
	is_int(c->pattern_files.n, 0, "defaults: pattern_files");
	is_int(c->builtin_patterns, 1, "defaults: builtin_patterns");
	ok(c->miss_threshold == 0.4, "defaults: miss_threshold 0.4");
	ok(c->project_boost == 0.1, "defaults: project_boost 0.1");
	is_int(c->default_top_k, 5, "defaults: default_top_k");
	is_str(c->embedder, "builtin", "defaults: embedder");
	is_int(c->embed_dim, 256, "defaults: embed_dim");
	is_int(c->instructions_budget, 1000, "defaults: instructions_budget");
	is_int(c->max_message_kb, 1024, "defaults: max_message_kb");
	is_str(c->http_host, "127.0.0.1", "defaults: host");
	is_int(c->http_port, 6580, "defaults: port");
	is_str(c->http_path, "/mcp", "defaults: path");
	is_int(c->stateless, 1, "defaults: stateless");
	is_int(c->allowed_origins.n, 0, "defaults: allowed_origins");
	is_str(c->auth_token, "", "defaults: auth_token");
	is_int(c->max_body_kb, 1024, "defaults: max_body_kb");
	is_int(c->timeout_s, 30, "defaults: timeout_s");
	is_int(c->threads, 4, "defaults: threads");
	config_free(c);
	config_free(NULL);

	/* XDG variables, and a relative one ignored as the spec says. */
	setenv("XDG_CONFIG_HOME", "/xdg/conf", 1);
	setenv("XDG_DATA_HOME", "relative/data", 1);
	c = config_defaults();
	is_str(c->paths.v[6], "/xdg/conf/agents/skills",
	    "defaults: $XDG_CONFIG_HOME/agents/skills");
	p = home_join("/.local/share/skills-radar/index.db");
	is_str(c->index_path, p, "defaults: relative XDG_DATA_HOME ignored");
	free(p);
	config_free(c);
	setenv("XDG_DATA_HOME", "/xdg/data", 1);
	c = config_defaults();
	is_str(c->index_path, "/xdg/data/skills-radar/index.db",
	    "defaults: index under $XDG_DATA_HOME");
	config_free(c);
	p = config_data_dir();
	is_str(p, "/xdg/data/skills-radar", "data dir from XDG_DATA_HOME");
	free(p);
	unsetenv("XDG_DATA_HOME");
	unsetenv("XDG_CONFIG_HOME");
	p = config_data_dir();
	free(home_join(""));
	{
		char *want = home_join("/.local/share/skills-radar");
		is_str(p, want, "data dir default");
		free(want);
	}
	free(p);
}

static void
test_paths(void)
{
	struct strlist	 l;
	char		*p, *want;

	p = config_expand_tilde("~");
	is_str(p, getenv("HOME"), "tilde: ~ alone");
	free(p);
	p = config_expand_tilde("~/a/b");
	want = home_join("/a/b");
	is_str(p, want, "tilde: ~/a/b");
	free(p);
	free(want);
	p = config_expand_tilde("/x/~/y");
	is_str(p, "/x/~/y", "tilde: only a leading ~");
	free(p);
	p = config_expand_tilde("~no-such-user-xyz/q");
	is_str(p, "~no-such-user-xyz/q", "tilde: unknown user kept");
	free(p);
	ok(config_expand_tilde(NULL) == NULL, "tilde: NULL");

	setenv("SKILLS_RADAR_DATADIR", "/opt/sr-data", 1);
	p = config_pkgdata_dir();
	is_str(p, "/opt/sr-data", "pkgdata: $SKILLS_RADAR_DATADIR wins");
	free(p);
	unsetenv("SKILLS_RADAR_DATADIR");
	p = config_pkgdata_dir();
	ok(p != NULL && *p == '/', "pkgdata: an absolute fallback (%s)", p);
	free(p);

	/* Globs over a small tree under HOME. */
	mkdirs("home/g/one");
	mkdirs("home/g/two");
	mkdirs("home/g/three");
	strlist_init(&l);
	config_expand_path("~/g/t*", &l);
	is_int(l.n, 2, "glob: ~/g/t* matches two");
	want = home_join("/g/three");
	is_str(l.n > 0 ? l.v[0] : NULL, want, "glob: sorted, ~ expanded");
	free(want);
	strlist_done(&l);
	config_expand_path("~/g/{one,two}", &l);
	is_int(l.n, 2, "glob: braces");
	strlist_done(&l);
	config_expand_path("~/g/none*", &l);
	is_int(l.n, 1, "glob: no match keeps the pattern");
	want = home_join("/g/none*");
	is_str(l.n > 0 ? l.v[0] : NULL, want, "glob: kept with ~ expanded");
	free(want);
	strlist_done(&l);
	config_expand_path("~/g/absent", &l);
	is_int(l.n, 1, "glob: a plain missing path is kept");
	strlist_done(&l);
}

/*
 * 60 KB of flow nesting is refused before libyaml loads it (that took
 * seconds); nesting walk_mapping() still handles keeps its own message.
 */
static void
test_nesting(void)
{
	struct buf	 b;
	int		 i;

	buf_init(&b, 0);
	buf_addstr(&b, "x: ");
	while (b.len < 60000)
		buf_addc(&b, '[');
	buf_addc(&b, '\n');
	load_fails(b.p, "1:14: YAML nested 11 levels deep or more: not a "
	    "configuration file", "nesting: flow bomb");
	buf_reset(&b);
	for (i = 0; i < 9; i++)
		buf_printf(&b, "%*sk%d:\n", i * 2, "", i);
	buf_printf(&b, "%*sleaf: 1\n", 18, "");
	load_fails(b.p, "10:19: mapping nested too deeply",
	    "nesting: ten mappings, walked");
	buf_done(&b);
}

static void
test_errors(void)
{
	load_fails("retrieval:\n  miss_threshold: high\n",
	    "2:19: retrieval.miss_threshold: expected a number between 0 "
	    "and 1, got 'high'", "double: not a number");
	load_fails("retrieval:\n  miss_threshold: 1.5\n",
	    "2:19: retrieval.miss_threshold: expected a number between 0 "
	    "and 1, got '1.5'", "double: out of range");
	load_fails("retrieval.miss_threshold: nan\n",
	    "1:27: retrieval.miss_threshold: expected a number between 0 "
	    "and 1, got 'nan'", "double: nan");
	load_fails("transport:\n  port: 70000\n",
	    "2:9: transport.port: expected an integer between 1 and 65535, "
	    "got '70000'", "int: out of range");
	load_fails("transport:\n    port: 12abc\n",
	    "2:11: transport.port: expected an integer between 1 and 65535, "
	    "got '12abc'", "int: trailing junk");
	load_fails("transport:\n  port: [1]\n",
	    "2:9: transport.port: expected an integer between 1 and 65535, "
	    "got a list", "int: a list");
	load_fails("transport:\n  port:\n",
	    "2:8: transport.port: expected an integer between 1 and 65535, "
	    "got nothing", "int: empty");
	load_fails("validation:\n  strict_names: 2\n",
	    "2:17: validation.strict_names: expected true or false, got '2'",
	    "bool: strict_names");
	load_fails("limits:\n  allow_large: maybe\n",
	    "2:16: limits.allow_large: expected true or false, got 'maybe'",
	    "bool: bad");
	load_fails("platform: beos\n",
	    "1:11: platform: expected one of auto, linux, macos, windows, "
	    "got 'beos'", "enum: bad");
	load_fails("trust:\n  min_tier_for_load: root\n",
	    "2:22: trust.min_tier_for_load: expected one of untrusted, user, "
	    "verified, trusted, got 'root'", "enum: bad tier");
	load_fails("transport:\n  path: mcp\n",
	    "2:9: transport.path: expected a path starting with '/', got "
	    "'mcp'", "string: path without slash");
	load_fails("transport:\n  host: {a: 1}\n",
	    "2:9: transport.host: expected a string, got a mapping",
	    "string: a mapping");
	load_fails("transport:\n  host: \"\"\n",
	    "2:9: transport.host: expected a non-empty string, got ''",
	    "string: empty host");
	load_fails("store:\n  path: \"\"\n",
	    "2:9: store.path: expected a path, got ''", "path: empty");
	load_fails("paths:\n  - ~/a\n  - [x]\n",
	    "3:5: paths: expected a list of strings (an item is not one), "
	    "got a list", "pathlist: nested list item");
	load_fails("scan:\n  exclude_dirs: {a: b}\n",
	    "2:17: scan.exclude_dirs: expected a list of strings, got a "
	    "mapping", "list: a mapping");
	load_fails("scan:\n  exclude_dirs: [.git, a/b]\n",
	    "2:24: scan.exclude_dirs: expected a list of directory names "
	    "(without '/'), got 'a/b'", "list: a path among names");
	load_fails("sanitization.xml_tags: [ok, \"<bad>\"]\n",
	    "1:29: sanitization.xml_tags: expected a list of tag names (1 to "
	    "31 characters, no blanks, '<', '>' or '/'), got '<bad>'",
	    "list: a bad tag name");
	load_fails("retrieval: 3\n",
	    "1:12: retrieval: expected a mapping of keys such as "
	    "retrieval.*", "section given a scalar");
	load_fails("- a\n- b\n",
	    "1:1: expected a mapping of keys at the top level",
	    "top level list");
	load_fails("just text\n",
	    "1:1: expected a mapping of keys at the top level",
	    "top level scalar");
	load_fails("transport:\n  port: 1\n  port: 2\n",
	    "3:3: duplicate key 'transport.port' (first set at line 2)",
	    "duplicate key");
	load_fails("transport.port: 1\ntransport:\n  port: 2\n",
	    "3:3: duplicate key 'transport.port' (first set at line 1)",
	    "duplicate key, dotted and nested");
	load_fails("a: &x [1]\nb: *x\n",
	    "1:4: YAML aliases are not supported in the configuration",
	    "alias refused");
	load_fails("transport:\n  port: 1\n bad: [\n",
	    "3:2: YAML syntax error: did not find expected key while parsing "
	    "a block mapping", "syntax error position");
	load_fails("a: 1\n---\nb: 2\n",
	    "3:1: only one YAML document is allowed", "two documents");
	load_fails("? [a, b]\n: 1\n", "1:3: expected a key name",
	    "complex key");
}

static void
test_values(void)
{
	struct config	*c;
	char		*cause, *warn, *want;
	int		 rv;

	rv = load_str(
	    "# comment\n"
	    "paths: ~/one\n"
	    "scan:\n"
	    "  project_roots: no\n"
	    "  exclude_dirs: []\n"
	    "platform: MacOS\n"
	    "limits.max_depth: 4\n"
	    "trust:\n"
	    "  min_tier_for_load: Verified\n"
	    "  trusted_paths:\n"
	    "sanitization: {xml_tags: [secret, 'x-y'], strip_live_exec: ON}\n"
	    "validation:\n"
	    "  strict_names: true\n"
	    "retrieval:\n"
	    "  miss_threshold: '0.25'\n"
	    "transport:\n"
	    "  auth_token: sekrit\n"
	    "  allowed_origins: [\"https://a.example\"]\n",
	    &c, &cause, &warn);
	is_int(rv, 0, "values: loads");
	is_str(cause, "", "values: no cause");
	is_str(warn, "", "values: no warnings");
	if (c != NULL) {
		want = tpath("c.yaml");
		is_str(c->source, want, "values: source");
		free(want);
		is_int(c->paths.n, 1, "values: scalar as a one-item list");
		want = home_join("/one");
		is_str(c->paths.v[0], want, "values: ~ expanded");
		free(want);
		is_int(c->project_roots, 0, "values: bool no");
		is_int(c->exclude_dirs.n, 0, "values: empty list");
		is_str(c->platform, "macos", "values: enum canonical");
		is_int(c->max_depth, 4, "values: dotted key at top level");
		is_int(c->min_tier_for_load, TIER_VERIFIED,
		    "values: tier case-insensitive");
		is_int(c->trusted_paths.n, 0, "values: null list is empty");
		is_int(c->xml_tags.n, 2, "values: flow list");
		is_str(c->xml_tags.n > 1 ? c->xml_tags.v[1] : NULL, "x-y",
		    "values: quoted item");
		is_int(c->strip_live_exec, 1, "values: bool ON");
		is_int(c->strict_names, 1, "values: validation.strict_names");
		ok(c->miss_threshold == 0.25, "values: quoted number");
		is_str(c->auth_token, "sekrit", "values: string");
		is_int(c->allowed_origins.n, 1, "values: origins");
		is_int(c->http_port, 6580, "values: untouched key default");
	}
	config_free(c);
	free(cause);
	free(warn);

	/* Relative paths are taken from the file's directory. */
	rv = load_str("store:\n  path: data/index.db\n"
	    "sanitization:\n  pattern_files: [p/*.txt, /abs/x.txt]\n",
	    &c, &cause, &warn);
	is_int(rv, 0, "relative: loads");
	if (c != NULL) {
		xasprintf(&want, "%s/data/index.db", tmp);
		is_str(c->index_path, want, "relative: path from the file's dir");
		free(want);
		xasprintf(&want, "%s/p/*.txt", tmp);
		is_str(c->pattern_files.v[0], want,
		    "relative: path list item from the file's dir");
		free(want);
		is_str(c->pattern_files.v[1], "/abs/x.txt",
		    "relative: absolute item unchanged");
	}
	config_free(c);
	free(cause);
	free(warn);

	/* Unknown keys: warnings with the closest key. */
	rv = load_str(
	    "retrievl:\n"
	    "  miss_threshold: 0.5\n"
	    "transport:\n"
	    "  prot: 1\n"
	    "  json_response: true\n"
	    "limits.port: 3\n"
	    "zzzzzz: 1\n",
	    &c, &cause, &warn);
	is_int(rv, 0, "unknown: still loads");
	xasprintf(&want,
	    "%s/c.yaml:2:3: unknown key 'retrievl.miss_threshold' (did you "
	    "mean 'retrieval.miss_threshold'?)\n"
	    "%s/c.yaml:4:3: unknown key 'transport.prot' (did you mean "
	    "'transport.port'?)\n"
	    "%s/c.yaml:5:3: unknown key 'transport.json_response'\n"
	    "%s/c.yaml:6:1: unknown key 'limits.port' (did you mean "
	    "'transport.port'?)\n"
	    "%s/c.yaml:7:1: unknown key 'zzzzzz'",
	    tmp, tmp, tmp, tmp, tmp);
	is_str(warn, want, "unknown: warnings with suggestions");
	free(want);
	ok(c != NULL && c->miss_threshold == 0.4,
	    "unknown: misspelt key not applied");
	config_free(c);
	free(cause);
	free(warn);

	/* Empty and comment-only files give the defaults. */
	rv = load_str("", &c, &cause, &warn);
	ok(rv == 0 && c != NULL && c->http_port == 6580 && c->source != NULL,
	    "empty file: defaults, source recorded");
	config_free(c);
	free(cause);
	free(warn);
	rv = load_str("# nothing\n---\n", &c, &cause, &warn);
	ok(rv == 0 && c != NULL && c->default_top_k == 5,
	    "comment-only document: defaults");
	config_free(c);
	free(cause);
	free(warn);
}

static int
same_config(const struct config *a, const struct config *b, char **which)
{
	const struct options_entry	*o;
	const struct strlist		*la, *lb;
	const char			*pa, *pb;
	size_t				 i, j;

	*which = NULL;
	for (i = 0; i < options_count; i++) {
		o = &options_table[i];
		pa = (const char *)a + o->off;
		pb = (const char *)b + o->off;
		switch (o->type) {
		case OPT_BOOL:
		case OPT_INT:
			if (*(const int *)(const void *)pa !=
			    *(const int *)(const void *)pb)
				goto diff;
			break;
		case OPT_DOUBLE:
			if (*(const double *)(const void *)pa !=
			    *(const double *)(const void *)pb)
				goto diff;
			break;
		case OPT_ENUM:
			if (o->flags & OPTF_ENUM_INT) {
				if (*(const int *)(const void *)pa !=
				    *(const int *)(const void *)pb)
					goto diff;
				break;
			}
			/* FALLTHROUGH */
		case OPT_STRING:
		case OPT_PATH:
			if (strcmp(*(char *const *)(const void *)pa,
			    *(char *const *)(const void *)pb) != 0)
				goto diff;
			break;
		case OPT_LIST:
		case OPT_PATHLIST:
			la = (const struct strlist *)(const void *)pa;
			lb = (const struct strlist *)(const void *)pb;
			if (la->n != lb->n)
				goto diff;
			for (j = 0; j < la->n; j++) {
				if (strcmp(la->v[j], lb->v[j]) != 0)
					goto diff;
			}
			break;
		}
	}
	return 1;
diff:
	*which = xstrdup(o->key);
	return 0;
}

static void
test_template(void)
{
	struct config	*c, *d;
	struct strlist	 w;
	FILE		*fp;
	char		*p, *cause = NULL, *which, *text = NULL;
	size_t		 len = 0, i, n;
	int		 rv;

	p = tpath("template.yaml");
	fp = fopen(p, "w");
	is_int(config_write_template(fp), 0, "template: written");
	fclose(fp);
	strlist_init(&w);
	rv = config_load(p, &c, &w, &cause);
	is_int(rv, 0, "template: loads (%s)", cause ? cause : "");
	is_int(w.n, 0, "template: no warnings");
	d = config_defaults();
	if (c != NULL) {
		int same = same_config(c, d, &which);

		ok(same, "template: yields the defaults%s%s",
		    which ? ", differs at " : "", which ? which : "");
		free(which);
	}
	config_free(c);
	config_free(d);
	strlist_done(&w);
	free(cause);
	free(p);

	/* Every key appears, with help, in the template and the manual. */
	fp = open_memstream(&text, &len);
	config_write_template(fp);
	fclose(fp);
	for (i = n = 0; i < options_count; i++) {
		const char *leaf = strrchr(options_table[i].key, '.');
		char *k;

		xasprintf(&k, "%s:", leaf ? leaf + 1 : options_table[i].key);
		if (strstr(text, k) != NULL)
			n++;
		free(k);
	}
	is_int(n, options_count, "template: every key present");
	free(text);
	text = NULL;
	fp = open_memstream(&text, &len);
	is_int(config_write_mdoc(fp), 0, "mdoc: written");
	fclose(fp);
	for (i = n = 0; i < options_count; i++) {
		char *k;

		xasprintf(&k, ".It Ic %s Pq", options_table[i].key);
		if (strstr(text, k) != NULL)
			n++;
		free(k);
	}
	is_int(n, options_count, "mdoc: every key has an .It entry");
	ok(strncmp(text, ".Bl -tag", 8) == 0 &&
	    strstr(text, "\n.El\n") != NULL, "mdoc: one tagged list");
	free(text);
}

static void
test_resolution(void)
{
	struct config	*c;
	struct strlist	 w;
	char		*p, *cause, *want, *a, *b, *xdg;

	strlist_init(&w);
	unsetenv("SKILLS_RADAR_CONFIG");
	xdg = tpath("xdg");
	setenv("XDG_CONFIG_HOME", xdg, 1);
	p = config_default_path(NULL);
	xasprintf(&want, "%s/skills-radar/config.yaml", xdg);
	is_str(p, want, "resolution: XDG_CONFIG_HOME location");
	free(p);

	/* No file at the default location: the defaults. */
	is_int(config_load(NULL, &c, &w, &cause), 0,
	    "resolution: missing default file is fine");
	ok(c != NULL && c->source == NULL, "resolution: defaults, no source");
	config_free(c);

	mkdirs("xdg/skills-radar");
	free(write_file("xdg/skills-radar/config.yaml",
	    "retrieval:\n  default_top_k: 7\n"));
	is_int(config_load(NULL, &c, &w, &cause), 0, "resolution: XDG file");
	ok(c != NULL && c->default_top_k == 7, "resolution: XDG file read");
	is_str(c ? c->source : NULL, want, "resolution: XDG source");
	config_free(c);
	free(want);

	a = write_file("env.yaml", "retrieval:\n  default_top_k: 9\n");
	setenv("SKILLS_RADAR_CONFIG", a, 1);
	is_int(config_load(NULL, &c, &w, &cause), 0, "resolution: env file");
	ok(c != NULL && c->default_top_k == 9,
	    "resolution: $SKILLS_RADAR_CONFIG beats XDG");
	config_free(c);

	/* A missing $SKILLS_RADAR_CONFIG file: the defaults and a warning. */
	p = tpath("gone.yaml");
	setenv("SKILLS_RADAR_CONFIG", p, 1);
	is_int(config_load(NULL, &c, &w, &cause), 0,
	    "resolution: missing env file gives the defaults");
	xasprintf(&want, "%s (SKILLS_RADAR_CONFIG) does not exist; using the "
	    "defaults", p);
	is_str(w.n == 1 ? w.v[0] : NULL, want,
	    "resolution: missing env file is warned about");
	ok(c != NULL && c->source == NULL && c->default_top_k == 5,
	    "resolution: defaults, no source");
	config_free(c);
	strlist_done(&w);
	free(want);
	free(p);
	setenv("SKILLS_RADAR_CONFIG", a, 1);

	is_int(config_load("", &c, &w, &cause), SR_CONFIG,
	    "resolution: an empty --config name is an error");
	is_str(cause, "--config: empty file name", "resolution: empty name");
	free(cause);

	b = write_file("explicit.yaml", "retrieval:\n  default_top_k: 11\n");
	is_int(config_load(b, &c, &w, &cause), 0, "resolution: explicit");
	ok(c != NULL && c->default_top_k == 11,
	    "resolution: --config beats the environment");
	config_free(c);

	p = tpath("missing.yaml");
	is_int(config_load(p, &c, &w, &cause), SR_CONFIG,
	    "resolution: explicit missing file is an error");
	xasprintf(&want, "%s: %s", p, strerror(ENOENT));
	is_str(cause, want, "resolution: missing file message");
	ok(c == NULL, "resolution: no config on error");
	free(want);
	free(cause);
	free(p);

	is_int(config_load(tmp, &c, &w, &cause), SR_CONFIG,
	    "resolution: a directory is an error");
	free(cause);

	/* Environment overrides. */
	mkdirs("home/sp/a");
	mkdirs("home/sp/b");
	setenv("SKILL_PATHS", "~/sp/*: /abs/one ::~/sp/none*", 1);
	setenv("SKILLS_RADAR_TOKEN", "tok", 1);
	is_int(config_load(b, &c, &w, &cause), 0, "env: loads");
	if (c != NULL) {
		is_int(c->paths.n, 4, "env: SKILL_PATHS replaces paths");
		want = home_join("/sp/a");
		is_str(c->paths.v[0], want, "env: glob with ~ expanded");
		free(want);
		is_str(c->paths.v[2], "/abs/one", "env: blanks trimmed");
		want = home_join("/sp/none*");
		is_str(c->paths.v[3], want, "env: unmatched pattern kept");
		free(want);
		is_str(c->auth_token, "tok", "env: SKILLS_RADAR_TOKEN");
	}
	config_free(c);
	unsetenv("SKILL_PATHS");
	unsetenv("SKILLS_RADAR_TOKEN");
	unsetenv("SKILLS_RADAR_CONFIG");
	unsetenv("XDG_CONFIG_HOME");
	is_int(w.n, 0, "resolution: no warnings on the way");
	strlist_done(&w);
	free(a);
	free(b);
	free(xdg);
}

int
main(void)
{
	char	*home;

	xmalloc_init();
	snprintf(tmp, sizeof tmp, "%s/sr-config.XXXXXX",
	    getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (mkdtemp(tmp) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	home = tpath("home");
	mkdir(home, 0755);
	setenv("HOME", home, 1);
	free(home);
	unsetenv("XDG_CONFIG_HOME");
	unsetenv("XDG_DATA_HOME");
	unsetenv("SKILL_PATHS");
	unsetenv("SKILLS_RADAR_CONFIG");
	unsetenv("SKILLS_RADAR_TOKEN");

	test_defaults();
	test_paths();
	test_errors();
	test_nesting();
	test_values();
	test_template();
	test_resolution();

	{
		char *cmd;

		xasprintf(&cmd, "rm -rf '%s'", tmp);
		if (system(cmd) != 0)
			diag("could not remove %s", tmp);
		free(cmd);
	}
	return done_testing();
}
