#!/bin/sh
# Message faults over HTTP (issue 21, item 10): an ambiguous body length,
# trailing data, a look-alike media type, a client initializing in a loop
# and an auth_token with spaces around it.
. "$(dirname "$0")/setup.sh"
. "$TESTDIR/fixture.sh"

. "$TESTDIR/http-setup.sh"
need_tools node curl
serve_http '  stateless: false'

INIT='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"faults","version":"1"}}}'
post() {	# post CONTENT-TYPE SESSION BODY: prints the status, body in $T/b, headers in $T/h
	curl -s -m 10 -o "$T/b" -D "$T/h" -w '%{http_code}' -H "Content-Type: $1" \
	    -H 'Accept: application/json, text/event-stream' \
	    ${2:+-H "Mcp-Session-Id: $2"} --data-binary "$3" "$url" || true
}
session_of() { tr -d '\r' <"$T/h" | sed -n 's/^[Mm]cp-[Ss]ession-[Ii]d: //p'; }

# Two Content-Length headers: a proxy may read one and the server the
# other (request smuggling). Raw, since no client library sends that.
cat >"$T/raw.mjs" <<'EOJ'
import net from "node:net";
const [port, body] = [Number(process.argv[2]), process.argv[3]];
const s = net.connect({ host: "127.0.0.1", port });
let got = "";
setTimeout(() => { console.log("no answer"); process.exit(0); }, 10000).unref();
s.on("connect", () => s.write("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n" +
    "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n" +
    `Content-Length: ${body.length}\r\nContent-Length: ${body.length}\r\n` +
    "Connection: close\r\n\r\n" + body));
s.on("data", (d) => got += d);
s.on("end", () => { console.log(got.split("\r\n")[0]); console.log(got.slice(got.indexOf("\r\n\r\n") + 4)); });
s.on("error", (e) => console.log("error " + e.code));
EOJ
out=$(node "$T/raw.mjs" "$port" "$INIT")
contains "$out" "HTTP/1.1 400" "two Content-Length headers are refused with 400"
contains "$out" "Content-Length" "... saying the body's length is ambiguous"

# Trailing data after the JSON value, refused as stdio refuses it.
code=$(post application/json "" "$INIT x")
is "$code" 400 "trailing data after the JSON value is 400"
contains "$(cat "$T/b")" '"code":-32700' "... a parse error (-32700)"
contains "$(cat "$T/b")" "trailing data" "... naming the trailing data"
code=$(curl -s -m 10 -o "$T/b" -w '%{http_code}' -H 'Content-Type: application/json' \
    --data-binary '{"query":"pdf"} {"query":"x"}' "http://127.0.0.1:$port/tools/search_skills" || true)
is "$code" 400 "a REST body with trailing data is 400"
contains "$(cat "$T/b")" "trailing data" "... naming the trailing data"

# The media type is application/json, with parameters or none.
code=$(post application/jsonfoo "" "$INIT")
is "$code" 415 "Content-Type application/jsonfoo is 415"
code=$(post 'application/json-seq' "" "$INIT")
is "$code" 415 "Content-Type application/json-seq is 415"
code=$(post 'application/json; charset=utf-8' "" "$INIT")
is "$code" 200 "application/json; charset=utf-8 is accepted"
code=$(post 'Application/JSON' "" "$INIT")
is "$code" 200 "the media type is case-insensitive"

# A token holder initializing in a loop: others' sessions survive, the
# loop gets 429 with a clear error.
code=$(post application/json "" "$INIT")
keep=$(session_of)
is "$code" 200 "a session to keep is opened"
cat >"$T/loop.mjs" <<'EOJ'
const [url, init] = process.argv.slice(2);
const counts = {};
let msg = "";
for (let i = 0; i < 300; i++) {
	const r = await fetch(url, { method: "POST", body: init, headers: {
	    "Content-Type": "application/json", "Accept": "application/json, text/event-stream" } });
	counts[r.status] = (counts[r.status] || 0) + 1;
	const t = await r.text();
	if (r.status !== 200) msg = t;
}
console.log(JSON.stringify(counts));
console.log(msg);
EOJ
out=$(node "$T/loop.mjs" "$url" "$INIT" 2>&1 || true)
contains "$out" '"429":' "300 initialize calls from one client are answered 429 past its bound"
contains "$out" "Too Many Requests" "... with a clear error"
code=$(post application/json "$keep" '{"jsonrpc":"2.0","id":2,"method":"tools/list"}')
is "$code" 200 "the session opened before the loop still works"

