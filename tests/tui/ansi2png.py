#!/usr/bin/python3
"""ansi2png.py IN OUT.png COLS ROWS: renders a `tmux capture-pane -e -p`
capture (text with SGR colour escapes) as a terminal screenshot.

Debian's python3-pil and fonts-dejavu-core. Every cell is drawn on a
fixed grid: box-drawing lines and block elements are drawn as shapes, not
glyphs, so lines join and sparkline bars sit on the baseline whatever the
font's metrics; everything else is a DejaVu Sans Mono glyph. Wide (East
Asian) characters take two cells, as in tmux.
"""
import re
import sys
import unicodedata

from PIL import Image, ImageDraw, ImageFont

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"
BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf"
SIZE = 15
PAD = 10
FG = (0xd8, 0xd8, 0xd8)
BG = (0x1d, 0x1f, 0x21)
# The 16 ANSI colours (a Tango-like dark theme).
ANSI16 = [
    (0x2e, 0x34, 0x36), (0xcc, 0x3e, 0x3e), (0x4e, 0x9a, 0x06),
    (0xc4, 0xa0, 0x00), (0x34, 0x65, 0xa4), (0x9b, 0x5d, 0xa5),
    (0x06, 0x98, 0x9a), (0xd3, 0xd7, 0xcf), (0x55, 0x57, 0x53),
    (0xef, 0x29, 0x29), (0x8a, 0xe2, 0x34), (0xfc, 0xe9, 0x4f),
    (0x72, 0x9f, 0xcf), (0xad, 0x7f, 0xa8), (0x34, 0xe2, 0xe2),
    (0xee, 0xee, 0xec),
]


