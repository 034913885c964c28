/*
 * The character grid: see grid.h.
 */
#include "autoconfig.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <utf8proc.h>

#include "tui/grid.h"
#include "base/xmalloc.h"

#define REPLACEMENT	0xfffd
#define ELLIPSIS	0x2026

static uint32_t	 ellipsis_cp = ELLIPSIS;

void
grid_set_ascii(int ascii)
{
	ellipsis_cp = ascii ? '~' : ELLIPSIS;
}

void
grid_init(struct grid *g)
{
	memset(g, 0, sizeof *g);
}

void
grid_done(struct grid *g)
{
	free(g->c);
	memset(g, 0, sizeof *g);
}

void
grid_clear(struct grid *g)
{
	int	 i;

	for (i = 0; i < g->w * g->h; i++) {
		g->c[i].cp = ' ';
		g->c[i].width = 1;
		g->c[i].color = 0;
	}
}

void
grid_resize(struct grid *g, int h, int w)
{
	if (h < 0)
		h = 0;
	if (w < 0)
		w = 0;
	free(g->c);
	g->c = NULL;
	g->h = h;
	g->w = w;
	if (h > 0 && w > 0)
		g->c = xcalloc((size_t)h * (size_t)w, sizeof *g->c);
	else
		g->h = g->w = 0;
	grid_clear(g);
}

/* Blanks the other half of a wide character that (y, x) belongs to. */
static void
split_wide(struct grid *g, int y, int x)
{
	struct cell	*c = &g->c[y * g->w + x];

	if (c->width == 0 && x > 0) {
		c[-1].cp = ' ';
		c[-1].width = 1;
	} else if (c->width == 2 && x + 1 < g->w) {
		c[1].cp = ' ';
		c[1].width = 1;
	}
}

void
grid_set(struct grid *g, int y, int x, uint32_t cp, int color)
{
	struct cell	*c;

	if (y < 0 || y >= g->h || x < 0 || x >= g->w)
		return;
	split_wide(g, y, x);
	c = &g->c[y * g->w + x];
	c->cp = cp;
	c->width = 1;
	c->color = (uint8_t)color;
}

static void
set_wide(struct grid *g, int y, int x, uint32_t cp, int color)
{
	struct cell	*c;

	split_wide(g, y, x);
	split_wide(g, y, x + 1);
	c = &g->c[y * g->w + x];
	c[0].cp = cp;
	c[0].width = 2;
	c[0].color = (uint8_t)color;
	c[1].cp = 0;
	c[1].width = 0;
	c[1].color = (uint8_t)color;
}

void
grid_fill(struct grid *g, int y, int x, int n, uint32_t cp, int color)
{
	int	 i;

	for (i = 0; i < n; i++)
		grid_set(g, y, x + i, cp, color);
}

void
grid_paint(struct grid *g, int y, int x, int n, int color)
{
	int	 i;

	if (y < 0 || y >= g->h)
		return;
	for (i = x < 0 ? 0 : x; i < x + n && i < g->w; i++)
		g->c[y * g->w + i].color = (uint8_t)color;
}

/*
 * Decodes one character of s (len bytes left) into *cp and its display
 * width; returns the bytes used (at least 1).
 */
static int
next_char(const char *s, size_t len, uint32_t *cp, int *width)
{
	utf8proc_int32_t	 c;
	utf8proc_ssize_t	 n;

	n = utf8proc_iterate((const utf8proc_uint8_t *)s,
	    (utf8proc_ssize_t)len, &c);
	if (n <= 0) {
		*cp = REPLACEMENT;
		*width = 1;
		return 1;
	}
	if (c == '\t' || c == '\n' || c == '\r') {
		*cp = ' ';
		*width = 1;
	} else if (c < 0x20 || (c >= 0x7f && c < 0xa0)) {
		*cp = REPLACEMENT;
		*width = 1;
	} else {
		*cp = (uint32_t)c;
		*width = utf8proc_charwidth(c);
		if (*width < 0)
			*width = 1;
		if (*width > 2)
			*width = 2;
	}
	return (int)n;
}

