/*
 * Private to the client-configuration files: clients.c (paths, reading,
 * JSON merge, the Codex TOML edit, atomic writes) and clients_report.c
 * (doctor's report on what each client is configured with). Everyone
 * else uses clients.h.
 */
#ifndef SR_CLIENTS_IMPL_H
#define SR_CLIENTS_IMPL_H

#include <sys/types.h>

#include <cjson/cJSON.h>

#include "cli/clients.h"

/* Client configuration files bigger than this are refused. */
#define CLIENT_MAX_FILE	(64u * 1024 * 1024)

enum client_format { FMT_JSON, FMT_TOML };

/*
 * How each client spells a stdio and an HTTP entry, and which keys belong
 * to one transport only: client_add drops the other transport's keys
 * (Codex refuses its whole file over an `env` on an HTTP server) and
 * doctor reports them. Keys in neither list (timeouts, trust, ...) are
 * the user's and are kept.
 */
struct client_def {
	const char		*name;
	enum client_format	 fmt;
	int			 typed;		/* "type": "stdio" | "http" */
	const char		*url_key;	/* NULL: no HTTP in the file */
	const char		*no_http;	/* why there is no HTTP */
	const char		*token_fmt;	/* Authorization header value */
	const char *const	*stdio_keys;	/* taken by stdio entries only */
	const char *const	*http_keys;	/* taken by HTTP entries only */
};

/* A client file as read: its real path, bytes and mode. */
struct cfile {
	char	*path;		/* as the user knows it */
	char	*real;		/* symlinks resolved: what is written */
	char	*data;		/* NUL-terminated; NULL when missing */
	size_t	 len;
	mode_t	 mode;
	int	 exists;
};

/*
 * A line-level reading of a TOML file: enough to find and rewrite one
 * table without disturbing anything else, and to refuse a file that is
 * not TOML (unterminated strings and brackets, lines that are neither a
 * table header nor key = value). Keys are kept as their parts joined by
 * '\037', quotes removed.
 */
enum tkind { TL_OTHER, TL_HEADER, TL_AHEADER, TL_KV, TL_CONT };

struct tline {
	const char	*s;		/* into the file's bytes */
	size_t		 len;		/* without the newline */
	enum tkind	 kind;
	char		*table;		/* header: its name; kv: the table */
	char		*key;		/* kv: the key, relative to table */
	int		 del;		/* removed by the edit */
};

struct tdoc {
	struct tline	*v;
	size_t		 n;
	int		 crlf;
};

int
in_list(const char *const *list, const char *key);
const char *const *
foreign_keys(const struct client_def *d, int http);
int
client_config_path(const char *client, enum client_scope scope, char **path,
    char **cause);
void
cfile_done(struct cfile *f);
int
cfile_read(const char *path, mode_t new_mode, struct cfile *f, char **cause);
int
json_parse(const struct cfile *f, cJSON **doc, char **cause);
int
json_servers(cJSON *doc, const struct cfile *f, int create, cJSON **out,
    char **cause);
void
tdoc_done(struct tdoc *t);
int
toml_parse(const struct cfile *f, struct tdoc *t, char **cause);
int
toml_find(const struct cfile *f, const struct tdoc *t, const char *want,
    size_t *hdr, char **cause);
char *
toml_table_name(const char *name);
/*
 * The value of key/value line l when it is a one-line TOML string (basic
 * or literal), allocated; NULL for any other value or an escape it does
 * not read (\u...), so that a caller never checks a wrong value.
 */
char *
toml_kv_string(const struct tline *l);
int
client_open(const char *client, enum client_scope scope, int http,
    const struct client_def **dp, struct cfile *f, struct client_change *out,
    char **cause);
/* The clients this program knows, ended by an entry with a NULL name. */
extern const struct client_def clients_defs[];
/* The index past the last line of the TOML table whose header is line h. */
size_t	 toml_region_end(const struct tdoc *t, size_t h);

#endif
