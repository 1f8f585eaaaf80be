/* main.c - the board's init: configure, announce, serve, power off. */
#include <stddef.h>

#include "board.h"
#include "config.h"
#include "log.h"
#include "server.h"

int main(int argc, char **argv)
{
	static struct server srv;      /* large (connection buffers): not on the stack */
	struct srv_config cfg;
	enum server_end end;
	int probe;

	if (config_load(&cfg, argc, argv) != 0)
		board_end(2);
	if (board_setup() != 0)
		board_end(1);
	log_init();
	probe = board_probe_sendfile();
	board_banner(&cfg, probe);
	if (server_open(&srv, &cfg, probe) != 0)
		board_end(1);
	log_msg("ready on %s:%u", cfg.addr, cfg.port);
	end = server_run(&srv);
	board_end(end == SERVER_FATAL ? 1 : 0);
}
