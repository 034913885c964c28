/*
 * The command table: every command's entry (name, handler, usage,
 * summary) lives beside its handler in its cmd_*.c; this file lists them
 * in the order `skills-radar --help` shows, finds one by name, suggests
 * one for a typo, and holds the two commands about the program itself
 * (help, version).
 */
#include "autoconfig.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/cmd.h"
#include "base/status.h"

static int	cmd_help_cmd(struct cmd_ctx *, int, char **);
static int	cmd_version(struct cmd_ctx *, int, char **);

static const struct cmd_entry cmd_help_entry = {
	"help", cmd_help_cmd, 0,
	"[COMMAND]",
	"list the commands, or print one command's flags"
};

static const struct cmd_entry cmd_version_entry = {
	"version", cmd_version, 0,
	"",
	"print the version"
};

static const struct cmd_entry *const cmds[] = {
	&cmd_config_init_entry, &cmd_index_entry, &cmd_list_entry,
	&cmd_search_entry, &cmd_load_entry, &cmd_read_entry,
	&cmd_validate_entry, &cmd_scan_entry, &cmd_serve_entry,
	&cmd_mini_index_entry, &cmd_stats_entry, &cmd_telemetry_entry,
	&cmd_tui_entry, &cmd_client_entry, &cmd_doctor_entry,
	&cmd_import_entry, &cmd_sign_entry, &cmd_help_entry,
	&cmd_version_entry, NULL
};

const struct cmd_entry *
cmd_find(const char *name)
{
	size_t	 i;

	for (i = 0; cmds[i] != NULL; i++) {
		if (strcmp(cmds[i]->name, name) == 0)
			return cmds[i];
	}
	return NULL;
}

/* Optimal string alignment distance (a swap of two letters costs one). */
static size_t
osa_distance(const char *a, const char *b)
{
	size_t	 la = strlen(a), lb = strlen(b), i, j, d[33][33];

	if (la > 32 || lb > 32)
		return (size_t)-1;
	for (i = 0; i <= la; i++)
		d[i][0] = i;
	for (j = 0; j <= lb; j++)
		d[0][j] = j;
	for (i = 1; i <= la; i++) {
		for (j = 1; j <= lb; j++) {
			size_t	 cost = a[i - 1] != b[j - 1], v;

			v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (d[i - 1][j - 1] + cost < v)
				v = d[i - 1][j - 1] + cost;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	}
	return d[la][lb];
}

const char *
cmd_suggest(const char *name)
{
	const char	*best = NULL;
	size_t		 i, d, bestd = (size_t)-1, len = strlen(name);

	for (i = 0; cmds[i] != NULL; i++) {
		/* "mini" for "mini-index", "conf" for "config-init". */
		if (len >= 3 && strncmp(cmds[i]->name, name, len) == 0)
			return cmds[i]->name;
		d = osa_distance(name, cmds[i]->name);
		if (d < bestd) {
			bestd = d;
			best = cmds[i]->name;
		}
	}
	/* One edit in a short name, two in a longer one. */
	return bestd <= (len > 4 ? 2u : 1u) ? best : NULL;
}

void
cmd_list_usage(FILE *fp)
{
	size_t	 i;

	if (fp == stdout)
		fprintf(fp, "skills-radar %s: find and load agent skills on "
		    "demand\n\n", PACKAGE_VERSION);
	fprintf(fp, "usage: skills-radar [--config FILE] [-v] COMMAND "
	    "[ARGS]\n\ncommands:\n");
	for (i = 0; cmds[i] != NULL; i++)
		fprintf(fp, "  %-12s %s\n", cmds[i]->name, cmds[i]->summary);
	fprintf(fp, "\nRun 'skills-radar help COMMAND' (or 'skills-radar "
	    "COMMAND --help') for a command's flags; see skills-radar(1).\n");
}

static int
cmd_help_cmd(struct cmd_ctx *ctx, int argc, char **argv)
{
	const char	*sug;
	int		 ch, stop;

	(void)ctx;
	while ((ch = cmd_getopt("help", argc, argv, "", NULL, &stop)) != -1)
		;
	if (stop != -1)
		return stop;
	if (optind == argc) {
		cmd_list_usage(stdout);
		return SR_OK;
	}
	if (argc - optind > 1)
		return cmd_usage("help", "expected one COMMAND");
	if (cmd_find(argv[optind]) != NULL)
		return cmd_help(cmd_find(argv[optind]));
	sug = cmd_suggest(argv[optind]);
	if (sug != NULL)
		return cmd_usage("help", "unknown command '%s'; did you mean "
		    "'%s'?", argv[optind], sug);
	return cmd_usage("help", "unknown command '%s'", argv[optind]);
}

static int
cmd_version(struct cmd_ctx *ctx, int argc, char **argv)
{
	int	 ch, stop;

	(void)ctx;
	while ((ch = cmd_getopt("version", argc, argv, "", NULL, &stop)) != -1)
		;
	if (stop != -1)
		return stop;
	if (cmd_no_args("version", argc, argv) != SR_OK)
		return SR_USAGE;
	printf("skills-radar %s\n", PACKAGE_VERSION);
	return SR_OK;
}
