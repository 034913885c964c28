/*
 * The risk table: loading config/risk.tsv and the user's risk files, and
 * scoring a skill's findings SpamAssassin-style (many small rules, each
 * weight added once per skill, two thresholds). The format is documented
 * at the top of config/risk.tsv.
 */
#include "autoconfig.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "core/finding.h"
#include "safety/risktable.h"
#include "safety/sanitize_catalogue.h"
#include "base/status.h"
#include "base/xmalloc.h"

#define RISKFILE_MAX	(1024 * 1024)
#define WEIGHT_MAX	1000.0

struct risk_table {
	struct risk_rule	*v;
	size_t			 n, cap;
	int			 sorted;
	size_t			 ncats;
	double			 warn, high;
};

struct risk_table *
risktable_new(void)
{
	struct risk_table	*t;

	t = xcalloc(1, sizeof *t);
	t->warn = 5;
	t->high = 10;
	t->sorted = 1;
	return t;
}

static void
rule_done(struct risk_rule *r)
{
	free(r->id);
	free(r->category);
	free(r->explain);
	free(r->where);
}

void
risktable_free(struct risk_table *t)
{
	size_t	 i;

	if (t == NULL)
		return;
	for (i = 0; i < t->n; i++)
		rule_done(&t->v[i]);
	free(t->v);
	free(t);
}

static int
rule_cmp(const void *a, const void *b)
{
	return strcmp(((const struct risk_rule *)a)->id,
	    ((const struct risk_rule *)b)->id);
}

/* Sorts the rules by id and numbers the categories. */
static void
table_sort(struct risk_table *t)
{
	size_t	 i, j;

	if (!t->sorted && t->n > 1)
		qsort(t->v, t->n, sizeof *t->v, rule_cmp);
	t->sorted = 1;
	t->ncats = 0;
	for (i = 0; i < t->n; i++) {
		for (j = 0; j < i; j++) {
			if (strcmp(t->v[j].category, t->v[i].category) == 0)
				break;
		}
		t->v[i].catno = j < i ? t->v[j].catno : t->ncats++;
	}
}

static struct risk_rule *
table_find(const struct risk_table *t, const char *id)
{
	struct risk_rule	 key;
	size_t			 i;

	if (t->n == 0)
		return NULL;	/* no table (a test's empty one): v is NULL */
	if (t->sorted) {
		key.id = (char *)(uintptr_t)id;
		return bsearch(&key, t->v, t->n, sizeof *t->v, rule_cmp);
	}
	for (i = 0; i < t->n; i++) {
		if (strcmp(t->v[i].id, id) == 0)
			return &t->v[i];
	}
	return NULL;
}

const struct risk_rule *
risktable_find(const struct risk_table *t, const char *id)
{
	return t != NULL && id != NULL ? table_find(t, id) : NULL;
}

double
risktable_threshold(const struct risk_table *t, enum severity sev)
{
	return sev >= SEV_HIGH ? t->high : t->warn;
}

/* Parses a finite number in [-WEIGHT_MAX, WEIGHT_MAX]; -1 when bad. */
static int
parse_weight(const char *s, double *out)
{
	char	*end;
	double	 d;

	errno = 0;
	d = strtod(s, &end);
	if (end == s || *end != '\0' || errno != 0 || !isfinite(d) ||
	    d < -WEIGHT_MAX || d > WEIGHT_MAX)
		return -1;
	*out = d;
	return 0;
}

static int
valid_word(const char *s)
{
	if (*s == '\0' || strlen(s) > 64)
		return 0;
	for (; *s != '\0'; s++) {
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
		    *s == '-' || *s == '_' || *s == '/'))
			return 0;
	}
	return 1;
}

/* One "@threshold warn|high N" line. */
static int
load_directive(struct risk_table *t, char **f, size_t nf, const char *path,
    int lineno, char **cause)
{
	double	 d;

	if (strcmp(f[0], "@threshold") != 0 || nf != 3 ||
	    (strcmp(f[1], "warn") != 0 && strcmp(f[1], "high") != 0)) {
		xasprintf(cause, "%s:%d: expected \"@threshold<TAB>warn|high"
		    "<TAB>NUMBER\"", path, lineno);
		return SR_CONFIG;
	}
	if (parse_weight(f[2], &d) == -1 || d <= 0) {
		xasprintf(cause, "%s:%d: bad threshold \"%s\" (a number "
		    "above 0)", path, lineno, f[2]);
		return SR_CONFIG;
	}
	if (strcmp(f[1], "warn") == 0)
		t->warn = d;
	else
		t->high = d;
	return SR_OK;
}

