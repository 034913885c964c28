#!/bin/sh
# The bundled data files: example config current, examples clean.
. "$(dirname "$0")/setup.sh"
: "${TOP_SRCDIR:?}"
"$SR" config-init --stdout >"$T/cfg.yaml"
if cmp -s "$T/cfg.yaml" "$TOP_SRCDIR/config/config.yaml.example"; then ok 0 "config/config.yaml.example is what config-init writes"
else ok 1 "config/config.yaml.example is what config-init writes (regenerate it with config-init --stdout)"; diff "$T/cfg.yaml" "$TOP_SRCDIR/config/config.yaml.example" | head -20 | sed 's/^/#   /'; fi
status 0 "the example config loads" "$SR" --config "$TOP_SRCDIR/config/config.yaml.example" doctor --json
"$SR" validate --json "$TOP_SRCDIR/config/examples" >"$T/v.json"; ok $? "the example skills validate"
. "$TESTDIR/fixture.sh"
is "$(json 'j.rejected.length+","+j.warnings.length+","+j.flagged_entries.length' <"$T/v.json")" "0,0,0" \
	"the example skills raise no rejection, warning or flag"
is "$(json 'j.total' <"$T/v.json")" 8 "eight example entries (6 skills, an agent, a command)"
done_testing
