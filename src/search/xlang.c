/*
 * The bilingual lexicon and the glossing of foreign text (xlang.h).
 *
 * Every key is stored in one open-addressing table as "TAG\x1fKEY" with
 * the concept it names; a key may name several concepts. Tags: a
 * language code for its words as written (normalised), "code~" for the
 * same words through the language's stemmer (Polish: their first five
 * letters), "c" for Chinese and Japanese, "k" for Korean, "en" and "en~"
 * for the English glosses (the English side of the language vote).
 */
#include "autoconfig.h"

#include <sys/stat.h>

#include <errno.h>
#include <libstemmer.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "core/config.h"
#include "base/status.h"
#include "base/strlist.h"
#include "base/text.h"
#include "search/xlang.h"
#include "search/xlang_dict.h"
#include "base/xmalloc.h"

#define LEX_MAX		(4u << 20)	/* a sanity cap on the lexicon file */
#define PHRASE_MAX	4		/* words in a multi-word key */
#define RUN_MAX		8		/* characters in a CJK or Hangul key */
#define WORDS_MAX	512		/* words of a text looked at */
#define PFX_LEN		5		/* the Polish "stem" */
#define STEM_MIN	4		/* shorter stems are too ambiguous */
#define XLANG_DICT_LOOKUPS 16		/* dictionary lookups per text */

/* The columns after the English one, in file order. */
enum { L_DE, L_ES, L_FR, L_PT, L_IT, L_NL, L_PL, L_RU, L_ZH, L_JA, L_KO,
	L_N };
#define L_LATIN	L_ZH		/* below: word languages, voted on */

static const char *const lang_code[L_N] = {
	"de", "es", "fr", "pt", "it", "nl", "pl", "ru", "zh", "ja", "ko"
};
static const char *const lang_iso3[L_LATIN] = {
	"deu", "spa", "fra", "por", "ita", "nld", "pol", "rus"
};
static const char *const lang_stemmer[L_LATIN] = {
	"german", "spanish", "french", "portuguese", "italian", "dutch",
	NULL, "russian"
};

/*
 * Function words: evidence of a language that the lexicon's content
 * words alone would often miss in a short text.
 */
static const char *const stop_en =
    "the a an and or of to for in on with from by is are be this that how "
    "what when which use using my our your i we it into about as at do "
    "does can need want should";
/*
 * Each language's list is Snowball's stop list for it (Polish, which
 * Snowball lacks: the commonest function words), less the words that are
 * also English words a query or description uses ("also", "will", "in",
 * "per", "come", "me", "no" ...): those would vote for a language in
 * English text. Normalised as text is (marks stripped), so "würde" and
 * "wären" are found as "wurde" and "waren".
 */
static const char *const stop_lang[L_LATIN] = {
	"der die das den dem des und oder für mit von zu zum zur ist sind "
	"ein eine einen einem einer eines nicht auf aus bei wie was ich wir "
	"mein meine meinem meinen meiner meines im am als nach über aber "
	"alle allem allen aller alles auch bin bis bist damit dann dass daß "
	"dich dies diese diesem diesen dieser dieses doch dort durch etwas "
	"habe haben hat hatte hatten hätte hätten ihr ihre ihrem ihren ihrer "
	"ihres ihm ihn ihnen jede jedem jeden jeder jedes jene jenem jenen "
	"jener jenes jetzt kann kein keine keinem keinen keiner keines können "
	"könnte könnten mich mir muss musste müssen noch nun nur ob ohne sehr "
	"sein seine seinem seinen seiner seines sich sie soll sollen sollte "
	"sondern sonst um uns unser unsere unserem unseren unserer unseres "
	"unter vom vor wann warum weil welche welchem welchen welcher welches "
	"wenn werde werden wird wirst wo wurde wurden würde würden wäre wären "
	"waren warst während wieder wollen wollte zwar zwischen gegen dazu "
	"dein deine deinem deinen deiner deines denn derer dessen du euch "
	"euer eure eurem euren eurer eures einige einigem einigen einiger "
	"einiges einmal gewesen indem manche manchem manchen mancher manches "
	"nichts selbst solche solchem solchen solcher solches viel welche "
	"bitte gibt",
	"el la los las de del y o para con por un una unos unas que en es "
	"son como mi mis al se lo quiero necesito su sus le les ya este esta "
	"estos estas ese esa esos esas eso esto entre cuando muy sobre "
	"también hasta hay donde quien quienes desde todo todos toda todas "
	"nos durante uno ni contra otro otra otros otras ellos ellas ella "
	"antes algunos algunas algo nosotros nosotras vosotros mucho muchos "
	"poco nada cual cuál qué cómo porque pero más mío mía tuyo tuya "
	"suyo suya nuestro nuestra nuestros nuestras tu tus te ti estoy "
	"está estás estamos están estar ser soy eres somos sea sean será "
	"sería fue era eran ha han hemos había haya tengo tiene tienen tener "
	"tenemos puedo puede pueden necesita quieres quiere hacer hace sin "
	"sí él",
	"le la les des du de et ou pour avec par un une est sont comme mon "
	"ma mes au aux en dans sur que qui je nous vous il ils elle elles "
	"leur leurs lui mais même moi ne nos notre pas ses ta tes toi ton "
	"tu vos votre eux ce ces cet cette ceci cela qu quel quels quelle "
	"quelles sans soi suis sommes êtes été était étais avons avez ont "
	"avait avais aurai serai être avoir fait faire peux peut veux veut "
	"dois doit faut ici très aussi tout tous toute toutes l",
	"o a os as de do da dos das e ou para com por um uma que em no na "
	"nos nas é são como meu minha ao quero preciso não mais ele ela eles "
	"elas seu sua seus suas quando muito já eu também só pelo pela pelos "
	"pelas até isso isto aquilo entre depois mesmo aos quem esse essa "
	"esses essas este esta estes estas aquele aquela num numa nem meus "
	"minhas você vocês lhe lhes nosso nossa nossos nossas dele dela deles "
	"delas estou está estamos estão sou somos era eram foi foram tenho "
	"tem temos têm tinha posso pode podem fazer faz qual às sem",
	"il lo la gli le di del della e o per con da un una che in nel è "
	"sono come mio mia voglio al allo ai agli alla alle col coi dal "
	"dallo dai dagli dalla dalle dello dei degli delle nello nei negli "
	"nella nelle sul sullo sui sugli sulla sulle tra fra lui lei noi voi "
	"loro miei mie tuo tua tuoi tue suo sua suoi sue nostro nostra "
	"nostri nostre vostro vostra ne uno ed perché anche dove chi cui "
	"più quale quanto quello quelli quella quelle questo questi questa "
	"queste si tutto tutti tutte ho hai ha abbiamo avete hanno siamo "
	"siete sei era erano sia fa faccio fare sto sta posso può devo "
	"vorrei mi ti",
	"de het een en of voor met van op te in is zijn hoe mijn ik wij naar "
	"bij dat die niet aan als er maar om dan zou wat mijn dit door ze "
	"zich ook tot je mij uit daar haar heb heeft hebben deze nog zal zij "
	"nu geen omdat iets worden toch waren veel meer doen toen moet "
	"zonder kan hun dus alles onder eens hier wie werd altijd wordt "
	"kunnen ons zelf tegen reeds wil kon niets uw iemand geweest andere "
	"onze wilt graag",
	"i w z na do dla oraz lub jest są się od przez jak mój moja mi mnie "
	"czy to ze po za pod nad przy bez aby ale by być ich im jakie je jego "
	"jej już która które który ma mu nam nas nie ta tak tam te tego tej tu "
	"ty we wg żeby nasz nasza naszego naszej nasze moim moimi co gdy "
	"jako jednak także też tylko bardzo może moje moich mojej mojego "
	"twój wasz był była było będzie mam chcę proszę",
	"и в на с для по из от к как мой моя это что не или во со он я а то "
	"все всё она так его но да ты у же вы за бы только ее её мне было "
	"вот меня еще ещё нет о ему когда даже ли если уже ни быть был него "
	"до вас там потом себя ей может они тут где есть надо ней мы тебя "
	"их чем была сам без чего тоже себе под будет тогда кто этот того "
	"потому этого какой ним здесь этом мою мои тем чтобы нее были можно "
	"при об после над больше тот через эти нас про всего них какая "
	"много эту эти свою этой перед между наш наша нашей наши нашего "
	"нашу нужно",
};
#define TAG_STOP	"s"	/* "s" + code: function words */
#define TAG_ANY		"x"	/* a Latin-script word of any language */
static const char *const stop_tag[L_LATIN] = {
	"sde", "ses", "sfr", "spt", "sit", "snl", "spl", "sru"
};

