#!/bin/sh
# Learning from use (retrieval.usage_boost, retrieval.learning): loads
# reorder equal skills and decay, a search then a load in the window
# teaches the search's words, outside the window it does not, explain
# shows it, stats --reset-learning clears it, telemetry off changes nothing.
. "$(dirname "$0")/setup.sh"
. "$TESTDIR/fixture.sh"
W="$TOP_BUILDDIR/tests/unit/telemetry_writer"
db="$T/stats.db"
mkdir -p "$XDG_CONFIG_HOME/skills-radar"
cp -R "$DATA/learn/skills" "$T/skills"
base="paths:
  - $T/skills
scan:
  project_roots: false"
printf '%s\n' "$base" >"$XDG_CONFIG_HOME/skills-radar/config.yaml"
"$SR" index >/dev/null

# names in rank order, one line
names() { "$SR" search --json --top-k 10 "$@" | json 'j.matches.map(m=>m.name).join(",")'; }

# Telemetry off (the default): nothing to learn from, no error, no file.
plain=$(names "spreadsheet charts")
is "$(printf '%s' "$plain" | tr ',' '\n' | sort | tr '\n' ' ')" "twin-alpha twin-beta " \
	"the two equal skills both match"
first=${plain%%,*}
case $first in twin-alpha) other=twin-beta ;; *) other=twin-alpha ;; esac
check "telemetry off: search works" "$SR" search "catchy web address"
ok "$([ ! -e "$db" ]; echo $?)" "telemetry off: no database is created"

# Telemetry on, nothing recorded yet: same results, no error.
printf '%s\ntelemetry:\n  enabled: true\n  db_path: %s\n' "$base" "$db" \
	>"$XDG_CONFIG_HOME/skills-radar/config.yaml"
is "$(names "spreadsheet charts" 2>"$T/err")" "$plain" "no database yet: the same order"
is "$(cat "$T/err")" "" "no database yet: no warning"
rm -f "$db"

now=$(date +%s)
fixture() {	# fixture SQL: a fresh stats.db with these rows
	rm -f "$db" "$db-wal" "$db-shm"
	printf '%s\n' "$1" >"$T/fx.sql"
	"$W" fixture "$db" "$T/fx.sql" >/dev/null
}
load() {	# load SESSION SKILL TS: one found load
	printf "INSERT INTO events (ts, kind, session, skill, found) VALUES (%s, 'load', '%s', '%s', 1);\n" "$3" "$1" "$2"
}
search() {	# search SESSION QUERY TS
	printf "INSERT INTO events (ts, kind, session, query, top1_score, n_results) VALUES (%s, 'search', '%s', '%s', 0.2, 1);\n" "$3" "$1" "$2"
}

# usage boost: loads of the one ranked second put it first
fixture "$(load s1 "$other" $((now - 3600)); load s2 "$other" $((now - 1800)))"
got=$(names "spreadsheet charts")
is "${got%%,*}" "$other" "after loads, the loaded twin ranks first"
is "$(printf '%s' "$got" | tr ',' '\n' | sort | tr '\n' ' ')" "twin-alpha twin-beta " \
	"the skill never loaded is still listed"
"$SR" search --json --explain "spreadsheet charts" >"$T/e.json"
is "$(json 'j.matches.find(m=>m.name==="'"$first"'").explain.usage.usage_boost' <"$T/e.json")" "0" \
	"a skill never loaded keeps its score (no boost)"
is "$(json 'j.matches.find(m=>m.name==="'"$other"'").explain.usage.usage_boost>0' <"$T/e.json")" "true" \
	"explain shows the loaded skill's usage boost"

# decay: three loads two months ago weigh less than one load today
fixture "$(load a "$other" $((now - 5184000)); load b "$other" $((now - 5184000)); \
	load c "$other" $((now - 5184000)); load d "$first" $((now - 60)))"
got=$(names "spreadsheet charts")
is "${got%%,*}" "$first" "old loads decay: the recently loaded twin ranks first"

# learning: a search, then a load of the skill within the window
is "$(names "catchy web address")" "" "no skill's text matches the query"
fixture "$(search u1 'catchy web address' $((now - 600)); load u1 domain-namer $((now - 590)))"
got=$(names "catchy web address")
is "$got" "domain-namer" "a search then a load in the same session teaches the words"
"$SR" search --json --explain "web address" >"$T/e.json"
is "$(json 'j.matches[0].explain.usage.learned_terms.map(t=>t.term).sort().join(",")' <"$T/e.json")" \
	"address,web" "explain lists the learned words that matched"
