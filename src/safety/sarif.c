/*
 * SARIF 2.1.0 from a scan document: see sarif.h.
 */
#include "autoconfig.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "base/buf.h"
#include "safety/sarif.h"
#include "base/xmalloc.h"

#define SARIF_SCHEMA	"https://json.schemastore.org/sarif-2.1.0.json"
#define SARIF_BASE_ID	"SRCROOT"

/* The SARIF levels in increasing order. */
static int
level_rank(const char *level)
{
	if (strcmp(level, "error") == 0)
		return 2;
	return strcmp(level, "warning") == 0;
}

const char *
sarif_level(const char *severity)
{
	if (severity == NULL)
		return "note";
	if (strcmp(severity, "high") == 0 || strcmp(severity, "error") == 0)
		return "error";
	if (strcmp(severity, "warn") == 0)
		return "warning";
	return "note";
}

char *
sarif_uri_escape(const char *path)
{
	struct buf	 b;
	const unsigned char *p;

	buf_init(&b, 0);
	for (p = (const unsigned char *)path; *p != '\0'; p++) {
		if (isalnum(*p) || strchr("-._~/", *p) != NULL)
			buf_addc(&b, *p);
		else
			buf_printf(&b, "%%%02X", *p);
	}
	if (b.len == 0) {
		buf_done(&b);
		return xstrdup("");
	}
	return buf_take(&b);
}

static const char *
str(const cJSON *o, const char *key)
{
	const char	*s = cJSON_GetStringValue(cJSON_GetObjectItem(o, key));

	return s != NULL ? s : "";
}

static cJSON *
text_obj(const char *text)
{
	cJSON	*o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "text", text);
	return o;
}

/* The rules of the driver, in the order of doc's rules. */
static cJSON *
sarif_rules(const cJSON *doc)
{
	const cJSON	*r;
	cJSON		*arr = cJSON_CreateArray(), *o, *dc, *props, *tags;
	const char	*what;

	cJSON_ArrayForEach(r, cJSON_GetObjectItem(doc, "rules")) {
		what = str(r, "explanation");
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "id", r->string);
		cJSON_AddStringToObject(o, "name", r->string);
		cJSON_AddItemToObject(o, "shortDescription",
		    text_obj(*what != '\0' ? what : r->string));
		cJSON_AddItemToObject(o, "fullDescription",
		    text_obj(*what != '\0' ? what : r->string));
		cJSON_AddItemToObject(o, "help", text_obj(*what != '\0' ? what :
		    "See skills-radar(1), RULES."));
		dc = cJSON_AddObjectToObject(o, "defaultConfiguration");
		cJSON_AddStringToObject(dc, "level",
		    sarif_level(str(r, "severity")));
		props = cJSON_AddObjectToObject(o, "properties");
		tags = cJSON_AddArrayToObject(props, "tags");
		cJSON_AddItemToArray(tags, cJSON_CreateString("security"));
		cJSON_AddItemToArray(arr, o);
	}
	return arr;
}

static int
rule_index(const cJSON *rules, const char *id)
{
	const cJSON	*r;
	int		 i = 0;

	cJSON_ArrayForEach(r, rules) {
		if (strcmp(str(r, "id"), id) == 0)
			return i;
		i++;
	}
	return -1;
}

/*
 * The artifact location of a finding: file relative to the folder of the
 * skill's entry file (path), or the entry file itself.
 */
static cJSON *
sarif_artifact(const char *path, const char *file, const char *base)
{
	cJSON		*o = cJSON_CreateObject();
	char		*abs, *uri, *esc;
	const char	*slash;
	size_t		 bl;

	if (file != NULL && (slash = strrchr(path, '/')) != NULL)
		xasprintf(&abs, "%.*s/%s", (int)(slash - path), path, file);
	else
		abs = xstrdup(path);
	bl = base != NULL ? strlen(base) : 0;
	while (bl > 1 && base[bl - 1] == '/')
		bl--;
	if (bl > 0 && strncmp(abs, base, bl) == 0 && abs[bl] == '/') {
		esc = sarif_uri_escape(abs + bl + 1);
		cJSON_AddStringToObject(o, "uri", esc);
		cJSON_AddStringToObject(o, "uriBaseId", SARIF_BASE_ID);
	} else {
		esc = sarif_uri_escape(abs);
		xasprintf(&uri, "file://%s", esc);
		cJSON_AddStringToObject(o, "uri", uri);
		free(uri);
	}
	free(esc);
	free(abs);
	return o;
}

