/*
 * The stdio transport: newline-delimited JSON-RPC on a pair of file
 * descriptors. Only protocol goes to the output; the caller logs to
 * stderr. A line longer than max_message bytes is answered with an error
 * and skipped, so one bad client message never ends the server.
 */
#ifndef SR_MCP_STDIO_H
#define SR_MCP_STDIO_H

#include <signal.h>
#include <stddef.h>

struct mcp_server;

/*
 * Serves srv on in/out until end of input or until *stop becomes non-zero
 * (a signal handler sets it; install it without SA_RESTART so a blocked
 * read returns). Returns 0 on end of input or stop, or SR_IO with *cause
 * set (free it) when reading or writing fails.
 */
int	 mcp_stdio_run(struct mcp_server *, int in, int out,
	    size_t max_message, volatile sig_atomic_t *stop, char **cause);

/*
 * Sends a notification (method, no params) on out, between answers, once
 * initialize has been answered (before that it is dropped). Safe from any
 * thread: the hot-reload watcher sends notifications/resources/list_changed.
 * Returns 0 or SR_IO.
 */
int	 mcp_stdio_notify(int out, const char *method);

#endif
