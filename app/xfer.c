/* xfer.c - the transfer loop. The file offset in the job is the only truth:
 * it advances by exactly the bytes the socket accepted, whichever path moved
 * them, so a fallback in the middle of a body neither loses nor repeats a
 * byte. */
#include <errno.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <unistd.h>

#include "log.h"
#include "xfer.h"

enum step { STEP_MOVED, STEP_RETRY, STEP_AGAIN, STEP_FAIL };

static size_t chunk(off_t left, size_t budget, size_t cap)
{
	size_t n = budget < cap ? budget : cap;

	return (off_t)n < left ? n : (size_t)left;
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
		log_msg("sendfile: ENOSYS, falling back to read/write for the rest of this run");
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
	size_t want = chunk(j->left, *budget, x->bufsz);
	ssize_t r = pread(j->file_fd, x->buf, want, j->off);
	ssize_t w;

	if (r < 0)
		return errno == EINTR ? STEP_RETRY : STEP_FAIL;
	if (r == 0)
		return STEP_FAIL;
	do
		w = send(sock, x->buf, (size_t)r, MSG_NOSIGNAL);
	while (w < 0 && errno == EINTR);
	if (w < 0)
		return errno == EAGAIN || errno == EWOULDBLOCK ? STEP_AGAIN : STEP_FAIL;
	j->off += w;
	j->left -= w;
	*budget -= (size_t)w;
	j->via |= XFER_VIA_RW;
	/* A short write means the socket buffer is full; the unsent tail is
	 * read again from the file next time. */
	return w < r ? STEP_AGAIN : STEP_MOVED;
}

enum xfer_status xfer_run(struct xfer_ctx *x, struct xfer_job *j, int sock)
{
	size_t budget = XFER_BUDGET;

	while (j->left > 0) {
		enum step s;

		if (budget == 0)
			return XFER_AGAIN;
		if (!x->sendfile_enosys && !x->sendfile_off && !j->no_sendfile)
			s = step_sendfile(x, j, sock, &budget);
		else
			s = step_rw(x, j, sock, &budget);
		if (s == STEP_AGAIN)
			return XFER_AGAIN;
		if (s == STEP_FAIL)
			return XFER_FAIL;
	}
	return XFER_DONE;
}
