#!/bin/sh
# doctor: roots, index state, staleness.
. "$(dirname "$0")/setup.sh"
. "$TESTDIR/fixture.sh"
install_tree
echo "  - $T/does-not-exist" >"$T/extra"
sed -i "/^  - \/.*clones\$/r $T/extra" "$XDG_CONFIG_HOME/skills-radar/config.yaml"

"$SR" doctor --json >"$T/d.json" || true
is "$(json 'j.index.exists' <"$T/d.json")" false "doctor: no index yet"
is "$(json 'j.roots.find(r=>r.path.endsWith("does-not-exist")).exists' <"$T/d.json")" false "doctor: a missing root is reported"
is "$(json 'j.roots.find(r=>r.path.endsWith("/.claude/skills")).entries' <"$T/d.json")" 7 "doctor: entries per root"
is "$(json 'j.sanitizer_patterns>0' <"$T/d.json")" true "doctor: the sanitiser catalogue is loaded"
"$SR" index >/dev/null
is "$("$SR" doctor --json | json 'j.index.stale+","+j.index.entries')" "false,9" "doctor: fresh index after index"
mkdir -p "$HOME/.claude/skills/newone"
printf -- '---\nname: newone\ndescription: New.\n---\n' >"$HOME/.claude/skills/newone/SKILL.md"
is "$("$SR" doctor --json | json 'j.index.stale+","+j.index.new_files')" "true,1" "doctor: a new file makes the index stale"
out=$("$SR" doctor)
contains "$out" "stale" "doctor text says stale"
contains "$out" "config:" "doctor text shows the config in use"
status 2 "doctor rejects arguments" "$SR" doctor extra
done_testing
