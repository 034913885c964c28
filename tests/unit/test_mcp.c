/*
 * The MCP dispatcher without a transport: JSON-RPC framing errors, the
 * before-initialize rule, version negotiation, the tool surface and its
 * argument validation, resources and the SEP-2640 methods, the
 * instructions budget, the Origin check and SHA-256 vectors. The engine
 * runs over tests/data/mcp with an index in a temporary directory.
 */
#include "autoconfig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "config.h"
#include "engine.h"
#include "mcp.h"
#include "tokens.h"
#include "mcp_http.h"
#include "sha256.h"
#include "strlist.h"
#include "tap.h"
#include "xmalloc.h"

static struct mcp_server	*srv;
static struct engine		*eng;

/* Sends text through a session; returns the parsed reply (or NULL). */
static cJSON *
send_msg(struct mcp_session *s, const char *text, int *info)
{
	char	*out;
	cJSON	*j;

	out = mcp_handle(srv, s, text, strlen(text), info);
	if (out == NULL)
		return NULL;
	j = cJSON_Parse(out);
	free(out);
	return j;
}

static int
error_code(const cJSON *j)
{
	const cJSON	*e = cJSON_GetObjectItem(j, "error");

	return e ? cJSON_GetObjectItem(e, "code")->valueint : 0;
}

static const char *
error_message(const cJSON *j)
{
	const cJSON	*e = cJSON_GetObjectItem(j, "error");

	return e ? cJSON_GetObjectItem(e, "message")->valuestring : "";
}

static const cJSON *
result(const cJSON *j)
{
	return cJSON_GetObjectItem(j, "result");
}

static void
initialize(struct mcp_session *s)
{
	cJSON	*j;

	j = send_msg(s, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\","
	    "\"params\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":"
	    "{},\"clientInfo\":{\"name\":\"unit\",\"version\":\"1\"}}}", NULL);
	cJSON_Delete(j);
}

/* Calls a tool; returns the whole reply. */
static cJSON *
call(struct mcp_session *s, const char *tool, const char *args)
{
	char	*msg;
	cJSON	*j;

	if (asprintf(&msg, "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":"
	    "\"tools/call\",\"params\":{\"name\":\"%s\"%s%s}}", tool,
	    args ? ",\"arguments\":" : "", args ? args : "") < 0)
		abort();
	j = send_msg(s, msg, NULL);
	free(msg);
	return j;
}

static int
is_error(const cJSON *j)
{
	return cJSON_IsTrue(cJSON_GetObjectItem(result(j), "isError"));
}

static const char *
tool_text(const cJSON *j)
{
	const cJSON	*c = cJSON_GetObjectItem(result(j), "content");

	c = cJSON_GetArrayItem(c, 0);
	return c ? cJSON_GetObjectItem(c, "text")->valuestring : "";
}

