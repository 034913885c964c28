/*
 * The dashboard's top: the layout, the frame around the panels, the
 * overlays, the key loop, and the feed's results moved into the model
 * (model.c holds the rest of it). It calls down only: the panels, the
 * feed, the model, the grid and the colours never call back here.
 */
#include "autoconfig.h"

#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>
#include <wchar.h>

#define NCURSES_WIDECHAR 1
#include <curses.h>

#include <cjson/cJSON.h>

#include "base/clock.h"
#include "tui/colors.h"
#include "core/config.h"
#include "tui/feed.h"
#include "tui/fmt.h"
#include "tui/model.h"
#include "tui/panel.h"
#include "telemetry/stats.h"
#include "base/status.h"
#include "tui/tui.h"
#include "base/xmalloc.h"

#define CONVERSION_WINDOW_S	300.0
#define INDEX_CHECK_MS		1000
#define LOOP_MS			100	/* key wait: results show this fast */

static const struct tui_glyphs glyphs_utf8 = {
	0x2500, 0x2502, 0x250c, 0x2510, 0x2514, 0x2518,
	0x251c, 0x2524, 0x252c, 0x2534,
	0x2588, 0x2591, { 0x2588, 0x2593, 0x2592, 0x2591 }, 0x25b8,
	{ 0x2581, 0x2582, 0x2583, 0x2584, 0x2585, 0x2586, 0x2587, 0x2588 },
	" \xc2\xb7 ", "\xe2\x86\x91\xe2\x86\x93"
};

static const struct tui_glyphs glyphs_ascii = {
	'-', '|', '+', '+', '+', '+', '+', '+', '+', '+',
	'#', '.', { '#', '=', '+', '.' }, '>',
	{ '_', '.', ',', '-', '~', '=', '*', '#' },
	" - ", "up/down"
};

static volatile sig_atomic_t	 got_quit;

static const char *const range_names[RANGE_COUNT] = {
	[RANGE_ALL] = "all", [RANGE_1H] = "1h", [RANGE_24H] = "24h",
	[RANGE_7D] = "7d"
};
/* The order `t` cycles in. */
static const enum tui_range range_next[RANGE_COUNT] = {
	[RANGE_1H] = RANGE_24H, [RANGE_24H] = RANGE_7D,
	[RANGE_7D] = RANGE_ALL, [RANGE_ALL] = RANGE_1H
};

static const char *
tui_range_name(enum tui_range r)
{
	if ((int)r < 0 || r >= RANGE_COUNT)
		return "?";
	return range_names[r];
}

int
tui_range_parse(const char *s)
{
	int	 i;

	for (i = 0; i < RANGE_COUNT; i++) {
		if (strcasecmp(s, range_names[i]) == 0)
			return i;
	}
	return -1;
}

/* ---- the model, fed ------------------------------------------------- */

/*
 * Moves a feed result into the model: a new snapshot replaces the old
 * one; a state without a snapshot keeps the last one shown.
 */
static void
model_apply(struct tui_model *m, struct feed_result *r)
{
	m->stats_state = r->state;
	free(m->stats_msg);
	m->stats_msg = r->msg;
	r->msg = NULL;
	if (r->have_snap) {
		if (m->have_snap)
			stats_snap_done(&m->snap);
		m->snap = r->snap;
		m->have_snap = 1;
		m->snap_time = r->snap_time;
		m->snap_ms = r->snap_ms;
		m->now = r->snap_time;
		m->snap_range = r->range;
		r->have_snap = 0;
	}
	feed_result_done(r);
}

static double
conversion_window(const struct config *cfg)
{
	return cfg != NULL && cfg->conversion_window_s > 0 ?
	    cfg->conversion_window_s : CONVERSION_WINDOW_S;
}

/* ---- layout and frame ------------------------------------------------ */

static const struct panel_ops *const panel_table[PANEL_COUNT] = {
	[PANEL_HEADER] = &panel_header_ops,
	[PANEL_TIERS] = &panel_tiers_ops,
	[PANEL_QUERIES] = &panel_queries_ops,
	[PANEL_EVENTS] = &panel_events_ops,
	[PANEL_LOADS] = &panel_loads_ops,
};

static void
place(struct tui *t, int id, int h, int w, int y, int x)
{
	struct panel	*p = t->panels[id];

	p->ops->resize(p, h, w, y, x);
}

static void
hide(struct tui *t, int id)
{
	struct panel	*p = t->panels[id];

	p->ops->resize(p, -1, 0, 0, 0);
	p->visible = 0;
}

/* Where the columns split in the full layout. */
static int
split_col(int w)
{
	int	 dx = w * 2 / 5;

	if (dx < 30)
		dx = 30;
	if (dx > w - 40)
		dx = w - 40;
	return dx;
}

