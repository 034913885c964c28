#!/bin/sh
# client add/remove on fixture configuration files of each client: other
# servers and keys kept, JSON/TOML still valid, a second run changes
# nothing, unparsable files left alone, doctor reports what is configured.
. "$(dirname "$0")/setup.sh"
. "$TESTDIR/fixture.sh"
C="$DATA/clients"
SELF=$(realpath "$SR")
mkdir -p "$T/proj"
cd "$T/proj"

# toml_ok FILE: python3's tomllib parses it (skipped without python 3.11).
if command -v python3 >/dev/null 2>&1 && python3 -c 'import tomllib' 2>/dev/null; then
	toml() { python3 -c 'import sys,tomllib,json;print(json.dumps(tomllib.load(open(sys.argv[1],"rb"))))' "$1"; }
else
	toml() { echo "SKIP"; }
fi

# ---- Claude Code, user scope (~/.claude.json) ----
cp "$C/claude.json" "$HOME/.claude.json"
# The mode the copy got (the fixture's own can differ: git archive writes
# 0664, which a umask of 022 turns into 0644 here).
mode0=$(stat -c %a "$HOME/.claude.json")
out=$("$SR" client add claude-code)
contains "$out" "added to $HOME/.claude.json" "claude-code: add reports the file"
contains "$out" "backup: $HOME/.claude.json.bak" "claude-code: add reports the backup"
check "claude-code: the backup is the old file" cmp "$C/claude.json" "$HOME/.claude.json.bak"
j=$(json 'j.mcpServers["skills-radar"].type+" "+j.mcpServers["skills-radar"].command+" "+j.mcpServers["skills-radar"].args.join(",")' <"$HOME/.claude.json")
is "$j" "stdio $SELF serve" "claude-code: a stdio entry with this binary's path"
is "$(json 'j.mcpServers.github.env.GITHUB_TOKEN+" "+j.numStartups+" "+j.lastCost+" "+Object.keys(j.projects)[0]' <"$HOME/.claude.json")" \
    "x 42 0.12345678901234566 /home/u/src/app" "claude-code: other servers and keys kept exactly"
is "$(json 'Object.keys(j).join(",")' <"$HOME/.claude.json")" "numStartups,firstStartTime,lastCost,mcpServers,projects" \
    "claude-code: key order kept"
cp "$HOME/.claude.json" "$T/before"
rm "$HOME/.claude.json.bak"
out=$("$SR" client add claude-code)
contains "$out" "nothing changed" "claude-code: a second add changes nothing"
check "claude-code: the file is byte-identical after the second add" cmp "$T/before" "$HOME/.claude.json"
ok "$([ ! -e "$HOME/.claude.json.bak" ]; echo $?)" "claude-code: no backup when nothing changed"
"$SR" client add claude-code --http http://127.0.0.1:6580/mcp >/dev/null
is "$(json 'JSON.stringify(j.mcpServers["skills-radar"])' <"$HOME/.claude.json")" \
    '{"type":"http","url":"http://127.0.0.1:6580/mcp"}' "claude-code: --http switches the entry to HTTP"
out=$("$SR" client remove claude-code)
contains "$out" "removed from" "claude-code: remove"
is "$(json '"skills-radar" in j.mcpServers' <"$HOME/.claude.json")" false "claude-code: the entry is gone"
is "$(json 'Object.keys(j.mcpServers).join(",")' <"$HOME/.claude.json")" github "claude-code: the other server stays"
cp "$HOME/.claude.json" "$T/before"
out=$("$SR" client remove claude-code)
contains "$out" "not configured" "claude-code: a second remove says so"
check "claude-code: ... and leaves the file alone" cmp "$T/before" "$HOME/.claude.json"
is "$(stat -c %a "$HOME/.claude.json")" "$mode0" "claude-code: the file mode is kept"

# a new ~/.claude.json is private; CLAUDE_CONFIG_DIR moves it
mkdir -p "$T/ccdir"
CLAUDE_CONFIG_DIR="$T/ccdir" "$SR" client add claude-code >/dev/null
is "$(stat -c %a "$T/ccdir/.claude.json")" 600 "claude-code: a new ~/.claude.json is mode 600, under CLAUDE_CONFIG_DIR"

