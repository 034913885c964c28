/*
 * Unit tests for learning from use (usage.c) at chosen times: the usage
 * boost is a bounded prior that decays to a floor and never crosses the
 * miss threshold; learned words decay with their half-life; a fresh
 * stats.db row is picked up by the next refresh only after
 * USAGE_REFRESH_SEC unless forced; telemetry off builds no model.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "core/config.h"
#include "search/search.h"
#include "core/skill.h"
#include "base/status.h"
#include "telemetry/telemetry.h"
#include "telemetry/usage.h"
#include "base/xmalloc.h"
#include "tap.h"

#define DAY	86400.0
#define NOW	1.8e9

static void
mk(struct skill_set *set, const char *name, const char *desc)
{
	struct skill	*s = skill_new();

	s->name = xstrdup(name);
	s->uid = xstrdup(name);
	xasprintf(&s->path, "/skills/%s/SKILL.md", name);
	s->scope = xstrdup("user");
	s->description = xstrdup(desc);
	s->when_to_use = xstrdup("");
	skill_set_add(set, s);
}

/* A fresh stats.db at path holding the statements of sql. */
static int
stats_db(const char *path, const char *sql)
{
	sqlite3	*h = NULL;
	int	 rv;

	unlink(path);
	rv = sqlite3_open(path, &h) == SQLITE_OK &&
	    sqlite3_exec(h, telemetry_schema_sql, NULL, NULL, NULL) ==
	    SQLITE_OK && sqlite3_exec(h, sql, NULL, NULL, NULL) == SQLITE_OK;
	sqlite3_close(h);
	return rv ? 0 : -1;
}

/* The score of name in a result, -1 when absent. */
static double
score_of(const struct search_result *r, const char *name)
{
	size_t	 i;

	for (i = 0; i < r->n; i++)
		if (strcmp(r->v[i].skill->name, name) == 0)
			return r->v[i].score;
	return -1;
}

/* Runs query through search_run() and usage_apply() at time now. */
static void
run(struct usage *u, const struct search_index *ix, const char *query,
    double now, struct search_result *r)
{
	struct search_opts	 o;
	char			*cause = NULL;

	memset(&o, 0, sizeof(o));
	o.query = query;
	o.top_k = 10;
	o.kind = -1;
	if (search_run(ix, &o, r, &cause) != SR_OK) {
		diag("%s", cause);
		free(cause);
		return;
	}
	usage_apply(u, ix, &o, r, now);
}

