/*
 * The four MCP tools (mcp_tools.h): their table (name, description,
 * arguments, output schema, handler), the JSON Schemas tools/list
 * shows, the validation of arguments against the table, and the
 * handlers, which call the engine and record telemetry under the
 * caller's session.
 */
#include "autoconfig.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "base/buf.h"
#include "core/config.h"
#include "engine/engine.h"
#include "mcp/mcp_tools.h"
#include "search/search.h"
#include "core/skill.h"
#include "base/status.h"
#include "base/strlist.h"
#include "telemetry/telemetry.h"
#include "base/xmalloc.h"

/* list_skills answers in pages of this many entries. */
#define MCP_LIST_PAGE	100

enum arg_type { ARG_STRING, ARG_INT, ARG_STRLIST, ARG_ENUM, ARG_BOOL };

struct tool_arg {
	const char		*name;
	enum arg_type		 type;
	int			 required;
	long			 min, max;	/* value, length or item count */
	const char *const	*choices;	/* ARG_ENUM */
	const char		*desc;		/* NULL: none (saves tokens) */
};

struct tool_def {
	const char		*name;
	const char		*description;	/* <= 200 characters */
	const struct tool_arg	*args;
	const char		*output;	/* outputSchema as JSON */
	int			(*run)(const struct mcp_tool_ctx *,
				    const cJSON *, cJSON **, char **);
};

static const char *const kinds[] = { "skill", "agent", "command", NULL };
static const char *const tiers[] = {
	"trusted", "verified", "user", "untrusted", NULL
};

static const struct tool_arg search_args[] = {
	{ "query", ARG_STRING, 1, 1, 1000, NULL, NULL },
	{ "top_k", ARG_INT, 0, 1, SEARCH_TOP_K_MAX, NULL, NULL },
	{ "tags", ARG_STRLIST, 0, 1, 20, NULL, NULL },
	{ "kind", ARG_ENUM, 0, 0, 0, kinds, NULL },
	{ "explain", ARG_BOOL, 0, 0, 0, NULL, NULL },
	{ NULL, 0, 0, 0, 0, NULL, NULL }
};
static const struct tool_arg load_args[] = {
	{ "name", ARG_STRING, 1, 1, 256, NULL, NULL },
	{ "offset", ARG_INT, 0, 0, INT_MAX, NULL, NULL },
	{ "max_bytes", ARG_INT, 0, 1, INT_MAX, NULL, NULL },
	{ NULL, 0, 0, 0, 0, NULL, NULL }
};
static const struct tool_arg read_args[] = {
	{ "name", ARG_STRING, 1, 1, 256, NULL, NULL },
	{ "path", ARG_STRING, 1, 1, 1024, NULL, NULL },
	{ NULL, 0, 0, 0, 0, NULL, NULL }
};
static const struct tool_arg list_args[] = {
	{ "kind", ARG_ENUM, 0, 0, 0, kinds, NULL },
	{ "tier", ARG_ENUM, 0, 0, 0, tiers, NULL },
	{ "tag", ARG_STRING, 0, 0, 100, NULL, NULL },
	{ "cursor", ARG_STRING, 0, 0, 32, NULL, NULL },
	{ NULL, 0, 0, 0, 0, NULL, NULL }
};

static int	run_search(const struct mcp_tool_ctx *, const cJSON *, cJSON **,
		    char **);
static int	run_load(const struct mcp_tool_ctx *, const cJSON *, cJSON **,
		    char **);
static int	run_read(const struct mcp_tool_ctx *, const cJSON *, cJSON **,
		    char **);
static int	run_list(const struct mcp_tool_ctx *, const cJSON *, cJSON **,
		    char **);

