/*
 * The request helpers beneath the protocol layer (mcp.c) and the
 * resources (mcp_skills.c): a request's error, its parameters and a
 * pagination cursor. See mcp_impl.h.
 */
#include "autoconfig.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>

#include <cjson/cJSON.h>

#include "mcp/mcp.h"
#include "mcp/mcp_impl.h"
#include "base/xmalloc.h"

int
mcp_req_error(struct mcp_req *r, int code, const char *fmt, ...)
{
	va_list	 ap;

	free(r->message);
	va_start(ap, fmt);
	xvasprintf(&r->message, fmt, ap);
	va_end(ap);
	r->code = code;
	return -1;
}

const cJSON *
mcp_param(const struct mcp_req *r, const char *name)
{
	if (r->params == NULL)
		return NULL;
	return cJSON_GetObjectItemCaseSensitive(r->params, name);
}

/* A required string parameter, or NULL after mcp_req_error(). */
const char *
mcp_param_string(struct mcp_req *r, const char *name)
{
	const cJSON	*v = mcp_param(r, name);

	if (v == NULL) {
		mcp_req_error(r, MCP_INVALID_PARAMS, "missing required parameter "
		    "'%s'", name);
		return NULL;
	}
	if (!cJSON_IsString(v) || v->valuestring == NULL) {
		mcp_req_error(r, MCP_INVALID_PARAMS, "parameter '%s' must be a "
		    "string", name);
		return NULL;
	}
	return v->valuestring;
}

/*
 * Reads an optional pagination cursor (a decimal offset we handed out).
 * Returns 0 with *off set, or -1 after mcp_req_error().
 */
int
mcp_param_cursor(struct mcp_req *r, size_t total, size_t *off)
{
	const cJSON	*v = mcp_param(r, "cursor");
	char		*end;
	unsigned long	 n;

	*off = 0;
	if (v == NULL || cJSON_IsNull(v))
		return 0;
	if (!cJSON_IsString(v) || v->valuestring[0] == '\0')
		return mcp_req_error(r, MCP_INVALID_PARAMS, "cursor must be a "
		    "string returned as nextCursor");
	errno = 0;
	n = strtoul(v->valuestring, &end, 10);
	if (errno != 0 || *end != '\0' || !isdigit((unsigned char)
	    v->valuestring[0]) || n > total)
		return mcp_req_error(r, MCP_INVALID_PARAMS, "invalid cursor '%s': "
		    "pass back a nextCursor value unchanged", v->valuestring);
	*off = n;
	return 0;
}
