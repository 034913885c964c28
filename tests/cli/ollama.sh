#!/bin/sh
# The Ollama stages from the command line, against the fake server:
# doctor's check, search --json stages, --rewrite/--rerank overrides, every
# failure mode failing open (the stage and the reason reported, results
# kept), a slow pair keeping its fused score, batch mode, the ollama
# embedder with its vector cache, telemetry detail and the MCP result.
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/cli/setup.sh"
. "$TESTDIR/fixture.sh"
. "$TESTDIR/ollama-setup.sh"

S="$DATA/search"
export SKILL_PATHS="$S/a:$S/b" COLUMNS=100
CFG="$XDG_CONFIG_HOME/skills-radar/config.yaml"
mkdir -p "$XDG_CONFIG_HOME/skills-radar"
cfg() {	# cfg URL [KEY=VALUE...]: rewriter and reranker on at URL
	_u=$1; shift
	rw_mode=expand rw_timeout=500 rr_mode=pair rr_model=fake-gen rr_timeout=500 rr_parallel=8
	for _kv in "$@"; do eval "$_kv"; done
	cat >"$CFG" <<EOC
scan:
  project_roots: false
retrieval.rewriter:
  enabled: true
  url: $_u
  model: fake-gen
  mode: $rw_mode
  timeout_ms: $rw_timeout
retrieval.reranker:
  enabled: true
  url: $_u
  model: $rr_model
  mode: $rr_mode
  timeout_ms: $rr_timeout
  parallel: $rr_parallel
EOC
}
st() {	# st EXPR: evaluates over the last search --json output
	json "$1" <"$T/s.json"
}

printf 'scan:\n  project_roots: false\n' >"$CFG"
check "index the fixture corpus" "$SR" index
out=$("$SR" doctor 2>&1 || true)
contains "$out" "ollama:   not used" "doctor: Ollama not used by default"
"$SR" search --json "fill pdf form" >"$T/s.json"
is "$(st 'j.stages === undefined')" true "every stage off: no stages in the result"

fake_start F
cfg "$F"
out=$("$SR" doctor 2>&1 || true)
contains "$out" "$F: ok, models: fake-gen, fake-embed, fake-embed-b" "doctor lists the server's models"
contains "$out" "rewriter fake-gen: present" "doctor: the rewriter's model is present"
contains "$out" "reranker fake-gen: present" "doctor: the reranker's model is present"
"$SR" doctor --json >"$T/d.json" 2>/dev/null || true
is "$(json 'j.ollama.servers[0].reachable' <"$T/d.json")" true "doctor --json: reachable"

# replace and expand
"$SR" search --json "mrof fdp" >"$T/s.json"
is "$(st 'j.stages.rewriter.ran')" true "rewriter ran"
is "$(st 'j.stages.rewriter.query')" "form pdf" "rewriter: the cleaned keywords"
is "$(st 'j.stages.rewriter.mode')" expand "rewriter: expand is the default"
is "$(st 'j.matches[0].name')" pdf-form-filler "expand: the rewritten query finds the skill"
is "$(st 'j.query')" "mrof fdp" "the raw query is kept"
is "$(st 'j.stages.reranker.ran')" true "reranker ran"
is "$(st 'j.matches.every(m => m.score >= 0 && m.score <= 1)')" true "scores stay in [0, 1]"
cfg "$F" rw_mode=replace
"$SR" search --json "lqs gninut" >"$T/s.json"
is "$(st 'j.stages.rewriter.query')" "sql tuning" "replace: keywords"
is "$(st 'j.matches[0].name')" sql-tuning "replace: searched with the keywords"
"$SR" search --json --no-rerank "lqs +tuning" >"$T/s.json"
is "$(st 'j.stages.rewriter.query')" "sql gninut +tuning" "replace: a +required term stays in the keywords"
is "$(st 'j.matches[0].name')" sql-tuning "replace: ...and still matches"
status 0 "search --no-rewrite --no-rerank" "$SR" search --json --no-rewrite --no-rerank "lqs gninut"
is "$(json 'j.stages === undefined' <"$T/.out")" true "--no-rewrite --no-rerank: no stage ran"
"$SR" search --json --no-rerank "lqs gninut" >"$T/s.json"
is "$(st 'j.stages.reranker === undefined && j.stages.rewriter.ran')" true "--no-rerank keeps the rewriter"
printf 'scan:\n  project_roots: false\nretrieval.reranker.url: %s\nretrieval.reranker.model: fake-gen\n' "$F" >"$CFG"
"$SR" search --json --rerank "fill pdf form" >"$T/s.json"
is "$(st 'j.stages.reranker.ran && j.stages.rewriter === undefined')" true "--rerank turns on a reranker the config leaves off"
"$SR" search --json --rerank "select:sql-tuning" >"$T/s.json"
is "$(st 'j.stages === undefined && j.matches[0].score')" 1 "select: is never reranked"