# --config is passed on to the server
echo "paths: []" >"$T/cfg.yaml"
"$SR" --config "$T/cfg.yaml" client add cursor --scope project >/dev/null
is "$(json 'j.mcpServers["skills-radar"].args.join(" ")' <.cursor/mcp.json)" "--config $T/cfg.yaml serve" \
    "--config FILE is written into the server's arguments"
rm -rf .cursor

# ---- Claude Code, project scope (.mcp.json) ----
cp "$C/mcp.json" .mcp.json
"$SR" client add claude-code --scope project >/dev/null
is "$(json 'Object.keys(j.mcpServers).join(",")' <.mcp.json)" "postgres,skills-radar" "project: .mcp.json keeps postgres and gains skills-radar"
cp .mcp.json "$T/before"
"$SR" client add claude-code --scope project >/dev/null
check "project: second add is a no-op" cmp "$T/before" .mcp.json
"$SR" client remove claude-code --scope project >/dev/null
check "project: remove restores the servers" test "$(json 'JSON.stringify(j)' <.mcp.json)" = "$(json 'JSON.stringify(j)' <"$C/mcp.json")"

# a project's shared file names the binary by PATH when that finds this one
mkdir -p "$T/bin"
ln -s "$SELF" "$T/bin/skills-radar"
PATH="$T/bin:$PATH" "$SR" client add claude-code --scope project >/dev/null
is "$(json 'j.mcpServers["skills-radar"].command' <.mcp.json)" skills-radar "project: the command is 'skills-radar' when PATH finds this binary"
PATH="$T/bin:$PATH" "$SR" client add claude-code >/dev/null
is "$(json 'j.mcpServers["skills-radar"].command' <"$HOME/.claude.json")" "$SELF" "user: the command stays absolute"
"$SR" client remove claude-code --scope project >/dev/null

# ---- Claude Desktop ----
D="$XDG_CONFIG_HOME/Claude/claude_desktop_config.json"
mkdir -p "${D%/*}"
cp "$C/claude_desktop_config.json" "$D"
"$SR" client add claude-desktop >/dev/null
is "$(json 'Object.keys(j.mcpServers).join(",")+" "+j.globalShortcut+" "+("type" in j.mcpServers["skills-radar"])' <"$D")" \
    "filesystem,skills-radar Ctrl+Space false" "claude-desktop: entry added, no type key, others kept"
cp "$D" "$T/before"
"$SR" client add claude-desktop >/dev/null
check "claude-desktop: second add is a no-op" cmp "$T/before" "$D"
status 2 "claude-desktop: --http is refused" "$SR" client add claude-desktop --http http://127.0.0.1:6580/mcp
contains "$(cat "$T/.out")" "only starts stdio servers" "claude-desktop: ... with the reason"
status 2 "claude-desktop: --scope project is refused" "$SR" client add claude-desktop --scope project
check "claude-desktop: refused calls leave the file alone" cmp "$T/before" "$D"
"$SR" client remove claude-desktop >/dev/null
is "$(json 'Object.keys(j.mcpServers).join(",")' <"$D")" filesystem "claude-desktop: remove"

# ---- Cursor: an old entry of ours is updated, its env kept ----
mkdir -p "$HOME/.cursor"
cp "$C/cursor.json" "$HOME/.cursor/mcp.json"
out=$("$SR" client add cursor)
contains "$out" "updated in" "cursor: an existing entry is updated"
is "$(json 'JSON.stringify(j.mcpServers["skills-radar"])' <"$HOME/.cursor/mcp.json")" \
    "{\"command\":\"$SELF\",\"args\":[\"serve\"],\"env\":{\"SKILL_PATHS\":\"/home/u/skills\"}}" "cursor: command replaced, env kept"
