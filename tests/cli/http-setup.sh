# Sourced by the tests/cli/http-*.sh after setup.sh and fixture.sh.
# need_tools TOOL...: skips the whole test when one is missing.
need_tools() {	# (under CI=true a missing tool fails: setup.sh need)
	need "$@"
}
# serve_http [TRANSPORT-YAML]: indexes the fixture tree, appends the
# transport section to its config and starts serve --transport http on a
# free port of 127.0.0.1; sets spid, url and port. The server is killed on
# exit; its stderr is $T/http.err.
serve_http() {
	install_tree
	"$SR" index >/dev/null 2>&1
	[ -z "${1:-}" ] || printf 'transport:\n%s\n' "$1" >>"$XDG_CONFIG_HOME/skills-radar/config.yaml"
	"$SR" serve --transport http --port 0 2>"$T/http.err" &
	spid=$!
	trap 'kill $spid 2>/dev/null || true; rm -rf "$T"' EXIT INT TERM
	url=
	for _i in $(seq 1 200); do
		url=$(grep -o 'http://127\.0\.0\.1:[0-9]*/mcp' "$T/http.err" | head -1 || true)
		[ -n "$url" ] && break
		sleep 0.1
	done
	is "${url:+up}" up "the HTTP server starts"
	port=${url#http://127.0.0.1:}
	port=${port%/mcp}
}
