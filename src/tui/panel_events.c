/*
 * Recent events, newest first: searches with their top-1 score coloured
 * (green >= 0.6, yellow >= the miss threshold, red below), loads (red
 * when the skill was not found) and index runs (dim). Scrollable, filtered
 * by the `/` text; Enter opens one event's details.
 */
#include "autoconfig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NCURSES_WIDECHAR 1
#include <curses.h>

#include "tui/colors.h"
#include "tui/fmt.h"
#include "tui/model.h"
#include "tui/panel.h"
#include "base/xmalloc.h"

static void
events_update(struct panel *p, const struct stats_snap *snap)
{
	const char	*filter = p->tui->filter;
	size_t		 i, n = 0;

	if (snap != NULL && snap->n_recent > p->rows_cap) {
		p->rows = xreallocarray(p->rows, snap->n_recent,
		    sizeof *p->rows);
		p->rows_cap = snap->n_recent;
	}
	for (i = 0; snap != NULL && i < snap->n_recent; i++) {
		if (tui_event_matches(&snap->recent[i], filter))
			p->rows[n++] = i;
	}
	/* A notice (stats.db gone, unreadable) takes the first row. */
	p->reserve = tui_stats_notice(p->tui) != NULL ? 1 : 0;
	panel_clamp(p, n);
}

static void
draw_title(struct panel *p, const struct stats_snap *snap)
{
	const struct tui	*t = p->tui;
	char			 tmp[200];
	int			 x;

	x = grid_put(&p->title, 0, 0, "Recent events", p->title.w,
	    t->focus == p->id ? C_TITLE_FOCUS : C_TITLE, 1);
	x += grid_put(&p->title, 0, x, t->gl->dot, p->title.w - x, C_BORDER, 0);
	if (t->paused)
		x += grid_put(&p->title, 0, x, "paused", p->title.w - x,
		    C_PAUSED, 0);
	else
		x += grid_put(&p->title, 0, x, "live", p->title.w - x,
		    C_TITLE, 0);
	if (t->filter[0] != '\0') {
		snprintf(tmp, sizeof tmp, "%sfilter \"%s\" %zu/%zu", t->gl->dot,
		    t->filter, p->n_rows, snap != NULL ? snap->n_recent : 0);
		x += grid_put(&p->title, 0, x, tmp, p->title.w - x, C_KEY, 1);
	}
	p->title_w = x;
}

/* Does any shown event need the long MM-DD HH:MM time? */
static int
time_width(struct panel *p, const struct stats_snap *snap)
{
	char	 tmp[32];
	size_t	 i;
	int	 row;

	for (row = 0; row < p->h; row++) {
		i = (size_t)(p->scroll + row);
		if (i >= p->n_rows)
			break;
		tui_fmt_time(snap->recent[p->rows[i]].ts, p->tui->m.now, tmp,
		    sizeof tmp);
		if (strlen(tmp) > 8)
			return 11;
	}
	return 8;
}

