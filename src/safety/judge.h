/*
 * The model judge (sanitization.judge.*): an optional second opinion from
 * an Ollama model on the skills whose risk score is in the grey zone
 * (sanitization.judge.min_score <= score < max_score). The skill's text
 * goes to /api/generate as data between two delimiter lines, under a
 * fixed classification prompt (judge_prompt(), documented in
 * skills-radar.yaml(5)); the model must answer one JSON object
 * {"verdict": "malicious"|"benign", "reason": "..."}.
 *
 * A verdict becomes one finding, judge-malicious (SEV_HIGH) or
 * judge-benign (SEV_INFO), line 0, its message the model's reason made
 * safe to show; the risk table gives them their weights, so the caller
 * scores the findings again (sanitize_risk(); judge_apply() does).
 * Verdicts are cached by content hash (model, prompt version and text)
 * in memory and in JUDGE_CACHE_FILE beside index.db, at most
 * sanitization.judge.cache_size of them, oldest dropped first.
 *
 * The judge fails open: a timeout, an HTTP or connection error, or an
 * answer that is not such an object gives no verdict, no finding, and a
 * note saying why; the score stays what the rules made it.
 *
 * struct judge is opaque; judge_apply() may be called from several
 * threads at once (the cache has a lock). struct judge_result is
 * embedded: judge_result_done() frees its strings.
 */
#ifndef SR_JUDGE_H
#define SR_JUDGE_H

#include <stddef.h>

#include "core/finding.h"

struct config;
struct judge;

#define JUDGE_CACHE_FILE	"judge-cache.tsv"
#define JUDGE_MAX_TEXT		(16 * 1024)	/* bytes of skill text sent */
#define JUDGE_MAX_REASON	200		/* bytes of a reason kept */

enum judge_verdict {
	JUDGE_NONE = 0,		/* not asked, or no usable answer */
	JUDGE_MALICIOUS,
	JUDGE_BENIGN
};

struct judge_result {
	int			 asked;		/* in the grey zone: judged */
	enum judge_verdict	 verdict;
	int			 cached;	/* the cache answered */
	char			*reason;	/* the model's, or NULL */
	char			*note;		/* why there is no verdict */
};

/*
 * Builds the judge from cfg. When sanitization.judge.enabled is false,
 * returns 0 with *out NULL: callers test for NULL and skip the judge.
 * A bad URL is SR_CONFIG with *cause. The cache file is read here; a
 * missing or unreadable one is an empty cache, never an error.
 */
int	 judge_new(const struct config *cfg, struct judge **out, char **cause);

/* Writes the cache back when it changed (errors are ignored: a cache). */
void	 judge_free(struct judge *);

/* 1 when a skill of this score is in the grey zone the judge is asked about. */
int	 judge_wants(const struct judge *, double score);

/*
 * The hook for every caller that scores a skill (scan now; the indexer
 * after assess_skill()): when *risk is in the grey zone and f holds no
 * judge-* finding yet, judges the skill and, on a verdict, scores f again
 * for trust into *risk (sanitize_risk()). What the model reads is the
 * entry file (path, its text and len) followed by each bundled file a
 * finding of f names, read below the skill folder as read_skill_file
 * would, each after a line "--- FILE relpath ---", at most
 * JUDGE_MAX_TEXT bytes in all. j may be NULL (the judge is off): then
 * nothing happens. Fills *r.
 */
struct risk;
struct sanitizer;
void	 judge_apply(struct judge *j, const struct sanitizer *,
	    const char *path, const char *name, const char *text, size_t len,
	    int trust, struct findings *f, struct risk *risk,
	    struct judge_result *r);

void	 judge_result_done(struct judge_result *);

/* "malicious", "benign" or "none". */
const char *judge_verdict_name(enum judge_verdict);

/*
 * The explanation of a judge-* rule id, or NULL for any other id (the
 * sanitiser does not know these ids: scan asks here as well).
 */
const char *judge_explain(const char *id);

/*
 * Parses a model answer: the first {...} object in it must have a
 * "verdict" of "malicious" or "benign" (any case); "reason" is optional.
 * Returns the verdict (JUDGE_NONE for anything else) and sets *reason to
 * the cleaned reason or NULL (free it). Exposed for the tests.
 */
enum judge_verdict judge_parse(const char *answer, char **reason);

/* The fixed system prompt (documentation and tests). */
const char *judge_prompt(void);

#endif
