/*
 * The skills as MCP resources and the SEP-2640 skills extension: which
 * skills a view serves (mcp_skills_collect()), the skill:// URIs, the
 * resources and skills methods and resources/directory/read. Every
 * text served comes from the engine's one loading path (engine_served(),
 * engine_read()), so the same policy and sanitiser apply as to the tools.
 */
#include "autoconfig.h"

#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cjson/cJSON.h>

#include "index/assess.h"
#include "core/config.h"
#include "engine/engine.h"
#include "mcp/mcp.h"
#include "mcp/mcp_impl.h"
#include "mcp/mcp_tools.h"
#include "tier1/miniindex.h"
#include "base/sha256.h"
#include "core/skill.h"
#include "base/status.h"
#include "base/strlist.h"
#include "base/xmalloc.h"

/* Agent Skills naming: 1-64 of [a-z0-9-], no edge or double hyphens. */
static int
skill_name_ok(const char *n)
{
	size_t	 i, len = strlen(n);

	if (len == 0 || len > 64 || n[0] == '-' || n[len - 1] == '-')
		return 0;
	for (i = 0; i < len; i++) {
		if (!(islower((unsigned char)n[i]) ||
		    isdigit((unsigned char)n[i]) || n[i] == '-'))
			return 0;
		if (n[i] == '-' && n[i + 1] == '-')
			return 0;
	}
	return 1;
}

static const char *
mime_for(const char *path)
{
	static const struct { const char *ext, *mime; } t[] = {
		{ ".md", "text/markdown" }, { ".markdown", "text/markdown" },
		{ ".txt", "text/plain" }, { ".py", "text/x-python" },
		{ ".sh", "text/x-shellscript" }, { ".js", "text/javascript" },
		{ ".mjs", "text/javascript" }, { ".ts", "text/plain" },
		{ ".json", "application/json" }, { ".yaml", "application/yaml" },
		{ ".yml", "application/yaml" }, { ".html", "text/html" },
		{ ".css", "text/css" }, { ".csv", "text/csv" },
		{ ".xml", "application/xml" }, { ".toml", "application/toml" },
	};
	const char	*dot = strrchr(path, '.');
	size_t		 i;

	if (dot != NULL && strchr(dot, '/') == NULL)
		for (i = 0; i < sizeof t / sizeof t[0]; i++)
			if (strcasecmp(dot, t[i].ext) == 0)
				return t[i].mime;
	return "text/plain";
}

/* The Tier-1 text of skills-radar://index: the mini-index file's text. */
static char *
index_text(struct mcp_server *srv, struct mcp_view *v)
{
	struct miniindex_opts	 o;

	miniindex_opts_from_config(&o, srv->cfg);
	o.san = engine_sanitizer(srv->engine);
	return miniindex_text(engine_snap_skills(v->snap), &o,
	    NULL, NULL);
}

static int
mskill_cmp(const void *a, const void *b)
{
	const struct mcp_skill	*x = a, *y = b;

	return strcmp(x->s->name, y->s->name);
}

/*
 * Collects the skills served as skill:// resources: winning, model-
 * invocable SKILL.md skills the load policy admits, whose frontmatter
 * names them and describes them (SEP-2640 requires both, verbatim).
 */
static void
mcp_skills_collect(struct mcp_server *srv, struct mcp_view *v)
{
	const struct skill_set	*set = engine_snap_skills(v->snap);
	const struct skill	*s;
	const cJSON		*n, *d;
	cJSON			*fm;
	size_t			 i;

	v->skills = xcalloc(set && set->n ? set->n : 1, sizeof *v->skills);
	for (i = 0; set != NULL && i < set->n; i++) {
		s = set->v[i];
		if (s->kind != KIND_SKILL || s->shadowed_by != NULL ||
		    engine_policy(srv->engine, s, 0, NULL) != 0 ||
		    s->frontmatter == NULL || !skill_name_ok(s->name))
			continue;
		if ((fm = cJSON_Parse(s->frontmatter)) == NULL)
			continue;
		n = cJSON_GetObjectItemCaseSensitive(fm, "name");
		d = cJSON_GetObjectItemCaseSensitive(fm, "description");
		if (!cJSON_IsString(n) || strcmp(n->valuestring, s->name) != 0 ||
		    !cJSON_IsString(d) || d->valuestring[0] == '\0') {
			cJSON_Delete(fm);
			continue;
		}
		v->skills[v->nskills].s = s;
		v->skills[v->nskills].frontmatter = fm;
		v->nskills++;
	}
	if (v->nskills > 1)
		qsort(v->skills, v->nskills, sizeof *v->skills, mskill_cmp);
}

