/*
 * Streamable HTTP on libmicrohttpd, with an internal polling thread and a
 * pool of cfg->threads workers. Each request is checked in a fixed order:
 * route and method, Host and Origin (403), bearer token (401), body size
 * (413), MCP-Protocol-Version (400), session (400/404), then dispatched.
 * Responses are JSON; a message with nothing to answer gets 202.
 */
#include "autoconfig.h"

#include <sys/types.h>
#include <sys/socket.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <netdb.h>
#include <netinet/in.h>
#include <arpa/inet.h>

#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "base/buf.h"
#include "core/config.h"
#include "engine/engine.h"
#include "base/clock.h"
#include "base/jsonout.h"
#include "mcp/mcp.h"
#include "mcp/mcp_http.h"
#include "base/mhd.h"
#include "base/status.h"
#include "base/strlist.h"
#include "base/url.h"
#include "base/xmalloc.h"

#define SESSION_MAX		256
#define SESSION_IDLE_S		3600
#define SESSION_PER_CLIENT	64	/* sessions one client address holds */
#define SESSION_EVICT_S		600	/* idle this long: may make room */
#define CONN_RESERVE		8	/* over max_connections: /healthz only */
#define LOG_BURST		10	/* log lines per LOG_WINDOW_S */
#define LOG_WINDOW_S		60

/* A client address, to count connections and sessions per client. */
struct http_peer {
	int		 family;
	unsigned char	 a[16];
};

/* Where a connection is in its request, for the deadlines. */
enum conn_state {
	CONN_HEAD,		/* waiting for the request's headers */
	CONN_BODY,		/* headers read, the body arriving */
	CONN_BUSY		/* request complete: being answered */
};

/*
 * One open connection, from MHD's STARTED notification to its CLOSED one
 * (which comes before MHD closes the descriptor, so fd stays ours to
 * shut down while the entry is in the table).
 */
struct http_conn {
	int		 fd;
	struct http_peer peer;
	enum conn_state	 state;
	int64_t		 since;		/* ms, monotonic: state entered */
	int		 reserve;	/* admitted over the bound */
	int		 cut;		/* shut down by us */
};

struct http_session {
	char			 id[33];
	struct http_peer	 peer;		/* who created it */
	struct mcp_session	 s;
	pthread_mutex_t		 lock;		/* one request at a time */
	time_t			 used;
	int			 refs;		/* requests holding it */
	int			 dead;		/* deleted: free at refs 0 */
};

struct mcp_http {
	struct MHD_Daemon	*d;
	struct mcp_server	*srv;
	const struct config	*cfg;
	int			 port;
	int			 loopback;	/* bound to a loopback address */
	size_t			 max_body;
	pthread_mutex_t		 slock;		/* guards sessions */
	struct http_session	*sessions[SESSION_MAX];

	pthread_mutex_t		 clock;		/* guards conns, stop */
	pthread_cond_t		 cwake;		/* the reaper's sleep */
	pthread_t		 reaper;
	int			 stop;
	struct http_conn	**conns;
	size_t			 nconns, maxconns;
	size_t			 conn_max;	/* max_connections, fd-capped */
	size_t			 conn_per_ip;

	pthread_mutex_t		 llock;		/* guards the log budget */
	int64_t			 log_window;	/* ms: current window start */
	unsigned int		 log_lines, log_dropped;
};

/* Per-request state kept across the access handler's calls. */
struct http_req {
	struct buf	 body;
	int		 toobig;
};

/* ---- responses -------------------------------------------------------- */

static enum MHD_Result
reply(struct MHD_Connection *c, unsigned int status, const char *ctype,
    char *body, const char *session)
{
	struct MHD_Response	*r;
	enum MHD_Result		 rv;
	size_t			 len = body ? strlen(body) : 0;

	r = MHD_create_response_from_buffer(len, body ? body : (void *)"",
	    body ? MHD_RESPMEM_MUST_FREE : MHD_RESPMEM_PERSISTENT);
	if (r == NULL) {
		free(body);
		return MHD_NO;
	}
	if (body != NULL && ctype != NULL)
		MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, ctype);
	if (session != NULL)
		MHD_add_response_header(r, "Mcp-Session-Id", session);
	if (status == MHD_HTTP_UNAUTHORIZED)
		MHD_add_response_header(r, MHD_HTTP_HEADER_WWW_AUTHENTICATE,
		    "Bearer realm=\"skills-radar\"");
	rv = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return rv;
}

static enum MHD_Result
reply_json(struct MHD_Connection *c, unsigned int status, char *body)
{
	return reply(c, status, "application/json", body, NULL);
}

/* A JSON-RPC error as an HTTP error body. */
static enum MHD_Result
reply_rpc_error(struct MHD_Connection *c, unsigned int status, int code,
    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static enum MHD_Result
reply_rpc_error(struct MHD_Connection *c, unsigned int status, int code,
    const char *fmt, ...)
{
	va_list	 ap;
	char	*msg, *body;

	va_start(ap, fmt);
	xvasprintf(&msg, fmt, ap);
	va_end(ap);
	body = mcp_error_text(NULL, code, msg);
	free(msg);
	return reply_json(c, status, body);
}

static enum MHD_Result
reply_rest_error(struct MHD_Connection *c, unsigned int status,
    const char *msg)
{
	cJSON	*o = cJSON_CreateObject();
	char	*body;

	cJSON_AddStringToObject(o, "error", msg);
	body = jsonout_print(o, 0);
	cJSON_Delete(o);
	return reply_json(c, status, body);
}

static enum MHD_Result
reply_405(struct MHD_Connection *c, const char *allow)
{
	struct MHD_Response	*r;
	enum MHD_Result		 rv;
	char			*body;

	xasprintf(&body, "{\"error\":\"method not allowed; use %s\"}", allow);
	r = MHD_create_response_from_buffer(strlen(body), body,
	    MHD_RESPMEM_MUST_FREE);
	if (r == NULL) {
		free(body);
		return MHD_NO;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE,
	    "application/json");
	MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, allow);
	rv = MHD_queue_response(c, MHD_HTTP_METHOD_NOT_ALLOWED, r);
	MHD_destroy_response(r);
	return rv;
}

/* ---- checks ----------------------------------------------------------- */

