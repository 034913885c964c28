/*
 * The Ollama client: one curl multi handle per ollama_run(), easy handles
 * added as slots free up, each with its own timeout and a capped
 * response buffer.
 *
 * libcurl is opened with dlopen() on first use, not linked: it and the
 * TLS, HTTP/2, LDAP and Kerberos libraries it pulls in cost every process
 * about 4 ms to load (measured on `search` over the corpus: 9.8 ms linked
 * without, 14.0 ms with), and most runs never talk to Ollama. When
 * libcurl cannot be opened every call fails with that reason (fail-open).
 */
#include "autoconfig.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <curl/curl.h>

#include "base/buf.h"
#include "base/clock.h"
#include "llm/ollama.h"
#include "base/status.h"
#include "base/url.h"
#include "base/xmalloc.h"

/* embedder.batch (at most 256) vectors of at most 4096 numbers, as text */
#define EMBED_BODY_MAX	(64 * 1024 * 1024)

/* The libcurl functions used, resolved by curl_load(). */
static struct {
	CURLcode	 (*global_init)(long);
	CURL		*(*easy_init)(void);
	CURLcode	 (*easy_setopt)(CURL *, CURLoption, ...);
	CURLcode	 (*easy_getinfo)(CURL *, CURLINFO, ...);
	void		 (*easy_cleanup)(CURL *);
	const char	*(*easy_strerror)(CURLcode);
	struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
	void		 (*slist_free_all)(struct curl_slist *);
	CURLM		*(*multi_init)(void);
	CURLMcode	 (*multi_setopt)(CURLM *, CURLMoption, ...);
	CURLMcode	 (*multi_add_handle)(CURLM *, CURL *);
	CURLMcode	 (*multi_remove_handle)(CURLM *, CURL *);
	CURLMcode	 (*multi_perform)(CURLM *, int *);
	CURLMcode	 (*multi_poll)(CURLM *, struct curl_waitfd *,
			    unsigned int, int, int *);
	CURLMsg		*(*multi_info_read)(CURLM *, int *);
	CURLMcode	 (*multi_cleanup)(CURLM *);
} C;
static char		*curl_error;	/* why libcurl is unusable, or NULL */
static pthread_once_t	 curl_once = PTHREAD_ONCE_INIT;

