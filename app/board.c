/* board.c - init duties. Nothing is mounted: the server needs neither /proc
 * nor devtmpfs (uname and sysinfo are syscalls, the console is opened by the
 * kernel for init as fds 0-2). */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/reboot.h>
#include <sys/sendfile.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "board.h"
#include "log.h"

bool board_is_init(void)
{
	return getpid() == 1;
}

int board_setup(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_IGN;
	if (sigemptyset(&sa.sa_mask) != 0 || sigaction(SIGPIPE, &sa, NULL) != 0) {
		log_msg("sigaction(SIGPIPE): %s", strerror(errno));
		return -1;
	}
	return 0;
}

int board_probe_sendfile(void)
{
	if (sendfile(-1, -1, NULL, 0) < 0)
		return errno;
	return 0;
}

int board_ram(struct board_ram *ram)
{
	struct sysinfo si;

	if (sysinfo(&si) != 0)
		return -1;
	ram->total_k = (unsigned long long)si.totalram * si.mem_unit / 1024;
	ram->free_k = (unsigned long long)si.freeram * si.mem_unit / 1024;
	return 0;
}

static void banner_system(void)
{
	struct utsname u;
	struct board_ram ram;

	if (uname(&u) == 0)
		log_msg("kernel %s %s (%s)", u.sysname, u.release, u.machine);
	else
		log_msg("kernel: uname: %s", strerror(errno));
	if (board_ram(&ram) == 0)
		log_msg("RAM %llu KiB total, %llu KiB free", ram.total_k, ram.free_k);
	else
		log_msg("RAM: sysinfo: %s", strerror(errno));
}

void board_banner(const struct srv_config *cfg, int sendfile_errno)
{
	log_msg("starting as %s (pid %d)", board_is_init() ? "init" : "a process",
		(int)getpid());
	banner_system();
	log_msg("listening on %s:%u, serving %s, max requests %lu, timeouts %us/%us, sndbuf %u",
		cfg->addr, cfg->port, cfg->root, cfg->max_requests, cfg->timeout_s,
		cfg->send_timeout_s, cfg->sndbuf);
	if (!cfg->sendfile)
		log_msg("sendfile: off by configuration (srv_sendfile=off)");
	if (sendfile_errno == ENOSYS)
		log_msg("sendfile: not available (probe: ENOSYS)");
	else
		log_msg("sendfile: available (probe: %s)",
			sendfile_errno == EBADF ? "EBADF" : strerror(sendfile_errno));
}

_Noreturn void board_end(int status)
{
	if (!board_is_init()) {
		log_drain(2000);
		exit(status);
	}
	log_msg("powering off (status %d)", status);
	log_drain(2000);
	sync();
	if (reboot(RB_POWER_OFF) != 0)
		log_msg("reboot(RB_POWER_OFF): %s; halting here", strerror(errno));
	for (;;)
		pause(); /* init must never exit */
}