/* Host part of "host[:port]" or "[v6]:port" is a loopback name. */
static int
host_is_local(const char *h, size_t len)
{
	static const char *const names[] = { "localhost", "127.0.0.1", "[::1]",
	    NULL };
	size_t	 i, n;

	for (i = 0; names[i] != NULL; i++) {
		n = strlen(names[i]);
		if (len >= n && strncasecmp(h, names[i], n) == 0 &&
		    (len == n || h[n] == ':'))
			return 1;
	}
	return 0;
}

int
mcp_http_origin_ok(const char *origin, const struct strlist *allowed)
{
	const char	*h;
	char		 host[256];
	size_t		 len, i, alen, hl;

	if (origin == NULL)
		return 1;	/* not a browser: SDK clients send none */
	len = strlen(origin);
	while (len > 0 && origin[len - 1] == '/')
		len--;
	for (i = 0; allowed != NULL && i < allowed->n; i++) {
		alen = strlen(allowed->v[i]);
		while (alen > 0 && allowed->v[i][alen - 1] == '/')
			alen--;
		if (alen == len && strncasecmp(allowed->v[i], origin, len) == 0)
			return 1;
		if (alen == 1 && allowed->v[i][0] == '*')
			return 1;
	}
	if (strncasecmp(origin, "http://", 7) == 0)
		h = origin + 7;
	else if (strncasecmp(origin, "https://", 8) == 0)
		h = origin + 8;
	else
		return 0;
	/* scheme://host[:port], nothing more: what a browser sends */
	if (strcspn(h, "/?#@\\") < len - (size_t)(h - origin))
		return 0;
	/* the host as libcurl reads it; a bad port or host is not local */
	if ((hl = url_host(origin, len, host, sizeof host)) == 0)
		return 0;
	return host_is_local(host, hl);
}

/*
 * 1 when a Host header may reach a loopback-bound server: a local name,
 * or the host of an allowed origin (a reverse proxy passing its own
 * name), with or without the port.
 */
static int
host_ok(const char *host, const struct strlist *allowed)
{
	const char	*a, *colon;
	size_t		 i, hl = strlen(host), al;

	if (host_is_local(host, hl))
		return 1;
	for (i = 0; allowed != NULL && i < allowed->n; i++) {
		a = allowed->v[i];
		if (strncasecmp(a, "http://", 7) == 0)
			a += 7;
		else if (strncasecmp(a, "https://", 8) == 0)
			a += 8;
		al = strcspn(a, "/");
		if (al == hl && strncasecmp(a, host, hl) == 0)
			return 1;
		/* Host without a port against an origin with one, or back. */
		colon = memchr(host, ':', hl);
		if (colon != NULL && host[0] != '[' &&
		    (size_t)(colon - host) == al &&
		    strncasecmp(a, host, al) == 0)
			return 1;
		colon = memchr(a, ':', al);
		if (colon != NULL && a[0] != '[' &&
		    (size_t)(colon - a) == hl && strncasecmp(a, host, hl) == 0)
			return 1;
	}
	return 0;
}

static int
token_ok(const char *hdr, const char *token)
{
	size_t			 tl = strlen(token), hl, i;
	unsigned char		 diff = 0;

	if (hdr == NULL || strncasecmp(hdr, "Bearer ", 7) != 0)
		return 0;
	hdr += 7;
	while (*hdr == ' ')
		hdr++;
	hl = strlen(hdr);
	while (hl > 0 && hdr[hl - 1] == ' ')
		hl--;
	if (hl != tl)
		return 0;
	for (i = 0; i < tl; i++)		/* constant time */
		diff |= (unsigned char)(hdr[i] ^ token[i]);
	return diff == 0;
}

/* ---- connections and the log ------------------------------------------ */

/* The monotonic clock of clock.h, in whole milliseconds. */
static int64_t
now_ms(void)
{
	return (int64_t)clock_ms();
}

static void
peer_of(const struct sockaddr *sa, struct http_peer *p)
{
	memset(p, 0, sizeof *p);
	if (sa == NULL)
		return;
	p->family = sa->sa_family;
	if (sa->sa_family == AF_INET)
		memcpy(p->a, &((const struct sockaddr_in *)(const void *)sa)->
		    sin_addr, 4);
	else if (sa->sa_family == AF_INET6)
		memcpy(p->a, &((const struct sockaddr_in6 *)(const void *)sa)->
		    sin6_addr, 16);
}

static void
conn_peer(struct MHD_Connection *c, struct http_peer *p)
{
	const union MHD_ConnectionInfo	*ci;

	ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	peer_of(ci != NULL ? ci->client_addr : NULL, p);
}

static int
peer_eq(const struct http_peer *a, const struct http_peer *b)
{
	return a->family == b->family && memcmp(a->a, b->a, sizeof a->a) == 0;
}

static void
peer_text(const struct http_peer *p, char *out, size_t len)
{
	if (inet_ntop(p->family, p->a, out, (socklen_t)len) == NULL)
		snprintf(out, len, "?");
}

/*
 * Writes one line to stderr, at most LOG_BURST per LOG_WINDOW_S: a flood
 * of connections must not become a flood of log lines. The lines held
 * back are counted and the count is written before the next line let
 * through. It replaces libmicrohttpd's own log, which writes a line per
 * connection it closes.
 */
static void
http_vlog(struct mcp_http *h, const char *fmt, va_list ap)
{
	int64_t		 now = now_ms();
	unsigned int	 dropped;
	char		*msg;
	size_t		 len;

	pthread_mutex_lock(&h->llock);
	if (now - h->log_window >= LOG_WINDOW_S * 1000) {
		h->log_window = now;
		h->log_lines = 0;
	}
	if (h->log_lines >= LOG_BURST) {
		h->log_dropped++;
		pthread_mutex_unlock(&h->llock);
		return;
	}
	h->log_lines++;
	dropped = h->log_dropped;
	h->log_dropped = 0;
	pthread_mutex_unlock(&h->llock);

	xvasprintf(&msg, fmt, ap);
	len = strlen(msg);
	while (len > 0 && (msg[len - 1] == '\n' || msg[len - 1] == '\r'))
		msg[--len] = '\0';
	if (dropped > 0)
		fprintf(stderr, "skills-radar: http: %u more such messages "
		    "not logged\n", dropped);
	fprintf(stderr, "skills-radar: http: %s\n", msg);
	free(msg);
}

