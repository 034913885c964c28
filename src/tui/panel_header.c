/*
 * The header: version, skill count, reachable roots, embedder, store and
 * rewriter, on the top border. It has no interior rows.
 */
#include "autoconfig.h"

#include <stdio.h>
#include <string.h>

#include "tui/colors.h"
#include "core/config.h"
#include "tui/model.h"
#include "tui/panel.h"
#include "base/status.h"

static void
header_update(struct panel *p, const struct stats_snap *snap)
{
	(void)p;
	(void)snap;
}

/*
 * Appends one " · "-separated part when it fits whole; returns the new
 * column.
 */
static int
part(struct panel *p, int x, const char *s, int color)
{
	const struct tui	*t = p->tui;

	if (x + text_width(t->gl->dot) + text_width(s) > p->title.w)
		return x;
	x += grid_put(&p->title, 0, x, t->gl->dot, -1, C_BORDER, 0);
	return x + grid_put(&p->title, 0, x, s, -1, color, 0);
}

static void
header_draw(struct panel *p)
{
	const struct tui_model	*m = &p->tui->m;
	const struct config	*cfg = m->cfg;
	char			 tmp[128];
	size_t			 nr;
	int			 x = 0;

	grid_clear(&p->title);
	x = grid_put(&p->title, 0, 0, "skills-radar " PACKAGE_VERSION,
	    p->title.w, C_HEADER, 1);
	if (m->index_state == 0) {
		snprintf(tmp, sizeof tmp, "%zu skill%s", m->n_skills,
		    m->n_skills == 1 ? "" : "s");
		x = part(p, x, tmp, C_HEADER);
	} else if (m->index_state == SR_NOTFOUND)
		x = part(p, x, "no index: run skills-radar index", C_NOTICE);
	else
		x = part(p, x, "index unreadable", C_ERROR);
	snprintf(tmp, sizeof tmp, "%d/%d paths", m->paths_ok, m->paths_total);
	x = part(p, x, tmp, m->paths_ok < m->paths_total ? C_NOTICE :
	    C_NORMAL);
	/* A fleet's telemetry comes first: it is what the screen shows. */
	nr = m->have_snap ? tui_replicas(&m->snap) : 0;
	if (m->opts.stats_pg || nr > 1) {
		snprintf(tmp, sizeof tmp, "telemetry=%s, %zu replica%s",
		    m->opts.stats_pg ? "postgres" : "sqlite", nr,
		    nr == 1 ? "" : "s");
		x = part(p, x, tmp, C_NORMAL);
	}
	snprintf(tmp, sizeof tmp, "embedder=%s",
	    cfg != NULL && cfg->embedder != NULL ? cfg->embedder : "builtin");
	x = part(p, x, tmp, C_NORMAL);
	x = part(p, x, "store=sqlite", C_NORMAL);
	x = part(p, x, "rewriter=off", C_NORMAL);
	if (m->opts.telemetry_off)
		x = part(p, x, "telemetry off", C_NOTICE);
	if (m->have_snap && m->snap.write_failures > 0) {
		snprintf(tmp, sizeof tmp, "%lld events lost",
		    m->snap.write_failures);
		x = part(p, x, tmp, C_ERROR);
	}
	if (p->tui->paused)
		x = part(p, x, "PAUSED", C_PAUSED);
	p->title_w = x;
}

static int
header_key(struct panel *p, int key)
{
	(void)p;
	(void)key;
	return 0;
}

static void
header_resize(struct panel *p, int h, int w, int y, int x)
{
	panel_place(p, h, w, y, x);
}

static void
header_free(struct panel *p)
{
	(void)p;
}

const struct panel_ops panel_header_ops = {
	"header",
	header_update,
	header_draw,
	header_key,
	header_resize,
	header_free
};
