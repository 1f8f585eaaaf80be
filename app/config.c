/* config.c - environment first, then flags; one table says for every
 * setting its name, flag, kind, bounds and field (as suckless quark does). */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "log.h"

enum kind { K_STR, K_UINT, K_ULONG, K_ONOFF, K_FALLBACK };

struct setting {
	const char *name;
	char flag;
	unsigned char kind;
	unsigned long min, max;
	size_t off;               /* offsetof the field in struct srv_config */
};

#define F(field) offsetof(struct srv_config, field)

static const struct setting settings[] = {
	{ "srv_addr", 'a', K_STR, 0, 0, F(addr) },
	{ "srv_port", 'p', K_UINT, 1, 65535, F(port) },
	{ "srv_root", 'r', K_STR, 0, 0, F(root) },
	{ "srv_max_requests", 'n', K_ULONG, 0, (unsigned long)-1, F(max_requests) },
	{ "srv_timeout", 't', K_UINT, 1, 86400, F(timeout_s) },
	{ "srv_sendfile", 's', K_ONOFF, 0, 1, F(sendfile) },
	{ "srv_send_timeout", 'T', K_UINT, 1, 86400, F(send_timeout_s) },
	{ "srv_sndbuf", 'b', K_UINT, 0, 16 * 1024 * 1024, F(sndbuf) },
	{ "srv_fallback", 'f', K_FALLBACK, 0, 1, F(fallback) },
	{ "srv_rwbuf", 'w', K_UINT, 512, 1024 * 1024, F(rwbuf) },
	{ "srv_max_conns", 'c', K_UINT, 0, SRV_MAX_CONNS_LIMIT, F(max_conns) },
	{ "srv_min_rate", 'R', K_UINT, 0, 1024 * 1024 * 1024, F(min_rate) },
};

#define NSETTINGS (sizeof(settings) / sizeof(settings[0]))

/* Decimal digits only (no sign, no space), within [min, max]. */
static int parse_number(const char *s, unsigned long min, unsigned long max,
			unsigned long *out)
{
	unsigned long v = 0;
	const char *p = s;

	for (; *p >= '0' && *p <= '9'; p++) {
		unsigned d = (unsigned)(*p - '0');

		if (v > (max - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	if (p == s || *p != '\0' || v < min)
		return -1;
	*out = v;
	return 0;
}

/* "on"/"off", "read"/"mmap": 0 or 1, -1 for anything else. */
static int word(const char *val, const char *w0, const char *w1)
{
	return strcmp(val, w0) == 0 ? 0 : strcmp(val, w1) == 0 ? 1 : -1;
}

static int apply(struct srv_config *c, const struct setting *s, const char *val)
{
	char *field = (char *)c + s->off;
	unsigned long v = 0;
	int w = -1;

	switch (s->kind) {
	case K_STR:
		*(const char **)(void *)field = val;
		return 0;
	case K_ONOFF:
		w = word(val, "off", "on");
		*(bool *)(void *)field = w == 1;
		break;
	case K_FALLBACK:
		w = word(val, "read", "mmap");
		*(enum srv_fallback *)(void *)field = w == 1 ? SRV_FALLBACK_MMAP
							     : SRV_FALLBACK_READ;
		break;
	default:
		w = parse_number(val, s->min, s->max, &v);
		if (w == 0 && s->kind == K_ULONG)
			*(unsigned long *)(void *)field = v;
		else if (w == 0)
			*(unsigned *)(void *)field = (unsigned)v;
	}
	if (w < 0) {
		log_msg("config: bad %s '%s'", s->name, val);
		return -1;
	}
	return 0;
}

static const struct setting *by_flag(const char *arg)
{
	if (arg[0] != '-' || !arg[1] || arg[2])
		return NULL;
	for (size_t i = 0; i < NSETTINGS; i++)
		if (settings[i].flag == arg[1])
			return &settings[i];
	return NULL;
}

static int load_env(struct srv_config *c)
{
	for (size_t i = 0; i < NSETTINGS; i++) {
		const char *v = getenv(settings[i].name);

		if (v && apply(c, &settings[i], v) != 0)
			return -1;
	}
	return 0;
}

/* "-p 8080" style flags; anything not starting with '-' is skipped. */
static int load_flags(struct srv_config *c, int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const struct setting *s = by_flag(argv[i]);

		if (argv[i][0] != '-')
			continue;
		if (!s || i + 1 >= argc) {
			log_msg("config: usage: [-a addr] [-p port] [-r root] "
				"[-n max_requests] [-t timeout_s] [-T send_timeout_s] [-s on|off] [-b sndbuf] "
				"[-f read|mmap] [-w rwbuf] [-c max_conns] [-R min_rate]");
			return -1;
		}
		if (apply(c, s, argv[++i]) != 0)
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