is "$(json 'j.mcpServers.linear.url' <"$HOME/.cursor/mcp.json")" "https://mcp.linear.app/sse" "cursor: the other server stays"
"$SR" client add cursor --http http://localhost:6580/mcp >/dev/null
is "$(json 'JSON.stringify(j.mcpServers["skills-radar"])' <"$HOME/.cursor/mcp.json")" \
    '{"url":"http://localhost:6580/mcp"}' "cursor: --http writes url and drops command, args and env (stdio only)"
"$SR" client add cursor --scope project >/dev/null
check "cursor: --scope project writes .cursor/mcp.json" test -f .cursor/mcp.json

# ---- Gemini CLI ----
mkdir -p "$HOME/.gemini"
cp "$C/gemini-settings.json" "$HOME/.gemini/settings.json"
"$SR" client add gemini --http http://127.0.0.1:6580/mcp >/dev/null
is "$(json 'j.mcpServers["skills-radar"].httpUrl+" "+j.theme+" "+j.mcpServers.context7.timeout' <"$HOME/.gemini/settings.json")" \
    "http://127.0.0.1:6580/mcp GitHub 30000" "gemini: httpUrl for Streamable HTTP, the rest kept"
cp "$HOME/.gemini/settings.json" "$T/before"
"$SR" client add gemini --http http://127.0.0.1:6580/mcp >/dev/null
check "gemini: second add is a no-op" cmp "$T/before" "$HOME/.gemini/settings.json"
"$SR" client add gemini --scope project >/dev/null
is "$(json 'j.mcpServers["skills-radar"].command' <.gemini/settings.json)" "$SELF" "gemini: a new project settings.json"

# ---- Codex (TOML) ----
mkdir -p "$HOME/.codex"
X="$HOME/.codex/config.toml"
cp "$C/codex.toml" "$X"
"$SR" client add codex >/dev/null
check "codex: the block is appended" grep -q "^\[mcp_servers.skills-radar\]$" "$X"
check "codex: the original text is kept as a prefix" cmp -n "$(wc -c <"$C/codex.toml")" "$C/codex.toml" "$X"
t=$(toml "$X")
if [ "$t" = SKIP ]; then
	echo "ok $((tap_n + 1)) # SKIP python3 tomllib not available"; tap_n=$((tap_n + 1))
else
	is "$(printf '%s' "$t" | json 'j.mcp_servers["skills-radar"].command+" "+j.mcp_servers["skills-radar"].args+" "+j.mcp_servers.github.env.GITHUB_TOKEN+" "+j.profiles.fast.model')" \
	    "$SELF serve x gpt-5" "codex: valid TOML with our table and the others"
fi
cp "$X" "$T/before"
"$SR" client add codex >/dev/null
check "codex: second add is a no-op" cmp "$T/before" "$X"
"$SR" client remove codex >/dev/null
check "codex: remove restores the file byte for byte" cmp "$C/codex.toml" "$X"
out=$("$SR" client remove codex)
contains "$out" "nothing changed" "codex: a second remove changes nothing"
# an existing table: command/args replaced in place, other keys and the env subtable kept
cp "$C/codex-existing.toml" "$X"
"$SR" client add codex --http http://127.0.0.1:6580/mcp >/dev/null
is "$(sed -n '3,6p' "$X" | tr '\n' '|')" '[mcp_servers.skills-radar]|url = "http://127.0.0.1:6580/mcp"|startup_timeout_sec = 30||' \
    "codex: --http rewrites the table in place"
ok "$(! grep -q 'SKILL_PATHS\|skills-radar.env' "$X"; echo $?)" "codex: --http drops the env subtable (Codex refuses env on an HTTP server)"
check "codex: ... and keeps the other server" grep -q '^command = "other"$' "$X"
"$SR" client remove codex >/dev/null
is "$(cat "$X")" "$(printf 'model = "gpt-5-codex"\n\n[mcp_servers.other]\ncommand = "other"')" \
    "codex: remove drops the table and its subtable, nothing else"