static void
test_framing(void)
{
	struct mcp_session	 s;
	cJSON			*j;
	int			 info;

	mcp_session_init(&s, MCP_SESSION_STRICT);
	j = send_msg(&s, "{\"jsonrpc\":\"2.0\",\"id\":1,", &info);
	is_int(error_code(j), MCP_PARSE_ERROR, "truncated JSON is -32700");
	ok(cJSON_IsNull(cJSON_GetObjectItem(j, "id")), "parse error has id null");
	ok(info & MCP_INFO_INVALID, "parse error flagged invalid");
	cJSON_Delete(j);
	j = send_msg(&s, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"} x",
	    NULL);
	is_int(error_code(j), MCP_PARSE_ERROR, "trailing garbage is -32700");
	cJSON_Delete(j);
	j = send_msg(&s, "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"},"
	    "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/x\"},"
	    "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"nope\"},7]", &info);
	ok(cJSON_IsArray(j) && cJSON_GetArraySize(j) == 3,
	    "a batch gets an array of answers, none for the notification");
	ok(cJSON_IsObject(result(cJSON_GetArrayItem(j, 0))),
	    "... ping answered in order");
	is_int(error_code(cJSON_GetArrayItem(j, 1)), MCP_METHOD_NOT_FOUND,
	    "... unknown method -32601");
	is_int(error_code(cJSON_GetArrayItem(j, 2)), MCP_INVALID_REQUEST,
	    "... a non-object element -32600");
	ok((info & MCP_INFO_REQUEST) && !(info & MCP_INFO_INVALID),
	    "... reported as requests");
	cJSON_Delete(j);
	j = send_msg(&s, "[]", NULL);
	is_int(error_code(j), MCP_INVALID_REQUEST, "an empty batch is -32600");
	cJSON_Delete(j);
	j = send_msg(&s, "[{\"jsonrpc\":\"2.0\",\"method\":\"notifications/"
	    "initialized\"}]", &info);
	ok(j == NULL, "a batch of notifications gets no answer");
	j = send_msg(&s, "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":"
	    "\"initialize\",\"params\":{\"protocolVersion\":\"2025-03-26\"}}]",
	    NULL);
	is_int(error_code(cJSON_GetArrayItem(j, 0)), MCP_INVALID_REQUEST,
	    "initialize inside a batch is refused");
	ok(!s.initialized, "... and does not initialize");
	cJSON_Delete(j);
	j = send_msg(&s, "42", NULL);
	is_int(error_code(j), MCP_INVALID_REQUEST, "a number is -32600");
	cJSON_Delete(j);
	j = send_msg(&s, "{\"id\":3,\"method\":\"ping\"}", NULL);
	is_int(error_code(j), MCP_INVALID_REQUEST, "missing jsonrpc is -32600");
	is_int(cJSON_GetObjectItem(j, "id")->valueint, 3, "... and echoes id");
	cJSON_Delete(j);
	j = send_msg(&s, "{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"ping\"}",
	    NULL);
	is_int(error_code(j), MCP_INVALID_REQUEST, "an object id is -32600");
	cJSON_Delete(j);
	j = send_msg(&s, "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":5}", NULL);
	is_int(error_code(j), MCP_INVALID_REQUEST, "a numeric method is -32600");
	cJSON_Delete(j);
	j = send_msg(&s, "{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"nope\"}",
	    NULL);
	is_int(error_code(j), MCP_METHOD_NOT_FOUND, "unknown method is -32601");
	is_str(cJSON_GetObjectItem(j, "id")->valuestring, "a",
	    "... with the string id echoed");
	ok(strstr(error_message(j), "nope") != NULL, "... naming the method");
	cJSON_Delete(j);
	j = send_msg(&s, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/"
	    "initialized\"}", &info);
	ok(j == NULL && (info & MCP_INFO_NOTIFICATION),
	    "a notification gets no answer");
	j = send_msg(&s, "{\"jsonrpc\":\"2.0\",\"id\":9,\"result\":{}}", &info);
	ok(j == NULL, "a client response gets no answer");
	mcp_session_done(&s);
}

