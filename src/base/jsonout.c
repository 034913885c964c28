/*
 * JSON we hand out: see jsonout.h.
 */
#include "autoconfig.h"

#include <stdlib.h>

#include <cjson/cJSON.h>

#include "base/jsonout.h"
#include "base/text.h"

static void
scrub(cJSON *it)
{
	cJSON	*c;
	char	*fixed;

	if (it->string != NULL &&
	    (fixed = text_utf8_scrub(it->string)) != NULL) {
		/* A constant key is not ours to free. */
		if (!(it->type & cJSON_StringIsConst))
			cJSON_free(it->string);
		it->type &= ~cJSON_StringIsConst;
		it->string = fixed;
	}
	if (cJSON_IsString(it) && it->valuestring != NULL &&
	    (fixed = text_utf8_scrub(it->valuestring)) != NULL) {
		cJSON_free(it->valuestring);
		it->valuestring = fixed;
	}
	for (c = it->child; c != NULL; c = c->next)
		scrub(c);
}

static void
jsonout_scrub(cJSON *o)
{
	if (o != NULL)
		scrub(o);
}

char *
jsonout_print(cJSON *o, int pretty)
{
	if (o == NULL)
		return NULL;
	jsonout_scrub(o);
	return pretty ? cJSON_Print(o) : cJSON_PrintUnformatted(o);
}
