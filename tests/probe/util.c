/* util.c - pattern, hash, errno names, whole-buffer I/O, reporting. */
#include "probe.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

void fill_pattern(unsigned char *buf, size_t len, uint32_t seed)
{
	uint32_t x = seed ? seed : 1u;
	size_t i;

	for (i = 0; i < len; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		buf[i] = (unsigned char)(x >> 24);
	}
}

uint64_t fnv1a(const unsigned char *buf, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ull;
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= buf[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

const char *errname(int err)
{
	static const struct {
		int n;
		const char *s;
	} names[] = {
		{ 0, "0" }, { EPERM, "EPERM" }, { ENOENT, "ENOENT" },
		{ EINTR, "EINTR" }, { EIO, "EIO" }, { EBADF, "EBADF" },
		{ EAGAIN, "EAGAIN" }, { ENOMEM, "ENOMEM" }, { EACCES, "EACCES" },
		{ EFAULT, "EFAULT" }, { EEXIST, "EEXIST" }, { EXDEV, "EXDEV" },
		{ ENODEV, "ENODEV" }, { EINVAL, "EINVAL" }, { ENOSPC, "ENOSPC" },
		{ ESPIPE, "ESPIPE" }, { EPIPE, "EPIPE" }, { ENOSYS, "ENOSYS" },
		{ EOPNOTSUPP, "EOPNOTSUPP" }, { ENOTSOCK, "ENOTSOCK" },
		{ ECONNREFUSED, "ECONNREFUSED" }, { ENETUNREACH, "ENETUNREACH" },
		{ EADDRNOTAVAIL, "EADDRNOTAVAIL" }, { EOVERFLOW, "EOVERFLOW" },
		{ EISDIR, "EISDIR" }, { EFBIG, "EFBIG" },
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].n == err)
			return names[i].s;
	return "EUNKNOWN";
}

int write_all(int fd, const void *buf, size_t len)
{
	const unsigned char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Read exactly len bytes (fails on EOF before that). */
int read_exact(int fd, unsigned char *buf, size_t len)
{
	while (len) {
		ssize_t n = read(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = EIO;
			return -1;
		}
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Read until EOF; bytes past cap are counted in *n but dropped. */
int read_to_eof(int fd, unsigned char *buf, size_t cap, size_t *n)
{
	unsigned char sink[512];

	*n = 0;
	for (;;) {
		unsigned char *dst = *n < cap ? buf + *n : sink;
		size_t room = *n < cap ? cap - *n : sizeof(sink);
		ssize_t r = read(fd, dst, room);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			return 0;
		*n += (size_t)r;
	}
}

int make_file(const char *path, const unsigned char *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	int rc;

	if (fd < 0)
		return -1;
	rc = write_all(fd, buf, len);
	if (close(fd) < 0)
		rc = -1;
	return rc;
}

int read_file(const char *path, unsigned char *buf, size_t cap, size_t *n)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int rc;

	if (fd < 0)
		return -1;
	rc = read_to_eof(fd, buf, cap, n);
	if (close(fd) < 0)
		rc = -1;
	return rc;
}

int path_join(char *out, const char *dir, const char *name)
{
	int n = snprintf(out, PATH_LEN, "%s/%s", dir, name);

	if (n < 0 || n >= PATH_LEN) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return 0;
}

void result_fail(struct result *r, int err)
{
	r->ret = -1;
	r->err = err;
}

void result_check(struct result *r, const unsigned char *want, size_t want_len,
		  const unsigned char *got, size_t got_len)
{
	r->bytes = got_len;
	r->hash = fnv1a(got, got_len < want_len ? got_len : want_len);
	r->match = got_len == want_len && memcmp(want, got, want_len) == 0;
}

/*
 * One machine-readable line per case, read by tests/probe/expect.sh:
 * probe: SYSCALL WHAT want=N ret=N errno=NAME bytes=N match=yes|no fnv1a=HEX
 */
void report(const char *sys, const char *what, size_t want,
	    const struct result *r)
{
	printf("probe: %s %s want=%zu ret=%lld errno=%s bytes=%zu match=%s fnv1a=%016llx\n",
	       sys, what, want, r->ret, errname(r->err), r->bytes,
	       r->match ? "yes" : "no", (unsigned long long)r->hash);
	fflush(stdout);
}
