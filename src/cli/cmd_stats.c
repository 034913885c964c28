/*
 * stats: the report on the telemetry log (stats.db, or a fleet's
 * PostgreSQL: --db postgresql://... or telemetry.backend: postgres), as
 * text or JSON. The aggregates come from stats/ (stats_snapshot); this
 * file only chooses the database, decides the state and prints. A DSN is
 * shown (header, "db", errors) with its password masked.
 *
 * States and exit status:
 *   telemetry disabled and no database   exit 4, message on stderr,
 *                                        --json prints {"state":"disabled",...}
 *   --db PATH that does not exist        exit 4
 *   enabled but nothing recorded yet     exit 0, "No events yet", state "empty"
 *   (no database yet, or no event in the --since range)
 *   events                               exit 0, the report, state "ok"
 *   unreadable or foreign database       exit 5; bad flags exit 2
 * The database is opened read-only: stats never creates nor migrates it.
 *
 * JSON output (stable; new keys may be added, none removed or renamed):
 * {
 *   "state": "ok" | "empty" | "disabled",
 *   "db": "/path/stats.db",
 *   "telemetry_enabled": true,         telemetry.enabled of the config
 *   "since": 1764633600 | null,        unix time of --since, null: all
 *   "schema_version": 3,               PRAGMA user_version (PostgreSQL:
 *                                      meta.schema_version), 0 when no file
 *   "first_ts": 1764633600.5 | null,   oldest and newest event counted
 *   "last_ts": 1764637200.5 | null,
 *   "totals": {"events": 12, "search": 7, "load": 4, "index": 1},
 *   "write_failures": 0,               events writers could not store
 *   "latency_ms": {"search": {"p50": 12.0, "p95": 40.0}, "load": {...},
 *                  "index": {...}},    nearest-rank percentiles, 0 when none
 *   "miss": {"threshold": 0.4, "searches": 7, "misses": 2,
 *            "rate": 0.2857, "badge": "green" | "yellow" | "red"},
 *                                      miss: top-1 < retrieval.miss_threshold;
 *                                      red > 30 %, yellow > 15 %
 *   "conversion": {"window_s": 300, "searches": 7,
 *            "converted_searches": 3,  searches followed by a found load in
 *                                      the same session within window_s
 *            "rate": 0.4286, "converted_loads": 4, "mean_rank": 1.3333,
 *            "ranks": [{"rank": "1", "loads": 3}, {"rank": "none", ...}]},
 *                                      rank of the loaded skill in that
 *                                      search's results; "none": not in them
 *   "top_queries": [{"query": "pdf forms", "count": 3, "mean_top1": 0.81}],
 *   "missed_queries": [{"query": ..., "count": ..., "mean_top1": ...,
 *            "close": [{"skill": "pdf", "score": 0.31 | null}] | null,
 *                                      the results of its newest missed
 *                                      search (score null: an event written
 *                                      before telemetry kept scores; close
 *                                      null: its detail lists none)
 *            "unknown_words": ["pls"] | null}],
 *                                      its words no indexed skill's name,
 *                                      description, when_to_use or tags
 *                                      contains (null: no index.db, or the
 *                                      query is stored as a hash)
 *   "top_loads": [{"skill": "pdf", "count": 3, "mean_latency_ms": 1.5}],
 *   "loaded_after_miss": [{"skill": "docx", "count": 1, "mean_rank": 2}],
 *                                      loads converting a missed search;
 *                                      mean_rank 0: never in its results
 *   "indexed": 10 | null,              entries in index.db, null: no index
 *   "never_loaded": ["a", "b"] | null, indexed entries with no found load
 *   "replicas": [{"replica": "web-1", "events": 9, "searches": 5}],
 *                                      per telemetry.replica, most events
 *                                      first; "-": rows of a version 1 file
 *   "recent": [{"ts": 1764637200.5, "time": "2026-12-02T01:00:00Z",
 *            "kind": "search" | "load" | "index", "session": ..., "client":
 *            ..., "query": ..., "skill": ..., "top1": ..., "n_results": ...,
 *            "latency_ms": ..., "trust": ..., "replica": ...,
 *            "found": true | false | null}],
 *                                      newest first; null where n/a
 *   "advice": "Miss rate below 15 %: ..."
 * }
 * Lists hold at most --limit rows (default 10), except never_loaded.
 * Rates are rounded to 4 decimals, milliseconds and scores to 3.
 * The query column holds the query as stored (telemetry.store_queries:
 * the normalised text, "hmac:" and 16 hex digits, or nothing).
 */
#include "autoconfig.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "cli/cmd.h"
#include "core/config.h"
#include "base/text.h"
#include "base/pgdsn.h"
#include "core/skill.h"
#include "telemetry/stats.h"
#include "telemetry/telemetry.h"
#include "base/status.h"
#include "store/store.h"
#include "base/strlist.h"
#include "telemetry/usage.h"
#include "search/vocab.h"
#include "base/xmalloc.h"