# a new file
rm -f "$X"
CODEX_HOME="$T/codexhome" "$SR" client add codex >/dev/null
is "$(cat "$T/codexhome/config.toml")" "$(printf '[mcp_servers.skills-radar]\ncommand = "%s"\nargs = ["serve"]' "$SELF")" \
    "codex: a new config.toml under CODEX_HOME"
"$SR" client add codex --scope project >/dev/null
check "codex: --scope project writes .codex/config.toml" test -f .codex/config.toml
# an inline definition is not rewritten
cp "$C/codex-inline.toml" "$X"
status 3 "codex: an inline-table definition is refused" "$SR" client add codex
contains "$(cat "$T/.out")" "edit it by hand" "codex: ... with advice"
check "codex: ... and the file is untouched" cmp "$C/codex-inline.toml" "$X"

# ---- unparsable files are never overwritten ----
cp "$C/bad.json" "$HOME/.cursor/mcp.json"
status 3 "a JSON file with a trailing comma: exit 3" "$SR" client add cursor
contains "$(cat "$T/.out")" "mcp.json:4:" "... with file:line:column"
check "... and the file is untouched" cmp "$C/bad.json" "$HOME/.cursor/mcp.json"
status 3 "... remove refuses it too" "$SR" client remove cursor
cp "$C/bad.toml" "$X"
status 3 "an unterminated TOML string: exit 3" "$SR" client add codex
contains "$(cat "$T/.out")" "config.toml:1: not valid TOML" "... with file:line"
check "... and the file is untouched" cmp "$C/bad.toml" "$X"
echo '[1, 2]' >"$HOME/.claude.json"
status 3 "a top level that is not an object is refused" "$SR" client add claude-code
echo '{"mcpServers": []}' >"$HOME/.claude.json"
status 3 "an mcpServers that is not an object is refused" "$SR" client add claude-code

# ---- a symlinked file is written through the link ----
mkdir -p "$T/dotfiles"
cp "$C/mcp.json" "$T/dotfiles/claude.json"
ln -sf "$T/dotfiles/claude.json" "$HOME/.claude.json"
"$SR" client add claude-code >/dev/null
check "symlink: the link stays a link" test -L "$HOME/.claude.json"
is "$(json 'Object.keys(j.mcpServers).join(",")' <"$T/dotfiles/claude.json")" "postgres,skills-radar" "symlink: its target is updated"

# ---- usage errors ----
status 2 "no action" "$SR" client
status 2 "unknown action" "$SR" client list
status 2 "missing client" "$SR" client add
status 2 "unknown client" "$SR" client add vim
contains "$(cat "$T/.out")" "claude-code, claude-desktop, cursor, codex, gemini" "the error lists the clients"
status 2 "bad scope" "$SR" client add cursor --scope global
status 2 "a URL that is not http(s)" "$SR" client add cursor --http ftp://x/mcp
status 2 "a URL without host" "$SR" client add cursor --http http:///mcp
status 2 "a URL libcurl cannot parse (an unclosed IPv6 host)" "$SR" client add cursor --http "http://[::1/mcp"
status 2 "a port that is not a number" "$SR" client add cursor --http "http://127.0.0.1:80x/mcp"
status 2 "--http with remove" "$SR" client remove cursor --http http://x/mcp
status 2 "extra argument" "$SR" client add cursor extra
status 0 "--help" "$SR" client --help

# ---- doctor reports the clients ----
rm -f "$HOME/.claude.json"
cp "$C/claude.json" "$HOME/.claude.json"
"$SR" client add claude-code >/dev/null
"$SR" doctor --json >"$T/d.json" || true
is "$(json 'j.clients.filter(c=>c.configured).map(c=>c.client+"/"+c.scope+"/"+(c.transport||"")).join(" ")' <"$T/d.json")" \
    "claude-code/user/stdio cursor/project/stdio codex/project/stdio gemini/user/http gemini/project/stdio" \
    "doctor --json: configured clients with scope and transport"
is "$(json 'j.clients.find(c=>c.client=="codex"&&c.scope=="user").problem.includes("not valid TOML")' <"$T/d.json")" true \
    "doctor --json: an unparsable client file is reported"