struct xent {
	char		*key;		/* "TAG\x1fKEY" */
	uint32_t	 concept;
};

struct xlang {
	char		 *path;
	char		**en;		/* per concept: its English words */
	size_t		  nconcepts;
	struct xent	 *ent;
	size_t		  nent, capent;
	uint32_t	 *slot;		/* entry + 1, 0: empty */
	uint32_t	 *shash;	/* [nslot] the key hash's low bits */
	size_t		  nslot;	/* a power of two */
	uint64_t	  fp;		/* the lexicon's and the dictionaries' */
	uint64_t	  lexfp;	/* the lexicon's alone */
	struct xdict	**dict;
	size_t		  ndict;
	char		 *dict_dir;	/* where they were looked for */
};

/* ------------------------------------------------------------------ */
/* The table. */

static uint64_t
key_hash(const char *s)
{
	uint64_t	 h = 0xcbf29ce484222325ULL;

	for (; *s != '\0'; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ULL;
	}
	return h ^ (h >> 32);
}

static void
ent_add(struct xlang *xl, const char *tag, const char *key, uint32_t c)
{
	char	*k;

	if (*key == '\0')
		return;
	/* a repeated key and concept is harmless: glosses are deduplicated */
	xasprintf(&k, "%s\x1f%s", tag, key);
	if (xl->nent == xl->capent) {
		xl->capent = xl->capent ? xl->capent * 2 : 1024;
		xl->ent = xreallocarray(xl->ent, xl->capent, sizeof(*xl->ent));
	}
	xl->ent[xl->nent].key = k;
	xl->ent[xl->nent].concept = c;
	xl->nent++;
}

static void
table_build(struct xlang *xl)
{
	size_t	 i, j;

	xl->nslot = 64;
	while (xl->nslot < xl->nent * 2)
		xl->nslot *= 2;
	xl->slot = xcalloc(xl->nslot, sizeof(*xl->slot));
	xl->shash = xcalloc(xl->nslot, sizeof(*xl->shash));
	for (i = 0; i < xl->nent; i++) {
		uint64_t h = key_hash(xl->ent[i].key);

		j = h & (xl->nslot - 1);
		while (xl->slot[j] != 0)
			j = (j + 1) & (xl->nslot - 1);
		xl->slot[j] = (uint32_t)i + 1;
		xl->shash[j] = (uint32_t)h;
	}
}

/*
 * Calls fn(arg, concept) for every concept of TAG\x1fKEY; returns how
 * many there were.
 */
static size_t
table_find(const struct xlang *xl, const char *tag, const char *key,
    void (*fn)(void *, uint32_t), void *arg)
{
	char	 k[512];
	size_t	 j, n = 0, tl = strlen(tag), kl = strlen(key);
	uint64_t h;

	if (xl->nslot == 0 || kl == 0 || tl + kl + 2 > sizeof(k))
		return 0;
	memcpy(k, tag, tl);	/* "TAG\x1fKEY", as ent_add() stores it */
	k[tl] = '\x1f';
	memcpy(k + tl + 1, key, kl + 1);
	h = key_hash(k);
	j = h & (xl->nslot - 1);
	while (xl->slot[j] != 0) {
		const struct xent *e = &xl->ent[xl->slot[j] - 1];

		/* the hash first: most probes are other keys */
		if (xl->shash[j] == (uint32_t)h && strcmp(e->key, k) == 0) {
			if (fn != NULL)
				fn(arg, e->concept);
			n++;
		}
		j = (j + 1) & (xl->nslot - 1);
	}
	return n;
}

/* ------------------------------------------------------------------ */
/* Cutting normalised text into words and runs. */

enum seg_kind { SEG_WORD, SEG_CYR, SEG_CJK, SEG_HANGUL };

struct seg {
	enum seg_kind	 kind;
	const char	*s;
	size_t		 len;
	int		 brk;	/* punctuation before it: no phrase across */
};

static int
is_hangul(int32_t c)
{
	return (c >= 0xAC00 && c <= 0xD7A3) || (c >= 0x1100 && c <= 0x11FF) ||
	    (c >= 0x3130 && c <= 0x318F);
}

static int
is_letter(int32_t c)
{
	if (c < 0x80)
		return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9');
	if (c <= 0xBF || c == 0xD7 || c == 0xF7)
		return 0;
	if ((c >= 0x2000 && c <= 0x2BFF) || (c >= 0x3000 && c <= 0x303F) ||
	    (c >= 0xFE30 && c <= 0xFE4F) || (c >= 0xFF00 && c <= 0xFF0F) ||
	    (c >= 0xFF1A && c <= 0xFF20) || (c >= 0xFF3B && c <= 0xFF40) ||
	    (c >= 0xFF5B && c <= 0xFF65))
		return 0;
	return 1;
}

static enum seg_kind
cp_kind(int32_t c)
{
	if (text_is_cjk(c))
		return SEG_CJK;
	if (is_hangul(c))
		return SEG_HANGUL;
	if (c >= 0x0400 && c <= 0x052F)
		return SEG_CYR;
	return SEG_WORD;
}

/*
 * Cuts normalised text into at most max segments: words of letters (a
 * Cyrillic word is one whose first letter is), and runs of CJK or of
 * Hangul characters. Returns the number of segments.
 */
