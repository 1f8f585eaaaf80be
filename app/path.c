/* path.c - request target to a safe relative path (no "..", no NUL). */
#include <stddef.h>

#include "path.h"

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Percent-decode t[0..n) up to '?' or '#' into out; 0 or a status. */
static int decode(const char *t, size_t n, char *out, size_t cap, size_t *outlen)
{
	size_t o = 0;

	for (size_t i = 0; i < n && t[i] != '?' && t[i] != '#'; i++) {
		int c = (unsigned char)t[i];

		if (c == '%') {
			int hi = i + 2 < n ? hexval(t[i + 1]) : -1;
			int lo = i + 2 < n ? hexval(t[i + 2]) : -1;

			if (hi < 0 || lo < 0)
				return 400;
			c = hi * 16 + lo;
			i += 2;
		}
		if (c < 0x20 || c == 0x7f)
			return 400; /* NUL and control bytes never name a file here */
		if (o + 1 >= cap)
			return 414;
		out[o++] = (char)c;
	}
	out[o] = '\0';
	*outlen = o;
	return 0;
}

/* Rewrite buf in place without empty or "." segments; 403 on "..". */
static int normalise(char *buf, size_t len)
{
	size_t r = 0, w = 0;

	while (r < len) {
		size_t s = r, e = r;

		while (e < len && buf[e] != '/')
			e++;
		r = e + 1;
		if (e == s || (e - s == 1 && buf[s] == '.'))
			continue;
		if (e - s == 2 && buf[s] == '.' && buf[s + 1] == '.')
			return 403;
		if (w > 0)
			buf[w++] = '/';
		for (size_t i = s; i < e; i++)
			buf[w++] = buf[i];
	}
	buf[w] = '\0';
	return 0;
}

int path_from_target(const char *t, size_t n, char *out, size_t cap)
{
	size_t len = 0;
	int st;

	if (cap == 0 || n == 0 || t[0] != '/')
		return 400; /* only origin-form: no "http://...", no "*" */
	st = decode(t, n, out, cap, &len);
	if (st != 0)
		return st;
	return normalise(out, len);
}
