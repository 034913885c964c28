/*
 * The cross-lingual glosses (xlang.c) and the dictd reader (xlang_dict.c)
 * over the fixtures in tests/data/xlang: a small lexicon, a malformed
 * one, and two tiny dictionaries (deu-eng uncompressed, jpn-eng in
 * dictzip chunks of 40 bytes, so entries span chunks).
 */
#include "autoconfig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/status.h"
#include "base/strlist.h"
#include "search/xlang.h"
#include "search/xlang_dict.h"
#include "search/xlang_inv.h"
#include "tap.h"

static char *
fixture(const char *rel)
{
	const char	*top = getenv("TOP_SRCDIR");
	char		*p;
	size_t		 n;

	if (top == NULL || *top == '\0')
		top = SR_SRCDIR;
	n = strlen(top) + strlen(rel) + 32;
	p = malloc(n);
	snprintf(p, n, "%s/tests/data/xlang/%s", top, rel);
	return p;
}

/* The glosses of text, joined by blanks ("" for none). */
static char *
gloss(const struct xlang *xl, const char *text)
{
	struct strlist	 g;
	char		*s;

	strlist_init(&g);
	xlang_gloss(xl, text, &g, 48);
	s = strlist_join(&g, " ");
	strlist_done(&g);
	return s;
}

static int
has_word(const char *list, const char *w)
{
	size_t		 n = strlen(w);
	const char	*p;

	for (p = list; (p = strstr(p, w)) != NULL; p += n)
		if ((p == list || p[-1] == ' ') &&
		    (p[n] == '\0' || p[n] == ' '))
			return 1;
	return 0;
}

#define GLOSSES(xl, text, ...) do {					\
	const char *_want[] = { __VA_ARGS__ };				\
	char *_g = gloss(xl, text);					\
	size_t _i;							\
	int _all = 1;							\
	for (_i = 0; _i < sizeof(_want) / sizeof(_want[0]); _i++)	\
		_all &= has_word(_g, _want[_i]);			\
	if (!ok(_all, "%s -> %s", text, _want[0]))			\
		diag("got \"%s\"", _g);					\
	free(_g);							\
} while (0)

