/*
 * The gists of the Tier-1 mini-index (miniindex.h): what one line says
 * about a skill besides its name. A full gist is a description's first
 * sentence cut to a number of characters (miniindex_summary()); under a
 * tight budget a gist is a run of keywords (miniindex_keywords()), which
 * the mini-index deals out a word at a time from a plan made once per
 * skill (struct miniindex_gist_plan). A skill whose description says no
 * more than its name gets its gist from its when_to_use, else from the
 * first prose paragraph of its SKILL.md, made safe by the sanitiser.
 *
 * Strings returned are allocated and owned by the caller (free()). A plan
 * is owned by the caller (miniindex_gist_plan_free()); the pointers its
 * accessors return stay valid until then. The skill and sanitiser are
 * borrowed for the call only. miniindex_summary() and miniindex_keywords()
 * keep the names they had when they lived in miniindex.c.
 */
#ifndef SR_MINIINDEX_GIST_H
#define SR_MINIINDEX_GIST_H

#include <stddef.h>

struct miniindex_gist_plan;
struct sanitizer;
struct skill;

/*
 * The gist of a description: whitespace collapsed, the first sentence,
 * at most max characters (code points), cut at a word (or, for text
 * without spaces, a grapheme) boundary with "…", a final period dropped.
 * "" for an empty description. Allocated.
 */
char	*miniindex_summary(const char *description, size_t max);

/*
 * A keyword gist for tight budgets: the first sentence (or, when it says
 * nothing more than the name, the next) without filler words ("use",
 * "when", "the", ...), bare numbers, punctuation or words of the skill's
 * name, cut at a word (text without spaces: a few characters) to at most
 * max characters and max_tokens estimated tokens, no ellipsis. The
 * mini-index deals these words out one at a time. Allocated.
 */
char	*miniindex_keywords(const char *description, const char *name,
	    size_t max, size_t max_tokens);

/*
 * The keyword plan of skill s: the words its keyword gists may hold, at
 * most max characters of them, worked out once so that the gists of many
 * budgets share the work. When the description gives no words, the plan
 * is made from the skill's when_to_use or, with san (may be NULL: none),
 * from the first prose paragraph of its body that raises no sanitiser
 * finding at warn or above. Returns the plan (never NULL); free it with
 * miniindex_gist_plan_free().
 */
struct miniindex_gist_plan *miniindex_gist_plan_new(const struct skill *s,
	    const struct sanitizer *san, size_t max);
/* Frees a plan; NULL does nothing. */
void	 miniindex_gist_plan_free(struct miniindex_gist_plan *);

/* The number of keywords the plan holds (0: no gist for this skill). */
size_t	 miniindex_gist_plan_words(const struct miniindex_gist_plan *);

/*
 * The description (or body gist) from the sentence the plan's words come
 * from, for a full gist with miniindex_summary(). Owned by the plan.
 */
const char *miniindex_gist_plan_source(const struct miniindex_gist_plan *);

/*
 * The first w keywords (1 <= w <= miniindex_gist_plan_words()) one space
 * apart: returns the start of the plan's words and sets *len to the bytes
 * of the first w. Not NUL-terminated at *len; owned by the plan.
 */
const char *miniindex_gist_plan_prefix(const struct miniindex_gist_plan *,
	    size_t w, size_t *len);

#endif
