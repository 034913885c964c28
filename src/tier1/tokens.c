/*
 * The Claude token estimator: see tokens.h. Prices are kept in tenths of
 * a token so the tables stay integers.
 */
#include "autoconfig.h"

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <utf8proc.h>

#include "tier1/tokens.h"

/*
 * The safety margin added to the sum of the tables' prices (the raw
 * estimate, r tokens): r x TOKENS_SAFETY_PCT % + sqrt(r) + TOKENS_SAFETY_ADD.
 * The tables are means, so the raw estimate is about right on average
 * (real / raw: mean 0.98 on 200 corpus descriptions) but spreads, less
 * on long texts whose pieces' errors cancel: up to x1.12 on descriptions
 * of 30 to 100 tokens, x1.05 on mini-index texts of 100 to 300 and x1.03
 * on those of 300 and more. A margin that shrinks as the square root of
 * the length covers the short texts' spread without spending 10 % of a
 * 1,000-token budget (it is 7.4 % there, 9.5 % at 300, 20 % at 50).
 * tests/bench/bench_miniindex.js prints the error; the tests check real
 * counts against budgets.
 */
#ifndef TOKENS_SAFETY_PCT
#define TOKENS_SAFETY_PCT	104
#endif
/* And a fixed allowance per text, for short strings. */
#ifndef TOKENS_SAFETY_ADD
#define TOKENS_SAFETY_ADD	1
#endif

enum piece {
	P_LETTERS,
	P_DIGITS,
	P_OTHER,
	P_SPACE
};

enum word_case {
	WC_LOWER,	/* skill */
	WC_CAP,		/* Skill */
	WC_UPPER,	/* PDF */
	WC_MIXED	/* GitHub, iOS */
};

#define WORD_TABLE_N	16

/*
 * Mean tokens x 10 of an ASCII word by case shape, leading space (0, 1)
 * and length 1..15 (index 0 unused), fitted on corpus descriptions and
 * names, smoothed to be non-decreasing. Longer words extrapolate.
 */
static const uint8_t word_table[4][2][WORD_TABLE_N] = {
	[WC_LOWER] = {
		{ 0, 10, 10, 13, 14, 15, 15, 17, 17, 20, 20, 20, 21, 28, 31, 34 },
		{ 0, 10, 11, 11, 11, 11, 12, 12, 12, 12, 13, 14, 14, 15, 15, 16 },
	},
	[WC_CAP] = {
		{ 0, 13, 13, 13, 13, 13, 15, 19, 19, 19, 19, 26, 26, 31, 34, 37 },
		{ 0, 13, 13, 13, 13, 15, 15, 17, 18, 20, 22, 28, 33, 36, 46, 48 },
	},
	[WC_UPPER] = {
		{ 0, 10, 11, 17, 19, 22, 24, 27, 27, 28, 31, 34, 37, 40, 43, 46 },
		{ 0, 10, 11, 16, 21, 24, 24, 26, 29, 32, 35, 38, 41, 44, 47, 50 },
	},
	[WC_MIXED] = {
		{ 0, 13, 16, 19, 24, 24, 24, 24, 27, 30, 30, 30, 30, 30, 32, 35 },
		{ 0, 13, 16, 19, 21, 21, 21, 21, 26, 26, 26, 26, 28, 31, 34, 37 },
	},
};
/*
 * The same for lower-case parts of hyphenated names ("baoyu-comic"), which
 * are rarer words than prose of the same length; fitted on corpus names.
 */
static const uint8_t name_table[2][WORD_TABLE_N] = {
	{ 0, 10, 11, 14, 15, 16, 16, 18, 18, 21, 21, 21, 22, 29, 32, 35 },
	{ 0, 11, 13, 16, 16, 16, 16, 16, 17, 20, 20, 20, 20, 29, 32, 35 },
};

/*
 * Words of three letters or more that are one token with a leading space:
 * the 1,111 most frequent in half the corpus's descriptions (the other
 * half kept for checks), sorted. Known words are priced exactly; the
 * length tables price the rest.
 */