static void
http_log(struct mcp_http *h, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
http_log(struct mcp_http *h, const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	http_vlog(h, fmt, ap);
	va_end(ap);
}

static void
on_mhd_log(void *cls, const char *fmt, va_list ap)
{
	http_vlog(cls, fmt, ap);
}

/*
 * Shuts a connection down (clock held): libmicrohttpd then reads the end
 * of its input and closes it in its own thread. The descriptor cannot
 * have been reused: the entry leaves the table, under clock, before
 * libmicrohttpd closes it.
 */
static void
conn_cut(struct mcp_http *h, struct http_conn *k, const char *why)
{
	char	 ip[INET6_ADDRSTRLEN];

	k->cut = 1;
	if (k->fd >= 0)
		shutdown(k->fd, SHUT_RDWR);
	peer_text(&k->peer, ip, sizeof ip);
	http_log(h, "closed a connection from %s: %s", ip, why);
}

/* Cuts the connections past their deadline (clock held). */
static void
conn_reap(struct mcp_http *h, int64_t now)
{
	struct http_conn	*k;
	int64_t			 head = (int64_t)h->cfg->header_timeout_s * 1000;
	int64_t			 body = (int64_t)h->cfg->timeout_s * 1000;
	size_t			 i;

	for (i = 0; i < h->nconns; i++) {
		k = h->conns[i];
		if (k->cut)
			continue;
		if (k->state == CONN_HEAD && head > 0 && now - k->since > head)
			conn_cut(h, k, "no complete request headers within "
			    "transport.header_timeout_s");
		else if (k->state == CONN_BODY && body > 0 &&
		    now - k->since > body)
			conn_cut(h, k, "no complete request body within "
			    "transport.timeout_s");
	}
}

/*
 * The connection that has waited longest for its request headers, of
 * peer p (NULL: of any client), or NULL (clock held).
 */
static struct http_conn *
conn_oldest_head(struct mcp_http *h, const struct http_peer *p)
{
	struct http_conn	*k, *best = NULL;
	size_t			 i;

	for (i = 0; i < h->nconns; i++) {
		k = h->conns[i];
		if (k->cut || k->state != CONN_HEAD ||
		    (p != NULL && !peer_eq(&k->peer, p)))
			continue;
		if (best == NULL || k->since < best->since)
			best = k;
	}
	return best;
}

/*
 * libmicrohttpd's accept policy: a client over
 * transport.max_connections_per_ip, or a server over
 * transport.max_connections, makes room by closing the connection that
 * has waited longest for its request headers (a slow or stalled client,
 * never a request being answered). With no such connection, a client
 * over its bound is refused, and a server over its bound admits
 * CONN_RESERVE more for /healthz.
 */
static enum MHD_Result
on_accept(void *cls, const struct sockaddr *sa, socklen_t salen)
{
	struct mcp_http		*h = cls;
	struct http_peer	 p;
	struct http_conn	*k;
	char			 ip[INET6_ADDRSTRLEN];
	size_t			 i, live = 0, mine = 0;
	enum MHD_Result		 rv = MHD_YES;

	(void)salen;
	peer_of(sa, &p);
	pthread_mutex_lock(&h->clock);
	conn_reap(h, now_ms());
	for (i = 0; i < h->nconns; i++)
		if (!h->conns[i]->cut) {
			live++;
			mine += peer_eq(&h->conns[i]->peer, &p);
		}
	if (mine >= h->conn_per_ip) {
		if ((k = conn_oldest_head(h, &p)) != NULL)
			conn_cut(h, k, "its client opened more than "
			    "transport.max_connections_per_ip");
		else
			rv = MHD_NO;
	} else if (live >= h->conn_max) {
		if ((k = conn_oldest_head(h, NULL)) != NULL)
			conn_cut(h, k, "the server is at "
			    "transport.max_connections");
		else if (live >= h->conn_max + CONN_RESERVE)
			rv = MHD_NO;
	}
	if (rv == MHD_NO) {
		peer_text(&p, ip, sizeof ip);
		http_log(h, "refused a connection from %s: %s", ip,
		    mine >= h->conn_per_ip ? "transport.max_connections_per_ip "
		    "reached, every one busy" : "transport.max_connections "
		    "reached, every one busy");
	}
	pthread_mutex_unlock(&h->clock);
	return rv;
}

/* Keeps the table of open connections that the bounds count. */
static void
on_connection(void *cls, struct MHD_Connection *c, void **ctx,
    enum MHD_ConnectionNotificationCode code)
{
	struct mcp_http			*h = cls;
	struct http_conn		*k = *ctx;
	const union MHD_ConnectionInfo	*ci;
	size_t				 i, live = 0;

	if (code == MHD_CONNECTION_NOTIFY_CLOSED) {
		if (k == NULL)
			return;
		pthread_mutex_lock(&h->clock);
		for (i = 0; i < h->nconns; i++)
			if (h->conns[i] == k) {
				h->conns[i] = h->conns[--h->nconns];
				break;
			}
		pthread_mutex_unlock(&h->clock);
		free(k);
		*ctx = NULL;
		return;
	}
	if (code != MHD_CONNECTION_NOTIFY_STARTED)
		return;
	k = xcalloc(1, sizeof *k);
	ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
	k->fd = ci != NULL ? ci->connect_fd : -1;
	conn_peer(c, &k->peer);
	k->state = CONN_HEAD;
	k->since = now_ms();
	pthread_mutex_lock(&h->clock);
	for (i = 0; i < h->nconns; i++)
		live += !h->conns[i]->cut;
	k->reserve = live >= h->conn_max;
	if (h->nconns == h->maxconns) {
		h->maxconns = h->maxconns ? 2 * h->maxconns : 64;
		h->conns = xreallocarray(h->conns, h->maxconns,
		    sizeof *h->conns);
	}
	h->conns[h->nconns++] = k;
	pthread_mutex_unlock(&h->clock);
	*ctx = k;
}

static struct http_conn *
conn_of(struct MHD_Connection *c)
{
	const union MHD_ConnectionInfo	*ci;

	ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	return ci != NULL ? ci->socket_context : NULL;
}

/* Moves a connection to the next part of its request; its clock restarts. */
static void
conn_enter(struct mcp_http *h, struct MHD_Connection *c,
    enum conn_state state)
{
	struct http_conn	*k = conn_of(c);

	if (k == NULL)
		return;
	pthread_mutex_lock(&h->clock);
	k->state = state;
	k->since = now_ms();
	pthread_mutex_unlock(&h->clock);
}

/* Enforces the deadlines even when no new connection arrives. */
static void *
reaper_main(void *arg)
{
	struct mcp_http	*h = arg;
	struct timespec	 ts;

	pthread_mutex_lock(&h->clock);
	while (!h->stop) {
		conn_reap(h, now_ms());
		clock_gettime(CLOCK_MONOTONIC, &ts);
		ts.tv_sec += 1;
		pthread_cond_timedwait(&h->cwake, &h->clock, &ts);
	}
	pthread_mutex_unlock(&h->clock);
	return NULL;
}

/*
 * 0 when a token begins or ends with white space. Refused at start rather
 * than trimmed: the token is a secret compared byte for byte, and a stray
 * space or newline from a YAML quote or an env file means the operator's
 * copy and the clients' copies may differ; we say so at once instead of
 * guessing which one was meant or answering 401 to everyone.
 */
static int
token_trimmed(const char *t)
{
	size_t	 n;

	if (t == NULL || (n = strlen(t)) == 0)
		return 1;
	return !isspace((unsigned char)t[0]) &&
	    !isspace((unsigned char)t[n - 1]);
}

/* ---- sessions --------------------------------------------------------- */

static void
session_free(struct http_session *s)
{
	mcp_session_done(&s->s);
	pthread_mutex_destroy(&s->lock);
	free(s);
}

/*
 * With the table full and no session long idle: the least recently used
 * idle session of the client holding the most, when it holds more than
 * mine + 1 (the asker's count). A few addresses filling the table (a
 * loopback has 2^24) then cannot lock everyone else out: a newcomer takes
 * the place of the greediest client's oldest idle session. SESSION_MAX
 * when there is none. Called with slock held.
 */
static size_t
heaviest_idle(struct mcp_http *h, size_t mine)
{
	struct http_session	*a, *b;
	size_t			 i, j, n, most = mine + 1, pick = SESSION_MAX;

	for (i = 0; i < SESSION_MAX; i++) {
		if ((a = h->sessions[i]) == NULL || a->dead || a->refs != 0)
			continue;
		for (n = 0, j = 0; j < SESSION_MAX; j++)
			if ((b = h->sessions[j]) != NULL && !b->dead &&
			    peer_eq(&a->peer, &b->peer))
				n++;
		if (n > most || (n == most && pick != SESSION_MAX &&
		    peer_eq(&a->peer, &h->sessions[pick]->peer) &&
		    a->used < h->sessions[pick]->used)) {
			most = n;
			pick = i;
		}
	}
	return pick;
}

/*
 * A new session for a client at p, in *out. Returns 0, or the HTTP status
 * that refuses it: 429 when p already holds SESSION_PER_CLIENT sessions,
 * 503 when the table is full. A session idle for SESSION_EVICT_S makes
 * room first, then an idle one of the client holding the most
 * (heaviest_idle()): a client initializing in a loop must not end the
 * sessions of others, nor a few clients shut out the rest.
 */
static unsigned int
session_new(struct mcp_http *h, const struct http_peer *p,
    struct http_session **out)
{
	struct http_session	*s, *old;
	unsigned char		 rnd[16];
	time_t			 now = time(NULL);
	size_t			 i, slot = SESSION_MAX, lru = SESSION_MAX, mine = 0;

	*out = NULL;
	if (getrandom(rnd, sizeof rnd, 0) != (ssize_t)sizeof rnd)
		return MHD_HTTP_SERVICE_UNAVAILABLE;
	s = xcalloc(1, sizeof *s);
	for (i = 0; i < sizeof rnd; i++)
		snprintf(s->id + 2 * i, 3, "%02x", rnd[i]);
	s->peer = *p;
	mcp_session_init(&s->s, MCP_SESSION_STRICT);
	s->s.id = s->id;	/* telemetry names the session's events */
	pthread_mutex_init(&s->lock, NULL);
	s->used = now;
	s->refs = 1;

	pthread_mutex_lock(&h->slock);
	for (i = 0; i < SESSION_MAX; i++) {
		old = h->sessions[i];
		if (old != NULL && old->refs == 0 &&
		    now - old->used > SESSION_IDLE_S) {
			session_free(old);
			h->sessions[i] = old = NULL;
		}
		if (old == NULL) {
			if (slot == SESSION_MAX)
				slot = i;
			continue;
		}
		if (!old->dead && peer_eq(&old->peer, p))
			mine++;
		if (old->refs == 0 && now - old->used > SESSION_EVICT_S &&
		    (lru == SESSION_MAX || old->used < h->sessions[lru]->used))
			lru = i;
	}
	if (mine >= SESSION_PER_CLIENT) {
		pthread_mutex_unlock(&h->slock);
		session_free(s);
		return MHD_HTTP_TOO_MANY_REQUESTS;
	}
	if (slot == SESSION_MAX && lru == SESSION_MAX)
		lru = heaviest_idle(h, mine);
	if (slot == SESSION_MAX && lru != SESSION_MAX) {
		session_free(h->sessions[lru]);	/* idle: make room */
		h->sessions[lru] = NULL;
		slot = lru;
	}
	if (slot == SESSION_MAX) {
		pthread_mutex_unlock(&h->slock);
		session_free(s);
		return MHD_HTTP_SERVICE_UNAVAILABLE;
	}
	h->sessions[slot] = s;
	pthread_mutex_unlock(&h->slock);
	*out = s;
	return 0;
}

/*
 * The session id, held (session_put() it), when the client at p created
 * it; NULL otherwise, with *foreign set when the id is another client
 * address's: a session id seen on the wire does not let anyone else use
 * or end it.
 */
static struct http_session *
session_get(struct mcp_http *h, const char *id, const struct http_peer *p,
    int *foreign)
{
	struct http_session	*s = NULL;
	size_t			 i;

	*foreign = 0;
	pthread_mutex_lock(&h->slock);
	for (i = 0; i < SESSION_MAX; i++)
		if (h->sessions[i] != NULL && !h->sessions[i]->dead &&
		    strcmp(h->sessions[i]->id, id) == 0) {
			if (!peer_eq(&h->sessions[i]->peer, p)) {
				*foreign = 1;
				break;
			}
			s = h->sessions[i];
			s->refs++;
			s->used = time(NULL);
			break;
		}
	pthread_mutex_unlock(&h->slock);
	return s;
}

/* The refusal of a session id session_get() did not give. */
static enum MHD_Result
reply_no_session(struct MHD_Connection *c, int foreign)
{
	if (foreign)
		return reply_rpc_error(c, MHD_HTTP_FORBIDDEN,
		    MCP_INVALID_REQUEST, "Forbidden: this session belongs "
		    "to another client address");
	return reply_rpc_error(c, MHD_HTTP_NOT_FOUND, MCP_INVALID_REQUEST,
	    "Session not found: initialize a new session");
}

static void
session_put(struct mcp_http *h, struct http_session *s, int kill)
{
	size_t	 i;

	pthread_mutex_lock(&h->slock);
	if (kill)
		s->dead = 1;
	if (--s->refs == 0 && s->dead) {
		for (i = 0; i < SESSION_MAX; i++)
			if (h->sessions[i] == s)
				h->sessions[i] = NULL;
		session_free(s);
	}
	pthread_mutex_unlock(&h->slock);
}

/* ---- routes ----------------------------------------------------------- */

/* 1 when a Content-Type is application/json, with or without parameters. */
static int
ctype_json(const char *ct)
{
	while (*ct == ' ' || *ct == '\t')
		ct++;
	if (strncasecmp(ct, "application/json", 16) != 0)
		return 0;
	ct += 16;
	while (*ct == ' ' || *ct == '\t')
		ct++;
	return *ct == '\0' || *ct == ';';
}

/*
 * The body as one JSON value (free it), or NULL with *why saying what is
 * wrong and *code the JSON-RPC error it is. Only white space may follow
 * the value, as on stdio: "{...} junk" is refused, not half read.
 */
static cJSON *
body_json(const struct http_req *q, const char **why, int *code)
{
	const char	*p = q->body.p != NULL ? q->body.p : "", *end = NULL;
	cJSON		*v;

	*why = NULL;
	*code = MCP_PARSE_ERROR;
	/* Not UTF-8, or a NUL that would cut a name short: mcp.h. */
	if ((*code = mcp_text_check(p, q->body.len, why)) != 0)
		return NULL;
	*code = MCP_PARSE_ERROR;
	if ((v = cJSON_ParseWithLengthOpts(p, q->body.len, &end, 0)) == NULL) {
		*why = "the body is not valid JSON";
		return NULL;
	}
	while (end != NULL && end < p + q->body.len &&
	    isspace((unsigned char)*end))
		end++;
	if (end != NULL && end < p + q->body.len) {
		cJSON_Delete(v);
		*why = "trailing data after the JSON value";
		return NULL;
	}
	return v;
}

static enum MHD_Result
route_mcp_post(struct mcp_http *h, struct MHD_Connection *c,
    struct http_req *q)
{
	const char		*sid, *pv, *ct;
	const cJSON		*method;
	struct http_session	*s = NULL;
	struct mcp_session	 local;
	struct http_peer	 peer;
	cJSON			*msg;
	char			*resp;
	const char		*why;
	unsigned int		 status;
	int			 info = 0, is_init, code, foreign;
	enum MHD_Result		 rv;

	ct = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
	    MHD_HTTP_HEADER_CONTENT_TYPE);
	if (ct != NULL && !ctype_json(ct))
		return reply_rpc_error(c, MHD_HTTP_UNSUPPORTED_MEDIA_TYPE,
		    MCP_INVALID_REQUEST, "Unsupported Media Type: POST "
		    "JSON-RPC as application/json");
	pv = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
	    "MCP-Protocol-Version");
	if (pv != NULL && !mcp_version_supported(pv))
		return reply_rpc_error(c, MHD_HTTP_BAD_REQUEST,
		    MCP_INVALID_REQUEST, "Bad Request: unsupported "
		    "MCP-Protocol-Version %s (supported: %s, %s, %s, %s)", pv,
		    mcp_versions()[0], mcp_versions()[1], mcp_versions()[2],
		    mcp_versions()[3]);
	if ((msg = body_json(q, &why, &code)) == NULL)
		return reply_rpc_error(c, MHD_HTTP_BAD_REQUEST, code, "%s: %s",
		    code == MCP_PARSE_ERROR ? "Parse error" : "Invalid params",
		    why);
	method = cJSON_IsObject(msg) ?
	    cJSON_GetObjectItemCaseSensitive(msg, "method") : NULL;
	is_init = cJSON_IsString(method) &&
	    strcmp(method->valuestring, "initialize") == 0;
	sid = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Mcp-Session-Id");

	if (h->cfg->stateless) {
		mcp_session_init(&local, 0);
		resp = mcp_handle_json(h->srv, &local, msg, &info);
		mcp_session_done(&local);
	} else if (is_init && sid == NULL) {
		conn_peer(c, &peer);
		if ((status = session_new(h, &peer, &s)) != 0) {
			cJSON_Delete(msg);
			return reply_rpc_error(c, status, MCP_INTERNAL_ERROR,
			    status == MHD_HTTP_TOO_MANY_REQUESTS ? "Too Many "
			    "Requests: this client holds %d sessions; end one "
			    "(DELETE) or reuse it" : "Service Unavailable: the "
			    "server holds %d sessions, all in use; retry later",
			    status == MHD_HTTP_TOO_MANY_REQUESTS ?
			    SESSION_PER_CLIENT : SESSION_MAX);
		}
		pthread_mutex_lock(&s->lock);
		resp = mcp_handle_json(h->srv, &s->s, msg, &info);
		pthread_mutex_unlock(&s->lock);
		if (!(info & MCP_INFO_INITIALIZE)) {
			session_put(h, s, 1);
			s = NULL;
		}
	} else {
		if (sid == NULL) {
			cJSON_Delete(msg);
			return reply_rpc_error(c, MHD_HTTP_BAD_REQUEST,
			    MCP_INVALID_REQUEST, "Bad Request: Mcp-Session-Id "
			    "header is required (send initialize first)");
		}
		conn_peer(c, &peer);
		if ((s = session_get(h, sid, &peer, &foreign)) == NULL) {
			cJSON_Delete(msg);
			return reply_no_session(c, foreign);
		}
		pthread_mutex_lock(&s->lock);
		resp = mcp_handle_json(h->srv, &s->s, msg, &info);
		pthread_mutex_unlock(&s->lock);
	}
	cJSON_Delete(msg);
	if (resp == NULL)
		rv = reply(c, MHD_HTTP_ACCEPTED, NULL, NULL,
		    (s != NULL && is_init) ? s->id : NULL);
	else
		rv = reply(c, (info & MCP_INFO_INVALID) &&
		    !(info & MCP_INFO_REQUEST) ? MHD_HTTP_BAD_REQUEST :
		    MHD_HTTP_OK, "application/json", resp,
		    (s != NULL && is_init) ? s->id : NULL);
	if (s != NULL)
		session_put(h, s, 0);
	return rv;
}

