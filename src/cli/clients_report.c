/*
 * doctor's report on MCP clients: which servers each client file names,
 * whether their commands run here and their header variables are set.
 */
#include "autoconfig.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <curl/curl.h>

#include "base/buf.h"
#include "cli/clients.h"
#include "cli/clients_impl.h"
#include "base/status.h"
#include "base/xmalloc.h"

/* 1 when cmd runs here: an executable path, or a name found on $PATH. */
static int
runnable(const char *cmd)
{
	const char	*path = getenv("PATH"), *p, *colon;
	char		 cand[PATH_MAX];
	int		 n;

	if (strchr(cmd, '/') != NULL)
		return access(cmd, X_OK) == 0;
	if (path == NULL || *cmd == '\0')
		return 0;
	for (p = path; ; p = colon + 1) {
		colon = strchr(p, ':');
		n = snprintf(cand, sizeof cand, "%.*s/%s", colon != NULL ?
		    (int)(colon - p) : (int)strlen(p), p, cmd);
		if (n > 0 && (size_t)n < sizeof cand && access(cand, X_OK) == 0)
			return 1;
		if (colon == NULL)
			return 0;
	}
}

/*
 * The first variable a header value of e names as ${VAR} or ${env:VAR}
 * that is unset or empty here (copied into var), or 0.
 */
static int
unset_header_var(const cJSON *e, char *var, size_t size)
{
	const cJSON	*h, *it;
	const char	*v, *at, *name, *end;
	size_t		 n;

	for (h = e->child; h != NULL; h = h->next) {
		if (!cJSON_IsObject(h))
			continue;
		for (it = h->child; it != NULL; it = it->next) {
			if ((v = cJSON_GetStringValue(it)) == NULL)
				continue;
			for (at = strstr(v, "${"); at != NULL;
			    at = strstr(at + 2, "${")) {
				name = at + 2;
				if (strncmp(name, "env:", 4) == 0)
					name += 4;
				if ((end = strchr(name, '}')) == NULL ||
				    (n = (size_t)(end - name)) == 0 ||
				    n >= size)
					continue;
				memcpy(var, name, n);
				var[n] = '\0';
				if (getenv(var) == NULL || *getenv(var) == '\0')
					return 1;
			}
		}
	}
	return 0;
}

/* 1 when variable var (a name) is unset or empty here. */
static int
env_unset(const char *var)
{
	const char	*v = getenv(var);

	return v == NULL || *v == '\0';
}

/*
 * The first variable Codex reads a header from (bearer_token_env_var,
 * the values of env_http_headers) that is unset or empty here, copied
 * into var, or 0.
 */
static int
unset_token_var(const cJSON *e, char *var, size_t size)
{
	const cJSON	*it, *h;

	it = cJSON_GetObjectItemCaseSensitive(e, "bearer_token_env_var");
	if (cJSON_IsString(it) && env_unset(it->valuestring)) {
		snprintf(var, size, "%s", it->valuestring);
		return 1;
	}
	h = cJSON_GetObjectItemCaseSensitive(e, "env_http_headers");
	if (!cJSON_IsObject(h))
		return 0;
	cJSON_ArrayForEach(it, h)
		if (cJSON_IsString(it) && env_unset(it->valuestring)) {
			snprintf(var, size, "%s", it->valuestring);
			return 1;
		}
	return 0;
}

/*
 * Checks one server entry (its keys; for JSON, its values too) against
 * what client d takes; adds a sentence per problem to probs.
 */
