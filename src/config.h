/*
 * Configuration: the option table, defaults, loading and the commented
 * template. config_load() returns a struct config the caller owns and
 * releases with config_free(). Every key in the table is read by some
 * module; the table is the single source for config-init, the
 * skills-radar.yaml(5) page and validation.
 */
#ifndef SR_CONFIG_H
#define SR_CONFIG_H

#include <stdio.h>

#include "strlist.h"

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

	/* trust */
	struct strlist	 trusted_paths;		/* trust.trusted_paths */
	struct strlist	 verified_paths;	/* trust.verified_paths */
	int		 min_tier_for_load;	/* trust.min_tier_for_load (enum trust_tier) */

	/* sanitization */
	int		 strip_live_exec;	/* sanitization.strip_live_exec */
	int		 reject_untrusted_on_injection;
	struct strlist	 xml_tags;		/* sanitization.xml_tags (added to the built-in six) */
	struct strlist	 pattern_files;		/* sanitization.pattern_files */
	int		 builtin_patterns;	/* sanitization.builtin_patterns */

	/* retrieval */
	double		 miss_threshold;	/* retrieval.miss_threshold */
	double		 project_boost;		/* retrieval.project_boost */
	int		 default_top_k;		/* retrieval.default_top_k */
	char		*embedder;		/* embedder.backend: builtin|ollama */
	int		 embed_dim;		/* embedder.dim */

	/* Ollama stages (rewrite.c, rerank.c, embed_ollama.c) */
	char		*embed_url;		/* embedder.url */
	char		*embed_model;		/* embedder.model */
	int		 embed_timeout_ms;	/* embedder.timeout_ms */
	int		 embed_batch;		/* embedder.batch */
	int		 embed_cache;		/* embedder.cache_size (query vectors) */
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

/* Returns a config holding the built-in defaults (paths expanded). */
struct config	*config_defaults(void);
void		 config_free(struct config *);

/*
 * Resolves the config file (explicit path, else $SKILLS_RADAR_CONFIG,
 * else $XDG_CONFIG_HOME/skills-radar/config.yaml), loads it over the
 * defaults and applies the environment (SKILL_PATHS, SKILLS_RADAR_TOKEN).
 * A missing file gives the defaults, except an explicit --config file,
 * which must exist. Warnings (unknown keys, with the closest known key)
 * are appended to warnings (may be NULL). Returns 0, or SR_CONFIG with
 * *cause set to "file:line:column: message" (free it).
 * A key set twice, a YAML alias, a second document or a non-mapping top
 * level is an error; an empty file gives the defaults. A relative path in
 * the file is taken relative to the file's directory. An empty
 * SKILL_PATHS or SKILLS_RADAR_TOKEN counts as unset.
 */
int		 config_load(const char *explicit_path, struct config **out,
		    struct strlist *warnings, char **cause);

/* The path config_load() would read; allocated. */
char		*config_default_path(const char *explicit_path);

/* Writes the fully commented template with every key and its default. */
int		 config_write_template(FILE *);
/* Writes the key reference as mdoc for skills-radar.yaml(5). */
int		 config_write_mdoc(FILE *);

/*
 * Expands a leading ~ and environment-free globs in a path pattern,
 * appending every match (or the pattern itself when it has no glob
 * characters or matches nothing, ~ expanded) to out, sorted.
 */
void		 config_expand_path(const char *pattern, struct strlist *out);
/* Expands a leading ~ only; allocated. */
char		*config_expand_tilde(const char *);
/* $XDG_DATA_HOME/skills-radar (default ~/.local/share/skills-radar); allocated. */
char		*config_data_dir(void);
/*
 * Where the bundled data files live (patterns, examples); allocated:
 * $SKILLS_RADAR_DATADIR, else the installed pkgdatadir when it exists,
 * else the source tree's config/ directory.
 */
char		*config_pkgdata_dir(void);

#endif