static void
test_lexicon(void)
{
	struct xlang	*xl;
	char		*path = fixture("lexicon.tsv"), *cause = NULL, *g;

	is_int(xlang_open(path, NULL, &xl, &cause), SR_OK, "lexicon loads");
	is_int(xlang_nconcepts(xl), 14, "14 concepts");
	is_int(xlang_ndicts(xl), 0, "no dictionaries asked for");

	/* a query in another language gets English glosses */
	GLOSSES(xl, "Rechnungen aus der Datenbank extrahieren", "invoice",
	    "database", "extract");
	GLOSSES(xl, "crear una presentación de ventas", "create",
	    "presentation", "sales");
	GLOSSES(xl, "base de datos de clientes", "database", "customer");
	GLOSSES(xl, "analyse des risques du contrat", "analysis", "risk",
	    "contract");
	GLOSSES(xl, "faktury klientów", "invoice", "customer");
	GLOSSES(xl, "проверка безопасности", "security", "review");
	GLOSSES(xl, "请审查这份合同的风险", "review", "contract", "risk");
	GLOSSES(xl, "データを分析する", "data", "analysis");
	GLOSSES(xl, "데이터를 분석해 주세요", "data", "analysis");
	GLOSSES(xl, "Kundendatenbank analysieren", "customer", "database",
	    "analysis");

	/* English is never glossed, whatever words it shares */
	g = gloss(xl, "extract invoices from the customer database");
	is_str(g, "", "an English text gets no glosses");
	free(g);
	{
		double	 c = -1;
		char	*r;

		r = xlang_render_cover(xl, "Rechnungen extrahieren", 24, &c);
		ok(r != NULL && c == 1, "all of a query translated: 1 (%g)", c);
		free(r);
		r = xlang_render_cover(xl, "die Rechnungen und Quittungen",
		    24, &c);
		ok(r != NULL && c == 0.5,
		    "one of two content words: 0.5, function words aside (%g)",
		    c);
		free(r);
		r = xlang_render_cover(xl, "请审查合同的风险", 24, &c);
		ok(r != NULL && c > 0.5 && c < 1,
		    "Chinese: the share of characters glossed (%g)", c);
		free(r);
		r = xlang_render_cover(xl, "review the contract risk", 24, &c);
		ok(r == NULL && c == 0, "English: no rendering, 0");
	}
	ok(xlang_render(xl, "review the contract risk", 24) == NULL,
	    "an English text has no rendering");

	/* the rendering: known words in English, the rest as written */
	g = xlang_render(xl, "Rechnungen extrahieren", 24);
	is_str(g, "invoice extract", "a German query rendered in English");
	free(g);
	/* function words carry no meaning into English: left out, the
	 * subjunctive and the polite ones too (marks stripped) */
	g = xlang_render(xl, "bitte die Rechnungen wären zu extrahieren",
	    24);
	is_str(g, "invoice extract", "German function words are not rendered");
	free(g);
	g = xlang_render(xl, "请审查合同", 24);
	ok(g != NULL && strstr(g, "请") != NULL &&
	    strstr(g, "review contract") != NULL,
	    "unknown CJK characters stay, in one run");
	free(g);

	/* bad input answers nothing and does not crash */
	g = gloss(xl, "\xff\xfe Rechnung \xc3");
	ok(has_word(g, "invoice"), "invalid UTF-8 around a known word");
	free(g);
	is_int(xlang_gloss(xl, NULL, NULL, 0), 0, "NULL text");
	{
		char *big = malloc(200000);

		memset(big, 'a', 199999);
		big[199999] = '\0';
		g = gloss(xl, big);
		is_str(g, "", "a 200 kB word");
		free(g);
		free(big);
	}
	xlang_free(xl);
	free(path);
}

static void
test_bad_lexicon(void)
{
	struct xlang	*xl;
	char		*path = fixture("bad-columns.tsv"), *cause = NULL;

	is_int(xlang_open(path, NULL, &xl, &cause), SR_CONFIG,
	    "a line with two columns is an error");
	ok(xl == NULL && cause != NULL && strstr(cause, "line 2") != NULL &&
	    strstr(cause, "bad-columns.tsv") != NULL,
	    "the message names the file and the line");
	free(cause);
	free(path);

	path = fixture("no-such-lexicon.tsv");
	is_int(xlang_open(path, NULL, &xl, &cause), SR_OK,
	    "a missing lexicon is an empty one");
	is_int(xlang_nconcepts(xl), 0, "no concepts");
	ok(xlang_render(xl, "Rechnungen", 24) == NULL, "and no rendering");
	xlang_free(xl);
	free(path);
}

static int
only_quick(void *arg, const char *g)
{
	(void)arg;
	return strcmp(g, "quick") == 0;
}

static int
knows_nothing(void *arg, const char *g)
{
	(void)arg;
	(void)g;
	return 0;
}

/*
 * Checks which senses of "schnell" (fast, then quick) the rendering of a
 * German text keeps for the collection known.
 */
static void
senses(const struct xlang *xl, xlang_known_fn known, int fast, int quick,
    const char *what)
{
	char	*r = xlang_render_for(xl, "schnelle Rechnung zur Bestellung",
	    24, NULL, known, NULL);

	ok(r != NULL && has_word(r, "fast") == fast &&
	    has_word(r, "quick") == quick, "%s (%s)", what, r);
	free(r);
}