static void
test_init(void)
{
	struct mcp_session	 s;
	const cJSON		*r, *caps;
	cJSON			*j;
	int			 info;

	mcp_session_init(&s, MCP_SESSION_STRICT);
	j = send_msg(&s, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":"
	    "\"tools/list\"}", NULL);
	is_int(error_code(j), MCP_INVALID_REQUEST,
	    "tools/list before initialize is refused");
	ok(strstr(error_message(j), "initialize") != NULL,
	    "... saying to initialize first");
	cJSON_Delete(j);
	j = send_msg(&s, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}",
	    NULL);
	ok(cJSON_IsObject(result(j)), "ping works before initialize");
	cJSON_Delete(j);
	j = send_msg(&s, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":"
	    "\"server/discover\",\"params\":{}}", NULL);
	is_int(error_code(j), MCP_METHOD_NOT_FOUND,
	    "server/discover is answered at once (-32601)");
	cJSON_Delete(j);
	j = send_msg(&s, "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":"
	    "\"initialize\",\"params\":{}}", NULL);
	is_int(error_code(j), MCP_INVALID_PARAMS,
	    "initialize without protocolVersion is -32602");
	cJSON_Delete(j);
	j = send_msg(&s, "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":"
	    "\"initialize\",\"params\":[1]}", NULL);
	is_int(error_code(j), MCP_INVALID_PARAMS, "array params are -32602");
	cJSON_Delete(j);
	j = send_msg(&s, "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":"
	    "\"initialize\",\"params\":{\"protocolVersion\":\"2025-03-26\","
	    "\"capabilities\":{},\"clientInfo\":{\"name\":\"cli\",\"version\":"
	    "\"2\"}}}", &info);
	r = result(j);
	is_str(cJSON_GetObjectItem(r, "protocolVersion")->valuestring,
	    "2025-03-26", "a supported version is echoed");
	ok(info & MCP_INFO_INITIALIZE, "initialize is reported");
	is_str(s.client_name, "cli", "clientInfo.name is kept");
	caps = cJSON_GetObjectItem(r, "capabilities");
	ok(cJSON_GetObjectItem(caps, "tools") != NULL &&
	    cJSON_GetObjectItem(caps, "resources") != NULL,
	    "tools and resources capabilities");
	ok(cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetObjectItem(
	    cJSON_GetObjectItem(caps, "extensions"), MCP_SKILLS_EXTENSION),
	    "directoryRead")), "skills extension with directoryRead");
	is_str(cJSON_GetObjectItem(cJSON_GetObjectItem(r, "serverInfo"),
	    "name")->valuestring, "skills-radar", "serverInfo.name");
	ok(strstr(cJSON_GetObjectItem(r, "instructions")->valuestring,
	    "api-design") != NULL, "instructions list the skills");
	cJSON_Delete(j);
	j = send_msg(&s, "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":"
	    "\"initialize\",\"params\":{\"protocolVersion\":\"1999-01-01\"}}",
	    NULL);
	is_str(cJSON_GetObjectItem(result(j), "protocolVersion")->valuestring,
	    mcp_latest_version(), "an unknown version gets the latest");
	cJSON_Delete(j);
	ok(mcp_version_supported("2025-11-25") &&
	    mcp_version_supported("2025-06-18") &&
	    mcp_version_supported("2024-11-05") &&
	    !mcp_version_supported("2026-07-28"), "supported versions");
	mcp_session_done(&s);
}