/*
 * Returns v with its skills collected: the first caller parses the
 * frontmatter, any other thread asking meanwhile waits for it.
 */
static struct mcp_view *
view_skills(struct mcp_server *srv, struct mcp_view *v)
{
	pthread_mutex_lock(&v->skills_lock);
	if (!v->collected) {
		mcp_skills_collect(srv, v);
		v->collected = 1;
	}
	pthread_mutex_unlock(&v->skills_lock);
	return v;
}

static const struct mcp_skill *
skill_by_name(struct mcp_server *srv, struct mcp_view *view, const char *name,
    size_t len)
{
	struct mcp_view	*v = view_skills(srv, view);
	size_t		 lo = 0, hi = v->nskills, mid;
	int		 c;

	while (lo < hi) {
		mid = (lo + hi) / 2;
		c = strncmp(v->skills[mid].s->name, name, len);
		if (c == 0 && v->skills[mid].s->name[len] != '\0')
			c = 1;
		if (c == 0)
			return &v->skills[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/*
 * The supporting files we serve for a skill: every listed file that reads
 * as text, as [{path, size, digest}] over the served (sanitised) bytes.
 */
static cJSON *
skill_files(struct mcp_server *srv, const struct mcp_skill *ms)
{
	cJSON		*files, *f, *res, *out, *o;
	const cJSON	*p, *c;
	char		*cause = NULL, hex[SHA256_HEX_LEN + 1], dig[80];
	size_t		 total = 0, len;
	int		 n = 0;

	out = cJSON_CreateArray();
	if ((files = engine_files(srv->engine, ms->s)) == NULL)
		return out;
	cJSON_ArrayForEach(f, files) {
		p = cJSON_GetObjectItemCaseSensitive(f, "path");
		if (!cJSON_IsString(p) || strcmp(p->valuestring, SKILL_MD) == 0)
			continue;
		if (n >= SKILL_MAX_FILES)
			break;
		res = NULL;
		if (engine_read(srv->engine, ms->s->uid, p->valuestring, &res,
		    &cause) != 0) {
			free(cause);
			cause = NULL;
			continue;
		}
		c = cJSON_GetObjectItemCaseSensitive(res, "content");
		if (cJSON_IsString(c)) {
			len = strlen(c->valuestring);
			if (total + len <= SKILL_MAX_BYTES) {
				sha256_hex(c->valuestring, len, hex);
				snprintf(dig, sizeof dig, "sha256:%s", hex);
				o = cJSON_CreateObject();
				cJSON_AddStringToObject(o, "path",
				    p->valuestring);
				cJSON_AddNumberToObject(o, "size", (double)len);
				cJSON_AddStringToObject(o, "digest", dig);
				cJSON_AddItemToArray(out, o);
				total += len;
				n++;
			}
		}
		cJSON_Delete(res);
	}
	cJSON_Delete(files);
	return out;
}

static cJSON *
resource_ref(const char *name, const char *rel, const char *digest,
    size_t size)
{
	cJSON	*o = cJSON_CreateObject();
	char	*uri;

	xasprintf(&uri, SKILL_SCHEME "%s/%s", name, rel);
	cJSON_AddStringToObject(o, "uri", uri);
	cJSON_AddStringToObject(o, "digest", digest);
	cJSON_AddNumberToObject(o, "size", (double)size);
	free(uri);
	return o;
}

/*
 * What the assessment found in a served SKILL.md, for the client beside
 * the text: {"io.skills-radar/risk": {score, severity},
 * "io.skills-radar/warnings": [{id, severity, line, file, weight,
 * excerpt}]}. The keys carry a reverse-domain prefix, as SEP-2640 asks of
 * a skill resource's _meta.
 */
static cJSON *
served_meta(const struct engine_served *sv)
{
	cJSON	*m = cJSON_CreateObject(), *w;
	size_t	 i;

	cJSON_AddItemToObject(m, "io.skills-radar/risk",
	    assess_risk_full(&sv->risk));
	w = cJSON_AddArrayToObject(m, "io.skills-radar/warnings");
	for (i = 0; i < sv->findings.n; i++)
		cJSON_AddItemToArray(w, assess_finding_json(&sv->findings.v[i]));
	return m;
}

/* The SEP-2640 Skill entry: uri, frontmatter, resources. */
static int
skill_entry(struct mcp_server *srv, const struct mcp_skill *ms, cJSON **out,
    char **cause)
{
	struct engine_served	 sv;
	cJSON			*e, *res, *files, *f;
	char			*uri, hex[SHA256_HEX_LEN + 1], dig[80];
	int			 rv;

	*out = NULL;
	if ((rv = engine_served(srv->engine, ms->s, 0, &sv, cause)) != 0) {
		engine_served_done(&sv);
		return rv;
	}
	e = cJSON_CreateObject();
	xasprintf(&uri, SKILL_SCHEME "%s/" SKILL_MD, ms->s->name);
	cJSON_AddStringToObject(e, "uri", uri);
	free(uri);
	cJSON_AddItemToObject(e, "frontmatter",
	    cJSON_Duplicate(ms->frontmatter, 1));
	res = cJSON_AddArrayToObject(e, "resources");
	sha256_hex(sv.text, sv.len, hex);
	snprintf(dig, sizeof dig, "sha256:%s", hex);
	cJSON_AddItemToObject(e, "_meta", served_meta(&sv));
	cJSON_AddItemToArray(res, resource_ref(ms->s->name, SKILL_MD, dig,
	    sv.len));
	engine_served_done(&sv);
	files = skill_files(srv, ms);
	cJSON_ArrayForEach(f, files)
		cJSON_AddItemToArray(res, resource_ref(ms->s->name,
		    cJSON_GetObjectItemCaseSensitive(f, "path")->valuestring,
		    cJSON_GetObjectItemCaseSensitive(f, "digest")->valuestring,
		    (size_t)cJSON_GetObjectItemCaseSensitive(f,
		    "size")->valuedouble));
	cJSON_Delete(files);
	*out = e;
	return 0;
}

/*
 * Splits "skill://NAME/REST" into the served skill and REST (may be ""
 * for the root directory). Returns the skill or NULL.
 */
static const struct mcp_skill *
skill_uri(struct mcp_server *srv, struct mcp_view *v, const char *uri,
    const char **rest)
{
	const char	*p, *slash;

	*rest = NULL;
	if (strncmp(uri, SKILL_SCHEME, strlen(SKILL_SCHEME)) != 0)
		return NULL;
	p = uri + strlen(SKILL_SCHEME);
	if ((slash = strchr(p, '/')) == NULL) {
		*rest = "";
		return skill_by_name(srv, v, p, strlen(p));
	}
	*rest = slash + 1;
	return skill_by_name(srv, v, p, (size_t)(slash - p));
}

int
mcp_resources_list(struct mcp_req *r)
{
	struct mcp_server	*srv = r->srv;
	struct mcp_view		*v = view_skills(srv, r->view);
	cJSON			*arr, *o;
	char			*uri;
	size_t			 off, i;

	if (mcp_param_cursor(r, v->nskills, &off) != 0)
		return -1;
	r->result = cJSON_CreateObject();
	arr = cJSON_AddArrayToObject(r->result, "resources");
	if (off == 0) {
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "uri", INDEX_URI);
		cJSON_AddStringToObject(o, "name", "skills-index");
		cJSON_AddStringToObject(o, "description", "Every skill by tag, "
		    "one line each (Tier 1)");
		cJSON_AddStringToObject(o, "mimeType", "text/markdown");
		cJSON_AddItemToArray(arr, o);
	}
	for (i = off; i < v->nskills && i < off + LIST_PAGE; i++) {
		o = cJSON_CreateObject();
		xasprintf(&uri, SKILL_SCHEME "%s/" SKILL_MD,
		    v->skills[i].s->name);
		cJSON_AddStringToObject(o, "uri", uri);
		free(uri);
		cJSON_AddStringToObject(o, "name", v->skills[i].s->name);
		cJSON_AddStringToObject(o, "description",
		    v->skills[i].s->description);
		cJSON_AddStringToObject(o, "mimeType", "text/markdown");
		cJSON_AddItemToArray(arr, o);
	}
	mcp_add_next_cursor(r->result, "nextCursor", i, v->nskills);
	return 0;
}

int
mcp_resources_templates(struct mcp_req *r)
{
	cJSON	*arr, *o;

	r->result = cJSON_CreateObject();
	arr = cJSON_AddArrayToObject(r->result, "resourceTemplates");
	o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "uriTemplate", SKILL_SCHEME "{name}/"
	    SKILL_MD);
	cJSON_AddStringToObject(o, "name", "skill");
	cJSON_AddStringToObject(o, "description", "A skill's SKILL.md, "
	    "body sanitised");
	cJSON_AddStringToObject(o, "mimeType", "text/markdown");
	cJSON_AddItemToArray(arr, o);
	o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "uriTemplate", SKILL_SCHEME "{name}/{+path}");
	cJSON_AddStringToObject(o, "name", "skill-file");
	cJSON_AddStringToObject(o, "description", "A file bundled with a "
	    "skill, sanitised");
	cJSON_AddItemToArray(arr, o);
	return 0;
}

