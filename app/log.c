/* log.c - console logging: a line per call, written with one write(2). */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <unistd.h>

#include "log.h"

static void write_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return; /* the console is gone: nowhere left to report it */
		p += w;
		n -= (size_t)w;
	}
}

void log_msg(const char *fmt, ...)
{
	char line[LOG_LINE_MAX];
	static const char prefix[] = "fileserver: ";
	size_t n = sizeof(prefix) - 1;
	va_list ap;
	int r;

	for (size_t i = 0; i < n; i++)
		line[i] = prefix[i];
	va_start(ap, fmt);
	r = vsnprintf(line + n, sizeof(line) - n - 1, fmt, ap);
	va_end(ap);
	if (r < 0)
		r = 0;
	n += (size_t)r < sizeof(line) - n - 1 ? (size_t)r : sizeof(line) - n - 2;
	line[n++] = '\n';
	write_all(STDERR_FILENO, line, n);
}

void log_sanitize(char *out, size_t cap, const char *text, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	size_t o = 0;

	if (cap == 0)
		return;
	for (size_t i = 0; i < len && o + 5 < cap; i++) {
		unsigned char ch = (unsigned char)text[i];

		if (ch > 0x20 && ch < 0x7f && ch != '"' && ch != '\\') {
			out[o++] = (char)ch;
			continue;
		}
		out[o++] = '\\';
		out[o++] = 'x';
		out[o++] = hex[ch >> 4];
		out[o++] = hex[ch & 15];
	}
	out[o] = '\0';
}
