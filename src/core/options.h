/*
 * The option table: one entry per key of the configuration file, each
 * naming the struct config field it sets (by offset), its type, default,
 * bounds or allowed values and a help text. config.c loads, defaults,
 * frees and documents struct config only through this table, so a key
 * cannot exist without a field nor a field without a key.
 * struct config is defined here, beside the table that describes each
 * of its fields; config.h (loading it) builds on this header, and this
 * module uses nothing of config.c.
 * The table and everything it points to is static and read-only.
 */
#ifndef SR_OPTIONS_H
#define SR_OPTIONS_H

#include <stddef.h>

#include "base/strlist.h"

enum store_backend_kind {
	STORE_BACKEND_SQLITE = 0,
	STORE_BACKEND_POSTGRES
};

struct config {
	char		*source;		/* file loaded, NULL: defaults */

	/* roots */
	struct strlist	 paths;			/* paths (SKILL_PATHS replaces) */
	int		 project_roots;		/* scan.project_roots */
	struct strlist	 exclude_dirs;		/* scan.exclude_dirs */
	char		*platform;		/* platform: auto|linux|macos|windows */

	/* store (store.h) */
	int		 store_backend;		/* store.backend (enum store_backend_kind) */
	char		*index_path;		/* store.path (index.db) */
	char		*store_dsn;		/* store.dsn (SKILLS_RADAR_DSN) */
	int		 store_poll_ms;		/* store.poll_ms */
	int		 store_tomb_writes;	/* store.tombstone_writes */

	/* limits */
	int		 max_skill_size_kb;	/* limits.max_skill_size_kb */
	int		 allow_large;		/* limits.allow_large */
	int		 max_related_kb;	/* limits.max_related_kb */
	int		 max_load_kb;		/* limits.max_load_kb */
	int		 max_files_per_skill;	/* limits.max_files_per_skill */
	int		 max_entries;		/* limits.max_entries */
	int		 max_depth;		/* limits.max_depth */

	/* validation */
	int		 strict_names;		/* validation.strict_names */

	/* trust */
	struct strlist	 trusted_paths;		/* trust.trusted_paths */
	struct strlist	 verified_paths;	/* trust.verified_paths */
	int		 min_tier_for_load;	/* trust.min_tier_for_load (enum trust_tier) */
	struct strlist	 signers;		/* trust.signers: NAME=KEY */

	/* sanitization */
	int		 strip_live_exec;	/* sanitization.strip_live_exec */
	int		 reject_untrusted_on_injection;
	struct strlist	 xml_tags;		/* sanitization.xml_tags (added to the built-in six) */
	struct strlist	 pattern_files;		/* sanitization.pattern_files */
	struct strlist	 risk_files;		/* sanitization.risk_files */
	int		 builtin_patterns;	/* sanitization.builtin_patterns */
	int		 judge_enabled;		/* sanitization.judge.enabled */
	char		*judge_url;		/* sanitization.judge.url */
	char		*judge_model;		/* sanitization.judge.model */
	int		 judge_timeout_ms;	/* sanitization.judge.timeout_ms */
	double		 judge_min_score;	/* sanitization.judge.min_score */
	double		 judge_max_score;	/* sanitization.judge.max_score */
	int		 judge_cache;		/* sanitization.judge.cache_size */

	/* retrieval */
	double		 miss_threshold;	/* retrieval.miss_threshold */
	double		 project_boost;		/* retrieval.project_boost */
	int		 default_top_k;		/* retrieval.default_top_k */
	double		 usage_boost;		/* retrieval.usage_boost */
	double		 usage_half_life;	/* retrieval.usage_half_life_days */
	int		 learn_enabled;		/* retrieval.learning.enabled */
	int		 learn_window;		/* retrieval.learning.window_seconds */
	int		 learn_max_terms;	/* retrieval.learning.max_terms */
	double		 learn_half_life;	/* retrieval.learning.half_life_days */
	double		 learn_weight;		/* retrieval.learning.weight */
	char		*embedder;		/* embedder.backend: builtin|ollama */
	int		 embed_dim;		/* embedder.dim */

	/* Ollama stages (rewrite.c, rerank.c, embed_ollama.c) */
	char		*embed_url;		/* embedder.url */
	char		*embed_model;		/* embedder.model */
	int		 embed_timeout_ms;	/* embedder.timeout_ms */
	int		 embed_batch;		/* embedder.batch */
	int		 embed_cache;		/* embedder.cache_size (query vectors) */
	char		*embed_key_env;		/* embedder.api_key_env (openai, voyage) */
	double		 embed_price;		/* embedder.price_per_mtok, < 0: built in */
	int		 rw_enabled;		/* retrieval.rewriter.enabled */
	char		*rw_url;		/* retrieval.rewriter.url */
	char		*rw_model;		/* retrieval.rewriter.model */
	char		*rw_mode;		/* retrieval.rewriter.mode: replace|expand */
	int		 rw_timeout_ms;		/* retrieval.rewriter.timeout_ms */
	int		 rw_cache;		/* retrieval.rewriter.cache_size */
	int		 rr_enabled;		/* retrieval.reranker.enabled */
	char		*rr_url;		/* retrieval.reranker.url */
	char		*rr_model;		/* retrieval.reranker.model */
	char		*rr_mode;		/* retrieval.reranker.mode: pair|batch */
	int		 rr_pool;		/* retrieval.reranker.pool */
	int		 rr_parallel;		/* retrieval.reranker.parallel */
	double		 rr_weight;		/* retrieval.reranker.weight */
	int		 rr_timeout_ms;		/* retrieval.reranker.timeout_ms */
	int		 rr_cache;		/* retrieval.reranker.cache_size */