static cJSON *
contents(const char *uri, const char *mime, const char *text)
{
	cJSON	*res = cJSON_CreateObject(), *arr, *o;

	arr = cJSON_AddArrayToObject(res, "contents");
	o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "uri", uri);
	cJSON_AddStringToObject(o, "mimeType", mime);
	cJSON_AddStringToObject(o, "text", text);
	cJSON_AddItemToArray(arr, o);
	return res;
}

/* 1 when rel is one of the files we serve for the skill. */
static int
skill_serves(struct mcp_server *srv, const struct mcp_skill *ms,
    const char *rel)
{
	cJSON		*files, *f;
	const cJSON	*p;
	int		 found = 0;

	if ((files = engine_files(srv->engine, ms->s)) == NULL)
		return 0;
	cJSON_ArrayForEach(f, files) {
		p = cJSON_GetObjectItemCaseSensitive(f, "path");
		if (cJSON_IsString(p) && strcmp(p->valuestring, rel) == 0)
			found = 1;
	}
	cJSON_Delete(files);
	return found;
}

int
mcp_resources_read(struct mcp_req *r)
{
	struct mcp_server	*srv = r->srv;
	struct engine_served	 sv;
	const struct mcp_skill	*ms;
	const char		*uri, *rel;
	const cJSON		*c;
	cJSON			*res = NULL;
	char			*text, *cause = NULL;
	int			 rv;

	if ((uri = mcp_param_string(r, "uri")) == NULL)
		return -1;
	if (strcmp(uri, INDEX_URI) == 0) {
		text = index_text(srv, r->view);
		r->result = contents(uri, "text/markdown", text);
		free(text);
		return 0;
	}
	if ((ms = skill_uri(srv, r->view, uri, &rel)) == NULL || *rel == '\0')
		return mcp_req_error(r, MCP_INVALID_PARAMS, "Resource not found: "
		    "%s (resources are " INDEX_URI " and skill://NAME/"
		    SKILL_MD ")", uri);
	if (strcmp(rel, SKILL_MD) == 0) {
		rv = engine_served(srv->engine, ms->s, 0, &sv, &cause);
		if (rv == 0) {
			r->result = contents(uri, "text/markdown", sv.text);
			cJSON_AddItemToObject(cJSON_GetArrayItem(
			    cJSON_GetObjectItem(r->result, "contents"), 0),
			    "_meta", served_meta(&sv));
		}
		engine_served_done(&sv);
		if (rv != 0) {
			mcp_req_error(r, MCP_INVALID_PARAMS, "%s", cause);
			free(cause);
			return -1;
		}
		return 0;
	}
	if (!skill_serves(srv, ms, rel))
		return mcp_req_error(r, MCP_INVALID_PARAMS, "Resource not found: "
		    "%s (skill %s has no file %s)", uri, ms->s->name, rel);
	if (engine_read(srv->engine, ms->s->uid, rel, &res, &cause) != 0) {
		mcp_req_error(r, MCP_INVALID_PARAMS, "%s", cause);
		free(cause);
		return -1;
	}
	c = cJSON_GetObjectItemCaseSensitive(res, "content");
	r->result = contents(uri, mime_for(rel),
	    cJSON_IsString(c) ? c->valuestring : "");
	cJSON_Delete(res);
	return 0;
}

