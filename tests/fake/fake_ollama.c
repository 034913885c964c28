/*
 * fake_ollama: a stand-in for an Ollama server, for the tests and the
 * benchmark. It listens on 127.0.0.1 on a free port, prints the port on
 * stdout (one line) and exits by itself after -t seconds (default 30) or
 * on SIGTERM/SIGINT.
 *
 * Endpoints (every answer is derived from the request, so it is
 * deterministic):
 *   GET  /api/tags      {"models":[{"name":...}]} from -m (default
 *                       "fake-gen,fake-embed,fake-embed-b").
 *   POST /api/generate  a prompt of "Query: Q\n\nSkill description: D..."
 *                       (a reranker pair) answers the number of distinct
 *                       query words (3+ letters) found in D, times 4,
 *                       capped at 10; a prompt with "Candidates:" and
 *                       "N. text" lines (the batch reranker) answers one
 *                       "N=score" line per candidate, the same way;
 *                       anything else (the rewriter) answers each word
 *                       of the prompt spelt backwards, quoted, with a
 *                       trailing period and a second line of chatter;
 *                       a judge prompt (a "<<<SKILL-" delimiter line)
 *                       answers {"verdict":"malicious",...} when the
 *                       skill text holds "fake-judge-malicious", else
 *                       {"verdict":"benign",...}, after a line of
 *                       chatter as small models write.
 *   POST /api/embed     {"embeddings":[[...]]}: per input a vector of
 *                       hashed words (dimension 32, or 48 for a model
 *                       whose name ends in "-b"), seeded by the model.
 *   POST /v1/embeddings the OpenAI and Voyage AI shape: needs
 *                       "Authorization: Bearer fake-key" (else 401
 *                       {"error":{"message":...}}), answers {"data":
 *                       [{"index","embedding"}]} in reverse order (a
 *                       client must use "index"), any model, the same
 *                       vectors as /api/embed.
 *   GET  /_stats        request counters: {"generate","embed",
 *                       "embed_inputs","tags","pairs","batches",
 *                       "rewrites","cloud","cloud_inputs","cloud_queries",
 *                       "rate_limited","judges"}.
 * An unknown model is 404 {"error":"model ... not found"}, like Ollama.
 *
 * Faults, for every request (-f MODE, -d MS) or for one request whose
 * body contains "fake-MODE" (as in a skill description): delay-NNN
 * (sleep NNN ms first), error (HTTP 500 with an error object), garbage
 * (200 with a body that is not JSON), partial (a body cut short of its
 * Content-Length), hang (no answer until the client gives up or the
 * server exits), nonumber (a generate answer without a number), wrongdim
 * (an embedding of another dimension), ratelimit (429 with Retry-After:
 * 3600). -r N answers the first N /v1/embeddings requests 429 with
 * Retry-After: 1.
 */
#include "autoconfig.h"
#include "base/xmalloc.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <microhttpd.h>

#define BODY_MAX	(8 * 1024 * 1024)

static volatile sig_atomic_t	 stopping;
static const char		*models = "fake-gen,fake-embed,fake-embed-b";
static const char		*fault = "";
static long			 delay_ms;
static pthread_mutex_t		 lock = PTHREAD_MUTEX_INITIALIZER;
static long	 n_generate, n_embed, n_embed_inputs, n_tags, n_pairs,
		 n_batches, n_rewrites, n_cloud, n_cloud_inputs,
		 n_cloud_queries, n_rate_limited, rate_limit_first, n_judges;

struct conn {
	char	*body;
	size_t	 len;
	int	 toobig;
};

static void
count(long *c, long by)
{
	pthread_mutex_lock(&lock);
	*c += by;
	pthread_mutex_unlock(&lock);
}

static void
sleep_ms(long ms)
{
	struct timespec	 ts;

	while (ms > 0 && !stopping) {
		long step = ms > 20 ? 20 : ms;

		ts.tv_sec = 0;
		ts.tv_nsec = step * 1000000L;
		nanosleep(&ts, NULL);
		ms -= step;
	}
}

static void
on_signal(int sig)
{
	(void)sig;
	stopping = 1;
}

