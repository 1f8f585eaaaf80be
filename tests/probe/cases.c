/* cases.c - one function per case: splice, vmsplice, tee, sendfile,
 * sendfile64 and copy_file_range with valid arguments on files, pipes and a
 * TCP socket. Every call goes through syscall(2), so the C library cannot
 * emulate or redirect it: sendfile is __NR_sendfile with a 32-bit offset,
 * sendfile64 is __NR_sendfile64 (same number as sendfile on 64-bit hosts). */
#include "probe.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#ifdef SYS_sendfile64
#define PROBE_SYS_SENDFILE64 SYS_sendfile64
#else
#define PROBE_SYS_SENDFILE64 SYS_sendfile
#endif

#define MIN(a, b) ((a) < (b) ? (a) : (b))

/* ---- syscalls, unwrapped ---- */

static long sys_splice(int in, int out, size_t n)
{
	return syscall(SYS_splice, in, NULL, out, NULL, n, 0u);
}

static long sys_vmsplice(int fd, void *buf, size_t n)
{
	struct iovec iov = { .iov_base = buf, .iov_len = n };

	return syscall(SYS_vmsplice, fd, &iov, 1ul, 0u);
}

static long sys_tee(int in, int out, size_t n)
{
	return syscall(SYS_tee, in, out, n, 0u);
}

static long sys_sendfile(int out, int in, long *off, size_t n)
{
	return syscall(SYS_sendfile, out, in, off, n);
}

static long sys_sendfile64(int out, int in, long long *off, size_t n)
{
	return syscall(PROBE_SYS_SENDFILE64, out, in, off, n);
}

static long sys_copy_file_range(int in, int out, size_t n)
{
	return syscall(SYS_copy_file_range, in, NULL, out, NULL, n, 0u);
}

/* ---- files ---- */

static int open_src(const struct probe *pr)
{
	return open(pr->src, O_RDONLY | O_CLOEXEC);
}

static int open_dst(const struct probe *pr, const char *name, char *path)
{
	if (path_join(path, pr->dir, name) < 0)
		return -1;
	return open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
}

/* Close fd; a failing close turns a good result into an error. */
static void close_into(int fd, struct result *r)
{
	if (close(fd) < 0 && r->err == 0)
		result_fail(r, errno);
}

/* Read the destination file back and compare it with want[0..len). */
static void check_file(const struct probe *pr, const char *path,
		       const unsigned char *want, size_t len, struct result *r)
{
	size_t n = 0;

	if (read_file(path, pr->got, DATA_LEN + 1, &n) < 0 && r->err == 0)
		result_fail(r, errno);
	result_check(r, want, len, pr->got, n);
}

/* ---- into a pipe: a step fills the pipe, the loop drains it ---- */

struct filler {
	long (*step)(const struct filler *f, size_t done, size_t n);
	int fd;                    /* source fd (file or socket) */
	int pipe_w;
	const unsigned char *data; /* for vmsplice */
};

static long fill_splice(const struct filler *f, size_t done, size_t n)
{
	(void)done;
	return sys_splice(f->fd, f->pipe_w, n);
}

static long fill_vmsplice(const struct filler *f, size_t done, size_t n)
{
	return sys_vmsplice(f->pipe_w, (void *)(f->data + done), n);
}

static long fill_sendfile(const struct filler *f, size_t done, size_t n)
{
	(void)done;
	return sys_sendfile(f->pipe_w, f->fd, NULL, n);
}

static void into_pipe(const struct probe *pr, struct filler *f,
		      struct result *r)
{
	size_t done = 0;
	int p[2];

	if (pipe2(p, O_CLOEXEC) < 0) {
		result_fail(r, errno);
		return;
	}
	f->pipe_w = p[1];
	while (done < DATA_LEN) {
		long k = f->step(f, done, MIN(CHUNK, DATA_LEN - done));

		if (k < 0) {
			result_fail(r, errno);
			break;
		}
		if (k == 0)
			break;
		if (read_exact(p[0], pr->got + done, (size_t)k) < 0) {
			result_fail(r, errno);
			break;
		}
		done += (size_t)k;
		r->ret += k;
	}
	close_into(p[0], r);
	close_into(p[1], r);
	result_check(r, pr->data, DATA_LEN, pr->got, done);
}

