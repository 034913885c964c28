# Sourced after setup.sh: installs tests/data/tree as a user's skills.
#   ~/.claude/skills   <- tree/skills      (USER)
#   ~/.claude/agents   <- tree/agents
#   ~/.claude/commands <- tree/commands
#   $T/clones          <- tree/clones      (UNTRUSTED, listed in the config)
install_tree() {
	mkdir -p "$HOME/.claude" "$XDG_CONFIG_HOME/skills-radar"
	cp -R "$DATA/tree/skills" "$HOME/.claude/skills"
	cp -R "$DATA/tree/agents" "$HOME/.claude/agents"
	cp -R "$DATA/tree/commands" "$HOME/.claude/commands"
	cp -R "$DATA/tree/clones" "$T/clones"
	cat >"$XDG_CONFIG_HOME/skills-radar/config.yaml" <<EOC
paths:
  - ~/.claude/skills
  - ~/.claude/agents
  - ~/.claude/commands
  - $T/clones
scan:
  project_roots: false
EOC
}
# json EXPR: evaluates a JavaScript expression over the JSON on stdin (as j).
json() {
	node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const j=JSON.parse(s);const v=('"$1"');console.log(typeof v==="object"?JSON.stringify(v):String(v))})'
}
