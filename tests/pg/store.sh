#!/bin/sh
# The backend-neutral store tests (tests/unit/test_store_api, which make
# check also runs on SQLite) on a throwaway PostgreSQL cluster. Skips
# (TAP "1..0 # SKIP") when PostgreSQL is not installed.
. "${TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/cli/setup.sh"
. "$TOP_SRCDIR/tests/pg/cluster.sh"
trap 'pg_stop; rm -rf "$T"' EXIT INT TERM
: "${TOP_BUILDDIR:=$TOP_SRCDIR}"
pg_start "$T" >"$T/pg.out" 2>&1 ||
	skip_all "no PostgreSQL cluster: $(head -1 "$T/pg.out")"
SR_TEST_DSN=$SR_TEST_DSN "$TOP_BUILDDIR/tests/unit/test_store_api"
