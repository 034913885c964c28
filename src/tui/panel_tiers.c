/*
 * Trust-tier breakdown: one row per tier (TRUSTED, VERIFIED, USER,
 * UNTRUSTED) with a bar scaled to the panel width, the count of winning
 * entries in the index, and how many of them are flagged (risk score at
 * warn or above: the skills an operator should look at first, with
 * skills-radar scan); the title says who signed the skills (trust.signers).
 */
#include "autoconfig.h"

#include <stdio.h>
#include <string.h>

#include "tui/colors.h"
#include "tui/panel.h"
#include "core/skill.h"
#include "base/status.h"
#include "tui/tui.h"

/* The flagged column: " 12 flagged". */
#define FLAG_W	12

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
	char			 tmp[64];
	size_t			 total = 0, n, f;
	int			 i, bw, fill, x;

	grid_clear(&p->g);
	grid_clear(&p->title);
	p->title_w = grid_put(&p->title, 0, 0, "Trust tier breakdown",
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
	/* " NAME       bar  count  pct  N flagged " */
	bw = p->w - 1 - 11 - 2 - 6 - 6 - FLAG_W;
	for (i = 0; i < 4 && i < p->h; i++) {
		n = m->tiers[order[i]];
		grid_put(&p->g, i, 1, tier_name(order[i]), 10, color[i], 0);
		if (bw >= 4) {
			fill = total > 0 ? (int)((double)n * bw / total + 0.5) :
			    0;
			if (n > 0 && fill == 0)
				fill = 1;
			grid_fill(&p->g, i, 12, fill, p->tui->gl->full,
			    color[i]);
			grid_fill(&p->g, i, 12 + fill, bw - fill,
			    p->tui->gl->empty, C_BAR_EMPTY);
		}
		x = 12 + (bw >= 4 ? bw : 0);
		snprintf(tmp, sizeof tmp, "%zu", n);
		grid_put_right(&p->g, i, x + 1, tmp, 6, C_NORMAL);
		snprintf(tmp, sizeof tmp, "%3.0f%%", total > 0 ?
		    100.0 * (double)n / (double)total : 0.0);
		grid_put(&p->g, i, x + 9, tmp, 5, C_DIM, 0);
		f = m->flagged[order[i]];
		snprintf(tmp, sizeof tmp, "%zu flagged", f);
		grid_put_right(&p->g, i, x + 14, tmp, FLAG_W - 1,
		    f > 0 ? C_ERROR : C_DIM);
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