/* The tier panel's rows, and the border row under it (full layout). */
#define TIERS_H		1
#define TOP		(2 + TIERS_H)

static int
queries_rows_full(int h)
{
	return (h - TOP - 2) / 2;
}

static int
queries_rows_compact(int h)
{
	int	 qh = (h - 4) / 3;

	return qh > 6 ? 6 : qh;
}

/* Chooses the layout for the screen size and places every panel. */
static void
layout(struct tui *t, int h, int w)
{
	int	 dx, qh, i;

	t->h = h;
	t->w = w;
	grid_resize(&t->screen, h, w);
	if (w >= TUI_MIN_FULL_W && h >= TUI_MIN_FULL_H)
		t->layout = LAYOUT_FULL;
	else if (w >= TUI_MIN_COMPACT_W && h >= TUI_MIN_COMPACT_H)
		t->layout = LAYOUT_COMPACT;
	else
		t->layout = LAYOUT_TINY;

	switch (t->layout) {
	case LAYOUT_FULL:
		dx = split_col(w);
		qh = queries_rows_full(h);
		place(t, PANEL_HEADER, 0, w - 2, 1, 1);
		place(t, PANEL_TIERS, TIERS_H, w - 2, 2, 1);
		place(t, PANEL_QUERIES, qh, dx - 1, TOP + 1, 1);
		place(t, PANEL_LOADS, h - TOP - 3 - qh, dx - 1, TOP + 2 + qh,
		    1);
		place(t, PANEL_EVENTS, h - TOP - 2, w - dx - 2, TOP + 1,
		    dx + 1);
		break;
	case LAYOUT_COMPACT:
		qh = queries_rows_compact(h);
		place(t, PANEL_HEADER, 0, w - 2, 1, 1);
		hide(t, PANEL_TIERS);
		place(t, PANEL_QUERIES, qh, w - 2, 2, 1);
		place(t, PANEL_EVENTS, h - 4 - qh, w - 2, 3 + qh, 1);
		hide(t, PANEL_LOADS);
		break;
	case LAYOUT_TINY:
		for (i = 0; i < PANEL_COUNT; i++)
			hide(t, i);
		break;
	}
	if (!t->panels[t->focus]->visible || t->focus == PANEL_HEADER ||
	    t->focus == PANEL_TIERS)
		t->focus = PANEL_EVENTS;
}

/* Draws a title grid on a border row: "─ title ─". */
static void
put_title(struct tui *t, int y, int x, const struct panel *p)
{
	int	 n = p->title_w;

	if (n <= 0)
		return;
	grid_set(&t->screen, y, x + 2, ' ', C_BORDER);
	grid_copy_cols(&t->screen, y, x + 3, &p->title, 0, n);
	grid_set(&t->screen, y, x + 3 + n, ' ', C_BORDER);
}

static void
frame_hline(struct tui *t, int y, int x0, int x1, uint32_t left, uint32_t right)
{
	grid_set(&t->screen, y, x0, left, C_BORDER);
	grid_fill(&t->screen, y, x0 + 1, x1 - x0 - 1, t->gl->h, C_BORDER);
	grid_set(&t->screen, y, x1, right, C_BORDER);
}

static void
frame_vline(struct tui *t, int x, int y0, int y1)
{
	int	 y;

	for (y = y0; y <= y1; y++)
		grid_set(&t->screen, y, x, t->gl->v, C_BORDER);
}

struct key_help {
	const char	*key;
	const char	*what;
};

/* The footer on the bottom border: keys, or the filter being typed. */
static void
draw_footer(struct tui *t, int y)
{
	const struct key_help	 keys[] = {
		{ "q", "quit" }, { "p", t->paused ? "resume" : "pause" },
		{ "tab", "focus" }, { t->gl->updown, "scroll" },
		{ "/", "filter" }, { "t", "range" }, { "?", "help" },
	};
	struct grid		*g = &t->screen;
	char			 tmp[160];
	int			 x = 3, end = t->w - 3;
	size_t			 i;

	grid_set(g, y, 2, ' ', C_BORDER);
	if (t->overlay == OVERLAY_FILTER) {
		x += grid_put(g, y, x, "filter: ", end - x, C_KEY, 0);
		x += grid_put(g, y, x, t->editing, end - x - 1, C_NORMAL, 0);
		grid_set(g, y, x++, '_', C_SELECTED);
		x += grid_put(g, y, x, "  Enter apply, Esc cancel", end - x,
		    C_DIM, 0);
		grid_set(g, y, x, ' ', C_BORDER);
		return;
	}
	if (t->paused) {
		x += grid_put(g, y, x, " PAUSED ", end - x, C_PAUSED, 0);
		x += grid_put(g, y, x, " ", end - x, C_BORDER, 0);
	}
	for (i = 0; i < sizeof keys / sizeof keys[0] && x < end; i++) {
		if (text_width(keys[i].key) + text_width(keys[i].what) + 1 +
		    (i > 0 ? text_width(t->gl->dot) : 0) > end - x)
			break;
		if (i > 0)
			x += grid_put(g, y, x, t->gl->dot, end - x,
			    C_BORDER, 0);
		x += grid_put(g, y, x, keys[i].key, end - x, C_KEY, 0);
		x += grid_put(g, y, x, " ", end - x, C_NORMAL, 0);
		x += grid_put(g, y, x, keys[i].what, end - x, C_NORMAL, 0);
	}
	snprintf(tmp, sizeof tmp, "%srange %s", t->gl->dot,
	    tui_range_name(t->m.range));
	if (text_width(tmp) <= end - x)
		x += grid_put(g, y, x, tmp, end - x, C_DIM, 0);
	grid_set(g, y, x, ' ', C_BORDER);
}

