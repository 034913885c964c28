#!/bin/sh
# The man pages: generated, lint-clean, and in step with the commands.
. "$(dirname "$0")/setup.sh"
: "${TOP_BUILDDIR:?}"
page1="$TOP_BUILDDIR/man/skills-radar.1"
page5="$TOP_BUILDDIR/man/skills-radar.yaml.5"
ok "$([ -s "$page1" ]; echo $?)" "skills-radar.1 was generated"
ok "$([ -s "$page5" ]; echo $?)" "skills-radar.yaml.5 was generated"
if grep -Eq '@[A-Z0-9_]+@' "$page1" "$page5"; then ok 1 "no unreplaced @PLACEHOLDER@"; else ok 0 "no unreplaced @PLACEHOLDER@"; fi
if command -v mandoc >/dev/null 2>&1; then
	for p in "$page1" "$page5"; do
		out=$(mandoc -Tlint -W warning "$p" 2>&1 | grep -v 'referenced manual not found' || true)
		is "$out" "" "mandoc -Tlint is clean: $(basename "$p")"
	done
else
	echo "ok $((tap_n + 1)) # SKIP mandoc not installed"; tap_n=$((tap_n + 1))
fi
# every command in the table is documented, with each of its long options
for cmd in $("$SR" --help | awk '/^commands:/{f=1;next} f&&/^  /{print $1} f&&!NF{exit}'); do
	grep -q "^\.It Cm $cmd" "$page1" && r=0 || r=1; ok $r "the man page documents '$cmd'"
	usage=$("$SR" "$cmd" --help | head -1)
	for opt in $(printf '%s\n' "$usage" | grep -o -- '--[a-z-]*' | sort -u); do
		grep -q -- "Fl -${opt#--}" "$page1" && r=0 || r=1; ok $r "the man page documents $cmd $opt"
	done
done
# every rule id a finding can carry is listed
for id in $("$SR" --config /dev/null validate --rules-mdoc | awk '/^\.It Li/{print $3}'); do
	grep -q "^\.It Li $id " "$page1" && r=0 || r=1; ok $r "rule $id is in VALIDATION RULES"
done
# the examples run
check "example: index" env SKILL_PATHS="$TOP_SRCDIR/config/examples" "$SR" index
check "example: search" env SKILL_PATHS="$TOP_SRCDIR/config/examples" "$SR" search "fill in a PDF form"
check "example: validate" "$SR" validate "$TOP_SRCDIR/config/examples/skills"
status 0 "example: scan --sarif" "$SR" scan --sarif "$TOP_SRCDIR/config/examples/skills"
check "example: load" env SKILL_PATHS="$TOP_SRCDIR/config/examples" "$SR" load pdf-form-filler
check "example: read" env SKILL_PATHS="$TOP_SRCDIR/config/examples" "$SR" read pdf-form-filler references/field-types.md
done_testing
