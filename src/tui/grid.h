/*
 * A character grid: the canvas every panel paints into. A cell holds one
 * Unicode code point, its display width and a colour element (enum
 * color_elem). A wide character (width 2) takes two cells: the second is
 * a continuation cell (width 0). The grid is an embedded object that
 * owns its cells: grid_init() / grid_done(). Text is measured by display
 * width (utf8proc), never cut in the middle of a character; bytes that
 * are not UTF-8 and control characters are shown as U+FFFD.
 *
 * The same grids are printed as plain text (--once) or copied into a
 * curses WINDOW (grid_blit in tui.c), so there is one drawing path.
 */
#ifndef SR_TUI_GRID_H
#define SR_TUI_GRID_H

#include <stdint.h>
#include <stdio.h>

struct cell {
	uint32_t	 cp;		/* code point; 0: continuation */
	uint8_t		 width;		/* 1, 2, or 0 (continuation) */
	uint8_t		 color;		/* enum color_elem */
};

struct grid {
	int		 w, h;
	struct cell	*c;		/* w * h cells, row major */
};

void	 grid_init(struct grid *);
void	 grid_done(struct grid *);
/* Resizes (content lost) and clears to blanks of colour 0. */
void	 grid_resize(struct grid *, int h, int w);
void	 grid_clear(struct grid *);
/* Sets one cell (no-op outside the grid). */
void	 grid_set(struct grid *, int y, int x, uint32_t cp, int color);
/* Fills n cells of row y from x with cp. */
void	 grid_fill(struct grid *, int y, int x, int n, uint32_t cp, int color);
/* Paints a colour over n cells of row y from x, keeping the text. */
void	 grid_paint(struct grid *, int y, int x, int n, int color);

/*
 * Writes UTF-8 text at (y, x), at most maxw columns (-1: to the right
 * edge). A character that does not fit is not written; when text was cut
 * and ellipsis is set, the last column shows "…". Tabs and newlines are
 * shown as spaces. Returns the number of columns written.
 */
int	 grid_put(struct grid *, int y, int x, const char *s, int maxw,
	    int color, int ellipsis);
/* Like grid_put, right-aligned so the text ends at column x + maxw. */
int	 grid_put_right(struct grid *, int y, int x, const char *s, int maxw,
	    int color);

/* Cut text ends with "~" instead of "…" (a locale that is not UTF-8). */
void	 grid_set_ascii(int);

/* The display width of UTF-8 text (invalid bytes count 1). */
int	 text_width(const char *s);

/* Copies src into dst with its top-left corner at (y, x), clipped. */
void	 grid_copy(struct grid *dst, int y, int x, const struct grid *src);
/* Copies the first ncols cells of row sy of src to (y, x) of dst. */
void	 grid_copy_cols(struct grid *dst, int y, int x, const struct grid *src,
	    int sy, int ncols);

/* Encodes cp as UTF-8 into out (at least 5 bytes); returns the length. */
int	 grid_utf8(uint32_t cp, char *out);

/*
 * Prints the grid as text, one line per row, trailing blanks dropped.
 * sgr (may be NULL) maps a colour element to an ANSI SGR parameter string
 * ("1;31"); when set, colour changes are written as escape sequences.
 */
int	 grid_print(const struct grid *, FILE *,
	    const char *(*sgr)(int color));

#endif
