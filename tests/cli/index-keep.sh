#!/bin/sh
# index: a scan that did not see everything (a limit, a missing root) keeps
# what it did not reach and says so; FIFOs and devices are reported, never
# opened; an empty SKILL_PATHS is ignored.
. "$(dirname "$0")/setup.sh"
. "$TESTDIR/fixture.sh"

skill() {	# skill DIR NAME
	mkdir -p "$1/$2"
	printf -- '---\nname: %s\ndescription: The %s skill, for the index integrity test.\n---\nBody\n' "$2" "$2" >"$1/$2/SKILL.md"
}
conf() {	# conf ROOT [MAX_ENTRIES]
	mkdir -p "$XDG_CONFIG_HOME/skills-radar"
	printf 'paths:\n  - %s\nscan:\n  project_roots: false\nlimits:\n  max_entries: %s\n' \
	    "$1" "${2:-100000}" >"$XDG_CONFIG_HOME/skills-radar/config.yaml"
}
R="$T/r"
for s in zz1 zz2 zz3; do skill "$R" $s; done
conf "$R" 20
status 0 "three skills under the cap: exit 0" "$SR" index

# limits.max_entries counts skills, agents and commands, not files: 30
# junk files beside three skills under a cap of 20 are no cap at all.
i=0
while [ $i -lt 30 ]; do : >"$R/a$i.txt"; i=$((i + 1)); done
status 0 "30 other files do not count toward limits.max_entries" "$SR" index
rm -f "$R"/a*.txt
# A cap of 2 over three skills: the third (zz3) is skipped, not removed.
conf "$R" 2
set +e; "$SR" index --json >"$T/cap.json" 2>"$T/cap.err"; s=$?; set -e
is "$s" 1 "a capped scan exits 1"
is "$(json 'j.removed+","+j.kept+","+j.total+","+j.complete' <"$T/cap.json")" "0,1,3,false" \
    "a capped scan removes nothing it did not reach and reports them kept"
contains "$(cat "$T/cap.err")" "scan-entries-limit" "stderr names the limit"
contains "$(cat "$T/cap.err")" "2 entries indexed, 1 skipped" "stderr says how many were indexed and skipped"
contains "$(cat "$T/cap.err")" "1 entries not reached were kept" "stderr says what was kept"
is "$("$SR" list --json | json 'j.length')" 3 "the capped run left the three skills searchable"
rm -rf "$R/zz1"
skill "$R" aa0
set +e; out=$("$SR" index 2>&1); set -e
contains "$out" "1 removed, 1 kept from the last run" "a file really gone is removed even by a capped scan"
rm -rf "$R/aa0"
skill "$R" zz1
conf "$R" 20
status 0 "under the cap again: exit 0" "$SR" index
is "$("$SR" index --json | json 'j.complete+","+j.kept+","+j.total')" "true,0,3" "a complete scan keeps nothing extra"

# A mistyped root: reported, and the index is not emptied.
set +e; SKILL_PATHS="$T/skils" "$SR" index --json >"$T/typo.json" 2>"$T/typo.err"; s=$?; set -e
is "$s" 1 "a missing root exits 1"
contains "$(cat "$T/typo.err")" "scan-root-missing: $T/skils" "stderr names the missing root"
is "$(json 'j.problems.map(p=>p.rule).join()' <"$T/typo.json")" "scan-root-missing" "--json lists the missing root"
is "$(json 'j.removed+","+j.kept' <"$T/typo.json")" "0,3" "a mistyped root removes nothing"
is "$("$SR" list --json | json 'j.length')" 3 "the index still holds the three skills"

# A configured root deleted with its files: its entries go, with a word.
cp -R "$R" "$T/r.off"
rm -rf "$R"
set +e; out=$("$SR" index --json 2>"$T/gone.err"); s=$?; set -e
is "$s" 0 "a root deleted with its files: exit 0, the index is right"
is "$(printf '%s' "$out" | json 'j.removed+","+j.kept')" "3,0" "its entries go: their files are gone"
contains "$(cat "$T/gone.err")" "scan-root-missing: $R" "the deleted root is named on stderr"
mv "$T/r.off" "$R"
status 0 "the root back: exit 0" "$SR" index

# The way to drop a root: remove it from the configuration.
mkdir -p "$T/other"
conf "$T/other"
set +e; out=$("$SR" index --json); s=$?; set -e
is "$s" 0 "a root removed from the configuration: exit 0"
is "$(printf '%s' "$out" | json 'j.removed+","+j.total')" "3,0" "its entries go"

# A FIFO or a device named SKILL.md: rejected with a rule id, never opened.
mkdir -p "$T/f/pipe" "$T/f/dev"
mkfifo "$T/f/pipe/SKILL.md"
ln -s /dev/null "$T/f/dev/SKILL.md"
skill "$T/f" fine
conf "$T/f"
set +e; timeout 60 "$SR" index --json >"$T/fifo.json"; s=$?; set -e
is "$s" 0 "index with a FIFO SKILL.md returns"
is "$(json 'j.rejected.map(r=>r.path.replace(/.*\/f\//,"")+" "+r.rule).join()' <"$T/fifo.json")" \
    "dev/SKILL.md file-not-regular,pipe/SKILL.md file-not-regular" "the FIFO and the device are rejected as file-not-regular"
contains "$(json 'j.rejected.map(r=>r.reason).join()' <"$T/fifo.json")" "a FIFO, not a regular file" "the reason says what the file is"
is "$(json 'j.total' <"$T/fifo.json")" 1 "the regular skill beside them is indexed"
contains "$(timeout 60 "$SR" index 2>&1)" "file-not-regular" "index prints the reject"
set +e; out=$(timeout 60 "$SR" validate "$T/f" 2>&1); s=$?; set -e
is "$s" 1 "validate of the folder fails"
contains "$out" "file-not-regular" "validate names the rule"
set +e; out=$(timeout 60 "$SR" validate "$T/f/pipe/SKILL.md" 2>&1); s=$?; set -e
is "$s" 1 "validate of the FIFO itself returns and fails"
contains "$out" "file-not-regular" "validate of the FIFO names the rule"

# SKILL_PATHS="" is ignored: with no skills, the bundled examples.
rm -rf "$XDG_CONFIG_HOME/skills-radar" "$XDG_DATA_HOME"
set +e; out=$(SKILL_PATHS= "$SR" index 2>&1); set -e
contains "$out" "from the bundled examples" "an empty SKILL_PATHS still indexes the bundled examples"
done_testing
