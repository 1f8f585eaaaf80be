/* path.c - request target to a safe relative path (no "..", no NUL). */
#include <stddef.h>
#include <strings.h>

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

/* Rewrite buf in place without empty or "." segments; 403 on "..", 404
 * on any other name starting with '.' (dotfiles are neither listed nor
 * served: one policy). A path that ends in an empty or "." segment keeps
 * one trailing '/', so a file named that way is not found (ENOTDIR). */
static int normalise(char *buf, size_t len)
{
	size_t r = 0, w = 0;
	int dir = 0;

	while (r < len) {
		size_t s = r, e = r;

		while (e < len && buf[e] != '/')
			e++;
		r = e + 1;
		dir = e == s || (e - s == 1 && buf[s] == '.');
		if (dir)
			continue;
		if (e - s == 2 && buf[s] == '.' && buf[s + 1] == '.')
			return 403;
		if (buf[s] == '.')
			return 404;
		if (w > 0)
			buf[w++] = '/';
		for (size_t i = s; i < e; i++)
			buf[w++] = buf[i];
	}
	if ((dir || (len > 0 && buf[len - 1] == '/')) && w > 0)
		buf[w++] = '/';
	buf[w] = '\0';
	return 0;
}

/* The absolute-form "http://authority/path" (RFC 9112 3.2.2: a server MUST
 * accept it): the path part, "/" when there is none. */
static void origin_part(const char **t, size_t *n)
{
	size_t skip = *n > 7 && strncasecmp(*t, "http://", 7) == 0 ? 7
		      : *n > 8 && strncasecmp(*t, "https://", 8) == 0 ? 8 : 0;

	if (skip == 0)
		return;
	while (skip < *n && (*t)[skip] != '/')
		skip++;
	if (skip == *n) {
		*t = "/";
		*n = 1;
		return;
	}
	*t += skip;
	*n -= skip;
}

int path_from_target(const char *t, size_t n, char *out, size_t cap)
{
	size_t len = 0;
	int st;

	origin_part(&t, &n);
	if (cap == 0 || n == 0 || t[0] != '/')
		return 400; /* no "*", no relative or authority-form target */
	st = decode(t, n, out, cap, &len);
	if (st != 0)
		return st;
	return normalise(out, len);
}
