# shellcheck shell=sh
# fixture.sh: the tests/tui fixture, sourced by dashboard.sh and
# screenshot.sh. tui_fixture TD T [ROOT...]: the USER skills into
# $HOME/.claude/skills, the TRUSTED and UNTRUSTED ones under T, and
# T/config.yaml naming them (and each extra ROOT) with telemetry on into
# T/stats.db.
tui_fixture() {
	_td=$1 _t=$2
	shift 2
	mkdir -p "$HOME/.claude/skills"
	cp -R "$_td/data/skills/user/." "$HOME/.claude/skills/"
	cp -R "$_td/data/skills/trusted" "$_td/data/skills/other" "$_t/"
	{
		echo "paths:"
		for _p in "$HOME/.claude/skills" "$_t/trusted" "$_t/other" "$@"; do
			echo "  - $_p"
		done
		cat <<EOC
scan:
  project_roots: false
trust:
  trusted_paths:
    - $_t/trusted
telemetry:
  enabled: true
  db_path: $_t/stats.db
EOC
	} >"$_t/config.yaml"
}