static const char *const common_words[] = {
	"about", "academic", "access", "accessibility", "accuracy", "across",
	"action", "actions", "add", "adding", "ads", "advanced", "after",
	"against", "agency", "agent", "agents", "agreements", "algorithms",
	"all", "als", "also", "analyses", "analysis", "analyze", "analyzer",
	"analyzing", "and", "angular", "annotations", "anomalies", "any",
	"api", "app", "apple", "application", "applications", "apply",
	"applying", "approval", "apps", "architect", "architecture",
	"architectures", "are", "art", "article", "articles", "artifacts",
	"asked", "asks", "assessing", "assessment", "assessments",
	"astronomical", "async", "att", "attachments", "attack",
	"attribution", "audio", "audit", "auditor", "auf", "aus",
	"authentication", "auto", "automated", "automatically", "automation",
	"autonomous", "available", "aware", "aws", "azure", "backend", "base",
	"based", "batch", "been", "before", "behavior", "benchmarks", "best",
	"between", "binary", "biological", "bits", "blast", "blockchain",
	"board", "body", "book", "both", "boundaries", "branch", "brand",
	"browser", "budget", "budgets", "bug", "bugs", "build", "building",
	"builds", "business", "cac", "caching", "calculate", "calculating",
	"calculations", "calendar", "call", "calls", "campaign", "campaigns",
	"can", "cancer", "capture", "card", "cases", "cash", "cell", "census",
	"certification", "chain", "change", "changes", "channels", "charts",
	"check", "checking", "checkout", "checkpoint", "checkpoints",
	"checks", "chemistry", "choosing", "churn", "citation", "citations",
	"class", "classification", "clause", "cli", "client", "clinical",
	"cloud", "clustering", "code", "coding", "color", "command",
	"commands", "comments", "commit", "commits", "committing",
	"communication", "communications", "companies", "company",
	"comparing", "comparison", "comparisons", "compensation",
	"competitive", "competitor", "competitors", "complete", "complex",
	"complexity", "compliance", "compliant", "component", "components",
	"composition", "compound", "compounds", "comprehensive", "computing",
	"con", "concurrent", "conditions", "conducting", "confidence",
	"configuration", "configurations", "configure", "connections",
	"consistency", "consistent", "content", "context", "contract",
	"contracts", "control", "conventions", "conversations", "conversion",
	"convert", "converting", "coordinate", "copy", "core", "correction",
	"cost", "costs", "council", "coverage", "covers", "create", "creates",
	"creating", "creation", "creative", "creator", "criteria", "cro",
	"cross", "crypto", "css", "csv", "cuando", "culture", "current",
	"cursor", "custom", "customer", "customers", "cycles", "dashboard",
	"data", "database", "databases", "dataframe", "datasets", "date",
	"datos", "datum", "debt", "debug", "debugging", "deciding",
	"decision", "decisions", "deck", "deep", "default", "defining", "del",
	"demo", "dependencies", "dependency", "deploy", "deployment", "der",
	"design", "designer", "designing", "designs", "detect", "detecting",
	"detection", "detects", "developing", "development", "device",
	"diagrams", "die", "different", "differential", "diffs", "digital",
	"dimension", "dimensions", "direction", "directly", "directory",
	"discovery", "distributed", "diverse", "docs", "document",
	"documentation", "documents", "domain", "don", "down", "draft",
	"drafting", "driven", "drug", "drugs", "dynamics", "each", "economic",
	"economics", "ecosystem", "edit", "effect", "effective",
	"effectiveness", "efficiency", "efficient", "effort", "eigene", "ein",
	"email", "emails", "employment", "end", "endpoint", "engagement",
	"engineer", "engineering", "english", "ensures", "ensuring",
	"enterprise", "entity", "entries", "entry", "environment",
	"environments", "equations", "error", "errors", "est", "esta",
	"establishing", "estimate", "estimates", "evaluate", "evaluating",
	"evaluation", "even", "event", "events", "every", "evidence",
	"examples", "excel", "executing", "execution", "executive",
	"existing", "exists", "expansion", "experiences", "experiment",
	"experimental", "experiments", "expert", "explaining", "explicitly",
	"exploration", "explore", "export", "express", "expression",
	"external", "extract", "extracting", "extraction", "facebook",
	"failing", "failure", "failures", "false", "fast", "feature",
	"features", "feedback", "feels", "fields", "figures", "file", "files",
	"financial", "find", "finding", "findings", "fine", "first", "fit",
	"fits", "fix", "fixing", "flaky", "flow", "flows", "follow",
	"following", "for", "forces", "forecasts", "format", "formats",
	"formatted", "formatting", "founder", "framework", "frameworks",
	"free", "from", "frontend", "full", "functions", "fundraising",
	"fung", "gap", "gaps", "gate", "gene", "general", "generate",
	"generates", "generating", "generation", "generic", "geometric",
	"git", "github", "goal", "google", "governance", "grade", "graph",
	"graphs", "growth", "guidance", "guide", "guided", "guidelines",
	"guides", "habit", "handles", "handling", "hardware", "has", "have",
	"health", "hearing", "help", "helps", "hierarchies", "high", "hiring",
	"history", "hooks", "how", "html", "human", "hunting", "hybrid",
	"hypothesis", "ibm", "identification", "identifies", "identify",
	"identifying", "image", "images", "imaging", "impact", "implement",
	"implementation", "implementations", "implementing", "important",
	"improve", "improvement", "improving", "incident", "include",
	"includes", "including", "independent", "industry", "inference",
	"information", "infrastructure", "injection", "input", "install",
	"instead", "integrate", "integrating", "integration", "intelligence",
	"interactions", "interactive", "interface", "interfaces", "internal",
	"interview", "into", "inventory", "investigating", "investor",
	"invoke", "involving", "iso", "isolated", "issues", "item", "items",
	"iteration", "jest", "job", "jobs", "journal", "json", "just", "keep",
	"keine", "key", "knowledge", "lab", "landing", "language",
	"languages", "large", "latency", "latex", "launch", "layout", "lazy",
	"lead", "leadership", "leads", "learning", "legacy", "less", "level",
	"libraries", "library", "like", "line", "linear", "link", "list",
	"literature", "live", "load", "local", "log", "logic", "logs", "long",
	"look", "lookups", "loop", "loops", "loss", "low", "machine",
	"maintain", "maintaining", "make", "making", "malware", "manage",
	"management", "manager", "managing", "map", "mapping", "maps",
	"margin", "markdown", "market", "marketing", "marketplace", "markup",
	"master", "matching", "materials", "matrices", "matrix", "max",
	"measuring", "media", "medical", "meeting", "memory", "mentions",
	"merge", "message", "messaging", "meta", "metadata", "methodology",
	"methods", "metric", "metrics", "microscopy", "migrate", "migration",
	"migrations", "minutes", "missing", "mit", "mobile", "mocks", "modal",
	"mode", "model", "modeling", "models", "modern", "modes", "modifying",
	"module", "modules", "molecular", "monitoring", "more", "multi",
	"multiple", "mutants", "mutation", "nach", "narrative", "narratives",
	"native", "navigation", "need", "needing", "needs", "negotiation",
	"network", "networks", "neural", "new", "next", "node", "non",
	"normalization", "not", "notebooks", "notes", "notion", "nur",
	"observations", "oder", "office", "one", "online", "only", "open",
	"operating", "operations", "opportunities", "optimization",
	"optimize", "optimized", "options", "org", "organization",
	"organizing", "other", "out", "output", "outputs", "over",
	"ownership", "packages", "packaging", "page", "pages", "pairs",
	"panel", "paper", "papers", "para", "parallel", "passes", "passing",
	"patent", "path", "paths", "pathways", "pattern", "patterns",
	"payment", "payments", "pci", "pdf", "people", "per", "perform",
	"performance", "performing", "performs", "person", "personal",
	"perspective", "physics", "pipeline", "pipelines", "plain", "plan",
	"planning", "plans", "platform", "platforms", "plotly", "plots",
	"plugin", "plugins", "png", "poc", "point", "points", "policies",
	"popup", "portfolio", "positioning", "post", "poster", "posters",
	"powered", "practices", "pre", "prediction", "predictions",
	"preference", "premium", "preparation", "prepare", "prepares",
	"preparing", "principles", "prior", "privacy", "privilege", "pro",
	"procedures", "process", "processes", "processing", "produce",
	"produces", "product", "production", "professional", "programming",
	"progress", "project", "projects", "prompt", "prompting", "prompts",
	"propagation", "proper", "property", "proposal", "proposals",
	"protein", "protocol", "protocols", "provides", "public",
	"publication", "pull", "purchase", "pure", "push", "python",
	"quality", "quantum", "que", "queries", "query", "querying",
	"question", "questions", "quick", "radius", "rag", "ram", "rate",
	"rates", "raw", "react", "read", "readable", "readers", "reading",
	"reads", "ready", "real", "reasoning", "recommendations", "red",
	"reduction", "reference", "references", "refine", "registro",
	"regulatory", "reinforcement", "related", "relationships", "release",
	"repo", "report", "reporting", "reports", "request", "requests",
	"required", "requirements", "requires", "requiring", "research",
	"resource", "response", "responses", "responsive", "rest", "results",
	"retention", "retrieval", "retrieve", "reusable", "revenue",
	"reverse", "review", "reviewer", "reviewing", "reviews", "reward",
	"right", "risk", "risks", "robotic", "robust", "roi", "role",
	"router", "routes", "routing", "ruby", "rule", "rules", "run",
	"running", "runs", "rust", "safe", "safety", "sales", "same",
	"sampling", "says", "scaffold", "scale", "scaling", "scan",
	"scanning", "scans", "schema", "schemas", "scholar", "science",
	"scientific", "score", "scores", "scoring", "screen", "script",
	"scripts", "scroll", "sdk", "seaborn", "search", "searches",
	"searching", "second", "secret", "sections", "secure", "securing",
	"security", "selecting", "selection", "self", "semantic", "senior",
	"sequence", "sequences", "series", "servers", "service", "services",
	"session", "sessions", "set", "setting", "settings", "setup",
	"severity", "sheet", "sheets", "shell", "should", "sign",
	"significance", "similar", "similarity", "simple", "simulations",
	"single", "site", "size", "sizes", "skill", "skills", "slack",
	"slide", "slides", "slow", "smart", "social", "software", "source",
	"sources", "spark", "spatial", "specialized", "specific",
	"specifications", "specs", "spectral", "sprint", "sql", "stack",
	"stacks", "standard", "standards", "starting", "startup", "state",
	"static", "statistical", "status", "step", "story", "strategic",
	"strategies", "strategy", "streaming", "stress", "stripe",
	"structural", "structure", "structured", "structures", "style",
	"styles", "submission", "subscription", "success", "suite", "suites",
	"summarize", "summary", "supply", "support", "supports", "surface",
	"survival", "symbolic", "sync", "synthesis", "synthetic", "system",
	"systematic", "systems", "table", "tags", "target", "targeting",
	"targets", "task", "tasks", "team", "teams", "tech", "technical",
	"techniques", "technology", "template", "templates", "test",
	"testing", "tests", "text", "than", "that", "the", "them", "then",
	"theory", "they", "think", "thinking", "this", "threat", "through",
	"tickets", "tile", "time", "token", "tokens", "too", "tool",
	"toolkit", "tools", "top", "tracing", "track", "tracking", "traffic",
	"trail", "training", "transactions", "transcripts", "transformations",
	"tree", "trigger", "triggers", "trust", "tuned", "tuning", "tweet",
	"twitter", "two", "type", "types", "una", "und", "understand",
	"understanding", "unified", "unit", "unsure", "update", "updates",
	"urls", "usage", "usar", "use", "used", "user", "users", "uses",
	"using", "usuario", "validate", "validating", "validation", "value",
	"variance", "vector", "vectors", "velocity", "vendor", "ver",
	"verification", "verify", "version", "versus", "via", "vision",
	"visual", "visualization", "vulnerabilities", "vulnerability",
	"wants", "web", "websites", "what", "when", "whenever", "where",
	"whether", "which", "why", "wiki", "will", "win", "winning", "with",
	"without", "work", "workflow", "workflows", "working", "works",
	"workspace", "would", "write", "writing", "wrong", "you", "your",
	"zero",
};
/* Tenths of a token for a known word: " word", " Word", "word", "Word". */
#define COMMON_SP_LOWER		10
#define COMMON_SP_CAP		13
#define COMMON_LOWER		12
#define COMMON_CAP		14

