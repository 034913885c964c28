/*
 * The telemetry event module: what both writers (telemetry.c for SQLite,
 * telemetry_pg.c for PostgreSQL) share beneath them: the kind names, the
 * query hash key's hex coding and its random draw. See telemetry_event.h.
 */
#include "autoconfig.h"

#include <sys/random.h>
#include <sys/types.h>

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "telemetry/telemetry_event.h"

const char *const tm_kind_names[] = { "search", "load", "index" };

void
tm_hex(const uint8_t *p, size_t n, char *out)
{
	static const char	 hx[] = "0123456789abcdef";
	size_t			 i;

	for (i = 0; i < n; i++) {
		out[2 * i] = hx[p[i] >> 4];
		out[2 * i + 1] = hx[p[i] & 0xf];
	}
	out[2 * n] = '\0';
}

int
tm_unhex(const char *s, uint8_t *out, size_t n)
{
	size_t	 i;
	int	 hi, lo;

	if (s == NULL || strlen(s) != 2 * n)
		return -1;
	for (i = 0; i < n; i++) {
		hi = s[2 * i] <= '9' ? s[2 * i] - '0' : s[2 * i] - 'a' + 10;
		lo = s[2 * i + 1] <= '9' ? s[2 * i + 1] - '0' :
		    s[2 * i + 1] - 'a' + 10;
		if (hi < 0 || hi > 15 || lo < 0 || lo > 15)
			return -1;
		out[i] = (uint8_t)(hi << 4 | lo);
	}
	return 0;
}

/* 32 random bytes from the kernel, hex encoded. */
int
tm_random_key(char out[65])
{
	uint8_t	 k[32];
	size_t	 got = 0;
	ssize_t	 r;

	while (got < sizeof k) {
		r = getrandom(k + got, sizeof k - got, 0);
		if (r == -1 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		got += (size_t)r;
	}
	tm_hex(k, sizeof k, out);
	return 0;
}