/* The one-line summary shown when the terminal is too small. */
static void
draw_tiny(struct tui *t)
{
	struct tui_model	*m = &t->m;
	char			 line[256], *s = line;
	size_t			 left = sizeof line;
	int			 n;

	n = snprintf(s, left, "skills-radar%s%zu skills", t->gl->dot,
	    m->n_skills);
	s += n;
	left -= (size_t)n;
	if (m->have_snap)
		snprintf(s, left, "%s%lld searches%smiss %.0f%%", t->gl->dot,
		    m->snap.by_kind[STATS_SEARCH], t->gl->dot,
		    m->snap.miss_rate * 100);
	grid_put(&t->screen, 0, 0, line, t->w, C_HEADER, 1);
	if (m->have_snap) {
		/* Colour the miss figure like the badge. */
		char	*p = strstr(line, "miss ");
		int	 x;

		if (p != NULL) {
			*p = '\0';
			x = text_width(line);
			*p = 'm';
			grid_paint(&t->screen, 0, x, text_width(p),
			    colors_badge(m->snap.badge));
		}
	}
	grid_put(&t->screen, 1, 0, "terminal too small", t->w, C_NOTICE, 1);
	snprintf(line, sizeof line, "%dx%d, need %dx%d", t->w, t->h,
	    TUI_MIN_COMPACT_W, TUI_MIN_COMPACT_H);
	grid_put(&t->screen, 2, 0, line, t->w, C_DIM, 1);
	grid_put(&t->screen, 3, 0, "q quit", t->w, C_DIM, 0);
}

/* Paints the borders, the titles and the footer into t->screen. */
static void
draw_frame(struct tui *t)
{
	struct panel	**p = t->panels;
	int		 w = t->w, h = t->h, dx, qh, i;

	grid_clear(&t->screen);
	for (i = 0; i < PANEL_COUNT; i++) {
		if (p[i]->visible)
			p[i]->ops->draw(p[i]);
	}
	switch (t->layout) {
	case LAYOUT_FULL:
		dx = split_col(w);
		qh = queries_rows_full(h);
		frame_hline(t, 0, 0, w - 1, t->gl->tl, t->gl->tr);
		frame_hline(t, 1, 0, w - 1, t->gl->lt, t->gl->rt);
		frame_hline(t, TOP, 0, w - 1, t->gl->lt, t->gl->rt);
		grid_set(&t->screen, TOP, dx, t->gl->tt, C_BORDER);
		frame_hline(t, TOP + 1 + qh, 0, dx, t->gl->lt, t->gl->rt);
		frame_hline(t, h - 1, 0, w - 1, t->gl->bl, t->gl->br);
		grid_set(&t->screen, h - 1, dx, t->gl->bt, C_BORDER);
		frame_vline(t, 0, 2, TOP - 1);
		frame_vline(t, w - 1, 2, TOP - 1);
		frame_vline(t, 0, TOP + 1, TOP + qh);
		frame_vline(t, 0, TOP + 2 + qh, h - 2);
		frame_vline(t, dx, TOP + 1, TOP + qh);
		frame_vline(t, dx, TOP + 2 + qh, h - 2);
		frame_vline(t, w - 1, TOP + 1, h - 2);
		put_title(t, 0, 0, p[PANEL_HEADER]);
		put_title(t, 1, 0, p[PANEL_TIERS]);
		put_title(t, TOP, 0, p[PANEL_QUERIES]);
		put_title(t, TOP + 1 + qh, 0, p[PANEL_LOADS]);
		put_title(t, TOP, dx, p[PANEL_EVENTS]);
		draw_footer(t, h - 1);
		break;
	case LAYOUT_COMPACT:
		qh = queries_rows_compact(h);
		frame_hline(t, 0, 0, w - 1, t->gl->tl, t->gl->tr);
		frame_hline(t, 1, 0, w - 1, t->gl->lt, t->gl->rt);
		frame_hline(t, 2 + qh, 0, w - 1, t->gl->lt, t->gl->rt);
		frame_hline(t, h - 1, 0, w - 1, t->gl->bl, t->gl->br);
		frame_vline(t, 0, 2, 1 + qh);
		frame_vline(t, w - 1, 2, 1 + qh);
		frame_vline(t, 0, 3 + qh, h - 2);
		frame_vline(t, w - 1, 3 + qh, h - 2);
		put_title(t, 0, 0, p[PANEL_HEADER]);
		put_title(t, 1, 0, p[PANEL_QUERIES]);
		put_title(t, 2 + qh, 0, p[PANEL_EVENTS]);
		draw_footer(t, h - 1);
		break;
	case LAYOUT_TINY:
		draw_tiny(t);
		break;
	}
}