static enum MHD_Result
reply(struct MHD_Connection *c, unsigned int status, const char *body)
{
	struct MHD_Response	*r;
	enum MHD_Result		 rv;

	r = MHD_create_response_from_buffer(strlen(body), (void *)body,
	    MHD_RESPMEM_MUST_COPY);
	MHD_add_response_header(r, "Content-Type", "application/json");
	rv = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return rv;
}

static enum MHD_Result
reply_json(struct MHD_Connection *c, unsigned int status, cJSON *o)
{
	char		*s = cJSON_PrintUnformatted(o);
	enum MHD_Result	 rv;

	cJSON_Delete(o);
	rv = reply(c, status, s);
	free(s);
	return rv;
}

/* A body that stops 40 bytes into a promised 4096. */
static ssize_t
partial_reader(void *cls, uint64_t pos, char *buf, size_t max)
{
	static const char head[] = "{\"model\":\"fake\",\"response\":\"7";

	(void)cls;
	if (pos >= sizeof(head) - 1)
		return MHD_CONTENT_READER_END_WITH_ERROR;
	if (max > sizeof(head) - 1 - pos)
		max = sizeof(head) - 1 - pos;
	memcpy(buf, head + pos, max);
	return (ssize_t)max;
}

static int
model_known(const char *m)
{
	size_t	 n;
	const char *p = models;

	if (m == NULL)
		return 0;
	n = strlen(m);
	while (*p != '\0') {
		const char *e = strchr(p, ',');
		size_t l = e != NULL ? (size_t)(e - p) : strlen(p);

		if (l == n && strncmp(p, m, n) == 0)
			return 1;
		/* "name" matches "name:latest" as Ollama does */
		if (l == n + 7 && strncmp(p, m, n) == 0 &&
		    strncmp(p + n, ":latest", 7) == 0)
			return 1;
		p += l;
		if (*p == ',')
			p++;
	}
	return 0;
}

/* The fault of this request: the per-request marker wins over -f. */
static const char *
fault_of(const char *body, long *delay)
{
	static const char *const modes[] = { "error", "garbage", "partial",
	    "hang", "nonumber", "wrongdim", "ratelimit", NULL };
	const char	*p;
	size_t		 i;

	*delay = delay_ms;
	if (body != NULL && (p = strstr(body, "fake-delay-")) != NULL)
		*delay = strtol(p + 11, NULL, 10);
	for (i = 0; body != NULL && modes[i] != NULL; i++) {
		char	 mark[32];

		snprintf(mark, sizeof mark, "fake-%s", modes[i]);
		if (strstr(body, mark) != NULL)
			return modes[i];
	}
	return fault;
}

static int
is_word(unsigned char ch)
{
	return isalnum(ch) || ch >= 0x80;
}

/* Distinct query words of 3+ bytes found in text, times 4, at most 10. */
static int
pair_score(const char *query, size_t qlen, const char *text, size_t tlen)
{
	char	 word[64], *hay;
	size_t	 i = 0, n;
	int	 hits = 0;

	hay = strndup(text, tlen);
	for (n = 0; hay[n] != '\0'; n++)
		hay[n] = (char)tolower((unsigned char)hay[n]);
	while (i < qlen) {
		while (i < qlen && !is_word((unsigned char)query[i]))
			i++;
		n = 0;
		while (i < qlen && is_word((unsigned char)query[i])) {
			if (n < sizeof(word) - 1)
				word[n++] = (char)tolower(
				    (unsigned char)query[i]);
			i++;
		}
		word[n] = '\0';
		if (n >= 3 && strstr(hay, word) != NULL)
			hits++;
	}
	free(hay);
	return hits * 4 > 10 ? 10 : hits * 4;
}

static char *
answer_pair(const char *prompt)
{
	const char	*q = prompt + 7, *qe, *d;
	char		*out;
	int		 s;

	if ((qe = strstr(q, "\n\nSkill description: ")) == NULL)
		return strdup("5");
	d = qe + 21;
	s = pair_score(q, (size_t)(qe - q), d, strlen(d));
	if (asprintf(&out, "%d", s) == -1)
		return NULL;
	return out;
}