out=$("$SR" search --explain --rerank "fill pdf form" 2>/dev/null)
contains "$out" "rerank=" "--explain shows the reranker's score"
contains "$out" "fused=" "--explain shows the fused score it was blended with"

# batch mode
cfg "$F" rr_mode=batch
b0=$(fake_count "$F" batches)
"$SR" search --json --no-rewrite "fill pdf form" >"$T/s.json"
is "$(st 'j.stages.reranker.mode + " " + j.stages.reranker.ran')" "batch true" "batch reranker ran"
is "$(fake_count "$F" batches)" $((b0 + 1)) "batch: one request for the whole pool"

# every failure mode fails open, the stage and the reason reported
for mode in error:HTTP_500 garbage:malformed partial:api/generate hang:timed_out nonumber:no_score refused:refused; do
	m=${mode%%:*}; want=$(echo "${mode#*:}" | tr _ ' ')
	if [ "$m" = refused ]; then
		U=$(dead_url)
	else
		fake_start G -f "$m"; U=$G
	fi
	cfg "$U"
	set +e
	"$SR" search --json "fill pdf form" >"$T/s.json" 2>"$T/err"
	rc=$?
	set -e
	is "$rc" 0 "$m: the search still succeeds"
	is "$(st 'j.matches[0].name')" pdf-form-filler "$m: fused results returned"
	is "$(st 'j.stages.reranker.ran')" false "$m: reranker ran false"
	contains "$(st 'j.stages.reranker.error')" "$want" "$m: the reranker's error says why"
	is "$(st 'j.stages.rewriter.ran')" "$([ "$m" = nonumber ] && echo true || echo false)" "$m: rewriter ran only where the answer is usable"
	out=$("$SR" search "fill pdf form" 2>&1 >/dev/null)
	contains "$out" "reranker failed (fail-open" "$m: text search says so on stderr"
	[ "$m" = refused ] || fake_stop G
done

# one slow pair: the rest scored, it keeps its fused score, no long wait
mkdir -p "$T/many"
i=0
while [ $i -lt 20 ]; do
	mkdir -p "$T/many/widget-$i"
	d="Widget maker number $i builds widgets"
	[ $i = 3 ] && d="$d fake-delay-4000"
	printf -- '---\nname: widget-%s\ndescription: %s\n---\nbody\n' "$i" "$d" >"$T/many/widget-$i/SKILL.md"
	i=$((i + 1))
done
export SKILL_PATHS="$T/many"
cfg "$F" rr_timeout=300 rr_parallel=20
check "index 20 widgets" "$SR" index
t0=$(date +%s%N)
"$SR" search --json --no-rewrite --top-k 20 "widget maker" >"$T/s.json"
t1=$(date +%s%N)
ms=$(( (t1 - t0) / 1000000 ))
is "$(st 'j.stages.reranker.pool')" 20 "slow pair: a pool of 20"
is "$(st 'j.stages.reranker.scored')" 19 "slow pair: the other 19 scored"
is "$(st 'j.stages.reranker.failures[0].name')" widget-3 "slow pair: the slow one is reported"
contains "$(st 'j.stages.reranker.failures[0].error')" "timed out" "slow pair: ...as timed out"
is "$(st '((f) => j.matches.find(m => m.name === f.name).score === f.fused)(j.stages.reranker.failures[0])')" true "slow pair: it keeps its fused score"
ok "$([ "$ms" -lt 3500 ]; echo $?)" "slow pair: the search took $ms ms, not the 4 s delay"

# the ollama embedder: vectors cached next to index.db, model change re-embeds
export SKILL_PATHS="$S/a:$S/b"
cat >"$CFG" <<EOC
scan:
  project_roots: false
embedder:
  backend: ollama
  url: $F
  model: fake-embed
