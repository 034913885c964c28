#include "autoconfig.h"

#include <sys/stat.h>

#include <ctype.h>
#include <errno.h>
#include <glob.h>
#include <math.h>
#include <pwd.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <yaml.h>

#include "base/buf.h"
#include "core/config.h"
#include "core/options.h"
#include "base/status.h"
#include "base/strlist.h"
#include "base/xmalloc.h"
#include "core/yamlcap.h"

#define CONFIG_MAX_BYTES	(1024 * 1024)	/* a config file is small */
#define CONFIG_MAX_DEPTH	8
/* The root and CONFIG_MAX_DEPTH mappings in it, a list, its items. */
#define CONFIG_MAX_NEST		(CONFIG_MAX_DEPTH + 3)
#define CONFIG_MAX_NODES	100000	/* far above any real config */
#define CONFIG_MAX_WARNINGS	50

#define FIELD(cfg, o, type)	((type *)(void *)((char *)(cfg) + (o)->off))

/* ---- paths -------------------------------------------------------------- */

static const char *
home_dir(void)
{
	const char	*h;
	struct passwd	*pw;

	if ((h = getenv("HOME")) != NULL && *h != '\0')
		return h;
	if ((pw = getpwuid(getuid())) != NULL && pw->pw_dir != NULL)
		return pw->pw_dir;
	return "/";
}

char *
config_expand_tilde(const char *s)
{
	const char	*rest, *home;
	struct passwd	*pw;
	char		*user, *out;

	if (s == NULL)
		return NULL;
	if (s[0] != '~')
		return xstrdup(s);
	rest = s + 1 + strcspn(s + 1, "/");
	if (rest == s + 1)
		home = home_dir();
	else {
		user = xstrndup(s + 1, (size_t)(rest - s - 1));
		pw = getpwnam(user);
		free(user);
		if (pw == NULL || pw->pw_dir == NULL)
			return xstrdup(s);	/* no such user: keep as given */
		home = pw->pw_dir;
	}
	/* Avoid "//x" when home is "/". */
	if (strcmp(home, "/") == 0 && *rest == '/')
		home = "";
	xasprintf(&out, "%s%s", home, rest);
	return out;
}

/* An XDG base directory: the variable when absolute, else ~/fallback. */
static char *
xdg_dir(const char *var, const char *fallback)
{
	const char	*v;
	char		*out;

	if ((v = getenv(var)) != NULL && v[0] == '/')
		return xstrdup(v);
	xasprintf(&out, "%s/%s", home_dir(), fallback);
	return out;
}

char *
config_data_dir(void)
{
	char	*base, *out;

	base = xdg_dir("XDG_DATA_HOME", ".local/share");
	xasprintf(&out, "%s/skills-radar", base);
	free(base);
	return out;
}

#ifdef SR_PKGDATADIR
static int
is_dir(const char *p)
{
	struct stat	 st;

	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}
#endif

char *
config_pkgdata_dir(void)
{
	const char	*v;

	if ((v = getenv("SKILLS_RADAR_DATADIR")) != NULL && *v != '\0')
		return xstrdup(v);
#ifdef SR_PKGDATADIR
	if (is_dir(SR_PKGDATADIR))
		return xstrdup(SR_PKGDATADIR);
#endif
#ifdef SR_SRCDIR
	return xstrdup(SR_SRCDIR "/config");
#else
	return xstrdup("config");
#endif
}

char *
config_default_path(const char *explicit_path)
{
	const char	*v;
	char		*base, *out;

	if (explicit_path != NULL)
		return config_expand_tilde(explicit_path);
	if ((v = getenv("SKILLS_RADAR_CONFIG")) != NULL && *v != '\0')
		return config_expand_tilde(v);
	base = xdg_dir("XDG_CONFIG_HOME", ".config");
	xasprintf(&out, "%s/skills-radar/config.yaml", base);
	free(base);
	return out;
}

/*
 * A default from the option table: "$XDG_CONFIG_HOME/..." and
 * "$XDG_DATA_HOME/..." take their XDG fallbacks, then ~ is expanded.
 */
static char *
expand_default(const char *def)
{
	static const struct {
		const char	*var;
		const char	*fallback;
	} xdg[] = {
		{ "XDG_CONFIG_HOME", ".config" },
		{ "XDG_DATA_HOME", ".local/share" },
	};
	size_t	 i, n;
	char	*base, *out;

	for (i = 0; i < sizeof xdg / sizeof xdg[0]; i++) {
		n = strlen(xdg[i].var);
		if (def[0] == '$' && strncmp(def + 1, xdg[i].var, n) == 0 &&
		    (def[n + 1] == '/' || def[n + 1] == '\0')) {
			base = xdg_dir(xdg[i].var, xdg[i].fallback);
			xasprintf(&out, "%s%s", base, def + n + 1);
			free(base);
			return out;
		}
	}
	return config_expand_tilde(def);
}

