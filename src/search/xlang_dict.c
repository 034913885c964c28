/*
 * dictd dictionaries read in place (xlang_dict.h).
 *
 * NAME.index lines are "headword TAB offset TAB length", offset and
 * length in dictd's base64 (A-Z a-z 0-9 + /, most significant digit
 * first), sorted by headword (lower case, as bytes). The binary search
 * compares bytes, then the lines around where it landed are compared
 * normalised (our words have their accents stripped).
 * NAME.dict.dz is gzip with dictzip's "RA" extra field: chunks of CHLEN
 * uncompressed bytes, each deflated on its own, their compressed sizes
 * listed in the field.
 */
#include "autoconfig.h"

#include <sys/mman.h>
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "base/buf.h"
#include "base/status.h"
#include "base/strlist.h"
#include "base/text.h"
#include "search/xlang_dict.h"
#include "search/xlang_inv.h"
#include "base/xmalloc.h"

static int	xdict_each(struct xdict *, void (*)(void *, const char *, size_t,
		    const char *), void *);

#define ENTRY_MAX	(64u << 10)	/* bytes of one definition read */
#define WINDOW		48		/* index lines looked at around a landing */
#define RAW_WINDOW	64		/* lines from below a spelling */
#define DZ_HEAD_MAX	(1u << 20)	/* the gzip header with the chunk table */

/*
 * A definition read once. Building the search index glosses every
 * foreign word of every entry, and a catalogue repeats its words: each
 * lookup used to open the file and inflate a whole dictzip chunk (most
 * of the index's build time), so what was read is kept, up to
 * MEMO_BYTES per dictionary.
 */
struct dz_memo {
	uint64_t	 off;
	uint64_t	 len;		/* 0: a free slot */
	char		*def;
};

#define MEMO_BYTES	(16u << 20)

/* Where a word's entries start (index_find()), for the same reason. */
struct find_memo {
	char		*word;		/* NULL: a free slot */
	int		 prefix;
	size_t		 at;
};

#define FIND_MEMO_MAX	(1u << 18)

struct xdict {
	char		 name[64];	/* "deu-eng" */
	char		 lang[8];	/* "deu" */
	char		*dict_path;
	int		 dz;		/* dict_path is dictzip */
	const char	*idx;		/* the mapped index */
	size_t		 idxlen;
	int		 inverted;	/* eng-XXX, read backwards */
	uint64_t	 stamp;		/* its names, sizes and mtimes */
	char		*inv_cache;	/* where the map is kept, or NULL */
	struct xinv	*inv;		/* built on its first lookup */
	int		 inv_tried;
	struct dz_memo	*memo;		/* definitions read, by offset */
	size_t		 nmemo, memocap, memobytes;
	struct find_memo *finds;	/* index lines found, by word */
	size_t		 nfinds, findcap;
	pthread_mutex_t	 lock;		/* over inv, inv_tried and memo */
};

static int
regular(const char *path, struct stat *st)
{
	return stat(path, st) == 0 && S_ISREG(st->st_mode);
}

static void
fp_mix(uint64_t *fp, const void *p, size_t n)
{
	const unsigned char	*c = p;
	size_t			 i;

	for (i = 0; i < n; i++) {
		*fp ^= c[i];
		*fp *= 0x100000001b3ULL;
	}
}

