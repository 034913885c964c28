#!/bin/sh
# search: index a small fixture corpus, then query it from the command line.
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/cli/setup.sh"

S="$DATA/search"
SKILL_PATHS="$S/a:$S/b"
export SKILL_PATHS COLUMNS=100

check "index the fixture corpus" "$SR" index

out=$("$SR" search fill a pdf form 2>/dev/null)
contains "$out" "pdf-form-filler" "a paraphrase finds pdf-form-filler"
first=$(printf '%s\n' "$out" | head -1)
contains "$first" "pdf-form-filler" "it ranks first"
contains "$out" "also: " "the shadowed duplicate is listed under its winner"
lacks "$out" "secret-deploy" "disable-model-invocation entries are hidden"

out=$("$SR" search --json --top-k 3 "fill pdf form")
contains "$out" '"query":' "--json has query"
contains "$out" '"matches":' "--json has matches"
contains "$out" '"total_skills":' "--json has total_skills"
contains "$out" '"miss":	false' "a clear hit is not a miss"
contains "$out" '"shadowed":	[{' "the duplicate is attached in JSON"
n=$(printf '%s\n' "$out" | grep -c '"when_to_use":' || true)
ok $([ "$n" -le 3 ] && echo 0 || echo 1) "--top-k 3 returns at most 3 matches"

out=$("$SR" search --json "Größe von Dateien")
contains "$out" '"name":	"dateigroessen"' "German query with umlauts and ß"
out=$("$SR" search --json "posty o dostepnosci WCAG")
contains "$out" '"name":	"linkedin-wcag"' "Polish query without diacritics"
out=$("$SR" search --json "填写表单")
contains "$out" '"name":	"biaodan"' "Chinese query"

out=$("$SR" search --json --explain "helm charts")
contains "$out" '"explain":' "--explain adds the components"
contains "$out" '"lexical":' "explain has the lexical component"
contains "$out" '"cosine":' "explain has the cosine component"
out=$("$SR" search --explain "helm charts" 2>/dev/null)
contains "$out" "lexical=" "text --explain prints the components"

out=$("$SR" search --json "select:sql-tuning,nosuch,helm-charts")
first=$(printf '%s\n' "$out" | grep '"name":' | head -1)
contains "$first" "sql-tuning" "select: keeps the given order"
contains "$out" '"score":	1' "select: scores 1"
names=$(printf '%s\n' "$out" | grep -c '"name":	"[a-z]' || true)
is "$names" "2" "select: skips unknown names"

out=$("$SR" search --json "+playwright tests")
n=$(printf '%s\n' "$out" | grep -c '"when_to_use":' || true)
is "$n" "1" "+term keeps only entries containing it"

out=$("$SR" search --json --tag CI "fill pdf form tests")
contains "$out" "playwright-flaky-tests" "--tag filters (case-insensitive)"
lacks "$out" '"name":	"pdf-form-filler"' "--tag drops untagged entries"
out=$("$SR" search --json --kind agent "fill pdf form")
contains "$out" '"matches":	[]' "--kind agent: no agents in the fixture"

status 0 "nothing matching still exits 0" "$SR" search "+zzzznothing"
out=$("$SR" search --json "+zzzznothing")
contains "$out" '"miss":	true' "no match is a miss"
status 2 "--top-k 0 is a usage error" "$SR" search --top-k 0 pdf
status 2 "--top-k 51 is a usage error" "$SR" search --top-k 51 pdf
status 2 "--top-k abc is a usage error" "$SR" search --top-k abc pdf
status 2 "--kind bogus is a usage error" "$SR" search --kind bogus pdf
status 2 "a missing query is a usage error" "$SR" search
status 2 "a blank query is a usage error" "$SR" search "   "
status 2 "an unknown option is a usage error" "$SR" search --frobnicate pdf

COLUMNS=60 "$SR" search "Größe von Dateien" >"$T/narrow" 2>/dev/null
long=$(awk 'length($0) > 200' "$T/narrow" | wc -l)
is "$long" "0" "text output respects a narrow terminal"
if command -v iconv >/dev/null 2>&1; then
	check "text output is valid UTF-8 when cut" iconv -f UTF-8 -t UTF-8 "$T/narrow"
fi

done_testing
