/*
 * The stdio transport: read(2) in chunks, split lines, hand each to the
 * dispatcher, write each answer as one line. The line buffer is capped at
 * max_message bytes; a longer line is drained to its newline and answered
 * with -32600, so the client learns why and the server stays up.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "mcp/mcp.h"
#include "mcp/mcp_stdio.h"
#include "base/status.h"
#include "base/xmalloc.h"

static int
write_all(int fd, const char *p, size_t len)
{
	ssize_t	 n;

	while (len > 0) {
		if ((n = write(fd, p, len)) < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Answers and notifications (the watcher's thread) never interleave. */
static pthread_mutex_t	 out_lock = PTHREAD_MUTEX_INITIALIZER;
/* Set once initialize was answered: notifications wait for it. */
static int		 out_ready;

/* Writes text plus a newline in one write where possible. */
static int
write_line(int fd, const char *text)
{
	size_t	 len = strlen(text);
	char	*line;
	int	 rv;

	line = xmalloc(len + 2);
	memcpy(line, text, len);
	line[len] = '\n';
	line[len + 1] = '\0';
	pthread_mutex_lock(&out_lock);
	rv = write_all(fd, line, len + 1);
	pthread_mutex_unlock(&out_lock);
	free(line);
	return rv;
}

int
mcp_stdio_notify(int out, const char *method)
{
	char	*msg;
	int	 ready, rv;

	pthread_mutex_lock(&out_lock);
	ready = out_ready;
	pthread_mutex_unlock(&out_lock);
	if (!ready)
		return 0;
	xasprintf(&msg, "{\"jsonrpc\":\"2.0\",\"method\":\"%s\"}", method);
	rv = write_line(out, msg);
	free(msg);
	return rv == 0 ? 0 : SR_IO;
}

static int
handle_line(struct mcp_server *srv, struct mcp_session *sess, int out,
    struct buf *line, char **cause)
{
	char	*resp;
	size_t	 len = line->len;
	int	 info = 0;

	while (len > 0 && (line->p[len - 1] == '\r' || line->p[len - 1] == ' ' ||
	    line->p[len - 1] == '\t'))
		len--;
	if (len == 0)
		return 0;	/* blank lines are not messages */
	resp = mcp_handle(srv, sess, line->p, len, &info);
	if (resp == NULL)
		return 0;
	if (write_line(out, resp) != 0) {
		xasprintf(cause, "writing to stdout: %s", strerror(errno));
		free(resp);
		return SR_IO;
	}
	free(resp);
	if (info & MCP_INFO_INITIALIZE) {
		pthread_mutex_lock(&out_lock);
		out_ready = 1;
		pthread_mutex_unlock(&out_lock);
	}
	return 0;
}

/* Answers a line that was over the cap (its id is unknown: null). */
static int
refuse_line(int out, size_t max_message, char **cause)
{
	char	 msg[128], *resp;
	int	 rv = 0;

	snprintf(msg, sizeof msg, "Invalid Request: message longer than %zu "
	    "bytes (mcp.max_message_kb)", max_message);
	resp = mcp_error_text(NULL, MCP_INVALID_REQUEST, msg);
	if (write_line(out, resp) != 0) {
		xasprintf(cause, "writing to stdout: %s", strerror(errno));
		rv = SR_IO;
	}
	free(resp);
	return rv;
}

int
mcp_stdio_run(struct mcp_server *srv, int in, int out, size_t max_message,
    volatile sig_atomic_t *stop, char **cause)
{
	struct mcp_session	 sess;
	struct buf		 line;
	char			 chunk[65536], *nl;
	const char		*p;
	ssize_t			 n;
	size_t			 left, take;
	int			 rv = 0, toobig = 0;

	*cause = NULL;
	mcp_session_init(&sess, MCP_SESSION_STRICT);
	buf_init(&line, max_message);
	while (stop == NULL || !*stop) {
		n = read(in, chunk, sizeof chunk);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			xasprintf(cause, "reading stdin: %s", strerror(errno));
			rv = SR_IO;
			break;
		}
		if (n == 0) {
			/* A last line without a newline still counts. */
			if (toobig)
				rv = refuse_line(out, max_message, cause);
			else if (line.len > 0)
				rv = handle_line(srv, &sess, out, &line, cause);
			break;
		}
		p = chunk;
		left = (size_t)n;
		while (left > 0 && rv == 0) {
			nl = memchr(p, '\n', left);
			take = nl ? (size_t)(nl - p) : left;
			if (!toobig && buf_add(&line, p, take) != 0)
				toobig = 1;
			p += take + (nl ? 1 : 0);
			left -= take + (nl ? 1 : 0);
			if (nl == NULL)
				break;
			if (toobig) {
				rv = refuse_line(out, max_message, cause);
				toobig = 0;
			} else
				rv = handle_line(srv, &sess, out, &line,
				    cause);
			buf_reset(&line);
		}
		if (rv != 0)
			break;
	}
	buf_done(&line);
	mcp_session_done(&sess);
	return rv;
}