out=$("$SR" doctor || true)
contains "$out" "clients:" "doctor text lists the clients"
contains "$out" "claude-code (user" "doctor text names a configured client"
# ---- switching transport leaves exactly the keys of the new one (#21.11) ----
export HOME="$T/h2" XDG_CONFIG_HOME="$T/h2/.config"
mkdir -p "$HOME/.codex" "$HOME/.gemini" "$HOME/.cursor"
X="$HOME/.codex/config.toml"
# codex, stdio with an env subtable and a dotted env key -> HTTP
{ cat "$C/codex-existing.toml"; printf '\n[mcp_servers.skills-radar2]\ncommand = "x"\n'; } >"$X"
sed -i 's/^startup_timeout_sec = 30$/startup_timeout_sec = 30\nenv_vars = ["HOME"]\ncwd = "\/tmp"/' "$X"
"$SR" client add codex --http http://127.0.0.1:6580/mcp >/dev/null
is "$(sed -n '/^\[mcp_servers.skills-radar\]$/,/^\[mcp_servers.other\]$/p' "$X" | tr '\n' '|')" \
    '[mcp_servers.skills-radar]|url = "http://127.0.0.1:6580/mcp"|startup_timeout_sec = 30||[mcp_servers.other]|' \
    "codex stdio->http: command, args, env, env_vars, cwd and the env subtable dropped; the timeout kept"
if [ "$(toml "$X")" != SKIP ]; then
	is "$(toml "$X" | json 'Object.keys(j.mcp_servers["skills-radar"]).join(",")+" "+Object.keys(j.mcp_servers).join(",")')" \
	    "url,startup_timeout_sec skills-radar,other,skills-radar2" "codex stdio->http: valid TOML, the other servers kept"
else
	skip_one "python3 tomllib not available"
fi
# codex, HTTP with a token and headers -> stdio
cp "$C/codex-http.toml" "$X"
"$SR" client add codex >/dev/null
is "$(sed -n '1,/^$/p' "$X" | tr '\n' '|')" \
    "[mcp_servers.skills-radar]|command = \"$SELF\"|args = [\"serve\"]|startup_timeout_sec = 30||" \
    "codex http->stdio: url, bearer_token_env_var and the http_headers subtable dropped"
check "codex http->stdio: the other HTTP server keeps its token variable" grep -q '^bearer_token_env_var = "GITHUB_PAT"$' "$X"
GITHUB_PAT=x "$SR" doctor --json >"$T/d.json" || true
is "$(json 'JSON.stringify(j.clients.find(c=>c.client=="codex").problems||[])' <"$T/d.json")" "[]" \
    "codex http->stdio: doctor finds nothing to refuse (its token variable set)"
"$SR" doctor --json >"$T/d.json" || true
contains "$(json 'JSON.stringify(j.clients.find(c=>c.client=="codex").problems||[])' <"$T/d.json")" \
    "server 'github' sends its token from \$GITHUB_PAT, which is not set here" \
    "codex http->stdio: ... and the other server's unset token variable when it is not"
# claude-code, HTTP with headers -> stdio: the headers go, the other server's stay
cp "$C/claude-http.json" "$HOME/.claude.json"
"$SR" client add claude-code >/dev/null
is "$(json 'Object.keys(j.mcpServers["skills-radar"]).join(",")+" "+JSON.stringify(j.mcpServers.notion)' <"$HOME/.claude.json")" \
    'type,command,args {"type":"http","url":"https://mcp.notion.com/mcp","headers":{"X-Custom":"1"}}' \
    "claude-code http->stdio: no unused headers block; the other server untouched"
# gemini, stdio with env and cwd -> HTTP -> stdio: timeout and trust stay
cp "$C/gemini-http.json" "$HOME/.gemini/settings.json"
"$SR" client add gemini --http http://127.0.0.1:6580/mcp >/dev/null
is "$(json 'JSON.stringify(j.mcpServers["skills-radar"])' <"$HOME/.gemini/settings.json")" \
    '{"httpUrl":"http://127.0.0.1:6580/mcp","timeout":20000,"trust":true}' "gemini stdio->http: env and cwd dropped, timeout and trust kept"
