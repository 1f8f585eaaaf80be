/* server.c - accept, poll, dispatch, time out. No fork, no threads. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "board.h"
#include "clock.h"
#include "log.h"
#include "server.h"

_Static_assert(CONN_FREE == 0, "zeroed slots must be free");

#define WIND_DOWN_MS 2000
#define RAM_SAMPLE_MS 20   /* sysinfo at most this often */
#define RAM_WAIT_MS 100    /* recheck free RAM this often while it is low */
#define BACKOFF_MIN_MS 50  /* accept4 or poll failed: wait, then double */
#define BACKOFF_MAX_MS 2000

static int open_listener(const struct srv_config *cfg)
{
	struct sockaddr_in sa = { .sin_family = AF_INET,
				  .sin_port = htons((unsigned short)cfg->port) };
	int one = 1;
	int fd;

	if (inet_pton(AF_INET, cfg->addr, &sa.sin_addr) != 1) {
		log_msg("bad listen address '%s'", cfg->addr);
		return -1;
	}
	fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		log_msg("socket: %s", strerror(errno));
		return -1;
	}
	if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) != 0 ||
	    bind(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0 ||
	    listen(fd, SERVER_BACKLOG) != 0) {
		log_msg("listen on %s:%u: %s", cfg->addr, cfg->port, strerror(errno));
		if (close(fd) != 0)
			log_msg("close: %s", strerror(errno));
		return -1;
	}
	return fd;
}

/* Take a sysinfo sample when the last one is older than RAM_SAMPLE_MS and
 * track the lowest free RAM seen; after "ram on", log it as "ram T F": ms
 * since "ram on", KiB free. sysinfo only fails on a bad pointer: the old
 * sample then stays. */
static void sample_ram(struct server *s, long long now)
{
	struct board_ram r;

	if (s->ram_at_ms != 0 && now - s->ram_at_ms < RAM_SAMPLE_MS)
		return;
	if (board_ram(&r) != 0)
		return;
	s->ram = r;
	s->ram_at_ms = now;
	if (r.free_k < s->low_free_k)
		s->low_free_k = r.free_k;
	if (s->ram_log)
		log_msg("ram %lld %llu", now - s->ram_log_ms, r.free_k);
}

/* Console "ram on"/"ram off": one line per sample from now on (the first
 * one at once, at time 0), or no more; "ram off" logs a last sample. */
static void ram_log(struct server *s, bool on)
{
	long long now = clock_ms();

	if (on == s->ram_log)
		return;
	if (on) {
		s->ram_log = true;
		s->ram_log_ms = now;
	}
	s->ram_at_ms = 0; /* sample now */
	sample_ram(s, now);
	s->ram_log = on;
}

/* How many connections the board can carry at once, the smaller of:
 * - what the free RAM at start holds, each connection with its slot and
 *   what its socket can pin, keeping SERVER_RAM_RESERVE_K free;
 * - what the kernel's TCP memory limit holds without memory pressure: the
 *   kernel sets tcp_mem from the free pages at boot (tcp_init_mem() in
 *   net/ipv4/tcp.c: limit = max(free/16, 128 pages), pressure above 3/4 of
 *   it). Past that, it drops incoming segments, new requests too, and the
 *   clients' retransmission back-off makes them miss the request timeout.
 *   Total RAM after boot stands in for the free pages at boot. */
static size_t conns_for_ram(const struct srv_config *cfg, const struct board_ram *ram)
{
	unsigned long long sndbuf = cfg->sndbuf ? cfg->sndbuf : 65536;
	unsigned long long queue_k = SERVER_CONN_COST_K(sndbuf);
	unsigned long long cost = queue_k + sizeof(struct conn) / 1024 + 1;
	unsigned long long tcp_k = ram->total_k / 16 > 512 ? ram->total_k / 16 : 512;
	unsigned long long n, t;

	if (cfg->max_conns != 0)
		return cfg->max_conns;
	n = ram->free_k > SERVER_RAM_RESERVE_K + cost
		    ? (ram->free_k - SERVER_RAM_RESERVE_K) / cost : 1;
	t = tcp_k * 3 / 4 / queue_k;
	if (t < n)
		n = t;
	if (n < 1)
		n = 1;
	return n > SERVER_MAX_CONNS ? SERVER_MAX_CONNS : (size_t)n;
}