static void
test_dictionaries(void)
{
	struct xlang	*xl, *bare;
	struct xdict	**v;
	char		*path = fixture("lexicon.tsv"), *dir = fixture("dict");
	char		*cause = NULL, *def;
	size_t		 n;
	uint64_t	 fp = 0;

	v = xdict_scan(dir, &n, &fp);
	is_int(n, 2, "two XXX-eng dictionaries");
	is_str(n > 0 ? xdict_name(v[0]) : NULL, "deu-eng", "deu-eng first");
	is_str(n > 1 ? xdict_lang(v[1]) : NULL, "jpn", "then jpn");
	if (n == 2) {
		is_int(xdict_define(v[1], "仮説", &def, &cause), SR_OK,
		    "an entry read across dictzip chunks");
		ok(def != NULL && strstr(def, "hypothesis") != NULL,
		    "its definition");
		free(def);
		is_int(xdict_define(v[0], "Größe", &def, &cause), SR_OK,
		    "a headword with an umlaut, found normalised");
		free(def);
		is_int(xdict_define(v[0], "nichtda", &def, &cause),
		    SR_NOTFOUND, "an unknown word");
	}
	for (; n > 0; n--)
		xdict_free(v[n - 1]);
	free(v);

	is_int(xlang_open(path, dir, &xl, &cause), SR_OK,
	    "lexicon and dictionaries");
	is_int(xlang_ndicts(xl), 2, "both dictionaries noted");
	/* the lexicon makes the text German; the dictionary adds words */
	GLOSSES(xl, "schnelle Rechnung zur Bestellung", "invoice", "order");
	GLOSSES(xl, "Lieferant und Rechnung", "supplier", "invoice");
	/* katakana the lexicon lacks, from jpn-eng */
	GLOSSES(xl, "レプリケーションのデータ", "replication", "data");
	GLOSSES(xl, "ライフサイクルの分析", "life", "cycle", "analysis");
	{
		char *r = xlang_render(xl, "レプリケーションのデータ", 24);

		ok(r != NULL && strstr(r, "replication") != NULL &&
		    strstr(r, "の") == NULL,
		    "the rendering drops hiragana particles (%s)", r);
		free(r);
	}

	/* rendered for a collection: the senses it has, else the first
	 * one, never all of them */
	senses(xl, only_quick, 0, 1, "a sense the collection has replaces one "
	    "it lacks");
	senses(xl, knows_nothing, 1, 0, "none had: the first sense alone");
	senses(xl, NULL, 1, 1, "no collection: every sense");

	is_int(xlang_open(path, NULL, &bare, &cause), SR_OK, "again, bare");
	ok(xlang_fingerprint(xl) != xlang_fingerprint(bare),
	    "dictionaries change the fingerprint (the search cache key)");
	GLOSSES(bare, "Rechnung zur Bestellung", "invoice");
	{
		char *g = gloss(bare, "Rechnung zur Bestellung");

		ok(!has_word(g, "order"), "without them, no dictionary words");
		free(g);
	}
	xlang_free(bare);
	xlang_free(xl);
	free(dir);
	free(path);
}

/* dictd's base64 of v (most significant digit first) into out. */
static void
b64(unsigned long v, char *out)
{
	const char	*d = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	    "0123456789+/";
	char		 t[16];
	size_t		 n = 0, i;

	do {
		t[n++] = d[v % 64];
		v /= 64;
	} while (v > 0);
	for (i = 0; i < n; i++)
		out[i] = t[n - 1 - i];
	out[n] = '\0';
}

/*
 * A deu-eng dictionary large enough that a headword with "ß" or an
 * umlaut sorts far (as bytes) from its folded spelling: 400 "bussh..."
 * and "prug..." fillers lie between "bussgeld" and "bußgeld", "prufen"
 * and "prüfen". Written at run time into dir.
 */