/* Tenths of a token per letter beyond the table. */
#define WORD_TAIL_PER_CHAR	5

/*
 * Common English words. Text in other languages written in ASCII (German,
 * Spanish without accents) costs about a third more per word than the
 * English-fitted table says, so a line where few words are these is
 * priced higher. Sorted.
 */
static const char *const english_words[] = {
	"a", "an", "and", "any", "are", "as", "at", "be", "by", "can", "for",
	"from", "in", "into", "is", "it", "like", "not", "of", "on", "or",
	"such", "that", "the", "this", "to", "use", "using", "via", "when",
	"with", "you", "your"
};
/* Fewer English words than this, per mille of ASCII words: not English. */
#define ENGLISH_MIN_PERMILLE	100
/* Words needed before the language guess is trusted. */
#define ENGLISH_MIN_WORDS	8
/* Price of ASCII words in a non-English text, percent. */
#define FOREIGN_PCT		140

/*
 * The word lists as open-addressing hash sets of indexes + 1, filled once
 * (pthread_once) so a lookup is a hash and one strcmp instead of a
 * bsearch.
 */
#define WORD_HASH_N	4096
static uint16_t		 common_hash[WORD_HASH_N];
static uint16_t		 english_hash[WORD_HASH_N / 16];
static pthread_once_t	 word_hash_once = PTHREAD_ONCE_INIT;

