#!/bin/sh
# Scale benchmark (issue 33): for each size in BENCH_SCALE_SIZES (default
# 1000 10000 100000) generates that many skills from real descriptions
# (tests/bench/gen-skills), indexes them in a temporary HOME and prints
# one row: index wall time, the first CLI search after the index, the
# CLI search p50 over BENCH_SCALE_Q (20) held-out queries, the engine's
# peak RSS as serve runs it (and that per skill, rss_B) and its
# in-process search p50 (bench_scale),
# the search cache's bytes per skill, and SQLite FTS5 (sqlite3 CLI, a new
# process per query, bm25 over name + description, the query's words
# OR-ed) on the same documents and queries. Needs SR, BENCH_SCALE (the
# bench_scale program); FTS5 is skipped without sqlite3.
set -u
: "${SR:?}" "${BENCH_SCALE:?}" "${TOP_SRCDIR:?}"
T=$(mktemp -d "${TMPDIR:-/tmp}/sr-bench-scale.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
sizes=${BENCH_SCALE_SIZES:-1000 10000 100000}
nq=${BENCH_SCALE_Q:-20}
cat "$TOP_SRCDIR"/tests/eval/heldout/*.jsonl |
    sed -n 's/.*"query": *"\(\([^"\\]\|\\.\)*\)".*/\1/p' | sed 's/\\"/"/g' |
    head -n "$nq" >"$T/queries"
ms() { date +%s%N; }
p50() { sort -n | awk '{v[NR]=$1} END {print (NR ? v[int((NR+1)/2)] : 0)}'; }
printf '%8s %9s %9s %9s %9s %9s %9s %9s %9s\n' skills index_s first_ms \
    cli_p50 rss_mb rss_B inproc_ms cache_B fts5_p50
for n in $sizes; do
	g="$T/g$n"
	"$TOP_SRCDIR/tests/bench/gen-skills" "$n" "$g" >/dev/null || exit 1
	export HOME="$T/home$n" XDG_CONFIG_HOME="$T/home$n/.config" \
	    XDG_DATA_HOME="$T/home$n/.local/share" SKILL_PATHS="$g"
	unset SKILLS_RADAR_CONFIG || true
	mkdir -p "$HOME"
	a=$(ms); "$SR" index >"$T/index.out" 2>&1; b=$(ms)
	idx=$(awk -v d=$(( (b - a) / 1000000 )) 'BEGIN {printf "%.1f", d / 1000}')
	q1=$(head -n 1 "$T/queries")
	a=$(ms); "$SR" search "$q1" >/dev/null 2>&1; b=$(ms)
	first=$(( (b - a) / 1000000 ))
	while IFS= read -r q; do
		a=$(ms); "$SR" search "$q" >/dev/null 2>&1; b=$(ms)
		echo $(( (b - a) / 100000 ))
	done <"$T/queries" | p50 >"$T/cli"
	cli=$(awk '{printf "%.1f", $1 / 10}' "$T/cli")
	set -- $("$BENCH_SCALE" "$T/queries" 3 2>/dev/null)
	rss=$(awk -v k="${6:-0}" 'BEGIN {printf "%.0f", k / 1024}')
	rssb=$(awk -v k="${6:-0}" -v n="$n" 'BEGIN {printf "%.0f", k * 1024 / n}')
	inproc=${3:-?}
	cache=$(find "$XDG_DATA_HOME" -name '*.search' -exec wc -c {} + 2>/dev/null |
	    awk -v n="$n" 'END {printf "%.0f", ($1 + 0) / n}')
	fts=-
	if command -v sqlite3 >/dev/null 2>&1; then
		db="$T/fts$n.db"
		{
			echo "CREATE VIRTUAL TABLE d USING fts5(name, description);"
			echo ".mode tabs"
			echo ".import $g/docs.tsv d"
		} | sqlite3 "$db" 2>/dev/null
		while IFS= read -r q; do
			m=$(printf '%s\n' "$q" | tr -c '[:alnum:]\n' ' ' |
			    awk '{for (i = 1; i <= NF; i++) printf "%s\"%s\"", (i > 1 ? " OR " : ""), $i}')
			[ -n "$m" ] || continue
			a=$(ms)
			sqlite3 "$db" "SELECT name FROM d WHERE d MATCH '$m' ORDER BY rank LIMIT 10;" >/dev/null 2>&1
			b=$(ms)
			echo $(( (b - a) / 100000 ))
		done <"$T/queries" | p50 >"$T/fts"
		fts=$(awk '{printf "%.1f", $1 / 10}' "$T/fts")
	fi
	printf '%8s %9s %9s %9s %9s %9s %9s %9s %9s\n' "$n" "$idx" "$first" \
	    "$cli" "$rss" "$rssb" "$inproc" "$cache" "$fts"
	grep -i "limit\|skipped\|stopped" "$T/index.out" | head -n 3 | sed 's/^/         /'
	rm -rf "$g" "$HOME" "$T/fts$n.db"
done
