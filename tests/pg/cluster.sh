# A throwaway PostgreSQL cluster for the tests (sourced, POSIX sh).
#
#   . tests/pg/cluster.sh
#   pg_start "$dir" || exit 77   # skip when PostgreSQL is not installed
#   ... SR_TEST_DSN is a libpq URI for database "sr" ...
#   pg_stop; pg_start_again       # stop / start the same cluster
#   pg_stop
#
# The cluster lives under "$dir"/pg, listens only on a Unix socket in
# "$dir"/pg/sock (no TCP), and is owned by the user "postgres" when the
# tests run as root (PostgreSQL refuses to run as root). pg_stop is safe
# to call twice; callers trap it on EXIT so a failing test leaves no
# server behind (trap 'pg_stop; rm -rf "$T"' EXIT INT TERM after sourcing
# tests/cli/setup.sh). Every wait is bounded.

pg_bin=
for d in /usr/lib/postgresql/*/bin; do
	[ -x "$d/initdb" ] && pg_bin=$d
done

pg_as() {	# runs a command as the cluster's owner
	if [ "$(id -u)" -eq 0 ]; then
		runuser -u postgres -- "$@"
	else
		"$@"
	fi
}

pg_start() {
	[ -n "$pg_bin" ] || { echo "# PostgreSQL (initdb) not installed"; return 1; }
	if [ "$(id -u)" -eq 0 ] && ! id postgres >/dev/null 2>&1; then
		echo "# running as root and there is no postgres user"
		return 1
	fi
	pg_dir=$1/pg
	mkdir -p "$pg_dir/sock"
	[ "$(id -u)" -eq 0 ] && chown -R postgres "$pg_dir"
	chmod 755 "$1" "$pg_dir"
	pg_as "$pg_bin/initdb" -D "$pg_dir/data" -U postgres -A trust \
	    --no-sync -E UTF8 --locale=C >"$pg_dir/initdb.log" 2>&1 || {
		cat "$pg_dir/initdb.log"
		return 1
	}
	pg_start_again || return 1
	pg_as "$pg_bin/createdb" -h "$pg_dir/sock" -U postgres sr || return 1
	SR_TEST_DSN="postgresql:///sr?host=$pg_dir/sock&user=postgres"
	export SR_TEST_DSN
}

pg_start_again() {
	pg_as "$pg_bin/pg_ctl" -D "$pg_dir/data" -l "$pg_dir/server.log" -w -t 30 \
	    -o "-c listen_addresses='' -c unix_socket_directories='$pg_dir/sock' -c fsync=off -c max_connections=100" \
	    start >/dev/null || { cat "$pg_dir/server.log"; return 1; }
}

pg_stop() {
	[ -n "${pg_dir:-}" ] && [ -f "$pg_dir/data/postmaster.pid" ] || return 0
	pg_as "$pg_bin/pg_ctl" -D "$pg_dir/data" -m fast -w -t 30 stop >/dev/null 2>&1
	return 0
}
