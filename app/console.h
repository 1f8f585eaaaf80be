/* console.h - commands typed on the serial console (stdin). */
#ifndef APP_CONSOLE_H
#define APP_CONSOLE_H

#include <stdbool.h>
#include <stddef.h>

struct console {
	int fd;
	bool open;      /* false after EOF or an error: stop polling it */
	char line[64];
	size_t len;
};

/* Commands, as bits: one read() may carry several lines. "ram on" and
 * "ram off" start and stop one console line per free-RAM sample. */
enum console_cmd { CONSOLE_NONE = 0, CONSOLE_POWEROFF = 1, CONSOLE_STATS = 2,
		   CONSOLE_RAM_ON = 4, CONSOLE_RAM_OFF = 8 };

void console_init(struct console *c, int fd);

/* Read what is there (call when poll says the fd is ready) and return the
 * commands of every complete line in it, ORed (a command repeated in one
 * read counts once). */
unsigned int console_read(struct console *c);

#endif
