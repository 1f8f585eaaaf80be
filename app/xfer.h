/* xfer.h - move a file range to a non-blocking socket: sendfile first,
 * read/write fallback that resumes at the exact offset reached. */
#ifndef APP_XFER_H
#define APP_XFER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Bytes moved per xfer_run() call at most, so one fast client cannot keep
 * the event loop from the others. */
#define XFER_BUDGET (1024 * 1024)

/* Process-wide transfer state, owned by the server. */
struct xfer_ctx {
	char *buf;            /* read/write bounce buffer */
	size_t bufsz;
	bool sendfile_enosys; /* sendfile answered ENOSYS once: never again */
	bool sendfile_off;    /* configured off: read/write only */
};

enum { XFER_VIA_SENDFILE = 1u, XFER_VIA_RW = 2u };

/* One body in flight. */
struct xfer_job {
	int file_fd;
	off_t off;         /* next file byte to send */
	off_t left;        /* bytes still to send */
	bool no_sendfile;  /* EINVAL/EOPNOTSUPP for these descriptors */
	unsigned via;      /* XFER_VIA_* bits: which paths moved bytes */
};

enum xfer_status {
	XFER_DONE,  /* left == 0 */
	XFER_AGAIN, /* socket full or budget used: wait for POLLOUT */
	XFER_FAIL   /* peer gone or I/O error: drop the connection */
};

enum xfer_status xfer_run(struct xfer_ctx *x, struct xfer_job *j, int sock);

#endif
