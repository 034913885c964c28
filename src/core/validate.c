/*
 * Validation of a parsed entry (DESIGN §6): the name rules, the required
 * description, the size cap and the warnings about keys. The rule table at
 * the end lists every id this file and frontmatter.c emit.
 */
#include "autoconfig.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/config.h"
#include "core/finding.h"
#include "core/frontmatter.h"
#include "core/skill.h"
#include "core/validate.h"
#include "base/xmalloc.h"

#define NAME_MAX_LEN	64
#define DESC_MAX_CHARS	1024
#define MAX_UNKNOWN_KEYS	20	/* listed one by one */
#define DEFAULT_SIZE_KB		256	/* limits.max_skill_size_kb default */

static const char *const reserved[] = { "anthropic", "claude", NULL };

/* The keys Claude Code, the Agent Skills spec and skills-radar read. */
static const char *const known_keys[] = {
	"name", "description", "when_to_use", "whenToUse", "when-to-use",
	"hub-tags", "hub_tags", "tags", "platforms", "requires_tools",
	"requires-tools", "fallback_for_tools", "fallback-for-tools",
	"disable-model-invocation", "user-invocable", "allowed-tools",
	"triggers", "license", "version", "metadata", "compatibility",
	"argument-hint", "arguments", "model", "context", "agent", "hooks",
	"paths", "shell", "tools", "disallowedTools", "color", "effort",
	"permissionMode", "skills", "mcpServers", "memory",
	NULL
};

const char *
validate_name(const char *name)
{
	size_t		 n, i;
	const char	*const *r;

	if (name == NULL || *name == '\0')
		return "name-invalid";
	n = strlen(name);
	if (n > NAME_MAX_LEN)
		return "name-too-long";
	for (i = 0; i < n; i++) {
		if (!(islower((unsigned char)name[i]) ||
		    isdigit((unsigned char)name[i]) ||
		    (name[i] == '-' && i != 0 && i != n - 1)))
			return "name-invalid";
		if ((unsigned char)name[i] >= 0x80)
			return "name-invalid";
	}
	for (r = reserved; *r != NULL; r++) {
		if (strcmp(name, *r) == 0)
			return "name-reserved";
	}
	return NULL;
}

/* UTF-8 characters in s (continuation bytes not counted). */
static size_t
u8_chars(const char *s)
{
	size_t	 n = 0;

	for (; *s != '\0'; s++) {
		if (((unsigned char)*s & 0xc0) != 0x80)
			n++;
	}
	return n;
}

/* A printable copy of a name for messages: at most 80 bytes, no controls. */
static char *
show(const char *s)
{
	char	*t;
	size_t	 i, n = strlen(s);

	if (n > 80)
		n = 80;
	t = xstrndup(s, n);
	for (i = 0; t[i] != '\0'; i++) {
		if ((unsigned char)t[i] < 0x20 || t[i] == 0x7f)
			t[i] = '?';
	}
	return t;
}

static void
name_error(struct findings *out, const char *rule, const char *name,
    const char *origin, int line, const char *id)
{
	char	*s = show(name), *hint = NULL;

	/* For authors: what an index does with it unless strict_names. */
	if (id != NULL)
		xasprintf(&hint, "; skills-radar indexes it as \"%s\" unless "
		    "validation.strict_names is on", id);

	if (strcmp(rule, "name-too-long") == 0)
		findings_add(out, rule, SEV_ERROR, line,
		    "%s \"%s...\" is %zu characters; the limit is %d%s",
		    origin, s, strlen(name), NAME_MAX_LEN, hint ? hint : "");
	else if (strcmp(rule, "name-reserved") == 0)
		findings_add(out, rule, SEV_ERROR, line,
		    "%s \"%s\" is a reserved word", origin, s);
	else if (*name == '\0')
		findings_add(out, rule, SEV_ERROR, line, "%s is empty", origin);
	else
		findings_add(out, rule, SEV_ERROR, line,
		    "%s \"%s\" must be lower-case letters, digits and inner "
		    "hyphens (^[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$)%s",
		    origin, s, hint ? hint : "");
	free(hint);
	free(s);
}

/* The file line of a top-level key, or 0. */
static int
key_line(const struct fm *fm, const char *key)
{
	size_t	 i;

	for (i = 0; fm->key_lines != NULL && i < fm->keys.n; i++) {
		if (strcmp(fm->keys.v[i], key) == 0)
			return fm->key_lines[i];
	}
	return 0;
}

static int
same_finding(const struct finding *a, const struct finding *b)
{
	return a->sev == b->sev && a->line == b->line &&
	    strcmp(a->rule, b->rule) == 0 &&
	    strcmp(a->message, b->message) == 0;
}

