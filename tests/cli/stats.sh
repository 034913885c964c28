#!/bin/sh
# stats: disabled / no-events states, bad flags, golden text and JSON
# reports on a fixture log, read-only access, 8 concurrent writers while
# stats runs, processes creating stats.db at once, and a writer killed
# with SIGKILL.
. "$(dirname "$0")/setup.sh"
: "${TOP_BUILDDIR:=$(cd "$(dirname "$SR")/.." && pwd)}"
W="$TOP_BUILDDIR/tests/unit/telemetry_writer"
GOLD="$DATA/stats"
export TZ=UTC
CONF="$XDG_CONFIG_HOME/skills-radar/config.yaml"
DEFDB="$XDG_DATA_HOME/skills-radar/stats.db"
mkdir -p "$XDG_CONFIG_HOME/skills-radar"
out() { cat "$T/.out"; }
state() { sed -n 's/^[[:space:]]*"state":[[:space:]]*"\([a-z]*\)".*/\1/p' "$1"; }

# --- telemetry disabled (the default) ------------------------------------
status 4 "disabled, nothing recorded: exit 4" "$SR" stats
contains "$(out)" "telemetry is disabled" "disabled: says so"
contains "$(out)" "skills-radar telemetry on" "disabled: says how to enable it, in one command"
lacks "$(out)" "$CONF" "disabled, no config file: names no config.yaml that does not exist (#34)"
ok "$([ ! -e "$XDG_DATA_HOME/skills-radar" ]; echo $?)" "disabled: stats creates no file or directory"
set +e; "$SR" stats --json >"$T/d.json" 2>/dev/null; s=$?; set -e
is "$s:$(state "$T/d.json")" "4:disabled" "disabled --json: state disabled, exit 4"

# --- enabled, nothing written yet ------------------------------------------
printf 'telemetry:\n  enabled: true\n' >"$CONF"
status 0 "enabled, no database yet: exit 0" "$SR" stats
contains "$(out)" "No events yet" "enabled, no database: no events yet"
is "$(head -1 "$T/.out")" "skills-radar stats: nothing recorded yet (telemetry is on: the first search or load writes its events to $DEFDB)" \
    "  the first line says where the events will be, not a file to open (#34)"
lacks "$(out)" "telemetry is disabled" "  not the disabled message"
ok "$([ ! -e "$DEFDB" ]; echo $?)" "stats still creates nothing"
"$SR" stats --json >"$T/e.json"
is "$(state "$T/e.json")" "empty" "no events --json: state empty"
status 4 "--db naming a missing file: exit 4" "$SR" stats --db "$T/nope.db"
contains "$(out)" "no telemetry database" "  saying so"

# An existing database with no events.
"$W" write "$T/empty.db" s0 0 >/dev/null
status 0 "empty database: exit 0" "$SR" stats --db "$T/empty.db"
contains "$(out)" "No events yet" "empty database: no events yet"

# --- bad flags ---------------------------------------------------------------
for v in abc 0h -5d 5x 24hh 2026-13-01 2026-02-30 2026-1-5 ""; do
	status 2 "bad --since '$v': usage error" "$SR" stats --since "$v"
	contains "$(out)" "bad --since value" "  bad --since '$v' is explained"
done
status 2 "--limit 0" "$SR" stats --limit 0
status 2 "--limit abc" "$SR" stats --limit abc
status 2 "a stray argument" "$SR" stats extra
status 5 "a text file as --db: exit 5" sh -c "echo hello >'$T/t.db'; '$SR' stats --db '$T/t.db'"

# --- golden reports on the fixture log ---------------------------------------
"$W" fixture "$T/fixture.db" "$GOLD/fixture.sql"
for s in pdf docx xlsx pptx canvas k8s-deploy; do
	mkdir -p "$HOME/.claude/skills/$s"
	printf -- '---\nname: %s\ndescription: The %s skill for the stats test.\n---\nBody.\n' \
	    "$s" "$s" >"$HOME/.claude/skills/$s/SKILL.md"