static size_t
word_hash(const char *w)
{
	uint32_t	 h = 2166136261u;

	for (; *w != '\0'; w++) {
		h ^= (unsigned char)*w;
		h *= 16777619u;
	}
	return h;
}

static void
hash_fill(uint16_t *set, size_t n, const char *const *words, size_t nwords)
{
	size_t	 i, k;

	for (i = 0; i < nwords; i++) {
		for (k = word_hash(words[i]) & (n - 1); set[k] != 0;
		    k = (k + 1) & (n - 1))
			;
		set[k] = (uint16_t)(i + 1);
	}
}

static void
word_hash_init(void)
{
	hash_fill(common_hash, WORD_HASH_N, common_words,
	    sizeof common_words / sizeof common_words[0]);
	hash_fill(english_hash, WORD_HASH_N / 16, english_words,
	    sizeof english_words / sizeof english_words[0]);
}

/* Is the NUL-terminated w one of words? */
static int
hash_has(const uint16_t *set, size_t n, const char *const *words,
    const char *w)
{
	size_t	 k;

	pthread_once(&word_hash_once, word_hash_init);
	for (k = word_hash(w) & (n - 1); set[k] != 0; k = (k + 1) & (n - 1))
		if (strcmp(words[set[k] - 1], w) == 0)
			return 1;
	return 0;
}

