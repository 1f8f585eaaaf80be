/* main.c - the board's init: configure, announce, serve, power off. */
#include <stddef.h>

#include "board.h"
#include "config.h"
#include "log.h"
#include "server.h"

/* Size of the read/write fallback buffer, chosen by measurement in the guest
 * (tests/bench/app-bench.sh buf: base kernel, srv_sendfile=off, server CPU
 * per MiB sent, 2 runs): 4K 402 ms, 8K 305, 16K 275, 32K 230-290, 64K 214-217,
 * 128K 220. 64 KiB is where it stops improving. */
#ifndef RW_BUF_SIZE
#define RW_BUF_SIZE (64 * 1024)
#endif

int main(int argc, char **argv)
{
	static struct server srv;      /* large (connection buffers): not on the stack */
	static char rw_buf[RW_BUF_SIZE];
	struct srv_config cfg;
	enum server_end end;

	if (config_load(&cfg, argc, argv) != 0)
		board_end(2);
	if (board_setup() != 0)
		board_end(1);
	board_banner(&cfg, board_probe_sendfile());
	if (server_open(&srv, &cfg, rw_buf, sizeof(rw_buf)) != 0)
		board_end(1);
	log_msg("ready on %s:%u", cfg.addr, cfg.port);
	end = server_run(&srv);
	board_end(end == SERVER_FATAL ? 1 : 0);
}
