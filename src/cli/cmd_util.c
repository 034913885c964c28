#include "autoconfig.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <pthread.h>
#include <pwd.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <utf8proc.h>

#include "cli/cmd.h"
#include "engine/engine.h"
#include "base/jsonout.h"
#include "telemetry/telemetry.h"
#include "base/status.h"
#include "base/xmalloc.h"

static struct cmd_ctx	*bound;

/* The entry of the command running, when it is the one named. */
static const struct cmd_entry *
running(const char *name)
{
	if (bound == NULL || bound->cmd == NULL ||
	    strcmp(bound->cmd->name, name) != 0)
		return NULL;
	return bound->cmd;
}

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
	if ((c = running(name)) != NULL)
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
cmd_help(const struct cmd_entry *c)
{
	if (c == NULL)
		return SR_USAGE;
	printf("usage: skills-radar %s %s\n\n%s.\nSee skills-radar(1) for "
	    "details.\n", c->name, c->usage, c->summary);
	return SR_OK;
}

void
cmd_bind(struct cmd_ctx *ctx)
{
	bound = ctx;
}

int
cmd_getopt(const char *name, int argc, char **argv, const char *optstring,
    const struct option *longopts, int *stop)
{
	static const struct option common[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "verbose", no_argument, NULL, 'v' },
	};
	struct option	*lo;
	char		*os;
	size_t		 n = 0, m, k, i;
	int		 ch;

	*stop = -1;
	/* The command's flags, then -h and -v where it does not use them. */
	while (longopts != NULL && longopts[n].name != NULL)
		n++;
	lo = xcalloc(n + 3, sizeof *lo);
	if (n > 0)
		memcpy(lo, longopts, n * sizeof *lo);
	for (i = 0, m = n; i < 2; i++) {
		for (k = 0; k < n; k++) {
			if (strcmp(lo[k].name, common[i].name) == 0)
				break;
		}
		if (k == n)
			lo[m++] = common[i];
	}
	xasprintf(&os, "%s%s%s", optstring, strchr(optstring, 'h') == NULL ?
	    "h" : "", strchr(optstring, 'v') == NULL ? "v" : "");
	for (;;) {
		ch = getopt_long(argc, argv, os, lo, NULL);
		if (ch == 'v' && strchr(optstring, 'v') == NULL) {
			if (bound != NULL)
				bound->verbose++;
			continue;
		}
		break;
	}
	free(os);
	free(lo);
	if (ch == -1)
		return -1;
	if (ch == 'h')
		*stop = cmd_help(running(name));
	else if (ch == '?' || ch == ':')
		*stop = cmd_usage(name, "unknown option");
	else
		return ch;
	return -1;
}

int
cmd_no_args(const char *name, int argc, char **argv)
{
	if (optind < argc)
		return cmd_usage(name, "unexpected argument '%s'",
		    argv[optind]);
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
	s = jsonout_print(json, 1);
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

int
cmd_term_width(void)
{
	struct winsize	 ws;
	const char	*cols;
	int		 n;

	if ((cols = getenv("COLUMNS")) != NULL && (n = atoi(cols)) > 20)
		return n;
	if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 &&
	    ws.ws_col > 20)
		return ws.ws_col;
	return 100;
}

int
cmd_print_risk(const cJSON *entry)
{
	const cJSON	*r = cJSON_GetObjectItem(entry, "risk");
	const char	*sev;
	int		 n;

	sev = cJSON_GetStringValue(cJSON_GetObjectItem(r, "severity"));
	if (sev == NULL || strcmp(sev, "info") == 0)
		return 0;
	n = printf("[risk: %s %.1f] ", sev,
	    cJSON_GetNumberValue(cJSON_GetObjectItem(r, "score")));
	return n > 0 ? n : 0;
}

int
cmd_print_cut(const char *s, int cols)
{
	const utf8proc_uint8_t	*p = (const utf8proc_uint8_t *)s;
	utf8proc_int32_t	 cp;
	utf8proc_ssize_t	 n, len;
	size_t			 off = 0, cut = 0;
	int			 used = 0, w, cutw = 0;

	if (cols <= 0)
		return 0;
	len = (utf8proc_ssize_t)strcspn(s, "\r\n");
	while ((utf8proc_ssize_t)off < len) {
		n = utf8proc_iterate(p + off, len - (utf8proc_ssize_t)off, &cp);
		if (n <= 0) {
			n = 1;
			w = 1;
		} else if ((w = utf8proc_charwidth(cp)) < 0)
			w = 0;
		if (used + w > cols - 3 && cut == 0 && off > 0) {
			cut = off;
			cutw = used;
		}
		if (used + w > cols) {
			/* Too long: the part that leaves room for "...". */
			printf("%.*s...", (int)cut, s);
			return cutw + 3;
		}
		used += w;
		off += (size_t)n;
	}
	printf("%.*s", (int)off, s);
	return used;
}

int
cmd_engine_open(struct cmd_ctx *ctx, int flags, struct engine **out)
{
	char	*cause = NULL;
	int	 rv;

	if ((rv = engine_open(ctx->cfg, flags, out, &cause)) != 0)
		return cmd_fail(rv, cause);
	if (engine_telemetry_error(*out) != NULL)
		cmd_warn("telemetry is off for this run: %s",
		    engine_telemetry_error(*out));
	/* -v: the writer says when its database goes away and what it lost. */
	telemetry_set_verbose(engine_telemetry(*out), ctx->verbose);
	return SR_OK;
}

const char *
cmd_cli_session(void)
{
	static char	 sess[160];
	struct passwd	*pw;
	char		 host[64];

	if (sess[0] != '\0')
		return sess;
	if (gethostname(host, sizeof host) != 0)
		strcpy(host, "localhost");
	host[sizeof host - 1] = '\0';
	if ((pw = getpwuid(getuid())) != NULL && pw->pw_name != NULL)
		snprintf(sess, sizeof sess, "cli:%s@%s", pw->pw_name, host);
	else
		snprintf(sess, sizeof sess, "cli:%lu@%s",
		    (unsigned long)getuid(), host);
	return sess;
}

volatile sig_atomic_t cmd_stop;

static void
on_stop_signal(int sig)
{
	(void)sig;
	cmd_stop = 1;
}

void
cmd_set_signals(void)
{
	struct sigaction	 sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_stop_signal;	/* no SA_RESTART: read(2) returns */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
}

void
cmd_block_signals(sigset_t *old)
{
	sigset_t	 block;

	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	pthread_sigmask(SIG_BLOCK, &block, old);
}

void
cmd_wait_stop(const sigset_t *orig)
{
	while (!cmd_stop)
		sigsuspend(orig);	/* atomically unblock and wait */
}
