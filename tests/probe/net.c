/* net.c - loopback, a connected TCP pair, and forked peers that feed or
 * drain one end so the probe itself can block in the syscall under test. */
#include "probe.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

static int lo_flags_up(int s)
{
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	strcpy(ifr.ifr_name, "lo");
	if (ioctl(s, SIOCGIFFLAGS, &ifr) < 0)
		return -1;
	ifr.ifr_flags |= IFF_UP | IFF_RUNNING;
	return ioctl(s, SIOCSIFFLAGS, &ifr);
}

static int lo_addr(int s)
{
	struct ifreq ifr;
	struct sockaddr_in *sin = (struct sockaddr_in *)&ifr.ifr_addr;

	memset(&ifr, 0, sizeof(ifr));
	strcpy(ifr.ifr_name, "lo");
	sin->sin_family = AF_INET;
	sin->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	return ioctl(s, SIOCSIFADDR, &ifr);
}

/* Bring up lo with 127.0.0.1 (only ever called when running as init). */
int net_setup_lo(void)
{
	int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	int rc;

	if (s < 0)
		return -1;
	rc = lo_addr(s);
	if (rc == 0)
		rc = lo_flags_up(s);
	if (close(s) < 0)
		rc = -1;
	return rc;
}

static int listen_lo(struct sockaddr_in *sa)
{
	socklen_t len = sizeof(*sa);
	int l = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (l < 0)
		return -1;
	memset(sa, 0, sizeof(*sa));
	sa->sin_family = AF_INET;
	sa->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(l, (struct sockaddr *)sa, sizeof(*sa)) < 0 ||
	    listen(l, 1) < 0 ||
	    getsockname(l, (struct sockaddr *)sa, &len) < 0) {
		int e = errno;

		close(l);
		errno = e;
		return -1;
	}
	return l;
}

/* Two connected TCP sockets over 127.0.0.1: *a connects, *b is accepted. */
int tcp_pair(int *a, int *b)
{
	struct sockaddr_in sa;
	int l = listen_lo(&sa);
	int e;

	if (l < 0)
		return -1;
	*a = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (*a < 0)
		goto fail_l;
	if (connect(*a, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		goto fail_a;
	*b = accept4(l, NULL, NULL, SOCK_CLOEXEC);
	if (*b < 0)
		goto fail_a;
	if (close(l) < 0)
		return -1;
	return 0;
fail_a:
	e = errno;
	close(*a);
	errno = e;
fail_l:
	e = errno;
	close(l);
	errno = e;
	return -1;
}

/* Child of sink_start: read sock to EOF, send the verdict up the pipe. */
static void sink_child(int sock, const unsigned char *want, size_t len,
		       unsigned char *buf, int res_fd)
{
	struct result r;
	size_t n = 0;

	memset(&r, 0, sizeof(r));
	if (read_to_eof(sock, buf, len + 1, &n) < 0)
		result_fail(&r, errno);
	result_check(&r, want, len, buf, n);
	_exit(write_all(res_fd, &r, sizeof(r)) == 0 ? 0 : 1);
}

/* Fork a reader for sock; the caller keeps writing to the other end. */
int sink_start(int sock, int other, const unsigned char *want, size_t len,
	       unsigned char *buf, struct peer *p)
{
	int res[2];

	if (pipe2(res, O_CLOEXEC) < 0)
		return -1;
	fflush(stdout);
	p->pid = fork();
	if (p->pid < 0) {
		close(res[0]);
		close(res[1]);
		return -1;
	}
	if (p->pid == 0) {
		if (close(res[0]) < 0 || close(other) < 0)
			_exit(1);
		sink_child(sock, want, len, buf, res[1]);
	}
	p->res_fd = res[0];
	return close(res[1]);
}

static int reap(pid_t pid)
{
	int st;

	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

/* Collect the sink's verdict into r->bytes/match/hash. */
int sink_finish(struct peer *p, struct result *r)
{
	struct result got;
	int rc = read_exact(p->res_fd, (unsigned char *)&got, sizeof(got));

	if (close(p->res_fd) < 0)
		rc = -1;
	if (reap(p->pid) < 0)
		rc = -1;
	if (rc == 0) {
		r->bytes = got.bytes;
		r->match = got.match;
		r->hash = got.hash;
		if (got.err && r->err == 0)
			result_fail(r, got.err);
	}
	return rc;
}

/* Fork a writer of data[0..len) to sock, which it then closes. */
int source_start(int sock, int other, const unsigned char *data, size_t len,
		 struct peer *p)
{
	fflush(stdout);
	p->res_fd = -1;
	p->pid = fork();
	if (p->pid < 0)
		return -1;
	if (p->pid == 0) {
		int rc = close(other) < 0 ? -1 : write_all(sock, data, len);

		if (shutdown(sock, SHUT_WR) < 0)
			rc = -1;
		_exit(rc == 0 ? 0 : 1);
	}
	return 0;
}

int source_finish(struct peer *p)
{
	return reap(p->pid);
}
