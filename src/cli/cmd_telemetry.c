/*
 * telemetry on|off|status: switches telemetry.enabled in the config file
 * config_load() reads, creating the file (and its directory) when there
 * is none. The key is changed where it is written (a "telemetry:" block's
 * "enabled:" line, or a dotted "telemetry.enabled:" line); when it is
 * not written it is added. The new file must load, else the old one is
 * kept. Everything else in the file, comments too, stays as it was.
 */
#include "autoconfig.h"

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "cli/cmd.h"
#include "core/config.h"
#include "base/status.h"
#include "base/xmalloc.h"

/* Length of the line at p, without its newline. */
static size_t
line_len(const char *p)
{
	return strcspn(p, "\n");
}

/* Whether the line at p starts with key followed by a colon. */
static int
line_is_key(const char *p, const char *key)
{
	size_t	 n = strlen(key);

	return strncmp(p, key, n) == 0 && p[n] == ':';
}

/*
 * Returns old with telemetry.enabled set to value: the byte range of the
 * old value replaced, or a line added. Allocated.
 */
static char *
set_enabled(const char *old, const char *value)
{
	const char	*p, *block = NULL, *val = NULL, *end = NULL;
	int		 in_block = 0;
	struct buf	 b;

	for (p = old; *p != '\0'; p += line_len(p) + (p[line_len(p)] != '\0')) {
		if (line_is_key(p, "telemetry.enabled")) {
			val = p + strlen("telemetry.enabled:");
			break;
		}
		if (*p != ' ' && *p != '\t' && *p != '#' && *p != '\n' &&
		    *p != '\r')
			in_block = 0;	/* the next top-level key */
		if (line_is_key(p, "telemetry")) {
			block = p;
			in_block = 1;
		} else if (in_block) {
			const char	*k = p + strspn(p, " \t");

			if (k > p && line_is_key(k, "enabled")) {
				val = k + strlen("enabled:");
				break;
			}
		}
	}
	buf_init(&b, 0);
	if (val != NULL) {
		/* The value ends at a comment or the line's end. */
		end = val + line_len(val);
		for (p = val; p < end; p++) {
			if (*p == '#' && (p == val || p[-1] == ' ' ||
			    p[-1] == '\t'))
				break;
		}
		buf_add(&b, old, (size_t)(val - old));
		buf_printf(&b, " %s%s", value, p < end ? " " : "");
		buf_addstr(&b, p);
		return buf_take(&b);
	}
	if (block != NULL) {
		/* A telemetry: block without enabled: the key goes first. */
		p = block + line_len(block);
		buf_add(&b, old, (size_t)(p - old));
		buf_printf(&b, "\n  enabled: %s", value);
		buf_addstr(&b, p);
		return buf_take(&b);
	}
	buf_addstr(&b, old);
	if (b.len > 0 && b.p[b.len - 1] != '\n')
		buf_addstr(&b, "\n");
	buf_printf(&b, "%stelemetry:\n  enabled: %s\n", b.len > 0 ? "\n" : "",
	    value);
	return buf_take(&b);
}

/* Writes text to path through a temporary file renamed over it. */
static int
write_file(const char *path, const char *text, mode_t mode, char **cause)
{
	char	*tmp;
	FILE	*fp;
	int	 fd, failed;

	xasprintf(&tmp, "%s.XXXXXX", path);
	if ((fd = mkstemp(tmp)) == -1) {
		xasprintf(cause, "%s: %s", tmp, strerror(errno));
		free(tmp);
		return SR_IO;
	}
	(void)fchmod(fd, mode);
	if ((fp = fdopen(fd, "w")) == NULL) {
		close(fd);
		failed = 1;
	} else {
		failed = fputs(text, fp) == EOF;
		if (fflush(fp) != 0 || fsync(fileno(fp)) != 0)
			failed = 1;
		if (fclose(fp) != 0)
			failed = 1;
	}
	if (failed || rename(tmp, path) == -1) {
		xasprintf(cause, "%s: %s", path, strerror(errno ? errno : EIO));
		unlink(tmp);
		free(tmp);
		return SR_IO;
	}
	free(tmp);
	return SR_OK;
}

