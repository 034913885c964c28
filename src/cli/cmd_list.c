/*
 * list: the indexed entries, filtered by kind, tier and tag.
 */
#include "autoconfig.h"

#include <sys/ioctl.h>

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cmd.h"
#include "core/config.h"
#include "engine/engine.h"
#include "core/files.h"
#include "core/skill.h"
#include "base/text.h"
#include "base/status.h"


static void
print_table(cJSON *arr, int width)
{
	cJSON		*it;
	const char	*name, *kind, *trust, *desc, *sh, *signer;
	char		*ename, *esh;
	int		 n = 0, left, k;

	cJSON_ArrayForEach(it, arr) {
		/* The name as written, when it is not the id. */
		if ((name = cJSON_GetStringValue(cJSON_GetObjectItem(it,
		    "display_name"))) == NULL)
			name = cJSON_GetStringValue(cJSON_GetObjectItem(it,
			    "name"));
		kind = cJSON_GetStringValue(cJSON_GetObjectItem(it, "kind"));
		trust = cJSON_GetStringValue(cJSON_GetObjectItem(it, "trust"));
		desc = cJSON_GetStringValue(cJSON_GetObjectItem(it,
		    "description"));
		sh = cJSON_GetStringValue(cJSON_GetObjectItem(it, "shadowed_by"));
		/* Names and paths are the author's: escaped (text.h). */
		ename = text_escape_controls(name);
		printf("%-32s %-7s %-9s ", ename, kind, trust);
		free(ename);
		left = width - 52;
		if (cJSON_IsTrue(cJSON_GetObjectItem(it, "user_only"))) {
			printf("[user-only] ");
			left -= 12;
		}
		if ((k = cmd_print_risk(it)) > 0)
			left -= k;
		else if (cJSON_GetNumberValue(cJSON_GetObjectItem(it,
		    "flags")) > 0) {
			printf("[flagged] ");
			left -= 10;
		}
		if ((signer = cJSON_GetStringValue(cJSON_GetObjectItem(it,
		    "signer"))) != NULL) {
			printf("[signed: ");
			text_fputs_safe(signer, stdout);
			printf("] ");
			left -= 11 + (int)strlen(signer);
		}
		if (sh != NULL) {
			esh = text_escape_controls(sh);
			printf("[shadowed by %s]", esh);
			free(esh);
			left = 0;
		}
		cmd_print_cut(desc != NULL ? desc : "", left);
		printf("\n");
		n++;
	}
	fprintf(stderr, "%d entr%s\n", n, n == 1 ? "y" : "ies");
}

static int
cmd_list(struct cmd_ctx *ctx, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "kind", required_argument, NULL, 'k' },
		{ "tier", required_argument, NULL, 't' },
		{ "tag", required_argument, NULL, 'g' },
		{ "flagged", no_argument, NULL, 'f' },
		{ "all", no_argument, NULL, 'a' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct list_filter	 lf = { -1, -1, NULL, 0, 0 };
	struct engine		*e;
	cJSON			*arr;
	char			*cause = NULL;
	int			 ch, stop, json = 0, rv;

	while ((ch = cmd_getopt("list", argc, argv, "k:t:g:faj", longopts,
	    &stop)) != -1) {
		switch (ch) {
		case 'k':
			if ((lf.kind = kind_from_name(optarg)) == -1)
				return cmd_usage("list", "--kind: '%s' is not "
				    "one of skill, agent, command", optarg);
			break;
		case 't':
			if ((lf.tier = tier_from_name(optarg)) == -1)
				return cmd_usage("list", "--tier: '%s' is not "
				    "one of trusted, verified, user, untrusted",
				    optarg);
			break;
		case 'g':
			lf.tag = optarg;
			break;
		case 'f':
			lf.flagged = 1;
			break;
		case 'a':
			lf.all = 1;
			break;
		case 'j':
			json = 1;
			break;
		}
	}
	if (stop != -1 || (stop = cmd_no_args("list", argc, argv)) != 0)
		return stop;
	/* It prints the entries, not their stored findings: lean. */
	if ((rv = cmd_engine_open(ctx, ENGINE_LEAN |
	    (json ? ENGINE_QUIET : 0), &e)) != 0)
		return rv;
	if ((rv = engine_list(e, &lf, &arr, &cause)) != 0) {
		engine_free(e);
		return cmd_fail(rv, cause);
	}
	if (json)
		rv = cmd_print_json(arr);
	else {
		print_table(arr, cmd_term_width());
		cJSON_Delete(arr);
	}
	engine_free(e);
	return rv;
}

const struct cmd_entry cmd_list_entry = {
	"list", cmd_list, CMD_NEEDS_CONFIG,
	"[--kind K] [--tier T] [--tag T] [--flagged] [--all] [--json]",
	"list indexed skills"
};
