#!/bin/sh
# No cycles between modules: a module (x.c with its x.h) that includes the
# header of another module depends on it, and tsort(1) finds any loop in
# those dependencies. The commands (cmd_*.c, main.c) sit on top and are
# left out; a private x_impl.h belongs to its module.
. "$(dirname "$0")/setup.sh"

cd "$TOP_SRCDIR"
for f in src/*/*.c; do
	basename "$f" .c
done | sort -u >"$T/modules"
for f in src/*/*.c; do
	m=$(basename "$f" .c)
	case "$m" in cmd_*|main) continue ;; esac
	echo "$m $m"
	sed -n 's/^#include "\([^"]*\)\.h".*/\1/p' "$f" | while read -r h; do
		h=$(basename "$h")
		h=${h%_impl}
		[ "$h" = "$m" ] && continue
		grep -qx "$h" "$T/modules" && echo "$m $h"
	done
done >"$T/deps"
ok "$([ "$(wc -l <"$T/modules")" -gt 40 ]; echo $?)" "the module list was read ($(wc -l <"$T/modules") modules)"
ok "$([ "$(awk '$1 != $2' "$T/deps" | wc -l)" -gt 40 ]; echo $?)" "the include graph was read ($(awk '$1 != $2' "$T/deps" | wc -l) edges)"
if tsort "$T/deps" >"$T/order" 2>"$T/loops"; then
	ok 0 "the modules' include graph has no cycle"
else
	ok 1 "the modules' include graph has no cycle"
	sed 's/^/#   /' "$T/loops"
fi

# The check itself catches a cycle.
printf 'a b\nb c\nc a\n' >"$T/loop"
set +e
tsort "$T/loop" >/dev/null 2>&1
rc=$?
set -e
ok "$([ "$rc" -ne 0 ]; echo $?)" "tsort reports a cycle when there is one"

done_testing
