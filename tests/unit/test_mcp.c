/*
 * The MCP dispatcher without a transport: JSON-RPC framing errors, the
 * before-initialize rule, version negotiation, the tool surface and its
 * argument validation, resources and the SEP-2640 methods, the
 * instructions budget, the Origin check and SHA-256 vectors. The engine
 * runs over tests/data/mcp with an index in a temporary directory. The
 * request/answer cases are data in tests/data/mcp/cases (its README.md
 * gives the format), sent by run_cases(); what needs a loop or a
 * computation stays in C.
 */
#include "autoconfig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "core/config.h"
#include "engine/engine.h"
#include "mcp/mcp.h"
#include "tier1/tokens.h"
#include "mcp/mcp_http.h"
#include "base/sha256.h"
#include "base/strlist.h"
#include "tap.h"
#include "testdata.h"
#include "base/xmalloc.h"

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

/*
 * Returns the node at an RFC 6901 JSON pointer below root ("" is root
 * itself; array elements by number), or NULL when there is none.
 */
static const cJSON *
pointer_get(const cJSON *root, const char *ptr)
{
	char	 key[128];
	size_t	 n;

	while (root != NULL && *ptr == '/') {
		for (n = 0, ptr++; *ptr != '\0' && *ptr != '/' &&
		    n + 1 < sizeof key; ptr++) {
			if (ptr[0] == '~' && (ptr[1] == '0' || ptr[1] == '1'))
				key[n++] = *++ptr == '0' ? '~' : '/';
			else
				key[n++] = *ptr;
		}
		key[n] = '\0';
		if (cJSON_IsArray(root))
			root = cJSON_GetArrayItem(root, atoi(key));
		else
			root = cJSON_GetObjectItem(root, key);
	}
	return *ptr == '\0' ? root : NULL;
}

/* Returns whether node is a string holding arg, or a list with arg in it. */
static int
holds(const cJSON *node, const char *arg)
{
	const cJSON	*e;

	if (cJSON_IsString(node))
		return strstr(node->valuestring, arg) != NULL;
	if (!cJSON_IsArray(node))
		return 0;
	cJSON_ArrayForEach(e, node)
		if (cJSON_IsString(e) && strcmp(e->valuestring, arg) == 0)
			return 1;
	return 0;
}

/*
 * Returns whether one check of a case file holds (the operators are in
 * tests/data/mcp/cases/README.md): c is [subject, op] or [subject, op,
 * arg], the subject a pointer into reply or, after '@', into facts.
 */
static int
check_holds(const cJSON *c, const cJSON *reply, const cJSON *facts)
{
	const char	*subj, *op;
	const cJSON	*node, *arg = cJSON_GetArrayItem(c, 2);
	cJSON		*parsed;
	int		 rv;

	subj = cJSON_GetStringValue(cJSON_GetArrayItem(c, 0));
	op = cJSON_GetStringValue(cJSON_GetArrayItem(c, 1));
	if (subj == NULL || op == NULL)
		return 0;
	node = *subj == '@' ? pointer_get(facts, subj + 1) :
	    pointer_get(reply, subj);
	if (strcmp(op, "==") == 0 || strcmp(op, "!=") == 0)
		return (node != NULL && cJSON_Compare(node, arg, 1)) ==
		    (*op == '=');
	if (strcmp(op, "has") == 0 || strcmp(op, "lacks") == 0)
		return cJSON_IsString(arg) && (cJSON_IsString(node) ||
		    cJSON_IsArray(node)) &&
		    holds(node, arg->valuestring) == (*op == 'h');
	if (strcmp(op, "starts") == 0)
		return cJSON_IsString(node) && cJSON_IsString(arg) &&
		    strncmp(node->valuestring, arg->valuestring,
		    strlen(arg->valuestring)) == 0;
	if (strcmp(op, "size") == 0)
		return cJSON_IsArray(node) && cJSON_IsNumber(arg) &&
		    cJSON_GetArraySize(node) == arg->valueint;
	if (strcmp(op, "object") == 0)
		return cJSON_IsObject(node);
	if (strcmp(op, "array") == 0)
		return cJSON_IsArray(node);
	if (strcmp(op, "exists") == 0 || strcmp(op, "missing") == 0)
		return (node != NULL) == (*op == 'e');
	if (strcmp(op, "json") == 0 && cJSON_IsString(node) &&
	    cJSON_IsString(arg)) {
		parsed = cJSON_Parse(node->valuestring);
		rv = cJSON_Compare(parsed, pointer_get(reply, arg->valuestring),
		    1);
		cJSON_Delete(parsed);
		return rv;
	}
	return 0;
}

/*
 * Returns what the session learned from the last message as JSON, for
 * the "@" checks: the MCP_INFO_* bits by name, initialized, client_name.
 * The caller deletes it.
 */
