/* app_wrap_sendfile.c - sendfile test double for the whole server, linked
 * with -Wl,--wrap=sendfile. Environment:
 *   WRAP_SENDFILE_BYTES  bytes the real sendfile may move in this process
 *   WRAP_SENDFILE_ERRNO  ENOSYS | EINVAL | EOPNOTSUPP once they are spent
 *   WRAP_SENDFILE_CHUNK  at most this many bytes per call (default 65536)
 * The probe sendfile(-1, -1, NULL, 0) goes to the real call. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sendfile.h>
#include <sys/types.h>

ssize_t __real_sendfile(int out, int in, off_t *off, size_t n);
ssize_t __wrap_sendfile(int out, int in, off_t *off, size_t n);

static long long env_ll(const char *name, long long dflt)
{
	const char *v = getenv(name);

	return v ? strtoll(v, NULL, 10) : dflt;
}

static int env_errno(void)
{
	const char *v = getenv("WRAP_SENDFILE_ERRNO");

	if (v && strcmp(v, "EINVAL") == 0)
		return EINVAL;
	if (v && strcmp(v, "EOPNOTSUPP") == 0)
		return EOPNOTSUPP;
	return ENOSYS;
}

ssize_t __wrap_sendfile(int out, int in, off_t *off, size_t n)
{
	static long long moved; /* test double only: process-wide count */
	long long budget = env_ll("WRAP_SENDFILE_BYTES", 0) - moved;
	long long chunk = env_ll("WRAP_SENDFILE_CHUNK", 65536);
	ssize_t r;

	if (out < 0)
		return __real_sendfile(out, in, off, n);
	if (budget <= 0) {
		errno = env_errno();
		return -1;
	}
	if ((long long)n > budget)
		n = (size_t)budget;
	if ((long long)n > chunk)
		n = (size_t)chunk;
	r = __real_sendfile(out, in, off, n);
	if (r > 0)
		moved += r;
	return r;
}
