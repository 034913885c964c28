#include "autoconfig.h"

#include <stdlib.h>
#include <string.h>

#define SR_PQ_IMPL
#include "base/pgdsn.h"
#include "base/pq.h"
#include "base/status.h"
#include "base/xmalloc.h"

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
