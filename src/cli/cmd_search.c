/*
 * search: hybrid retrieval from the command line.
 */
#include "autoconfig.h"

#include <sys/ioctl.h>

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "cli/cmd.h"
#include "core/config.h"
#include "engine/engine.h"
#include "search/search.h"
#include "core/skill.h"
#include "base/status.h"
#include "base/strlist.h"
#include "telemetry/telemetry.h"
#include "base/text.h"


static const char *
jstr(cJSON *o, const char *k)
{
	const char	*s = cJSON_GetStringValue(cJSON_GetObjectItem(o, k));

	return s != NULL ? s : "";
}

static void
print_explain(cJSON *ex)
{
	static const char *keys[] = { "lexical", "coverage", "ngram", "prefix",
	    "cosine", "exact", "raw", "margin", "project_boost", "bm25",
	    "fused", "rerank" };
	cJSON	*it, *t;
	size_t	 i;
	int	 first = 1;

	printf("      ");
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		if ((it = cJSON_GetObjectItem(ex, keys[i])) == NULL ||
		    !cJSON_IsNumber(it))
			continue;
		printf("%s%s=%.3f", first ? "" : " ", keys[i], it->valuedouble);
		first = 0;
	}
	if ((t = cJSON_GetObjectItem(ex, "matched_terms")) != NULL &&
	    cJSON_GetArraySize(t) > 0) {
		printf("%sterms=", first ? "" : " ");
		i = 0;
		cJSON_ArrayForEach(it, t)
			printf("%s%s", i++ ? "," : "", cJSON_GetStringValue(it));
	}
	if ((it = cJSON_GetObjectItem(ex, "select")) != NULL)
		printf("%sselect", first ? "" : " ");
	printf("\n");
}

/* One line on stderr per Ollama stage that failed, and what it cost. */
static void
print_stages(cJSON *stages)
{
	cJSON		*st;
	const char	*err;

	cJSON_ArrayForEach(st, stages) {
		if ((err = cJSON_GetStringValue(cJSON_GetObjectItem(st,
		    "error"))) == NULL)
			continue;
		fprintf(stderr, "skills-radar: %s %s: %s\n", st->string,
		    cJSON_IsTrue(cJSON_GetObjectItem(st, "ran")) ?
		    "partly failed" : "failed (fail-open, results without it)",
		    err);
	}
}

/* The name a person reads: as written (display_name), else the id. */
static const char *
shown_name(cJSON *m)
{
	const char	*d = cJSON_GetStringValue(cJSON_GetObjectItem(m,
			    "display_name"));

	return d != NULL ? d : jstr(m, "name");
}

static void
print_table(cJSON *res, int width, const struct config *cfg)
{
	cJSON	*arr, *m, *sh, *it;
	char	*ename;
	int	 rank = 0, left, nw = 8, l;

	arr = cJSON_GetObjectItem(res, "matches");
	cJSON_ArrayForEach(m, arr)
		if ((l = (int)strlen(shown_name(m))) > nw)
			nw = l > 32 ? 32 : l;
	cJSON_ArrayForEach(m, arr) {
		rank++;
		/* Names and paths are the author's: escaped (text.h). */
		ename = text_escape_controls(shown_name(m));
		printf("%2d %5.3f %-*s %-7s %-9s ", rank,
		    cJSON_GetNumberValue(cJSON_GetObjectItem(m, "score")),
		    nw, ename, jstr(m, "kind"), jstr(m, "trust"));
		free(ename);
		/* rank, score, name, kind, trust and their separators */
		l = (int)strlen(shown_name(m));
		left = width - (28 + (l > nw ? l : nw));
		if (cJSON_GetStringValue(cJSON_GetObjectItem(m, "signer")) !=
		    NULL) {
			printf("[signed: ");
			text_fputs_safe(jstr(m, "signer"), stdout);
			printf("] ");
			left -= 11 + (int)strlen(jstr(m, "signer"));
		}
		left -= cmd_print_risk(m);
		cmd_print_cut(jstr(m, "description"), left);
		printf("\n");
		sh = cJSON_GetObjectItem(m, "shadowed");
		cJSON_ArrayForEach(it, sh) {
			printf("      also: ");
			text_fputs_safe(jstr(it, "path"), stdout);
			printf(" (%s, ", jstr(it, "trust"));
			text_fputs_safe(jstr(it, "scope"), stdout);
			printf(")\n");
		}
		if ((it = cJSON_GetObjectItem(m, "explain")) != NULL)
			print_explain(it);
	}
	print_stages(cJSON_GetObjectItem(res, "stages"));
	if (rank == 0)
		printf("no matching skill\n");
	else if (cJSON_IsTrue(cJSON_GetObjectItem(res, "miss")))
		printf("(top score below %.2f: probably not what you asked "
		    "for)\n", cfg != NULL ? cfg->miss_threshold : 0.4);
	fprintf(stderr, "%d match%s of %d skills\n", rank,
	    rank == 1 ? "" : "es", (int)cJSON_GetNumberValue(
	    cJSON_GetObjectItem(res, "total_skills")));
}