static void name_kernel(struct server *s)
{
	struct utsname u;

	if (uname(&u) != 0) {
		log_msg("uname: %s", strerror(errno));
		snprintf(s->kernel, sizeof(s->kernel), "unknown");
		return;
	}
	snprintf(s->kernel, sizeof(s->kernel), "%s %s (%s)", u.sysname,
		 u.release, u.machine);
}

static const char *sendfile_state(const struct srv_config *cfg, int probe)
{
	if (!cfg->sendfile)
		return "off by configuration (srv_sendfile=off)";
	return probe == ENOSYS ? "not available (ENOSYS)" : "available";
}

int server_open(struct server *s, const struct srv_config *cfg,
		int sendfile_errno)
{
	s->cfg = cfg;
	xfer_init(&s->xfer, cfg->rwbuf, cfg->fallback == SRV_FALLBACK_MMAP,
		  !cfg->sendfile);
	s->answered = 0;
	s->waited_ms = 0;
	s->live = 0;
	s->accept_paused_until = 0;
	s->accept_backoff_ms = BACKOFF_MIN_MS;
	s->ram_at_ms = 0;
	s->date_s = -1;
	s->low_free_k = (unsigned long long)-1;
	s->ram_log = false;
	sample_ram(s, clock_ms());
	s->max_conns = conns_for_ram(cfg, &s->ram);
	s->per_addr = s->max_conns / SERVER_SHARE_DIV > 1
			      ? s->max_conns / SERVER_SHARE_DIV : 1;
	name_kernel(s);
	s->sendfile = sendfile_state(cfg, sendfile_errno);
	log_msg("fallback %s (buffer %u bytes), at most %zu connection(s) (%llu KiB free, %u KiB kept for the kernel), %zu per client address when all are taken",
		cfg->fallback == SRV_FALLBACK_MMAP ? "mmap" : "read/write",
		cfg->rwbuf, s->max_conns, s->ram.free_k, SERVER_RAM_RESERVE_K,
		s->per_addr);
	/* The slots are left as they are: zeroed static storage is CONN_FREE,
	 * and writing to all 128 would make their pages resident (about
	 * 512 KiB) before any client came. */
	console_init(&s->console, STDIN_FILENO);
	s->rootfd = open(cfg->root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (s->rootfd < 0) {
		log_msg("open %s: %s", cfg->root, strerror(errno));
		return -1;
	}
	s->lfd = open_listener(cfg);
	return s->lfd < 0 ? -1 : 0;
}

/* The index page's view of the server, as of now. */
static void refresh_status(struct server *s)
{
	s->status = (struct listing_status){
		.kernel = s->kernel,
		.sendfile = s->xfer.sendfile_enosys ? "not available (ENOSYS)"
						    : s->sendfile,
		.fallback = s->xfer.mmap_fallback ? "mmap" : "read/write",
		.last_via = xfer_via_name(s->xfer.last_via),
		.ram_total_k = s->ram.total_k, .ram_free_k = s->ram.free_k,
		.requests = s->answered };
}

/* Date (RFC 9110 6.6.1): an origin server with a clock MUST send it, one
 * without a clock that gives a reasonable approximation of UTC MUST NOT.
 * The board has no RTC driver in its tiny kernel and boots at 1970, so it
 * sends Date only once the wall clock has been set. */
static const char *date_now(struct server *s, long long wall)
{
	if (wall < 0)
		return NULL;
	if (wall != s->date_s) {
		http_date(s->date, wall);
		s->date_s = wall;
	}
	return s->date;
}

static struct conn_env env_now(struct server *s)
{
	long long now = clock_ms(), wall = clock_wall_s();

	sample_ram(s, now);
	refresh_status(s);
	return (struct conn_env){ .rootfd = s->rootfd, .xfer = &s->xfer,
				  .status = &s->status, .now_ms = now,
				  .waited_ms = s->waited_ms,
				  .date = date_now(s, wall), .wall_s = wall,
				  .timeout_ms = (long long)s->cfg->timeout_s * 1000,
				  .send_timeout_ms = (long long)s->cfg->send_timeout_s * 1000,
				  .min_rate = s->cfg->min_rate };
}

/* The send buffer of a client socket: srv_sndbuf, but never less than
 * SERVER_SNDBUF_SEGS segments of the route's MSS. One segment in flight
 * makes every round trip wait for the client's delayed ACK (40 ms): on
 * loopback (MTU 65536) 16 KiB is less than one segment and a 2 MiB file
 * took 1 s instead of milliseconds. On the board's Ethernet (MSS 1448)
 * the bound stays as it is, and so does the RAM it keeps. */
static int sndbuf_for(int fd, unsigned sndbuf)
{
	int mss = 0;
	socklen_t len = sizeof(mss);

	if (sndbuf == 0)
		return 0;
	if (getsockopt(fd, IPPROTO_TCP, TCP_MAXSEG, &mss, &len) != 0)
		mss = 0; /* then the configured bound alone */
	if (mss > 0 && (unsigned)mss * SERVER_SNDBUF_SEGS > sndbuf)
		return mss * SERVER_SNDBUF_SEGS;
	return (int)sndbuf;
}

/* Options of an accepted socket; a failure only costs performance. */
static void tune_socket(int fd, unsigned sndbuf)
{
	int one = 1, size = sndbuf_for(fd, sndbuf);

	if (setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)) != 0)
		log_msg("TCP_NODELAY: %s", strerror(errno));
	if (size > 0 && setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, sizeof(size)) != 0)
		log_msg("SO_SNDBUF: %s", strerror(errno));
}

