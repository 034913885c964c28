/*
 * Text pipeline: normalisation, tokens, stop-words, stemming, name parts.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libstemmer.h>
#include <utf8proc.h>

#include "base/buf.h"
#include "base/text.h"
#include "base/xmalloc.h"

struct text_ctx {
	struct sb_stemmer	*en;
};

/* Stop-words, already normalised (marks stripped, ß -> ss). */
static const char *stopwords[] = {
	/* en */
	"about", "above", "after", "again", "against", "all", "also", "am",
	"an", "and", "any", "are", "as", "at", "be", "because", "been",
	"before", "being", "below", "between", "both", "but", "by", "can",
	"could", "did", "do", "does", "doing", "down", "during", "each",
	"few", "for", "from", "further", "had", "has", "have", "having", "he",
	"her", "here", "hers", "him", "his", "how", "if", "in", "into", "is",
	"it", "its", "itself", "just", "let", "lets", "me", "more", "most",
	"my", "myself", "need", "no", "nor", "not", "now", "of", "off", "on",
	"once", "or", "other", "our", "ours", "out", "over", "own", "please",
	"same", "she", "should", "so", "some", "such", "than", "that", "the",
	"their", "them", "then", "there", "these", "they", "this", "those",
	"through", "to", "too", "under", "until", "up", "us", "very", "want",
	"was", "we", "were", "what", "when", "where", "which", "while", "who",
	"whom", "why", "will", "with", "would", "you", "your", "yours",
	/* de */
	"aber", "alle", "allem", "allen", "aller", "alles", "als", "auch",
	"auf", "aus", "bei", "bin", "bis", "bist", "da", "damit", "dann",
	"das", "dass", "dem", "den", "der", "des", "dich", "die", "dies",
	"diese", "dieser", "dieses", "dir", "doch", "dort", "du", "durch",
	"ein", "eine", "einem", "einen", "einer", "eines", "er", "es", "etwas",
	"fur", "habe", "haben", "hat", "hatte", "ich", "ihr", "ihre", "im",
	"ist", "ja", "jede", "jeder", "jedes", "jetzt", "kann", "kein",
	"keine", "mich", "mir", "muss", "mussen", "nach", "nicht", "noch",
	"nun", "nur", "ob", "oder", "ohne", "sehr", "sein", "seine", "sich",
	"sie", "sind", "soll", "sollen", "uber", "um", "und", "uns", "unser",
	"unsere", "unter", "vom", "von", "vor", "wann", "warum", "weil",
	"welche", "wenn", "werden", "wie", "wir", "wird", "wo", "zu", "zum",
	"zur",
	/* es / pt / it */
	"al", "algo", "como", "con", "del", "el", "ella", "ellos", "en",
	"esta", "este", "esto", "ha", "hay", "la", "las", "le", "les", "lo",
	"los", "mas", "mi", "mis", "muy", "nos", "para", "pero", "por", "que",
	"quiero", "se", "si", "sin", "sobre", "su", "sus", "te", "tu", "un",
	"una", "uno", "unos", "ya", "yo", "um", "uma", "os", "as", "da", "do",
	"dos", "das", "na", "no", "nas", "nos", "il", "di", "che", "per",
	/* pl */
	"aby", "ale", "bez", "by", "byc", "czy", "dla", "ich", "im", "jak",
	"jakie", "je", "jego", "jej", "jest", "juz", "ktora", "ktore",
	"ktory", "lub", "ma", "mnie", "mu", "na", "nad", "nam", "nas", "nie",
	"od", "oraz", "po", "pod", "przez", "sie", "ta", "tak", "tam", "te",
	"tego", "tej", "tu", "ty", "we", "wg", "za", "ze", "zeby", "moj",
	"moja", "nasz", "nasza", "naszego", "naszej", "nasze",
	/* fr */
	"au", "aux", "avec", "ce", "ces", "dans", "du", "est", "et", "je",
	"leur", "lui", "mais", "mes", "mon", "ne", "nous", "ou", "par", "pas",
	"pour", "qu", "qui", "sa", "ses", "son", "sur", "ta", "tes", "ton",
	"une", "vos", "votre", "vous",
};
#define STOP_SLOTS	2048	/* power of two, > 2 * the number of words */
#define STOP_MAXLEN	8

