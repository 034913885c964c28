/*
 * MCP client configuration files: paths, JSON merge, Codex TOML edit,
 * atomic writes with a backup.
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


#include "base/buf.h"
#include "base/curlu.h"
#include "cli/clients.h"
#include "cli/clients_impl.h"
#include "base/status.h"
#include "base/xmalloc.h"


static const char *const cc_stdio[] = { "command", "args", "env", NULL };
static const char *const cc_http[] = { "url", "headers", "headersHelper",
	"oauth", NULL };
static const char *const desk_http[] = { "url", "headers", NULL };
static const char *const cursor_stdio[] = { "command", "args", "env",
	"envFile", NULL };
static const char *const cursor_http[] = { "url", "headers", NULL };
static const char *const codex_stdio[] = { "command", "args", "env",
	"env_vars", "cwd", NULL };
static const char *const codex_http[] = { "url", "bearer_token",
	"bearer_token_env_var", "http_headers", "env_http_headers", NULL };
static const char *const gemini_stdio[] = { "command", "args", "env", "cwd",
	NULL };
static const char *const gemini_http[] = { "url", "httpUrl", "headers",
	NULL };

/*
 * token_fmt is how the client references an environment variable in a
 * header: Claude Code and Gemini CLI expand ${VAR}, Cursor ${env:VAR}.
 * Codex names the variable in bearer_token_env_var instead.
 */
const struct client_def clients_defs[] = {
	{ "claude-code", FMT_JSON, 1, "url", NULL, "Bearer ${%s}",
	  cc_stdio, cc_http },
	{ "claude-desktop", FMT_JSON, 0, NULL,
	  "Claude Desktop's configuration file only starts stdio servers; "
	  "add the HTTP server as a connector in its settings instead", NULL,
	  cc_stdio, desk_http },
	{ "cursor", FMT_JSON, 0, "url", NULL, "Bearer ${env:%s}",
	  cursor_stdio, cursor_http },
	{ "codex", FMT_TOML, 0, "url", NULL, NULL, codex_stdio, codex_http },
	{ "gemini", FMT_JSON, 0, "httpUrl", NULL, "Bearer ${%s}",
	  gemini_stdio, gemini_http },
	{ NULL, 0, 0, NULL, NULL, NULL, NULL, NULL }
};

static const char *const names[] = {
	"claude-code", "claude-desktop", "cursor", "codex", "gemini", NULL
};

int
in_list(const char *const *list, const char *key)
{
	for (; *list != NULL; list++)
		if (strcmp(*list, key) == 0)
			return 1;
	return 0;
}

/* Keys an entry for the other transport than http (0/1) would have. */
const char *const *
foreign_keys(const struct client_def *d, int http)
{
	return http ? d->stdio_keys : d->http_keys;
}

const char *const *
clients_names(void)
{
	return names;
}

static const struct client_def *
find_def(const char *name)
{
	const struct client_def	*d;

	for (d = clients_defs; d->name != NULL; d++)
		if (strcmp(d->name, name) == 0)
			return d;
	return NULL;
}

int
clients_known(const char *name)
{
	return find_def(name) != NULL;
}

void
client_change_done(struct client_change *c)
{
	free(c->path);
	free(c->backup);
	c->path = c->backup = NULL;
}

/* ---- paths -------------------------------------------------------------- */

static char *
home_dir(void)
{
	const char	*h = getenv("HOME");
	struct passwd	*pw;

	if (h != NULL && *h == '/')
		return xstrdup(h);
	if ((pw = getpwuid(getuid())) != NULL && pw->pw_dir != NULL)
		return xstrdup(pw->pw_dir);
	return xstrdup("/");
}

/* $VAR when set to an absolute path, else HOME/fallback. */
static char *
env_dir(const char *var, const char *fallback)
{
	const char	*v = getenv(var);
	char		*home, *s;

	if (v != NULL && *v == '/')
		return xstrdup(v);
	home = home_dir();
	xasprintf(&s, "%s/%s", home, fallback);
	free(home);
	return s;
}

static char *
project_path(const char *rel)
{
	char	 cwd[PATH_MAX], *s;

	if (getcwd(cwd, sizeof cwd) == NULL)
		snprintf(cwd, sizeof cwd, ".");
	xasprintf(&s, "%s/%s", strcmp(cwd, "/") == 0 ? "" : cwd, rel);
	return s;
}

/* rel below the project (project scope) or below the home directory. */
static char *
scoped_path(enum client_scope scope, const char *rel)
{
	char	*dir, *p;

	if (scope == CLIENT_SCOPE_PROJECT)
		return project_path(rel);
	dir = home_dir();
	xasprintf(&p, "%s/%s", dir, rel);
	free(dir);
	return p;
}

/*
 * Sets *path (allocated) to the client's configuration file for scope.
 * Returns 0, or SR_USAGE with *cause when the client has no such scope.
 */