/* ---- overlays -------------------------------------------------------- */

static void
overlay_box(struct tui *t, int h, int w, const char *title)
{
	struct grid	*g = &t->over;
	int		 y;

	if (w > t->w)
		w = t->w;
	if (h > t->h)
		h = t->h;
	grid_resize(g, h, w);
	t->over_y = (t->h - h) / 2;
	t->over_x = (t->w - w) / 2;
	if (h < 2 || w < 4)
		return;
	grid_set(g, 0, 0, t->gl->tl, C_BORDER);
	grid_fill(g, 0, 1, w - 2, t->gl->h, C_BORDER);
	grid_set(g, 0, w - 1, t->gl->tr, C_BORDER);
	for (y = 1; y < h - 1; y++) {
		grid_set(g, y, 0, t->gl->v, C_BORDER);
		grid_set(g, y, w - 1, t->gl->v, C_BORDER);
	}
	grid_set(g, h - 1, 0, t->gl->bl, C_BORDER);
	grid_fill(g, h - 1, 1, w - 2, t->gl->h, C_BORDER);
	grid_set(g, h - 1, w - 1, t->gl->br, C_BORDER);
	grid_put(g, 0, 2, title, w - 4, C_TITLE, 1);
}

static void
draw_help(struct tui *t)
{
	static const struct key_help	 help[] = {
		{ "q, Ctrl-C", "quit" },
		{ "p", "pause / resume live updates" },
		{ "tab, S-tab", "move the focus between lists" },
		{ "Up/Down j/k", "move in the focused list" },
		{ "PgUp/PgDn", "page; Home/End (g/G) first/last" },
		{ "Enter", "details of the selected event" },
		{ "m", "missed queries: what came close, unknown words" },
		{ "/", "filter events by text; Esc clears" },
		{ "t", "time range: 1h, 24h, 7d, all" },
		{ "r, Ctrl-L", "redraw the screen" },
		{ "?", "this help" },
	};
	int	 i, n = (int)(sizeof help / sizeof help[0]), rows, h;

	/* Fitted to the terminal: a short one pages with the arrows. */
	h = n + 4 > t->h ? t->h : n + 4;
	rows = h - 4 < 1 ? 1 : h - 4;
	if (t->help_top > n - rows)
		t->help_top = n - rows;
	if (t->help_top < 0)
		t->help_top = 0;
	t->help_more = t->help_top + rows < n || t->help_top > 0;
	overlay_box(t, h, 58, " Keys ");
	for (i = 0; i < rows && t->help_top + i < n; i++) {
		grid_put(&t->over, 1 + i, 2, help[t->help_top + i].key, 13,
		    C_KEY, 0);
		grid_put(&t->over, 1 + i, 16, help[t->help_top + i].what,
		    t->over.w - 18, C_NORMAL, 1);
	}
	if (t->help_more) {
		char	 tmp[96];

		snprintf(tmp, sizeof tmp, "%d-%d of %d, %s more; any other "
		    "key closes", t->help_top + 1, t->help_top + i, n,
		    t->gl->updown);
		grid_put(&t->over, h - 2, 2, tmp, t->over.w - 4, C_DIM, 1);
	} else
		grid_put(&t->over, h - 2, 2, "any key closes this window",
		    t->over.w - 4, C_DIM, 1);
}

static void
detail_line(struct tui *t, int *y, const char *k, const char *v, int color)
{
	if (*y >= t->over.h - 2)
		return;
	grid_put(&t->over, *y, 2, k, 10, C_TITLE, 0);
	grid_put(&t->over, *y, 13, v != NULL ? v : "-", t->over.w - 15,
	    color, 1);
	(*y)++;
}

