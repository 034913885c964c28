/*
 * The risk table (DESIGN §7, issue 18): one line per sanitiser rule id
 * with its category, weight, floor and explanation, plus the two
 * thresholds that turn a skill's summed weights into a severity. It is
 * read from config/risk.tsv (installed to pkgdata) and then from each
 * sanitization.risk_files entry; a later line for an id replaces the
 * earlier one, so a user file can re-weigh or add any rule.
 *
 * The caller owns a table (risktable_free()). Once loaded it is read-only
 * and may be shared between threads; rules and strings it returns are
 * owned by it and valid as long as it is.
 */
#ifndef SR_RISKTABLE_H
#define SR_RISKTABLE_H

#include <stddef.h>

#include "core/finding.h"

struct risk_table;

/* One rule of the table. */
struct risk_rule {
	char		*id;
	char		*category;
	double		 weight;	/* added once per skill */
	int		 floor;		/* minimum severity below USER trust,
					   or -1 */
	char		*explain;
	char		*where;		/* file:line, for messages */
	size_t		 catno;		/* index of the category in the table */
};

/* An empty table (thresholds warn 5, high 10 until a file sets them). */
struct risk_table *risktable_new(void);
/* Frees the table; NULL does nothing. */
void	 risktable_free(struct risk_table *);

/*
 * Reads one table file and adds or replaces its rules and thresholds.
 * A bad line is SR_CONFIG with *cause "file:line: message"; an unreadable
 * file SR_CONFIG with *cause "file: error" (free it). The thresholds are
 * checked (0 < warn < high) once every file is read: risktable_check().
 */
int	 risktable_load(struct risk_table *, const char *path, char **cause);

/* SR_CONFIG with *cause (free it) when the thresholds are inconsistent. */
int	 risktable_check(const struct risk_table *, char **cause);

/* The rule for id, or NULL. */
const struct risk_rule *risktable_find(const struct risk_table *,
	    const char *id);

/* The score at which a skill becomes sev (SEV_WARN or SEV_HIGH). */
double	 risktable_threshold(const struct risk_table *, enum severity sev);

/*
 * Scores findings f: every finding whose rule is in the table gets the
 * rule's weight and the severity that weight implies (raised to the
 * rule's floor when below_user is set). The score adds each category
 * present once: the largest positive weight among its rules found plus
 * the most negative one, so two phrasings of one attack, or one payload
 * matched by three rules, are one piece of evidence; *score gets it.
 * *sev is the severity the score implies, raised to the highest floor
 * present when below_user is set. Findings with no rule in the table
 * keep their severity and add nothing.
 */
void	 risktable_score(const struct risk_table *, struct findings *f,
	    int below_user, double *score, enum severity *sev);

#endif
