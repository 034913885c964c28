/*
 * Configuration: defaults, loading and the commented template, all
 * walking the option table (options.h, which also defines struct config:
 * this module depends on it, never the other way). config_load() returns
 * a struct config the caller owns and releases with config_free(). Every
 * key in the table is read by some module; the table is the single
 * source for config-init, the skills-radar.yaml(5) page and validation.
 */
#ifndef SR_CONFIG_H
#define SR_CONFIG_H

#include <stdio.h>

#include "core/options.h"
#include "base/strlist.h"

/*
 * The largest skill file read even with limits.allow_large: a cap on
 * memory, not a policy, so messages name it when it is what refused.
 */
#define CONFIG_LARGE_MAX	((size_t)16 << 20)

/* Returns a config holding the built-in defaults (paths expanded). */
struct config	*config_defaults(void);
void		 config_free(struct config *);

/*
 * Resolves the config file (explicit path, else $SKILLS_RADAR_CONFIG,
 * else $XDG_CONFIG_HOME/skills-radar/config.yaml), loads it over the
 * defaults and applies the environment (SKILL_PATHS, SKILLS_RADAR_TOKEN).
 * A missing file gives the defaults, except an explicit --config file,
 * which must exist. The file must be a regular file (a FIFO is refused
 * without blocking), or /dev/null, read as empty. Warnings (unknown keys, with the closest known key)
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
