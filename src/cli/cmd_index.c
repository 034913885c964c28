/*
 * index, validate: run the indexing pipeline and report what it found.
 */
#include "autoconfig.h"

#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cmd.h"
#include "core/config.h"
#include "engine/engine.h"
#include "index/indexer.h"
#include "tier1/miniindex.h"
#include "safety/sanitize.h"
#include "base/text.h"
#include "base/xmalloc.h"
#include "base/status.h"
#include "telemetry/telemetry.h"
#include "core/validate.h"
#include "engine/watch.h"

static void
print_rejects(const struct index_report *rep, int skipped)
{
	size_t	 i, n = 0;

	for (i = 0; i < rep->rejects.n; i++) {
		const struct store_reject	*r = &rep->rejects.v[i];

		if (r->skipped != skipped)
			continue;
		if (n++ == 0)
			printf("%s:\n", skipped ? "skipped" : "rejected");
		printf("  ");
		text_fputs_safe(r->path, stdout);
		printf("\n    %s: ", r->rule);
		text_fputs_safe(r->reason, stdout);
		printf("\n");
	}
}

static void
print_warnings(const struct index_report *rep, int max)
{
	size_t	 i;
	int	 n = 0;

	for (i = 0; i < rep->warnings.n; i++) {
		const struct finding	*f = &rep->warnings.v[i];
		const char		*tab = strchr(f->message, '\t');

		if (max >= 0 && n >= max) {
			printf("  ... %zu more (-v lists them all, as does "
			    "--json)\n",
			    rep->warnings.n - i);
			break;
		}
		if (n++ == 0)
			printf("warnings:\n");
		if (tab != NULL) {
			char	*where = xstrndup(f->message,
			    (size_t)(tab - f->message));

			printf("  ");
			text_fputs_safe(where, stdout);
			printf("\n    %s (%s): ", f->rule,
			    severity_name(f->sev));
			text_fputs_safe(tab + 1, stdout);
			printf("\n");
			free(where);
		}
	}
}

/* Scan problems go to stderr, with --json too: a missing root is news. */
static void
print_problems(const struct index_report *rep)
{
	size_t	 i;

	for (i = 0; i < rep->scan.problems.n; i++) {
		fprintf(stderr, "skills-radar: %s: ",
		    rep->scan.problems.v[i].rule);
		text_fputs_safe(rep->scan.problems.v[i].message, stderr);
		fputc('\n', stderr);
	}
}

static void
print_summary(const struct index_report *rep, int indexing)
{
	size_t	 rejected = 0, skipped = 0, shadowed = 0, i;

	for (i = 0; i < rep->rejects.n; i++) {
		if (rep->rejects.v[i].skipped)
			skipped++;
		else
			rejected++;
	}
	for (i = 0; i < rep->set.n; i++) {
		if (rep->set.v[i]->shadowed_by != NULL)
			shadowed++;
	}
	if (indexing && rep->kept > 0)
		printf("%zu entries indexed in %.1f ms (%zu parsed, %zu "
		    "unchanged, %zu removed, %zu kept from the last run: the "
		    "scan was incomplete)\n", rep->total, rep->duration_ms,
		    rep->parsed, rep->unchanged, rep->removed, rep->kept);
	else if (indexing)
		printf("%zu entries indexed in %.1f ms (%zu parsed, %zu "
		    "unchanged, %zu removed)%s\n", rep->total, rep->duration_ms,
		    rep->parsed, rep->unchanged, rep->removed,
		    rep->examples ? " from the bundled examples" : "");
	else
		printf("%zu files accepted\n", rep->total);
	printf("  kinds: %zu skills, %zu agents, %zu commands\n",
	    rep->by_kind[KIND_SKILL], rep->by_kind[KIND_AGENT],
	    rep->by_kind[KIND_COMMAND]);
	printf("  trust: %zu TRUSTED, %zu VERIFIED, %zu USER, %zu UNTRUSTED\n",
	    rep->by_tier[TIER_TRUSTED], rep->by_tier[TIER_VERIFIED],
	    rep->by_tier[TIER_USER], rep->by_tier[TIER_UNTRUSTED]);
	printf("  %zu rejected, %zu skipped, %zu shadowed duplicates, %zu "
	    "flagged by the sanitiser, %zu warnings\n", rejected, skipped,
	    shadowed, rep->flagged, rep->warnings.n);
	print_problems(rep);
}

