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

#include "cli/cmd.h"
#include "core/config.h"
#include "engine/engine.h"
#include "mcp/mcp.h"
#include "mcp/mcp_http.h"
#include "mcp/mcp_stdio.h"
#include "tier1/miniindex.h"
#include "engine/replica.h"
#include "base/status.h"
#include "store/store.h"
#include "engine/watch.h"
#include "base/xmalloc.h"

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

/*
 * What serve's flags ask for. The HTTP ones and --watch override the
 * configuration (serve_options_apply); NULL or -1 leaves a key as it is.
 */
struct serve_options {
	const char	*transport;	/* "stdio" or "http" */
	const char	*host;
	const char	*path;
	long		 port;
	int		 stateless;
	int		 watch;
};

/*
 * Fills o from argv. Returns -1 when serve goes on, else the status to
 * exit with at once (--help, or a usage error already printed).
 */
static int
serve_options_parse(int argc, char **argv, struct serve_options *o)
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
	int	 ch, stop;

	o->transport = "stdio";
	o->host = o->path = NULL;
	o->port = -1;
	o->stateless = o->watch = -1;
	optind = 0;
	while ((ch = cmd_getopt("serve", argc, argv, "t:H:p:h", longopts,
	    &stop)) != -1) {
		switch (ch) {
		case 't':
			o->transport = optarg;
			break;
		case 'H':
			if (optarg[0] == '\0')
				return cmd_usage("serve", "--host is empty");
			o->host = optarg;
			break;
		case 'p':
			if (cmd_parse_long(optarg, 0, 65535, &o->port) != 0)
				return cmd_usage("serve", "--port must be a "
				    "number from 0 to 65535, not '%s'", optarg);
			break;
		case 'P':
			if (optarg[0] != '/')
				return cmd_usage("serve", "--path must start "
				    "with '/', not '%s'", optarg);
			o->path = optarg;
			break;
		case 'S':
		case 'L':
			o->stateless = ch == 'L';
			break;
		case 'w':
		case 'W':
			o->watch = ch == 'w';
			break;
		}
	}
	if (stop != -1 || (stop = cmd_no_args("serve", argc, argv)) != 0)
		return stop;
	if (strcmp(o->transport, "stdio") != 0 &&
	    strcmp(o->transport, "http") != 0)
		return cmd_usage("serve", "unknown transport '%s' (use stdio "
		    "or http)", o->transport);
	return -1;
}

/* Writes the flags given into cfg, which the engine and server read. */
static void
serve_options_apply(const struct serve_options *o, struct config *cfg)
{
	char	*name;

	if (o->host != NULL)
		replace(&cfg->http_host, o->host);
	if (o->port != -1)
		cfg->http_port = (int)o->port;
	if (o->path != NULL)
		replace(&cfg->http_path, o->path);
	if (o->stateless != -1)
		cfg->stateless = o->stateless;
	if (o->watch != -1)
		cfg->watch_enabled = o->watch;
	/* Replicas on one host tell their telemetry apart by port. */
	if (strcmp(o->transport, "http") == 0 && cfg->http_port > 0 &&
	    (cfg->telemetry_replica == NULL || *cfg->telemetry_replica == '\0')) {
		name = replica_name(cfg, 1);
		replace(&cfg->telemetry_replica, name);
		free(name);
	}
}

/* A running server: the engine, the MCP server and what keeps it fresh. */
struct serve {
	struct cmd_ctx		*ctx;
	struct config		*cfg;
	struct engine		*e;
	struct mcp_server	*srv;
	struct watch		*w;
	struct replica		*rep;
	struct reload_ctx	 reload;
	int			 follower;
	int			 empty;		/* ENGINE_EMPTY or 0 */
	int64_t			 since;		/* the store's counter at open */
};

/*
 * Opens the engine and the MCP server on it: a replica of a postgres
 * store (serve without --watch) loads the shared index; otherwise the
 * rescan starts in the background. Returns SR_OK or the status, the
 * error printed; on error s->e and s->srv are NULL.
 */