static cJSON *
session_facts(const struct mcp_session *s, int info)
{
	static const struct {
		int		 bit;
		const char	*name;
	} bits[] = {
		{ MCP_INFO_REQUEST, "request" },
		{ MCP_INFO_INITIALIZE, "initialize" },
		{ MCP_INFO_NOTIFICATION, "notification" },
		{ MCP_INFO_INVALID, "invalid" },
	};
	cJSON	*facts = cJSON_CreateObject(), *names;
	size_t	 i;

	names = cJSON_AddArrayToObject(facts, "info");
	for (i = 0; i < sizeof bits / sizeof bits[0]; i++)
		if (info & bits[i].bit)
			cJSON_AddItemToArray(names,
			    cJSON_CreateString(bits[i].name));
	cJSON_AddBoolToObject(facts, "initialized", s->initialized);
	if (s->client_name != NULL)
		cJSON_AddStringToObject(facts, "client_name", s->client_name);
	return facts;
}

/*
 * Returns the text of the message a step sends (see the README next to
 * the case files): "send" as is or printed, or a tools/call or a request
 * built from "tool" or "method". The caller frees it; NULL if malformed.
 */
static char *
step_message(const cJSON *step)
{
	const cJSON	*send = cJSON_GetObjectItem(step, "send");
	const cJSON	*tool = cJSON_GetObjectItem(step, "tool");
	const cJSON	*method = cJSON_GetObjectItem(step, "method");
	cJSON		*msg, *params;
	char		*text;

	if (cJSON_IsString(send))
		return strdup(send->valuestring);
	if (send != NULL)
		return cJSON_PrintUnformatted(send);
	msg = cJSON_CreateObject();
	cJSON_AddStringToObject(msg, "jsonrpc", "2.0");
	if (cJSON_IsString(tool)) {
		cJSON_AddNumberToObject(msg, "id", 7);
		cJSON_AddStringToObject(msg, "method", "tools/call");
		params = cJSON_AddObjectToObject(msg, "params");
		cJSON_AddStringToObject(params, "name", tool->valuestring);
		if (cJSON_GetObjectItem(step, "arguments") != NULL)
			cJSON_AddItemToObject(params, "arguments",
			    cJSON_Duplicate(cJSON_GetObjectItem(step,
			    "arguments"), 1));
	} else if (cJSON_IsString(method)) {
		cJSON_AddNumberToObject(msg, "id", 8);
		cJSON_AddStringToObject(msg, "method", method->valuestring);
		cJSON_AddItemToObject(msg, "params", cJSON_Duplicate(
		    cJSON_GetObjectItem(step, "params"), 1));
	} else {
		cJSON_Delete(msg);
		return NULL;
	}
	text = cJSON_PrintUnformatted(msg);
	cJSON_Delete(msg);
	return text;
}

/* Prints one TAP line for an expectation of a step, given the reply. */
static void
expect_one(const cJSON *e, const cJSON *reply, const cJSON *facts)
{
	const cJSON	*c;
	const char	*label;
	char		*text;
	int		 good = cJSON_GetArraySize(cJSON_GetObjectItem(e,
			    "check")) > 0;

	label = cJSON_GetStringValue(cJSON_GetObjectItem(e, "ok"));
	cJSON_ArrayForEach(c, cJSON_GetObjectItem(e, "check"))
		if (!check_holds(c, reply, facts)) {
			text = cJSON_PrintUnformatted(c);
			diag("does not hold: %s", text);
			free(text);
			good = 0;
		}
	if (!good) {
		text = reply ? cJSON_PrintUnformatted(reply) : NULL;
		diag("reply: %.300s", text ? text : "(none)");
		free(text);
	}
	ok(good, "%s", label ? label : "(an expectation without \"ok\")");
}

/*
 * Sends every step of tests/data/mcp/cases/name through s, in order,
 * printing one TAP line for each expectation. This is the one loop the
 * request/answer cases share, so that they are data, not C.
 */
static void
run_cases(struct mcp_session *s, const char *name)
{
	const cJSON	*step, *e;
	cJSON		*cases, *reply, *facts;
	char		*rel, *buf, *msg;
	int		 info;

	if (asprintf(&rel, "mcp/cases/%s", name) < 0)
		abort();
	buf = testdata_read(rel);
	cases = buf ? cJSON_Parse(buf) : NULL;
	if (!cJSON_IsArray(cJSON_GetObjectItem(cases, "steps")))
		ok(0, "tests/data/%s has a list of steps", rel);
	cJSON_ArrayForEach(step, cJSON_GetObjectItem(cases, "steps")) {
		if ((msg = step_message(step)) == NULL) {
			ok(0, "a step of %s says what to send", rel);
			continue;
		}
		info = 0;
		reply = send_msg(s, msg, &info);
		facts = session_facts(s, info);
		cJSON_ArrayForEach(e, cJSON_GetObjectItem(step, "expect"))
			expect_one(e, reply, facts);
		cJSON_Delete(facts);
		cJSON_Delete(reply);
		free(msg);
	}
	cJSON_Delete(cases);
	free(buf);
	free(rel);
}