static struct xdict *
dict_open(const char *dir, const char *base, uint64_t *fp)
{
	struct xdict	*d;
	struct stat	 si, sd;
	char		*ip, *dp;
	int		 fd, dz = 1;
	void		*m;

	xasprintf(&ip, "%s/%s.index", dir, base);
	xasprintf(&dp, "%s/%s.dict.dz", dir, base);
	if (!regular(dp, &sd)) {
		free(dp);
		xasprintf(&dp, "%s/%s.dict", dir, base);
		dz = 0;
	}
	if (!regular(ip, &si) || !regular(dp, &sd) || si.st_size == 0 ||
	    (fd = open(ip, O_RDONLY | O_CLOEXEC)) == -1) {
		free(ip);
		free(dp);
		return NULL;
	}
	m = mmap(NULL, (size_t)si.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	free(ip);
	if (m == MAP_FAILED) {
		free(dp);
		return NULL;
	}
	d = xcalloc(1, sizeof(*d));
	d->idx = m;
	d->idxlen = (size_t)si.st_size;
	d->dict_path = dp;
	d->dz = dz;
	snprintf(d->name, sizeof(d->name), "%s", base +
	    (strncmp(base, "freedict-", 9) == 0 ? 9 : 0));
	d->inverted = strncmp(d->name, "eng-", 4) == 0;
	snprintf(d->lang, sizeof(d->lang), "%.3s", d->name +
	    (d->inverted ? 4 : 0));
	pthread_mutex_init(&d->lock, NULL);
	fp_mix(fp, d->name, strlen(d->name));
	fp_mix(fp, &si.st_size, sizeof(si.st_size));
	fp_mix(fp, &si.st_mtime, sizeof(si.st_mtime));
	fp_mix(fp, &sd.st_size, sizeof(sd.st_size));
	fp_mix(fp, &sd.st_mtime, sizeof(sd.st_mtime));
	d->stamp = 0xcbf29ce484222325ULL;
	fp_mix(&d->stamp, d->name, strlen(d->name));
	fp_mix(&d->stamp, &si.st_size, sizeof(si.st_size));
	fp_mix(&d->stamp, &si.st_mtime, sizeof(si.st_mtime));
	fp_mix(&d->stamp, &sd.st_size, sizeof(sd.st_size));
	fp_mix(&d->stamp, &sd.st_mtime, sizeof(sd.st_mtime));
	return d;
}

static int
name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The dictionaries under dir, as base names sorted: the XXX-eng ones,
 * and the eng-XXX ones whose language has no XXX-eng (read backwards,
 * xlang_inv.h). "freedict-" before the name is allowed.
 */
static void
dict_names(const char *dir, struct strlist *names)
{
	struct strlist	 fwd, back;
	DIR		*dh;
	struct dirent	*de;
	size_t		 i, l;
	char		*lang;

	strlist_init(&fwd);
	strlist_init(&back);
	if ((dh = opendir(dir)) != NULL) {
		while ((de = readdir(dh)) != NULL) {
			const char *b = de->d_name;

			l = strlen(b);
			if (l < 14 || strcmp(b + l - 6, ".index") != 0)
				continue;
			b += strncmp(b, "freedict-", 9) == 0 ? 9 : 0;
			l = strlen(b) - 6;
			if (l == 7 && strncmp(b + 3, "-eng", 4) == 0 &&
			    strncmp(b, "eng", 3) != 0)
				strlist_add_take(&fwd, xstrndup(de->d_name,
				    strlen(de->d_name) - 6));
			else if (l == 7 && strncmp(b, "eng-", 4) == 0)
				strlist_add_take(&back, xstrndup(de->d_name,
				    strlen(de->d_name) - 6));
		}
		closedir(dh);
	}
	for (i = 0; i < fwd.n; i++)
		strlist_add(names, fwd.v[i]);
	for (i = 0; i < back.n; i++) {
		size_t	 j;
		int	 have = 0;

		lang = back.v[i] + strlen(back.v[i]) - 3;
		for (j = 0; j < fwd.n; j++)
			have |= strncmp(fwd.v[j] + strlen(fwd.v[j]) - 7, lang,
			    3) == 0;
		if (!have)
			strlist_add(names, back.v[i]);
	}
	strlist_done(&fwd);
	strlist_done(&back);
	if (names->n > 1)
		qsort(names->v, names->n, sizeof(*names->v), name_cmp);
}

struct xdict **
xdict_scan(const char *dir, size_t *n, uint64_t *fp)
{
	struct xdict	**v = NULL, *d;
	struct strlist	  names;
	size_t		  i;

	*n = 0;
	strlist_init(&names);
	dict_names(dir, &names);
	v = xreallocarray(NULL, names.n + 1, sizeof(*v));
	for (i = 0; i < names.n; i++)
		if ((d = dict_open(dir, names.v[i], fp)) != NULL)
			v[(*n)++] = d;
	strlist_done(&names);
	return v;
}

/*
 * The same fingerprint xdict_scan() makes (names, sizes and mtimes of
 * the dictionaries under dir), from stat() alone: nothing is opened or
 * mapped, so a search can key its cache on it for the price of a readdir.
 */
void
xdict_stamp(const char *dir, uint64_t *fp)
{
	struct strlist	 names;
	struct stat	 si, sd;
	char		*ip, *dp;
	size_t		 i;

	strlist_init(&names);
	dict_names(dir, &names);
	for (i = 0; i < names.n; i++) {
		xasprintf(&ip, "%s/%s.index", dir, names.v[i]);
		xasprintf(&dp, "%s/%s.dict.dz", dir, names.v[i]);
		if (!regular(dp, &sd)) {
			free(dp);
			xasprintf(&dp, "%s/%s.dict", dir, names.v[i]);
		}
		if (regular(ip, &si) && regular(dp, &sd) && si.st_size != 0) {
			const char	*b = names.v[i];

			b += strncmp(b, "freedict-", 9) == 0 ? 9 : 0;
			fp_mix(fp, b, strlen(b));
			fp_mix(fp, &si.st_size, sizeof(si.st_size));
			fp_mix(fp, &si.st_mtime, sizeof(si.st_mtime));
			fp_mix(fp, &sd.st_size, sizeof(sd.st_size));
			fp_mix(fp, &sd.st_mtime, sizeof(sd.st_mtime));
		}
		free(ip);
		free(dp);
	}
	strlist_done(&names);
}

void
xdict_free(struct xdict *d)
{
	size_t	 i;

	if (d == NULL)
		return;
	if (d->idx != NULL)
		munmap((void *)d->idx, d->idxlen);
	xinv_free(d->inv);
	free(d->inv_cache);
	for (i = 0; i < d->memocap; i++)
		free(d->memo[i].def);
	free(d->memo);
	for (i = 0; i < d->findcap; i++)
		free(d->finds[i].word);
	free(d->finds);
	pthread_mutex_destroy(&d->lock);
	free(d->dict_path);
	free(d);
}

const char *
xdict_name(const struct xdict *d)
{
	return d->name;
}

const char *
xdict_lang(const struct xdict *d)
{
	return d->lang;
}

/* ------------------------------------------------------------------ */
/* The index. */

/* The start of the line holding byte at. */
static size_t
line_start(const struct xdict *d, size_t at)
{
	while (at > 0 && d->idx[at - 1] != '\n')
		at--;
	return at;
}

static size_t
line_next(const struct xdict *d, size_t at)
{
	const char *nl = memchr(d->idx + at, '\n', d->idxlen - at);

	return nl != NULL ? (size_t)(nl - d->idx) + 1 : d->idxlen;
}

/* The normalised headword of the line at at, in out (cap). */
static void
headword(const struct xdict *d, size_t at, char *out, size_t cap)
{
	const char	*tab;
	size_t		 end = line_next(d, at), n;
	char		*norm;

	tab = memchr(d->idx + at, '\t', end - at);
	n = tab != NULL ? (size_t)(tab - (d->idx + at)) : 0;
	norm = text_normalize(d->idx + at, n);
	snprintf(out, cap, "%s", norm);
	free(norm);
}

/* Parses a base64 number from p up to a tab or newline. */
static int
b64_num(const char **p, const char *end, uint64_t *out)
{
	int	 k, n = 0;

	*out = 0;
	while (*p < end && (k = text_b64_digit((unsigned char)**p)) >= 0) {
		if (++n > 10)
			return -1;
		*out = *out * 64 + (uint64_t)k;
		(*p)++;
	}
	return n > 0 ? 0 : -1;
}

/* Offset and length of the entry on the line at at. */
static int
entry_loc(const struct xdict *d, size_t at, uint64_t *off, uint64_t *len)
{
	const char	*p = d->idx + at, *end = d->idx + line_next(d, at);

	if ((p = memchr(p, '\t', (size_t)(end - p))) == NULL)
		return -1;
	p++;
	if (b64_num(&p, end, off) != 0 || p >= end || *p != '\t')
		return -1;
	p++;
	return b64_num(&p, end, len);
}

/* strcmp() of word and the headword of the line at at, as bytes. */
static int
raw_cmp(const struct xdict *d, size_t at, const char *word)
{
	const unsigned char	*h = (const unsigned char *)d->idx + at;
	const unsigned char	*w = (const unsigned char *)word;
	const unsigned char	*end = (const unsigned char *)d->idx + d->idxlen;

	for (; h < end && *h != '\t' && *h != '\n'; h++, w++)
		if (*w != *h)
			return *w < *h ? -1 : 1;
	return *w != '\0';
}

/*
 * The index line near where key would sort (as bytes); low: a line
 * before it (at most 512 bytes before).
 */
static size_t
land(const struct xdict *d, const char *key, int low)
{
	size_t	 lo = 0, hi = d->idxlen, at;
	int	 c;

	while (hi - lo > 512) {
		at = line_start(d, lo + (hi - lo) / 2);
		if (at <= lo)
			break;
		if ((c = raw_cmp(d, at, key)) == 0)
			break;
		if (c < 0)
			hi = at;
		else
			lo = at;
	}
	if (low)
		return line_start(d, lo < d->idxlen ? lo : d->idxlen - 1);
	return line_start(d, lo + (hi - lo) / 2 < d->idxlen ?
	    lo + (hi - lo) / 2 : d->idxlen - 1);
}

/* Looks at n lines from at for the normalised headword word. */
static size_t
scan(const struct xdict *d, size_t at, size_t n, const char *word)
{
	size_t	 k;
	char	 hw[256];

	for (k = 0; k < n && at < d->idxlen; k++) {
		headword(d, at, hw, sizeof(hw));
		if (strcmp(hw, word) == 0)
			return at;
		at = line_next(d, at);
	}
	return (size_t)-1;
}

/*
 * Looks, from the line at at (before key in byte order), for the
 * headword equal to key as bytes (prefix: the shortest one-word headword
 * longer than key that starts with it, in *best and *bestlen), until the
 * headwords sort after key. Returns the line of an exact match, or
 * (size_t)-1. Nothing is normalised: the cheap check of a spelling.
 */
static size_t
raw_scan(const struct xdict *d, size_t at, const char *key, int prefix,
    size_t *best, size_t *bestlen)
{
	const char	*h;
	size_t		 k, kl = strlen(key), hl;

	for (k = 0; k < RAW_WINDOW && at < d->idxlen;
	    k++, at = line_next(d, at)) {
		h = d->idx + at;
		for (hl = 0; at + hl < d->idxlen && h[hl] != '\t' &&
		    h[hl] != '\n'; hl++)
			;
		if (hl >= kl && memcmp(h, key, kl) == 0) {
			if (hl == kl && !prefix)
				return at;
			if (hl > kl && prefix && memchr(h, ' ', hl) == NULL &&
			    (*best == (size_t)-1 || hl < *bestlen)) {
				*best = at;
				*bestlen = hl;
			}
		} else if (raw_cmp(d, at, key) < 0)
			break;		/* past where key sorts */
	}
	return (size_t)-1;
}

/*
 * Finds the index line whose normalised headword is word (prefix: the
 * shortest one-word headword that starts with it); returns its offset,
 * or (size_t)-1. FreeDict sorts its lower-case headwords as bytes, which
 * the search follows; a headword with an accent or a "ß" sorts after
 * every ASCII word that shares the part before it ("bußgeld" after
 * "bussgeld", "bust", "busy"), so when the word is not near its own
 * landing, each of its spellings with one letter accented ("bußgeld",
 * "prüfen"; a Latin-1 letter that folds to it) is looked up as bytes:
 * one accent is found.
 */
static size_t
index_find_raw(const struct xdict *d, const char *word, int prefix)
{
	/*
	 * The Latin-1 letters that fold to each of ascii[], as the second
	 * byte of their UTF-8 (after 0xc3): "u" is 0xb9..0xbc (ù ú û ü).
	 */
	static const char		 ascii[] = "aceinouys";
	static const unsigned char	 latin[] = { 0xa0, 0xa7, 0xa8, 0xac,
	    0xb1, 0xb2, 0xb9, 0xbd, 0x9f };
	static const unsigned char	 latin_last[] = { 0xa5, 0xa7, 0xab,
	    0xaf, 0xb1, 0xb6, 0xbc, 0xbf, 0x9f };
	size_t	 at, i, k, wl = strlen(word), best = (size_t)-1, bestlen = 0;
	const char	*f;
	char	 key[136];

	if (!prefix) {
		at = land(d, word, 0);
		for (i = 0; i < WINDOW && at > 0; i++)
			at = line_start(d, at - 1);
		if ((at = scan(d, at, 3 * WINDOW, word)) != (size_t)-1)
			return at;
	} else {
		/* a stem's accents are not looked for: too many spellings */
		raw_scan(d, land(d, word, 1), word, 1, &best, &bestlen);
		return best;
	}
	for (i = 0; i < wl && wl + 2 < sizeof(key); i++) {
		size_t	 skip = 1;

		if ((f = strchr(ascii, word[i])) == NULL || word[i] == '\0')
			continue;
		if (word[i] == 's' && word[i + 1] == 's')
			skip = 2;	/* "ss" is a folded "ß" */
		else if (word[i] == 's')
			continue;
		for (k = latin[f - ascii]; k <= latin_last[f - ascii]; k++) {
			memcpy(key, word, i);
			key[i] = (char)0xc3;
			key[i + 1] = (char)k;
			memcpy(key + i + 2, word + i + skip, wl - i - skip + 1);
			if ((at = raw_scan(d, land(d, key, 1), key, prefix,
			    &best, &bestlen)) != (size_t)-1)
				return at;
			if (best != (size_t)-1)
				return best;
		}
	}
	return best;
}

static size_t
find_slot(const struct find_memo *m, size_t cap, const char *word,
    int prefix)
{
	uint64_t	 h = 0xcbf29ce484222325ULL ^ (uint64_t)prefix;
	const char	*c;
	size_t		 i;

	for (c = word; *c != '\0'; c++) {
		h ^= (unsigned char)*c;
		h *= 0x100000001b3ULL;
	}
	i = (size_t)(h ^ (h >> 32)) & (cap - 1);
	while (m[i].word != NULL && (m[i].prefix != prefix ||
	    strcmp(m[i].word, word) != 0))
		i = (i + 1) & (cap - 1);
	return i;
}

/*
 * index_find_raw(), each word's answer kept (up to FIND_MEMO_MAX words):
 * the same words come back entry after entry.
 */
static size_t
index_find(struct xdict *d, const char *word, int prefix)
{
	struct find_memo	*m;
	size_t			 i, cap, at;

	pthread_mutex_lock(&d->lock);
	if (d->findcap > 0) {
		i = find_slot(d->finds, d->findcap, word, prefix);
		if (d->finds[i].word != NULL) {
			at = d->finds[i].at;
			pthread_mutex_unlock(&d->lock);
			return at;
		}
	}
	pthread_mutex_unlock(&d->lock);
	at = index_find_raw(d, word, prefix);
	pthread_mutex_lock(&d->lock);
	if (d->nfinds < FIND_MEMO_MAX) {
		if (2 * (d->nfinds + 1) > d->findcap) {
			cap = d->findcap ? 2 * d->findcap : 256;
			m = xcalloc(cap, sizeof(*m));
			for (i = 0; i < d->findcap; i++)
				if (d->finds[i].word != NULL)
					m[find_slot(m, cap, d->finds[i].word,
					    d->finds[i].prefix)] = d->finds[i];
			free(d->finds);
			d->finds = m;
			d->findcap = cap;
		}
		i = find_slot(d->finds, d->findcap, word, prefix);
		if (d->finds[i].word == NULL) {
			d->finds[i].word = xstrdup(word);
			d->finds[i].prefix = prefix;
			d->finds[i].at = at;
			d->nfinds++;
		}
	}
	pthread_mutex_unlock(&d->lock);
	return at;
}

/* ------------------------------------------------------------------ */
/* The dictionary file. */

/*
 * Reads len bytes at uncompressed offset off of a dictzip file into out
 * (len + 1 bytes, NUL-terminated).
 */
static int
dz_read(FILE *f, uint64_t off, uint64_t len, char *out)
{
	unsigned char	 h[12], *extra = NULL, *in = NULL, *chunk = NULL;
	unsigned	 xlen, chlen, chcnt, i, first, last;
	uint64_t	 pos, done = 0;
	size_t		 sub;
	int		 rv = -1, c;

	if (fread(h, 1, 12, f) != 12 || h[0] != 0x1f || h[1] != 0x8b ||
	    !(h[3] & 4))
		return -1;
	xlen = h[10] | (unsigned)h[11] << 8;
	extra = xmalloc(xlen);
	if (fread(extra, 1, xlen, f) != xlen || xlen < 10 ||
	    extra[0] != 'R' || extra[1] != 'A')
		goto out;
	chlen = extra[6] | (unsigned)extra[7] << 8;
	chcnt = extra[8] | (unsigned)extra[9] << 8;
	sub = extra[2] | (size_t)extra[3] << 8;
	if (chlen == 0 || sub < 6 + 2 * (size_t)chcnt || 4 + sub > xlen)
		goto out;
	if (h[3] & 8)		/* FNAME */
		while ((c = fgetc(f)) != EOF && c != 0)
			;
	if (h[3] & 16)		/* FCOMMENT */
		while ((c = fgetc(f)) != EOF && c != 0)
			;
	if (h[3] & 2)		/* FHCRC */
		(void)fseek(f, 2, SEEK_CUR);
	pos = (uint64_t)ftell(f);
	first = (unsigned)(off / chlen);
	last = (unsigned)((off + len - 1) / chlen);
	if (last >= chcnt)
		goto out;
	for (i = 0; i < first; i++)
		pos += extra[10 + 2 * i] | (unsigned)extra[11 + 2 * i] << 8;
	chunk = xmalloc(chlen);
	in = xmalloc(0x10000);
	for (i = first; i <= last; i++) {
		unsigned	 csz = extra[10 + 2 * i] |
		    (unsigned)extra[11 + 2 * i] << 8;
		z_stream	 z;
		uint64_t	 from, n;
		int		 zr;

		if (fseek(f, (long)pos, SEEK_SET) != 0 ||
		    fread(in, 1, csz, f) != csz)
			goto out;
		pos += csz;
		memset(&z, 0, sizeof(z));
		if (inflateInit2(&z, -15) != Z_OK)
			goto out;
		z.next_in = in;
		z.avail_in = csz;
		z.next_out = chunk;
		z.avail_out = chlen;
		zr = inflate(&z, Z_SYNC_FLUSH);
		n = chlen - z.avail_out;
		inflateEnd(&z);
		if (zr != Z_OK && zr != Z_STREAM_END)
			goto out;
		from = i == first ? off % chlen : 0;
		if (from >= n)
			goto out;
		n -= from;
		if (n > len - done)
			n = len - done;
		memcpy(out + done, chunk + from, (size_t)n);
		done += n;
	}
	rv = done == len ? 0 : -1;
out:
	out[done] = '\0';
	free(extra);
	free(in);
	free(chunk);
	return rv;
}

static size_t
memo_slot(const struct dz_memo *m, size_t cap, uint64_t off, uint64_t len)
{
	uint64_t	 h = (off ^ (len << 40)) * 0x9e3779b97f4a7c15ULL;
	size_t		 i = (size_t)(h >> 20) & (cap - 1);

	while (m[i].len != 0 && (m[i].off != off || m[i].len != len))
		i = (i + 1) & (cap - 1);
	return i;
}

/* Whether the definition at off is known: a copy in *out. Under d->lock. */
static int
memo_get(const struct xdict *d, uint64_t off, uint64_t len, char **out)
{
	size_t	 i;

	if (d->memocap == 0)
		return 0;
	i = memo_slot(d->memo, d->memocap, off, len);
	if (d->memo[i].len == 0)
		return 0;
	*out = xstrdup(d->memo[i].def);
	return 1;
}

/* Keeps a copy of def, read at off, while under MEMO_BYTES. Under d->lock. */
static void
memo_put(struct xdict *d, uint64_t off, uint64_t len, const char *def)
{
	struct dz_memo	*m;
	size_t		 i, cap;

	if (d->memobytes + len + sizeof(*m) * 2 > MEMO_BYTES)
		return;
	if (2 * (d->nmemo + 1) > d->memocap) {
		cap = d->memocap ? 2 * d->memocap : 256;
		m = xcalloc(cap, sizeof(*m));
		for (i = 0; i < d->memocap; i++)
			if (d->memo[i].len != 0)
				m[memo_slot(m, cap, d->memo[i].off,
				    d->memo[i].len)] = d->memo[i];
		d->memobytes += (cap - d->memocap) * sizeof(*m);
		free(d->memo);
		d->memo = m;
		d->memocap = cap;
	}
	i = memo_slot(d->memo, d->memocap, off, len);
	if (d->memo[i].len != 0)
		return;
	d->memo[i].off = off;
	d->memo[i].len = len;
	d->memo[i].def = xstrdup(def);
	d->memobytes += len + 1;
	d->nmemo++;
}

static int
entry_read(struct xdict *d, uint64_t off, uint64_t len, char **out)
{
	FILE	*f;
	char	*s;
	int	 rv, known;

	*out = NULL;
	if (len == 0 || len > ENTRY_MAX)
		return -1;
	pthread_mutex_lock(&d->lock);
	known = memo_get(d, off, len, out);
	pthread_mutex_unlock(&d->lock);
	if (known)
		return 0;
	if ((f = fopen(d->dict_path, "rbe")) == NULL)
		return -1;
	s = xmalloc((size_t)len + 1);
	if (d->dz)
		rv = dz_read(f, off, len, s);
	else {
		rv = fseek(f, (long)off, SEEK_SET) == 0 &&
		    fread(s, 1, (size_t)len, f) == len ? 0 : -1;
		s[rv == 0 ? len : 0] = '\0';
	}
	fclose(f);
	if (rv != 0) {
		free(s);
		return -1;
	}
	pthread_mutex_lock(&d->lock);
	memo_put(d, off, len, s);
	pthread_mutex_unlock(&d->lock);
	*out = s;
	return 0;
}

int
xdict_define(struct xdict *d, const char *word, char **out, char **cause)
{
	uint64_t	 off, len;
	size_t		 at;
	char		*norm = text_normalize(word, (size_t)-1);

	*out = NULL;
	*cause = NULL;
	at = index_find(d, norm, 0);
	free(norm);
	if (at == (size_t)-1)
		return SR_NOTFOUND;
	if (entry_loc(d, at, &off, &len) != 0 ||
	    entry_read(d, off, len, out) != 0) {
		xasprintf(cause, "%s: cannot read the entry for \"%s\"",
		    d->dict_path, word);
		return SR_IO;
	}
	return SR_OK;
}

/* ------------------------------------------------------------------ */
/* From a definition to English words. */

/* Blanks out <...>, [...], (...), {...} and /.../ spans in place. */
static void
strip_spans(char *s)
{
	const char	*open = "<[({/", *close = ">])}/";
	char		*p, *q, *e;

	for (p = s; *p != '\0'; p++) {
		if ((q = strchr(open, *p)) == NULL)
			continue;
		if ((e = strchr(p + 1, close[q - open])) == NULL)
			e = p + strlen(p) - 1;
		memset(p, ' ', (size_t)(e - p) + 1);
		p = e;
	}
}

/* A gloss word: letters only, and not a function word. */
static int
word_ok(const char *w)
{
	const char	*p;

	for (p = w; *p != '\0'; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    *p == '-'))
			return 0;
	return p - w >= 2 && !text_is_stopword(w);
}