is "$(json 'j.matches[0].explain.usage.learned_terms[0].weight>0' <"$T/e.json")" "true" \
	"... with their weight"
is "$(json 'j.miss' <"$T/e.json")" "true" \
	"one session alone does not lift a skill over the miss threshold"
"$SR" search "catchy web address" >"$T/out.txt"
contains "$(cat "$T/out.txt")" "domain-namer" "the plain output shows the learned skill"

# outside the window (default 120 s), or another session: nothing learned
fixture "$(search u1 'catchy web address' $((now - 900)); load u1 domain-namer $((now - 600)); \
	search u2 'catchy web address' $((now - 500)); load u3 domain-namer $((now - 495)))"
is "$(names "catchy web address")" "" "a load outside the window or in another session teaches nothing"

# a longer window makes the same log teach
printf '%s\ntelemetry:\n  enabled: true\n  db_path: %s\nretrieval.learning.window_seconds: 600\n' \
	"$base" "$db" >"$T/long.yaml"
is "$("$SR" --config "$T/long.yaml" search --json "catchy web address" | json 'j.matches.map(m=>m.name).join(",")')" \
	"domain-namer" "retrieval.learning.window_seconds widens the window"

# several sessions weigh more than one; a repeat in one session does not
fixture "$(search u1 'catchy web address' $((now - 600)); load u1 domain-namer $((now - 595)))"
one=$("$SR" search --json "catchy web address" | json 'j.matches[0].score')
fixture "$(search u1 'catchy web address' $((now - 600)); load u1 domain-namer $((now - 595)); \
	search u1 'catchy web address' $((now - 500)); load u1 domain-namer $((now - 495)))"
same=$("$SR" search --json "catchy web address" | json 'j.matches[0].score')
is "$same" "$one" "one session teaching twice counts once"
fixture "$(for s in u1 u2 u3 u4; do search $s 'catchy web address' $((now - 600)); load $s domain-namer $((now - 595)); done)"
four=$("$SR" search --json "catchy web address" | json 'j.matches[0].score')
is "$(node -e "console.log($four > $one)")" "true" "four sessions teach more than one"

# reset clears what was learned and the usage counts
check "stats --reset-learning" "$SR" stats --reset-learning
contains "$(cat "$T/.out")" "learning reset" "it says so"
is "$(names "catchy web address")" "" "after the reset nothing is learned"
status 0 "the events stay for stats" "$SR" stats --json
contains "$(cat "$T/.out")" '"load"' "stats still counts them"
status 2 "--reset-learning takes no --db" "$SR" stats --reset-learning --db "$db"

# learning off, or hashed queries: nothing learned, no error
fixture "$(search u1 'catchy web address' $((now - 600)); load u1 domain-namer $((now - 595)))"
printf '%s\ntelemetry:\n  enabled: true\n  db_path: %s\nretrieval.learning.enabled: false\n' \
	"$base" "$db" >"$T/off.yaml"
is "$("$SR" --config "$T/off.yaml" search --json "catchy web address" | json 'j.matches.length')" "0" \
	"retrieval.learning.enabled: false learns nothing"
fixture "$(search u1 'hmac:0123456789abcdef' $((now - 600)); load u1 domain-namer $((now - 595)))"
is "$(names "catchy web address")" "" "a hashed query teaches nothing"

# a damaged database is no error either
printf 'not a database' >"$db"
rm -f "$db-wal" "$db-shm"
status 0 "a damaged stats.db: search still works" "$SR" search "spreadsheet charts"

# bad option values are refused with a message
printf '%s\nretrieval.usage_boost: -1\n' "$base" >"$T/bad.yaml"
status 3 "a negative usage_boost is a config error" "$SR" --config "$T/bad.yaml" search x
contains "$(cat "$T/.out")" "usage_boost" "the message names the key"
printf '%s\nretrieval.learning.window_seconds: soon\n' "$base" >"$T/bad.yaml"
status 3 "a non-numeric window is a config error" "$SR" --config "$T/bad.yaml" search x

# reset with telemetry off is a config error with a message
printf '%s\n' "$base" >"$XDG_CONFIG_HOME/skills-radar/config.yaml"
status 3 "reset with telemetry off" "$SR" stats --reset-learning
contains "$(cat "$T/.out")" "telemetry is off" "it says why"

done_testing
