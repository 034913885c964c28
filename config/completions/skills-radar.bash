# bash completion for skills-radar(1).
# Installed as $(datadir)/bash-completion/completions/skills-radar; or
# source it from ~/.bashrc. Works with and without the bash-completion
# package. tests/cli/completion.sh checks it against `skills-radar --help`.

_skills_radar_names()
{
	# Skill names from the index: the first column of `skills-radar list`.
	command "${words[0]:-skills-radar}" list 2>/dev/null |
	    awk 'NF >= 3 && $1 ~ /^[a-z0-9][a-z0-9:_-]*$/ { print $1 }'
}

_skills_radar()
{
	local cur prev words cword
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD-1]}
	words=("${COMP_WORDS[@]}")
	cword=$COMP_CWORD
	COMPREPLY=()

	local commands="config-init index list search load read validate scan serve
	    mini-index stats telemetry tui client doctor import sign help version"
	local clients="claude-code claude-desktop cursor codex gemini"

	# The command is the first word that is not a global option.
	local i cmd="" cmdi=0
	for ((i = 1; i < cword; i++)); do
		case ${words[i]} in
		--config|-c) ((i++)) ;;
		-*) ;;
		*) cmd=${words[i]}; cmdi=$i; break ;;
		esac
	done

	if [[ -z $cmd ]]; then
		case $prev in
		--config|-c)
			COMPREPLY=($(compgen -f -- "$cur")); return ;;
		esac
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W "--config --verbose --help
			    --version" -- "$cur"))
		else
			COMPREPLY=($(compgen -W "$commands" -- "$cur"))
		fi
		return
	fi

	# Values of options that take one.
	case $prev in
	--kind) COMPREPLY=($(compgen -W "skill agent command" -- "$cur")); return ;;
	--tier) COMPREPLY=($(compgen -W "TRUSTED VERIFIED USER UNTRUSTED" -- "$cur")); return ;;
	--transport) COMPREPLY=($(compgen -W "stdio http" -- "$cur")); return ;;
	--group-by) COMPREPLY=($(compgen -W "tags scope auto" -- "$cur")); return ;;
	--fail-on) COMPREPLY=($(compgen -W "info warn high never" -- "$cur")); return ;;
	--range) COMPREPLY=($(compgen -W "1h 24h 7d all" -- "$cur")); return ;;
	--since) COMPREPLY=($(compgen -W "1h 24h 7d 30d" -- "$cur")); return ;;
	--scope) COMPREPLY=($(compgen -W "user project" -- "$cur")); return ;;
	--http) COMPREPLY=($(compgen -W "http://127.0.0.1:6580/mcp" -- "$cur")); return ;;
	--output|--db) COMPREPLY=($(compgen -f -- "$cur")); return ;;
	--tag|--top-k|--offset|--max-bytes|--host|--port|--path|--budget|\
	--limit|--refresh|--context-tokens|--token-env)
		return ;;
	esac

	local opts=""
	case $cmd in
	config-init) opts="--force --stdout" ;;
	index) opts="--rebuild --json --watch" ;;
	list) opts="--kind --tier --tag --flagged --all --json" ;;
	search) opts="--top-k --tag --kind --explain --json --rewrite --no-rewrite --rerank --no-rerank" ;;
	load) opts="--offset --max-bytes --allow-untrusted --json" ;;
	read) opts="--json" ;;
	validate) opts="--json" ;;
	scan) opts="--json --sarif --fail-on" ;;
	serve) opts="--transport --host --port --path --stateful --stateless
	    --watch --no-watch" ;;
	mini-index) opts="--output --budget --group-by --check --install
	    --uninstall --stdout" ;;
	stats) opts="--since --limit --db --json --reset-learning" ;;
	tui) opts="--once --color --no-color --range --db --refresh" ;;
	client) opts="--scope --http --token-env" ;;
	doctor) opts="--context-tokens --json" ;;
	import) opts="--name --subpath --ref --dry-run --yes --max-risk --only
	    --update --remove --list --json --no-index" ;;
	sign) opts="--key --password-env --comment --verify --signer --json" ;;
	telemetry) opts="" ;;
	help) opts="" ;;
	version) opts="" ;;
	esac
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$opts --help" -- "$cur"))
		return
	fi

	# Positional arguments: count the ones before the cursor.
	local n=0
	for ((i = cmdi + 1; i < cword; i++)); do
		case ${words[i]} in
		-*) ;;
		*) case ${words[i-1]} in
		   --kind|--tier|--transport|--group-by|--range|--since|--scope|\
		   --http|--output|--db|--tag|--top-k|--offset|--max-bytes|\
		   --host|--port|--path|--budget|--limit|--refresh|\
		   --context-tokens|--token-env|--fail-on) ;;
		   *) ((n++)) ;;
		   esac ;;
		esac
	done
	case $cmd in
	client)
		case $n in
		0) COMPREPLY=($(compgen -W "add remove" -- "$cur")) ;;
		1) COMPREPLY=($(compgen -W "$clients" -- "$cur")) ;;
		esac ;;
	load)
		[[ $n -eq 0 ]] && COMPREPLY=($(compgen -W "$(_skills_radar_names)" -- "$cur")) ;;
	read)
		if [[ $n -eq 0 ]]; then
			COMPREPLY=($(compgen -W "$(_skills_radar_names)" -- "$cur"))
		fi ;;
	validate|scan)
		COMPREPLY=($(compgen -f -- "$cur")) ;;
	esac
}
complete -F _skills_radar skills-radar
