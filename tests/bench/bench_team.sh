#!/bin/sh
# Team benchmark (issue 11) on $CORPUS: a throwaway PostgreSQL cluster,
# the corpus indexed into it, and
#   1. the search path of a postgres replica against the SQLite default:
#      stdio round trips of search_skills (bench_mcp), so the added
#      latency of the shared store shows (target: none, searches run
#      from memory);
#   2. searches/s of one replica direct, one behind nginx, and two behind
#      nginx, with bench_mcp's own HTTP client (16 keep-alive
#      connections, BENCH_TEAM_SECONDS each, default 5);
#   3. write-to-searchable on a replica: an edit through index --watch
#      until a search on the replica finds it (10 edits).
# Needs SR, TOP_SRCDIR, TOP_BUILDDIR; prints "skipped: ..." without
# PostgreSQL, nginx or the corpus.
set -u
: "${SR:?}" "${TOP_SRCDIR:?}" "${TOP_BUILDDIR:?}"
BM="$TOP_BUILDDIR/tests/bench/bench_mcp"
SECS=${BENCH_TEAM_SECONDS:-5}
[ -n "${CORPUS:-}" ] && [ -d "$CORPUS" ] || { echo "skipped: set CORPUS"; exit 0; }
[ -x "$BM" ] || { echo "skipped: tests/bench/bench_mcp not built"; exit 0; }
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
[ -x "$NGINX" ] || { echo "skipped: nginx not installed"; exit 0; }
T=$(mktemp -d "${TMPDIR:-/tmp}/sr-bench-team.XXXXXX")
. "$TOP_SRCDIR/tests/pg/cluster.sh"
. "$TOP_SRCDIR/tests/pg/procs.sh"
cleanup() {
	stop_all
	pg_stop
	rm -rf "$T"
}
trap cleanup EXIT INT TERM
pg_start "$T" >"$T/pg.out" 2>&1 || { echo "skipped: no PostgreSQL cluster"; exit 0; }
export HOME="$T/home" XDG_CONFIG_HOME="$T/home/.config"
mkdir -p "$HOME"
unset SKILL_PATHS SKILLS_RADAR_CONFIG SKILLS_RADAR_TOKEN || true
cp -R "$CORPUS" "$T/corpus"
cat >"$T/sqlite.yaml" <<YAML
paths: ["$T/corpus"]
scan: {project_roots: false}
YAML
cat >"$T/pg.yaml" <<YAML
paths: ["$T/corpus"]
scan: {project_roots: false}
store: {backend: postgres, poll_ms: 500}
watcher: {debounce_ms: 50}
YAML
export SKILLS_RADAR_DSN="$SR_TEST_DSN"
XDG_DATA_HOME="$T/sq" "$SR" --config "$T/sqlite.yaml" index >/dev/null 2>&1 || { echo "sqlite index failed"; exit 1; }
XDG_DATA_HOME="$T/writer" "$SR" --config "$T/pg.yaml" index >/dev/null 2>&1 || { echo "postgres index failed"; exit 1; }

echo "1. search path: SQLite default vs postgres replica (stdio, bench_mcp)"
for b in sqlite pg; do
	echo "  [$b]"
	XDG_DATA_HOME="$T/$b-stdio" SKILLS_RADAR_CONFIG="$T/$b.yaml" "$BM" "$SR" 2000 0.1 1 |
	    grep -A1 -E '^(startup|stdio search_skills)' | grep -v '^--' | sed 's/^/    /'
done

