#include "autoconfig.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/options.h"
#include "base/strlist.h"

#define OFF(f)	offsetof(struct config, f)

static const char *const def_paths[] = {
	"~/.claude/skills",
	"~/.claude/agents",
	"~/.claude/commands",
	"~/.claude/plugins",
	"~/.agents/skills",
	"~/.agent/skills",
	"$XDG_CONFIG_HOME/agents/skills",
	"$XDG_DATA_HOME/skills-radar/imports",
	NULL
};
static const char *const def_exclude[] = {
	".git", "node_modules", ".venv", "venv", "__pycache__", "dist", "build",
	NULL
};
static const char *const def_verified[] = {
	"~/.claude/plugins/cache/claude-plugins-official",
	NULL
};
static const char *const def_empty[] = { NULL };

static const char *const val_platform[] = {
	"auto", "linux", "macos", "windows", NULL
};
/* Indexed by enum trust_tier. */
static const char *const val_tier[] = {
	"untrusted", "user", "verified", "trusted", NULL
};
static const char *const val_embedder[] = { "builtin", "ollama", "openai",
    "voyage", NULL };
static const char *const val_rw_mode[] = { "replace", "expand", NULL };
static const char *const val_rr_mode[] = { "pair", "batch", NULL };
/* Indexed by enum telemetry_queries (telemetry.h). */
static const char *const val_queries[] = { "false", "true", "hash", NULL };
/* Indexed by enum telemetry_backend (telemetry.h). */
static const char *const val_tm_backend[] = { "sqlite", "postgres", NULL };
static const char *const val_group_by[] = { "auto", "tags", "scope", NULL };
static const char *const val_watcher[] = { "inotify", "poll", NULL };
/* Indexed by enum store_backend_kind (config.h). */
static const char *const val_store[] = { "sqlite", "postgres", NULL };

#define BOOL(k, f, d, h)	{ k, OPT_BOOL, OFF(f), d, NULL, 0, 1, NULL, 0, h }
#define INT(k, f, d, lo, hi, h)	{ k, OPT_INT, OFF(f), d, NULL, lo, hi, NULL, 0, h }
#define DBL(k, f, d, lo, hi, h)	{ k, OPT_DOUBLE, OFF(f), d, NULL, lo, hi, NULL, 0, h }
#define STR(k, f, d, fl, h)	{ k, OPT_STRING, OFF(f), d, NULL, 0, 0, NULL, fl, h }
#define ENUM(k, f, d, v, fl, h)	{ k, OPT_ENUM, OFF(f), d, NULL, 0, 0, v, fl, h }
#define LIST(k, f, d, fl, h)	{ k, OPT_LIST, OFF(f), NULL, d, 0, 0, NULL, fl, h }
#define PATH(k, f, d, h)	{ k, OPT_PATH, OFF(f), d, NULL, 0, 0, NULL, 0, h }
#define PATHS(k, f, d, h)	{ k, OPT_PATHLIST, OFF(f), NULL, d, 0, 0, NULL, 0, h }

