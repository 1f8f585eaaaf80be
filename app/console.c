/* console.c - line reader for "poweroff", "stats", "ram on" and "ram off";
 * EOF/errors just close it. */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "console.h"
#include "log.h"

void console_init(struct console *c, int fd)
{
	c->fd = fd;
	c->open = fd >= 0;
	c->len = 0;
}

static unsigned int run_line(const char *line, size_t n)
{
	while (n > 0 && (line[n - 1] == '\r' || line[n - 1] == ' '))
		n--;
	while (n > 0 && *line == ' ') {
		line++;
		n--;
	}
	if (n == 8 && memcmp(line, "poweroff", 8) == 0)
		return CONSOLE_POWEROFF;
	if (n == 5 && memcmp(line, "stats", 5) == 0)
		return CONSOLE_STATS;
	if (n == 6 && memcmp(line, "ram on", 6) == 0)
		return CONSOLE_RAM_ON;
	if (n == 7 && memcmp(line, "ram off", 7) == 0)
		return CONSOLE_RAM_OFF;
	if (n > 0)
		log_msg("console: unknown command (try: poweroff, stats, ram on, ram off)");
	return CONSOLE_NONE;
}

unsigned int console_read(struct console *c)
{
	char buf[64];
	unsigned int cmds = CONSOLE_NONE;
	ssize_t n = read(c->fd, buf, sizeof(buf));

	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return CONSOLE_NONE;
	if (n <= 0) {
		c->open = false; /* EOF or error: ignore the console from now on */
		return CONSOLE_NONE;
	}
	for (ssize_t i = 0; i < n; i++) {
		if (buf[i] == '\n') {
			cmds |= run_line(c->line, c->len);
			c->len = 0;
		} else if (c->len < sizeof(c->line)) {
			c->line[c->len++] = buf[i];
		}
	}
	return cmds;
}
