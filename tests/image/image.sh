#!/bin/sh
# The container image's contents, without a Docker engine: builds the
# tree the Dockerfile copies (tests/image/install-tree.sh: prefix /usr,
# make install DESTDIR=) and checks it: every file in its place, nothing
# outside /usr, the unit and completions pointing at /usr/bin, the binary
# working from that tree, the runtime stage installing every library the
# binary links, and make uninstall leaving nothing behind.
. "$(dirname "$0")/../cli/setup.sh"
ROOT="$T/root"
B="$T/build"
DF="$TOP_SRCDIR/Dockerfile"
DC="$TOP_SRCDIR/docker-compose.yml"

# The Dockerfile builds from a clean source tree. When this one is
# configured in place (an in-tree build), configure refuses a second,
# out-of-tree build from it: build from the distribution tree instead,
# which is what a release tarball (and the image) holds.
SRC="$TOP_SRCDIR"
if [ -f "$TOP_SRCDIR/config.status" ]; then
	SRC="$T/src"
	if ! env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
	    make -C "${TOP_BUILDDIR:?}" distdir distdir="$SRC" >"$T/distdir.log" 2>&1; then
		ok 1 "make distdir for the image build"
		tail -20 "$T/distdir.log" | sed 's/^/#   /'
		done_testing
		exit 1
	fi
fi
# The nested build must not join the outer make's jobserver.
if env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL JOBS=2 \
    sh "$TOP_SRCDIR/tests/image/install-tree.sh" "$SRC" "$B" "$ROOT" \
    >"$T/tree.log" 2>&1; then
	ok 0 "install-tree.sh builds and installs into DESTDIR"
else
	ok 1 "install-tree.sh builds and installs into DESTDIR"
	tail -30 "$T/tree.log" | sed 's/^/#   /'
	done_testing
	exit 1
fi
BIN="$ROOT/usr/bin/skills-radar"
D="$ROOT/usr/share/skills-radar"
for f in usr/bin/skills-radar usr/share/man/man1/skills-radar.1 \
    usr/share/man/man5/skills-radar.yaml.5 \
    usr/share/skills-radar/config.yaml.example \
    usr/share/skills-radar/patterns/override.txt \
    usr/share/skills-radar/examples/skills/pdf-form-filler/SKILL.md \
    usr/share/skills-radar/clients/mcp.json \
    usr/share/bash-completion/completions/skills-radar \
    usr/share/zsh/site-functions/_skills-radar \
    usr/share/systemd/user/skills-radar.service; do
	ok "$([ -f "$ROOT/$f" ]; echo $?)" "the image has /$f"
done
ok "$([ -x "$BIN" ]; echo $?)" "the binary is executable"
out=$(cd "$ROOT" && find . -type f ! -path './usr/*' | head -5)
is "$out" "" "nothing is installed outside /usr (no /etc, no /usr/local)"
is "$(cd "$ROOT" && find . -path '*node_modules*' -o -path '*/tests/*' | head -3)" "" "no node_modules or tests in the image"
is "$(sed -n 's/^ExecStart=//p' "$ROOT/usr/share/systemd/user/skills-radar.service" | cut -d' ' -f1)" \
    /usr/bin/skills-radar "the installed unit starts /usr/bin/skills-radar"
check "the binary has /usr/share/skills-radar compiled in" grep -qa '/usr/share/skills-radar' "$BIN"
lacks "$(grep -ao "$TOP_BUILDDIR/[a-z]*" "$BIN" | head -1)" "$TOP_BUILDDIR" "the binary does not name the build tree"

# The installed binary works from that tree (pointed at it, as / in the image).
V=$(sed -n 's/^AC_INIT(\[skills-radar\], \[\([^]]*\)\].*/\1/p' "$TOP_SRCDIR/configure.ac")
is "$("$BIN" version)" "skills-radar $V" "the installed binary prints the configure.ac version"
contains "$(sed -n '/^\.Sh DESCRIPTION/,/^\.Pp/p' "$ROOT/usr/share/man/man1/skills-radar.1")" "$V" "the installed man page shows the version"
export SKILLS_RADAR_DATADIR="$D" SKILL_PATHS="$D/examples/*"
check "the installed binary indexes the installed examples" "$BIN" index
contains "$("$BIN" search "fill in a PDF form" 2>&1)" "pdf-form-filler" "... and finds them"
check "... with the installed pattern catalogue" sh -c '"$1" doctor --json | grep -q "\"sanitizer_patterns\":"' sh "$BIN"
init='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"image-test","version":"1"}}}'
resp=$(printf '%s\n' "$init" | timeout 10 "$BIN" serve 2>/dev/null | head -1)
contains "$resp" "\"serverInfo\":{\"name\":\"skills-radar\",\"version\":\"$V\"}" "MCP serverInfo carries the version"
unset SKILLS_RADAR_DATADIR SKILL_PATHS

