#!/bin/sh
# A PostgreSQL store written at schema 2 (before the risk columns) is
# migrated forward on open and its entries are assessed by the next index.
# The schema 2 text is tests/data/risk/schema-v2.sql in the PostgreSQL
# dialect (the key a BIGSERIAL, 64-bit columns BIGINT), as store_pg.c
# wrote it. Skips (TAP "1..0 # SKIP") without PostgreSQL.
. "${TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/cli/setup.sh"
. "$TOP_SRCDIR/tests/pg/cluster.sh"
. "$TESTDIR/../cli/fixture.sh"
trap 'pg_stop; rm -rf "$T"' EXIT INT TERM
pg_start "$T" >"$T/pg.out" 2>&1 ||
	skip_all "no PostgreSQL cluster: $(head -1 "$T/pg.out")"
psql() { pg_as "$pg_bin/psql" -X -q -t -A -v ON_ERROR_STOP=1 -h "$pg_dir/sock" -U postgres sr "$@"; }

C="$T/share"
mkdir -p "$C" "$XDG_CONFIG_HOME/skills-radar"
cp -R "$DATA/risk/skills/hostile-desc" "$DATA/risk/skills/script-attack" "$C/"
cat >"$XDG_CONFIG_HOME/skills-radar/config.yaml" <<EOC
paths:
  - $C
scan:
  project_roots: false
store:
  backend: postgres
EOC
export SKILLS_RADAR_DSN="$SR_TEST_DSN"
sed -e "s|@C@|$C|g" -e '/^PRAGMA/d' \
    -e 's/id INTEGER PRIMARY KEY/id BIGSERIAL PRIMARY KEY/' \
    -e 's/\(size\|mtime_ns\|version\|counter\) INTEGER/\1 BIGINT/' \
    -e 's/seen INTEGER/seen BIGINT/' \
    "$DATA/risk/schema-v2.sql" >"$T/v2.sql"
psql -f "$T/v2.sql" >"$T/psql.out" 2>&1
ok $? "a schema 2 store"
is "$(psql -c "SELECT value FROM meta WHERE key = 'schema'")" 2 "meta says schema 2"

is "$("$SR" list --json 2>/dev/null | json 'j.map(e=>e.name+":"+e.risk.severity).join()')" \
	"hostile-desc:info" "list migrates it: the old entry, not yet assessed"
is "$(psql -c "SELECT value FROM meta WHERE key = 'schema'")" 3 "meta says schema 3"
is "$(psql -c "SELECT count(*) FROM information_schema.columns WHERE table_name = 'entries' AND column_name IN ('risk','risk_sev','findings','bundle')")" 4 \
	"the entries table has the risk columns"
check "index after the migration" "$SR" index
"$SR" list --json >"$T/list.json"
is "$(json 'j.map(e=>e.name).sort().join()' <"$T/list.json")" "hostile-desc,script-attack" "both skills are indexed"
is "$(json 'j.every(e=>e.risk.severity=="warn"||e.risk.severity=="high")' <"$T/list.json")" true \
	"the old entry and the new one are assessed"
is "$(psql -c "SELECT count(*) FROM entries WHERE findings LIKE '%scripts/setup.sh%'")" 1 \
	"the store keeps findings with their file"
is "$("$SR" load --json script-attack | json 'j.warnings.some(w=>w.file=="scripts/setup.sh"&&w.line==4)')" true \
	"load lists the bundled file's finding from the postgres store"
done_testing