/* index --watch: what the watcher's callbacks need. */
struct index_watch {
	struct cmd_ctx		*ctx;
	struct engine		*e;
	volatile sig_atomic_t	 failed;	/* retry the update */
};

static void
on_update(void *arg, int changed, double ms, const char *what)
{
	struct index_watch	*iw = arg;
	const struct engine_snap *sn;
	char			*cause = NULL;

	if (!changed)	/* also called after a failure: failed stays */
		return;
	if (iw->ctx->verbose)
		fprintf(stderr, "skills-radar: index updated: %zu skills "
		    "(%.1f ms; %s)\n", engine_count(iw->e), ms, what);
	/* A snapshot: the search index's compaction swaps on its own thread. */
	sn = engine_snap_get(iw->e);
	if (miniindex_auto(iw->ctx->cfg, engine_snap_skills(sn),
	    engine_sanitizer(iw->e), NULL, &cause) != 0) {
		cmd_warn("mini-index: %s", cause);
		free(cause);
	}
	engine_snap_put(iw->e, sn);
}

static void
on_update_error(void *arg, const char *cause)
{
	struct index_watch	*iw = arg;

	iw->failed = 1;
	cmd_warn("%s (retrying)", cause);
}

/*
 * Sleeps until SIGTERM or SIGINT (blocked in every thread: taken here
 * with sigtimedwait), and retries a failed update (the store was down)
 * every store.poll_ms, so an edit made meanwhile is not left unwritten
 * until the next one.
 */
static void
wait_and_retry(struct index_watch *iw)
{
	struct timespec	 ts;
	sigset_t	 set;
	char		*cause = NULL;
	int		 changed, ms = iw->ctx->cfg->store_poll_ms;

	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	ts.tv_sec = ms / 1000;
	ts.tv_nsec = (long)(ms % 1000) * 1000000L;
	while (sigtimedwait(&set, NULL, &ts) == -1) {
		if (!iw->failed)
			continue;
		if (engine_reload(iw->e, "watch", &changed, &cause) == 0) {
			iw->failed = 0;
			cmd_warn("the index is written again");
			on_update(iw, changed, 0, "retry");
		} else
			free(cause);
		cause = NULL;
	}
}

/*
 * Keeps the index up to date until SIGTERM or SIGINT: the watcher of
 * serve --watch, without a server. On a postgres store this process is
 * the writer its replicas follow. SIGTERM and SIGINT were blocked before
 * any thread started.
 */
static int
index_watch(struct cmd_ctx *ctx)
{
	struct index_watch	 iw;
	struct watch_hooks	 hooks;
	struct watch		*w = NULL;
	char			*cause = NULL;
	int			 rv;

	iw.ctx = ctx;
	iw.failed = 0;
	if ((rv = cmd_engine_open(ctx, ENGINE_QUIET, &iw.e)) != 0)
		return rv;
	hooks.updated = on_update;
	hooks.failed = on_update_error;
	hooks.arg = &iw;
	if ((rv = watch_start(iw.e, ctx->cfg, &hooks, &w, &cause)) != 0) {
		engine_free(iw.e);
		return cmd_fail(rv, cause);
	}
	fprintf(stderr, "skills-radar: watching %d directories; the index "
	    "is kept in %s\n", watch_count(w), ctx->cfg->store_backend ==
	    STORE_BACKEND_POSTGRES ? "postgres" : ctx->cfg->index_path);
	fflush(stderr);
	wait_and_retry(&iw);
	watch_stop(w);
	engine_free(iw.e);
	return SR_OK;
}