/* ---- out of a pipe: the loop fills the pipe, a step drains it ---- */

struct drainer {
	long (*step)(const struct drainer *d, int pipe_r, unsigned char *dst,
		     size_t n);
	int fd;                    /* destination fd (file or socket) */
};

static long drain_splice(const struct drainer *d, int pipe_r,
			 unsigned char *dst, size_t n)
{
	(void)dst;
	return sys_splice(pipe_r, d->fd, n);
}

static long drain_vmsplice(const struct drainer *d, int pipe_r,
			   unsigned char *dst, size_t n)
{
	(void)d;
	return sys_vmsplice(pipe_r, dst, n);
}

/* Drain n bytes that sit in the pipe; dst is where vmsplice puts them. */
static int drain_n(const struct drainer *d, int pipe_r, unsigned char *dst,
		   size_t n, struct result *r)
{
	size_t left = n;

	while (left) {
		long k = d->step(d, pipe_r, dst + (n - left), left);

		if (k <= 0) {
			result_fail(r, k < 0 ? errno : EIO);
			return -1;
		}
		left -= (size_t)k;
		r->ret += k;
	}
	return 0;
}

static void from_pipe(const struct probe *pr, const struct drainer *d,
		      struct result *r)
{
	size_t done = 0;
	int p[2];

	if (pipe2(p, O_CLOEXEC) < 0) {
		result_fail(r, errno);
		return;
	}
	while (done < DATA_LEN) {
		size_t n = MIN(CHUNK, DATA_LEN - done);

		if (write_all(p[1], pr->data + done, n) < 0) {
			result_fail(r, errno);
			break;
		}
		if (drain_n(d, p[0], pr->got + done, n, r) < 0)
			break;
		done += n;
	}
	close_into(p[0], r);
	close_into(p[1], r);
}

/* ---- splice ---- */

static void splice_file_to_pipe(const struct probe *pr)
{
	struct result r = { 0 };
	struct filler f = { .step = fill_splice, .fd = open_src(pr) };

	if (f.fd < 0) {
		result_fail(&r, errno);
	} else {
		into_pipe(pr, &f, &r);
		close_into(f.fd, &r);
	}
	report("splice", "file->pipe", DATA_LEN, &r);
}

static void splice_pipe_to_file(const struct probe *pr)
{
	struct result r = { 0 };
	char path[PATH_LEN];
	struct drainer d = { .step = drain_splice,
			     .fd = open_dst(pr, "splice.out", path) };

	if (d.fd < 0) {
		result_fail(&r, errno);
	} else {
		from_pipe(pr, &d, &r);
		close_into(d.fd, &r);
		check_file(pr, path, pr->data, DATA_LEN, &r);
	}
	report("splice", "pipe->file", DATA_LEN, &r);
}

static void splice_socket_to_pipe(const struct probe *pr)
{
	struct result r = { 0 };
	struct filler f = { .step = fill_splice };
	struct peer src;
	int tx;

	if (tcp_pair(&tx, &f.fd) < 0) {
		result_fail(&r, errno);
	} else {
		if (source_start(tx, f.fd, pr->data, DATA_LEN, &src) < 0) {
			result_fail(&r, errno);
		} else {
			close_into(tx, &r);
			tx = -1;
			into_pipe(pr, &f, &r);
			if (source_finish(&src) < 0 && r.err == 0)
				result_fail(&r, EIO);
		}
		if (tx >= 0)
			close_into(tx, &r);
		close_into(f.fd, &r);
	}
	report("splice", "socket->pipe", DATA_LEN, &r);
}

static void splice_pipe_to_socket(const struct probe *pr)
{
	struct result r = { 0 };
	struct drainer d = { .step = drain_splice };
	struct peer sink;
	int rx;

	if (tcp_pair(&d.fd, &rx) < 0) {
		result_fail(&r, errno);
	} else if (sink_start(rx, d.fd, pr->data, DATA_LEN, pr->got, &sink) < 0) {
		result_fail(&r, errno);
		close_into(rx, &r);
		close_into(d.fd, &r);
	} else {
		close_into(rx, &r);
		from_pipe(pr, &d, &r);
		close_into(d.fd, &r);
		if (sink_finish(&sink, &r) < 0 && r.err == 0)
			result_fail(&r, EIO);
	}
	report("splice", "pipe->socket", DATA_LEN, &r);
}

