#!/bin/sh
# .ci/deps, the README's first command: as root it installs with apt-get
# directly (a container has no sudo); as another user it runs itself again
# through sudo, and only when something is missing. Fake id, dpkg-query,
# apt-get and sudo on PATH record what would have run.
. "$(dirname "$0")/setup.sh"
D="$TOP_SRCDIR/.ci/deps"
mkdir -p "$T/fake"
fake() {	# fake NAME BODY
	printf '#!/bin/sh\n%s\n' "$2" >"$T/fake/$1"
	chmod +x "$T/fake/$1"
}
fake dpkg-query 'exit 1'	# nothing installed
fake apt-get 'echo "apt-get $*" >>"$LOG"'
fake node 'exit 0'
fake sudo 'echo "sudo $*" >>"$LOG"'
run() {	# run UID: .ci/deps as that user id, with the fakes first on PATH
	fake id "[ \"\$1\" = -u ] && echo $1"
	: >"$T/log"
	set +e; LOG="$T/log" PATH="$T/fake:$PATH" sh "$D" >"$T/.out" 2>&1; _s=$?; set -e
	return $_s
}

run 0; ok $? "as root: exit 0"
contains "$(cat "$T/log")" "apt-get install" "as root: apt-get installs the missing packages"
lacks "$(cat "$T/log")" "sudo" "as root: no sudo (a container has none)"

run 1000; ok $? "as a user: exit 0"
is "$(cat "$T/log")" "sudo $(cd "$TOP_SRCDIR/.ci" && pwd)/deps" "as a user: runs itself again through sudo, by its absolute path"

rm "$T/fake/sudo"
fake which 'exit 1'
set +e; LOG="$T/log" PATH="$T/fake:/usr/bin:/bin" sh -c 'command -v sudo' >/dev/null 2>&1; has_sudo=$?; set -e
if [ "$has_sudo" != 0 ]; then
	run 1000 && r=1 || r=0; ok $r "as a user without sudo: fails"
	contains "$(cat "$T/.out")" "not root and no sudo" "  saying why"
else
	skip_one "a real sudo is installed"; skip_one "a real sudo is installed"
fi

fake dpkg-query "echo 'install ok installed'"
fake sudo 'echo "sudo $*" >>"$LOG"'
run 1000; ok $? "nothing missing: exit 0"
is "$(cat "$T/log")" "" "nothing missing: neither sudo nor apt-get"
done_testing