static void
test_framing(void)
{
	struct mcp_session	 s;

	mcp_session_init(&s, MCP_SESSION_STRICT);
	run_cases(&s, "framing.json");
	mcp_session_done(&s);
}

/* Ids come back as sent, and an offset past INT_MAX is refused as such. */
static void
test_ids(void)
{
	static const char *ids[] = { "9007199254740991",
	    "-12345678901234567890123", "7.50", "1E3" };
	struct mcp_session	 s;
	char			 msg[256], want[64], *out;
	size_t			 i;

	mcp_session_init(&s, MCP_SESSION_STRICT);
	initialize(&s);
	for (i = 0; i < sizeof ids / sizeof *ids; i++) {
		snprintf(msg, sizeof msg, "{\"id\" : %s ,\"jsonrpc\":\"2.0\","
		    "\"method\":\"ping\"}", ids[i]);
		snprintf(want, sizeof want, "\"id\":%s,", ids[i]);
		out = mcp_handle(srv, &s, msg, strlen(msg), NULL);
		ok(out != NULL && strstr(out, want) != NULL, "id %s echoed "
		    "as received", ids[i]);
		if (out != NULL && strstr(out, want) == NULL)
			diag("got %s", out);
		free(out);
	}
	snprintf(msg, sizeof msg, "[{\"jsonrpc\":\"2.0\",\"id\":{\"id\":1},"
	    "\"method\":\"ping\"},{\"method\":\"ping\",\"jsonrpc\":\"2.0\","
	    "\"id\":9007199254740993}]");
	out = mcp_handle(srv, &s, msg, strlen(msg), NULL);
	ok(out != NULL && strstr(out, "\"id\":9007199254740993,") != NULL,
	    "a batch member's id is echoed as received");
	free(out);
	snprintf(msg, sizeof msg, "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":"
	    "\"tools/call\",\"params\":{\"name\":\"load_skill\",\"arguments\":"
	    "{\"name\":\"x\",\"offset\":4294967296}}}");
	out = mcp_handle(srv, &s, msg, strlen(msg), NULL);
	if (!ok(out != NULL && strstr(out, "at least") == NULL &&
	    strstr(out, "2147483647") != NULL, "offset 4294967296: refused "
	    "with its range, not \"must be at least 0\"") && out != NULL)
		diag("got %s", out);
	free(out);
	mcp_session_done(&s);
}

static void
test_init(void)
{
	struct mcp_session	 s;
	cJSON			*j;

	mcp_session_init(&s, MCP_SESSION_STRICT);
	run_cases(&s, "init.json");
	j = send_msg(&s, "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":"
	    "\"initialize\",\"params\":{\"protocolVersion\":\"1999-01-01\"}}",
	    NULL);
	is_str(cJSON_GetStringValue(cJSON_GetObjectItem(result(j),
	    "protocolVersion")), mcp_latest_version(),
	    "an unknown version gets the latest");
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
	const cJSON		*t, *tools, *schema;
	cJSON			*j;
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

	run_cases(&s, "tools.json");
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
	const cJSON		*arr, *e, *r0, *c;
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
	run_cases(&s, "resources.json");

	j = request(&s, "skills/get", "{\"uri\":\"skill://pdf-tools/SKILL.md\"}");
	e = cJSON_GetObjectItem(result(j), "skill");
	r0 = cJSON_GetArrayItem(cJSON_GetObjectItem(e, "resources"), 0);
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
	cJSON_Delete(k);
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
	ok(mcp_http_origin_ok("http://LOCALHOST:3000/", &allowed),
	    "localhost in capitals, a trailing slash");
	ok(!mcp_http_origin_ok("http://evil.example.com@localhost", &allowed),
	    "an origin with userinfo is refused");
	ok(!mcp_http_origin_ok("http://localhost?x", &allowed),
	    "an origin with a query is refused");
	ok(!mcp_http_origin_ok("http://localhost/app", &allowed),
	    "an origin with a path is refused");
	ok(!mcp_http_origin_ok("http://localhost:99999", &allowed),
	    "an origin whose port libcurl refuses is refused");
	ok(!mcp_http_origin_ok("http://[::1", &allowed),
	    "an unclosed IPv6 origin is refused");
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
	test_ids();
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
