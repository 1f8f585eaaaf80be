/* board.h - the PID 1 side: banner, signals, and how the program ends. */
#ifndef APP_BOARD_H
#define APP_BOARD_H

#include <stdbool.h>

#include "config.h"

/* True when running as init (PID 1). */
bool board_is_init(void);

/* Signals: SIGPIPE ignored so a vanished client never kills init. 0 or -1. */
int board_setup(void);

/* Probe sendfile(-1, -1, NULL, 0): returns the errno (ENOSYS: compiled out,
 * EBADF: present). */
int board_probe_sendfile(void);

/* RAM as sysinfo(2) sees it, in KiB. 0, or -1 with errno set. */
struct board_ram {
	unsigned long long total_k;
	unsigned long long free_k;
};
int board_ram(struct board_ram *ram);

/* Banner: kernel release, RAM, listen address, sendfile availability. */
void board_banner(const struct srv_config *cfg, int sendfile_errno);

/* End the program. As init: sync and reboot(RB_POWER_OFF), never return
 * and never exit (that would panic the kernel). Otherwise exit(status). */
_Noreturn void board_end(int status);

#endif
