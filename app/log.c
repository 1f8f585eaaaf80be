/* log.c - console logging through a bounded ring written without blocking.
 * The console is one per process, so its state is this file's: the ring,
 * the count of dropped lines and the run of repeats. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "log.h"

static struct {
	bool nonblock;                 /* log_init() done: queue, never block */
	char ring[LOG_RING_SIZE];
	size_t start, len;             /* queued bytes: ring[start..start+len) */
	unsigned long dropped;         /* lines that did not fit */
	char last[LOG_LINE_MAX];       /* the last line queued */
	size_t last_n;
	unsigned long same;            /* copies of it printed in a row */
	unsigned long repeats;         /* copies of it not printed */
	long long repeat_since_ms;     /* when the run started, 0: none yet */
} lg;

static const char prefix[] = "fileserver: ";

/* Blocking write, for the time before log_init(). */
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

void log_init(void)
{
	int fl = fcntl(STDERR_FILENO, F_GETFL);

	if (fl < 0 || fcntl(STDERR_FILENO, F_SETFL, fl | O_NONBLOCK) != 0) {
		log_msg("log: stderr stays blocking: %s", strerror(errno));
		return;
	}
	lg.nonblock = true;
}

/* Put n bytes in the ring if they fit whole; false if not. */
static bool ring_put(const char *p, size_t n)
{
	size_t end;

	if (n > sizeof(lg.ring) - lg.len)
		return false;
	end = (lg.start + lg.len) % sizeof(lg.ring);
	for (size_t i = 0; i < n; i++)
		lg.ring[(end + i) % sizeof(lg.ring)] = p[i];
	lg.len += n;
	return true;
}

/* Queue the count of dropped lines, if any; false if it does not fit. */
static bool note_dropped(void)
{
	char note[96];
	int k;

	if (lg.dropped == 0)
		return true;
	k = snprintf(note, sizeof(note), "%slog: %lu lines dropped (console too slow)\n",
		     prefix, lg.dropped);
	if (k < 0 || !ring_put(note, (size_t)k))
		return false;
	lg.dropped = 0;
	return true;
}

/* Queue one finished line (prefix and newline included). A line that does
 * not fit is counted; the count goes out first once there is room. */
static void emit(const char *line, size_t n)
{
	if (!lg.nonblock) {
		write_all(STDERR_FILENO, line, n);
		return;
	}
	if (!note_dropped() || !ring_put(line, n))
		lg.dropped++;
}

/* Print the count of a run of repeats, if any. */
static void end_repeats(void)
{
	char note[96];
	int k;

	if (lg.repeats == 0)
		return;
	k = snprintf(note, sizeof(note), "%slast line repeated %lu more times\n",
		     prefix, lg.repeats);
	lg.repeats = 0;
	lg.repeat_since_ms = 0;
	if (k > 0)
		emit(note, (size_t)k);
}

/* "fileserver: " + the formatted text + "\n" into line (LOG_LINE_MAX
 * bytes, truncated); returns the length. */
static size_t format_line(char *line, const char *fmt, va_list ap)
{
	size_t n = sizeof(prefix) - 1;
	int r;

	for (size_t i = 0; i < n; i++)
		line[i] = prefix[i];
	r = vsnprintf(line + n, LOG_LINE_MAX - n - 1, fmt, ap);
	if (r < 0)
		r = 0;
	n += (size_t)r < LOG_LINE_MAX - n - 1 ? (size_t)r : LOG_LINE_MAX - n - 2;
	line[n++] = '\n';
	return n;
}

void log_msg(const char *fmt, ...)
{
	char line[LOG_LINE_MAX];
	va_list ap;
	size_t n;

	va_start(ap, fmt);
	n = format_line(line, fmt, ap);
	va_end(ap);
	if (lg.nonblock && n == lg.last_n && memcmp(line, lg.last, n) == 0) {
		if (++lg.same > LOG_REPEAT_SHOWN) {
			lg.repeats++;
			return;
		}
	} else {
		end_repeats();
		memcpy(lg.last, line, n);
		lg.last_n = n;
		lg.same = 1;
	}
	emit(line, n);
	log_flush(0);
}

void log_flush(long long now_ms)
{
	if (lg.repeats && now_ms > 0) {
		if (lg.repeat_since_ms == 0)
			lg.repeat_since_ms = now_ms;
		else if (now_ms - lg.repeat_since_ms >= LOG_REPEAT_MS)
			end_repeats();
	}
	while (lg.len > 0) {
		size_t n = lg.len;
		ssize_t w;

		if (lg.start + n > sizeof(lg.ring))
			n = sizeof(lg.ring) - lg.start; /* up to the wrap */
		w = write(STDERR_FILENO, lg.ring + lg.start, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (w < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
				lg.len = 0; /* the console is gone: drop what waits */
			return;
		}
		lg.start = (lg.start + (size_t)w) % sizeof(lg.ring);
		lg.len -= (size_t)w;
		if (lg.len == 0)
			(void)note_dropped(); /* the console caught up: say what it missed */
	}
}

bool log_pending(void)
{
	return lg.len > 0;
}

void log_drain(int timeout_ms)
{
	end_repeats();
	for (int waited = 0; lg.len > 0 && waited < timeout_ms; waited += 100) {
		struct pollfd p = { .fd = STDERR_FILENO, .events = POLLOUT };

		log_flush(0);
		if (lg.len > 0 && poll(&p, 1, 100) < 0 && errno != EINTR)
			return;
	}
	log_flush(0);
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