#define KEY_W	44	/* columns of a list's key */

struct report {
	const char		*db;
	int			 enabled;
	int			 no_db;		/* enabled, nothing written yet */
	int			 have_since;
	double			 since;
	const struct stats_query *q;
	struct stats_snap	*s;
	int			 have_index;
	size_t			 indexed;
	const struct vocab	*vocab;		/* the index's words, NULL: none */
	int			 color;
	int			 limit;
};

static double
round_to(double v, double scale)
{
	return round(v * scale) / scale;
}

/* Local time as "YYYY-MM-DD HH:MM:SS". */
static void
fmt_local(double ts, char *out, size_t len)
{
	time_t		 t = (time_t)ts;
	struct tm	 tm;

	if (localtime_r(&t, &tm) == NULL ||
	    strftime(out, len, "%Y-%m-%d %H:%M:%S", &tm) == 0)
		snprintf(out, len, "%.0f", ts);
}

static void
fmt_utc(double ts, char *out, size_t len)
{
	time_t		 t = (time_t)ts;
	struct tm	 tm;

	if (gmtime_r(&t, &tm) == NULL ||
	    strftime(out, len, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		snprintf(out, len, "%.0f", ts);
}

static const char *
on(const struct report *r, const char *code)
{
	return r->color ? code : "";
}

static const char *
off(const struct report *r)
{
	return r->color ? "\033[0m" : "";
}

static const char *
badge_color(int badge)
{
	return badge == 2 ? "\033[31m" : badge == 1 ? "\033[33m" : "\033[32m";
}

static const char *
score_color(double top1)
{
	return top1 >= 0.6 ? "\033[32m" : top1 >= 0.4 ? "\033[33m" :
	    "\033[31m";
}

/*
 * Prints s in exactly width columns (code points): cut with "..." when
 * longer, padded with blanks when shorter. Control characters print as
 * '?', so a stored query cannot move the terminal's cursor.
 */
static void
print_col(const char *s, int width)
{
	const unsigned char	*p;
	int			 n = 0, total = 0;

	for (p = (const unsigned char *)s; *p != '\0'; p++)
		if ((*p & 0xc0) != 0x80)
			total++;
	for (p = (const unsigned char *)s; *p != '\0'; p++) {
		if ((*p & 0xc0) != 0x80) {
			if (total > width && n == width - 3)
				break;
			n++;
		}
		putchar(*p < 0x20 || *p == 0x7f ? '?' : *p);
	}
	if (total > width) {
		fputs("...", stdout);
		n += 3;
	}
	for (; n < width; n++)
		putchar(' ');
}

/* Like print_col, without padding. */
static void
print_cut(const char *s, int width)
{
	const unsigned char	*p;
	int			 total = 0;

	for (p = (const unsigned char *)s; *p != '\0'; p++)
		if ((*p & 0xc0) != 0x80)
			total++;
	print_col(s, total < width ? total : width);
}

/*
 * Prints text word-wrapped to 78 columns, every line after the first
 * indented by indent blanks (the first is assumed to be at indent).
 */
static void
print_wrapped(const char *text, int indent)
{
	const char	*p = text, *sp;
	int		 col = indent, w;

	while (*p != '\0') {
		while (*p == ' ')
			p++;
		if ((sp = strchr(p, ' ')) == NULL)
			sp = p + strlen(p);
		w = (int)(sp - p);
		if (col > indent && col + 1 + w > 78) {
			printf("\n%*s", indent, "");
			col = indent;
		} else if (col > indent) {
			putchar(' ');
			col++;
		}
		printf("%.*s", w, p);
		col += w;
		p = sp;
	}
	putchar('\n');
}

/* Like print_col, without padding and with no width limit. */
static void
print_safe(const char *s)
{
	text_fputs_safe(s, stdout);
}

static void
heading(const struct report *r, const char *title, const char *cols)
{
	printf("\n%s", on(r, "\033[1m"));
	print_col(title, KEY_W + 2);
	printf("%s%s\n", cols, off(r));
}

/* Rows of key, count and (valfmt) value; a value of 0 prints as "-". */
static void
list_rows(const struct stats_count *v, size_t n, const char *valfmt)
{
	size_t	 i;

	if (n == 0) {
		printf("  (none)\n");
		return;
	}
	for (i = 0; i < n; i++) {
		printf("  ");
		print_col(v[i].key, KEY_W);
		printf(" %6lld", v[i].n);
		if (valfmt != NULL && v[i].value == 0)
			printf("      -");
		else if (valfmt != NULL)
			printf(valfmt, v[i].value);
		printf("\n");
	}
}

/*
 * The missed queries, each with the skills that came close (its newest
 * missed search's results) and its words no indexed skill contains: what
 * an operator needs to choose the description to improve.
 */
static void
print_missed(const struct report *r)
{
	const struct stats_snap	*s = r->s;
	const struct stats_near	*nr;
	struct strlist		 unknown;
	size_t			 i, k;

	if (s->n_missed == 0) {
		printf("  (none)\n");
		return;
	}
	for (i = 0; i < s->n_missed; i++) {
		list_rows(&s->missed[i], 1, "  %5.2f");
		nr = i < s->n_near ? &s->near[i] : NULL;
		if (nr != NULL && nr->n > 0) {
			printf("      close: ");
			for (k = 0; k < nr->n; k++) {
				print_safe(nr->skill[k]);
				if (nr->score[k] >= 0)
					printf(" %.2f", nr->score[k]);
				printf("%s", k + 1 < nr->n ? ", " : "\n");
			}
		} else if (nr != NULL && nr->stored)
			printf("      close: no skill matched\n");
		strlist_init(&unknown);
		if (r->vocab != NULL && vocab_unknown(r->vocab,
		    s->missed[i].key, &unknown) > 0) {
			printf("      no skill has: ");
			for (k = 0; k < unknown.n; k++) {
				print_safe(unknown.v[k]);
				printf("%s", k + 1 < unknown.n ? ", " : "\n");
			}
		}
		strlist_done(&unknown);
	}
}

static void
print_event(const struct report *r, const struct stats_event *e)
{
	char	 when[32];

	fmt_local(e->ts, when, sizeof when);
	printf("  %s  %-6s  ", when, stats_kind_name(e->kind));
	switch (e->kind) {
	case STATS_SEARCH:
		if (e->query != NULL) {
			putchar('"');
			print_cut(e->query, 30);
			printf("\" ");
		} else
			printf("(query not stored) ");
		printf("%d result%s, top-1 %s%.2f%s, %.1f ms", e->n_results,
		    e->n_results == 1 ? "" : "s",
		    on(r, score_color(e->top1_score)),
		    e->top1_score < 0 ? 0.0 : e->top1_score, off(r),
		    e->latency_ms);
		break;
	case STATS_LOAD:
		print_safe(e->skill != NULL ? e->skill : "?");
		printf(" (%s%s, %.1f ms)", e->found == 1 ? "" : "not found",
		    e->found == 1 ? (e->trust != NULL ? e->trust : "?") : "",
		    e->latency_ms);
		break;
	default:
		printf("%d entries in %.1f ms", e->n_results, e->latency_ms);
		break;
	}
	if (e->client != NULL) {
		printf(" [");
		print_safe(e->client);
		printf("]");
	}
	if (e->replica != NULL && r->s->n_replicas > 1) {
		printf(" @");
		print_safe(e->replica);
	}
	printf("\n");
}

/* Eighths of a cell, for sparklines (U+2581..U+2588). */
static const char *const spark[] = { " ", "\u2581", "\u2582", "\u2583",
    "\u2584", "\u2585", "\u2586", "\u2587", "\u2588" };
/* The words of a badge: what the miss rate means for the operator. */
static const char *
badge_words(int badge)
{
	return badge == 2 ? "high: above 30 %" : badge == 1 ?
	    "watch: 15 to 30 %" : "ok: under 15 %";
}

/*
 * The pictures, in as many columns as the terminal has: the miss rate
 * over the range (a sparkline of STATS_SERIES slices, a blank where no
 * search fell, the height the slice's miss rate), and the top-1 score
 * histogram with the miss threshold and 0.6 marked under it. Unicode
 * blocks, coloured on a terminal as the dashboard colours them: a slice
 * by its miss rate (the badge's bounds), a bin by its score (red below
 * the threshold, yellow below 0.6); NO_COLOR and a pipe see the blocks.
 */
static void
print_pictures(const struct report *r)
{
	const struct stats_snap	*s = r->s;
	long long		 max = 0;
	int			 i, w, lo, hi, pos, n;
	double			 rate, mid;

	/* The histogram takes 13 + 20 columns, its legend 33 more. */
	if (s->searches == 0 || (w = cmd_term_width()) < 13 + STATS_HIST)
		return;
	n = w - 13 - 30 < STATS_SERIES ? w - 13 - 30 : STATS_SERIES;
	if (n >= 10) {
		/* The latest n slices, when the terminal is narrow. */
		printf("             ");
		for (i = STATS_SERIES - n; i < STATS_SERIES; i++) {
			if (s->series_searches[i] == 0) {
				fputs(" ", stdout);
				continue;
			}
			rate = (double)s->series_misses[i] /
			    (double)s->series_searches[i];
			printf("%s%s%s", on(r, badge_color(rate > 0.30 ? 2 :
			    rate > 0.15 ? 1 : 0)), spark[1 + (int)lround(rate *
			    7)], off(r));
		}
		printf("  misses over time, oldest left\n");
	}
	for (i = 0; i < STATS_HIST; i++)
		if (s->score_hist[i] > max)
			max = s->score_hist[i];
	printf("Top-1 scores ");
	for (i = 0; i < STATS_HIST; i++) {
		if (s->score_hist[i] == 0) {
			fputs(" ", stdout);
			continue;
		}
		mid = (i + 0.5) / STATS_HIST;
		printf("%s%s%s", on(r, mid >= 0.6 ? "\033[32m" :
		    mid >= r->q->miss_threshold ? "\033[33m" : "\033[31m"),
		    spark[1 + (int)lround((double)s->score_hist[i] /
		    (double)max * 7)], off(r));
	}
	printf("%s\n             ", w >= 13 + STATS_HIST + 27 ?
	    "  searches by top-1, 0 to 1" : "");
	/* A caret under the bin where each line starts. */
	lo = (int)lround(r->q->miss_threshold * STATS_HIST);
	hi = (int)lround(0.6 * STATS_HIST);
	for (pos = 0; pos < STATS_HIST; pos++)
		fputs(pos == lo || pos == hi ? "^" : " ", stdout);
	if (w >= 13 + STATS_HIST + 30)
		printf("  ^ %.2f (miss below) and 0.60", r->q->miss_threshold);
	printf("\n");
}

/* Cells of v on a log scale from 0.1 ms to max in cols cells. */
static int
log_cells(double v, double max, int cols)
{
	int	 n;

	if (v <= 0.1 || max <= 0.1)
		return v > 0 ? 1 : 0;
	n = (int)lround(log10(v / 0.1) / log10(max / 0.1) * cols);
	return n < 1 ? 1 : n > cols ? cols : n;
}

/*
 * p50 and p95 per kind that has events (none: no "0.0 ms" to mislead),
 * and a bar on one log scale for all kinds, 0.1 ms to the slowest p95:
 * solid to p50, shaded on to p95.
 */
static void
print_latency(const struct report *r)
{
	const struct stats_snap	*s = r->s;
	double			 max = 0;
	int			 k, first = 1, cols, i, n50, n95;

	cols = cmd_term_width() - 52;
	cols = cols > 30 ? 30 : cols;
	for (k = 0; k < STATS_NKINDS; k++)
		if (s->by_kind[k] > 0 && s->p95_ms[k] > max)
			max = s->p95_ms[k];
	for (k = 0; k < STATS_NKINDS; k++) {
		if (s->by_kind[k] == 0)
			continue;
		printf("%-12s %-6s p50 %8.1f ms, p95 %8.1f ms", first ?
		    "Latency" : "", stats_kind_name(k), s->p50_ms[k],
		    s->p95_ms[k]);
		if (cols >= 6) {
			n50 = log_cells(s->p50_ms[k], max, cols);
			n95 = log_cells(s->p95_ms[k], max, cols);
			fputs("  ", stdout);
			for (i = 0; i < n95; i++)
				fputs(i < n50 ? "\u2588" : "\u2591", stdout);
		}
		printf("\n");
		first = 0;
	}
	if (!first && cols >= 6)
		printf("%52s%s\n", "", "(log scale: \u2588 to p50, \u2591 to "
		    "p95)");
}

static void
print_text(const struct report *r)
{
	const struct stats_snap	*s = r->s;
	char			 a[32], b[32];
	size_t			 i, n;

	printf("%sskills-radar stats%s: ", on(r, "\033[1m"), off(r));
	if (r->no_db) {
		/* Name the file as the place to come, not as one to look at. */
		printf("nothing recorded yet (telemetry is on: the first "
		    "search or load writes its events to ");
		print_safe(r->db);
		printf(")\n");
	} else {
		print_safe(r->db);
		printf("\n");
	}
	if (r->have_since) {
		fmt_local(r->since, a, sizeof a);
		printf("Range: events since %s\n", a);
	} else
		printf("Range: all events\n");
	if (!r->enabled)
		printf("Note: telemetry is off: no new events are being "
		    "recorded ('skills-radar telemetry on' switches it on).\n");
	if (s->total == 0) {
		printf("\nNo events yet%s. Run a few searches (through an MCP "
		    "client or 'skills-radar search') first.\n",
		    r->have_since ? " in this range" : "");
		return;
	}
	fmt_local(s->first_ts, a, sizeof a);
	fmt_local(s->last_ts, b, sizeof b);
	printf("From %s to %s\n\n", a, b);

	printf("Events       %lld (search %lld, load %lld, index %lld); "
	    "write failures %lld\n", s->total, s->by_kind[STATS_SEARCH],
	    s->by_kind[STATS_LOAD], s->by_kind[STATS_INDEX],
	    s->write_failures);
	print_latency(r);
	printf("Miss rate    %s%.1f %% (%s)%s of %lld searches (%lld with "
	    "top-1 < %.2f)\n", on(r, badge_color(s->badge)),
	    100.0 * s->miss_rate, badge_words(s->badge), off(r),
	    s->searches, s->misses, r->q->miss_threshold);
	print_pictures(r);
	printf("Conversion   %lld of %lld searches (%.1f %%) led to a load "
	    "within %.0f s\n", s->conversions, s->searches,
	    100.0 * s->conversion_rate, r->q->conversion_window_s);
	if (s->converted_loads > 0)
		printf("             mean rank of the loaded skill in its search "
		    "%.2f\n", s->mean_load_rank);

	/* The fleet: one row per replica once there is more than one. */
	if (s->n_replicas > 1) {
		heading(r, "Replicas", " events searches");
		list_rows(s->replicas, s->n_replicas, " %8.0f");
	}
	heading(r, "Top queries", " count  top-1");
	if (s->searches > 0 && s->n_top_queries == 0)
		printf("  (no query text stored: telemetry.store_queries is "
		    "false)\n");
	else
		list_rows(s->top_queries, s->n_top_queries, "  %5.2f");
	heading(r, "Missed queries", " count  top-1");
	print_missed(r);
	heading(r, "Top loaded skills", " loads     ms");
	list_rows(s->top_loads, s->n_top_loads, " %6.1f");
	heading(r, "Rank of the loaded skill in its search", " loads");
	list_rows(s->load_ranks, s->n_load_ranks, NULL);
	heading(r, "Skills loaded after a miss", " loads   rank");
	list_rows(s->after_miss, s->n_after_miss, "  %5.2f");

	if (r->have_index)
		printf("\n%sSkills never loaded%s (%zu of %zu indexed)\n",
		    on(r, "\033[1m"), off(r), s->n_never_loaded, r->indexed);
	else
		printf("\n%sSkills never loaded%s\n", on(r, "\033[1m"), off(r));
	if (!r->have_index)
		printf("  (no index.db: run 'skills-radar index')\n");
	else if (s->n_never_loaded == 0)
		printf("  (none)\n");
	n = s->n_never_loaded < (size_t)r->limit ? s->n_never_loaded :
	    (size_t)r->limit;
	for (i = 0; i < n; i++) {
		printf("  ");
		print_safe(s->never_loaded[i].key);
		printf("\n");
	}
	if (n < s->n_never_loaded)
		printf("  ... and %zu more\n", s->n_never_loaded - n);

	printf("\n%sRecent events%s (newest first)\n", on(r, "\033[1m"),
	    off(r));
	for (i = 0; i < s->n_recent; i++)
		print_event(r, &s->recent[i]);

	printf("\n%sAdvice%s\n  ", on(r, "\033[1m"), off(r));
	print_wrapped(s->advice, 2);
	if (s->badge >= 1 && s->n_after_miss > 0) {
		printf("  Skills loaded after a miss: ");
		for (i = 0; i < s->n_after_miss; i++) {
			print_safe(s->after_miss[i].key);
			printf(" (%lld)%s", s->after_miss[i].n,
			    i + 1 < s->n_after_miss ? ", " : "\n");
		}
	}
}

static cJSON *
json_counts(const struct stats_count *v, size_t n, const char *key,
    const char *count, const char *value, double scale)
{
	cJSON	*a, *o;
	size_t	 i;

	a = cJSON_CreateArray();
	for (i = 0; i < n; i++) {
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, key, v[i].key);
		cJSON_AddNumberToObject(o, count, (double)v[i].n);
		if (value != NULL)
			cJSON_AddNumberToObject(o, value,
			    round_to(v[i].value, scale));
		cJSON_AddItemToArray(a, o);
	}
	return a;
}

/*
 * missed_queries: json_counts' rows, each with "close" (the skills of its
 * newest missed search, with their scores, null when not stored) and
 * "unknown_words" (null without an index or a query text).
 */
static cJSON *
json_missed(const struct report *r)
{
	const struct stats_snap	*s = r->s;
	const struct stats_near	*nr;
	struct strlist		 unknown;
	cJSON			*a, *o, *c = NULL, *e;
	size_t			 i, k;

	a = json_counts(s->missed, s->n_missed, "query", "count", "mean_top1",
	    1e3);
	for (i = 0; i < s->n_missed; i++) {
		o = cJSON_GetArrayItem(a, (int)i);
		nr = i < s->n_near ? &s->near[i] : NULL;
		if (nr == NULL || !nr->stored) {
			cJSON_AddNullToObject(o, "close");
			nr = NULL;
		} else
			c = cJSON_AddArrayToObject(o, "close");
		for (k = 0; nr != NULL && k < nr->n; k++) {
			e = cJSON_CreateObject();
			cJSON_AddStringToObject(e, "skill", nr->skill[k]);
			if (nr->score[k] >= 0)
				cJSON_AddNumberToObject(e, "score",
				    round_to(nr->score[k], 1e3));
			else
				cJSON_AddNullToObject(e, "score");
			cJSON_AddItemToArray(c, e);
		}
		if (r->vocab == NULL || strncmp(s->missed[i].key, "hmac:",
		    5) == 0) {
			cJSON_AddNullToObject(o, "unknown_words");
			continue;
		}
		strlist_init(&unknown);
		vocab_unknown(r->vocab, s->missed[i].key, &unknown);
		c = cJSON_AddArrayToObject(o, "unknown_words");
		for (k = 0; k < unknown.n; k++)
			cJSON_AddItemToArray(c, cJSON_CreateString(
			    unknown.v[k]));
		strlist_done(&unknown);
	}
	return a;
}

static void
add_str_or_null(cJSON *o, const char *k, const char *v)
{
	if (v != NULL)
		cJSON_AddStringToObject(o, k, v);
	else
		cJSON_AddNullToObject(o, k);
}

static cJSON *
json_event(const struct stats_event *e)
{
	cJSON	*o;
	char	 t[32];

	o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "ts", round_to(e->ts, 1e3));
	fmt_utc(e->ts, t, sizeof t);
	cJSON_AddStringToObject(o, "time", t);
	cJSON_AddStringToObject(o, "kind", stats_kind_name(e->kind));
	add_str_or_null(o, "session", e->session);
	add_str_or_null(o, "client", e->client);
	add_str_or_null(o, "query", e->kind == STATS_SEARCH ? e->query : NULL);
	add_str_or_null(o, "skill", e->kind == STATS_LOAD ? e->skill : NULL);
	if (e->kind == STATS_SEARCH && e->top1_score >= 0)
		cJSON_AddNumberToObject(o, "top1", round_to(e->top1_score, 1e3));
	else
		cJSON_AddNullToObject(o, "top1");
	if (e->kind != STATS_LOAD)
		cJSON_AddNumberToObject(o, "n_results", e->n_results);
	else
		cJSON_AddNullToObject(o, "n_results");
	cJSON_AddNumberToObject(o, "latency_ms", round_to(e->latency_ms, 1e3));
	add_str_or_null(o, "trust", e->kind == STATS_LOAD ? e->trust : NULL);
	add_str_or_null(o, "replica", e->replica);
	if (e->kind == STATS_LOAD && e->found >= 0)
		cJSON_AddBoolToObject(o, "found", e->found);
	else
		cJSON_AddNullToObject(o, "found");
	return o;
}

