#!/bin/sh
# The e2e entry point make check runs: the official MCP SDK client
# (e2e.mjs) and conformance suites (conformance.mjs) against the built
# server, as one TAP stream. Skips cleanly, without failing, when node or
# npm is missing, or when node_modules is missing and the npm registry is
# unreachable; otherwise runs `npm ci` first (into the build tree when the
# source tree has no node_modules).
#   SR          the skills-radar binary
#   TOP_SRCDIR  the source tree; TOP_BUILDDIR the build tree
set -u
case $0 in */*) HERE=${0%/*} ;; *) HERE=. ;; esac
HERE=$(cd "$HERE" && pwd)
: "${TOP_SRCDIR:=$(cd "$HERE/../.." && pwd)}"
: "${TOP_BUILDDIR:=$TOP_SRCDIR}"
export TOP_SRCDIR

skip() {	# under CI=true, where .ci/deps installs node, a failure
	if [ "${CI:-}" = true ]; then
		echo "not ok 1 - $* (CI=true: .ci/deps installs what the tests need)"
		echo "1..1"
		exit 1
	fi
	echo "1..0 # SKIP $*"
	exit 0
}

[ -n "${SR:-}" ] && [ -x "$SR" ] || skip "SR is not set to the skills-radar binary"
command -v node >/dev/null 2>&1 || skip "node is not installed"
command -v npm >/dev/null 2>&1 || skip "npm is not installed"
major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
[ "$major" -ge 20 ] 2>/dev/null || skip "node >= 20 is needed (found $(node --version 2>/dev/null))"

# Where the pinned packages live: the source tree if installed there, else
# a copy of package.json + package-lock.json in the build tree.
if [ -d "$HERE/node_modules/@modelcontextprotocol/sdk" ]; then
	MODULES="$HERE/node_modules"
else
	NODE_DIR="$TOP_BUILDDIR/tests/e2e"
	MODULES="$NODE_DIR/node_modules"
	mkdir -p "$NODE_DIR" || skip "cannot create $NODE_DIR"
	if [ ! -d "$MODULES/@modelcontextprotocol/sdk" ] ||
	    [ "$HERE/package-lock.json" -nt "$MODULES/.package-lock.json" ]; then
		if [ "$NODE_DIR" != "$HERE" ]; then
			cp "$HERE/package.json" "$HERE/package-lock.json" "$NODE_DIR/" ||
			    skip "cannot copy package.json to $NODE_DIR"
		fi
		if ! (cd "$NODE_DIR" && timeout 30 npm ping >/dev/null 2>&1); then
			skip "node_modules missing and the npm registry is unreachable"
		fi
		echo "# npm ci in $NODE_DIR"
		if ! (cd "$NODE_DIR" && timeout 600 npm ci --no-audit --no-fund \
		    --loglevel=error >"$NODE_DIR/npm-ci.log" 2>&1); then
			echo "not ok 1 - npm ci of the pinned e2e packages"
			sed 's/^/#   /' "$NODE_DIR/npm-ci.log" | tail -20
			echo "1..1"
			exit 1
		fi
	fi
fi
export E2E_MODULES="$MODULES"
# The scripts import bare package names: resolve them from MODULES.
export NODE_PATH="$MODULES"

T=$(mktemp -d "${TMPDIR:-/tmp}/sr-e2e-run.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
# ES modules ignore NODE_PATH: run copies of the scripts next to MODULES.
LINK="$T/run"
mkdir -p "$LINK"
ln -s "$MODULES" "$LINK/node_modules"
cp "$HERE/e2e.mjs" "$HERE/conformance.mjs" "$HERE/watch.mjs" "$LINK/"
cp -R "$HERE/lib" "$LINK/lib"

rc=0
node "$LINK/e2e.mjs" >"$T/e2e.tap" 2>"$T/e2e.err" || rc=1
node "$LINK/conformance.mjs" >"$T/conf.tap" 2>"$T/conf.err" || rc=1
node "$LINK/watch.mjs" >"$T/watch.tap" 2>"$T/watch.err" || rc=1
WATCH_BACKEND=poll node "$LINK/watch.mjs" >>"$T/watch.tap" 2>>"$T/watch.err" || rc=1

n=0
for f in "$T/e2e.tap" "$T/conf.tap" "$T/watch.tap"; do
	while IFS= read -r line; do
		case "$line" in
		"ok - "*|"not ok - "*)
			n=$((n + 1))
			case "$line" in
			"ok - "*) echo "ok $n - ${line#ok - }" ;;
			*) echo "not ok $n - ${line#not ok - }" ;;
			esac ;;
		*) echo "$line" ;;
		esac
	done <"$f"
done
if [ "$rc" -ne 0 ] && [ -s "$T/e2e.err" ]; then
	sed 's/^/# e2e stderr: /' "$T/e2e.err" | tail -10
fi
if [ "$rc" -ne 0 ] && [ -s "$T/watch.err" ]; then
	sed 's/^/# watch stderr: /' "$T/watch.err" | tail -10
fi
if [ "$n" -eq 0 ]; then
	n=1
	echo "not ok 1 - the e2e scripts produced results"
	sed 's/^/#   /' "$T/e2e.err" "$T/conf.err" | tail -20
fi
echo "1..$n"
exit $rc
