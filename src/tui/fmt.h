/*
 * How a value reads in a cell, for the panels and tui.c's detail box.
 * No state: each call writes out and nothing else.
 */
#ifndef SR_TUI_FMT_H
#define SR_TUI_FMT_H

#include <stddef.h>

/*
 * Formats an event time: HH:MM:SS when it is on the same day as now,
 * else MM-DD HH:MM. out must hold 16 bytes.
 */
void	 tui_fmt_time(double ts, double now, char *out, size_t len);
/* "0.4ms", "12ms", "1.2s" into out. */
void	 tui_fmt_ms(double ms, char *out, size_t len);
/* A top-1 score in 4 columns: "0.79", "  - " when there is none. */
void	 tui_fmt_score(double score, char *out, size_t len);

#endif
