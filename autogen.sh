#!/bin/sh
# Regenerates the build system from configure.ac and Makefile.am.
set -e
cd "$(dirname "$0")"
mkdir -p build-aux
autoreconf -fi
cp -f "$(automake --print-libdir)/tap-driver.sh" build-aux/tap-driver.sh
