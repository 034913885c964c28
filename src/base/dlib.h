/*
 * The shared libraries loaded on first use instead of linked: a library
 * only a few commands need should not cost every short CLI command its
 * dynamic loading and relocation (about 2 ms each for libpq and
 * libmicrohttpd, with what they pull in). Each has its header turning
 * its calls into calls through a table of function pointers (pq.h,
 * mhd.h) and a loader, pq_load() and mhd_load(), defined in dlib.c with
 * the one table of those libraries.
 */
#ifndef SR_DLIB_H
#define SR_DLIB_H

#include <stddef.h>

struct dlib_sym {
	const char	*name;
	size_t		 off;	/* of its function pointer in the table */
};

/* A library to load: described statically, filled by dlib_get(). */
struct dlib {
	const char		*soname;	/* "libpq.so.5" */
	const char		*what;		/* "the PostgreSQL client library" */
	const char		*pkg;		/* the Debian package: "libpq5" */
	const struct dlib_sym	*syms;
	size_t			 n;
	void			*api;		/* the table syms point into */
	int			 tried;		/* under dlib.c's lock */
	char			*error;		/* why loading failed, or NULL */
};

#endif