int
client_config_path(const char *client, enum client_scope scope, char **path,
    char **cause)
{
	char	*dir;

	*path = NULL;
	if (!clients_known(client)) {
		xasprintf(cause, "unknown client '%s'", client);
		return SR_USAGE;
	}
	if (strcmp(client, "claude-code") == 0) {
		if (scope == CLIENT_SCOPE_PROJECT) {
			*path = project_path(".mcp.json");
			return 0;
		}
		if (getenv("CLAUDE_CONFIG_DIR") != NULL &&
		    *getenv("CLAUDE_CONFIG_DIR") == '/')
			xasprintf(path, "%s/.claude.json",
			    getenv("CLAUDE_CONFIG_DIR"));
		else {
			dir = home_dir();
			xasprintf(path, "%s/.claude.json", dir);
			free(dir);
		}
		return 0;
	}
	if (strcmp(client, "claude-desktop") == 0) {
		if (scope == CLIENT_SCOPE_PROJECT) {
			xasprintf(cause, "claude-desktop has no project scope: "
			    "use --scope user");
			return SR_USAGE;
		}
#ifdef __APPLE__
		dir = env_dir("SR_NO_SUCH_VARIABLE",
		    "Library/Application Support");
#else
		dir = env_dir("XDG_CONFIG_HOME", ".config");
#endif
		xasprintf(path, "%s/Claude/claude_desktop_config.json", dir);
		free(dir);
		return 0;
	}
	if (strcmp(client, "cursor") == 0) {
		*path = scoped_path(scope, ".cursor/mcp.json");
		return 0;
	}
	if (strcmp(client, "gemini") == 0) {
		*path = scoped_path(scope, ".gemini/settings.json");
		return 0;
	}
	/* codex */
	if (scope == CLIENT_SCOPE_PROJECT)
		*path = project_path(".codex/config.toml");
	else {
		dir = env_dir("CODEX_HOME", ".codex");
		xasprintf(path, "%s/config.toml", dir);
		free(dir);
	}
	return 0;
}

int
client_check_url(const char *url, char **cause)
{
	const char	*p;
	CURLU		*u;
	char		*scheme = NULL, *host = NULL;
	int		 rv = 0;

	for (p = url; *p != '\0'; p++) {
		if ((unsigned char)*p <= ' ' || *p == 0x7f || *p == '"' ||
		    *p == '\\') {
			xasprintf(cause, "--http: '%s' contains a space, a "
			    "quote or a control character", url);
			return SR_USAGE;
		}
	}
	/* libcurl's URL parser, the one the HTTP client uses. */
	if (curlu_load(cause) != 0)
		return SR_IO;
	if ((u = curl_url()) == NULL) {
		xasprintf(cause, "--http: out of memory");
		return SR_ERR;
	}
	if (strncmp(url, "http://", 7) != 0 && strncmp(url, "https://", 8) !=
	    0) {
		xasprintf(cause, "--http: '%s' is not an http:// or https:// "
		    "URL", url);
		rv = SR_USAGE;
	} else if (strchr("/:", url[url[4] == 's' ? 8 : 7]) != NULL ||
	    /* libcurl reads http:///x as host x: an empty host here. */
	    curl_url_set(u, CURLUPART_URL, url, 0) != CURLUE_OK ||
	    curl_url_get(u, CURLUPART_SCHEME, &scheme, 0) != CURLUE_OK ||
	    curl_url_get(u, CURLUPART_HOST, &host, 0) != CURLUE_OK ||
	    *host == '\0') {
		xasprintf(cause, "--http: '%s' has no host", url);
		rv = SR_USAGE;
	}
	curl_free(scheme);
	curl_free(host);
	curl_url_cleanup(u);
	return rv;
}

/* ---- files -------------------------------------------------------------- */


void
cfile_done(struct cfile *f)
{
	free(f->path);
	free(f->real);
	free(f->data);
}

int
cfile_read(const char *path, mode_t new_mode, struct cfile *f, char **cause)
{
	struct stat	 st;
	char		 rp[PATH_MAX];
	mode_t		 um;

	memset(f, 0, sizeof *f);
	f->path = xstrdup(path);
	if (stat(path, &st) == -1) {
		if (errno != ENOENT) {
			xasprintf(cause, "%s: %s", path, strerror(errno));
			return SR_IO;
		}
		f->real = xstrdup(path);
		um = umask(0);
		umask(um);
		f->mode = new_mode & ~um;
		return 0;
	}
	if (!S_ISREG(st.st_mode)) {
		xasprintf(cause, "%s: not a regular file", path);
		return SR_IO;
	}
	f->real = xstrdup(realpath(path, rp) != NULL ? rp : path);
	f->mode = st.st_mode & 07777;
	if (buf_read_file(path, CLIENT_MAX_FILE, &f->data, &f->len) == -1) {
		xasprintf(cause, "%s: %s", path, errno == EFBIG ?
		    "larger than 64 MiB" : strerror(errno));
		return SR_IO;
	}
	f->exists = 1;
	return 0;
}

/* Backs the old bytes up as PATH.bak, then writes the new ones. */
static int
cfile_write(struct cfile *f, const char *data, size_t len,
    struct client_change *out, char **cause)
{
	char	*bak;
	int	 rv;