"$SR" client add gemini --http http://127.0.0.1:6580/mcp --token-env SR_TOKEN >/dev/null
"$SR" client add gemini >/dev/null
is "$(json 'JSON.stringify(j.mcpServers["skills-radar"])' <"$HOME/.gemini/settings.json")" \
    "{\"command\":\"$SELF\",\"args\":[\"serve\"],\"timeout\":20000,\"trust\":true}" "gemini http->stdio: httpUrl and headers dropped"

# ---- doctor checks every entry against what its client takes (#21.11) ----
cp "$C/codex-mixed.toml" "$X"
cp "$C/claude-broken-entries.json" "$HOME/.claude.json"
status 1 "doctor: entries a client refuses are problems" "$SR" doctor
contains "$(cat "$T/.out")" "server 'skills-radar' is a stdio server but has 'bearer_token_env_var', which only HTTP servers take" \
    "doctor: codex, a stdio entry with bearer_token_env_var"
contains "$(cat "$T/.out")" "server 'other' is an HTTP server but has 'env', which only stdio servers take" \
    "doctor: codex, an HTTP entry with env (another server too)"
contains "$(cat "$T/.out")" "server 'skills-radar' is a stdio server but has 'headers'" "doctor: claude-code, an unused headers block"
contains "$(cat "$T/.out")" "server 'nothing' has no 'url'" "doctor: claude-code, an HTTP entry without url"
PATH=/usr/bin:/bin "$SR" doctor >"$T/.out" 2>&1 || true
contains "$(cat "$T/.out")" "server 'skills-radar' runs 'skills-radar', which is not on PATH here" \
    "doctor: a bare command the client cannot find on PATH (#34)"
mkdir -p "$T/onpath" && ln -sf "$SELF" "$T/onpath/skills-radar"
PATH="$T/onpath:$PATH" "$SR" doctor >"$T/.out" 2>&1 || true
lacks "$(grep "not on PATH" "$T/.out")" "'skills-radar', which is not on PATH" "doctor: ... not once it is on PATH"
PATH="$T/onpath:$PATH" "$SR" doctor --json >"$T/d.json" || true
is "$(json 'j.clients.filter(c=>c.scope=="user").map(c=>c.client+":"+(c.problems||[]).length).join(",")+" "+j.problems' <"$T/d.json")" \
    "claude-code:2,codex:2,gemini:0 5" \
    "doctor --json: the problems per file, counted (the 5th: the project's pg-mcp is not on PATH)"
"$SR" client add codex >/dev/null
"$SR" client add claude-code >/dev/null
"$SR" doctor --json >"$T/d.json" || true
is "$(json 'j.clients.filter(c=>c.scope=="user").map(c=>c.client+":"+(c.problems||[]).length).join(",")' <"$T/d.json")" \
    "claude-code:1,codex:1,gemini:0" \
    "doctor: client add repairs our entries; the others are the user's to fix"

# ---- --token-env: a bearer token by reference, in each client's form (#21.12) ----
rm -f "$X" "$HOME/.claude.json" "$HOME/.gemini/settings.json"
"$SR" client add codex --http http://127.0.0.1:6580/mcp --token-env SR_TOKEN >/dev/null
is "$(cat "$X")" "$(printf '[mcp_servers.skills-radar]\nurl = "http://127.0.0.1:6580/mcp"\nbearer_token_env_var = "SR_TOKEN"')" \
    "codex: --token-env writes bearer_token_env_var"
"$SR" client add claude-code --http http://127.0.0.1:6580/mcp --token-env SR_TOKEN >/dev/null
is "$(json 'JSON.stringify(j.mcpServers["skills-radar"])' <"$HOME/.claude.json")" \
    '{"type":"http","url":"http://127.0.0.1:6580/mcp","headers":{"Authorization":"Bearer ${SR_TOKEN}"}}' \
    "claude-code: --token-env writes an Authorization header with \${VAR}"
