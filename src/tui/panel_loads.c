/*
 * Top loaded skills of the range, with their load counts.
 */
#include "autoconfig.h"

#include <stdio.h>
#include <string.h>

#include "tui/colors.h"
#include "tui/model.h"
#include "tui/panel.h"

static void
loads_update(struct panel *p, const struct stats_snap *snap)
{
	panel_clamp(p, snap != NULL ? snap->n_top_loads : 0);
}

static void
loads_draw(struct panel *p)
{
	const struct tui_model	 *m = &p->tui->m;
	const struct stats_snap	 *snap = m->have_snap ? &m->snap : NULL;
	const struct stats_count *c;
	const char		 *notice;
	char			  tmp[32];
	long long		  total = 0;
	size_t			  i;
	int			  y, nw;

	grid_clear(&p->g);
	grid_clear(&p->title);
	if (snap != NULL)
		total = snap->by_kind[STATS_LOAD];
	if (total > 0)
		snprintf(tmp, sizeof tmp, "%s%lld loads", p->tui->gl->dot,
		    total);
	else
		tmp[0] = '\0';
	p->title_w = grid_put(&p->title, 0, 0, "Top loaded skills", p->title.w,
	    p->tui->focus == p->id ? C_TITLE_FOCUS : C_TITLE, 1);
	p->title_w += grid_put(&p->title, 0, p->title_w, tmp,
	    p->title.w - p->title_w, C_TITLE, 1);
	if ((notice = tui_stats_notice(p->tui)) != NULL && snap == NULL) {
		panel_message(p, 0, notice, m->stats_state == TS_ERROR ?
		    C_ERROR : C_NOTICE);
		return;
	}
	if (snap == NULL || snap->n_top_loads == 0) {
		panel_message(p, 0, "no skills loaded yet", C_DIM);
		return;
	}
	nw = p->w - 2 - 8;
	for (y = 0; y < p->h; y++) {
		i = (size_t)(p->scroll + y);
		if (i >= snap->n_top_loads)
			break;
		c = &snap->top_loads[i];
		grid_put(&p->g, y, 1, c->key != NULL ? c->key : "?", nw,
		    C_NORMAL, 1);
		snprintf(tmp, sizeof tmp, "%lld", c->n);
		grid_put_right(&p->g, y, 1 + nw, tmp, 7, C_NORMAL);
		if (p->tui->focus == p->id && (int)i == p->sel)
			grid_set(&p->g, y, 0, p->tui->gl->sel, C_SELECTED);
	}
}

static int
loads_key(struct panel *p, int key)
{
	const struct tui_model	*m = &p->tui->m;

	return panel_scroll_key(p, key, m->have_snap ? m->snap.n_top_loads : 0);
}

static void
loads_resize(struct panel *p, int h, int w, int y, int x)
{
	panel_place(p, h, w, y, x);
}

static void
loads_free(struct panel *p)
{
	(void)p;
}

const struct panel_ops panel_loads_ops = {
	"loads",
	loads_update,
	loads_draw,
	loads_key,
	loads_resize,
	loads_free
};