static int
print_status(const struct config *cfg, const char *path)
{
	printf("telemetry is %s (telemetry.enabled in %s%s)\n",
	    cfg->telemetry_enabled ? "on" : "off", path,
	    cfg->source == NULL ? ", not written: the default" : "");
	if (cfg->telemetry_enabled)
		printf("events go to %s; see them with 'skills-radar stats'\n",
		    cfg->telemetry_path);
	return SR_OK;
}

static int
cmd_telemetry(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct config	*cfg = NULL;
	struct stat	 st;
	const char	*what;
	char		*path, *old = NULL, *text, *cause = NULL;
	size_t		 len;
	mode_t		 mode = 0644;
	int		 ch, stop, on, rv;

	while ((ch = cmd_getopt("telemetry", argc, argv, "", NULL,
	    &stop)) != -1)
		;
	if (stop != -1)
		return stop;
	if (argc - optind != 1)
		return cmd_usage("telemetry", argc == optind ?
		    "missing on, off or status" : "expected one of on, off, "
		    "status");
	what = argv[optind];
	path = ctx->cfg->source != NULL ? xstrdup(ctx->cfg->source) :
	    config_default_path(ctx->config_path);
	if (strcmp(what, "status") == 0) {
		rv = print_status(ctx->cfg, path);
		free(path);
		return rv;
	}
	if (strcmp(what, "on") != 0 && strcmp(what, "off") != 0) {
		free(path);
		return cmd_usage("telemetry", "'%s': expected on, off or "
		    "status", what);
	}
	on = strcmp(what, "on") == 0;
	if (strcmp(path, "/dev/null") == 0) {
		free(path);
		return cmd_fail(SR_CONFIG, xstrdup("the configuration is "
		    "/dev/null: name a file with --config to switch "
		    "telemetry"));
	}
	if (stat(path, &st) == 0) {
		mode = st.st_mode & 07777;
		if (buf_read_file(path, CONFIG_LARGE_MAX, &old, &len) == -1) {
			xasprintf(&cause, "%s: %s", path, buf_strerror(path,
			    errno));
			free(path);
			return cmd_fail(SR_IO, cause);
		}
		text = set_enabled(old, on ? "true" : "false");
	} else if (errno == ENOENT) {
		if (buf_mkparents(path, 0755) == -1) {
			xasprintf(&cause, "%s: cannot create its directory: %s",
			    path, strerror(errno));
			free(path);
			return cmd_fail(SR_IO, cause);
		}
		xasprintf(&text, "# skills-radar configuration: see "
		    "skills-radar.yaml(5);\n# 'skills-radar config-init "
		    "--stdout' prints every key.\ntelemetry:\n  enabled: %s\n",
		    on ? "true" : "false");
	} else {
		xasprintf(&cause, "%s: %s", path, strerror(errno));
		free(path);
		return cmd_fail(SR_IO, cause);
	}
	if ((rv = write_file(path, text, mode, &cause)) != SR_OK)
		goto out;
	/* The file must still load: else put the old one back. */
	if (config_load(path, &cfg, NULL, &cause) != 0) {
		char	*why = cause;

		cause = NULL;
		if (old != NULL)
			(void)write_file(path, old, mode, &cause);
		else
			unlink(path);
		free(cause);
		xasprintf(&cause, "%s: left as it was: the changed file would "
		    "not load (%s)", path, why);
		free(why);
		rv = SR_CONFIG;
		goto out;
	}
	printf("telemetry is %s (telemetry.enabled: %s in %s)\n", on ? "on" :
	    "off", on ? "true" : "false", path);
	if (on)
		printf("events go to %s; see them with 'skills-radar stats'\n",
		    cfg->telemetry_path);
out:
	config_free(cfg);
	free(text);
	free(old);
	free(path);
	return rv == SR_OK ? SR_OK : cmd_fail(rv, cause);
}

const struct cmd_entry cmd_telemetry_entry = {
	"telemetry", cmd_telemetry, CMD_NEEDS_CONFIG,
	"on|off|status",
	"switch telemetry on or off in the config file, or show its state"
};