static void
check_entry(const struct client_def *d, const char *server, const cJSON *e,
    cJSON *probs)
{
	const cJSON	*it, *type;
	const char	*want, *tr;
	char		*m, var[128];
	int		 cmd, url, http;

	if (!cJSON_IsObject(e)) {
		xasprintf(&m, "server '%s' is not an object", server);
		goto add;
	}
	cmd = cJSON_GetObjectItemCaseSensitive(e, "command") != NULL;
	url = cJSON_GetObjectItemCaseSensitive(e, "url") != NULL ||
	    (d->url_key != NULL &&
	    cJSON_GetObjectItemCaseSensitive(e, d->url_key) != NULL);
	type = cJSON_GetObjectItemCaseSensitive(e, "type");
	http = d->typed && cJSON_IsString(type) ?
	    strcmp(type->valuestring, "stdio") != 0 : url && !cmd;
	if (url && d->url_key == NULL) {
		xasprintf(&m, "server '%s' has a url: %s", server, d->no_http);
		goto add;
	}
	if (cmd && url) {
		xasprintf(&m, "server '%s' has both a command and a url: "
		    "keep the keys of one transport", server);
		goto add;
	}
	want = http ? d->url_key : "command";
	if (http ? !url : !cmd) {
		xasprintf(&m, "server '%s' has no '%s'", server, want);
		goto add;
	}
	tr = http ? "HTTP" : "stdio";
	for (it = e->child; it != NULL; it = it->next) {
		if (!in_list(foreign_keys(d, http), it->string))
			continue;
		xasprintf(&m, "server '%s' is a%s %s server but has '%s', which "
		    "only %s servers take", server, http ? "n" : "", tr,
		    it->string, http ? "stdio" : "HTTP");
		cJSON_AddItemToArray(probs, cJSON_CreateString(m));
		free(m);
	}
	if (!http && cJSON_IsString(it = cJSON_GetObjectItemCaseSensitive(e,
	    "command")) && !runnable(it->valuestring)) {
		xasprintf(&m, "server '%s' runs '%s', which %s here: the client "
		    "cannot start it (give its absolute path; 'skills-radar "
		    "client add' does when it is not on PATH)", server,
		    it->valuestring, strchr(it->valuestring, '/') != NULL ?
		    "is not an executable file" : "is not on PATH");
		cJSON_AddItemToArray(probs, cJSON_CreateString(m));
		free(m);
	}
	if (http && (unset_token_var(e, var, sizeof var) ||
	    unset_header_var(e, var, sizeof var))) {
		xasprintf(&m, "server '%s' sends its token from $%s, which is "
		    "not set here: the client connects without it and the "
		    "server refuses (export %s where the client starts)",
		    server, var, var);
		cJSON_AddItemToArray(probs, cJSON_CreateString(m));
		free(m);
	}
	return;
add:
	cJSON_AddItemToArray(probs, cJSON_CreateString(m));
	free(m);
}

/*
 * Key k of line l into server object e: its string for the keys doctor
 * reads (command, bearer_token_env_var; the variables of an
 * env_http_headers table), else true.
 */
static void
toml_put(cJSON *e, const char *k, const struct tline *l)
{
	static const char *const read[] = { "command", "bearer_token_env_var",
	    NULL };
	char	*v = NULL;

	if (cJSON_GetObjectItemCaseSensitive(e, k) != NULL)
		return;
	if (l != NULL && in_list(read, k))
		v = toml_kv_string(l);
	if (v != NULL)
		cJSON_AddStringToObject(e, k, v);
	else
		cJSON_AddTrueToObject(e, k);
	free(v);
}

/*
 * The servers of a Codex file as JSON objects of their keys, so
 * check_entry can read them: the keys of [mcp_servers.NAME] and the
 * names of its subtables, true or (toml_put) the string doctor checks;
 * [mcp_servers.NAME.env_http_headers] as an object of its variables.
 * Inline and dotted forms are skipped.
 */
static cJSON *
toml_servers(const struct tdoc *t)
{
	static const char	 pre[] = "mcp_servers\037";
	cJSON			*all = cJSON_CreateObject(), *e, *hv;
	const char		*name, *sub;
	char			*srv, *k, *v;
	size_t			 i, j, end, n;

	for (i = 0; i < t->n; i++) {
		if (t->v[i].kind != TL_HEADER ||
		    strncmp(t->v[i].table, pre, sizeof pre - 1) != 0)
			continue;
		name = t->v[i].table + sizeof pre - 1;
		n = strcspn(name, "\037");
		srv = xstrndup(name, n);
		if ((e = cJSON_GetObjectItemCaseSensitive(all, srv)) == NULL)
			e = cJSON_AddObjectToObject(all, srv);
		free(srv);
		end = toml_region_end(t, i);
		for (j = i + 1; name[n] == '\0' && j < end; j++) {
			if (t->v[j].kind != TL_KV)
				continue;
			k = xstrndup(t->v[j].key, strcspn(t->v[j].key,
			    "\037"));
			toml_put(e, k, strchr(t->v[j].key, '\037') == NULL ?
			    &t->v[j] : NULL);
			free(k);
		}
		if (name[n] == '\0')
			continue;
		sub = name + n + 1;
		if (strcmp(sub, "env_http_headers") != 0) {
			k = xstrndup(sub, strcspn(sub, "\037"));
			toml_put(e, k, NULL);
			free(k);
			continue;
		}
		if ((hv = cJSON_GetObjectItemCaseSensitive(e, sub)) == NULL ||
		    !cJSON_IsObject(hv)) {
			cJSON_DeleteItemFromObjectCaseSensitive(e, sub);
			hv = cJSON_AddObjectToObject(e, sub);
		}
		for (j = i + 1; j < end; j++)
			if (t->v[j].kind == TL_KV &&
			    strchr(t->v[j].key, '\037') == NULL &&
			    (v = toml_kv_string(&t->v[j])) != NULL) {
				if (cJSON_GetObjectItemCaseSensitive(hv,
				    t->v[j].key) == NULL)
					cJSON_AddStringToObject(hv,
					    t->v[j].key, v);
				free(v);
			}
	}
	return all;
}