static void
curl_load(void)
{
	static const char *const names[] = { "libcurl.so.4",
	    "libcurl-gnutls.so.4", "libcurl.so", "libcurl.4.dylib", NULL };
	static const struct {
		const char	*sym;
		void		*slot;
	} syms[] = {
		{ "curl_global_init", &C.global_init },
		{ "curl_easy_init", &C.easy_init },
		{ "curl_easy_setopt", &C.easy_setopt },
		{ "curl_easy_getinfo", &C.easy_getinfo },
		{ "curl_easy_cleanup", &C.easy_cleanup },
		{ "curl_easy_strerror", &C.easy_strerror },
		{ "curl_slist_append", &C.slist_append },
		{ "curl_slist_free_all", &C.slist_free_all },
		{ "curl_multi_init", &C.multi_init },
		{ "curl_multi_setopt", &C.multi_setopt },
		{ "curl_multi_add_handle", &C.multi_add_handle },
		{ "curl_multi_remove_handle", &C.multi_remove_handle },
		{ "curl_multi_perform", &C.multi_perform },
		{ "curl_multi_poll", &C.multi_poll },
		{ "curl_multi_info_read", &C.multi_info_read },
		{ "curl_multi_cleanup", &C.multi_cleanup },
	};
	void	*h = NULL;
	size_t	 i;

	for (i = 0; names[i] != NULL && h == NULL; i++)
		h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
	if (h == NULL) {
		xasprintf(&curl_error, "cannot load libcurl: %s", dlerror());
		return;
	}
	for (i = 0; i < sizeof(syms) / sizeof(syms[0]); i++) {
		void	*f = dlsym(h, syms[i].sym);

		if (f == NULL) {
			xasprintf(&curl_error, "libcurl has no %s (7.66 or "
			    "later is needed)", syms[i].sym);
			return;
		}
		/* POSIX: a function pointer is stored through void * */
		memcpy(syms[i].slot, &f, sizeof(f));
	}
	if (C.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
		curl_error = xstrdup("libcurl failed to initialise");
	/* the library stays loaded for the life of the process */
}

void
ollama_call_init(struct ollama_call *c, const char *path, char *body,
    long timeout_ms)
{
	memset(c, 0, sizeof(*c));
	c->path = path;
	c->body = body;
	c->timeout_ms = timeout_ms > 0 ? timeout_ms : 1;
	c->max_bytes = OLLAMA_BODY_MAX;
	c->retry_after = -1;
}

void
ollama_call_done(struct ollama_call *c)
{
	if (c == NULL)
		return;
	free(c->body);
	cJSON_Delete(c->json);
	free(c->error);
	c->body = c->error = NULL;
	c->json = NULL;
}

/* One transfer in flight. */
struct slot {
	struct ollama_call	*call;
	CURL			*h;
	struct curl_slist	*hdr;
	struct buf		 resp;
	char			 errbuf[CURL_ERROR_SIZE];
	char			*url;
	double			 t0;
	int			 toobig;
};

static size_t
on_data(char *p, size_t size, size_t n, void *arg)
{
	struct slot	*s = arg;

	if (buf_add(&s->resp, p, size * n) != 0) {
		s->toobig = 1;
		return 0;	/* aborts the transfer */
	}
	return size * n;
}

/* Keeps a Retry-After: N (seconds) header of the answer. */
static size_t
on_header(char *p, size_t size, size_t n, void *arg)
{
	struct slot	*s = arg;
	size_t		 len = size * n;
	char		 line[64];

	if (len > 12 && len < sizeof line && strncasecmp(p, "Retry-After:",
	    12) == 0) {
		memcpy(line, p + 12, len - 12);
		line[len - 12] = '\0';
		s->call->retry_after = strtol(line, NULL, 10);
		if (s->call->retry_after < 0)
			s->call->retry_after = -1;
	}
	return len;
}

static void
slot_start(CURLM *m, struct slot *s, const char *url, struct ollama_call *c)
{
	memset(s, 0, sizeof(*s));
	s->call = c;
	buf_init(&s->resp, c->max_bytes);
	xasprintf(&s->url, "%s%s", url, c->path);
	s->h = C.easy_init();
	C.easy_setopt(s->h, CURLOPT_URL, s->url);
	C.easy_setopt(s->h, CURLOPT_NOSIGNAL, 1L);
	C.easy_setopt(s->h, CURLOPT_TIMEOUT_MS, c->timeout_ms);
	C.easy_setopt(s->h, CURLOPT_CONNECTTIMEOUT_MS, c->timeout_ms);
	C.easy_setopt(s->h, CURLOPT_NOPROXY, "127.0.0.1,localhost,::1");
	C.easy_setopt(s->h, CURLOPT_WRITEFUNCTION, on_data);
	C.easy_setopt(s->h, CURLOPT_WRITEDATA, s);
	C.easy_setopt(s->h, CURLOPT_ERRORBUFFER, s->errbuf);
	C.easy_setopt(s->h, CURLOPT_PRIVATE, s);
	C.easy_setopt(s->h, CURLOPT_USERAGENT, "skills-radar/"
	    PACKAGE_VERSION);
	C.easy_setopt(s->h, CURLOPT_HEADERFUNCTION, on_header);
	C.easy_setopt(s->h, CURLOPT_HEADERDATA, s);
	c->retry_after = -1;
	if (c->bearer != NULL) {
		char	*auth;

		xasprintf(&auth, "Authorization: Bearer %s", c->bearer);
		s->hdr = C.slist_append(s->hdr, auth);
		free(auth);
	}
	if (c->body != NULL)
		s->hdr = C.slist_append(s->hdr,
		    "Content-Type: application/json");
	if (s->hdr != NULL)
		C.easy_setopt(s->h, CURLOPT_HTTPHEADER, s->hdr);
	if (c->body != NULL) {
		C.easy_setopt(s->h, CURLOPT_POSTFIELDS, c->body);
		C.easy_setopt(s->h, CURLOPT_POSTFIELDSIZE,
		    (long)strlen(c->body));
	}
	s->t0 = clock_ms();
	C.multi_add_handle(m, s->h);
}

/*
 * The server's own message, when the body has one: Ollama's {"error":
 * "..."}, OpenAI's {"error": {"message": "..."}}, Voyage's {"detail":
 * "..."}.
 */
static const char *
server_message(cJSON *j)
{
	cJSON		*err = cJSON_GetObjectItem(j, "error");
	const char	*msg = cJSON_GetStringValue(err);

	if (msg == NULL && cJSON_IsObject(err))
		msg = cJSON_GetStringValue(cJSON_GetObjectItem(err,
		    "message"));
	if (msg == NULL)
		msg = cJSON_GetStringValue(cJSON_GetObjectItem(j, "detail"));
	return msg != NULL ? msg : "";
}

static void
slot_finish(CURLM *m, struct slot *s, CURLcode code)
{
	struct ollama_call	*c = s->call;
	cJSON			*j;

	c->ms = clock_ms() - s->t0;
	C.easy_getinfo(s->h, CURLINFO_RESPONSE_CODE, &c->status);
	if (s->toobig)
		xasprintf(&c->error, "%s: answer larger than %zu bytes",
		    s->url, c->max_bytes);
	else if (code == CURLE_OPERATION_TIMEDOUT)
		xasprintf(&c->error, "%s: timed out after %ld ms", s->url,
		    c->timeout_ms);
	else if (code == CURLE_COULDNT_CONNECT)
		xasprintf(&c->error, "%s: connection refused or unreachable "
		    "(is Ollama running?): %s", s->url, s->errbuf[0] != '\0' ?
		    s->errbuf : C.easy_strerror(code));
	else if (code != CURLE_OK)
		xasprintf(&c->error, "%s: %s", s->url, s->errbuf[0] != '\0' ?
		    s->errbuf : C.easy_strerror(code));
	else {
		j = cJSON_ParseWithLength(s->resp.p, s->resp.len);
		if (c->status < 200 || c->status > 299) {
			xasprintf(&c->error, "%s: HTTP %ld%s%s", s->url,
			    c->status, *server_message(j) ? ": " : "",
			    server_message(j));
			cJSON_Delete(j);
		} else if (j == NULL || !cJSON_IsObject(j)) {
			xasprintf(&c->error, "%s: malformed JSON answer",
			    s->url);
			cJSON_Delete(j);
		} else
			c->json = j;
	}
	C.multi_remove_handle(m, s->h);
	C.easy_cleanup(s->h);
	C.slist_free_all(s->hdr);
	buf_done(&s->resp);
	free(s->url);
	s->h = NULL;
}

void
ollama_run(const char *url, struct ollama_call *calls, size_t n,
    int parallel)
{
	struct slot	*slots;
	CURLM		*m;
	CURLMsg		*msg;
	size_t		 next = 0, active = 0, i, width;
	int		 running, left;

	if (n == 0)
		return;
	pthread_once(&curl_once, curl_load);
	if (curl_error != NULL) {
		for (i = 0; i < n; i++)
			xasprintf(&calls[i].error, "%s%s: %s", url,
			    calls[i].path, curl_error);
		return;
	}
	width = parallel < 1 ? 1 : (size_t)parallel;
	if (width > n)
		width = n;
	slots = xcalloc(width, sizeof(*slots));
	if ((m = C.multi_init()) == NULL) {
		for (i = 0; i < n; i++)
			calls[i].error = xstrdup("cannot create a curl handle");
		free(slots);
		return;
	}
	/* one connection per transfer: no waiting for a shared one */
	C.multi_setopt(m, CURLMOPT_MAX_HOST_CONNECTIONS, (long)width);
	for (i = 0; i < width; i++) {
		slot_start(m, &slots[i], url, &calls[next++]);
		active++;
	}
	while (active > 0) {
		C.multi_perform(m, &running);
		while ((msg = C.multi_info_read(m, &left)) != NULL) {
			struct slot	*s;

			if (msg->msg != CURLMSG_DONE)
				continue;
			C.easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE,
			    (char **)&s);
			slot_finish(m, s, msg->data.result);
			active--;
			if (next < n) {
				slot_start(m, s, url, &calls[next++]);
				active++;
			}
		}
		if (active > 0)
			C.multi_poll(m, NULL, 0, 50, NULL);
	}
	C.multi_cleanup(m);
	free(slots);
}

