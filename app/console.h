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

enum console_cmd { CONSOLE_NONE, CONSOLE_POWEROFF, CONSOLE_STATS };

void console_init(struct console *c, int fd);

/* Read what is there (call when poll says the fd is ready). */
enum console_cmd console_read(struct console *c);

#endif
