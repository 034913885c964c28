#!/bin/sh
# A suite that cannot run for want of a tool skips outside CI and fails
# under CI=true, where .ci/deps installs every tool: a green CI run never
# hides a suite that did not run.
. "$(dirname "$0")/setup.sh"

cat >"$T/suite.sh" <<EOS
. "$TOP_SRCDIR/tests/cli/setup.sh"
need sh no-such-command-skills-radar
ok 0 "unreachable"
done_testing
EOS
set +e
out=$(env -u CI SR="$SR" TOP_SRCDIR="$TOP_SRCDIR" sh "$T/suite.sh" 2>&1)
rc=$?
ci=$(CI=true SR="$SR" TOP_SRCDIR="$TOP_SRCDIR" sh "$T/suite.sh" 2>&1)
circ=$?
set -e
is "$rc" 0 "a missing tool outside CI: the suite exits 0"
is "$out" "1..0 # SKIP no-such-command-skills-radar is not installed" "... as a TAP skip naming the tool"
is "$circ" 1 "the same under CI=true: the suite fails"
contains "$ci" "not ok 1 - no-such-command-skills-radar is not installed" "... with a failing test naming the tool"
done_testing