static const char	*stop_set[STOP_SLOTS];
static pthread_once_t	 stop_once = PTHREAD_ONCE_INIT;

static unsigned
stop_hash(const char *w, size_t n)
{
	unsigned	 h = 2166136261u;
	size_t		 i;

	for (i = 0; i < n; i++) {
		h ^= (unsigned char)w[i];
		h *= 16777619u;
	}
	return h & (STOP_SLOTS - 1);
}

static void
stop_init(void)
{
	size_t	 i, n = sizeof(stopwords) / sizeof(stopwords[0]);
	unsigned j;

	for (i = 0; i < n; i++) {
		for (j = stop_hash(stopwords[i], strlen(stopwords[i]));
		    stop_set[j] != NULL; j = (j + 1) & (STOP_SLOTS - 1))
			if (strcmp(stop_set[j], stopwords[i]) == 0)
				break;
		stop_set[j] = stopwords[i];
	}
}

int
text_is_stopword(const char *w)
{
	size_t		 n = strlen(w);
	unsigned	 j;

	if (n > STOP_MAXLEN)
		return 0;
	pthread_once(&stop_once, stop_init);
	for (j = stop_hash(w, n); stop_set[j] != NULL;
	    j = (j + 1) & (STOP_SLOTS - 1))
		if (strcmp(stop_set[j], w) == 0)
			return 1;
	return 0;
}

struct text_ctx *
text_ctx_new(void)
{
	struct text_ctx	*c;

	c = xcalloc(1, sizeof(*c));
	c->en = sb_stemmer_new("english", "UTF_8");
	return c;
}

void
text_ctx_free(struct text_ctx *c)
{
	if (c == NULL)
		return;
	if (c->en != NULL)
		sb_stemmer_delete(c->en);
	free(c);
}

int
text_utf8_decode(const char *s, size_t n, int32_t *cp)
{
	utf8proc_ssize_t	 l;
	utf8proc_int32_t	 c;

	if (n == 0)
		return -1;
	l = utf8proc_iterate((const utf8proc_uint8_t *)s,
	    n > 4 ? 4 : (utf8proc_ssize_t)n, &c);
	if (l <= 0 || c < 0)
		return -1;
	*cp = c;
	return (int)l;
}

size_t
text_utf8_cut(const char *s, size_t n)
{
	while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
		n--;
	return n;
}

size_t
text_utf8_valid(const char *s, size_t n)
{
	size_t	 i = 0;
	int32_t	 cp;
	int	 l;

	while (i < n) {
		if ((unsigned char)s[i] < 0x80) {
			i++;
			continue;
		}
		if ((l = text_utf8_decode(s + i, n - i, &cp)) < 0)
			break;
		i += (size_t)l;
	}
	return i;
}

char *
text_utf8_scrub(const char *s)
{
	struct buf	 b;
	size_t		 n = strlen(s), i, ok;
	int32_t		 cp;
	int		 l;

	if ((ok = text_utf8_valid(s, n)) == n)
		return NULL;
	buf_init(&b, n + 8);
	buf_add(&b, s, ok);
	for (i = ok; i < n; i += (size_t)l) {
		if ((l = text_utf8_decode(s + i, n - i, &cp)) < 0) {
			buf_addstr(&b, "\xef\xbf\xbd");	/* U+FFFD */
			l = 1;
		} else
			buf_add(&b, s + i, (size_t)l);
	}
	return buf_take(&b);
}

int
text_b64_digit(int c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+' || c == '-')
		return 62;
	if (c == '/' || c == '_')
		return 63;
	return -1;
}

