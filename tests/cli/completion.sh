#!/bin/sh
# The bash and zsh completions know every command and long option that
# `skills-radar --help` and `COMMAND --help` show; the systemd user unit
# is valid and runs what the help offers.
. "$(dirname "$0")/setup.sh"
BASH_COMP="$TOP_SRCDIR/config/completions/skills-radar.bash"
ZSH_COMP="$TOP_SRCDIR/config/completions/_skills-radar"
UNIT="$TOP_SRCDIR/config/systemd/skills-radar.service"

# complete WORD...: what bash completes for the last word.
complete_words() {
	bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1));
	    _skills_radar; printf "%s\n" "${COMPREPLY[@]}"' sh "$BASH_COMP" "$@"
}
has_line() {	# has_line TEXT LINE DESCRIPTION
	if printf '%s\n' "$1" | grep -qxF -- "$2"; then ok 0 "$3"; else ok 1 "$3"; echo "#   '$2' not offered:"; printf '%s\n' "$1" | head -20 | sed 's/^/#     /'; fi
}

check "bash -n accepts the bash completion" bash -n "$BASH_COMP"
cmds=$("$SR" --help | awk '/^commands:/{f=1;next} f&&/^  /{print $1} f&&!NF{exit}')
ok "$([ -n "$cmds" ]; echo $?)" "--help lists commands"
top=$(complete_words "$SR" "")
for cmd in $cmds; do
	has_line "$top" "$cmd" "bash completes the command '$cmd'"
	grep -q "^		'$cmd:" "$ZSH_COMP" && r=0 || r=1
	ok $r "zsh completes the command '$cmd'"
	usage=$("$SR" "$cmd" --help | head -1)
	got=$(complete_words "$SR" "$cmd" "--")
	for opt in $(printf '%s\n' "$usage" | grep -o -- '--[a-z-]*' | sort -u); do
		has_line "$got" "$opt" "bash completes $cmd $opt"
		grep -q -- "'[(]*[^']*)*$opt\[" "$ZSH_COMP" && r=0 || r=1
		ok $r "zsh completes $cmd $opt"
	done
done
has_line "$(complete_words "$SR" "--c")" "--config" "bash completes the global --config"
has_line "$(complete_words "$SR" client "")" add "bash: client actions"
has_line "$(complete_words "$SR" client add "")" codex "bash: client names"
has_line "$(complete_words "$SR" client add cursor --scope "")" project "bash: --scope values"
has_line "$(complete_words "$SR" serve --transport "")" http "bash: --transport values"
has_line "$(complete_words "$SR" scan --fail-on "")" never "bash: --fail-on values"
has_line "$(complete_words "$SR" --config /dev/null list --kind "")" agent "bash: skips the global --config FILE"
export SKILL_PATHS="$TOP_SRCDIR/config/examples"
"$SR" index >/dev/null
has_line "$(complete_words "$SR" load "")" pdf-form-filler "bash: load completes skill names from the index"
has_line "$(complete_words "$SR" read pdf "")" "" "bash: read's second argument is not a skill name"
unset SKILL_PATHS
if command -v zsh >/dev/null 2>&1; then
	check "zsh -n accepts the zsh completion" zsh -n "$ZSH_COMP"
else
	skip_one "zsh is not installed"
fi
check "the zsh completion starts with #compdef" sh -c 'head -1 "$1" | grep -qx "#compdef skills-radar"' sh "$ZSH_COMP"

# ---- the systemd user unit ----
exec_start=$(sed -n 's/^ExecStart=//p' "$UNIT")
contains "$exec_start" "/usr/local/bin/skills-radar serve --transport http" "unit: ExecStart serves over HTTP"
if "$SR" serve --help | head -1 | grep -q -- '--watch'; then
	contains "$exec_start" "--watch" "unit: serve has --watch, the unit uses it"
else
	lacks "$exec_start" "--watch" "unit: serve has no --watch, the unit does not pass it"
fi
contains "$("$SR" serve --help | head -1)" "--transport stdio|http" "unit: serve --help offers --transport http"
if command -v systemd-analyze >/dev/null 2>&1; then
	sed "s|/usr/local/bin/skills-radar|$SR|g" "$UNIT" >"$T/skills-radar.service"
	check "systemd-analyze verify accepts the unit" systemd-analyze verify --man=no "$T/skills-radar.service"
	# The team's units: a replica template (instance: the port) and the writer.
	sed "s|/usr/local/bin/skills-radar|$SR|g" "$TOP_SRCDIR/config/systemd/skills-radar@.service" >"$T/skills-radar@6581.service"
	sed "s|/usr/local/bin/skills-radar|$SR|g" "$TOP_SRCDIR/config/systemd/skills-radar-writer.service" >"$T/skills-radar-writer.service"
	check "systemd-analyze verify accepts the replica template" systemd-analyze verify --man=no "$T/skills-radar@6581.service"
	check "systemd-analyze verify accepts the writer unit" systemd-analyze verify --man=no "$T/skills-radar-writer.service"
else
	skip_one "systemd-analyze is not installed"
fi
contains "$(sed -n 's/^ExecStart=//p' "$TOP_SRCDIR/config/systemd/skills-radar@.service")" "serve --transport http --host 127.0.0.1 --port %i" "replica template: serves HTTP on the instance's port"
lacks "$(sed -n 's/^ExecStart=//p' "$TOP_SRCDIR/config/systemd/skills-radar@.service")" "--watch" "replica template: a replica does not watch (it follows the writer)"
contains "$(sed -n 's/^ExecStart=//p' "$TOP_SRCDIR/config/systemd/skills-radar-writer.service")" "index --watch" "writer unit: index --watch"
done_testing
