/*
 * Loading shared libraries' functions at run time (dlib.h), and the table
 * of the libraries loaded that way.
 */
#include "autoconfig.h"

#include <dlfcn.h>
#include <pthread.h>
#include <string.h>

#define SR_CURLU_IMPL
#define SR_MHD_IMPL
#define SR_PQ_IMPL
#include "base/curlu.h"
#include "base/dlib.h"
#include "base/mhd.h"
#include "base/pq.h"
#include "base/status.h"
#include "base/xmalloc.h"

static pthread_mutex_t	 dlib_lock = PTHREAD_MUTEX_INITIALIZER;

static void
dlib_open(struct dlib *l)
{
	void	*h, *p;
	size_t	 i;

	if ((h = dlopen(l->soname, RTLD_NOW | RTLD_LOCAL)) == NULL) {
		xasprintf(&l->error, "cannot load %s (%s): install %s", l->what,
		    dlerror(), l->pkg);
		return;
	}
	for (i = 0; i < l->n; i++) {
		if ((p = dlsym(h, l->syms[i].name)) == NULL) {
			xasprintf(&l->error, "%s has no %s: too old", l->soname,
			    l->syms[i].name);
			return;
		}
		/* memcpy: ISO C has no cast from an object to a function
		 * pointer. */
		memcpy((char *)l->api + l->syms[i].off, &p, sizeof p);
	}
}

/*
 * Loads l once (thread safe; later calls answer what the first found):
 * dlopen()s l->soname and stores the address of each symbol into l->api.
 * Returns 0, or SR_IO with *cause (when not NULL, allocated): "cannot
 * load <what> (<dlerror>): install <pkg>", or "<soname> has no <symbol>:
 * too old".
 */
static int
dlib_get(struct dlib *l, char **cause)
{
	int	 rv = 0;

	pthread_mutex_lock(&dlib_lock);
	if (!l->tried) {
		dlib_open(l);
		l->tried = 1;
	}
	if (l->error != NULL) {
		if (cause != NULL)
			*cause = xstrdup(l->error);
		rv = SR_IO;
	}
	pthread_mutex_unlock(&dlib_lock);
	return rv;
}

/* ---- the libraries -------------------------------------------------- */

#define SYM(T, f)	{ #f, offsetof(T, f) },
#define PQ_SYM(f)	SYM(struct pq_api, f)
#define MHD_SYM(f)	SYM(struct mhd_api, f)
#define CURLU_SYM(f)	SYM(struct curlu_api, f)

struct pq_api	 pq_api;
struct mhd_api	 mhd_api;
struct curlu_api curlu_api;

static const struct dlib_sym pq_syms[] = { PQ_FUNCS(PQ_SYM) };
static const struct dlib_sym mhd_syms[] = { MHD_FUNCS(MHD_SYM) };
static const struct dlib_sym curlu_syms[] = { CURLU_FUNCS(CURLU_SYM) };

enum { LIB_PQ, LIB_MHD, LIB_CURLU };
static struct dlib libs[] = {
	{ "libpq.so.5", "the PostgreSQL client library", "libpq5", pq_syms,
	  sizeof pq_syms / sizeof pq_syms[0], &pq_api, 0, NULL },
	{ "libmicrohttpd.so.12", "the HTTP server library", "libmicrohttpd12",
	  mhd_syms, sizeof mhd_syms / sizeof mhd_syms[0], &mhd_api, 0, NULL },
	{ "libcurl.so.4", "the URL library (libcurl)", "libcurl4",
	  curlu_syms, sizeof curlu_syms / sizeof curlu_syms[0], &curlu_api, 0,
	  NULL }
};

int
pq_load(char **cause)
{
	return dlib_get(&libs[LIB_PQ], cause);
}

int
mhd_load(char **cause)
{
	return dlib_get(&libs[LIB_MHD], cause);
}

int
curlu_load(char **cause)
{
	return dlib_get(&libs[LIB_CURLU], cause);
}