def color256(n):
    if n < 16:
        return ANSI16[n]
    if n < 232:
        n -= 16
        steps = [0, 95, 135, 175, 215, 255]
        return (steps[n // 36], steps[n // 6 % 6], steps[n % 6])
    v = 8 + (n - 232) * 10
    return (v, v, v)


class Attr:
    def __init__(self):
        self.reset()

    def reset(self):
        self.fg = None
        self.bg = None
        self.bold = self.dim = self.under = self.rev = False

    def copy(self):
        a = Attr()
        a.__dict__.update(self.__dict__)
        return a


def ext_color(params, i):
    """Parses 38;5;N or 38;2;R;G;B from params[i:]: (colour, next index)."""
    if i < len(params) and params[i] == 5 and i + 1 < len(params):
        return color256(params[i + 1]), i + 2
    if i < len(params) and params[i] == 2 and i + 3 < len(params):
        return tuple(params[i + 1:i + 4]), i + 4
    return None, len(params)


def sgr(a, params):
    if not params:
        params = [0]
    i = 0
    while i < len(params):
        p = params[i]
        i += 1
        if p == 0:
            a.reset()
        elif p == 1:
            a.bold = True
        elif p == 2:
            a.dim = True
        elif p == 4:
            a.under = True
        elif p == 7:
            a.rev = True
        elif p == 22:
            a.bold = a.dim = False
        elif p == 24:
            a.under = False
        elif p == 27:
            a.rev = False
        elif 30 <= p <= 37:
            a.fg = ANSI16[p - 30]
        elif 90 <= p <= 97:
            a.fg = ANSI16[p - 90 + 8]
        elif 40 <= p <= 47:
            a.bg = ANSI16[p - 40]
        elif 100 <= p <= 107:
            a.bg = ANSI16[p - 100 + 8]
        elif p == 39:
            a.fg = None
        elif p == 49:
            a.bg = None
        elif p in (38, 48):
            c, i = ext_color(params, i)
            if p == 38:
                a.fg = c
            else:
                a.bg = c


ESC = re.compile(r"\x1b(\[[0-9;:?]*[A-Za-z]|\][^\x07\x1b]*(\x07|\x1b\\)|.)")


def parse(text, cols, rows):
    """The grid: rows of cols cells, each (char, Attr), None after a wide char."""
    grid = [[(" ", Attr())] * cols for _ in range(rows)]
    a = Attr()
    for y, line in enumerate(text.split("\n")[:rows]):
        x = 0
        pos = 0
        while pos < len(line):
            m = ESC.match(line, pos)
            if m:
                seq = m.group(1)
                if seq.startswith("[") and seq.endswith("m"):
                    sgr(a, [int(v) for v in re.split("[;:]", seq[1:-1]) if v])
                pos = m.end()
                continue
            ch = line[pos]
            pos += 1
            if unicodedata.combining(ch) and x > 0:
                continue
            w = 2 if unicodedata.east_asian_width(ch) in "WF" else 1
            if x + w > cols:
                break
            grid[y][x] = (ch, a.copy())
            if w == 2:
                grid[y][x + 1] = None
            x += w
    return grid


# Light and heavy box-drawing lines: which arms a character has
# (up, right, down, left), 1 light, 2 heavy, 3 double.
BOX = {}
for chars, arms in [
    ("─━", (0, 1, 0, 1)), ("│┃", (1, 0, 1, 0)),
    ("┌┏", (0, 1, 1, 0)), ("┐┓", (0, 0, 1, 1)),
    ("└┗", (1, 1, 0, 0)), ("┘┛", (1, 0, 0, 1)),
    ("├┣", (1, 1, 1, 0)), ("┤┫", (1, 0, 1, 1)),
    ("┬┳", (0, 1, 1, 1)), ("┴┻", (1, 1, 0, 1)),
    ("┼╋", (1, 1, 1, 1)), ("╭", (0, 1, 1, 0)), ("╮", (0, 0, 1, 1)),
    ("╰", (1, 1, 0, 0)), ("╯", (1, 0, 0, 1)),
    ("╴", (0, 0, 0, 1)), ("╶", (0, 1, 0, 0)),
    ("╵", (1, 0, 0, 0)), ("╷", (0, 0, 1, 0)),
]:
    for k, ch in enumerate(chars):
        BOX[ch] = tuple(v * (k + 1) for v in arms)
for ch, arms in {"═": (0, 3, 0, 3), "║": (3, 0, 3, 0), "╔": (0, 3, 3, 0),
                 "╗": (0, 0, 3, 3), "╚": (3, 3, 0, 0), "╝": (3, 0, 0, 3)}.items():
    BOX[ch] = arms


def draw_box(d, x0, y0, cw, ch, arms, fg):
    cx, cy = x0 + cw // 2, y0 + ch // 2
    for k, v in enumerate(arms):
        if not v:
            continue
        t = 2 if v == 2 else 1
        offs = (-2, 2) if v == 3 else (0,)
        for o in offs:
            if k == 0:
                d.rectangle([cx + o, y0, cx + o + t - 1, cy + (o if v == 3 else 0)], fill=fg)
            elif k == 2:
                d.rectangle([cx + o, cy, cx + o + t - 1, y0 + ch - 1], fill=fg)
            elif k == 1:
                d.rectangle([cx, cy + o, x0 + cw - 1, cy + o + t - 1], fill=fg)
            else:
                d.rectangle([x0, cy + o, cx + (o if v == 3 else 0), cy + o + t - 1], fill=fg)


def draw_block(d, x0, y0, cw, ch, c, fg, bg):
    """Block elements U+2580..U+2590 and the shades: True when drawn."""
    o = ord(c)
    if 0x2581 <= o <= 0x2588:	# lower 1/8 .. full
        h = round(ch * (o - 0x2580) / 8)
        d.rectangle([x0, y0 + ch - h, x0 + cw - 1, y0 + ch - 1], fill=fg)
    elif o == 0x2580:
        d.rectangle([x0, y0, x0 + cw - 1, y0 + ch // 2 - 1], fill=fg)
    elif 0x2589 <= o <= 0x258f:	# left 7/8 .. 1/8
        w = round(cw * (0x2590 - o) / 8)
        d.rectangle([x0, y0, x0 + w - 1, y0 + ch - 1], fill=fg)
    elif o == 0x2590:
        d.rectangle([x0 + cw // 2, y0, x0 + cw - 1, y0 + ch - 1], fill=fg)
    elif o in (0x2591, 0x2592, 0x2593):
        f = {0x2591: 0.25, 0x2592: 0.5, 0x2593: 0.75}[o]
        mix = tuple(round(b + (g - b) * f) for g, b in zip(fg, bg))
        d.rectangle([x0, y0, x0 + cw - 1, y0 + ch - 1], fill=mix)
    else:
        return False
    return True


def render(grid, cols, rows, out):
    font = ImageFont.truetype(FONT, SIZE)
    bold = ImageFont.truetype(BOLD, SIZE)
    asc, desc = font.getmetrics()
    cw = round(font.getlength("M"))
    ch = asc + desc + 1
    img = Image.new("RGB", (cols * cw + 2 * PAD, rows * ch + 2 * PAD), BG)
    d = ImageDraw.Draw(img)
    pairs = {(FG, BG)}
    for y, row in enumerate(grid):
        for x, cell in enumerate(row):
            if cell is None:
                continue
            c, a = cell
            fg = a.fg or FG
            bg = a.bg or BG
            if a.rev:
                fg, bg = bg, fg
            if a.dim:
                fg = tuple((f + b) // 2 for f, b in zip(fg, bg))
            pairs.add((fg, bg))
            w = 2 if x + 1 < cols and row[x + 1] is None else 1
            x0, y0 = PAD + x * cw, PAD + y * ch
            if bg != BG:
                d.rectangle([x0, y0, x0 + w * cw - 1, y0 + ch - 1], fill=bg)
            if c == " ":
                pass
            elif c in BOX:
                draw_box(d, x0, y0, cw, ch, BOX[c], fg)
            elif not draw_block(d, x0, y0, cw, ch, c, fg, bg):
                d.text((x0, y0), c, font=bold if a.bold else font, fill=fg)
            if a.under:
                d.line([x0, y0 + asc + 1, x0 + w * cw - 1, y0 + asc + 1], fill=fg)
    save(img, pairs, out)


def save(img, pairs, out):
    """A palette PNG: every pixel is a blend of one cell's foreground and
    background, so steps between each pair used keep every colour exact
    (an adaptive palette merges the rare ones: a yellow badge turns
    green) and the file stays small."""
    steps = max(2, min(16, 256 // len(pairs)))
    pal = []
    for fg, bg in sorted(pairs):
        for k in range(steps):
            c = tuple(round(b + (f - b) * k / (steps - 1)) for f, b in zip(fg, bg))
            if c not in pal:
                pal.append(c)
    if len(pal) > 256:
        img.quantize(256, method=Image.Quantize.FASTOCTREE).save(out, optimize=True)
        return
    p = Image.new("P", (1, 1))
    p.putpalette([v for c in pal for v in c] + [0] * 3 * (256 - len(pal)))
    img.quantize(palette=p, dither=Image.Dither.NONE).save(out, optimize=True)


def main():
    if len(sys.argv) != 5:
        sys.exit("usage: ansi2png.py IN OUT.png COLS ROWS")
    cols, rows = int(sys.argv[3]), int(sys.argv[4])
    with open(sys.argv[1], encoding="utf-8", errors="replace") as f:
        text = f.read()
    render(parse(text, cols, rows), cols, rows, sys.argv[2])


if __name__ == "__main__":
    main()
