/*
 * The sanitiser's pattern catalogue (DESIGN §7, layer 2): the entries of
 * config/patterns/NAME.txt and sanitization.pattern_files, one a line:
 *	id <TAB> severity[/ignored] <TAB> regex <TAB> explanation
 *	    [<TAB> [N:]trigger,trigger,...]
 * Each regex is folded like the scan copy (sanitize_fold.h) and compiled
 * with PCRE2 (UTF, caseless, multiline, JIT). An entry with triggers
 * (literals every match contains) only runs within N bytes (default 256)
 * of where they occur, starting at the last of them or before, which
 * sanitize_catalogue_windows() finds in one pass; the entries without triggers share a combined alternation that
 * gates them. sanitize.c runs the entries and reports their hits.
 *
 * The caller owns a catalogue (sanitize_catalogue_free()); once
 * sanitize_catalogue_finish() has run it is immutable and may be shared
 * between threads. Patterns and strings it returns are owned by it and
 * valid as long as it is.
 */
#ifndef SR_SANITIZE_CATALOGUE_H
#define SR_SANITIZE_CATALOGUE_H

#ifndef PCRE2_CODE_UNIT_WIDTH
#define PCRE2_CODE_UNIT_WIDTH 8
#endif

#include <stddef.h>

#include <pcre2.h>

#include "core/finding.h"

struct sanitize_catalogue;

/* One entry, as the scan reads it. */
struct sanitize_pattern {
	char		*id;
	enum severity	 sev;		/* when the risk table has no line */
	char		*explain;
	char		*where;		/* file:line, for messages */
	char		*src;		/* the folded regex */
	pcre2_code	*re;
	int		 in_combined;	/* gated by the combined alternation */
	int		 has_triggers;	/* runs only in its windows */
	size_t		 window;	/* bytes either side of a trigger */
};

/*
 * Where pattern pat may match in a scan copy: within [start, end), and
 * starting at lim or before (every match contains a trigger, and lim is
 * where the window's last trigger starts). The entries with triggers are
 * compiled with PCRE2_USE_OFFSET_LIMIT, so pcre2_set_offset_limit() can
 * stop the search at lim.
 */
struct sanitize_window {
	size_t	 pat, start, end, lim;
};

/* An empty catalogue; free it with sanitize_catalogue_free(). */
struct sanitize_catalogue *sanitize_catalogue_new(void);
/* Frees the catalogue and its patterns; NULL does nothing. */
void	 sanitize_catalogue_free(struct sanitize_catalogue *);

/*
 * Reads one catalogue file and adds its entries (blank lines and lines
 * starting with # are ignored). A bad line, severity, id, regex, trigger
 * list or a duplicate id is SR_CONFIG with *cause "file:line: message";
 * an unreadable file SR_CONFIG with *cause "file: error" (free it).
 * Returns 0 (SR_OK) otherwise.
 */
int	 sanitize_catalogue_load(struct sanitize_catalogue *,
	    const char *path, char **cause);

/*
 * Builds the combined alternation and the trigger index once every file
 * is loaded; the catalogue is read-only from then on.
 */
void	 sanitize_catalogue_finish(struct sanitize_catalogue *);

/*
 * Compiles re the way every catalogue entry is compiled (UTF, UCP,
 * caseless, multiline, JIT when available). Returns 0 with *out (free it
 * with pcre2_code_free()), or -1 with a message in err (errsz bytes).
 * The sanitiser compiles its own built-in patterns with it too.
 */
int	 sanitize_catalogue_compile(const char *re, pcre2_code **out,
	    char *err, size_t errsz);

/* The number of entries. */
size_t	 sanitize_catalogue_count(const struct sanitize_catalogue *);
/* Entry i (i < sanitize_catalogue_count()), in the order loaded. */
const struct sanitize_pattern *sanitize_catalogue_pattern(
	    const struct sanitize_catalogue *, size_t i);
/* The combined alternation of the entries in_combined, or NULL. */
const pcre2_code *sanitize_catalogue_combined(
	    const struct sanitize_catalogue *);

/*
 * Finds every trigger in the scan copy norm (nlen bytes; a byte class
 * table, a bitmap of first byte pairs and bitmaps of hashed 2-, 3- and
 * 4-byte prefixes reject most positions) and returns
 * the number of windows: per pattern, merged windows of its window size
 * either side of each occurrence, cut at line ends, sorted by pattern
 * then start. *out gets them (free() it; NULL when there are none).
 */
size_t	 sanitize_catalogue_windows(const struct sanitize_catalogue *,
	    const char *norm, size_t nlen, struct sanitize_window **out);

/*
 * The next line of a table file's text at *pos that is neither blank nor
 * a # comment, NUL-terminated in place (a trailing CR dropped); *lineno
 * counts every line passed. Returns NULL at the end. The catalogue and
 * the risk table (risktable.c) read their files with it.
 */
char	*sanitize_catalogue_line(char **pos, int *lineno);

/*
 * Splits a line in place on runs of tabs into at most max fields (the
 * last one keeps any further tabs). Returns the number of fields. The
 * risk table (sanitize_risk.c) reads its lines the same way.
 */
size_t	 sanitize_catalogue_split(char *line, char **f, size_t max);

/* The explanation of entry id, or NULL when there is none. */
const char *sanitize_catalogue_explain(const struct sanitize_catalogue *,
	    const char *id);

#endif