static char *
answer_batch(const char *prompt)
{
	const char	*q, *qe, *p;
	char		*out = NULL, *tmp;
	long		 idx;
	char		*end;

	q = strncmp(prompt, "Query: ", 7) == 0 ? prompt + 7 : prompt;
	if ((qe = strchr(q, '\n')) == NULL)
		qe = q + strlen(q);
	out = strdup("Scores:\n");
	for (p = strstr(prompt, "Candidates:"); p != NULL &&
	    (p = strchr(p, '\n')) != NULL; ) {
		const char *le;

		p++;
		idx = strtol(p, &end, 10);
		if (end == p || *end != '.')
			continue;
		if ((le = strchr(end, '\n')) == NULL)
			le = end + strlen(end);
		if (asprintf(&tmp, "%s%ld=%d\n", out, idx, pair_score(q,
		    (size_t)(qe - q), end, (size_t)(le - end))) == -1)
			break;
		free(out);
		out = tmp;
	}
	return out;
}

/* Each word spelt backwards: "mrof fdp" -> "\"form pdf\".\nchatter". */
static char *
answer_rewrite(const char *prompt)
{
	size_t	 n = strlen(prompt), i = 0, o = 0, s;
	char	*out = malloc(n + 64);

	out[o++] = '"';
	while (i < n) {
		while (i < n && !is_word((unsigned char)prompt[i]))
			i++;
		s = i;
		while (i < n && is_word((unsigned char)prompt[i]))
			i++;
		if (i == s)
			break;
		if (o > 1)
			out[o++] = ' ';
		for (size_t k = i; k > s; k--)
			out[o++] = prompt[k - 1];
	}
	strcpy(out + o, "\".\nThese keywords capture the intent.");
	return out;
}

static enum MHD_Result
do_generate(struct MHD_Connection *c, cJSON *req, const char *mode)
{
	const char	*prompt, *model;
	cJSON		*o;
	char		*text;

	model = cJSON_GetStringValue(cJSON_GetObjectItem(req, "model"));
	prompt = cJSON_GetStringValue(cJSON_GetObjectItem(req, "prompt"));
	if (!model_known(model)) {
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "error", "model not found, try "
		    "pulling it first");
		return reply_json(c, 404, o);
	}
	if (prompt == NULL)
		return reply(c, 400, "{\"error\":\"prompt is required\"}");
	if (strncmp(prompt, "Query: ", 7) == 0 &&
	    strstr(prompt, "\n\nSkill description: ") != NULL) {
		count(&n_pairs, 1);
		text = answer_pair(prompt);
	} else if (strstr(prompt, "<<<SKILL-") != NULL) {
		count(&n_judges, 1);
		text = strdup(strstr(prompt, "fake-judge-malicious") != NULL ?
		    "Here is my answer.\n{\"verdict\": \"malicious\", "
		    "\"reason\": \"sends credentials to an outside host\"}" :
		    "Here is my answer.\n{\"verdict\": \"benign\", "
		    "\"reason\": \"documents a task without harm\"}");
	} else if (strstr(prompt, "Candidates:") != NULL) {
		count(&n_batches, 1);
		text = answer_batch(prompt);
	} else {
		count(&n_rewrites, 1);
		text = answer_rewrite(prompt);
	}
	if (strcmp(mode, "nonumber") == 0) {
		free(text);
		text = strdup("I cannot say.");
	}
	o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "model", model);
	cJSON_AddStringToObject(o, "response", text != NULL ? text : "");
	cJSON_AddBoolToObject(o, "done", 1);
	free(text);
	return reply_json(c, 200, o);
}

static uint32_t
fnv(const char *s, size_t n, uint32_t h)
{
	size_t	 i;

	for (i = 0; i < n; i++) {
		h ^= (unsigned char)tolower((unsigned char)s[i]);
		h *= 16777619u;
	}
	return h;
}

