/*
 * mini-index: writes the Tier-1 skill index (mini_index.path, default
 * ~/.claude/SKILLS-INDEX.md) inside its token budget, checks it for
 * staleness, and installs or removes its import line in ~/.claude/CLAUDE.md.
 */
#include "autoconfig.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd.h"
#include "core/config.h"
#include "engine/engine.h"
#include "tier1/miniindex.h"
#include "tier1/miniindex_install.h"
#include "base/status.h"
#include "base/xmalloc.h"

static void
report(const char *verb, const char *path, const struct miniindex_info *in,
    size_t budget)
{
	printf("%s %s: %zu skill%s, %zu named, %zu with a gist", verb, path,
	    in->skills, in->skills == 1 ? "" : "s", in->named, in->with_gist);
	if (in->level == MINIINDEX_SHORT)
		printf(" (keywords, <= %zu words each)", in->gist_words);
	printf(", %zu group%s, ~%zu tokens", in->groups,
	    in->groups == 1 ? "" : "s", in->tokens);
	if (budget > 0)
		printf(" of %zu", budget);
	printf(" (%s)\n", miniindex_level_name(in->level));
}

static int
cmd_mini_index(struct cmd_ctx *ctx, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "budget", required_argument, NULL, 'b' },
		{ "group-by", required_argument, NULL, 'g' },
		{ "check", no_argument, NULL, 'c' },
		{ "install", no_argument, NULL, 'i' },
		{ "uninstall", no_argument, NULL, 'u' },
		{ "stdout", no_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const struct config	*cfg = ctx->cfg;
	struct miniindex_opts	 o;
	struct miniindex_info	 in;
	struct engine		*eng = NULL;
	char			*cause = NULL, *text = NULL, *path = NULL;
	char			*claude = NULL;
	long			 v;
	int			 ch, stop, check = 0, install = 0, uninstall = 0;
	int			 to_stdout = 0, g, rv = SR_OK, changed, stale;

	miniindex_opts_from_config(&o, cfg);
	optind = 0;
	while ((ch = cmd_getopt("mini-index", argc, argv, "o:b:g:", longopts,
	    &stop)) != -1) {
		switch (ch) {
		case 'o':
			free(path);
			path = config_expand_tilde(optarg);
			break;
		case 'b':
			if (cmd_parse_long(optarg, 50, 100000, &v) == -1) {
				free(path);
				return cmd_usage("mini-index", "--budget: "
				    "'%s' is not a number of tokens from 50 to "
				    "100000", optarg);
			}
			o.budget = (size_t)v;
			break;
		case 'g':
			if ((g = miniindex_group_from_name(optarg)) < 0) {
				free(path);
				return cmd_usage("mini-index", "--group-by: "
				    "'%s' is not tags, scope or auto", optarg);
			}
			o.group_by = (enum miniindex_group)g;
			break;
		case 'c':
			check = 1;
			break;
		case 'i':
			install = 1;
			break;
		case 'u':
			uninstall = 1;
			break;
		case 's':
			to_stdout = 1;
			break;
		}
	}
	if (stop != -1 || (stop = cmd_no_args("mini-index", argc, argv)) != 0) {
		free(path);
		return stop;
	}
	if (install + uninstall + check + to_stdout > 1) {
		free(path);
		return cmd_usage("mini-index", "--check, --install, "
		    "--uninstall and --stdout exclude each other");
	}
	if (path == NULL)
		path = xstrdup(cfg->mini_path != NULL ? cfg->mini_path :
		    "SKILLS-INDEX.md");

	if (uninstall) {
		claude = miniindex_claude_md_path();
		if ((rv = miniindex_uninstall(claude, path, &changed,
		    &cause)) != 0)
			goto fail;
		printf("%s: %s\n", claude, changed ? "import line removed" :
		    "no import line, unchanged");
		goto out;
	}

	if ((rv = engine_open(cfg, ENGINE_LEAN | ENGINE_QUIET, &eng,
	    &cause)) != 0)
		goto fail;
	o.san = engine_sanitizer(eng);
	text = miniindex_text(engine_skills(eng), &o, NULL, &in);

	if (to_stdout) {
		fputs(text, stdout);
		goto out;
	}
	if (check) {
		rv = miniindex_check_file(path, text, &cause);
		if (rv == SR_IO)
			goto fail;
		printf("%s: %s\n", path, rv == 0 ? "up to date" :
		    "stale; run skills-radar mini-index");
		rv = rv == 0 ? SR_OK : SR_ERR;
		goto out;
	}
	if ((stale = miniindex_check_file(path, text, &cause)) == SR_IO) {
		rv = stale;
		goto fail;
	}
	if (stale && (rv = miniindex_write_file(path, text, strlen(text),
	    &cause)) != 0)
		goto fail;
	report(stale ? "wrote" : "unchanged", path, &in, o.budget);
	if (install) {
		claude = miniindex_claude_md_path();
		if ((rv = miniindex_install(claude, path, &changed,
		    &cause)) != 0)
			goto fail;
		printf("%s: %s\n", claude, changed ? "import line added" :
		    "import line present, unchanged");
	}
	rv = SR_OK;
	goto out;
fail:
	rv = cmd_fail(rv, cause);
	cause = NULL;
out:
	free(cause);
	free(text);
	free(path);
	free(claude);
	engine_free(eng);
	return rv;
}

const struct cmd_entry cmd_mini_index_entry = {
	"mini-index", cmd_mini_index, CMD_NEEDS_CONFIG,
	"[--output PATH] [--budget TOKENS] [--group-by tags|scope|auto] "
	"[--check] [--install] [--uninstall] [--stdout]",
	"write the Tier-1 skill index for CLAUDE.md"
};
