#!/bin/sh
# serve --transport stdio: newline-delimited JSON-RPC, only protocol on
# stdout, bad input answered and survived, EOF and SIGTERM end it cleanly.
. "$(dirname "$0")/setup.sh"
. "$TESTDIR/fixture.sh"	# json

M="$DATA/mcp"
export SKILL_PATHS="$M/skills:$M/agents:$M/commands"
mkdir -p "$XDG_CONFIG_HOME/skills-radar"
cat >"$XDG_CONFIG_HOME/skills-radar/config.yaml" <<EOC
scan:
  project_roots: false
mcp:
  max_message_kb: 1
EOC

INIT='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"sh","version":"1"}}}'
NOTE='{"jsonrpc":"2.0","method":"notifications/initialized"}'

# 1. A session: initialize, tools/list, a search, a load, a bad call.
printf '%s\n' "$INIT" "$NOTE" \
	'{"jsonrpc":"2.0","id":2,"method":"tools/list"}' \
	'{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"search_skills","arguments":{"query":"git commit conventions"}}}' \
	'{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"load_skill","arguments":{"name":"git-workflow"}}}' \
	'{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"load_skill","arguments":{"name":"git-workflo"}}}' \
	'{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"search_skills","arguments":{"query":"x","top_k":99}}}' \
	'{"jsonrpc":"2.0","id":7,"method":"resources/read","params":{"uri":"skill://api-design/references/rest.md"}}' \
	'{"jsonrpc":"2.0","id":8,"method":"skills/list"}' \
	>"$T/in1"
set +e
"$SR" serve <"$T/in1" >"$T/out1" 2>"$T/err1"
rc=$?
set -e
is "$rc" 0 "EOF ends the server with status 0"
is "$(wc -l <"$T/out1" | tr -d ' ')" 8 "one answer per request, none for the notification"
is "$(grep -vc '^{"jsonrpc":"2.0",' "$T/out1" || true)" 0 "stdout carries only JSON-RPC"
out=$(cat "$T/out1")
contains "$(sed -n 1p "$T/out1")" '"protocolVersion":"2025-11-25"' "initialize echoes the client's version"
contains "$(sed -n 1p "$T/out1")" '"instructions":"skills-radar serves' "initialize carries instructions"
contains "$(sed -n 2p "$T/out1")" '"name":"read_skill_file"' "tools/list lists the tools"
contains "$(sed -n 3p "$T/out1")" '"structuredContent":{"query":"git commit conventions","matches":[{"name":"git-workflow"' "search finds git-workflow first"
# What an agent pays for: no absolute path, no empty or null fields (#34);
# search --json keeps them for scripts.
sed -n 3p "$T/out1" >"$T/s3.json"
is "$(json 'j.result.structuredContent.matches.filter(m=>"path" in m||Object.values(m).some(v=>v===null||v===""||(Array.isArray(v)&&v.length===0))).length' <"$T/s3.json")" 0 \
	"search_skills matches carry no path and no empty field"
is "$(json 'j.result.structuredContent.matches.every(m=>m.name&&m.trust&&typeof m.score==="number"&&m.description)' <"$T/s3.json")" true \
	"  but name, score, description and trust"
is "$("$SR" search --json "git commit conventions" | json '"path" in j.matches[0] && "tags" in j.matches[0]')" true \
	"search --json keeps path and the empty fields"
contains "$(sed -n 4p "$T/out1")" 'imperative commit subjects' "load_skill returns the body"
contains "$(sed -n 5p "$T/out1")" '"isError":true' "a misspelt name is a tool error"
contains "$(sed -n 5p "$T/out1")" "did you mean" "... with a suggestion"
contains "$(sed -n 6p "$T/out1")" 'from 1 to 50' "top_k out of range names the bounds"
contains "$(sed -n 7p "$T/out1")" '409 Conflict' "a bundled file is a resource"
contains "$(sed -n 8p "$T/out1")" '"digest":"sha256:' "skills/list carries digests"

# 2. Requests before initialize, unknown methods, bad params.
printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' \
	'{"jsonrpc":"2.0","id":2,"method":"ping"}' \
	'{"jsonrpc":"2.0","id":3,"method":"server/discover"}' \
	"$INIT" \
	'{"jsonrpc":"2.0","id":4,"method":"no/such"}' \
	'{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"nope"}}' \
	'{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"load_skill","arguments":{"name":"api-design","bogus":1}}}' \
	| "$SR" serve >"$T/out2"
contains "$(sed -n 1p "$T/out2")" '"code":-32600' "tools/list before initialize is refused"
contains "$(sed -n 2p "$T/out2")" '"id":2,"result":{}' "ping before initialize is answered"
contains "$(sed -n 3p "$T/out2")" '"code":-32601' "server/discover is answered at once"
contains "$(sed -n 5p "$T/out2")" '"code":-32601' "unknown method is -32601"
contains "$(sed -n 6p "$T/out2")" '"code":-32602' "unknown tool is -32602"
contains "$(sed -n 7p "$T/out2")" "unknown argument 'bogus'" "unknown argument is named"

# 3. A malformed-JSON storm, then a normal request.
: >"$T/in3"
i=0
while [ $i -lt 300 ]; do
	printf '{"jsonrpc":"2.0","id":%d,\n' $i >>"$T/in3"
	printf 'not json at all %d\n' $i >>"$T/in3"
	printf '\001\002\377garbage\n' >>"$T/in3"
	i=$((i + 1))
done
printf '%s\n' "$INIT" '{"jsonrpc":"2.0","id":"last","method":"ping"}' >>"$T/in3"
set +e
"$SR" serve <"$T/in3" >"$T/out3" 2>/dev/null
rc=$?
set -e
is "$rc" 0 "the server survives 900 malformed lines"
is "$(grep -c '"code":-32700' "$T/out3")" 900 "each malformed line gets -32700"
contains "$(tail -n 1 "$T/out3")" '"id":"last","result":{}' "and still answers afterwards"

# 4. A line over mcp.max_message_kb (1 KiB here) is refused, not fatal.
big=$(head -c 3000 /dev/zero | tr '\0' 'a')
printf '%s\n' "$INIT" "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\",\"params\":{\"pad\":\"$big\"}}" \
	'{"jsonrpc":"2.0","id":3,"method":"ping"}' | "$SR" serve >"$T/out4"
contains "$(sed -n 2p "$T/out4")" 'longer than 1024 bytes' "an oversized line is refused"
contains "$(sed -n 3p "$T/out4")" '"id":3,"result":{}' "the next line is served"
printf '%s\n%s' "$INIT" "$big" | "$SR" serve >"$T/out4b"
contains "$(sed -n 2p "$T/out4b")" 'longer than 1024 bytes' "an oversized last line without a newline is refused too"

# 5. SIGTERM while waiting for input: clean exit 0.
mkfifo "$T/fifo"
"$SR" serve <"$T/fifo" >"$T/out5" 2>&1 &
pid=$!
exec 3>"$T/fifo"
printf '%s\n' "$INIT" >&3
n=0
while [ ! -s "$T/out5" ] && [ $n -lt 600 ]; do sleep 0.1; n=$((n + 1)); done
kill -TERM $pid
set +e
wait $pid
rc=$?
set -e
exec 3>&-
is "$rc" 0 "SIGTERM ends the server with status 0"
contains "$(cat "$T/out5")" '"id":1,"result"' "it had answered before the signal"

# 6. Usage errors.
status 2 "an unknown transport is a usage error" "$SR" serve --transport carrier-pigeon
status 2 "a bad port is a usage error" "$SR" serve --port 99999

done_testing
