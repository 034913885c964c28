/*
 * Colours by meaning. Every element the dashboard paints has a name here;
 * each scheme is one table giving the element its foreground, background
 * and attributes. The monochrome scheme (NO_COLOR, --no-color, or a
 * terminal without colours) uses bold, dim, underline and reverse only.
 * Nothing here allocates.
 */
#ifndef SR_TUI_COLORS_H
#define SR_TUI_COLORS_H

enum color_elem {
	C_NORMAL = 0,
	C_BORDER,
	C_TITLE,
	C_TITLE_FOCUS,
	C_HEADER,
	C_DIM,
	C_KEY,			/* a key name in the footer and help */
	C_NOTICE,		/* "telemetry is off", "no stats.db yet" */
	C_ERROR,
	C_TIER_TRUSTED,
	C_TIER_VERIFIED,
	C_TIER_USER,
	C_TIER_UNTRUSTED,
	C_BAR_EMPTY,
	C_MISS_OK,		/* miss-rate badge: < 15 % */
	C_MISS_WARN,		/* 15-30 % */
	C_MISS_BAD,		/* > 30 % */
	C_SPARK,
	C_EVENT_GOOD,		/* search top-1 >= 0.6 */
	C_EVENT_FAIR,		/* search top-1 >= 0.4 */
	C_EVENT_BAD,		/* search top-1 < 0.4: a miss */
	C_EVENT_LOAD,		/* a load that found its skill */
	C_EVENT_ERROR,		/* a load that failed */
	C_EVENT_INDEX,		/* index events: dim */
	C_SELECTED,		/* the selected row of the focused panel */
	C_PAUSED,
	C_NCOLORS
};

enum color_scheme {
	SCHEME_COLOR = 0,
	SCHEME_MONO
};

/* Picks the scheme used by colors_sgr() and colors_attr(). */
void		 colors_set_scheme(enum color_scheme);

/*
 * The ANSI SGR parameters for an element in the current scheme, e.g.
 * "1;31" (static storage; "" for plain text). For --once --color.
 */
const char	*colors_sgr(int elem);

/*
 * Curses side: colors_curses_init() registers one colour pair per element
 * (calls start_color(); falls back to the monochrome scheme when the
 * terminal has no colours). colors_attr() returns the attr_t bits for an
 * element (without the pair), as an unsigned long to keep curses.h out of
 * this header; colors_pair() its colour pair, 0 for none.
 */
void		 colors_curses_init(void);
unsigned long	 colors_attr(int elem);
short		 colors_pair(int elem);

/* The badge colour for stats_snap.badge (0 green, 1 yellow, 2 red). */
int		 colors_badge(int badge);
/* The colour of a search's top-1 score (thresholds 0.6 and miss). */
int		 colors_score(double score, double miss_threshold);

#endif
