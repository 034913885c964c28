#!/bin/sh
# The dashboard with a large stats.db (issue 7): the full snapshot the
# feed takes at the start, the incremental refresh after 10 new events
# (tests/tui/bench_feed: stats_since_id reads only the rows after the last
# seen id), the frame time of --once per range, then (with tmux) the CPU
# of the live dashboard idle and under a steady stream of new events.
# Targets: a refresh with new events < 20 ms; idle CPU < 1 %. Ends with
# one table. Not part of make check:
#   SR=src/skills-radar TOP_BUILDDIR=. sh tests/tui/bench.sh [EVENTS]
# TUI_BENCH_DB=file copies that stats.db instead of building one (it is
# appended to, so the file itself is left alone).
set -eu
: "${SR:?SR must point at the skills-radar binary}"
: "${TOP_BUILDDIR:=$(dirname "$SR")/..}"
MKSTATS="$TOP_BUILDDIR/tests/tui/mkstats"
BENCH_FEED="$TOP_BUILDDIR/tests/tui/bench_feed"
N=${1:-1000000}
T=$(mktemp -d "${TMPDIR:-/tmp}/sr-bench.XXXXXX")
SOCK="$T/tmux.sock"
trap 'tmux -S "$SOCK" kill-server >/dev/null 2>&1 || true; rm -rf "$T"' EXIT INT TERM
DB="$T/stats.db"

if [ -n "${TUI_BENCH_DB:-}" ]; then
echo "copying $TUI_BENCH_DB"
cp "$TUI_BENCH_DB" "$DB"
else
echo "building $DB with $N events"
echo "WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c
  WHERE i < $N) INSERT INTO events(ts, kind, session, client, query, skill,
  top1_score, n_results, latency_ms, trust, found)
  SELECT strftime('%s','now') - $N * 2.5 + i * 2.5,
  CASE WHEN i % 3 = 0 THEN 'load' ELSE 'search' END, 's' || (i / 7),
  'bench', CASE WHEN i % 3 = 0 THEN NULL ELSE 'query ' || (i % 5000) END,
  CASE WHEN i % 3 = 0 THEN 'skill-' || (i % 300) END,
  CASE WHEN i % 3 = 0 THEN NULL ELSE (i % 100) / 100.0 END, 5,
  (i % 50) / 10.0, 'USER', CASE WHEN i % 3 = 0 THEN 1 END FROM c;" |
    "$MKSTATS" "$DB"
fi

full_ms=- inc_ms=- inc_max=- frame_ms=- idle_pct=- stream_pct=- ok=-
if [ -x "$BENCH_FEED" ]; then
	"$BENCH_FEED" "$DB" 20 >"$T/feed.txt"
	sed 's/^/feed: /' "$T/feed.txt"
	val() { awk -v k="$1" '$1 == k { print $2 }' "$T/feed.txt"; }
	full_ms=$(val full_ms) inc_ms=$(val refresh10_p50_ms)
	inc_max=$(val refresh10_max_ms) ok=$(val matches_full)
else
	echo "no $BENCH_FEED (make check builds it): skipping the refresh times"
fi

for r in 1h 24h 7d all; do
	COLUMNS=100 LINES=30 "$SR" -v tui --once --db "$DB" --range "$r" \
	    2>&1 >/dev/null | sed "s/^skills-radar: tui:/range $r:/" |
	    tee "$T/once-$r.txt"
done
frame_ms=$(sed -n 's/.*frame \([0-9.]*\) ms.*/\1/p' "$T/once-all.txt")

table() {
	printf '%-10s %14s %18s %18s %9s %11s %13s\n' events full_snap_ms \
	    refresh10_p50_ms refresh10_max_ms frame_ms idle_cpu_% stream_cpu_%
	printf '%-10s %14s %18s %18s %9s %11s %13s\n' "$N" "$full_ms" \
	    "$inc_ms" "$inc_max" "$frame_ms" "$idle_pct" "$stream_pct"
	echo "(refresh10: feed_poll after 10 new events, incremental; equal to" \
	    "a full snapshot: $ok. targets: refresh < 20 ms, idle CPU < 1 %)"
}
command -v tmux >/dev/null 2>&1 || { echo "no tmux: skipping CPU"; table; exit 0; }
ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
pct() { awk -v t="$1" -v hz="$hz" -v s="$2" 'BEGIN { printf "%.2f", t * 100 / hz / s }'; }
hz=$(getconf CLK_TCK)
tmux -S "$SOCK" -f /dev/null new-session -d -x 100 -y 30 \
    "exec env TERM=screen-256color '$SR' tui --db '$DB' --range all"
pid=$(tmux -S "$SOCK" display -p '#{pane_pid}')
sleep 5
a=$(ticks "$pid"); sleep 10; b=$(ticks "$pid")
echo "idle: $((b - a)) ticks of $hz/s over 10 s"
idle_pct=$(pct $((b - a)) 10)
a=$b
t0=$(date +%s%N)
i=0
while [ $i -lt 40 ]; do
	echo "INSERT INTO events(ts, kind, session, query, top1_score, n_results,
	  latency_ms) VALUES (strftime('%s','now'), 'search', 'live',
	  'stream $i', 0.7, 1, 1.0);" | "$MKSTATS" "$DB"
	sleep 0.25
	i=$((i + 1))
done
b=$(ticks "$pid")
secs=$(awk -v a="$t0" -v b="$(date +%s%N)" 'BEGIN { printf "%.1f", (b - a) / 1e9 }')
echo "stream (40 events, one per 0.25 s + a write, $secs s): $((b - a)) ticks of $hz/s"
stream_pct=$(pct $((b - a)) "$secs")
table