	if (f->exists) {
		xasprintf(&bak, "%s.bak", f->real);
		if ((rv = buf_save(bak, f->data, f->len, (int)f->mode, 0,
		    cause)) != 0) {
			free(bak);
			return rv;
		}
		out->backup = bak;
	}
	return buf_save(f->real, data, len, (int)f->mode, !f->exists, cause);
}

/* ---- JSON --------------------------------------------------------------- */

static int
only_space(const char *s, size_t len)
{
	size_t	 i;

	for (i = 0; i < len; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\n' && s[i] != '\r')
			return 0;
	return 1;
}

/* Parses the file's JSON (an object; empty or missing: {}). */
int
json_parse(const struct cfile *f, cJSON **doc, char **cause)
{
	const char	*end = NULL, *p;
	int		 line = 1, col = 1;

	*doc = NULL;
	if (!f->exists || only_space(f->data, f->len)) {
		*doc = cJSON_CreateObject();
		return 0;
	}
	*doc = cJSON_ParseWithLengthOpts(f->data, f->len, &end, 0);
	if (*doc == NULL) {
		if (end == NULL)
			end = f->data;
		for (p = f->data; p < end && *p != '\0'; p++) {
			if (*p == '\n') {
				line++;
				col = 1;
			} else
				col++;
		}
		xasprintf(cause, "%s:%d:%d: not valid JSON (comments and "
		    "trailing commas are not allowed); the file was left "
		    "unchanged", f->path, line, col);
		return SR_CONFIG;
	}
	if (!only_space(end, f->len - (size_t)(end - f->data))) {
		cJSON_Delete(*doc);
		*doc = NULL;
		xasprintf(cause, "%s: text after the JSON value; the file was "
		    "left unchanged", f->path);
		return SR_CONFIG;
	}
	if (!cJSON_IsObject(*doc)) {
		cJSON_Delete(*doc);
		*doc = NULL;
		xasprintf(cause, "%s: the top level is not a JSON object; the "
		    "file was left unchanged", f->path);
		return SR_CONFIG;
	}
	return 0;
}

/*
 * Prints doc as 2-space-indented JSON with a final newline, the way
 * the clients write their own files. cJSON escapes tabs inside strings,
 * so every raw tab it prints is layout.
 */
static char *
json_render(const cJSON *doc, size_t *len)
{
	struct buf	 b;
	char		*s, *p, *q;
	int		 bol = 1;

	s = cJSON_Print(doc);
	buf_init(&b, 0);
	for (p = s; *p != '\0'; p++) {
		if (*p == '\t') {
			buf_addstr(&b, bol ? "  " : " ");
			continue;
		}
		if ((*p == '{' || *p == '[') && p[1] == '\n') {
			for (q = p + 2; *q == '\t'; q++)
				;
			if (*q == (*p == '{' ? '}' : ']')) {
				buf_addc(&b, *p);
				buf_addc(&b, *q);
				p = q;
				bol = 0;
				continue;
			}
		}
		buf_addc(&b, *p);
		bol = *p == '\n';
	}
	buf_addc(&b, '\n');
	free(s);
	*len = b.len;
	return buf_take(&b);
}

/* The entry we write for srv in a client spelled by d. */
static cJSON *
json_entry(const struct client_def *d, const struct client_server *srv)
{
	cJSON	*e, *a, *h;
	char	*v;
	size_t	 i;

	e = cJSON_CreateObject();
	if (srv->url != NULL) {
		if (d->typed)
			cJSON_AddStringToObject(e, "type", "http");
		cJSON_AddStringToObject(e, d->url_key, srv->url);
		if (srv->token_env != NULL) {
			h = cJSON_AddObjectToObject(e, "headers");
			xasprintf(&v, d->token_fmt, srv->token_env);
			cJSON_AddStringToObject(h, "Authorization", v);
			free(v);
		}
		return e;
	}
	if (d->typed)
		cJSON_AddStringToObject(e, "type", "stdio");
	cJSON_AddStringToObject(e, "command", srv->command);
	a = cJSON_AddArrayToObject(e, "args");
	for (i = 0; i < srv->nargs; i++)
		cJSON_AddItemToArray(a, cJSON_CreateString(srv->args[i]));
	return e;
}

/*
 * fresh's members, in their order, then old's others, except those
 * drop() refuses. Consumes fresh.
 */
static cJSON *
json_union(const cJSON *old, cJSON *fresh, const struct client_def *d,
    int http, int (*drop)(const struct client_def *, int, const char *))
{
	cJSON	*m, *it, *mine, *sub;

	m = cJSON_CreateObject();
	for (it = fresh->child; it != NULL; it = it->next)
		cJSON_AddItemToObject(m, it->string, cJSON_Duplicate(it, 1));
	for (it = old->child; it != NULL; it = it->next) {
		if (drop != NULL && drop(d, http, it->string))
			continue;
		mine = cJSON_GetObjectItemCaseSensitive(m, it->string);
		if (mine == NULL)
			cJSON_AddItemToObject(m, it->string,
			    cJSON_Duplicate(it, 1));
		else if (strcmp(it->string, "headers") == 0 &&
		    cJSON_IsObject(it) && cJSON_IsObject(mine)) {
			/* our Authorization, the user's other headers */
			sub = json_union(it, cJSON_Duplicate(mine, 1), d, http,
			    NULL);
			cJSON_ReplaceItemInObjectCaseSensitive(m, it->string,
			    sub);
		}
	}
	cJSON_Delete(fresh);
	return m;
}

/* 1 for a key of the old entry that the new transport does not take. */
static int
json_drop(const struct client_def *d, int http, const char *key)
{
	return strcmp(key, "type") == 0 || strcmp(key, "url") == 0 ||
	    strcmp(key, "httpUrl") == 0 || in_list(foreign_keys(d, http), key);
}

/*
 * Our entry, merged into an existing one: its transport keys replaced,
 * the other transport's keys dropped, everything else (timeouts, trust,
 * the user's other headers, ...) kept in place.
 */
static cJSON *
json_merge(const struct client_def *d, const cJSON *old, cJSON *fresh,
    int http)
{
	if (old == NULL || !cJSON_IsObject(old))
		return fresh;
	return json_union(old, fresh, d, http, json_drop);
}

int
json_servers(cJSON *doc, const struct cfile *f, int create, cJSON **out,
    char **cause)
{
	cJSON	*s;

	*out = NULL;
	s = cJSON_GetObjectItemCaseSensitive(doc, "mcpServers");
	if (s == NULL) {
		if (create)
			*out = cJSON_AddObjectToObject(doc, "mcpServers");
		return 0;
	}
	if (!cJSON_IsObject(s)) {
		xasprintf(cause, "%s: \"mcpServers\" is not an object; the "
		    "file was left unchanged", f->path);
		return SR_CONFIG;
	}
	*out = s;
	return 0;
}

static int
json_add(const struct client_def *d, struct cfile *f,
    const struct client_server *srv, struct client_change *out, char **cause)
{
	cJSON	*doc, *servers, *old, *entry;
	char	*text;
	size_t	 len;
	int	 rv;

	if ((rv = json_parse(f, &doc, cause)) != 0)
		return rv;
	if ((rv = json_servers(doc, f, 1, &servers, cause)) != 0)
		goto out;
	old = cJSON_GetObjectItemCaseSensitive(servers, srv->name);
	entry = json_merge(d, old, json_entry(d, srv), srv->url != NULL);
	if (old != NULL && cJSON_Compare(old, entry, 1)) {
		cJSON_Delete(entry);
		out->result = CLIENT_UNCHANGED;
		goto out;
	}
	out->result = old != NULL ? CLIENT_UPDATED : CLIENT_ADDED;
	if (old != NULL)
		cJSON_ReplaceItemInObjectCaseSensitive(servers, srv->name,
		    entry);
	else
		cJSON_AddItemToObject(servers, srv->name, entry);
	text = json_render(doc, &len);
	rv = cfile_write(f, text, len, out, cause);
	free(text);
out:
	cJSON_Delete(doc);
	return rv;
}

static int
json_remove(struct cfile *f, const char *name, struct client_change *out,
    char **cause)
{
	cJSON	*doc, *servers;
	char	*text;
	size_t	 len;
	int	 rv;

	out->result = CLIENT_ABSENT;
	if (!f->exists)
		return 0;
	if ((rv = json_parse(f, &doc, cause)) != 0)
		return rv;
	if ((rv = json_servers(doc, f, 0, &servers, cause)) != 0 ||
	    servers == NULL ||
	    cJSON_GetObjectItemCaseSensitive(servers, name) == NULL)
		goto out;
	cJSON_DeleteItemFromObjectCaseSensitive(servers, name);
	out->result = CLIENT_REMOVED;
	text = json_render(doc, &len);
	rv = cfile_write(f, text, len, out, cause);
	free(text);
out:
	cJSON_Delete(doc);
	return rv;
}

/* ---- TOML (Codex) ------------------------------------------------------- */


void
tdoc_done(struct tdoc *t)
{
	size_t	 i;

	for (i = 0; i < t->n; i++) {
		free(t->v[i].table);
		free(t->v[i].key);
	}
	free(t->v);
}

static int
bare_key_char(int c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	    (c >= '0' && c <= '9') || c == '_' || c == '-';
}

/* Parses a dotted key at *pp; returns its joined parts or NULL. */
static char *
toml_key(const char **pp, const char *end)
{
	const char	*p = *pp;
	struct buf	 b;
	char		 q;

	buf_init(&b, 0);
	for (;;) {
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if (p < end && (*p == '"' || *p == '\'')) {
			q = *p++;
			while (p < end && *p != q) {
				if (q == '"' && *p == '\\' && p + 1 < end)
					p++;
				buf_addc(&b, *p++);
			}
			if (p >= end)
				goto bad;
			p++;
		} else if (p < end && bare_key_char((unsigned char)*p)) {
			while (p < end && bare_key_char((unsigned char)*p))
				buf_addc(&b, *p++);
		} else
			goto bad;
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if (p < end && *p == '.') {
			p++;
			buf_addc(&b, '\037');
			continue;
		}
		break;
	}
	*pp = p;
	buf_addc(&b, '\0');
	return buf_take(&b);
bad:
	buf_done(&b);
	return NULL;
}

struct tscan {
	int	 ml;		/* inside a multi-line string: '"' or '\'' */
	int	 depth;		/* open [ and { of a value */
	size_t	 start;		/* line where the value began */
};

/* Scans value text, updating the state; -1 on a broken line. */
static int
toml_value(struct tscan *sc, const char *p, const char *end)
{
	char	 q;

	while (p < end) {
		if (sc->ml != 0) {
			if (sc->ml == '"' && *p == '\\') {
				p += 2;
				continue;
			}
			if (end - p >= 3 && p[0] == sc->ml && p[1] == sc->ml &&
			    p[2] == sc->ml) {
				p += 3;
				while (p < end && *p == sc->ml)
					p++;	/* up to two quotes may close */
				sc->ml = 0;
				continue;
			}
			p++;
			continue;
		}
		switch (*p) {
		case '"':
		case '\'':
			q = *p;
			if (end - p >= 3 && p[1] == q && p[2] == q) {
				sc->ml = q;
				p += 3;
				continue;
			}
			for (p++; p < end && *p != q; p++)
				if (q == '"' && *p == '\\')
					p++;
			if (p >= end)
				return -1;	/* strings end on their line */
			p++;
			continue;
		case '[':
		case '{':
			sc->depth++;
			break;
		case ']':
		case '}':
			if (--sc->depth < 0)
				return -1;
			break;
		case '#':
			return 0;
		}
		p++;
	}
	return 0;
}

int
toml_parse(const struct cfile *f, struct tdoc *t, char **cause)
{
	struct tscan	 sc = { 0, 0, 0 };
	const char	*s, *p, *end, *nl;
	char		*table = xstrdup(""), *key;
	struct tline	*l;
	size_t		 cap = 0;
	int		 arr;

	memset(t, 0, sizeof *t);
	if (!f->exists)
		goto done;
	for (s = f->data; s < f->data + f->len; s = nl + 1) {
		nl = memchr(s, '\n', (size_t)(f->data + f->len - s));
		if (nl == NULL)
			nl = f->data + f->len;
		if (t->n == cap) {
			cap = cap ? cap * 2 : 64;
			t->v = xreallocarray(t->v, cap, sizeof *t->v);
		}
		l = &t->v[t->n++];
		memset(l, 0, sizeof *l);
		l->s = s;
		l->len = (size_t)(nl - s);
		end = s + l->len;
		if (end > s && end[-1] == '\r') {
			end--;
			if (t->n == 1)
				t->crlf = 1;
		}
		if (sc.ml != 0 || sc.depth > 0) {
			l->kind = TL_CONT;
			if (toml_value(&sc, s, end) == -1)
				goto bad;
			continue;
		}
		for (p = s; p < end && (*p == ' ' || *p == '\t'); p++)
			;
		if (p == end || *p == '#') {
			l->kind = TL_OTHER;
			continue;
		}
		if (*p == '[') {
			arr = p + 1 < end && p[1] == '[';
			p += arr ? 2 : 1;
			if ((key = toml_key(&p, end)) == NULL)
				goto bad;
			if (p >= end || *p != ']' ||
			    (arr && (p + 1 >= end || p[1] != ']'))) {
				free(key);
				goto bad;
			}
			p += arr ? 2 : 1;
			for (; p < end && (*p == ' ' || *p == '\t'); p++)
				;
			if (p < end && *p != '#') {
				free(key);
				goto bad;
			}
			l->kind = arr ? TL_AHEADER : TL_HEADER;
			l->table = key;
			free(table);
			table = xstrdup(key);
			continue;
		}
		if ((key = toml_key(&p, end)) == NULL)
			goto bad;
		l->kind = TL_KV;
		l->key = key;
		l->table = xstrdup(table);
		if (p >= end || *p != '=')
			goto bad;
		for (p++; p < end && (*p == ' ' || *p == '\t'); p++)
			;
		if (p == end || *p == '#')
			goto bad;
		sc.start = t->n;
		if (toml_value(&sc, p, end) == -1)
			goto bad;
	}
	if (sc.ml != 0 || sc.depth > 0) {
		xasprintf(cause, "%s:%zu: a string or array that starts here "
		    "is never closed; the file was left unchanged", f->path,
		    sc.start);
		goto fail;
	}
done:
	free(table);
	return 0;
bad:
	xasprintf(cause, "%s:%zu: not valid TOML; the file was left "
	    "unchanged", f->path, t->n);
fail:
	free(table);
	tdoc_done(t);
	memset(t, 0, sizeof *t);
	return SR_CONFIG;
}

char *
toml_kv_string(const struct tline *l)
{
	const char	*p = l->s, *end = l->s + l->len;
	struct buf	 b;
	char		*key, q;

	if (l->kind != TL_KV)
		return NULL;
	if (end > p && end[-1] == '\r')
		end--;
	if ((key = toml_key(&p, end)) == NULL)
		return NULL;
	free(key);
	if (p >= end || *p++ != '=')
		return NULL;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p >= end || (*p != '"' && *p != '\'') ||
	    (end - p >= 3 && p[1] == *p && p[2] == *p))
		return NULL;	/* not a string, or a multi-line one */
	buf_init(&b, 0);
	for (q = *p++; p < end && *p != q; p++) {
		if (q == '"' && *p == '\\') {
			if (++p >= end)
				goto bad;
			switch (*p) {
			case '"':
			case '\\':
				break;
			case 't':
				buf_addc(&b, '\t');
				continue;
			case 'n':
				buf_addc(&b, '\n');
				continue;
			default:
				goto bad;	/* \u and the rest: not read */
			}
		}
		buf_addc(&b, *p);
	}
	if (p >= end)
		goto bad;
	for (p++; p < end && (*p == ' ' || *p == '\t'); p++)
		;
	if (p < end && *p != '#')
		goto bad;
	buf_addc(&b, '\0');
	return buf_take(&b);
bad:
	buf_done(&b);
	return NULL;
}

