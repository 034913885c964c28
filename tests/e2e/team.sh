#!/bin/sh
# nginx in front of two replicas of a PostgreSQL store (issue 11): the
# official MCP SDK client (team.mjs) connects through nginx, lists the
# tools, searches and loads; nginx's log shows that both replicas
# answered. nginx runs on 127.0.0.1 with a temporary configuration, in
# the foreground (no master, no user switch), bounded by timeout. Skips
# (TAP "1..0 # SKIP") without PostgreSQL, nginx, node or the SDK that
# run.sh installs.
. "${TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/cli/setup.sh"
. "$TOP_SRCDIR/tests/pg/cluster.sh"
. "$TOP_SRCDIR/tests/pg/procs.sh"
: "${TOP_BUILDDIR:=$TOP_SRCDIR}"
skip() { skip_all "$*"; }
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
[ -x "$NGINX" ] || skip "nginx is not installed"
command -v node >/dev/null 2>&1 || skip "node is not installed"
MODULES=
for d in "$TOP_SRCDIR/tests/e2e/node_modules" "$TOP_BUILDDIR/tests/e2e/node_modules"; do
	[ -d "$d/@modelcontextprotocol/sdk" ] && MODULES=$d
done
[ -n "$MODULES" ] || skip "the MCP SDK is not installed (tests/e2e/run.sh installs it)"
cleanup() {
	stop_all
	pg_stop
	rm -rf "$T"
}
trap cleanup EXIT INT TERM
pg_start "$T" >"$T/pg.out" 2>&1 || skip "no PostgreSQL cluster: $(head -1 "$T/pg.out")"

mkdir -p "$T/share/pdf"
printf -- '---\nname: pdf-forms\ndescription: Fill and flatten PDF forms.\n---\n# PDF\n\nFill and flatten them.\n' >"$T/share/pdf/SKILL.md"
cat >"$T/team.yaml" <<YAML
paths: ["$T/share"]
scan:
  project_roots: false
store:
  backend: postgres
YAML
export SKILLS_RADAR_DSN="$SR_TEST_DSN"
XDG_DATA_HOME="$T/writer" "$SR" --config "$T/team.yaml" index >"$T/index.out" 2>&1
ok $? "the writer indexes the share into postgres"

# Three free ports in a row: nothing answers on them (curl: connection
# refused), so a parallel test or another user's server cannot collide.
# They are taken below the kernel's ephemeral range (32768 up by default),
# where no outgoing connection's local port can hold one (seen: nginx's
# bind() failing with EADDRINUSE on 45912).
free() { curl -s -o /dev/null --max-time 1 "http://127.0.0.1:$1/"; [ $? -eq 7 ]; }
eph=$(cut -f1 /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || echo 32768)
[ "$eph" -gt 12000 ] 2>/dev/null || eph=32768
span=$((eph - 10000 - 3))
next_base() { echo $((10000 + ($1 - 10000 + 97) % span)); }
base=$((10000 + $$ % span)); i=0
until free "$base" && free $((base + 1)) && free $((base + 2)) || [ $i -ge 50 ]; do
	base=$(next_base "$base"); i=$((i + 1))
done
P1=$base; P2=$((base + 1)); PN=$((base + 2))
for p in $P1 $P2; do
	spawn env XDG_DATA_HOME="$T/r$p" "$SR" --config "$T/team.yaml" serve \
	    --transport http --port "$p" >"$T/r$p.out" 2>"$T/r$p.err"