static int
cmd_index(struct cmd_ctx *ctx, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "rebuild", no_argument, NULL, 'r' },
		{ "json", no_argument, NULL, 'j' },
		{ "watch", no_argument, NULL, 'w' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct index_report	 rep;
	sigset_t		 mask;
	char			*cause = NULL;
	int			 ch, stop, json = 0, flags = 0, rv, watch = 0;
	size_t			 i;

	while ((ch = cmd_getopt("index", argc, argv, "rjw", longopts,
	    &stop)) != -1) {
		switch (ch) {
		case 'w':
			watch = 1;
			break;
		case 'r':
			flags |= INDEX_REBUILD;
			break;
		case 'j':
			json = 1;
			break;
		}
	}
	if (stop != -1 || (stop = cmd_no_args("index", argc, argv)) != 0)
		return stop;
	if (ctx->progress && !json)
		flags |= INDEX_PROGRESS;
	if (watch)	/* before any thread starts */
		cmd_block_signals(&mask);
	index_report_init(&rep);
	if ((rv = indexer_run(ctx->cfg, NULL, NULL, flags, &rep, &cause)) != 0) {
		index_report_done(&rep);
		return cmd_fail(rv, cause);
	}
	/* The index event (telemetry, when enabled); failing is a warning. */
	{
		struct telemetry	*tel = NULL;

		if (telemetry_open(ctx->cfg, NULL, &tel, &cause) != 0) {
			cmd_warn("telemetry is off for this run: %s", cause);
			free(cause);
			cause = NULL;
		}
		telemetry_index(tel, rep.total, rep.duration_ms, "cli");
		telemetry_close(tel);
	}
	/* mini_index.auto: keep the Tier-1 file in step with the index. */
	{
		struct sanitizer	*san = NULL;
		int			 written = 0;

		/* For the gists of skills whose description is their name. */
		if (ctx->cfg->mini_auto &&
		    sanitize_new(ctx->cfg, &san, &cause) != 0) {
			free(cause);
			cause = NULL;
		}
		if (miniindex_auto(ctx->cfg, &rep.set, san, &written,
		    &cause) != 0) {
			cmd_warn("mini-index: %s", cause);
			free(cause);
			cause = NULL;
		} else if (written && !json)
			printf("mini-index: %s updated\n", ctx->cfg->mini_path);
		sanitize_free(san);
	}
	/* The search cache: the first search after an index only loads. */
	if (engine_warm(ctx->cfg, &cause) != 0) {
		cmd_warn("search cache: %s", cause);
		free(cause);
		cause = NULL;
	}
	for (i = 0; i < rep.warnings.n; i++) {
		/* A configured key that did not load is a setup problem. */
		if (strcmp(rep.warnings.v[i].rule, "signer-key-invalid") == 0)
			cmd_warn("%s", strchr(rep.warnings.v[i].message,
			    '\t') != NULL ? strchr(rep.warnings.v[i].message,
			    '\t') + 1 : rep.warnings.v[i].message);
	}
	if (json) {
		rv = cmd_print_json(index_report_json(&rep));
		print_problems(&rep);
	} else {
		print_summary(&rep, 1);
		print_rejects(&rep, 0);
		if (ctx->verbose)
			print_rejects(&rep, 1);
		/* The summary counts them: the first ten, all with -v. */
		print_warnings(&rep, ctx->verbose ? -1 : 10);
		printf("index: %s\n", ctx->cfg->store_backend ==
		    STORE_BACKEND_POSTGRES ? "postgres" : ctx->cfg->index_path);
	}
	/*
	 * An incomplete scan is written (what was reached is current) but,
	 * when it stopped at a limit or kept entries it could not see, the
	 * index is not the truth of the disk: exit 1 so that a script does
	 * not take it for the whole picture. A missing root that held
	 * nothing leaves an index that is right: its line above is enough.
	 * Under --watch the watcher takes over.
	 */
	if (!rep.complete && (rep.scan.capped || rep.kept > 0)) {
		cmd_warn("the scan was incomplete (see above): %zu entries not "
		    "reached were kept from the last run",
		    rep.kept);
		if (rv == 0 && !watch)
			rv = SR_ERR;
	}
	index_report_done(&rep);
	if (rv == 0 && watch) {
		fflush(stdout);
		rv = index_watch(ctx);
	}
	return rv;
}