replica() {	# replica PORT
	spawn env XDG_DATA_HOME="$T/r$1" "$SR" -v --config "$T/pg.yaml" serve \
	    --transport http --port "$1" >/dev/null 2>"$T/r$1.err"
	_i=0
	until grep -q serving "$T/r$1.err" 2>/dev/null || [ $_i -ge 100 ]; do
		sleep 0.1; _i=$((_i + 1))
	done
}
nginx_for() {	# nginx_for PORT UPSTREAM...: starts nginx on PORT
	_p=$1; shift
	mkdir -p "$T/ngx$_p/tmp"
	{
		echo "daemon off; master_process off; worker_processes 1;"
		echo "pid $T/ngx$_p/pid; error_log $T/ngx$_p/error.log warn;"
		echo "events { worker_connections 1024; }"
		echo "http { access_log off;"
		for d in client_body proxy fastcgi uwsgi scgi; do
			echo "${d}_temp_path $T/ngx$_p/tmp/$d;"
		done
		echo "upstream up { least_conn;"
		for u in "$@"; do echo "server 127.0.0.1:$u;"; done
		echo "keepalive 32; }"
		echo "server { listen 127.0.0.1:$_p; keepalive_requests 1000000;"
		echo "location /mcp {"
		echo "proxy_pass http://up; proxy_http_version 1.1;"
		echo "proxy_set_header Connection \"\"; proxy_set_header Host 127.0.0.1;"
		echo "proxy_buffering off; } } }"
	} >"$T/ngx$_p/nginx.conf"
	spawn timeout 600 "$NGINX" -p "$T/ngx$_p" -c "$T/ngx$_p/nginx.conf" -e "$T/ngx$_p/error.log"
	_i=0
	until curl -s -o /dev/null "http://127.0.0.1:$_p/" 2>/dev/null || [ $_i -ge 50 ]; do
		sleep 0.1; _i=$((_i + 1))
	done
}
base=$((40000 + $$ % 10000))
R1=$base; R2=$((base + 1)); N1=$((base + 2)); N2=$((base + 3))
replica "$R1"
replica "$R2"
nginx_for "$N1" "$R1"
nginx_for "$N2" "$R1" "$R2"
echo
echo "2. searches/s over HTTP, 16 keep-alive connections, ${SECS}s each (2 cores shared)"
printf '  %-36s %10s %7s\n' "setup" "req_per_s" "errors"
for c in "one replica, direct:$R1" "one replica behind nginx:$N1" "two replicas behind nginx:$N2"; do
	set -- $("$BM" --load "${c##*:}" "$SECS" 16)
	printf '  %-36s %10s %7s\n' "${c%:*}" "$1" "$2"
done

echo
echo "3. an edit through index --watch until searchable on a replica (10 edits)"
spawn env XDG_DATA_HOME="$T/writer" "$SR" --config "$T/pg.yaml" index --watch >/dev/null 2>"$T/writer.err"
i=0
until grep -q watching "$T/writer.err" 2>/dev/null || [ $i -ge 100 ]; do sleep 0.1; i=$((i + 1)); done
search() {
	curl -s -m 5 -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \
	    -d "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"search_skills\",\"arguments\":{\"query\":\"$1\"}}}" \
	    "http://127.0.0.1:$R2/mcp"
}
: >"$T/lat"
for k in 1 2 3 4 5 6 7 8 9 10; do
	word="zqxbench$k"
	mkdir -p "$T/corpus/zz-bench-$k"
	printf -- '---\nname: zz-bench-%s\ndescription: Benchmark %s skill.\n---\nbody\n' "$k" "$word" >"$T/corpus/zz-bench-$k/SKILL.md"
	a=$(date +%s%N)
	n=0
	until search "$word" | grep -q "zz-bench-$k" || [ $n -ge 500 ]; do sleep 0.01; n=$((n + 1)); done
	b=$(date +%s%N)
	echo $(( (b - a) / 1000000 )) >>"$T/lat"
done
grep 'store counter' "$T/r$R2.err" | tail -3 | sed 's/^/  replica: /'
sort -n "$T/lat" | awk '{v[NR]=$1} END {printf "  %8s %8s %8s\n  %8d %8d %8d\n", "p50_ms", "p90_ms", "max_ms", v[int(NR/2)+1], v[int(NR*0.9)], v[NR]}'
echo "  (writer: debounce 50 ms + per-path update + NOTIFY; replica: delta fetch + engine_apply)"