done
# The golden reports list the skills never loaded, from index.db.
indexed=1
"$SR" index >"$T/idx.out" 2>&1 || indexed=0
printf 'telemetry:\n  enabled: true\n  db_path: %s\n' "$T/fixture.db" >"$CONF"
sum0=$(cksum <"$T/fixture.db")
"$SR" stats >"$T/r.txt" 2>"$T/r.err"
ok $? "stats on the fixture"
golden() {	# golden NAME FILE DESCRIPTION
	if [ "$indexed" = 0 ]; then
		tap_n=$((tap_n + 1))
		echo "ok $tap_n # SKIP $3: 'skills-radar index' failed"
		sed 's/^/#   /' "$T/idx.out" | head -5
		return
	fi
	sed "s|$T|@T@|g" "$2" >"$2.norm"
	# SR_UPDATE_GOLDEN=1 make check TESTS=tests/cli/stats.sh rewrites them.
	[ -n "${SR_UPDATE_GOLDEN:-}" ] && cp "$2.norm" "$GOLD/$1"
	if diff -u "$GOLD/$1" "$2.norm" >"$2.diff"; then ok 0 "$3"
	else ok 1 "$3"; sed 's/^/#   /' "$2.diff" | head -40; fi
}
golden report.txt "$T/r.txt" "text report matches the golden file"
"$SR" stats --json >"$T/r.json"
golden report.json "$T/r.json" "JSON report matches the golden file"
is "$(cksum <"$T/fixture.db")" "$sum0" "stats leaves the database file unchanged"
lacks "$(cat "$T/r.txt")" "$(printf '\033')" "no colour in a pipe"
if command -v script >/dev/null 2>&1; then
	script -qec "'$SR' stats" /dev/null >"$T/tty.txt" 2>&1 || true
	contains "$(cat "$T/tty.txt")" "$(printf '\033[31m')" "colour on a terminal (red badge)"
	NO_COLOR=1 script -qec "'$SR' stats" /dev/null >"$T/tty2.txt" 2>&1 || true
	lacks "$(cat "$T/tty2.txt")" "$(printf '\033[')" "NO_COLOR: no colour on a terminal"
	# The sparkline's slices are coloured by miss rate like the badge,
	# the histogram's bins by score (#34).
	COLUMNS=100 script -qec "'$SR' stats" /dev/null >"$T/tty3.txt" 2>&1 || true
	contains "$(grep 'misses over time' "$T/tty3.txt")" "$(printf '\033[31m\342\226')" \
	    "  the miss-rate sparkline in colour: a red slice"
	contains "$(grep 'misses over time' "$T/tty3.txt")" "$(printf '\033[32m\342\226')" \
	    "  and a green one"
	contains "$(grep '^Top-1 scores' "$T/tty3.txt")" "$(printf '\033[31m\342\226')" \
	    "  the histogram's bins below the threshold red"
	NO_COLOR=1 COLUMNS=100 script -qec "'$SR' stats" /dev/null >"$T/tty4.txt" 2>&1 || true
	contains "$(grep 'misses over time' "$T/tty4.txt")" "█" "  NO_COLOR: the sparkline still drawn"
	lacks "$(cat "$T/tty4.txt")" "$(printf '\033[')" "  without colour"
fi
printf 'telemetry:\n  enabled: false\n  db_path: %s\n' "$T/fixture.db" >"$CONF"
status 0 "disabled, with an old log: the report, exit 0" "$SR" stats
contains "$(out)" "Note: telemetry is off" "  with a note that nothing new is recorded"
contains "$(out)" "Events       14" "  and the old events"
printf 'telemetry:\n  enabled: true\n  db_path: %s\n' "$T/fixture.db" >"$CONF"
"$SR" stats --since 2025-12-01T00:35 --json --limit 2 >"$T/s.json"
contains "$(tr -d ' \t\n' <"$T/s.json")" '"totals":{"events":6,"search":3,"load":2,"index":1}' \
	"--since DATE: events from that time on"
