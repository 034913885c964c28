#!/bin/sh
# Builds skills-radar and installs it the way the container image ships it
# (prefix /usr, sysconfdir /etc) into DESTDIR. The Dockerfile's build stage
# runs this script and copies DESTDIR into the runtime stage;
# tests/image/image.sh runs it too and checks the tree, so the test sees
# exactly what the image holds.
#   install-tree.sh SRCDIR BUILDDIR DESTDIR
set -eu
[ $# -eq 3 ] || { echo "usage: install-tree.sh SRCDIR BUILDDIR DESTDIR" >&2; exit 2; }
src=$(cd "$1" && pwd)
build=$2
dest=$3
case $dest in /*) ;; *) dest=$(pwd)/$dest ;; esac
# A git checkout has no configure yet; a release tarball has.
[ -x "$src/configure" ] || (cd "$src" && ./autogen.sh)
mkdir -p "$build"
cd "$build"
"$src/configure" -q --prefix=/usr --sysconfdir=/etc --localstatedir=/var
make -j"${JOBS:-2}"
make install DESTDIR="$dest"
