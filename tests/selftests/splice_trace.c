/* splice_trace.c - linked into the kernel's splice selftests with
 * -Wl,--wrap=splice: forwards every splice() to the C library and prints
 * "splice-trace: ret=R errno=E" on stderr, so the probe learns the errno
 * even of programs that ignore it (default_file_splice_read). The errno the
 * program sees is left unchanged. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

ssize_t __real_splice(int in, off_t *in_off, int out, off_t *out_off,
		      size_t len, unsigned int flags);
ssize_t __wrap_splice(int in, off_t *in_off, int out, off_t *out_off,
		      size_t len, unsigned int flags);

ssize_t __wrap_splice(int in, off_t *in_off, int out, off_t *out_off,
		      size_t len, unsigned int flags)
{
	ssize_t ret = __real_splice(in, in_off, out, out_off, len, flags);
	int saved = errno;
	char line[64];
	int n = snprintf(line, sizeof(line), "splice-trace: ret=%ld errno=%d\n",
			 (long)ret, ret < 0 ? saved : 0);

	if (n > 0 && write(STDERR_FILENO, line, (size_t)n) != n) {
		/* stderr is unusable: there is nowhere to report the trace */
	}
	errno = saved;
	return ret;
}
