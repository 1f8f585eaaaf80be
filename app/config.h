/* config.h - settings from the environment (kernel command line words
 * name=value become init's environment) and from flags (host runs). */
#ifndef APP_CONFIG_H
#define APP_CONFIG_H

#include <stdbool.h>

/* SO_SNDBUF for client sockets: with 64 clients on a 32 MiB board the
 * kernel's default send queues fill the global TCP memory limit, and then
 * incoming requests are dropped (see README). */
#define SRV_SNDBUF_DEFAULT 16384

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
	                              * read/write path: benchmarks, demos) */
};

/* Fill c from the environment, then argv flags. Returns 0, or -1 after
 * logging what was wrong. Words that are not flags are ignored (the kernel
 * passes unknown command-line words to init as arguments). */
int config_load(struct srv_config *c, int argc, char **argv);

#endif
