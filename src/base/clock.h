/*
 * Time for durations and timestamps, in one place.
 */
#ifndef SR_CLOCK_H
#define SR_CLOCK_H

/* Milliseconds on the monotonic clock: for measuring durations. */
double	 clock_ms(void);
/* Seconds since the epoch, with a fraction: for timestamps. */
double	 clock_wall(void);

#endif
