/*
 * A dictionary into English read backwards from one out of English
 * (xlang_inv.h).
 */
#include "autoconfig.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/strlist.h"
#include "base/text.h"
#include "search/xlang_inv.h"
#include "base/xmalloc.h"

/*
 * Inflectional endings, as written (normalised when the map is built):
 * nouns, adjectives and the common verb forms. Only where Debian has a
 * dictionary from English and none into it.
 */
static const char *const endings_pol[] = {
	"a", "e", "i", "o", "u", "y", "ą", "ę", "ie", "ia", "iu", "io", "ii",
	"ji", "ów", "om", "em", "am", "ym", "im", "ej", "ach", "ami", "ego",
	"emu", "ich", "ych", "imi", "ymi", "owi", "owie", "iem", "iom", "iach",
	"iami", "anie", "ania", "aniu", "enie", "enia", "eniu", "owanie",
	"owania", "owaniu", "ć", "ać", "eć", "ić", "yć", "ować", "ywać",
	"iwać", "awać", "owywać", "uj", "aj", "uje", "ują", "ujesz", "ujemy",
	"ał", "ała", "ało", "ali", "ały", "ony", "ona", "one", "ane", "any",
	"ano", "ość", "ości", NULL
};
static const char *const endings_rus[] = {
	"а", "я", "о", "е", "ы", "и", "у", "ю", "ь", "ой", "ей", "ом", "ем",
	"ам", "ям", "ах", "ях", "ами", "ями", "ого", "его", "ому", "ему", "ый",
	"ий", "ая", "яя", "ое", "ее", "ые", "ие", "ых", "их", "ым", "им", "ую",
	"юю", "ов", "ев", "ия", "ию", "ии", "ть", "ться", "тся", "ет", "ют",
	"ит", "ят", "ешь", "ишь", "ать", "ять", "ить", "еть", "ение", "ения",
	"ению", "ание", "ания", "ость", "ости", NULL
};

struct pair {
	char		*key;
	uint32_t	 en;		/* index into xinv.ens */
	uint32_t	 rank;		/* the item's place in its entry */
};

struct pairs {
	struct pair	*v;
	size_t		 n, cap;
};

struct xinv {
	char		*blob;		/* a loaded cache: the keys point in it */
	struct strlist	 ens;		/* English headwords */
	uint32_t	 en;		/* the entry being added */
	struct strlist	 endings;	/* normalised, longest first */
	struct pairs	 word;		/* as written */
	struct pairs	 stem;		/* by the dictionary-side stem */
};

static size_t
chars(const char *s, size_t n)
{
	size_t	 i, c = 0;

	for (i = 0; i < n; i++)
		if (((unsigned char)s[i] & 0xC0) != 0x80)
			c++;
	return c;
}

static void
pairs_add(struct pairs *p, const char *key, size_t len, uint32_t en,
    uint32_t rank)
{
	if (p->n == p->cap) {
		p->cap = p->cap ? p->cap * 2 : 4096;
		p->v = xreallocarray(p->v, p->cap, sizeof(*p->v));
	}
	p->v[p->n].key = xstrndup(key, len);
	p->v[p->n].en = en;
	p->v[p->n].rank = rank;
	p->n++;
}

static int
pair_cmp(const void *a, const void *b)
{
	const struct pair	*x = a, *y = b;
	int			 c = strcmp(x->key, y->key);

	if (c != 0)
		return c;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return x->en < y->en ? -1 : x->en > y->en;
}

static void
pairs_sort(struct pairs *p)
{
	if (p->n > 1)
		qsort(p->v, p->n, sizeof(*p->v), pair_cmp);
}

static void
pairs_done(struct pairs *p)
{
	size_t	 i;

	for (i = 0; i < p->n; i++)
		free(p->v[i].key);
	free(p->v);
}

/* The length of w (n bytes) without its longest ending (0: none). */
static size_t
stem_len(const struct xinv *x, const char *w, size_t n)
{
	size_t	 i, el;

	for (i = 0; i < x->endings.n; i++) {
		el = strlen(x->endings.v[i]);
		if (el < n && memcmp(w + n - el, x->endings.v[i], el) == 0 &&
		    chars(w, n - el) >= XINV_STEM_MIN)
			return n - el;
	}
	return n;
}

/* A word of letters (no blank, digit or ASCII punctuation). */
static int
one_word(const char *w)
{
	const unsigned char	*p;

	if (*w == '\0')
		return 0;
	for (p = (const unsigned char *)w; *p != '\0'; p++)
		if (*p < 0x80 && !(*p >= 'a' && *p <= 'z'))
			return 0;
	return 1;
}