static cJSON *
json_report(const struct report *r, const char *state)
{
	const struct stats_snap	*s = r->s;
	cJSON			*j, *o, *p, *a;
	size_t			 i;
	int			 k;

	j = cJSON_CreateObject();
	cJSON_AddStringToObject(j, "state", state);
	cJSON_AddStringToObject(j, "db", r->db);
	cJSON_AddBoolToObject(j, "telemetry_enabled", r->enabled);
	if (r->have_since)
		cJSON_AddNumberToObject(j, "since", round_to(r->since, 1e3));
	else
		cJSON_AddNullToObject(j, "since");
	cJSON_AddNumberToObject(j, "schema_version", s->schema_version);
	if (s->total > 0) {
		cJSON_AddNumberToObject(j, "first_ts", round_to(s->first_ts, 1e3));
		cJSON_AddNumberToObject(j, "last_ts", round_to(s->last_ts, 1e3));
	} else {
		cJSON_AddNullToObject(j, "first_ts");
		cJSON_AddNullToObject(j, "last_ts");
	}
	o = cJSON_AddObjectToObject(j, "totals");
	cJSON_AddNumberToObject(o, "events", (double)s->total);
	for (k = 0; k < STATS_NKINDS; k++)
		cJSON_AddNumberToObject(o, stats_kind_name(k),
		    (double)s->by_kind[k]);
	cJSON_AddNumberToObject(j, "write_failures", (double)s->write_failures);
	o = cJSON_AddObjectToObject(j, "latency_ms");
	for (k = 0; k < STATS_NKINDS; k++) {
		p = cJSON_AddObjectToObject(o, stats_kind_name(k));
		cJSON_AddNumberToObject(p, "p50", round_to(s->p50_ms[k], 1e3));
		cJSON_AddNumberToObject(p, "p95", round_to(s->p95_ms[k], 1e3));
	}
	o = cJSON_AddObjectToObject(j, "miss");
	cJSON_AddNumberToObject(o, "threshold", r->q->miss_threshold);
	cJSON_AddNumberToObject(o, "searches", (double)s->searches);
	cJSON_AddNumberToObject(o, "misses", (double)s->misses);
	cJSON_AddNumberToObject(o, "rate", round_to(s->miss_rate, 1e4));
	cJSON_AddStringToObject(o, "badge", stats_badge_name(s->badge));
	o = cJSON_AddObjectToObject(j, "conversion");
	cJSON_AddNumberToObject(o, "window_s", r->q->conversion_window_s);
	cJSON_AddNumberToObject(o, "searches", (double)s->searches);
	cJSON_AddNumberToObject(o, "converted_searches",
	    (double)s->conversions);
	cJSON_AddNumberToObject(o, "rate", round_to(s->conversion_rate, 1e4));
	cJSON_AddNumberToObject(o, "converted_loads",
	    (double)s->converted_loads);
	cJSON_AddNumberToObject(o, "mean_rank", round_to(s->mean_load_rank,
	    1e4));
	cJSON_AddItemToObject(o, "ranks", json_counts(s->load_ranks,
	    s->n_load_ranks, "rank", "loads", NULL, 1));
	cJSON_AddItemToObject(j, "top_queries", json_counts(s->top_queries,
	    s->n_top_queries, "query", "count", "mean_top1", 1e3));
	cJSON_AddItemToObject(j, "missed_queries", json_missed(r));
	cJSON_AddItemToObject(j, "top_loads", json_counts(s->top_loads,
	    s->n_top_loads, "skill", "count", "mean_latency_ms", 1e3));
	cJSON_AddItemToObject(j, "loaded_after_miss", json_counts(s->after_miss,
	    s->n_after_miss, "skill", "count", "mean_rank", 1e4));
	if (r->have_index) {
		cJSON_AddNumberToObject(j, "indexed", (double)r->indexed);
		a = cJSON_AddArrayToObject(j, "never_loaded");
		for (i = 0; i < s->n_never_loaded; i++)
			cJSON_AddItemToArray(a,
			    cJSON_CreateString(s->never_loaded[i].key));
	} else {
		cJSON_AddNullToObject(j, "indexed");
		cJSON_AddNullToObject(j, "never_loaded");
	}
	cJSON_AddItemToObject(j, "replicas", json_counts(s->replicas,
	    s->n_replicas, "replica", "events", "searches", 1));
	a = cJSON_AddArrayToObject(j, "recent");
	for (i = 0; i < s->n_recent; i++)
		cJSON_AddItemToArray(a, json_event(&s->recent[i]));
	cJSON_AddStringToObject(j, "advice", s->advice != NULL ? s->advice :
	    "No searches recorded yet: nothing to tune.");
	return j;
}

