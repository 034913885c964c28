/*
 * libpq, loaded on first use. Only a team's processes talk to PostgreSQL;
 * linking libpq (and through it OpenSSL, Kerberos, LDAP) into every run
 * costs each short CLI command about 2 ms of dynamic relocation, so the
 * binary does not need it: pq_load() dlopen()s libpq.so.5 once (thread
 * safe) and fills pq_api, and this header turns every PQ*() call of a
 * module that includes it into a call through that table. Call
 * pq_load() before the first PQ*() call; it returns 0, or SR_IO with
 * *cause naming the missing library (Debian package libpq5).
 */
#ifndef SR_PQ_H
#define SR_PQ_H

#include <libpq-fe.h>

#define PQ_FUNCS(X) \
	X(PQconnectdb) X(PQstatus) X(PQfinish) X(PQerrorMessage) \
	X(PQsocket) X(PQsetNoticeProcessor) X(PQconninfoParse) \
	X(PQconninfoFree) X(PQfreemem) X(PQexec) X(PQexecParams) \
	X(PQprepare) X(PQexecPrepared) X(PQresultStatus) \
	X(PQresultErrorMessage) X(PQclear) X(PQntuples) X(PQgetvalue) \
	X(PQgetisnull) X(PQconsumeInput) X(PQnotifies) \
	X(PQconnectdbParams) X(PQnfields) X(PQtransactionStatus)

#define PQ_MEMBER(f)	__typeof__(f) *f;
struct pq_api {
	PQ_FUNCS(PQ_MEMBER)
};
#undef PQ_MEMBER

extern struct pq_api pq_api;

int	 pq_load(char **cause);	/* defined in dlib.c */
/*
 * Loads libpq and checks dsn's syntax without connecting (a server may
 * come up later): 0, or SR_CONFIG with *cause "key (dsn, password
 * masked): libpq's message". libpq missing is SR_CONFIG too: retrying
 * cannot help either.
 */
int	 pq_check_dsn(const char *dsn, const char *key, char **cause);

#ifndef SR_PQ_IMPL
#define PQconnectdb		(pq_api.PQconnectdb)
#define PQstatus		(pq_api.PQstatus)
#define PQfinish		(pq_api.PQfinish)
#define PQerrorMessage		(pq_api.PQerrorMessage)
#define PQsocket		(pq_api.PQsocket)
#define PQsetNoticeProcessor	(pq_api.PQsetNoticeProcessor)
#define PQconninfoParse		(pq_api.PQconninfoParse)
#define PQconninfoFree		(pq_api.PQconninfoFree)
#define PQfreemem		(pq_api.PQfreemem)
#define PQexec			(pq_api.PQexec)
#define PQexecParams		(pq_api.PQexecParams)
#define PQprepare		(pq_api.PQprepare)
#define PQexecPrepared		(pq_api.PQexecPrepared)
#define PQresultStatus		(pq_api.PQresultStatus)
#define PQresultErrorMessage	(pq_api.PQresultErrorMessage)
#define PQclear			(pq_api.PQclear)
#define PQntuples		(pq_api.PQntuples)
#define PQgetvalue		(pq_api.PQgetvalue)
#define PQgetisnull		(pq_api.PQgetisnull)
#define PQconsumeInput		(pq_api.PQconsumeInput)
#define PQnotifies		(pq_api.PQnotifies)
#define PQconnectdbParams	(pq_api.PQconnectdbParams)
#define PQnfields		(pq_api.PQnfields)
#define PQtransactionStatus	(pq_api.PQtransactionStatus)
#endif

#endif
