#!/bin/sh
# A full disk, or a directory where the -shm cannot be created: with
# index.db and stats.db in WAL mode and no -shm yet, search, list, serve,
# stats and doctor read them read-only, and what cannot be written says
# "disk full" (issue 21, item 7).
# The full disk is a 1 MiB tmpfs, mounted when the test runs as root (as
# CI does): skipped when mount is not allowed. The read-only directory
# makes the -shm impossible to create the same way and runs when not
# root (root ignores the permission).
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/cli/setup.sh"

CONF="$XDG_CONFIG_HOME/skills-radar/config.yaml"
mkdir -p "$XDG_CONFIG_HOME/skills-radar" "$T/skills/pdf"
printf 'telemetry:\n  enabled: true\n' >"$CONF"
printf -- '---\nname: pdf\ndescription: Read and fill PDF forms.\n---\nBody.\n' \
	>"$T/skills/pdf/SKILL.md"
SKILL_PATHS="$T/skills"
export SKILL_PATHS COLUMNS=100
INIT='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}'
CALL='{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search_skills","arguments":{"query":"pdf"}}}'

# Index and record a search in DIR, then check that neither -shm is left.
prepare() {
	XDG_DATA_HOME=$1
	export XDG_DATA_HOME
	D="$XDG_DATA_HOME/skills-radar"
	check "$2: index" "$SR" index
	check "$2: a search recorded" "$SR" search pdf
	ok "$([ ! -e "$D/index.db-shm" ] && [ ! -e "$D/stats.db-shm" ]; echo $?)" \
	    "$2: no -shm left after a clean exit"
}

# The reads that must work on the prepared, now unwritable, directory.
reads() {
	status 0 "$1: search exits 0" "$SR" search pdf
	contains "$(cat "$T/.out")" "Read and fill PDF forms" "$1: search finds pdf"
	lacks "$(cat "$T/.out")" "disk I/O error" "$1: search: no disk I/O error"
	status 0 "$1: list exits 0" "$SR" list
	contains "$(cat "$T/.out")" "pdf" "$1: list lists pdf"
	printf '%s\n%s\n' "$INIT" "$CALL" >"$T/in"
	set +e; "$SR" serve <"$T/in" >"$T/sout" 2>"$T/serr"; s=$?; set -e
	is "$s" 0 "$1: serve runs and ends at EOF"
	contains "$(cat "$T/sout")" '\"name\":\"pdf\"' "$1: serve answers a search"
	status 0 "$1: stats exits 0" "$SR" stats
	lacks "$(cat "$T/.out")" "not a telemetry database" \
	    "$1: stats does not call stats.db a stranger"
	contains "$(cat "$T/.out")" "search" "$1: stats reports the recorded search"
	set +e; "$SR" doctor >"$T/.out" 2>&1; set -e
	lacks "$(cat "$T/.out")" "not a telemetry database" \
	    "$1: doctor does not call stats.db a stranger"
	lacks "$(cat "$T/.out")" "disk I/O error" "$1: doctor: no disk I/O error"
}

skip_n() {	# skip_n N REASON
	i=0
	while [ "$i" -lt "$1" ]; do skip_one "$2"; i=$((i + 1)); done
}

# --- a full disk (root only: a small tmpfs) ---------------------------------
FULL="$T/full"
mkdir -p "$FULL"
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=1m tmpfs "$FULL" 2>/dev/null; then
	trap 'umount "$FULL" 2>/dev/null || true; rm -rf "$T"' EXIT INT TERM
	prepare "$FULL/share" "full disk"
	dd if=/dev/zero of="$FULL/filler" bs=4096 2>/dev/null || true
	dd if=/dev/zero of="$FULL/x" bs=4096 count=1 2>/dev/null || true
	ok "$([ ! -s "$FULL/x" ]; echo $?)" "full disk: the tmpfs is full"
	reads "full disk"
	status 0 "full disk: search" "$SR" search pdf
	contains "$(cat "$T/.out")" "stats.db: disk full" \
	    "full disk: the telemetry warning says disk full"
	mkdir -p "$T/skills/docx"
	printf -- '---\nname: docx\ndescription: Word files.\n---\nBody.\n' \
		>"$T/skills/docx/SKILL.md"
	status 5 "full disk: index with a change exits 5" "$SR" index
	contains "$(cat "$T/.out")" "index.db: disk full" "  saying disk full"
	rm -rf "$T/skills/docx"
	umount "$FULL"
	trap 'rm -rf "$T"' EXIT INT TERM
