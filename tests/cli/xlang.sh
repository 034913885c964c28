#!/bin/sh
# xlang: queries in other languages find English skills by meaning, English
# queries find a skill written in Chinese, with the built-in lexicon alone
# and with dictd dictionaries (the fixtures under tests/data/xlang/dict and
# dict-pl, an eng-pol read backwards, and the installed FreeDict ones when
# present); doctor reports both, and a
# broken lexicon is a doctor problem, not a search failure.
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/cli/setup.sh"

X="$DATA/xlang"
SKILL_PATHS="$X/skills"
SKILLS_RADAR_DICT_DIR=	# the lexicon alone, unless a check says otherwise
export SKILL_PATHS SKILLS_RADAR_DICT_DIR COLUMNS=100

check "index the fixture skills" "$SR" index

top() {	# top QUERY: the name of the first match
	"$SR" search --json --top-k 3 "$@" 2>/dev/null |
	    sed -n 's/.*"name":	"\([^"]*\)".*/\1/p' | head -1
}

is "$(top "Rechnungen aus PDF-Dateien extrahieren")" "invoice-extractor" \
    "a German query finds the English invoice skill"
is "$(top "crear una presentación de ventas")" "sales-deck" \
    "a Spanish query finds the English sales deck"
is "$(top "审查供应商合同的风险")" "contract-risk-review" \
    "a Chinese query finds the English contract review"
is "$(top "顧客データの分析レポート")" "kehu-shuju-fenxi" \
    "a Japanese query finds the Chinese skill through English"
is "$(top "weekly customer data analysis report")" "kehu-shuju-fenxi" \
    "an English query finds the skill written in Chinese"
is "$(top "Rechnungen nach Lieferant ablegen")" "rechnungsablage" \
    "a German query still finds the German skill first"
out=$("$SR" search --json --explain "Rechnungen nach Lieferant ablegen")
lacks "$out" '"translated"' "a query found as typed is not translated"

out=$("$SR" search --json --explain "extraer las facturas")
contains "$out" '"translated":	"extract' "--explain shows the rendering that matched"
contains "$out" '"covered":	1' "... and how much of the query it translated"
out=$("$SR" search --json --explain "extract invoice totals")
lacks "$out" '"translated"' "an English query is not translated"
out=$("$SR" search --json "+Rechnungen extrahieren")
lacks "$out" '"invoice-extractor"' "a +term query runs as typed"

# A word only a dictionary knows: "Bestellung" (order) is not in the lexicon.
lacks "$(top "die Bestellung")" "purchase-order-tracker" \
    "without dictionaries an unknown German word stays German"
SKILLS_RADAR_DICT_DIR="$X/dict"
is "$(top "die Bestellung")" "purchase-order-tracker" \
    "with the fixture deu-eng, the query finds the purchase-order skill"
out=$("$SR" doctor)
contains "$out" "dictionaries: deu-eng, jpn-eng (under $X/dict)" \
    "doctor lists the dictionaries found"
out=$("$SR" doctor --json)
contains "$out" '"concepts":' "doctor --json reports the lexicon"
SKILLS_RADAR_DICT_DIR=

if [ -r /usr/share/dictd/freedict-deu-eng.index ]; then
	SKILLS_RADAR_DICT_DIR=/usr/share/dictd
	out=$("$SR" doctor)
	contains "$out" "deu-eng" "doctor finds the installed FreeDict deu-eng"
	is "$(top "die Bestellung")" "purchase-order-tracker" \
	    "the installed deu-eng knows Bestellung"
	SKILLS_RADAR_DICT_DIR=
else
	skip_one "dict-freedict-deu-eng is not installed"
	skip_one "dict-freedict-deu-eng is not installed"
fi

# Polish through an eng-pol read backwards (Debian has no pol-eng): the
# fixture knows "order" -> "zamówienie"; the query has its plural.
is "$(top "zamówienia dla klienta")" "kehu-shuju-fenxi" \
    "without eng-pol, a Polish word the lexicon lacks stays Polish"
SKILLS_RADAR_DICT_DIR="$X/dict-pl"
is "$(top "zamówienia dla klienta")" "purchase-order-tracker" \
    "with eng-pol read backwards, zamówienia (orders) finds the order skill"
out=$("$SR" doctor)
contains "$out" "dictionaries: eng-pol" "doctor lists eng-pol"
SKILLS_RADAR_DICT_DIR=

# A broken lexicon: doctor names it, search runs in the query's language.
mkdir -p "$T/data/xlang"
cp -R "$TOP_SRCDIR/config/patterns" "$T/data/"
printf 'invoice\tRechnung\n' >"$T/data/xlang/lexicon.tsv"
status 1 "doctor counts the bad lexicon as a problem (exit 1)" \
    env SKILLS_RADAR_DATADIR="$T/data" "$SR" doctor
out=$(SKILLS_RADAR_DATADIR="$T/data" "$SR" doctor 2>&1 || true)
contains "$out" "lexicon.tsv: line 1: 2 columns" "doctor names the bad line"
status 0 "search still works" env SKILLS_RADAR_DATADIR="$T/data" \
    "$SR" search "Rechnungen extrahieren"

echo "1..$tap_n"
[ "$tap_failed" = 0 ]