/*
 * The searchable names in index.db, for "never loaded", and their words
 * (*vocab, the caller frees it); -1: no index.
 */
static int
indexed_names(const struct config *cfg, struct strlist *out,
    struct vocab **vocab)
{
	struct store		*st = NULL;
	struct skill_set	 set;
	char			*cause = NULL;
	size_t			 i;
	int			 rv = -1;

	skill_set_init(&set);
	if (cfg->index_path == NULL ||
	    store_open_cfg(cfg, 1, &st, &cause) != 0)
		goto out;
	if (store_load(st, &set, &cause) != 0)
		goto out;
	for (i = 0; i < set.n; i++) {
		if (set.v[i]->shadowed_by == NULL &&
		    !set.v[i]->disable_model_invocation)
			strlist_add(out, set.v[i]->uid);
	}
	*vocab = vocab_new(&set);
	rv = 0;
out:
	free(cause);
	store_close(st);
	skill_set_done(&set);
	return rv;
}

/*
 * stats --reset-learning: what was learned from use (usage.h) starts
 * again from the next event; the events themselves stay for stats.
 */
static int
reset_learning(const struct config *cfg, const char *db_path,
    const char *since)
{
	char	*cause = NULL;
	int	 rv, changed;

	if (db_path != NULL || since != NULL)
		return cmd_usage("stats", "--reset-learning acts on the "
		    "configured telemetry database and takes no --db or "
		    "--since");
	if ((rv = usage_reset(cfg, &changed, &cause)) != 0)
		return cmd_fail(rv, cause);
	printf("%s\n", changed ? "learning reset: loads and searches so far "
	    "no longer boost or teach any skill" : "nothing recorded yet: "
	    "nothing to reset");
	return 0;
}

