/* app_xfer_test.c - the transfer loop against a sendfile test double
 * (linked with -Wl,--wrap=sendfile): sendfile moves part of the body, then
 * fails with ENOSYS / EINVAL / EOPNOTSUPP, or is interrupted; every byte
 * must reach the peer exactly once, in order. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <unistd.h>

#include "app_tap.h"
#include "xfer.h"

#define FILE_SIZE (1024 * 1024 + 4321)

/* Test double state (test-only globals). */
static long long wrap_budget;   /* bytes the real sendfile may still move */
static int wrap_errno;          /* error once the budget is spent */
static int wrap_every_eintr;    /* every Nth call fails with EINTR first */
static int wrap_calls;

ssize_t __real_sendfile(int out, int in, off_t *off, size_t n);
ssize_t __wrap_sendfile(int out, int in, off_t *off, size_t n);

ssize_t __wrap_sendfile(int out, int in, off_t *off, size_t n)
{
	ssize_t r;

	wrap_calls++;
	if (wrap_every_eintr && wrap_calls % wrap_every_eintr == 0) {
		errno = EINTR;
		return -1;
	}
	if (wrap_budget <= 0) {
		errno = wrap_errno;
		return -1;
	}
	if ((long long)n > wrap_budget)
		n = (size_t)wrap_budget;
	r = __real_sendfile(out, in, off, n);
	if (r > 0)
		wrap_budget -= r;
	return r;
}

static unsigned char data[FILE_SIZE];
static unsigned char got[FILE_SIZE + 1];

static int make_file(void)
{
	char name[] = "/tmp/app-xfer-XXXXXX";
	int fd = mkstemp(name);

	if (fd < 0 || unlink(name) != 0)
		return -1;
	srand(42);
	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (unsigned char)rand();
	if (write(fd, data, sizeof(data)) != (ssize_t)sizeof(data))
		return -1;
	return fd;
}

/* Run one job to completion through a small non-blocking socket pair
 * (short writes and EAGAIN happen all the time). Returns bytes received,
 * or -1 if the loop failed. */
static long long run_job(struct xfer_ctx *x, struct xfer_job *j)
{
	int sv[2], small = 4096;
	long long n = 0;
	enum xfer_status s = XFER_AGAIN;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, sv) != 0 ||
	    setsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &small, sizeof(small)) != 0)
		return -1;
	while (s != XFER_FAIL) {
		ssize_t r;

		if (s != XFER_DONE)
			s = xfer_run(x, j, sv[0]);
		r = recv(sv[1], got + n, sizeof(got) - (size_t)n, 0);
		if (r > 0)
			n += r;
		else if (s == XFER_DONE)
			break;
	}
	close(sv[0]);
	close(sv[1]);
	return s == XFER_FAIL ? -1 : n;
}

static int same(long long n, off_t start, off_t len)
{
	return n == len && memcmp(got, data + start, (size_t)len) == 0;
}

static void wrap_set(long long budget, int err, int eintr)
{
	wrap_budget = budget;
	wrap_errno = err;
	wrap_every_eintr = eintr;
	wrap_calls = 0;
}

static void case_full(int fd, char *buf)
{
	struct xfer_ctx x = { buf, 16384, false, false };
	struct xfer_job j = { fd, 0, FILE_SIZE, false, 0 };

	wrap_set(1LL << 40, ENOSYS, 0);
	TAP(same(run_job(&x, &j), 0, FILE_SIZE) && j.via == XFER_VIA_SENDFILE,
	    "xfer: sendfile moves the whole file");
}

static void case_fail_after(int fd, char *buf, int err, const char *name)
{
	static const long long cuts[] = { 0, 1, 4095, 123457, FILE_SIZE - 1 };

	for (size_t i = 0; i < sizeof(cuts) / sizeof(cuts[0]); i++) {
		struct xfer_ctx x = { buf, 16384, false, false };
		struct xfer_job j = { fd, 0, FILE_SIZE, false, 0 };
		long long n;

		wrap_set(cuts[i], err, 0);
		n = run_job(&x, &j);
		TAP(same(n, 0, FILE_SIZE) && j.left == 0 &&
		    (cuts[i] == 0 || j.via == (XFER_VIA_SENDFILE | XFER_VIA_RW)) &&
		    x.sendfile_enosys == (err == ENOSYS) && j.no_sendfile == (err != ENOSYS),
		    "xfer: sendfile moves %lld bytes then %s: every byte once", cuts[i], name);
	}
}

static void case_enosys_remembered(int fd, char *buf)
{
	struct xfer_ctx x = { buf, 16384, false, false };
	struct xfer_job a = { fd, 0, FILE_SIZE, false, 0 };
	struct xfer_job b = { fd, 100, 5000, false, 0 };
	int calls;

	wrap_set(777, ENOSYS, 0);
	run_job(&x, &a);
	calls = wrap_calls;
	TAP(same(run_job(&x, &b), 100, 5000) && wrap_calls == calls &&
	    b.via == XFER_VIA_RW,
	    "xfer: after ENOSYS the next transfer goes straight to read/write");
}

static void case_range_and_eintr(int fd, char *buf)
{
	struct xfer_ctx x = { buf, 1000, false, false };
	struct xfer_job j = { fd, 5555, 300001, false, 0 };

	wrap_set(100003, EINVAL, 3);
	TAP(same(run_job(&x, &j), 5555, 300001),
	    "xfer: range, EINTR every 3rd call, EINVAL after 100003 bytes, odd buffer");
}

static void case_peer_gone(int fd, char *buf)
{
	struct xfer_ctx x = { buf, 16384, true, false };
	struct xfer_job j = { fd, 0, FILE_SIZE, false, 0 };
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, sv) != 0)
		return;
	close(sv[1]);
	TAP(xfer_run(&x, &j, sv[0]) == XFER_FAIL, "xfer: peer gone (EPIPE) fails the job only");
	close(sv[0]);
}

/* The ENOSYS line must appear once for the whole process. */
static int count_enosys_lines(const char *path)
{
	char text[8192];
	int fd = open(path, O_RDONLY), n, lines = 0;

	if (fd < 0)
		return -1;
	n = (int)read(fd, text, sizeof(text) - 1);
	close(fd);
	text[n > 0 ? n : 0] = '\0';
	for (char *p = text; (p = strstr(p, "ENOSYS")) != NULL; p++)
		lines++;
	return lines;
}

int main(void)
{
	static char buf[16384];
	char logname[] = "/tmp/app-xfer-log-XXXXXX";
	int fd = make_file(), logfd = mkstemp(logname), saved = dup(2);

	signal(SIGPIPE, SIG_IGN);
	if (fd < 0 || logfd < 0 || saved < 0 || dup2(logfd, 2) < 0) {
		printf("not ok - xfer: setup\n");
		return 1;
	}
	case_full(fd, buf);
	case_fail_after(fd, buf, ENOSYS, "ENOSYS");
	case_fail_after(fd, buf, EINVAL, "EINVAL");
	case_fail_after(fd, buf, EOPNOTSUPP, "EOPNOTSUPP");
	case_enosys_remembered(fd, buf);
	case_range_and_eintr(fd, buf);
	case_peer_gone(fd, buf);
	dup2(saved, 2);
	/* 5 ENOSYS cases + the remembered case, each a fresh context: 6 lines. */
	TAP(count_enosys_lines(logname) == 6, "xfer: one ENOSYS log line per context");
	unlink(logname);
	return tap_failed ? 1 : 0;
}
