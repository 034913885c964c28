/*
 * Unit tests for the text pipeline: normalisation, tokens per script,
 * stop-words, stemming, name parts, n-grams.
 */
#include <stdlib.h>
#include <string.h>

#include "base/strlist.h"
#include "base/text.h"
#include "base/xmalloc.h"
#include "tap.h"

static struct text_ctx *ctx;

/* Tokens of s joined with '|'. */
static char *
toks(const char *s, int flags)
{
	struct strlist	 l;
	char		*j;

	strlist_init(&l);
	text_tokenize(ctx, s, flags, &l, 0);
	j = strlist_join(&l, "|");
	strlist_done(&l);
	return j;
}

static void
is_toks(const char *s, int flags, const char *want, const char *what)
{
	char	*got = toks(s, flags);

	is_str(got, want, "%s", what);
	free(got);
}

static void
is_norm(const char *s, const char *want, const char *what)
{
	char	*got = text_normalize(s, (size_t)-1);

	is_str(got, want, "%s", what);
	free(got);
}

static void
is_split(const char *name, const char *want)
{
	struct strlist	 l;
	char		*j;

	strlist_init(&l);
	text_split_name(name, &l);
	j = strlist_join(&l, "|");
	is_str(j, want, "name split %s", name);
	free(j);
	strlist_done(&l);
}

int
main(void)
{
	struct strlist	 l, w;
	char		*s, *j;
	const char	 bad[] = "ab\xff\xfe" "cd\xc3";
	char		 big[5000];

	xmalloc_init();
	ctx = text_ctx_new();

	/* normalisation */
	is_norm("Zażółć Gęślą Jaźń", "zazolc gesla jazn", "Polish diacritics fold");
	is_norm("Größe STRASSE", "grosse strasse", "German sharp s folds to ss");
	is_norm("Ñandú café naïve", "nandu cafe naive", "Spanish/French marks");
	is_norm("\xef\xac\x81le \xef\xbc\xa1\xef\xbc\xa2", "file ab",
	    "NFKC: ligature and fullwidth letters");
	is_norm("ØRESUND Æbler", "oresund aebler", "Nordic letters folded by hand");
	is_norm("a\tb\nc", "a b c", "controls become spaces");
	s = text_normalize(bad, sizeof(bad) - 1);
	is_str(s, "ab  cd ", "invalid UTF-8 bytes become spaces");
	free(s);
	is_norm("\xcc\x81", "", "a lone combining mark vanishes");
	is_norm("ガギ", "ガギ", "kana voicing marks are kept");
	s = text_normalize("", (size_t)-1);
	is_str(s, "", "empty string");
	free(s);

	/* tokens, per script */
	is_toks("Hello, World! foo_bar", 0, "hello|world|foo|bar",
	    "Latin words split on punctuation");
	is_toks("the tests are running", TEXT_INDEX, "test|run",
	    "stop-words dropped, English stemmed");
	is_toks("Die Größe der Dateien", TEXT_STOP, "grosse|dateien",
	    "German: stop-words and ß");
	is_toks("Zażółć gęślą jaźń", TEXT_STOP, "zazolc|gesla|jazn",
	    "Polish words folded");
	is_toks("实现计划", 0, "实现|现计|计划", "Chinese: overlapping bigrams");
	is_toks("テスト", 0, "テス|スト", "Katakana: bigrams");
	is_toks("ひらがな", 0, "ひら|らが|がな", "Hiragana: bigrams");
	is_toks("中", 0, "中", "a lone Han character is a unigram");
	is_toks("中文", TEXT_CJK_UNI, "中文|中|文", "unigrams on request");
	is_toks("PDF表单填写 tool", 0, "pdf|表单|单填|填写|tool",
	    "mixed Latin and Han");
	is_toks("WBSのExcelを", 0, "wbs|の|excel|を", "Latin between kana");
	is_toks("sc2086 e24", 0, "sc2086|e24", "letters and digits stay together");
	is_toks("a b c", TEXT_STOP, "", "single letters dropped with stop-words");
	is_toks("Привет мир", 0, "привет|мир", "Cyrillic lower-cased");

	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	strlist_init(&l);
	text_tokenize(ctx, big, 0, &l, 0);
	ok(l.n == 1 && strlen(l.v[0]) == TEXT_TOKEN_MAX,
	    "a 5000-byte word is cut to TEXT_TOKEN_MAX");
	strlist_done(&l);
	strlist_init(&l);
	text_tokenize(ctx, "one two three four five six", 0, &l, 3);
	is_int(l.n, 3, "max_tokens caps the list");
	strlist_done(&l);
	strlist_init(&l);
	text_tokenize(ctx, bad, 0, &l, 0);
	j = strlist_join(&l, "|");
	is_str(j, "ab|cd", "invalid UTF-8 splits words");
	free(j);
	strlist_done(&l);

	/* stop-words and stems */
	ok(text_is_stopword("the") && text_is_stopword("und") &&
	    text_is_stopword("quiero") && text_is_stopword("jest"),
	    "stop-words of en, de, es, pl");
	ok(!text_is_stopword("pdf") && !text_is_stopword("go"),
	    "content words are not stop-words");
	s = text_stem(ctx, "connections");
	is_str(s, "connect", "Snowball English stem");
	free(s);
	s = text_stem(ctx, "größe");
	is_str(s, "größe", "non-ASCII words are not stemmed");
	free(s);
	s = text_stem(NULL, "running");
	is_str(s, "running", "no context: no stemming");
	free(s);

	/* name parts */
	is_split("pdf-form-filler", "pdf|form|filler");
	is_split("pdfFormFiller", "pdf|Form|Filler");
	is_split("HTTPServer", "HTTP|Server");
	is_split("agent:code_review", "agent|code|review");
	is_split("--", "");

	/* character n-grams */
	strlist_init(&w);
	strlist_init(&l);
	strlist_add(&w, "ab");
	strlist_add(&w, "langchain");
	strlist_add(&w, "计划");
	strlist_add(&w, "计");
	text_char_ngrams(&w, 4, &l, 0);
	is_int(l.n, 1 + 8 + 1, "n-grams: short word whole, 8 of langchain, "
	    "CJK unigram only");
	is_str(l.v[0], "^ab$", "short word padded");
	is_str(l.v[1], "^lan", "first 4-gram");
	is_str(l.v[8], "ain$", "last 4-gram");
	is_str(l.v[9], "计", "CJK unigram passes");
	strlist_done(&l);
	strlist_done(&w);

	/* UTF-8 helpers */
	is_int(text_utf8_cut("aé", 2), 1, "cut does not split é");
	is_int(text_utf8_cut("aé", 3), 3, "cut keeps a whole é");
	ok(text_is_cjk(0x4E2D) && text_is_cjk(0x30C6) && !text_is_cjk('a') &&
	    !text_is_cjk(0xAC00), "CJK ranges: Han and Kana, not Hangul");

	/* base64 digits, both alphabets */
	ok(text_b64_digit('A') == 0 && text_b64_digit('z') == 51 &&
	    text_b64_digit('9') == 61 && text_b64_digit('+') == 62 &&
	    text_b64_digit('-') == 62 && text_b64_digit('/') == 63 &&
	    text_b64_digit('_') == 63, "base64 digits, standard and URL-safe");
	ok(text_b64_digit('=') == -1 && text_b64_digit('\t') == -1 &&
	    text_b64_digit(0xC3) == -1, "not base64 digits: '=', tab, 0xC3");

	text_ctx_free(ctx);
	return done_testing();
}
