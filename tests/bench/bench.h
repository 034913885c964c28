/*
 * What the benchmark programs share: clocks, a qsort comparator for
 * latency samples, a seeded xorshift generator (each program keeps its
 * own state, so its generated data stays the same run to run) and a
 * /proc/PID/status reader for memory figures. Nothing here allocates.
 */
#ifndef SR_BENCH_H
#define SR_BENCH_H

#include <sys/types.h>

/* Returns a monotonic time in milliseconds, for measuring intervals. */
double	 bench_now_ms(void);
/*
 * Returns the calling thread's CPU time in milliseconds: a shared,
 * busy machine stretches wall time but not this.
 */
double	 bench_cpu_ms(void);
/* Orders doubles ascending, for qsort() before reading percentiles. */
int	 bench_cmp_double(const void *a, const void *b);
/*
 * Returns the next number in [0, n) from the xorshift state *rng (never
 * 0): the same seed gives the same sequence.
 */
unsigned bench_rnd(unsigned long long *rng, unsigned n);
/*
 * Returns the value (kB) of a "Key: value kB" line such as "VmRSS" in
 * /proc/PID/status, pid 0 meaning this process; -1 when not found.
 */
long	 bench_proc_kb(pid_t pid, const char *key);

struct telemetry;
/*
 * Records the search event the telemetry benchmarks time: query q with
 * five results named top[0..4], as a search's caller records it.
 */
void	 bench_record_search(struct telemetry *, const char *q,
	    const char *const *top);

#endif
