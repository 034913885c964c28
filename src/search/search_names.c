/*
 * The parts of search that go by name rather than by score: the
 * "select:a,b" path, and the links from shadowed duplicates to their
 * winners (by path) that ranking and "shadowed" lists use.
 */
#include "autoconfig.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "search/search.h"
#include "search/search_impl.h"
#include "core/skill.h"
#include "base/status.h"
#include "base/strlist.h"
#include "base/xmalloc.h"

int
search_path_cmp(const void *a, const void *b)
{
	const char *const *pa = a, *const *pb = b;

	return strcmp(*pa, *pb);
}

void
search_link_winners(struct search_index *x)
{
	const char	**keys;
	uint32_t	  i, nk = 0;
	const char	**hit;

	keys = xreallocarray(NULL, x->ndocs ? x->ndocs : 1,
	    2 * sizeof(*keys));
	for (i = 0; i < x->ndocs; i++) {
		const struct skill *s = search_doc_skill(x, i);

		if (!x->docs[i].shadowed && s->path != NULL) {
			keys[2 * nk] = s->path;
			keys[2 * nk + 1] = (const char *)(uintptr_t)i;
			nk++;
		}
	}
	qsort(keys, nk, 2 * sizeof(*keys), search_path_cmp);
	for (i = 0; i < x->ndocs; i++) {
		const struct skill *s = search_doc_skill(x, i);

		x->own_docs[i].winner = -1;
		if (!x->docs[i].shadowed)
			continue;
		hit = bsearch(&s->shadowed_by, keys, nk, 2 * sizeof(*keys),
		    search_path_cmp);
		if (hit != NULL)
			x->own_docs[i].winner = (int32_t)(uintptr_t)hit[1];
	}
	free(keys);
}

static void
select_add(struct search_result *res, const struct skill *s, size_t max)
{
	size_t	 i;

	for (i = 0; i < res->n; i++)
		if (res->v[i].skill == s)
			return;
	if (res->n >= max)
		return;
	res->v[res->n].skill = s;
	res->v[res->n].score = 1.0;
	res->n++;
}

const char *
search_select_list(const char *q)
{
	size_t	 n = sizeof SEARCH_SELECT - 1;

	if (q == NULL)
		return NULL;
	q += strspn(q, " \t\r\n");
	return strncmp(q, SEARCH_SELECT, n) == 0 ? q + n : NULL;
}

int
search_select(const struct search_index *x, const struct search_opts *o,
    const char *list, struct search_result *res)
{
	struct strlist	 names;
	size_t		 i, max = (size_t)o->top_k;
	uint32_t	 d;
	int		 found;

	strlist_init(&names);
	strlist_split(&names, list, ",");
	res->v = xcalloc(max, sizeof(*res->v));
	for (i = 0; i < names.n; i++) {
		found = 0;
		for (d = 0; d < x->ndocs; d++) {
			const struct skill *s = search_doc_skill(x, d);

			if (!x->docs[d].shadowed && s->uid != NULL &&
			    strcmp(s->uid, names.v[i]) == 0) {
				select_add(res, s, max);
				found = 1;
			}
		}
		if (found)
			continue;
		for (d = 0; d < x->ndocs; d++) {
			const struct skill *s = search_doc_skill(x, d);

			if (!x->docs[d].shadowed && s->name != NULL &&
			    strcasecmp(s->name, names.v[i]) == 0)
				select_add(res, s, max);
		}
	}
	if (o->explain)
		for (i = 0; i < res->n; i++) {
			res->v[i].explain = cJSON_CreateObject();
			cJSON_AddStringToObject(res->v[i].explain, "select",
			    res->v[i].skill->name);
			cJSON_AddNumberToObject(res->v[i].explain, "score", 1);
		}
	strlist_done(&names);
	return SR_OK;
}