is "$(grep -c '"kind":' "$T/s.json")" 2 "--limit 2: two recent events"
# Pictures and what they leave out (#34).
"$SR" stats >"$T/p.txt"
lacks "$(cat "$T/p.txt")" "[red]" "the badge is words, not '[red]' printed as text"
contains "$(cat "$T/p.txt")" "(high: above 30 %)" "  saying what red means"
contains "$(grep 'misses over time' "$T/p.txt")" "█" "a sparkline of the miss rate over time"
contains "$(grep -A1 '^Top-1 scores' "$T/p.txt" | tail -1)" "^ 0.40 (miss below) and 0.60" "a score histogram, the 0.4 and 0.6 lines marked"
contains "$(grep 'search p50' "$T/p.txt")" "█" "latency percentiles drawn"
"$SR" stats --since 2025-12-01T00:40 >"$T/p2.txt"
lacks "$(cat "$T/p2.txt")" "index  p50" "no index events: no 'index p50 0.0 ms'"
lacks "$(cat "$T/p2.txt")" "load   p50" "  nor a load line"
COLUMNS=40 "$SR" stats >"$T/p3.txt"
is "$(node -e 'const l=require("fs").readFileSync(process.argv[1],"utf8").split("\n");console.log(l.filter(x=>/[\u2581-\u2588\u2591^]/.test(x)&&[...x].length>40).length)' "$T/p3.txt")" 0 \
	"COLUMNS=40: every picture line fits"
is "$(grep -c 'Top-1 scores\|misses over time\|log scale' "$T/p3.txt")" 1 "  the histogram stays, the bars and the sparkline go"
status 0 "--since 24h: every fixture event is older" "$SR" stats --since 24h
contains "$(out)" "No events yet in this range" "  no events in the range"

# --- advice: a real missed search names the skills that came close -----------
printf 'telemetry:\n  enabled: true\n  db_path: %s\n' "$T/advice.db" >"$CONF"
"$SR" search --json "frobnicate zzqxv skill" >"$T/adv.search"
contains "$(tr -d ' \t\n' <"$T/adv.search")" '"miss":true' "advice: the search is a miss"
"$SR" stats >"$T/adv.txt"
contains "$(cat "$T/adv.txt")" "no skill has: frobnicate, zzqxv" \
	"advice: the words no skill contains, as typed"
lacks "$(cat "$T/adv.txt")" "no skill has: frobnicate, zzqxv, skill" \
	"  not a word the skills have"
"$SR" stats --json >"$T/adv.json"
j=$(tr -d ' \t\n' <"$T/adv.json")
top=$(sed -n 's/.*"name":[[:space:]]*"\([^"]*\)".*/\1/p' "$T/adv.search" | head -1)
contains "$j" "\"close\":[{\"skill\":\"$top\",\"score\":0." \
	"advice --json: close starts with the search's top-1 and its score"
contains "$j" '"unknown_words":["frobnicate","zzqxv"]' "advice --json: unknown_words"
mv "$HOME/.claude/skills" "$T/skills.away"
"$SR" index >/dev/null 2>&1 || true
"$SR" stats >"$T/adv2.txt"
contains "$(cat "$T/adv2.txt")" "no skill has: frobnicate, zzqxv, skill" \
	"advice: the words are checked against the index as it is now"
mv "$T/skills.away" "$HOME/.claude/skills"
"$SR" index >/dev/null 2>&1 || true

# --- 8 writers x 2000 events while stats runs ----------------------------------
DB="$T/conc.db"
"$W" write "$DB" init 0 >/dev/null
pids=
for i in 1 2 3 4 5 6 7 8; do
	"$W" write "$DB" "w$i" 2000 200 >"$T/w$i.out" 2>&1 &
	pids="$pids $!"
done
runs=0 bad=0
while :; do
	alive=0
	for p in $pids; do kill -0 "$p" 2>/dev/null && alive=1; done
	if "$SR" stats --db "$DB" --json >"$T/c.json" 2>"$T/c.err"; then
		runs=$((runs + 1))
	else
		bad=$((bad + 1)); sed 's/^/#   /' "$T/c.err" | head -3
	fi
	[ "$alive" = 1 ] || break
done
fails=0
for p in $pids; do wait "$p" || fails=$((fails + 1)); done
is "$fails" 0 "8 writers exit 0"
is "$(cat "$T"/w*.out | grep -c 'failures 0$')" 8 "no writer counted a failure"
is "$bad" 0 "stats ran $runs times during the writes, never failing"
is "$("$W" check "$DB")" "integrity=ok rows=16000" "exactly 16000 rows, integrity_check ok"
"$SR" stats --db "$DB" --json >"$T/c.json"
contains "$(tr -d ' \t\n' <"$T/c.json")" '"events":16000,"search":8000,"load":8000' \
	"stats counts every event"

