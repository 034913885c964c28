#!/bin/sh
# The model judge (sanitization.judge) through scan, against the fake
# Ollama server: a malicious verdict raises the risk, a benign one adds
# judge-benign and never raises it; a garbage answer, a timeout and an
# HTTP error fail open (a note, no finding, the score unchanged); a cached
# verdict sends no second request; skills outside the grey zone are not
# sent at all. The band is set wide so the test holds for any risk table.
. "$(dirname "$0")/setup.sh"
. "$TESTDIR/fixture.sh"
. "$TESTDIR/ollama-setup.sh"
need node curl

J="$DATA/scan/judge"
CFG="$T/config.yaml"
export SKILLS_RADAR_CONFIG="$CFG"
jcfg() {	# jcfg URL [cache_size]
	cat >"$CFG" <<EOC
scan:
  project_roots: false
sanitization.judge:
  enabled: true
  url: $1
  model: fake-gen
  timeout_ms: 400
  min_score: 0.5
  max_score: 1000
  cache_size: ${2:-100}
EOC
}
sk() {	# sk FILE NAME EXPR: EXPR over the skill NAME (as s) of a --json output
	node -e 'const j=JSON.parse(require("fs").readFileSync(process.argv[1],"utf8"));const s=j.skills.find(x=>x.name==process.argv[2]);console.log(eval(process.argv[3]))' "$1" "$2" "$3"
}

# the scores without the judge
printf 'scan:\n  project_roots: false\n' >"$CFG"
"$SR" scan --json "$J" >"$T/off.json" 2>/dev/null || true
is "$(sk "$T/off.json" judged-bad 's.judge===undefined')" true "judge off (the default): no judge in the report"

fake_start F
jcfg "$F"
"$SR" scan --json "$J" >"$T/on.json" 2>"$T/on.err" || true
is "$(fake_count "$F" generate)" 6 "the six grey-zone skills are judged, the clean one is not"
is "$(sk "$T/on.json" not-judged 's.judge===undefined')" true "a skill outside the band is not sent"
is "$(sk "$T/on.json" judged-bad 's.judge.verdict')" malicious "verdict malicious"
is "$(sk "$T/on.json" judged-bad 's.findings.some(f=>f.id=="judge-malicious"&&f.excerpt=="sends credentials to an outside host")')" true "it adds judge-malicious with the model's reason"
bad_off=$(sk "$T/off.json" judged-bad 's.risk.score')
bad_on=$(sk "$T/on.json" judged-bad 's.risk.score')
is "$(node -e "console.log($bad_on > $bad_off)")" true "judge-malicious raises the score ($bad_off -> $bad_on)"
is "$(sk "$T/on.json" judged-ok 's.judge.verdict')" benign "verdict benign"
is "$(sk "$T/on.json" judged-ok 's.findings.some(f=>f.id=="judge-benign")')" true "it adds judge-benign"
ok_off=$(sk "$T/off.json" judged-ok 's.risk.score')
ok_on=$(sk "$T/on.json" judged-ok 's.risk.score')
is "$(node -e "console.log($ok_on <= $ok_off)")" true "judge-benign never raises the score ($ok_off -> $ok_on)"
is "$(sk "$T/on.json" script-only 's.judge.verdict')" malicious "the bundled file a finding names is sent with the skill"
for n in judged-garbage judged-slow judged-error; do
	is "$(sk "$T/on.json" $n 's.judge.verdict+" "+s.findings.some(f=>f.id.startsWith("judge-"))')" "none false" "$n: no verdict, no finding"
	is "$(sk "$T/on.json" $n 's.risk.score')" "$(sk "$T/off.json" $n 's.risk.score')" "$n: the score is unchanged"
	contains "$(sk "$T/on.json" $n 's.judge.note')" "no verdict" "$n: a note says why"
