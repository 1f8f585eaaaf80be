/* config.c - environment first, then -a/-p/-r/-n/-t flags. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "log.h"

static int parse_ulong(const char *name, const char *s, unsigned long max,
		       unsigned long *out)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno != 0 || end == s || *end != '\0' || s[0] == '-' || v > max) {
		log_msg("config: bad %s '%s'", name, s);
		return -1;
	}
	*out = v;
	return 0;
}

/* Apply one setting by its environment name. */
static int apply(struct srv_config *c, const char *name, const char *val)
{
	unsigned long v;

	if (strcmp(name, "srv_addr") == 0) {
		c->addr = val;
	} else if (strcmp(name, "srv_root") == 0) {
		c->root = val;
	} else if (strcmp(name, "srv_port") == 0) {
		if (parse_ulong(name, val, 65535, &v) != 0 || v == 0)
			return -1;
		c->port = (unsigned)v;
	} else if (strcmp(name, "srv_max_requests") == 0) {
		if (parse_ulong(name, val, (unsigned long)-1, &v) != 0)
			return -1;
		c->max_requests = v;
	} else if (strcmp(name, "srv_sendfile") == 0) {
		if (strcmp(val, "on") != 0 && strcmp(val, "off") != 0) {
			log_msg("config: bad %s '%s' (on|off)", name, val);
			return -1;
		}
		c->sendfile = strcmp(val, "on") == 0;
	} else if (strcmp(name, "srv_fallback") == 0) {
		if (strcmp(val, "read") != 0 && strcmp(val, "mmap") != 0) {
			log_msg("config: bad %s '%s' (read|mmap)", name, val);
			return -1;
		}
		c->fallback = strcmp(val, "mmap") == 0 ? SRV_FALLBACK_MMAP
						       : SRV_FALLBACK_READ;
	} else if (strcmp(name, "srv_rwbuf") == 0) {
		if (parse_ulong(name, val, 1024 * 1024, &v) != 0 || v < 512)
			return -1;
		c->rwbuf = (unsigned)v;
	} else if (strcmp(name, "srv_max_conns") == 0) {
		if (parse_ulong(name, val, SRV_MAX_CONNS_LIMIT, &v) != 0)
			return -1;
		c->max_conns = (unsigned)v;
	} else if (strcmp(name, "srv_min_rate") == 0) {
		if (parse_ulong(name, val, 1024 * 1024 * 1024, &v) != 0)
			return -1;
		c->min_rate = (unsigned)v;
	} else if (strcmp(name, "srv_timeout") == 0) {
		if (parse_ulong(name, val, 86400, &v) != 0 || v == 0)
			return -1;
		c->timeout_s = (unsigned)v;
	} else if (strcmp(name, "srv_sndbuf") == 0) {
		if (parse_ulong(name, val, 16 * 1024 * 1024, &v) != 0)
			return -1;
		c->sndbuf = (unsigned)v;
	} else if (strcmp(name, "srv_send_timeout") == 0) {
		if (parse_ulong(name, val, 86400, &v) != 0 || v == 0)
			return -1;
		c->send_timeout_s = (unsigned)v;
	}
	return 0;
}

static const char *flag_name(char f)
{
	switch (f) {
	case 'a': return "srv_addr";
	case 'p': return "srv_port";
	case 'r': return "srv_root";
	case 'n': return "srv_max_requests";
	case 't': return "srv_timeout";
	case 's': return "srv_sendfile";
	case 'T': return "srv_send_timeout";
	case 'b': return "srv_sndbuf";
	case 'f': return "srv_fallback";
	case 'w': return "srv_rwbuf";
	case 'c': return "srv_max_conns";
	case 'R': return "srv_min_rate";
	default: return NULL;
	}
}

static int load_env(struct srv_config *c)
{
	static const char *const names[] = { "srv_addr", "srv_port", "srv_root",
					     "srv_max_requests", "srv_timeout",
					     "srv_sendfile", "srv_send_timeout",
					     "srv_sndbuf", "srv_fallback", "srv_rwbuf",
					     "srv_max_conns", "srv_min_rate" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const char *v = getenv(names[i]);

		if (v && apply(c, names[i], v) != 0)
			return -1;
	}
	return 0;
}

/* "-p 8080" style flags; anything not starting with '-' is skipped. */
static int load_flags(struct srv_config *c, int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *name = argv[i][0] == '-' && argv[i][1] && !argv[i][2]
					   ? flag_name(argv[i][1]) : NULL;

		if (argv[i][0] != '-')
			continue;
		if (!name || i + 1 >= argc) {
			log_msg("config: usage: [-a addr] [-p port] [-r root] "
				"[-n max_requests] [-t timeout_s] [-T send_timeout_s] [-s on|off] [-b sndbuf] "
				"[-f read|mmap] [-w rwbuf] [-c max_conns] [-R min_rate]");
			return -1;
		}
		if (apply(c, name, argv[++i]) != 0)
			return -1;
	}
	return 0;
}

int config_load(struct srv_config *c, int argc, char **argv)
{
	*c = (struct srv_config){ .addr = "0.0.0.0", .port = 80, .root = "/srv",
				  .max_requests = 0, .timeout_s = 10,
				  .send_timeout_s = 60, .sndbuf = SRV_SNDBUF_DEFAULT,
				  .sendfile = true, .fallback = SRV_FALLBACK_READ,
				  .rwbuf = SRV_RWBUF_DEFAULT, .max_conns = 0,
				  .min_rate = SRV_MIN_RATE_DEFAULT };
	if (load_env(c) != 0)
		return -1;
	return load_flags(c, argc, argv);
}
