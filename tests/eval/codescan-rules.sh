#!/bin/sh
# Counts, per codescan rule id, how many skills raise it (and, as
# "(any warn+)", how many raise any rule at warn or above): each argument is
# a directory searched for skills (a SKILL.md and the files beside it,
# three levels down). Prints one table: rule, then one column per directory.
# Usage: tests/eval/codescan-rules.sh DIR...   (needs tests/bench/bench_codescan)
# Set SHOW=rule to list the skills (and first message) that raise rule.
set -eu
top=${TOP_BUILDDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
bin=$top/tests/bench/bench_codescan
[ -x "$bin" ] || { echo "codescan-rules: build $bin first (make tests/bench/bench_codescan)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
col=0
for dir in "$@"; do
	col=$((col + 1))
	n=0
	find "$dir" -name SKILL.md -type f | sort >"$tmp/list"
	while read -r f; do
		s=$(dirname "$f")
		n=$((n + 1))
		find "$s" -maxdepth 3 -type f -size -1024k \( -name '*.md' -o -name '*.sh' \
		    -o -name '*.bash' -o -name '*.zsh' -o -name '*.py' -o -name '*.js' \
		    -o -name '*.mjs' -o -name '*.cjs' -o -name '*.ts' -o -name '*.ps1' \
		    -o -perm -u+x \) -print0 |
		    xargs -0 -r "$bin" --scan 2>/dev/null |
		    awk -F '\t' -v s="$s" '
			!seen[$2]++ { print $2 "\t" s "\t" $1 ":" $4 " " $5 }
			$3 != "info" && !w++ { print "(any warn+)\t" s "\t" $1 ":" $4 " " $5 }'
	done <"$tmp/list" >"$tmp/$col"
	echo "$n" >"$tmp/n$col"
	echo "$dir" >"$tmp/d$col"
done
if [ -n "${SHOW:-}" ]; then
	cat "$tmp"/[0-9]* | awk -F '\t' -v r="$SHOW" '$1 == r { print $2 "\t" $3 }'
	exit 0
fi
i=1; printf '%-18s' rule
while [ $i -le $col ]; do printf ' %12s' "$(basename "$(cat "$tmp/d$i")")($(cat "$tmp/n$i"))"; i=$((i + 1)); done
echo
cut -f1 "$tmp"/[0-9]* | sort -u | while read -r r; do
	printf '%-18s' "$r"
	i=1
	while [ $i -le $col ]; do
		printf ' %12s' "$(awk -F '\t' -v r="$r" '$1 == r' "$tmp/$i" | wc -l)"
		i=$((i + 1))
	done
	echo
done
