/* app_head_test.c - http_head_ready(): a head that arrives byte by byte is
 * parsed once, when its empty line is complete; the 414 and 431 limits
 * still make it ready. Counts parses the way conn.c's read step calls it. */
#include <stdio.h>
#include <string.h>

#include "app_tap.h"
#include "http.h"

/* Feed text one byte at a time; count the lengths at which it is ready. */
static int parses(const char *text, size_t len, size_t *at)
{
	size_t scanned = 0;
	int n = 0;

	for (size_t i = 1; i <= len; i++) {
		if (http_head_ready(text, i, scanned)) {
			n++;
			*at = i;
		}
		scanned = i;
	}
	return n;
}

int main(void)
{
	static char big[HTTP_HEAD_MAX + 16];
	const char *crlf = "GET / HTTP/1.1\r\nHost: x\r\nX-A: 1\r\n\r\n";
	const char *lf = "GET / HTTP/1.1\nHost: x\n\n";
	const char *two = "GET /a HTTP/1.1\r\n\r\nGET /b HTTP/1.1\r\n\r\n";
	size_t at = 0;
	int n;

	n = parses(crlf, strlen(crlf), &at);
	TAP(n == 1 && at == strlen(crlf), "head: CRLF head dribbled byte by byte is ready once, at its end (%d)", n);
	n = parses(lf, strlen(lf), &at);
	TAP(n == 1 && at == strlen(lf), "head: bare-LF head dribbled byte by byte is ready once (%d)", n);
	n = parses(two, strlen(two), &at);
	TAP(n == 2, "head: two pipelined heads, ready at the end of each (%d)", n);
	TAP(http_head_ready(crlf, strlen(crlf), 0), "head: a whole head in one read is ready");
	TAP(!http_head_ready(crlf, strlen(crlf) - 2, 0), "head: without its empty line it is not");

	/* 414: no LF in the first HTTP_LINE_MAX bytes. */
	memset(big, 'a', sizeof(big));
	n = parses(big, HTTP_LINE_MAX + 100, &at);
	TAP(n >= 1 && at >= HTTP_LINE_MAX, "head: a request line past HTTP_LINE_MAX makes it ready (414)");
	/* 431: a head that fills the buffer without an empty line. */
	memcpy(big, "GET / HTTP/1.1\r\n", 16);
	for (size_t i = 16; i + 8 < sizeof(big); i += 8)
		memcpy(big + i, "X: yyy\r\n", 8);
	TAP(http_head_ready(big, HTTP_HEAD_MAX, HTTP_HEAD_MAX - 1), "head: a full buffer is ready (431)");
	n = parses(big, HTTP_HEAD_MAX - 1, &at);
	TAP(n == 0, "head: header lines without an empty line are never ready below the limit (%d)", n);
	return tap_failed ? 1 : 0;
}