static void
write_big_dict(const char *dir)
{
	FILE		*di, *dd;
	char		 path[512], o[16], l[16], hw[64], def[128];
	unsigned long	 off = 0;
	int		 i;

	snprintf(path, sizeof(path), "%s/freedict-deu-eng.index", dir);
	di = fopen(path, "w");
	snprintf(path, sizeof(path), "%s/freedict-deu-eng.dict", dir);
	dd = fopen(path, "w");
	for (i = 0; i < 404; i++) {
		/*
		 * Sorted as bytes: "bestellung", 200 "bussh" fillers,
		 * "bußgeld", 200 "prug" fillers, "prüfen", "prüfung".
		 */
		static const char *const word[] = { "bestellung", "bußgeld",
		    "prüfen", "prüfung" };
		static const char *const sense[] = { "order", "fine; penalty",
		    "to check", "examination" };
		int w = i == 0 ? 0 : i == 201 ? 1 : i == 402 ? 2 :
		    i == 403 ? 3 : -1;

		if (w >= 0)
			snprintf(hw, sizeof(hw), "%s", word[w]);
		else
			snprintf(hw, sizeof(hw), i < 201 ? "bussh%03d" :
			    "prug%03d", i);
		snprintf(def, sizeof(def), "%s\n%s\n", hw,
		    w >= 0 ? sense[w] : "filler");
		b64(off, o);
		b64((unsigned long)strlen(def), l);
		fprintf(di, "%s\t%s\t%s\n", hw, o, l);
		fputs(def, dd);
		off += strlen(def);
	}
	fclose(di);
	fclose(dd);
}

