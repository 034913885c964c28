/*
 * The risk side of the sanitiser (split from sanitize.c): scoring a
 * skill's findings with the risk table, the skill's capabilities and the
 * combinations of them that make an attack, and the rule explanations.
 *
 * Capabilities. Every rule of the risk table has a category; a category
 * says what the skill makes the agent do (cap_of[] below: reads secrets,
 * sends data out, runs fetched or hidden code, persists, deletes, turns a
 * safety off, hides what it does from the user). The capabilities of a
 * skill are those of its findings, from prose, fences and bundled files
 * alike. One capability alone is everyday (a client reads its API key, an
 * uploader sends a file, an installer runs a fetched script); the attack
 * is the chain: secrets read and data sent, something persisted and code
 * run, an action hidden from the user. sanitize_risk() adds one finding
 * (cap-*) per chain present whose halves the code analysis did not link
 * already (code-cred-exfil, code-cred-exfil-split say the first chain
 * within a file), and scores the lot.
 */
#include "autoconfig.h"

#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "core/finding.h"
#include "core/skill.h"
#include "safety/risktable.h"
#include "safety/sanitize.h"
#include "safety/sanitize_catalogue.h"
#include "base/strlist.h"

/* Category of the risk table -> capability. */
static const struct {
	const char	*category;
	enum sanitize_cap cap;
} cap_of[] = {
	{ "cred", CAPS_SECRETS },
	{ "cred-sweep", CAPS_SECRETS },
	{ "exfil", CAPS_SEND },
	{ "fetch-exec", CAPS_EXEC_FETCHED },
	{ "fetch-many", CAPS_EXEC_FETCHED },
	{ "offsite", CAPS_EXEC_FETCHED },
	{ "lure", CAPS_EXEC_FETCHED },
	{ "obfusc", CAPS_EXEC_HIDDEN },
	{ "inject", CAPS_EXEC_HIDDEN },
	{ "persist", CAPS_PERSIST },
	{ "destroy", CAPS_DELETE },
	{ "safety-off", CAPS_SAFETY_OFF },
	{ "grant-all", CAPS_SAFETY_OFF },
	{ "guard-removed", CAPS_SAFETY_OFF },
	{ "conceal", CAPS_CONCEAL },
};

/*
 * Rules whose capability is narrower than their category's: writing an
 * agent's instruction or settings file (CLAUDE.md, .cursor/rules) is how
 * ordinary tools register themselves, not a foothold that runs code; it
 * joins the concealment chain, not the persistence one.
 */
static const struct {
	const char	*rule;
	enum sanitize_cap cap;
} cap_rule[] = {
	{ "danger-agent-config", CAPS_AGENT_CONFIG },
};

/* The capability finding f's rule stands for, or CAPS_N for none. */
static enum sanitize_cap
cap_for(const char *rule, const char *category)
{
	size_t	 j;

	for (j = 0; j < sizeof cap_rule / sizeof *cap_rule; j++)
		if (strcmp(cap_rule[j].rule, rule) == 0)
			return cap_rule[j].cap;
	for (j = 0; j < sizeof cap_of / sizeof *cap_of; j++)
		if (strcmp(cap_of[j].category, category) == 0)
			return cap_of[j].cap;
	return CAPS_N;
}

static const char *const cap_names[CAPS_N] = {
	[CAPS_SECRETS] = "reads-secrets",
	[CAPS_SEND] = "sends-data",
	[CAPS_EXEC_FETCHED] = "runs-fetched-code",
	[CAPS_EXEC_HIDDEN] = "runs-hidden-code",
	[CAPS_PERSIST] = "persists",
	[CAPS_DELETE] = "deletes",
	[CAPS_SAFETY_OFF] = "turns-safety-off",
	[CAPS_CONCEAL] = "conceals-from-user",
	[CAPS_AGENT_CONFIG] = "changes-agent-settings",
};

const char *
sanitize_cap_name(enum sanitize_cap c)
{
	return c < CAPS_N ? cap_names[c] : NULL;
}

/* What the agent is made to do, as bits 1 << CAPS_*. */
static unsigned
caps_where(const struct sanitizer *s, const struct findings *f, int *line,
    const char **file)
{
	const struct risk_rule	*r;
	unsigned		 caps = 0;
	enum sanitize_cap	 c;
	size_t			 i;

	for (i = 0; i < f->n; i++) {
		if ((r = risktable_find(sanitize_table(s), f->v[i].rule)) ==
		    NULL || r->weight <= 0 || (c = cap_for(f->v[i].rule,
		    r->category)) == CAPS_N || (caps & 1u << c))
			continue;
		caps |= 1u << c;
		line[c] = f->v[i].line;
		file[c] = f->v[i].file;
	}
	return caps;
}

unsigned
sanitize_caps(const struct sanitizer *s, const struct findings *f)
{
	int		 line[CAPS_N];
	const char	*file[CAPS_N];

	return s != NULL && f != NULL ? caps_where(s, f, line, file) : 0;
}

static int
has_rule(const struct findings *f, const char *id)
{
	size_t	 i;

	for (i = 0; i < f->n; i++)
		if (strcmp(f->v[i].rule, id) == 0)
			return 1;
	return 0;
}

/*
 * The chains: a rule id, the capability that starts it, the one that
 * completes it (any of `then`), and a rule that says the chain already.
 */