static struct conn *free_slot(struct server *s)
{
	for (size_t i = 0; i < SERVER_MAX_CONNS; i++)
		if (s->conns[i].state == CONN_FREE)
			return &s->conns[i];
	return NULL;
}

/* May the server take another connection now? Below the bound, and, while
 * it serves anyone, with SERVER_RAM_RESERVE_K free: the clients past that
 * wait in the listen backlog. With no connection it always takes one. */
static bool can_accept(const struct server *s, long long now)
{
	if (s->live >= s->max_conns || now < s->accept_paused_until)
		return false;
	return s->live == 0 || s->ram.free_k >= SERVER_RAM_RESERVE_K;
}

/* accept4 failed with something other than "nothing pending" (EMFILE,
 * ENFILE, ENOMEM, ENOBUFS...): the listener stays readable, so polling it
 * again at once would spin. Rest it, longer each time, until a connection
 * closes or an accept succeeds. */
static void accept_failed(struct server *s, int err)
{
	log_msg("accept: %s (listener rests %d ms)", strerror(err), s->accept_backoff_ms);
	s->accept_paused_until = clock_ms() + s->accept_backoff_ms;
	if (s->accept_backoff_ms < BACKOFF_MAX_MS)
		s->accept_backoff_ms *= 2;
}

/* "a.b.c.d:port" (inet_ntop costs 1 KiB of the binary for the same). */
static void peer_name(const struct sockaddr_in *sa, char *out, size_t cap)
{
	const unsigned char *a = (const unsigned char *)&sa->sin_addr;

	snprintf(out, cap, "%u.%u.%u.%u:%u", a[0], a[1], a[2], a[3],
		 (unsigned)ntohs(sa->sin_port));
}

