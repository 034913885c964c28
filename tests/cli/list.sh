#!/bin/sh
# list: filters, --all, --json shape.
. "$(dirname "$0")/setup.sh"
. "$TESTDIR/fixture.sh"
install_tree
"$SR" index >/dev/null

"$SR" list --json >"$T/l.json"
is "$(json 'j.map(e=>e.name).sort().join()' <"$T/l.json")" \
	"agent:reviewer,alpha,bad-name,beta,cmd:git:commit,crlf,flagged" \
	"list: winners only, user-only and shadowed entries hidden"
for k in name kind trust scope path description tags; do
	is "$(json "j.every(e=>'$k' in e)" <"$T/l.json")" true "list --json: every entry has $k"
done
is "$(json 'j.find(e=>e.name=="alpha").tags.join()' <"$T/l.json")" "pdf,docs" "tags are lower-cased"
is "$(json 'j.find(e=>e.name=="beta").tags.join()' <"$T/l.json")" "git,release" "metadata.radar hub-tags are read"
is "$(json 'j.find(e=>e.name=="alpha").scope' <"$T/l.json")" "user" "scope of a home skill is user"
is "$("$SR" list --json --kind agent | json 'j.map(e=>e.name).join()')" "agent:reviewer" "--kind agent"
is "$("$SR" list --json --kind command | json 'j.map(e=>e.name).join()')" "cmd:git:commit" "--kind command, nested namespace"
is "$("$SR" list --json --tag PDF | json 'j.map(e=>e.name).join()')" "alpha" "--tag is case-insensitive"
is "$("$SR" list --json --tier untrusted | json 'j.length')" 0 "--tier untrusted: the clone is shadowed"
is "$("$SR" list --json --all --tier untrusted | json 'j.map(e=>e.shadowed_by).join()')" \
	"$HOME/.claude/skills/alpha/SKILL.md" "--all shows the shadowed clone and its winner"
is "$("$SR" list --json --all | json 'j.find(e=>e.name=="user-only").user_only')" true "--all shows user-only skills"
is "$("$SR" list --json --flagged | json 'j.map(e=>e.name).join()')" "flagged" "--flagged lists the flagged skill"
out=$("$SR" list 2>/dev/null)
contains "$out" "alpha" "text output lists names"
contains "$out" "[risk: " "text output marks a flagged skill with its risk"
status 2 "--kind with a bad value" "$SR" list --kind plugin
contains "$(cat "$T/.out")" "not one of skill, agent, command" "the message names the valid kinds"
status 2 "--tier with a bad value" "$SR" list --tier sudo
status 2 "stray argument" "$SR" list extra

# Terminal escapes in a name or a folder are spelt out, never printed raw
# (issue 32): ESC clears the screen or forges a row, BEL ends a title.
ESC=$(printf '\033')
BEL=$(printf '\007')
E="$HOME/.claude/skills/evil${ESC}[2J${BEL}"
mkdir -p "$E" "$HOME/.claude/skills/forged"
printf -- '---\ndescription: A folder named with terminal escapes in it.\n---\nBody\n' >"$E/SKILL.md"
printf -- '---\nname: "forged\\u001b[32m TRUSTED"\ndescription: A name with terminal escapes in it.\n---\nBody\n' \
	>"$HOME/.claude/skills/forged/SKILL.md"
"$SR" index >/dev/null 2>&1
for c in "list" "list --all" "search terminal escapes" "validate $E $HOME/.claude/skills/forged"; do
	out=$($SR $c 2>&1 || true)
	lacks "$out" "$ESC" "${c%% /*} prints no raw ESC"
	lacks "$out" "$BEL" "${c%% /*} prints no raw BEL"
done
contains "$("$SR" list 2>&1)" 'evil\x1b[2J\x07' "list spells the escapes out"
done_testing