static cJSON *
vector_of(const char *model, const char *text, int dim)
{
	double	 v[64], norm = 0;
	size_t	 i = 0, n = strlen(text), s;
	uint32_t seed = fnv(model, strlen(model), 2166136261u), h;
	int	 k;
	cJSON	*arr;

	memset(v, 0, sizeof v);
	while (i < n) {
		while (i < n && !is_word((unsigned char)text[i]))
			i++;
		s = i;
		while (i < n && is_word((unsigned char)text[i]))
			i++;
		if (i == s)
			break;
		/* words share their first 4 letters' bucket: stems agree */
		h = fnv(text + s, i - s < 4 ? i - s : 4, seed);
		v[h % (uint32_t)dim] += (h & 0x10000) ? 1 : -1;
	}
	for (k = 0; k < dim; k++)
		norm += v[k] * v[k];
	if (norm == 0) {
		v[0] = 1;
		norm = 1;
	}
	arr = cJSON_CreateArray();
	for (k = 0; k < dim; k++)
		cJSON_AddItemToArray(arr, cJSON_CreateNumber(v[k] /
		    __builtin_sqrt(norm)));
	return arr;
}

static enum MHD_Result
do_embed(struct MHD_Connection *c, cJSON *req, const char *mode)
{
	const char	*model;
	cJSON		*in, *o, *embs, *it;
	size_t		 ml;
	int		 dim;

	model = cJSON_GetStringValue(cJSON_GetObjectItem(req, "model"));
	if (!model_known(model)) {
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "error", "model not found, try "
		    "pulling it first");
		return reply_json(c, 404, o);
	}
	ml = strlen(model);
	dim = ml > 2 && strcmp(model + ml - 2, "-b") == 0 ? 48 : 32;
	if (strcmp(mode, "wrongdim") == 0)
		dim = 17;
	in = cJSON_GetObjectItem(req, "input");
	o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "model", model);
	embs = cJSON_AddArrayToObject(o, "embeddings");
	if (cJSON_IsString(in)) {
		count(&n_embed_inputs, 1);
		cJSON_AddItemToArray(embs, vector_of(model, in->valuestring,
		    dim));
	} else if (cJSON_IsArray(in)) {
		cJSON_ArrayForEach(it, in) {
			if (!cJSON_IsString(it)) {
				cJSON_Delete(o);
				return reply(c, 400, "{\"error\":\"input must "
				    "be strings\"}");
			}
			count(&n_embed_inputs, 1);
			cJSON_AddItemToArray(embs, vector_of(model,
			    it->valuestring, dim));
		}
	} else {
		cJSON_Delete(o);
		return reply(c, 400, "{\"error\":\"input is required\"}");
	}
	return reply_json(c, 200, o);
}

static enum MHD_Result
reply_429(struct MHD_Connection *c, const char *retry_after)
{
	static const char	 body[] = "{\"error\":{\"message\":\"Rate "
	    "limit reached\",\"type\":\"requests\"}}";
	struct MHD_Response	*r;
	enum MHD_Result		 rv;

	count(&n_rate_limited, 1);
	r = MHD_create_response_from_buffer(strlen(body), (void *)body,
	    MHD_RESPMEM_PERSISTENT);
	MHD_add_response_header(r, "Content-Type", "application/json");
	MHD_add_response_header(r, "Retry-After", retry_after);
	rv = MHD_queue_response(c, 429, r);
	MHD_destroy_response(r);
	return rv;
}