static size_t
segment(const char *s, struct seg *v, size_t max)
{
	size_t		 n = 0, i = 0, len = strlen(s);
	int		 brk = 1;

	while (i < len && n < max) {
		int32_t		 c;
		int		 l = text_utf8_decode(s + i, len - i, &c);
		enum seg_kind	 k;
		size_t		 start;

		if (l <= 0) {
			i++;
			brk = 1;
			continue;
		}
		if (!is_letter(c) && !text_is_cjk(c) && !is_hangul(c)) {
			if (c != ' ')
				brk = 1;
			i += (size_t)l;
			continue;
		}
		k = cp_kind(c);
		start = i;
		i += (size_t)l;
		while (i < len) {
			int32_t		 d;
			int		 m = text_utf8_decode(s + i, len - i, &d);
			enum seg_kind	 dk;

			if (m <= 0)
				break;
			dk = cp_kind(d);
			if (k == SEG_CJK || k == SEG_HANGUL ? dk != k :
			    (!is_letter(d) || dk == SEG_CJK || dk == SEG_HANGUL))
				break;
			i += (size_t)m;
		}
		v[n].kind = k;
		v[n].s = s + start;
		v[n].len = i - start;
		v[n].brk = brk;
		brk = 0;
		n++;
	}
	return n;
}

/* ------------------------------------------------------------------ */
/* Stemming. */

struct stemmers {
	struct sb_stemmer	*sb[L_LATIN + 1];	/* [L_LATIN]: English */
};

static void
stemmers_done(struct stemmers *st)
{
	size_t	 i;

	for (i = 0; i <= L_LATIN; i++)
		if (st->sb[i] != NULL)
			sb_stemmer_delete(st->sb[i]);
}

/* Writes the stem of word (n bytes) for language l into out (cap). */
static void
stem_word(struct stemmers *st, int l, const char *w, size_t n, char *out,
    size_t cap)
{
	const sb_symbol	*r;
	size_t		 m;

	if (l == L_PL) {
		m = n > PFX_LEN ? text_utf8_cut(w, PFX_LEN) : n;
		if (m > n)
			m = n;
	} else {
		if (st->sb[l] == NULL)
			st->sb[l] = sb_stemmer_new(l == L_LATIN ? "english" :
			    lang_stemmer[l], "UTF_8");
		if (st->sb[l] == NULL ||
		    (r = sb_stemmer_stem(st->sb[l], (const sb_symbol *)w,
		    (int)n)) == NULL) {
			m = n;
		} else {
			w = (const char *)r;
			m = (size_t)sb_stemmer_length(st->sb[l]);
		}
	}
	if (m >= cap)
		m = cap - 1;
	memcpy(out, w, m);
	out[m] = '\0';
}

/*
 * Joins words k..k+n-1 of v into out (cap), stemmed for language l when
 * l >= 0. Returns 0 when they do not fit.
 */
static int
phrase(struct stemmers *st, int l, const struct seg *v, size_t k, size_t n,
    char *out, size_t cap)
{
	size_t	 i, at = 0;
	char	 w[128];

	for (i = 0; i < n; i++) {
		const struct seg *g = &v[k + i];
		size_t wl;

		if (g->len >= sizeof(w))
			return 0;
		if (l >= 0)
			stem_word(st, l, g->s, g->len, w, sizeof(w));
		else {
			memcpy(w, g->s, g->len);
			w[g->len] = '\0';
		}
		wl = strlen(w);
		if (at + wl + 2 > cap)
			return 0;
		if (i > 0)
			out[at++] = ' ';
		memcpy(out + at, w, wl);
		at += wl;
	}
	out[at] = '\0';
	return 1;
}

/* ------------------------------------------------------------------ */
/* Loading. */

static size_t
count_chars(const char *s)
{
	size_t	 n = 0;

	for (; *s != '\0'; s++)
		if (((unsigned char)*s & 0xC0) != 0x80)
			n++;
	return n;
}

/* Adds the keys of one cell (variants separated by '|') for language l. */
static void
add_cell(struct xlang *xl, struct stemmers *st, int l, const char *cell,
    uint32_t c)
{
	struct strlist	 var;
	struct seg	 v[PHRASE_MAX + 1];
	char		 key[512], tag[8];
	size_t		 i, n;

	strlist_init(&var);
	strlist_split(&var, cell, "|");
	for (i = 0; i < var.n; i++) {
		char *norm = text_normalize(var.v[i], (size_t)-1);

		n = segment(norm, v, PHRASE_MAX + 1);
		if (l >= L_LATIN) {
			/* a CJK or Hangul key: its characters, without blanks */
			struct buf b;
			size_t k;

			buf_init(&b, 0);
			for (k = 0; k < n; k++)
				buf_add(&b, v[k].s, v[k].len);
			buf_addc(&b, '\0');
			if (count_chars(b.p) >= 2)
				ent_add(xl, l == L_KO ? "k" : "c", b.p, c);
			buf_done(&b);
		} else if (n >= 1 && n <= PHRASE_MAX) {
			if (phrase(st, -1, v, 0, n, key, sizeof(key))) {
				ent_add(xl, lang_code[l], key, c);
				if (l != L_RU)
					ent_add(xl, TAG_ANY, key, c);
			}
			snprintf(tag, sizeof(tag), "%s~", lang_code[l]);
			if (phrase(st, l, v, 0, n, key, sizeof(key)) &&
			    count_chars(key) >= STEM_MIN)
				ent_add(xl, tag, key, c);
		}
		free(norm);
	}
	strlist_done(&var);
}

static void
add_english(struct xlang *xl, struct stemmers *st, const char *en,
    uint32_t c)
{
	struct seg	 v[16];
	char		 key[128];
	size_t		 i, n;
	char		*norm = text_normalize(en, (size_t)-1);

	n = segment(norm, v, 16);	/* "|" separates like a blank */
	for (i = 0; i < n; i++) {
		if (phrase(st, -1, v, i, 1, key, sizeof(key)))
			ent_add(xl, "en", key, c);
		if (phrase(st, L_LATIN, v, i, 1, key, sizeof(key)))
			ent_add(xl, "en~", key, c);
	}
	free(norm);
}

static void
add_stopwords(struct xlang *xl, const char *tag, const char *words)
{
	char		*norm = text_normalize(words, (size_t)-1);
	struct seg	 v[512];
	char		 key[64];
	size_t		 i, n;

	n = segment(norm, v, sizeof(v) / sizeof(v[0]));
	for (i = 0; i < n; i++)
		if (v[i].len < sizeof(key)) {
			memcpy(key, v[i].s, v[i].len);
			key[v[i].len] = '\0';
			ent_add(xl, tag, key, 0);
		}
	free(norm);
}

