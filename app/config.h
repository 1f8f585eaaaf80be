/* config.h - settings from the environment (kernel command line words
 * name=value become init's environment) and from flags (host runs). */
#ifndef APP_CONFIG_H
#define APP_CONFIG_H

#include <stdbool.h>

/* SO_SNDBUF for client sockets: with 64 clients on a 32 MiB board the
 * kernel's default send queues fill the global TCP memory limit, and then
 * incoming requests are dropped (see README). */
#define SRV_SNDBUF_DEFAULT 16384

/* The read/write fallback's buffer (srv_rwbuf): see app/README.md for the
 * measurement behind the default. */
#define SRV_RWBUF_DEFAULT 8192

/* Connection slots: the most srv_max_conns may ask for. */
#define SRV_MAX_CONNS_LIMIT 128

/* A response must average at least this many bytes/s on top of
 * srv_send_timeout, or it is cut (srv_min_rate): a slow reader cannot hold
 * a slot and its socket buffer for ever. */
#define SRV_MIN_RATE_DEFAULT 4096

/* What moves a body when sendfile cannot (srv_fallback). */
enum srv_fallback {
	SRV_FALLBACK_READ, /* pread into a buffer, then send() */
	SRV_FALLBACK_MMAP  /* send() straight from a read-only file mapping */
};

struct srv_config {
	const char *addr;            /* srv_addr, -a: listen address (0.0.0.0) */
	unsigned port;               /* srv_port, -p: 80 */
	const char *root;            /* srv_root, -r: /srv */
	unsigned long max_requests;  /* srv_max_requests, -n: 0 = unlimited */
	unsigned timeout_s;          /* srv_timeout, -t: idle/request timeout, 10 */
	unsigned send_timeout_s;     /* srv_send_timeout, -T: a response that
	                              * makes no progress for this long, 60 */
	unsigned sndbuf;             /* srv_sndbuf, -b: SO_SNDBUF per client, bytes,
	                              * 0 = kernel default (see README) */
	bool sendfile;               /* srv_sendfile, -s: on|off (off forces the
	                              * fallback: benchmarks, demos) */
	enum srv_fallback fallback;  /* srv_fallback, -f: read|mmap */
	unsigned rwbuf;              /* srv_rwbuf, -w: read/write buffer, bytes */
	unsigned max_conns;          /* srv_max_conns, -c: connections at once;
	                              * 0 = derived from the board's RAM */
	unsigned min_rate;           /* srv_min_rate, -R: bytes/s a response must
	                              * average (overall deadline), 0 = none */
};

/* Fill c from the environment, then argv flags. Returns 0, or -1 after
 * logging what was wrong. Words that are not flags are ignored (the kernel
 * passes unknown command-line words to init as arguments). */
int config_load(struct srv_config *c, int argc, char **argv);

#endif
