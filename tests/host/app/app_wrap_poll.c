/* app_wrap_poll.c - test double: the server linked with -Wl,--wrap=poll.
 * WRAP_POLL_ENOMEM="FROM COUNT": poll() calls FROM .. FROM+COUNT-1
 * (counted from 1) fail with ENOMEM, as under memory pressure on the board;
 * every other call is the real poll(). */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>

int __real_poll(struct pollfd *fds, nfds_t n, int timeout);
int __wrap_poll(struct pollfd *fds, nfds_t n, int timeout);

int __wrap_poll(struct pollfd *fds, nfds_t n, int timeout)
{
	static long calls; /* test double state */
	const char *spec = getenv("WRAP_POLL_ENOMEM");
	long from = 0, count = 0;
	char *end;

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
