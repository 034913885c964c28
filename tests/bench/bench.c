/*
 * The benchmark programs' shared scaffolding: clocks, sorting samples,
 * a seeded generator, memory figures from /proc.
 */
#include "autoconfig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "telemetry/telemetry.h"

static double
clock_ms(clockid_t id)
{
	struct timespec	 ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

double
bench_now_ms(void)
{
	return clock_ms(CLOCK_MONOTONIC);
}

double
bench_cpu_ms(void)
{
	return clock_ms(CLOCK_THREAD_CPUTIME_ID);
}

int
bench_cmp_double(const void *a, const void *b)
{
	double	 x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

unsigned
bench_rnd(unsigned long long *rng, unsigned n)
{
	*rng ^= *rng << 13;
	*rng ^= *rng >> 7;
	*rng ^= *rng << 17;
	return (unsigned)(*rng % n);
}

long
bench_proc_kb(pid_t pid, const char *key)
{
	FILE	*fp;
	char	 path[64], line[256];
	long	 v = -1;
	size_t	 kl = strlen(key);

	if (pid == 0)
		snprintf(path, sizeof path, "/proc/self/status");
	else
		snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
	if ((fp = fopen(path, "r")) == NULL)
		return -1;
	while (fgets(line, sizeof line, fp) != NULL)
		if (strncmp(line, key, kl) == 0 && line[kl] == ':') {
			v = strtol(line + kl + 1, NULL, 10);
			break;
		}
	fclose(fp);
	return v;
}

void
bench_record_search(struct telemetry *t, const char *q,
    const char *const *top)
{
	struct telemetry_search_event	 ev;
	size_t				 i;

	memset(&ev, 0, sizeof ev);
	ev.query = q;
	ev.top1 = 0.5;
	ev.n_results = 5;
	for (i = 0; i < 5; i++)
		ev.top[i] = top[i];
	ev.n_top = 5;
	ev.latency_ms = 1.0;
	telemetry_search(t, &ev);
}
