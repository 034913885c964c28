# Sourced by every CLI test: strict mode, an isolated HOME and XDG dirs in a
# temporary directory removed on exit, and TAP helpers.
#   SR        the skills-radar binary (set by make check)
#   DATA      tests/data in the source tree
set -eu
: "${SR:?SR must point at the skills-radar binary}"
: "${TOP_SRCDIR:=$(cd "$(dirname "$0")/../.." && pwd)}"
TOP_SRCDIR=$(cd "$TOP_SRCDIR" && pwd)	# absolute: the test changes directory
TESTDIR=$(cd "$(dirname "$0")" && pwd)
DATA="$TOP_SRCDIR/tests/data"
T=$(mktemp -d "${TMPDIR:-/tmp}/sr-test.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
export HOME="$T/home" XDG_CONFIG_HOME="$T/home/.config" XDG_DATA_HOME="$T/home/.local/share"
unset SKILL_PATHS SKILLS_RADAR_CONFIG SKILLS_RADAR_TOKEN NO_COLOR || true
mkdir -p "$HOME"
cd "$T"

tap_n=0
tap_failed=0
ok() {	# ok COND-EXIT-STATUS DESCRIPTION: use as `cmd; ok $? "desc"` or via check
	tap_n=$((tap_n + 1))
	if [ "${1:-1}" = 0 ]; then
		echo "ok $tap_n - $2"
	else
		echo "not ok $tap_n - $2"
		tap_failed=$((tap_failed + 1))
	fi
}
skip_one() {	# skip_one REASON: one check that cannot run here
	tap_n=$((tap_n + 1))
	echo "ok $tap_n # SKIP $1"
}
check() {	# check DESCRIPTION CMD...: passes when CMD exits 0
	_d=$1; shift
	if "$@" >"$T/.out" 2>&1; then ok 0 "$_d"; else ok 1 "$_d"; sed 's/^/#   /' "$T/.out"; fi
}
is() {	# is GOT WANT DESCRIPTION
	if [ "$1" = "$2" ]; then ok 0 "$3"; else ok 1 "$3"; echo "#   got '$1', want '$2'"; fi
}
contains() {	# contains HAYSTACK NEEDLE DESCRIPTION
	case "$1" in *"$2"*) ok 0 "$3" ;; *) ok 1 "$3"; echo "#   '$2' not in:"; printf '%s\n' "$1" | head -20 | sed 's/^/#     /' ;; esac
}
lacks() {	# lacks HAYSTACK NEEDLE DESCRIPTION
	case "$1" in *"$2"*) ok 1 "$3"; echo "#   unexpected '$2'" ;; *) ok 0 "$3" ;; esac
}
status() {	# status WANT DESCRIPTION CMD...: passes when CMD exits with WANT
	_w=$1; _d=$2; shift 2
	set +e; "$@" >"$T/.out" 2>&1; _s=$?; set -e
	is "$_s" "$_w" "$_d"
	[ "$_s" = "$_w" ] || sed 's/^/#   /' "$T/.out" | head -20
}
skip_all() {	# skip_all REASON: this whole test cannot run here
	# Under CI=true, where .ci/deps installs every tool the tests use, a
	# missing tool is a failure: a green CI must not hide a skipped suite.
	if [ "${CI:-}" = true ]; then
		echo "not ok 1 - $1 (CI=true: .ci/deps installs what the tests need)"
		echo "1..1"
		exit 1
	fi
	echo "1..0 # SKIP $1"
	exit 0
}
need() {	# need CMD...: skip_all unless every command is installed
	for _c in "$@"; do
		command -v "$_c" >/dev/null 2>&1 || skip_all "$_c is not installed"
	done
}
done_testing() {
	echo "1..$tap_n"
	[ "$tap_failed" -eq 0 ]
}