/* "mcp_servers\037NAME" */
char *
toml_table_name(const char *name)
{
	char	*s;

	xasprintf(&s, "mcp_servers\037%s", name);
	return s;
}

/* 1 when path is want or below it. */
static int
key_under(const char *path, const char *want)
{
	size_t	 n = strlen(want);

	return strncmp(path, want, n) == 0 &&
	    (path[n] == '\0' || path[n] == '\037');
}

/*
 * Finds our table's header (index in *hdr, or n) and refuses the forms
 * this editor does not rewrite: an array of tables, dotted keys or an
 * inline table defining the same server.
 */
int
toml_find(const struct cfile *f, const struct tdoc *t, const char *want,
    size_t *hdr, char **cause)
{
	char	*full;
	size_t	 i;
	int	 inside = 0, foreign = 0;

	*hdr = t->n;
	for (i = 0; i < t->n && !foreign; i++) {
		const struct tline *l = &t->v[i];

		if (l->kind == TL_HEADER || l->kind == TL_AHEADER) {
			inside = key_under(l->table, want);
			if (inside && l->kind == TL_AHEADER)
				foreign = 1;
			else if (l->kind == TL_HEADER &&
			    strcmp(l->table, want) == 0 && *hdr == t->n)
				*hdr = i;
			continue;
		}
		if (l->kind != TL_KV || inside)
			continue;
		if (*l->table == '\0')
			full = xstrdup(l->key);
		else
			xasprintf(&full, "%s\037%s", l->table, l->key);
		foreign = key_under(full, want);
		free(full);
	}
	if (foreign) {
		xasprintf(cause, "%s:%zu: the server is defined in a form "
		    "skills-radar does not rewrite (dotted keys, an inline "
		    "table or [[...]]); edit it by hand", f->path, i);
		return SR_CONFIG;
	}
	return 0;
}

