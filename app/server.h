/* server.h - listening socket and the poll() event loop. */
#ifndef APP_SERVER_H
#define APP_SERVER_H

#include <stdbool.h>
#include <stddef.h>

#include "board.h"
#include "config.h"
#include "conn.h"
#include "console.h"
#include "httpdate.h"
#include "listing.h"
#include "xfer.h"

#define SERVER_MAX_CONNS SRV_MAX_CONNS_LIMIT
#define SERVER_BACKLOG 128

/* Free RAM the server keeps for the kernel: it accepts no connection while
 * sysinfo's free RAM is below this (KiB). The kernel's own reserve (the
 * min watermark) is about 128-256 KiB on 6-32 MiB boards. */
#define SERVER_RAM_RESERVE_K 768

/* RAM one connection can pin, beyond its slot (KiB): a full send queue
 * (the kernel doubles SO_SNDBUF and counts skb overhead in it), plus the
 * socket and what it has received. */
#define SERVER_CONN_COST_K(sndbuf) (2 * (sndbuf) / 1024 + 8)

/* Fair slots: with every slot taken, a connection of an address holding
 * more than its share (a quarter of the slots) that has made no progress
 * while the server waited in poll() this long is closed, so that a client
 * waiting in the backlog gets in. Only time spent waiting counts: while
 * the server is busy serving (a slow board under load), nobody is stalled
 * by a client. Half the default request timeout. */
#define SERVER_EVICT_MS 5000
#define SERVER_SHARE_DIV 4

/* A client socket's send buffer holds at least this many segments of its
 * route's MSS (see sndbuf_for() in server.c). */
#define SERVER_SNDBUF_SEGS 4

struct server {
	const struct srv_config *cfg;
	int lfd;
	int rootfd;
	size_t max_conns;           /* slots the board's RAM can carry */
	size_t per_addr;            /* an address's share of them */
	struct xfer_ctx xfer;
	struct console console;
	unsigned long answered;
	long long waited_ms;        /* time spent in poll(): see SERVER_EVICT_MS */
	size_t live;
	long long accept_paused_until; /* accept4 failed: listener rests */
	int accept_backoff_ms;
	struct board_ram ram;       /* the last sysinfo sample */
	long long ram_at_ms;        /* when it was taken */
	unsigned long long low_free_k; /* lowest free RAM since the last stats */
	bool ram_log;               /* console "ram on": log every sample */
	long long ram_log_ms;       /* when "ram on" came: time 0 of the lines */
	char kernel[200];           /* for the index page */
	const char *sendfile;
	struct listing_status status;
	long long date_s;           /* the second date[] says, -1: none */
	char date[HTTP_DATE_SIZE];  /* Date value while the clock is set */
	struct conn conns[SERVER_MAX_CONNS];
};

enum server_end { SERVER_POWEROFF, SERVER_MAX_REQUESTS, SERVER_FATAL };

/* Open the served folder and the listening socket, size the connection
 * bound from the board's RAM. *s must start zeroed (static storage: its
 * slots then cost no RAM until a client uses them). sendfile_errno is the start-up probe's
 * answer (board_probe_sendfile). Returns 0, or -1 after logging why. */
int server_open(struct server *s, const struct srv_config *cfg,
		int sendfile_errno);

/* Serve until a console "poweroff", the request limit, or a fatal error;
 * then close every connection gracefully (bounded wait). */
enum server_end server_run(struct server *s);

#endif