else
	skip_n 20 "full disk: needs root and mount -t tmpfs"
fi

# --- a disk that fills while serve runs: the lost events are counted (issue 32)
# serve keeps stats.db open, the disk fills, its writer loses the next
# searches' events: they are said once on stderr, and doctor, run while
# serve still runs, counts them (meta cannot: it lives in the full file).
# Wait up to 60 s until file $1 has $2 lines (a sanitizer build on two
# busy cores took more than 10 s to answer its first call); a file not
# created yet has none.
lines_within() {
	i=0
	while [ "$(wc -l <"$1" 2>/dev/null || echo 0)" -lt "$2" ] && [ "$i" -lt 600 ]; do
		sleep 0.1; i=$((i + 1))
	done
}
FILL="$T/filling"
mkdir -p "$FILL"
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=1m tmpfs "$FILL" 2>/dev/null; then
	trap 'exec 3>&- 2>/dev/null; umount "$FILL" 2>/dev/null || true; rm -rf "$T"' EXIT INT TERM
	XDG_DATA_HOME="$FILL/share"
	export XDG_DATA_HOME
	check "filling disk: index" "$SR" index
	mkfifo "$T/fifo"
	# the output files first: opening the FIFO blocks until the writer
	# below opens it, and lines_within reads fout from then on
	"$SR" serve >"$T/fout" 2>"$T/ferr" <"$T/fifo" &
	SPID=$!
	exec 3>"$T/fifo"
	printf '%s\n%s\n' "$INIT" "$CALL" >&3
	lines_within "$T/fout" 2
	contains "$(cat "$T/fout")" '\"name\":\"pdf\"' "filling disk: serve answers"
	grep -q '"name":"pdf"' "$T/fout" || sed 's/^/#   serve: /' "$T/ferr" | tail -20
	tel() {	# telemetry's field $2 of doctor --json text $1
		printf '%s' "$1" | sed -n 's/.*"telemetry":{[^}]*"'"$2"'":\([0-9]*\).*/\1/p'
	}
	ev0=$(tel "$("$SR" doctor --json 2>/dev/null | tr -d ' \t\n')" events)
	dd if=/dev/zero of="$FILL/filler" bs=4096 2>/dev/null || true
	for id in 3 4 5 6 7; do
		printf '%s\n' "$(printf '%s' "$CALL" | sed "s/\"id\":2/\"id\":$id/")" >&3
	done
	lines_within "$T/fout" 7
	i=0
	while [ "$i" -lt 600 ]; do
		"$SR" doctor --json 2>/dev/null | tr -d ' \t\n' >"$T/dj" || true
		# SQLite may still place a row in a free page of the full
		# file: every one of the 5 events is either stored or counted.
		ev=$(tel "$(cat "$T/dj")" events); du=$(tel "$(cat "$T/dj")" dropped_unstored)
		[ -n "$du" ] && [ "$du" -gt 0 ] && [ $((ev - ev0 + du)) -eq 5 ] && break
		sleep 0.1; i=$((i + 1))
	done
	dr=$(tel "$(cat "$T/dj")" dropped)
	ok "$([ "${du:-0}" -gt 0 ] && [ $((ev - ev0 + du)) -eq 5 ]; echo $?)" \
	    "filling disk: doctor --json counts the lost events while serve runs (stored $((ev - ev0)), lost ${du:-0} of 5)"
	is "$dr" "$du" "  and dropped includes them"
	set +e; "$SR" doctor >"$T/.out" 2>&1; set -e
	contains "$(cat "$T/.out")" "$du dropped by writers ($du while stats.db" \
	    "filling disk: doctor's text reports them"
	printf '%s\n' "$(printf '%s' "$CALL" | sed 's/"id":2/"id":8/')" >&3
	lines_within "$T/fout" 8
	exec 3>&-
	set +e; wait "$SPID"; s=$?; set -e
	is "$s" 0 "filling disk: serve ends at EOF"
	is "$(grep -c 'events are being lost' "$T/ferr")" 1 \
	    "filling disk: serve says once on stderr that events are lost"
	umount "$FILL"
	trap 'rm -rf "$T"' EXIT INT TERM