"$SR" doctor >"$T/.out" 2>&1 || true
contains "$(cat "$T/.out")" "sends its token from \$SR_TOKEN, which is not set here" \
    "doctor: an unset --token-env variable is a problem (#34)"
SR_TOKEN=s3cret "$SR" doctor >"$T/.out" 2>&1 || true
lacks "$(cat "$T/.out")" "SR_TOKEN, which is not set" "doctor: ... not once it is set"
"$SR" client add gemini --http http://127.0.0.1:6580/mcp --token-env SR_TOKEN >/dev/null
is "$(json 'j.mcpServers["skills-radar"].headers.Authorization' <"$HOME/.gemini/settings.json")" 'Bearer ${SR_TOKEN}' \
    "gemini: --token-env writes an Authorization header with \${VAR}"
printf '{"mcpServers":{"skills-radar":{"url":"http://x/mcp","headers":{"X-Team":"radar","Authorization":"Bearer old"}}}}\n' >"$HOME/.cursor/mcp.json"
"$SR" client add cursor --http http://127.0.0.1:6580/mcp --token-env SR_TOKEN >/dev/null
is "$(json 'JSON.stringify(j.mcpServers["skills-radar"])' <"$HOME/.cursor/mcp.json")" \
    '{"url":"http://127.0.0.1:6580/mcp","headers":{"Authorization":"Bearer ${env:SR_TOKEN}","X-Team":"radar"}}' \
    "cursor: --token-env writes \${env:VAR}, the user's other headers kept"
