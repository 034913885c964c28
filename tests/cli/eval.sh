#!/bin/sh
# tests/eval: run prints skills-radar beside a plain BM25 engine on a small
# corpus (text and --json), refuses bad arguments; fit-calibration fits on
# one family, reports the other as left out, and refuses bad input.
. "$(dirname "$0")/setup.sh"
need node
RUN="$TOP_SRCDIR/tests/eval/run"
FIT="$TOP_SRCDIR/tests/eval/fit-calibration"
C="$DATA/search/a"
Q="$DATA/eval/queries.jsonl"
export SR

node "$RUN" "$C" "$Q" >"$T/run.txt" 2>"$T/run.err"
ok $? "run: exit 0 on a corpus and its queries"
r=$(cat "$T/run.txt")
contains "$r" "plain BM25" "run: the BM25 column is there"
contains "$r" "overall               5    1" "run: 5 positives and 1 negative"
contains "$r" "kind:multilingual" "run: per kind"
contains "$r" "lang:de" "run: per language"
contains "$r" "multilingual R@5:" "run: the multilingual R@5 line"

node "$RUN" --json "$C" "$Q" >"$T/run.json"
ok $? "run --json: exit 0"
j=$(node -e '
const j = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
const q = id => j.bm25.queries.find(x => x.id === id);
console.log([j.overall.positives, j.overall.negatives, typeof j.overall.r1,
	j.queries.length, q("e1").rank, q("e2").rank, q("e6").miss,
	j.bm25.overall.correct_miss].join(" "));' "$T/run.json")
# e1 and e2 share their words with one skill each: plain BM25 ranks it
# first; the negative has no word of any skill: BM25 returns nothing.
is "$j" "5 1 number 6 1 1 true 1" "run --json: skills-radar at the top level, BM25 under bm25"

status 2 "run: one argument is a usage error" node "$RUN" "$C"
status 2 "run: an unknown option" node "$RUN" --nope "$C" "$Q"
status 2 "run: --top-k 0" node "$RUN" --top-k 0 "$C" "$Q"
printf '{"id": "x"\n' >"$T/bad.jsonl"
status 2 "run: a bad queries line" node "$RUN" "$C" "$T/bad.jsonl"
contains "$(cat "$T/.out")" "bad.jsonl:1:" "  naming the file and line"
status 2 "run: a missing corpus" node "$RUN" "$T/nope" "$Q"

# fit-calibration: two families over the same fixture skills (the second
# corpus is a copy under other top-level directories).
mkdir -p "$T/c2/x" "$T/c2/y"
cp -R "$C/helm-charts" "$C/sql-tuning" "$C/secret-deploy" "$T/c2/x/"
cp -R "$C/pdf-form-filler" "$C/playwright-flaky-tests" "$C/dateigroessen" "$T/c2/y/"
node "$FIT" --dump "$T/dump.json" one="$C:$Q" two="$T/c2:$Q" >"$T/fit.txt" 2>"$T/fit.err"
ok $? "fit-calibration: exit 0"
f=$(cat "$T/fit.txt")
contains "$f" "left out: one" "fit: the first family is checked left out"
contains "$f" "left out: two" "fit: and the second"
contains "$f" "for search.c (fitted on every corpus without two)" \
	"fit: the coefficients leave the last family out"
contains "$f" "  two-half1" "fit: the generated halves are reported"
n=$(node -e 'const r = JSON.parse(require("fs").readFileSync(process.argv[1]));
console.log(r.length, [...new Set(r.map(x => x.corpus))].sort().join(","));' "$T/dump.json")
is "$n" "48 merged,one,one-half1,one-half2,two,two-half1,two-half2" \
	"fit: one row per query and corpus (6 x 6, and both families' 12 merged)"
node "$FIT" --from "$T/dump.json" >"$T/fit2.txt"
ok $? "fit --from: refits from the dump without searching"
is "$(grep '^for search.c' "$T/fit2.txt")" "$(grep '^for search.c' "$T/fit.txt")" \
	"fit --from: the same coefficients"
status 2 "fit: one family is not enough" node "$FIT" one="$C:$Q"
status 2 "fit: a malformed family" node "$FIT" one="$C" two="$T/c2:$Q"
status 2 "fit: an unknown feature" node "$FIT" --features raw,nope one="$C:$Q" two="$T/c2:$Q"
echo '[not json' >"$T/bad.json"
status 2 "fit: a bad dump" node "$FIT" --from "$T/bad.json"
done_testing