/*
 * The English words of the first sense: the first line after the
 * headword that is not an example, a note or a cross-reference, its
 * first item (up to , or ;), "to" of an infinitive dropped.
 */
static size_t
definition_words(const char *def, struct strlist *out, size_t max)
{
	struct strlist	 lines, w;
	size_t		 i, j, added = 0;
	char		*sense;

	strlist_init(&lines);
	strlist_split(&lines, def, "\n");
	for (i = 1; i < lines.n && added == 0; i++) {
		const char *l = lines.v[i];

		if (*l == '"' || strstr(l, "Note:") != NULL ||
		    strstr(l, "ynonym") != NULL || strstr(l, "see:") != NULL)
			continue;
		sense = xstrdup(l);
		strip_spans(sense);
		sense[strcspn(sense, ",;")] = '\0';
		strlist_init(&w);
		strlist_split(&w, sense, " \t.");
		for (j = 0; j < w.n && out->n < max; j++) {
			if (j == 0 && strcmp(w.v[j], "to") == 0 && w.n > 1)
				continue;
			if (added == XDICT_GLOSSES)
				break;
			if (!word_ok(w.v[j]))
				continue;
			if (strlist_add_unique(out, w.v[j], 1))
				added++;
		}
		strlist_done(&w);
		free(sense);
	}
	strlist_done(&lines);
	return added;
}

