#include "autoconfig.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define SR_PQ_IMPL
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
