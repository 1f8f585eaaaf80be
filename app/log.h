/* log.h - one console line per call, prefixed "fileserver: ". */
#ifndef APP_LOG_H
#define APP_LOG_H

#define LOG_LINE_MAX 512

/* Format one line and write it to stderr (the serial console on the board)
 * with a single write(2); a trailing newline is added. */
void log_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Copy text into out (cap bytes, NUL-terminated) with every byte outside
 * printable ASCII or a quote/backslash escaped as \xNN, truncated. */
void log_sanitize(char *out, size_t cap, const char *text, size_t len);

#endif
