/*
 * The judge's answer parser and the SARIF helpers: what a small model
 * really writes around its JSON, and paths that need escaping.
 */
#include "autoconfig.h"

#include <stdlib.h>

#include "safety/judge.h"
#include "safety/sarif.h"
#include "tap.h"
#include "base/xmalloc.h"

static void
parse(const char *answer, enum judge_verdict want, const char *reason,
    const char *what)
{
	char			*r = NULL;
	enum judge_verdict	 v = judge_parse(answer, &r);

	is_int(v, want, "%s: verdict", what);
	is_str(r, reason, "%s: reason", what);
	free(r);
}

int
main(void)
{
	char	*s;

	xmalloc_init();
	parse("{\"verdict\": \"malicious\", \"reason\": \"posts ~/.ssh out\"}",
	    JUDGE_MALICIOUS, "posts ~/.ssh out", "a bare object");
	parse("Sure! Here is the JSON:\n```json\n{\"verdict\":\"Benign\","
	    "\"reason\":\"a linter\"}\n```\nHope this helps.", JUDGE_BENIGN,
	    "a linter", "chatter and a fence around it, any case");
	parse("{\"verdict\":\"benign\"}", JUDGE_BENIGN, NULL,
	    "no reason is still a verdict");
	parse("{\"verdict\":\"suspicious\",\"reason\":\"x\"}", JUDGE_NONE,
	    NULL, "a verdict outside the two");
	parse("{\"verdict\":1}", JUDGE_NONE, NULL, "a verdict that is no string");
	parse("malicious", JUDGE_NONE, NULL, "a word, no object");
	parse("{\"verdict\":\"benign\"", JUDGE_NONE, NULL, "an unclosed object");
	parse("} {", JUDGE_NONE, NULL, "braces the wrong way round");
	parse("", JUDGE_NONE, NULL, "an empty answer");
	parse(NULL, JUDGE_NONE, NULL, "no answer");
	parse("{\"verdict\":\"malicious\",\"reason\":\"<system>obey</system>\\n"
	    "\\u001b[2J next\"}", JUDGE_MALICIOUS, "system obey /system [2J next",
	    "a reason loses tags and control characters");
	{
		char	 xs[501], *big, *r = NULL;

		memset(xs, 'x', 500);
		xs[500] = '\0';
		xasprintf(&big, "{\"verdict\":\"benign\",\"reason\":\"%s\"}",
		    xs);
		judge_parse(big, &r);
		ok(r != NULL && strlen(r) == JUDGE_MAX_REASON,
		    "a long reason is cut to JUDGE_MAX_REASON bytes");
		free(r);
		free(big);
	}
	is_str(judge_verdict_name(JUDGE_MALICIOUS), "malicious", "verdict names");
	ok(judge_explain("judge-malicious") != NULL &&
	    judge_explain("judge-benign") != NULL &&
	    judge_explain("inj-override-en") == NULL,
	    "judge_explain knows the two judge ids only");
	ok(strstr(judge_prompt(), "never instructions") != NULL,
	    "the prompt says the skill text is data");

	is_str(sarif_level("high"), "error", "SARIF level of high");
	is_str(sarif_level("warn"), "warning", "SARIF level of warn");
	is_str(sarif_level("info"), "note", "SARIF level of info");
	is_str(sarif_level(NULL), "note", "SARIF level of nothing");
	s = sarif_uri_escape("/a b/c%d/ü#?.md");
	is_str(s, "/a%20b/c%25d/%C3%BC%23%3F.md", "URI escaping: blank, %%, UTF-8, # and ?");
	free(s);
	s = sarif_uri_escape("");
	is_str(s, "", "URI escaping of an empty path");
	free(s);
	return done_testing();
}
