/*
 * A small client for the Ollama HTTP API (libcurl): /api/generate,
 * /api/embed and /api/tags. Requests go out through the multi interface,
 * so many can be in flight at once, each with its own timeout; a
 * response is capped in size and parsed strictly with cJSON.
 *
 * Nothing here fails as a whole: every call ends with either a parsed
 * answer (json) or an error message (error) naming what went wrong
 * (connection refused, timeout, HTTP status and Ollama's message, a
 * body too large, malformed JSON), so callers can fail open per request.
 *
 * struct ollama_call is an embedded object: ollama_call_init() takes
 * ownership of body, ollama_call_done() frees body, json and error.
 * Functions are safe to call from several threads at once.
 */
#ifndef SR_OLLAMA_H
#define SR_OLLAMA_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "base/strlist.h"

#define OLLAMA_URL_DEFAULT	"http://127.0.0.1:11434"
#define OLLAMA_BODY_MAX		(1024 * 1024)	/* generate and tags answers */

struct ollama_call {
	const char	*path;		/* "/api/generate", borrowed */
	char		*body;		/* JSON request, owned; NULL: GET */
	long		 timeout_ms;	/* whole request */
	size_t		 max_bytes;	/* answer cap */
	cJSON		*json;		/* the answer, owned; NULL on error */
	char		*error;		/* owned; NULL on success */
	long		 status;	/* HTTP status, 0: none */
	double		 ms;		/* time to completion */
	const char	*bearer;	/* Authorization: Bearer, borrowed; NULL */
	long		 retry_after;	/* Retry-After seconds, -1: none */
};

void	 ollama_call_init(struct ollama_call *, const char *path, char *body,
	    long timeout_ms);
void	 ollama_call_done(struct ollama_call *);

/*
 * Runs the n calls against url (scheme, host and port, no trailing
 * path), at most parallel of them at once (< 1: one at a time). Returns
 * when every call has finished; each has json or error set.
 */
void	 ollama_run(const char *url, struct ollama_call *calls, size_t n,
	    int parallel);

/*
 * Returns a new /api/generate request body (stream false) with the given
 * options; system may be NULL. The caller frees it.
 */
char	*ollama_generate_body(const char *model, const char *system,
	    const char *prompt, double temperature, int num_predict);

/*
 * Returns the "response" text of a finished generate call (borrowed from
 * c->json), or NULL after setting c->error when the call failed or the
 * answer has no response string.
 */
const char *ollama_response(struct ollama_call *c);

/*
 * Embeds n texts with one /api/embed request (batch input). On success
 * *out holds n * *dim floats (the caller frees it) and 0 is returned;
 * otherwise SR_IO with *cause set. A vector count other than n, vectors
 * of different lengths or a non-number element is an error.
 */
int	 ollama_embed(const char *url, const char *model,
	    const char *const *texts, size_t n, long timeout_ms, float **out,
	    int *dim, char **cause);

/* Appends the names of the server's models (/api/tags) to names. */
int	 ollama_tags(const char *url, long timeout_ms, struct strlist *names,
	    char **cause);

/*
 * Returns 1 when model is among names, as Ollama matches them: "name"
 * also matches "name:latest".
 */
int	 ollama_has_model(const struct strlist *names, const char *model);

/* Checks that url is http:// or https:// with a host; SR_CONFIG if not. */
int	 ollama_url_check(const char *url, char **cause);

#endif
