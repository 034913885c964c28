#!/bin/sh
# index: the pipeline end to end, incremental runs, atomicity.
. "$(dirname "$0")/setup.sh"
. "$TESTDIR/fixture.sh"
install_tree

status 0 "index exits 0" "$SR" index
contains "$(cat "$T/.out")" "entries indexed" "index prints a summary"
cache=$(find "$XDG_DATA_HOME" -name 'index.db.search' | head -n 1)
[ -s "$cache" ]; ok $? "index builds the search cache: the first search loads it"
m1=$(stat -c %i "$cache")
"$SR" index --json >"$T/i1.json"
is "$(json 'j.total' <"$T/i1.json")" 9 "index --json: 9 entries (8 winners + 1 shadowed)"
is "$(json 'j.indexed' <"$T/i1.json")" 0 "second run parses nothing"
is "$(json 'j.unchanged' <"$T/i1.json")" 9 "second run reuses every entry"
is "$(json 'j.written' <"$T/i1.json")" false "second run does not rewrite index.db"
is "$(stat -c %i "$cache")" "$m1" "a current search cache is not rebuilt"
is "$(json 'j.by_kind.agent+","+j.by_kind.command' <"$T/i1.json")" "1,1" "by_kind counts agents and commands"
is "$(json 'j.by_tier.USER+","+j.by_tier.UNTRUSTED' <"$T/i1.json")" "8,1" "by_tier: home skills USER, the clone UNTRUSTED"
is "$(json 'j.rejected.length' <"$T/i1.json")" 1 "one file rejected"
is "$("$SR" list --json | json 'j.find(e=>e.name=="bad-name").display_name')" "Bad_Name" "the bad name is indexed under its normalised id, shown as written"
contains "$(json 'j.rejected.map(r=>r.path+" "+r.rule).join(";")' <"$T/i1.json")" "no-desc/SKILL.md" "the missing description is rejected"
is "$(json 'j.rejected.every(r=>r.reason.length>0)' <"$T/i1.json")" true "every rejection has a reason"
is "$(json 'j.shadowed.map(s=>s.path).join()' <"$T/i1.json")" "$T/clones/alpha/SKILL.md" "the cloned duplicate is shadowed and reported"
for k in indexed unchanged removed rejected by_kind by_tier duration_ms; do
	is "$(json "'$k' in j" <"$T/i1.json")" true "index --json has $k"
done

# touch without a content change: the hash keeps the entry
touch -d '2001-01-01' "$HOME/.claude/skills/alpha/SKILL.md"
is "$("$SR" index --json | json 'j.indexed')" 0 "a touched but unchanged file is not re-parsed"

# an edit is re-parsed
printf '\nMore.\n' >>"$HOME/.claude/skills/beta/SKILL.md"
is "$("$SR" index --json | json 'j.indexed+","+j.removed')" "1,0" "an edited file is re-parsed, not removed"

# a vanished skill is removed
rm -rf "$HOME/.claude/skills/crlf"
is "$("$SR" index --json | json 'j.removed+","+j.total')" "1,8" "a vanished file is removed"

# a fixed name is picked up: same id, no display name any more
sed -i 's/^name: Bad_Name$/name: bad-name/' "$HOME/.claude/skills/bad-name/SKILL.md"
is "$("$SR" index --json | json 'j.indexed+","+j.rejected.length')" "1,1" "a fixed file is indexed on the next run"
is "$("$SR" list --json | json '"display_name" in j.find(e=>e.name=="bad-name")')" false "the fixed name has no display name"

is "$("$SR" index --rebuild --json | json 'j.indexed==j.total')" true "--rebuild parses everything"

status 2 "unknown option is a usage error" "$SR" index --bogus
status 2 "stray argument is a usage error" "$SR" index extra

# An interrupted run (kill -9) leaves the previous index intact, and a
# reader during a run sees the old or the new state.
mkdir -p "$T/many"
i=0
while [ $i -lt 1500 ]; do
	mkdir "$T/many/s$i"
	printf -- '---\nname: s%d\ndescription: Generated skill number %d for the atomicity test.\n---\nBody %d\n' $i $i $i >"$T/many/s$i/SKILL.md"
	i=$((i + 1))