/*
 * Appends the English words of up to XDICT_ENTRIES entries of the
 * headword on the line at at (a headword often has one entry per sense,
 * the first not always the common one).
 */
static size_t
entries_words(struct xdict *d, size_t at, struct strlist *out,
    size_t max)
{
	char		 first[256], hw[256], *def;
	uint64_t	 off, len;
	size_t		 k, added = 0;

	headword(d, at, first, sizeof(first));
	for (k = 0; k < XDICT_ENTRIES && at < d->idxlen; k++) {
		headword(d, at, hw, sizeof(hw));
		if (strcmp(hw, first) != 0)
			break;
		if (entry_loc(d, at, &off, &len) == 0 &&
		    entry_read(d, off, len, &def) == 0) {
			added += definition_words(def, out, max);
			free(def);
		}
		at = line_next(d, at);
	}
	return added;
}

static void
inv_add(void *arg, const char *hw, size_t hwlen, const char *def)
{
	xinv_add(arg, hw, hwlen, def);
}

/* The map of an eng-XXX dictionary, built on first use (NULL: broken). */
static const struct xinv *
inverse(struct xdict *d)
{
	const struct xinv	*x;

	pthread_mutex_lock(&d->lock);
	if (!d->inv_tried) {
		d->inv_tried = 1;
		if (d->inv_cache != NULL)
			d->inv = xinv_load(d->inv_cache, d->stamp, d->lang);
	}
	if (d->inv == NULL && d->inv_tried == 1) {
		d->inv_tried = 2;
		d->inv = xinv_new(d->lang);
		if (xdict_each(d, inv_add, d->inv) == 0) {
			xinv_seal(d->inv);
			if (d->inv_cache != NULL)
				(void)xinv_save(d->inv, d->inv_cache,
				    d->stamp);
		} else {
			xinv_free(d->inv);
			d->inv = NULL;
		}
	}
	x = d->inv;
	pthread_mutex_unlock(&d->lock);
	return x;
}

