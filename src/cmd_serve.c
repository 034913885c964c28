/*
 * skills-radar serve [--transport stdio|http] [--host H] [--port P]
 *     [--path /mcp] [--stateful|--stateless] [--watch|--no-watch]
 *
 * Opens the engine (an incremental rescan first, quietly), builds the MCP
 * server and runs one transport until end of input (stdio) or SIGTERM /
 * SIGINT. Only protocol goes to stdout; messages go to stderr.
 */
#include "autoconfig.h"

#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "config.h"
#include "engine.h"
#include "mcp.h"
#include "mcp_http.h"
#include "mcp_stdio.h"
#include "miniindex.h"
#include "replica.h"
#include "status.h"
#include "store.h"
#include "watch.h"
#include "xmalloc.h"

static void
replace(char **field, const char *value)
{
	free(*field);
	*field = xstrdup(value);
}

/* What the watcher's callbacks need (they run on the watcher's thread). */
struct reload_ctx {
	struct cmd_ctx		*ctx;
	struct mcp_server	*srv;
	int			 stdio;
};

static void
on_reload(void *arg, int changed, double ms, const char *what)
{
	struct reload_ctx	*r = arg;
	struct engine		*e = mcp_server_engine(r->srv);
	const struct engine_snap *sn;
	char			*cause = NULL;

	if (!changed)
		return;
	if (r->ctx->verbose)
		fprintf(stderr, "skills-radar: reloaded: %zu skills (%.1f ms; "
		    "%s)\n", engine_count(e), ms, what);
	/* A snapshot: the search index's compaction swaps on its own thread. */
	sn = engine_snap_get(e);
	if (miniindex_auto(r->ctx->cfg, engine_snap_skills(sn),
	    engine_sanitizer(e), NULL, &cause) != 0) {
		cmd_warn("mini-index: %s", cause);
		free(cause);
	}
	engine_snap_put(e, sn);
	if (r->stdio)
		mcp_stdio_notify(STDOUT_FILENO,
		    "notifications/resources/list_changed");
}

static void
on_reload_error(void *arg, const char *cause)
{
	(void)arg;
	cmd_warn("%s", cause);
}

/* A replica of a postgres store: what its thread reports. */
static void
on_replica_update(void *arg, int full, size_t nup, size_t nrm,
    int64_t counter, double ms)
{
	struct reload_ctx	*r = arg;

	mcp_server_set_store(r->srv, 1, 1, (long long)counter, NULL);
	if (r->ctx->verbose)
		fprintf(stderr, "skills-radar: store counter %lld: %s%zu "
		    "written, %zu removed (%.1f ms)\n", (long long)counter,
		    full ? "full reload, " : "", nup, nrm, ms);
	if (r->stdio)
		mcp_stdio_notify(STDOUT_FILENO,
		    "notifications/resources/list_changed");
}

static void
on_replica_state(void *arg, int up, const char *why)
{
	struct reload_ctx	*r = arg;

	mcp_server_set_store(r->srv, 0, up, -1, up ? NULL : why);
	if (up)
		cmd_warn("store: connected (%s)", why);
	else
		cmd_warn("store: %s; answering from memory, retrying", why);
}

/*
 * The counter of the store before the engine loads it: the replica
 * catches up from there (re-reading a change it already has is harmless).
 */
static int
store_counter_now(struct config *cfg, int64_t *counter, char **cause)
{
	struct store	*st;
	int		 rv;

	if ((rv = store_open_cfg(cfg, 0, &st, cause)) != 0)
		return rv;
	rv = store_counter(st, counter, cause);
	store_close(st);
	return rv;
}

static char *
replica_name(const struct config *cfg, int http)
{
	char	 host[256], *name;

	if (gethostname(host, sizeof host) != 0)
		snprintf(host, sizeof host, "localhost");
	host[sizeof host - 1] = '\0';
	if (http && cfg->http_port > 0)
		xasprintf(&name, "%s:%d", host, cfg->http_port);
	else
		xasprintf(&name, "%s:pid%ld", host, (long)getpid());
	return name;
}

/*
 * Serves HTTP until SIGTERM or SIGINT. The signals are blocked in every
 * thread (cmd_serve); this one waits for them with sigsuspend() and the
 * mask from before the block, orig.
 */
