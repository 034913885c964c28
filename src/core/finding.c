#include "autoconfig.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/finding.h"
#include "base/xmalloc.h"

static const char *sev_names[] = { "info", "warn", "high", "error" };

void
findings_init(struct findings *f)
{
	f->v = NULL;
	f->n = 0;
	f->cap = 0;
}

void
findings_done(struct findings *f)
{
	size_t	 i;

	for (i = 0; i < f->n; i++) {
		free(f->v[i].rule);
		free(f->v[i].message);
		free(f->v[i].file);
	}
	free(f->v);
	findings_init(f);
}

static struct finding *
findings_push(struct findings *f)
{
	if (f->n == f->cap) {
		f->cap = f->cap ? f->cap * 2 : 4;
		f->v = xreallocarray(f->v, f->cap, sizeof *f->v);
	}
	return &f->v[f->n++];
}

void
findings_add(struct findings *f, const char *rule, enum severity sev,
    int line, const char *fmt, ...)
{
	struct finding	*it;
	va_list		 ap;

	it = findings_push(f);
	it->rule = xstrdup(rule);
	it->sev = sev;
	it->line = line;
	it->file = NULL;
	it->weight = 0;
	va_start(ap, fmt);
	xvasprintf(&it->message, fmt, ap);
	va_end(ap);
}

void
findings_extend(struct findings *f, const struct findings *src)
{
	struct finding	*it;
	size_t		 i;

	for (i = 0; i < src->n; i++) {
		it = findings_push(f);
		it->rule = xstrdup(src->v[i].rule);
		it->sev = src->v[i].sev;
		it->line = src->v[i].line;
		it->message = xstrdup(src->v[i].message);
		it->file = src->v[i].file != NULL ?
		    xstrdup(src->v[i].file) : NULL;
		it->weight = src->v[i].weight;
	}
}

void
findings_set_file(struct findings *f, size_t from, const char *file)
{
	size_t	 i;

	for (i = from; i < f->n; i++) {
		free(f->v[i].file);
		f->v[i].file = file != NULL ? xstrdup(file) : NULL;
	}
}

int
findings_max(const struct findings *f)
{
	size_t	 i;
	int	 max = -1;

	for (i = 0; i < f->n; i++) {
		if ((int)f->v[i].sev > max)
			max = (int)f->v[i].sev;
	}
	return max;
}

size_t
findings_count(const struct findings *f, enum severity sev)
{
	size_t	 i, n = 0;

	for (i = 0; i < f->n; i++) {
		if (f->v[i].sev >= sev)
			n++;
	}
	return n;
}

const struct finding *
findings_first_error(const struct findings *f)
{
	size_t	 i;

	for (i = 0; i < f->n; i++) {
		if (f->v[i].sev == SEV_ERROR)
			return &f->v[i];
	}
	return NULL;
}

const char *
severity_name(enum severity sev)
{
	if ((unsigned)sev >= sizeof sev_names / sizeof sev_names[0])
		return "?";
	return sev_names[sev];
}

int
severity_from_name(const char *s)
{
	size_t	 i;

	for (i = 0; i < sizeof sev_names / sizeof sev_names[0]; i++) {
		if (strcmp(s, sev_names[i]) == 0)
			return (int)i;
	}
	return -1;
}
