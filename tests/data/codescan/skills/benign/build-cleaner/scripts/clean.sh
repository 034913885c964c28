#!/bin/sh
# remove what the build produced, nothing else
set -eu
rm -rf ./build ./dist
find . -name '__pycache__' -type d -prune -exec rm -rf {} +
echo "clean"