const struct options_entry options_table[] = {
	PATHS("paths", paths, def_paths,
	    "Roots scanned for skills (SKILL.md), agents (agents/*.md) and "
	    "commands (commands/**/*.md). "
	    "A leading ~ and glob patterns are expanded; a pattern matching "
	    "nothing is kept so doctor can report it. "
	    "The environment variable SKILL_PATHS, when set, replaces this list."),
	BOOL("scan.project_roots", project_roots, "true",
	    "Also scan the current project: .claude/skills, .claude/agents, "
	    ".claude/commands and .agents/skills in the working directory and "
	    "each parent up to the git root, plus the roots an MCP client "
	    "announces."),
	LIST("scan.exclude_dirs", exclude_dirs, def_exclude, OPTF_DIRNAME,
	    "Directory names (not paths) never descended into while "
	    "scanning. "
	    "Dot-folders other than these are scanned."),
	ENUM("platform", platform, "auto", val_platform, 0,
	    "Host platform matched against a skill's platforms list; a skill "
	    "listing other platforms only is not indexed. "
	    "The value auto detects the running system."),

	ENUM("store.backend", store_backend, "sqlite", val_store, OPTF_ENUM_INT,
	    "Where the index is kept: sqlite (store.path, one user) or "
	    "postgres (store.dsn, shared by a team: one writer, index --watch "
	    "or serve --watch, keeps it; serve --transport http replicas "
	    "without --watch follow it)."),
	PATH("store.path", index_path, "$XDG_DATA_HOME/skills-radar/index.db",
	    "The SQLite index database written by index and read by every "
	    "other command. With store.backend postgres only the search index "
	    "cache (store.path.search) is kept here."),
	STR("store.dsn", store_dsn, "", 0,
	    "With store.backend postgres: the libpq connection string or URI "
	    "(postgresql://user@host/db). "
	    "The environment variable SKILLS_RADAR_DSN is used when this is "
	    "empty; keep a password in ~/.pgpass or PGPASSWORD, never here. "
	    "No message prints the password."),
	INT("store.poll_ms", store_poll_ms, "500", 50, 3600000,
	    "A replica on postgres checks the change counter this often (in "
	    "milliseconds) when no notification came, and retries a lost "
	    "connection with a backoff from this up to 10 times it."),
	INT("store.tombstone_writes", store_tomb_writes, "10000", 1,
	    1000000000,
	    "A deleted or renamed skill leaves a tombstone for this many "
	    "writes of the index, so a replica that was away catches up with "
	    "only what changed; one further behind reloads everything. Raise "
	    "it when replicas are often offline through many edits (each "
	    "tombstone is one small row)."),

	INT("limits.max_skill_size_kb", max_skill_size_kb, "256", 1, 65536,
	    "A skill file larger than this many KiB is rejected, unless "
	    "limits.allow_large is set. Real public skills reach 120 KiB "
	    "(Anthropic's own claude-api is 72 KiB), so the default admits "
	    "them; what reaches an agent is still paged by limits.max_load_kb."),
	BOOL("limits.allow_large", allow_large, "false",
	    "Index files over limits.max_skill_size_kb instead of rejecting "
	    "them; load_skill then returns them in pages. A file over 16 MiB "
	    "is still rejected: that cap bounds memory, not policy."),
	INT("limits.max_related_kb", max_related_kb, "256", 1, 1048576,
	    "Largest bundled file, in KiB, that read and load_skill return; "
	    "a larger file is refused."),
	INT("limits.max_load_kb", max_load_kb, "64", 1, 65536,
	    "Largest load result, in KiB; a longer body is returned in pages "
	    "(offset, max_bytes)."),
	INT("limits.max_files_per_skill", max_files_per_skill, "200", 0, 100000,
	    "Bundled files listed per skill; the rest are counted and "
	    "reported."),
	INT("limits.max_entries", max_entries, "100000", 1, 100000000,
	    "Skills, agents and commands one scan indexes; the rest are "
	    "counted, skipped and reported (the scan is then incomplete)."),
	INT("limits.max_depth", max_depth, "32", 1, 1024,
	    "Directory depth below a root at which the scan stops descending "
	    "and reports the cap."),

	BOOL("validation.strict_names", strict_names, "false",
	    "Reject at index time a skill whose name breaks the naming rule "
	    "(capitals, spaces, underscores, other punctuation, over 64 "
	    "characters). Off, such a skill is indexed under a normalised id "
	    "(\"PocketBase Deploy\" becomes pocketbase-deploy) with a "
	    "name-normalised warning, and keeps its name as written for "
	    "display, search and load. validate reports the name as an "
	    "error either way."),

	PATHS("trust.trusted_paths", trusted_paths, def_empty,
	    "Files under these paths are TRUSTED, the highest tier. "
	    "The tier is decided on the path as found and on its real path; "
	    "the lower of the two wins."),
	PATHS("trust.verified_paths", verified_paths, def_verified,
	    "Files under these paths are VERIFIED, the tier of the official "
	    "plugin marketplace."),
	LIST("trust.signers", signers, def_empty, OPTF_SIGNER,
	    "Keys whose signatures make a skill VERIFIED wherever it sits: "
	    "NAME=KEY entries, KEY a minisign public key (RW...) or the path "
	    "of a minisign .pub file. A skill is signed by SKILL.sha256 (the "
	    "sha256sum of every file of its folder) and SKILL.sha256.minisig."),
	ENUM("trust.min_tier_for_load", min_tier_for_load, "untrusted",
	    val_tier, OPTF_ENUM_INT,
	    "load_skill refuses skills below this tier: untrusted, user, "
	    "verified or trusted (case-insensitive)."),

	BOOL("sanitization.strip_live_exec", strip_live_exec, "false",
	    "Rewrite Claude Code pre-execution syntax (!`command`) in bodies "
	    "returned to an agent."),
	BOOL("sanitization.reject_untrusted_on_injection",
	    reject_untrusted_on_injection, "false",
	    "Drop UNTRUSTED skills the sanitiser flags for injection, both "
	    "at index and at load."),
	LIST("sanitization.xml_tags", xml_tags, def_empty, OPTF_TAGNAME,
	    "XML tag names redacted in addition to the built-in system, "
	    "override, jailbreak, admin, sudo and root. "
	    "Each is 1 to 31 characters without blanks, <, > or /, matched "
	    "without regard to case."),
	PATHS("sanitization.pattern_files", pattern_files, def_empty,
	    "Extra PCRE2 pattern catalogue files, in the format of the bundled "
	    "patterns file."),
	PATHS("sanitization.risk_files", risk_files, def_empty,
	    "Extra risk tables, in the format of the bundled risk.tsv, read "
	    "after it: a line for an existing rule id replaces its category, "
	    "weight, floor and explanation; @threshold lines move the warn "
	    "and high thresholds."),
	BOOL("sanitization.builtin_patterns", builtin_patterns, "true",
	    "Use the bundled pattern catalogue; set to false to rely on "
	    "sanitization.pattern_files only."),
	BOOL("sanitization.judge.enabled", judge_enabled, "false",
	    "Ask an Ollama model for a second opinion on grey-zone skills: "
	    "those whose risk score s has min_score <= s < max_score. The "
	    "skill text is sent as delimited data under a fixed "
	    "classification prompt (skills-radar(1), MODEL JUDGE); a "
	    "malicious verdict "
	    "adds the finding judge-malicious, a benign one judge-benign, "
	    "weighted by the risk table. Verdicts are cached by content hash "
	    "in judge-cache.tsv beside store.path. A timeout, an error or an "
	    "answer that is not a verdict leaves the score unchanged and is "
	    "reported as a note."),
	STR("sanitization.judge.url", judge_url, "http://127.0.0.1:11434",
	    OPTF_NONEMPTY, "Ollama server of the judge: scheme, host and "
	    "port."),
	STR("sanitization.judge.model", judge_model, "qwen2.5:1.5b",
	    OPTF_NONEMPTY, "Ollama model of the judge (/api/generate)."),
	INT("sanitization.judge.timeout_ms", judge_timeout_ms, "10000", 50,
	    600000, "Timeout of one judge request, in milliseconds."),
	DBL("sanitization.judge.min_score", judge_min_score, "3", 0, 1000,
	    "Lowest risk score sent to the judge: the grey zone starts a "
	    "little below the warn threshold (5 in the bundled risk table), "
	    "so that a malicious verdict can lift a skill the rules almost "
	    "flagged."),
	DBL("sanitization.judge.max_score", judge_max_score, "10", 0, 1000,
	    "Risk scores from this one up are not sent to the judge: the "
	    "high threshold of the bundled risk table, where the rules alone "
	    "are sure."),
	INT("sanitization.judge.cache_size", judge_cache, "2000", 0, 1000000,
	    "Verdicts kept (least recently used dropped); 0 keeps none and "
	    "asks every time."),

	DBL("retrieval.miss_threshold", miss_threshold, "0.4", 0, 1,
	    "A search whose best score is below this is reported as a miss."),
	DBL("retrieval.project_boost", project_boost, "0.1", 0, 1,
	    "Score added to skills found under the current project."),
	INT("retrieval.default_top_k", default_top_k, "5", 1, 50,
	    "Results returned by a search that does not ask for a number."),
	DBL("retrieval.usage_boost", usage_boost, "0.3", 0, 5,
	    "With telemetry on, favour skills that are actually loaded: the "
	    "score's odds are multiplied by at most e^usage_boost, for the "
	    "skill with the largest decayed load count (others by their "
	    "share of it, on a log scale). A skill never loaded keeps its "
	    "score, and the boost never lifts a result over "
	    "retrieval.miss_threshold. 0 is off."),
	DBL("retrieval.usage_half_life_days", usage_half_life, "7", 0.01, 3650,
	    "Half-life of a load in retrieval.usage_boost, in days (as "
	    "Claude Code ranks its own skill listing: count times "
	    "max(0.5^(days since last use / half-life), 0.1))."),
	BOOL("retrieval.learning.enabled", learn_enabled, "true",
	    "With telemetry on and telemetry.store_queries: true, a search "
	    "followed by a load in the same session within "
	    "retrieval.learning.window_seconds teaches the search's words to "
	    "the loaded skill; later queries with those words rank it higher "
	    "(search --explain shows the learned terms). Reset with "
	    "stats --reset-learning."),
	INT("retrieval.learning.window_seconds", learn_window, "120", 1, 86400,
	    "A load teaches the words of the search before it in the same "
	    "session only if it came at most this many seconds later."),
	INT("retrieval.learning.max_terms", learn_max_terms, "24", 1, 256,
	    "Learned words kept per skill (the heaviest)."),
	DBL("retrieval.learning.half_life_days", learn_half_life, "30", 0.01,
	    3650,
	    "Half-life of what one search and load taught, in days."),
	DBL("retrieval.learning.weight", learn_weight, "0.8", 0, 1,
	    "How much learned words can add: the score s becomes "
	    "1 - (1 - s)(1 - weight * evidence), where evidence (0 to 1) is "
	    "the idf-weighted share of the query's words learned for the "
	    "skill, each counted w / (w + 1) for w sessions that taught it "
	    "(decayed). At 0.8 or less one session alone cannot lift a skill "
	    "over the default miss threshold."),
	ENUM("embedder.backend", embedder, "builtin", val_embedder, 0,
	    "Embedding backend for semantic search: builtin is a hashed "
	    "feature embedder with no model files; ollama asks embedder.url "
	    "(/api/embed) for the vectors of embedder.model and keeps them in "
	    "ollama-vectors.db next to store.path, keyed by model, dimension "
	    "and text, so only new or changed skills are sent and a model "
	    "change re-embeds by itself. "
	    "openai and voyage ask the provider's /embeddings endpoint with the "
	    "key from the variable embedder.api_key_env names, and cache the "
	    "same way (openai-vectors.db, voyage-vectors.db). "
	    "When the backend cannot be reached at index time the builtin "
	    "embedder is used instead, and a query that cannot be embedded at "
	    "search time is ranked with builtin vectors; search results say "
	    "so."),
	INT("embedder.dim", embed_dim, "256", 16, 4096,
	    "Dimension of the builtin embedding vectors; any value in range. "
	    "The ollama backend takes the model's own dimension. "
	    "Changing it requires index --rebuild."),
	STR("embedder.url", embed_url, "http://127.0.0.1:11434", OPTF_NONEMPTY,
	    "Server of the embedder: for ollama scheme, host and port; for "
	    "openai and voyage the API base (left at this default it means "
	    "https://api.openai.com/v1 or https://api.voyageai.com/v1)."),
	STR("embedder.model", embed_model, "nomic-embed-text", OPTF_NONEMPTY,
	    "Embedding model (left at this default with openai or voyage: "
	    "text-embedding-3-small or voyage-3.5-lite)."),
	STR("embedder.api_key_env", embed_key_env, "", 0,
	    "Environment variable holding the openai or voyage API key "
	    "(empty: OPENAI_API_KEY or VOYAGE_API_KEY); the key itself never "
	    "goes in this file."),
	DBL("embedder.price_per_mtok", embed_price, "-1", -1, 1000,
	    "US dollars per million input tokens for doctor's cost estimate "
	    "(-1: the built-in list price of embedder.model)."),
	INT("embedder.timeout_ms", embed_timeout_ms, "30000", 100, 600000,
	    "Timeout of one embedding request, in milliseconds (a query "
	    "vector, or one batch of skill texts); with openai and voyage it "
	    "includes waiting out rate limits."),
	INT("embedder.batch", embed_batch, "64", 1, 256,
	    "Skill texts sent in one /api/embed request while indexing."),
	INT("embedder.cache_size", embed_cache, "512", 0, 1000000,
	    "Query vectors kept in memory (least recently used evicted); 0 "
	    "keeps none."),

	BOOL("retrieval.rewriter.enabled", rw_enabled, "false",
	    "Rewrite each query with an Ollama model into English search "
	    "keywords before retrieval (helps casual, fuzzy and non-English "
	    "queries). The raw query is still used for reranking and "
	    "telemetry. search --rewrite or --no-rewrite overrides it for one "
	    "query."),
	STR("retrieval.rewriter.url", rw_url, "http://127.0.0.1:11434",
	    OPTF_NONEMPTY, "Ollama server of the rewriter: scheme, host and "
	    "port."),
	STR("retrieval.rewriter.model", rw_model, "qwen2.5:1.5b",
	    OPTF_NONEMPTY, "Ollama model of the rewriter (/api/generate)."),
	ENUM("retrieval.rewriter.mode", rw_mode, "expand", val_rw_mode, 0,
	    "replace searches with the rewritten keywords only; expand "
	    "searches with the raw query and the keywords and keeps each "
	    "skill's better score."),
	INT("retrieval.rewriter.timeout_ms", rw_timeout_ms, "3000", 50, 600000,
	    "Timeout of the rewrite request, in milliseconds; on a timeout "
	    "or any other failure the raw query is searched."),
	INT("retrieval.rewriter.cache_size", rw_cache, "256", 0, 1000000,
	    "Rewrites kept in memory by model and query (least recently used "
	    "evicted); 0 keeps none."),
	BOOL("retrieval.reranker.enabled", rr_enabled, "false",
	    "Rescore the best candidates with an Ollama model (0 to 10 per "
	    "query and skill) and blend that with the fused score. "
	    "search --rerank or --no-rerank overrides it for one query."),
	STR("retrieval.reranker.url", rr_url, "http://127.0.0.1:11434",
	    OPTF_NONEMPTY, "Ollama server of the reranker: scheme, host and "
	    "port."),
	STR("retrieval.reranker.model", rr_model, "qwen2.5:1.5b",
	    OPTF_NONEMPTY, "Ollama model of the reranker (/api/generate)."),
	ENUM("retrieval.reranker.mode", rr_mode, "pair", val_rr_mode, 0,
	    "pair sends one request per candidate, all in flight at once (up "
	    "to retrieval.reranker.parallel), each with its own timeout; a "
	    "candidate whose request fails keeps its fused score. "
	    "batch sends one prompt listing every candidate and reads N=score "
	    "lines; a candidate without a line keeps its fused score."),
	INT("retrieval.reranker.pool", rr_pool, "20", 1, 50,
	    "Candidates reranked: the best this many fused results (at least "
	    "the requested count)."),
	INT("retrieval.reranker.parallel", rr_parallel, "8", 1, 64,
	    "Pair requests in flight at once (Ollama's OLLAMA_NUM_PARALLEL "
	    "bounds how many it really runs together)."),
	DBL("retrieval.reranker.weight", rr_weight, "0.5", 0, 1,
	    "Share of the reranker in the final score: weight * score/10 + "
	    "(1 - weight) * fused score, so the score stays in [0, 1] and "
	    "comparable with retrieval.miss_threshold."),
	INT("retrieval.reranker.timeout_ms", rr_timeout_ms, "5000", 50, 600000,
	    "Timeout of one rerank request (a pair, or the whole batch), in "
	    "milliseconds."),
	INT("retrieval.reranker.cache_size", rr_cache, "2048", 0, 1000000,
	    "Pair scores kept in memory by model, query and skill text (least "
	    "recently used evicted); 0 keeps none."),

	INT("mcp.instructions_budget", instructions_budget, "1000", 0, 100000,
	    "Tokens of the skill mini-index sent in the MCP instructions; 0 "
	    "sends none."),
	INT("mcp.max_message_kb", max_message_kb, "1024", 1, 65536,
	    "Largest JSON-RPC message, in KiB, the MCP server accepts."),
	STR("transport.host", http_host, "127.0.0.1", OPTF_NONEMPTY,
	    "Address that serve --transport http listens on."),
	INT("transport.port", http_port, "6580", 1, 65535,
	    "TCP port that serve --transport http listens on."),
	STR("transport.path", http_path, "/mcp", OPTF_SLASH,
	    "HTTP path of the MCP endpoint; must start with a slash."),
	BOOL("transport.stateless", stateless, "true",
	    "Serve HTTP without sessions; when false the server issues an "
	    "Mcp-Session-Id and requires it back."),
	LIST("transport.allowed_origins", allowed_origins, def_empty, 0,
	    "Origin header values accepted over HTTP; empty accepts only "
	    "localhost origins."),
	STR("transport.auth_token", auth_token, "", 0,
	    "Bearer token required on every HTTP request when not empty. "
	    "The environment variable SKILLS_RADAR_TOKEN overrides it."),
	INT("transport.max_body_kb", max_body_kb, "1024", 1, 65536,
	    "Largest HTTP request body, in KiB."),
	INT("transport.timeout_s", timeout_s, "30", 1, 3600,
	    "Seconds an HTTP connection may stay idle."),
	INT("transport.threads", threads, "4", 1, 64,
	    "Worker threads of the HTTP server."),
	INT("transport.max_connections", max_connections, "512", 1, 100000,
	    "Open HTTP connections at most; a few more are kept for GET "
	    "/healthz. Capped by the open-file limit."),
	INT("transport.max_connections_per_ip", max_connections_per_ip, "256",
	    1, 100000,
	    "Open HTTP connections at most from one client address; one more "
	    "closes that client's oldest connection still sending its "
	    "request."),
	INT("transport.header_timeout_s", header_timeout_s, "10", 1, 3600,
	    "Seconds a client has to send a request's headers; its body then "
	    "has transport.timeout_s. Slower connections are closed."),

	BOOL("telemetry.enabled", telemetry_enabled, "false",
	    "Record searches, loads and index runs in the local telemetry "
	    "database for skills-radar stats and tui. "
	    "Off by default; when off nothing is created or written, and "
	    "nothing ever leaves the machine."),
	PATH("telemetry.db_path", telemetry_path,
	    "$XDG_DATA_HOME/skills-radar/stats.db",
	    "The SQLite telemetry database, written by every server and CLI "
	    "process when telemetry.enabled is true and read by stats and "
	    "tui."),
	ENUM("telemetry.backend", telemetry_backend, "sqlite", val_tm_backend,
	    OPTF_ENUM_INT,
	    "Where events go: sqlite appends to the local file "
	    "telemetry.db_path; postgres appends to the PostgreSQL database "
	    "telemetry.dsn, shared by a fleet of servers so one stats report "
	    "and one dashboard cover them all. Writes are batched on a "
	    "background thread; while PostgreSQL is unreachable events wait in "
	    "memory (telemetry.buffer_events) and the number dropped is "
	    "counted, reported and stored when it comes back."),
	STR("telemetry.dsn", telemetry_dsn, "", 0,
	    "The PostgreSQL connection string (a postgresql:// URI or "
	    "key=value pairs) of telemetry.backend: postgres. When empty, the "
	    "environment variable SKILLS_RADAR_DSN is used. Its password is "
	    "never printed in errors or by doctor."),
	STR("telemetry.replica", telemetry_replica, "", 0,
	    "The name stored with every event of this process (the column "
	    "replica), so stats and tui can tell the servers of a fleet apart; "
	    "empty uses the host name (host:port for serve --transport http "
	    "on a fixed port, so replicas on one host differ)."),
	INT("telemetry.buffer_events", telemetry_buffer, "4096", 16, 1000000,
	    "Events held in memory waiting to be written. When the database "
	    "is slow or unreachable and the buffer is full, new events are "
	    "dropped and counted (stderr with -v, doctor, stats); a search "
	    "never waits for the database."),
	ENUM("telemetry.store_queries", store_queries, "true", val_queries,
	    OPTF_ENUM_INT,
	    "How search queries are recorded: true stores the text (case "
	    "folded, blanks collapsed), hash stores a keyed hash whose random "
	    "key lives in the database, so repeated queries still group but "
	    "the text cannot be read back, false stores no query at all."),
	INT("telemetry.retention_days", retention_days, "90", 0, 36500,
	    "Events older than this many days are deleted, at most once a day, "
	    "by a writing process; 0 keeps every event."),
	DBL("stats.conversion_window_s", conversion_window_s, "300", 1, 86400,
	    "A load counts as converting a search when it follows the search "
	    "in the same session within this many seconds."),

	INT("mini_index.budget_tokens", mini_budget_tokens, "1000", 50, 100000,
	    "Hard token budget of the Tier-1 mini-index written by mini-index. "
	    "When the full list does not fit, shared name parts are written "
	    "once per group, summaries become keywords dealt out a word at a "
	    "time, then are dropped, then groups are folded into counts with "
	    "some of their names."),
	PATH("mini_index.path", mini_path, "~/.claude/SKILLS-INDEX.md",
	    "File written by mini-index and imported from ~/.claude/CLAUDE.md "
	    "by mini-index --install."),
	ENUM("mini_index.group_by", mini_group_by, "auto", val_group_by, 0,
	    "Sections of the mini-index: tags (hub-tags), scope (user, "
	    "project, plugin) or auto (tags when most skills have them, else "
	    "plugins and scopes when there are several, else shared name "
	    "parts)."),
	BOOL("mini_index.auto", mini_auto, "false",
	    "Regenerate the mini-index file after index and on hot reload."),
	INT("doctor.context_tokens", context_tokens, "200000", 1000, 100000000,
	    "Context window, in tokens, that doctor assumes for Claude Code's "
	    "skill listing budget (context tokens x 4 x 1% characters); the "
	    "environment variable SLASH_COMMAND_TOOL_CHAR_BUDGET overrides "
	    "the result."),

	BOOL("watcher.enabled", watch_enabled, "false",
	    "Hot reload in serve (as serve --watch): every change under the "
	    "roots (new, edited, renamed or deleted skills, new roots) is "
	    "indexed and searchable without a restart."),
	INT("watcher.debounce_ms", debounce_ms, "250", 0, 60000,
	    "Quiet time, in milliseconds, after the last change before the "
	    "index is updated, so a burst (an editor's save, git checkout) is "
	    "one update."),
	ENUM("watcher.backend", watch_backend, "inotify", val_watcher,
	    OPTF_ENUM_INT,
	    "inotify (Linux file system events) or poll (compare the files "
	    "every watcher.poll_interval_ms, for file systems without events: "
	    "network mounts, Docker bind mounts on macOS or Windows)."),
	INT("watcher.poll_interval_ms", poll_interval_ms, "2000", 50, 3600000,
	    "With watcher.backend poll: milliseconds between two scans."),
};

