/*
 * The parts every panel shares (panel.h): allocation, placement on the
 * screen, the selection and scroll position of a list, and the
 * "(message)" line. Each panel's own behaviour is its panel_*.c.
 */
#include "autoconfig.h"

#include <stdlib.h>

#define NCURSES_WIDECHAR 1
#include <curses.h>

#include "tui/grid.h"
#include "tui/panel.h"
#include "base/xmalloc.h"

struct panel *
panel_new(const struct panel_ops *ops, struct tui *t, int id, int curses)
{
	struct panel	*p;

	p = xcalloc(1, sizeof *p);
	p->ops = ops;
	p->tui = t;
	p->id = id;
	p->curses = curses;
	grid_init(&p->g);
	grid_init(&p->title);
	return p;
}

void
panel_free(struct panel *p)
{
	if (p == NULL)
		return;
	if (p->ops->free != NULL)
		p->ops->free(p);
	if (p->win != NULL)
		delwin(p->win);
	grid_done(&p->g);
	grid_done(&p->title);
	free(p->rows);
	free(p);
}

void
panel_place(struct panel *p, int h, int w, int y, int x)
{
	p->visible = h >= 0 && w > 0;
	if (h < 0)
		h = 0;
	if (w < 0)
		w = 0;
	p->h = h;
	p->w = w;
	p->y = y;
	p->x = x;
	grid_resize(&p->g, h, w);
	grid_resize(&p->title, 1, w > 4 ? w - 4 : 0);
	p->title_w = 0;
	if (p->curses) {
		if (p->win != NULL) {
			delwin(p->win);
			p->win = NULL;
		}
		if (p->visible && h > 0 && w > 0)
			p->win = newwin(h, w, y, x);
	}
	panel_clamp(p, p->n_rows);
}

void
panel_clamp(struct panel *p, size_t n)
{
	int	 rows = p->h - p->reserve;

	p->n_rows = n;
	if (n == 0) {
		p->sel = p->scroll = 0;
		return;
	}
	if (p->sel >= (int)n)
		p->sel = (int)n - 1;
	if (p->sel < 0)
		p->sel = 0;
	if (rows <= 0)
		rows = 1;
	if (p->sel < p->scroll)
		p->scroll = p->sel;
	if (p->sel >= p->scroll + rows)
		p->scroll = p->sel - rows + 1;
	if (p->scroll > (int)n - rows)
		p->scroll = (int)n - rows;
	if (p->scroll < 0)
		p->scroll = 0;
}

int
panel_scroll_key(struct panel *p, int key, size_t n)
{
	int	 old = p->sel, page = p->h - p->reserve > 1 ?
	    p->h - p->reserve - 1 : 1;

	switch (key) {
	case KEY_UP:
	case 'k':
		p->sel--;
		break;
	case KEY_DOWN:
	case 'j':
		p->sel++;
		break;
	case KEY_PPAGE:
		p->sel -= page;
		break;
	case KEY_NPAGE:
	case ' ':
		p->sel += page;
		break;
	case KEY_HOME:
	case 'g':
		p->sel = 0;
		break;
	case KEY_END:
	case 'G':
		p->sel = n > 0 ? (int)n - 1 : 0;
		break;
	default:
		return 0;
	}
	panel_clamp(p, n);
	return PANEL_HANDLED | (p->sel != old ? PANEL_REDRAW : 0);
}

void
panel_message(struct panel *p, int y, const char *msg, int color)
{
	char	*s;

	xasprintf(&s, "(%s)", msg);
	grid_put(&p->g, y, 1, s, p->w - 2, color, 1);
	free(s);
}