static int
parse_line(struct xlang *xl, struct stemmers *st, char *line, size_t lineno,
    char **cause)
{
	char		*col[1 + L_N], *p = line;
	size_t		 n = 0;
	uint32_t	 c;
	int		 l;

	while (n < 1 + L_N) {
		col[n++] = p;
		if ((p = strchr(p, '\t')) == NULL)
			break;
		*p++ = '\0';
	}
	if (n != 1 + L_N || p != NULL) {
		xasprintf(cause, "line %zu: %zu columns, expected %d "
		    "(en and the 11 languages, separated by one tab)", lineno,
		    p != NULL ? n + 1 : n, 1 + L_N);
		return SR_CONFIG;
	}
	if (*col[0] == '\0' || strcmp(col[0], "-") == 0) {
		xasprintf(cause, "line %zu: the English column is empty",
		    lineno);
		return SR_CONFIG;
	}
	c = (uint32_t)xl->nconcepts;
	xl->en = xreallocarray(xl->en, xl->nconcepts + 1, sizeof(*xl->en));
	xl->en[xl->nconcepts++] = xstrdup(col[0]);
	add_english(xl, st, col[0], c);
	for (l = 0; l < L_N; l++)
		if (strcmp(col[1 + l], "-") != 0)
			add_cell(xl, st, l, col[1 + l], c);
	return SR_OK;
}

static int
load_lexicon(struct xlang *xl, const char *path, char **cause)
{
	struct stemmers	 st;
	char		*data = NULL, *line, *next;
	size_t		 len, lineno = 0;
	int		 err, rv = SR_OK;

	if (buf_read_file(path, LEX_MAX, &data, &len) != 0) {
		if ((err = errno) == ENOENT)
			return SR_OK;
		xasprintf(cause, "%s: %s", path, buf_strerror(path, err));
		return SR_IO;
	}
	if (text_utf8_valid(data, len) != len) {
		xasprintf(cause, "%s: not valid UTF-8", path);
		free(data);
		return SR_CONFIG;
	}
	{
		uint64_t h = 0xcbf29ce484222325ULL;
		size_t i;

		for (i = 0; i < len; i++) {
			h ^= (unsigned char)data[i];
			h *= 0x100000001b3ULL;
		}
		xl->fp ^= h;
	}
	memset(&st, 0, sizeof(st));
	for (line = data; line != NULL && *line != '\0'; line = next) {
		lineno++;
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		if (*line != '\0' && line[strlen(line) - 1] == '\r')
			line[strlen(line) - 1] = '\0';
		if (*line == '#' || *line == '\0')
			continue;
		if ((rv = parse_line(xl, &st, line, lineno, cause)) != SR_OK) {
			char *c = *cause;

			xasprintf(cause, "%s: %s", path, c);
			free(c);
			break;
		}
	}
	stemmers_done(&st);
	free(data);
	return rv;
}

int
xlang_open(const char *lexicon_path, const char *dict_dir,
    struct xlang **out, char **cause)
{
	struct xlang	*xl;
	int		 rv = SR_OK, l;

	*out = NULL;
	*cause = NULL;
	xl = xcalloc(1, sizeof(*xl));
	add_stopwords(xl, "sen", stop_en);
	for (l = 0; l < L_LATIN; l++) {
		add_stopwords(xl, stop_tag[l], stop_lang[l]);
		if (l != L_RU)
			add_stopwords(xl, TAG_ANY, stop_lang[l]);
	}
	if (lexicon_path != NULL) {
		xl->path = xstrdup(lexicon_path);
		rv = load_lexicon(xl, lexicon_path, cause);
	}
	if (rv != SR_OK) {
		xlang_free(xl);
		return rv;
	}
	table_build(xl);
	xl->lexfp = xl->fp;
	if (dict_dir != NULL)
		xl->dict = xdict_scan(dict_dir, &xl->ndict, &xl->fp);
	*out = xl;
	return SR_OK;
}

void
xlang_free(struct xlang *xl)
{
	size_t	 i;

	if (xl == NULL)
		return;
	for (i = 0; i < xl->nconcepts; i++)
		free(xl->en[i]);
	free(xl->en);
	for (i = 0; i < xl->nent; i++)
		free(xl->ent[i].key);
	free(xl->ent);
	free(xl->slot);
	free(xl->shash);
	for (i = 0; i < xl->ndict; i++)
		xdict_free(xl->dict[i]);
	free(xl->dict);
	free(xl->dict_dir);
	free(xl->path);
	free(xl);
}

/* ------------------------------------------------------------------ */
/*
 * The parsed lexicon is cached in the data directory (xlang.cache):
 * parsing stems every key in every language, about 10 ms, which a CLI
 * search cannot afford; reading the cache is a fraction of that. The
 * cache names the lexicon's path, size and mtime and the built-in
 * function-word lists (a binary with other lists must not read a cache
 * of the old ones); any difference, or a damaged file, and the lexicon
 * is parsed again (and the cache rewritten when the directory is
 * writable).
 *
 * Format: "SRXLANG1", the u64 stamp, the u64 fingerprint, u32 concepts,
 * u32 entries, then each concept's English (NUL-terminated), then each
 * entry's u32 concept and key (NUL-terminated), native byte order.
 */
#define CACHE_MAGIC	"SRXLANG1"

