#!/bin/sh
# Runs bench_telemetry_pg against a throwaway PostgreSQL cluster (skipped
# when PostgreSQL is not installed). BENCH_TM_CALLS, BENCH_TM_BURST.
set -u
: "${TOP_BUILDDIR:=.}"
: "${TOP_SRCDIR:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$TOP_SRCDIR/tests/pg/cluster.sh"
d=$(mktemp -d "${TMPDIR:-/tmp}/sr-bench-pg.XXXXXX")
trap 'pg_stop; rm -rf "$d"' EXIT INT TERM
if ! pg_start "$d" >/dev/null; then
	echo "skipped: PostgreSQL is not installed"
	exit 0
fi
"$TOP_BUILDDIR/tests/bench/bench_telemetry_pg" "$SR_TEST_DSN" "$d/stats.db" \
    "${BENCH_TM_CALLS:-20000}" "${BENCH_TM_BURST:-50000}"