/* The OpenAI / Voyage AI /v1/embeddings shape. */
static enum MHD_Result
do_cloud(struct MHD_Connection *c, cJSON *req, const char *mode)
{
	const char	*model, *auth, *type;
	cJSON		*in, *o, *data, *it, *e;
	size_t		 ml;
	int		 dim, n, i;
	long		 k;

	auth = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
	    "Authorization");
	if (auth == NULL || strcmp(auth, "Bearer fake-key") != 0)
		return reply(c, 401, "{\"error\":{\"message\":\"Incorrect "
		    "API key provided\",\"type\":\"invalid_request_error\"}}");
	pthread_mutex_lock(&lock);
	k = ++n_cloud;
	pthread_mutex_unlock(&lock);
	if (k <= rate_limit_first)
		return reply_429(c, "1");
	if (strcmp(mode, "ratelimit") == 0)
		return reply_429(c, "3600");
	model = cJSON_GetStringValue(cJSON_GetObjectItem(req, "model"));
	in = cJSON_GetObjectItem(req, "input");
	if (model == NULL || !cJSON_IsArray(in))
		return reply(c, 400, "{\"detail\":\"model and input are "
		    "required\"}");
	type = cJSON_GetStringValue(cJSON_GetObjectItem(req, "input_type"));
	if (type != NULL && strcmp(type, "query") == 0)
		count(&n_cloud_queries, 1);
	ml = strlen(model);
	dim = ml > 2 && strcmp(model + ml - 2, "-b") == 0 ? 48 : 32;
	if (strcmp(mode, "wrongdim") == 0)
		dim = 17;
	o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "object", "list");
	data = cJSON_AddArrayToObject(o, "data");
	n = cJSON_GetArraySize(in);
	for (i = n - 1; i >= 0; i--) {
		it = cJSON_GetArrayItem(in, i);
		if (!cJSON_IsString(it)) {
			cJSON_Delete(o);
			return reply(c, 400, "{\"detail\":\"input must be "
			    "strings\"}");
		}
		count(&n_cloud_inputs, 1);
		e = cJSON_CreateObject();
		cJSON_AddStringToObject(e, "object", "embedding");
		cJSON_AddNumberToObject(e, "index", i);
		cJSON_AddItemToObject(e, "embedding", vector_of(model,
		    it->valuestring, dim));
		cJSON_AddItemToArray(data, e);
	}
	cJSON_AddStringToObject(o, "model", model);
	return reply_json(c, 200, o);
}

static enum MHD_Result
do_tags(struct MHD_Connection *c)
{
	cJSON		*o, *arr, *m;
	const char	*p = models;

	o = cJSON_CreateObject();
	arr = cJSON_AddArrayToObject(o, "models");
	while (*p != '\0') {
		const char *e = strchr(p, ',');
		size_t l = e != NULL ? (size_t)(e - p) : strlen(p);
		char *name = strndup(p, l);

		m = cJSON_CreateObject();
		cJSON_AddStringToObject(m, "name", name);
		cJSON_AddStringToObject(m, "model", name);
		cJSON_AddItemToArray(arr, m);
		free(name);
		p += l;
		if (*p == ',')
			p++;
	}
	return reply_json(c, 200, o);
}

static enum MHD_Result
do_stats(struct MHD_Connection *c)
{
	char	 s[768];

	pthread_mutex_lock(&lock);
	snprintf(s, sizeof s, "{\"generate\":%ld,\"embed\":%ld,"
	    "\"embed_inputs\":%ld,\"tags\":%ld,\"pairs\":%ld,\"batches\":%ld,"
	    "\"rewrites\":%ld,\"cloud\":%ld,\"cloud_inputs\":%ld,"
	    "\"cloud_queries\":%ld,\"rate_limited\":%ld,\"judges\":%ld}",
	    n_generate, n_embed, n_embed_inputs, n_tags, n_pairs, n_batches,
	    n_rewrites, n_cloud, n_cloud_inputs, n_cloud_queries, n_rate_limited,
	    n_judges);
	pthread_mutex_unlock(&lock);
	return reply(c, 200, s);
}

