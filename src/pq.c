#include "autoconfig.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define SR_PQ_IMPL
#include "pgdsn.h"
#include "pq.h"
#include "status.h"
#include "xmalloc.h"

struct pq_api pq_api;

static pthread_once_t	 pq_once = PTHREAD_ONCE_INIT;
static char		*pq_error;	/* why loading failed, or NULL */

static void
pq_open(void)
{
	void	*h, *p;

	if ((h = dlopen("libpq.so.5", RTLD_NOW | RTLD_LOCAL)) == NULL) {
		xasprintf(&pq_error, "cannot load the PostgreSQL client library "
		    "(%s): install libpq5", dlerror());
		return;
	}
	/* memcpy: ISO C has no cast from an object to a function pointer. */
#define PQ_SYM(f) \
	if ((p = dlsym(h, #f)) == NULL) { \
		xasprintf(&pq_error, "libpq.so.5 has no %s: too old", #f); \
		return; \
	} \
	memcpy(&pq_api.f, &p, sizeof p);
	PQ_FUNCS(PQ_SYM)
#undef PQ_SYM
}

int
pq_load(char **cause)
{
	pthread_once(&pq_once, pq_open);
	if (pq_error != NULL) {
		if (cause != NULL)
			*cause = xstrdup(pq_error);
		return SR_IO;
	}
	return 0;
}

int
pq_check_dsn(const char *dsn, const char *key, char **cause)
{
	PQconninfoOption	*opts;
	char			*err = NULL, *shown;
	size_t			 n;

	if (pq_load(cause) != 0)
		return SR_CONFIG;
	if ((opts = pq_api.PQconninfoParse(dsn, &err)) != NULL) {
		pq_api.PQconninfoFree(opts);
		return 0;
	}
	shown = pg_dsn_redact(dsn);
	if (err != NULL) {
		n = strlen(err);
		while (n > 0 && (err[n - 1] == '\n' || err[n - 1] == ' '))
			n--;
		xasprintf(cause, "%s (%s): %.*s", key, shown, (int)n, err);
		pq_api.PQfreemem(err);
	} else
		xasprintf(cause, "%s (%s): out of memory", key, shown);
	free(shown);
	return SR_CONFIG;
}
