#!/bin/sh
# A team on PostgreSQL (issue 11): a throwaway cluster, one writer
# (index --watch) and two HTTP replicas (serve without --watch). An edit
# through the writer (create, edit, delete a SKILL.md) is searchable on
# both replicas within 1 s; PostgreSQL stopped mid-run: the replicas keep
# answering from memory, reconnect when it is back and catch up from
# their counter; a replica started meanwhile starts empty (/healthz 503)
# and loads everything once it is back; doctor reports the store. Skips (TAP "1..0 # SKIP";
# the TAP driver counts exit 77 as an error) without PostgreSQL
# or curl.
. "${TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/cli/setup.sh"
. "$TOP_SRCDIR/tests/pg/cluster.sh"
. "$TOP_SRCDIR/tests/pg/procs.sh"
need curl
cleanup() {
	stop_all
	pg_stop
	rm -rf "$T"
}
trap cleanup EXIT INT TERM
pg_start "$T" || skip_all "no PostgreSQL cluster"

mkdir -p "$T/share"
skill() {	# skill DIR NAME DESCRIPTION: writes DIR/SKILL.md atomically
	mkdir -p "$T/share/$1"
	printf -- '---\nname: %s\ndescription: %s\n---\n# %s\n\nSteps.\n' \
	    "$2" "$3" "$2" >"$T/share/$1/.SKILL.md.tmp"
	mv "$T/share/$1/.SKILL.md.tmp" "$T/share/$1/SKILL.md"
}
skill pdf pdf-forms "Fill and flatten PDF forms."
skill sql sql-review "Review SQL migrations before they ship."
cat >"$T/team.yaml" <<YAML
paths: ["$T/share"]
scan:
  project_roots: false
store:
  backend: postgres
  poll_ms: 200
watcher:
  debounce_ms: 50
telemetry:
  enabled: true
  backend: postgres
YAML
export SKILLS_RADAR_DSN="$SR_TEST_DSN"
# Each process has its own data dir, as on separate machines.
run() {	# run NAME ARGS...: runs skills-radar with NAME's data dir
	_n=$1; shift
	XDG_DATA_HOME="$T/$_n" "$SR" --config "$T/team.yaml" "$@"
}

spawn env XDG_DATA_HOME="$T/writer" "$SR" -v --config "$T/team.yaml" index --watch \
    >"$T/writer.out" 2>"$T/writer.err"
# The writer indexes first, then watches: wait for that.
i=0
until grep -q watching "$T/writer.err" 2>/dev/null || [ $i -ge 600 ]; do
	sleep 0.1; i=$((i + 1))
done
contains "$(cat "$T/writer.out")" "2 entries indexed" "writer: indexes the share into postgres"

start_replica() {	# start_replica NAME PORT
	spawn env XDG_DATA_HOME="$T/$1" "$SR" -v --config "$T/team.yaml" serve \
	    --transport http --port "$2" >"$T/$1.out" 2>"$T/$1.err"
	_i=0
	until grep -q "serving" "$T/$1.err" 2>/dev/null || [ $_i -ge 600 ]; do
		sleep 0.1; _i=$((_i + 1))
	done
}
# below the ephemeral range (32768 up), where no outgoing connection holds a port
P1=$((10000 + $$ % 20000)); P2=$((P1 + 1))
start_replica r1 "$P1"
start_replica r2 "$P2"
contains "$(cat "$T/r1.err")" "serving 2 skills" "replica 1: loads the index from postgres"
contains "$(cat "$T/r2.err")" "serving 2 skills" "replica 2: loads the index from postgres"