int
text_is_cjk(int32_t c)
{
	return (c >= 0x3040 && c <= 0x30FF) ||	/* Hiragana, Katakana */
	    (c >= 0x31F0 && c <= 0x31FF) ||	/* Katakana ext */
	    (c >= 0x3400 && c <= 0x4DBF) ||	/* Han ext A */
	    (c >= 0x4E00 && c <= 0x9FFF) ||	/* Han */
	    (c >= 0xF900 && c <= 0xFAFF) ||	/* compatibility */
	    (c >= 0x20000 && c <= 0x2FFFF);	/* Han ext B.. */
}

/* Letters that carry no decomposable mark but should fold anyway. */
static const char *
fold_extra(int32_t c)
{
	switch (c) {
	case 0x0142: return "l";	/* ł */
	case 0x0140: return "l";	/* ŀ */
	case 0x00F8: return "o";	/* ø */
	case 0x0111: return "d";	/* đ */
	case 0x0127: return "h";	/* ħ */
	case 0x0131: return "i";	/* ı */
	case 0x00E6: return "ae";	/* æ */
	case 0x0153: return "oe";	/* œ */
	case 0x00FE: return "th";	/* þ */
	case 0x00F0: return "d";	/* ð */
	default: return NULL;
	}
}

/*
 * What NFKC + case folding + LUMP make of c when that needs no tables:
 * ASCII, Han, kana and common CJK punctuation map to themselves,
 * fullwidth ASCII and a few quotes and dashes to ASCII. Returns the
 * replacement ("" keeps c as is), or NULL when utf8proc must decide.
 */
static const char *
fast_map(int32_t c, char ascii[2])
{
	if (c < 0x80) {
		if (c < 0x20 || c == 0x7F)
			c = ' ';
		else if (c >= 'A' && c <= 'Z')
			c += 'a' - 'A';
		ascii[0] = (char)c;
		ascii[1] = '\0';
		return ascii;
	}
	if ((c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) ||
	    (c >= 0x3041 && c <= 0x3096) || (c >= 0x30A1 && c <= 0x30FC) ||
	    (c >= 0x3001 && c <= 0x3003) || (c >= 0x3008 && c <= 0x3011) ||
	    (c >= 0x3014 && c <= 0x301B))
		return "";
	if (c >= 0xFF01 && c <= 0xFF5E)
		return fast_map(c - 0xFEE0, ascii);
	switch (c) {
	case 0x3000: return " ";
	case 0x2018: case 0x2019: return "'";
	case 0x201C: case 0x201D: return "\"";
	case 0x2013: case 0x2014: return "-";
	case 0x2026: return "...";
	default: return NULL;
	}
}

/* Normalises s without utf8proc when every character allows it; else NULL. */
static char *
fast_normalize(const char *s, size_t len)
{
	struct buf	 b;
	const char	*m;
	char		 ascii[2];
	size_t		 i;
	int32_t		 cp;
	int		 l;

	buf_init(&b, 0);
	for (i = 0; i < len; i += (size_t)l) {
		if ((l = text_utf8_decode(s + i, len - i, &cp)) < 0 ||
		    (m = fast_map(cp, ascii)) == NULL) {
			buf_done(&b);
			return NULL;
		}
		if (*m == '\0')
			buf_add(&b, s + i, (size_t)l);
		else
			buf_addstr(&b, m);
	}
	return buf_take(&b);
}

/* Combining marks, except the kana voicing marks. */
static int
is_mark(int32_t c)
{
	if (c == 0x3099 || c == 0x309A)
		return 0;
	switch (utf8proc_category(c)) {
	case UTF8PROC_CATEGORY_MN:
	case UTF8PROC_CATEGORY_MC:
	case UTF8PROC_CATEGORY_ME:
		return 1;
	default:
		return 0;
	}
}