done
before=$("$SR" list --json --all | json 'j.length')
full=$((before + 1500))
sed -i "s|^  - $T/clones\$|  - $T/clones\n  - $T/many|" "$XDG_CONFIG_HOME/skills-radar/config.yaml"
"$SR" index --rebuild >/dev/null 2>&1 &
pid=$!
sleep 0.05
kill -9 $pid 2>/dev/null || true
wait $pid 2>/dev/null || true
after=$("$SR" list --json --all | json 'j.length' 2>/dev/null || echo error)
case "$after" in
$before|$full) ok 0 "kill -9 during index leaves a whole index ($after entries)" ;;
*) ok 1 "kill -9 during index leaves a whole index (got $after, want $before or $full)" ;;
esac
"$SR" index --rebuild >/dev/null 2>&1 &
pid=$!
bad=0 n=0
while kill -0 $pid 2>/dev/null && [ $n -lt 50 ]; do
	c=$("$SR" list --json --all 2>/dev/null | json 'j.length' 2>/dev/null || echo x)
	case "$c" in $before|$full) ;; *) bad=$((bad + 1)); echo "# reader saw $c" ;; esac
	n=$((n + 1))
done
wait $pid
is "$bad" 0 "readers during an index see the old or the new state ($n reads)"
is "$("$SR" list --json --all | json 'j.length')" "$full" "the index has all generated skills after the run"

# bundled examples when the user has none
rm -rf "$HOME/.claude" "$XDG_CONFIG_HOME/skills-radar"
"$SR" index >"$T/ex.txt" 2>&1
contains "$(cat "$T/ex.txt")" "from the bundled examples" "no skills at all: the bundled examples are indexed"
contains "$("$SR" list 2>/dev/null)" "git-commit-messages" "the examples are listed"
# A SKILL_PATHS glob over many folders: roots are deduplicated by a hash
# of their dev/ino, not compared pairwise (issue 32). 3000 roots took
# about 2 minutes when every pair was realpath()ed; now well under 1 s.
mkdir -p "$T/many"
(cd "$T/many" && i=0 && while [ $i -lt 3000 ]; do mkdir "d$i"; i=$((i+1)); done)
mkdir -p "$T/many/d7/wide"
printf -- '---\nname: wide\ndescription: One skill among many roots.\n---\nBody.\n' >"$T/many/d7/wide/SKILL.md"
start=$(date +%s)
SKILL_PATHS="$T/many/*:$T/many/d7:$T/many/d7/" "$SR" index --json >"$T/many.json" 2>/dev/null || true
took=$(( $(date +%s) - start ))
ok "$([ "$took" -lt 30 ]; echo $?)" "3000 glob roots index in under 30 s (took ${took} s)"
is "$(SKILL_PATHS="$T/many/*:$T/many/d7" "$SR" list --json | json 'j.filter(e=>e.name=="wide").length')" 1 \
	"a root named twice is walked once"
# The warnings the summary counts are listed: ten, then all with -v, which
# may follow the command name (#34).
mkdir -p "$T/warn"
for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
	mkdir -p "$T/warn/w$i"
	printf -- '---\nname: other-%s\ndescription: Warned.\n---\nBody.\n' "$i" >"$T/warn/w$i/SKILL.md"
done
SKILL_PATHS="$T/warn" "$SR" index >"$T/w.txt" 2>&1
contains "$(cat "$T/w.txt")" "12 warnings" "index counts the warnings"
contains "$(cat "$T/w.txt")" "name-mismatch (warn)" "index lists them"
contains "$(cat "$T/w.txt")" "2 more (-v lists them all" "  ten of them, then says how to see the rest"
status 0 "index -v: -v after the command" env SKILL_PATHS="$T/warn" "$SR" index --rebuild -v
is "$(grep -c 'name-mismatch' "$T/.out")" 12 "  lists every warning"
# A search reads the cache's entries lazily, each checked when read: a
# damaged one is never shown; the search rebuilds the cache from the
# store and answers as before (issue 33).
mkdir -p "$T/lazy/inv" "$T/lazy/pdf"
printf -- '---\nname: inv\ndescription: Parse supplier invoices into ledger rows quickly.\n---\nBody.\n' >"$T/lazy/inv/SKILL.md"
printf -- '---\nname: pdf\ndescription: Merge PDF files.\n---\nBody.\n' >"$T/lazy/pdf/SKILL.md"
SKILL_PATHS="$T/lazy" "$SR" index >/dev/null 2>&1
SKILL_PATHS="$T/lazy" "$SR" search --json "supplier invoices" >"$T/lz1.json" 2>&1
at=$(grep -abo 'supplier invoices into ledger' "$cache" | tail -n 1 | cut -d: -f1)
[ -n "$at" ]; ok $? "the entry's text is in the cache"
printf 'X' | dd of="$cache" bs=1 seek="$at" conv=notrunc 2>/dev/null
SKILL_PATHS="$T/lazy" "$SR" search --json "supplier invoices" >"$T/lz2.json" 2>&1
is "$(cat "$T/lz2.json")" "$(cat "$T/lz1.json")" "a damaged cache entry: the search answers as before"
grep -aq 'supplier invoices into ledger' "$cache"; ok $? "  and the cache is rebuilt whole"
! grep -aq 'Xupplier invoices into ledger' "$cache"; ok $? "  without the damage"
done_testing
