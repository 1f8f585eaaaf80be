/* app_xfer_test.c - the transfer loop against a sendfile test double
 * (linked with -Wl,--wrap=sendfile,--wrap=mmap): sendfile moves part of the
 * body, then fails with ENOSYS / EINVAL / EOPNOTSUPP, or is interrupted;
 * the fallback (read/write, or send() from a mapping that may be refused)
 * finishes it; every byte must reach the peer exactly once, in order. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
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
static int wrap_pretend;        /* sendfile "moves" every byte asked, no I/O */
static int wrap_mmap_errno;     /* file mappings fail with this, 0: they work */
static int wrap_file_maps;      /* file mappings made */

void *__real_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off);
void *__wrap_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off);

void *__wrap_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	if (fd >= 0) {
		if (wrap_mmap_errno) {
			errno = wrap_mmap_errno;
			return MAP_FAILED;
		}
		wrap_file_maps++;
	}
	return __real_mmap(addr, len, prot, flags, fd, off);
}

ssize_t __real_sendfile(int out, int in, off_t *off, size_t n);
ssize_t __wrap_sendfile(int out, int in, off_t *off, size_t n);

ssize_t __wrap_sendfile(int out, int in, off_t *off, size_t n)
{
	ssize_t r;

	wrap_calls++;
	if (wrap_pretend) {
		*off += (off_t)n;
		return (ssize_t)n;
	}
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
	wrap_mmap_errno = 0;
	wrap_file_maps = 0;
	wrap_pretend = 0;
}

static struct xfer_ctx ctx(size_t bufsz, bool mmap_fallback)
{
	struct xfer_ctx x;

	xfer_init(&x, bufsz, mmap_fallback, false);
	return x;
}

static struct xfer_job job(int fd, off_t off, off_t len)
{
	return (struct xfer_job){ .file_fd = fd, .off = off, .left = len };
}

static void case_full(int fd)
{
	struct xfer_ctx x = ctx(16384, false);
	struct xfer_job j = job(fd, 0, FILE_SIZE);

	wrap_set(1LL << 40, ENOSYS, 0);
	TAP(same(run_job(&x, &j), 0, FILE_SIZE) && j.via == XFER_VIA_SENDFILE,
	    "xfer: sendfile moves the whole file");
}

static void case_fail_after(int fd, int err, const char *name)
{
	static const long long cuts[] = { 0, 1, 4095, 123457, FILE_SIZE - 1 };

	for (size_t i = 0; i < sizeof(cuts) / sizeof(cuts[0]); i++) {
		struct xfer_ctx x = ctx(16384, false);
		struct xfer_job j = job(fd, 0, FILE_SIZE);
		long long n;

		wrap_set(cuts[i], err, 0);
		n = run_job(&x, &j);
		TAP(same(n, 0, FILE_SIZE) && j.left == 0 &&
		    (cuts[i] == 0 || j.via == (XFER_VIA_SENDFILE | XFER_VIA_RW)) &&
		    x.sendfile_enosys == (err == ENOSYS) && j.no_sendfile == (err != ENOSYS),
		    "xfer: sendfile moves %lld bytes then %s: every byte once", cuts[i], name);
	}
}

static void case_enosys_remembered(int fd)
{
	struct xfer_ctx x = ctx(16384, false);
	struct xfer_job a = job(fd, 0, FILE_SIZE);
	struct xfer_job b = job(fd, 100, 5000);
	int calls;

	wrap_set(777, ENOSYS, 0);
	run_job(&x, &a);
	calls = wrap_calls;
	TAP(same(run_job(&x, &b), 100, 5000) && wrap_calls == calls &&
	    b.via == XFER_VIA_RW,
	    "xfer: after ENOSYS the next transfer goes straight to read/write");
}

static void case_range_and_eintr(int fd)
{
	struct xfer_ctx x = ctx(1000, false);
	struct xfer_job j = job(fd, 5555, 300001);

	wrap_set(100003, EINVAL, 3);
	TAP(same(run_job(&x, &j), 5555, 300001),
	    "xfer: range, EINTR every 3rd call, EINVAL after 100003 bytes, odd buffer");
}

static void case_peer_gone(int fd)
{
	struct xfer_ctx x = ctx(16384, false);
	struct xfer_job j = job(fd, 0, FILE_SIZE);
	int sv[2];

	x.sendfile_enosys = true;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, sv) != 0)
		return;
	close(sv[1]);
	TAP(xfer_run(&x, &j, sv[0]) == XFER_FAIL, "xfer: peer gone (EPIPE) fails the job only");
	close(sv[0]);
}

/* One xfer_run() call moves at most XFER_BUDGET bytes, however much the
 * socket would take, so one fast client cannot keep the loop from others. */