else
	skip_n 7 "filling disk: needs root and mount -t tmpfs"
fi

# --- a file-size limit (ulimit -f): SIGXFSZ must not kill search (issue 32) -
XDG_DATA_HOME="$T/fsize"
export XDG_DATA_HOME
check "file-size limit: index" "$SR" index
set +e
(ulimit -f 1 && exec "$SR" search pdf) >"$T/.out" 2>&1
s=$?
set -e
is "$s" 0 "file-size limit: search is not killed by SIGXFSZ"
contains "$(cat "$T/.out")" "Read and fill PDF forms" "file-size limit: search still answers"
contains "$(cat "$T/.out")" "stats.db" "file-size limit: the telemetry loss is reported"

# --- a stats.db that never opens: its events are counted lost (issue 32) ----
# A directory where stats.db should be: the loss goes to stats.db-lost,
# which doctor reads.
XDG_DATA_HOME="$T/dirdb"
export XDG_DATA_HOME
check "stats.db a directory: index" "$SR" index
rm -f "$XDG_DATA_HOME/skills-radar/stats.db"*
mkdir "$XDG_DATA_HOME/skills-radar/stats.db"
set +e; "$SR" search pdf >"$T/.out" 2>"$T/.err"; s=$?; set -e
is "$s" 0 "stats.db a directory: search exits 0"
contains "$(cat "$T/.out")" "Read and fill PDF forms" "  and answers"
contains "$(cat "$T/.err")" "events are being lost (1 so far, counted for doctor)" \
    "  saying the event is lost and counted"
"$SR" load pdf >/dev/null 2>&1
is "$(cat "$XDG_DATA_HOME/skills-radar/stats.db-lost" 2>/dev/null | tr -s ' ')" "lost 2" \
    "  the search and the load counted in stats.db-lost"
set +e; "$SR" doctor >"$T/.out" 2>&1; set -e
contains "$(cat "$T/.out")" "not a regular file (2 events lost by writers that could not open it)" \
    "  doctor reports the two lost events"
# A file where stats.db's directory should be: nothing can be written
# beside it, so the loss is said, not counted.
: >"$T/afile"
printf 'telemetry:\n  enabled: true\n  db_path: %s\n' "$T/afile/stats.db" >"$CONF"
set +e; "$SR" search pdf >"$T/.out" 2>"$T/.err"; s=$?; set -e
printf 'telemetry:\n  enabled: true\n' >"$CONF"
is "$s" 0 "a file where stats.db's directory should be: search exits 0"
contains "$(cat "$T/.err")" "events are being lost (1 so far, the count could not be stored)" \
    "  saying the event is lost and that it could not be counted"

# --- a read-only directory (not root: root may write anyway) ------------------
if [ "$(id -u)" != 0 ]; then
	prepare "$T/ro" "read-only directory"
	chmod 0555 "$T/ro/skills-radar"
	reads "read-only directory"
	chmod 0755 "$T/ro/skills-radar"
else
	skip_n 15 "read-only directory: root ignores the permission"
fi

done_testing