/* Accept what is pending while there is room. */
static void accept_all(struct server *s, short *want)
{
	struct conn_env env = env_now(s);

	while (can_accept(s, env.now_ms)) {
		struct sockaddr_in peer = { 0 };
		socklen_t len = sizeof(peer);
		char name[24];
		int fd = accept4(s->lfd, (struct sockaddr *)&peer, &len,
				 SOCK_NONBLOCK | SOCK_CLOEXEC);

		if (fd < 0) {
			if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR &&
			    errno != ECONNABORTED)
				accept_failed(s, errno);
			return;
		}
		s->accept_backoff_ms = BACKOFF_MIN_MS;
		peer_name(&peer, name, sizeof(name));
		struct conn *c = free_slot(s);

		tune_socket(fd, s->cfg->sndbuf);
		conn_open(c, fd, peer.sin_addr.s_addr, name, &env);
		want[c - s->conns] = POLLIN;
		s->live++;
		sample_ram(s, clock_ms());
	}
}

static void drop(struct server *s, struct conn *c, const char *why)
{
	conn_close(c, why, &s->answered);
	s->live--;
	s->accept_paused_until = 0; /* a descriptor and a slot are free again */
}

/* Fill fds: console, listener (when serving), the log's stderr while lines
 * wait, connections (conn index in owner, -1/-2/-3 for console, listener,
 * log). Returns the count. */
static nfds_t build_pollset(struct server *s, struct pollfd *fds, int *owner,
			    const short *want, bool serving)
{
	nfds_t n = 0;

	if (serving && s->console.open) {
		fds[n] = (struct pollfd){ .fd = s->console.fd, .events = POLLIN };
		owner[n++] = -1;
	}
	if (serving && can_accept(s, clock_ms())) {
		fds[n] = (struct pollfd){ .fd = s->lfd, .events = POLLIN };
		owner[n++] = -2;
	}
	if (log_pending()) {
		fds[n] = (struct pollfd){ .fd = STDERR_FILENO, .events = POLLOUT };
		owner[n++] = -3;
	}
	for (size_t i = 0; i < SERVER_MAX_CONNS; i++) {
		if (s->conns[i].state == CONN_FREE)
			continue;
		fds[n] = (struct pollfd){ .fd = s->conns[i].fd, .events = want[i] };
		owner[n++] = (int)i;
	}
	return n;
}

/* ms until the nearest connection deadline, -1 if none; RAM_WAIT_MS while
 * the listener waits for free RAM. */
static int poll_timeout(const struct server *s, long long now)
{
	long long best = -1;

	if (s->live < s->max_conns && !can_accept(s, now))
		best = now < s->accept_paused_until ? s->accept_paused_until - now
						    : RAM_WAIT_MS;
	if (log_pending() && (best < 0 || best > LOG_REPEAT_MS))
		best = LOG_REPEAT_MS;
	if (s->live >= s->max_conns && (best < 0 || best > SERVER_EVICT_MS / 5))
		best = SERVER_EVICT_MS / 5; /* look for a connection to evict */
	for (size_t i = 0; i < SERVER_MAX_CONNS; i++) {
		long long d;

		if (s->conns[i].state == CONN_FREE)
			continue;
		d = s->conns[i].deadline_ms - now;
		if (d < 0)
			d = 0;
		if (best < 0 || d < best)
			best = d;
	}
	return best > 600000 ? 600000 : (int)best;
}

static void expire(struct server *s, short *want)
{
	long long now = clock_ms();

	for (size_t i = 0; i < SERVER_MAX_CONNS; i++) {
		struct conn *c = &s->conns[i];

		if (c->state != CONN_FREE && now >= c->deadline_ms) {
			drop(s, c, c->state == CONN_DRAIN ? NULL : "timeout");
			want[i] = 0;
		}
	}
}

/* Connections of the client at addr. */
static size_t addr_count(const struct server *s, unsigned addr)
{
	size_t n = 0;

	for (size_t i = 0; i < SERVER_MAX_CONNS; i++)
		n += s->conns[i].state != CONN_FREE && s->conns[i].addr == addr;
	return n;
}