static enum MHD_Result
route_mcp_delete(struct mcp_http *h, struct MHD_Connection *c)
{
	struct http_session	*s;
	struct http_peer	 peer;
	const char		*sid;
	int			 foreign;

	if (h->cfg->stateless)
		return reply_405(c, "POST");
	sid = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Mcp-Session-Id");
	if (sid == NULL)
		return reply_rpc_error(c, MHD_HTTP_BAD_REQUEST,
		    MCP_INVALID_REQUEST, "Bad Request: Mcp-Session-Id header "
		    "is required");
	conn_peer(c, &peer);
	if ((s = session_get(h, sid, &peer, &foreign)) == NULL)
		return reply_no_session(c, foreign);
	session_put(h, s, 1);
	return reply(c, MHD_HTTP_OK, NULL, NULL, NULL);
}

static enum MHD_Result
route_mcp_get(struct mcp_http *h, struct MHD_Connection *c)
{
	struct http_session	*s;
	struct http_peer	 peer;
	const char		*sid;
	int			 foreign;

	if (!h->cfg->stateless) {
		sid = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
		    "Mcp-Session-Id");
		if (sid == NULL)
			return reply_rpc_error(c, MHD_HTTP_BAD_REQUEST,
			    MCP_INVALID_REQUEST, "Bad Request: "
			    "Mcp-Session-Id header is required");
		conn_peer(c, &peer);
		if ((s = session_get(h, sid, &peer, &foreign)) == NULL)
			return reply_no_session(c, foreign);
		session_put(h, s, 0);
		/* No server-initiated messages yet: no stream to open. */
		return reply_405(c, "POST, DELETE");
	}
	return reply_405(c, "POST");
}

