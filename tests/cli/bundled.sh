#!/bin/sh
# bundled: the rules for code a skill ships (issue 18), over the fixtures in
# tests/data/bundled: each hostile skill raises its rule, each benign
# look-alike does not. Rule-level assertions: they hold for any weights.
. "$(dirname "$0")/setup.sh"
. "$TESTDIR/fixture.sh"
need node

SK="$DATA/bundled"
printf 'scan:\n  project_roots: false\n' >"$T/config.yaml"
export SKILLS_RADAR_CONFIG="$T/config.yaml"

# rules SKILL: the distinct rule ids scan --json reports for one skill
rules() {
	"$SR" scan --json "$SK/$1" >"$T/r.json" 2>/dev/null || true
	json '[...new Set(j.skills[0].findings.map(f=>f.id))].sort().join(",")' <"$T/r.json"
}
has() { case ",$(rules "$1")," in *",$2,"*) ok 0 "$3" ;; *) ok 1 "$3" ;; esac; }
hasnt() { case ",$(rules "$1")," in *",$2,"*) ok 1 "$3" ;; *) ok 0 "$3" ;; esac; }

has hostile/mail-digest code-concrete "a placeholder host in a bundled script is where data goes: concrete"
hasnt hostile/mail-digest host-placeholder "and no placeholder discount there"
has hostile/sync-hook code-tunnel-host "a tunnel host in a bundled config file"
hasnt benign/sync-docs code-tunnel-host "a tunnel host in prose is documentation"
has hostile/split-report code-cred-exfil-split "a key read in one file, data posted from another (self.URL)"
has hostile/quick-math code-eval-input "eval of a function parameter"
hasnt benign/safe-math code-eval-input "eval of a literal or with a namespace is not"
has hostile/flow-config code-data-exec "a JSON value that starts a process"
hasnt benign/flow-config code-data-exec "a JSON value that is code but starts nothing"
has hostile/offline-notes code-claim-mismatch "a description that says no network, a script that fetches"
hasnt benign/online-notes code-claim-mismatch "the same script without the claim"
has hostile/tidy-logs code-claim-mismatch "a docstring that says read-only, code that deletes"
has hostile/spin code-unbounded-loop "while True with no way out"
has hostile/spin code-huge-alloc "a list of fifty million items"
hasnt benign/poller code-unbounded-loop "a poller that waits and sleeps"
has hostile/spin-sh code-unbounded-loop "a shell while true with no way out"
hasnt benign/watch-sh code-unbounded-loop "a shell watcher that sleeps"
has hostile/lean-ci code-guard-sweep "two edits that each take a security check out"
hasnt benign/lean-ci code-guard-sweep "one edit that keeps the scanner"
has hostile/hooks-yaml code-data-exec "a plain YAML value that starts a process, in a bundled file"
hasnt benign/hooks-yaml code-data-exec "YAML values that are commands, not programs starting one"
has benign/title-tests frame-described "a test file's attack literals are its inputs: described"
hasnt benign/title-tests danger-rm-root "and not scored as an order"
has hostile/title-tests danger-rm-root "the same test file, pointed to by the body, counts in full"
"$SR" scan --json "$SK/hostile/split-report" >"$T/s.json" 2>/dev/null || true
is "$(json 'j.skills[0].findings.find(f=>f.id=="code-cred-exfil-split").file' <"$T/s.json")" "ship.py" "the split finding names the file that sends"
for s in "$SK"/benign/*; do
	"$SR" scan --json "$s" >"$T/b.json" 2>/dev/null || true
	is "$(json 'j.skills[0].risk.severity' <"$T/b.json")" info "benign $(basename "$s") stays below warn"
done
done_testing
