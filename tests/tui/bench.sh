#!/bin/sh
# The dashboard with a large stats.db: snapshot and frame times of --once
# per range, then (with tmux) the CPU of the live dashboard idle and
# under a steady stream of new events. Not part of make check:
#   SR=src/skills-radar TOP_BUILDDIR=. sh tests/tui/bench.sh [EVENTS]
set -eu
: "${SR:?SR must point at the skills-radar binary}"
: "${TOP_BUILDDIR:=$(dirname "$SR")/..}"
MKSTATS="$TOP_BUILDDIR/tests/tui/mkstats"
N=${1:-1000000}
T=$(mktemp -d "${TMPDIR:-/tmp}/sr-bench.XXXXXX")
SOCK="$T/tmux.sock"
trap 'tmux -S "$SOCK" kill-server >/dev/null 2>&1 || true; rm -rf "$T"' EXIT INT TERM
DB="$T/stats.db"

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

for r in 1h 24h 7d all; do
	COLUMNS=100 LINES=30 "$SR" -v tui --once --db "$DB" --range "$r" \
	    2>&1 >/dev/null | sed "s/^skills-radar: tui:/range $r:/"
done

command -v tmux >/dev/null 2>&1 || { echo "no tmux: skipping CPU"; exit 0; }
ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
hz=$(getconf CLK_TCK)
tmux -S "$SOCK" -f /dev/null new-session -d -x 100 -y 30 \
    "exec env TERM=screen-256color '$SR' tui --db '$DB' --range all"
pid=$(tmux -S "$SOCK" display -p '#{pane_pid}')
sleep 5
a=$(ticks "$pid"); sleep 10; b=$(ticks "$pid")
echo "idle: $((b - a)) ticks of $hz/s over 10 s"
a=$b
i=0
while [ $i -lt 40 ]; do
	echo "INSERT INTO events(ts, kind, session, query, top1_score, n_results,
	  latency_ms) VALUES (strftime('%s','now'), 'search', 'live',
	  'stream $i', 0.7, 1, 1.0);" | "$MKSTATS" "$DB"
	sleep 0.25
	i=$((i + 1))
done
b=$(ticks "$pid")
echo "stream (4 events/s for 10 s): $((b - a)) ticks of $hz/s"