static enum MHD_Result
route_healthz(struct mcp_http *h, struct MHD_Connection *c)
{
	char	*body;
	int	 ready;

	body = mcp_server_health(h->srv, &ready);
	/* 503 until a replica has its skills: a balancer skips it */
	return reply_json(c, ready ? MHD_HTTP_OK :
	    MHD_HTTP_SERVICE_UNAVAILABLE, body);
}

static unsigned int
rest_status(int rv)
{
	switch (rv) {
	case SR_USAGE:
		return MHD_HTTP_BAD_REQUEST;
	case SR_NOTFOUND:
		return MHD_HTTP_NOT_FOUND;
	case SR_REFUSED:
		return MHD_HTTP_FORBIDDEN;
	default:
		return MHD_HTTP_INTERNAL_SERVER_ERROR;
	}
}

static enum MHD_Result
route_rest(struct mcp_http *h, struct MHD_Connection *c, const char *tool,
    const cJSON *args)
{
	cJSON		*out = NULL;
	char		*cause = NULL, *body;
	int		 rv;
	enum MHD_Result	 r;

	if (mcp_server_unready(h->srv, &cause)) {
		r = reply_rest_error(c, MHD_HTTP_SERVICE_UNAVAILABLE, cause);
		free(cause);
		return r;
	}
	if ((rv = mcp_tool_run(h->srv, tool, args, &out, &cause)) != 0) {
		r = reply_rest_error(c, rest_status(rv), cause);
		free(cause);
		return r;
	}
	body = jsonout_print(out, 0);
	cJSON_Delete(out);
	return reply_json(c, MHD_HTTP_OK, body);
}