static int
serve_http(struct cmd_ctx *ctx, struct mcp_server *srv, struct engine *e,
    const sigset_t *orig)
{
	struct config	*cfg = ctx->cfg;
	struct mcp_http	*h = NULL;
	char		*cause = NULL;
	int		 rv;

	cmd_set_signals();
	if ((rv = mcp_http_start(srv, cfg, &h, &cause)) != 0)
		return cmd_fail(rv, cause);
	fprintf(stderr, "skills-radar: serving %zu skills over MCP on "
	    "http://%s%s%s:%d%s (%s)\n", engine_count(e),
	    strchr(cfg->http_host, ':') ? "[" : "", cfg->http_host,
	    strchr(cfg->http_host, ':') ? "]" : "", mcp_http_port(h),
	    cfg->http_path, cfg->stateless ? "stateless" : "sessions");
	fflush(stderr);
	cmd_wait_stop(orig);
	mcp_http_stop(h);
	if (ctx->verbose)
		fprintf(stderr, "skills-radar: stopped\n");
	return SR_OK;
}

int
cmd_serve(struct cmd_ctx *ctx, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "transport",	required_argument,	NULL, 't' },
		{ "host",	required_argument,	NULL, 'H' },
		{ "port",	required_argument,	NULL, 'p' },
		{ "path",	required_argument,	NULL, 'P' },
		{ "stateful",	no_argument,		NULL, 'S' },
		{ "stateless",	no_argument,		NULL, 'L' },
		{ "watch",	no_argument,		NULL, 'w' },
		{ "no-watch",	no_argument,		NULL, 'W' },
		{ "help",	no_argument,		NULL, 'h' },
		{ NULL,		0,			NULL, 0 }
	};
	struct config		*cfg = ctx->cfg;
	struct engine		*e = NULL;
	struct mcp_server	*srv = NULL;
	struct watch		*w = NULL;
	struct replica		*rep = NULL;
	struct replica_hooks	 rhooks;
	int64_t			 since = 0;
	char			*name;
	int			 follower, empty = 0;
	struct watch_hooks	 hooks;
	struct reload_ctx	 reload;
	sigset_t		 mask;
	const char		*transport = "stdio";
	char			*cause = NULL;
	long			 port;
	int			 ch, rv = SR_OK;

	optind = 0;
	while ((ch = getopt_long(argc, argv, "t:H:p:h", longopts, NULL)) != -1) {
		switch (ch) {
		case 't':
			transport = optarg;
			break;
		case 'H':
			if (optarg[0] == '\0')
				return cmd_usage("serve", "--host is empty");
			replace(&cfg->http_host, optarg);
			break;
		case 'p':
			if (cmd_parse_long(optarg, 0, 65535, &port) != 0)
				return cmd_usage("serve", "--port must be a "
				    "number from 0 to 65535, not '%s'", optarg);
			cfg->http_port = (int)port;
			break;
		case 'P':
			if (optarg[0] != '/')
				return cmd_usage("serve", "--path must start "
				    "with '/', not '%s'", optarg);
			replace(&cfg->http_path, optarg);
			break;
		case 'S':
			cfg->stateless = 0;
			break;
		case 'L':
			cfg->stateless = 1;
			break;
		case 'w':
			cfg->watch_enabled = 1;
			break;
		case 'W':
			cfg->watch_enabled = 0;
			break;
		case 'h':
			return cmd_help("serve");
		default:
			return cmd_usage("serve", "unknown option");
		}
	}
	if (optind < argc)
		return cmd_usage("serve", "unexpected argument '%s'",
		    argv[optind]);
	if (strcmp(transport, "stdio") != 0 && strcmp(transport, "http") != 0)
		return cmd_usage("serve", "unknown transport '%s' (use stdio "
		    "or http)", transport);

	/* Replicas on one host tell their telemetry apart by port. */
	if (strcmp(transport, "http") == 0 && cfg->http_port > 0 &&
	    (cfg->telemetry_replica == NULL || *cfg->telemetry_replica == '\0')) {
		name = replica_name(cfg, 1);
		replace(&cfg->telemetry_replica, name);
		free(name);
		name = NULL;
	}

	/*
	 * Every thread started from here on (telemetry writer, start-up
	 * rescan, watcher, HTTP pool) inherits SIGTERM and SIGINT blocked,
	 * so the signal always reaches this thread and ends the server.
	 */
	cmd_block_signals(&mask);
	/*
	 * On a postgres store, serve without --watch is a replica: it loads
	 * the shared index and follows its writer, never indexing itself.
	 */
	follower = cfg->store_backend == STORE_BACKEND_POSTGRES &&
	    !cfg->watch_enabled;
	if (follower) {
		/*
		 * An unreachable store does not stop a replica: it starts
		 * empty (/healthz says 503) and loads everything when the
		 * store answers. Only what retrying cannot fix is fatal.
		 */
		if ((rv = store_counter_now(cfg, &since, &cause)) == SR_IO) {
			cmd_warn("store: %s; starting with no skills, retrying",
			    cause);
			free(cause);
			cause = NULL;
			since = -1;
			empty = ENGINE_EMPTY;
		} else if (rv != 0)
			return cmd_fail(rv, cause);
		rv = cmd_engine_open(ctx, ENGINE_FOLLOW | ENGINE_QUIET | empty,
		    &e);
	} else	/* the rescan runs in the background: initialize at once */
		rv = cmd_engine_open(ctx, ENGINE_BACKGROUND | ENGINE_QUIET, &e);
	if (rv != 0)
		return rv;
	/* mini_index.auto: the serve-time rescan is an index run too. */
	if (!follower) {
		/* A snapshot: that rescan runs on its own thread. */
		const struct engine_snap *sn = engine_snap_get(e);

		if (miniindex_auto(cfg, engine_snap_skills(sn),
		    engine_sanitizer(e), NULL, &cause) != 0) {
			cmd_warn("mini-index: %s", cause);
			free(cause);
			cause = NULL;
		}
		engine_snap_put(e, sn);
	}
	if ((rv = mcp_server_new(e, cfg, &srv, &cause)) != 0) {
		engine_free(e);
		return cmd_fail(rv, cause);
	}
	if (cfg->watch_enabled) {
		reload.ctx = ctx;
		reload.srv = srv;
		reload.stdio = strcmp(transport, "http") != 0;
		hooks.updated = on_reload;
		hooks.failed = on_reload_error;
		hooks.arg = &reload;
		if ((rv = watch_start(e, cfg, &hooks, &w, &cause)) != 0) {
			mcp_server_free(srv);
			engine_free(e);
			return cmd_fail(rv, cause);
		}
		mcp_server_set_watching(srv, 1);
		if (ctx->verbose)
			fprintf(stderr, "skills-radar: watching %d directories\n",
			    watch_count(w));
	}
	reload.ctx = ctx;
	reload.srv = srv;
	reload.stdio = strcmp(transport, "http") != 0;
	if (follower) {
		rhooks.updated = on_replica_update;
		rhooks.state = on_replica_state;
		rhooks.arg = &reload;
		name = replica_name(cfg, !reload.stdio);
		mcp_server_follow(srv);
		if (!empty)	/* loaded at open, from counter since on */
			mcp_server_set_store(srv, 1, 1, (long long)since, NULL);
		rv = replica_start(e, cfg, since, name, &rhooks, &rep, &cause);
		free(name);
		if (rv != 0) {
			mcp_server_free(srv);
			engine_free(e);
			return cmd_fail(rv, cause);
		}
		mcp_server_set_watching(srv, 1);
	}
	if (strcmp(transport, "http") == 0)
		rv = serve_http(ctx, srv, e, &mask);
	else {
		cmd_set_signals();
		pthread_sigmask(SIG_SETMASK, &mask, NULL);	/* only here */
		if (ctx->verbose)
			fprintf(stderr, "skills-radar: serving %zu skills over "
			    "MCP on stdio\n", engine_count(e));
		rv = mcp_stdio_run(srv, STDIN_FILENO, STDOUT_FILENO,
		    (size_t)(cfg->max_message_kb > 0 ? cfg->max_message_kb :
		    1024) * 1024, &cmd_stop, &cause);
		if (rv != 0)
			rv = cmd_fail(rv, cause);
	}
	replica_stop(rep);
	watch_stop(w);
	mcp_server_free(srv);
	engine_free(e);
	return rv;
}