# Item 8 and 9 over HTTP: a body that is not UTF-8, a NUL in a string.
code=$(post application/json "$keep" "$(printf '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"search_skills","arguments":{"query":"caf\351"}}}')")
is "$code" 400 "a JSON-RPC body that is not UTF-8 is refused"
contains "$(cat "$T/b")" '"code":-32700' "... as a parse error saying"
contains "$(cat "$T/b")" 'not valid UTF-8' "... it is not UTF-8"
code=$(post application/json "$keep" '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"load_skill","arguments":{"name":"alpha\u0000zzz"}}}')
is "$code" 400 "a NUL in a tool argument is refused"
contains "$(cat "$T/b")" '"code":-32602' "... as invalid params naming U+0000"
rest=$(curl -s -m 10 -w ' %{http_code}' -H 'Content-Type: application/json' \
    --data-binary '{"query":"pdf\u0000forms"}' "http://127.0.0.1:$port/tools/search_skills" || true)
contains "$rest" "U+0000" "REST: a NUL in the query is refused, saying why"
contains "$rest" " 400" "... with 400"

# Four addresses filling the session table (64 each, every loopback
# address is one) must not shut out a fifth client; a session id is
# bound to the address that opened it (issue 32).
cat >"$T/fill.mjs" <<'EOJ'
import http from "node:http";
const [port, init] = [Number(process.argv[2]), process.argv[3]];
function post(from, body, sid, method = "POST") {
	return new Promise((res) => {
		const headers = { "Content-Type": "application/json",
		    "Accept": "application/json, text/event-stream" };
		if (sid) headers["Mcp-Session-Id"] = sid;
		const r = http.request({ host: "127.0.0.1", port, path: "/mcp", method,
		    localAddress: from, headers }, (x) => {
			let t = ""; x.on("data", (d) => t += d);
			x.on("end", () => res({ status: x.statusCode, sid: x.headers["mcp-session-id"], body: t }));
		});
		r.on("error", (e) => res({ status: "error " + e.code }));
		r.end(body);
	});
}
const counts = {};
let first;
for (const a of ["127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5"])
	for (let i = 0; i < 64; i++) {
		const r = await post(a, init);
		counts[r.status] = (counts[r.status] || 0) + 1;
		if (!first && r.sid) first = r.sid;
	}
const fifth = await post("127.0.0.6", init);
const list = '{"jsonrpc":"2.0","id":2,"method":"tools/list"}';
const other = await post("127.0.0.7", list, fifth.sid);
const del = await post("127.0.0.7", "", fifth.sid, "DELETE");
const own = await post("127.0.0.6", list, fifth.sid);
console.log(JSON.stringify({ fill: counts, fifth: fifth.status, other: other.status,
    otherBody: other.body, del: del.status, own: own.status }));
EOJ
out=$(node "$T/fill.mjs" "$port" "$INIT" 2>&1 || true)
contains "$out" '"fifth":200' "a fifth client gets a session when four addresses fill the table"
contains "$out" '"other":403' "a session id used from another address is refused"
contains "$out" 'another client address' "... saying why"
contains "$out" '"del":403' "DELETE of another address's session is refused"
contains "$out" '"own":200' "the session still works from its own address"
kill $spid 2>/dev/null || true
wait $spid 2>/dev/null || true

# An auth_token with white space around it could never match a header:
# serve refuses it at start and says why.
st=0
out=$(SKILLS_RADAR_TOKEN=" s3cret " "$SR" serve --transport http --port 0 2>&1 </dev/null) || st=$?
is "$st" 3 "serve refuses an auth_token with surrounding spaces"
contains "$out" "transport.auth_token (or SKILLS_RADAR_TOKEN) begins or ends with white space" \
    "... and says what is wrong"

# libmicrohttpd is loaded by the HTTP transport only (mhd.h): linking it
# would cost every short CLI command its dynamic loading (GnuTLS & co).
if command -v objdump >/dev/null 2>&1; then
	needed=$(objdump -p "$SR" | awk '/NEEDED/{print $2}')
	lacks "$needed" "libmicrohttpd" \
	    "the binary does not link libmicrohttpd (the server above loaded it)"
	# nor libcurl (29 more libraries: TLS, SSH, LDAP, Kerberos), loaded
	# by the Ollama client and the URL parser (curlu.h) when they run
	lacks "$needed" "libcurl" "the binary does not link libcurl"
	lacks "$needed" "libpq" "the binary does not link libpq"
else
	skip_one "objdump not installed"
	skip_one "objdump not installed"
	skip_one "objdump not installed"
fi
done_testing
