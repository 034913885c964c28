#!/bin/sh
# load, read: resolution, paging, refusals.
. "$(dirname "$0")/setup.sh"
. "$TESTDIR/fixture.sh"
install_tree
mkdir -p "$T/clones/gamma"
printf -- '---\nname: gamma\ndescription: Only in the untrusted clone.\n---\nGamma body.\n' >"$T/clones/gamma/SKILL.md"
"$SR" index >/dev/null

out=$("$SR" load alpha)
contains "$out" "Step one" "load prints the body"
lacks "$out" "description:" "load leaves the frontmatter out"
"$SR" load --json alpha >"$T/a.json"
for k in name kind trust scope path content warnings files truncated next_offset; do
	is "$(json "'$k' in j" <"$T/a.json")" true "load --json has $k"
done
is "$(json 'j.trust' <"$T/a.json")" USER "load reports the tier"
is "$("$SR" load --json beta | json 'j.files.map(f=>f.path).join()')" \
	"assets/logo.png,references/guide.md,scripts/run.sh" "load lists bundled files one level deep"
is "$("$SR" load --json reviewer | json 'j.name')" "agent:reviewer" "a bare name falls back to the agent"
is "$("$SR" load --json git:commit | json 'j.name')" "cmd:git:commit" "a bare name falls back to the command"
is "$("$SR" load --json flagged | json 'j.warnings.length>0')" true "a flagged body carries warnings"
is "$("$SR" load --json flagged | json 'j.warnings.every(w=>w.id&&w.severity&&w.line>0&&"excerpt" in w)')" true \
	"each warning has id, severity, line and excerpt"

status 4 "unknown name exits 4" "$SR" load alpah
contains "$(cat "$T/.out")" "did you mean 'alpha'" "unknown name suggests the closest"
status 6 "a user-only skill is refused" "$SR" load user-only
contains "$(cat "$T/.out")" "/user-only" "the refusal tells the model the user must invoke it"

# paging
"$SR" load --json --max-bytes 10 alpha >"$T/p1.json"
is "$(json 'j.truncated+","+j.next_offset+","+j.content.length' <"$T/p1.json")" "true,10,10" "--max-bytes pages"
"$SR" load --json --offset 10 alpha >"$T/p2.json"
is "$(json 'j.truncated+","+j.next_offset' <"$T/p2.json")" "false,null" "--offset reads the rest"
whole=$("$SR" load --json alpha | json 'j.content')
is "$(json 'j.content' <"$T/p1.json")$(json 'j.content' <"$T/p2.json")" "$whole" "pages join to the whole body"
status 2 "offset past the end" "$SR" load --offset 99999 alpha
status 2 "--max-bytes 0 is a usage error" "$SR" load --max-bytes 0 alpha
status 2 "--offset not a number" "$SR" load --offset ten alpha
status 2 "missing NAME" "$SR" load

# an edit shows without re-indexing
printf 'Step three: freshly edited.\n' >>"$HOME/.claude/skills/alpha/SKILL.md"
contains "$("$SR" load alpha)" "freshly edited" "load re-reads the file"

# trust.min_tier_for_load
cat >>"$XDG_CONFIG_HOME/skills-radar/config.yaml" <<EOC
trust:
  min_tier_for_load: user
EOC
status 6 "an UNTRUSTED skill is refused below min_tier_for_load" "$SR" load gamma
contains "$(cat "$T/.out")" "min_tier_for_load" "the refusal names the setting"
status 0 "--allow-untrusted overrides min_tier_for_load" "$SR" load --allow-untrusted gamma
status 0 "USER skills still load" "$SR" load alpha

# read
is "$("$SR" read beta references/guide.md)" "# Guide

Group commits by type." "read prints a bundled file"
is "$("$SR" read --json beta scripts/run.sh | json 'j.name+" "+j.path')" "beta scripts/run.sh" "read --json"
status 6 "read refuses '..'" "$SR" read beta ../alpha/SKILL.md
contains "$(cat "$T/.out")" "'..'" "the '..' refusal says why"
status 6 "read refuses an absolute path" "$SR" read beta /etc/passwd
contains "$(cat "$T/.out")" "absolute" "the absolute-path refusal says why"
status 6 "read refuses a binary file" "$SR" read beta assets/logo.png
contains "$(cat "$T/.out")" "binary" "the binary refusal says why"
status 4 "read of a missing file" "$SR" read beta references/none.md
ln -s /etc/passwd "$HOME/.claude/skills/beta/references/passwd.md"
status 6 "read refuses a symlink out of the folder" "$SR" read beta references/passwd.md
contains "$(cat "$T/.out")" "outside the skill folder" "the symlink refusal says why"
status 6 "read refuses a directory" "$SR" read beta references
head -c 3000 /dev/zero | tr '\0' 'a' >"$HOME/.claude/skills/beta/references/big.md"
cat >>"$XDG_CONFIG_HOME/skills-radar/config.yaml" <<EOC
limits:
  max_related_kb: 2
EOC
status 6 "read refuses a file over limits.max_related_kb" "$SR" read beta references/big.md
contains "$(cat "$T/.out")" "max_related_kb" "the size refusal names the limit"
is "$("$SR" load --json beta | json 'j.files_truncated')" false "files_truncated is false under the cap"
echo "  max_files_per_skill: 1" >>"$XDG_CONFIG_HOME/skills-radar/config.yaml"
is "$("$SR" load --json beta | json 'j.files.length+","+j.files_truncated')" "1,true" \
	"limits.max_files_per_skill caps the list and says so"
status 4 "read of an unknown skill" "$SR" read nosuch references/guide.md
status 4 "read of an agent: no bundled files" "$SR" read reviewer x.md
status 2 "read needs NAME and PATH" "$SR" read beta

# symlinks are not followed on the way to a served file (issue 32)
B="$HOME/.claude/skills/beta"
mkdir -p "$B/inner" "$T/away"
echo "inside text" >"$B/inner/in.md"
echo "AWS_SECRET_ACCESS_KEY=outside" >"$T/away/in.md"
ln -s inner "$B/linked"
status 6 "read refuses a path through a symlinked folder" "$SR" read beta linked/in.md
contains "$(cat "$T/.out")" "symlink" "the refusal names the symlink"
is "$("$SR" read beta inner/in.md)" "inside text" "the real folder still reads"
printf -- '---\nname: alpha\ndescription: Stolen.\n---\nAWS_SECRET_ACCESS_KEY=outside\n' >"$T/away/cred.md"
mv "$HOME/.claude/skills/alpha/SKILL.md" "$T/alpha.md"
ln -s "$T/away/cred.md" "$HOME/.claude/skills/alpha/SKILL.md"
status 6 "load refuses a SKILL.md that became a symlink after indexing" "$SR" load alpha
lacks "$(cat "$T/.out")" "AWS_SECRET" "the symlink's target is not served"
contains "$(cat "$T/.out")" "symlink" "the refusal says why"
# A CLI user is told the CLI command, not the MCP tool (#34).
status 4 "a name nothing resembles" "$SR" load zzqq-nothing-like-it
contains "$(cat "$T/.out")" "skills-radar search" "  points at 'skills-radar search'"
lacks "$(cat "$T/.out")" "search_skills" "  not at the MCP tool search_skills"

done_testing