char *
ollama_generate_body(const char *model, const char *system,
    const char *prompt, double temperature, int num_predict)
{
	cJSON	*o, *opt;
	char	*s;

	o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "model", model);
	if (system != NULL)
		cJSON_AddStringToObject(o, "system", system);
	cJSON_AddStringToObject(o, "prompt", prompt);
	cJSON_AddBoolToObject(o, "stream", 0);
	opt = cJSON_AddObjectToObject(o, "options");
	cJSON_AddNumberToObject(opt, "temperature", temperature);
	cJSON_AddNumberToObject(opt, "num_predict", num_predict);
	s = cJSON_PrintUnformatted(o);
	cJSON_Delete(o);
	if (s == NULL)
		abort();	/* out of memory */
	return s;
}

const char *
ollama_response(struct ollama_call *c)
{
	const char	*r;

	if (c->error != NULL)
		return NULL;
	if ((r = cJSON_GetStringValue(cJSON_GetObjectItem(c->json,
	    "response"))) == NULL) {
		xasprintf(&c->error, "%s: the answer has no response text",
		    c->path);
		return NULL;
	}
	return r;
}

/* Copies embeddings[] into out; a shape error sets *cause. */
static int
take_vectors(cJSON *embs, size_t n, float **out, int *dim, char **cause)
{
	cJSON	*v, *x;
	float	*vec = NULL;
	size_t	 i = 0, k;
	int	 d = -1;

	if (!cJSON_IsArray(embs) || (size_t)cJSON_GetArraySize(embs) != n) {
		xasprintf(cause, "/api/embed: expected %zu embeddings, got %d",
		    n, cJSON_IsArray(embs) ? cJSON_GetArraySize(embs) : 0);
		return SR_IO;
	}
	cJSON_ArrayForEach(v, embs) {
		if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) < 1 ||
		    (d != -1 && cJSON_GetArraySize(v) != d)) {
			xasprintf(cause, "/api/embed: embedding %zu has a bad "
			    "shape", i);
			free(vec);
			return SR_IO;
		}
		if (d == -1) {
			d = cJSON_GetArraySize(v);
			vec = xreallocarray(NULL, n * (size_t)d, sizeof(*vec));
		}
		k = 0;
		cJSON_ArrayForEach(x, v) {
			if (!cJSON_IsNumber(x)) {
				xasprintf(cause, "/api/embed: embedding %zu "
				    "holds a non-number", i);
				free(vec);
				return SR_IO;
			}
			vec[i * (size_t)d + k++] = (float)x->valuedouble;
		}
		i++;
	}
	*out = vec;
	*dim = d;
	return SR_OK;
}

