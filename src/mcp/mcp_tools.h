/*
 * The four MCP tools: search_skills, load_skill, read_skill_file and
 * list_skills, described by one table. The MCP layer (mcp.c) answers
 * tools/list with mcp_tools_json() and tools/call, and the REST routes,
 * with mcp_tools_run(); nothing here knows about JSON-RPC or sessions
 * beyond the session id a handler records telemetry under.
 *
 * Every cJSON * returned belongs to the caller (cJSON_Delete); *cause is
 * allocated (free it).
 */
#ifndef SR_MCP_TOOLS_H
#define SR_MCP_TOOLS_H

#include <stddef.h>

#include <cjson/cJSON.h>

struct config;
struct engine;

/* What a tool runs on (borrowed for the call). */
struct mcp_tool_ctx {
	struct engine		*engine;
	const struct config	*cfg;
	const char		*session;	/* telemetry; NULL: the process's */
};

/* The tools/list array: name, description, inputSchema, outputSchema. */
cJSON	*mcp_tools_json(void);

/* 1 when name is one of the tools. */
int	 mcp_tools_known(const char *name);

/*
 * Checks a call without running it: the tool exists (SR_NOTFOUND) and
 * args (NULL, or an object) match its table: types, bounds, enum values,
 * required and unknown arguments (SR_USAGE). Returns 0 or the status with
 * *cause.
 */
int	 mcp_tools_check(const char *name, const cJSON *args, char **cause);

/*
 * Checks and runs a tool. Returns 0 with *out (an object) or an enum
 * sr_status with *cause saying what went wrong, for the agent to read.
 */
int	 mcp_tools_run(const struct mcp_tool_ctx *, const char *name,
	    const cJSON *args, cJSON **out, char **cause);

/*
 * Adds key: "NEXT" (a decimal offset, the cursor of the next page) to
 * result when next < total: the paging of list_skills, resources/list
 * and skills/list.
 */
void	 mcp_add_next_cursor(cJSON *result, const char *key, size_t next,
	    size_t total);

#endif
