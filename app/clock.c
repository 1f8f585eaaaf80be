/* clock.c - CLOCK_MONOTONIC (kept by tinyconfig's posix-stubs), and the
 * wall clock when it has been set. */
#include <time.h>

#include "clock.h"

long long clock_ms(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
		return 0;
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

long long clock_wall_s(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_REALTIME, &ts) != 0 || ts.tv_sec < CLOCK_SET_AFTER)
		return -1;
	return (long long)ts.tv_sec;
}