search() {	# search PORT QUERY: the names found, one a line
	curl -s -m 5 -H 'Content-Type: application/json' \
	    -H 'Accept: application/json, text/event-stream' \
	    -d "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"search_skills\",\"arguments\":{\"query\":\"$2\"}}}" \
	    "http://127.0.0.1:$1/mcp" 2>/dev/null |
	    grep -o '\\"name\\":\\"[a-z0-9-]*\\"' | sed 's/.*:\\"//; s/\\"$//' || :
}
# waits until QUERY finds (or, with "!", no longer finds) NAME on PORT;
# prints the milliseconds it took, or "timeout" after 20 s.
wait_for() {	# wait_for PORT QUERY NAME [!]
	_a=$(date +%s%N)
	while :; do
		_got=$(search "$1" "$2")
		_e=$(date +%s%N)
		case "${4:-}" in
		!) printf '%s\n' "$_got" | grep -qx "$3" || break ;;
		*) printf '%s\n' "$_got" | grep -qx "$3" && break ;;
		esac
		[ $(( (_e - _a) / 1000000 )) -gt 20000 ] && { echo timeout; return; }
		sleep 0.02
	done
	echo $(( (_e - _a) / 1000000 ))
}
# within1s MS DESCRIPTION: the change arrived (the time it took is in the
# line; the 1 s target itself is a benchmark's, tests/bench/bench_team.sh,
# as a sanitizer build on a loaded machine can take longer)
within1s() {
	if [ "$1" != timeout ]; then ok 0 "$2 ($1 ms)"
	else ok 1 "$2"; echo "#   took: over 20 s"; fi
}

contains "$(search "$P1" "pdf forms")" "pdf-forms" "replica 1 answers a search"
contains "$(search "$P2" "sql migrations")" "sql-review" "replica 2 answers a search"

# create
skill deploy deploy-checklist "Ship a release with the deploy checklist."
within1s "$(wait_for "$P1" "deploy checklist" deploy-checklist)" "create: searchable on replica 1 within 1 s"
within1s "$(wait_for "$P2" "deploy checklist" deploy-checklist)" "create: searchable on replica 2 within 1 s"
# edit
skill pdf pdf-forms "Fill PDF forms and merge invoices."
within1s "$(wait_for "$P1" "invoices" pdf-forms)" "edit: the new text is searchable on replica 1 within 1 s"
within1s "$(wait_for "$P2" "invoices" pdf-forms)" "edit: the new text is searchable on replica 2 within 1 s"
# delete
rm -rf "$T/share/sql"
within1s "$(wait_for "$P1" "sql migrations" sql-review !)" "delete: gone from replica 1 within 1 s"
within1s "$(wait_for "$P2" "sql migrations" sql-review !)" "delete: gone from replica 2 within 1 s"

# PostgreSQL stops: the replicas keep answering from memory.
pg_stop
sleep 0.5
contains "$(search "$P1" "deploy checklist")" "deploy-checklist" "postgres down: replica 1 answers from memory"
contains "$(search "$P2" "invoices")" "pdf-forms" "postgres down: replica 2 answers from memory"
healthz() {	# healthz PORT: the /healthz body and its HTTP status
	curl -s -m 5 -w ' %{http_code}' "http://127.0.0.1:$1/healthz" 2>/dev/null || :
}
hz=$(healthz "$P1")
contains "$hz" '"connected":false' "postgres down: replica 1's /healthz says the store is unreachable"
contains "$hz" '"status":"ok"' "postgres down: replica 1 stays healthy (it answers from memory)"
# A replica started while it is down starts anyway, empty, and says so.
P4=$((P2 + 2))
start_replica r4 "$P4"
contains "$(cat "$T/r4.err")" "starting with no skills, retrying" "postgres down: a new replica starts anyway and says why it is empty"
hz=$(healthz "$P4")
contains "$hz" '"status":"starting"' "postgres down: the new replica's /healthz says starting"
contains "$hz" " 503" "postgres down: ... with 503, so a balancer sends it nothing"
raw=$(curl -s -m 5 -H 'Content-Type: application/json' \
    -H 'Accept: application/json, text/event-stream' \
    -d '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_skills","arguments":{"query":"pdf forms"}}}' \
    "http://127.0.0.1:$P4/mcp" 2>/dev/null || :)
