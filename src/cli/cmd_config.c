/*
 * config-init [--force] [--stdout]: writes the commented configuration
 * template to the file config_load() would read. The hidden --mdoc flag
 * prints the key reference for skills-radar.yaml(5) (used by the build).
 */
#include "autoconfig.h"

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "cli/cmd.h"
#include "core/config.h"
#include "base/status.h"
#include "base/xmalloc.h"

/* Writes the template to fd and closes it. */
static int
write_fd(int fd, const char *path, char **cause)
{
	FILE	*fp;
	int	 failed;

	if ((fp = fdopen(fd, "w")) == NULL) {
		xasprintf(cause, "%s: %s", path, strerror(errno));
		close(fd);
		return SR_IO;
	}
	failed = config_write_template(fp) != 0;
	if (fflush(fp) != 0 || fsync(fileno(fp)) != 0)
		failed = 1;
	if (fclose(fp) != 0)
		failed = 1;
	if (failed) {
		xasprintf(cause, "%s: %s", path, strerror(errno ? errno : EIO));
		return SR_IO;
	}
	return 0;
}

/*
 * Writes the template to path: a new file unless force, else through a
 * temporary file renamed over the old one, so a failure never leaves a
 * half-written configuration behind.
 */
static int
write_template(const char *path, int force, char **cause)
{
	char	*tmp = NULL;
	int	 fd, rv;

	if (buf_mkparents(path, 0755) == -1) {
		xasprintf(cause, "%s: cannot create its directory: %s", path,
		    strerror(errno));
		return SR_IO;
	}
	if (!force) {
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		if (fd == -1 && errno == EEXIST) {
			xasprintf(cause, "%s already exists; use --force to "
			    "overwrite it", path);
			return SR_ERR;
		}
		if (fd == -1) {
			xasprintf(cause, "%s: %s", path, strerror(errno));
			return SR_IO;
		}
		if ((rv = write_fd(fd, path, cause)) != 0)
			unlink(path);
		return rv;
	}
	xasprintf(&tmp, "%s.XXXXXX", path);
	if ((fd = mkstemp(tmp)) == -1) {
		xasprintf(cause, "%s: %s", tmp, strerror(errno));
		rv = SR_IO;
		goto out;
	}
	(void)fchmod(fd, 0644);
	if ((rv = write_fd(fd, tmp, cause)) != 0) {
		unlink(tmp);
		goto out;
	}
	if (rename(tmp, path) == -1) {
		xasprintf(cause, "%s: %s", path, strerror(errno));
		unlink(tmp);
		rv = SR_IO;
	}
out:
	free(tmp);
	return rv;
}

/* Finishes output to stdout, reporting a failed write. */
static int
flush_stdout(int failed)
{
	if (fflush(stdout) != 0 || ferror(stdout) || failed) {
		cmd_warn("stdout: %s", strerror(errno ? errno : EIO));
		return SR_IO;
	}
	return SR_OK;
}

static int
cmd_config_init(struct cmd_ctx *ctx, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "force",	no_argument,	NULL,	'f' },
		{ "stdout",	no_argument,	NULL,	's' },
		{ "mdoc",	no_argument,	NULL,	'M' },
		{ "help",	no_argument,	NULL,	'h' },
		{ NULL,		0,		NULL,	0 }
	};
	char	*path, *cause = NULL;
	int	 ch, stop, force = 0, to_stdout = 0, mdoc = 0, rv;

	optind = 0;
	while ((ch = cmd_getopt("config-init", argc, argv, "+fh", longopts,
	    &stop)) != -1) {
		switch (ch) {
		case 'f':
			force = 1;
			break;
		case 's':
			to_stdout = 1;
			break;
		case 'M':
			mdoc = 1;
			break;
		}
	}
	if (stop != -1 || (stop = cmd_no_args("config-init", argc, argv)) != 0)
		return stop;

	if (mdoc)
		return flush_stdout(config_write_mdoc(stdout) != 0);
	if (to_stdout)
		return flush_stdout(config_write_template(stdout) != 0);

	path = config_default_path(ctx->config_path);
	if ((rv = write_template(path, force, &cause)) != 0) {
		free(path);
		return cmd_fail(rv, cause);
	}
	printf("wrote %s\n", path);
	free(path);
	return flush_stdout(0);
}

const struct cmd_entry cmd_config_init_entry = {
	"config-init", cmd_config_init, 0,
	"[--force] [--stdout]",
	"write a commented config file"
};