/* Blanks out the bracketed notes of s in place: <N> [form] (with - z). */
static void
drop_notes(char *s)
{
	static const char	 open[] = "<[({/", shut[] = ">])}/";
	char			*p, *o, *e;

	for (p = s; *p != '\0'; p++) {
		if ((o = strchr(open, *p)) == NULL || *o == '\0')
			continue;
		e = strchr(p + 1, shut[o - open]);
		if (e == NULL)
			e = p + strlen(p) - 1;
		while (p <= e)
			*p++ = ' ';
		p--;
	}
}

/* Skips the blanks and sense numbers ("1.", "II.") at the start of s. */
static const char *
skip_numbers(const char *s)
{
	const char	*p;

	for (;;) {
		s += strspn(s, " \t");
		p = s + strspn(s, "0123456789IVX");
		if (p == s || *p != '.')
			return s;
		s = p + 1;
	}
}

/* One translation line: its items of one word map to the headword. */
static void
add_line(struct xinv *x, const char *line, uint32_t *rank)
{
	struct strlist	 items;
	char		*s, *norm;
	size_t		 i, n, sl;

	s = xstrdup(line);
	drop_notes(s);
	strlist_init(&items);
	strlist_split(&items, skip_numbers(s), ",;");
	for (i = 0; i < items.n; i++) {
		const char *it = items.v[i] + strspn(items.v[i], " \t");

		n = strlen(it);
		while (n > 0 && (it[n - 1] == ' ' || it[n - 1] == '\t'))
			n--;
		if (n < 3 || memchr(it, ' ', n) != NULL) {
			(*rank)++;	/* several words: not normalised */
			continue;
		}
		norm = text_normalize(it, n);
		n = strlen(norm);
		while (n > 0 && norm[n - 1] == ' ')
			norm[--n] = '\0';
		if (one_word(norm) && chars(norm, n) >= 3) {
			pairs_add(&x->word, norm, n, x->en, *rank);
			sl = stem_len(x, norm, n);
			pairs_add(&x->stem, norm, sl, x->en, *rank);
		}
		(*rank)++;
		free(norm);
	}
	strlist_done(&items);
	free(s);
}

/*
 * One entry: its headword, if one English word, and the items of its
 * lines after the first; a line that an idiom's translation ("- ...")
 * follows is the idiom, and neither is used.
 */
void
xinv_add(struct xinv *x, const char *hw, size_t hwlen, const char *def)
{
	struct strlist	 lines;
	char		*en;
	size_t		 i;
	uint32_t	 rank = 0;

	en = text_normalize(hw, hwlen);
	if (!one_word(en) || strlen(en) < 2) {
		free(en);
		return;
	}
	x->en = (uint32_t)x->ens.n;
	strlist_add_take(&x->ens, en);
	strlist_init(&lines);
	strlist_split(&lines, def, "\n");
	for (i = 1; i < lines.n; i++) {
		const char *l = lines.v[i] + strspn(lines.v[i], " \t");

		if (*l == '-' || (i + 1 < lines.n && lines.v[i + 1][strspn(
		    lines.v[i + 1], " \t")] == '-'))
			continue;
		add_line(x, lines.v[i], &rank);
	}
	strlist_done(&lines);
}

static int
ending_cmp(const void *a, const void *b)
{
	size_t	 x = strlen(*(char *const *)a), y = strlen(*(char *const *)b);

	return x > y ? -1 : x < y;
}

struct xinv *
xinv_new(const char *lang)
{
	const char *const	*e = NULL;
	struct xinv		*x;

	x = xcalloc(1, sizeof(*x));
	strlist_init(&x->ens);
	strlist_init(&x->endings);
	if (strcmp(lang, "pol") == 0)
		e = endings_pol;
	else if (strcmp(lang, "rus") == 0)
		e = endings_rus;
	for (; e != NULL && *e != NULL; e++)
		strlist_add_take(&x->endings, text_normalize(*e, (size_t)-1));
	if (x->endings.n > 1)
		qsort(x->endings.v, x->endings.n, sizeof(*x->endings.v),
		    ending_cmp);
	return x;
}

void
xinv_seal(struct xinv *x)
{
	pairs_sort(&x->word);
	pairs_sort(&x->stem);
}

void
xinv_free(struct xinv *x)
{
	if (x == NULL)
		return;
	strlist_done(&x->ens);
	strlist_done(&x->endings);
	if (x->blob != NULL) {
		free(x->word.v);
		free(x->stem.v);
		free(x->blob);
	} else {
		pairs_done(&x->word);
		pairs_done(&x->stem);
	}
	free(x);
}

/*
 * The cache file: XINV_MAGIC, the stamp, the counts of English words,
 * of words and of stems (uint32_t each), the English words (each
 * NUL-terminated), then each pair as its English word's index and rank
 * (uint32_t each) and its key (NUL-terminated). Host byte order: the
 * cache is a local file, rebuilt when it does not read back.
 */
#define XINV_MAGIC	"SRXINV01"
#define XINV_FILE_MAX	(256u << 20)

