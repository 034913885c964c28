/*
 * How a value reads in a cell: event times, latencies, scores. Used by
 * the panels and by tui.c's detail box.
 */
#include "autoconfig.h"

#include <math.h>
#include <stdio.h>
#include <time.h>

#include "tui/fmt.h"

void
tui_fmt_time(double ts, double now, char *out, size_t len)
{
	struct tm	 a, b;
	time_t		 t = (time_t)ts, n = (time_t)now;

	if (ts <= 0 || localtime_r(&t, &a) == NULL ||
	    localtime_r(&n, &b) == NULL) {
		snprintf(out, len, "--:--:--");
		return;
	}
	if (a.tm_year == b.tm_year && a.tm_yday == b.tm_yday)
		strftime(out, len, "%H:%M:%S", &a);
	else
		strftime(out, len, "%m-%d %H:%M", &a);
}

void
tui_fmt_ms(double ms, char *out, size_t len)
{
	if (ms < 0 || isnan(ms))
		snprintf(out, len, "-");
	else if (ms < 10)
		snprintf(out, len, "%.1fms", ms);
	else if (ms < 1000)
		snprintf(out, len, "%.0fms", ms);
	else
		snprintf(out, len, "%.3gs", ms / 1000);
}

void
tui_fmt_score(double score, char *out, size_t len)
{
	if (isnan(score) || score < 0)
		snprintf(out, len, "  - ");
	else if (score > 9.99)
		snprintf(out, len, ">9.9");
	else
		snprintf(out, len, "%.2f", score);
}