static cJSON *
sarif_result(const cJSON *skill, const cJSON *f, const cJSON *rules,
    const cJSON *doc_rules, const char *base)
{
	cJSON		*o = cJSON_CreateObject(), *locs, *loc, *phys, *region;
	cJSON		*props;
	const cJSON	*risk = cJSON_GetObjectItem(skill, "risk");
	const char	*id = str(f, "id"), *what, *level;
	char		*msg;
	int		 line, idx;

	cJSON_AddStringToObject(o, "ruleId", id);
	if ((idx = rule_index(rules, id)) >= 0)
		cJSON_AddNumberToObject(o, "ruleIndex", idx);
	/*
	 * A finding that adds to its skill's score is as serious as the
	 * skill: the findings of a high-risk skill are errors even when each
	 * weighs little alone. One that adds nothing keeps its own level.
	 */
	level = sarif_level(str(f, "severity"));
	if (cJSON_GetNumberValue(cJSON_GetObjectItem(f, "weight")) > 0 &&
	    level_rank(sarif_level(str(risk, "severity"))) > level_rank(level))
		level = sarif_level(str(risk, "severity"));
	cJSON_AddStringToObject(o, "level", level);
	what = str(cJSON_GetObjectItem(doc_rules, id), "explanation");
	xasprintf(&msg, "%s: %s%s%s (skill %s, %s, risk %.1f %s)", id, what,
	    *what != '\0' ? ": " : "", str(f, "excerpt"), str(skill, "name"),
	    str(skill, "trust"), cJSON_GetNumberValue(cJSON_GetObjectItem(risk,
	    "score")), str(risk, "severity"));
	cJSON_AddItemToObject(o, "message", text_obj(msg));
	free(msg);
	locs = cJSON_AddArrayToObject(o, "locations");
	loc = cJSON_CreateObject();
	phys = cJSON_AddObjectToObject(loc, "physicalLocation");
	cJSON_AddItemToObject(phys, "artifactLocation", sarif_artifact(
	    str(skill, "path"), cJSON_GetStringValue(cJSON_GetObjectItem(f,
	    "file")), base));
	line = (int)cJSON_GetNumberValue(cJSON_GetObjectItem(f, "line"));
	if (line >= 1) {
		region = cJSON_AddObjectToObject(phys, "region");
		cJSON_AddNumberToObject(region, "startLine", line);
	}
	cJSON_AddItemToArray(locs, loc);
	props = cJSON_AddObjectToObject(o, "properties");
	cJSON_AddStringToObject(props, "skill", str(skill, "name"));
	cJSON_AddStringToObject(props, "skillPath", str(skill, "path"));
	cJSON_AddStringToObject(props, "trust", str(skill, "trust"));
	cJSON_AddNumberToObject(props, "weight",
	    cJSON_GetNumberValue(cJSON_GetObjectItem(f, "weight")));
	cJSON_AddNumberToObject(props, "riskScore",
	    cJSON_GetNumberValue(cJSON_GetObjectItem(risk, "score")));
	cJSON_AddStringToObject(props, "riskSeverity", str(risk, "severity"));
	if (cJSON_IsArray(cJSON_GetObjectItem(risk, "capabilities")))
		cJSON_AddItemToObject(props, "capabilities", cJSON_Duplicate(
		    cJSON_GetObjectItem(risk, "capabilities"), 1));
	cJSON_AddStringToObject(props, "findingSeverity", str(f, "severity"));
	return o;
}

cJSON *
sarif_from_scan(const cJSON *doc, const char *base)
{
	cJSON		*log = cJSON_CreateObject(), *runs, *run, *tool, *drv;
	cJSON		*rules, *results, *inv, *ob, *root;
	const cJSON	*s, *f, *sum = cJSON_GetObjectItem(doc, "summary");
	char		*esc, *uri;

	cJSON_AddStringToObject(log, "$schema", SARIF_SCHEMA);
	cJSON_AddStringToObject(log, "version", "2.1.0");
	runs = cJSON_AddArrayToObject(log, "runs");
	run = cJSON_CreateObject();
	cJSON_AddItemToArray(runs, run);
	tool = cJSON_AddObjectToObject(run, "tool");
	drv = cJSON_AddObjectToObject(tool, "driver");
	cJSON_AddStringToObject(drv, "name", str(doc, "tool"));
	cJSON_AddStringToObject(drv, "version", str(doc, "tool_version"));
	cJSON_AddStringToObject(drv, "informationUri", SR_INFORMATION_URI);
	rules = sarif_rules(doc);
	cJSON_AddItemToObject(drv, "rules", rules);
	if (base != NULL) {
		ob = cJSON_AddObjectToObject(run, "originalUriBaseIds");
		root = cJSON_AddObjectToObject(ob, SARIF_BASE_ID);
		esc = sarif_uri_escape(base);
		xasprintf(&uri, "file://%s%s", esc,
		    esc[0] != '\0' && esc[strlen(esc) - 1] == '/' ? "" : "/");
		cJSON_AddStringToObject(root, "uri", uri);
		free(uri);
		free(esc);
	}
	results = cJSON_AddArrayToObject(run, "results");
	cJSON_ArrayForEach(s, cJSON_GetObjectItem(doc, "skills")) {
		cJSON_ArrayForEach(f, cJSON_GetObjectItem(s, "findings"))
			cJSON_AddItemToArray(results, sarif_result(s, f, rules,
			    cJSON_GetObjectItem(doc, "rules"), base));
	}
	inv = cJSON_CreateObject();
	cJSON_AddBoolToObject(inv, "executionSuccessful",
	    cJSON_GetNumberValue(cJSON_GetObjectItem(sum, "errors")) == 0);
	cJSON_AddNumberToObject(inv, "exitCode",
	    cJSON_GetNumberValue(cJSON_GetObjectItem(sum, "exit")));
	cJSON_AddItemToArray(cJSON_AddArrayToObject(run, "invocations"), inv);
	return log;
}