/* Folded words find accented headwords; stems find dictionary forms. */
static void
test_accents_and_stems(void)
{
	const char	*tmp = getenv("TMPDIR");
	char		 dir[400], path[512];
	struct xdict	**v;
	struct strlist	 out;
	size_t		 n;
	uint64_t	 fp = 0;
	char		*g;

	snprintf(dir, sizeof(dir), "%s/sr-xlang-test.XXXXXX",
	    tmp != NULL && *tmp != '\0' ? tmp : "/tmp");
	if (mkdtemp(dir) == NULL) {
		ok(0, "mkdtemp");
		return;
	}
	write_big_dict(dir);
	v = xdict_scan(dir, &n, &fp);
	is_int(n, 1, "the generated dictionary");
	strlist_init(&out);
	is_int(xdict_gloss_word(v, n, "bussgeld", 8, "deu", &out, 24), 1,
	    "\"bussgeld\" finds \"bußgeld\" past 200 \"buss\" headwords");
	g = strlist_join(&out, " ");
	ok(has_word(g, "fine"), "and its English (%s)", g);
	free(g);
	strlist_done(&out);
	strlist_init(&out);
	ok(xdict_gloss_word(v, n, "prufen", 6, "deu", &out, 24) > 0 &&
	    strlist_contains(&out, "check", 1), "\"prufen\" finds \"prüfen\"");
	strlist_done(&out);
	strlist_init(&out);
	ok(xdict_gloss_word(v, n, "bestell", 7, "deu", &out, 24) == 0,
	    "a stem is not a headword");
	ok(xdict_gloss_stem(v, n, "bestell", 7, "deu", &out, 24) > 0 &&
	    strlist_contains(&out, "order", 1),
	    "but finds the headword it begins (\"bestellung\")");
	strlist_done(&out);
	strlist_init(&out);
	ok(xdict_gloss_stem(v, n, "prufung", 7, "deu", &out, 24) > 0 &&
	    strlist_contains(&out, "examination", 1),
	    "a stem equal to an accented headword (\"prüfung\")");
	strlist_done(&out);
	strlist_init(&out);
	is_int(xdict_gloss_stem(v, n, "prufu", 5, "deu", &out, 24), 0,
	    "but a stem's accented spellings are not tried as prefixes");
	strlist_done(&out);
	strlist_init(&out);
	ok(xdict_gloss_stem(v, n, "bestellq", 8, "deu", &out, 24) > 0 &&
	    strlist_contains(&out, "order", 1),
	    "a stem with an ending left is cut back (\"bestellq\")");
	strlist_done(&out);
	strlist_init(&out);
	is_int(xdict_gloss_stem(v, n, "bestexyz", 8, "deu", &out, 24), 0,
	    "by XDICT_STEM_CUT characters at most");
	is_int(xdict_gloss_stem(v, n, "best", 4, "deu", &out, 24), 0,
	    "a stem under XDICT_STEM_MIN characters is not looked up");
	is_int(xdict_gloss_stem(v, n, "zzzzzz", 6, "deu", &out, 24), 0,
	    "nor found when no headword begins with it");
	strlist_done(&out);
	for (; n > 0; n--)
		xdict_free(v[n - 1]);
	free(v);
	snprintf(path, sizeof(path), "%s/freedict-deu-eng.index", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/freedict-deu-eng.dict", dir);
	unlink(path);
	rmdir(dir);
}

/* Writes a plain dictd dictionary of n entries (headword, text) to dir. */
static void
write_dict(const char *dir, const char *name, const char *const *e,
    size_t n)
{
	FILE		*di, *dd;
	char		 path[512], o[16], l[16];
	unsigned long	 off = 0;
	size_t		 i;

	snprintf(path, sizeof(path), "%s/freedict-%s.index", dir, name);
	di = fopen(path, "w");
	snprintf(path, sizeof(path), "%s/freedict-%s.dict", dir, name);
	dd = fopen(path, "w");
	for (i = 0; i < n; i++) {
		b64(off, o);
		b64((unsigned long)strlen(e[2 * i + 1]), l);
		fprintf(di, "%s\t%s\t%s\n", e[2 * i], o, l);
		fputs(e[2 * i + 1], dd);
		off += strlen(e[2 * i + 1]);
	}
	fclose(di);
	fclose(dd);
}

static void
rm_dict(const char *dir, const char *name)
{
	char	 path[512];

	snprintf(path, sizeof(path), "%s/freedict-%s.index", dir, name);
	unlink(path);
	snprintf(path, sizeof(path), "%s/freedict-%s.dict", dir, name);
	unlink(path);
}

#define INV_GLOSS(v, n, w, want, msg) do {				\
	struct strlist _o;						\
	char *_j;							\
	strlist_init(&_o);						\
	xdict_gloss_word(v, n, w, strlen(w), "pol", &_o, 24);		\
	_j = strlist_join(&_o, " ");					\
	if (!ok((want) == NULL ? _o.n == 0 : has_word(_j, want),	\
	    "%s: %s", w, msg))						\
		diag("got \"%s\"", _j);					\
	free(_j);							\
	strlist_done(&_o);						\
} while (0)

/* A process's lookup of w in the dictionaries of dir, caching there. */
static void
cached_gloss(const char *dir, const char *w, const char *want,
    const char *msg)
{
	struct xdict	**v;
	size_t		  n;
	uint64_t	  fp = 0;

	v = xdict_scan(dir, &n, &fp);
	xdict_cache_dir(v, n, dir);
	INV_GLOSS(v, n, w, want, msg);
	for (; n > 0; n--)
		xdict_free(v[n - 1]);
	free(v);
}

/*
 * eng-pol read backwards (xlang_inv.h): Debian has no pol-eng. An eng-deu
 * next to a deu-eng is not used.
 */
