/*
 * Benchmark: the MCP server end to end, as a client sees it.
 *   startup   time from fork to the first initialize answer on stdio
 *             (index already built), over several runs; target <= 20 ms
 *   stdio     round trip of tools/call search_skills, sequential;
 *             target p50 <= 0.5 ms
 *   rss       VmRSS / VmHWM of the stdio server after the round trips
 *   http      searches/s over loopback keep-alive connections for a few
 *             seconds (our own bounded client; tests/bench/run also
 *             runs wrk when installed); target >= 5000/s, zero errors
 * Usage: bench_mcp SR [requests] [seconds] [connections]
 *        bench_mcp --load PORT [seconds] [connections]
 * (--load: only the http load, against a server already listening on
 * 127.0.0.1:PORT, e.g. nginx in front of replicas; prints req_per_s and
 * errors on one line.)
 * The environment (HOME, XDG dirs, SKILL_PATHS) selects the corpus; run it
 * after `SR index`.
 */
#include "autoconfig.h"
#include "bench.h"
#include "base/xmalloc.h"

#include <sys/types.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *queries[] = {
	"design a poster for our meetup", "my playwright tests flake on CI",
	"write a linkedin post about accessibility", "sql query plans",
	"extract tables from a pdf", "review this pull request",
	"deploy to kubernetes with helm", "plan a trip to japan",
	"summarise a research paper", "refactor python code",
};
#define NQUERIES (sizeof queries / sizeof queries[0])

#define INIT "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\"," \
	"\"params\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{}," \
	"\"clientInfo\":{\"name\":\"bench\",\"version\":\"1\"}}}\n"

struct child {
	pid_t	 pid;
	int	 in;		/* we write */
	int	 out;		/* we read */
	char	 buf[1 << 20];
	size_t	 len;
};

static int
child_start(struct child *c, const char *sr, char *const argv[], int errfd)
{
	int	 pin[2], pout[2];

	if (pipe(pin) != 0 || pipe(pout) != 0)
		return -1;
	c->len = 0;
	if ((c->pid = fork()) < 0)
		return -1;
	if (c->pid == 0) {
		dup2(pin[0], 0);
		dup2(pout[1], 1);
		if (errfd >= 0)
			dup2(errfd, 2);
		close(pin[1]);
		close(pout[0]);
		execv(sr, argv);
		_exit(127);
	}
	close(pin[0]);
	close(pout[1]);
	c->in = pin[1];
	c->out = pout[0];
	return 0;
}

/* Reads one line into c->buf (NUL-terminated); returns its length or -1. */
static ssize_t
child_line(struct child *c)
{
	char	*nl;
	ssize_t	 n;
	size_t	 l;

	for (;;) {
		if ((nl = memchr(c->buf, '\n', c->len)) != NULL) {
			l = (size_t)(nl - c->buf);
			*nl = '\0';
			return (ssize_t)l;
		}
		if (c->len == sizeof c->buf - 1)
			return -1;
		n = read(c->out, c->buf + c->len, sizeof c->buf - 1 - c->len);
		if (n <= 0)
			return -1;
		c->len += (size_t)n;
	}
}

/* Drops the line child_line() returned. */
static void
child_consume(struct child *c, ssize_t l)
{
	memmove(c->buf, c->buf + l + 1, c->len - (size_t)l - 1);
	c->len -= (size_t)l + 1;
}

