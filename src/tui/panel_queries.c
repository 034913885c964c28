/*
 * Top queries: the most frequent queries of the range with their mean
 * top-1 score, a miss-rate badge in the title (the thresholds and colours
 * of `skills-radar stats`) and a sparkline of the miss rate over the
 * range, from the recent searches of the snapshot. With `m` it shows the
 * missed queries instead, each followed by the advice of `stats`: the
 * skills that came close and the words no indexed skill contains.
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
#include "base/strlist.h"
#include "search/vocab.h"
#include "base/xmalloc.h"

#define SPARK_BUCKETS	48

struct queries_priv {
	int	 searches[SPARK_BUCKETS];
	int	 misses[SPARK_BUCKETS];
	int	 any;
};

static struct queries_priv *
priv(struct panel *p)
{
	if (p->priv == NULL)
		p->priv = xcalloc(1, sizeof(struct queries_priv));
	return p->priv;
}

/*
 * The missed view as lines: each missed query (kind 0, its index in
 * missed), then its close candidates (1) and its unknown words (2) when
 * there are any. Returns how many; fills out[] (n_out slots) when set.
 */
struct mline {
	int	 kind;
	size_t	 i;
};

static size_t
missed_layout(struct panel *p, const struct stats_snap *snap,
    struct mline *out, size_t n_out)
{
	const struct vocab	*v = tui_vocab(p->tui);
	struct strlist		 un;
	size_t			 i, n = 0;

#define EMIT(k) do {							\
	if (out != NULL && n < n_out) {					\
		out[n].kind = (k);					\
		out[n].i = i;						\
	}								\
	n++;								\
} while (0)
	for (i = 0; i < snap->n_missed; i++) {
		EMIT(0);
		if (i < snap->n_near && snap->near[i].stored)
			EMIT(1);
		strlist_init(&un);
		if (v != NULL && vocab_unknown(v, snap->missed[i].key, &un) > 0)
			EMIT(2);
		strlist_done(&un);
	}
#undef EMIT
	return n;
}

static size_t
missed_lines(struct panel *p, const struct stats_snap *snap)
{
	return missed_layout(p, snap, NULL, 0);
}

static void
queries_update(struct panel *p, const struct stats_snap *snap)
{
	struct queries_priv		*q = priv(p);
	const struct tui_model		*m = &p->tui->m;
	const struct stats_event	*e;
	double				 start = 0, end = m->snap_time, span;
	size_t				 i;
	int				 b;

	memset(q, 0, sizeof *q);
	p->reserve = 0;
	if (snap == NULL) {
		panel_clamp(p, 0);
		return;
	}
	switch (m->range) {
	case RANGE_1H:
		start = end - 3600;
		break;
	case RANGE_24H:
		start = end - 86400;
		break;
	case RANGE_7D:
		start = end - 7 * 86400;
		break;
	default:
		/* All time: from the oldest to the newest search shown. */
		end = 0;
		for (i = 0; i < snap->n_recent; i++) {
			e = &snap->recent[i];
			if (e->kind != STATS_SEARCH)
				continue;
			if (start == 0 || e->ts < start)
				start = e->ts;
			if (e->ts > end)
				end = e->ts;
		}
		break;
	}
	if (end < start)
		end = start;
	span = end - start;
	for (i = 0; i < snap->n_recent; i++) {
		e = &snap->recent[i];
		if (e->kind != STATS_SEARCH || e->ts < start)
			continue;
		b = span > 0 ? (int)((e->ts - start) / span * SPARK_BUCKETS) :
		    SPARK_BUCKETS - 1;
		if (b >= SPARK_BUCKETS)
			b = SPARK_BUCKETS - 1;
		if (b < 0)
			b = 0;
		q->searches[b]++;
		if (e->top1_score < m->miss_threshold)
			q->misses[b]++;
		q->any = 1;
	}
	/* The sparkline takes the first row when there is room. */
	p->reserve = q->any && p->h >= 3 ? 1 : 0;
	panel_clamp(p, p->tui->missed ? missed_lines(p, snap) :
	    snap->n_top_queries);
}

static void
draw_title(struct panel *p, const struct stats_snap *snap)
{
	char	 tmp[64];
	int	 x;

	x = grid_put(&p->title, 0, 0, p->tui->missed ? "Missed queries" :
	    "Top queries", p->title.w,
	    p->tui->focus == p->id ? C_TITLE_FOCUS : C_TITLE, 1);
	if (snap != NULL && snap->by_kind[STATS_SEARCH] > 0) {
		x += grid_put(&p->title, 0, x, p->tui->gl->dot,
		    p->title.w - x, C_BORDER, 0);
		snprintf(tmp, sizeof tmp, "miss %.0f%%", snap->miss_rate * 100);
		x += grid_put(&p->title, 0, x, tmp, p->title.w - x,
		    colors_badge(snap->badge), 0);
		snprintf(tmp, sizeof tmp, " of %lld",
		    snap->by_kind[STATS_SEARCH]);
		x += grid_put(&p->title, 0, x, tmp, p->title.w - x, C_TITLE, 1);
	}
	p->title_w = x;
}