int
main(void)
{
	struct skill_set	 set;
	struct search_index	*ix = NULL;
	struct search_result	 r;
	struct config		*cfg = config_defaults();
	struct usage		*u;
	char			 path[] = "/tmp/sr-test-usage.XXXXXX", *cause = NULL;
	char			 sql[1024];
	double			 a, b, fresh, old, floor_, l1, l2;
	int			 fd;

	xmalloc_init();
	if ((fd = mkstemp(path)) == -1)
		return 1;
	close(fd);
	skill_set_init(&set);
	mk(&set, "twin-alpha", "Convert spreadsheet rows into charts.");
	mk(&set, "twin-beta", "Convert spreadsheet rows into charts.");
	mk(&set, "domain-namer", "Suggest available domain names for a product.");
	mk(&set, "pdf-filler", "Fill in PDF forms.");
	if (search_index_build(&set, cfg, &ix, &cause) != SR_OK) {
		diag("%s", cause);
		return 1;
	}

	ok(usage_new(cfg) == NULL, "telemetry off: no model");
	cfg->telemetry_enabled = 1;
	free(cfg->telemetry_path);
	cfg->telemetry_path = xstrdup(path);
	cfg->usage_boost = 0;
	cfg->learn_enabled = 0;
	ok(usage_new(cfg) == NULL, "boost 0 and learning off: no model");
	cfg->usage_boost = 0.3;
	cfg->learn_enabled = 1;

	/* twin-beta loaded 4 times, last at NOW - 1 day */
	snprintf(sql, sizeof(sql),
	    "INSERT INTO events (ts, kind, session, skill, found) VALUES "
	    "(%.0f, 'load', 'a', 'twin-beta', 1), (%.0f, 'load', 'b', "
	    "'twin-beta', 1), (%.0f, 'load', 'c', 'twin-beta', 1), "
	    "(%.0f, 'load', 'd', 'twin-beta', 1);", NOW - 3 * DAY,
	    NOW - 2 * DAY, NOW - 2 * DAY, NOW - DAY);
	ok(stats_db(path, sql) == 0, "a stats.db with four loads");
	u = usage_new(cfg);
	ok(usage_refresh(u, NOW, 1) == 1, "the model has something to apply");

	run(u, ix, "spreadsheet charts", NOW, &r);
	a = score_of(&r, "twin-alpha");
	b = score_of(&r, "twin-beta");
	ok(b > a && a > 0, "the loaded twin ranks above the other (%.4f > %.4f)",
	    b, a);
	search_result_done(&r);
	run(NULL, ix, "spreadsheet charts", NOW, &r);	/* no usage */
	ok(fabs(log(b / (1 - b)) - log(score_of(&r, "twin-beta") /
	    (1 - score_of(&r, "twin-beta"))) - 0.3) < 1e-6,
	    "the most loaded skill's log-odds move by exactly usage_boost");
	ok(score_of(&r, "twin-alpha") == a, "the other's score is untouched");
	fresh = b;
	search_result_done(&r);

	/* decay: 8 weeks later the count is at its floor, 4 x 0.1 */
	run(u, ix, "spreadsheet charts", NOW + 56 * DAY, &r);
	old = score_of(&r, "twin-beta");
	ok(old > a && old <= fresh, "decayed, it still leads but by no more");
	search_result_done(&r);
	run(u, ix, "spreadsheet charts", NOW + 365 * DAY, &r);
	floor_ = score_of(&r, "twin-beta");
	ok(fabs(floor_ - old) < 1e-9, "past the floor it decays no further");
	search_result_done(&r);

	/* under the miss threshold the boost stops below it */
	cfg->usage_boost = 5;
	cfg->miss_threshold = 0.9999;
	run(u, ix, "spreadsheet charts", NOW, &r);
	ok(score_of(&r, "twin-beta") < 0.9999,
	    "the boost never lifts a score over the miss threshold");
	ok(score_of(&r, "twin-alpha") == a, "a skill never loaded keeps its score");
	search_result_done(&r);
	cfg->usage_boost = 0.3;
	cfg->miss_threshold = 0.4;
	usage_free(u);

	/* learned words, and their half-life */
	snprintf(sql, sizeof(sql),
	    "INSERT INTO events (ts, kind, session, query) VALUES "
	    "(%.0f, 'search', 's1', 'catchy web address');"
	    "INSERT INTO events (ts, kind, session, skill, found) VALUES "
	    "(%.0f, 'load', 's1', 'domain-namer', 1);", NOW - 100, NOW - 95);
	ok(stats_db(path, sql) == 0, "a stats.db with one search and load");
	u = usage_new(cfg);
	usage_refresh(u, NOW, 1);
	run(u, ix, "catchy web address", NOW, &r);
	l1 = score_of(&r, "domain-namer");
	ok(l1 > 0 && l1 < 0.4, "one session: found, still under the miss "
	    "threshold (%.4f)", l1);
	search_result_done(&r);
	run(u, ix, "catchy web address", NOW + 30 * DAY, &r);
	l2 = score_of(&r, "domain-namer");
	ok(l2 > 0 && l2 < l1, "a half-life later it weighs less (%.4f)", l2);
	search_result_done(&r);

	/* a new row waits for the refresh interval, or a forced refresh */
	{
		sqlite3	*h;

		sqlite3_open(path, &h);
		snprintf(sql, sizeof(sql),
		    "INSERT INTO events (ts, kind, session, query) VALUES "
		    "(%.0f, 'search', 's2', 'pdf forms');"
		    "INSERT INTO events (ts, kind, session, skill, found) "
		    "VALUES (%.0f, 'load', 's2', 'domain-namer', 1);",
		    NOW - 10, NOW - 5);
		sqlite3_exec(h, sql, NULL, NULL, NULL);
		sqlite3_close(h);
	}
	usage_refresh(u, NOW + 1, 0);
	run(u, ix, "catchy web address", NOW + 1, &r);
	ok(fabs(score_of(&r, "domain-namer") - l1) < 1e-3,
	    "within the refresh interval, new rows wait");
	search_result_done(&r);
	usage_refresh(u, NOW + USAGE_REFRESH_SEC + 1, 0);
	run(u, ix, "pdf forms", NOW + USAGE_REFRESH_SEC + 1, &r);
	ok(score_of(&r, "domain-namer") > 0,
	    "after it, the new pair has taught its words");
	ok(strcmp(r.v[0].skill->name, "pdf-filler") == 0,
	    "... without displacing the skill whose text matches");
	search_result_done(&r);
	usage_free(u);

	unlink(path);
	search_index_free(ix);
	skill_set_done(&set);
	config_free(cfg);
	return done_testing();
}