static void
draw_event(struct panel *p, int y, const struct stats_event *e, int tw)
{
	const struct tui_model	*m = &p->tui->m;
	char			 tmp[64];
	int			 x = 1, end = p->w - 1, lw = 0, kc, c;

	tui_fmt_time(e->ts, m->now, tmp, sizeof tmp);
	grid_put(&p->g, y, x, tmp, tw, e->kind == STATS_INDEX ? C_EVENT_INDEX :
	    C_DIM, 0);
	x += tw + 2;
	kc = e->kind == STATS_INDEX ? C_EVENT_INDEX :
	    (e->kind == STATS_LOAD && e->found == 0) ? C_EVENT_ERROR :
	    C_NORMAL;
	grid_put(&p->g, y, x, stats_kind_name(e->kind), end - x, kc, 0);
	x += 8;
	/* A fleet: which replica wrote the event. */
	if (m->have_snap && tui_hosts(&m->snap) > 1 && e->replica != NULL &&
	    x < end) {
		size_t	 hl = strcspn(e->replica, ":");

		/* The host: its processes are told apart in the detail. */
		snprintf(tmp, sizeof tmp, "@%.*s", (int)(hl < 11 ? hl : 11),
		    e->replica);
		x += grid_put(&p->g, y, x, tmp, end - x, C_DIM, 0) + 1;
	}
	if (p->w >= 50 && e->latency_ms >= 0) {
		char	 ms[32];

		tui_fmt_ms(e->latency_ms, ms, sizeof ms);
		snprintf(tmp, sizeof tmp, "(%s)", ms);
		lw = (int)strlen(tmp) + 1;
		if (lw > 10)
			lw = 10;
		grid_put_right(&p->g, y, end - lw, tmp, lw, kc == C_NORMAL ?
		    C_DIM : kc);
		end -= lw + 1;
	}
	if (x >= end)
		return;
	switch (e->kind) {
	case STATS_SEARCH:
		c = colors_score(e->top1_score, m->miss_threshold);
		tui_fmt_score(e->top1_score, tmp, sizeof tmp);
		x += grid_put(&p->g, y, x, tmp, end - x, c, 0) + 2;
		if (e->query != NULL)
			grid_put(&p->g, y, x, e->query, end - x, C_NORMAL, 1);
		else
			grid_put(&p->g, y, x, "(query not stored)", end - x,
			    C_DIM, 1);
		break;
	case STATS_LOAD:
		c = e->found == 0 ? C_EVENT_ERROR : C_EVENT_LOAD;
		x += grid_put(&p->g, y, x, e->skill != NULL ? e->skill : "?",
		    end - x, c, 1);
		if (e->found == 0)
			grid_put(&p->g, y, x, "  not found", end - x,
			    C_EVENT_ERROR, 1);
		else if (e->trust != NULL) {
			snprintf(tmp, sizeof tmp, "  %s", e->trust);
			grid_put(&p->g, y, x, tmp, end - x, C_DIM, 1);
		}
		break;
	case STATS_INDEX:
	default:
		snprintf(tmp, sizeof tmp, "%d entr%s", e->n_results,
		    e->n_results == 1 ? "y" : "ies");
		grid_put(&p->g, y, x, tmp, end - x, C_EVENT_INDEX, 1);
		break;
	}
}

static void
events_draw(struct panel *p)
{
	const struct tui_model	*m = &p->tui->m;
	const struct stats_snap	*snap = m->have_snap ? &m->snap : NULL;
	const char		*notice;
	size_t			 i;
	int			 row, tw;

	grid_clear(&p->g);
	grid_clear(&p->title);
	draw_title(p, snap);
	if ((notice = tui_stats_notice(p->tui)) != NULL) {
		panel_message(p, 0, notice, m->stats_state == TS_ERROR ?
		    C_ERROR : C_NOTICE);
		if (snap == NULL)
			return;
		/* An old snapshot stays below the notice. */
	}
	if (snap == NULL || snap->n_recent == 0) {
		panel_message(p, 0, "no events yet", C_DIM);
		return;
	}
	if (p->n_rows == 0) {
		panel_message(p, 0, "no event matches the filter", C_DIM);
		return;
	}
	tw = time_width(p, snap);
	for (row = notice != NULL ? 1 : 0; row < p->h; row++) {
		i = (size_t)(p->scroll + row - (notice != NULL ? 1 : 0));
		if (i >= p->n_rows)
			break;
		draw_event(p, row, &snap->recent[p->rows[i]], tw);
		if (p->tui->focus == p->id && (int)i == p->sel)
			grid_set(&p->g, row, 0, p->tui->gl->sel, C_SELECTED);
	}
}

static int
events_key(struct panel *p, int key)
{
	if (key == KEY_ENTER) {
		if (p->n_rows == 0)
			return PANEL_HANDLED;
		p->tui->detail = (int)p->rows[p->sel];
		p->tui->overlay = OVERLAY_DETAIL;
		return PANEL_HANDLED | PANEL_REDRAW;
	}
	return panel_scroll_key(p, key, p->n_rows);
}

static void
events_resize(struct panel *p, int h, int w, int y, int x)
{
	panel_place(p, h, w, y, x);
}

static void
events_free(struct panel *p)
{
	(void)p;
}

const struct panel_ops panel_events_ops = {
	"events",
	events_update,
	events_draw,
	events_key,
	events_resize,
	events_free
};
