/*
 * libmicrohttpd, loaded on first use (dlib.h), as pq.h loads libpq. Only `serve
 * --transport http` answers HTTP, yet linking the library (and through it
 * GnuTLS, nettle, gmp, p11-kit, libidn2, libunistring) costs every short
 * CLI command about 2 ms of dynamic loading and relocation, a seventh of
 * the CLI search budget. mhd_load() dlopen()s libmicrohttpd.so.12 once
 * (thread safe) and fills mhd_api, and this header turns every MHD_*()
 * call of a module that includes it into a call through that table. Call
 * mhd_load() before the first MHD_*() call; it returns 0, or SR_IO with
 * *cause naming the missing library (Debian package libmicrohttpd12).
 */
#ifndef SR_MHD_H
#define SR_MHD_H

#include <sys/types.h>
#include <sys/socket.h>
#include <stdarg.h>
#include <stdint.h>

#include <microhttpd.h>

#define MHD_FUNCS(X) \
	X(MHD_start_daemon) X(MHD_stop_daemon) X(MHD_get_daemon_info) \
	X(MHD_get_connection_info) X(MHD_get_connection_values) \
	X(MHD_lookup_connection_value) X(MHD_create_response_from_buffer) \
	X(MHD_add_response_header) X(MHD_queue_response) \
	X(MHD_destroy_response)

#define MHD_MEMBER(f)	__typeof__(f) *f;
struct mhd_api {
	MHD_FUNCS(MHD_MEMBER)
};
#undef MHD_MEMBER

extern struct mhd_api mhd_api;

int	 mhd_load(char **cause);	/* defined in dlib.c */

#ifndef SR_MHD_IMPL
#define MHD_start_daemon		(mhd_api.MHD_start_daemon)
#define MHD_stop_daemon			(mhd_api.MHD_stop_daemon)
#define MHD_get_daemon_info		(mhd_api.MHD_get_daemon_info)
#define MHD_get_connection_info		(mhd_api.MHD_get_connection_info)
#define MHD_get_connection_values	(mhd_api.MHD_get_connection_values)
#define MHD_lookup_connection_value	(mhd_api.MHD_lookup_connection_value)
#define MHD_create_response_from_buffer	\
	(mhd_api.MHD_create_response_from_buffer)
#define MHD_add_response_header		(mhd_api.MHD_add_response_header)
#define MHD_queue_response		(mhd_api.MHD_queue_response)
#define MHD_destroy_response		(mhd_api.MHD_destroy_response)
#endif

#endif