/* Is the ASCII word (any case) in common_words? */
static int
is_common_word(const char *s, size_t len)
{
	char	 w[16];
	size_t	 i;

	if (len < 3 || len >= sizeof w)
		return 0;
	for (i = 0; i < len; i++)
		w[i] = (s[i] >= 'A' && s[i] <= 'Z') ? s[i] - 'A' + 'a' : s[i];
	w[len] = '\0';
	return hash_has(common_hash, WORD_HASH_N, common_words, w);
}

static int
is_english_word(const char *s, size_t len)
{
	char	 w[8];
	size_t	 i;

	if (len >= sizeof w)
		return 0;
	for (i = 0; i < len; i++)
		w[i] = (s[i] >= 'A' && s[i] <= 'Z') ? s[i] - 'A' + 'a' : s[i];
	w[len] = '\0';
	return hash_has(english_hash, WORD_HASH_N / 16, english_words, w);
}

/* The ASCII words of a line, priced higher when it is not English. */
static size_t
line_price(size_t ascii_tenths, size_t words, size_t english)
{
	if (words >= ENGLISH_MIN_WORDS &&
	    english * 1000 < words * ENGLISH_MIN_PERMILLE)
		return ascii_tenths * FOREIGN_PCT / 100;
	return ascii_tenths;
}