static size_t
gloss_lookup(struct xdict *const *v, size_t n, const char *word,
    size_t len, const char *lang, int prefix, struct strlist *out,
    size_t max)
{
	char	*w;
	size_t	 i, at, added = 0;

	if (lang == NULL || len == 0 || len > 128)
		return 0;
	w = xstrndup(word, len);
	for (i = 0; i < n && added == 0 && out->n < max; i++) {
		if (strcmp(v[i]->lang, lang) != 0)
			continue;
		if (v[i]->inverted) {
			if (!prefix)
				added = xinv_gloss(inverse(v[i]), w, len, out,
				    max);
			continue;
		}
		if ((at = index_find(v[i], w, prefix)) == (size_t)-1)
			continue;
		added = entries_words(v[i], at, out, max);
	}
	free(w);
	return added;
}

size_t
xdict_gloss_word(struct xdict *const *v, size_t n, const char *word,
    size_t len, const char *lang, struct strlist *out, size_t max)
{
	return gloss_lookup(v, n, word, len, lang, 0, out, max);
}

size_t
xdict_gloss_stem(struct xdict *const *v, size_t n, const char *stem,
    size_t len, const char *lang, struct strlist *out, size_t max)
{
	size_t	 added, i, chars = 0;

	for (i = 0; i < len; i++)
		if (((unsigned char)stem[i] & 0xC0) != 0x80)
			chars++;
	if (chars < XDICT_STEM_MIN)
		return 0;
	if ((added = gloss_lookup(v, n, stem, len, lang, 0, out, max)) > 0)
		return added;
	/*
	 * A stemmer leaves some endings ("preparam" of "prepárame", an
	 * imperative with its pronoun): up to XDICT_STEM_CUT characters
	 * come off, the stem kept at XDICT_STEM_MIN + 1 at least.
	 */
	for (i = 0;; i++) {
		if ((added = gloss_lookup(v, n, stem, len, lang, 1, out,
		    max)) > 0)
			return added;
		if (i == XDICT_STEM_CUT || chars <= XDICT_STEM_MIN + 1)
			break;
		do
			len--;
		while (len > 0 && ((unsigned char)stem[len] & 0xC0) == 0x80);
		chars--;
	}
	return 0;
}