static int
write_all(int fd, const char *p, size_t len)
{
	ssize_t	 n;

	while (len > 0) {
		if ((n = write(fd, p, len)) <= 0) {
			if (n < 0 && errno == EINTR)
				continue;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static void
child_stop(struct child *c)
{
	int	 st;

	close(c->in);
	close(c->out);
	waitpid(c->pid, &st, 0);
}

static void
bench_startup(const char *sr)
{
	char *const	 argv[] = { (char *)sr, "serve", NULL };
	static struct child c;
	double		 t[15], t0;
	ssize_t		 l;
	int		 i, n = 15;

	for (i = 0; i < n; i++) {
		t0 = bench_now_ms();
		if (child_start(&c, sr, argv, -1) != 0 ||
		    write_all(c.in, INIT, strlen(INIT)) != 0 ||
		    (l = child_line(&c)) < 0 ||
		    strstr(c.buf, "\"result\"") == NULL) {
			printf("startup: the server did not answer initialize\n");
			return;
		}
		t[i] = bench_now_ms() - t0;
		child_stop(&c);
	}
	qsort(t, (size_t)n, sizeof t[0], bench_cmp_double);
	printf("%-28s %8s %8s %8s\n", "startup (fork->initialize)", "p50_ms",
	    "min_ms", "max_ms");
	printf("%-28s %8.2f %8.2f %8.2f\n", "", t[n / 2], t[0], t[n - 1]);
}

static void
bench_stdio(const char *sr, int nreq)
{
	char *const	 argv[] = { (char *)sr, "serve", NULL };
	static struct child c;
	double		*t, t0;
	char		 req[512];
	ssize_t		 l;
	int		 i, errors = 0;

	if (child_start(&c, sr, argv, -1) != 0 ||
	    write_all(c.in, INIT, strlen(INIT)) != 0 ||
	    (l = child_line(&c)) < 0) {
		printf("stdio: the server did not start\n");
		return;
	}
	child_consume(&c, l);
	t = calloc((size_t)nreq, sizeof *t);
	for (i = 0; i < nreq; i++) {
		snprintf(req, sizeof req, "{\"jsonrpc\":\"2.0\",\"id\":%d,"
		    "\"method\":\"tools/call\",\"params\":{\"name\":"
		    "\"search_skills\",\"arguments\":{\"query\":\"%s\"}}}\n",
		    i + 1, queries[i % NQUERIES]);
		t0 = bench_now_ms();
		if (write_all(c.in, req, strlen(req)) != 0 ||
		    (l = child_line(&c)) < 0) {
			printf("stdio: the server stopped answering\n");
			break;
		}
		t[i] = bench_now_ms() - t0;
		if (strstr(c.buf, "\"isError\":false") == NULL)
			errors++;
		child_consume(&c, l);
	}
	nreq = i;
	printf("%-28s %8s %8s %8s %8s %7s\n", "stdio search_skills", "n",
	    "p50_ms", "p95_ms", "p99_ms", "errors");
	qsort(t, (size_t)nreq, sizeof t[0], bench_cmp_double);
	if (nreq > 0)
		printf("%-28s %8d %8.3f %8.3f %8.3f %7d\n", "", nreq,
		    t[nreq / 2], t[nreq * 95 / 100], t[nreq * 99 / 100], errors);
	printf("%-28s %8s %8s\n", "server memory", "rss_kb", "hwm_kb");
	printf("%-28s %8ld %8ld\n", "", bench_proc_kb(c.pid, "VmRSS"),
	    bench_proc_kb(c.pid, "VmHWM"));
	free(t);
	child_stop(&c);
}

struct hclient {
	int		 port;
	double		 until;
	long		 ok, errors;
};

/* One keep-alive connection sending searches until the deadline. */
static void *
http_worker(void *arg)
{
	struct hclient		*h = arg;
	struct sockaddr_in	 sa;
	char			 body[512], req[1024], resp[65536];
	size_t			 have, need;
	char			*hdr_end, *cl;
	ssize_t			 n;
	int			 fd = -1, one = 1, i = 0, blen, rlen;

	while (bench_now_ms() < h->until) {
		if (fd < 0) {
			fd = socket(AF_INET, SOCK_STREAM, 0);
			memset(&sa, 0, sizeof sa);
			sa.sin_family = AF_INET;
			sa.sin_port = htons((unsigned short)h->port);
			sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
			setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one,
			    sizeof one);
			if (connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
				h->errors++;
				close(fd);
				fd = -1;
				continue;
			}
		}
		blen = snprintf(body, sizeof body, "{\"jsonrpc\":\"2.0\","
		    "\"id\":%d,\"method\":\"tools/call\",\"params\":{\"name\":"
		    "\"search_skills\",\"arguments\":{\"query\":\"%s\"}}}",
		    i, queries[i % NQUERIES]);
		i++;
		rlen = snprintf(req, sizeof req, "POST /mcp HTTP/1.1\r\n"
		    "Host: 127.0.0.1:%d\r\nContent-Type: application/json\r\n"
		    "Accept: application/json, text/event-stream\r\n"
		    "Content-Length: %d\r\n\r\n%s", h->port, blen, body);
		if (write_all(fd, req, (size_t)rlen) != 0)
			goto broken;
		have = 0;
		need = 0;
		for (;;) {
			n = read(fd, resp + have, sizeof resp - 1 - have);
			if (n <= 0)
				goto broken;
			have += (size_t)n;
			resp[have] = '\0';
			if ((hdr_end = strstr(resp, "\r\n\r\n")) == NULL)
				continue;
			if (need == 0) {
				cl = strcasestr(resp, "Content-Length:");
				if (cl == NULL || cl > hdr_end)
					goto broken;
				need = (size_t)(hdr_end + 4 - resp) +
				    strtoul(cl + 15, NULL, 10);
			}
			if (have >= need)
				break;
		}
		if (strncmp(resp, "HTTP/1.1 200", 12) == 0 &&
		    strstr(resp, "\"isError\":false") != NULL)
			h->ok++;
		else
			h->errors++;
		continue;
broken:
		h->errors++;
		close(fd);
		fd = -1;
	}
	if (fd >= 0)
		close(fd);
	return NULL;
}

/* conns connections searching port for seconds; returns searches/s. */
static double
run_load(int port, double seconds, int conns, long *errs)
{
	struct hclient	*h;
	pthread_t	*th;
	long		 okc = 0;
	double		 t0, el;
	int		 i;

	*errs = 0;
	h = calloc((size_t)conns, sizeof *h);
	th = calloc((size_t)conns, sizeof *th);
	t0 = bench_now_ms();
	for (i = 0; i < conns; i++) {
		h[i].port = port;
		h[i].until = t0 + seconds * 1e3;
		pthread_create(&th[i], NULL, http_worker, &h[i]);
	}
	for (i = 0; i < conns; i++) {
		pthread_join(th[i], NULL);
		okc += h[i].ok;
		*errs += h[i].errors;
	}
	el = (bench_now_ms() - t0) / 1e3;
	free(h);
	free(th);
	return okc / el;
}

static void
bench_http(const char *sr, double seconds, int conns)
{
	char *const	 argv[] = { (char *)sr, "serve", "--transport", "http",
	    "--port", "0", NULL };
	static struct child c;
	char		 line[512];
	int		 perr[2], port = 0;
	long		 errs;
	double		 rate;
	FILE		*fp;
	char		*p;

	if (pipe(perr) != 0 || child_start(&c, sr, argv, perr[1]) != 0)
		return;
	close(perr[1]);
	fp = fdopen(perr[0], "r");
	while (fgets(line, sizeof line, fp) != NULL)
		if ((p = strstr(line, "127.0.0.1:")) != NULL) {
			port = atoi(p + 10);
			break;
		}
	if (port == 0) {
		printf("http: the server did not start\n");
		kill(c.pid, SIGTERM);
		child_stop(&c);
		return;
	}
	rate = run_load(port, seconds, conns, &errs);
	printf("%-28s %8s %8s %10s %7s\n", "http search_skills", "conns",
	    "seconds", "req_per_s", "errors");
	printf("%-28s %8d %8.1f %10.0f %7ld\n", "", conns, seconds, rate, errs);
	printf("%-28s %8s %8s\n", "http server memory", "rss_kb", "hwm_kb");
	printf("%-28s %8ld %8ld\n", "", bench_proc_kb(c.pid, "VmRSS"),
	    bench_proc_kb(c.pid, "VmHWM"));
	kill(c.pid, SIGTERM);
	child_stop(&c);
	fclose(fp);
}

int
main(int argc, char **argv)
{
	const char	*sr;
	int		 nreq, conns;
	double		 secs;

	xmalloc_init();
	if (argc < 2) {
		fprintf(stderr, "usage: bench_mcp SR [requests] [seconds] "
		    "[connections]\n");
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	if (strcmp(argv[1], "--load") == 0 && argc > 2) {
		long	 errs;
		double	 rate;

		secs = argc > 3 ? atof(argv[3]) : 3.0;
		conns = argc > 4 ? atoi(argv[4]) : 8;
		rate = run_load(atoi(argv[2]), secs > 0 ? secs : 3.0,
		    conns > 0 ? conns : 8, &errs);
		printf("%.0f %ld\n", rate, errs);
		return 0;
	}
	sr = argv[1];
	nreq = argc > 2 ? atoi(argv[2]) : 2000;
	secs = argc > 3 ? atof(argv[3]) : 3.0;
	conns = argc > 4 ? atoi(argv[4]) : 8;
	signal(SIGPIPE, SIG_IGN);
	bench_startup(sr);
	bench_stdio(sr, nreq > 0 ? nreq : 2000);
	bench_http(sr, secs > 0 ? secs : 3.0, conns > 0 ? conns : 8);
	return 0;
}