/* The results a search's detail kept ("top", "scores"), or -1: none. */
static int
detail_count(const struct stats_event *e)
{
	cJSON	*d, *top;
	int	 n;

	if (e->detail == NULL || (d = cJSON_Parse(e->detail)) == NULL)
		return -1;
	top = cJSON_GetObjectItem(d, "top");
	n = cJSON_IsArray(top) ? cJSON_GetArraySize(top) : -1;
	cJSON_Delete(d);
	return n;
}

/*
 * The skills that came back, in rank order, with the score the event
 * kept (the first TELEMETRY_SCORES_MAX; "-" after those), coloured like
 * the top-1 score.
 */
static void
detail_results(struct tui *t, int *y, const struct stats_event *e)
{
	cJSON	*d, *top, *sc, *v;
	char	 line[160], score[16];
	int	 i, n, color;

	d = e->detail != NULL ? cJSON_Parse(e->detail) : NULL;
	top = d != NULL ? cJSON_GetObjectItem(d, "top") : NULL;
	if (!cJSON_IsArray(top)) {
		cJSON_Delete(d);
		detail_line(t, y, "came back", "(not recorded)", C_DIM);
		return;
	}
	sc = cJSON_GetObjectItem(d, "scores");
	n = cJSON_GetArraySize(top);
	if (n == 0)
		detail_line(t, y, "came back", "nothing", C_EVENT_BAD);
	for (i = 0; i < n && *y < t->over.h - 2; i++) {
		v = cJSON_GetArrayItem(top, i);
		if (!cJSON_IsString(v))
			break;
		score[0] = '\0';
		color = C_NORMAL;
		if (cJSON_IsArray(sc) && i < cJSON_GetArraySize(sc) &&
		    cJSON_IsNumber(cJSON_GetArrayItem(sc, i))) {
			double	 x = cJSON_GetArrayItem(sc, i)->valuedouble;

			tui_fmt_score(x, score, sizeof score);
			color = colors_score(x, t->m.miss_threshold);
		} else
			snprintf(score, sizeof score, "  - ");
		if (*y >= t->over.h - 2)
			break;
		grid_put(&t->over, *y, 2, i == 0 ? "came back" : "", 10,
		    C_TITLE, 0);
		grid_put(&t->over, *y, 13, score, 4, color, 0);
		snprintf(line, sizeof line, "%2d. %s", i + 1, v->valuestring);
		grid_put(&t->over, *y, 19, line, t->over.w - 21, C_NORMAL, 1);
		(*y)++;
	}
	cJSON_Delete(d);
}

static void
draw_detail(struct tui *t)
{
	const struct stats_event	*e;
	char				 tmp[64];
	struct tm			 tm;
	time_t				 ts;
	int				 y = 1, w, n;

	if (!t->m.have_snap || t->detail < 0 ||
	    (size_t)t->detail >= t->m.snap.n_recent) {
		t->overlay = OVERLAY_NONE;
		return;
	}
	e = &t->m.snap.recent[t->detail];
	w = t->w - 4 > 76 ? 76 : t->w - 4;
	n = e->kind == STATS_SEARCH ? detail_count(e) : 0;
	overlay_box(t, 14 + (e->kind == STATS_SEARCH ? 3 : 0) +
	    (n > 1 ? n - 1 : 0), w, " Event ");
	ts = (time_t)e->ts;
	if (localtime_r(&ts, &tm) != NULL)
		strftime(tmp, sizeof tmp, "%Y-%m-%d %H:%M:%S %Z", &tm);
	else
		snprintf(tmp, sizeof tmp, "%.0f", e->ts);
	detail_line(t, &y, "time", tmp, C_NORMAL);
	detail_line(t, &y, "kind", stats_kind_name(e->kind), C_NORMAL);
	if (e->kind == STATS_SEARCH) {
		detail_line(t, &y, "query", e->query != NULL ? e->query :
		    "(not stored)", C_NORMAL);
		tui_fmt_score(e->top1_score, tmp, sizeof tmp);
		detail_line(t, &y, "top-1", tmp,
		    colors_score(e->top1_score, t->m.miss_threshold));
		snprintf(tmp, sizeof tmp, "%d", e->n_results);
		detail_line(t, &y, "results", tmp, C_NORMAL);
	}
	detail_line(t, &y, "skill", e->skill, C_NORMAL);
	if (e->found >= 0)
		detail_line(t, &y, "found", e->found ? "yes" : "no",
		    e->found ? C_EVENT_LOAD : C_EVENT_ERROR);
	detail_line(t, &y, "trust", e->trust, C_NORMAL);
	tui_fmt_ms(e->latency_ms, tmp, sizeof tmp);
	detail_line(t, &y, "latency", tmp, C_NORMAL);
	detail_line(t, &y, "session", e->session, C_NORMAL);
	detail_line(t, &y, "client", e->client, C_NORMAL);
	detail_line(t, &y, "replica", e->replica, C_NORMAL);
	if (e->kind == STATS_SEARCH)
		detail_results(t, &y, e);
	grid_put(&t->over, t->over.h - 2, 2, "any key closes", t->over.w - 4,
	    C_DIM, 1);
}