/* A TOML basic string. */
static void
toml_string(struct buf *b, const char *s)
{
	buf_addc(b, '"');
	for (; *s != '\0'; s++) {
		if (*s == '"' || *s == '\\')
			buf_printf(b, "\\%c", *s);
		else if ((unsigned char)*s < 0x20 || *s == 0x7f)
			buf_printf(b, "\\u%04x", (unsigned char)*s);
		else
			buf_addc(b, *s);
	}
	buf_addc(b, '"');
}

/* The key lines of our table (after the header). */
static void
toml_body(struct buf *b, const struct client_server *srv, const char *eol)
{
	size_t	 i;

	if (srv->url != NULL) {
		buf_addstr(b, "url = ");
		toml_string(b, srv->url);
		buf_addstr(b, eol);
		if (srv->token_env != NULL) {
			buf_addstr(b, "bearer_token_env_var = ");
			toml_string(b, srv->token_env);
			buf_addstr(b, eol);
		}
		return;
	}
	buf_addstr(b, "command = ");
	toml_string(b, srv->command);
	buf_addstr(b, eol);
	buf_addstr(b, "args = [");
	for (i = 0; i < srv->nargs; i++) {
		if (i > 0)
			buf_addstr(b, ", ");
		toml_string(b, srv->args[i]);
	}
	buf_addc(b, ']');
	buf_addstr(b, eol);
}

