#include "autoconfig.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "base/xmalloc.h"

static void
oom(size_t n)
{
	fprintf(stderr, "skills-radar: out of memory (%zu bytes)\n", n);
	abort();
}

void *
xmalloc(size_t n)
{
	void	*p;

	if (n == 0)
		n = 1;
	if ((p = malloc(n)) == NULL)
		oom(n);
	return p;
}

void *
xcalloc(size_t nmemb, size_t size)
{
	void	*p;

	if (nmemb == 0 || size == 0)
		nmemb = size = 1;
	if ((p = calloc(nmemb, size)) == NULL)
		oom(nmemb * size);
	return p;
}

void *
xrealloc(void *ptr, size_t n)
{
	void	*p;

	if (n == 0)
		n = 1;
	if ((p = realloc(ptr, n)) == NULL)
		oom(n);
	return p;
}

void *
xreallocarray(void *ptr, size_t nmemb, size_t size)
{
	if (size != 0 && nmemb > SIZE_MAX / size)
		oom(SIZE_MAX);
	return xrealloc(ptr, nmemb * size);
}

char *
xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *
xstrndup(const char *s, size_t n)
{
	char	*p;
	size_t	 len;

	len = strnlen(s, n);
	p = xmalloc(len + 1);
	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

char *
xstrdup_or_null(const char *s)
{
	return s == NULL ? NULL : xstrdup(s);
}

int
xvasprintf(char **ret, const char *fmt, va_list ap)
{
	int	 n;

	if ((n = vasprintf(ret, fmt, ap)) < 0)
		oom(strlen(fmt));
	return n;
}

int
xasprintf(char **ret, const char *fmt, ...)
{
	va_list	 ap;
	int	 n;

	va_start(ap, fmt);
	n = xvasprintf(ret, fmt, ap);
	va_end(ap);
	return n;
}

void
xmalloc_init(void)
{
	static cJSON_Hooks	 hooks = { xmalloc, free };

	cJSON_InitHooks(&hooks);
}
