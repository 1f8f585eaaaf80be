/* server.h - listening socket and the poll() event loop. */
#ifndef APP_SERVER_H
#define APP_SERVER_H

#include <stddef.h>

#include "config.h"
#include "conn.h"
#include "console.h"
#include "xfer.h"

#define SERVER_MAX_CONNS 128
#define SERVER_BACKLOG 128

struct server {
	const struct srv_config *cfg;
	int lfd;
	int rootfd;
	struct xfer_ctx xfer;
	struct console console;
	unsigned long answered;
	size_t live;
	struct conn conns[SERVER_MAX_CONNS];
};

enum server_end { SERVER_POWEROFF, SERVER_MAX_REQUESTS, SERVER_FATAL };

/* Open the served folder and the listening socket. buf/bufsz is the
 * read/write fallback buffer. Returns 0, or -1 after logging why. */
int server_open(struct server *s, const struct srv_config *cfg, char *buf,
		size_t bufsz);

/* Serve until a console "poweroff", the request limit, or a fatal error;
 * then close every connection gracefully (bounded wait). */
enum server_end server_run(struct server *s);

#endif