void
config_expand_path(const char *pattern, struct strlist *out)
{
	glob_t	 g;
	char	*p;
	size_t	 i;

	p = config_expand_tilde(pattern);
	if (strpbrk(p, "*?[{") == NULL) {
		strlist_add_take(out, p);
		return;
	}
	memset(&g, 0, sizeof g);
	if (glob(p, GLOB_BRACE | GLOB_TILDE, NULL, &g) == 0 &&
	    g.gl_pathc > 0) {
		for (i = 0; i < g.gl_pathc; i++)
			strlist_add(out, g.gl_pathv[i]);
		free(p);
	} else
		strlist_add_take(out, p);	/* kept for doctor to report */
	globfree(&g);
}

/* ---- defaults and free ---------------------------------------------------- */

static void
set_default(struct config *cfg, const struct options_entry *o)
{
	struct strlist	*l;
	size_t		 i;

	switch (o->type) {
	case OPT_BOOL:
		*FIELD(cfg, o, int) = strcmp(o->def, "true") == 0;
		break;
	case OPT_INT:
		*FIELD(cfg, o, int) = (int)strtol(o->def, NULL, 10);
		break;
	case OPT_DOUBLE:
		*FIELD(cfg, o, double) = strtod(o->def, NULL);
		break;
	case OPT_ENUM:
		if (o->flags & OPTF_ENUM_INT) {
			*FIELD(cfg, o, int) = 0;
			for (i = 0; o->values[i] != NULL; i++) {
				if (strcmp(o->values[i], o->def) == 0)
					*FIELD(cfg, o, int) = (int)i;
			}
			break;
		}
		/* FALLTHROUGH */
	case OPT_STRING:
		free(*FIELD(cfg, o, char *));
		*FIELD(cfg, o, char *) = xstrdup(o->def);
		break;
	case OPT_PATH:
		free(*FIELD(cfg, o, char *));
		*FIELD(cfg, o, char *) = expand_default(o->def);
		break;
	case OPT_LIST:
	case OPT_PATHLIST:
		l = FIELD(cfg, o, struct strlist);
		strlist_done(l);
		for (i = 0; o->defl[i] != NULL; i++) {
			if (o->type == OPT_PATHLIST)
				strlist_add_take(l, expand_default(o->defl[i]));
			else
				strlist_add(l, o->defl[i]);
		}
		break;
	}
}

struct config *
config_defaults(void)
{
	struct config	*cfg;
	size_t		 i;

	cfg = xcalloc(1, sizeof *cfg);
	for (i = 0; i < options_count; i++) {
		if (options_table[i].type == OPT_LIST ||
		    options_table[i].type == OPT_PATHLIST)
			strlist_init(FIELD(cfg, &options_table[i],
			    struct strlist));
		set_default(cfg, &options_table[i]);
	}
	return cfg;
}

void
config_free(struct config *cfg)
{
	const struct options_entry	*o;
	size_t				 i;

	if (cfg == NULL)
		return;
	for (i = 0; i < options_count; i++) {
		o = &options_table[i];
		switch (o->type) {
		case OPT_ENUM:
			if (o->flags & OPTF_ENUM_INT)
				break;
			/* FALLTHROUGH */
		case OPT_STRING:
		case OPT_PATH:
			free(*FIELD(cfg, o, char *));
			break;
		case OPT_LIST:
		case OPT_PATHLIST:
			strlist_done(FIELD(cfg, o, struct strlist));
			break;
		default:
			break;
		}
	}
	free(cfg->source);
	free(cfg);
}

/* ---- loading -------------------------------------------------------------- */

struct loader {
	const char	*file;
	struct config	*cfg;
	struct strlist	*warnings;
	yaml_document_t	*doc;
	unsigned char	*visited;	/* per node id */
	size_t		 nnodes;
	size_t		*seen_line;	/* per option: line first set, 0 */
	size_t		 nwarn;
	char		*cause;
};

