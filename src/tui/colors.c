/*
 * Colour schemes: one table per scheme, indexed by enum color_elem.
 */
#include "autoconfig.h"

#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <stdio.h>

#include "tui/colors.h"

#define A_B	0x1	/* bold */
#define A_D	0x2	/* dim */
#define A_R	0x4	/* reverse */
#define A_U	0x8	/* underline */

#define DEF	(-1)	/* the terminal's default colour */

struct color_spec {
	short	 fg;
	short	 bg;
	int	 attr;
};

static const struct color_spec scheme_color[C_NCOLORS] = {
	[C_NORMAL]		= { DEF, DEF, 0 },
	[C_BORDER]		= { COLOR_BLUE, DEF, 0 },
	[C_TITLE]		= { COLOR_CYAN, DEF, A_B },
	[C_TITLE_FOCUS]		= { COLOR_BLACK, COLOR_CYAN, A_B },
	[C_HEADER]		= { COLOR_WHITE, DEF, A_B },
	[C_DIM]			= { DEF, DEF, A_D },
	[C_KEY]			= { COLOR_YELLOW, DEF, A_B },
	[C_NOTICE]		= { COLOR_YELLOW, DEF, 0 },
	[C_ERROR]		= { COLOR_RED, DEF, A_B },
	[C_TIER_TRUSTED]	= { COLOR_GREEN, DEF, A_B },
	[C_TIER_VERIFIED]	= { COLOR_CYAN, DEF, 0 },
	[C_TIER_USER]		= { COLOR_BLUE, DEF, A_B },
	[C_TIER_UNTRUSTED]	= { COLOR_MAGENTA, DEF, 0 },
	[C_BAR_EMPTY]		= { DEF, DEF, A_D },
	[C_MISS_OK]		= { COLOR_BLACK, COLOR_GREEN, A_B },
	[C_MISS_WARN]		= { COLOR_BLACK, COLOR_YELLOW, A_B },
	[C_MISS_BAD]		= { COLOR_WHITE, COLOR_RED, A_B },
	[C_SPARK]		= { COLOR_MAGENTA, DEF, 0 },
	[C_EVENT_GOOD]		= { COLOR_GREEN, DEF, 0 },
	[C_EVENT_FAIR]		= { COLOR_YELLOW, DEF, 0 },
	[C_EVENT_BAD]		= { COLOR_RED, DEF, 0 },
	[C_EVENT_LOAD]		= { COLOR_CYAN, DEF, 0 },
	[C_EVENT_ERROR]		= { COLOR_RED, DEF, A_B },
	[C_EVENT_INDEX]		= { DEF, DEF, A_D },
	[C_SELECTED]		= { DEF, DEF, A_R },
	[C_PAUSED]		= { COLOR_BLACK, COLOR_YELLOW, A_B },
};

static const struct color_spec scheme_mono[C_NCOLORS] = {
	[C_NORMAL]		= { DEF, DEF, 0 },
	[C_BORDER]		= { DEF, DEF, 0 },
	[C_TITLE]		= { DEF, DEF, A_B },
	[C_TITLE_FOCUS]		= { DEF, DEF, A_R | A_B },
	[C_HEADER]		= { DEF, DEF, A_B },
	[C_DIM]			= { DEF, DEF, A_D },
	[C_KEY]			= { DEF, DEF, A_B },
	[C_NOTICE]		= { DEF, DEF, A_B },
	[C_ERROR]		= { DEF, DEF, A_B | A_U },
	[C_TIER_TRUSTED]	= { DEF, DEF, A_B },
	[C_TIER_VERIFIED]	= { DEF, DEF, 0 },
	[C_TIER_USER]		= { DEF, DEF, 0 },
	[C_TIER_UNTRUSTED]	= { DEF, DEF, A_U },
	[C_BAR_EMPTY]		= { DEF, DEF, A_D },
	[C_MISS_OK]		= { DEF, DEF, 0 },
	[C_MISS_WARN]		= { DEF, DEF, A_B },
	[C_MISS_BAD]		= { DEF, DEF, A_R | A_B },
	[C_SPARK]		= { DEF, DEF, 0 },
	[C_EVENT_GOOD]		= { DEF, DEF, A_B },
	[C_EVENT_FAIR]		= { DEF, DEF, 0 },
	[C_EVENT_BAD]		= { DEF, DEF, A_R },
	[C_EVENT_LOAD]		= { DEF, DEF, 0 },
	[C_EVENT_ERROR]		= { DEF, DEF, A_R | A_B },
	[C_EVENT_INDEX]		= { DEF, DEF, A_D },
	[C_SELECTED]		= { DEF, DEF, A_R },
	[C_PAUSED]		= { DEF, DEF, A_R | A_B },
};

