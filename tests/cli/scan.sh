#!/bin/sh
# scan: the risk report for operators and CI, over the fixtures in
# tests/data/scan (a clean skill, an override in the body, an attack in a
# bundled script, a broken frontmatter hiding an attack, terminal escapes).
# Assertions hold for any risk table: hostile fixtures are high, the clean
# one has no finding, and the exit status follows the worst severity.
. "$(dirname "$0")/setup.sh"
. "$TESTDIR/fixture.sh"
need node

SK="$DATA/scan/skills"
cp -R "$SK" "$T/skills"
SK="$T/skills"
printf 'scan:\n  project_roots: false\n' >"$T/config.yaml"
export SKILLS_RADAR_CONFIG="$T/config.yaml"

# text
status 0 "a clean skill exits 0" "$SR" scan "$SK/release-notes"
contains "$(cat "$T/.out")" "1 skill scanned: 0 high, 0 warn, 0 info, 1 clean" "the summary counts it clean"
status 6 "a skill at high risk exits 6" "$SR" scan "$SK/override-notes"
out=$(cat "$T/.out")
contains "$out" "inj-override-en" "the rule id is listed"
contains "$out" "SKILL.md:9" "with the file and line"
"$SR" scan --json "$SK/override-notes" >"$T/o.json" || true
contains "$out" "$(json 'j.rules["inj-override-en"].explanation' <"$T/o.json")" "and, under rules, what the rule means"
status 6 "a SKILL.md path works as its folder" "$SR" scan "$SK/override-notes/SKILL.md"
status 6 "an attack in a bundled script is found" "$SR" scan "$SK/backup-sync"
contains "$(cat "$T/.out")" "scripts/sync.sh:4" "the finding names the bundled file and its line"
status 6 "a file the index rejects is still scanned" "$SR" scan "$SK/broken-meta"
contains "$(cat "$T/.out")" "rejected by the index" "and the report says it was rejected"
"$SR" scan "$SK/term-escape" >"$T/esc.txt" 2>&1 || true
ok "$(! grep -q "$(printf '\033')" "$T/esc.txt"; echo $?)" "no terminal escape of the skill reaches the terminal"
# file and folder names are the skill author's too (C0 and C1 controls)
bad="$T/names/$(printf 'ev\033]0;x\007il')"
mkdir -p "$bad/scripts"
cp "$SK/backup-sync/SKILL.md" "$bad/"
cp "$SK/backup-sync/scripts/sync.sh" "$bad/scripts/$(printf 's\033[2J\302\233y').sh"
"$SR" scan "$T/names" >"$T/names.txt" 2>/dev/null || true
contains "$(cat "$T/names.txt")" 'ev\x1b]0;x\x07il' "a control character in a folder name is spelt out"
contains "$(cat "$T/names.txt")" 's\x1b[2J\u009by.sh' "C0 and C1 controls in a file name are spelt out"
ok "$(! grep -q "$(printf '\033')" "$T/names.txt"; echo $?)" "no escape from a name reaches the terminal"

# a directory of skills: sorted worst first
status 6 "a directory holding skills" "$SR" scan "$SK"
contains "$(cat "$T/.out")" "5 skills scanned" "every skill in it is scanned"
"$SR" scan --json "$SK" >"$T/s.json" && rc=0 || rc=$?
is "$rc" 6 "scan --json exits by the worst skill too"
is "$(json 'j.version' <"$T/s.json")" 1 "--json: document version 1"
is "$(json 'j.skills.length' <"$T/s.json")" 5 "--json: one object per skill"
is "$(json 'j.skills.every((s,i,a)=>i==0||a[i-1].risk.score>=s.risk.score)' <"$T/s.json")" true "--json: worst first"
is "$(json 'j.skills.every(s=>s.name&&s.path&&s.trust&&s.kind&&s.risk&&typeof s.risk.score=="number"&&Array.isArray(s.findings))' <"$T/s.json")" true "--json: each skill has name, path, trust, kind, risk, findings"
is "$(json 'j.skills.every(s=>s.findings.every(f=>f.id&&f.severity&&typeof f.line=="number"&&"file" in f&&typeof f.weight=="number"&&typeof f.excerpt=="string"))' <"$T/s.json")" true "--json: each finding has id, severity, line, file, weight, excerpt"
is "$(json 'j.skills.every(s=>s.findings.every(f=>j.rules[f.id]&&j.rules[f.id].explanation))' <"$T/s.json")" true "--json: every rule seen is explained once"
is "$(json 'j.skills.find(s=>s.name=="backup-sync").findings.some(f=>f.file=="scripts/sync.sh"&&f.line==4)' <"$T/s.json")" true "--json: a bundled file's finding has file and line"
is "$(json 'j.skills.find(s=>s.name=="release-notes").findings.length' <"$T/s.json")" 0 "--json: the clean skill has no finding"
is "$(json '["high","warn","info","clean"].map(k=>j.summary[k]).join()' <"$T/s.json")" "4,0,0,1" "--json: summary counts"
is "$(json 'j.summary.worst+" "+j.summary.exit' <"$T/s.json")" "high 6" "--json: summary has the worst severity and the exit status"
is "$(json 'j.skills.find(s=>s.name=="broken-meta").rejected' <"$T/s.json")" "name-invalid" "--json: a rejected file says by which rule"

