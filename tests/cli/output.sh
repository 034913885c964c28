#!/bin/sh
# Output that is what it claims: every JSON answer is valid UTF-8 (a page
# never starts inside a character, bad bytes are repaired on the way out,
# a message that is not UTF-8 is refused), a NUL inside a string is
# refused instead of cutting the string, a batch waits for the start-up
# rescan like a single message, and null is not an integer.
. "$(dirname "$0")/setup.sh"

need node

R="$T/skills"
mkdir -p "$R/board" "$R/utf/references" "$R/caf$(printf '\377')"
printf -- '---\nname: board\ndescription: Plans the sprint board.\n---\nMove cards left to right.\n' >"$R/board/SKILL.md"
printf -- '---\nname: utf\ndescription: Writes about caf\303\251s.\n---\n\303\251\303\251\303\251 \342\202\254 done.\n' >"$R/utf/SKILL.md"
printf 'Notes.\n' >"$R/utf/references/x.md"
printf -- '---\nname: latin\ndescription: A skill in a folder whose name is not UTF-8.\n---\nBody.\n' >"$R/caf$(printf '\377')/SKILL.md"
export SKILL_PATHS="$R"
mkdir -p "$XDG_CONFIG_HOME/skills-radar"
printf 'scan:\n  project_roots: false\n' >"$XDG_CONFIG_HOME/skills-radar/config.yaml"
"$SR" index >/dev/null 2>&1

# valid FILE: every line of FILE is JSON and valid UTF-8 ("yes"/"no ...")
cat >"$T/valid.js" <<'EOJ'
const fs = require("fs");
const buf = fs.readFileSync(process.argv[2]);
try {
	const text = new TextDecoder("utf-8", { fatal: true }).decode(buf);
	for (const l of text.split("\n").filter((x) => x.length))
		JSON.parse(l);
	console.log("yes");
} catch (e) {
	console.log("no " + e.message);
}
EOJ
valid() { node "$T/valid.js" "$1"; }

INIT='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"sh","version":"1"}}}'
call() {	# call ID TOOL ARGS-JSON: one tools/call line
	printf '{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":{"name":"%s","arguments":%s}}' "$1" "$2" "$3"
}

# 1. Pages and offsets: "é" is 2 bytes, so offset 1 is inside it.
{ echo "$INIT"
  call 2 load_skill '{"name":"utf","offset":1}'; echo
  call 3 load_skill '{"name":"utf","offset":0,"max_bytes":1}'; echo
  call 4 load_skill '{"name":"utf","offset":2,"max_bytes":3}'; echo
} | "$SR" serve >"$T/o1" 2>/dev/null
is "$(valid "$T/o1")" yes "load_skill pages: every answer is valid JSON in valid UTF-8"
contains "$(sed -n 2p "$T/o1")" 'inside a multi-byte character' "an offset inside a character is refused, saying why"
contains "$(sed -n 2p "$T/o1")" '"isError":true' "... as a tool error"
contains "$(sed -n 3p "$T/o1")" '"content":"é"' "a page smaller than a character holds that whole character"
contains "$(sed -n 4p "$T/o1")" '"content":"é"' "a page ends before a character it cannot hold"

# 2. A message that is not UTF-8 is refused; nothing broken is echoed.
{ echo "$INIT"
  printf '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search_skills","arguments":{"query":"caf\351 board"}}}\n'
  echo '{"jsonrpc":"2.0","id":3,"method":"ping"}'
} | "$SR" serve >"$T/o2" 2>/dev/null
is "$(valid "$T/o2")" yes "a Latin-1 query: the answers are valid UTF-8"
contains "$(sed -n 2p "$T/o2")" '"code":-32700' "a message that is not UTF-8 is a parse error"
contains "$(sed -n 2p "$T/o2")" 'not valid UTF-8' "... saying so"
contains "$(sed -n 3p "$T/o2")" '"id":3,"result":{}' "the server answers the next message"

# The CLI repairs what it prints: an argv query and a path that are not UTF-8.
"$SR" search --json "caf$(printf '\351') board" >"$T/s.json" 2>/dev/null || true
tr -d '\n' <"$T/s.json" >"$T/s1.json"; echo >>"$T/s1.json"
is "$(valid "$T/s1.json")" yes "search --json with a Latin-1 query prints valid UTF-8"
contains "$(cat "$T/s.json")" 'caf� board' "... the bad byte shown as U+FFFD"
"$SR" list --json >"$T/l.json" 2>/dev/null
tr -d '\n' <"$T/l.json" >"$T/l1.json"; echo >>"$T/l1.json"
is "$(valid "$T/l1.json")" yes "list --json with a path that is not UTF-8 prints valid UTF-8"
contains "$(cat "$T/l.json")" 'caf�/SKILL.md' "... the path's bad byte shown as U+FFFD"

# 3. NUL in a string is refused, with the request's id; "\\u0000" is not a NUL.
{ echo "$INIT"
  call 2 read_skill_file '{"name":"utf","path":"references/x.md\u0000.png"}'; echo
  call 3 load_skill '{"name":"board\u0000zzz"}'; echo
  call 4 search_skills '{"query":"a\u0000b"}'; echo
  call 5 search_skills '{"query":"plan the sprint board \\u0000"}'; echo
  call 6 read_skill_file '{"name":"utf","path":"references/x.md"}'; echo
} | "$SR" serve >"$T/o3" 2>/dev/null
for n in 2 3 4; do
	contains "$(sed -n ${n}p "$T/o3")" "\"id\":$n,\"error\":{\"code\":-32602" "NUL in request $n: invalid params, with its id"
done
contains "$(sed -n 2p "$T/o3")" 'U+0000' "... saying a string holds U+0000"
contains "$(sed -n 5p "$T/o3")" '"matches":[{"name":"board"' "an escaped backslash before u0000 is text, not a NUL"
contains "$(sed -n 6p "$T/o3")" 'Notes.' "the file itself still reads"

# 4. null is not an integer (the schema says integer), like "5" is not.
{ echo "$INIT"
  call 2 search_skills '{"query":"board","top_k":null}'; echo
  call 3 search_skills '{"query":"board","top_k":"5"}'; echo
} | "$SR" serve >"$T/o4" 2>/dev/null
contains "$(sed -n 2p "$T/o4")" "'top_k' must be an integer, not null" "top_k: null is refused, saying why"
contains "$(sed -n 3p "$T/o4")" "'top_k' must be an integer, not a string" "top_k: \"5\" is refused the same way"

# 5. A batch waits for the start-up rescan: a skill added after the last
# index is found by resources/read in a batch right after initialize.
G="$T/many"
i=0
while [ $i -lt 2000 ]; do
	mkdir -p "$G/s$i"
	printf -- '---\nname: s%d\ndescription: Generated skill number %d for the rescan.\n---\nBody %d.\n' $i $i $i >"$G/s$i/SKILL.md"
	i=$((i + 1))
done
SKILL_PATHS="$G" "$SR" index >/dev/null 2>&1
mkdir -p "$G/fresh"
printf -- '---\nname: fresh\ndescription: Added after the last index run.\n---\nFresh body.\n' >"$G/fresh/SKILL.md"
{ echo "$INIT"
  echo '[{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"skill://fresh/SKILL.md"}}]'
} | SKILL_PATHS="$G" "$SR" serve >"$T/o5" 2>/dev/null
contains "$(sed -n 2p "$T/o5")" 'Fresh body.' "a batch is answered after the start-up rescan (the new skill is served)"

done_testing
