/*
 * Trust tiers, on one line: each tier (TRUSTED, VERIFIED, USER,
 * UNTRUSTED) with the count of winning entries in the index and, when
 * any, how many of them are flagged (risk score at warn or above: the
 * skills an operator should look at first, with skills-radar scan), then
 * one stacked bar of the shares in the columns left, a different block
 * per tier so it reads without colour too. The title says who signed the
 * skills (trust.signers).
 */
#include "autoconfig.h"

#include <stdio.h>
#include <string.h>

#include "tui/colors.h"
#include "tui/model.h"
#include "tui/panel.h"
#include "core/skill.h"
#include "base/status.h"

/* The stacked bar is drawn when at least this many columns are left. */
#define BAR_MIN	8

static void
tiers_update(struct panel *p, const struct stats_snap *snap)
{
	(void)p;
	(void)snap;
}

static void
tiers_draw(struct panel *p)
{
	static const int	 order[4] = {
		TIER_TRUSTED, TIER_VERIFIED, TIER_USER, TIER_UNTRUSTED
	};
	static const int	 color[4] = {
		C_TIER_TRUSTED, C_TIER_VERIFIED, C_TIER_USER, C_TIER_UNTRUSTED
	};
	const struct tui_model	*m = &p->tui->m;
	const struct tui_glyphs	*gl = p->tui->gl;
	char			 tmp[64];
	size_t			 total = 0, n, f, acc = 0;
	int			 i, x = 1, end = p->w - 1, bw, x0, x1;

	grid_clear(&p->g);
	grid_clear(&p->title);
	p->title_w = grid_put(&p->title, 0, 0, "Trust tiers",
	    p->title.w, C_TITLE, 1);
	/* Who signed the skills (trust.signers), when anyone did. */
	if (m->signed_by != NULL && p->title_w + 14 < p->title.w) {
		p->title_w += grid_put(&p->title, 0, p->title_w, " · signed by ",
		    p->title.w - p->title_w, C_DIM, 0);
		p->title_w += grid_put(&p->title, 0, p->title_w, m->signed_by,
		    p->title.w - p->title_w, C_TIER_VERIFIED, 0);
	}
	if (m->index_state != 0) {
		panel_message(p, 0, m->index_state == SR_NOTFOUND ?
		    "no index.db yet: run skills-radar index" :
		    (m->index_msg != NULL ? m->index_msg : "index unreadable"),
		    m->index_state == SR_NOTFOUND ? C_NOTICE : C_ERROR);
		return;
	}
	for (i = 0; i < 4; i++)
		total += m->tiers[i];
	for (i = 0; i < 4 && x < end; i++) {
		n = m->tiers[order[i]];
		f = m->flagged[order[i]];
		if (i > 0)
			x += grid_put(&p->g, 0, x, gl->dot, end - x, C_DIM, 0);
		x += grid_put(&p->g, 0, x, tier_name(order[i]), end - x,
		    n > 0 ? color[i] : C_DIM, 0);
		snprintf(tmp, sizeof tmp, " %zu", n);
		x += grid_put(&p->g, 0, x, tmp, end - x, C_NORMAL, 0);
		if (f > 0) {
			x += grid_put(&p->g, 0, x, " (", end - x, C_DIM, 0);
			snprintf(tmp, sizeof tmp, "%zu flagged", f);
			x += grid_put(&p->g, 0, x, tmp, end - x, C_ERROR, 0);
			x += grid_put(&p->g, 0, x, ")", end - x, C_DIM, 0);
		}
	}
	/* The shares, stacked: tier i covers [acc, acc + n) of total. */
	x += 2;
	bw = end - x;
	if (bw < BAR_MIN || total == 0)
		return;
	if (bw > 60)
		bw = 60;
	x = end - bw;
	for (i = 0; i < 4; i++) {
		n = m->tiers[order[i]];
		x0 = (int)((double)acc * bw / (double)total + 0.5);
		acc += n;
		x1 = (int)((double)acc * bw / (double)total + 0.5);
		if (n > 0 && x1 == x0 && x1 < bw)
			x1++;
		grid_fill(&p->g, 0, x + x0, x1 - x0, gl->tier[i], color[i]);
	}
}

static int
tiers_key(struct panel *p, int key)
{
	(void)p;
	(void)key;
	return 0;
}

static void
tiers_resize(struct panel *p, int h, int w, int y, int x)
{
	panel_place(p, h, w, y, x);
}

static void
tiers_free(struct panel *p)
{
	(void)p;
}

const struct panel_ops panel_tiers_ops = {
	"tiers",
	tiers_update,
	tiers_draw,
	tiers_key,
	tiers_resize,
	tiers_free
};