static uint64_t
lexicon_stamp(const char *path, const struct stat *st)
{
	uint64_t	 h = 0xcbf29ce484222325ULL;
	int64_t		 v[3];
	size_t		 i;
	const char	*w;
	int		 l;

	for (; *path != '\0'; path++) {
		h ^= (unsigned char)*path;
		h *= 0x100000001b3ULL;
	}
	for (l = -1; l < L_LATIN; l++)
		for (w = l < 0 ? stop_en : stop_lang[l]; *w != '\0'; w++) {
			h ^= (unsigned char)*w;
			h *= 0x100000001b3ULL;
		}
	v[0] = (int64_t)st->st_size;
	v[1] = (int64_t)st->st_mtime;
	v[2] = (int64_t)st->st_mtim.tv_nsec;
	for (i = 0; i < sizeof(v); i++) {
		h ^= ((const unsigned char *)v)[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

static void
cache_write(const struct xlang *xl, const char *path, uint64_t stamp)
{
	struct buf	 b;
	uint32_t	 n;
	size_t		 i;
	char		*cause = NULL;

	buf_init(&b, 0);
	buf_add(&b, CACHE_MAGIC, 8);
	buf_add(&b, &stamp, sizeof(stamp));
	buf_add(&b, &xl->fp, sizeof(xl->fp));
	n = (uint32_t)xl->nconcepts;
	buf_add(&b, &n, sizeof(n));
	n = (uint32_t)xl->nent;
	buf_add(&b, &n, sizeof(n));
	for (i = 0; i < xl->nconcepts; i++)
		buf_add(&b, xl->en[i], strlen(xl->en[i]) + 1);
	for (i = 0; i < xl->nent; i++) {
		buf_add(&b, &xl->ent[i].concept, sizeof(uint32_t));
		buf_add(&b, xl->ent[i].key, strlen(xl->ent[i].key) + 1);
	}
	(void)buf_save(path, b.p, b.len, 0644, 1, &cause);	/* best effort */
	free(cause);
	buf_done(&b);
}

static struct xlang *
cache_read(const char *path, uint64_t stamp)
{
	struct xlang	*xl;
	char		*data = NULL;
	const char	*str;
	size_t		 len, at;
	uint64_t	 v;
	uint32_t	 nc, ne, i, c;

	if (buf_read_file(path, 4 * LEX_MAX, &data, &len) != 0)
		return NULL;
	if (len < 32 || memcmp(data, CACHE_MAGIC, 8) != 0 ||
	    (memcpy(&v, data + 8, 8), v) != stamp) {
		free(data);
		return NULL;
	}
	xl = xcalloc(1, sizeof(*xl));
	memcpy(&xl->fp, data + 16, 8);
	xl->lexfp = xl->fp;
	memcpy(&nc, data + 24, 4);
	memcpy(&ne, data + 28, 4);
	at = 32;
	if (nc > len || ne > len)
		goto bad;
	xl->en = xreallocarray(NULL, nc + 1, sizeof(*xl->en));
	for (i = 0; i < nc; i++) {
		if ((str = buf_cstr_at(data, len, &at)) == NULL)
			goto bad;
		xl->en[xl->nconcepts++] = xstrdup(str);
	}
	xl->ent = xreallocarray(NULL, ne + 1, sizeof(*xl->ent));
	xl->capent = ne + 1;
	for (i = 0; i < ne; i++) {
		if (at + 4 > len)
			goto bad;
		memcpy(&c, data + at, 4);
		at += 4;
		if ((str = buf_cstr_at(data, len, &at)) == NULL || c >= nc)
			goto bad;
		xl->ent[xl->nent].key = xstrdup(str);
		xl->ent[xl->nent++].concept = c;
	}
	if (at != len)
		goto bad;
	free(data);
	return xl;
bad:
	free(data);
	xlang_free(xl);
	return NULL;
}

int
xlang_open_default(struct xlang **out, char **cause)
{
	const char	*dd = getenv("SKILLS_RADAR_DICT_DIR");
	char		*dir, *path, *cpath;
	struct stat	 st;
	uint64_t	 stamp = 0;
	int		 rv = SR_OK, cached = 0;

	*out = NULL;
	*cause = NULL;
	if (dd == NULL)
		dd = XDICT_DIR;
	dir = config_pkgdata_dir();
	xasprintf(&path, "%s/xlang/lexicon.tsv", dir);
	free(dir);
	dir = config_data_dir();
	xasprintf(&cpath, "%s/xlang.cache", dir);
	free(dir);
	if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
		stamp = lexicon_stamp(path, &st);
		if ((*out = cache_read(cpath, stamp)) != NULL) {
			cached = 1;
			(*out)->path = xstrdup(path);
			table_build(*out);
			if (*dd != '\0')
				(*out)->dict = xdict_scan(dd, &(*out)->ndict,
				    &(*out)->fp);
		}
	}
	if (!cached) {
		rv = xlang_open(path, *dd != '\0' ? dd : NULL, out, cause);
		if (rv == SR_OK && stamp != 0 && (*out)->nconcepts > 0) {
			uint64_t fp = (*out)->fp;

			/* the cache holds the lexicon's own fingerprint */
			(*out)->fp = (*out)->lexfp;
			cache_write(*out, cpath, stamp);
			(*out)->fp = fp;
		}
	}
	if (rv == SR_OK) {
		(*out)->dict_dir = *dd != '\0' ? xstrdup(dd) : NULL;
		dir = config_data_dir();
		xdict_cache_dir((*out)->dict, (*out)->ndict, dir);
		free(dir);
	}
	free(cpath);
	free(path);
	return rv;
}

static struct xlang	*deflt;
static pthread_once_t	 deflt_once = PTHREAD_ONCE_INIT;

uint64_t
xlang_default_stamp(void)
{
	const char	*dd = getenv("SKILLS_RADAR_DICT_DIR");
	char		*dir, *path;
	struct stat	 st;
	uint64_t	 h = 0;

	dir = config_pkgdata_dir();
	xasprintf(&path, "%s/xlang/lexicon.tsv", dir);
	free(dir);
	if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
		h = lexicon_stamp(path, &st);
	free(path);
	if (dd == NULL)
		dd = XDICT_DIR;
	if (*dd != '\0')
		xdict_stamp(dd, &h);
	return h;
}

static void
deflt_init(void)
{
	char	*cause = NULL;

	if (xlang_open_default(&deflt, &cause) != SR_OK) {
		/* search works without it; doctor reports the cause */
		free(cause);
		(void)xlang_open(NULL, NULL, &deflt, &cause);
		free(cause);
	}
}

const struct xlang *
xlang_default(void)
{
	pthread_once(&deflt_once, deflt_init);
	return deflt;
}

/* ------------------------------------------------------------------ */
/* Glossing. */

struct gloss {
	const struct xlang	*xl;
	struct strlist		*out;
	size_t			 max, added;
	uint32_t		 seen[64];	/* concepts already glossed */
	size_t			 dict_left;	/* dictionary lookups left */
	size_t			 nseen;
	struct buf		*render;	/* NULL, or the text in English */
	int			 japanese;	/* the text has kana */
	size_t			 covered;	/* words or characters glossed */
	size_t			 uncovered;	/* and the content ones not */
	xlang_known_fn		 known;		/* NULL, or the collection's test */
	void			*known_arg;
};

/* Appends n bytes of s to the rendering, blank-separated. */
static void
render_add(struct gloss *g, const char *s, size_t n)
{
	if (g->render == NULL || n == 0)
		return;
	if (g->render->len > 0)
		buf_addc(g->render, ' ');
	buf_add(g->render, s, n);
}

/*
 * Renders the items of out from index from on (the senses one lookup
 * added). With a collection to translate for (g->known), only the senses
 * it has words of, XLANG_RENDER_SENSES at most, or the first sense when
 * it has none: a sense no skill uses matches nothing and would only
 * dilute the query (each counts as a term found nowhere), and one word's
 * eight senses would outweigh a word with one.
 */
static void
render_from(struct gloss *g, size_t from)
{
	size_t	 i, kept = 0;

	if (g->known == NULL) {
		for (; from < g->out->n; from++)
			render_add(g, g->out->v[from],
			    strlen(g->out->v[from]));
		return;
	}
	for (i = from; i < g->out->n && kept < XLANG_RENDER_SENSES; i++)
		if (g->known(g->known_arg, g->out->v[i])) {
			render_add(g, g->out->v[i], strlen(g->out->v[i]));
			kept++;
		}
	if (kept == 0 && from < g->out->n)
		render_add(g, g->out->v[from], strlen(g->out->v[from]));
}

static void
gloss_concept(void *arg, uint32_t c)
{
	struct gloss	*g = arg;
	struct strlist	 w;
	size_t		 i;

	for (i = 0; i < g->nseen; i++)
		if (g->seen[i] == c)
			return;
	if (g->nseen < sizeof(g->seen) / sizeof(g->seen[0]))
		g->seen[g->nseen++] = c;
	render_add(g, g->xl->en[c], strcspn(g->xl->en[c], "|"));
	strlist_init(&w);
	strlist_split(&w, g->xl->en[c], " |");
	for (i = 0; i < w.n && g->out->n < g->max; i++)
		if (strlist_add_unique(g->out, w.v[i], 1))
			g->added++;
	strlist_done(&w);
}

/* Whether word g is one of language l's function words. */
static int
is_function_word(const struct xlang *xl, int l, const struct seg *g)
{
	char	 w[64], tag[8];

	if (g->len >= sizeof(w))
		return 0;
	memcpy(w, g->s, g->len);
	w[g->len] = '\0';
	snprintf(tag, sizeof(tag), TAG_STOP "%s", lang_code[l]);
	return table_find(xl, tag, w, NULL, NULL) > 0 ||
	    table_find(xl, "sen", w, NULL, NULL) > 0;
}

/* One vote per language for a word found in its column or stop list. */
static int
word_vote(const struct xlang *xl, struct stemmers *st, const struct seg *g,
    int votes[L_LATIN + 1])
{
	char	 w[128], s[128], tag[8];
	int	 l, hit = 0, en;

	if (g->len >= sizeof(w))
		return 0;
	memcpy(w, g->s, g->len);
	w[g->len] = '\0';
	stem_word(st, L_LATIN, w, g->len, s, sizeof(s));
	en = table_find(xl, "en", w, NULL, NULL) > 0 ||
	    table_find(xl, "en~", s, NULL, NULL) > 0 ||
	    table_find(xl, "sen", w, NULL, NULL) > 0;
	for (l = 0; l < L_LATIN; l++) {
		int	 h;

		if (l == L_RU)
			continue;	/* Cyrillic words are never English */
		snprintf(tag, sizeof(tag), TAG_STOP "%s", lang_code[l]);
		h = table_find(xl, tag, w, NULL, NULL) > 0 ||
		    table_find(xl, lang_code[l], w, NULL, NULL) > 0;
		if (!h) {
			stem_word(st, l, w, g->len, s, sizeof(s));
			snprintf(tag, sizeof(tag), "%s~", lang_code[l]);
			h = count_chars(s) >= STEM_MIN &&
			    table_find(xl, tag, s, NULL, NULL) > 0;
		}
		if (h && !en)
			votes[l]++;
		hit |= h;
	}
	if (en && !hit)
		votes[L_LATIN]++;
	return hit;
}

/*
 * Glosses words from v[k] in language l, longest phrase first; returns
 * how many words were consumed (0: none matched).
 */
static size_t
gloss_words(struct gloss *g, struct stemmers *st, int l, const struct seg *v,
    size_t k, size_t n)
{
	char	 key[512], tag[8];
	size_t	 m, i;

	for (m = PHRASE_MAX; m >= 1; m--) {
		if (k + m > n)
			continue;
		for (i = 1; i < m; i++)
			if (v[k + i].brk || v[k + i].kind != v[k].kind)
				break;
		if (i < m)
			continue;
		if (phrase(st, -1, v, k, m, key, sizeof(key)) &&
		    table_find(g->xl, lang_code[l], key, gloss_concept, g) > 0)
			return m;
		snprintf(tag, sizeof(tag), "%s~", lang_code[l]);
		if (phrase(st, l, v, k, m, key, sizeof(key)) &&
		    count_chars(key) >= STEM_MIN &&
		    table_find(g->xl, tag, key, gloss_concept, g) > 0)
			return m;
	}
	return 0;
}

static int
is_katakana(int32_t c)
{
	return (c >= 0x30A0 && c <= 0x30FF) || (c >= 0x31F0 && c <= 0x31FF);
}

static int
is_han(int32_t c)
{
	return text_is_cjk(c) && !(c >= 0x3040 && c <= 0x30FF) &&
	    !(c >= 0x31F0 && c <= 0x31FF);
}

static int
is_hiragana(int32_t c)
{
	return c >= 0x3040 && c <= 0x309F;
}

/*
 * Renders n bytes of s as written, but in Japanese text without its
 * hiragana: what is left there after the lookups is particles and
 * inflections ("の", "して"), which no skill shares with the query and
 * which, kept, only add unknown terms that lower every score of the
 * rendering (the search divides by the query's whole idf mass).
 */
static void
render_raw(struct gloss *g, const char *s, size_t n)
{
	size_t	 at = 0, from = 0;
	int32_t	 c;
	int	 cl;

	if (!g->japanese) {
		render_add(g, s, n);
		return;
	}
	while (at < n) {
		cl = text_utf8_decode(s + at, n - at, &c);
		if (cl <= 0)
			cl = 1;
		else if (is_hiragana(c)) {
			render_add(g, s + from, at - from);
			from = at + (size_t)cl;
		}
		at += (size_t)cl;
	}
	render_add(g, s + from, n - from);
}

/*
 * Looks the kanji and katakana stretches of an unmatched span of
 * Japanese up in the jpn-eng dictionaries, longest match first (at least
 * two characters); renders what stays unmatched as written.
 */
static void
dict_span(struct gloss *g, const char *s, size_t len)
{
	size_t	 at = 0, raw = 0, off[RUN_MAX + 1], nc, m, from;
	int32_t	 c, c0;
	int	 cl, matched;

	while (at < len) {
		cl = text_utf8_decode(s + at, len - at, &c0);
		if (cl <= 0 || !g->japanese || g->dict_left == 0 ||
		    (!is_katakana(c0) && !is_han(c0))) {
			at += cl > 0 ? (size_t)cl : 1;
			continue;
		}
		/* the next characters of the same script */
		off[0] = at;
		for (nc = 0; nc < RUN_MAX && off[nc] < len; nc++) {
			cl = text_utf8_decode(s + off[nc], len - off[nc], &c);
			if (cl <= 0 || is_katakana(c) != is_katakana(c0) ||
			    (!is_katakana(c) && !is_han(c)))
				break;
			off[nc + 1] = off[nc] + (size_t)cl;
		}
		matched = 0;
		for (m = nc; m >= 2 && g->dict_left > 0 && !matched; m--) {
			g->dict_left--;
			from = g->out->n;
			if (xdict_gloss_word(g->xl->dict, g->xl->ndict, s + at,
			    off[m] - at, "jpn", g->out, g->max) > 0) {
				render_raw(g, s + raw, at - raw);
				g->added += g->out->n - from;
				g->covered += m;
				render_from(g, from);
				raw = off[m];
				matched = 1;
			}
		}
		at = matched ? raw : off[1];
	}
	render_raw(g, s + raw, len - raw);
}

/* The characters of s (n bytes) but hiragana (which is not content). */
static size_t
content_chars(const char *s, size_t n)
{
	size_t	 at = 0, c = 0;
	int32_t	 cp;
	int	 cl;

	while (at < n) {
		cl = text_utf8_decode(s + at, n - at, &cp);
		if (cl <= 0)
			cl = 1;
		else if (!is_hiragana(cp))
			c++;
		at += (size_t)cl;
	}
	return c;
}

/* Glosses a run of CJK ("c") or Hangul ("k") by longest match. */
static void
gloss_run(struct gloss *g, const char *tag, const struct seg *r)
{
	size_t	 at = 0, raw = 0, off[RUN_MAX + 1], nc, m, total;
	size_t	 covered0 = g->covered;
	char	 key[RUN_MAX * 4 + 1];

	while (at < r->len && g->out->n < g->max) {
		int32_t	 c;
		int	 cl;

		/* the offsets of the next RUN_MAX characters */
		off[0] = at;
		for (nc = 0; nc < RUN_MAX && off[nc] < r->len; nc++) {
			cl = text_utf8_decode(r->s + off[nc], r->len - off[nc],
			    &c);
			off[nc + 1] = off[nc] + (size_t)(cl > 0 ? cl : 1);
		}
		for (m = nc; m >= 2; m--) {
			size_t kl = off[m] - at;

			memcpy(key, r->s + at, kl);
			key[kl] = '\0';
			if (table_find(g->xl, tag, key, NULL, NULL) > 0)
				break;
		}
		if (m < 2) {
			at = off[1];
			continue;
		}
		dict_span(g, r->s + raw, at - raw);
		memcpy(key, r->s + at, off[m] - at);
		key[off[m] - at] = '\0';
		table_find(g->xl, tag, key, gloss_concept, g);
		g->covered += m;
		at = raw = off[m];
	}
	dict_span(g, r->s + raw, r->len - raw);
	total = content_chars(r->s, r->len);
	if (total > g->covered - covered0)
		g->uncovered += total - (g->covered - covered0);
}

/*
 * A dictionary lookup of word w in language l (xlang_dict.h): as written,
 * else by its stem (an inflected form: "Bußgelder", "prepárame").
 */
static size_t
gloss_dict(struct gloss *g, struct stemmers *st, int l, const struct seg *w)
{
	size_t	 from = g->out->n, n;
	char	 word[128], stem[128];

	if (g->dict_left == 0 || g->xl->ndict == 0 ||
	    is_function_word(g->xl, l, w) || w->len >= sizeof(word))
		return 0;
	g->dict_left--;
	n = xdict_gloss_word(g->xl->dict, g->xl->ndict, w->s, w->len,
	    lang_iso3[l], g->out, g->max);
	if (n == 0 && g->dict_left > 0) {
		memcpy(word, w->s, w->len);
		word[w->len] = '\0';
		stem_word(st, l, word, w->len, stem, sizeof(stem));
		if (strcmp(stem, word) != 0) {
			g->dict_left--;
			n = xdict_gloss_stem(g->xl->dict, g->xl->ndict, stem,
			    strlen(stem), lang_iso3[l], g->out, g->max);
		}
	}
	g->added += n;
	render_from(g, from);
	return n;
}

/*
 * Whether some Latin word of v is, as written, a word of another language
 * and not an English one: without such a word no language can outvote
 * English, and the stemming vote is skipped.
 */
static int
foreign_evidence(const struct xlang *xl, const struct seg *v, size_t n)
{
	char	 w[64];
	size_t	 i;

	for (i = 0; i < n; i++) {
		if (v[i].kind != SEG_WORD || v[i].len >= sizeof(w))
			continue;
		memcpy(w, v[i].s, v[i].len);
		w[v[i].len] = '\0';
		if (table_find(xl, TAG_ANY, w, NULL, NULL) > 0 &&
		    table_find(xl, "en", w, NULL, NULL) == 0 &&
		    table_find(xl, "sen", w, NULL, NULL) == 0)
			return 1;
	}
	return 0;
}

/*
 * Whether function words alone show the Latin words of v to be English:
 * two English ones at least, more than twice any other language's. Most
 * skill descriptions are settled so, without stemming every word in
 * every language (which made building the search index ten times
 * slower).
 */
static int
reads_english(const struct xlang *xl, const struct seg *v, size_t n)
{
	char	 w[64];
	size_t	 i, en = 0, other[L_LATIN];
	int	 l;

	memset(other, 0, sizeof(other));
	for (i = 0; i < n; i++) {
		if (v[i].kind != SEG_WORD || v[i].len >= sizeof(w))
			continue;
		memcpy(w, v[i].s, v[i].len);
		w[v[i].len] = '\0';
		if (table_find(xl, "sen", w, NULL, NULL) > 0)
			en++;
		for (l = 0; l < L_LATIN; l++)
			if (table_find(xl, stop_tag[l], w, NULL, NULL) > 0)
				other[l]++;
	}
	if (en < 2)
		return 0;
	for (l = 0; l < L_LATIN; l++)
		if (2 * other[l] >= en)
			return 0;
	return 1;
}

/*
 * The languages the Latin words of v read as (bit l), 0 when English or
 * none does more.
 */
static unsigned
vote(const struct xlang *xl, struct stemmers *st, const struct seg *v,
    size_t n)
{
	int		 votes[L_LATIN + 1], best = 0, l;
	unsigned	 langs = 0;
	size_t		 i;

	if (!foreign_evidence(xl, v, n) || reads_english(xl, v, n))
		return 0;
	memset(votes, 0, sizeof(votes));
	for (i = 0; i < n; i++)
		if (v[i].kind == SEG_WORD)
			word_vote(xl, st, &v[i], votes);
	for (l = 0; l < L_LATIN; l++)
		if (votes[l] > best)
			best = votes[l];
	if (best <= votes[L_LATIN])
		return 0;
	for (l = 0; l < L_LATIN; l++)
		if (votes[l] == best)
			langs |= 1u << l;
	return langs;
}

/* Whether s (n bytes) is a word of language l, as written or stemmed. */
static int
lookup_word(struct gloss *g, struct stemmers *st, int l, const char *s,
    size_t n, int emit)
{
	struct seg	 w = { SEG_WORD, s, n, 0 };
	char		 key[128], tag[8];
	void		(*fn)(void *, uint32_t) = emit ? gloss_concept : NULL;

	if (n < 3 || n >= sizeof(key))
		return 0;
	if (phrase(st, -1, &w, 0, 1, key, sizeof(key)) &&
	    table_find(g->xl, lang_code[l], key, fn, g) > 0)
		return 1;
	snprintf(tag, sizeof(tag), "%s~", lang_code[l]);
	return phrase(st, l, &w, 0, 1, key, sizeof(key)) &&
	    count_chars(key) >= STEM_MIN &&
	    table_find(g->xl, tag, key, fn, g) > 0;
}

/*
 * German and Dutch write compounds as one word: "Kundendatenbank" is
 * glossed as its two parts when both are words of the lexicon (a linking
 * "s" or "n" after the first part allowed), the longest head first.
 */
static int
gloss_compound(struct gloss *g, struct stemmers *st, int l,
    const struct seg *w)
{
	size_t	 i, k;

	if (w->len < 8)
		return 0;
	for (i = 3; i + 4 <= w->len; i++) {
		if (((unsigned char)w->s[i] & 0xC0) == 0x80)
			continue;
		for (k = 0; k <= 1; k++) {
			size_t hl = i - k;

			if (k == 1 && w->s[i - 1] != 's' && w->s[i - 1] != 'n')
				continue;
			if (!lookup_word(g, st, l, w->s + i, w->len - i, 0) ||
			    !lookup_word(g, st, l, w->s, hl, 0))
				continue;
			lookup_word(g, st, l, w->s, hl, 1);
			lookup_word(g, st, l, w->s + i, w->len - i, 1);
			return 1;
		}
	}
	return 0;
}

/* Glosses the Latin or Cyrillic word at v[i]; returns the words used. */
static size_t
gloss_word_at(struct gloss *g, struct stemmers *st, unsigned langs,
    const struct seg *v, size_t i, size_t n)
{
	size_t	 used = 0;
	int	 l;

	if (v[i].kind == SEG_CYR)
		langs = 1u << L_RU;
	for (l = 0; l < L_LATIN && used == 0; l++)
		if (langs & (1u << l))
			used = gloss_words(g, st, l, v, i, n);
	for (l = 0; l < L_LATIN && used == 0; l++)
		if ((langs & (1u << l)) && (l == L_DE || l == L_NL) &&
		    gloss_compound(g, st, l, &v[i]))
			used = 1;
	for (l = 0; l < L_LATIN && used == 0; l++)
		if ((langs & (1u << l)) && gloss_dict(g, st, l, &v[i]) > 0)
			used = 1;
	return used;
}

static int
has_kana(const char *s)
{
	size_t	 i, len = strlen(s);
	int32_t	 c;
	int	 l;

	for (i = 0; i < len; i += l > 0 ? (size_t)l : 1)
		if ((l = text_utf8_decode(s + i, len - i, &c)) > 0 &&
		    c >= 0x3040 && c <= 0x30FF && c != 0x30FB && c != 0x30FC)
			return 1;
	return 0;
}

/*
 * Whether the Latin or Cyrillic word g of a text read as langs is a
 * content word: not one of those languages' (Cyrillic: Russian)
 * function words, nor of the English ones.
 */
static int
content_word(const struct xlang *xl, unsigned langs, const struct seg *g)
{
	int	 l;

	if (g->kind == SEG_CYR)
		langs = 1u << L_RU;
	for (l = 0; l < L_LATIN; l++)
		if ((langs & (1u << l)) && is_function_word(xl, l, g))
			return 0;
	return 1;
}

static size_t
gloss_text(const struct xlang *xl, const char *text, struct strlist *out,
    size_t max, struct buf *render, double *covered, xlang_known_fn known,
    void *known_arg)
{
	struct gloss	 g;
	struct stemmers	 st;
	struct seg	*v;
	char		*norm;
	size_t		 n, i, used;
	unsigned	 langs;

	if (xl == NULL || text == NULL || xl->nconcepts == 0 ||
	    out->n >= max)
		return 0;
	memset(&g, 0, sizeof(g));
	g.xl = xl;
	g.out = out;
	g.max = max;
	g.render = render;
	g.known = known;
	g.known_arg = known_arg;
	g.dict_left = XLANG_DICT_LOOKUPS;
	memset(&st, 0, sizeof(st));
	norm = text_normalize(text, (size_t)-1);
	v = xreallocarray(NULL, WORDS_MAX, sizeof(*v));
	n = segment(norm, v, WORDS_MAX);
	langs = vote(xl, &st, v, n);
	g.japanese = has_kana(norm);
	for (i = 0; i < n; i += used ? used : 1) {
		used = 0;
		if (out->n >= max)
			;	/* full: the rest as written */
		else if (v[i].kind == SEG_CJK)
			gloss_run(&g, "c", &v[i]), used = 1;
		else if (v[i].kind == SEG_HANGUL)
			gloss_run(&g, "k", &v[i]), used = 1;
		else if (v[i].kind == SEG_CYR || langs != 0) {
			used = gloss_word_at(&g, &st, langs, v, i, n);
			if (used > 0)
				g.covered += used;
			else if (!content_word(xl, langs, &v[i]))
				used = 1;	/* a function word: no English */
			else
				g.uncovered++;
		}
		if (used == 0)
			render_add(&g, v[i].s, v[i].len);
	}
	stemmers_done(&st);
	free(v);
	free(norm);
	if (covered != NULL)
		*covered = g.covered + g.uncovered > 0 ? (double)g.covered /
		    (double)(g.covered + g.uncovered) : 0;
	return g.added;
}

size_t
xlang_gloss(const struct xlang *xl, const char *text, struct strlist *out,
    size_t max)
{
	return gloss_text(xl, text, out, max, NULL, NULL, NULL, NULL);
}

char *
xlang_render(const struct xlang *xl, const char *text, size_t max)
{
	return xlang_render_cover(xl, text, max, NULL);
}

char *
xlang_render_cover(const struct xlang *xl, const char *text, size_t max,
    double *covered)
{
	return xlang_render_for(xl, text, max, covered, NULL, NULL);
}

char *
xlang_render_for(const struct xlang *xl, const char *text, size_t max,
    double *covered, xlang_known_fn known, void *known_arg)
{
	struct strlist	 g;
	struct buf	 b;
	size_t		 n;

	if (covered != NULL)
		*covered = 0;
	strlist_init(&g);
	buf_init(&b, 0);
	n = gloss_text(xl, text, &g, max, &b, covered, known, known_arg);
	strlist_done(&g);
	if (n == 0) {
		buf_done(&b);
		if (covered != NULL)
			*covered = 0;
		return NULL;
	}
	buf_addc(&b, '\0');
	return buf_take(&b);
}

uint64_t
xlang_fingerprint(const struct xlang *xl)
{
	return xl != NULL ? xl->fp ^ xl->nconcepts : 0;
}

size_t
xlang_nconcepts(const struct xlang *xl)
{
	return xl != NULL ? xl->nconcepts : 0;
}

size_t
xlang_ndicts(const struct xlang *xl)
{
	return xl != NULL ? xl->ndict : 0;
}

const char *
xlang_dict_name(const struct xlang *xl, size_t i)
{
	return xl != NULL && i < xl->ndict ? xdict_name(xl->dict[i]) : NULL;
}

const char *
xlang_dict_dir(const struct xlang *xl)
{
	return xl != NULL ? xl->dict_dir : NULL;
}

const char *
xlang_lexicon_path(const struct xlang *xl)
{
	return xl != NULL ? xl->path : NULL;
}