cp "$HOME/.cursor/mcp.json" "$T/before"
out=$("$SR" client add cursor --http http://127.0.0.1:6580/mcp --token-env SR_TOKEN)
contains "$out" "nothing changed" "cursor: a second --token-env add changes nothing"
status 2 "--token-env without --http is refused" "$SR" client add cursor --token-env SR_TOKEN
contains "$(cat "$T/.out")" "give --http URL too" "... saying what is missing"
status 2 "--token-env with a token instead of a name is refused" "$SR" client add cursor --http http://x/mcp --token-env 'sk-live 123'
contains "$(cat "$T/.out")" "is not an environment variable name" "... with the reason"
check "... and the file is untouched" cmp "$T/before" "$HOME/.cursor/mcp.json"
status 2 "--token-env for claude-desktop is refused (no HTTP there)" "$SR" client add claude-desktop --http http://x/mcp --token-env SR_TOKEN
status 2 "--token-env with remove is refused" "$SR" client remove cursor --token-env SR_TOKEN

# ---- doctor reads a Codex TOML file as it reads JSON: the command, ----
# ---- bearer_token_env_var, env_http_headers (#34) ----
rm -f "$X" "$HOME/.claude.json" "$HOME/.gemini/settings.json" "$HOME/.cursor/mcp.json"
mkdir -p "$T/cx/.codex" && cd "$T/cx"
cat >.codex/config.toml <<'TOML'
[mcp_servers.skills-radar]
command = "skills-radar"
args = ["serve"]

[mcp_servers.remote]
url = "http://127.0.0.1:6580/mcp"
bearer_token_env_var = "SR_CX_TOKEN"   # a comment

[mcp_servers.keyed]
url = "http://127.0.0.1:6581/mcp"

[mcp_servers.keyed.env_http_headers]
"X-Api-Key" = 'SR_CX_KEY'
TOML
PATH=/usr/bin:/bin "$SR" doctor >"$T/.out" 2>&1 || true
contains "$(cat "$T/.out")" "config.toml: server 'skills-radar' runs 'skills-radar', which is not on PATH here" \
    "doctor: codex (project), a bare command not on PATH"
contains "$(cat "$T/.out")" "server 'remote' sends its token from \$SR_CX_TOKEN, which is not set here" \
    "doctor: codex, bearer_token_env_var names an unset variable"
contains "$(cat "$T/.out")" "server 'keyed' sends its token from \$SR_CX_KEY, which is not set here" \
    "doctor: codex, env_http_headers names an unset variable"
SR_CX_TOKEN=t SR_CX_KEY=k PATH="$T/onpath:/usr/bin:/bin" "$SR" doctor --json >"$T/d.json" 2>/dev/null || true
is "$(json 'j.clients.filter(c=>c.client=="codex").map(c=>c.scope+":"+(c.problems||[]).length).join(",")' <"$T/d.json")" \
    "project:0" "doctor: codex, nothing once the command is on PATH and the variables are set"
rm -rf .codex
PATH=/usr/bin:/bin "$SR" client add codex --scope project >/dev/null
is "$(sed -n 's/^command = //p' .codex/config.toml)" "\"$SELF\"" \
    "codex: client add --scope project writes the absolute path when not on PATH"
PATH=/usr/bin:/bin "$SR" doctor --json >"$T/d.json" 2>/dev/null || true
is "$(json 'j.clients.filter(c=>c.client=="codex").map(c=>c.scope+":"+c.configured+":"+(c.problems||[]).length).join(",")' <"$T/d.json")" \
    "project:true:0" "doctor: ... which it accepts"
cd "$T/proj"

# ---- config/clients/ says what client add writes ----
S="$TOP_SRCDIR/config/clients"
mkdir -p "$T/snip" "$T/bin2" && cd "$T/snip"
ln -sf "$SELF" "$T/bin2/skills-radar"
snip() {	# snip CLIENT [ARGS...]: the project-scope entry client add writes, as JSON
	rm -rf .mcp.json .cursor .gemini .codex
	PATH="$T/bin2:$PATH" "$SR" client add "$@" --scope project >/dev/null
	case $1 in
	claude-code) json 'JSON.stringify(j.mcpServers["skills-radar"])' <.mcp.json ;;
	cursor) json 'JSON.stringify(j.mcpServers["skills-radar"])' <.cursor/mcp.json ;;
	gemini) json 'JSON.stringify(j.mcpServers["skills-radar"])' <.gemini/settings.json ;;
	esac
}
H="--http http://127.0.0.1:6580/mcp --token-env SKILLS_RADAR_TOKEN"
is "$(json 'JSON.stringify(j.mcpServers["skills-radar"])' <"$S/mcp.json")" "$(snip claude-code)" "snippet mcp.json = client add claude-code"
is "$(json 'JSON.stringify(j.mcpServers["skills-radar"])' <"$S/cursor.json")" "$(snip cursor)" "snippet cursor.json = client add cursor"
is "$(json 'JSON.stringify(j.mcpServers["skills-radar-http"])' <"$S/cursor.json")" "$(snip cursor $H)" "snippet cursor.json (HTTP) = client add cursor --http --token-env"
is "$(json 'JSON.stringify(j.mcpServers["skills-radar"])' <"$S/gemini.json")" "$(snip gemini)" "snippet gemini.json = client add gemini"
is "$(json 'JSON.stringify(j.mcpServers["skills-radar-http"])' <"$S/gemini.json")" "$(snip gemini $H)" "snippet gemini.json (HTTP) = client add gemini --http --token-env"
is "$(json 'JSON.stringify(j.mcpServers["skills-radar"].args)+" "+Object.keys(j.mcpServers["skills-radar"])' <"$S/claude-desktop.json")" \
    '["serve"] command,args' "snippet claude-desktop.json = client add claude-desktop (command by absolute path)"
snip codex >/dev/null
is "$(grep -v '^#' "$S/codex.toml" | sed -n '1,/^$/p' | sed '/^$/d')" "$(cat .codex/config.toml)" "snippet codex.toml = client add codex"
snip codex $H >/dev/null
is "$(sed -n 's/^# \{0,1\}//p' "$S/codex.toml" | sed -n '/^\[mcp_servers.skills-radar\]$/,$p')" "$(cat .codex/config.toml)" \
    "snippet codex.toml (HTTP, commented) = client add codex --http --token-env"
check "the README lists the gemini snippet" grep -q 'gemini.json' "$S/README.md"

done_testing
