#!/bin/sh
# search_tokens.sh SR: the estimated tokens (tests/bench/bench_tokens) of
# five top-5 search_skills answers over stdio on $CORPUS: the
# whole tools/call response and its content text. Run from a scratch dir.
# PROTOCOL (default 2025-06-18) is the version the client asks for: from
# 2025-06-18 an answer carries structuredContent and the same JSON as
# text; before it, the text alone.
set -eu
SR=$1; B=$(dirname "$SR")/../tests/bench/bench_tokens
export HOME=$PWD/home XDG_CONFIG_HOME=$PWD/home/.config XDG_DATA_HOME=$PWD/home/.local/share SKILL_PATHS=${CORPUS:?set CORPUS to a folder of skills, e.g. ../shared/corpus}
mkdir -p "$HOME"
[ -f "$XDG_DATA_HOME/skills-radar/index.db" ] || "$SR" index >/dev/null 2>&1 || true
i=2
{
printf '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"%s","capabilities":{},"clientInfo":{"name":"m","version":"1"}}}\n{"jsonrpc":"2.0","method":"notifications/initialized"}\n' "${PROTOCOL:-2025-06-18}"
for q in "write a good commit message" "fill in a pdf form" "review my pull request" "make a presentation" "debug flaky tests"; do
printf '{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"search_skills","arguments":{"query":"%s","top_k":5}}}\n' $i "$q"; i=$((i+1))
done
} | "$SR" serve 2>/dev/null | tail -n +2 >answers.jsonl
n=0; tot=0; ttxt=0
while IFS= read -r line; do
	printf '%s' "$line" >a.json
	printf '%s' "$line" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const j=JSON.parse(s);process.stdout.write(j.result.content[0].text)})' >t.json
	a=$("$B" a.json | cut -f1); t=$("$B" t.json | cut -f1)
	echo "answer $n: whole tools/call response $a tokens, content text $t tokens"
	tot=$((tot+a)); ttxt=$((ttxt+t)); n=$((n+1))
done <answers.jsonl
echo "mean of $n: whole $((tot/n)), content text $((ttxt/n))"