/* ---- setup ----------------------------------------------------------- */

static int
locale_is_utf8(void)
{
	const char	*cs = nl_langinfo(CODESET);

	return cs != NULL && (strcasecmp(cs, "UTF-8") == 0 ||
	    strcasecmp(cs, "utf8") == 0);
}

static void
tui_init(struct tui *t, const struct config *cfg, const struct tui_opts *o,
    int curses)
{
	int	 i;

	memset(t, 0, sizeof *t);
	t->curses = curses;
	t->gl = locale_is_utf8() ? &glyphs_utf8 : &glyphs_ascii;
	grid_set_ascii(t->gl == &glyphs_ascii);
	grid_init(&t->screen);
	grid_init(&t->over);
	t->focus = PANEL_EVENTS;
	model_init(&t->m, cfg, o);
	for (i = 0; i < PANEL_COUNT; i++)
		t->panels[i] = panel_new(panel_table[i], t, i, curses);
}

static void
tui_done(struct tui *t)
{
	int	 i;

	for (i = 0; i < PANEL_COUNT; i++)
		panel_free(t->panels[i]);
	if (t->over_win != NULL)
		delwin(t->over_win);
	grid_done(&t->screen);
	grid_done(&t->over);
	model_done(&t->m);
}

/* Tells every panel the model changed. */
static void
tui_update(struct tui *t)
{
	const struct stats_snap	*snap = t->m.have_snap ? &t->m.snap : NULL;
	int			 i;

	for (i = 0; i < PANEL_COUNT; i++)
		t->panels[i]->ops->update(t->panels[i], snap);
}

static void
once_size(const struct tui_opts *o, int *h, int *w)
{
	const char	*s;

	*w = o->width;
	*h = o->height;
	if (*w <= 0 && (s = getenv("COLUMNS")) != NULL)
		*w = atoi(s);
	if (*h <= 0 && (s = getenv("LINES")) != NULL)
		*h = atoi(s);
	if (*w <= 0)
		*w = 100;
	if (*h <= 0)
		*h = 30;
	if (*w > 1000)
		*w = 1000;
	if (*h > 500)
		*h = 500;
}

int
tui_once(const struct config *cfg, const struct tui_opts *o, char **cause)
{
	struct tui		 t;
	struct feed		*feed;
	struct feed_result	 res;
	double			 t0 = clock_ms(), t1;
	int			 h, w, i, rv = SR_OK;

	*cause = NULL;
	colors_set_scheme(o->mono ? SCHEME_MONO : SCHEME_COLOR);
	tui_init(&t, cfg, o, 0);
	feed = feed_new(o, t.m.miss_threshold, conversion_window(cfg));
	if (feed_poll(feed, t.m.range, 1, &res))
		model_apply(&t.m, &res);
	feed_free(feed);
	once_size(o, &h, &w);
	tui_update(&t);
	layout(&t, h, w);
	t1 = clock_ms();
	draw_frame(&t);
	for (i = 0; i < PANEL_COUNT; i++) {
		if (t.panels[i]->visible)
			grid_copy(&t.screen, t.panels[i]->y, t.panels[i]->x,
			    &t.panels[i]->g);
	}
	if (grid_print(&t.screen, stdout, o->color ? colors_sgr : NULL) != 0) {
		xasprintf(cause, "stdout: %s", strerror(errno));
		rv = SR_IO;
	}
	if (o->verbose)
		fprintf(stderr, "skills-radar: tui: load+snapshot %.2f ms "
		    "(snapshot %.2f ms), frame %.2f ms\n", t1 - t0,
		    t.m.snap_ms, clock_ms() - t1);
	tui_done(&t);
	return rv;
}

/* ---- curses ---------------------------------------------------------- */

static void
on_quit(int sig)
{
	(void)sig;
	got_quit = 1;
}

static void
blit(WINDOW *win, const struct grid *g)
{
	const struct cell	*c;
	cchar_t			 cc;
	wchar_t			 wc[2];
	int			 y, x;

	for (y = 0; y < g->h; y++) {
		wmove(win, y, 0);
		for (x = 0; x < g->w; x++) {
			c = &g->c[y * g->w + x];
			if (c->width == 0)
				continue;
			wc[0] = (wchar_t)c->cp;
			wc[1] = L'\0';
			setcchar(&cc, wc, (attr_t)colors_attr(c->color),
			    colors_pair(c->color), NULL);
			mvwadd_wch(win, y, x, &cc);
		}
	}
}