# Waits (10 s at most) for a "lock" or "hold" helper to print "held".
wait_held() {
	n=0
	while [ "$n" -lt 100 ] && ! grep -q held "$1"; do
		sleep 0.1; n=$((n + 1))
	done
}

# --- another process holds the write lock for 21 s -----------------------------
# Longer than a writer's 4 tries of 5 s each: a lock is a database that is
# busy, not broken, so a running writer keeps its events and waits on.
LDB="$T/lock.db"
"$W" write "$LDB" init 0 >/dev/null
"$W" lock "$LDB" 21000 >"$T/lock.out" 2>&1 &
lp=$!
wait_held "$T/lock.out"
set +e; "$W" write "$LDB" patient 100 230000 >"$T/patient.out" 2>&1; s=$?
set -e
wait "$lp" || true
is "$s:$(cat "$T/patient.out")" "0:queued 100 failures 0" \
	"a writer waits out a lock held 21 s by another process"
is "$("$W" check "$LDB")" "integrity=ok rows=100" "  and writes every event"

# --- first use: processes creating stats.db at once (issue 21, item 6) -------
# A process that creates the file holds its write lock in rollback mode for
# a moment; another's PRAGMA journal_mode=WAL then fails at once (SQLite
# skips the busy handler where waiting could deadlock) and that process
# ran without telemetry. "hold" forces the interleaving for 1.5 s; the
# writer must wait its turn (up to 10 s) and write its event.
RDB="$T/race.db"
"$W" hold "$RDB" 1500 >"$T/hold.out" 2>&1 &
hp=$!
wait_held "$T/hold.out"
set +e; "$W" write "$RDB" late 1 >"$T/late.out" 2>&1; s=$?; set -e
wait "$hp" || true
is "$s:$(cat "$T/late.out")" "0:queued 1 failures 0" \
	"a writer opening while another creates stats.db waits and writes"
is "$("$W" check "$RDB")" "integrity=ok rows=1" "  its event is there"
# And the real race, bounded: 8 processes on a fresh path, 15 times.
lost=0
for k in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do
	rm -f "$RDB" "$RDB-wal" "$RDB-shm" "$RDB-journal"
	pids=
	for i in 1 2 3 4 5 6 7 8; do
		"$W" write "$RDB" "r$i" 2 >"$T/r$i.out" 2>&1 &
		pids="$pids $!"
	done
	for p in $pids; do wait "$p" || true; done
	[ "$("$W" check "$RDB")" = "integrity=ok rows=16" ] &&
	    [ "$(cat "$T"/r*.out | grep -c 'failures 0$')" = 8 ] ||
	    lost=$((lost + 1))
done
is "$lost" 0 "8 processes creating stats.db at once, 15 times: no event lost"

# --- a writer killed with SIGKILL mid-stream ------------------------------------
KDB="$T/kill.db"
"$W" write "$KDB" victim 1000000 100 >/dev/null 2>&1 &
kp=$!
n=0
while [ "$n" -lt 600 ]; do
	sleep 0.1; n=$((n + 1))
	r=$("$W" check "$KDB" 2>/dev/null | sed -n 's/.*rows=\([0-9]*\).*/\1/p')
	[ "${r:-0}" -gt 100 ] && break
done
kill -9 "$kp"; wait "$kp" 2>/dev/null || true
chk=$("$W" check "$KDB")
contains "$chk" "integrity=ok" "after SIGKILL: integrity_check ok"
r=$(printf '%s\n' "$chk" | sed -n 's/.*rows=\([0-9]*\).*/\1/p')
ok "$([ "${r:-0}" -gt 100 ]; echo $?)" "after SIGKILL: the committed rows are there ($r)"
status 0 "after SIGKILL: stats reads the database" "$SR" stats --db "$KDB"
"$W" write "$KDB" after 10 >/dev/null
is "$("$W" check "$KDB" | sed -n 's/.*rows=\([0-9]*\).*/\1/p')" "$((r + 10))" \
	"after SIGKILL: a new writer appends"

done_testing