# SARIF
cd "$HOME"	# a working directory outside the skills: absolute uris
"$SR" scan --sarif "$SK" >"$T/s.sarif" && rc=0 || rc=$?
cd "$T"
is "$rc" 6 "scan --sarif exits by the worst skill too"
is "$(node "$TESTDIR/sarif-check.js" "$T/s.sarif")" ok "--sarif: a valid SARIF 2.1.0 log"
cd "$SK"
"$SR" scan --sarif . >"$T/rel.sarif" || true
is "$(node "$TESTDIR/sarif-check.js" "$T/rel.sarif")" ok "--sarif from inside the tree: valid, with relative uris"
is "$(json 'j.runs[0].results.every(r=>r.locations[0].physicalLocation.artifactLocation.uriBaseId=="SRCROOT")' <"$T/rel.sarif")" true "--sarif: files below the working directory are relative to SRCROOT"
is "$(json 'j.runs[0].results.find(r=>r.locations[0].physicalLocation.artifactLocation.uri=="backup-sync/scripts/sync.sh").locations[0].physicalLocation.region.startLine' <"$T/rel.sarif")" 4 "--sarif: a bundled script's result points at its line"
cd "$T"
is "$(json 'j.runs[0].results.length' <"$T/s.sarif")" "$(json 'j.skills.reduce((n,s)=>n+s.findings.length,0)' <"$T/s.json")" "--sarif: one result per finding"
is "$(json '((L,R)=>j.runs[0].results.every(r=>{const p=r.properties,a=L[p.findingSeverity],b=L[p.riskSeverity];return r.level==(p.weight>0&&R[b]>R[a]?b:a)}))({high:"error",warn:"warning",info:"note"},{note:0,warning:1,error:2})' <"$T/s.sarif")" true "--sarif: a level is the finding's, raised to its skill's when it adds to the score"
is "$(json 'j.runs[0].results.some(r=>r.level=="error"&&r.properties.skill=="backup-sync")' <"$T/s.sarif")" true "--sarif: a high-risk skill's findings are errors"
is "$(json 'j.runs[0].results.every(r=>typeof r.properties.riskScore=="number"&&r.properties.skill)' <"$T/s.sarif")" true "--sarif: each result carries the skill and its risk"
is "$(json 'j.runs[0].results.every(r=>r.locations[0].physicalLocation.artifactLocation.uri.startsWith("file:///"))' <"$T/s.sarif")" true "--sarif: files outside the working directory have absolute file:// uris"

# --fail-on
status 0 "--fail-on never exits 0 whatever is found" "$SR" scan --fail-on never "$SK"
status 6 "--fail-on high still fails on a high skill" "$SR" scan --fail-on high "$SK/override-notes"
status 0 "--fail-on info passes a clean skill" "$SR" scan --fail-on info "$SK/release-notes"
"$SR" scan --json --fail-on never "$SK" >"$T/n.json" || true
is "$(json 'j.summary.fail_on+" "+j.summary.exit' <"$T/n.json")" "never 0" "--json: fail_on and exit follow --fail-on"

# bad input
status 2 "--fail-on with a bad level" "$SR" scan --fail-on sometimes "$SK"
contains "$(cat "$T/.out")" "not info, warn, high or never" "the message lists the levels"
status 2 "--json and --sarif together" "$SR" scan --json --sarif "$SK"
status 2 "an unknown flag" "$SR" scan --frobnicate
status 4 "a missing path exits 4" "$SR" scan "$T/nope"
contains "$(cat "$T/.out")" "nope: No such file or directory" "and names the path"
mkdir -p "$T/fifo/pipe-skill"
mkfifo "$T/fifo/pipe-skill/SKILL.md"
status 5 "a SKILL.md that cannot be read exits 5" "$SR" scan "$T/fifo"
contains "$(cat "$T/.out")" "not a regular file" "and says why"
mkdir -p "$T/empty"
status 0 "a directory without skills exits 0" "$SR" scan "$T/empty"
contains "$(cat "$T/.out")" "no skills found" "and says nothing was found"

# a limit that stops the walk: the report says it is incomplete
printf 'scan:\n  project_roots: false\nlimits:\n  max_entries: 2\n' >"$T/small.yaml"
SKILLS_RADAR_CONFIG="$T/small.yaml" "$SR" scan --json "$SK" >"$T/cap.json" 2>"$T/cap.err" && rc=0 || rc=$?
is "$rc" 5 "a walk stopped by limits.max_entries exits 5"
is "$(json 'j.summary.complete' <"$T/cap.json")" false "--json: summary.complete is false"
contains "$(cat "$T/cap.err")" "limits.max_entries" "the limit is named on stderr"
is "$(json 'j.summary.complete' <"$T/s.json")" true "a whole walk is complete"

# no PATH: the configured roots, without an index
SKILL_PATHS="$SK/release-notes:$SK/override-notes" "$SR" scan --json >"$T/r.json" || true
is "$(json 'j.skills.map(s=>s.name).sort().join()' <"$T/r.json")" "override-notes,release-notes" "no PATH: every configured root"
ok "$([ ! -e "$XDG_DATA_HOME/skills-radar/index.db" ]; echo $?)" "scan does not create index.db"
status 0 "no config, no PATH, no skill in the roots: the bundled examples, as index" env -u SKILLS_RADAR_CONFIG "$SR" scan
contains "$(cat "$T/.out")" "these are the bundled examples" "and it says so"
done_testing
