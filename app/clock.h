/* clock.h - monotonic milliseconds for timeouts. */
#ifndef APP_CLOCK_H
#define APP_CLOCK_H

/* CLOCK_MONOTONIC in ms; 0 if the clock cannot be read (then timeouts never
 * fire, which is the safe side for a server). */
long long clock_ms(void);

/* The wall clock counts as set from this time on (2024-01-01 UTC): a
 * board without an RTC driver boots at 1970 and knows no date. */
#define CLOCK_SET_AFTER 1704067200LL

/* Seconds since 1970 (UTC), or -1 when the clock is not set. */
long long clock_wall_s(void);

#endif