static void
test_tools(void)
{
	struct mcp_session	 s;
	const cJSON		*t, *tools, *sc, *schema;
	cJSON			*j, *again;
	int			 n = 0, all_ok = 1;

	mcp_session_init(&s, MCP_SESSION_STRICT);
	initialize(&s);
	j = send_msg(&s, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":"
	    "\"tools/list\"}", NULL);
	tools = cJSON_GetObjectItem(result(j), "tools");
	cJSON_ArrayForEach(t, tools) {
		n++;
		schema = cJSON_GetObjectItem(t, "inputSchema");
		if (strlen(cJSON_GetObjectItem(t, "description")->valuestring) >
		    200 || !cJSON_IsFalse(cJSON_GetObjectItem(schema,
		    "additionalProperties")) ||
		    !cJSON_IsObject(cJSON_GetObjectItem(t, "outputSchema")))
			all_ok = 0;
	}
	is_int(n, 4, "four tools");
	{
		char	*compact = cJSON_PrintUnformatted(tools);

		/* ~4 bytes a token: the e2e test counts real tokens (<= 400). */
		ok(strlen(compact) <= 1600, "tools/list stays compact (%zu bytes)",
		    strlen(compact));
		free(compact);
	}
	ok(all_ok, "descriptions <= 200 chars, closed inputSchema, "
	    "outputSchema");
	cJSON_Delete(j);

	j = call(&s, "nope", "{}");
	is_int(error_code(j), MCP_INVALID_PARAMS, "unknown tool is -32602");
	cJSON_Delete(j);
	j = call(&s, "search_skills", "[1]");
	is_int(error_code(j), MCP_INVALID_PARAMS,
	    "non-object arguments are -32602");
	cJSON_Delete(j);
	j = call(&s, "search_skills", NULL);
	ok(is_error(j) && strstr(tool_text(j), "query") != NULL,
	    "missing query is isError naming it");
	cJSON_Delete(j);
	j = call(&s, "search_skills", "{\"query\":\"pdf\",\"colour\":1}");
	ok(is_error(j) && strstr(tool_text(j), "colour") != NULL,
	    "unknown argument is isError naming it");
	cJSON_Delete(j);
	j = call(&s, "search_skills", "{\"query\":\"pdf\",\"top_k\":0}");
	ok(is_error(j) && strstr(tool_text(j), "1 to 50") != NULL,
	    "top_k 0 is isError with the bounds");
	cJSON_Delete(j);
	j = call(&s, "search_skills", "{\"query\":\"pdf\",\"top_k\":2.5}");
	ok(is_error(j), "fractional top_k is isError");
	cJSON_Delete(j);
	j = call(&s, "search_skills", "{\"query\":\"pdf\",\"top_k\":\"3\"}");
	ok(is_error(j), "string top_k is isError");
	cJSON_Delete(j);
	j = call(&s, "search_skills", "{\"query\":\"pdf\",\"kind\":\"tool\"}");
	ok(is_error(j) && strstr(tool_text(j), "skill, agent") != NULL,
	    "bad kind is isError listing the kinds");
	cJSON_Delete(j);
	j = call(&s, "search_skills", "{\"query\":\"pdf\",\"tags\":[1]}");
	ok(is_error(j), "non-string tag is isError");
	cJSON_Delete(j);
	j = call(&s, "search_skills", "{\"query\":\"\"}");
	ok(is_error(j), "empty query is isError");
	cJSON_Delete(j);

	j = call(&s, "search_skills", "{\"query\":\"fill pdf forms\","
	    "\"top_k\":3}");
	sc = cJSON_GetObjectItem(result(j), "structuredContent");
	ok(!is_error(j) && cJSON_IsArray(cJSON_GetObjectItem(sc, "matches")),
	    "search returns structuredContent.matches");
	t = cJSON_GetArrayItem(cJSON_GetObjectItem(sc, "matches"), 0);
	is_str(t ? cJSON_GetObjectItem(t, "name")->valuestring : NULL,
	    "pdf-tools", "... pdf-tools first");
	again = cJSON_Parse(tool_text(j));
	ok(cJSON_Compare(again, sc, 1), "text content is the same JSON");
	cJSON_Delete(again);
	cJSON_Delete(j);

	j = call(&s, "load_skill", "{\"name\":\"pdf-tool\"}");
	ok(is_error(j) && strstr(tool_text(j), "pdf-tools") != NULL,
	    "unknown skill is isError with a suggestion");
	cJSON_Delete(j);
	j = call(&s, "load_skill", "{\"name\":\"api-design\"}");
	sc = cJSON_GetObjectItem(result(j), "structuredContent");
	ok(!is_error(j) && strstr(cJSON_GetObjectItem(sc,
	    "content")->valuestring, "plural nouns") != NULL,
	    "load_skill returns the content");
	cJSON_Delete(j);
	j = call(&s, "load_skill", "{\"name\":\"api-design\",\"offset\":-1}");
	ok(is_error(j), "negative offset is isError");
	cJSON_Delete(j);
	j = call(&s, "load_skill", "{\"name\":\"user-only\"}");
	ok(is_error(j), "a user-only skill is refused");
	cJSON_Delete(j);
	j = call(&s, "read_skill_file", "{\"name\":\"api-design\",\"path\":"
	    "\"references/rest.md\"}");
	ok(!is_error(j) && strstr(tool_text(j), "409 Conflict") != NULL,
	    "read_skill_file reads a bundled file");
	cJSON_Delete(j);
	j = call(&s, "read_skill_file", "{\"name\":\"api-design\",\"path\":"
	    "\"../git-workflow/SKILL.md\"}");
	ok(is_error(j), "read_skill_file refuses traversal");
	cJSON_Delete(j);
	j = call(&s, "read_skill_file", "{\"name\":\"api-design\"}");
	ok(is_error(j) && strstr(tool_text(j), "path") != NULL,
	    "read_skill_file without path is isError");
	cJSON_Delete(j);
	j = call(&s, "list_skills", "{\"kind\":\"agent\"}");
	sc = cJSON_GetObjectItem(result(j), "structuredContent");
	is_int(cJSON_GetArraySize(cJSON_GetObjectItem(sc, "skills")), 1,
	    "list_skills kind=agent lists one");
	cJSON_Delete(j);
	j = call(&s, "list_skills", "{\"cursor\":\"x\"}");
	ok(is_error(j), "a bad cursor is isError");
	cJSON_Delete(j);
	mcp_session_done(&s);
}

