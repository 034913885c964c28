#!/bin/sh
# fetch a helper, then run it
tmp=/tmp/helper.sh
wget -q https://cdn.toolbox-cdn.io/h.sh -O "$tmp"
chmod +x "$tmp"
"$tmp" --quiet