/* One "id category weight floor explanation" line. */
static int
load_rule(struct risk_table *t, char **f, size_t nf, const char *path,
    int lineno, char **cause)
{
	struct risk_rule	*r;
	double			 w;
	int			 floor;

	if (nf != 5 || *f[4] == '\0') {
		xasprintf(cause, "%s:%d: expected 5 tab-separated fields: id, "
		    "category, weight, floor, explanation", path, lineno);
		return SR_CONFIG;
	}
	if (!valid_word(f[0]) || strchr(f[0], '/') != NULL) {
		xasprintf(cause, "%s:%d: bad id \"%s\" (lower-case letters, "
		    "digits, '-' and '_')", path, lineno, f[0]);
		return SR_CONFIG;
	}
	if (!valid_word(f[1])) {
		xasprintf(cause, "%s:%d: bad category \"%s\" (lower-case "
		    "letters, digits, '-', '_' and '/')", path, lineno, f[1]);
		return SR_CONFIG;
	}
	if (parse_weight(f[2], &w) == -1) {
		xasprintf(cause, "%s:%d: bad weight \"%s\" (a number from "
		    "-%g to %g)", path, lineno, f[2], WEIGHT_MAX, WEIGHT_MAX);
		return SR_CONFIG;
	}
	if (strcmp(f[3], "-") == 0)
		floor = -1;
	else if ((floor = severity_from_name(f[3])) != SEV_WARN &&
	    floor != SEV_HIGH) {
		xasprintf(cause, "%s:%d: bad floor \"%s\" (-, warn or high)",
		    path, lineno, f[3]);
		return SR_CONFIG;
	}
	if ((r = table_find(t, f[0])) != NULL)
		rule_done(r);
	else {
		if (t->n == t->cap) {
			t->cap = t->cap ? t->cap * 2 : 64;
			t->v = xreallocarray(t->v, t->cap, sizeof *t->v);
		}
		r = &t->v[t->n++];
		t->sorted = 0;
	}
	r->id = xstrdup(f[0]);
	r->category = xstrdup(f[1]);
	r->weight = w;
	r->floor = floor;
	r->explain = xstrdup(f[4]);
	xasprintf(&r->where, "%s:%d", path, lineno);
	return SR_OK;
}

int
risktable_load(struct risk_table *t, const char *path, char **cause)
{
	char	*data = NULL, *line, *next, *f[6];
	size_t	 len, nf;
	int	 lineno = 0, rv = SR_OK;

	*cause = NULL;
	if (buf_read_file(path, RISKFILE_MAX, &data, &len) == -1) {
		xasprintf(cause, "%s: %s", path, buf_strerror(path, errno));
		return SR_CONFIG;
	}
	if (memchr(data, '\0', len) != NULL) {
		xasprintf(cause, "%s: not a text file", path);
		rv = SR_CONFIG;
		goto out;
	}
	next = data;
	while (rv == SR_OK &&
	    (line = sanitize_catalogue_line(&next, &lineno)) != NULL) {
		nf = sanitize_catalogue_split(line, f, 6);
		if (*f[0] == '@')
			rv = load_directive(t, f, nf, path, lineno, cause);
		else
			rv = load_rule(t, f, nf, path, lineno, cause);
	}
out:
	free(data);
	table_sort(t);
	return rv;
}

int
risktable_check(const struct risk_table *t, char **cause)
{
	*cause = NULL;
	if (t->warn >= t->high) {
		xasprintf(cause, "risk table: the warn threshold (%g) must be "
		    "below the high threshold (%g)", t->warn, t->high);
		return SR_CONFIG;
	}
	return SR_OK;
}

/* The severity a weight or score implies. */
static int
sev_of(const struct risk_table *t, double w)
{
	return w >= t->high ? SEV_HIGH : w >= t->warn ? SEV_WARN : SEV_INFO;
}

void
risktable_score(const struct risk_table *t, struct findings *f,
    int below_user, double *score, enum severity *out_sev)
{
	const struct risk_rule	*r;
	double			*pos, *neg;
	size_t			 i;
	int			 sev, floor = -1;

	*score = 0;
	*out_sev = SEV_INFO;
	if (t == NULL || f == NULL)
		return;
	pos = xcalloc(t->ncats + 1, sizeof *pos);
	neg = xcalloc(t->ncats + 1, sizeof *neg);
	for (i = 0; i < f->n; i++) {
		if ((r = table_find(t, f->v[i].rule)) == NULL)
			continue;
		sev = sev_of(t, r->weight);
		if (below_user && r->floor > sev)
			sev = r->floor;
		f->v[i].weight = r->weight;
		f->v[i].sev = (enum severity)sev;
		if (r->weight > pos[r->catno])
			pos[r->catno] = r->weight;
		if (r->weight < neg[r->catno])
			neg[r->catno] = r->weight;
		if (below_user && r->floor > floor)
			floor = r->floor;
	}
	for (i = 0; i < t->ncats; i++)
		*score += pos[i] + neg[i];
	free(pos);
	free(neg);
	sev = sev_of(t, *score);
	*out_sev = (enum severity)(floor > sev ? floor : sev);
}