char *
text_normalize(const char *s, size_t len)
{
	struct buf		 b;
	utf8proc_uint8_t	*mapped = NULL;
	utf8proc_ssize_t	 r;
	size_t			 i;
	int32_t			 cp;
	int			 l;
	const char		*f;
	char			*fast;

	if (len == (size_t)-1)
		len = strlen(s);
	for (i = 0; i < len; i++)
		if ((unsigned char)s[i] >= 0x80 || s[i] == '\0')
			break;
	if (i == len) {
		/* ASCII fast path: NFKC and folding reduce to lower case. */
		char *o = xmalloc(len + 1);

		for (i = 0; i < len; i++) {
			unsigned char c = (unsigned char)s[i];

			if (c < 0x20 || c == 0x7F)
				c = ' ';
			else if (c >= 'A' && c <= 'Z')
				c = (unsigned char)(c - 'A' + 'a');
			o[i] = (char)c;
		}
		o[len] = '\0';
		return o;
	}
	if ((fast = fast_normalize(s, len)) != NULL)
		return fast;
	buf_init(&b, 0);
	/* Valid UTF-8 only, controls and NUL as spaces. */
	for (i = 0; i < len; ) {
		l = text_utf8_decode(s + i, len - i, &cp);
		if (l < 0) {
			buf_addc(&b, ' ');
			i++;
			continue;
		}
		if (cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp < 0xA0))
			buf_addc(&b, ' ');
		else
			buf_add(&b, s + i, (size_t)l);
		i += (size_t)l;
	}
	/* NFKD + case fold, then marks out (kana voicing kept), then NFC. */
	r = utf8proc_map((const utf8proc_uint8_t *)b.p, (utf8proc_ssize_t)b.len,
	    &mapped, UTF8PROC_STABLE | UTF8PROC_COMPAT | UTF8PROC_DECOMPOSE |
	    UTF8PROC_CASEFOLD | UTF8PROC_LUMP | UTF8PROC_IGNORE);
	if (r < 0) {
		/* Cannot happen on valid input; fall back to the cleaned text. */
		free(mapped);
		return buf_take(&b);
	}
	buf_reset(&b);
	for (i = 0; i < (size_t)r; ) {
		l = text_utf8_decode((const char *)mapped + i, (size_t)r - i, &cp);
		if (l < 0) {
			i++;
			continue;
		}
		if ((f = fold_extra(cp)) != NULL)
			buf_addstr(&b, f);
		else if (!is_mark(cp))
			buf_add(&b, mapped + i, (size_t)l);
		i += (size_t)l;
	}
	free(mapped);
	mapped = NULL;
	r = utf8proc_map((const utf8proc_uint8_t *)b.p, (utf8proc_ssize_t)b.len,
	    &mapped, UTF8PROC_STABLE | UTF8PROC_COMPOSE);
	if (r < 0) {
		free(mapped);
		return buf_take(&b);
	}
	buf_done(&b);
	return (char *)mapped;
}

char *
text_stem(struct text_ctx *c, const char *w)
{
	const sb_symbol	*st;
	size_t		 i, n = strlen(w);

	if (c == NULL || c->en == NULL || n < 3)
		return xstrdup(w);
	for (i = 0; i < n; i++)
		if (w[i] < 'a' || w[i] > 'z')
			return xstrdup(w);
	st = sb_stemmer_stem(c->en, (const sb_symbol *)w, (int)n);
	if (st == NULL)
		return xstrdup(w);
	return xstrndup((const char *)st, (size_t)sb_stemmer_length(c->en));
}

static int
is_word_cp(int32_t c)
{
	if (c < 0x80)
		return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
		    (c >= 'A' && c <= 'Z');
	switch (utf8proc_category(c)) {
	case UTF8PROC_CATEGORY_LU: case UTF8PROC_CATEGORY_LL:
	case UTF8PROC_CATEGORY_LT: case UTF8PROC_CATEGORY_LM:
	case UTF8PROC_CATEGORY_LO: case UTF8PROC_CATEGORY_ND:
	case UTF8PROC_CATEGORY_NL: case UTF8PROC_CATEGORY_NO:
	case UTF8PROC_CATEGORY_MN: case UTF8PROC_CATEGORY_MC:
		return 1;
	default:
		return 0;
	}
}

/* Where tokens go: a callback, at most max tokens (0: unlimited). */
struct sink {
	void	(*fn)(void *, const char *, size_t);
	void	 *arg;
	size_t	  max;
	size_t	  n;
};

static int
room(const struct sink *k)
{
	return k->max == 0 || k->n < k->max;
}

