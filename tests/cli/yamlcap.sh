#!/bin/sh
# YAML nested too deeply is refused before libyaml loads it (60 KB of
# "[[[[" took seconds): as yaml-too-complex in a frontmatter, never read
# line by line as recovered, and as a clear error in the config file.
# timeout only bounds a regression; the checks are on the results.
. "$(dirname "$0")/setup.sh"

mkdir -p "$T/deep"
{ printf -- '---\nname: deep\ndescription: Nested flow.\nx: '
  head -c 60000 /dev/zero | tr '\0' '['
  printf '\n---\nBody.\n'; } >"$T/deep/SKILL.md"
status 1 "validate refuses a 60 KB flow bomb" timeout 30 "$SR" validate "$T/deep/SKILL.md"
contains "$(cat "$T/.out")" "yaml-too-complex" "... as yaml-too-complex"
lacks "$(cat "$T/.out")" "yaml-recovered" "... not read line by line"

{ printf 'x: '; head -c 60000 /dev/zero | tr '\0' '['; printf '\n'; } >"$T/c.yaml"
status 3 "a config of 60 KB of flow nesting is refused" timeout 30 "$SR" --config "$T/c.yaml" list
contains "$(cat "$T/.out")" "c.yaml:1:14: YAML nested 11 levels deep or more: not a configuration file" \
	"... naming where and why"

done_testing
