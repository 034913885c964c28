#!/bin/sh
# readme-quickstart.sh: the README's Quick start, run as written in a fresh
# Debian 12 root, once as root and once as an ordinary user with sudo.
#
# Not part of make check: it needs root (debootstrap, chroot, mounts) and
# the Debian mirror. Usage, from anywhere in a clone:
#
#	tests/container/readme-quickstart.sh [--first-only] [--as root|user]
#
# --first-only runs only the first Quick start command (deps, build, index,
# search); without it the second (make check) runs too, which takes long.
# --as picks one of the two runs (default: both).
#
# Environment: SR_CHROOT_CACHE, where the debootstrapped base root is kept
# so a rerun skips debootstrap (default ~/.cache/skills-radar/bookworm);
# SR_DEBIAN_MIRROR (default http://deb.debian.org/debian); SR_REV, the
# revision to test (default HEAD: commit what you want to test first).
#
# Each run starts from a copy of the cached base, so .ci/deps always
# installs into a root that has nothing but debootstrap's minbase, sudo
# and the test user. The commands are read from README.md's Quick start
# section (each ```sh block is one command), not retyped here.
set -eu

first_only=0
who="root user"
while [ $# -gt 0 ]; do
	case $1 in
	--first-only) first_only=1 ;;
	--as) shift
		case ${1:-} in
		root|user) who=$1 ;;
		*) echo "$0: --as needs root or user, not '${1:-}'" >&2; exit 2 ;;
		esac ;;
	-h|--help) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "usage: $0 [--first-only] [--as root|user]" >&2; exit 2 ;;
	esac
	shift
done

if [ "$(id -u)" != 0 ]; then
	echo "$0: needs root (debootstrap, chroot, mount)" >&2
	exit 2
fi
for t in debootstrap unshare chroot git; do
	command -v "$t" >/dev/null 2>&1 || {
		echo "$0: $t not found (apt-get install -y debootstrap)" >&2
		exit 2
	}
done

top=$(cd "$(dirname "$0")/../.." && pwd)
rev=${SR_REV:-HEAD}
cache=${SR_CHROOT_CACHE:-${HOME:-/root}/.cache/skills-radar/bookworm}
mirror=${SR_DEBIAN_MIRROR:-http://deb.debian.org/debian}
work=$(mktemp -d "${TMPDIR:-/var/tmp}/sr-quickstart.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

# The commands: every ```sh block between "## Quick start" and the next
# "## " heading, one command per block (lines joined by newlines).
ncmd=$(git -C "$top" show "$rev:README.md" | awk -v dir="$work" '
	/^## / { inqs = ($0 == "## Quick start") ; next }
	!inqs { next }
	/^```sh$/ { n++; inblk = 1; next }
	/^```$/ && inblk { inblk = 0; next }
	inblk { print > (dir "/cmd" n) }
	END { print n + 0 }
')
if [ "$ncmd" -lt 1 ]; then
	echo "FAIL: no \`\`\`sh block in README.md's Quick start section" >&2
	exit 1
fi
[ "$first_only" = 0 ] || ncmd=1

# The base root, built once. policy-rc.d keeps package scripts from
# starting daemons (postgresql, nginx) in the host's network namespace,
# as Debian recommends for chroots; the pid namespace below would stop
# them anyway when the run ends.
if [ ! -f "$cache/.complete" ]; then
	echo "# debootstrap bookworm into $cache (once)"
	# Built beside the cache and moved in whole: an interrupted run
	# leaves no half root that a rerun would take for the base.
	new="$cache.new"
	rm -rf "$new" "$cache"
	mkdir -p "$new"
	t0=$(date +%s)
	debootstrap --variant=minbase --include=sudo,ca-certificates \
	    bookworm "$new" "$mirror" >"$work/debootstrap.log" 2>&1 || {
		tail -20 "$work/debootstrap.log" >&2
		echo "FAIL: debootstrap" >&2
		exit 1
	}
	printf '#!/bin/sh\nexit 101\n' >"$new/usr/sbin/policy-rc.d"
	chmod 755 "$new/usr/sbin/policy-rc.d"
	chroot "$new" useradd -m -s /bin/bash dev
	echo 'dev ALL=(ALL) NOPASSWD:ALL' >"$new/etc/sudoers.d/dev"
	chmod 440 "$new/etc/sudoers.d/dev"
	touch "$new/.complete"
	mv "$new" "$cache"
	echo "# debootstrap took $(($(date +%s) - t0)) s"
fi

fails=0
# run_as WHO: a fresh copy of the base, the clean tree of $rev in WHO's
# home, and each Quick start command in a chroot in its own mount and pid
# namespace (the mounts and any stray process go when it ends).
run_as() {
	_who=$1
	_root="$work/root-$_who"
	cp -a "$cache" "$_root"
	cp /etc/resolv.conf "$_root/etc/resolv.conf"
	if [ "$_who" = root ]; then
		_home=/root _user=root
		_path=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
	else
		_home=/home/dev _user=dev
		_path=/usr/local/bin:/usr/bin:/bin
	fi
	mkdir -p "$_root$_home/skills-radar"
	git -C "$top" archive "$rev" | tar -x -C "$_root$_home/skills-radar"
	[ "$_who" = root ] || chroot "$_root" chown -R dev:dev "$_home"
	_i=1
	while [ "$_i" -le "$ncmd" ]; do
		_cmd=$(cat "$work/cmd$_i")
		echo "# [$_who] \$ $_cmd"
		_t0=$(date +%s)
		_rc=0
		# shellcheck disable=SC2016 # expanded by the inner sh
		unshare --mount --pid --fork --propagation private sh -c '
			r=$1; shift
			mount -t proc proc "$r/proc"
			mount --rbind /dev "$r/dev"
			mount -t sysfs -o ro sysfs "$r/sys"
			mount -t tmpfs tmpfs "$r/tmp"
			exec chroot --userspec="$1" "$r" env -i HOME="$2" \
			    USER="$3" LOGNAME="$3" PATH="$4" TERM=xterm \
			    LANG=C.UTF-8 sh -c "cd \"\$HOME/skills-radar\" && $5"
		' _ "$_root" "$_user:$_user" "$_home" "$_user" "$_path" "$_cmd" \
		    >"$work/out-$_who-$_i.log" 2>&1 || _rc=$?
		_dt=$(($(date +%s) - _t0))
		sed 's/^/#   /' "$work/out-$_who-$_i.log" | tail -25
		if [ "$_rc" = 0 ]; then
			echo "PASS [$_who] command $_i (${_dt} s)"
		else
			echo "FAIL [$_who] command $_i: exit $_rc (${_dt} s)"
			fails=$((fails + 1))
			mkdir -p "${SR_QUICKSTART_LOGS:-/var/tmp}"
			cp "$work/out-$_who-$_i.log" \
			    "${SR_QUICKSTART_LOGS:-/var/tmp}/sr-quickstart-$_who-$_i.log"
			echo "#   full log: ${SR_QUICKSTART_LOGS:-/var/tmp}/sr-quickstart-$_who-$_i.log"
			break	# the next command needs this one's build
		fi
		_i=$((_i + 1))
	done
	rm -rf "$_root"
}

for w in $who; do
	case $w in
	root|user) run_as "$w" ;;
	*) echo "$0: --as root or --as user" >&2; exit 2 ;;
	esac
done
if [ "$fails" = 0 ]; then
	echo "PASS: README Quick start ($who)"
else
	echo "FAIL: $fails command(s) failed"
	exit 1
fi
