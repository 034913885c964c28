#include "autoconfig.h"

#include <stdlib.h>
#include <string.h>

#include "base/idset.h"
#include "base/xmalloc.h"

static size_t
idset_slot(const struct idset *s, uint64_t dev, uint64_t ino)
{
	uint64_t	 h;

	h = (dev * 0x9e3779b97f4a7c15ULL) ^ (ino * 0xff51afd7ed558ccdULL);
	h ^= h >> 33;
	return (size_t)h & (s->cap - 1);
}

void
idset_done(struct idset *s)
{
	free(s->dev);
	free(s->ino);
	free(s->used);
	memset(s, 0, sizeof *s);
}

static void
idset_grow(struct idset *s)
{
	struct idset	 old = *s;
	size_t		 i;

	s->cap = old.cap ? old.cap * 2 : 256;
	s->n = 0;
	s->dev = xcalloc(s->cap, sizeof *s->dev);
	s->ino = xcalloc(s->cap, sizeof *s->ino);
	s->used = xcalloc(s->cap, 1);
	for (i = 0; i < old.cap; i++) {
		if (old.used[i])
			idset_add(s, old.dev[i], old.ino[i]);
	}
	idset_done(&old);
}

int
idset_add(struct idset *s, uint64_t dev, uint64_t ino)
{
	size_t	 i;

	if ((s->n + 1) * 2 > s->cap)
		idset_grow(s);
	for (i = idset_slot(s, dev, ino); s->used[i]; i = (i + 1) & (s->cap - 1)) {
		if (s->dev[i] == dev && s->ino[i] == ino)
			return 0;
	}
	s->used[i] = 1;
	s->dev[i] = dev;
	s->ino[i] = ino;
	s->n++;
	return 1;
}