static int
is_space_cp(utf8proc_int32_t c)
{
	utf8proc_category_t	 cat;

	if (c == ' ' || (c >= '\t' && c <= '\r'))
		return 1;
	if (c < 0x80)
		return 0;
	if (c == 0xfeff)
		return 1;
	cat = utf8proc_category(c);
	return cat == UTF8PROC_CATEGORY_ZS || cat == UTF8PROC_CATEGORY_ZL ||
	    cat == UTF8PROC_CATEGORY_ZP;
}

/* Non-ASCII code points, by Unicode category. */
static enum piece
classify_wide(utf8proc_int32_t c)
{
	if (is_space_cp(c))
		return P_SPACE;
	switch (utf8proc_category(c)) {
	case UTF8PROC_CATEGORY_LU:
	case UTF8PROC_CATEGORY_LL:
	case UTF8PROC_CATEGORY_LT:
	case UTF8PROC_CATEGORY_LM:
	case UTF8PROC_CATEGORY_LO:
		return P_LETTERS;
	case UTF8PROC_CATEGORY_ND:
	case UTF8PROC_CATEGORY_NL:
	case UTF8PROC_CATEGORY_NO:
		return P_DIGITS;
	default:
		return P_OTHER;
	}
}

/* ASCII inline, the rest by classify_wide(). */
static inline enum piece
classify(utf8proc_int32_t c)
{
	if (c < 0x80) {
		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))
			return P_LETTERS;
		if (c >= '0' && c <= '9')
			return P_DIGITS;
		if (c == ' ' || (c >= '\t' && c <= '\r'))
			return P_SPACE;
		return P_OTHER;
	}
	return classify_wide(c);
}

/* Decodes one code point at s[i]; an invalid byte is returned as -1. */
static inline size_t
next_cp(const char *s, size_t len, size_t i, utf8proc_int32_t *cp)
{
	utf8proc_ssize_t	 n;

	if ((unsigned char)s[i] < 0x80) {
		*cp = (unsigned char)s[i];
		return 1;
	}
	n = utf8proc_iterate((const utf8proc_uint8_t *)s + i,
	    (utf8proc_ssize_t)(len - i), cp);
	if (n <= 0) {
		*cp = -1;
		return 1;
	}
	return (size_t)n;
}

static int
is_cjk(utf8proc_int32_t c)
{
	return (c >= 0x3040 && c < 0xa000) || (c >= 0xac00 && c < 0xd7b0) ||
	    (c >= 0xf900 && c < 0xfb00) || (c >= 0xff00 && c < 0xfff0) ||
	    c >= 0x20000;
}

static int
is_ascii_run(const char *s, size_t len)
{
	size_t	 i;

	for (i = 0; i < len; i++) {
		if ((unsigned char)s[i] >= 0x80)
			return 0;
	}
	return 1;
}

/*
 * Tenths of a token for a run of letters, sp: it has a leading space,
 * name: it is joined to a hyphen or underscore.
 */
