/* nofallback.c: darkhttpd's pattern, for tests/build/audit-enosys.sh. Never
 * run, only audited. send_from_file() is only `return sendfile(...)`; the
 * caller closes the connection on any error but EAGAIN, so on a kernel
 * without sendfile every reply is cut off. The poll loop nearby tests ENOSYS
 * too, but on select()'s result (a fallback to poll), never on sendfile's;
 * after a failed reply the loop goes on to the next client and meets that
 * compare. The audit must answer "no fallback proven", with no compare. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <sys/select.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <unistd.h>

struct conn {
	int sock, fd, done;
	off_t ofs;
	size_t left;
};

static ssize_t send_from_file(int s, int fd, off_t ofs, size_t size)
{
	return sendfile(s, fd, &ofs, size);
}

static void poll_send_reply(struct conn *c)
{
	ssize_t sent = send_from_file(c->sock, c->fd, c->ofs, c->left);

	if (sent < 1) {
		if (sent == -1 && errno == EAGAIN)
			return;
		c->done = 1;
		if (close(c->sock) != 0)
			perror("close");
		return;
	}
	c->ofs += sent;
	c->left -= (size_t)sent;
	if (c->left == 0)
		c->done = 1;
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
	struct conn c = { .sock = 1, .fd = 0, .left = 4096 };

	for (;;) {
		if (wait_writable(c.sock) < 0)
			return 1;
		poll_send_reply(&c);
		if (c.done) { /* the next client */
			c.sock = accept(3, NULL, NULL);
			if (c.sock < 0)
				return 1;
			c.done = 0;
			c.ofs = 0;
			c.left = 4096;
		}
	}
}