/* Every slot taken: close the connection that has made no progress for
 * the longest (at least SERVER_EVICT_MS: a reader that stopped reading, a
 * head dribbled in, an idle keep-alive) among those of addresses holding
 * more than their share, so the clients waiting in the backlog get in. */
static void evict_one(struct server *s, short *want)
{
	long long now = s->waited_ms;
	struct conn *victim = NULL;

	if (s->live < s->max_conns)
		return;
	for (size_t i = 0; i < SERVER_MAX_CONNS; i++) {
		struct conn *c = &s->conns[i];

		if (c->state == CONN_FREE || c->state == CONN_DRAIN ||
		    now - c->progress_ms < SERVER_EVICT_MS ||
		    (victim && c->progress_ms >= victim->progress_ms) ||
		    addr_count(s, c->addr) <= s->per_addr)
			continue;
		victim = c;
	}
	if (!victim)
		return;
	want[victim - s->conns] = 0;
	drop(s, victim, "evicted: every slot taken, its address holds more than its share");
}

static void run_conn(struct server *s, size_t i, short *want)
{
	struct conn_env env = env_now(s);

	want[i] = conn_step(&s->conns[i], &env, &s->answered);
	if (want[i] == 0)
		drop(s, &s->conns[i], NULL);
}

/* The request limit reached: log it, set *end. */
static bool at_limit(const struct server *s, enum server_end *end)
{
	if (s->cfg->max_requests == 0 || s->answered < s->cfg->max_requests)
		return false;
	log_msg("served %lu requests: limit reached", s->answered);
	*end = SERVER_MAX_REQUESTS;
	return true;
}

/* "stats" on the console: requests answered, connections, peak RSS, CPU,
 * RAM now and the lowest free RAM since the last stats line. */