static enum MHD_Result
route_rest_get_list(struct mcp_http *h, struct MHD_Connection *c)
{
	static const char *const keys[] = { "kind", "tier", "tag", "cursor",
	    NULL };
	const char	*v;
	cJSON		*args = cJSON_CreateObject();
	enum MHD_Result	 r;
	size_t		 i;

	for (i = 0; keys[i] != NULL; i++)
		if ((v = MHD_lookup_connection_value(c,
		    MHD_GET_ARGUMENT_KIND, keys[i])) != NULL)
			cJSON_AddStringToObject(args, keys[i], v);
	r = route_rest(h, c, "list_skills", args);
	cJSON_Delete(args);
	return r;
}

static enum MHD_Result
route_rest_post(struct mcp_http *h, struct MHD_Connection *c,
    const char *tool, struct http_req *q)
{
	cJSON		*args;
	const char	*why;
	char		*msg;
	int		 code;
	enum MHD_Result	 r;

	args = body_json(q, &why, &code);
	if (args == NULL || !cJSON_IsObject(args)) {
		cJSON_Delete(args);
		xasprintf(&msg, "the body must be a JSON object of the tool's "
		    "arguments%s%s", why != NULL ? ": " : "",
		    why != NULL ? why : "");
		r = reply_rest_error(c, MHD_HTTP_BAD_REQUEST, msg);
		free(msg);
		return r;
	}
	r = route_rest(h, c, tool, args);
	cJSON_Delete(args);
	return r;
}

static const struct {
	const char	*path;
	const char	*tool;
} rest_posts[] = {
	{ "/tools/skill_load",		"load_skill" },
	{ "/tools/skill_read",		"read_skill_file" },
	{ "/tools/search_skills",	"search_skills" },
	{ NULL,				NULL }
};

/*
 * Host and Origin (403), then the token (401). Returns MHD_YES with
 * *done 0 when the request may go on.
 */