contains "$raw" '"isError":true' "postgres down: a search on the new replica is a tool error, not an empty result"
contains "$raw" "not loaded yet" "... that says the shared index is not loaded yet"
rest=$(curl -s -m 5 -w ' %{http_code}' "http://127.0.0.1:$P4/tools/skill_list" 2>/dev/null || :)
contains "$rest" " 503" "postgres down: the REST routes answer 503"
# An edit while it is down: the writer fails, says so and retries.
skill late late-arrival "Handle the late arrival of tardy skills."
sleep 0.6
pg_start_again || :
ms=$(wait_for "$P1" "tardy arrival" late-arrival)
is "$([ "$ms" != timeout ] && echo caught-up)" caught-up "restarted: the writer writes the edit made meanwhile, replica 1 reconnects and has it ($ms ms after the restart)"
ms=$(wait_for "$P2" "tardy arrival" late-arrival)
is "$([ "$ms" != timeout ] && echo caught-up)" caught-up "restarted: replica 2 reconnects and has it too"
ms=$(wait_for "$P4" "tardy arrival" late-arrival)
is "$([ "$ms" != timeout ] && echo caught-up)" caught-up "restarted: the replica that started empty loads the store ($ms ms)"
hz=$(healthz "$P4")
contains "$hz" '"loaded":true' "restarted: its /healthz says loaded"
contains "$hz" " 200" "restarted: ... with 200"
contains "$(search "$P4" "invoices")" "pdf-forms" "restarted: it has the whole index, not just the late edit"
contains "$(cat "$T/writer.err")" "retrying" "the writer reported the failed write"
contains "$(cat "$T/writer.err")" "written again" "the writer reported the retry that worked"
# After the reconnect, edits are live again within 1 s.
skill late late-arrival "Handle the late arrival of tardy skills, again."
within1s "$(wait_for "$P1" "tardy again" late-arrival)" "after the restart: an edit is searchable on replica 1 within 1 s"
contains "$(cat "$T/r1.err")" "answering from memory" "replica 1 reported the lost connection"
contains "$(cat "$T/r1.err")" "store: connected" "replica 1 reported the reconnect"
lacks "$(cat "$T/r1.err")" "full reload" "replica 1 caught up without a full reload"

# A replica started now catches up from scratch.
P3=$((P2 + 1))
start_replica r3 "$P3"
contains "$(search "$P3" "tardy arrival")" "late-arrival" "a new replica starts with the current index"

# One fleet report: every replica's searches, each under host:port.
host=$(hostname)
i=0
until "$SR" stats --db "$SR_TEST_DSN" --json 2>/dev/null | grep -q "\"$host:$P3\"" ||
    [ $i -ge 300 ]; do
	search "$P3" "tardy arrival" >/dev/null
	sleep 0.1; i=$((i + 1))
done
fleet=$("$SR" stats --db "$SR_TEST_DSN" 2>&1 || :)
contains "$fleet" "$host:$P1" "stats over postgres: replica 1's events, named host:port"
contains "$fleet" "$host:$P2" "stats over postgres: replica 2's events, named host:port"
contains "$fleet" "$host:$P3" "stats over postgres: the late replica's events too"

# doctor reports the store.
out=$(run doc doctor 2>&1 || :)
contains "$out" "store:    postgres" "doctor: names the backend"
contains "$out" "reachable" "doctor: the store is reachable"
contains "$out" "replicas:" "doctor: lists the replicas and their lag"
json=$(run doc doctor --json 2>/dev/null || :)
contains "$json" '"counter":' "doctor --json: the change counter"
lacks "$json$out" "password" "doctor: never prints a password"

# A DSN libpq cannot parse is a configuration error: serve stops at once.
st=0
out=$(SKILLS_RADAR_DSN="host=/tmp password=s3cret bogus_key=1" XDG_DATA_HOME="$T/bad" \
    timeout 10 "$SR" --config "$T/team.yaml" serve --transport http --port 1 2>&1) || st=$?
is "$st" 3 "a DSN libpq cannot parse: serve exits 3 at once, no retrying"
contains "$out" "bogus_key" "... and names the bad option"
lacks "$out" "s3cret" "... without the password"

# A DSN with a password: the message hides it.
out=$(SKILLS_RADAR_DSN="postgresql://u:s3cret@127.0.0.1:1/x?connect_timeout=2" "$SR" --config "$T/team.yaml" search pdf 2>&1 || :)
lacks "$out" "s3cret" "a connection error never shows the password"
contains "$out" "cannot connect" "a connection error says what failed"

done_testing