int
ollama_embed(const char *url, const char *model, const char *const *texts,
    size_t n, long timeout_ms, float **out, int *dim, char **cause)
{
	struct ollama_call	 c;
	cJSON			*o, *in;
	size_t			 i;
	int			 rv;

	*out = NULL;
	*dim = 0;
	*cause = NULL;
	o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "model", model);
	in = cJSON_AddArrayToObject(o, "input");
	for (i = 0; i < n; i++)
		cJSON_AddItemToArray(in, cJSON_CreateString(texts[i]));
	ollama_call_init(&c, "/api/embed", cJSON_PrintUnformatted(o),
	    timeout_ms);
	cJSON_Delete(o);
	c.max_bytes = EMBED_BODY_MAX;
	ollama_run(url, &c, 1, 1);
	if (c.error != NULL) {
		*cause = c.error;
		c.error = NULL;
		rv = SR_IO;
	} else
		rv = take_vectors(cJSON_GetObjectItem(c.json, "embeddings"), n,
		    out, dim, cause);
	ollama_call_done(&c);
	return rv;
}

int
ollama_tags(const char *url, long timeout_ms, struct strlist *names,
    char **cause)
{
	struct ollama_call	 c;
	cJSON			*arr, *m;
	const char		*name;
	int			 rv = SR_OK;

	*cause = NULL;
	ollama_call_init(&c, "/api/tags", NULL, timeout_ms);
	ollama_run(url, &c, 1, 1);
	if (c.error != NULL) {
		*cause = c.error;
		c.error = NULL;
		rv = SR_IO;
	} else if (!cJSON_IsArray(arr = cJSON_GetObjectItem(c.json,
	    "models"))) {
		xasprintf(cause, "%s/api/tags: the answer has no models list",
		    url);
		rv = SR_IO;
	} else
		cJSON_ArrayForEach(m, arr) {
			name = cJSON_GetStringValue(cJSON_GetObjectItem(m,
			    "name"));
			if (name != NULL)
				strlist_add(names, name);
		}
	ollama_call_done(&c);
	return rv;
}

int
ollama_has_model(const struct strlist *names, const char *model)
{
	size_t	 i, n = strlen(model);

	for (i = 0; i < names->n; i++) {
		if (strcmp(names->v[i], model) == 0)
			return 1;
		if (strchr(model, ':') == NULL &&
		    strncmp(names->v[i], model, n) == 0 &&
		    strcmp(names->v[i] + n, ":latest") == 0)
			return 1;
	}
	return 0;
}

int
ollama_url_check(const char *url, char **cause)
{
	char	 host[256];

	*cause = NULL;
	if (strncmp(url, "http://", 7) != 0 && strncmp(url, "https://", 8) !=
	    0) {
		xasprintf(cause, "\"%s\" is not an http:// or https:// URL",
		    url);
		return SR_CONFIG;
	}
	/* libcurl's parser, the one the requests go through, finds a host */
	if (url_host(url, strlen(url), host, sizeof host) == 0 ||
	    url[strlen(url) - 1] == '/') {
		xasprintf(cause, "\"%s\": give scheme, host and port only, "
		    "without a trailing slash", url);
		return SR_CONFIG;
	}
	return SR_OK;
}
