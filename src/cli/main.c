/*
 * skills-radar: find and load agent skills on demand.
 * main() parses the global flags, loads the configuration for commands
 * that need it, and dispatches through the command table.
 */
#include "autoconfig.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cmd.h"
#include "core/config.h"
#include "base/status.h"
#include "base/strlist.h"
#include "base/xmalloc.h"

static const struct cmd_entry cmds[] = {
	{ "config-init", cmd_config_init, 0,
	  "[--force] [--stdout]", "write a commented config file" },
	{ "index", cmd_index, CMD_NEEDS_CONFIG,
	  "[--rebuild] [--json] [--watch]",
	  "scan the roots and update the index (--watch: keep it updated)" },
	{ "list", cmd_list, CMD_NEEDS_CONFIG,
	  "[--kind K] [--tier T] [--tag T] [--flagged] [--all] [--json]",
	  "list indexed skills" },
	{ "search", cmd_search, CMD_NEEDS_CONFIG,
	  "[--top-k N] [--tag T]... [--kind K] [--explain] [--json] "
	  "[--rewrite|--no-rewrite] [--rerank|--no-rerank] QUERY",
	  "search skills by intent" },
	{ "load", cmd_load, CMD_NEEDS_CONFIG,
	  "[--offset N] [--max-bytes N] [--allow-untrusted] [--json] NAME",
	  "print a skill's sanitised instructions" },
	{ "read", cmd_read, CMD_NEEDS_CONFIG,
	  "[--json] NAME PATH", "print one bundled file of a skill" },
	{ "validate", cmd_validate, CMD_NEEDS_CONFIG,
	  "[--json] [PATH ...]", "lint skill files without touching the index" },
	{ "scan", cmd_scan, CMD_NEEDS_CONFIG,
	  "[--json|--sarif] [--fail-on info|warn|high|never] [PATH ...]",
	  "report each skill's risk and findings (for operators and CI)" },
	{ "serve", cmd_serve, CMD_NEEDS_CONFIG,
	  "[--transport stdio|http] [--host H] [--port P] [--path P] "
	  "[--stateful|--stateless] [--watch|--no-watch]",
	  "run the MCP server" },
	{ "mini-index", cmd_mini_index, CMD_NEEDS_CONFIG,
	  "[--output PATH] [--budget TOKENS] [--group-by tags|scope|auto] "
	  "[--check] [--install] [--uninstall] [--stdout]",
	  "write the Tier-1 skill index for CLAUDE.md" },
	{ "stats", cmd_stats, CMD_NEEDS_CONFIG,
	  "[--since 24h|7d|DATE] [--limit N] [--db PATH] [--json] "
	  "[--reset-learning]",
	  "report on the telemetry log" },
	{ "tui", cmd_tui, CMD_NEEDS_CONFIG,
	  "[--once] [--color|--no-color] [--range 1h|24h|7d|all] [--db PATH] "
	  "[--refresh SECONDS]",
	  "live dashboard of searches and loads" },
	{ "client", cmd_client, CMD_NEEDS_CONFIG,
	  "add|remove CLIENT [--scope user|project] "
	  "[--http URL [--token-env VAR]]",
	  "configure an MCP client to use skills-radar" },
	{ "doctor", cmd_doctor, CMD_NEEDS_CONFIG,
	  "[--context-tokens N] [--json]", "check the setup and report problems" },
	{ "import", cmd_import, CMD_NEEDS_CONFIG,
	  "[--name N] [--subpath P] [--ref R] [--dry-run] [--yes] "
	  "[--max-risk info|warn] [--only NAME]... [--json] [--no-index] SOURCE"
	  " | --update NAME | --remove NAME | --list",
	  "import a skill collection (git URL or folder) as UNTRUSTED, "
	  "after a look at each skill's risk" },
	{ "sign", cmd_sign, CMD_NEEDS_CONFIG,
	  "--key FILE [--password-env VAR] [--comment TEXT] DIR... | "
	  "--verify [--signer NAME=KEY]... [--json] DIR...",
	  "sign skill folders with a minisign key, or check signatures" },
	{ "version", cmd_version, 0, "", "print the version" },
	{ NULL, NULL, 0, NULL, NULL }
};

