/*
 * The MCP protocol layer: JSON-RPC 2.0 over cJSON, a method table
 * (initialize, ping, tools, resources, the SEP-2640 skills extension)
 * and the four tools. Transports (mcp_stdio.c, mcp_http.c) feed it one
 * message at a time and write back what it returns.
 *
 * Ownership: a struct mcp_server borrows the engine and the config (both
 * must outlive it). It builds the tool list once, and the instructions
 * and the servable skill list per engine snapshot (a refcounted view,
 * rebuilt after a hot reload; the skill list on first use), so several
 * threads may call mcp_handle*() at once, each with its own session.
 * A struct mcp_session is embedded (mcp_session_init/_done) and holds one
 * client's state; it must not be used by two threads at the same time.
 * Every char * returned is allocated (free() it); every cJSON * returned
 * belongs to the caller (cJSON_Delete).
 */
#ifndef SR_MCP_H
#define SR_MCP_H

#include <stddef.h>

#include <cjson/cJSON.h>

struct config;
struct engine;
struct mcp_server;

/* JSON-RPC and MCP error codes. */
#define MCP_PARSE_ERROR		(-32700)
#define MCP_INVALID_REQUEST	(-32600)
#define MCP_METHOD_NOT_FOUND	(-32601)
#define MCP_INVALID_PARAMS	(-32602)
#define MCP_INTERNAL_ERROR	(-32603)

#define MCP_SERVER_NAME		"skills-radar"
#define MCP_SKILLS_EXTENSION	"io.modelcontextprotocol/skills"

/* Session flags. */
#define MCP_SESSION_STRICT	0x1	/* refuse requests before initialize */

struct mcp_session {
	int		 flags;
	int		 initialized;	/* initialize has been answered */
	char		 version[16];	/* negotiated protocol version */
	char		*client_name;	/* initialize clientInfo.name, or NULL */
	const char	*id;		/* HTTP Mcp-Session-Id (borrowed), or NULL */
	char		*client_version;
};

/* What mcp_handle*() learned about the message (out-parameter bits). */
#define MCP_INFO_REQUEST	0x1	/* the message was a request (has an id) */
#define MCP_INFO_INITIALIZE	0x2	/* ... a successful initialize */
#define MCP_INFO_NOTIFICATION	0x4	/* a notification or a response */
#define MCP_INFO_INVALID	0x8	/* malformed: an error was answered */

/*
 * Builds the server over an open engine. Returns 0, or an enum sr_status
 * with *cause set (free it).
 */
int	 mcp_server_new(struct engine *, const struct config *,
	    struct mcp_server **out, char **cause);
void	 mcp_server_free(struct mcp_server *);

/*
 * Declares resources.listChanged in initialize: the index is hot-reloaded
 * and the transport sends notifications/resources/list_changed.
 */
void	 mcp_server_set_watching(struct mcp_server *, int on);

/*
 * The shared store a replica follows, for GET /healthz (any thread may
 * call these). Until mcp_server_follow() the server has a local store
 * and is always ready. A follower is ready once it has loaded the store
 * (loaded); connected says whether the store answers now and why is the
 * last error (NULL when connected; copied). mcp_server_health() is the
 * /healthz body (allocated) and *ready whether it is 200 or 503.
 */
void	 mcp_server_follow(struct mcp_server *);
void	 mcp_server_set_store(struct mcp_server *, int loaded, int connected,
	    long long counter, const char *why);
char	*mcp_server_health(struct mcp_server *, int *ready);
/*
 * 1 while a follower has not loaded the store yet, with *cause saying
 * so: the tools answer that error (the REST routes 503) rather than an
 * empty result an agent would take for "no such skill".
 */
int	 mcp_server_unready(struct mcp_server *, char **cause);

/* The borrowed engine (valid while the server lives). */
struct engine *mcp_server_engine(struct mcp_server *);

void	 mcp_session_init(struct mcp_session *, int flags);
void	 mcp_session_done(struct mcp_session *);

/*
 * Handles one JSON-RPC message given as text (len bytes, need not be
 * NUL-terminated). Returns the response as compact JSON text without a
 * newline (free it), or NULL when nothing is to be answered (a
 * notification or a response from the client). Never fails: malformed
 * input is answered with a JSON-RPC error. *info (may be NULL) receives
 * MCP_INFO_* bits.
 */
char	*mcp_handle(struct mcp_server *, struct mcp_session *,
	    const char *text, size_t len, int *info);

/* Like mcp_handle() for a message the transport has already parsed. */
char	*mcp_handle_json(struct mcp_server *, struct mcp_session *,
	    const cJSON *msg, int *info);

/*
 * An error response for id (NULL: "id": null), for transports that refuse
 * a message before parsing it (an oversized line). Returns JSON text.
 */
char	*mcp_error_text(const cJSON *id, int code, const char *message);

/*
 * Checks a message's text before it is parsed: it must be valid UTF-8
 * (JSON is; anything else would be echoed back broken) and no string may
 * hold a \u0000 escape (names, paths and queries are C strings: "a\u0000b"
 * would silently become "a"). Returns 0, MCP_PARSE_ERROR (not UTF-8) or
 * MCP_INVALID_PARAMS (a NUL) with *why, a static reason without the
 * error's name. mcp_handle() applies it; the HTTP transport applies it to
 * every body it parses.
 */
int	 mcp_text_check(const char *text, size_t len, const char **why);

/* 1 when version is a protocol revision this server speaks. */
int	 mcp_version_supported(const char *version);
/* The latest supported revision (a static string). */
const char *mcp_latest_version(void);
/* The supported revisions, newest first, NULL-terminated (static). */
const char *const *mcp_versions(void);

/*
 * Runs one tool with arguments (an object, or NULL for none) and returns
 * its structured JSON in *out: the shape the CLI --json prints, which is
 * also the tools/call structuredContent. For the REST compatibility
 * routes. Returns 0, or an enum sr_status (SR_USAGE for a bad argument,
 * SR_NOTFOUND, SR_REFUSED, ...) with *cause set (free it). An unknown
 * tool is SR_NOTFOUND.
 */
int	 mcp_tool_run(struct mcp_server *, const char *tool,
	    const cJSON *args, cJSON **out, char **cause);

/*
 * Builds the instructions text: a paragraph on which tool to call when,
 * then the Tier-1 list (miniindex.h) of the searchable skills, within
 * budget tokens as tokens.h estimates them. Returns a new string, or NULL
 * when budget is 0 (no instructions are sent). Exposed for tests.
 */
char	*mcp_instructions_build(struct engine *, int budget);


#endif
