/* clock.c - CLOCK_MONOTONIC (kept by tinyconfig's posix-stubs). */
#include <time.h>

#include "clock.h"

long long clock_ms(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
		return 0;
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}
