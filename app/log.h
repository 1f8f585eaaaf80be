/* log.h - one console line per call, prefixed "fileserver: ". The console
 * must never stall the server: lines go to a bounded ring that is written
 * to stderr without blocking; what does not fit is counted and reported,
 * and a line repeated back to back past LOG_REPEAT_SHOWN times is summed
 * up with a count. */
#ifndef APP_LOG_H
#define APP_LOG_H

#include <stdbool.h>
#include <stddef.h>

#define LOG_LINE_MAX 512
#define LOG_RING_SIZE 8192       /* bytes of lines waiting for the console */
#define LOG_REPEAT_MS 1000       /* a run of repeats is summed up this often */
#define LOG_REPEAT_SHOWN 8       /* identical lines in a row printed as they are */

/* Make stderr non-blocking: from then on the ring is written with
 * log_flush(). Before that, or if fcntl fails (logged), lines are written
 * at once, blocking. */
void log_init(void);

/* Format one line (a trailing newline is added) and queue it. */
void log_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Write what the console takes now without blocking; now_ms (a monotonic
 * clock) closes a run of repeated lines after LOG_REPEAT_MS. */
void log_flush(long long now_ms);

/* True while lines wait for the console (poll stderr for POLLOUT). */
bool log_pending(void);

/* Before power-off: wait up to timeout_ms for the console to take the
 * lines that wait. */
void log_drain(int timeout_ms);

/* Copy text into out (cap bytes, NUL-terminated) with every byte outside
 * printable ASCII or a quote/backslash escaped as \xNN, truncated. */
void log_sanitize(char *out, size_t cap, const char *text, size_t len);

#endif