static int
toml_bare(const char *s)
{
	for (; *s != '\0'; s++)
		if (!bare_key_char((unsigned char)*s))
			return 0;
	return 1;
}

static void
toml_header(struct buf *b, const char *name, const char *eol)
{
	buf_addstr(b, "[mcp_servers.");
	if (toml_bare(name))
		buf_addstr(b, name);
	else
		toml_string(b, name);
	buf_addc(b, ']');
	buf_addstr(b, eol);
}

static void
tline_emit(struct buf *b, const struct cfile *f, const struct tline *l)
{
	buf_add(b, l->s, l->len);
	if (l->s + l->len < f->data + f->len)
		buf_addc(b, '\n');
}

/* End (exclusive) of the key lines of the table whose header is at h. */
size_t
toml_region_end(const struct tdoc *t, size_t h)
{
	size_t	 i, last = h + 1;

	for (i = h + 1; i < t->n; i++) {
		if (t->v[i].kind == TL_HEADER || t->v[i].kind == TL_AHEADER)
			break;
		if (t->v[i].kind != TL_OTHER)
			last = i + 1;
	}
	return last;
}

/* Marks the value lines of the key/value at i deleted. */
static void
toml_delete_kv(struct tdoc *t, size_t i)
{
	t->v[i].del = 1;
	for (i++; i < t->n && t->v[i].kind == TL_CONT; i++)
		t->v[i].del = 1;
}

