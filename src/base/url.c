/*
 * URL hosts through libcurl's curl_url(); see url.h.
 */
#include "autoconfig.h"

#include <stdlib.h>
#include <string.h>

#include "base/curlu.h"
#include "base/url.h"
#include "base/xmalloc.h"

size_t
url_host(const char *s, size_t len, char *host, size_t size)
{
	CURLU		*u;
	const char	*sep;
	char		 small[512], *str, *h = NULL;
	size_t		 n = 0;

	if (size > 0)
		host[0] = '\0';
	/* libcurl reads scheme:///x as host x: that URL has no host */
	if ((sep = memmem(s, len, "://", 3)) == NULL ||
	    (size_t)(sep - s) + 3 >= len || sep[3] == '/')
		return 0;
	if (memchr(s, '\0', len) != NULL)
		return 0;
	/* libcurl4 is a dependency of the package: without it no URL has a
	   host (the callers then judge the text as written) */
	if (curlu_load(NULL) != 0)
		return 0;
	if (len < sizeof small) {
		memcpy(small, s, len);
		small[len] = '\0';
		str = small;
	} else
		str = xstrndup(s, len);
	if ((u = curl_url()) != NULL &&
	    curl_url_set(u, CURLUPART_URL, str, CURLU_NON_SUPPORT_SCHEME) ==
	    CURLUE_OK &&
	    curl_url_get(u, CURLUPART_HOST, &h, 0) == CURLUE_OK &&
	    (n = strlen(h)) < size)
		memcpy(host, h, n + 1);
	else
		n = 0;
	curl_free(h);
	curl_url_cleanup(u);
	if (str != small)
		free(str);
	return n;
}
