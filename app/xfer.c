/* xfer.c - the transfer loop. The file offset in the job is the only truth:
 * it advances by exactly the bytes the socket accepted, whichever path moved
 * them, so a fallback in the middle of a body neither loses nor repeats a
 * byte. */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <unistd.h>

#include "log.h"
#include "xfer.h"

enum step { STEP_MOVED, STEP_RETRY, STEP_AGAIN, STEP_FAIL };

void xfer_init(struct xfer_ctx *x, size_t bufsz, bool mmap_fallback,
	       bool sendfile_off)
{
	long pg = getpagesize();

	*x = (struct xfer_ctx){ .buf = NULL, .bufsz = bufsz,
				.page = pg > 0 ? (size_t)pg : 4096,
				.mmap_fallback = mmap_fallback,
				.sendfile_off = sendfile_off };
}

void xfer_release(struct xfer_ctx *x)
{
	if (!x->buf)
		return;
	if (munmap(x->buf, x->bufsz) != 0) {
		log_msg("read/write buffer: munmap: %s", strerror(errno));
		return;
	}
	x->buf = NULL;
}

/* The read/write buffer, mapped on first use: its pages cost RAM only while
 * bodies are moving through it. NULL (logged) when there is no memory. */
static char *rw_buf(struct xfer_ctx *x)
{
	void *p;

	if (x->buf)
		return x->buf;
	p = mmap(NULL, x->bufsz, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		log_msg("read/write buffer: mmap: %s", strerror(errno));
		return NULL;
	}
	x->buf = p;
	return x->buf;
}

const char *xfer_via_name(unsigned via)
{
	switch (via) {
	case XFER_VIA_SENDFILE: return "sendfile";
	case XFER_VIA_RW: return "read/write";
	case XFER_VIA_MMAP: return "mmap";
	case XFER_VIA_SENDFILE | XFER_VIA_RW: return "sendfile+read/write";
	case XFER_VIA_SENDFILE | XFER_VIA_MMAP: return "sendfile+mmap";
	case XFER_VIA_MMAP | XFER_VIA_RW: return "mmap+read/write";
	case XFER_VIA_SENDFILE | XFER_VIA_MMAP | XFER_VIA_RW:
		return "sendfile+mmap+read/write";
	default: return NULL;
	}
}

static size_t chunk(off_t left, size_t budget, size_t cap)
{
	size_t n = budget < cap ? budget : cap;

	return (off_t)n < left ? n : (size_t)left;
}

/* Account for w bytes the socket accepted out of want. */
static enum step moved(struct xfer_job *j, size_t *budget, ssize_t w,
		       size_t want, unsigned via)
{
	j->off += w;
	j->left -= w;
	*budget -= (size_t)w;
	j->via |= via;
	/* A short write means the socket buffer is full; the unsent tail is
	 * read (or mapped) again from the file next time. */
	return (size_t)w < want ? STEP_AGAIN : STEP_MOVED;
}

static ssize_t send_eintr(int sock, const void *p, size_t n)
{
	ssize_t w;

	do
		w = send(sock, p, n, MSG_NOSIGNAL);
	while (w < 0 && errno == EINTR);
	return w;
}

static enum step send_error(int err)
{
	return err == EAGAIN || err == EWOULDBLOCK ? STEP_AGAIN : STEP_FAIL;
}

/* A sendfile error: decide between retry (maybe on the other path), wait
 * and fail. */
static enum step sendfile_error(struct xfer_ctx *x, struct xfer_job *j, int err)
{
	switch (err) {
	case EINTR:
		return STEP_RETRY;
	case EAGAIN:
		return STEP_AGAIN;
	case ENOSYS:
		x->sendfile_enosys = true;
		log_msg("sendfile: ENOSYS, falling back to %s for the rest of this run",
			x->mmap_fallback ? "mmap" : "read/write");
		return STEP_RETRY;
	case EINVAL:
	case EOPNOTSUPP:
		j->no_sendfile = true;
		return STEP_RETRY;
	default:
		return STEP_FAIL;
	}
}

static enum step step_sendfile(struct xfer_ctx *x, struct xfer_job *j, int sock,
			       size_t *budget)
{
	off_t off = j->off;
	ssize_t n = sendfile(sock, j->file_fd, &off, chunk(j->left, *budget, 0x40000000));

	if (n < 0)
		return sendfile_error(x, j, errno);
	if (n == 0)
		return STEP_FAIL; /* the file shrank under us */
	j->off += n;
	j->left -= n;
	*budget -= (size_t)n;
	j->via |= XFER_VIA_SENDFILE;
	return STEP_MOVED;
}

static enum step step_rw(struct xfer_ctx *x, struct xfer_job *j, int sock,
			 size_t *budget)
{
	char *buf = rw_buf(x);
	size_t want;
	ssize_t r, w;

	if (!buf)
		return STEP_FAIL;
	want = chunk(j->left, *budget, x->bufsz);
	r = pread(j->file_fd, buf, want, j->off);
	if (r < 0)
		return errno == EINTR ? STEP_RETRY : STEP_FAIL;
	if (r == 0)
		return STEP_FAIL; /* the file shrank under us */
	w = send_eintr(sock, buf, (size_t)r);
	if (w < 0)
		return send_error(errno);
	return moved(j, budget, w, (size_t)r, XFER_VIA_RW);
}

/* send() straight from a read-only mapping of the file window: one copy,
 * as sendfile makes on a NIC without scatter-gather. The mapping lives for
 * this call only. The program never reads the mapping itself: if the file
 * shrinks, the kernel's copy in send() faults and send() fails with EFAULT
 * (or moves less), so PID 1 never takes a SIGBUS. */
static enum step step_mmap(struct xfer_ctx *x, struct xfer_job *j, int sock,
			   size_t *budget)
{
	off_t start = j->off - j->off % (off_t)x->page;
	size_t lead = (size_t)(j->off - start);
	size_t want = chunk(j->left, *budget, XFER_MAP_WINDOW);
	void *m = mmap(NULL, lead + want, PROT_READ, MAP_SHARED, j->file_fd, start);
	ssize_t w;
	int err;

	if (m == MAP_FAILED) {
		j->no_mmap = true; /* ENODEV and the like: read/write instead */
		return STEP_RETRY;
	}
	w = send_eintr(sock, (const char *)m + lead, want);
	err = errno;
	if (munmap(m, lead + want) != 0) {
		log_msg("munmap: %s", strerror(errno));
		return STEP_FAIL;
	}
	if (w < 0)
		return send_error(err);
	if (w == 0)
		return STEP_FAIL;
	return moved(j, budget, w, want, XFER_VIA_MMAP);
}

static enum step step(struct xfer_ctx *x, struct xfer_job *j, int sock,
		      size_t *budget)
{
	if (!x->sendfile_enosys && !x->sendfile_off && !j->no_sendfile)
		return step_sendfile(x, j, sock, budget);
	if (x->mmap_fallback && !j->no_mmap)
		return step_mmap(x, j, sock, budget);
	return step_rw(x, j, sock, budget);
}

enum xfer_status xfer_run(struct xfer_ctx *x, struct xfer_job *j, int sock)
{
	size_t budget = XFER_BUDGET;

	while (j->left > 0) {
		enum step s;

		if (budget == 0)
			return XFER_AGAIN;
		s = step(x, j, sock, &budget);
		if (s == STEP_AGAIN)
			return XFER_AGAIN;
		if (s == STEP_FAIL)
			return XFER_FAIL;
	}
	return XFER_DONE;
}
