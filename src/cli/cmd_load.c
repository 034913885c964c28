/*
 * load, read: a skill's sanitised instructions, or one of its bundled
 * files, as an agent would receive them.
 */
#include "autoconfig.h"

#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd.h"
#include "core/config.h"
#include "engine/engine.h"
#include "base/status.h"
#include "telemetry/telemetry.h"
#include "base/xmalloc.h"

/* Each finding as "FILE:LINE" (a bundled file) or "line N", then the risk. */
/*
 * The engine's not-found advice names the MCP tool an agent would call;
 * on the command line the same step is the search command.
 */
static int
fail_cli(int rv, char *cause)
{
	static const char	 mcp[] = "use search_skills to find skills by "
	    "intent";
	char			*at, *cli;

	if (cause != NULL && (at = strstr(cause, mcp)) != NULL) {
		xasprintf(&cli, "%.*srun 'skills-radar search QUERY' to find "
		    "skills by intent%s", (int)(at - cause), cause,
		    at + sizeof mcp - 1);
		free(cause);
		cause = cli;
	}
	return cmd_fail(rv, cause);
}

static void
print_warnings(cJSON *o)
{
	cJSON		*w, *r;
	const char	*file, *sev;

	cJSON_ArrayForEach(w, cJSON_GetObjectItem(o, "warnings")) {
		file = cJSON_GetStringValue(cJSON_GetObjectItem(w, "file"));
		fprintf(stderr, "skills-radar: warning: %s%s%d: %s (%s): %s\n",
		    file != NULL ? file : "line ", file != NULL ? ":" : "",
		    (int)cJSON_GetNumberValue(cJSON_GetObjectItem(w, "line")),
		    cJSON_GetStringValue(cJSON_GetObjectItem(w, "id")),
		    cJSON_GetStringValue(cJSON_GetObjectItem(w, "severity")),
		    cJSON_GetStringValue(cJSON_GetObjectItem(w, "excerpt")));
	}
	r = cJSON_GetObjectItem(o, "risk");
	sev = cJSON_GetStringValue(cJSON_GetObjectItem(r, "severity"));
	if (sev != NULL && strcmp(sev, "info") != 0)
		fprintf(stderr, "skills-radar: risk: %s %.1f\n", sev,
		    cJSON_GetNumberValue(cJSON_GetObjectItem(r, "score")));
}

static void
print_content(cJSON *o)
{
	const char	*content;
	size_t		 n;

	content = cJSON_GetStringValue(cJSON_GetObjectItem(o, "content"));
	if (content == NULL)
		return;
	n = strlen(content);
	fputs(content, stdout);
	if (n > 0 && content[n - 1] != '\n')
		fputc('\n', stdout);
}

static int
cmd_load(struct cmd_ctx *ctx, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "offset", required_argument, NULL, 'o' },
		{ "max-bytes", required_argument, NULL, 'm' },
		{ "allow-untrusted", no_argument, NULL, 'u' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct engine_load_req		 req;
	struct telemetry_load_event	 ev;
	struct engine			*e;
	cJSON				*o, *next;
	char				*cause = NULL;
	long				 offset = 0, max = 0;
	int				 ch, stop, json = 0, allow = 0, rv;

	while ((ch = cmd_getopt("load", argc, argv, "o:m:uj", longopts,
	    &stop)) != -1) {
		switch (ch) {
		case 'o':
			if (cmd_parse_long(optarg, 0, LONG_MAX, &offset) == -1)
				return cmd_usage("load", "--offset: '%s' is not "
				    "a byte offset (0 or more)", optarg);
			break;
		case 'm':
			if (cmd_parse_long(optarg, 1, 64L << 20, &max) == -1)
				return cmd_usage("load", "--max-bytes: '%s' is "
				    "not a number of bytes from 1 to 67108864",
				    optarg);
			break;
		case 'u':
			allow = 1;
			break;
		case 'j':
			json = 1;
			break;
		}
	}
	if (stop != -1)
		return stop;
	if (argc - optind != 1)
		return cmd_usage("load", argc - optind == 0 ?
		    "missing skill NAME" : "expected one NAME");
	if ((rv = cmd_engine_open(ctx, ENGINE_QUIET, &e)) != 0)
		return rv;
	memset(&req, 0, sizeof req);
	req.name = argv[optind];
	req.offset = (size_t)offset;
	req.max_bytes = (size_t)max;
	req.allow_untrusted = allow;
	rv = engine_load(e, &req, &o, &ev, &cause);
	/*
	 * The caller records the event (DESIGN §2). Every run is a process
	 * of its own: the user's CLI session links a load to a search.
	 */
	ev.session = cmd_cli_session();
	telemetry_load(engine_telemetry(e), &ev);
	engine_free(e);
	if (rv != 0)
		return fail_cli(rv, cause);
	if (json)
		return cmd_print_json(o);
	print_content(o);
	print_warnings(o);
	next = cJSON_GetObjectItem(o, "next_offset");
	if (cJSON_IsNumber(next))
		fprintf(stderr, "skills-radar: truncated: continue with "
		    "--offset %.0f\n", cJSON_GetNumberValue(next));
	cJSON_Delete(o);
	return SR_OK;
}

static int
cmd_read(struct cmd_ctx *ctx, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct engine	*e;
	cJSON		*o;
	char		*cause = NULL;
	int		 ch, stop, json = 0, rv;

	while ((ch = cmd_getopt("read", argc, argv, "j", longopts,
	    &stop)) != -1) {
		switch (ch) {
		case 'j':
			json = 1;
			break;
		}
	}
	if (stop != -1)
		return stop;
	if (argc - optind != 2)
		return cmd_usage("read", "expected NAME and PATH");
	if ((rv = cmd_engine_open(ctx, ENGINE_QUIET, &e)) != 0)
		return rv;
	rv = engine_read(e, argv[optind], argv[optind + 1], &o, &cause);
	engine_free(e);
	if (rv != 0)
		return fail_cli(rv, cause);
	if (json)
		return cmd_print_json(o);
	print_content(o);
	print_warnings(o);
	cJSON_Delete(o);
	return SR_OK;
}

const struct cmd_entry cmd_load_entry = {
	"load", cmd_load, CMD_NEEDS_CONFIG,
	"[--offset N] [--max-bytes N] [--allow-untrusted] [--json] NAME",
	"print a skill's sanitised instructions"
};

const struct cmd_entry cmd_read_entry = {
	"read", cmd_read, CMD_NEEDS_CONFIG,
	"[--json] NAME PATH",
	"print one bundled file of a skill"
};
