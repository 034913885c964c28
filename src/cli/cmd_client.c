/*
 * client: register skills-radar with an MCP client (Claude Code, Claude
 * Desktop, Cursor, Codex, Gemini CLI) or remove it, by editing the
 * client's own configuration file; see clients.h for the guarantees.
 */
#include "autoconfig.h"

#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/clients.h"
#include "cli/cmd.h"
#include "base/status.h"
#include "base/xmalloc.h"

#define SERVER_NAME	"skills-radar"

/* The binary the client should start: this one, by its absolute path. */
static char *
self_path(void)
{
	char	 buf[PATH_MAX];
	ssize_t	 n;

	n = readlink("/proc/self/exe", buf, sizeof buf - 1);
	if (n > 0) {
		buf[n] = '\0';
		return xstrdup(buf);
	}
	return xstrdup("skills-radar");
}

/*
 * 1 when the first skills-radar on $PATH is the binary self: a project's
 * shared file (.mcp.json and the like) can then say just "skills-radar"
 * and work for everyone who has it installed.
 */
static int
self_on_path(const char *self)
{
	const char	*path = getenv("PATH"), *p, *colon;
	char		 cand[PATH_MAX], a[PATH_MAX], b[PATH_MAX];
	int		 n;

	if (path == NULL || realpath(self, a) == NULL)
		return 0;
	for (p = path; ; p = colon + 1) {
		colon = strchr(p, ':');
		n = snprintf(cand, sizeof cand, "%.*s/skills-radar",
		    colon != NULL ? (int)(colon - p) : (int)strlen(p), p);
		if (n > 0 && (size_t)n < sizeof cand && *cand == '/' &&
		    access(cand, X_OK) == 0)
			return realpath(cand, b) != NULL && strcmp(a, b) == 0;
		if (colon == NULL)
			return 0;
	}
}

static void
list_clients(FILE *fp)
{
	const char *const	*n;

	for (n = clients_names(); *n != NULL; n++)
		fprintf(fp, "%s%s", n == clients_names() ? "" : ", ", *n);
}

static const char *
verb(enum client_result r)
{
	switch (r) {
	case CLIENT_ADDED:
		return "added to";
	case CLIENT_UPDATED:
		return "updated in";
	case CLIENT_UNCHANGED:
		return "already configured in";
	case CLIENT_REMOVED:
		return "removed from";
	case CLIENT_ABSENT:
		break;
	}
	return "not configured in";
}

static int
cmd_client(struct cmd_ctx *ctx, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "scope", required_argument, NULL, 's' },
		{ "http", required_argument, NULL, 'u' },
		{ "token-env", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct client_server	 srv;
	struct client_change	 ch;
	enum client_scope	 scope = CLIENT_SCOPE_USER;
	const char		*url = NULL, *token = NULL, *action, *client;
	const char		*args[3];
	char			*cause = NULL, *self = NULL, *cfg = NULL;
	char			 rp[PATH_MAX];
	int			 c, stop, rv, add;

	while ((c = cmd_getopt("client", argc, argv, "", longopts,
	    &stop)) != -1) {
		switch (c) {
		case 's':
			if (strcmp(optarg, "user") == 0)
				scope = CLIENT_SCOPE_USER;
			else if (strcmp(optarg, "project") == 0)
				scope = CLIENT_SCOPE_PROJECT;
			else
				return cmd_usage("client", "--scope: '%s' is "
				    "not user or project", optarg);
			break;
		case 'u':
			url = optarg;
			break;
		case 't':
			token = optarg;
			break;
		}
	}
	if (stop != -1)
		return stop;
	if (optind >= argc)
		return cmd_usage("client", "missing action: add or remove");
	action = argv[optind];
	if (strcmp(action, "add") == 0)
		add = 1;
	else if (strcmp(action, "remove") == 0)
		add = 0;
	else
		return cmd_usage("client", "unknown action '%s': add or "
		    "remove", action);
	if (optind + 1 >= argc) {
		fprintf(stderr, "skills-radar client: missing client; one of ");
		list_clients(stderr);
		fputc('\n', stderr);
		return cmd_usage("client", "missing client");
	}
	client = argv[optind + 1];
	if (!clients_known(client)) {
		fprintf(stderr, "skills-radar client: unknown client '%s'; "
		    "one of ", client);
		list_clients(stderr);
		fputc('\n', stderr);
		return cmd_usage("client", "unknown client '%s'", client);
	}
	if (optind + 2 < argc)
		return cmd_usage("client", "unexpected argument '%s'",
		    argv[optind + 2]);
	if (!add && (url != NULL || token != NULL))
		return cmd_usage("client", "%s is for 'add' only",
		    url != NULL ? "--http" : "--token-env");
	if (url != NULL && (rv = client_check_url(url, &cause)) != 0) {
		rv = cmd_usage("client", "%s", cause);
		free(cause);
		return rv;
	}

	if (add) {
		memset(&srv, 0, sizeof srv);
		srv.name = SERVER_NAME;
		srv.url = url;
		srv.token_env = token;
		self = self_path();
		srv.command = self;
		if (scope == CLIENT_SCOPE_PROJECT && self_on_path(self))
			srv.command = "skills-radar";
		srv.args = args;
		if (ctx->config_path != NULL) {
			/* The server must read the same configuration. */
			cfg = xstrdup(realpath(ctx->config_path, rp) != NULL ?
			    rp : ctx->config_path);
			args[srv.nargs++] = "--config";
			args[srv.nargs++] = cfg;
		}
		args[srv.nargs++] = "serve";
		rv = client_add(client, scope, &srv, &ch, &cause);
	} else
		rv = client_remove(client, scope, SERVER_NAME, &ch, &cause);
	free(self);
	free(cfg);
	if (rv != 0) {
		client_change_done(&ch);
		if (rv == SR_USAGE) {
			rv = cmd_usage("client", "%s", cause);
			free(cause);
			return rv;
		}
		return cmd_fail(rv, cause);
	}
	printf("%s: %s %s %s (%s scope)%s\n", client, SERVER_NAME,
	    verb(ch.result), ch.path,
	    scope == CLIENT_SCOPE_USER ? "user" : "project",
	    ch.result == CLIENT_UNCHANGED || ch.result == CLIENT_ABSENT ?
	    "; nothing changed" : "");
	if (ch.backup != NULL)
		printf("backup: %s\n", ch.backup);
	if (add && ch.result != CLIENT_UNCHANGED)
		printf("restart %s (or reload its MCP servers) to use it\n",
		    client);
	client_change_done(&ch);
	return SR_OK;
}

const struct cmd_entry cmd_client_entry = {
	"client", cmd_client, CMD_NEEDS_CONFIG,
	"add|remove CLIENT [--scope user|project] "
	"[--http URL [--token-env VAR]]",
	"configure an MCP client to use skills-radar"
};
