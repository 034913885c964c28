#!/bin/sh
# The cloud embedders (embedder.backend: openai | voyage) against the fake
# server's /v1/embeddings: the key from the named variable, vectors
# cached by model and text, Voyage's input_type, answers out of order,
# and every failure failing open to the builtin vectors: no key, a wrong
# key, wrong dimensions, garbage, a timeout, rate limits with
# Retry-After (waited out when short, given up when long).
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/cli/setup.sh"
. "$TESTDIR/fixture.sh"
. "$TESTDIR/ollama-setup.sh"

S="$DATA/search"
export SKILL_PATHS="$S/a:$S/b"
CFG="$XDG_CONFIG_HOME/skills-radar/config.yaml"
mkdir -p "$XDG_CONFIG_HOME/skills-radar"
st() { json "$1" <"$T/s.json"; }
cfg() {	# cfg BACKEND URL [TIMEOUT_MS]
	cat >"$CFG" <<EOC
scan:
  project_roots: false
embedder:
  backend: $1
  url: $2
  model: fake-embed
  api_key_env: FAKE_KEY
  timeout_ms: ${3:-5000}
EOC
}
fresh() { rm -f "$XDG_DATA_HOME/skills-radar/index.db.search" "$XDG_DATA_HOME/skills-radar/"*-vectors.db; }

fake_start F
export FAKE_KEY=fake-key
cfg openai "$F/v1"
check "index with the openai embedder" "$SR" index
"$SR" search --json "fill pdf form" >"$T/s.json"
is "$(st 'j.stages.embedder.used')" "openai:fake-embed" "openai: in use"
is "$(st 'j.matches[0].name')" pdf-form-filler "openai: the right result (answers came in reverse order)"
ok "$([ -s "$XDG_DATA_HOME/skills-radar/openai-vectors.db" ]; echo $?)" "openai: vectors stored in openai-vectors.db"
n1=$(fake_count "$F" cloud_inputs)
ok "$([ "$n1" -ge 9 ]; echo $?)" "openai: the skills were embedded ($n1 inputs)"
rm -f "$XDG_DATA_HOME/skills-radar/index.db.search"
"$SR" search --json "sql tuning" >"$T/s.json"
n2=$(fake_count "$F" cloud_inputs)
is "$((n2 - n1))" 1 "openai: a rebuilt index took every vector from the cache (only the query sent)"
is "$(fake_count "$F" cloud_queries)" 0 "openai: no input_type sent"

cfg voyage "$F/v1"
fresh
"$SR" search --json "sql tuning" >"$T/s.json"
is "$(st 'j.stages.embedder.used')" "voyage:fake-embed" "voyage: in use"
is "$(st 'j.matches[0].name')" sql-tuning "voyage: the right result"
is "$(fake_count "$F" cloud_queries)" 1 "voyage: the query was sent as input_type query"
ok "$([ -s "$XDG_DATA_HOME/skills-radar/voyage-vectors.db" ]; echo $?)" "voyage: its own vector cache"

# failing open
fresh
FAKE_KEY= "$SR" search --json "sql tuning" >"$T/s.json"
is "$(st 'j.stages.embedder.used')" builtin "no key: builtin used"
contains "$(st 'j.stages.embedder.error')" "FAKE_KEY" "no key: the variable is named"
is "$(st 'j.matches[0].name')" sql-tuning "no key: results still right"
fresh
FAKE_KEY=wrong "$SR" search --json "sql tuning" >"$T/s.json"
is "$(st 'j.stages.embedder.used')" builtin "wrong key: builtin used"
contains "$(st 'j.stages.embedder.error')" "Incorrect API key" "wrong key: the provider's message"
lacks "$(cat "$T/s.json")" "wrong" "wrong key: the key itself is never shown"

fake_start W -f wrongdim
cfg openai "$W/v1"
fresh
"$SR" search --json "sql tuning" >"$T/s.json"
is "$(st 'j.stages.embedder.used')" openai:fake-embed "wrong dimension: the probe sets the dimension"
fake_stop W
fake_start G -f garbage
cfg openai "$G/v1"
fresh
"$SR" search --json "sql tuning" >"$T/s.json"
is "$(st 'j.stages.embedder.used')" builtin "garbage: builtin used"
contains "$(st 'j.stages.embedder.error')" "malformed" "garbage: and why"
fake_stop G
fake_start D -d 8000
cfg openai "$D/v1" 500
fresh
t0=$(date +%s)
"$SR" search --json "sql tuning" >"$T/s.json"
t1=$(date +%s)
is "$(st 'j.stages.embedder.used')" builtin "timeout: builtin used"
contains "$(st 'j.stages.embedder.error')" "timed out" "timeout: and why"
ok "$([ $((t1 - t0)) -lt 6 ]; echo $?)" "timeout: gave up within the timeout ($((t1 - t0)) s)"
fake_stop D

# rate limits: a short Retry-After is waited out, a long one is not
fake_start R -r 2
cfg openai "$R/v1" 8000
fresh
"$SR" search --json "sql tuning" >"$T/s.json"
is "$(st 'j.stages.embedder.used')" "openai:fake-embed" "rate limited twice (Retry-After: 1): waited and went on"
is "$(fake_count "$R" rate_limited)" 2 "... after two 429 answers"
fake_stop R
fake_start L -f ratelimit
cfg openai "$L/v1" 3000
fresh
t0=$(date +%s)
"$SR" search --json "sql tuning" >"$T/s.json"
t1=$(date +%s)
is "$(st 'j.stages.embedder.used')" builtin "Retry-After: 3600: builtin used"
contains "$(st 'j.stages.embedder.error')" "Retry-After 3600" "... saying so"
ok "$([ $((t1 - t0)) -lt 3 ]; echo $?)" "... without waiting ($((t1 - t0)) s)"
fake_stop L

# doctor: reachability and the monthly cost estimate
cfg openai "$F/v1"
"$SR" doctor --json >"$T/d.json" || true
contains "$(cat "$T/d.json")" '"price_per_mtok":	null' "doctor: no list price for an unknown model"
printf '  price_per_mtok: 0.02\n' >>"$CFG"
"$SR" doctor --json >"$T/d.json" || true
out=$(cat "$T/d.json")
contains "$out" '"backend":	"openai"' "doctor: reports the cloud embedder"
contains "$out" '"reachable":	true' "doctor: reachable"
contains "$out" '"monthly_usd"' "doctor: a monthly cost estimate"
contains "$("$SR" doctor 2>&1 || true)" "a month (" "doctor: the estimate in the text report"
FAKE_KEY= "$SR" doctor >"$T/d.txt" 2>&1 || true
contains "$(cat "$T/d.txt")" "FAKE_KEY" "doctor: names the missing key variable"

done_testing