static enum color_scheme	 cur_scheme = SCHEME_COLOR;
static int			 have_pairs;

void
colors_set_scheme(enum color_scheme s)
{
	cur_scheme = s;
}

static const struct color_spec *
spec(int elem)
{
	const struct color_spec	*t;

	t = cur_scheme == SCHEME_MONO ? scheme_mono : scheme_color;
	if (elem < 0 || elem >= C_NCOLORS)
		elem = C_NORMAL;
	return &t[elem];
}

const char *
colors_sgr(int elem)
{
	static char			 out[32];
	const struct color_spec		*s = spec(elem);
	int				 n = 0;

	out[0] = '\0';
#define ADD(...) n += snprintf(out + n, sizeof out - (size_t)n, __VA_ARGS__)
	if (s->attr & A_B)
		ADD("%s1", n ? ";" : "");
	if (s->attr & A_D)
		ADD("%s2", n ? ";" : "");
	if (s->attr & A_U)
		ADD("%s4", n ? ";" : "");
	if (s->attr & A_R)
		ADD("%s7", n ? ";" : "");
	if (s->fg >= 0)
		ADD("%s%d", n ? ";" : "", 30 + s->fg);
	if (s->bg >= 0)
		ADD("%s%d", n ? ";" : "", 40 + s->bg);
#undef ADD
	return out;
}

void
colors_curses_init(void)
{
	const struct color_spec	*s;
	int			 i;

	have_pairs = 0;
	if (cur_scheme == SCHEME_MONO)
		return;
	if (!has_colors() || start_color() == ERR || COLOR_PAIRS < C_NCOLORS) {
		cur_scheme = SCHEME_MONO;
		return;
	}
	use_default_colors();
	for (i = 1; i < C_NCOLORS; i++) {
		s = &scheme_color[i];
		init_pair((short)i, s->fg, s->bg);
	}
	have_pairs = 1;
}

unsigned long
colors_attr(int elem)
{
	const struct color_spec	*s = spec(elem);
	attr_t			 a = A_NORMAL;

	if (s->attr & A_B)
		a |= A_BOLD;
	if (s->attr & A_D)
		a |= A_DIM;
	if (s->attr & A_U)
		a |= A_UNDERLINE;
	if (s->attr & A_R)
		a |= A_REVERSE;
	return a;
}

short
colors_pair(int elem)
{
	const struct color_spec	*s = spec(elem);

	if (have_pairs && cur_scheme == SCHEME_COLOR && elem > 0 &&
	    elem < C_NCOLORS && (s->fg >= 0 || s->bg >= 0))
		return (short)elem;
	return 0;
}

int
colors_badge(int badge)
{
	if (badge >= 2)
		return C_MISS_BAD;
	if (badge == 1)
		return C_MISS_WARN;
	return C_MISS_OK;
}

int
colors_score(double score, double miss_threshold)
{
	if (score >= 0.6)
		return C_EVENT_GOOD;
	if (score >= miss_threshold)
		return C_EVENT_FAIR;
	return C_EVENT_BAD;
}
