#!/bin/sh
# The command line itself: help for one command (help CMD, CMD -h,
# CMD --help), a suggestion for a mistyped command, -v after the command,
# and telemetry on|off|status editing the config file (#34).
. "$(dirname "$0")/setup.sh"
CONF="$XDG_CONFIG_HOME/skills-radar/config.yaml"

status 0 "help search" "$SR" help search
contains "$(cat "$T/.out")" "usage: skills-radar search" "  prints the usage of search"
status 0 "search -h" "$SR" search -h
contains "$(cat "$T/.out")" "usage: skills-radar search" "  the same"
status 0 "search --help" "$SR" search --help
status 0 "help with no command lists them" "$SR" help
contains "$(cat "$T/.out")" "telemetry" "  telemetry among them"
status 2 "help of an unknown command" "$SR" help serch
contains "$(cat "$T/.out")" "did you mean 'search'?" "  suggests the closest"
status 2 "a mistyped command" "$SR" serch foo
contains "$(cat "$T/.out")" "unknown command 'serch'; did you mean 'search'?" "  did you mean"
status 2 "a swap of two letters" "$SR" idnex
contains "$(cat "$T/.out")" "did you mean 'index'?" "  is one edit"
status 2 "a word far from every command" "$SR" zzzzzzzz
lacks "$(cat "$T/.out")" "did you mean" "  gets no suggestion, the list instead"
contains "$(cat "$T/.out")" "commands:" "  the list of commands"
status 0 "version -v: -v is taken after any command" "$SR" version -v
status 0 "version --verbose" "$SR" version --verbose

# telemetry on|off|status
status 0 "telemetry status with no config file" "$SR" telemetry status
contains "$(cat "$T/.out")" "telemetry is off" "  off (the default)"
ok "$([ ! -e "$CONF" ]; echo $?)" "  status writes nothing"
status 0 "telemetry on, no config file yet" "$SR" telemetry on
ok "$([ -f "$CONF" ]; echo $?)" "  creates the config file"
contains "$(cat "$T/.out")" "telemetry is on" "  says so"
status 0 "telemetry status" "$SR" telemetry status
contains "$(cat "$T/.out")" "telemetry is on" "  reads it back"
status 0 "telemetry off" "$SR" telemetry off
contains "$("$SR" telemetry status)" "telemetry is off" "  and off again"
"$SR" config-init --force >/dev/null
cp "$CONF" "$T/before.yaml"
"$SR" telemetry on >/dev/null
is "$(diff "$T/before.yaml" "$CONF" | grep -c '^[<>]')" 2 "in config-init's file: one line changed"
contains "$(diff "$T/before.yaml" "$CONF")" ">   enabled: true" "  the telemetry block's enabled line"
printf 'telemetry:\n  db_path: %s/s.db\nretrieval:\n  top_k: 3\n' "$T" >"$CONF"
"$SR" telemetry on >/dev/null
is "$(cat "$CONF")" "$(printf 'telemetry:\n  enabled: true\n  db_path: %s/s.db\nretrieval:\n  top_k: 3' "$T")" \
    "a telemetry block without enabled: the key is added to it"
printf '# mine\ntelemetry.enabled: true # keep this note\n' >"$CONF"
"$SR" telemetry off >/dev/null
is "$(cat "$CONF")" "$(printf '# mine\ntelemetry.enabled: false # keep this note')" "a dotted key: its value changed, the comment kept"
printf 'telemetry:\n  enabled: false\n  buffer_events: 3\n' >"$CONF"
cp "$CONF" "$T/bad.yaml"
status 3 "a file that would not load is left as it was" "$SR" telemetry on
is "$(cat "$CONF")" "$(cat "$T/bad.yaml")" "  byte for byte"
rm -f "$CONF"
status 2 "telemetry with no argument" "$SR" telemetry
status 2 "telemetry maybe" "$SR" telemetry maybe
done_testing
