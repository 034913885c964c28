/*
 * The sanitiser: the threat model's single gate between a skill file and
 * an agent's context (DESIGN §7). A struct sanitizer holds the compiled
 * pattern catalogue (config/patterns/NAME.txt plus sanitization.pattern_files)
 * and the XML override tag list; it is immutable after sanitize_new() and
 * safe to share between threads.
 *
 * sanitize_text() returns a rewritten copy (override tags redacted,
 * live-exec stripped when configured) and appends one finding per hit:
 * rule = pattern id, sev = info|warn|high, line = 1-based line in the
 * input (plus line_base), message = a short excerpt of the hit, itself
 * made safe to show (invisible characters spelled as <U+200B>).
 */
#ifndef SR_SANITIZE_H
#define SR_SANITIZE_H

#include <stddef.h>

#include "core/finding.h"

struct config;
struct risk_rule;
struct sanitizer;

/*
 * Compiles the catalogue. A bad pattern file or regex is SR_CONFIG with
 * *cause "file:line: message" (free it). *out is NULL on failure.
 */
int	 sanitize_new(const struct config *, struct sanitizer **out,
	    char **cause);
void	 sanitize_free(struct sanitizer *);

/*
 * Like sanitize_new(), but reads the built-in catalogue from
 * datadir/patterns/NAME.txt instead of config_pkgdata_dir() (tests, and
 * running from a source tree). datadir NULL: no built-in catalogue.
 */
int	 sanitize_new_dir(const struct config *, const char *datadir,
	    struct sanitizer **out, char **cause);

/*
 * Sanitises a body or bundled file for return to an agent. Returns the
 * rewritten text (free it); *outlen gets its length. Findings are appended
 * to out with line numbers offset by line_base (the body's first line in
 * the file, minus one).
 */
char	*sanitize_text(const struct sanitizer *, const char *text, size_t len,
	    int line_base, size_t *outlen, struct findings *out);

/*
 * Flags only (index time): runs the catalogue over text without rewriting
 * and appends findings. Returns the number of findings added.
 */
size_t	 sanitize_scan(const struct sanitizer *, const char *text, size_t len,
	    int line_base, struct findings *out);

/*
 * A bundled file (index time): relpath is its path under the skill folder.
 * Runs the catalogue and, for scripts (by extension or #! line), the code
 * analysis of codescan.h over it; sets each new finding's file to relpath.
 * Returns the number of findings added.
 */
size_t	 sanitize_file(const struct sanitizer *, const char *relpath,
	    const char *text, size_t len, struct findings *out);
/*
 * sanitize_file() that also fills *caps (never NULL) with what the file's
 * code does (codescan_file()): nothing for a file that is not code.
 */
struct codescan_caps;
size_t	 sanitize_file_caps(const struct sanitizer *, const char *relpath,
	    const char *text, size_t len, struct findings *out,
	    struct codescan_caps *caps);
/*
 * sanitize_file_caps() for a bundled file the agent does not act on, when
 * aside is set (assess.c decides): a test file the body does not point
 * to, whose literals are the inputs it feeds the code under test. Its
 * catalogue hits (and a Markdown file's code) are shown as
 * frame-described and not scored; a script's own code is still analysed
 * (a test runs under a test runner).
 */
size_t	 sanitize_file_aside(const struct sanitizer *, const char *relpath,
	    const char *text, size_t len, struct findings *out,
	    struct codescan_caps *caps, int aside);

/*
 * A skill's risk: the weighted sum of its findings (the risk table,
 * config/risk.tsv plus sanitization.risk_files) and the severity that sum
 * maps to: SEV_INFO below the warn threshold, SEV_WARN, or SEV_HIGH.
 */
struct risk {
	double		 score;
	enum severity	 sev;
	unsigned	 caps;		/* sanitize_caps() of the findings */
};

/*
 * Scores findings f for an entry of trust tier `trust` (enum trust_tier):
 * sets each finding's weight and severity from the risk table and fills
 * *out. Findings with no entry in the table keep their severity and add
 * nothing to the score.
 */