static int
line_blank(const struct tline *l)
{
	size_t	 i;

	for (i = 0; i < l->len; i++)
		if (l->s[i] != ' ' && l->s[i] != '\t' && l->s[i] != '\r')
			return 0;
	return 1;
}

/* 1 when the text before b's final newline is blank. */
static int
last_line_blank(const struct buf *b)
{
	size_t	 i = b->len - 1;

	while (i > 0 && b->p[i - 1] != '\n') {
		if (b->p[i - 1] != ' ' && b->p[i - 1] != '\t' &&
		    b->p[i - 1] != '\r')
			return 0;
		i--;
	}
	return 1;
}

/* The first part of a joined key, compared with a list. */
static int
key_head_in(const char *key, const char *const *list)
{
	size_t	 n = strcspn(key, "\037");

	for (; *list != NULL; list++)
		if (strlen(*list) == n && strncmp(*list, key, n) == 0)
			return 1;
	return 0;
}

/*
 * Marks deleted, in the table whose header is at h (called want) and its
 * subtables, the keys the new entry writes and those of the other
 * transport, with the subtables of those ([mcp_servers.NAME.env]).
 */
static void
toml_drop_keys(struct tdoc *t, size_t h, const char *want,
    const struct client_server *srv)
{
	static const char *const ours[] = { "command", "args", "url", NULL };
	static const char *const token[] = { "bearer_token_env_var", NULL };
	const char *const	*foreign = foreign_keys(find_def("codex"),
	    srv->url != NULL);
	size_t			 i, j, end, n = strlen(want);

	end = toml_region_end(t, h);
	for (i = h + 1; i < end; i++)
		if (t->v[i].kind == TL_KV && (key_head_in(t->v[i].key, ours) ||
		    key_head_in(t->v[i].key, foreign) ||
		    (srv->token_env != NULL &&
		    key_head_in(t->v[i].key, token))))
			toml_delete_kv(t, i);
	for (i = 0; i < t->n; i++) {
		if (t->v[i].kind != TL_HEADER ||
		    strncmp(t->v[i].table, want, n) != 0 ||
		    t->v[i].table[n] != '\037' ||
		    !key_head_in(t->v[i].table + n + 1, foreign))
			continue;
		end = toml_region_end(t, i);
		for (j = i; j < end; j++)
			t->v[j].del = 1;
		/* and the blank line that separated it */
		if (i > 0 && line_blank(&t->v[i - 1]))
			t->v[i - 1].del = 1;
	}
}

static int
toml_add(struct cfile *f, const struct client_server *srv,
    struct client_change *out, char **cause)
{
	struct tdoc	 t;
	struct buf	 b;
	const char	*eol;
	char		*want;
	size_t		 i, h;
	int		 rv;

	if ((rv = toml_parse(f, &t, cause)) != 0)
		return rv;
	want = toml_table_name(srv->name);
	if ((rv = toml_find(f, &t, want, &h, cause)) != 0)
		goto out;
	eol = t.crlf ? "\r\n" : "\n";
	buf_init(&b, 0);
	if (h < t.n) {
		toml_drop_keys(&t, h, want, srv);
		for (i = 0; i < t.n; i++) {
			if (!t.v[i].del)
				tline_emit(&b, f, &t.v[i]);
			if (i == h) {
				if (b.len == 0 || b.p[b.len - 1] != '\n')
					buf_addstr(&b, eol);
				toml_body(&b, srv, eol);
			}
		}
		out->result = CLIENT_UPDATED;
	} else {
		if (f->exists)
			buf_add(&b, f->data, f->len);
		if (b.len > 0 && b.p[b.len - 1] != '\n')
			buf_addstr(&b, eol);
		if (b.len > 0 && !last_line_blank(&b))
			buf_addstr(&b, eol);	/* a blank line between tables */
		toml_header(&b, srv->name, eol);
		toml_body(&b, srv, eol);
		out->result = CLIENT_ADDED;
	}
	if (f->exists && b.len == f->len && memcmp(b.p, f->data, b.len) == 0)
		out->result = CLIENT_UNCHANGED;
	else
		rv = cfile_write(f, b.p, b.len, out, cause);
	buf_done(&b);
out:
	free(want);
	tdoc_done(&t);
	return rv;
}

