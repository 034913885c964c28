/*
 * libFuzzer target for the MCP request path: arbitrary bytes go to
 * mcp_handle() as one stdio message would, on a server over the bundled
 * example skills (indexed once into a temporary directory), so parsing,
 * dispatch, argument validation and every tool run. Invariants: the
 * server never crashes or leaks (ASan), and every answer is one valid JSON
 * text in valid UTF-8. Each input is tried in a fresh session and in one
 * that has been initialized. Build with -fsanitize=fuzzer,address,undefined
 * (make fuzz); the examples come from $SKILLS_RADAR_DATADIR or the
 * source tree.
 */
#include "autoconfig.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "core/config.h"
#include "engine/engine.h"
#include "mcp/mcp.h"
#include "base/strlist.h"
#include "base/text.h"
#include "base/xmalloc.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static struct config		*cfg;
static struct engine		*eng;
static struct mcp_server	*srv;

static const char init_msg[] =
    "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":"
    "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
    "\"clientInfo\":{\"name\":\"fuzz\",\"version\":\"1\"}}}";

static void
die(const char *what, char *cause)
{
	fprintf(stderr, "fuzz_mcp: %s: %s\n", what, cause ? cause : "failed");
	abort();
}

static void
setup(void)
{
	char	 dir[] = "/tmp/sr-fuzz-mcp.XXXXXX", *data, *p, *cause = NULL;
	size_t	 i;
	static const char *const kinds[] = { "skills", "agents", "commands" };

	xmalloc_init();
	if (mkdtemp(dir) == NULL)
		die("mkdtemp", NULL);
	if ((data = config_pkgdata_dir()) == NULL)
		data = xstrdup(SR_SRCDIR "/config");
	cfg = config_defaults();
	free(cfg->index_path);
	xasprintf(&cfg->index_path, "%s/index.db", dir);
	cfg->telemetry_enabled = 0;
	cfg->project_roots = 0;
	strlist_done(&cfg->paths);
	strlist_init(&cfg->paths);
	for (i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
		xasprintf(&p, "%s/examples/%s", data, kinds[i]);
		strlist_add_take(&cfg->paths, p);
	}
	free(data);
	if (engine_open(cfg, ENGINE_REINDEX | ENGINE_QUIET, &eng, &cause) != 0)
		die("engine_open", cause);
	if (mcp_server_new(eng, cfg, &srv, &cause) != 0)
		die("mcp_server_new", cause);
}

/* Aborts unless out is one JSON text in valid UTF-8 (or no answer). */
static void
check(char *out)
{
	cJSON	*o;
	size_t	 n;

	if (out == NULL)
		return;
	n = strlen(out);
	if (text_utf8_valid(out, n) != n)
		abort();
	if ((o = cJSON_ParseWithLength(out, n)) == NULL)
		abort();
	cJSON_Delete(o);
	free(out);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mcp_session	 sess;
	int			 info;

	if (srv == NULL)
		setup();
	mcp_session_init(&sess, MCP_SESSION_STRICT);
	check(mcp_handle(srv, &sess, (const char *)data, size, &info));
	check(mcp_handle(srv, &sess, init_msg, sizeof init_msg - 1, &info));
	check(mcp_handle(srv, &sess, (const char *)data, size, &info));
	mcp_session_done(&sess);
	return 0;
}
