/*
 * The dashboard: `skills-radar tui`. tui_run() owns the terminal while it
 * runs (ncursesw) and restores it on every exit path; tui_once() renders
 * one frame into a character grid and prints it, without curses.
 *
 * tui.c is the top of the dashboard: it owns the state (model.h), the
 * feed (feed.h) and the panels (panel.h), and calls down only; nothing in
 * src/tui includes this header. The options, the ranges and the model
 * are in model.h.
 */
#ifndef SR_TUI_H
#define SR_TUI_H

#include "tui/model.h"

struct config;

/* Runs the dashboard until q, Ctrl-C or SIGTERM. Returns an sr_status. */
int	 tui_run(const struct config *, const struct tui_opts *, char **cause);
/* Prints one frame to stdout. Returns an sr_status. */
int	 tui_once(const struct config *, const struct tui_opts *, char **cause);

/* "all", "1h", "24h", "7d" into a range; -1 when unknown. */
int		 tui_range_parse(const char *);

#endif
