#!/bin/sh
# Files we did not create that are not regular files (a FIFO in place of
# SKILL.md, a bundled file or the config file) are refused at once with a
# clear message, never read: a read would block for ever. timeout turns a
# regression into a failure instead of a hang. Also: the limit a file
# meets under limits.allow_large, and path '.' in read.
. "$(dirname "$0")/setup.sh"

R="$T/roots"
mkdir -p "$R/ok/references" "$XDG_CONFIG_HOME/skills-radar"
export SKILL_PATHS="$R"
printf -- '---\nname: ok\ndescription: A skill whose file turns into a FIFO.\n---\nOk body.\n' >"$R/ok/SKILL.md"
printf 'Guide.\n' >"$R/ok/references/guide.md"
cat >"$XDG_CONFIG_HOME/skills-radar/config.yaml" <<EOC
scan:
  project_roots: false
EOC
"$SR" index >/dev/null
is "$("$SR" read ok references/guide.md)" "Guide." "a bundled regular file reads"

# read of '.': the folder itself, not a symlink out of it
status 6 "read '.' is refused" timeout 30 "$SR" read ok .
contains "$(cat "$T/.out")" "is the skill folder itself, a directory" "read '.' says it is the folder, a directory"
lacks "$(cat "$T/.out")" "symlink" "read '.' does not claim a symlink"
status 6 "read './' is refused" timeout 30 "$SR" read ok ./
contains "$(cat "$T/.out")" "a directory" "read './' says it is a directory"

# a FIFO bundled file
mkfifo "$R/ok/references/pipe.md"
status 6 "read of a FIFO bundled file is refused" timeout 30 "$SR" read ok references/pipe.md
contains "$(cat "$T/.out")" "not a regular file (a FIFO)" "... saying it is a FIFO"
rm "$R/ok/references/pipe.md"

INIT='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"sh","version":"1"}}}'
LOAD='"method":"tools/call","params":{"name":"load_skill","arguments":{"name":"ok"}}}'
lines() { wc -l <"$1" | tr -d ' '; }
wait_lines() {	# wait_lines FILE N: until FILE has N lines, at most ~30 s
	_i=0
	while [ "$(lines "$1")" -lt "$2" ] && [ $_i -lt 300 ]; do
		sleep 0.1; _i=$((_i + 1))
	done
}

# A stdio server running while SKILL.md turns into a FIFO: the load is a
# tool error and the server goes on answering.
mkfifo "$T/in"
: >"$T/out"
timeout 30 "$SR" serve --transport stdio <"$T/in" >"$T/out" 2>"$T/err" &
srv=$!
exec 3>"$T/in"
printf '%s\n' "$INIT" "{\"jsonrpc\":\"2.0\",\"id\":2,$LOAD" >&3
wait_lines "$T/out" 2
contains "$(sed -n 2p "$T/out")" "Ok body." "the server loads the regular SKILL.md"
rm "$R/ok/SKILL.md"
mkfifo "$R/ok/SKILL.md"
printf '%s\n' "{\"jsonrpc\":\"2.0\",\"id\":3,$LOAD" \
	'{"jsonrpc":"2.0","id":4,"method":"ping"}' >&3
wait_lines "$T/out" 4
exec 3>&-
set +e; wait $srv; rc=$?; set -e
is "$rc" 0 "the server ends by itself at EOF"
contains "$(sed -n 3p "$T/out")" '"id":3,"result":{"content":[{"type":"text","text":' "load_skill of the FIFO is answered"
contains "$(sed -n 3p "$T/out")" 'not a regular file (a FIFO)' "... with an error saying it is a FIFO"
contains "$(sed -n 3p "$T/out")" '"isError":true' "... as a tool error"
contains "$(sed -n 4p "$T/out")" '"id":4,"result":{}' "ping is answered after it"

# The CLI load of the FIFO SKILL.md
status 6 "load of a FIFO SKILL.md is refused at once" timeout 30 "$SR" load ok
contains "$(cat "$T/.out")" "not a regular file (a FIFO)" "... saying it is a FIFO"

# mini-index reads the body of a skill whose description gives no
# keywords: a FIFO there must not block it
mkdir -p "$R/q"
printf -- '---\nname: q\ndescription: the a of\n---\nGlue parquet shards into one table.\n' >"$R/q/SKILL.md"
"$SR" index >/dev/null
contains "$("$SR" mini-index --stdout)" "q: Glue parquet shards" "mini-index takes a gist from the body"
rm "$R/q/SKILL.md"
mkfifo "$R/q/SKILL.md"
status 0 "mini-index with a FIFO SKILL.md ends at once" timeout 30 "$SR" mini-index --stdout
contains "$(cat "$T/.out")" "- q" "... and still lists the skill"
rm -r "$R/q"

# --config naming a FIFO
mkfifo "$T/config.yaml"
status 3 "--config naming a FIFO fails at once" timeout 30 "$SR" --config "$T/config.yaml" list
contains "$(cat "$T/.out")" "not a regular file (a FIFO)" "... saying it is a FIFO"
status 3 "--config naming a directory fails" timeout 30 "$SR" --config "$T" list
contains "$(cat "$T/.out")" "Is a directory" "... saying it is a directory"
status 0 "--config /dev/null still gives the defaults" timeout 30 "$SR" --config /dev/null list

# limits.allow_large still caps a skill file at 16 MiB, and says so
rm "$R/ok/SKILL.md"
printf -- '---\nname: ok\ndescription: A skill that grows past every cap.\n---\nOk body.\n' >"$R/ok/SKILL.md"
printf 'limits:\n  allow_large: true\n' >>"$XDG_CONFIG_HOME/skills-radar/config.yaml"
"$SR" index >/dev/null
truncate -s 17M "$R/ok/SKILL.md"
status 6 "a file over 16 MiB is refused under allow_large" timeout 30 "$SR" load ok
contains "$(cat "$T/.out")" "over 16 MiB, the limit for a skill file even with limits.allow_large" \
	"... naming the real cap"
lacks "$(cat "$T/.out")" "set limits.allow_large" "... not telling to set what is set"

done_testing