/* Copies fm's findings into out, skipping those already there. */
static void
copy_findings(struct findings *out, const struct findings *src)
{
	size_t	 i, j;
	int	 dup;

	for (i = 0; i < src->n; i++) {
		dup = 0;
		for (j = 0; j < out->n && !dup; j++)
			dup = same_finding(&out->v[j], &src->v[i]);
		if (!dup)
			findings_add(out, src->v[i].rule, src->v[i].sev,
			    src->v[i].line, "%s", src->v[i].message);
	}
}

static int
has_rule(const struct findings *f, const char *rule)
{
	size_t	 i;

	for (i = 0; i < f->n; i++) {
		if (strcmp(f->v[i].rule, rule) == 0)
			return 1;
	}
	return 0;
}

static void
check_keys(const struct fm *fm, struct findings *out)
{
	const char	*const *k;
	const char	*close;
	size_t		 i, unknown = 0;
	int		 known, line;

	for (i = 0; i < fm->keys.n; i++) {
		known = 0;
		close = NULL;
		for (k = known_keys; *k != NULL && !known; k++) {
			if (strcmp(fm->keys.v[i], *k) == 0)
				known = 1;
			else if (close == NULL &&
			    strcasecmp(fm->keys.v[i], *k) == 0)
				close = *k;
		}
		if (known)
			continue;
		if (++unknown > MAX_UNKNOWN_KEYS)
			continue;
		line = fm->key_lines != NULL ? fm->key_lines[i] : 0;
		if (close != NULL)
			findings_add(out, "key-case", SEV_WARN, line,
			    "unknown key \"%s\" (keys are case-sensitive: "
			    "did you mean \"%s\"?)", fm->keys.v[i], close);
		else
			findings_add(out, "key-unknown", SEV_INFO, line,
			    "unknown key \"%s\" (kept, not used)",
			    fm->keys.v[i]);
	}
	if (unknown > MAX_UNKNOWN_KEYS)
		findings_add(out, "key-unknown", SEV_INFO, 0,
		    "%zu more unknown keys not listed",
		    unknown - MAX_UNKNOWN_KEYS);
}

const char *
validate_description(const struct fm *fm, enum skill_kind kind)
{
	if (fm->description != NULL)
		return fm->description;
	if (kind == KIND_COMMAND)
		return fm->summary;
	return NULL;
}

/*
 * The id a name that breaks the naming rule is indexed under: the name
 * normalised, else (a name with nothing of [a-z0-9], e.g. all CJK) the
 * directory name or file stem normalised. NULL when neither gives one,
 * or when the id is itself reserved (rule then says which).
 */
static char *
normalised_id(const char *name, const char *fallback, const char **rule)
{
	char	*id;

	if ((id = skill_name_id(name)) == NULL && fallback != NULL)
		id = skill_name_id(fallback);
	if (id == NULL)
		return NULL;
	if ((*rule = validate_name(id)) != NULL) {
		free(id);
		return NULL;
	}
	return id;
}

/*
 * A name that breaks the rule. At index time (lenient) it is kept under
 * its normalised id with a warning and *display set to the name as
 * written; otherwise, or when it has no usable id, it is an error.
 * Returns the name to use.
 */
static char *
bad_name(const char *name, const char *rule, const char *origin, int line,
    const char *fallback, int lenient, struct findings *out, int *rejected,
    char **display)
{
	const char	*idrule = NULL;
	char		*id = NULL, *s;

	if (strcmp(rule, "name-reserved") != 0)
		id = normalised_id(name, fallback, &idrule);
	if (id != NULL && lenient) {
		s = show(name);
		findings_add(out, "name-normalised", SEV_WARN, line,
		    "%s \"%s\" breaks the naming rule (%s); indexed as \"%s\" "
		    "and shown as written", origin, s, rule, id);
		free(s);
		*display = xstrdup(name);
		return id;
	}
	if (idrule != NULL && strcmp(idrule, "name-reserved") == 0)
		name_error(out, idrule, name, origin, line, NULL);
	else
		name_error(out, rule, name, origin, line, id);
	free(id);
	*rejected = 1;
	return xstrdup(name);
}