/* Row y: "miss trend ▁▂▅█" over the range, newest on the right. */
static void
draw_spark(struct panel *p, int y)
{
	struct queries_priv	*q = priv(p);
	int			 n, i, b, x, lvl;

	x = 1 + grid_put(&p->g, y, 1, "miss trend", p->w - 2, C_DIM, 0) + 1;
	n = p->w - 1 - x;
	if (n > SPARK_BUCKETS)
		n = SPARK_BUCKETS;
	/* Each column merges the buckets it covers. */
	for (i = 0; i < n; i++) {
		int	 s = 0, miss = 0;

		for (b = i * SPARK_BUCKETS / n;
		    b < (i + 1) * SPARK_BUCKETS / n; b++) {
			s += q->searches[b];
			miss += q->misses[b];
		}
		if (s == 0) {
			grid_set(&p->g, y, x + i, ' ', C_DIM);
			continue;
		}
		lvl = (int)((double)miss / s * 7 + 0.5);
		grid_set(&p->g, y, x + i, p->tui->gl->spark[lvl], C_SPARK);
	}
}

/*
 * Row y: "score ▁▃█│▂▅│▇▂" the top-1 scores of the searches (the
 * snapshot's score_hist, 0.05 wide, as `stats` draws it), with a mark at
 * the miss threshold (0.4) and at 0.6, coloured like a score. Returns 0
 * when it does not fit.
 */
static int
draw_hist(struct panel *p, const struct stats_snap *snap, int y)
{
	const struct tui_glyphs	*gl = p->tui->gl;
	long long		 max = 0;
	int			 i, x, lvl, lo, hi;

	lo = (int)(p->tui->m.miss_threshold * STATS_HIST + 0.5);
	hi = (int)(0.6 * STATS_HIST + 0.5);
	if (p->w < 7 + STATS_HIST + 2)
		return 0;
	for (i = 0; i < STATS_HIST; i++)
		if (snap->score_hist[i] > max)
			max = snap->score_hist[i];
	if (max == 0)
		return 0;
	x = 1 + grid_put(&p->g, y, 1, "score", p->w - 2, C_DIM, 0) + 1;
	for (i = 0; i < STATS_HIST; i++) {
		if (i == lo || (i == hi && hi != lo))
			grid_set(&p->g, y, x++, gl->v, C_DIM);
		if (snap->score_hist[i] == 0) {
			grid_set(&p->g, y, x++, ' ', C_DIM);
			continue;
		}
		lvl = (int)((double)snap->score_hist[i] / (double)max * 7 +
		    0.5);
		grid_set(&p->g, y, x++, gl->spark[lvl],
		    colors_score((i + 0.5) / STATS_HIST,
		    p->tui->m.miss_threshold));
	}
	return 1;
}

/* One advice line of missed query i: "close: a 0.35, b 0.21". */
static void
advice_line(struct panel *p, const struct stats_snap *snap, int kind,
    size_t i, int y)
{
	const struct stats_near	*nr = &snap->near[i];
	struct strlist		 un;
	char			 line[512], tmp[64];
	size_t			 k, len = 0;

	line[0] = '\0';
	if (kind == 1) {
		len = (size_t)snprintf(line, sizeof line, "close:");
		if (nr->n == 0)
			snprintf(line + len, sizeof line - len, " none");
		for (k = 0; k < nr->n && len < sizeof line; k++) {
			if (nr->score[k] >= 0)
				snprintf(tmp, sizeof tmp, " %.2f", nr->score[k]);
			else
				tmp[0] = '\0';
			len += (size_t)snprintf(line + len, sizeof line - len,
			    "%s %s%s", k ? "," : "", nr->skill[k], tmp);
		}
	} else {
		strlist_init(&un);
		vocab_unknown(tui_vocab(p->tui), snap->missed[i].key, &un);
		len = (size_t)snprintf(line, sizeof line, "no skill has:");
		for (k = 0; k < un.n && len < sizeof line; k++)
			len += (size_t)snprintf(line + len, sizeof line - len,
			    "%s %s", k ? "," : "", un.v[k]);
		strlist_done(&un);
	}
	grid_put(&p->g, y, 3, line, p->w - 4, kind == 1 ? C_DIM : C_NOTICE, 1);
}

