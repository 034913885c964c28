/*
 * The command table and what every cmd_*.c shares. A command receives
 * argv with argv[0] = the command name, parses its own flags with
 * cmd_getopt() (main.c resets optind = 0 first), prints data to stdout and
 * errors to stderr, and returns an enum sr_status as the process exit
 * status.
 * Only main.c and cmd_*.c may print to the terminal or exit.
 */
#ifndef SR_CMD_H
#define SR_CMD_H

#include <signal.h>
#include <stdio.h>

#include <cjson/cJSON.h>

struct config;

struct cmd_ctx {
	const char	*config_path;	/* --config FILE, or NULL */
	int		 verbose;	/* -v count */
	struct config	*cfg;		/* loaded for CMD_NEEDS_CONFIG */
	int		 color;		/* stdout is a terminal and NO_COLOR unset */
	int		 progress;	/* stderr is a terminal */
	const struct cmd_entry *cmd;	/* the command running: its usage */
};

#define CMD_NEEDS_CONFIG	0x1

struct cmd_entry {
	const char	*name;
	int		(*fn)(struct cmd_ctx *, int, char **);
	int		 flags;
	const char	*usage;		/* as in the man page SYNOPSIS */
	const char	*summary;
};

/* Each command's entry, beside its handler in cmd_*.c. */
extern const struct cmd_entry cmd_config_init_entry, cmd_index_entry,
    cmd_list_entry, cmd_search_entry, cmd_load_entry, cmd_read_entry,
    cmd_validate_entry, cmd_scan_entry, cmd_serve_entry, cmd_doctor_entry,
    cmd_client_entry, cmd_stats_entry, cmd_telemetry_entry, cmd_tui_entry,
    cmd_mini_index_entry, cmd_sign_entry, cmd_import_entry;

/* Finds a command's table entry by name, or NULL. */
const struct cmd_entry *cmd_find(const char *);
/* The command a mistyped name most likely meant, or NULL. */
const char *cmd_suggest(const char *);
/* The list of commands, for --help (stdout) or a usage error (stderr). */
void	cmd_list_usage(FILE *);
/*
 * Sets the context cmd_getopt() counts -v into: -v and --verbose work
 * after the command name too ("skills-radar index -v").
 */
void	cmd_bind(struct cmd_ctx *);

/*
 * Prints "skills-radar NAME: message" and the command's usage line to
 * stderr; returns SR_USAGE so a command can `return cmd_usage(...)`.
 */
int	cmd_usage(const char *name, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
/* Prints "skills-radar: message" to stderr. */
void	cmd_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * Prints a command's "--help" text to stdout; returns SR_OK. The entry
 * is given, never looked up: the helpers the commands call do not reach
 * back into the command table (no circle through commands.c).
 */
int	cmd_help(const struct cmd_entry *c);
/*
 * getopt_long() for a command's flags, handling what every command does
 * alike (-h/--help and -v/--verbose, whether or not optstring and
 * longopts name them; longopts may be NULL). Returns the next option for the command to handle, or -1 when
 * the flags end; *stop is then -1, or the status the command returns at
 * once: cmd_help()'s for --help (-h), cmd_usage()'s for an unknown option.
 */
struct option;
int	cmd_getopt(const char *name, int argc, char **argv,
	    const char *optstring, const struct option *longopts, int *stop);
/*
 * For a command that takes no operands, after its flags: returns SR_OK,
 * or cmd_usage()'s status for the first argument left.
 */
int	cmd_no_args(const char *name, int argc, char **argv);
/*
 * Parses a whole decimal integer in [min, max]. Returns 0, or -1 when s is
 * not a number or out of range.
 */
int	cmd_parse_long(const char *s, long min, long max, long *out);
/* Prints json to stdout (pretty, with a trailing newline) and deletes it. */
int	cmd_print_json(cJSON *json);
/* Columns for text tables: $COLUMNS, else the terminal's, else 100. */
int	cmd_term_width(void);
/*
 * Prints the first line of s in at most cols terminal columns (wide
 * characters count two), ending with "..." when cut; never splits a
 * UTF-8 character. Returns the columns used.
 */
int	cmd_print_cut(const char *s, int cols);
/*
 * Prints "[risk: SEVERITY SCORE] " for an entry of list or search output
 * whose "risk" is warn or high, nothing otherwise. Returns the columns
 * used.
 */
int	cmd_print_risk(const cJSON *entry);
/*
 * Opens the engine with ctx->cfg, printing the error (and a warning when
 * telemetry could not be opened). Returns SR_OK or the engine's status.
 */
struct engine;
int	cmd_engine_open(struct cmd_ctx *, int flags, struct engine **out);
/*
 * The telemetry session of CLI searches and loads: "cli:USER@HOST", the
 * same for every run of one user, so that a load links to the user's
 * search before it (stats' conversion; skills-radar(1), TELEMETRY).
 */
const char *cmd_cli_session(void);
/* Prints a cause to stderr as "skills-radar: cause", frees it, returns rv. */
int	cmd_fail(int rv, char *cause);

/*
 * Long-running commands (serve, index --watch): cmd_block_signals()
 * blocks SIGTERM and SIGINT in the calling thread (threads started after
 * inherit it; *old gets the mask before). cmd_set_signals() makes SIGTERM
 * and SIGINT set cmd_stop and ignores SIGPIPE; cmd_wait_stop() sleeps
 * until cmd_stop with the mask orig.
 */
extern volatile sig_atomic_t cmd_stop;
void	cmd_block_signals(sigset_t *old);
void	cmd_set_signals(void);
void	cmd_wait_stop(const sigset_t *orig);

#endif
