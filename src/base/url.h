/*
 * The host of a URL, as libcurl's URL parser (the one the HTTP client
 * uses) reads it, for the modules that judge where a URL goes: codescan
 * (hosts a skill's code contacts), the HTTP server's Origin check, the
 * configured service URLs. Nothing is kept: the caller owns its buffer.
 */
#ifndef SR_URL_H
#define SR_URL_H

#include <stddef.h>

/*
 * Copies the host of URL s (len bytes, need not end in NUL; any scheme)
 * into host (size bytes, NUL-terminated): without userinfo and port, an
 * IPv6 address in its brackets, a numeric IPv4 form as dotted quads.
 * Returns its length, or 0 when libcurl refuses the URL (no host, a bad
 * port, a character no host holds, such as a template's { or $) or the
 * host does not fit.
 */
size_t	 url_host(const char *s, size_t len, char *host, size_t size);

#endif
