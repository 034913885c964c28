/*
 * The dashboard's state, what the panels read: struct tui_model, what
 * they show, and struct tui, the view around it (the layout, the focus,
 * the filter, the overlay, the glyphs). tui.c drives both; a panel
 * reads them (the events panel also opens the detail overlay). The panels
 * (panel.h) and the feed (feed.h, which takes the options, the range and
 * the stats state) sit beneath tui.c and include this header, not tui.h.
 *
 * struct tui_model is what the panels show: the index summary (read
 * through the store dispatcher the command gives, tui_opts.index_open,
 * on the main thread, re-read when index.db or its WAL changes) and the
 * telemetry snapshot (kept by the feed's worker thread, feed.h, which
 * folds in the new rows when PRAGMA data_version changes). The model
 * owns its strings and its snapshot. Panels borrow the model; pointers
 * into the snapshot stay valid until the next result is applied, which
 * happens only between two frames on the main thread.
 */
#ifndef SR_TUI_MODEL_H
#define SR_TUI_MODEL_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "tui/grid.h"
#include "telemetry/stats.h"

struct config;
struct store;
struct panel;
struct feed_worker;
struct vocab;

/* Why there is no telemetry to show. */
enum tui_stats_state {
	TS_OK = 0,		/* a snapshot is shown */
	TS_LOADING,		/* the first snapshot is being taken */
	TS_MISSING,		/* no stats.db (yet): waiting for it */
	TS_OFF,			/* telemetry disabled in the config */
	TS_ERROR		/* stats.db unreadable: stats_msg says why */
};

/* The time ranges `t` cycles through. */
enum tui_range {
	RANGE_ALL = 0,
	RANGE_1H,
	RANGE_24H,
	RANGE_7D,
	RANGE_COUNT
};

struct tui_opts {
	const char	*stats_path;	/* stats.db, or the DSN when stats_pg */
	const char	*stats_shown;	/* stats_path for messages (no password) */
	int		 stats_pg;	/* read the fleet's PostgreSQL */
	const char	*index_path;	/* index.db */
	/*
	 * Opens the index read-only through the store dispatcher, for the
	 * configured backend (the command gives it); NULL: no index.
	 */
	int		(*index_open)(const struct config *, struct store **,
			    char **cause);
	int		 refresh_ms;	/* poll interval for data_version */
	int		 color;		/* --once: 1 ANSI escapes */
	int		 mono;		/* monochrome scheme (NO_COLOR...) */
	int		 telemetry_off;	/* config says telemetry is disabled */
	enum tui_range	 range;
	int		 width, height;	/* --once frame size */
	int		 verbose;	/* --once: frame time on stderr */
};

struct tui_model {
	const struct config	*cfg;		/* borrowed */
	struct tui_opts		 opts;

	/* The index. */
	int			 index_state;	/* 0, SR_NOTFOUND, error */
	char			*index_msg;
	size_t			 n_skills;	/* winners (not shadowed) */
	size_t			 n_entries;	/* every stored entry */
	size_t			 n_user_only;	/* disable-model-invocation */
	size_t			 tiers[4];	/* winners per tier */
	size_t			 flagged[4];	/* of those, risk warn+ */
	char			*signed_by;	/* "alice 3, bob 1", or NULL:
						   no winner is signed */
	int			 paths_ok;
	int			 paths_total;
	int64_t			 index_sig;	/* index.db(-wal) stat */

	/* Telemetry (from the feed). */
	enum tui_stats_state	 stats_state;
	char			*stats_msg;
	int			 have_snap;
	struct stats_snap	 snap;
	double			 snap_time;	/* when it was taken */
	double			 now;		/* clock for event times */
	enum tui_range		 range;		/* asked for */
	enum tui_range		 snap_range;	/* the snapshot's */
	double			 miss_threshold;
	double			 snap_ms;	/* how long the last one took */
	char			 notice[512];	/* tui_stats_notice() text */

