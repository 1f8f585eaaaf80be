/* app_fuzz_http.c - libFuzzer harness for the request parser, the path
 * cleaner and the range resolver (make fuzz). Checks invariants, not just
 * crashes: a parsed path never escapes the served folder. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "http.h"
#include "range.h"

static void check_path(const char *p)
{
	size_t n = strnlen(p, HTTP_PATH_MAX);

	if (n >= HTTP_PATH_MAX || p[0] == '/')
		abort();
	for (const char *s = p; *s; s++)
		if ((unsigned char)*s < 0x20)
			abort();
	/* no ".." segment anywhere */
	for (const char *s = p; (s = strstr(s, "..")) != NULL; s++)
		if ((s == p || s[-1] == '/') && (s[2] == '\0' || s[2] == '/'))
			abort();
}

static void check_range(const char *spec)
{
	static const off_t sizes[] = { 0, 1, 100, 2 * 1024 * 1024 };

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		struct byte_range r;
		int st = range_resolve(spec, sizes[i], &r);

		if (st == 206 && (r.start < 0 || r.len <= 0 || r.start + r.len > sizes[i]))
			abort();
		if (st != 0 && st != 206 && st != 416)
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct http_request req;
	size_t used = 0;
	int st;

	if (size > HTTP_HEAD_MAX + 512)
		return 0;
	st = http_parse((const char *)data, size, &req, &used);
	if (st == 1) {
		if (used == 0 || used > size)
			abort();
		check_path(req.path);
		if (req.has_range && !req.range_too_long)
			check_range(req.range);
	} else if (st != 0 && (st < 400 || st > 505)) {
		abort();
	}
	return 0;
}