static enum MHD_Result
check_access(struct mcp_http *h, struct MHD_Connection *c, int *done)
{
	const char	*origin, *host, *auth;

	*done = 1;
	origin = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
	    MHD_HTTP_HEADER_ORIGIN);
	host = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
	    MHD_HTTP_HEADER_HOST);
	if (!mcp_http_origin_ok(origin, &h->cfg->allowed_origins))
		return reply_rpc_error(c, MHD_HTTP_FORBIDDEN,
		    MCP_INVALID_REQUEST, "Forbidden: Origin %s is not allowed "
		    "(transport.allowed_origins)", origin);
	if (h->loopback && host != NULL &&
	    !host_ok(host, &h->cfg->allowed_origins))
		return reply_rpc_error(c, MHD_HTTP_FORBIDDEN,
		    MCP_INVALID_REQUEST, "Forbidden: Host %s is not a local "
		    "name (DNS rebinding protection)", host);
	if (h->cfg->auth_token != NULL && h->cfg->auth_token[0] != '\0') {
		auth = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
		    MHD_HTTP_HEADER_AUTHORIZATION);
		if (!token_ok(auth, h->cfg->auth_token))
			return reply_rpc_error(c, MHD_HTTP_UNAUTHORIZED,
			    MCP_INVALID_REQUEST, "Unauthorized: send "
			    "Authorization: Bearer <transport.auth_token>");
	}
	*done = 0;
	return MHD_YES;
}

struct header_count {
	const char	*name;
	int		 n;
};

static enum MHD_Result
header_count_one(void *cls, enum MHD_ValueKind kind, const char *key,
    const char *value)
{
	struct header_count	*hc = cls;

	(void)kind;
	(void)value;
	if (strcasecmp(key, hc->name) == 0)
		hc->n++;
	return MHD_YES;
}

/*
 * How many times a request header occurs: a second Content-Length is
 * request smuggling behind a proxy that reads the other one.
 */
static int
header_count(struct MHD_Connection *c, const char *name)
{
	struct header_count	 hc = { name, 0 };

	MHD_get_connection_values(c, MHD_HEADER_KIND, header_count_one, &hc);
	return hc.n;
}

static enum MHD_Result
on_request(void *cls, struct MHD_Connection *c, const char *url,
    const char *method, const char *version, const char *upload,
    size_t *upload_size, void **con_cls)
{
	struct mcp_http	*h = cls;
	struct http_req	*q = *con_cls;
	struct http_conn *k;
	const char	*cl;
	enum MHD_Result	 r;
	unsigned long long n;
	int		 done, is_mcp, i;

	if (q == NULL) {
		/* First call: headers only. Refuse early what we can. */
		conn_enter(h, c, CONN_BODY);
		if ((k = conn_of(c)) != NULL && k->reserve &&
		    (strcmp(url, "/healthz") != 0 ||
		    strcmp(method, MHD_HTTP_METHOD_GET) != 0))
			return reply_rest_error(c, MHD_HTTP_SERVICE_UNAVAILABLE,
			    "Service Unavailable: the server is at "
			    "transport.max_connections; retry later");
		r = check_access(h, c, &done);
		if (done)
			return r;
		if (header_count(c, MHD_HTTP_HEADER_CONTENT_LENGTH) > 1 ||
		    (header_count(c, MHD_HTTP_HEADER_CONTENT_LENGTH) > 0 &&
		    header_count(c, MHD_HTTP_HEADER_TRANSFER_ENCODING) > 0))
			return reply_rpc_error(c, MHD_HTTP_BAD_REQUEST,
			    MCP_INVALID_REQUEST, "Bad Request: more than one "
			    "Content-Length, or Content-Length with "
			    "Transfer-Encoding: the body's length is "
			    "ambiguous");
		cl = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
		    MHD_HTTP_HEADER_CONTENT_LENGTH);
		if (cl != NULL && (n = strtoull(cl, NULL, 10)) > h->max_body)
			return reply_rpc_error(c, MHD_HTTP_CONTENT_TOO_LARGE,
			    MCP_INVALID_REQUEST, "Payload Too Large: the body "
			    "is over %zu bytes (transport.max_body_kb)",
			    h->max_body);
		q = xcalloc(1, sizeof *q);
		buf_init(&q->body, h->max_body);
		*con_cls = q;
		return MHD_YES;
	}
	if (*upload_size > 0) {
		if (!q->toobig && buf_add(&q->body, upload, *upload_size) != 0)
			q->toobig = 1;
		*upload_size = 0;
		return MHD_YES;
	}
	conn_enter(h, c, CONN_BUSY);
	if (q->toobig)
		return reply_rpc_error(c, MHD_HTTP_CONTENT_TOO_LARGE,
		    MCP_INVALID_REQUEST, "Payload Too Large: the body is over "
		    "%zu bytes (transport.max_body_kb)", h->max_body);

	is_mcp = strcmp(url, h->cfg->http_path) == 0;
	if (is_mcp) {
		if (strcmp(method, MHD_HTTP_METHOD_POST) == 0)
			return route_mcp_post(h, c, q);
		if (strcmp(method, MHD_HTTP_METHOD_GET) == 0)
			return route_mcp_get(h, c);
		if (strcmp(method, MHD_HTTP_METHOD_DELETE) == 0)
			return route_mcp_delete(h, c);
		return reply_405(c, h->cfg->stateless ? "POST" :
		    "POST, GET, DELETE");
	}
	if (strcmp(url, "/healthz") == 0) {
		if (strcmp(method, MHD_HTTP_METHOD_GET) != 0)
			return reply_405(c, "GET");
		return route_healthz(h, c);
	}
	if (strcmp(url, "/tools/skill_list") == 0) {
		if (strcmp(method, MHD_HTTP_METHOD_GET) != 0)
			return reply_405(c, "GET");
		return route_rest_get_list(h, c);
	}
	for (i = 0; rest_posts[i].path != NULL; i++)
		if (strcmp(url, rest_posts[i].path) == 0) {
			if (strcmp(method, MHD_HTTP_METHOD_POST) != 0)
				return reply_405(c, "POST");
			return route_rest_post(h, c, rest_posts[i].tool, q);
		}
	return reply_rest_error(c, MHD_HTTP_NOT_FOUND, "not found: the MCP "
	    "endpoint is POST on transport.path");
}

static void
on_done(void *cls, struct MHD_Connection *c, void **con_cls,
    enum MHD_RequestTerminationCode toe)
{
	struct mcp_http	*h = cls;
	struct http_req	*q = *con_cls;

	(void)toe;
	conn_enter(h, c, CONN_HEAD);	/* keep-alive: the next request */
	if (q != NULL) {
		buf_done(&q->body);
		free(q);
		*con_cls = NULL;
	}
}

static int
addr_is_loopback(const struct sockaddr *sa)
{
	if (sa->sa_family == AF_INET)
		return (ntohl(((const struct sockaddr_in *)(const void *)sa)->
		    sin_addr.s_addr) >> 24) == 127;
	if (sa->sa_family == AF_INET6)
		return IN6_IS_ADDR_LOOPBACK(&((const struct sockaddr_in6 *)
		    (const void *)sa)->sin6_addr);
	return 0;
}

