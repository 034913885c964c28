#!/bin/sh
# validate: lint without touching the index.
. "$(dirname "$0")/setup.sh"
. "$TESTDIR/fixture.sh"
install_tree

status 1 "validate exits 1 when something is rejected" "$SR" validate
contains "$(cat "$T/.out")" "bad-name/SKILL.md" "the rejected file is named"
ok "$([ ! -e "$XDG_DATA_HOME/skills-radar/index.db" ]; echo $?)" "validate does not create index.db"
status 0 "validate of a good file exits 0" "$SR" validate "$HOME/.claude/skills/alpha/SKILL.md"
status 1 "validate of a bad file exits 1" "$SR" validate "$HOME/.claude/skills/no-desc/SKILL.md"
"$SR" validate --json "$HOME/.claude/skills" >"$T/v.json" || true
is "$(json 'j.rejected.length' <"$T/v.json")" 2 "validate --json DIR lists the rejections"
is "$(json 'j.rejected.every(r=>r.path&&r.rule&&r.reason)' <"$T/v.json")" true "each rejection has path, rule, reason"
is "$(json 'j.flagged_entries.map(f=>f.path.split("/").slice(-2)[0]).join()' <"$T/v.json")" "flagged" "validate reports flagged skills"
status 4 "validate of a missing path" "$SR" validate /nonexistent/SKILL.md
done_testing
