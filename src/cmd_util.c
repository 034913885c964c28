#include "autoconfig.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "status.h"

int
cmd_usage(const char *name, const char *fmt, ...)
{
	const struct cmd_entry	*c;
	va_list			 ap;

	fprintf(stderr, "skills-radar %s: ", name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	if ((c = cmd_find(name)) != NULL)
		fprintf(stderr, "usage: skills-radar %s %s\n", c->name, c->usage);
	return SR_USAGE;
}

void
cmd_warn(const char *fmt, ...)
{
	va_list	 ap;

	fprintf(stderr, "skills-radar: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int
cmd_help(const char *name)
{
	const struct cmd_entry	*c;

	if ((c = cmd_find(name)) == NULL)
		return SR_USAGE;
	printf("usage: skills-radar %s %s\n\n%s.\nSee skills-radar(1) for "
	    "details.\n", c->name, c->usage, c->summary);
	return SR_OK;
}

int
cmd_parse_long(const char *s, long min, long max, long *out)
{
	char	*end;
	long	 v;

	if (s == NULL || *s == '\0')
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno != 0 || *end != '\0' || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int
cmd_print_json(cJSON *json)
{
	char	*s;

	if (json == NULL)
		return SR_ERR;
	s = cJSON_Print(json);
	cJSON_Delete(json);
	if (s == NULL)
		return SR_ERR;
	fputs(s, stdout);
	fputc('\n', stdout);
	cJSON_free(s);
	return SR_OK;
}

int
cmd_fail(int rv, char *cause)
{
	fprintf(stderr, "skills-radar: %s\n", cause != NULL ? cause : "failed");
	free(cause);
	return rv;
}

/*
 * TEMPORARY (integration): weak stand-ins so the binary links while the
 * commands below are being written in parallel. Removed before release.
 */
#define SR_PENDING(fn, name)						\
int fn(struct cmd_ctx *, int, char **) __attribute__((weak));		\
int									\
fn(struct cmd_ctx *ctx, int argc, char **argv)				\
{									\
	(void)ctx; (void)argc; (void)argv;				\
	cmd_warn("%s: not available in this build", name);		\
	return SR_ERR;							\
}
SR_PENDING(cmd_serve, "serve")
SR_PENDING(cmd_stats, "stats")
SR_PENDING(cmd_tui, "tui")
SR_PENDING(cmd_mini_index, "mini-index")
