/* clock.h - monotonic milliseconds for timeouts. */
#ifndef APP_CLOCK_H
#define APP_CLOCK_H

/* CLOCK_MONOTONIC in ms; 0 if the clock cannot be read (then timeouts never
 * fire, which is the safe side for a server). */
long long clock_ms(void);

#endif