static const struct tool_def tools[] = {
	{ "search_skills",
	  "Find skills by intent when no name fits. Returns ranked "
	  "matches, score 0-1 (<0.4 is weak).",
	  search_args,
	  "{\"type\":\"object\",\"properties\":{\"matches\":{\"type\":"
	  "\"array\"}}}",
	  run_search },
	{ "load_skill",
	  "Load a skill's sanitised instructions by exact name, with trust "
	  "tier, warnings and files. Page with offset.",
	  load_args, "{\"type\":\"object\"}", run_load },
	{ "read_skill_file",
	  "Read a file bundled with a skill (a path from load_skill files).",
	  read_args, "{\"type\":\"object\"}", run_read },
	{ "list_skills",
	  "List skills by kind, tier or tag, paged by cursor.",
	  list_args, "{\"type\":\"object\"}", run_list },
	{ NULL, NULL, NULL, NULL, NULL }
};

static const struct tool_def *
tool_find(const char *name)
{
	const struct tool_def	*t;

	for (t = tools; t->name != NULL; t++)
		if (strcmp(t->name, name) == 0)
			return t;
	return NULL;
}

static cJSON *
tool_schema(const struct tool_def *t)
{
	const struct tool_arg	*a;
	cJSON			*schema, *props, *req, *p, *items, *e;
	size_t			 i;

	schema = cJSON_CreateObject();
	cJSON_AddStringToObject(schema, "type", "object");
	props = cJSON_AddObjectToObject(schema, "properties");
	req = cJSON_CreateArray();
	for (a = t->args; a->name != NULL; a++) {
		p = cJSON_AddObjectToObject(props, a->name);
		switch (a->type) {
		case ARG_STRING:
			/* Lengths are enforced but not shown: tokens. */
			cJSON_AddStringToObject(p, "type", "string");
			break;
		case ARG_INT:
			cJSON_AddStringToObject(p, "type", "integer");
			cJSON_AddNumberToObject(p, "minimum", a->min);
			if (a->max != INT_MAX)
				cJSON_AddNumberToObject(p, "maximum", a->max);
			break;
		case ARG_STRLIST:
			cJSON_AddStringToObject(p, "type", "array");
			items = cJSON_AddObjectToObject(p, "items");
			cJSON_AddStringToObject(items, "type", "string");
			cJSON_AddNumberToObject(p, "maxItems", a->max);
			break;
		case ARG_BOOL:
			cJSON_AddStringToObject(p, "type", "boolean");
			break;
		case ARG_ENUM:
			cJSON_AddStringToObject(p, "type", "string");
			e = cJSON_AddArrayToObject(p, "enum");
			for (i = 0; a->choices[i] != NULL; i++)
				cJSON_AddItemToArray(e,
				    cJSON_CreateString(a->choices[i]));
			break;
		}
		if (a->desc != NULL)
			cJSON_AddStringToObject(p, "description", a->desc);
		if (a->required)
			cJSON_AddItemToArray(req, cJSON_CreateString(a->name));
	}
	if (cJSON_GetArraySize(req) > 0)
		cJSON_AddItemToObject(schema, "required", req);
	else
		cJSON_Delete(req);
	cJSON_AddBoolToObject(schema, "additionalProperties", 0);
	return schema;
}

static cJSON *
tools_build(void)
{
	const struct tool_def	*t;
	cJSON			*arr, *o, *out;

	arr = cJSON_CreateArray();
	for (t = tools; t->name != NULL; t++) {
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "name", t->name);
		cJSON_AddStringToObject(o, "description", t->description);
		cJSON_AddItemToObject(o, "inputSchema", tool_schema(t));
		/* The table is tested; a typo still yields a valid schema. */
		if ((out = cJSON_Parse(t->output)) == NULL) {
			out = cJSON_CreateObject();
			cJSON_AddStringToObject(out, "type", "object");
		}
		cJSON_AddItemToObject(o, "outputSchema", out);
		cJSON_AddItemToArray(arr, o);
	}
	return arr;
}

static const char *
type_name(const cJSON *v)
{
	if (cJSON_IsString(v))
		return "a string";
	if (cJSON_IsNumber(v))
		return "a number";
	if (cJSON_IsBool(v))
		return "a boolean";
	if (cJSON_IsNull(v))
		return "null";
	if (cJSON_IsArray(v))
		return "an array";
	return "an object";
}

/*
 * Checks args against the tool's table: types, bounds, enum values,
 * required and unknown properties. Returns 0 or SR_USAGE with *cause.
 */
