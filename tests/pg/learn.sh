#!/bin/sh
# Learning from use per fleet (telemetry.backend: postgres): two server
# processes (two sessions) each search and then load a skill whose text
# does not match the query; a third process, reading the fleet's
# database, ranks that skill for the query, explains it, and forgets it
# after stats --reset-learning. Skipped without PostgreSQL.
. "$(dirname "$0")/../cli/setup.sh"
. "$TOP_SRCDIR/tests/pg/cluster.sh"
trap 'pg_stop; rm -rf "$T"' EXIT INT TERM
json() {
	node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const j=JSON.parse(s);const v=('"$1"');console.log(typeof v==="object"?JSON.stringify(v):String(v))})'
}
if ! pg_start "$T"; then
	skip_all "PostgreSQL is not installed"
fi
cp -R "$DATA/learn/skills" "$T/skills"
mkdir -p "$XDG_CONFIG_HOME/skills-radar"
cat >"$XDG_CONFIG_HOME/skills-radar/config.yaml" <<EOC
paths:
  - $T/skills
scan:
  project_roots: false
telemetry:
  enabled: true
  backend: postgres
  dsn: "$SR_TEST_DSN"
EOC
"$SR" index >/dev/null
names() { "$SR" search --json "$@" | json 'j.matches.map(m=>m.name).join(",")'; }
is "$(names "catchy web address")" "" "before: no skill's text matches"

session() {	# one server process: search, then load, in its session
	printf '%s\n' \
	    '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"pg-learn","version":"1"}}}' \
	    '{"jsonrpc":"2.0","method":"notifications/initialized"}' \
	    '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search_skills","arguments":{"query":"catchy web address"}}}' \
	    '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"load_skill","arguments":{"name":"domain-namer"}}}' |
	    "$SR" serve >"$T/serve.out" 2>"$T/serve.err"
}
session
session
is "$(grep -c '"id":3' "$T/serve.out")" "1" "the server answered the load"
is "$(names "catchy web address")" "domain-namer" "the fleet's searches and loads teach the words"
"$SR" search --json --explain "catchy web address" >"$T/e.json"
is "$(json 'j.matches[0].explain.usage.learned_terms.length' <"$T/e.json")" "3" \
	"explain shows the three learned words"
is "$(json 'j.matches[0].explain.usage.loads>0' <"$T/e.json")" "true" \
	"and the fleet's load count"
check "stats --reset-learning on PostgreSQL" "$SR" stats --reset-learning
is "$(names "catchy web address")" "" "after the reset the fleet has learned nothing"
done_testing
