/*
 * MCP clients: where each one keeps its server list and how to register
 * skills-radar in it. JSON files (Claude Code's ~/.claude.json and
 * .mcp.json, Claude Desktop, Cursor, Gemini CLI) are merged through cJSON;
 * Codex's config.toml is edited line by line, touching only the
 * [mcp_servers.NAME] table. Other servers and keys are never changed, an
 * unparsable file is never overwritten, and every write goes through a
 * temporary file renamed over the original after a backup (FILE.bak).
 *
 * Ownership: strings in struct client_change are allocated and freed by
 * client_change_done; the caller owns what clients_report returns.
 */
#ifndef SR_CLIENTS_H
#define SR_CLIENTS_H

#include <stddef.h>

#include <cjson/cJSON.h>

enum client_scope {
	CLIENT_SCOPE_USER,
	CLIENT_SCOPE_PROJECT
};

/* What client_add / client_remove did to the file. */
enum client_result {
	CLIENT_ADDED,		/* a new entry */
	CLIENT_UPDATED,		/* our entry existed and was changed */
	CLIENT_UNCHANGED,	/* our entry was already exactly right */
	CLIENT_REMOVED,		/* our entry was removed */
	CLIENT_ABSENT		/* remove: there was nothing to remove */
};

/* The server entry to write. Borrowed for the duration of the call. */
struct client_server {
	const char		 *name;		/* key in the client's list */
	const char		 *command;	/* stdio: the binary */
	const char *const	 *args;		/* stdio: arguments */
	size_t			  nargs;
	const char		 *url;		/* non-NULL: Streamable HTTP */
	const char		 *token_env;	/* HTTP: the bearer token's
						   environment variable */
};

struct client_change {
	enum client_result	 result;
	char			*path;		/* the file written or read */
	char			*backup;	/* the backup made, or NULL */
};

/* The client names client_add knows, NULL-terminated, in display order. */
const char *const *clients_names(void);
/* Returns 1 when name is a known client. */
int	clients_known(const char *name);

/*
 * Checks a URL given to --http: http:// or https://, a host, no spaces or
 * control characters. Returns 0, or SR_USAGE with *cause.
 */
int	client_check_url(const char *url, char **cause);

/*
 * Adds or updates srv in the client's configuration for scope, creating
 * the file (and its directory) when missing. The entry is left with the
 * keys of srv's transport only: the other transport's keys are dropped,
 * keys of neither (timeouts, ...) kept. srv->token_env (HTTP only) is
 * written in the client's own form (a header referencing ${VAR}, Codex's
 * bearer_token_env_var). Returns 0 with *out filled,
 * or an enum sr_status with *cause: SR_USAGE (the client cannot take that
 * transport), SR_CONFIG (the file cannot be parsed; it is left as it was),
 * SR_IO.
 */
int	client_add(const char *client, enum client_scope,
	    const struct client_server *srv, struct client_change *out,
	    char **cause);

/* Removes the entry called name. Same returns as client_add. */
int	client_remove(const char *client, enum client_scope, const char *name,
	    struct client_change *out, char **cause);

void	client_change_done(struct client_change *);

/*
 * For doctor: an array with one object per client and scope whose file
 * exists: {client, scope, path, configured, transport?, problem?,
 * problems?}. name is the server entry looked for ("skills-radar");
 * problem is why the file cannot be read, problems what the client
 * would refuse or ignore in any server entry (another transport's keys,
 * a missing command or url).
 */
cJSON	*clients_report(const char *name);

#endif