static enum MHD_Result
handle(void *cls, struct MHD_Connection *c, const char *url,
    const char *method, const char *version, const char *upload,
    size_t *upload_size, void **state)
{
	struct conn		*cn = *state;
	struct MHD_Response	*r;
	const char		*mode;
	cJSON			*req;
	long			 delay;
	enum MHD_Result		 rv;

	(void)cls;
	(void)version;
	if (cn == NULL) {
		cn = calloc(1, sizeof *cn);
		*state = cn;
		return MHD_YES;
	}
	if (*upload_size > 0) {
		if (cn->len + *upload_size > BODY_MAX)
			cn->toobig = 1;
		else {
			cn->body = realloc(cn->body, cn->len + *upload_size + 1);
			memcpy(cn->body + cn->len, upload, *upload_size);
			cn->len += *upload_size;
			cn->body[cn->len] = '\0';
		}
		*upload_size = 0;
		return MHD_YES;
	}
	if (strcmp(url, "/_stats") == 0)
		return do_stats(c);
	if (cn->toobig)
		return reply(c, 413, "{\"error\":\"too large\"}");
	if (strcmp(url, "/api/tags") == 0)
		count(&n_tags, 1);
	else if (strcmp(url, "/api/generate") == 0)
		count(&n_generate, 1);
	else if (strcmp(url, "/api/embed") == 0)
		count(&n_embed, 1);
	mode = fault_of(cn->body, &delay);
	sleep_ms(delay);
	if (strcmp(mode, "hang") == 0) {
		sleep_ms(3600 * 1000L);
		return MHD_NO;
	}
	if (strcmp(mode, "error") == 0)
		return reply(c, 500, "{\"error\":\"fake failure\"}");
	if (strcmp(mode, "garbage") == 0)
		return reply(c, 200, "<html>not json at all");
	if (strcmp(mode, "partial") == 0) {
		r = MHD_create_response_from_callback(4096, 64, partial_reader,
		    NULL, NULL);
		rv = MHD_queue_response(c, 200, r);
		MHD_destroy_response(r);
		return rv;
	}
	if (strcmp(url, "/api/tags") == 0 && strcmp(method, "GET") == 0)
		return do_tags(c);
	if (strcmp(method, "POST") != 0)
		return reply(c, 404, "{\"error\":\"not found\"}");
	if ((req = cJSON_ParseWithLength(cn->body != NULL ? cn->body : "",
	    cn->len)) == NULL)
		return reply(c, 400, "{\"error\":\"invalid JSON\"}");
	if (strcmp(url, "/api/generate") == 0)
		rv = do_generate(c, req, mode);
	else if (strcmp(url, "/api/embed") == 0)
		rv = do_embed(c, req, mode);
	else if (strcmp(url, "/v1/embeddings") == 0)
		rv = do_cloud(c, req, mode);
	else
		rv = reply(c, 404, "{\"error\":\"not found\"}");
	cJSON_Delete(req);
	return rv;
}

static void
done(void *cls, struct MHD_Connection *c, void **state,
    enum MHD_RequestTerminationCode code)
{
	struct conn	*cn = *state;

	(void)cls;
	(void)c;
	(void)code;
	if (cn != NULL) {
		free(cn->body);
		free(cn);
	}
	*state = NULL;
}

int
main(int argc, char **argv)
{
	struct sockaddr_in	 sin;
	struct MHD_Daemon	*d;
	const union MHD_DaemonInfo *info;
	long			 life = 30;
	int			 ch;

	xmalloc_init();
	while ((ch = getopt(argc, argv, "d:f:m:r:t:")) != -1) {
		switch (ch) {
		case 'd':
			delay_ms = strtol(optarg, NULL, 10);
			break;
		case 'f':
			fault = optarg;
			break;
		case 'm':
			models = optarg;
			break;
		case 'r':
			rate_limit_first = strtol(optarg, NULL, 10);
			break;
		case 't':
			life = strtol(optarg, NULL, 10);
			break;
		default:
			fprintf(stderr, "usage: fake_ollama [-d delay_ms] "
			    "[-f fault] [-m models] [-r n] [-t seconds]\n");
			return 2;
		}
	}
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	signal(SIGPIPE, SIG_IGN);
	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_port = 0;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	d = MHD_start_daemon(MHD_USE_THREAD_PER_CONNECTION |
	    MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ERROR_LOG, 0, NULL, NULL,
	    handle, NULL, MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&sin,
	    MHD_OPTION_NOTIFY_COMPLETED, done, NULL,
	    MHD_OPTION_CONNECTION_LIMIT, (unsigned int)256, MHD_OPTION_END);
	if (d == NULL) {
		fprintf(stderr, "fake_ollama: cannot start: %s\n",
		    strerror(errno));
		return 1;
	}
	info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
	printf("%u\n", (unsigned)info->port);
	fflush(stdout);
	for (long t = 0; t < life * 10 && !stopping; t++)
		sleep_ms(100);
	stopping = 1;
	MHD_stop_daemon(d);
	return 0;
}