static size_t
price_letters(const char *s, size_t len, int sp, int name)
{
	utf8proc_int32_t	 c;
	size_t			 i, n = 0, ascii = 0, latin = 0, cjk = 0, other = 0;
	size_t			 upper = 0, lower = 0, price;
	int			 first_upper = 0;
	enum word_case		 wc;

	if (is_ascii_run(s, len)) {
		/* The common case, without decoding. */
		for (i = 0; i < len; i++)
			if (s[i] >= 'A' && s[i] <= 'Z')
				upper++;
		n = ascii = len;
		lower = len - upper;
		first_upper = len > 0 && s[0] >= 'A' && s[0] <= 'Z';
	}
	for (i = n; i < len; n++) {
		i += next_cp(s, len, i, &c);
		if (c >= 0 && c < 0x80) {
			ascii++;
			if (c >= 'A' && c <= 'Z') {
				upper++;
				if (n == 0)
					first_upper = 1;
			} else
				lower++;
		} else if (c >= 0x80 && c < 0x250)
			latin++;
		else if (c >= 0 && is_cjk(c))
			cjk++;
		else
			other++;
	}
	if (ascii == n) {
		if (upper == 0)
			wc = WC_LOWER;
		else if (lower == 0)
			wc = WC_UPPER;
		else if (first_upper && upper == 1)
			wc = WC_CAP;
		else
			wc = WC_MIXED;
		if ((wc == WC_LOWER || wc == WC_CAP) &&
		    is_common_word(s, len)) {
			if (wc == WC_LOWER)
				return sp ? COMMON_SP_LOWER : COMMON_LOWER;
			return sp ? COMMON_SP_CAP : COMMON_CAP;
		}
		if (name && wc == WC_LOWER && n < WORD_TABLE_N)
			return name_table[sp][n];
		if (n < WORD_TABLE_N)
			return word_table[wc][sp][n];
		return word_table[wc][sp][WORD_TABLE_N - 1] +
		    (n - (WORD_TABLE_N - 1)) * WORD_TAIL_PER_CHAR;
	}
	/* Accented Latin words split into two or three pieces. */
	price = latin + other > 0 ? 12 + (sp ? 2 : 0) + ascii * 2 + latin * 8 :
	    ascii * 3 + (sp ? 2 : 0);
	/* CJK: about one token per character. */
	price += cjk * 11;
	/* Cyrillic, Greek and the rest: a token per one or two letters. */
	price += other * 8;
	return price;
}

/* Tenths of a token for a run of other symbols. */
static size_t
price_other(const char *s, size_t len)
{
	utf8proc_int32_t	 c;
	size_t			 i, w, ascii = 0, price = 0;

	for (i = 0; i < len; i += w) {
		w = next_cp(s, len, i, &c);
		if (c < 0) {
			price += 10;
			continue;
		}
		if (c < 0x80) {
			ascii++;
			continue;
		}
		/* Dashes and arrows are one token, emoji two or three. */
		price += w <= 3 ? 10 : 30;
	}
	if (ascii == 1)
		price += 10;
	else if (ascii == 2)
		price += 11;
	else if (ascii > 2)
		price += ascii * 8;
	return price;
}

/* Length of a contraction ('s 't 're 've 'm 'll 'd) at s[i], or 0. */
static size_t
contraction(const char *s, size_t len, size_t i)
{
	if (s[i] != '\'' || i + 1 >= len)
		return 0;
	switch (s[i + 1]) {
	case 's': case 't': case 'm': case 'd':
		return 2;
	}
	if (i + 2 < len && ((s[i + 1] == 'r' && s[i + 2] == 'e') ||
	    (s[i + 1] == 'v' && s[i + 2] == 'e') ||
	    (s[i + 1] == 'l' && s[i + 2] == 'l')))
		return 3;
	return 0;
}