static int
tool_validate(const struct tool_def *t, const cJSON *args, char **cause)
{
	const struct tool_arg	*a;
	const cJSON		*v, *it;
	struct buf		 names;
	size_t			 i, len;
	int			 found, n;

	if (args != NULL) {
		cJSON_ArrayForEach(v, args) {
			found = 0;
			for (a = t->args; a->name != NULL; a++)
				if (v->string != NULL &&
				    strcmp(v->string, a->name) == 0)
					found = 1;
			if (found)
				continue;
			buf_init(&names, 0);
			for (a = t->args; a->name != NULL; a++)
				buf_printf(&names, "%s%s", a == t->args ? "" :
				    ", ", a->name);
			xasprintf(cause, "%s: unknown argument '%.100s'; it accepts "
			    "only: %s", t->name, v->string ? v->string : "",
			    names.p);
			buf_done(&names);
			return SR_USAGE;
		}
	}
	for (a = t->args; a->name != NULL; a++) {
		v = args ? cJSON_GetObjectItemCaseSensitive(args, a->name) :
		    NULL;
		/* null is no integer or string: the schema says so too. */
		if (v == NULL) {
			if (a->required) {
				xasprintf(cause, "%s: missing required "
				    "argument '%s'", t->name, a->name);
				return SR_USAGE;
			}
			continue;
		}
		switch (a->type) {
		case ARG_BOOL:
			if (!cJSON_IsBool(v)) {
				xasprintf(cause, "%s: '%s' must be true or "
				    "false, not %s", t->name, a->name,
				    type_name(v));
				return SR_USAGE;
			}
			break;
		case ARG_STRING:
		case ARG_ENUM:
			if (!cJSON_IsString(v)) {
				xasprintf(cause, "%s: '%s' must be a string, "
				    "not %s", t->name, a->name, type_name(v));
				return SR_USAGE;
			}
			len = strlen(v->valuestring);
			if (a->type == ARG_ENUM) {
				for (i = 0; a->choices[i] != NULL; i++)
					if (strcmp(a->choices[i],
					    v->valuestring) == 0)
						break;
				if (a->choices[i] == NULL) {
					buf_init(&names, 0);
					for (i = 0; a->choices[i] != NULL; i++)
						buf_printf(&names, "%s%s", i ?
						    ", " : "", a->choices[i]);
					xasprintf(cause, "%s: '%s' must be one "
					    "of %s (got '%.64s')", t->name,
					    a->name, names.p, v->valuestring);
					buf_done(&names);
					return SR_USAGE;
				}
			} else if ((long)len < a->min || (long)len > a->max) {
				xasprintf(cause, "%s: '%s' must be %ld to %ld "
				    "bytes long (got %zu)", t->name, a->name,
				    a->min, a->max, len);
				return SR_USAGE;
			}
			break;
		case ARG_INT:
			if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) ||
			    floor(v->valuedouble) != v->valuedouble) {
				xasprintf(cause, "%s: '%s' must be an integer, "
				    "not %s", t->name, a->name,
				    cJSON_IsNumber(v) ? "a fraction" :
				    type_name(v));
				return SR_USAGE;
			}
			if (v->valuedouble < a->min || v->valuedouble > a->max) {
				if (a->max == INT_MAX && v->valuedouble <
				    a->min)
					xasprintf(cause, "%s: '%s' must be at "
					    "least %ld (got %.0f)", t->name,
					    a->name, a->min, v->valuedouble);
				else
					xasprintf(cause, "%s: '%s' must be from "
					    "%ld to %ld (got %.0f)", t->name,
					    a->name, a->min, a->max,
					    v->valuedouble);
				return SR_USAGE;
			}
			break;
		case ARG_STRLIST:
			if (!cJSON_IsArray(v)) {
				xasprintf(cause, "%s: '%s' must be an array of "
				    "strings, not %s", t->name, a->name,
				    type_name(v));
				return SR_USAGE;
			}
			n = cJSON_GetArraySize(v);
			if (n > a->max) {
				xasprintf(cause, "%s: '%s' takes at most %ld "
				    "items (got %d)", t->name, a->name, a->max,
				    n);
				return SR_USAGE;
			}
			cJSON_ArrayForEach(it, v) {
				if (!cJSON_IsString(it) ||
				    it->valuestring[0] == '\0' ||
				    strlen(it->valuestring) > 100) {
					xasprintf(cause, "%s: every item of "
					    "'%s' must be a non-empty string "
					    "of at most 100 bytes", t->name,
					    a->name);
					return SR_USAGE;
				}
			}
			break;
		}
	}
	return 0;
}

