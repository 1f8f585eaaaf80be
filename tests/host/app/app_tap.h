/* app_tap.h - "ok - name" / "not ok - name" lines for tests/run. */
#ifndef APP_TAP_H
#define APP_TAP_H

#include <stdio.h>

static int tap_failed;

#define TAP(cond, ...)                                  \
	do {                                            \
		int ok_ = (cond);                       \
		printf("%s - ", ok_ ? "ok" : "not ok"); \
		printf(__VA_ARGS__);                    \
		printf("\n");                           \
		if (!ok_)                               \
			tap_failed++;                   \
	} while (0)

#endif