/*
 * One frame: the frame, the panels and the overlay are composed in the
 * screen grid, which is the only thing put on the terminal. An overlay
 * is clipped in the grid (a wide character it cuts is blanked, grid.c),
 * so nothing under it shows past its edges.
 */
static void
render(struct tui *t)
{
	struct panel	*p;
	int		 i;

	draw_frame(t);
	for (i = 0; i < PANEL_COUNT; i++) {
		p = t->panels[i];
		if (p->visible)
			grid_copy(&t->screen, p->y, p->x, &p->g);
	}
	if (t->overlay == OVERLAY_HELP)
		draw_help(t);
	else if (t->overlay == OVERLAY_DETAIL)
		draw_detail(t);
	if ((t->overlay == OVERLAY_HELP || t->overlay == OVERLAY_DETAIL) &&
	    t->over.h > 0 && t->over.w > 0)
		grid_copy(&t->screen, t->over_y, t->over_x, &t->over);
	blit(stdscr, &t->screen);
	wnoutrefresh(stdscr);
	doupdate();
}

static void
focus_next(struct tui *t, int dir)
{
	static const int	 order[] = {
		PANEL_QUERIES, PANEL_EVENTS, PANEL_LOADS
	};
	int			 i, k, n = 3;

	for (k = 0; k < n && order[k] != t->focus; k++)
		;
	for (i = 1; i <= n; i++) {
		int j = ((k + dir * i) % n + n) % n;

		if (t->panels[order[j]]->visible) {
			t->focus = order[j];
			return;
		}
	}
}

static void
set_filter(struct tui *t, const char *s)
{
	snprintf(t->filter, sizeof t->filter, "%s", s);
	t->panels[PANEL_EVENTS]->sel = 0;
	t->panels[PANEL_EVENTS]->scroll = 0;
	tui_update(t);
}

/* Removes the last UTF-8 character of s. */
static void
chop_utf8(char *s)
{
	size_t	 n = strlen(s);

	while (n > 0) {
		n--;
		if (((unsigned char)s[n] & 0xc0) != 0x80)
			break;
	}
	s[n] = '\0';
}

/* A key while typing the filter. Returns 1 to redraw. */
static int
filter_key(struct tui *t, int is_code, wint_t ch)
{
	char	 mb[8];
	size_t	 n, len;

	if (is_code) {
		if (ch == KEY_BACKSPACE)
			chop_utf8(t->editing);
		else if (ch == KEY_ENTER) {
			set_filter(t, t->editing);
			t->overlay = OVERLAY_NONE;
		}
		return 1;
	}
	switch (ch) {
	case 27:
		t->overlay = OVERLAY_NONE;
		return 1;
	case '\n':
	case '\r':
		set_filter(t, t->editing);
		t->overlay = OVERLAY_NONE;
		return 1;
	case 127:
	case 8:
		chop_utf8(t->editing);
		return 1;
	case 21:	/* Ctrl-U */
		t->editing[0] = '\0';
		return 1;
	}
	if (ch < 0x20 || ch == 0x7f)
		return 0;
	n = (size_t)grid_utf8((uint32_t)ch, mb);
	len = strlen(t->editing);
	if (len + n < sizeof t->editing) {
		memcpy(t->editing + len, mb, n + 1);
	}
	return 1;
}

/*
 * One key. Returns -1 to quit, 1 to redraw, 0 for nothing. Plain
 * characters arrive with is_code 0, curses key codes with is_code 1.
 */
