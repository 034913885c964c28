#!/bin/sh
# Index benchmark: a full index, a no-change re-index and a re-index after
# touching (editing) one file, on $CORPUS and on a generated tree of
# $BENCH_INDEX_N (10000) skills. Prints one row per case: median and max
# wall milliseconds over 3 runs.
set -u
: "${SR:?}"
T=$(mktemp -d "${TMPDIR:-/tmp}/sr-bench-index.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
export HOME="$T/home" XDG_CONFIG_HOME="$T/home/.config" XDG_DATA_HOME="$T/home/.local/share"
unset SKILLS_RADAR_CONFIG || true
mkdir -p "$HOME"

ms() { date +%s%N; }
run3() {	# run3 LABEL SETUP-CMD: times "$SR index" after SETUP-CMD, 3 runs
	_l=$1; _s=$2
	_t=""
	for _i in 1 2 3; do
		eval "$_s"
		_a=$(ms)
		"$SR" index >/dev/null 2>&1 || echo "index failed" >&2
		_b=$(ms)
		_t="$_t $(( (_b - _a) / 1000000 ))"
	done
	printf '%s\n' $_t | sort -n | awk -v l="$_l" '{v[NR]=$1} END {printf "  %-40s %8d %8d\n", l, v[2], v[3]}'
}
bench_tree() {	# bench_tree NAME DIR ONE-FILE
	export SKILL_PATHS="$2"
	rm -rf "$XDG_DATA_HOME"
	n=$(find "$2" -name SKILL.md | wc -l)
	echo "$1 ($n SKILL.md files)"
	printf '  %-40s %8s %8s\n' "case" "p50_ms" "max_ms"
	run3 "full index (--rebuild equivalent)" 'rm -rf "$XDG_DATA_HOME"'
	run3 "no-change re-index" ':'
	ONE=$3
	run3 "re-index after editing one file" 'printf "\n" >>"$ONE"'
}

if [ -n "${CORPUS:-}" ] && [ -d "$CORPUS" ]; then
	cp -R "$CORPUS" "$T/corpus"
	one=$(find "$T/corpus" -name SKILL.md | sort | head -1)
	bench_tree "corpus" "$T/corpus" "$one"
else
	echo "corpus: skipped (set CORPUS)"
fi

N=${BENCH_INDEX_N:-10000}
mkdir -p "$T/gen"
awk -v n="$N" -v d="$T/gen" 'BEGIN {
	split("pdf form review release test flaky sql query deploy docker api design audit commit chart plan migrate cache", w, " ")
	for (i = 0; i < n; i++) {
		dir = d "/s" i
		system("mkdir -p " dir)
		f = dir "/SKILL.md"
		printf "---\nname: gen-%d-%s\ndescription: %s %s %s skill number %d for the benchmark.\nhub-tags: [%s]\n---\n# Body\n\nSteps for %d.\n", i, w[i % 18 + 1], w[i % 18 + 1], w[(i * 7) % 18 + 1], w[(i * 13) % 18 + 1], i, w[(i * 5) % 18 + 1], i > f
		close(f)
	}
}'
bench_tree "generated" "$T/gen" "$T/gen/s0/SKILL.md"