/* Checks every server in servers; returns the array of problems. */
static cJSON *
check_servers(const struct client_def *d, const cJSON *servers)
{
	cJSON	*probs = cJSON_CreateArray();
	cJSON	*it;

	if (servers != NULL)
		for (it = servers->child; it != NULL; it = it->next)
			check_entry(d, it->string, it, probs);
	return probs;
}

/* Fills r with what the file says about name; returns 1 when it exists. */
static int
report_one(const struct client_def *d, enum client_scope scope,
    const char *name, cJSON *arr)
{
	struct cfile	 f;
	struct tdoc	 t;
	cJSON		*r, *doc = NULL, *servers = NULL, *e, *probs = NULL;
	char		*path, *cause = NULL, *want;
	const char	*transport = NULL;
	size_t		 h;
	int		 configured = 0, rv;

	if (client_config_path(d->name, scope, &path, &cause) != 0) {
		free(cause);
		return 0;
	}
	rv = cfile_read(path, 0644, &f, &cause);
	if (rv == 0 && !f.exists) {
		free(path);
		cfile_done(&f);
		return 0;
	}
	if (rv != 0) {
		/* unreadable: the cause is reported as the problem */
	} else if (d->fmt == FMT_JSON) {
		if (json_parse(&f, &doc, &cause) == 0 &&
		    json_servers(doc, &f, 0, &servers, &cause) == 0)
			probs = check_servers(d, servers);
	} else if (toml_parse(&f, &t, &cause) == 0) {
		want = toml_table_name(name);
		if (toml_find(&f, &t, want, &h, &cause) != 0) {
			free(cause);
			cause = NULL;
			configured = 1;
		}
		free(want);
		servers = doc = toml_servers(&t);
		probs = check_servers(d, doc);
		tdoc_done(&t);
	}
	if (servers != NULL && (e = cJSON_GetObjectItemCaseSensitive(servers,
	    name)) != NULL) {
		configured = 1;
		transport = cJSON_GetObjectItem(e, "command") != NULL ?
		    "stdio" : "http";
	}
	cJSON_Delete(doc);
	r = cJSON_CreateObject();
	cJSON_AddStringToObject(r, "client", d->name);
	cJSON_AddStringToObject(r, "scope",
	    scope == CLIENT_SCOPE_USER ? "user" : "project");
	cJSON_AddStringToObject(r, "path", path);
	cJSON_AddBoolToObject(r, "configured", configured);
	if (transport != NULL)
		cJSON_AddStringToObject(r, "transport", transport);
	if (cause != NULL)
		cJSON_AddStringToObject(r, "problem", cause);
	if (probs != NULL && cJSON_GetArraySize(probs) > 0)
		cJSON_AddItemToObject(r, "problems", probs);
	else
		cJSON_Delete(probs);
	cJSON_AddItemToArray(arr, r);
	free(cause);
	free(path);
	cfile_done(&f);
	return 1;
}

cJSON *
clients_report(const char *name)
{
	const struct client_def	*d;
	cJSON			*arr = cJSON_CreateArray();

	char				*u, *p, *cause = NULL;

	for (d = clients_defs; d->name != NULL; d++) {
		report_one(d, CLIENT_SCOPE_USER, name, arr);
		if (strcmp(d->name, "claude-desktop") == 0)
			continue;
		/* run in the home directory, both scopes are one file */
		u = p = NULL;
		if (client_config_path(d->name, CLIENT_SCOPE_USER, &u,
		    &cause) == 0 && client_config_path(d->name,
		    CLIENT_SCOPE_PROJECT, &p, &cause) == 0 &&
		    strcmp(u, p) != 0)
			report_one(d, CLIENT_SCOPE_PROJECT, name, arr);
		free(cause);
		cause = NULL;
		free(u);
		free(p);
	}
	return arr;
}