# ---- the Dockerfile and compose file describe that tree ----
check "Dockerfile: both stages are Debian 12" sh -c '[ "$(grep -c "^FROM debian:12" "$1")" -eq 2 ]' sh "$DF"
check "Dockerfile: the build stage runs install-tree.sh" grep -q 'tests/image/install-tree.sh /src /build /out' "$DF"
check "Dockerfile: the runtime stage copies that tree" grep -q '^COPY --from=build /out/ /' "$DF"
check "Dockerfile: runs as a non-root user" sh -c 'grep "^USER " "$1" | grep -vq "root"' sh "$DF"
check "Dockerfile: the healthcheck posts an MCP initialize with curl" sh -c 'sed -n "/^HEALTHCHECK/,/exit 1/p" "$1" | grep -q "curl.*-X POST" && sed -n "/^HEALTHCHECK/,/exit 1/p" "$1" | grep -q "\"method\":\"initialize\""' sh "$DF"
hc=$(sed -n '/^HEALTHCHECK/,/exit 1/p' "$DF" | sed -n "s/.*-d '\\({.*}\\)'.*/\\1/p")
resp=$(printf '%s\n' "$hc" | timeout 10 "$BIN" serve 2>/dev/null | head -1)
contains "$resp" '"serverInfo"' "Dockerfile: the healthcheck's request is one the server answers"
check "compose: skills are mounted read-only" sh -c 'grep -E "^ +- .*:/skills/[^:]*:ro$" "$1" >/dev/null && ! grep -E "^ +- .*:/skills/[^:]*$" "$1" >/dev/null' sh "$DC"
check "compose: the port is published on loopback only" grep -q '"127.0.0.1:6580:6580"' "$DC"
# Every library the binary links comes from a package the runtime stage installs.
if command -v dpkg >/dev/null 2>&1 && command -v objdump >/dev/null 2>&1 &&
    grep -q '^12\.' /etc/debian_version 2>/dev/null; then
	runtime=$(sed -n '/^FROM debian:12-slim$/,$p' "$DF" | sed -n '/apt-get install/,/rm -rf/p')
	# ldconfig is in /sbin, which an ordinary user's PATH may not hold
	ldconfig=$(command -v ldconfig || echo /sbin/ldconfig)
	for lib in $(objdump -p "$BIN" | awk '/NEEDED/{print $2}'); do
		path=$("$ldconfig" -p | awk -v l="$lib" '$1 == l && /x86-64|64bit|AArch64/ {print $NF; exit}')
		[ -n "$path" ] || path=$("$ldconfig" -p | awk -v l="$lib" '$1 == l {print $NF; exit}')
		# a library ldconfig does not know: say so, never ask dpkg about ""
		if [ -z "$path" ]; then
			ok 1 "Dockerfile: $lib is found by ldconfig -p"
			continue
		fi
		real=$(realpath "$path" 2>/dev/null || echo "$path")
		pkg=$(dpkg -S "$real" 2>/dev/null || dpkg -S "${real#/usr}" 2>/dev/null || dpkg -S "/usr$real" 2>/dev/null || true)
		pkg=${pkg%%:*}
		case $pkg in
		libc6|"") continue ;;	# in every image
		esac
		contains "$runtime" "$pkg" "Dockerfile: the runtime stage installs $pkg ($lib)"
	done
else
	echo "ok $((tap_n + 1)) # SKIP not on Debian 12 with dpkg and objdump"; tap_n=$((tap_n + 1))
fi

# ---- make uninstall removes every file make install put there ----
if env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$B" uninstall DESTDIR="$ROOT" >"$T/un.log" 2>&1; then
	is "$(cd "$ROOT" && find . -type f | head -5)" "" "make uninstall leaves no file in DESTDIR"
else
	ok 1 "make uninstall succeeds"; tail -10 "$T/un.log" | sed 's/^/#   /'
fi
done_testing
