#!/bin/sh
# One version, from AC_INIT in configure.ac, everywhere it is shown.
. "$(dirname "$0")/setup.sh"
. "$TESTDIR/fixture.sh"
: "${TOP_BUILDDIR:?}"
V=$(sed -n 's/^AC_INIT(\[skills-radar\], \[\([^]]*\)\].*/\1/p' "$TOP_SRCDIR/configure.ac")
ok "$([ -n "$V" ]; echo $?)" "configure.ac has a version"
is "$("$SR" version)" "skills-radar $V" "version"
is "$("$SR" --version)" "skills-radar $V" "--version"
is "$("$SR" --help | head -1 | cut -d: -f1)" "skills-radar $V" "--help starts with the version"
check "skills-radar.1 shows the version" grep -q "^$V lets an AI" "$TOP_BUILDDIR/man/skills-radar.1"
check "skills-radar.yaml.5 shows the version" grep -q "skills-radar $V\." "$TOP_BUILDDIR/man/skills-radar.yaml.5"
is "$("$SR" doctor --json | json 'j.version')" "$V" "doctor --json"
init='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}'
is "$(printf '%s\n' "$init" | SKILL_PATHS="$TOP_SRCDIR/config/examples" timeout 30 "$SR" serve 2>/dev/null | head -1 | json 'j.result.serverInfo.version')" \
    "$V" "MCP serverInfo.version"
# No version number is written out by hand in the sources.
hits=$(grep -rn --include='*.c' --include='*.h' --include='*.in' -F "\"$V\"" \
    "$TOP_SRCDIR/src" "$TOP_SRCDIR/man" || true)
is "$hits" "" "no literal \"$V\" in src/, man/"
done_testing