done
mkdir -p "$T/nginx/tmp"
cat >"$T/nginx/nginx.conf" <<NGX
daemon off;
master_process off;
worker_processes 1;
pid $T/nginx/nginx.pid;
error_log $T/nginx/error.log warn;
events { worker_connections 256; }
http {
	log_format up '\$upstream_addr \$status';
	access_log $T/nginx/access.log up;
	client_body_temp_path $T/nginx/tmp/body;
	proxy_temp_path $T/nginx/tmp/proxy;
	fastcgi_temp_path $T/nginx/tmp/fastcgi;
	uwsgi_temp_path $T/nginx/tmp/uwsgi;
	scgi_temp_path $T/nginx/tmp/scgi;
	upstream skills_radar {
		server 127.0.0.1:$P1;
		server 127.0.0.1:$P2;
		keepalive 8;
	}
	server {
		listen 127.0.0.1:$PN;
		location /mcp {
			proxy_pass http://skills_radar;
			proxy_http_version 1.1;
			proxy_set_header Connection "";
			proxy_set_header Host 127.0.0.1;
			proxy_buffering off;
			proxy_next_upstream error timeout http_502 http_503;
		}
	}
}
NGX
# nginx on PN; should another process take PN between the check above and
# nginx's bind(), nginx exits: it is started again on another free port
# (at most 5 times).
# gone PID: the process has ended (a zombie not yet waited for counts)
gone() {
	[ "$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -c1)" != "" ] || return 0
	[ "$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -c1)" = Z ]
}
tries=0
while :; do
	timeout 300 "$NGINX" -p "$T/nginx" -c "$T/nginx/nginx.conf" -e "$T/nginx/error.log" &
	npid=$!
	spawned="$spawned $npid"
	i=0
	until { grep -q serving "$T/r$P1.err" && grep -q serving "$T/r$P2.err" &&
	    curl -s -o /dev/null "http://127.0.0.1:$PN/"; } 2>/dev/null ||
	    gone "$npid" || [ $i -ge 600 ]; do
		sleep 0.1; i=$((i + 1))
	done
	gone "$npid" || break
	tries=$((tries + 1))
	[ $tries -lt 5 ] || { i=600; break; }
	echo "# nginx could not listen on $PN: another port"
	old=$PN; PN=$(next_base "$PN")
	until free "$PN" || [ $tries -ge 50 ]; do PN=$(next_base "$PN"); tries=$((tries + 1)); done
	sed -i "s/listen 127.0.0.1:$old;/listen 127.0.0.1:$PN;/" "$T/nginx/nginx.conf"
done
[ $i -lt 600 ] && r=0 || r=1
ok $r "two replicas and nginx are up"

# The example for operators (config/nginx) is valid nginx configuration.
sed -e "s/listen 80;/listen 127.0.0.1:$PN;/" "$TOP_SRCDIR/config/nginx/skills-radar.conf" >"$T/nginx/example.inc"
sed -e '/^	upstream skills_radar {/,$d' "$T/nginx/nginx.conf" | sed '/access_log/d; /log_format/d' >"$T/nginx/example.conf"
printf '\tinclude %s;\n}\n' "$T/nginx/example.inc" >>"$T/nginx/example.conf"
check "config/nginx/skills-radar.conf passes nginx -t" \
    "$NGINX" -t -p "$T/nginx" -c "$T/nginx/example.conf" -e "$T/nginx/example-error.log"
# ... and so is its TLS block, uncommented, with a throwaway certificate.
if command -v openssl >/dev/null 2>&1 &&
    openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=skills.internal \
    -keyout "$T/nginx/tls.key" -out "$T/nginx/tls.pem" >/dev/null 2>&1; then
	sed -e "s/listen 80;/listen 127.0.0.1:$PN;/" -e 's/^#tls //; s/^#tls$//' \
	    -e "s/listen 443 ssl http2;/listen 127.0.0.1:$((PN + 1)) ssl http2;/" \
	    -e "s|/etc/ssl/certs/skills.internal.pem|$T/nginx/tls.pem|" \
	    -e "s|/etc/ssl/private/skills.internal.key|$T/nginx/tls.key|" \
	    "$TOP_SRCDIR/config/nginx/skills-radar.conf" >"$T/nginx/example.inc"
	check "config/nginx/skills-radar.conf with its TLS block passes nginx -t" \
	    "$NGINX" -t -p "$T/nginx" -c "$T/nginx/example.conf" -e "$T/nginx/example-error.log"
else
	skip_one "config/nginx TLS block (no openssl to make a certificate)"
fi

mkdir -p "$T/run"
ln -s "$MODULES" "$T/run/node_modules"
cp "$TOP_SRCDIR/tests/e2e/team.mjs" "$T/run/"
TEAM_URL="http://127.0.0.1:$PN/mcp" timeout 240 node "$T/run/team.mjs" >"$T/team.tap" 2>"$T/team.err"
rc=$?
while IFS= read -r line; do
	case "$line" in
	"ok - "*) ok 0 "${line#ok - }" ;;
	"not ok - "*) ok 1 "${line#not ok - }" ;;
	*) echo "$line" ;;
	esac
done <"$T/team.tap"
[ $rc -eq 0 ] || sed 's/^/#   /' "$T/team.err" | tail -10
used=$(awk '{print $1}' "$T/nginx/access.log" 2>/dev/null | sort -u | tr '\n' ' ')
contains "$used" "127.0.0.1:$P1" "nginx sent requests to replica 1"
contains "$used" "127.0.0.1:$P2" "nginx sent requests to replica 2"
lacks "$(awk '{print $2}' "$T/nginx/access.log" | sort -u | tr '\n' ' ')" "50" "no request failed at the proxy"
done_testing