/*
 * Calls fn(arg, headword, its length, definition) for every entry of d
 * (the headword as the index has it, not NUL-terminated), reading the
 * whole dictionary (at most XDICT_EACH_MAX bytes uncompressed) once.
 * Returns 0, or -1 when it cannot be read. For reading eng-XXX
 * backwards (xlang_inv.h).
 */
#define XDICT_EACH_MAX	(64u << 20)
static int
xdict_each(struct xdict *d, void (*fn)(void *, const char *, size_t,
    const char *), void *arg)
{
	gzFile		 gz;
	char		*text = NULL, *def;
	size_t		 len = 0, cap = 0, at, hl;
	uint64_t	 off, n;
	int		 r;

	if ((gz = gzopen(d->dict_path, "rb")) == NULL)
		return -1;
	do {
		if (cap - len < 65536) {
			if (cap >= XDICT_EACH_MAX) {
				gzclose(gz);
				free(text);
				return -1;
			}
			cap = cap ? cap * 2 : 1u << 20;
			text = xrealloc(text, cap + 1);
		}
		r = gzread(gz, text + len, (unsigned)(cap - len));
		if (r > 0)
			len += (size_t)r;
	} while (r > 0);
	gzclose(gz);
	if (r < 0 || text == NULL) {
		free(text);
		return -1;
	}
	text[len] = '\0';
	for (at = 0; at < d->idxlen; at = line_next(d, at)) {
		const char *tab = memchr(d->idx + at, '\t', line_next(d, at) -
		    at);

		if (tab == NULL || entry_loc(d, at, &off, &n) != 0 ||
		    off > len || n > len - off || n > ENTRY_MAX)
			continue;
		hl = (size_t)(tab - (d->idx + at));
		if (hl > 0 && d->idx[at] == '0' && d->idx[at + 1] == '0')
			continue;	/* 00-database-... */
		def = xstrndup(text + off, (size_t)n);
		fn(arg, d->idx + at, hl, def);
		free(def);
	}
	free(text);
	return 0;
}

void
xdict_cache_dir(struct xdict *const *v, size_t n, const char *dir)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		if (v[i]->inverted) {
			pthread_mutex_lock(&v[i]->lock);
			free(v[i]->inv_cache);
			v[i]->inv_cache = NULL;
			if (dir != NULL)
				xasprintf(&v[i]->inv_cache, "%s/xlang-%s.cache",
				    dir, v[i]->name);
			pthread_mutex_unlock(&v[i]->lock);
		}
}