/* Derives the name: the frontmatter's, else fallback lower-cased. */
static char *
derive_name(const struct fm *fm, enum skill_kind kind, const char *fallback,
    int lenient, struct findings *out, int *rejected, char **display)
{
	const char	*rule, *origin;
	char		*name, *p, *id;

	if (fm->name != NULL) {
		if ((rule = validate_name(fm->name)) != NULL)
			return bad_name(fm->name, rule, "name", key_line(fm,
			    "name"), fallback, lenient, out, rejected, display);
		return xstrdup(fm->name);
	}
	if (fallback == NULL || *fallback == '\0') {
		findings_add(out, "name-invalid", SEV_ERROR, 0,
		    "no name in the frontmatter and no %s to fall back on",
		    kind == KIND_SKILL ? "directory name" : "file name");
		*rejected = 1;
		return NULL;
	}
	name = xstrdup(fallback);
	for (p = name; *p != '\0'; p++)
		*p = (char)tolower((unsigned char)*p);
	origin = kind == KIND_SKILL ? "no name in the frontmatter and the "
	    "directory name" : "no name in the frontmatter and the file name";
	if ((rule = validate_name(name)) != NULL) {
		id = bad_name(fallback, rule, origin, 0, NULL, lenient, out,
		    rejected, display);
		free(name);
		return id;
	}
	findings_add(out, "name-fallback", SEV_INFO, 0,
	    "no name in the frontmatter: using \"%s\" from the %s",
	    name, kind == KIND_SKILL ? "directory" : "file name");
	return name;
}

static int
check_entry(const struct fm *fm, enum skill_kind kind,
    const char *fallback, size_t file_size, const struct config *cfg,
    int lenient, struct findings *out, char **namep, char **displayp)
{
	const char	*const *r;
	const char	*desc;
	char		*name;
	size_t		 limit, kb;
	int		 rejected = 0, allow_large;

	*namep = NULL;
	*displayp = NULL;
	copy_findings(out, &fm->findings);
	if (findings_first_error(&fm->findings) != NULL)
		rejected = 1;

	/* Size. */
	kb = cfg != NULL && cfg->max_skill_size_kb > 0 ?
	    (size_t)cfg->max_skill_size_kb : DEFAULT_SIZE_KB;
	allow_large = cfg != NULL && cfg->allow_large;
	limit = kb * 1024;
	if (file_size > limit) {
		if (allow_large)
			findings_add(out, "file-large", SEV_INFO, 0,
			    "the file is %zu bytes, over %zu KiB; indexed "
			    "because limits.allow_large is set", file_size, kb);
		else {
			findings_add(out, "file-too-large", SEV_ERROR, 0,
			    "the file is %zu bytes, over the %zu KiB limit "
			    "(limits.max_skill_size_kb; set limits.allow_large "
			    "to index it)", file_size, kb);
			rejected = 1;
		}
	}

	/* Frontmatter presence. */
	if (!fm->has_frontmatter && kind != KIND_COMMAND) {
		if (has_rule(&fm->findings, "frontmatter-unclosed"))
			findings_add(out, "frontmatter-missing", SEV_ERROR, 1,
			    "the frontmatter opened on line 1 is never closed "
			    "by a --- line; a %s needs at least a description",
			    kind_name(kind));
		else
			findings_add(out, "frontmatter-missing", SEV_ERROR, 1,
			    "no frontmatter (a --- line, YAML, a --- line); a "
			    "%s needs at least a description", kind_name(kind));
		rejected = 1;
	}

	/* Name. */
	name = derive_name(fm, kind, fallback, lenient, out, &rejected,
	    displayp);
	if (name != NULL && validate_name(name) == NULL) {
		for (r = reserved; *r != NULL; r++) {
			if (strstr(name, *r) != NULL)
				findings_add(out, "name-contains-reserved",
				    SEV_WARN, key_line(fm, "name"), "name "
				    "\"%s\" contains the reserved word \"%s\"",
				    name, *r);
		}
		if (fm->name != NULL && kind == KIND_SKILL &&
		    fallback != NULL && *fallback != '\0' &&
		    strcmp(name, fallback) != 0 && (*displayp == NULL ||
		    strcmp(*displayp, fallback) != 0)) {
			char *f = show(fallback);

			findings_add(out, "name-mismatch", SEV_WARN,
			    key_line(fm, "name"),
			    "name \"%s\" differs from the directory name "
			    "\"%s\"", name, f);
			free(f);
		}
	}

	/* Description. */
	desc = validate_description(fm, kind);
	if (desc == NULL) {
		if (kind == KIND_COMMAND)
			findings_add(out, "command-description-empty",
			    SEV_WARN, 0, "no description and no body text to "
			    "describe the command");
		else if (fm->has_frontmatter &&
		    !has_rule(&fm->findings, "value-type") &&
		    findings_first_error(&fm->findings) == NULL) {
			findings_add(out, "description-missing", SEV_ERROR, 0,
			    "no description in the frontmatter; a %s needs one "
			    "so agents know when to use it", kind_name(kind));
			rejected = 1;
		}
	} else {
		if (fm->description == NULL)
			findings_add(out, "description-from-body", SEV_INFO,
			    fm->body_line, "no description: using the first "
			    "line of the body");
		if (u8_chars(desc) > DESC_MAX_CHARS)
			findings_add(out, "description-too-long", SEV_WARN,
			    key_line(fm, "description"),
			    "the description is %zu characters, over %d "
			    "(clients may cut it)", u8_chars(desc),
			    DESC_MAX_CHARS);
	}

	check_keys(fm, out);
	*namep = name;
	if (rejected) {
		free(*displayp);
		*displayp = NULL;
	}
	return rejected;
}

