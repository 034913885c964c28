#!/bin/sh
# Fleet telemetry (issue 11, part A). Four real `serve --transport stdio`
# processes, each a replica with its own telemetry.replica, run 2,000
# searches at once: exactly 8,000 search events land, with the right
# replica names, on SQLite and on a throwaway PostgreSQL cluster. On
# PostgreSQL the server is then stopped under a running replica: searches
# keep answering, events wait in the bounded buffer and are written after
# the reconnect, and what overflowed the bound is counted exactly and
# reported (-v stderr, stats, doctor). stats gives the same report from
# PostgreSQL and from a SQLite copy of the same rows; tui shows the fleet.
# Without PostgreSQL installed the PostgreSQL half is skipped (SKIP).
. "$(dirname "$0")/../cli/setup.sh"
. "$TOP_SRCDIR/tests/cli/fixture.sh"
. "$TOP_SRCDIR/tests/pg/cluster.sh"
trap 'pg_stop; rm -rf "$T"' EXIT INT TERM
install_tree
"$SR" index >/dev/null
base="$XDG_CONFIG_HOME/skills-radar/config.yaml"
N=${SR_FLEET_SEARCHES:-2000}
WRITER=${TELEMETRY_WRITER:-${TOP_BUILDDIR:-$(dirname "$SR")/..}/tests/unit/telemetry_writer}

