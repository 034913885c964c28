/*
 * The Streamable HTTP transport (libmicrohttpd): POST JSON-RPC on the
 * configured path with JSON responses, optional sessions (Mcp-Session-Id),
 * Origin/Host checks against DNS rebinding, an optional bearer token, a
 * body cap, connection timeouts, a thread pool, GET /healthz and the REST
 * compatibility routes under /tools/.
 *
 * mcp_http_start() borrows srv and cfg (both must outlive the handle) and
 * serves from its own threads until mcp_http_stop(), which also frees
 * the handle.
 */
#ifndef SR_MCP_HTTP_H
#define SR_MCP_HTTP_H

struct config;
struct strlist;
struct mcp_http;
struct mcp_server;

/*
 * Binds cfg->http_host:cfg->http_port (port 0: any free port) and starts
 * serving. Returns 0 with *out, or SR_IO / SR_CONFIG with *cause set
 * (free it).
 */
int	 mcp_http_start(struct mcp_server *, const struct config *,
	    struct mcp_http **out, char **cause);
/* The port actually bound. */
int	 mcp_http_port(struct mcp_http *);
/* Stops the daemon, ends every session and frees the handle. */
void	 mcp_http_stop(struct mcp_http *);

/*
 * 1 when an Origin header value may call the server: a localhost origin
 * (localhost, 127.0.0.1, [::1], any port, http or https) or one listed in
 * allowed (compared case-insensitively, without a trailing slash).
 * Exposed for tests.
 */
int	 mcp_http_origin_ok(const char *origin, const struct strlist *allowed);

#endif