const size_t options_count = sizeof options_table / sizeof options_table[0];

const struct options_entry *
options_find(const char *key)
{
	size_t	 i;

	for (i = 0; i < options_count; i++) {
		if (strcmp(options_table[i].key, key) == 0)
			return &options_table[i];
	}
	return NULL;
}

int
options_is_section(const char *key)
{
	size_t	 i, n;

	n = strlen(key);
	for (i = 0; i < options_count; i++) {
		if (strncmp(options_table[i].key, key, n) == 0 &&
		    options_table[i].key[n] == '.')
			return 1;
	}
	return 0;
}

const char *
options_suggest(const char *key)
{
	const char	*best = NULL, *leaf, *kleaf;
	size_t		 i, d, bestd = (size_t)-1, limit;

	/* Close enough: a third of the key, at least 2 edits. */
	limit = strlen(key) / 3;
	if (limit < 2)
		limit = 2;
	for (i = 0; i < options_count; i++) {
		d = strlist_distance(key, options_table[i].key, 64);
		if (d < bestd) {
			bestd = d;
			best = options_table[i].key;
		}
	}
	if (best != NULL && bestd <= limit)
		return best;

	/* Right leaf name in the wrong section: "limits.port". */
	leaf = strrchr(key, '.');
	leaf = leaf != NULL ? leaf + 1 : key;
	for (i = 0; i < options_count; i++) {
		kleaf = strrchr(options_table[i].key, '.');
		kleaf = kleaf != NULL ? kleaf + 1 : options_table[i].key;
		if (strcmp(leaf, kleaf) == 0)
			return options_table[i].key;
	}
	return NULL;
}

const char *
options_type_name(enum options_type t)
{
	switch (t) {
	case OPT_BOOL:
		return "boolean";
	case OPT_INT:
		return "integer";
	case OPT_DOUBLE:
		return "number";
	case OPT_STRING:
		return "string";
	case OPT_ENUM:
		return "enum";
	case OPT_LIST:
		return "list";
	case OPT_PATH:
		return "path";
	case OPT_PATHLIST:
		return "path list";
	}
	return "?";
}
