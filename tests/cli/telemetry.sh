#!/bin/sh
# Telemetry end to end: nothing without opt-in; with it, search, load and
# index from the CLI and the MCP server land in stats.db and in stats.
. "$(dirname "$0")/setup.sh"
. "$TESTDIR/fixture.sh"
install_tree
db="$XDG_DATA_HOME/skills-radar/stats.db"

"$SR" index >/dev/null
"$SR" search "pdf forms" >/dev/null 2>&1
"$SR" load alpha >/dev/null 2>&1
ok "$([ ! -e "$db" ]; echo $?)" "telemetry off (the default): no stats.db is created"
status 4 "stats says telemetry is disabled" "$SR" stats
contains "$(cat "$T/.out")" "disabled" "the message says so"

cat >>"$XDG_CONFIG_HOME/skills-radar/config.yaml" <<EOC
telemetry:
  enabled: true
EOC
"$SR" index >/dev/null
"$SR" search "fill pdf forms" >/dev/null 2>&1
"$SR" search "zzqx unknown words" >/dev/null 2>&1
"$SR" load alpha >/dev/null 2>&1
"$SR" load nosuch >/dev/null 2>&1 || true
ok "$([ -s "$db" ]; echo $?)" "with telemetry.enabled, stats.db exists"
"$SR" stats --json >"$T/s.json"
is "$(json 'j.totals.search+","+j.totals.load+","+j.totals.index' <"$T/s.json")" "2,2,1" \
	"two searches, two loads and one index recorded"
printf '%s\n' \
	'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"wiring-test","version":"1"}}}' \
	'{"jsonrpc":"2.0","method":"notifications/initialized"}' \
	'{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search_skills","arguments":{"query":"release notes from git"}}}' \
	'{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"load_skill","arguments":{"name":"beta"}}}' |
	"$SR" serve >/dev/null 2>&1
clients=$(sqlite3 "$db" "SELECT group_concat(DISTINCT client) FROM events WHERE client IS NOT NULL" 2>/dev/null || echo nosqlite)
case "$clients" in nosqlite) skip_one "sqlite3 not installed" ;;
*) contains "$clients" "wiring-test" "MCP events carry the client name from initialize" ;; esac
"$SR" stats --json >"$T/s2.json"
is "$(json 'j.totals.search+","+j.totals.load' <"$T/s2.json")" "3,3" "the server's search and load are recorded"
out=$("$SR" stats)
contains "$out" "fill pdf forms" "the text report lists the queries"
# Over HTTP with sessions, each event names the session that asked: the
# MCP layer records the event with the request's Mcp-Session-Id.
if command -v curl >/dev/null 2>&1 && command -v sqlite3 >/dev/null 2>&1; then
	"$SR" serve --transport http --port 0 --stateful 2>"$T/http.err" &
	hpid=$!
	url=
	for i in $(seq 1 100); do
		url=$(grep -o 'http://127\.0\.0\.1:[0-9]*/mcp' "$T/http.err" | head -1 || true)
		[ -n "$url" ] && break
		sleep 0.1
	done
	rpc() {	# rpc SESSION BODY: one JSON-RPC POST, the answer's headers in $T/h
		curl -s -m 10 -D "$T/h" -H 'Content-Type: application/json' \
		    -H 'Accept: application/json, text/event-stream' \
		    ${1:+-H "Mcp-Session-Id: $1"} -d "$2" "$url" >/dev/null
	}
	sids=
	for who in one two; do
		rpc "" '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"session-'$who'","version":"1"}}}'
		sid=$(tr -d '\r' <"$T/h" | sed -n 's/^[Mm]cp-[Ss]ession-[Ii]d: //p')
		rpc "$sid" '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search_skills","arguments":{"query":"pdf forms '$who'"}}}'
		rpc "$sid" '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"load_skill","arguments":{"name":"alpha"}}}'
		sids="$sids $sid"
	done
	kill "$hpid"
	wait "$hpid" || true
	for sid in $sids; do
		is "$(sqlite3 "$db" "SELECT group_concat(kind, ',') FROM (SELECT kind FROM events WHERE session = '$sid' ORDER BY id)")" \
		    "search,load" "HTTP session $sid: its search and its load carry its id"
	done
	is "$(sqlite3 "$db" "SELECT count(DISTINCT session) FROM events WHERE query LIKE 'pdf forms %'")" 2 \
	    "two sessions, two session ids on their searches"