# requests FIRST_ID COUNT: COUNT search calls, each tenth followed by a
# load, ids from FIRST_ID; queries vary so the reports have something to
# group.
requests() {
	awk -v f="$1" -v n="$2" 'BEGIN {
		split("fill pdf forms|release notes from git|write a docx report|commit message conventions|zzqx unknown words", q, "|")
		id = f
		for (i = 0; i < n; i++) {
			printf "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"tools/call\",\"params\":{\"name\":\"search_skills\",\"arguments\":{\"query\":\"%s %d\"}}}\n", id++, q[i % 5 + 1], i % 7
			if (i % 10 == 9)
				printf "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"tools/call\",\"params\":{\"name\":\"load_skill\",\"arguments\":{\"name\":\"alpha\"}}}\n", id++
		}
	}'
}
init() {
	printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"fleet-test","version":"1"}}}' \
	    '{"jsonrpc":"2.0","method":"notifications/initialized"}'
}
# conf NAME REPLICA BACKEND [EXTRA YAML LINES]: a config file for one replica.
conf() {
	{ cat "$base"; printf 'telemetry:\n  enabled: true\n  replica: %s\n' "$2"
	  if [ "$3" = postgres ]; then
		printf '  backend: postgres\n  dsn: "%s"\n' "$SR_TEST_DSN"
	  else
		printf '  db_path: %s\n' "$T/fleet.db"
	  fi
	  if [ $# -gt 3 ]; then printf '%s\n' "$4"; fi; } >"$T/$1.yaml"
}
# answered FILE: JSON-RPC responses in an output file.
answered() { _c=$(grep -c '"id":' "$1" 2>/dev/null) || :; echo "${_c:-0}"; }
# wait_for SECONDS CMD...: polls CMD until it succeeds (bounded).
wait_for() {	# (bounds x3: a sanitizer build on a loaded machine)
	_n=$(($1 * 30)); shift
	while [ "$_n" -gt 0 ]; do
		"$@" && return 0
		sleep 0.1; _n=$((_n - 1))
	done
	return 1
}
loads=$((N / 10))

# fleet BACKEND: four replicas at once; checks what they recorded.
fleet() {
	init >"$T/in.head"
	requests 2 "$N" >"$T/in.body"
	cat "$T/in.head" "$T/in.body" >"$T/in.all"
	pids=
	for r in r1 r2 r3 r4; do
		conf "$1-$r" "$r" "$1"
		"$SR" --config "$T/$1-$r.yaml" serve --transport stdio \
		    <"$T/in.all" >"$T/$1-$r.out" 2>"$T/$1-$r.err" &
		pids="$pids $!"
	done
	fails=0
	for p in $pids; do wait "$p" || fails=$((fails + 1)); done
	is "$fails" 0 "$1: the four replicas exit cleanly"
	all=0
	for r in r1 r2 r3 r4; do all=$((all + $(answered "$T/$1-$r.out"))); done
	is "$all" "$((4 * (N + loads + 1)))" "$1: every request of the 4 replicas is answered"
	if [ "$1" = postgres ]; then db=$SR_TEST_DSN; else db=$T/fleet.db; fi
	"$SR" --config "$T/$1-r1.yaml" stats --json --db "$db" >"$T/$1.json"
	echo "# $1 totals: $(json 'JSON.stringify(j.totals)' <"$T/$1.json")"
	is "$(json 'j.totals.search' <"$T/$1.json")" "$((4 * N))" \
	    "$1: 4 replicas x $N searches leave exactly $((4 * N)) search events"
	is "$(json 'j.totals.load' <"$T/$1.json")" "$((4 * loads))" \
	    "$1: and exactly $((4 * loads)) load events"
	is "$(json 'j.replicas.filter(r=>/^r[1-4]$/.test(r.replica)).map(r=>r.replica+"="+r.searches).sort().join(" ")' <"$T/$1.json")" \
	    "r1=$N r2=$N r3=$N r4=$N" \
	    "$1: each replica's searches carry its name"
	is "$(json 'j.write_failures' <"$T/$1.json")" 0 "$1: nothing dropped"
}

fleet sqlite
out=$("$SR" --config "$T/sqlite-r1.yaml" stats)
contains "$out" "Replicas" "sqlite: the text report breaks events down by replica"
contains "$out" "r3" "  naming them"

if ! pg_start "$T"; then
	if [ "${CI:-}" = true ]; then
		ok 1 "a PostgreSQL cluster starts (CI=true: .ci/deps installs it)"
	else
		skip_one "PostgreSQL is not installed"
	fi
	done_testing
	exit $?
fi
fleet postgres
pq() { pg_as "$pg_bin/psql" -X -At -h "$pg_dir/sock" -U postgres sr -c "$1"; }
is "$(pq "SELECT count(*) FROM events WHERE kind = 'search'")" "$((4 * N))" \
    "postgres: psql counts the same search rows"
is "$(pq "SELECT value FROM meta WHERE key = 'schema_version'")" 3 \
    "postgres: the schema version is in meta"

# Text PostgreSQL would refuse (invalid UTF-8) is stored with '?' rather
# than losing the event. MCP refuses a message that is not UTF-8, so the
# bad name comes from the command line.
conf bad r-bad postgres
"$SR" -v --config "$T/bad.yaml" load "$(printf 'ab\377\376cd')" >/dev/null 2>"$T/bad.err" || true
{ init; requests 3 1; } | "$SR" -v --config "$T/bad.yaml" serve >/dev/null 2>>"$T/bad.err"
is "$(pq "SELECT string_agg(kind || ':' || coalesce(skill, query), ',' ORDER BY id) FROM events WHERE replica = 'r-bad'")" \
    "load:ab??cd,search:fill pdf forms 0" "postgres: invalid UTF-8 is stored as '?', nothing lost"
contains "$(cat "$T/bad.err")" "1 events written" "  -v counts each event written"

# ---- PostgreSQL stopped under a running replica ------------------------
BOUND=300
conf down r-down postgres "  buffer_events: $BOUND"
mkfifo "$T/fifo"
"$SR" -v --config "$T/down.yaml" serve --transport stdio <"$T/fifo" \
    >"$T/down.out" 2>"$T/down.err" &
spid=$!
exec 3>"$T/fifo"
pg_searches() { pq "SELECT count(*) FROM events WHERE replica = 'r-down' AND kind = 'search'"; }
got_answers() { [ "$(answered "$T/down.out")" -ge "$1" ]; }
got_rows() { [ "$(pg_searches 2>/dev/null)" = "$1" ]; }
init >&3
# Phase 1: 200 searches, written while the server is up.
awk -v n=200 'BEGIN { for (i = 0; i < n; i++) printf "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"tools/call\",\"params\":{\"name\":\"search_skills\",\"arguments\":{\"query\":\"pdf forms %d\"}}}\n", 100 + i, i }' >&3
wait_for 20 got_answers 201; ok $? "down: phase 1 answered"
wait_for 20 got_rows 200; ok $? "down: phase 1's 200 events are in PostgreSQL"
pg_stop 3>&-
# Phase 2: 1,000 searches while PostgreSQL is down: all answered; the
# first $BOUND events wait in memory, the other $((1000 - BOUND)) are dropped.
awk -v n=1000 'BEGIN { for (i = 0; i < n; i++) printf "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"tools/call\",\"params\":{\"name\":\"search_skills\",\"arguments\":{\"query\":\"release notes %d\"}}}\n", 1000 + i, i % 9 }' >&3
wait_for 30 got_answers 1201; ok $? "down: every search is answered while PostgreSQL is down"
tail -n 1 "$T/down.out" | grep -q '"result"'; ok $? "  with results, not errors"
contains "$(cat "$T/down.err")" "buffering up to $BOUND events" "down: -v says the database went away"
pg_start_again 3>&-	# the server must not hold the FIFO open
wait_for 30 got_rows 500; ok $? "down: after the restart the $BOUND buffered events are written (500 rows)"
# Phase 3: 200 more after the reconnect.
awk -v n=200 'BEGIN { for (i = 0; i < n; i++) printf "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"tools/call\",\"params\":{\"name\":\"search_skills\",\"arguments\":{\"query\":\"docx %d\"}}}\n", 5000 + i, i }' >&3
wait_for 20 got_answers 1401; ok $? "down: phase 3 answered"
exec 3>&-
wait "$spid"; ok $? "down: the replica exits cleanly"
is "$(pg_searches)" 700 "down: 200 + $BOUND + 200 events stored"
is "$(pq "SELECT value FROM meta WHERE key = 'write_failures'")" "$((1000 - BOUND))" \
    "down: the $((1000 - BOUND)) dropped are counted in the database"
contains "$(cat "$T/down.err")" "reachable again" "down: -v says it came back"
contains "$(cat "$T/down.err")" "$((1000 - BOUND)) dropped" "down: -v reports the dropped count at exit"
out=$("$SR" --config "$T/down.yaml" stats)
contains "$out" "write failures $((1000 - BOUND))" "down: stats reports the dropped events"
contains "$out" "r-down" "  and the replica in the breakdown"
set +e; "$SR" --config "$T/down.yaml" doctor >"$T/doctor.out" 2>&1; set -e
contains "$(cat "$T/doctor.out")" "telemetry: postgres" "doctor names the backend"
contains "$(cat "$T/doctor.out")" "$((1000 - BOUND)) dropped" "doctor reports the dropped count"
lacks "$(cat "$T/doctor.out")" "problem: postgres" "doctor finds it reachable"

# ---- the same report from PostgreSQL and from SQLite --------------------
pq "SELECT format('INSERT INTO events (id, ts, kind, session, client, query, skill, top1_score, n_results, latency_ms, trust, found, detail, replica) VALUES (%s, %s, %L, %L, %L, %L, %L, %s, %s, %s, %L, %s, %L, %L);', id, ts, kind, session, client, query, skill, coalesce(top1_score::text, 'NULL'), coalesce(n_results::text, 'NULL'), coalesce(latency_ms::text, 'NULL'), trust, coalesce(found::text, 'NULL'), detail, replica) FROM events ORDER BY id" >"$T/copy.sql"
echo "UPDATE meta SET value = '$(pq "SELECT value FROM meta WHERE key = 'write_failures'")' WHERE key = 'write_failures';" >>"$T/copy.sql"
check "the PostgreSQL rows copied into a SQLite stats.db" "$WRITER" fixture "$T/copy.db" "$T/copy.sql"
for fmt in --json ""; do
	"$SR" --config "$T/down.yaml" stats $fmt --limit 20 --db "$SR_TEST_DSN" | grep -v -e '"db":' -e '^skills-radar stats:' >"$T/pg.rep"
	"$SR" --config "$T/down.yaml" stats $fmt --limit 20 --db "$T/copy.db" | grep -v -e '"db":' -e '^skills-radar stats:' >"$T/lite.rep"
	[ -n "$fmt" ] && cp "$T/pg.rep" "$T/pg.json"
	if diff -u "$T/lite.rep" "$T/pg.rep" >"$T/rep.diff"; then ok 0 "stats ${fmt:-text}: PostgreSQL and SQLite give the same report"
	else ok 1 "stats ${fmt:-text}: PostgreSQL and SQLite give the same report"; sed 's/^/#   /' "$T/rep.diff" | head -30; fi
done
# The reports include the conversion figures, which each backend's
# trigger derives on insert: they must have paired the loads.
is "$(json 'j.conversion.converted_loads > 0 && j.replicas.length' <"$T/pg.json")" 6 \
    "  the compared reports cover 6 replicas and paired loads with searches"

# ---- the dashboard on the fleet -----------------------------------------
"$SR" --config "$T/down.yaml" tui --once --db "$SR_TEST_DSN" >"$T/tui.txt" 2>&1
ok $? "tui --once --db postgresql://... renders"
contains "$(cat "$T/tui.txt")" "telemetry=postgres, 6 replicas" "tui: the header names the backend and the replicas"
contains "$(cat "$T/tui.txt")" "@r-down" "tui: the feed shows which replica wrote each event"
"$SR" --config "$T/down.yaml" tui --once >"$T/tui2.txt" 2>&1
contains "$(cat "$T/tui2.txt")" "telemetry=postgres" "tui: the configured backend is read without --db"
# Live: the dashboard in tmux follows a replica writing into PostgreSQL.
if command -v tmux >/dev/null 2>&1; then
	SOCK="$T/tmux.sock"
	tm() { tmux -S "$SOCK" -f /dev/null "$@"; }
	tm new-session -d -x 100 -y 30 "$SR --config $T/down.yaml tui --refresh 0.2"
	screen_has() { tm capture-pane -p 2>/dev/null | grep -q "$1"; }
	wait_for 10 screen_has "6 replicas"; ok $? "tmux: the live dashboard shows the fleet"
	conf live r-live postgres
	{ init; requests 2 20; } | "$SR" --config "$T/live.yaml" serve >/dev/null 2>&1
	wait_for 10 screen_has "7 replicas"; ok $? "tmux: a new replica's events appear without a restart"
	wait_for 10 screen_has "@r-live"; ok $? "tmux: its events are in the feed"
	tm kill-server 2>/dev/null || true
else
	echo "ok $((tap_n + 1)) # SKIP tmux not installed"; tap_n=$((tap_n + 1))
fi
pg_stop 3>&-
done_testing
