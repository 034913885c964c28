#!/bin/sh
# Ollama stages benchmark: end-to-end `skills-radar search` wall time with
# the rewriter and/or the reranker on, against the fake Ollama server
# answering every generate request after $BENCH_OLLAMA_DELAY_MS (100) ms,
# next to the sequential per-pair baseline the anchor uses (20 pairs one
# after another: reranker.parallel 1) and everything off. Runs on $CORPUS
# when set, else on the test fixtures. Prints one row per case: median
# and max wall milliseconds over $BENCH_OLLAMA_RUNS (5) queries.
set -u
: "${SR:?}"
: "${TOP_BUILDDIR:?}"
: "${TOP_SRCDIR:?}"
DELAY=${BENCH_OLLAMA_DELAY_MS:-100}
RUNS=${BENCH_OLLAMA_RUNS:-5}
T=$(mktemp -d "${TMPDIR:-/tmp}/sr-bench-ollama.XXXXXX")
export HOME="$T/home" XDG_CONFIG_HOME="$T/home/.config" XDG_DATA_HOME="$T/home/.local/share"
unset SKILLS_RADAR_CONFIG || true
mkdir -p "$HOME" "$XDG_CONFIG_HOME/skills-radar"
. "$TOP_SRCDIR/tests/cli/fixture.sh"
. "$TOP_SRCDIR/tests/cli/ollama-setup.sh"
trap 'fake_stop_all; rm -rf "$T"' EXIT INT TERM
if [ ! -x "$FAKE_OLLAMA" ]; then
	echo "skipped: $FAKE_OLLAMA not built (make check builds it)"
	exit 0
fi
if [ -n "${CORPUS:-}" ] && [ -d "$CORPUS" ]; then
	export SKILL_PATHS="$CORPUS"
else
	export SKILL_PATHS="$TOP_SRCDIR/tests/data/search/a:$TOP_SRCDIR/tests/data/tree/skills"
fi
CFG="$XDG_CONFIG_HOME/skills-radar/config.yaml"
fake_start F -d "$DELAY"
printf 'scan:\n  project_roots: false\n' >"$CFG"
"$SR" index >/dev/null 2>&1 || { echo "index failed"; exit 1; }
"$SR" search "warm the search cache" >/dev/null 2>&1 || true

set -- "review a pull request" "fill in a pdf form" "write release notes" \
    "debug flaky tests" "design a rest api" "optimise slow sql" \
    "deploy with docker" "write a commit message"
setup() {	# setup RW RR MODE PARALLEL
	cat >"$CFG" <<EOC
scan:
  project_roots: false
retrieval.rewriter:
  enabled: $1
  url: $F
  model: fake-gen
  timeout_ms: 5000
retrieval.reranker:
  enabled: $2
  url: $F
  model: fake-gen
  mode: $3
  pool: 20
  parallel: $4
  timeout_ms: 5000
EOC
}
row() {	# row LABEL: times RUNS searches
	_t=""
	_g0=$(fake_count "$F" generate)
	_i=0
	for _q in "$@"; do
		[ $_i -ge "$RUNS" ] && break
		_a=$(date +%s%N)
		"$SR" search --json "$_q" >"$T/out" 2>/dev/null || echo "search failed" >&2
		_b=$(date +%s%N)
		_t="$_t $(( (_b - _a) / 1000000 ))"
		_i=$((_i + 1))
	done
	_g=$(( ($(fake_count "$F" generate) - _g0) / _i ))
	printf '%s\n' $_t | sort -n | awk -v l="$LABEL" -v g="$_g" '{v[NR]=$1} END {printf "  %-46s %9d %8d %8d\n", l, g, v[int((NR+1)/2)], v[NR]}'
}
"$SR" search --json "x y z" >"$T/out" 2>/dev/null || true
echo "$(json 'j.total_skills' <"$T/out") skills, fake Ollama answering each generate after $DELAY ms, $RUNS queries per row"
printf '  %-46s %9s %8s %8s\n' "case" "req/query" "p50_ms" "max_ms"
setup false false pair 20; LABEL="everything off (builtin)"; row "$@"
setup true false pair 20; LABEL="rewriter (expand)"; row "$@"
setup false true pair 20; LABEL="reranker pair, 20 pairs concurrent"; row "$@"
setup true true pair 20; LABEL="rewriter + reranker pair concurrent"; row "$@"
setup false true batch 20; LABEL="reranker batch (one prompt)"; row "$@"
setup false true pair 1; LABEL="baseline: 20 pairs sequential (anchor)"; row "$@"
setup true true pair 1; LABEL="baseline: rewriter + 20 sequential pairs"; row "$@"
