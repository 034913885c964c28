#!/bin/sh
# names: a skill whose name breaks the naming rule is indexed under a
# normalised id, shown and loadable as written; validate still reports
# it; validation.strict_names rejects it again (issue 19).
. "$(dirname "$0")/setup.sh"
. "$TESTDIR/fixture.sh"	# json()

cp -R "$DATA/names" "$T/skills"
rm -f "$T/skills/README"
# Precedence among the duplicates: the valid pdf-tools is the newer file.
touch -d '2020-01-01' "$T/skills/PDF Tools/SKILL.md"
touch -d '2021-01-01' "$T/skills/pdf-tools/SKILL.md"
export SKILL_PATHS="$T/skills"
mkdir -p "$XDG_CONFIG_HOME/skills-radar"
printf 'scan:\n  project_roots: false\n' >"$XDG_CONFIG_HOME/skills-radar/config.yaml"

"$SR" index --json >"$T/i.json"
is "$(json 'j.total' <"$T/i.json")" 6 "index: 6 entries, the bad names included"
is "$(json 'j.rejected.map(r=>r.rule).join()' <"$T/i.json")" "name-reserved" \
	"index: only the name that normalises to a reserved word is rejected"
is "$(json 'j.shadowed.map(s=>s.name+" "+s.path.replace(/.*skills\//,"")).join()' <"$T/i.json")" \
	"pdf-tools PDF Tools/SKILL.md" "index: PDF Tools and pdf-tools share an id; the newer file wins"
"$SR" -v index --rebuild >"$T/iv.txt" 2>&1 || true
contains "$(cat "$T/iv.txt")" 'name-normalised (warn): name "Telegram Bot Builder" breaks the naming rule (name-invalid); indexed as "telegram-bot-builder"' \
	"index -v: the warning has its rule id and the id"

"$SR" list --json >"$T/l.json"
is "$(json 'j.map(e=>e.name+"="+(e.display_name||"")).sort().join()' <"$T/l.json")" \
	"data-analysis=数据分析,pdf-tools=,pocketbase-deploy=PocketBase Deploy,sl-social-writer=sl_social-writer,telegram-bot-builder=Telegram Bot Builder" \
	"list --json: ids, and display_name only where the name was normalised"
contains "$("$SR" list)" "Telegram Bot Builder" "list: the name is shown as written"

# Search finds them by the words of the name as written.
"$SR" search --json "telegram bot builder" >"$T/s1.json"
is "$(json 'j.matches[0].name+"|"+j.matches[0].display_name' <"$T/s1.json")" \
	"telegram-bot-builder|Telegram Bot Builder" "search: a normalised skill ranks first for its name"
is "$("$SR" search --json "pocket base deploy" | json 'j.matches[0].name')" \
	"pocketbase-deploy" "search: the parts of PocketBase are indexed"
is "$("$SR" search --json "数据分析" | json 'j.matches[0].name')" \
	"data-analysis" "search: a CJK name is searchable though its id is the folder's"
contains "$("$SR" search "telegram bot")" "Telegram Bot Builder" "search: text output shows the name as written"

# Load by the id, by the name as written (any case), by a spelling that
# normalises to the id.
for n in telegram-bot-builder "Telegram Bot Builder" "telegram bot BUILDER" "Telegram_Bot_Builder"; do
	contains "$("$SR" load "$n" 2>&1)" "Register the bot with BotFather" "load '$n'"
done
is "$("$SR" load --json "Telegram Bot Builder" | json 'j.name+"|"+j.display_name')" \
	"telegram-bot-builder|Telegram Bot Builder" "load --json: the id and the name as written"
contains "$("$SR" load 数据分析 2>&1)" "先检查缺失值" "load: a CJK name as written"
contains "$("$SR" read "PocketBase Deploy" references/systemd.md 2>&1)" "Description=PocketBase" \
	"read: a bundled file of a skill named as written"
status 4 "load: Claude was rejected, so it is not found" "$SR" load Claude
status 4 "load: a misspelt name as written is not found" "$SR" load "Telegram Bot Buildr"
contains "$(cat "$T/.out")" "did you mean 'telegram-bot-builder'" "load: ... and the suggestion compares it as an id"

# MCP: load_skill and read_skill_file take either name.
INIT='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"sh","version":"1"}}}'
NOTE='{"jsonrpc":"2.0","method":"notifications/initialized"}'
printf '%s\n' "$INIT" "$NOTE" \
	'{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"load_skill","arguments":{"name":"PocketBase Deploy"}}}' \
	'{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"load_skill","arguments":{"name":"pocketbase-deploy"}}}' \
	'{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"read_skill_file","arguments":{"name":"PocketBase Deploy","path":"references/systemd.md"}}}' \
	>"$T/in"
"$SR" serve <"$T/in" >"$T/out" 2>"$T/err" || true
for id in 2 3; do
	contains "$(grep "\"id\":$id," "$T/out")" "See references/systemd.md" "MCP load_skill answers (request $id)"
done
contains "$(grep '"id":4,' "$T/out")" "Description=PocketBase" "MCP read_skill_file takes the name as written"

# validate: still an error for authors, with the id it would get.
status 1 "validate: a bad name exits 1" "$SR" validate "$T/skills/telegram-bot/SKILL.md"
contains "$(cat "$T/.out")" 'name-invalid: name "Telegram Bot Builder" must be lower-case' "validate: name-invalid reported"
contains "$(cat "$T/.out")" 'indexes it as "telegram-bot-builder"' "validate: the message names the id"

# validation.strict_names: rejection restored (and the index re-parsed).
printf 'scan:\n  project_roots: false\nvalidation:\n  strict_names: true\n' \
	>"$XDG_CONFIG_HOME/skills-radar/config.yaml"
"$SR" index --json >"$T/i2.json"
is "$(json 'j.total' <"$T/i2.json")" 1 "strict_names: only the valid name is indexed"
is "$(json 'j.rejected.length' <"$T/i2.json")" 6 "strict_names: the others are rejected"
status 4 "strict_names: load of a rejected name fails" "$SR" load "Telegram Bot Builder"
printf 'validation:\n  strict_names: maybe\n' >"$XDG_CONFIG_HOME/skills-radar/config.yaml"
status 3 "strict_names: a bad value is a configuration error" "$SR" index
contains "$(cat "$T/.out")" "strict_names" "strict_names: the message names the key"

done_testing