static void
draw_missed(struct panel *p, const struct stats_snap *snap, int y)
{
	const struct tui_model	*m = &p->tui->m;
	const struct stats_count *c;
	struct mline		*lines;
	char			 tmp[32];
	size_t			 n, i;
	int			 row, qw = p->w - 2 - 8 - 6;

	n = missed_lines(p, snap);
	if (n == 0) {
		panel_message(p, y, "no missed queries", C_DIM);
		return;
	}
	lines = xreallocarray(NULL, n, sizeof *lines);
	missed_layout(p, snap, lines, n);
	for (row = 0; y < p->h; y++, row++) {
		i = (size_t)(p->scroll + row);
		if (i >= n)
			break;
		if (lines[i].kind != 0)
			advice_line(p, snap, lines[i].kind, lines[i].i, y);
		else {
			c = &snap->missed[lines[i].i];
			grid_put(&p->g, y, 1, c->key, qw, C_NORMAL, 1);
			snprintf(tmp, sizeof tmp, "%lld", c->n);
			grid_put_right(&p->g, y, 1 + qw, tmp, 7, C_NORMAL);
			if (p->w >= 24) {
				tui_fmt_score(c->value, tmp, sizeof tmp);
				grid_put_right(&p->g, y, 1 + qw + 7, tmp, 6,
				    colors_score(c->value, m->miss_threshold));
			}
		}
		if (p->tui->focus == p->id && (int)i == p->sel)
			grid_set(&p->g, y, 0, p->tui->gl->sel, C_SELECTED);
	}
	free(lines);
}

static void
queries_draw(struct panel *p)
{
	const struct tui_model	*m = &p->tui->m;
	const struct stats_snap	*snap = m->have_snap ? &m->snap : NULL;
	const struct stats_count *c;
	const char		*notice;
	char			 tmp[32];
	int			 y = 0, row, qw;
	size_t			 i;

	grid_clear(&p->g);
	grid_clear(&p->title);
	draw_title(p, snap);
	if ((notice = tui_stats_notice(p->tui)) != NULL && snap == NULL) {
		panel_message(p, 0, notice, m->stats_state == TS_ERROR ?
		    C_ERROR : C_NOTICE);
		return;
	}
	if (snap == NULL || snap->n_top_queries == 0) {
		panel_message(p, 0, "no searches yet", C_DIM);
		return;
	}
	if (priv(p)->any && p->h >= 3)
		draw_spark(p, y++);
	if (y > 0 && p->h >= 6 && draw_hist(p, snap, y))
		y++;
	p->reserve = y;
	if (p->tui->missed) {
		draw_missed(p, snap, y);
		return;
	}
	qw = p->w - 2 - 8 - 6;
	for (row = 0; y < p->h; y++, row++) {
		i = (size_t)(p->scroll + row);
		if (i >= snap->n_top_queries)
			break;
		c = &snap->top_queries[i];
		grid_put(&p->g, y, 1, c->key != NULL ? c->key : "(not stored)",
		    qw, c->key != NULL ? C_NORMAL : C_DIM, 1);
		snprintf(tmp, sizeof tmp, "%lld", c->n);
		grid_put_right(&p->g, y, 1 + qw, tmp, 7, C_NORMAL);
		if (c->value >= 0 && p->w >= 24) {
			tui_fmt_score(c->value, tmp, sizeof tmp);
			grid_put_right(&p->g, y, 1 + qw + 7, tmp, 6,
			    colors_score(c->value, m->miss_threshold));
		}
		if (p->tui->focus == p->id && (int)i == p->sel)
			grid_set(&p->g, y, 0, p->tui->gl->sel, C_SELECTED);
	}
}

static int
queries_key(struct panel *p, int key)
{
	const struct tui_model	*m = &p->tui->m;

	if (p->tui->missed)
		return panel_scroll_key(p, key, m->have_snap ?
		    missed_lines(p, &m->snap) : 0);
	return panel_scroll_key(p, key, m->have_snap ?
	    m->snap.n_top_queries : 0);
}

static void
queries_resize(struct panel *p, int h, int w, int y, int x)
{
	p->reserve = priv(p)->any && h >= 3 ? 1 : 0;
	panel_place(p, h, w, y, x);
}

static void
queries_free(struct panel *p)
{
	free(p->priv);
	p->priv = NULL;
}

const struct panel_ops panel_queries_ops = {
	"queries",
	queries_update,
	queries_draw,
	queries_key,
	queries_resize,
	queries_free
};