static void
put(struct sink *k, const char *t, size_t len)
{
	if (!room(k))
		return;
	k->fn(k->arg, t, len);
	k->n++;
}

static void
emit_word(struct text_ctx *c, const char *w, size_t n, int flags,
    struct sink *k)
{
	char		 tmp[TEXT_TOKEN_MAX + 1];
	const sb_symbol	*st;
	size_t		 i;

	if (n > TEXT_TOKEN_MAX)
		n = text_utf8_cut(w, TEXT_TOKEN_MAX);
	memcpy(tmp, w, n);
	tmp[n] = '\0';
	if (flags & TEXT_STOP) {
		if (n == 1)
			return;
		if (text_is_stopword(tmp))
			return;
	}
	if ((flags & TEXT_STEM) && c != NULL && c->en != NULL && n >= 3) {
		for (i = 0; i < n; i++)
			if (tmp[i] < 'a' || tmp[i] > 'z')
				break;
		if (i == n && (st = sb_stemmer_stem(c->en,
		    (const sb_symbol *)tmp, (int)n)) != NULL) {
			put(k, (const char *)st, (size_t)sb_stemmer_length(c->en));
			return;
		}
	}
	put(k, tmp, n);
}

/* Emits bigrams of a CJK run of np codepoints (offsets in off[]). */
static void
emit_cjk(const char *s, const size_t *off, size_t np, int flags,
    struct sink *k)
{
	size_t	 i;

	if (np == 1) {
		put(k, s + off[0], off[1] - off[0]);
		return;
	}
	for (i = 0; i + 1 < np; i++)
		put(k, s + off[i], off[i + 2] - off[i]);
	if (flags & TEXT_CJK_UNI)
		for (i = 0; i < np; i++)
			put(k, s + off[i], off[i + 1] - off[i]);
}

#define CJK_RUN_MAX 256

/* Tokenises normalised text s of n bytes into the sink. */
static void
tokenize_norm(struct text_ctx *c, const char *s, size_t n, int flags,
    struct sink *k)
{
	size_t	 i, ws = 0, np = 0;
	size_t	 off[CJK_RUN_MAX + 1];
	int32_t	 cp;
	int	 l, inword = 0;

	for (i = 0; i <= n && room(k); i += (size_t)l) {
		if (i == n) {
			cp = ' ';
			l = 1;
		} else if ((unsigned char)s[i] < 0x80) {
			cp = (unsigned char)s[i];
			l = 1;
		} else if ((l = text_utf8_decode(s + i, n - i, &cp)) < 0) {
			cp = ' ';
			l = 1;
		}
		if (cp >= 0x3040 && text_is_cjk(cp)) {
			if (inword) {
				emit_word(c, s + ws, i - ws, flags, k);
				inword = 0;
			}
			if (np == CJK_RUN_MAX) {
				off[np] = i;
				emit_cjk(s, off, np, flags, k);
				np = 0;
			}
			off[np++] = i;
			continue;
		}
		if (np > 0) {
			off[np] = i;
			emit_cjk(s, off, np, flags, k);
			np = 0;
		}
		if (is_word_cp(cp)) {
			if (!inword) {
				ws = i;
				inword = 1;
			}
		} else if (inword) {
			emit_word(c, s + ws, i - ws, flags, k);
			inword = 0;
		}
	}
}

size_t
text_tokenize_cb(struct text_ctx *c, const char *raw, int flags,
    void (*fn)(void *, const char *, size_t), void *arg, size_t max)
{
	struct sink	 k = { fn, arg, max, 0 };
	char		*s;

	s = text_normalize(raw, (size_t)-1);
	tokenize_norm(c, s, strlen(s), flags, &k);
	free(s);
	return k.n;
}

static void
add_to_list(void *arg, const char *t, size_t len)
{
	strlist_add_take(arg, xstrndup(t, len));
}

size_t
text_tokenize(struct text_ctx *c, const char *raw, int flags,
    struct strlist *out, size_t max)
{
	if (max != 0 && out->n >= max)
		return 0;
	return text_tokenize_cb(c, raw, flags, add_to_list, out,
	    max == 0 ? 0 : max - out->n);
}

