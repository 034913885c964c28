/*
 * Findings: what validation, parsing and sanitisation report about a file.
 * Each has a stable rule id (documented in skills-radar(1), VALIDATION
 * RULES), a severity, a 1-based line (0 when not tied to a line) and a
 * message. A findings list owns its items.
 */
#ifndef SR_FINDING_H
#define SR_FINDING_H

#include <stddef.h>

enum severity {
	SEV_INFO = 0,
	SEV_WARN = 1,
	SEV_HIGH = 2,		/* sanitiser: likely injection */
	SEV_ERROR = 3		/* validation: the file is rejected */
};

struct finding {
	char		*rule;
	enum severity	 sev;
	int		 line;
	char		*message;	/* validation: reason; sanitiser: excerpt */
	char		*file;		/* bundled file, relative to the skill
					   folder; NULL: the entry file itself */
	double		 weight;	/* risk weight (sanitize_risk), else 0 */
};

struct findings {
	struct finding	*v;
	size_t		 n;
	size_t		 cap;
};

void	 findings_init(struct findings *);
void	 findings_done(struct findings *);
void	 findings_add(struct findings *, const char *rule, enum severity,
	    int line, const char *fmt, ...)
	    __attribute__((format(printf, 5, 6)));
/* Sets the file of the items from index `from` on (a copy of file). */
void	 findings_set_file(struct findings *, size_t from, const char *file);
/* Appends copies of every item of src. */
void	 findings_extend(struct findings *, const struct findings *src);
/* Returns the highest severity present, or -1 when empty. */
int	 findings_max(const struct findings *);
/* Counts items at or above sev. */
size_t	 findings_count(const struct findings *, enum severity);
/* Returns the first item at SEV_ERROR, or NULL. */
const struct finding *findings_first_error(const struct findings *);

const char	*severity_name(enum severity);
/* Returns the severity for a name ("info", "warn", "high", "error"), or -1. */
int		 severity_from_name(const char *);

#endif