static int
cmd_stats(struct cmd_ctx *ctx, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "since", required_argument, NULL, 's' },
		{ "limit", required_argument, NULL, 'n' },
		{ "db", required_argument, NULL, 'd' },
		{ "json", no_argument, NULL, 'j' },
		{ "reset-learning", no_argument, NULL, 'R' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const struct config	*cfg = ctx->cfg;
	struct stats_query	 q;
	struct stats_snap	 snap;
	struct stats_db		*db = NULL;
	struct report		 r;
	struct strlist		 names;
	struct vocab		*vocab = NULL;
	const char		*db_path = NULL, *since_arg = NULL, *open_as;
	char			*cause = NULL, *shown;
	long			 limit = 10;
	int			 ch, stop, json = 0, rv, pg, reset = 0;

	while ((ch = cmd_getopt("stats", argc, argv, "s:n:d:jh", longopts,
	    &stop)) != -1) {
		switch (ch) {
		case 's':
			since_arg = optarg;
			break;
		case 'n':
			if (cmd_parse_long(optarg, 1, 1000, &limit) == -1)
				return cmd_usage("stats", "--limit must be a "
				    "number from 1 to 1000, not '%s'", optarg);
			break;
		case 'd':
			if (*optarg == '\0')
				return cmd_usage("stats", "--db needs a path");
			db_path = optarg;
			break;
		case 'j':
			json = 1;
			break;
		case 'R':
			reset = 1;
			break;
		}
	}
	if (stop != -1 || (stop = cmd_no_args("stats", argc, argv)) != 0)
		return stop;
	if (reset)
		return reset_learning(cfg, db_path, since_arg);

	memset(&q, 0, sizeof q);
	memset(&r, 0, sizeof r);
	memset(&snap, 0, sizeof snap);
	strlist_init(&names);
	if (since_arg != NULL) {
		if (stats_parse_since(since_arg, (double)time(NULL),
		    &q.since) == -1)
			return cmd_usage("stats", "bad --since value '%s': use "
			    "a duration such as 24h, 7d or 30m, or a date "
			    "YYYY-MM-DD[THH:MM[:SS]]", since_arg);
		r.have_since = 1;
		r.since = q.since;
	}
	q.limit = (int)limit;
	q.miss_threshold = cfg->miss_threshold;
	q.conversion_window_s = cfg->conversion_window_s;
	/* --db, else the configured backend: a file or the fleet's DSN. */
	open_as = db_path != NULL ? db_path : cfg->telemetry_path;
	pg = pg_is_uri(open_as);
	if (db_path == NULL && cfg->telemetry_backend ==
	    TELEMETRY_BACKEND_POSTGRES) {
		if (cfg->telemetry_dsn == NULL || *cfg->telemetry_dsn == '\0')
			return cmd_fail(SR_CONFIG, xstrdup("telemetry.backend "
			    "is postgres but telemetry.dsn (or "
			    "SKILLS_RADAR_DSN) is empty"));
		open_as = cfg->telemetry_dsn;
		pg = 1;
	}
	r.db = shown = pg ? pg_dsn_redact(open_as) : xstrdup(open_as);
	r.enabled = cfg->telemetry_enabled;
	r.color = ctx->color;
	r.limit = (int)limit;
	r.q = &q;
	r.s = &snap;

	rv = pg ? stats_open_pg(open_as, &db, &cause) :
	    stats_open(open_as, &db, &cause);
	if (rv == SR_NOTFOUND && (db_path != NULL || !r.enabled)) {
		free(cause);
		if (db_path != NULL) {
			cmd_warn("%s: no telemetry database", shown);
			free(shown);
			return SR_NOTFOUND;
		}
		if (cfg->source != NULL)
			cmd_warn("telemetry is disabled (telemetry.enabled: "
			    "false in %s): nothing has been recorded. Run "
			    "'skills-radar telemetry on' to record searches and "
			    "loads in %s.", cfg->source, r.db);
		else
			cmd_warn("telemetry is disabled (the default: there is "
			    "no config file): nothing has been recorded. Run "
			    "'skills-radar telemetry on' to record searches and "
			    "loads in %s.", r.db);
		if (json) {
			snap.advice = NULL;
			cmd_print_json(json_report(&r, "disabled"));
		}
		free(shown);
		return SR_NOTFOUND;
	}
	if (rv == SR_NOTFOUND) {
		/* Enabled, and no process has written yet. */
		free(cause);
		cause = NULL;
		r.no_db = 1;
	} else if (rv != 0) {
		free(shown);
		return cmd_fail(rv, cause);
	}
	else {
		if (indexed_names(cfg, &names, &vocab) == 0) {
			r.vocab = vocab;
			r.have_index = 1;
			r.indexed = names.n;
			q.skills = (const char *const *)names.v;
			q.n_skills = names.n;
		}
		if ((rv = stats_snapshot(db, &q, &snap, &cause)) != 0) {
			stats_close(db);
			strlist_done(&names);
			vocab_free(vocab);
			free(shown);
			return cmd_fail(rv, cause);
		}
	}
	if (json)
		rv = cmd_print_json(json_report(&r, snap.total > 0 ? "ok" :
		    "empty"));
	else {
		print_text(&r);
		rv = SR_OK;
	}
	stats_snap_done(&snap);
	stats_close(db);
	strlist_done(&names);
	vocab_free(vocab);
	free(shown);
	return rv;
}

const struct cmd_entry cmd_stats_entry = {
	"stats", cmd_stats, CMD_NEEDS_CONFIG,
	"[--since 24h|7d|DATE] [--limit N] [--db PATH] [--json] "
	"[--reset-learning]",
	"report on the telemetry log"
};