static int
serve_open(struct serve *s)
{
	struct config	*cfg = s->cfg;
	char		*cause = NULL;
	int		 rv;

	/*
	 * On a postgres store, serve without --watch is a replica: it loads
	 * the shared index and follows its writer, never indexing itself.
	 */
	s->follower = cfg->store_backend == STORE_BACKEND_POSTGRES &&
	    !cfg->watch_enabled;
	if (s->follower) {
		/*
		 * An unreachable store does not stop a replica: it starts
		 * empty (/healthz says 503) and loads everything when the
		 * store answers. Only what retrying cannot fix is fatal.
		 */
		if ((rv = store_counter_now(cfg, &s->since, &cause)) == SR_IO) {
			cmd_warn("store: %s; starting with no skills, retrying",
			    cause);
			free(cause);
			cause = NULL;
			s->since = -1;
			s->empty = ENGINE_EMPTY;
		} else if (rv != 0)
			return cmd_fail(rv, cause);
		rv = cmd_engine_open(s->ctx, ENGINE_FOLLOW | ENGINE_QUIET |
		    s->empty, &s->e);
	} else	/* the rescan runs in the background: initialize at once */
		rv = cmd_engine_open(s->ctx, ENGINE_BACKGROUND | ENGINE_QUIET,
		    &s->e);
	if (rv != 0)
		return rv;
	/* mini_index.auto: the serve-time rescan is an index run too. */
	if (!s->follower) {
		/* A snapshot: that rescan runs on its own thread. */
		const struct engine_snap *sn = engine_snap_get(s->e);

		if (miniindex_auto(cfg, engine_snap_skills(sn),
		    engine_sanitizer(s->e), NULL, &cause) != 0) {
			cmd_warn("mini-index: %s", cause);
			free(cause);
			cause = NULL;
		}
		engine_snap_put(s->e, sn);
	}
	if ((rv = mcp_server_new(s->e, cfg, &s->srv, &cause)) != 0) {
		engine_free(s->e);
		s->e = NULL;
		return cmd_fail(rv, cause);
	}
	return SR_OK;
}

/*
 * Starts what keeps the skills fresh: the watcher (watch.enabled) and,
 * on a replica, the thread following the store. Returns SR_OK or the
 * status, the error printed; the caller stops whatever did start.
 */
static int
serve_follow(struct serve *s)
{
	struct config		*cfg = s->cfg;
	struct watch_hooks	 hooks;
	struct replica_hooks	 rhooks;
	char			*cause = NULL, *name;
	int			 rv;

	if (cfg->watch_enabled) {
		hooks.updated = on_reload;
		hooks.failed = on_reload_error;
		hooks.arg = &s->reload;
		if ((rv = watch_start(s->e, cfg, &hooks, &s->w, &cause)) != 0)
			return cmd_fail(rv, cause);
		mcp_server_set_watching(s->srv, 1);
		if (s->ctx->verbose)
			fprintf(stderr, "skills-radar: watching %d directories\n",
			    watch_count(s->w));
	}
	if (s->follower) {
		rhooks.updated = on_replica_update;
		rhooks.state = on_replica_state;
		rhooks.arg = &s->reload;
		name = replica_name(cfg, !s->reload.stdio);
		mcp_server_follow(s->srv);
		if (!s->empty)	/* loaded at open, from counter since on */
			mcp_server_set_store(s->srv, 1, 1, (long long)s->since,
			    NULL);
		rv = replica_start(s->e, cfg, s->since, name, &rhooks, &s->rep,
		    &cause);
		free(name);
		if (rv != 0)
			return cmd_fail(rv, cause);
		mcp_server_set_watching(s->srv, 1);
	}
	return SR_OK;
}

/* Serves MCP on stdin and stdout until end of input or a signal. */
static int
serve_stdio(struct serve *s, const sigset_t *orig)
{
	struct config	*cfg = s->cfg;
	char		*cause = NULL;
	int		 rv;

	cmd_set_signals();
	pthread_sigmask(SIG_SETMASK, orig, NULL);	/* only here */
	if (s->ctx->verbose)
		fprintf(stderr, "skills-radar: serving %zu skills over "
		    "MCP on stdio\n", engine_count(s->e));
	rv = mcp_stdio_run(s->srv, STDIN_FILENO, STDOUT_FILENO,
	    (size_t)(cfg->max_message_kb > 0 ? cfg->max_message_kb :
	    1024) * 1024, &cmd_stop, &cause);
	if (rv != 0)
		rv = cmd_fail(rv, cause);
	return rv;
}

static int
cmd_serve(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct serve_options	 opts;
	struct serve		 s;
	sigset_t		 mask;
	int			 rv;

	if ((rv = serve_options_parse(argc, argv, &opts)) != -1)
		return rv;
	serve_options_apply(&opts, ctx->cfg);

	memset(&s, 0, sizeof s);
	s.ctx = ctx;
	s.cfg = ctx->cfg;
	s.reload.ctx = ctx;
	s.reload.stdio = strcmp(opts.transport, "http") != 0;
	/*
	 * Every thread started from here on (telemetry writer, start-up
	 * rescan, watcher, HTTP pool) inherits SIGTERM and SIGINT blocked,
	 * so the signal always reaches this thread and ends the server.
	 */
	cmd_block_signals(&mask);
	if ((rv = serve_open(&s)) != 0)
		return rv;
	s.reload.srv = s.srv;
	if ((rv = serve_follow(&s)) == 0)
		rv = s.reload.stdio ? serve_stdio(&s, &mask) :
		    serve_http(ctx, s.srv, s.e, &mask);
	replica_stop(s.rep);
	watch_stop(s.w);
	mcp_server_free(s.srv);
	engine_free(s.e);
	return rv;
}

const struct cmd_entry cmd_serve_entry = {
	"serve", cmd_serve, CMD_NEEDS_CONFIG,
	"[--transport stdio|http] [--host H] [--port P] [--path P] "
	"[--stateful|--stateless] [--watch|--no-watch]",
	"run the MCP server"
};