	/* mcp / transport */
	int		 instructions_budget;	/* mcp.instructions_budget (tokens) */
	int		 max_message_kb;	/* mcp.max_message_kb */
	char		*http_host;		/* transport.host */
	int		 http_port;		/* transport.port */
	char		*http_path;		/* transport.path */
	int		 stateless;		/* transport.stateless */
	struct strlist	 allowed_origins;	/* transport.allowed_origins */
	char		*auth_token;		/* transport.auth_token (SKILLS_RADAR_TOKEN) */
	int		 max_body_kb;		/* transport.max_body_kb */
	int		 timeout_s;		/* transport.timeout_s */
	int		 threads;		/* transport.threads */
	int		 max_connections;	/* transport.max_connections */
	int		 max_connections_per_ip; /* transport.max_connections_per_ip */
	int		 header_timeout_s;	/* transport.header_timeout_s */

	/* telemetry + stats (src/telemetry.c, stats/, cmd_stats.c) */
	int		 telemetry_enabled;	/* telemetry.enabled */
	char		*telemetry_path;	/* telemetry.db_path (stats.db) */
	int		 store_queries;		/* telemetry.store_queries (enum telemetry_queries) */
	int		 retention_days;	/* telemetry.retention_days, 0: forever */
	int		 telemetry_backend;	/* telemetry.backend (enum telemetry_backend) */
	char		*telemetry_dsn;		/* telemetry.dsn (SKILLS_RADAR_DSN when empty) */
	char		*telemetry_replica;	/* telemetry.replica, "" : the host name */
	int		 telemetry_buffer;	/* telemetry.buffer_events */
	double		 conversion_window_s;	/* stats.conversion_window_s */

	/* Tier-1 mini-index and doctor's budget report (miniindex.c, budget.c) */
	int		 mini_budget_tokens;	/* mini_index.budget_tokens */
	char		*mini_path;		/* mini_index.path */
	char		*mini_group_by;		/* mini_index.group_by: auto|tags|scope */
	int		 mini_auto;		/* mini_index.auto */
	int		 context_tokens;	/* doctor.context_tokens */

	/* hot reload (watch.c) */
	int		 watch_enabled;		/* watcher.enabled */
	int		 debounce_ms;		/* watcher.debounce_ms */
	int		 watch_backend;		/* watcher.backend: 0 inotify, 1 poll */
	int		 poll_interval_ms;	/* watcher.poll_interval_ms */
};

enum options_type {
	OPT_BOOL,	/* int: 0 or 1 */
	OPT_INT,	/* int within [min, max] */
	OPT_DOUBLE,	/* double within [min, max] */
	OPT_STRING,	/* char * */
	OPT_ENUM,	/* char * (canonical value), or int index with OPTF_ENUM_INT */
	OPT_LIST,	/* struct strlist of strings */
	OPT_PATH,	/* char *, ~ expanded */
	OPT_PATHLIST	/* struct strlist, ~ and globs expanded */
};

/* flags */
#define OPTF_ENUM_INT	0x1	/* OPT_ENUM stored as the index into values */
#define OPTF_SLASH	0x2	/* OPT_STRING must start with '/' */
#define OPTF_NONEMPTY	0x4	/* OPT_STRING must not be empty */
#define OPTF_DIRNAME	0x8	/* OPT_LIST items are names without '/' */
#define OPTF_TAGNAME	0x10	/* OPT_LIST items are XML tag names (< 32 bytes) */
#define OPTF_SIGNER	0x20	/* OPT_LIST items are NAME=KEY (trust.signers) */

struct options_entry {
	const char		*key;		/* dotted: "retrieval.miss_threshold" */
	enum options_type	 type;
	size_t			 off;		/* offsetof(struct config, field) */
	/*
	 * Scalar default as text. A path may start with ~,
	 * $XDG_CONFIG_HOME or $XDG_DATA_HOME (each with its XDG fallback).
	 */
	const char		*def;
	const char *const	*defl;		/* list default, NULL-terminated */
	double			 min, max;	/* OPT_INT, OPT_DOUBLE */
	const char *const	*values;	/* OPT_ENUM, NULL-terminated, lower case */
	int			 flags;
	const char		*help;		/* sentences, no markup */
};

extern const struct options_entry	options_table[];
extern const size_t			options_count;

/* Returns the entry for a dotted key, or NULL. */
const struct options_entry	*options_find(const char *key);
/* Returns 1 when key is a section ("retrieval") of some entry. */
int				 options_is_section(const char *key);
/* Returns the known key closest to key by edit distance, or NULL. */
const char			*options_suggest(const char *key);
/* "bool", "integer", ... for messages and documentation. */
const char			*options_type_name(enum options_type);

#endif
