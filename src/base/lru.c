/*
 * The LRU cache: an open hash table (chained) over a doubly linked
 * recency list, under one mutex.
 */
#include "autoconfig.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/lru.h"
#include "base/xmalloc.h"

struct lru_ent {
	char		*key;
	char		*val;
	size_t		 len;
	uint64_t	 hash;
	struct lru_ent	*next;		/* hash chain */
	struct lru_ent	*prev_r, *next_r;	/* recency: head is newest */
};

struct lru {
	pthread_mutex_t	  lock;
	struct lru_ent	**tab;
	size_t		  nbuckets;
	size_t		  n, cap;
	struct lru_ent	 *head, *tail;
};

static uint64_t
hash_key(const char *s)
{
	uint64_t	 h = 0xcbf29ce484222325ULL;

	for (; *s != '\0'; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ULL;
	}
	return h;
}

struct lru *
lru_new(size_t capacity)
{
	struct lru	*c = xcalloc(1, sizeof(*c));

	pthread_mutex_init(&c->lock, NULL);
	c->cap = capacity;
	c->nbuckets = 16;
	while (c->nbuckets < capacity)
		c->nbuckets *= 2;
	c->tab = xcalloc(c->nbuckets, sizeof(*c->tab));
	return c;
}

static void
unlink_recent(struct lru *c, struct lru_ent *e)
{
	if (e->prev_r != NULL)
		e->prev_r->next_r = e->next_r;
	else
		c->head = e->next_r;
	if (e->next_r != NULL)
		e->next_r->prev_r = e->prev_r;
	else
		c->tail = e->prev_r;
	e->prev_r = e->next_r = NULL;
}

static void
push_front(struct lru *c, struct lru_ent *e)
{
	e->prev_r = NULL;
	e->next_r = c->head;
	if (c->head != NULL)
		c->head->prev_r = e;
	c->head = e;
	if (c->tail == NULL)
		c->tail = e;
}

static struct lru_ent *
find(struct lru *c, const char *key, uint64_t h, struct lru_ent ***link)
{
	struct lru_ent	**pp = &c->tab[h & (c->nbuckets - 1)];

	for (; *pp != NULL; pp = &(*pp)->next)
		if ((*pp)->hash == h && strcmp((*pp)->key, key) == 0)
			break;
	if (link != NULL)
		*link = pp;
	return *pp;
}

static void
ent_free(struct lru_ent *e)
{
	free(e->key);
	free(e->val);
	free(e);
}

void
lru_free(struct lru *c)
{
	struct lru_ent	*e, *n;

	if (c == NULL)
		return;
	for (e = c->head; e != NULL; e = n) {
		n = e->next_r;
		ent_free(e);
	}
	free(c->tab);
	pthread_mutex_destroy(&c->lock);
	free(c);
}

int
lru_get(struct lru *c, const char *key, char **val, size_t *len)
{
	struct lru_ent	*e;
	int		 hit = 0;

	*val = NULL;
	pthread_mutex_lock(&c->lock);
	if ((e = find(c, key, hash_key(key), NULL)) != NULL) {
		unlink_recent(c, e);
		push_front(c, e);
		*val = xmalloc(e->len + 1);
		memcpy(*val, e->val, e->len);
		(*val)[e->len] = '\0';
		if (len != NULL)
			*len = e->len;
		hit = 1;
	}
	pthread_mutex_unlock(&c->lock);
	return hit;
}

void
lru_put(struct lru *c, const char *key, const void *val, size_t len)
{
	struct lru_ent	*e, **link;
	uint64_t	 h = hash_key(key);

	if (c->cap == 0)
		return;
	pthread_mutex_lock(&c->lock);
	if ((e = find(c, key, h, &link)) != NULL) {
		free(e->val);
		unlink_recent(c, e);
	} else {
		e = xcalloc(1, sizeof(*e));
		e->key = xstrdup(key);
		e->hash = h;
		*link = e;
		c->n++;
	}
	e->val = xmalloc(len + 1);
	memcpy(e->val, val, len);
	e->val[len] = '\0';
	e->len = len;
	push_front(c, e);
	while (c->n > c->cap) {
		struct lru_ent *old = c->tail;

		unlink_recent(c, old);
		find(c, old->key, old->hash, &link);
		*link = old->next;
		ent_free(old);
		c->n--;
	}
	pthread_mutex_unlock(&c->lock);
}

size_t
lru_count(struct lru *c)
{
	size_t	 n;

	pthread_mutex_lock(&c->lock);
	n = c->n;
	pthread_mutex_unlock(&c->lock);
	return n;
}

char *
lru_key(const char *model, const char *input)
{
	char	*k;

	xasprintf(&k, "%s\x1f%s", model, input);
	return k;
}