int
mcp_skills_list(struct mcp_req *r)
{
	struct mcp_server	*srv = r->srv;
	struct mcp_view		*v = view_skills(srv, r->view);
	cJSON			*arr, *e;
	char			*cause = NULL;
	size_t			 off, i, n = 0;

	if (mcp_param_cursor(r, v->nskills, &off) != 0)
		return -1;
	r->result = cJSON_CreateObject();
	arr = cJSON_AddArrayToObject(r->result, "skills");
	for (i = off; i < v->nskills && n < SKILLS_PAGE; i++) {
		if (skill_entry(srv, &v->skills[i], &e, &cause) != 0) {
			/* Unreadable now, or refused: leave it out. */
			free(cause);
			cause = NULL;
			continue;
		}
		cJSON_AddItemToArray(arr, e);
		n++;
	}
	mcp_add_next_cursor(r->result, "nextCursor", i, v->nskills);
	return 0;
}

int
mcp_skills_get(struct mcp_req *r)
{
	const struct mcp_skill	*ms;
	const char		*uri, *rel;
	cJSON			*e;
	char			*cause = NULL;

	if ((uri = mcp_param_string(r, "uri")) == NULL)
		return -1;
	if ((ms = skill_uri(r->srv, r->view, uri, &rel)) == NULL ||
	    strcmp(rel, SKILL_MD) != 0)
		return mcp_req_error(r, MCP_INVALID_PARAMS, "No skill is served at "
		    "%s (skill URIs are skill://NAME/" SKILL_MD ")", uri);
	if (skill_entry(r->srv, ms, &e, &cause) != 0) {
		mcp_req_error(r, MCP_INVALID_PARAMS, "%s", cause);
		free(cause);
		return -1;
	}
	r->result = cJSON_CreateObject();
	cJSON_AddItemToObject(r->result, "skill", e);
	return 0;
}

