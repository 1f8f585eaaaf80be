/* xfer.h - move a file range to a non-blocking socket: sendfile first,
 * then a fallback (read/write, or send() from a file mapping) that resumes
 * at the exact offset reached. */
#ifndef APP_XFER_H
#define APP_XFER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Bytes moved per xfer_run() call at most, so one fast client cannot keep
 * the event loop from the others. */
#define XFER_BUDGET (1024 * 1024)

/* The mmap fallback maps at most this much of the file per send(). */
#define XFER_MAP_WINDOW (256 * 1024)

/* Process-wide transfer state, owned by the server. */
struct xfer_ctx {
	char *buf;            /* read/write buffer: mapped on first use, NULL
	                       * again after xfer_release() */
	size_t bufsz;
	size_t page;          /* page size, for mapping offsets */
	bool mmap_fallback;   /* fallback is send() from a mapping */
	bool sendfile_enosys; /* sendfile answered ENOSYS once: never again */
	bool sendfile_off;    /* configured off: fallback only */
	unsigned last_via;    /* XFER_VIA_* of the last body finished */
};

enum { XFER_VIA_SENDFILE = 1u, XFER_VIA_RW = 2u, XFER_VIA_MMAP = 4u };

/* One body in flight. */
struct xfer_job {
	int file_fd;
	off_t off;         /* next file byte to send */
	off_t left;        /* bytes still to send */
	bool no_sendfile;  /* EINVAL/EOPNOTSUPP for these descriptors */
	bool no_mmap;      /* the file cannot be mapped: read/write */
	unsigned via;      /* XFER_VIA_* bits: which paths moved bytes */
};

enum xfer_status {
	XFER_DONE,  /* left == 0 */
	XFER_AGAIN, /* socket full or budget used: wait for POLLOUT */
	XFER_FAIL   /* peer gone, I/O error, file shrank: drop the connection */
};

/* bufsz: the read/write buffer's size; mmap_fallback: srv_fallback=mmap;
 * sendfile_off: srv_sendfile=off. Allocates nothing. */
void xfer_init(struct xfer_ctx *x, size_t bufsz, bool mmap_fallback,
	       bool sendfile_off);

enum xfer_status xfer_run(struct xfer_ctx *x, struct xfer_job *j, int sock);

/* Give the read/write buffer's pages back to the kernel. Call when no body
 * is in flight: the buffer never holds data between xfer_run() calls. */
void xfer_release(struct xfer_ctx *x);

/* "sendfile", "read/write", "mmap", "sendfile+read/write", ... for XFER_VIA_*
 * bits; NULL for 0. */
const char *xfer_via_name(unsigned via);

#endif