static int
handle_key(struct tui *t, int is_code, wint_t ch)
{
	struct panel	*p;
	int		 key = (int)ch, r;

	if (t->overlay == OVERLAY_FILTER)
		return filter_key(t, is_code, ch);
	if (t->overlay == OVERLAY_HELP && t->help_more) {
		/* A help box cut to the terminal pages. */
		if ((is_code && (ch == KEY_DOWN || ch == KEY_NPAGE)) ||
		    (!is_code && (ch == 'j' || ch == ' '))) {
			t->help_top += is_code && ch == KEY_NPAGE ? 5 : 1;
			return 1;
		}
		if ((is_code && (ch == KEY_UP || ch == KEY_PPAGE)) ||
		    (!is_code && ch == 'k')) {
			t->help_top -= is_code && ch == KEY_PPAGE ? 5 : 1;
			return 1;
		}
	}
	if (t->overlay == OVERLAY_HELP || t->overlay == OVERLAY_DETAIL) {
		if (is_code && ch == KEY_RESIZE)
			return 1;
		t->overlay = OVERLAY_NONE;
		return 1;
	}
	if (!is_code) {
		switch (ch) {
		case 'q':
		case 'Q':
			return -1;
		case 'p':
		case 'P':
			t->paused = !t->paused;
			if (t->worker != NULL)
				feed_worker_request(t->worker, t->m.range,
				    t->paused, !t->paused);
			return 1;
		case 't':
		case 'T':
			t->m.range = range_next[t->m.range];
			if (t->worker != NULL)
				feed_worker_request(t->worker, t->m.range,
				    t->paused, 1);
			return 1;
		case '?':
		case 'h':
			t->overlay = OVERLAY_HELP;
			t->help_top = 0;
			return 1;
		case '/':
			snprintf(t->editing, sizeof t->editing, "%s",
			    t->filter);
			t->overlay = OVERLAY_FILTER;
			return 1;
		case 27:
			if (t->filter[0] != '\0')
				set_filter(t, "");
			return 1;
		case '\t':
			focus_next(t, 1);
			return 1;
		case 'm':
		case 'M':
			t->missed = !t->missed;
			t->panels[PANEL_QUERIES]->scroll = 0;
			t->panels[PANEL_QUERIES]->sel = 0;
			return 1;
		case 'r':
		case 12:	/* Ctrl-L */
			clearok(curscr, TRUE);
			return 1;
		case '\n':
		case '\r':
			key = KEY_ENTER;
			break;
		}
	} else if (ch == KEY_BTAB) {
		focus_next(t, -1);
		return 1;
	}
	p = t->panels[t->focus];
	if (!p->visible || p->ops->key == NULL)
		return 0;
	r = p->ops->key(p, key);
	return (r & PANEL_REDRAW) ? 1 : 0;
}

static void
install_signals(void)
{
	struct sigaction	 sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_quit;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0;	/* no SA_RESTART: let getch return */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

int
tui_run(const struct config *cfg, const struct tui_opts *o, char **cause)
{
	struct tui		 t;
	struct feed_result	 res;
	SCREEN			*scr;
	double			 last_index, now;
	wint_t			 ch;
	int			 rc, dirty = 1, r;

	*cause = NULL;
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		xasprintf(cause, "tui needs a terminal (use --once for a "
		    "plain-text frame)");
		return SR_USAGE;
	}
	install_signals();
	if ((scr = newterm(NULL, stdout, stdin)) == NULL) {
		xasprintf(cause, "cannot initialise the terminal (TERM=%s)",
		    getenv("TERM") != NULL ? getenv("TERM") : "");
		return SR_ERR;
	}
	set_term(scr);
	colors_set_scheme(o->mono ? SCHEME_MONO : SCHEME_COLOR);
	colors_curses_init();
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	set_escdelay(25);
	curs_set(0);
	wtimeout(stdscr, LOOP_MS);

	tui_init(&t, cfg, o, 1);
	t.worker = feed_worker_start(feed_new(o, t.m.miss_threshold,
	    conversion_window(cfg)), o->refresh_ms, t.m.range);
	if (t.worker == NULL) {
		tui_done(&t);
		endwin();
		delscreen(scr);
		xasprintf(cause, "cannot start the telemetry thread");
		return SR_ERR;
	}
	tui_update(&t);
	layout(&t, LINES, COLS);
	last_index = clock_ms();

	while (!got_quit) {
		if (dirty) {
			render(&t);
			dirty = 0;
		}
		rc = wget_wch(stdscr, &ch);
		if (got_quit)
			break;
		if (rc == KEY_CODE_YES && ch == KEY_RESIZE) {
			layout(&t, LINES, COLS);
			dirty = 1;
		} else if (rc == OK || rc == KEY_CODE_YES) {
			r = handle_key(&t, rc == KEY_CODE_YES, ch);
			if (r < 0)
				break;
			if (r > 0)
				dirty = 1;
		}
		/* Paused: only a snapshot asked for by `t` gets through. */
		if ((!t.paused || t.m.snap_range != t.m.range) &&
		    feed_worker_take(t.worker, &res)) {
			model_apply(&t.m, &res);
			tui_update(&t);
			dirty = 1;
		}
		now = clock_ms();
		if (now - last_index >= INDEX_CHECK_MS) {
			last_index = now;
			if (!t.paused && model_poll_index(&t.m)) {
				tui_update(&t);
				dirty = 1;
			}
		}
	}
	feed_worker_stop(t.worker);
	t.worker = NULL;
	tui_done(&t);
	endwin();
	delscreen(scr);
	return SR_OK;
}