static cJSON *
validate_json(const struct index_report *rep)
{
	cJSON	*o, *a, *e;
	size_t	 i;

	o = index_report_json(rep);
	cJSON_DeleteItemFromObject(o, "indexed");
	cJSON_DeleteItemFromObject(o, "unchanged");
	cJSON_DeleteItemFromObject(o, "removed");
	cJSON_DeleteItemFromObject(o, "written");
	cJSON_DeleteItemFromObject(o, "warnings");
	a = cJSON_AddArrayToObject(o, "warnings");
	for (i = 0; i < rep->warnings.n; i++) {
		const struct finding	*f = &rep->warnings.v[i];
		const char		*tab = strchr(f->message, '\t');

		e = cJSON_CreateObject();
		if (tab != NULL) {
			char	*p = strndup(f->message,
			    (size_t)(tab - f->message));

			cJSON_AddStringToObject(e, "path", p);
			free(p);
		}
		cJSON_AddStringToObject(e, "rule", f->rule);
		cJSON_AddStringToObject(e, "severity", severity_name(f->sev));
		cJSON_AddNumberToObject(e, "line", f->line);
		cJSON_AddStringToObject(e, "message",
		    tab != NULL ? tab + 1 : f->message);
		cJSON_AddItemToArray(a, e);
	}
	a = cJSON_AddArrayToObject(o, "flagged_entries");
	for (i = 0; i < rep->set.n; i++) {
		const struct skill	*s = rep->set.v[i];

		if (s->n_flags == 0)
			continue;
		e = cJSON_CreateObject();
		cJSON_AddStringToObject(e, "path", s->path);
		cJSON_AddStringToObject(e, "trust", tier_name(s->trust));
		cJSON_AddStringToObject(e, "ids", s->flag_ids);
		cJSON_AddStringToObject(e, "max_severity",
		    severity_name((enum severity)s->max_flag_sev));
		cJSON_AddItemToArray(a, e);
	}
	return o;
}

/* The rule list of skills-radar(1), VALIDATION RULES, as mdoc items. */
static int
print_rules_mdoc(void)
{
	const struct validate_rule	*tables[] = { validate_rules, indexer_rules };
	const struct validate_rule	*r;
	size_t				 i;

	for (i = 0; i < sizeof tables / sizeof tables[0]; i++) {
		for (r = tables[i]; r->id != NULL; r++)
			printf(".It Li %s Pq %s\n%s.\n", r->id,
			    severity_name((enum severity)r->sev), r->what);
	}
	return SR_OK;
}

static int
cmd_validate(struct cmd_ctx *ctx, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "rules-mdoc", no_argument, NULL, 'R' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct index_report	 rep;
	char			*cause = NULL;
	size_t			 i, rejected = 0;
	int			 ch, stop, json = 0, rv;

	while ((ch = cmd_getopt("validate", argc, argv, "j", longopts,
	    &stop)) != -1) {
		switch (ch) {
		case 'j':
			json = 1;
			break;
		case 'R':
			return print_rules_mdoc();
		}
	}
	if (stop != -1)
		return stop;
	index_report_init(&rep);
	if (optind < argc)
		rv = indexer_validate_paths(ctx->cfg, NULL, argv + optind,
		    argc - optind, &rep, &cause);
	else
		rv = indexer_run(ctx->cfg, NULL, NULL, INDEX_NOWRITE |
		    (ctx->progress && !json ? INDEX_PROGRESS : 0), &rep, &cause);
	if (rv != 0) {
		index_report_done(&rep);
		return cmd_fail(rv, cause);
	}
	for (i = 0; i < rep.rejects.n; i++) {
		if (!rep.rejects.v[i].skipped)
			rejected++;
	}
	if (json)
		rv = cmd_print_json(validate_json(&rep));
	else {
		print_summary(&rep, 0);
		print_rejects(&rep, 0);
		print_rejects(&rep, 1);
		print_warnings(&rep, ctx->verbose ? -1 : 50);
		for (i = 0; i < rep.set.n; i++) {
			const struct skill	*s = rep.set.v[i];

			if (s->n_flags == 0)
				continue;
			printf("flagged: ");
			text_fputs_safe(s->path, stdout);
			printf("\n    %s (%s, %s)\n",
			    s->flag_ids, severity_name((enum severity)
			    s->max_flag_sev), tier_name(s->trust));
		}
	}
	index_report_done(&rep);
	if (rv == 0 && rejected > 0)
		rv = SR_ERR;
	return rv;
}

const struct cmd_entry cmd_index_entry = {
	"index", cmd_index, CMD_NEEDS_CONFIG,
	"[--rebuild] [--json] [--watch]",
	"scan the roots and update the index (--watch: keep it updated)"
};

const struct cmd_entry cmd_validate_entry = {
	"validate", cmd_validate, CMD_NEEDS_CONFIG,
	"[--json] [PATH ...]",
	"lint skill files without touching the index"
};
