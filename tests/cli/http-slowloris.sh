#!/bin/sh
# Slowloris against the HTTP transport: 1,100 connections that each send
# the start of a request and stall must not keep /healthz from answering,
# and must not write a log line each.
. "$(dirname "$0")/setup.sh"
. "$TESTDIR/fixture.sh"

CONNS=1100
. "$TESTDIR/http-setup.sh"
need_tools node curl
# Both ends of every connection are on this machine: the client's and the
# server's descriptors, with room to spare.
ulimit -n 4096 2>/dev/null || ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
if [ "$(ulimit -n)" != unlimited ] && [ "$(ulimit -n)" -lt $((CONNS + 200)) ]; then
	skip_one "the open-file limit is $(ulimit -n) (hard $(ulimit -Hn)); $((CONNS + 200)) are needed"
	done_testing
	exit 0
fi
serve_http '  header_timeout_s: 3'
lines0=$(wc -l <"$T/http.err")

# The attacker opens every connection, sends "POST /mcp HTTP/1.1\r\nX: "
# and stalls. Once each has connected or been refused, a fresh client asks
# for /healthz with a 1 s budget. Everything ends within 60 s.
cat >"$T/slow.mjs" <<'EOJ'
import net from "node:net";
import http from "node:http";
const [port, n] = [Number(process.argv[2]), Number(process.argv[3])];
const giveUp = setTimeout(() => { console.log("result timeout"); process.exit(2); }, 60000);
const socks = [];
let settled = 0, opened = 0;
await new Promise((resolve) => {
	for (let i = 0; i < n; i++) {
		const s = net.connect({ host: "127.0.0.1", port });
		socks.push(s);
		let done = false;
		const settle = () => { if (!done) { done = true; if (++settled === n) resolve(); } };
		s.on("connect", () => { opened++; s.write("POST /mcp HTTP/1.1\r\nX: ", settle); });
		s.on("error", settle);
		s.on("close", settle);
	}
});
const t0 = Date.now();
const status = await new Promise((resolve) => {
	const req = http.get({ host: "127.0.0.1", port, path: "/healthz", agent: false, timeout: 1000 },
	    (res) => { res.resume(); res.on("end", () => resolve(res.statusCode)); });
	req.on("timeout", () => { req.destroy(); resolve("timeout"); });
	req.on("error", (e) => resolve("error " + e.code));
});
const ms = Date.now() - t0;
console.log(`opened ${opened}`);
console.log(`healthz ${status} ${ms <= 1000 ? "in-time" : "late"}`);
for (const s of socks) s.destroy();
clearTimeout(giveUp);
process.exit(0);
EOJ
out=$(node "$T/slow.mjs" "$port" "$CONNS" 2>&1) || true
contains "$out" "healthz 200 in-time" "/healthz answers within 1 s while $CONNS half-open connections stall"
printf '%s\n' "$out" | sed 's/^/#   /'
# The server is still serving once the attacker has gone.
code=$(curl -s -m 10 -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/healthz" || true)
is "$code" 200 "... and afterwards"
lines=$(( $(wc -l <"$T/http.err") - lines0 ))
if [ "$lines" -lt 50 ]; then ok 0 "the log does not grow by a line per connection ($lines lines)"
else ok 1 "the log does not grow by a line per connection ($lines lines)"; sort "$T/http.err" | uniq -c | sort -rn | head -5 | sed 's/^/#   /'; fi

# Headers have a deadline of their own: a client that sends a byte now and
# then is closed after transport.header_timeout_s (3 s here) although it
# is never idle for transport.timeout_s.
cat >"$T/trickle.mjs" <<'EOJ'
import net from "node:net";
const port = Number(process.argv[2]);
const t0 = Date.now();
const s = net.connect({ host: "127.0.0.1", port });
const drip = setInterval(() => s.write("X"), 500);
const giveUp = setTimeout(() => { console.log("still open after 30 s"); process.exit(0); }, 30000);
s.on("connect", () => s.write("POST /mcp HTTP/1.1\r\nX-Slow: "));
s.on("close", () => { clearInterval(drip); clearTimeout(giveUp);
	console.log(Date.now() - t0 < 30000 ? "closed by the server" : "late"); });
s.on("error", () => {});
EOJ
out=$(node "$T/trickle.mjs" "$port" 2>&1) || true
is "$out" "closed by the server" "a request whose headers trickle in is closed at transport.header_timeout_s"
kill $spid 2>/dev/null || true
wait $spid 2>/dev/null || true
done_testing