static void case_budget(int fd)
{
	struct xfer_ctx x = ctx(16384, false);
	struct xfer_job j = job(fd, 0, 3 * XFER_BUDGET);
	enum xfer_status st;

	wrap_set(0, ENOSYS, 0);
	wrap_pretend = 1;
	st = xfer_run(&x, &j, -1);
	TAP(st == XFER_AGAIN && j.left == 2 * XFER_BUDGET,
	    "xfer: one turn moves XFER_BUDGET bytes, then yields (%lld left)", (long long)j.left);
	st = xfer_run(&x, &j, -1);
	TAP(st == XFER_AGAIN && j.left == XFER_BUDGET, "xfer: the next turn moves the next budget");
	wrap_pretend = 0;
}

/* srv_fallback=mmap: sendfile moves part, answers ENOSYS, and send() from
 * the mapping finishes the body; no read/write buffer is ever mapped. */
static void case_mmap_after_enosys(int fd)
{
	static const long long cuts[] = { 0, 4095, 300007 };

	for (size_t i = 0; i < sizeof(cuts) / sizeof(cuts[0]); i++) {
		struct xfer_ctx x = ctx(16384, true);
		struct xfer_job j = job(fd, 0, FILE_SIZE);
		unsigned want = cuts[i] ? XFER_VIA_SENDFILE | XFER_VIA_MMAP : XFER_VIA_MMAP;

		wrap_set(cuts[i], ENOSYS, 0);
		TAP(same(run_job(&x, &j), 0, FILE_SIZE) && j.via == want &&
		    wrap_file_maps > 0 && x.buf == NULL,
		    "xfer: mmap fallback after %lld sendfile bytes: every byte once, no buffer", cuts[i]);
	}
}

/* A range at an offset that is not page-aligned, through the mapping. */
static void case_mmap_range(int fd)
{
	struct xfer_ctx x = ctx(16384, true);
	struct xfer_job j = job(fd, 4097, 700001);

	x.sendfile_enosys = true;
	wrap_set(0, ENOSYS, 0);
	TAP(same(run_job(&x, &j), 4097, 700001) && j.via == XFER_VIA_MMAP,
	    "xfer: mmap fallback, unaligned range");
}

/* A file that cannot be mapped (ENODEV) goes through read/write. */
static void case_mmap_refused(int fd)
{
	struct xfer_ctx x = ctx(16384, true);
	struct xfer_job j = job(fd, 10, 200000);

	x.sendfile_enosys = true;
	wrap_set(0, ENOSYS, 0);
	wrap_mmap_errno = ENODEV;
	TAP(same(run_job(&x, &j), 10, 200000) && j.via == XFER_VIA_RW && j.no_mmap,
	    "xfer: mmap refused (ENODEV): read/write moves the body");
	xfer_release(&x);
}

/* The read/write buffer is mapped while a body needs it and given back by
 * xfer_release(); the next body maps it again. */
static void case_buffer_released(int fd)
{
	struct xfer_ctx x = ctx(16384, false);
	struct xfer_job a = job(fd, 0, 100000);
	struct xfer_job b = job(fd, 3, 50000);
	bool mapped, released;

	x.sendfile_off = true;
	wrap_set(0, ENOSYS, 0);
	mapped = same(run_job(&x, &a), 0, 100000) && x.buf != NULL;
	xfer_release(&x);
	released = x.buf == NULL;
	TAP(mapped && released && same(run_job(&x, &b), 3, 50000) && x.buf != NULL,
	    "xfer: read/write buffer mapped on use, given back, mapped again");
	xfer_release(&x);
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
	char logname[] = "/tmp/app-xfer-log-XXXXXX";
	int fd = make_file(), logfd = mkstemp(logname), saved = dup(2);

	signal(SIGPIPE, SIG_IGN);
	if (fd < 0 || logfd < 0 || saved < 0 || dup2(logfd, 2) < 0) {
		printf("not ok - xfer: setup\n");
		return 1;
	}
	case_full(fd);
	case_fail_after(fd, ENOSYS, "ENOSYS");
	case_fail_after(fd, EINVAL, "EINVAL");
	case_fail_after(fd, EOPNOTSUPP, "EOPNOTSUPP");
	case_enosys_remembered(fd);
	case_range_and_eintr(fd);
	case_peer_gone(fd);
	case_budget(fd);
	case_mmap_after_enosys(fd);
	case_mmap_range(fd);
	case_mmap_refused(fd);
	case_buffer_released(fd);
	dup2(saved, 2);
	/* 5 ENOSYS cases + the remembered case + 3 mmap cases, each a fresh
	 * context: 9 lines. */
	TAP(count_enosys_lines(logname) == 9, "xfer: one ENOSYS log line per context");
	unlink(logname);
	return tap_failed ? 1 : 0;
}