static int
cmd_search(struct cmd_ctx *ctx, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "top-k", required_argument, NULL, 'n' },
		{ "tag", required_argument, NULL, 'g' },
		{ "kind", required_argument, NULL, 'k' },
		{ "explain", no_argument, NULL, 'e' },
		{ "json", no_argument, NULL, 'j' },
		{ "rewrite", no_argument, NULL, 'W' },
		{ "no-rewrite", no_argument, NULL, 'w' },
		{ "rerank", no_argument, NULL, 'R' },
		{ "no-rerank", no_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct search_opts		 so;
	struct telemetry_search_event	 ev;
	struct strlist			 tags;
	struct engine			*e = NULL;
	struct buf			 q;
	cJSON				*res = NULL;
	char				*cause = NULL, *query = NULL;
	long				 n;
	int				 ch, stop, json = 0, rv, i;

	memset(&so, 0, sizeof(so));
	so.kind = -1;
	so.top_k = ctx->cfg != NULL && ctx->cfg->default_top_k > 0 ?
	    ctx->cfg->default_top_k : 5;
	strlist_init(&tags);
	optind = 0;
	while ((ch = cmd_getopt("search", argc, argv, "n:g:k:ej", longopts,
	    &stop)) != -1) {
		switch (ch) {
		case 'n':
			if (cmd_parse_long(optarg, 1, SEARCH_TOP_K_MAX,
			    &n) == -1) {
				strlist_done(&tags);
				return cmd_usage("search", "--top-k: '%s' is not "
				    "a number from 1 to %d", optarg,
				    SEARCH_TOP_K_MAX);
			}
			so.top_k = (int)n;
			break;
		case 'g':
			strlist_add(&tags, optarg);
			break;
		case 'k':
			if ((so.kind = kind_from_name(optarg)) == -1) {
				strlist_done(&tags);
				return cmd_usage("search", "--kind: '%s' is not "
				    "one of skill, agent, command", optarg);
			}
			break;
		case 'e':
			so.explain = 1;
			break;
		case 'j':
			json = 1;
			break;
		case 'W':
		case 'w':
			so.rewrite = ch == 'W' ? SEARCH_STAGE_ON :
			    SEARCH_STAGE_OFF;
			break;
		case 'R':
		case 'r':
			so.rerank = ch == 'R' ? SEARCH_STAGE_ON :
			    SEARCH_STAGE_OFF;
			break;
		}
	}
	if (stop != -1) {
		strlist_done(&tags);
		return stop;
	}
	buf_init(&q, 0);
	for (i = optind; i < argc; i++) {
		if (i > optind)
			buf_addc(&q, ' ');
		buf_addstr(&q, argv[i]);
	}
	query = buf_take(&q);
	if (query[strspn(query, " \t\r\n")] == '\0') {
		free(query);
		strlist_done(&tags);
		return cmd_usage("search", "a query is required");
	}
	so.query = query;
	so.tags = tags.n > 0 ? &tags : NULL;
	/* It prints matches only: no stored findings to read (lean). */
	if ((rv = engine_open(ctx->cfg, ENGINE_LEAN | ENGINE_CACHED |
	    (json ? ENGINE_QUIET : 0), &e, &cause)) != 0)
		goto fail;
	if (engine_telemetry_error(e) != NULL)
		cmd_warn("telemetry is off for this run: %s",
		    engine_telemetry_error(e));
	if ((rv = engine_search(e, &so, &res, &ev, &cause)) != 0)
		goto fail;
	/*
	 * The caller records the event (DESIGN §2). Every run is a process
	 * of its own: the user's CLI session links a load to a search.
	 */
	ev.session = cmd_cli_session();
	telemetry_search(engine_telemetry(e), &ev);
	if (json)
		rv = cmd_print_json(res);
	else {
		print_table(res, cmd_term_width(), ctx->cfg);
		cJSON_Delete(res);
		rv = SR_OK;
	}
	engine_free(e);
	free(query);
	strlist_done(&tags);
	return rv;
fail:
	engine_free(e);
	free(query);
	strlist_done(&tags);
	if (rv == SR_USAGE) {
		rv = cmd_usage("search", "%s", cause != NULL ? cause : "bad query");
		free(cause);
		return rv;
	}
	return cmd_fail(rv, cause);
}

const struct cmd_entry cmd_search_entry = {
	"search", cmd_search, CMD_NEEDS_CONFIG,
	"[--top-k N] [--tag T]... [--kind K] [--explain] [--json] "
	"[--rewrite|--no-rewrite] [--rerank|--no-rerank] QUERY",
	"search skills by intent"
};