static void log_stats(struct server *s)
{
	struct rusage ru;
	struct board_ram ram;

	if (getrusage(RUSAGE_SELF, &ru) != 0) {
		log_msg("stats: getrusage: %s", strerror(errno));
		return;
	}
	if (board_ram(&ram) != 0) {
		log_msg("stats: sysinfo: %s", strerror(errno));
		return;
	}
	if (ram.free_k < s->low_free_k)
		s->low_free_k = ram.free_k;
	log_msg("stats: %lu requests, %zu connections, peak RSS %ld KiB, CPU %lld ms, RAM %llu KiB total, %llu KiB free, lowest %llu KiB free",
		s->answered, s->live, (long)ru.ru_maxrss,
		((long long)ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000 +
			(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1000,
		ram.total_k, ram.free_k, s->low_free_k);
	s->low_free_k = ram.free_k;
}

/* Dispatch one poll() result; returns true to stop the loop. */
static bool dispatch(struct server *s, const struct pollfd *fds, nfds_t n,
		     const int *owner, short *want, enum server_end *end)
{
	for (nfds_t k = 0; k < n; k++) {
		if (fds[k].revents == 0)
			continue;
		if (owner[k] == -1) {
			unsigned int cmd = console_read(&s->console);

			if (cmd & (CONSOLE_RAM_ON | CONSOLE_RAM_OFF))
				ram_log(s, cmd & CONSOLE_RAM_ON);
			if (cmd & CONSOLE_STATS)
				log_stats(s);
			if (cmd & CONSOLE_POWEROFF) {
				log_msg("console: poweroff");
				*end = SERVER_POWEROFF;
				return true;
			}
		} else if (owner[k] == -2) {
			accept_all(s, want);
		} else if (owner[k] == -3) {
			log_flush(clock_ms());
		} else if (s->conns[owner[k]].state != CONN_FREE) {
			run_conn(s, (size_t)owner[k], want);
		}
		if (at_limit(s, end))
			return true;
	}
	return false;
}

/* Half-close every connection and wait (bounded) for the clients to close,
 * so the last responses leave the board before it powers off. */
static void wind_down(struct server *s)
{
	long long end = clock_ms() + WIND_DOWN_MS;
	short want[SERVER_MAX_CONNS];

	for (size_t i = 0; i < SERVER_MAX_CONNS; i++) {
		struct conn *c = &s->conns[i];

		want[i] = POLLIN;
		if (c->state == CONN_FREE || c->state == CONN_DRAIN)
			continue;
		if (c->status != 0 || shutdown(c->fd, SHUT_WR) != 0) {
			drop(s, c, "shutting down");
			continue;
		}
		c->state = CONN_DRAIN;
		c->deadline_ms = end;
	}
	while (s->live > 0) {
		struct pollfd fds[SERVER_MAX_CONNS + 3];
		int owner[SERVER_MAX_CONNS + 3];
		nfds_t n;

		n = build_pollset(s, fds, owner, want, false);
		if (poll(fds, n, poll_timeout(s, clock_ms())) < 0 && errno != EINTR)
			break;
		expire(s, want);
		for (nfds_t k = 0; k < n; k++) {
			if (fds[k].revents && owner[k] == -3)
				log_flush(clock_ms());
			else if (fds[k].revents && owner[k] >= 0 &&
				 s->conns[owner[k]].state != CONN_FREE)
				run_conn(s, (size_t)owner[k], want);
		}
	}
	for (size_t i = 0; i < SERVER_MAX_CONNS; i++)
		if (s->conns[i].state != CONN_FREE)
			drop(s, &s->conns[i], NULL);
}

/* poll() failed: ENOMEM (and EAGAIN) pass, so wait and go on, longer each
 * time; anything else is a bug here (EBADF, EFAULT, EINVAL): fatal.
 * The wait is poll() on no descriptors, not nanosleep(): ARM's poll takes
 * its timeout as an int of ms, while musl's nanosleep() makes the time32
 * SYS_nanosleep for any wait under 2^31 s (__clock_nanosleep), which
 * answers ENOSYS without CONFIG_COMPAT_32BIT_TIME (the tiny board): the
 * back-off would not wait at all. */
static bool poll_transient(int err, int *backoff_ms)
{
	log_msg("poll: %s%s", strerror(err),
		err == ENOMEM || err == EAGAIN ? ", retrying" : "");
	if (err != ENOMEM && err != EAGAIN)
		return false;
	if (poll(NULL, 0, *backoff_ms) != 0 && errno != EINTR)
		log_msg("poll (back-off %d ms): %s", *backoff_ms, strerror(errno));
	if (*backoff_ms < BACKOFF_MAX_MS)
		*backoff_ms *= 2;
	return true;
}

static bool bodies_in_flight(const struct server *s)
{
	for (size_t i = 0; i < SERVER_MAX_CONNS; i++)
		if (s->conns[i].state == CONN_BODY)
			return true;
	return false;
}

enum server_end server_run(struct server *s)
{
	short want[SERVER_MAX_CONNS] = { 0 };
	enum server_end end = SERVER_FATAL;

	int backoff = BACKOFF_MIN_MS;

	for (;;) {
		struct pollfd fds[SERVER_MAX_CONNS + 3];
		int owner[SERVER_MAX_CONNS + 3];
		nfds_t n = build_pollset(s, fds, owner, want, true);
		long long t0 = clock_ms();
		int r = poll(fds, n, poll_timeout(s, t0));

		s->waited_ms += clock_ms() - t0;

		if (r < 0 && errno != EINTR && !poll_transient(errno, &backoff))
			break;
		if (r >= 0)
			backoff = BACKOFF_MIN_MS;
		if (r > 0 && dispatch(s, fds, n, owner, want, &end))
			break;
		expire(s, want);
		evict_one(s, want);
		if (at_limit(s, &end))
			break;
		if (!bodies_in_flight(s))
			xfer_release(&s->xfer);
		sample_ram(s, clock_ms());
		log_flush(clock_ms());
	}
	wind_down(s);
	return end;
}
