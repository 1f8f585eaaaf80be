/* app_wrap_poll.c - test double: the server linked with
 * -Wl,--wrap=poll,--wrap=nanosleep,--wrap=clock_nanosleep.
 * WRAP_POLL_ENOMEM="FROM COUNT": the event loop's poll() calls (those with
 * descriptors) FROM .. FROM+COUNT-1 (counted from 1) fail with ENOMEM, as
 * under memory pressure on the board; every other call is the real poll().
 * WRAP_POLL_SLEEPS=FILE: each poll() on no descriptors (a wait) appends
 * "TIMEOUT RESULT ELAPSED" to FILE: the timeout asked for (ms), what the
 * real poll() returned (0: the whole timeout passed) and the monotonic ms
 * it took (for the reader; a wall-clock figure, never asserted).
 * nanosleep() and clock_nanosleep() answer ENOSYS, as on the tiny board:
 * musl's __clock_nanosleep makes the time32 SYS_nanosleep for any wait
 * under 2^31 s, and CONFIG_COMPAT_32BIT_TIME=n leaves it out. A wait made
 * with them does not wait, and leaves no line in FILE. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int __real_poll(struct pollfd *fds, nfds_t n, int timeout);
int __wrap_poll(struct pollfd *fds, nfds_t n, int timeout);
int __wrap_nanosleep(const struct timespec *req, struct timespec *rem);
int __wrap_clock_nanosleep(clockid_t clk, int flags, const struct timespec *req,
			   struct timespec *rem);

static long long mono_ms(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
		return -1;
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* A wait: the real poll() on no descriptors, one line in WRAP_POLL_SLEEPS. */
static int wait_logged(int timeout)
{
	const char *path = getenv("WRAP_POLL_SLEEPS");
	long long t0 = mono_ms();
	int r = __real_poll(NULL, 0, timeout);
	int saved = errno;
	FILE *f = path ? fopen(path, "a") : NULL;

	if (f) {
		fprintf(f, "%d %d %lld\n", timeout, r, mono_ms() - t0);
		if (fclose(f) != 0)
			perror("wrap_poll: WRAP_POLL_SLEEPS");
	}
	errno = saved;
	return r;
}

int __wrap_poll(struct pollfd *fds, nfds_t n, int timeout)
{
	static long calls; /* test double state */
	const char *spec = getenv("WRAP_POLL_ENOMEM");
	long from = 0, count = 0;
	char *end;

	if (n == 0)
		return wait_logged(timeout);
	calls++;
	if (spec) {
		from = strtol(spec, &end, 10);
		count = strtol(end, NULL, 10);
	}
	if (calls >= from && calls < from + count) {
		errno = ENOMEM;
		return -1;
	}
	return __real_poll(fds, n, timeout);
}

int __wrap_nanosleep(const struct timespec *req, struct timespec *rem)
{
	(void)req;
	(void)rem;
	errno = ENOSYS;
	return -1;
}

int __wrap_clock_nanosleep(clockid_t clk, int flags, const struct timespec *req,
			   struct timespec *rem)
{
	(void)clk;
	(void)flags;
	(void)req;
	(void)rem;
	return ENOSYS;
}