static void
add_child(cJSON *arr, const char *name, const char *dir, const char *child,
    int is_dir)
{
	cJSON	*o = cJSON_CreateObject();
	char	*uri;

	xasprintf(&uri, SKILL_SCHEME "%s%s%s/%s", name, *dir ? "/" : "", dir,
	    child);
	cJSON_AddStringToObject(o, "uri", uri);
	free(uri);
	cJSON_AddStringToObject(o, "name", child);
	cJSON_AddStringToObject(o, "mimeType", is_dir ? "inode/directory" :
	    mime_for(child));
	cJSON_AddItemToArray(arr, o);
}

int
mcp_directory_read(struct mcp_req *r)
{
	struct mcp_server	*srv = r->srv;
	const struct mcp_skill	*ms;
	const char		*uri, *rel, *p, *rest, *slash;
	struct strlist		 dirs;
	cJSON			*files, *f, *arr;
	char			*dir, *sub;
	size_t			 dlen;
	int			 any = 0;

	if ((uri = mcp_param_string(r, "uri")) == NULL)
		return -1;
	if (mcp_param_cursor(r, 0, &dlen) != 0)
		return -1;
	if ((ms = skill_uri(srv, r->view, uri, &rel)) == NULL)
		return mcp_req_error(r, MCP_INVALID_PARAMS, "Resource not found: "
		    "%s (directories are skill://NAME and its folders)", uri);
	dir = xstrdup(rel);
	dlen = strlen(dir);
	while (dlen > 0 && dir[dlen - 1] == '/')
		dir[--dlen] = '\0';
	if (strcmp(dir, SKILL_MD) == 0) {
		free(dir);
		return mcp_req_error(r, MCP_INVALID_PARAMS, "%s is not a directory "
		    "resource", uri);
	}
	files = skill_files(srv, ms);
	r->result = cJSON_CreateObject();
	arr = cJSON_AddArrayToObject(r->result, "resources");
	if (dlen == 0) {
		add_child(arr, ms->s->name, "", SKILL_MD, 0);
		any = 1;
	}
	strlist_init(&dirs);
	cJSON_ArrayForEach(f, files) {
		p = cJSON_GetObjectItemCaseSensitive(f, "path")->valuestring;
		if (dlen > 0) {
			if (strcmp(p, dir) == 0)
				any = -1;	/* a file, not a directory */
			if (strncmp(p, dir, dlen) != 0 || p[dlen] != '/')
				continue;
			rest = p + dlen + 1;
		} else
			rest = p;
		any = any < 0 ? any : 1;
		if ((slash = strchr(rest, '/')) == NULL) {
			add_child(arr, ms->s->name, dir, rest, 0);
			continue;
		}
		sub = xstrndup(rest, (size_t)(slash - rest));
		if (strlist_add_unique(&dirs, sub, 0))
			add_child(arr, ms->s->name, dir, sub, 1);
		free(sub);
	}
	strlist_done(&dirs);
	cJSON_Delete(files);
	free(dir);
	if (any <= 0) {
		cJSON_Delete(r->result);
		r->result = NULL;
		return mcp_req_error(r, MCP_INVALID_PARAMS, any < 0 ?
		    "%s is not a directory resource" : "Resource not found: "
		    "%s (no such directory)", uri);
	}
	return 0;
}
