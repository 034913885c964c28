/*
 * A panel: one box of the dashboard. Each panel keeps its data apart from
 * its painting: update() is called when the model changed (a new stats
 * snapshot, a new index, a filter), draw() paints the panel's grid and
 * title from what update() kept. The panel owns its grids and its
 * WINDOW (curses mode only); it borrows the struct tui (model.h).
 */
#ifndef SR_TUI_PANEL_H
#define SR_TUI_PANEL_H

#include "tui/grid.h"
#include "telemetry/stats.h"

struct tui;

#define PANEL_HANDLED	0x1
#define PANEL_REDRAW	0x2

struct panel;

struct panel_ops {
	const char *name;
	void (*update)(struct panel *, const struct stats_snap *);
	void (*draw)(struct panel *);
	int  (*key)(struct panel *, int);  /* PANEL_HANDLED|PANEL_REDRAW */
	void (*resize)(struct panel *, int, int, int, int);
	void (*free)(struct panel *);
};

struct panel {
	const struct panel_ops	*ops;
	struct tui		*tui;
	int			 id;		/* enum tui_panel_id */
	int			 visible;
	int			 h, w, y, x;	/* the interior on the screen */
	struct grid		 g;		/* the interior */
	struct grid		 title;		/* drawn on the top border */
	int			 title_w;	/* columns used in title */
	void			*win;		/* WINDOW *, curses only */
	int			 curses;	/* has a WINDOW (tui.curses) */
	int			 scroll;	/* first row shown */
	int			 sel;		/* selected row */
	int			 reserve;	/* rows above the list */
	size_t			 n_rows;	/* rows the panel could show */
	size_t			*rows;		/* events the filter keeps */
	size_t			 rows_cap;
	void			*priv;		/* the panel's own state */
};

extern const struct panel_ops panel_header_ops;
extern const struct panel_ops panel_tiers_ops;
extern const struct panel_ops panel_queries_ops;
extern const struct panel_ops panel_events_ops;
extern const struct panel_ops panel_loads_ops;

/*
 * Allocates a panel for ops (hidden, 0x0) of the dashboard t (borrowed:
 * the panels read its model), drawn into a WINDOW of its own when curses
 * is set. Freed with panel_free().
 */
struct panel	*panel_new(const struct panel_ops *, struct tui *t, int id,
		    int curses);
void		 panel_free(struct panel *);
/*
 * The shared resize: moves the panel to (y, x) with h x w interior,
 * resizes its grids (and its WINDOW in curses mode) and clamps the
 * scroll position. Panels' resize ops call it.
 */
void		 panel_place(struct panel *, int h, int w, int y, int x);
/* Keeps sel and scroll inside n rows for a view of h - reserve rows. */
void		 panel_clamp(struct panel *, size_t n);
/* Up, Down, PgUp, PgDn, Home, End on a list of n rows (sel-based). */
int		 panel_scroll_key(struct panel *, int key, size_t n);
/* Draws a "(message)" line, dim, on row y. */
void		 panel_message(struct panel *, int y, const char *msg,
		    int color);

#endif