int
validate_entry(const struct fm *fm, enum skill_kind kind,
    const char *fallback, size_t file_size, const struct config *cfg,
    struct findings *out, char **namep)
{
	char	*display;
	int	 rv;

	rv = check_entry(fm, kind, fallback, file_size, cfg, 0, out, namep,
	    &display);
	free(display);
	return rv;
}

int
validate_entry_index(const struct fm *fm, enum skill_kind kind,
    const char *fallback, size_t file_size, const struct config *cfg,
    int normalise, struct findings *out, char **namep, char **displayp)
{
	return check_entry(fm, kind, fallback, file_size, cfg, normalise, out,
	    namep, displayp);
}

const struct validate_rule validate_rules[] = {
	/* frontmatter.c */
	{ "frontmatter-unclosed", SEV_WARN,
	  "the opening --- line has no closing --- line; read as no "
	  "frontmatter" },
	{ "frontmatter-too-large", SEV_ERROR,
	  "the frontmatter block is over 64 KiB" },
	{ "frontmatter-empty", SEV_INFO,
	  "the frontmatter block holds no keys" },
	{ "frontmatter-not-mapping", SEV_ERROR,
	  "the frontmatter is a list or a scalar, not key: value pairs" },
	{ "yaml-invalid", SEV_ERROR,
	  "the YAML does not parse and no key: value line could be "
	  "recovered" },
	{ "yaml-recovered", SEV_WARN,
	  "the YAML does not parse; read line by line as key: value (the "
	  "way Claude Code tolerates unquoted colons)" },
	{ "yaml-too-complex", SEV_ERROR,
	  "the YAML nests too deep or expands to too many values "
	  "(alias bombs)" },
	{ "utf8-invalid", SEV_WARN,
	  "invalid UTF-8 in recovered frontmatter replaced with U+FFFD" },
	{ "key-duplicate", SEV_WARN,
	  "a key appears twice; the last value is used" },
	{ "key-invalid", SEV_WARN,
	  "a key that is a list or mapping is ignored" },
	{ "value-coerced", SEV_WARN,
	  "a number or boolean where a string is expected is read as the "
	  "text written" },
	{ "value-ignored", SEV_WARN,
	  "a value of the wrong type (e.g. a mapping for a list) is ignored" },
	{ "value-type", SEV_ERROR,
	  "name or description is a list or mapping, not a string" },
	/* validate.c */
	{ "frontmatter-missing", SEV_ERROR,
	  "a skill or agent without a frontmatter block" },
	{ "name-invalid", SEV_ERROR,
	  "the name does not match ^[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$ "
	  "(or none could be derived)" },
	{ "name-too-long", SEV_ERROR,
	  "the name is over 64 characters" },
	{ "name-reserved", SEV_ERROR,
	  "the name is exactly a reserved word (anthropic, claude)" },
	{ "name-normalised", SEV_WARN,
	  "at index time, a name that breaks the naming rule is indexed "
	  "under a normalised id (lower case, runs of other characters as "
	  "one hyphen, at most 64 characters; the directory name when "
	  "nothing is left) and shown as written; validation.strict_names "
	  "rejects it instead" },
	{ "name-contains-reserved", SEV_WARN,
	  "the name contains a reserved word" },
	{ "name-mismatch", SEV_WARN,
	  "the skill's name differs from its directory name" },
	{ "name-fallback", SEV_INFO,
	  "no name in the frontmatter: the directory name or file stem, "
	  "lower-cased, is used" },
	{ "description-missing", SEV_ERROR,
	  "a skill or agent without a description" },
	{ "description-too-long", SEV_WARN,
	  "the description is over 1024 characters" },
	{ "description-from-body", SEV_INFO,
	  "a command without a description uses its first body line" },
	{ "command-description-empty", SEV_WARN,
	  "a command with neither a description nor body text" },
	{ "key-unknown", SEV_INFO,
	  "a frontmatter key neither skills-radar nor Claude Code uses" },
	{ "key-case", SEV_WARN,
	  "an unknown key that differs from a known key only in case" },
	{ "file-too-large", SEV_ERROR,
	  "the file is over limits.max_skill_size_kb and limits.allow_large "
	  "is off" },
	{ "file-large", SEV_INFO,
	  "the file is over limits.max_skill_size_kb, indexed because "
	  "limits.allow_large is on" },
	{ NULL, 0, NULL }
};