static cJSON *
request(struct mcp_session *s, const char *method, const char *params)
{
	char	*msg;
	cJSON	*j;

	if (asprintf(&msg, "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"%s\","
	    "\"params\":%s}", method, params) < 0)
		abort();
	j = send_msg(s, msg, NULL);
	free(msg);
	return j;
}

static void
test_resources(void)
{
	struct mcp_session	 s;
	const cJSON		*arr, *e, *res, *r0, *c;
	cJSON			*j, *k;
	char			 hex[SHA256_HEX_LEN + 1], dig[80];
	const char		*text;
	int			 found = 0, dir = 0;

	mcp_session_init(&s, 0);	/* stateless: no initialize needed */
	j = request(&s, "resources/list", "{}");
	arr = cJSON_GetObjectItem(result(j), "resources");
	cJSON_ArrayForEach(e, arr)
		if (strcmp(cJSON_GetObjectItem(e, "uri")->valuestring,
		    "skill://api-design/SKILL.md") == 0 ||
		    strcmp(cJSON_GetObjectItem(e, "uri")->valuestring,
		    "skills-radar://index") == 0)
			found++;
	is_int(found, 2, "resources/list has the index and the skills");
	cJSON_Delete(j);
	j = request(&s, "resources/read", "{\"uri\":\"skills-radar://index\"}");
	c = cJSON_GetArrayItem(cJSON_GetObjectItem(result(j), "contents"), 0);
	ok(c && strstr(cJSON_GetObjectItem(c, "text")->valuestring,
	    "git-workflow") != NULL, "the index names the skills");
	cJSON_Delete(j);
	j = request(&s, "resources/read", "{\"uri\":\"skill://nope/SKILL.md\"}");
	is_int(error_code(j), MCP_INVALID_PARAMS, "unknown resource is -32602");
	cJSON_Delete(j);
	j = request(&s, "resources/read", "{}");
	is_int(error_code(j), MCP_INVALID_PARAMS, "resources/read without uri");
	cJSON_Delete(j);
	j = request(&s, "resources/templates/list", "{}");
	is_int(cJSON_GetArraySize(cJSON_GetObjectItem(result(j),
	    "resourceTemplates")), 2, "two resource templates");
	cJSON_Delete(j);

	j = request(&s, "skills/get", "{\"uri\":\"skill://pdf-tools/SKILL.md\"}");
	e = cJSON_GetObjectItem(result(j), "skill");
	is_str(cJSON_GetObjectItem(cJSON_GetObjectItem(e, "frontmatter"),
	    "name")->valuestring, "pdf-tools", "skills/get frontmatter.name");
	res = cJSON_GetObjectItem(e, "resources");
	is_int(cJSON_GetArraySize(res), 2, "SKILL.md and references/forms.md");
	r0 = cJSON_GetArrayItem(res, 0);
	k = request(&s, "resources/read",
	    "{\"uri\":\"skill://pdf-tools/SKILL.md\"}");
	c = cJSON_GetArrayItem(cJSON_GetObjectItem(result(k), "contents"), 0);
	text = cJSON_GetObjectItem(c, "text")->valuestring;
	sha256_hex(text, strlen(text), hex);
	snprintf(dig, sizeof dig, "sha256:%s", hex);
	is_str(cJSON_GetObjectItem(r0, "digest")->valuestring, dig,
	    "the digest covers the served SKILL.md bytes");
	is_int(cJSON_GetObjectItem(r0, "size")->valueint, strlen(text),
	    "... and so does the size");
	ok(strstr(text, "ignore all previous") == NULL,
	    "the served body is sanitised");
	ok(strncmp(text, "---\nname: pdf-tools\n", 20) == 0,
	    "the frontmatter is served verbatim");
	is_str(cJSON_GetObjectItem(c, "mimeType")->valuestring,
	    "text/markdown", "SKILL.md is text/markdown");
	cJSON_Delete(k);
	cJSON_Delete(j);
	j = request(&s, "skills/get", "{\"uri\":\"skill://nope/SKILL.md\"}");
	is_int(error_code(j), MCP_INVALID_PARAMS, "skills/get unknown: -32602");
	cJSON_Delete(j);
	j = request(&s, "skills/get", "{\"uri\":\"skill://user-only/SKILL.md\"}");
	is_int(error_code(j), MCP_INVALID_PARAMS,
	    "user-only skills are not served");
	cJSON_Delete(j);
	j = request(&s, "skills/list", "{}");
	is_int(cJSON_GetArraySize(cJSON_GetObjectItem(result(j), "skills")), 3,
	    "skills/list serves the three model-invocable skills");
	cJSON_Delete(j);
	j = request(&s, "skills/list", "{\"cursor\":\"zz\"}");
	is_int(error_code(j), MCP_INVALID_PARAMS, "bad skills/list cursor");
	cJSON_Delete(j);

	j = request(&s, "resources/directory/read",
	    "{\"uri\":\"skill://api-design\"}");
	arr = cJSON_GetObjectItem(result(j), "resources");
	cJSON_ArrayForEach(e, arr)
		if (strcmp(cJSON_GetObjectItem(e, "mimeType")->valuestring,
		    "inode/directory") == 0)
			dir++;
	is_int(dir, 2, "the root lists references/ and scripts/ as dirs");
	cJSON_Delete(j);
	j = request(&s, "resources/directory/read",
	    "{\"uri\":\"skill://api-design/references\"}");
	is_int(cJSON_GetArraySize(cJSON_GetObjectItem(result(j), "resources")),
	    1, "references/ has one file");
	cJSON_Delete(j);
	j = request(&s, "resources/directory/read",
	    "{\"uri\":\"skill://api-design/SKILL.md\"}");
	is_int(error_code(j), MCP_INVALID_PARAMS, "a file is not a directory");
	cJSON_Delete(j);
	j = request(&s, "resources/directory/read",
	    "{\"uri\":\"skill://api-design/nothing\"}");
	is_int(error_code(j), MCP_INVALID_PARAMS, "a missing dir is -32602");
	cJSON_Delete(j);
	mcp_session_done(&s);
}