static size_t
estimate_tenths(const char *s, size_t len)
{
	utf8proc_int32_t	 c, c2;
	size_t			 i = 0, j, w, w2, tenths = 0, k;
	size_t			 ascii_tenths = 0, words = 0, english = 0;
	enum piece		 p, p2;
	int			 sp;

	if (s == NULL || len == 0)
		return 0;
	while (i < len) {
		if ((k = contraction(s, len, i)) != 0) {
			tenths += 10;
			i += k;
			continue;
		}
		w = next_cp(s, len, i, &c);
		p = c < 0 ? P_OTHER : classify(c);
		sp = 0;
		if (c == ' ' && i + 1 < len) {
			w2 = next_cp(s, len, i + 1, &c2);
			p2 = c2 < 0 ? P_OTHER : classify(c2);
			if (p2 != P_SPACE) {
				/* " word", " 42", " --": the space joins. */
				sp = 1;
				p = p2;
				i++;
				w = w2;
				c = c2;
			}
		}
		j = i + w;
		if (p == P_SPACE) {
			/* A run of blanks; the last one joins a next word. */
			while (j < len) {
				w2 = next_cp(s, len, j, &c2);
				if (c2 < 0 || classify(c2) != P_SPACE)
					break;
				j += w2;
			}
			if (j < len && j - i > 1 && s[j - 1] == ' ')
				j--;
			tenths += 10 + (j - i) / 16 * 10;
			if (memchr(s + i, '\n', j - i) != NULL) {
				/* The language is guessed line by line. */
				tenths += line_price(ascii_tenths, words,
				    english);
				ascii_tenths = words = english = 0;
			}
			i = j;
			continue;
		}
		while (j < len) {
			if (p == P_OTHER && contraction(s, len, j) != 0)
				break;
			w2 = next_cp(s, len, j, &c2);
			p2 = c2 < 0 ? P_OTHER : classify(c2);
			if (p2 != p)
				break;
			j += w2;
		}
		switch (p) {
		case P_LETTERS:
			k = price_letters(s + i, j - i, sp,
			    (j < len && (s[j] == '-' || s[j] == '_')) ||
			    (i > 0 && (s[i - 1] == '-' || s[i - 1] == '_')));
			if (is_ascii_run(s + i, j - i)) {
				ascii_tenths += k;
				/* Prose words only: " word " */
				if (!sp || j - i < 2 || j >= len || s[j] != ' ')
					break;
				words++;
				if (is_english_word(s + i, j - i))
					english++;
			} else
				tenths += k;
			break;
		case P_DIGITS:
			/* Digits go in groups of up to three. */
			tenths += ((j - i + 2) / 3) * 10 + (j - i > 3 ? 5 : 0);
			break;
		default:
			tenths += price_other(s + i, j - i);
			break;
		}
		i = j;
	}
	tenths += line_price(ascii_tenths, words, english);
	/* Units: thousandths of a raw token. */
	return tenths * 100;
}

/* floor(sqrt(v)). */
static uint64_t
isqrt(uint64_t v)
{
	uint64_t	 r = 0, bit = (uint64_t)1 << 62;

	while (bit > v)
		bit >>= 2;
	for (; bit != 0; bit >>= 2) {
		if (v >= r + bit) {
			v -= r + bit;
			r = (r >> 1) + bit;
		} else
			r >>= 1;
	}
	return r;
}

size_t
tokens_estimate(const char *s, size_t len)
{
	if (s == NULL || len == 0)
		return 0;
	return tokens_from_units(estimate_tenths(s, len));
}

size_t
tokens_estimate_part(const char *s, size_t len)
{
	if (s == NULL || len == 0)
		return 0;
	/* The proportional part of the margin only. */
	return ((uint64_t)estimate_tenths(s, len) * TOKENS_SAFETY_PCT / 100 +
	    999) / 1000;
}

size_t
tokens_units(const char *s, size_t len)
{
	if (s == NULL || len == 0)
		return 0;
	return estimate_tenths(s, len);
}

size_t
tokens_from_units(size_t units)
{
	uint64_t	 u = units, m;

	if (u == 0)
		return 0;
	/* In thousandths: r x PCT %, + sqrt(r) = sqrt(u x 1000) / 1000. */
	m = u * TOKENS_SAFETY_PCT / 100 + isqrt(u * 1000) +
	    (uint64_t)TOKENS_SAFETY_ADD * 1000;
	return (size_t)((m + 999) / 1000);
}

size_t
tokens_estimate_str(const char *s)
{
	return s == NULL ? 0 : tokens_estimate(s, strlen(s));
}