int
text_width(const char *s)
{
	size_t		 len = strlen(s);
	uint32_t	 cp;
	int		 n, w, total = 0;

	while (len > 0) {
		n = next_char(s, len, &cp, &w);
		total += w;
		s += n;
		len -= (size_t)n;
	}
	return total;
}

int
grid_put(struct grid *g, int y, int x, const char *s, int maxw, int color,
    int ellipsis)
{
	size_t		 len;
	uint32_t	 cp;
	int		 n, w, col = 0;

	if (s == NULL || y < 0 || y >= g->h || x >= g->w)
		return 0;
	if (maxw < 0 || x + maxw > g->w)
		maxw = g->w - x;
	if (maxw <= 0)
		return 0;
	if (ellipsis && text_width(s) <= maxw)
		ellipsis = 0;
	len = strlen(s);
	while (len > 0) {
		n = next_char(s, len, &cp, &w);
		s += n;
		len -= (size_t)n;
		if (w == 0)
			continue;	/* combining marks are dropped */
		if (col + w > maxw - (ellipsis ? 1 : 0))
			break;
		if (x + col >= 0) {
			if (w == 2)
				set_wide(g, y, x + col, cp, color);
			else
				grid_set(g, y, x + col, cp, color);
		}
		col += w;
	}
	if (ellipsis && col < maxw) {
		grid_set(g, y, x + col, ellipsis_cp, color);
		col++;
	}
	return col;
}

int
grid_put_right(struct grid *g, int y, int x, const char *s, int maxw,
    int color)
{
	int	 w = text_width(s);

	if (w > maxw)
		return grid_put(g, y, x, s, maxw, color, 1);
	return grid_put(g, y, x + maxw - w, s, w, color, 0);
}

void
grid_copy_cols(struct grid *dst, int y, int x, const struct grid *src,
    int sy, int ncols)
{
	const struct cell	*c;
	int			 j;

	if (sy < 0 || sy >= src->h)
		return;
	if (ncols > src->w)
		ncols = src->w;
	for (j = 0; j < ncols; j++) {
		c = &src->c[sy * src->w + j];
		if (c->width == 0)
			continue;
		if (c->width == 2) {
			if (j + 1 < ncols && x + j >= 0 && x + j + 1 < dst->w &&
			    y >= 0 && y < dst->h)
				set_wide(dst, y, x + j, c->cp, c->color);
			else
				grid_set(dst, y, x + j, ' ', c->color);
		} else
			grid_set(dst, y, x + j, c->cp, c->color);
	}
}

void
grid_copy(struct grid *dst, int y, int x, const struct grid *src)
{
	int	 i;

	for (i = 0; i < src->h; i++)
		grid_copy_cols(dst, y + i, x, src, i, src->w);
}

int
grid_utf8(uint32_t cp, char *out)
{
	int	 n;

	n = (int)utf8proc_encode_char((utf8proc_int32_t)cp,
	    (utf8proc_uint8_t *)out);
	if (n <= 0) {
		out[0] = '?';
		n = 1;
	}
	out[n] = '\0';
	return n;
}

int
grid_print(const struct grid *g, FILE *fp, const char *(*sgr)(int))
{
	const struct cell	*row;
	char			 u[8];
	int			 y, x, last, cur;

	for (y = 0; y < g->h; y++) {
		row = &g->c[y * g->w];
		/* Drop trailing blanks (unless coloured). */
		for (last = g->w - 1; last >= 0; last--) {
			if (row[last].width == 0 || row[last].cp != ' ' ||
			    (sgr != NULL && row[last].color != 0))
				break;
		}
		cur = 0;
		for (x = 0; x <= last; x++) {
			if (row[x].width == 0)
				continue;
			if (sgr != NULL && row[x].color != cur) {
				fprintf(fp, "\033[0;%sm", sgr(row[x].color));
				cur = row[x].color;
			}
			grid_utf8(row[x].cp, u);
			fputs(u, fp);
		}
		if (sgr != NULL && cur != 0)
			fputs("\033[0m", fp);
		fputc('\n', fp);
	}
	return ferror(fp) ? -1 : 0;
}
