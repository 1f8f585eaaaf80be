/* fallback.c: a sendfile loop with a read/write fallback on ENOSYS, like the
 * board's init (app/xfer.c), for tests/build/audit-enosys.sh. Never run, only
 * audited. The same poll loop as nofallback.c sits beside it. The audit must
 * answer "fallback": sendfile's errno reaches a compare with ENOSYS, and the
 * branch taken on ENOSYS leads to pread and write. */
#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <sys/select.h>
#include <sys/sendfile.h>
#include <unistd.h>

struct job {
	int sock, fd;
	off_t ofs;
	size_t left;
	bool no_sendfile;
};

static ssize_t copy_rw(struct job *j)
{
	char buf[512];
	size_t want = j->left < sizeof(buf) ? j->left : sizeof(buf);
	ssize_t r = pread(j->fd, buf, want, j->ofs);

	if (r <= 0)
		return r;
	return write(j->sock, buf, (size_t)r);
}

static int send_step(struct job *j)
{
	ssize_t n;

	if (j->no_sendfile)
		n = copy_rw(j);
	else
		n = sendfile(j->sock, j->fd, &j->ofs, j->left);
	if (n < 0) {
		if (errno == ENOSYS && !j->no_sendfile) {
			j->no_sendfile = true;
			return 0;
		}
		return errno == EAGAIN ? 0 : -1;
	}
	if (j->no_sendfile)
		j->ofs += n;
	j->left -= (size_t)n;
	return 0;
}

static int wait_writable(int s)
{
	fd_set w;
	struct timeval tv = { 1, 0 };
	int r;

	FD_ZERO(&w);
	FD_SET(s, &w);
	r = select(s + 1, NULL, &w, NULL, &tv);
	if (r < 0 && errno == ENOSYS) {
		struct pollfd p = { .fd = s, .events = POLLOUT };

		r = poll(&p, 1, 1000);
	}
	return r;
}

int main(void)
{
	struct job j = { .sock = 1, .fd = 0, .left = 4096 };

	while (j.left > 0) {
		if (wait_writable(j.sock) < 0 || send_step(&j) != 0)
			return 1;
	}
	return 0;
}