static int
load_error(struct loader *ld, yaml_mark_t m, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int
load_error(struct loader *ld, yaml_mark_t m, const char *fmt, ...)
{
	va_list	 ap;
	char	*msg;

	va_start(ap, fmt);
	xvasprintf(&msg, fmt, ap);
	va_end(ap);
	free(ld->cause);
	xasprintf(&ld->cause, "%s:%zu:%zu: %s", ld->file, m.line + 1,
	    m.column + 1, msg);
	free(msg);
	return SR_CONFIG;
}

/* A value quoted for a message: printable, about 40 bytes, whole UTF-8. */
static char *
show_value(const char *s)
{
	struct buf	 b;
	size_t		 i;

	buf_init(&b, 0);
	for (i = 0; s[i] != '\0' &&
	    (i < 40 || ((unsigned char)s[i] & 0xc0) == 0x80); i++) {
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			buf_addc(&b, '?');
		else
			buf_addc(&b, s[i]);
	}
	if (s[i] != '\0')
		buf_addstr(&b, "...");
	return buf_take(&b);
}

static const char *
scalar(yaml_node_t *n)
{
	return (const char *)n->data.scalar.value;
}

static int
is_null(yaml_node_t *n)
{
	const char	*s;

	if (n->type != YAML_SCALAR_NODE ||
	    n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return 0;
	s = scalar(n);
	return *s == '\0' || strcmp(s, "~") == 0 || strcmp(s, "null") == 0 ||
	    strcmp(s, "Null") == 0 || strcmp(s, "NULL") == 0;
}

/* Fetches a node, refusing one seen before (an alias or a cycle). */
static yaml_node_t *
get_node(struct loader *ld, int id, yaml_mark_t where, int *rv)
{
	yaml_node_t	*n;

	n = yaml_document_get_node(ld->doc, id);
	if (n == NULL) {
		*rv = load_error(ld, where, "bad YAML node");
		return NULL;
	}
	if (ld->visited[id - 1]) {
		*rv = load_error(ld, n->start_mark,
		    "YAML aliases are not supported in the configuration");
		return NULL;
	}
	ld->visited[id - 1] = 1;
	return n;
}

/* Describes what the value is, for "expected X, got Y". */
static char *
describe(yaml_node_t *n)
{
	char	*v, *out;

	if (n->type == YAML_SEQUENCE_NODE)
		return xstrdup("a list");
	if (n->type == YAML_MAPPING_NODE)
		return xstrdup("a mapping");
	if (is_null(n))
		return xstrdup("nothing");
	if (strlen(scalar(n)) != n->data.scalar.length)
		return xstrdup("a string containing a NUL byte");
	v = show_value(scalar(n));
	xasprintf(&out, "'%s'", v);
	free(v);
	return out;
}

static int
expected(struct loader *ld, const struct options_entry *o, yaml_node_t *n,
    const char *what)
{
	char	*got;
	int	 rv;

	got = describe(n);
	rv = load_error(ld, n->start_mark, "%s: expected %s, got %s", o->key,
	    what, got);
	free(got);
	return rv;
}

static int
set_bool(struct loader *ld, const struct options_entry *o, yaml_node_t *n)
{
	static const char *const yes[] = { "true", "yes", "on", NULL };
	static const char *const no[] = { "false", "no", "off", NULL };
	size_t	 i;

	if (n->type == YAML_SCALAR_NODE) {
		for (i = 0; yes[i] != NULL; i++) {
			if (strcasecmp(scalar(n), yes[i]) == 0) {
				*FIELD(ld->cfg, o, int) = 1;
				return 0;
			}
			if (strcasecmp(scalar(n), no[i]) == 0) {
				*FIELD(ld->cfg, o, int) = 0;
				return 0;
			}
		}
	}
	return expected(ld, o, n, "true or false");
}

static int
set_number(struct loader *ld, const struct options_entry *o, yaml_node_t *n)
{
	const char	*s;
	char		*end, *what;
	long		 l;
	double		 d;
	int		 rv;

	if (n->type == YAML_SCALAR_NODE && !is_null(n)) {
		s = scalar(n);
		errno = 0;
		if (o->type == OPT_INT) {
			l = strtol(s, &end, 10);
			if (end != s && *end == '\0' && errno == 0 &&
			    l >= (long)o->min && l <= (long)o->max) {
				*FIELD(ld->cfg, o, int) = (int)l;
				return 0;
			}
		} else {
			d = strtod(s, &end);
			if (end != s && *end == '\0' && errno == 0 &&
			    isfinite(d) && d >= o->min && d <= o->max) {
				*FIELD(ld->cfg, o, double) = d;
				return 0;
			}
		}
	}
	xasprintf(&what, "%s between %.15g and %.15g",
	    o->type == OPT_INT ? "an integer" : "a number", o->min, o->max);
	rv = expected(ld, o, n, what);
	free(what);
	return rv;
}

/* A scalar string without NUL bytes, or NULL. */
static const char *
string_of(yaml_node_t *n)
{
	if (n->type != YAML_SCALAR_NODE ||
	    strlen(scalar(n)) != n->data.scalar.length)
		return NULL;
	return is_null(n) ? "" : scalar(n);
}

/*
 * A path from the file: ~ expanded, and a relative path taken relative to
 * the directory of the configuration file.
 */
static char *
file_path(struct loader *ld, const char *s)
{
	const char	*slash;
	char		*p, *out;

	p = config_expand_tilde(s);
	if (p[0] == '/' || (slash = strrchr(ld->file, '/')) == NULL)
		return p;
	xasprintf(&out, "%.*s/%s", (int)(slash - ld->file), ld->file, p);
	free(p);
	return out;
}

static int
set_string(struct loader *ld, const struct options_entry *o, yaml_node_t *n)
{
	const char	*s;
	char		**field = FIELD(ld->cfg, o, char *);

	if ((s = string_of(n)) == NULL)
		return expected(ld, o, n, "a string");
	if ((o->flags & OPTF_NONEMPTY) && *s == '\0')
		return expected(ld, o, n, "a non-empty string");
	if ((o->flags & OPTF_SLASH) && *s != '/')
		return expected(ld, o, n, "a path starting with '/'");
	if (o->type == OPT_PATH && *s == '\0')
		return expected(ld, o, n, "a path");
	free(*field);
	if (o->type == OPT_PATH)
		*field = file_path(ld, s);
	else
		*field = xstrdup(s);
	return 0;
}

static int
set_enum(struct loader *ld, const struct options_entry *o, yaml_node_t *n)
{
	struct buf	 b;
	const char	*s;
	char		*what, **field;
	size_t		 i;
	int		 rv;

	if ((s = string_of(n)) != NULL) {
		for (i = 0; o->values[i] != NULL; i++) {
			if (strcasecmp(s, o->values[i]) != 0)
				continue;
			if (o->flags & OPTF_ENUM_INT)
				*FIELD(ld->cfg, o, int) = (int)i;
			else {
				field = FIELD(ld->cfg, o, char *);
				free(*field);
				*field = xstrdup(o->values[i]);
			}
			return 0;
		}
	}
	buf_init(&b, 0);
	buf_addstr(&b, "one of ");
	for (i = 0; o->values[i] != NULL; i++)
		buf_printf(&b, "%s%s", i ? ", " : "", o->values[i]);
	what = buf_take(&b);
	rv = expected(ld, o, n, what);
	free(what);
	return rv;
}

static void
list_add(struct loader *ld, const struct options_entry *o, struct strlist *l,
    const char *s)
{
	char	*p;

	if (o->type == OPT_PATHLIST) {
		p = file_path(ld, s);
		config_expand_path(p, l);
		free(p);
	} else
		strlist_add(l, s);
}

/* Checks a list item against the entry's flags. */
static int
check_item(struct loader *ld, const struct options_entry *o, yaml_node_t *n,
    const char *s)
{
	if ((o->flags & OPTF_DIRNAME) &&
	    (*s == '\0' || strchr(s, '/') != NULL))
		return expected(ld, o, n,
		    "a list of directory names (without '/')");
	if ((o->flags & OPTF_TAGNAME) && (*s == '\0' || strlen(s) >= 32 ||
	    s[strcspn(s, " \t\r\n<>/")] != '\0'))
		return expected(ld, o, n, "a list of tag names (1 to 31 "
		    "characters, no blanks, '<', '>' or '/')");
	if ((o->flags & OPTF_SIGNER) && (strchr(s, '=') == NULL ||
	    *s == '=' || strchr(s, '=')[1] == '\0' ||
	    strcspn(s, " \t=") != (size_t)(strchr(s, '=') - s)))
		return expected(ld, o, n, "a list of NAME=KEY entries (KEY a "
		    "minisign public key or the path of a .pub file)");
	return 0;
}

static int
set_list(struct loader *ld, const struct options_entry *o, yaml_node_t *n)
{
	struct strlist	 l;
	yaml_node_item_t *it;
	yaml_node_t	*item;
	const char	*s;
	int		 rv = 0;

	strlist_init(&l);
	if (is_null(n))
		;	/* an empty list */
	else if (n->type == YAML_SCALAR_NODE) {
		if ((s = string_of(n)) == NULL) {
			rv = expected(ld, o, n, "a list of strings");
			goto out;
		}
		if ((rv = check_item(ld, o, n, s)) != 0)
			goto out;
		list_add(ld, o, &l, s);
	} else if (n->type == YAML_SEQUENCE_NODE) {
		for (it = n->data.sequence.items.start;
		    it < n->data.sequence.items.top; it++) {
			if ((item = get_node(ld, *it, n->start_mark, &rv)) ==
			    NULL)
				goto out;
			if ((s = string_of(item)) == NULL || is_null(item)) {
				rv = expected(ld, o, item,
				    "a list of strings (an item is not one)");
				goto out;
			}
			if ((rv = check_item(ld, o, item, s)) != 0)
				goto out;
			list_add(ld, o, &l, s);
		}
	} else {
		rv = expected(ld, o, n, "a list of strings");
		goto out;
	}
	strlist_done(FIELD(ld->cfg, o, struct strlist));
	*FIELD(ld->cfg, o, struct strlist) = l;
	return 0;
out:
	strlist_done(&l);
	return rv;
}

static int
set_value(struct loader *ld, const struct options_entry *o, yaml_node_t *n)
{
	switch (o->type) {
	case OPT_BOOL:
		return set_bool(ld, o, n);
	case OPT_INT:
	case OPT_DOUBLE:
		return set_number(ld, o, n);
	case OPT_STRING:
	case OPT_PATH:
		return set_string(ld, o, n);
	case OPT_ENUM:
		return set_enum(ld, o, n);
	case OPT_LIST:
	case OPT_PATHLIST:
		return set_list(ld, o, n);
	}
	return 0;
}

static void
warn_unknown(struct loader *ld, yaml_mark_t m, const char *key)
{
	const char	*sugg;
	char		*k, *w;

	if (ld->warnings == NULL)
		return;
	if (++ld->nwarn > CONFIG_MAX_WARNINGS) {
		if (ld->nwarn == CONFIG_MAX_WARNINGS + 1) {
			xasprintf(&w, "%s: too many unknown keys, not listing "
			    "more", ld->file);
			strlist_add_take(ld->warnings, w);
		}
		return;
	}
	k = show_value(key);
	if ((sugg = options_suggest(key)) != NULL)
		xasprintf(&w, "%s:%zu:%zu: unknown key '%s' (did you mean "
		    "'%s'?)", ld->file, m.line + 1, m.column + 1, k, sugg);
	else
		xasprintf(&w, "%s:%zu:%zu: unknown key '%s'", ld->file,
		    m.line + 1, m.column + 1, k);
	free(k);
	strlist_add_take(ld->warnings, w);
}

static int
walk_mapping(struct loader *ld, yaml_node_t *map, const char *prefix,
    int depth)
{
	const struct options_entry *o;
	yaml_node_pair_t *p;
	yaml_node_t	*k, *v;
	char		*key = NULL, *shown;
	size_t		 idx;
	int		 rv = 0;

	for (p = map->data.mapping.pairs.start;
	    p < map->data.mapping.pairs.top; p++) {
		if ((k = get_node(ld, p->key, map->start_mark, &rv)) == NULL)
			goto out;
		if (string_of(k) == NULL || is_null(k)) {
			rv = load_error(ld, k->start_mark,
			    "expected a key name");
			goto out;
		}
		if ((v = get_node(ld, p->value, k->start_mark, &rv)) == NULL)
			goto out;
		free(key);
		if (prefix != NULL)
			xasprintf(&key, "%s.%s", prefix, scalar(k));
		else
			key = xstrdup(scalar(k));

		if ((o = options_find(key)) != NULL) {
			idx = (size_t)(o - options_table);
			if (ld->seen_line[idx] != 0) {
				rv = load_error(ld, k->start_mark,
				    "duplicate key '%s' (first set at line "
				    "%zu)", key, ld->seen_line[idx]);
				goto out;
			}
			ld->seen_line[idx] = k->start_mark.line + 1;
			if ((rv = set_value(ld, o, v)) != 0)
				goto out;
		} else if (v->type == YAML_MAPPING_NODE) {
			if (depth >= CONFIG_MAX_DEPTH) {
				rv = load_error(ld, v->start_mark,
				    "mapping nested too deeply");
				goto out;
			}
			if ((rv = walk_mapping(ld, v, key, depth + 1)) != 0)
				goto out;
		} else if (options_is_section(key)) {
			shown = show_value(key);
			rv = load_error(ld, v->start_mark, "%s: expected a "
			    "mapping of keys such as %s.*", shown, shown);
			free(shown);
			goto out;
		} else
			warn_unknown(ld, k->start_mark, key);
	}
out:
	free(key);
	return rv;
}

static int
parse_error(struct loader *ld, yaml_parser_t *parser)
{
	const char	*what;

	what = parser->problem != NULL ? parser->problem : "unknown error";
	free(ld->cause);
	if (parser->error == YAML_READER_ERROR)
		xasprintf(&ld->cause, "%s: YAML: %s at byte %zu", ld->file,
		    what, parser->problem_offset);
	else if (parser->context != NULL)
		xasprintf(&ld->cause, "%s:%zu:%zu: YAML syntax error: %s %s",
		    ld->file, parser->problem_mark.line + 1,
		    parser->problem_mark.column + 1, what, parser->context);
	else
		xasprintf(&ld->cause, "%s:%zu:%zu: YAML syntax error: %s",
		    ld->file, parser->problem_mark.line + 1,
		    parser->problem_mark.column + 1, what);
	return SR_CONFIG;
}

/* Loads the YAML text over ld->cfg. */
static int
load_text(struct loader *ld, const char *text, size_t len)
{
	yaml_parser_t	 parser;
	yaml_document_t	 doc, extra;
	yaml_node_t	*root;
	size_t		 line, col;
	int		 rv = 0, have_doc = 0;

	memset(&doc, 0, sizeof doc);
	/*
	 * Shape first, on the event stream: loading deep flow nesting
	 * ("x: [[[[...") costs quadratic time before walk_mapping() could
	 * refuse it.
	 */
	switch (yamlcap_check(text, len, CONFIG_MAX_NEST, CONFIG_MAX_NODES,
	    &line, &col)) {
	case YAMLCAP_DEEP:
		xasprintf(&ld->cause, "%s:%zu:%zu: YAML nested %d levels deep "
		    "or more: not a configuration file", ld->file, line + 1,
		    col + 1, CONFIG_MAX_NEST);
		return SR_CONFIG;
	case YAMLCAP_MANY:
		xasprintf(&ld->cause, "%s:%zu:%zu: more than %d YAML values: "
		    "not a configuration file", ld->file, line + 1, col + 1,
		    CONFIG_MAX_NODES);
		return SR_CONFIG;
	case YAMLCAP_OK:
		break;
	}
	if (!yaml_parser_initialize(&parser)) {
		xasprintf(&ld->cause, "%s: cannot initialise the YAML parser",
		    ld->file);
		return SR_CONFIG;
	}
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	if (!yaml_parser_load(&parser, &doc)) {
		rv = parse_error(ld, &parser);
		goto out;
	}
	have_doc = 1;
	if ((root = yaml_document_get_root_node(&doc)) == NULL)
		goto out;	/* an empty file: the defaults */

	/* A second document is an error too. */
	if (!yaml_parser_load(&parser, &extra)) {
		rv = parse_error(ld, &parser);
		goto out;
	}
	if (yaml_document_get_root_node(&extra) != NULL) {
		rv = load_error(ld, yaml_document_get_root_node(&extra)->
		    start_mark, "only one YAML document is allowed");
		yaml_document_delete(&extra);
		goto out;
	}
	yaml_document_delete(&extra);

	if (is_null(root))
		goto out;
	if (root->type != YAML_MAPPING_NODE) {
		rv = load_error(ld, root->start_mark,
		    "expected a mapping of keys at the top level");
		goto out;
	}
	ld->doc = &doc;
	ld->nnodes = (size_t)(doc.nodes.top - doc.nodes.start);
	ld->visited = xcalloc(ld->nnodes + 1, 1);
	ld->seen_line = xcalloc(options_count, sizeof *ld->seen_line);
	ld->visited[0] = 1;	/* the root, id 1 */
	rv = walk_mapping(ld, root, NULL, 0);
out:
	free(ld->visited);
	free(ld->seen_line);
	ld->visited = NULL;
	ld->seen_line = NULL;
	if (have_doc)
		yaml_document_delete(&doc);
	yaml_parser_delete(&parser);
	return rv;
}

/*
 * SKILL_PATHS replaces paths; SKILLS_RADAR_TOKEN sets the token;
 * SKILLS_RADAR_DSN fills an empty store.dsn and an empty telemetry.dsn.
 */
static void
apply_env(struct config *cfg)
{
	struct strlist	 parts;
	const char	*v;
	size_t		 i;

	if ((v = getenv("SKILL_PATHS")) != NULL && *v != '\0') {
		strlist_done(&cfg->paths);
		strlist_init(&parts);
		strlist_split(&parts, v, ":");
		for (i = 0; i < parts.n; i++)
			config_expand_path(parts.v[i], &cfg->paths);
		strlist_done(&parts);
	}
	if ((v = getenv("SKILLS_RADAR_TOKEN")) != NULL && *v != '\0') {
		free(cfg->auth_token);
		cfg->auth_token = xstrdup(v);
	}
	if ((v = getenv("SKILLS_RADAR_DSN")) != NULL && *v != '\0') {
		if (cfg->store_dsn == NULL || cfg->store_dsn[0] == '\0') {
			free(cfg->store_dsn);
			cfg->store_dsn = xstrdup(v);
		}
		if (cfg->telemetry_dsn == NULL || *cfg->telemetry_dsn == '\0') {
			free(cfg->telemetry_dsn);
			cfg->telemetry_dsn = xstrdup(v);
		}
	}
}

int
config_load(const char *explicit_path, struct config **out,
    struct strlist *warnings, char **cause)
{
	struct loader	 ld;
	struct config	*cfg;
	char		*path, *text = NULL, *w;
	size_t		 len;
	int		 rv = 0;

	*out = NULL;
	*cause = NULL;
	memset(&ld, 0, sizeof ld);
	cfg = config_defaults();
	path = config_default_path(explicit_path);

	if (explicit_path != NULL && *explicit_path == '\0') {
		xasprintf(cause, "--config: empty file name");
		rv = SR_CONFIG;
		goto out;
	}
	if (strcmp(path, "/dev/null") == 0) {
		/* The usual way to ask for the defaults: read as empty. */
		text = xstrdup("");
		len = 0;
	} else if (buf_read_file(path, CONFIG_MAX_BYTES, &text, &len) == -1) {
		if (errno == ENOENT && explicit_path == NULL) {
			/* No file: the defaults; say so if it was asked for. */
			if (warnings != NULL && getenv("SKILLS_RADAR_CONFIG") !=
			    NULL && *getenv("SKILLS_RADAR_CONFIG") != '\0') {
				xasprintf(&w, "%s (SKILLS_RADAR_CONFIG) does not "
				    "exist; using the defaults", path);
				strlist_add_take(warnings, w);
			}
			goto env;
		}
		if (errno == EFBIG)
			xasprintf(cause, "%s: larger than %d KiB, not a "
			    "configuration file", path, CONFIG_MAX_BYTES / 1024);
		else
			xasprintf(cause, "%s: %s", path,
			    buf_strerror(path, errno));
		rv = SR_CONFIG;
		goto out;
	}
	ld.file = path;
	ld.cfg = cfg;
	ld.warnings = warnings;
	if ((rv = load_text(&ld, text, len)) != 0) {
		*cause = ld.cause;
		ld.cause = NULL;
		goto out;
	}
	cfg->source = xstrdup(path);
env:
	apply_env(cfg);
	*out = cfg;
	cfg = NULL;
out:
	free(ld.cause);
	free(text);
	free(path);
	config_free(cfg);
	return rv;
}

/* ---- template and manual ------------------------------------------------ */

/* A path with $HOME written as ~, for the template. */
static char *
abbrev_home(const char *p)
{
	const char	*h = home_dir();
	size_t		 n = strlen(h);
	char		*out;

	if (n > 1 && strncmp(p, h, n) == 0 && (p[n] == '/' || p[n] == '\0')) {
		xasprintf(&out, "~%s", p + n);
		return out;
	}
	return xstrdup(p);
}

static void
put_quoted(FILE *fp, const char *s)
{
	fputc('"', fp);
	for (; *s != '\0'; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(fp, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(fp, "\\x%02x", (unsigned char)*s);
		else
			fputc(*s, fp);
	}
	fputc('"', fp);
}

/* Writes text as "# " comment lines of at most 76 columns. */
static void
put_comment(FILE *fp, const char *indent, const char *text)
{
	const char	*p = text, *w;
	size_t		 col, n;

	while (*p != '\0') {
		fprintf(fp, "%s#", indent);
		col = strlen(indent) + 1;
		while (*p == ' ')
			p++;
		do {
			w = p + strcspn(p, " ");
			n = (size_t)(w - p);
			fprintf(fp, " %.*s", (int)n, p);
			col += n + 1;
			p = w;
			while (*p == ' ')
				p++;
		} while (*p != '\0' && col + 1 + strcspn(p, " ") <= 76);
		fputc('\n', fp);
	}
}

static void
put_range(FILE *fp, const char *indent, const struct options_entry *o)
{
	size_t	 i;

	switch (o->type) {
	case OPT_INT:
	case OPT_DOUBLE:
		fprintf(fp, "%s# %s, %.15g to %.15g.\n", indent,
		    o->type == OPT_INT ? "Integer" : "Number", o->min, o->max);
		break;
	case OPT_ENUM:
		fprintf(fp, "%s# One of:", indent);
		for (i = 0; o->values[i] != NULL; i++)
			fprintf(fp, " %s", o->values[i]);
		fputs(".\n", fp);
		break;
	default:
		break;
	}
}

/* A path default as the template shows it: resolved, with ~ for $HOME. */
static char *
shown_default(const char *def)
{
	char	*v, *out;

	v = expand_default(def);
	out = abbrev_home(v);
	free(v);
	return out;
}

static void
put_value(FILE *fp, const char *indent, const struct options_entry *o)
{
	const char	*leaf;
	char		*v;
	size_t		 i;

	leaf = strrchr(o->key, '.');
	leaf = leaf != NULL ? leaf + 1 : o->key;
	fprintf(fp, "%s%s:", indent, leaf);
	switch (o->type) {
	case OPT_BOOL:
	case OPT_INT:
	case OPT_DOUBLE:
		fprintf(fp, " %s\n", o->def);
		break;
	case OPT_STRING:
	case OPT_ENUM:
		fputc(' ', fp);
		put_quoted(fp, o->def);
		fputc('\n', fp);
		break;
	case OPT_PATH:
		v = shown_default(o->def);
		fputc(' ', fp);
		put_quoted(fp, v);
		fputc('\n', fp);
		free(v);
		break;
	case OPT_LIST:
	case OPT_PATHLIST:
		if (o->defl[0] == NULL) {
			fputs(" []\n", fp);
			break;
		}
		fputc('\n', fp);
		for (i = 0; o->defl[i] != NULL; i++) {
			fprintf(fp, "%s  - ", indent);
			if (o->type == OPT_PATHLIST) {
				v = shown_default(o->defl[i]);
				put_quoted(fp, v);
				free(v);
			} else
				put_quoted(fp, o->defl[i]);
			fputc('\n', fp);
		}
		break;
	}
}

/* The length of a key's section ("retrieval" of "retrieval.x"), or 0. */
static size_t
section_len(const char *key)
{
	const char	*dot;

	dot = strrchr(key, '.');
	return dot != NULL ? (size_t)(dot - key) : 0;
}

int
config_write_template(FILE *fp)
{
	const struct options_entry *o;
	const char	*cur = NULL, *indent;
	size_t		 i, n, curn = 0;

	fputs("# skills-radar configuration: see skills-radar.yaml(5).\n"
	    "#\n"
	    "# Written by `skills-radar config-init` with every key set to its\n"
	    "# default; delete what you do not change. The file is read from\n"
	    "# --config FILE, else $SKILLS_RADAR_CONFIG, else\n"
	    "# $XDG_CONFIG_HOME/skills-radar/config.yaml. Keys may also be\n"
	    "# written dotted at the top level (retrieval.miss_threshold: 0.5).\n"
	    "# Paths: a leading ~ is expanded and a relative path is taken\n"
	    "# from this file's directory; in path lists globs are expanded.\n"
	    "# Environment: SKILL_PATHS (colon-separated) replaces paths;\n"
	    "# SKILLS_RADAR_TOKEN sets transport.auth_token; SKILLS_RADAR_DSN\n"
	    "# sets store.dsn when it is empty.\n", fp);
	for (i = 0; i < options_count; i++) {
		o = &options_table[i];
		n = section_len(o->key);
		if (n == 0) {
			cur = NULL;
			curn = 0;
			indent = "";
			fputc('\n', fp);
		} else {
			if (cur == NULL || n != curn ||
			    strncmp(cur, o->key, n) != 0) {
				fprintf(fp, "\n%.*s:\n", (int)n, o->key);
				cur = o->key;
				curn = n;
			} else
				fputc('\n', fp);
			indent = "  ";
		}
		put_comment(fp, indent, o->help);
		put_range(fp, indent, o);
		put_value(fp, indent, o);
	}
	return ferror(fp) ? -1 : 0;
}

/*
 * Writes n bytes of mdoc text as lines of at most 72 columns, broken at
 * blanks, protecting a leading control character and backslashes.
 */
static void
mdoc_line(FILE *fp, const char *s, size_t n)
{
	const char	*end = s + n, *brk;
	size_t		 i, len;

	while (s < end) {
		while (s < end && *s == ' ')
			s++;
		if (s == end)
			break;
		len = (size_t)(end - s);
		if (len > 72) {
			/* The last blank within 72 bytes, else the first one. */
			for (brk = s + 72; brk > s && *brk != ' '; brk--)
				;
			if (brk == s)
				for (brk = s + 72; brk < end && *brk != ' ';
				    brk++)
					;
			len = (size_t)(brk - s);
		}
		if (s[0] == '.' || s[0] == '\'')
			fputs("\\&", fp);
		for (i = 0; i < len; i++) {
			if (s[i] == '\\')
				fputs("\\e", fp);
			else
				fputc(s[i], fp);
		}
		fputc('\n', fp);
		s += len;
	}
}

/* Writes text with one sentence per line, as mdoc wants. */
static void
mdoc_text(FILE *fp, const char *text)
{
	const char	*p = text, *q;

	while (*p != '\0') {
		for (q = p; *q != '\0'; q++) {
			if (q[0] == '.' && q[1] == ' ' &&
			    isupper((unsigned char)q[2]))
				break;
		}
		if (*q == '\0') {
			mdoc_line(fp, p, (size_t)(q - p));
			break;
		}
		mdoc_line(fp, p, (size_t)(q - p + 1));
		p = q + 2;
	}
}

/* A macro argument: quoted when it holds blanks or is empty. */
static void
mdoc_arg(FILE *fp, const char *s)
{
	if (*s == '\0' || strpbrk(s, " \t\"") != NULL) {
		fputc('"', fp);
		for (; *s != '\0'; s++) {
			if (*s == '"')
				fputs("\\(dq", fp);
			else if (*s == '\\')
				fputs("\\e", fp);
			else
				fputc(*s, fp);
		}
		fputc('"', fp);
	} else {
		for (; *s != '\0'; s++) {
			if (*s == '\\')
				fputs("\\e", fp);
			else
				fputc(*s, fp);
		}
	}
}

int
config_write_mdoc(FILE *fp)
{
	const struct options_entry *o;
	size_t		 i, j;

	fputs(".Bl -tag -width Ds\n", fp);
	for (i = 0; i < options_count; i++) {
		o = &options_table[i];
		fprintf(fp, ".It Ic %s Pq %s\n", o->key,
		    options_type_name(o->type));
		mdoc_text(fp, o->help);
		switch (o->type) {
		case OPT_INT:
		case OPT_DOUBLE:
			fprintf(fp, "From %.15g to %.15g; default\n.Ql %s .\n",
			    o->min, o->max, o->def);
			break;
		case OPT_BOOL:
			fprintf(fp, "Default\n.Ql %s .\n", o->def);
			break;
		case OPT_ENUM:
			if (o->values[1] == NULL) {
				fprintf(fp, "The only value is\n.Ql %s .\n",
				    o->values[0]);
				break;
			}
			fputs("One of\n", fp);
			for (j = 0; o->values[j] != NULL; j++)
				fprintf(fp, ".Cm %s%s\n", o->values[j],
				    o->values[j + 1] == NULL ? " ;" :
				    o->values[j + 2] == NULL ? " or" : " ,");
			fprintf(fp, "default\n.Ql %s .\n", o->def);
			break;
		case OPT_STRING:
		case OPT_PATH:
			if (*o->def == '\0')
				fputs("Empty by default.\n", fp);
			else {
				fputs("Default\n.Ql ", fp);
				mdoc_arg(fp, o->def);
				fputs(" .\n", fp);
			}
			break;
		case OPT_LIST:
		case OPT_PATHLIST:
			if (o->defl[0] == NULL) {
				fputs("Empty by default.\n", fp);
				break;
			}
			fputs("Default:\n", fp);
			for (j = 0; o->defl[j] != NULL; j++) {
				fputs(".Ql ", fp);
				mdoc_arg(fp, o->defl[j]);
				fputs(o->defl[j + 1] == NULL ? " .\n" : " ,\n",
				    fp);
			}
			break;
		}
	}
	fputs(".El\n", fp);
	return ferror(fp) ? -1 : 0;
}
