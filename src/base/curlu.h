/*
 * libcurl's URL API (curl_url() and friends), loaded on first use
 * (dlib.h), as pq.h loads libpq. Only a few paths read a URL (codescan's
 * hosts, the HTTP server's Origin check, client files, the service URLs),
 * yet linking libcurl pulls in 29 more libraries (TLS, SSH, LDAP,
 * Kerberos, HTTP/2...) whose loading and relocation every short CLI
 * command would pay. curlu_load() dlopen()s libcurl.so.4 once (thread
 * safe) and fills curlu_api, and this header turns every curl_url*() and
 * curl_free() call of a module that includes it into a call through that
 * table. Call curlu_load() before the first call; it returns 0, or SR_IO
 * with *cause naming the missing library (Debian package libcurl4).
 * The HTTP client (llm/ollama.c) loads its own functions the same way.
 */
#ifndef SR_CURLU_H
#define SR_CURLU_H

#include <curl/curl.h>

#define CURLU_FUNCS(X) \
	X(curl_url) X(curl_url_set) X(curl_url_get) X(curl_url_cleanup) \
	X(curl_free)

#define CURLU_MEMBER(f)	__typeof__(f) *f;
struct curlu_api {
	CURLU_FUNCS(CURLU_MEMBER)
};
#undef CURLU_MEMBER

extern struct curlu_api curlu_api;

int	 curlu_load(char **cause);	/* defined in dlib.c */

#ifndef SR_CURLU_IMPL
#define curl_url		(curlu_api.curl_url)
#define curl_url_set		(curlu_api.curl_url_set)
#define curl_url_get		(curlu_api.curl_url_get)
#define curl_url_cleanup	(curlu_api.curl_url_cleanup)
#define curl_free		(curlu_api.curl_free)
#endif

#endif