static const char *
arg_str(const cJSON *args, const char *name)
{
	const cJSON	*v;

	v = args ? cJSON_GetObjectItemCaseSensitive(args, name) : NULL;
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

static long
arg_int(const cJSON *args, const char *name, long dflt)
{
	const cJSON	*v;

	v = args ? cJSON_GetObjectItemCaseSensitive(args, name) : NULL;
	return cJSON_IsNumber(v) ? (long)v->valuedouble : dflt;
}

/*
 * What an agent pays for on every call: each match without the fields it
 * does not use (CLI --json keeps them for scripts). Gone are the
 * absolute path (load_skill takes the name), empty strings, nulls, empty
 * lists, and a risk of severity info (nothing to flag).
 */
static void
shape_matches(cJSON *out)
{
	cJSON		*m, *f, *next;
	const char	*sev;

	cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(out,
	    "matches")) {
		cJSON_DeleteItemFromObjectCaseSensitive(m, "path");
		for (f = m->child; f != NULL; f = next) {
			next = f->next;
			sev = cJSON_GetStringValue(cJSON_GetObjectItem(f,
			    "severity"));
			if (cJSON_IsNull(f) || (cJSON_IsString(f) &&
			    *f->valuestring == '\0') || ((cJSON_IsArray(f) ||
			    cJSON_IsObject(f)) && f->child == NULL) ||
			    (strcmp(f->string, "risk") == 0 && sev != NULL &&
			    strcmp(sev, "info") == 0))
				cJSON_Delete(cJSON_DetachItemViaPointer(m, f));
		}
	}
}

static int
run_search(const struct mcp_tool_ctx *c, const cJSON *args, cJSON **out,
    char **cause)
{
	struct search_opts		 o;
	struct telemetry_search_event	 ev;
	struct strlist			 tags;
	const cJSON			*v, *it;
	const char			*kind;
	int				 rv;

	strlist_init(&tags);
	memset(&o, 0, sizeof o);
	o.query = arg_str(args, "query");
	o.top_k = (int)arg_int(args, "top_k", c->cfg->default_top_k > 0 ?
	    c->cfg->default_top_k : 5);
	if (o.top_k > SEARCH_TOP_K_MAX)
		o.top_k = SEARCH_TOP_K_MAX;
	v = cJSON_GetObjectItemCaseSensitive(args, "tags");
	if (cJSON_IsArray(v)) {
		cJSON_ArrayForEach(it, v)
			if (cJSON_IsString(it))
				strlist_add(&tags, it->valuestring);
		o.tags = tags.n > 0 ? &tags : NULL;
	}
	kind = arg_str(args, "kind");
	o.kind = kind ? kind_from_name(kind) : -1;
	o.explain = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(args,
	    "explain"));
	/* The caller records the event (DESIGN §2), under the session. */
	if ((rv = engine_search(c->engine, &o, out, &ev, cause)) == 0) {
		ev.session = c->session;
		telemetry_search(engine_telemetry(c->engine), &ev);
		shape_matches(*out);
	}
	strlist_done(&tags);
	return rv;
}

static int
run_load(const struct mcp_tool_ctx *c, const cJSON *args, cJSON **out,
    char **cause)
{
	struct engine_load_req		 req;
	struct telemetry_load_event	 ev;
	int				 rv;

	memset(&req, 0, sizeof req);
	req.name = arg_str(args, "name");
	req.offset = (size_t)arg_int(args, "offset", 0);
	req.max_bytes = (size_t)arg_int(args, "max_bytes", 0);
	rv = engine_load(c->engine, &req, out, &ev, cause);
	ev.session = c->session;
	telemetry_load(engine_telemetry(c->engine), &ev);
	return rv;
}