void run_splice_cases(const struct probe *pr)
{
	splice_file_to_pipe(pr);
	splice_pipe_to_file(pr);
	splice_socket_to_pipe(pr);
	splice_pipe_to_socket(pr);
}

/* ---- vmsplice ---- */

static void vmsplice_user_to_pipe(const struct probe *pr)
{
	struct result r = { 0 };
	struct filler f = { .step = fill_vmsplice, .data = pr->data };

	into_pipe(pr, &f, &r);
	report("vmsplice", "user->pipe", DATA_LEN, &r);
}

static void vmsplice_pipe_to_user(const struct probe *pr)
{
	struct result r = { 0 };
	struct drainer d = { .step = drain_vmsplice, .fd = -1 };

	memset(pr->got, 0, DATA_LEN);
	from_pipe(pr, &d, &r);
	result_check(&r, pr->data, DATA_LEN, pr->got,
		     r.ret > 0 ? (size_t)r.ret : 0);
	report("vmsplice", "pipe->user", DATA_LEN, &r);
}

void run_vmsplice_cases(const struct probe *pr)
{
	vmsplice_user_to_pipe(pr);
	vmsplice_pipe_to_user(pr);
}

/* ---- tee ---- */

/* tee n bytes from a to b, then read both: b's copy must equal a's. */
static int tee_step(int a[2], int b[2], const unsigned char *src,
		    unsigned char *dst, size_t n, struct result *r)
{
	unsigned char orig[512];
	size_t left = n;

	if (write_all(a[1], src, n) < 0)
		return -1;
	while (left) {
		long k = sys_tee(a[0], b[1], left);

		if (k <= 0) {
			if (k == 0)
				errno = EIO;
			return -1;
		}
		if (read_exact(b[0], dst + (n - left), (size_t)k) < 0)
			return -1;
		left -= (size_t)k;
		r->ret += k;
	}
	/* tee leaves the data in a: it must still be there, unchanged. */
	for (left = 0; left < n; left += sizeof(orig)) {
		size_t m = MIN(sizeof(orig), n - left);

		if (read_exact(a[0], orig, m) < 0)
			return -1;
		if (memcmp(orig, src + left, m) != 0) {
			errno = EIO;
			return -1;
		}
	}
	return 0;
}

static void tee_pipe_to_pipe(const struct probe *pr)
{
	struct result r = { 0 };
	size_t done = 0;
	int a[2], b[2];

	if (pipe2(a, O_CLOEXEC) < 0) {
		result_fail(&r, errno);
		report("tee", "pipe->pipe", DATA_LEN, &r);
		return;
	}
	if (pipe2(b, O_CLOEXEC) < 0) {
		result_fail(&r, errno);
	} else {
		while (done < DATA_LEN) {
			size_t n = MIN(CHUNK, DATA_LEN - done);

			if (tee_step(a, b, pr->data + done, pr->got + done,
				     n, &r) < 0) {
				result_fail(&r, errno);
				break;
			}
			done += n;
		}
		close_into(b[0], &r);
		close_into(b[1], &r);
	}
	close_into(a[0], &r);
	close_into(a[1], &r);
	result_check(&r, pr->data, DATA_LEN, pr->got, done);
	report("tee", "pipe->pipe", DATA_LEN, &r);
}

void run_tee_cases(const struct probe *pr)
{
	tee_pipe_to_pipe(pr);
}

/* ---- sendfile / sendfile64 ---- */

/* Send len bytes from offset off of the source file to a socket. */
static void sendfile_to_socket(const struct probe *pr, int use64, size_t off,
			       struct result *r)
{
	size_t len = DATA_LEN - off;
	long off32 = (long)off;
	long long off64 = (long long)off;
	struct peer sink;
	int in = open_src(pr), tx, rx;