static void
test_inverted(void)
{
	static const char *const pol[] = {
		"conversation", "conversation /k/ <N>\n 1.  rozmowa\n"
		    " 2.  have a conversation (have V: :a :conversation)\n"
		    " - rozmawiać\n",
		"monthly", "monthly /m/\nI.  <Adj>  comiesięczny\n"
		    "II.  <N>  miesięcznik\n",
		"note", "note /n/\nI.  <N> 1.  notatka\n"
		    " 2.  [służbowa]  nota, uwaga\n",
		"subordinate", "subordinate /s/ <N>\n  podwładny\n",
		"trade union", "trade union <N>\n  związek zawodowy\n",
	};
	static const char *const deu[] = { "haus", "Haus\nhouse\n" };
	static const char *const eng_deu[] = { "house", "house\nHaus\n" };
	const char	*tmp = getenv("TMPDIR");
	char		 dir[400];
	struct xdict	**v;
	size_t		 n, i;
	uint64_t	 fp = 0;
	int		 pl = -1;

	snprintf(dir, sizeof(dir), "%s/sr-xlang-inv.XXXXXX",
	    tmp != NULL && *tmp != '\0' ? tmp : "/tmp");
	if (mkdtemp(dir) == NULL) {
		ok(0, "mkdtemp");
		return;
	}
	write_dict(dir, "eng-pol", pol, 5);
	write_dict(dir, "deu-eng", deu, 1);
	write_dict(dir, "eng-deu", eng_deu, 1);
	v = xdict_scan(dir, &n, &fp);
	is_int(n, 2, "deu-eng and eng-pol; not eng-deu (deu-eng is there)");
	for (i = 0; i < n; i++)
		if (strcmp(xdict_name(v[i]), "eng-pol") == 0)
			pl = (int)i;
	ok(pl >= 0 && strcmp(xdict_lang(v[pl]), "pol") == 0,
	    "eng-pol glosses Polish");
	INV_GLOSS(v, n, "rozmowa", "conversation", "a translation");
	INV_GLOSS(v, n, "rozmow", "conversation", "its genitive plural");
	INV_GLOSS(v, n, "notatki", "note", "a plural, by the stem");
	INV_GLOSS(v, n, "podwladnymi", "subordinate", "an instrumental");
	INV_GLOSS(v, n, "comiesiecznych", "monthly", "a genitive adjective");
	INV_GLOSS(v, n, "uwaga", "note", "a later item of a sense");
	INV_GLOSS(v, n, "rozmawiac", NULL, "an idiom's translation is not");
	INV_GLOSS(v, n, "zwiazek", NULL, "nor a multi-word headword's");
	INV_GLOSS(v, n, "xyzzyq", NULL, "an unknown word");
	for (; n > 0; n--)
		xdict_free(v[n - 1]);
	free(v);
	/* the map kept in a cache file, read back by the next process */
	{
		char path[512];
		FILE *f;

		snprintf(path, sizeof(path), "%s/xlang-eng-pol.cache", dir);
		cached_gloss(dir, "notatki", "note", "built, with a cache dir");
		ok(access(path, R_OK) == 0, "the map was written to the cache");
		cached_gloss(dir, "notatki", "note", "read back from the cache");
		cached_gloss(dir, "zwiazek", NULL, "... with nothing added");
		f = fopen(path, "r+");
		fputs("SRXINV01 damaged", f);
		fclose(f);
		cached_gloss(dir, "podwladnymi", "subordinate",
		    "a damaged cache is rebuilt");
		f = fopen(path, "w");
		fclose(f);
		cached_gloss(dir, "rozmowa", "conversation", "so is an empty one");
		unlink(path);
	}
	/* a dictionary that cannot be read loses its glosses, no more */
	{
		char path[512];
		FILE *f;

		snprintf(path, sizeof(path), "%s/freedict-eng-pol.dict", dir);
		f = fopen(path, "w");
		fclose(f);
		v = xdict_scan(dir, &n, &fp);
		INV_GLOSS(v, n, "rozmowa", NULL, "an emptied dictionary");
		for (; n > 0; n--)
			xdict_free(v[n - 1]);
		free(v);
	}
	rm_dict(dir, "eng-pol");
	rm_dict(dir, "deu-eng");
	rm_dict(dir, "eng-deu");
	rmdir(dir);
}

int
main(void)
{
	test_lexicon();
	test_bad_lexicon();
	test_dictionaries();
	test_accents_and_stems();
	test_inverted();
	return done_testing();
}