/*
 * The bounds on connections: transport.max_connections, capped so that
 * every admitted connection, the reserve for /healthz and libmicrohttpd's
 * own margin fit the open-file limit with room for the databases. *limit
 * is libmicrohttpd's hard cap: its thread pool splits it between the
 * workers, so it keeps a margin per worker over ours.
 */
static void
conn_bounds(struct mcp_http *h, unsigned int *limit)
{
	struct rlimit	 rl;
	size_t		 want, extra, room;

	want = h->cfg->max_connections > 0 ?
	    (size_t)h->cfg->max_connections : 512;
	extra = CONN_RESERVE + 16 + 8 * (size_t)(h->cfg->threads > 1 ?
	    h->cfg->threads : 1);
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
		room = rl.rlim_cur > 64 + extra + 1 ?
		    (size_t)rl.rlim_cur - 64 - extra : 1;
		if (want > room)
			want = room;
	}
	h->conn_max = want;
	h->conn_per_ip = h->cfg->max_connections_per_ip > 0 ?
	    (size_t)h->cfg->max_connections_per_ip : 256;
	*limit = (unsigned int)(want + extra);
}

static void
http_free(struct mcp_http *h)
{
	size_t	 i;

	for (i = 0; i < h->nconns; i++)
		free(h->conns[i]);
	free(h->conns);
	pthread_cond_destroy(&h->cwake);
	pthread_mutex_destroy(&h->llock);
	pthread_mutex_destroy(&h->clock);
	pthread_mutex_destroy(&h->slock);
	free(h);
}

int
mcp_http_start(struct mcp_server *srv, const struct config *cfg,
    struct mcp_http **out, char **cause)
{
	struct addrinfo		 hints, *ai = NULL;
	struct mcp_http		*h;
	const union MHD_DaemonInfo *di;
	char			 port[16];
	pthread_condattr_t	 ca;
	struct MHD_OptionItem	 pool[2] = { { MHD_OPTION_END, 0, NULL },
				    { MHD_OPTION_END, 0, NULL } };
	unsigned int		 flags, limit;
	int			 e;

	*out = NULL;
	*cause = NULL;
	if (cfg->http_path == NULL || cfg->http_path[0] != '/') {
		xasprintf(cause, "transport.path must start with '/'");
		return SR_CONFIG;
	}
	if (!token_trimmed(cfg->auth_token)) {
		xasprintf(cause, "transport.auth_token (or SKILLS_RADAR_TOKEN) "
		    "begins or ends with white space, which no Authorization "
		    "header carries: remove it from the token");
		return SR_CONFIG;
	}
	if (mhd_load(cause) != 0)
		return SR_CONFIG;	/* retrying cannot help */
	memset(&hints, 0, sizeof hints);
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
	snprintf(port, sizeof port, "%d", cfg->http_port);
	if ((e = getaddrinfo(cfg->http_host, port, &hints, &ai)) != 0) {
		xasprintf(cause, "%s: %s", cfg->http_host, gai_strerror(e));
		return SR_CONFIG;
	}
	h = xcalloc(1, sizeof *h);
	h->srv = srv;
	h->cfg = cfg;
	h->max_body = (size_t)(cfg->max_body_kb > 0 ? cfg->max_body_kb : 1024) *
	    1024;
	h->loopback = addr_is_loopback(ai->ai_addr);
	pthread_mutex_init(&h->slock, NULL);
	pthread_mutex_init(&h->clock, NULL);
	pthread_mutex_init(&h->llock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&h->cwake, &ca);
	pthread_condattr_destroy(&ca);
	h->log_window = now_ms();
	flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_AUTO |
	    MHD_USE_ERROR_LOG;
	if (ai->ai_family == AF_INET6)
		flags |= MHD_USE_IPv6;
	conn_bounds(h, &limit);
	/* A pool of one is no pool: libmicrohttpd warns about it. */
	pool[0].option = cfg->threads > 1 ? MHD_OPTION_THREAD_POOL_SIZE :
	    MHD_OPTION_END;
	pool[0].value = cfg->threads;
	h->d = MHD_start_daemon(flags, 0, on_accept, h, on_request, h,
	    MHD_OPTION_EXTERNAL_LOGGER, on_mhd_log, h,	/* first: all of it */
	    MHD_OPTION_SOCK_ADDR, ai->ai_addr,
	    MHD_OPTION_CONNECTION_LIMIT, limit,
	    MHD_OPTION_CONNECTION_TIMEOUT,
	    (unsigned int)(cfg->timeout_s > 0 ? cfg->timeout_s : 30),
	    MHD_OPTION_NOTIFY_CONNECTION, on_connection, h,
	    MHD_OPTION_NOTIFY_COMPLETED, on_done, h,
	    MHD_OPTION_ARRAY, pool,
	    MHD_OPTION_END);
	freeaddrinfo(ai);
	if (h->d == NULL) {
		xasprintf(cause, "cannot listen on %s:%d (address in use, or "
		    "not a local address?)", cfg->http_host, cfg->http_port);
		http_free(h);
		return SR_IO;
	}
	if ((e = pthread_create(&h->reaper, NULL, reaper_main, h)) != 0) {
		xasprintf(cause, "cannot start the HTTP deadline thread: %s",
		    strerror(e));
		MHD_stop_daemon(h->d);
		http_free(h);
		return SR_IO;
	}
	di = MHD_get_daemon_info(h->d, MHD_DAEMON_INFO_BIND_PORT);
	h->port = di != NULL ? di->port : cfg->http_port;
	*out = h;
	return 0;
}

int
mcp_http_port(struct mcp_http *h)
{
	return h->port;
}

void
mcp_http_stop(struct mcp_http *h)
{
	size_t	 i;

	if (h == NULL)
		return;
	pthread_mutex_lock(&h->clock);
	h->stop = 1;
	pthread_cond_signal(&h->cwake);
	pthread_mutex_unlock(&h->clock);
	pthread_join(h->reaper, NULL);
	MHD_stop_daemon(h->d);
	for (i = 0; i < SESSION_MAX; i++)
		if (h->sessions[i] != NULL)
			session_free(h->sessions[i]);
	http_free(h);
}