void	 sanitize_risk(const struct sanitizer *, struct findings *f,
	    int trust, struct risk *out);

/*
 * The risk table's rule for id (struct risk_rule in risktable.h: its
 * category, weight, floor and explanation), or NULL when the table has no
 * line for it. Valid as long as the sanitizer.
 */
const struct risk_rule *sanitize_risk_rule(const struct sanitizer *,
	    const char *id);

/*
 * The score at which a skill becomes sev (SEV_WARN or SEV_HIGH): the
 * table's @threshold lines. For reports and for choosing the grey zone
 * around the warn threshold.
 */
double	 sanitize_risk_threshold(const struct sanitizer *, enum severity);

/*
 * What a skill makes the agent do, from the risk table's categories of its
 * findings (sanitize_risk.c): bits 1 << CAPS_* of sanitize_caps().
 * sanitize_risk() adds a cap-* finding for each chain of them that makes
 * an attack (secrets read then data sent, persistence that runs code, an
 * action hidden from the user).
 */
enum sanitize_cap {
	CAPS_SECRETS = 0,	/* reads a credential store or the env */
	CAPS_SEND,		/* sends data out */
	CAPS_EXEC_FETCHED,	/* runs code fetched from the network */
	CAPS_EXEC_HIDDEN,	/* runs decoded, assembled or injected code */
	CAPS_PERSIST,		/* shell profiles, cron, hooks, launch agents */
	CAPS_DELETE,		/* destructive deletes */
	CAPS_SAFETY_OFF,	/* permissions, checks or scanners turned off */
	CAPS_CONCEAL,		/* keeps what it does from the user */
	CAPS_AGENT_CONFIG,	/* writes CLAUDE.md, .cursor/rules, settings */
	CAPS_N
};
unsigned sanitize_caps(const struct sanitizer *, const struct findings *);
/* "reads-secrets", "sends-data", ...; NULL past CAPS_N. */
const char *sanitize_cap_name(enum sanitize_cap);

/* For sanitize_risk.c: the sanitizer's tables (NULL for NULL). */
struct risk_table;
struct sanitize_catalogue;
const struct risk_table *sanitize_table(const struct sanitizer *);
const struct sanitize_catalogue *sanitize_cat(const struct sanitizer *);

/*
 * Makes a short frontmatter string safe for search results and the
 * mini-index with the redaction bodies get: drops invisible and control
 * characters, bidi overrides and tag characters, redacts override tags
 * and role markers, rewrites live-exec !`cmd` when strip_live_exec is
 * set, folds whitespace. Returns a new string (free it).
 */
char	*sanitize_inline(const struct sanitizer *, const char *);

/*
 * Decode and rescan (sanitize_decode.c): base64, hex, \xNN, %NN and \uNNNN
 * escapes and joined literals in text are decoded and the text they stand
 * for scanned again (catalogue and shell analysis), bounded in depth and
 * size; each finding's message starts "decoded KIND: ". Called by every
 * scan of sanitize_text(), sanitize_scan() and sanitize_file(), which
 * pass sanitize_scan() as scan_cb: the decoder sits beneath the scan it
 * feeds and calls back up only through that pointer (no circle between
 * the two files, tests/cli/modules.sh).
 */
void	 sanitize_decoded(const struct sanitizer *, const char *text,
	    size_t len, int line_base, struct findings *out,
	    size_t (*scan_cb)(const struct sanitizer *, const char *, size_t, int,
	    struct findings *));

/* Number of compiled patterns (for doctor and tests). */
size_t	 sanitize_count(const struct sanitizer *);

/*
 * The one-line explanation of a rule id: catalogue entries, the built-in
 * rules (xml-override-tag, xml-lookalike-tag, live-exec, hidden-*,
 * frame-quoted) and every id of the risk table (the code analysis's
 * code-*, frame-* and host-placeholder among them), or NULL when the id is
 * unknown. Valid as long as the sanitizer.
 */
const char *sanitize_explain(const struct sanitizer *, const char *id);

#endif