	if (in < 0 || tcp_pair(&tx, &rx) < 0) {
		result_fail(r, errno);
		if (in >= 0)
			close_into(in, r);
		return;
	}
	if (sink_start(rx, tx, pr->data + off, len, pr->got, &sink) < 0) {
		result_fail(r, errno);
		close_into(rx, r);
		close_into(tx, r);
		close_into(in, r);
		return;
	}
	close_into(rx, r);
	while ((size_t)r->ret < len) {
		size_t n = len - (size_t)r->ret;
		long k = use64 ? sys_sendfile64(tx, in, &off64, n)
			       : sys_sendfile(tx, in, &off32, n);

		if (k <= 0) {
			result_fail(r, k < 0 ? errno : EIO);
			break;
		}
		r->ret += k;
	}
	close_into(tx, r);
	close_into(in, r);
	if (sink_finish(&sink, r) < 0 && r->err == 0)
		result_fail(r, EIO);
	if (r->err == 0 && (use64 ? off64 : off32) != (long long)DATA_LEN) {
		printf("probe: note offset after sendfile is %lld, not %u\n",
		       use64 ? off64 : (long long)off32, DATA_LEN);
		r->match = 0;
	}
}

/* Send the whole source file to a file, offsets from the file position. */
static void sendfile_to_file(const struct probe *pr, int use64,
			     const char *name, struct result *r)
{
	char path[PATH_LEN];
	int in = open_src(pr);
	int out = open_dst(pr, name, path);

	if (in < 0 || out < 0) {
		result_fail(r, errno);
	} else {
		while ((size_t)r->ret < DATA_LEN) {
			size_t n = DATA_LEN - (size_t)r->ret;
			long k = use64 ? sys_sendfile64(out, in, NULL, n)
				       : sys_sendfile(out, in, NULL, n);

			if (k <= 0) {
				result_fail(r, k < 0 ? errno : EIO);
				break;
			}
			r->ret += k;
		}
	}
	if (in >= 0)
		close_into(in, r);
	if (out >= 0) {
		close_into(out, r);
		check_file(pr, path, pr->data, DATA_LEN, r);
	}
}

static void sendfile_to_pipe(const struct probe *pr, struct result *r)
{
	struct filler f = { .step = fill_sendfile, .fd = open_src(pr) };

	if (f.fd < 0) {
		result_fail(r, errno);
		return;
	}
	into_pipe(pr, &f, r);
	close_into(f.fd, r);
}

void run_sendfile_cases(const struct probe *pr)
{
	struct result r1 = { 0 }, r2 = { 0 }, r3 = { 0 }, r4 = { 0 },
		      r5 = { 0 };

	sendfile_to_socket(pr, 0, 0, &r1);
	report("sendfile", "file->socket", DATA_LEN, &r1);
	sendfile_to_pipe(pr, &r2);
	report("sendfile", "file->pipe", DATA_LEN, &r2);
	sendfile_to_file(pr, 0, "sendfile.out", &r3);
	report("sendfile", "file->file", DATA_LEN, &r3);
	sendfile_to_socket(pr, 1, 4096, &r4);
	report("sendfile64", "file+4096->socket", DATA_LEN - 4096, &r4);
	sendfile_to_file(pr, 1, "sendfile64.out", &r5);
	report("sendfile64", "file->file", DATA_LEN, &r5);
}

/* ---- copy_file_range (rootfs: no ->copy_file_range, generic path) ---- */

void run_copy_file_range_cases(const struct probe *pr)
{
	struct result r = { 0 };
	char path[PATH_LEN];
	int in = open_src(pr);
	int out = open_dst(pr, "cfr.out", path);

	if (in < 0 || out < 0) {
		result_fail(&r, errno);
	} else {
		while ((size_t)r.ret < DATA_LEN) {
			long k = sys_copy_file_range(in, out,
						     DATA_LEN - (size_t)r.ret);

			if (k <= 0) {
				result_fail(&r, k < 0 ? errno : EIO);
				break;
			}
			r.ret += k;
		}
	}
	if (in >= 0)
		close_into(in, &r);
	if (out >= 0) {
		close_into(out, &r);
		check_file(pr, path, pr->data, DATA_LEN, &r);
	}
	report("copy_file_range", "file->file", DATA_LEN, &r);
}
