/* conn.h - one client connection: read a request, answer it, repeat. */
#ifndef APP_CONN_H
#define APP_CONN_H

#include <stdbool.h>
#include <stddef.h>

#include "http.h"
#include "listing.h"
#include "xfer.h"

#define CONN_OUT_MAX 4096   /* headers, or headers + a small body */
#define CONN_DRAIN_MS 2000  /* linger after our last byte to read the rest */

enum conn_state { CONN_FREE, CONN_READ, CONN_HEAD, CONN_BODY, CONN_DRAIN };

/* What a connection needs from its server, passed on every step. */
struct conn_env {
	int rootfd;
	struct xfer_ctx *xfer;
	const struct listing_status *status; /* for the index page */
	const char *date;           /* Date value, NULL: no clock (see README) */
	long long wall_s;           /* the wall clock, -1 when it is not set */
	long long now_ms;
	long long waited_ms;        /* time the server has spent waiting in
	                             * poll(), the clock of fair slots */
	long long timeout_ms;       /* idle / request not complete yet */
	long long send_timeout_ms;  /* response making no progress */
	unsigned min_rate;          /* bytes/s a response must average, 0: none */
};

struct conn {
	/* The small fields first, then the buffers in the order a request
	 * touches them: only the pages a connection uses become resident. */
	int fd;
	enum conn_state state;
	long long deadline_ms;
	long long cap_ms;           /* overall deadline of the response */
	char peer[24];              /* "a.b.c.d:port": 21 bytes at most */
	unsigned addr;              /* the client's IPv4 address (fair slots) */
	size_t in_len;
	size_t scanned;             /* in[0..scanned) held no complete head */
	size_t out_len, out_sent, head_len;
	struct xfer_job job;        /* job.file_fd < 0: no file body */
	off_t file_body;            /* bytes the file body should have */
	long long mem_body;         /* body bytes sent from out[] so far */
	long long progress_ms;      /* fair slots: waited_ms when the connection
	                             * last made progress (bytes sent, a
	                             * response finished, opened) */
	bool keep_alive;
	bool head;                  /* HEAD: no body, whatever the status */
	bool chunked;               /* the index goes out in chunks */
	int status;                 /* response in flight, 0 when none */
	char method[16];
	char target[96];
	struct listing list;        /* an index in flight when list.fd >= 0 */
	char out[CONN_OUT_MAX];
	char in[HTTP_HEAD_MAX];     /* while an index is sent, its folder's path
	                             * is kept at the end (see serve_listing) */
};

/* Take over the accepted, non-blocking socket fd of the client at addr
 * (IPv4, network order), named peer. */
void conn_open(struct conn *c, int fd, unsigned addr, const char *peer,
	       const struct conn_env *env);

/* Do what can be done now. Returns the poll events to wait for, or 0 when
 * the connection is over (then call conn_close). Adds the number of
 * requests answered to *answered. */
short conn_step(struct conn *c, const struct conn_env *env,
		unsigned long *answered);

/* Close the connection. why (e.g. "timeout") is logged when not NULL; a
 * response cut short is logged as aborted and counted in *answered. */
void conn_close(struct conn *c, const char *why, unsigned long *answered);

#endif