static int
is_upper(char c)
{
	return c >= 'A' && c <= 'Z';
}

static int
is_lower(char c)
{
	return c >= 'a' && c <= 'z';
}

size_t
text_split_name(const char *name, struct strlist *out)
{
	size_t	 i, n = strlen(name), start = 0, added = 0;
	int	 sep, brk;

	for (i = 0; i <= n; i++) {
		sep = i == n || strchr("-_:./ \t", name[i]) != NULL;
		brk = 0;
		if (!sep && i > start) {
			/* fooBar | HTTPServer: break before B / before S */
			if (is_upper(name[i]) && is_lower(name[i - 1]))
				brk = 1;
			else if (is_upper(name[i]) && is_upper(name[i - 1]) &&
			    i + 1 < n && is_lower(name[i + 1]))
				brk = 1;
		}
		if ((sep || brk) && i > start) {
			strlist_add_take(out, xstrndup(name + start, i - start));
			added++;
		}
		if (sep)
			start = i + 1;
		else if (brk)
			start = i;
	}
	return added;
}

size_t
text_word_ngrams(const char *w, size_t len, int n,
    void (*fn)(void *, const char *, size_t), void *arg)
{
	char	 pad[TEXT_TOKEN_MAX + 3];
	size_t	 off[TEXT_TOKEN_MAX + 3], np = 0, i;
	int32_t	 cp;
	int	 l;

	if (len == 0)
		return 0;
	if ((l = text_utf8_decode(w, len, &cp)) > 0 && text_is_cjk(cp)) {
		/* Han/Kana: the single characters are the n-grams. */
		if ((size_t)l != len)
			return 0;
		fn(arg, w, len);
		return 1;
	}
	if (len > TEXT_TOKEN_MAX)
		len = text_utf8_cut(w, TEXT_TOKEN_MAX);
	pad[0] = '^';
	memcpy(pad + 1, w, len);
	pad[len + 1] = '$';
	len += 2;
	for (i = 0; i < len; i += (size_t)l) {
		if ((unsigned char)pad[i] < 0x80)
			l = 1;
		else if ((l = text_utf8_decode(pad + i, len - i, &cp)) < 0)
			l = 1;
		off[np++] = i;
	}
	off[np] = len;
	if (np <= (size_t)n) {
		fn(arg, pad, len);
		return 1;
	}
	for (i = 0; i + (size_t)n <= np; i++)
		fn(arg, pad + off[i], off[i + n] - off[i]);
	return np - (size_t)n + 1;
}

struct ngram_list {
	struct strlist	*out;
	size_t		 max;
};

static void
add_ngram(void *arg, const char *t, size_t len)
{
	struct ngram_list *nl = arg;

	if (nl->max == 0 || nl->out->n < nl->max)
		strlist_add_take(nl->out, xstrndup(t, len));
}

size_t
text_char_ngrams(const struct strlist *words, int n, struct strlist *out,
    size_t max)
{
	struct ngram_list	 nl = { out, max };
	size_t			 k, before = out->n;

	for (k = 0; k < words->n; k++) {
		if (max != 0 && out->n >= max)
			break;
		text_word_ngrams(words->v[k], strlen(words->v[k]), n,
		    add_ngram, &nl);
	}
	return out->n - before;
}

char *
text_escape_controls(const char *s)
{
	const unsigned char	*p = (const unsigned char *)(s != NULL ? s : "");
	struct buf		 b;

	buf_init(&b, 0);
	for (; *p != '\0'; p++) {
		if (*p < 0x20 || *p == 0x7f)
			buf_printf(&b, "\\x%02x", *p);
		else if (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f) {
			buf_printf(&b, "\\u%04x", p[1]);
			p++;
		} else
			buf_addc(&b, (char)*p);
	}
	return buf_take(&b);
}

void
text_fputs_safe(const char *s, FILE *fp)
{
	char	*e = text_escape_controls(s);

	fputs(e, fp);
	free(e);
}