int
xinv_save(const struct xinv *x, const char *path, uint64_t stamp)
{
	const struct pairs	*p[2] = { &x->word, &x->stem };
	struct buf		 b;
	uint32_t		 n[3];
	size_t			 i, k;
	char			*cause = NULL;
	int			 rv;

	buf_init(&b, 0);
	buf_add(&b, XINV_MAGIC, 8);
	buf_add(&b, &stamp, sizeof(stamp));
	n[0] = (uint32_t)x->ens.n;
	n[1] = (uint32_t)x->word.n;
	n[2] = (uint32_t)x->stem.n;
	buf_add(&b, n, sizeof(n));
	for (i = 0; i < x->ens.n; i++)
		buf_add(&b, x->ens.v[i], strlen(x->ens.v[i]) + 1);
	for (k = 0; k < 2; k++)
		for (i = 0; i < p[k]->n; i++) {
			buf_add(&b, &p[k]->v[i].en, sizeof(uint32_t));
			buf_add(&b, &p[k]->v[i].rank, sizeof(uint32_t));
			buf_add(&b, p[k]->v[i].key, strlen(p[k]->v[i].key) + 1);
		}
	rv = buf_save(path, b.p, b.len, 0644, 1, &cause);
	free(cause);
	buf_done(&b);
	return rv == 0 ? 0 : -1;
}

static int
load_pairs(struct xinv *x, struct pairs *p, uint32_t n, size_t len,
    size_t *at)
{
	const char	*key;
	uint32_t	 i, en, rank;

	p->v = xreallocarray(NULL, (size_t)n + 1, sizeof(*p->v));
	p->cap = (size_t)n + 1;
	for (i = 0; i < n; i++) {
		if (*at + 8 > len)
			return -1;
		memcpy(&en, x->blob + *at, 4);
		memcpy(&rank, x->blob + *at + 4, 4);
		*at += 8;
		if ((key = buf_cstr_at(x->blob, len, at)) == NULL ||
		    en >= x->ens.n)
			return -1;
		p->v[p->n].key = (char *)key;
		p->v[p->n].en = en;
		p->v[p->n].rank = rank;
		p->n++;
	}
	return 0;
}

struct xinv *
xinv_load(const char *path, uint64_t stamp, const char *lang)
{
	struct xinv	*x;
	char		*data;
	const char	*s;
	size_t		 len, at = 28;	/* magic, stamp, counts */
	uint32_t	 n[3], i;

	if (buf_read_file(path, XINV_FILE_MAX, &data, &len) != 0)
		return NULL;
	if (len < at || memcmp(data, XINV_MAGIC, 8) != 0 ||
	    memcmp(data + 8, &stamp, sizeof(stamp)) != 0) {
		free(data);
		return NULL;
	}
	memcpy(n, data + 16, sizeof(n));
	x = xinv_new(lang);
	x->blob = data;
	if (n[0] > len || n[1] > len || n[2] > len)
		goto bad;
	for (i = 0; i < n[0]; i++) {
		if ((s = buf_cstr_at(data, len, &at)) == NULL)
			goto bad;
		strlist_add(&x->ens, s);
	}
	if (load_pairs(x, &x->word, n[1], len, &at) != 0 ||
	    load_pairs(x, &x->stem, n[2], len, &at) != 0 || at != len)
		goto bad;
	return x;
bad:
	xinv_free(x);
	return NULL;
}

/* Adds the best English words of key (len bytes) in p. */
static size_t
find(const struct xinv *x, const struct pairs *p, const char *key,
    size_t len, struct strlist *out, size_t max)
{
	size_t	 lo = 0, hi = p->n, mid, added = 0;
	char	*k = xstrndup(key, len);

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (strcmp(p->v[mid].key, k) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < p->n && strcmp(p->v[lo].key, k) == 0 &&
	    added < XINV_HEADWORDS && out->n < max; lo++)
		if (strlist_add_unique(out, x->ens.v[p->v[lo].en], 1))
			added++;
	free(k);
	return added;
}

size_t
xinv_gloss(const struct xinv *x, const char *word, size_t len,
    struct strlist *out, size_t max)
{
	size_t	 added, i, el;

	if (x == NULL || len == 0)
		return 0;
	if ((added = find(x, &x->word, word, len, out, max)) > 0)
		return added;
	if ((added = find(x, &x->stem, word, len, out, max)) > 0)
		return added;
	/* without each ending the word has, shortest first */
	for (i = x->endings.n; i-- > 0;) {
		el = strlen(x->endings.v[i]);
		if (el < len && memcmp(word + len - el, x->endings.v[i],
		    el) == 0 && chars(word, len - el) >= XINV_STEM_MIN &&
		    (added = find(x, &x->stem, word, len - el, out, max)) > 0)
			return added;
	}
	return 0;
}