else
	skip_one "curl and sqlite3 are needed for the HTTP session check"
fi

# A telemetry.dsn libpq cannot parse: the search still answers, and the
# warning names the option without the password.
cat >"$T/baddsn.yaml" <<EOC
telemetry:
  enabled: true
  backend: postgres
  dsn: "host=/tmp password=s3cret bogus_key=1"
EOC
st=0
out=$("$SR" --config "$T/baddsn.yaml" search "pdf forms" 2>&1) || st=$?
is "$st" 0 "a bad telemetry.dsn does not stop a search"
contains "$out" 'telemetry.dsn (host=/tmp password=*** bogus_key=1): invalid connection option "bogus_key"' \
    "... the warning names telemetry.dsn and libpq's reason"
lacks "$out" "s3cret" "... and never the password"
# CLI runs of one user share the session cli:USER@HOST: a load converts
# the user's latest search that returned the loaded skill, with its rank
# there, even with other searches in between (#34).
cdb="$T/conv.db"
printf 'telemetry:\n  enabled: true\n  db_path: %s\n' "$cdb" >>"$XDG_CONFIG_HOME/skills-radar/config.yaml.conv"
cp "$XDG_CONFIG_HOME/skills-radar/config.yaml" "$T/conf.keep"
sed '/^telemetry:/,$d' "$T/conf.keep" >"$XDG_CONFIG_HOME/skills-radar/config.yaml"
cat "$XDG_CONFIG_HOME/skills-radar/config.yaml.conv" >>"$XDG_CONFIG_HOME/skills-radar/config.yaml"
second=$("$SR" search --json "fill pdf forms" | json 'j.matches.length>1?j.matches[1].name:"(one result)"')
other=$("$SR" search --json "changelog" | json 'j.matches.map(m=>m.name).join(",")')
lacks ",$other," ",$second," "  (the search in between does not return $second)"
"$SR" load "$second" >/dev/null 2>&1
"$SR" search "zzqx unknown words" >/dev/null 2>&1 || true
"$SR" load flagged >/dev/null 2>&1
"$SR" stats --json >"$T/c.json"
is "$(json 'j.conversion.converted_searches+"/"+j.conversion.searches' <"$T/c.json")" "1/3" \
	"CLI: the load converts the earlier search that returned the skill"
is "$(json 'j.conversion.converted_loads' <"$T/c.json")" 1 "  one converted load"
is "$(json 'JSON.stringify(j.conversion.ranks)' <"$T/c.json")" \
    '[{"rank":"2","loads":1},{"rank":"none","loads":1}]' \
    "  at the skill's rank in that search (2); the load no search returned: none"
is "$(json 'j.loaded_after_miss.map(x=>x.skill).join(",")' <"$T/c.json")" flagged \
    "  and flagged counts as loaded after a miss"
# store_queries: hash is HMAC-SHA256 (RFC 2104) under meta.query_key:
# the same digest as Node's crypto for the same key and text.
if command -v sqlite3 >/dev/null 2>&1; then
	printf 'telemetry:\n  enabled: true\n  db_path: %s\n  store_queries: hash\n' "$T/hash.db" \
	    >"$XDG_CONFIG_HOME/skills-radar/config.yaml"
	"$SR" search "abc" >/dev/null 2>&1 || true
	k=$(sqlite3 "$T/hash.db" "SELECT value FROM meta WHERE key = 'query_key'")
	is "$(sqlite3 "$T/hash.db" "SELECT query FROM events WHERE kind = 'search' ORDER BY id DESC LIMIT 1")" \
	    "$(node -e 'const c=require("crypto");console.log("hmac:"+c.createHmac("sha256",Buffer.from(process.argv[1],"hex")).update("abc").digest("hex").slice(0,16))' "$k")" \
	    "store_queries: hash is HMAC-SHA256 under meta.query_key"
else
	skip_one "sqlite3 not installed"
fi
done_testing
