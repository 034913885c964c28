/*
 * skills-radar: find and load agent skills on demand.
 * main() parses the global flags, loads the configuration for commands
 * that need it, and dispatches through the command table (commands.c).
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
			cmd_list_usage(stdout);
			return close_stdout(SR_OK);
		case 'V':
			printf("skills-radar %s\n", PACKAGE_VERSION);
			return close_stdout(SR_OK);
		default:
			cmd_list_usage(stderr);
			return SR_USAGE;
		}
	}
	argc -= optind;
	argv += optind;
	if (argc == 0) {
		cmd_list_usage(stderr);
		return SR_USAGE;
	}
	if ((c = cmd_find(argv[0])) == NULL) {
		const char	*sug = cmd_suggest(argv[0]);

		if (sug != NULL) {
			fprintf(stderr, "skills-radar: unknown command '%s'; "
			    "did you mean '%s'?\n", argv[0], sug);
			return SR_USAGE;
		}
		fprintf(stderr, "skills-radar: unknown command '%s'\n", argv[0]);
		cmd_list_usage(stderr);
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
	ctx.cmd = c;
	cmd_bind(&ctx);
	rv = c->fn(&ctx, argc, argv);
	config_free(ctx.cfg);
	return close_stdout(rv);
}
