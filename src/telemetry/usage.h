/*
 * Learning from use (DESIGN §8): what the telemetry database says about
 * which skills are loaded and which words led to them, folded into a
 * search result after retrieval and calibration.
 *
 *   usage boost  a skill's decayed load count, as Claude Code ranks its
 *                own listing: loads * max(0.5^(days since the last load /
 *                retrieval.usage_half_life_days), 0.1). Its share of the
 *                largest such count, on a log scale, shifts the score's
 *                log-odds by at most retrieval.usage_boost (the score is
 *                a calibrated probability: a prior moves odds). A skill
 *                never loaded keeps its score, 0 stays 0, and a score
 *                under retrieval.miss_threshold stays under it
 *                (popularity is no evidence that this query is answered).
 *   learned      each found load paired (table conv) with the search
 *                before it in the same session, at most
 *                retrieval.learning.window_seconds earlier, teaches the
 *                search's words (normalised, stemmed, stop-words out) to
 *                the loaded skill: one unit per session and word, decayed
 *                with retrieval.learning.half_life_days, the heaviest
 *                retrieval.learning.max_terms words kept per skill. A
 *                query's evidence for a skill is the idf-weighted share of
 *                its words learned for that skill, each saturated as
 *                w / (w + 1) (one session: at most a half); the score s
 *                becomes 1 - (1 - s)(1 - retrieval.learning.weight *
 *                evidence), a noisy-OR, so learned words count most where
 *                the skill's own text says least. This may lift a result
 *                over the miss threshold: it is evidence about this
 *                query's own words (at weight <= 0.8 one session alone
 *                cannot). A skill that learned words point to but
 *                retrieval did not return is added with only that score
 *                (at most USAGE_ADD, and not for a "+word" query).
 *
 * The model is read from the telemetry database (SQLite or PostgreSQL,
 * through sqlq) with no schema of its own: loads from events, pairs from
 * conv, and meta.learn_reset (unix time; stats --reset-learning sets it)
 * hides every event up to it. It is built on first use and then refreshed
 * incrementally (the rows after the last ids read) at most every
 * USAGE_REFRESH_SEC, so a search pays for new rows only. Learning needs
 * telemetry.store_queries: true (a hashed or absent query teaches
 * nothing). An unreadable or missing database means no usage: never an
 * error.
 *
 * A struct usage is safe to share between threads (one mutex; a lookup
 * takes microseconds). It borrows cfg.
 */
#ifndef SR_USAGE_H
#define SR_USAGE_H

struct config;
struct search_index;
struct search_opts;
struct search_result;
struct usage;

#define USAGE_REFRESH_SEC	10.0	/* a search re-reads at most this often */
#define USAGE_POOL		10	/* results retrieved for re-ranking */

/*
 * Returns a new model, or NULL when there is nothing to learn from:
 * telemetry off, or both retrieval.usage_boost 0 and learning disabled.
 * Reads nothing yet. Free it with usage_free().
 */
struct usage	*usage_new(const struct config *cfg);
void		 usage_free(struct usage *);

/*
 * Reads the events written since the last read when that was more than
 * USAGE_REFRESH_SEC before now (unix seconds), or always with force.
 * Returns 1 when the model has loads or learned words to apply, 0 when
 * not (nothing recorded, database missing or unreadable).
 */
int	 usage_refresh(struct usage *, double now, int force);

/*
 * Applies the model to a result retrieved for o (scores calibrated):
 * boosts, adds the skills learned words point to (found in idx), and with
 * o->explain adds a "usage" object to each match's explain. Leaves res
 * unsorted, its miss flag stale: the caller sorts, truncates and decides
 * the miss from the new scores. now is unix seconds.
 */
void	 usage_apply(struct usage *, const struct search_index *idx,
	    const struct search_opts *o, struct search_result *res,
	    double now);

/*
 * Hides every event recorded so far from learning and the usage boost
 * (meta.learn_reset = now), in the configured telemetry database; a
 * running server forgets them at its next refresh. *changed is 0 when
 * there was no database (nothing recorded). Returns 0, SR_CONFIG when
 * telemetry is off, or SR_IO with *cause.
 */
int	 usage_reset(const struct config *cfg, int *changed, char **cause);

#endif