done
contains "$(sk "$T/on.json" judged-slow 's.judge.note')" "imed out" "the timeout is named"
contains "$(cat "$T/on.err")" "judged-garbage/SKILL.md: judge: no verdict" "notes go to stderr too"
is "$(fake_count "$F" judges)" 4 "the fake saw a judge prompt (the skill between SKILL delimiters) in each answered request"
is "$(json 'j.rules["judge-malicious"].explanation.length>0' <"$T/on.json")" true "the judge's rule is explained"
ok "$([ -s "$XDG_DATA_HOME/skills-radar/judge-cache.tsv" ]; echo $?)" "verdicts are cached beside store.path"
is "$(wc -l <"$XDG_DATA_HOME/skills-radar/judge-cache.tsv" | tr -d ' ')" 3 "only verdicts are cached, not failures"

# the cache: no second request for a verdict
"$SR" scan --json "$J" >"$T/again.json" 2>/dev/null || true
is "$(fake_count "$F" generate)" 9 "second run: only the three failures are asked again"
is "$(sk "$T/again.json" judged-bad 's.judge.verdict+" "+s.judge.cached')" "malicious true" "a cache hit gives the same verdict"
is "$(sk "$T/again.json" judged-bad 's.risk.score')" "$bad_on" "and the same score"
"$SR" scan "$J/judged-bad" >"$T/t.txt" 2>&1 && bad_rc=0 || bad_rc=$?
contains "$(cat "$T/t.txt")" "judge-malicious" "text output lists the judge's finding"
is "$(fake_count "$F" generate)" 9 "a single-skill scan is answered from the cache too"
printf 'x' >>"$XDG_DATA_HOME/skills-radar/judge-cache.tsv"
printf 'not a cache line\n' >>"$XDG_DATA_HOME/skills-radar/judge-cache.tsv"
status "$bad_rc" "a damaged cache file is not an error" "$SR" scan "$J/judged-bad"
is "$(fake_count "$F" generate)" 9 "and its good lines still answer"
jcfg "$F" 0
"$SR" scan "$J/judged-bad" >/dev/null 2>&1 || true
is "$(fake_count "$F" generate)" 10 "cache_size 0: asked every time"

jcfg "$F" 1
rm -f "$XDG_DATA_HOME/skills-radar/judge-cache.tsv"
"$SR" scan "$J" >/dev/null 2>&1 || true
is "$(wc -l <"$XDG_DATA_HOME/skills-radar/judge-cache.tsv" | tr -d ' ')" 1 "the cache is bounded by cache_size"

# a server that is gone: fails open
rm -f "$XDG_DATA_HOME/skills-radar/judge-cache.tsv"
jcfg "$(dead_url)"
"$SR" scan --json "$J/judged-bad" >"$T/dead.json" 2>/dev/null || true
is "$(sk "$T/dead.json" judged-bad 's.risk.score')" "$bad_off" "no server: the score is the rules' alone"

# at index time: the stored risk carries the verdict, and the index
# asks nothing again for a skill whose verdict is cached
rm -f "$XDG_DATA_HOME/skills-radar/judge-cache.tsv"
jcfg "$F" 100
n0=$(fake_count "$F" generate)
SKILL_PATHS="$J" "$SR" index >/dev/null 2>&1 || true
n1=$(fake_count "$F" generate)
ok "$([ $((n1 - n0)) -ge 1 ]; echo $?)" "index asks the judge about grey-zone skills ($((n1 - n0)) requests)"
out=$(SKILL_PATHS="$J" "$SR" load --json judged-bad 2>/dev/null || true)
contains "$out" '"id":	"judge-malicious"' "load lists the verdict stored by the index"
SKILL_PATHS="$J" "$SR" index --rebuild >/dev/null 2>&1 || true
n2=$(fake_count "$F" generate)
ok "$([ $((n2 - n1)) -lt $((n1 - n0)) ]; echo $?)" "a rebuilt index takes the verdicts from the cache (only the failed ones asked again: $((n2 - n1)))"

# bad settings
jcfg "$F"
printf '  min_score: 5\n  max_score: 2\n' >>"$CFG"
status 3 "min_score above max_score is a configuration error" "$SR" scan "$J/judged-bad"
contains "$(cat "$T/.out")" "min_score" "and the message names the keys"
jcfg "ftp://nowhere"
status 3 "a URL that is not http(s) is a configuration error" "$SR" scan "$J/judged-bad"
done_testing
