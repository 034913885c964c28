# Background processes of the team tests (sourced, POSIX sh).
#   spawn CMD...   runs CMD in the background (the command itself, not a
#                  subshell, so a signal reaches it) and records its pid
#   stop_all       SIGTERM to every recorded process, then up to 10 s for
#                  them to exit, then SIGKILL: a test never hangs on one
#                  that does not stop (seen under LeakSanitizer's exit
#                  scan on a loaded machine) and leaves none behind.
spawned=
spawn() {
	"$@" &
	spawned="$spawned $!"
}
stop_all() {
	for _p in $spawned; do kill "$_p" 2>/dev/null || :; done
	_n=0
	for _p in $spawned; do
		while kill -0 "$_p" 2>/dev/null && [ $_n -lt 100 ]; do
			sleep 0.1; _n=$((_n + 1))
		done
		if kill -0 "$_p" 2>/dev/null; then
			echo "# pid $_p did not stop on SIGTERM within 10 s: killed"
			pkill -KILL -P "$_p" 2>/dev/null || :
			kill -KILL "$_p" 2>/dev/null || :
		fi
		wait "$_p" 2>/dev/null || :
	done
	spawned=
}