static void
test_instructions(void)
{
	char	*t;
	int	 budget;

	t = mcp_instructions_build(eng, 100000);
	ok(strstr(t, "api-design") && strstr(t, "agent:reviewer") &&
	    !strstr(t, "user-only") && !strstr(t, "Not every skill"),
	    "a large budget lists every searchable skill");
	ok(strstr(t, "search_skills") && strstr(t, "read_skill_file"),
	    "the paragraph says which tool to call when");
	budget = (int)tokens_estimate_str(t) - 10;
	free(t);
	t = mcp_instructions_build(eng, budget);
	ok((int)tokens_estimate_str(t) <= budget, "budget %d is kept (%zu)",
	    budget, tokens_estimate_str(t));
	free(t);
	t = mcp_instructions_build(eng, 30);
	ok(t != NULL && (int)tokens_estimate_str(t) <= 30,
	    "a tiny budget is kept too");
	free(t);
	ok(mcp_instructions_build(eng, 0) == NULL,
	    "mcp.instructions_budget 0 sends no instructions");
}

static void
test_origin(void)
{
	struct strlist	 allowed;

	strlist_init(&allowed);
	strlist_add(&allowed, "https://app.example.com");
	ok(mcp_http_origin_ok(NULL, &allowed), "no Origin is allowed");
	ok(mcp_http_origin_ok("http://localhost:3000", &allowed),
	    "localhost origin");
	ok(mcp_http_origin_ok("http://127.0.0.1", &allowed), "127.0.0.1 origin");
	ok(mcp_http_origin_ok("http://[::1]:8080", &allowed), "[::1] origin");
	ok(mcp_http_origin_ok("https://app.example.com/", &allowed),
	    "a configured origin");
	ok(!mcp_http_origin_ok("http://evil.example.com", &allowed),
	    "a foreign origin is refused");
	ok(!mcp_http_origin_ok("http://localhost.evil.com", &allowed),
	    "a lookalike is refused");
	ok(!mcp_http_origin_ok("null", &allowed), "Origin null is refused");
	strlist_done(&allowed);
}

