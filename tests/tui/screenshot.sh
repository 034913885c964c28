#!/bin/sh
# screenshot.sh [OUTDIR]: docs/screenshots/tui.png and stats.png, what a
# person sees of the dashboard and of `stats` in a terminal.
#
# Not part of make check (the pictures are for the docs, and change with
# every look of the screens). Run it from a built tree after
# `make tests/tui/mkstats`; it needs tmux, python3-pil and
# fonts-dejavu-core (Debian packages). It indexes the tests/tui fixture
# skills, writes a day of generated events ending now (gen-events.awk)
# into a stats.db, runs `skills-radar tui` (120x36) and `skills-radar
# stats` (120x80) in tmux, captures each pane with its colours
# (capture-pane -e -p) and renders the capture to PNG (ansi2png.py).
# OUTDIR defaults to docs/screenshots; the captures (*.ans) go there too
# when KEEP_ANSI=1.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
TD="$top/tests/tui"
SR=${SR:-$top/src/skills-radar}
MKSTATS=${MKSTATS:-$top/tests/tui/mkstats}
out=${1:-$top/docs/screenshots}
for f in "$SR" "$MKSTATS"; do
	[ -x "$f" ] || { echo "$0: $f is not built (make; make tests/tui/mkstats)" >&2; exit 1; }
done
command -v tmux >/dev/null || { echo "$0: tmux is not installed" >&2; exit 1; }
/usr/bin/python3 -c 'import PIL' 2>/dev/null ||
	{ echo "$0: apt-get install python3-pil fonts-dejavu-core" >&2; exit 1; }

T=$(mktemp -d "${TMPDIR:-/tmp}/sr-shot.XXXXXX")
SOCK="$T/tmux.sock"
tm() { tmux -S "$SOCK" -f /dev/null "$@"; }
trap 'tm kill-server 2>/dev/null || true; rm -rf "$T"' EXIT INT TERM
export HOME="$T/home" TZ=UTC LC_ALL=C.UTF-8
unset LANG LC_CTYPE COLUMNS LINES NO_COLOR || true
mkdir -p "$HOME" "$out"

# The tests/tui fixture: USER, TRUSTED and UNTRUSTED skills.
. "$TD/fixture.sh"
tui_fixture "$TD" "$T"
export SKILLS_RADAR_CONFIG="$T/config.yaml"
awk -v now="$(date +%s)" -f "$TD/gen-events.awk" >"$T/events.sql"
"$MKSTATS" "$T/stats.db" <"$T/events.sql"
# Indexed with telemetry off: the pictures show the generated events only.
sed 's/enabled: true/enabled: false/' "$T/config.yaml" >"$T/off.yaml"
"$SR" --config "$T/off.yaml" index >/dev/null

# shot NAME COLS ROWS SECONDS CMD: CMD in a tmux pane of that size, captured
# after SECONDS, rendered to OUTDIR/NAME.png.
shot() {
	_n=$1 _c=$2 _r=$3 _s=$4
	shift 4
	tm -2 new-session -d -x "$_c" -y "$_r" -s "$_n" \
	    "env TERM=tmux-256color $*; sleep 60"
	tm set-option -t "$_n" status off
	tm resize-window -t "$_n" -x "$_c" -y "$_r" 2>/dev/null || true
	sleep "$_s"
	tm capture-pane -t "$_n" -e -p >"$T/$_n.ans"
	tm kill-session -t "$_n"
	/usr/bin/python3 "$TD/ansi2png.py" "$T/$_n.ans" "$out/$_n.png" "$_c" "$_r"
	[ -z "${KEEP_ANSI:-}" ] || cp "$T/$_n.ans" "$out/$_n.ans"
	echo "$out/$_n.png"
}
shot tui 120 36 3 "$SR" tui --range 24h
shot stats 120 80 2 "$SR" stats