	/* The index's words, for the missed view (tui_vocab()). */
	struct vocab		*vocab;
	int64_t			 vocab_sig;	/* index_sig it was read at */
};

/* The views: fewer panels as the terminal shrinks. */
enum tui_layout {
	LAYOUT_FULL = 0,	/* >= 80x24: every panel */
	LAYOUT_COMPACT,		/* >= 40x12: header, queries, events */
	LAYOUT_TINY		/* a one-line summary */
};

#define TUI_MIN_FULL_W		80
#define TUI_MIN_FULL_H		24
#define TUI_MIN_COMPACT_W	40
#define TUI_MIN_COMPACT_H	12

enum tui_panel_id {
	PANEL_HEADER = 0,
	PANEL_TIERS,
	PANEL_QUERIES,
	PANEL_EVENTS,
	PANEL_LOADS,
	PANEL_COUNT
};

enum tui_overlay {
	OVERLAY_NONE = 0,
	OVERLAY_HELP,
	OVERLAY_DETAIL,		/* one event's fields */
	OVERLAY_FILTER		/* typing a filter in the footer */
};

/* Line-drawing glyphs: Unicode, or ASCII when the locale is not UTF-8. */
struct tui_glyphs {
	uint32_t	 h, v, tl, tr, bl, br, lt, rt, tt, bt;
	uint32_t	 full, empty;
	uint32_t	 tier[4];	/* the stacked tier bar's blocks */
	uint32_t	 sel;		/* marks the selected row */
	uint32_t	 spark[8];
	const char	*dot;		/* " · " */
	const char	*updown;	/* "↑↓" */
};

struct tui {
	struct tui_model	 m;
	struct panel		*panels[PANEL_COUNT];
	const struct tui_glyphs	*gl;
	enum tui_layout		 layout;
	int			 w, h;
	int			 focus;		/* enum tui_panel_id */
	int			 paused;
	int			 missed;	/* m: the queries panel shows misses */
	char			 filter[128];
	char			 editing[128];	/* the filter being typed */
	enum tui_overlay	 overlay;
	int			 detail;	/* OVERLAY_DETAIL's event */
	int			 help_top;	/* the help's first line shown */
	int			 help_more;	/* the help does not fit: it pages */
	int			 curses;	/* panels have WINDOWs */
	struct grid		 screen;	/* borders, titles, footer */
	struct grid		 over;		/* the overlay box */
	int			 over_y, over_x;
	void			*over_win;	/* WINDOW *, curses only */
	struct feed_worker	*worker;	/* curses only */
};

/*
 * Fills the model for cfg and o (borrowed) and reads the index summary;
 * the telemetry state starts as TS_LOADING. Freed with model_done().
 */
void	 model_init(struct tui_model *, const struct config *cfg,
	    const struct tui_opts *o);
void	 model_done(struct tui_model *);
/* Re-reads the index summary when index.db changed; returns 1 then. */
int	 model_poll_index(struct tui_model *);

/*
 * The words of the indexed skills (vocab.h), read from index.db on first
 * use and again when it changes; NULL without an index. The model owns
 * it: a panel borrows it until the next call.
 */
const struct vocab *tui_vocab(struct tui *);
/*
 * The line a panel shows instead of telemetry data when there is none
 * (no stats.db, telemetry off, unreadable), or NULL when a snapshot is
 * shown. Static or borrowed from the model.
 */
const char *tui_stats_notice(struct tui *);
/*
 * The hosts that logged events (the part of events.replica before a ':'),
 * and the replicas: the distinct server processes of the store. A CLI
 * and a stdio server write the bare host name, an HTTP server host:port
 * (or host:pidN): one host's CLI and its HTTP server are one replica.
 */
size_t	 tui_hosts(const struct stats_snap *);
size_t	 tui_replicas(const struct stats_snap *);
/* Case-insensitive: does the event match the filter text? */
int	 tui_event_matches(const struct stats_event *, const char *filter);

#endif