static int
toml_remove(struct cfile *f, const char *name, struct client_change *out,
    char **cause)
{
	struct tdoc	 t;
	struct buf	 b;
	char		*want;
	size_t		 i, j, end, prev, next;
	int		 rv, any = 0;

	out->result = CLIENT_ABSENT;
	if (!f->exists)
		return 0;
	if ((rv = toml_parse(f, &t, cause)) != 0)
		return rv;
	want = toml_table_name(name);
	if ((rv = toml_find(f, &t, want, &i, cause)) != 0)
		goto out;
	for (i = 0; i < t.n; i++) {
		if (t.v[i].kind != TL_HEADER || !key_under(t.v[i].table, want))
			continue;
		end = toml_region_end(&t, i);
		for (j = i; j < end; j++)
			t.v[j].del = 1;
		any = 1;
		/* Do not leave two blank lines, or one at the end. */
		for (prev = i; prev > 0 && t.v[prev - 1].del; prev--)
			;
		for (next = end; next < t.n && t.v[next].del; next++)
			;
		if (prev > 0 && line_blank(&t.v[prev - 1]) &&
		    (next == t.n || line_blank(&t.v[next])))
			t.v[prev - 1].del = 1;
	}
	if (!any)
		goto out;
	buf_init(&b, 0);
	for (i = 0; i < t.n; i++)
		if (!t.v[i].del)
			tline_emit(&b, f, &t.v[i]);
	/* The last line kept may have lost its newline to a deleted one. */
	if (b.len > 0 && b.p[b.len - 1] != '\n' && f->len > 0 &&
	    f->data[f->len - 1] == '\n')
		buf_addstr(&b, t.crlf ? "\r\n" : "\n");
	out->result = CLIENT_REMOVED;
	rv = cfile_write(f, b.p, b.len, out, cause);
	buf_done(&b);
out:
	free(want);
	tdoc_done(&t);
	return rv;
}

/* ---- entry points ------------------------------------------------------- */

static mode_t
new_mode(const char *client, enum client_scope scope)
{
	/* ~/.claude.json holds the user's account state: keep it private. */
	if (strcmp(client, "claude-code") == 0 && scope == CLIENT_SCOPE_USER)
		return 0600;
	return 0666;
}

/*
 * What adding and removing share: finds the client's definition (*dp),
 * refuses an HTTP server (http) for a client without one, and reads the
 * client's file for scope into f, naming it in out->path. Returns 0, and
 * the caller calls cfile_done(f); or a status with *cause filled.
 */
int
client_open(const char *client, enum client_scope scope, int http,
    const struct client_def **dp, struct cfile *f, struct client_change *out,
    char **cause)
{
	const struct client_def	*d;
	char			*path;
	int			 rv;

	memset(out, 0, sizeof *out);
	if ((d = *dp = find_def(client)) == NULL) {
		xasprintf(cause, "unknown client '%s'", client);
		return SR_USAGE;
	}
	if (http && d->url_key == NULL) {
		xasprintf(cause, "%s", d->no_http);
		return SR_USAGE;
	}
	if ((rv = client_config_path(client, scope, &path, cause)) != 0)
		return rv;
	rv = cfile_read(path, new_mode(client, scope), f, cause);
	out->path = path;
	if (rv != 0)
		cfile_done(f);
	return rv;
}

/*
 * Checks the name given to --token-env: an environment variable's name
 * (a token pasted there by mistake must not land in a file). Returns 0,
 * or SR_USAGE with *cause.
 */
static int
client_check_token_env(const char *var, char **cause)
{
	const char	*p;

	for (p = var; *p != '\0'; p++)
		if (!(*p == '_' || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= 'a' && *p <= 'z') || (p > var && *p >= '0' &&
		    *p <= '9')))
			break;
	if (*var == '\0' || *p != '\0') {
		xasprintf(cause, "--token-env: '%s' is not an environment "
		    "variable name (letters, digits and _, not starting with "
		    "a digit); give the variable's name, never the token",
		    var);
		return SR_USAGE;
	}
	return 0;
}

int
client_add(const char *client, enum client_scope scope,
    const struct client_server *srv, struct client_change *out, char **cause)
{
	const struct client_def	*d;
	struct cfile		 f;
	int			 rv;

	if (srv->token_env != NULL) {
		memset(out, 0, sizeof *out);
		if (srv->url == NULL) {
			xasprintf(cause, "--token-env is for an HTTP server: "
			    "give --http URL too");
			return SR_USAGE;
		}
		if ((rv = client_check_token_env(srv->token_env, cause)) != 0)
			return rv;
		if ((d = find_def(client)) != NULL && d->url_key != NULL &&
		    d->fmt == FMT_JSON && d->token_fmt == NULL) {
			xasprintf(cause, "%s cannot read a token from an "
			    "environment variable; refusing to write the "
			    "secret itself into its file", client);
			return SR_USAGE;
		}
	}
	if ((rv = client_open(client, scope, srv->url != NULL, &d, &f, out,
	    cause)) != 0)
		return rv;
	rv = d->fmt == FMT_JSON ? json_add(d, &f, srv, out, cause) :
	    toml_add(&f, srv, out, cause);
	cfile_done(&f);
	return rv;
}

int
client_remove(const char *client, enum client_scope scope, const char *name,
    struct client_change *out, char **cause)
{
	const struct client_def	*d;
	struct cfile		 f;
	int			 rv;

	if ((rv = client_open(client, scope, 0, &d, &f, out, cause)) != 0)
		return rv;
	rv = d->fmt == FMT_JSON ? json_remove(&f, name, out, cause) :
	    toml_remove(&f, name, out, cause);
	cfile_done(&f);
	return rv;
}