EOC
n0=$(fake_count "$F" embed_inputs)
check "index with the ollama embedder" "$SR" index
"$SR" search --json "fill pdf form" >"$T/s.json"
is "$(st 'j.stages.embedder.used')" "ollama:fake-embed" "embedder: ollama in use"
is "$(st 'j.stages.embedder.ran')" true "embedder: ran"
is "$(st 'j.matches[0].name')" pdf-form-filler "embedder: right result"
ok "$([ -s "$XDG_DATA_HOME/skills-radar/ollama-vectors.db" ]; echo $?)" "embedder: vectors stored in ollama-vectors.db"
n1=$(fake_count "$F" embed_inputs)
ok "$([ $((n1 - n0)) -ge 8 ]; echo $?)" "embedder: the skills were embedded ($((n1 - n0)) inputs)"
rm -f "$XDG_DATA_HOME/skills-radar/index.db.search"
"$SR" search --json "sql tuning" >"$T/s.json"
n2=$(fake_count "$F" embed_inputs)
is "$((n2 - n1))" 1 "embedder: a rebuilt index took every skill vector from the cache (only the query sent)"
sed -i 's/model: fake-embed$/model: fake-embed-b/' "$CFG"
"$SR" search --json "sql tuning" >"$T/s.json"
n3=$(fake_count "$F" embed_inputs)
is "$(st 'j.stages.embedder.used')" "ollama:fake-embed-b" "embedder: the new model in use"
ok "$([ $((n3 - n2)) -ge 9 ]; echo $?)" "embedder: a model change re-embedded by itself ($((n3 - n2)) inputs)"
U=$(dead_url)
sed -i "s|url: .*|url: $U|" "$CFG"
"$SR" search --json "sql tuning" >"$T/s.json"
is "$(st 'j.stages.embedder.indexed_with + " " + j.stages.embedder.used + " " + j.stages.embedder.ran')" "ollama:fake-embed-b builtin false" "down at search time: the cached ollama index, the query ranked with builtin vectors"
contains "$(st 'j.stages.embedder.error')" "refused" "down at search time: and why"
is "$(st 'j.matches[0].name')" sql-tuning "down at search time: results still right"
rm -f "$XDG_DATA_HOME/skills-radar/index.db.search" "$XDG_DATA_HOME/skills-radar/ollama-vectors.db"
"$SR" search --json "sql tuning" >"$T/s.json"
is "$(st 'j.stages.embedder.used')" builtin "down at index time: builtin used"
contains "$(st 'j.stages.embedder.error')" "refused" "down at index time: and why"
is "$(st 'j.matches[0].name')" sql-tuning "down at index time: results still right"

# telemetry records which stage failed and why; MCP carries the stages
cat >"$CFG" <<EOC
scan:
  project_roots: false
telemetry:
  enabled: true
retrieval.reranker:
  enabled: true
  url: $U
EOC
"$SR" search --json "fill pdf form" >/dev/null
db="$XDG_DATA_HOME/skills-radar/stats.db"
if command -v sqlite3 >/dev/null 2>&1; then
	d=$(sqlite3 "$db" "SELECT detail FROM events WHERE kind = 'search' ORDER BY rowid DESC LIMIT 1")
	contains "$d" '"reranker":{"ran":false' "telemetry: the reranker did not run"
	contains "$d" "refused" "telemetry: ...and why"
	contains "$d" '"reranked":false' "telemetry: the reranked flag"
else
	for k in 1 2 3; do tap_n=$((tap_n + 1)); echo "ok $tap_n # SKIP sqlite3 not installed"; done
fi
INIT='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"sh","version":"1"}}}'
printf '%s\n' "$INIT" '{"jsonrpc":"2.0","method":"notifications/initialized"}' \
	'{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search_skills","arguments":{"query":"fill pdf form"}}}' \
	| "$SR" serve >"$T/mcp" 2>/dev/null
contains "$(sed -n 2p "$T/mcp")" '"stages":{"reranker":{"mode":"pair"' "MCP: the result carries the stages"
contains "$(sed -n 2p "$T/mcp")" '"ran":false' "MCP: ...with ran false"
contains "$(sed -n 2p "$T/mcp")" '"matches":[{"name":"pdf-form-filler"' "MCP: the fused results"

# the server's caches: a repeated query sends nothing the second time.
# These checks count requests, so they get a fake of their own: the slow
# pair above is counted by F only when its 4 s delay ends, which on a
# loaded machine can fall inside this block. The budgets are generous: a
# stage that times out caches nothing.
fake_start C
cfg "$C" rw_timeout=20000 rr_timeout=20000
r0=$(fake_count "$C" rewrites); p0=$(fake_count "$C" pairs)
Q='{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"search_skills","arguments":{"query":"lliF fdp"}}}'
{ printf '%s\n' "$INIT" '{"jsonrpc":"2.0","method":"notifications/initialized"}'; printf "$Q\n" 2; printf "$Q\n" 3; } \
	| "$SR" serve >"$T/mcp" 2>/dev/null
contains "$(sed -n 2p "$T/mcp")" '"cached":false' "serve: the first search asks Ollama"
contains "$(sed -n 3p "$T/mcp")" '"cached":true' "serve: the second is answered from the cache"
is "$(( $(fake_count "$C" rewrites) - r0 ))" 1 "serve: one rewrite request for two searches"
p1=$(( $(fake_count "$C" pairs) - p0 ))
is "$(json "$p1 === j.result.structuredContent.stages.reranker.pool" <<EOJ
$(sed -n 2p "$T/mcp")
EOJ
)" true "serve: pair requests only for the first search ($p1)"
is "$(json 'j.result.structuredContent.stages.reranker.cached === j.result.structuredContent.stages.reranker.pool' <<EOJ
$(sed -n 3p "$T/mcp")
EOJ
)" true "serve: every pair of the second search from the cache"

# doctor on trouble
cfg "$U"
status 1 "doctor: an unreachable server is a problem" "$SR" doctor
contains "$(cat "$T/.out")" "unreachable" "doctor: says unreachable"
cfg "$F" rr_model=no-such-model
status 1 "doctor: a missing model is a problem" "$SR" doctor
contains "$(cat "$T/.out")" "no-such-model: missing" "doctor: names the missing model"
done_testing
