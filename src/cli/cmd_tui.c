/*
 * tui: the live dashboard (tui/), or one plain-text frame with --once.
 */
#include "autoconfig.h"

#include <getopt.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd.h"
#include "base/pgdsn.h"
#include "telemetry/telemetry.h"
#include "core/config.h"
#include "base/status.h"
#include "store/store.h"
#include "base/xmalloc.h"
#include "tui/tui.h"

/* Parses "2", "0.5", "250ms" or "1s" into milliseconds, or -1. */
static int
parse_refresh(const char *s)
{
	char	*end;
	double	 v;

	v = strtod(s, &end);
	if (end == s)
		return -1;
	if (strcmp(end, "ms") == 0)
		v /= 1000;
	else if (*end != '\0' && strcmp(end, "s") != 0)
		return -1;
	if (!(v >= 0.05 && v <= 3600))
		return -1;
	return (int)(v * 1000 + 0.5);
}

/*
 * The dashboard's index, read-only through the store dispatcher: the
 * configured backend (SQLite or PostgreSQL), not always index.db.
 */
static int
open_index(const struct config *cfg, struct store **out, char **cause)
{
	return store_open_cfg(cfg, 1, out, cause);
}

static int
cmd_tui(struct cmd_ctx *ctx, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "once", no_argument, NULL, 'o' },
		{ "db", required_argument, NULL, 'd' },
		{ "refresh", required_argument, NULL, 'r' },
		{ "range", required_argument, NULL, 't' },
		{ "color", no_argument, NULL, 'C' },
		{ "no-color", no_argument, NULL, 'M' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct tui_opts	 o;
	const char	*nc;
	char		*stats_path = NULL, *dir, *cause = NULL, *shown;
	int		 ch, stop, once = 0, color = -1, rv, r;

	memset(&o, 0, sizeof o);
	o.refresh_ms = 250;
	o.range = RANGE_ALL;
	optind = 0;
	while ((ch = cmd_getopt("tui", argc, argv, "od:r:t:h", longopts,
	    &stop)) != -1) {
		switch (ch) {
		case 'o':
			once = 1;
			break;
		case 'd':
			free(stats_path);
			stats_path = xstrdup(optarg);
			break;
		case 'r':
			if ((o.refresh_ms = parse_refresh(optarg)) < 0) {
				free(stats_path);
				return cmd_usage("tui", "--refresh: '%s' is "
				    "not a number of seconds in 0.05..3600",
				    optarg);
			}
			break;
		case 't':
			if ((r = tui_range_parse(optarg)) < 0) {
				free(stats_path);
				return cmd_usage("tui", "--range: '%s' is not "
				    "one of 1h, 24h, 7d, all", optarg);
			}
			o.range = r;
			break;
		case 'C':
			color = 1;
			break;
		case 'M':
			color = 0;
			break;
		}
	}
	if (stop != -1 || (stop = cmd_no_args("tui", argc, argv)) != 0) {
		free(stats_path);
		return stop;
	}
	if (stats_path == NULL && ctx->cfg != NULL &&
	    ctx->cfg->telemetry_backend == TELEMETRY_BACKEND_POSTGRES &&
	    ctx->cfg->telemetry_dsn != NULL && *ctx->cfg->telemetry_dsn != '\0') {
		stats_path = xstrdup(ctx->cfg->telemetry_dsn);
		o.stats_pg = 1;
	}
	if (stats_path == NULL && ctx->cfg != NULL &&
	    ctx->cfg->telemetry_path != NULL)
		stats_path = xstrdup(ctx->cfg->telemetry_path);
	if (stats_path == NULL) {
		dir = config_data_dir();
		xasprintf(&stats_path, "%s/stats.db", dir);
		free(dir);
	}
	o.telemetry_off = ctx->cfg != NULL && !ctx->cfg->telemetry_enabled;
	/* Wide characters and line drawing; numbers stay in the C locale. */
	setlocale(LC_CTYPE, "");

	nc = getenv("NO_COLOR");
	o.stats_path = stats_path;
	if (pg_is_uri(stats_path))
		o.stats_pg = 1;
	shown = o.stats_pg ? pg_dsn_redact(stats_path) : xstrdup(stats_path);
	o.stats_shown = shown;
	o.index_path = ctx->cfg != NULL ? ctx->cfg->index_path : NULL;
	o.index_open = open_index;
	o.verbose = ctx->verbose;
	if (once) {
		/* Plain text unless --color asks for escapes. */
		o.color = color == 1;
		o.mono = nc != NULL && *nc != '\0';
		rv = tui_once(ctx->cfg, &o, &cause);
	} else {
		o.mono = color == 0 ||
		    (color != 1 && nc != NULL && *nc != '\0');
		rv = tui_run(ctx->cfg, &o, &cause);
	}
	free(stats_path);
	free(shown);
	if (rv != SR_OK)
		return cmd_fail(rv, cause);
	return SR_OK;
}

const struct cmd_entry cmd_tui_entry = {
	"tui", cmd_tui, CMD_NEEDS_CONFIG,
	"[--once] [--color|--no-color] [--range 1h|24h|7d|all] [--db PATH] "
	"[--refresh SECONDS]",
	"live dashboard of searches and loads"
};