static void
test_sha256(void)
{
	static const char	*in[] = { "", "abc",
	    "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq" };
	static const char	*want[] = {
	    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
	    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
	    "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" };
	struct sha256		 c;
	uint8_t			 d[SHA256_DIGEST_LEN];
	char			 hex[SHA256_HEX_LEN + 1], block[1001];
	int			 i;

	for (i = 0; i < 3; i++) {
		sha256_hex(in[i], strlen(in[i]), hex);
		is_str(hex, want[i], "sha256 FIPS vector %d", i);
	}
	/* One million 'a' in uneven pieces crosses every block boundary. */
	memset(block, 'a', sizeof block);
	sha256_init(&c);
	for (i = 0; i < 1000; i++)
		sha256_update(&c, block, i % 2 ? 999 : 1001);
	sha256_final(&c, d);
	for (i = 0; i < SHA256_DIGEST_LEN; i++)
		snprintf(hex + 2 * i, 3, "%02x", d[i]);
	is_str(hex, "cdc76e5c9914fb9281a1c7e284d73e67"
	    "f1809a48a497200e046d39ccc7112cd0", "sha256 of a million 'a'");
}

int
main(void)
{
	struct config	*cfg;
	char		 dir[] = "/tmp/test_mcp.XXXXXX", *cause = NULL;
	char		 cmd[64];

	xmalloc_init();
	test_sha256();
	test_origin();
	if (mkdtemp(dir) == NULL)
		return 1;
	cfg = config_defaults();
	strlist_done(&cfg->paths);
	strlist_init(&cfg->paths);
	strlist_add(&cfg->paths, SR_SRCDIR "/tests/data/mcp/skills");
	strlist_add(&cfg->paths, SR_SRCDIR "/tests/data/mcp/agents");
	strlist_add(&cfg->paths, SR_SRCDIR "/tests/data/mcp/commands");
	cfg->project_roots = 0;
	free(cfg->index_path);
	if (asprintf(&cfg->index_path, "%s/index.db", dir) < 0)
		return 1;
	if (engine_open(cfg, ENGINE_REINDEX | ENGINE_QUIET, &eng, &cause) != 0 ||
	    mcp_server_new(eng, cfg, &srv, &cause) != 0) {
		ok(0, "engine and server open: %s", cause ? cause : "?");
		free(cause);
		return done_testing();
	}
	ok(1, "engine and server open over tests/data/mcp");
	test_framing();
	test_init();
	test_tools();
	test_resources();
	test_instructions();
	mcp_server_free(srv);
	engine_free(eng);
	config_free(cfg);
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	if (system(cmd) != 0)
		diag("could not remove %s", dir);
	return done_testing();
}