static int
run_read(const struct mcp_tool_ctx *c, const cJSON *args, cJSON **out,
    char **cause)
{
	return engine_read(c->engine, arg_str(args, "name"),
	    arg_str(args, "path"), out, cause);
}

static int
run_list(const struct mcp_tool_ctx *c, const cJSON *args, cJSON **out,
    char **cause)
{
	struct list_filter	 f;
	const char		*s, *cur;
	cJSON			*all = NULL, *res, *page;
	char			*end;
	unsigned long		 off = 0;
	int			 total, i, rv;

	*out = NULL;
	memset(&f, 0, sizeof f);
	s = arg_str(args, "kind");
	f.kind = s ? kind_from_name(s) : -1;
	s = arg_str(args, "tier");
	f.tier = s ? tier_from_name(s) : -1;
	f.tag = arg_str(args, "tag");
	if ((cur = arg_str(args, "cursor")) != NULL) {
		errno = 0;
		off = strtoul(cur, &end, 10);
		if (errno != 0 || *end != '\0' ||
		    !isdigit((unsigned char)cur[0])) {
			xasprintf(cause, "list_skills: invalid cursor '%s'; "
			    "pass next_cursor from the previous page", cur);
			return SR_USAGE;
		}
	}
	if ((rv = engine_list(c->engine, &f, &all, cause)) != 0)
		return rv;
	total = cJSON_GetArraySize(all);
	if (off > (unsigned long)total) {
		cJSON_Delete(all);
		xasprintf(cause, "list_skills: cursor %lu is past the end "
		    "(%d skills)", off, total);
		return SR_USAGE;
	}
	res = cJSON_CreateObject();
	page = cJSON_AddArrayToObject(res, "skills");
	for (i = (int)off; i < total && i < (int)off + MCP_LIST_PAGE; i++)
		cJSON_AddItemToArray(page,
		    cJSON_Duplicate(cJSON_GetArrayItem(all, i), 1));
	cJSON_AddNumberToObject(res, "total", total);
	mcp_add_next_cursor(res, "next_cursor", (size_t)i, (size_t)total);
	cJSON_Delete(all);
	*out = res;
	return 0;
}

cJSON *
mcp_tools_json(void)
{
	return tools_build();
}

int
mcp_tools_known(const char *name)
{
	return name != NULL && tool_find(name) != NULL;
}

int
mcp_tools_check(const char *name, const cJSON *args, char **cause)
{
	const struct tool_def	*t;

	if (name == NULL || (t = tool_find(name)) == NULL) {
		xasprintf(cause, "unknown tool '%.100s'; the tools are "
		    "search_skills, load_skill, read_skill_file, list_skills",
		    name ? name : "");
		return SR_NOTFOUND;
	}
	if (args != NULL && !cJSON_IsObject(args)) {
		xasprintf(cause, "%s: arguments must be an object", name);
		return SR_USAGE;
	}
	return tool_validate(t, args, cause);
}

int
mcp_tools_run(const struct mcp_tool_ctx *c, const char *name,
    const cJSON *args, cJSON **out, char **cause)
{
	const struct tool_def	*t;
	int			 rv;

	*out = NULL;
	*cause = NULL;
	if ((rv = mcp_tools_check(name, args, cause)) != 0)
		return rv;
	t = tool_find(name);
	rv = t->run(c, args, out, cause);
	if (rv != 0 && *cause == NULL)
		xasprintf(cause, "%s failed (status %d)", name, rv);
	if (rv == 0 && *out == NULL)
		*out = cJSON_CreateObject();
	return rv;
}

void
mcp_add_next_cursor(cJSON *result, const char *key, size_t next, size_t total)
{
	char	 tmp[32];

	if (next < total) {
		snprintf(tmp, sizeof tmp, "%zu", next);
		cJSON_AddStringToObject(result, key, tmp);
	}
}
