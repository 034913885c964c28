/*
 * Unit tests for vocab: which words of a query no searchable entry has,
 * with the entries' text cut, folded and stemmed as search indexes it.
 */
#include <stdlib.h>
#include <string.h>

#include "core/skill.h"
#include "base/strlist.h"
#include "search/vocab.h"
#include "base/xmalloc.h"
#include "tap.h"

static struct skill *
mk(struct skill_set *set, const char *name, const char *desc,
    const char *when, const char *tags)
{
	struct skill	*s = skill_new();

	s->name = xstrdup(name);
	s->uid = xstrdup(name);
	xasprintf(&s->path, "/skills/%s/SKILL.md", name);
	s->scope = xstrdup("user");
	s->description = xstrdup(desc);
	s->when_to_use = xstrdup(when);
	if (tags != NULL)
		strlist_split(&s->tags, tags, ",");
	skill_set_add(set, s);
	return s;
}

/* The unknown words of q joined with '|', and their count. */
static void
is_unknown(const struct vocab *v, const char *q, const char *want,
    const char *what)
{
	struct strlist	 l;
	char		*j;
	size_t		 n;

	strlist_init(&l);
	n = vocab_unknown(v, q, &l);
	j = strlist_join(&l, "|");
	is_str(j, want, "%s", what);
	ok(n == l.n, "%s: the count is the number listed", what);
	free(j);
	strlist_done(&l);
}

int
main(void)
{
	struct skill_set	 set;
	struct vocab		*v;
	struct skill		*s;

	xmalloc_init();
	skill_set_init(&set);
	mk(&set, "pdfFormFiller", "Fill in PDF forms.",
	    "When a user sends invoices.", "ocr");
	mk(&set, "db-migrate", "数据库迁移工具", "", NULL);
	s = mk(&set, "shadowed-copy", "Zebra crossings.", "", NULL);
	s->shadowed_by = xstrdup("/skills/pdfFormFiller/SKILL.md");
	s = mk(&set, "hidden", "Walrus facts.", "", NULL);
	s->disable_model_invocation = 1;
	v = vocab_new(&set);

	is_unknown(v, "filler form", "", "name parts of a camelCase name are known");
	is_unknown(v, "migrate the db", "", "hyphenated name parts are known");
	is_unknown(v, "an invoice", "", "when_to_use counts, stemmed: invoice = invoices");
	is_unknown(v, "OCR", "", "tags count, case folded");
	is_unknown(v, "Filling frobnicate the PDF", "frobnicate",
	    "an unknown word is listed as typed, stop-words never");
	is_unknown(v, "zebra walrus", "zebra|walrus",
	    "words of shadowed and hidden entries do not count");
	is_unknown(v, "frobnicate (frobnicate), frobnicate.",
	    "frobnicate", "each word once, without the punctuation around it");
	is_unknown(v, "数据库", "", "Chinese: a word sharing a bigram is known");
	is_unknown(v, "天气", "天气", "Chinese: a word with no known bigram is listed");
	is_unknown(v, "hmac:0123456789abcdef", "", "a hashed query has no words");
	is_unknown(v, "", "", "an empty query has none");
	vocab_free(v);

	skill_set_done(&set);
	skill_set_init(&set);
	v = vocab_new(&set);
	is_unknown(v, "pdf forms", "pdf|forms", "an empty index knows no word");
	vocab_free(v);
	vocab_free(NULL);
	ok(1, "vocab_free(NULL) is a no-op");
	skill_set_done(&set);
	return done_testing();
}