const struct cmd_entry *
cmd_find(const char *name)
{
	const struct cmd_entry	*c;

	for (c = cmds; c->name != NULL; c++) {
		if (strcmp(c->name, name) == 0)
			return c;
	}
	return NULL;
}

static void
usage(FILE *fp)
{
	const struct cmd_entry	*c;

	if (fp == stdout)
		fprintf(fp, "skills-radar %s: find and load agent skills on "
		    "demand\n\n", PACKAGE_VERSION);
	fprintf(fp, "usage: skills-radar [--config FILE] [-v] COMMAND "
	    "[ARGS]\n\ncommands:\n");
	for (c = cmds; c->name != NULL; c++)
		fprintf(fp, "  %-12s %s\n", c->name, c->summary);
	fprintf(fp, "\nRun 'skills-radar COMMAND --help' for a command's "
	    "flags; see skills-radar(1).\n");
}

int
cmd_version(struct cmd_ctx *ctx, int argc, char **argv)
{
	(void)ctx;
	if (argc > 1 && strcmp(argv[1], "--help") == 0)
		return cmd_help("version");
	if (argc > 1)
		return cmd_usage("version", "unexpected argument '%s'", argv[1]);
	printf("skills-radar %s\n", PACKAGE_VERSION);
	return SR_OK;
}

static int
close_stdout(int rv)
{
	if (fflush(stdout) == EOF || ferror(stdout) || fclose(stdout) == EOF) {
		if (errno != EPIPE)
			fprintf(stderr, "skills-radar: stdout: %s\n",
			    strerror(errno));
		return rv == SR_OK ? SR_IO : rv;
	}
	return rv;
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	const struct cmd_entry	*c;
	struct cmd_ctx		 ctx;
	struct strlist		 warnings;
	char			*cause = NULL;
	size_t			 i;
	int			 ch, rv;

	xmalloc_init();
	memset(&ctx, 0, sizeof ctx);
	/* Stop at the command name: the rest belongs to the command. */
	while ((ch = getopt_long(argc, argv, "+c:vhV", longopts, NULL)) != -1) {
		switch (ch) {
		case 'c':
			ctx.config_path = optarg;
			break;
		case 'v':
			ctx.verbose++;
			break;
		case 'h':
			usage(stdout);
			return close_stdout(SR_OK);
		case 'V':
			printf("skills-radar %s\n", PACKAGE_VERSION);
			return close_stdout(SR_OK);
		default:
			usage(stderr);
			return SR_USAGE;
		}
	}
	argc -= optind;
	argv += optind;
	if (argc == 0) {
		usage(stderr);
		return SR_USAGE;
	}
	if ((c = cmd_find(argv[0])) == NULL) {
		fprintf(stderr, "skills-radar: unknown command '%s'\n", argv[0]);
		usage(stderr);
		return SR_USAGE;
	}
	ctx.color = isatty(STDOUT_FILENO) && getenv("NO_COLOR") == NULL;
	ctx.progress = isatty(STDERR_FILENO);

	if (c->flags & CMD_NEEDS_CONFIG) {
		strlist_init(&warnings);
		rv = config_load(ctx.config_path, &ctx.cfg, &warnings, &cause);
		for (i = 0; i < warnings.n; i++)
			fprintf(stderr, "skills-radar: warning: %s\n",
			    warnings.v[i]);
		strlist_done(&warnings);
		if (rv != 0) {
			fprintf(stderr, "skills-radar: %s\n",
			    cause != NULL ? cause : "bad configuration");
			free(cause);
			return SR_CONFIG;
		}
	}
	optind = 0;
	rv = c->fn(&ctx, argc, argv);
	config_free(ctx.cfg);
	return close_stdout(rv);
}
