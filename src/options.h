/*
 * The option table: one entry per key of the configuration file, each
 * naming the struct config field it sets (by offset), its type, default,
 * bounds or allowed values and a help text. config.c loads, defaults,
 * frees and documents struct config only through this table, so a key
 * cannot exist without a field nor a field without a key.
 * The table and everything it points to is static and read-only.
 */
#ifndef SR_OPTIONS_H
#define SR_OPTIONS_H

#include <stddef.h>

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