static const struct {
	const char	*rule;
	unsigned	 first, then;
	const char	*said;
} chains[] = {
	/* the exfiltration: a secret store read, data sent out */
	{ "cap-secret-send", 1u << CAPS_SECRETS, 1u << CAPS_SEND,
	    "code-cred-exfil" },
	/* persistence that runs code: the foothold of a backdoor */
	{ "cap-persist-exec", 1u << CAPS_PERSIST,
	    1u << CAPS_EXEC_FETCHED | 1u << CAPS_EXEC_HIDDEN, NULL },
	/*
	 * An action the user is not to hear about: concealment alone is a
	 * tone, with a secret read, a send, a persisted change, a safety
	 * turned off or code run it hides what the skill does.
	 */
	{ "cap-conceal-act", 1u << CAPS_CONCEAL, 1u << CAPS_SECRETS |
	    1u << CAPS_SEND | 1u << CAPS_PERSIST | 1u << CAPS_AGENT_CONFIG |
	    1u << CAPS_SAFETY_OFF |
	    1u << CAPS_EXEC_FETCHED | 1u << CAPS_EXEC_HIDDEN, NULL },
};

static int
lowest(unsigned bits)
{
	int	 i;

	for (i = 0; i < CAPS_N; i++)
		if (bits & 1u << i)
			return i;
	return 0;
}

static void
chains_add(const struct sanitizer *s, struct findings *f)
{
	int		 line[CAPS_N];
	const char	*file[CAPS_N];
	unsigned	 caps;
	size_t		 i;
	int		 a, b;

	caps = caps_where(s, f, line, file);
	for (i = 0; i < sizeof chains / sizeof *chains; i++) {
		if (!(caps & chains[i].first) || !(caps & chains[i].then) ||
		    has_rule(f, chains[i].rule) ||
		    (chains[i].said != NULL && (has_rule(f, chains[i].said) ||
		    has_rule(f, "code-cred-exfil-split"))) ||
		    risktable_find(sanitize_table(s), chains[i].rule) == NULL)
			continue;
		a = lowest(caps & chains[i].first);
		b = lowest(caps & chains[i].then);
		findings_add(f, chains[i].rule, SEV_INFO, line[b],
		    "%s (%s%s%d), then %s (%s%s%d)", cap_names[a],
		    file[a] ? file[a] : "", file[a] ? ":" : "line ", line[a],
		    cap_names[b], file[b] ? file[b] : "", file[b] ? ":" :
		    "line ", line[b]);
		findings_set_file(f, f->n - 1, file[b]);
	}
}

void
sanitize_risk(const struct sanitizer *s, struct findings *f, int trust,
    struct risk *out)
{
	out->score = 0;
	out->sev = SEV_INFO;
	out->caps = 0;
	if (s == NULL || f == NULL)
		return;
	chains_add(s, f);
	out->caps = sanitize_caps(s, f);
	risktable_score(sanitize_table(s), f, trust < TIER_USER, &out->score,
	    &out->sev);
}

const struct risk_rule *
sanitize_risk_rule(const struct sanitizer *s, const char *id)
{
	return s != NULL ? risktable_find(sanitize_table(s), id) : NULL;
}

double
sanitize_risk_threshold(const struct sanitizer *s, enum severity sev)
{
	return s != NULL ? risktable_threshold(sanitize_table(s), sev) : 0;
}

static const struct {
	const char	*id;
	const char	*explain;
} builtin_rules[] = {
	{ "xml-override-tag", "an XML override tag (<system>, <admin>, ...) "
	    "that tries to speak with the authority of the system prompt; "
	    "redacted" },
	{ "live-exec", "Claude Code pre-execution !`cmd`: runs a shell command "
	    "when the skill is loaded" },
	{ "hidden-zero-width", "zero-width or invisible formatting characters "
	    "inside a word, used to split words past filters or hide text; "
	    "removed" },
	{ "hidden-zero-width-between", "zero-width characters between words, "
	    "by CJK text or emoji: more often typography than smuggling; "
	    "removed" },
	{ "xml-lookalike-tag", "an <admin>, <sudo> or <root> tag: an override "
	    "tag's name, but also an everyday XML element; redacted" },
	{ "hidden-bidi", "bidi embedding/override/isolate controls that make "
	    "text display differently from what the model reads; removed" },
	{ "hidden-bidi-mark", "bidi marks (LRM, RLM, ALM); removed" },
	{ "hidden-tag-chars", "Unicode tag characters (U+E0000..E007F) that "
	    "smuggle invisible ASCII text; removed" },
	{ "hidden-variation-selector", "supplementary variation selectors, "
	    "usable to smuggle data; removed" },
	{ "hidden-control", "control characters (terminal escapes, NUL); "
	    "removed" },
	{ "invalid-utf8", "bytes that are not UTF-8; replaced by U+FFFD" },
	{ "sanitize-limit", "a pattern hit its match limit and gave up" },
	{ "sanitize-truncated", "too many findings; the rest are not listed" },
	{ "frame-quoted", "a catalogue hit inside a \"quotation\" on its line: "
	    "more likely a mention (a security skill's list of attack "
	    "phrases) than an instruction" },
};

const char *
sanitize_explain(const struct sanitizer *s, const char *id)
{
	size_t			 i;

	const struct risk_rule	*r;
	const char		*e;

	for (i = 0; i < sizeof builtin_rules / sizeof *builtin_rules; i++) {
		if (strcmp(builtin_rules[i].id, id) == 0)
			return builtin_rules[i].explain;
	}
	if (s == NULL)
		return NULL;
	if ((e = sanitize_catalogue_explain(sanitize_cat(s), id)) != NULL)
		return e;
	/* The code analysis rules and any rule a user table adds. */
	r = risktable_find(sanitize_table(s), id);
	return r != NULL ? r->explain : NULL;
}
