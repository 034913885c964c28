/*
 * A minimal TAP producer for the C unit tests: ok(), is_int(), is_str(),
 * then done_testing() prints the plan and returns the exit status.
 */
#ifndef SR_TAP_H
#define SR_TAP_H

#include <stdio.h>
#include <string.h>

static int tap_n, tap_failed;

static int
tap_ok(int cond, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5), unused));

#include <stdarg.h>

static int
tap_ok(int cond, const char *file, int line, const char *fmt, ...)
{
	va_list	 ap;

	tap_n++;
	printf("%sok %d - ", cond ? "" : "not ", tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!cond) {
		tap_failed++;
		printf("#   failed at %s:%d\n", file, line);
	}
	fflush(stdout);
	return cond;
}

#define ok(cond, ...) tap_ok(!!(cond), __FILE__, __LINE__, __VA_ARGS__)

#define is_int(got, want, ...) do {					\
	long long _g = (long long)(got), _w = (long long)(want);	\
	if (!ok(_g == _w, __VA_ARGS__))					\
		printf("#   got %lld, want %lld\n", _g, _w);		\
} while (0)

#define is_str(got, want, ...) do {					\
	const char *_g = (got), *_w = (want);				\
	int _eq = (_g == NULL && _w == NULL) ||				\
	    (_g != NULL && _w != NULL && strcmp(_g, _w) == 0);		\
	if (!ok(_eq, __VA_ARGS__))					\
		printf("#   got \"%s\", want \"%s\"\n",			\
		    _g ? _g : "(null)", _w ? _w : "(null)");		\
} while (0)

#define diag(...) do { printf("# "); printf(__VA_ARGS__); printf("\n"); } while (0)

static int __attribute__((unused))
done_testing(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed == 0 ? 0 : 1;
}

#endif
