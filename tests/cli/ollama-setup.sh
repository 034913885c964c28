# Sourced after setup.sh by the tests and the benchmark that need a fake
# Ollama server (tests/fake/fake_ollama, built by make check).
#   fake_start NAME [ARGS...]  starts one, sets $NAME to its URL and
#                              NAME_pid; it exits by itself after 120 s
#   fake_stop NAME             stops it
#   fake_count URL KEY         one request counter of the server
#   ollama_config FILE URL     writes a config using URL for every stage
: "${TOP_BUILDDIR:=$(cd "$(dirname "$SR")/.." && pwd)}"
FAKE_OLLAMA="$TOP_BUILDDIR/tests/fake/fake_ollama"
fake_pids=""
fake_start() {
	_n=$1; shift
	rm -f "$T/.fake-$_n"
	"$FAKE_OLLAMA" -t 120 "$@" >"$T/.fake-$_n" 2>/dev/null &
	eval "${_n}_pid=$!"
	fake_pids="$fake_pids $!"
	_i=0
	while [ ! -s "$T/.fake-$_n" ] && [ $_i -lt 1200 ]; do
		sleep 0.05; _i=$((_i + 1))
	done
	eval "$_n=http://127.0.0.1:$(head -1 "$T/.fake-$_n")"
}
fake_stop() {
	eval "_p=\${${1}_pid:-}"
	[ -n "$_p" ] && kill "$_p" 2>/dev/null && wait "$_p" 2>/dev/null || true
}
fake_stop_all() {
	for _p in $fake_pids; do kill "$_p" 2>/dev/null || true; done
}
trap 'fake_stop_all; rm -rf "$T"' EXIT INT TERM
fake_count() {
	curl -s "$1/_stats" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s)["'"$2"'"]))'
}
# A port nothing listens on: a server started and stopped at once.
dead_url() {
	fake_start _dead
	fake_stop _dead
	echo "$_dead"
}
