/* app_unit.c - unit tests of the request parser, path cleaning and ranges. */
#include <string.h>

#include "app_tap.h"
#include "http.h"
#include "path.h"
#include "range.h"

static int parse(const char *s, struct http_request *r, size_t *used)
{
	*used = 0;
	return http_parse(s, strlen(s), r, used);
}

static void test_parser_ok(void)
{
	struct http_request r;
	size_t used;
	const char *two = "GET /a.txt HTTP/1.1\r\nHost: x\r\n\r\nHEAD / HTTP/1.0\r\n\r\n";

	TAP(parse("GET /hello.txt HTTP/1.1\r\nHost: b\r\n\r\n", &r, &used) == 1 &&
	    r.method == HTTP_GET && strcmp(r.path, "hello.txt") == 0 && r.keep_alive &&
	    used == 36, "parser: simple GET, keep-alive by default on 1.1");
	TAP(parse(two, &r, &used) == 1 && used == 32 &&
	    http_parse(two + used, strlen(two) - used, &r, &used) == 1 &&
	    r.method == HTTP_HEAD && r.path[0] == '\0' && !r.keep_alive,
	    "parser: pipelined second request, HEAD, 1.0 closes by default");
	TAP(parse("GET / HTTP/1.1\nHost: h\nConnection: close\n\n", &r, &used) == 1 &&
	    !r.keep_alive, "parser: bare LF line ends, Connection: close");
	TAP(parse("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n", &r, &used) == 1 &&
	    r.keep_alive, "parser: 1.0 with keep-alive");
	TAP(parse("GET /x HTTP/1.1\r\nHost: h\r\nRange:  bytes=1-2 \r\n\r\n", &r, &used) == 1 &&
	    r.has_range && strcmp(r.range, "bytes=1-2") == 0, "parser: Range value trimmed");
	TAP(parse("GET /x HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\n", &r, &used) == 1 &&
	    !r.keep_alive, "parser: a request body means close after the answer");
}

static void test_parser_incomplete(void)
{
	struct http_request r;
	size_t used;

	TAP(parse("GET / HTTP/1.1\r\nHost: x\r\n", &r, &used) == 0,
	    "parser: incomplete head needs more");
	TAP(parse("GET / HTT", &r, &used) == 0, "parser: incomplete line needs more");
	TAP(parse("", &r, &used) == 0, "parser: empty needs more");
}

static void test_parser_errors(void)
{
	static char big[HTTP_HEAD_MAX + 10];
	struct http_request r;
	size_t used;

	TAP(parse("FROB / HTTP/1.1\r\n\r\n", &r, &used) == 501, "parser: unknown method 501");
	TAP(parse("POST / HTTP/1.1\r\n\r\n", &r, &used) == 501, "parser: POST 501");
	TAP(parse("GET /\r\n\r\n", &r, &used) == 400, "parser: HTTP/0.9 style line 400");
	TAP(parse("GET  / HTTP/1.1\r\n\r\n", &r, &used) == 400, "parser: double space 400");
	TAP(parse("GET / HTTP/2.0\r\n\r\n", &r, &used) == 505, "parser: HTTP/2.0 505");
	TAP(parse("GET / XTTP/1.1\r\n\r\n", &r, &used) == 400, "parser: bad version 400");
	TAP(parse("GET / HTTP/1.1\r\nNo colon\r\n\r\n", &r, &used) == 400,
	    "parser: header without colon 400");
	TAP(parse("GET / HTTP/1.1\r\nA: b\r\n folded\r\n\r\n", &r, &used) == 400,
	    "parser: obsolete folding 400");
	TAP(http_parse("GET /\0 HTTP/1.1\r\n\r\n", 20, &r, &used) == 400,
	    "parser: raw NUL in target 400");
	memset(big, 'a', sizeof(big));
	memcpy(big, "GET /", 5);
	TAP(http_parse(big, HTTP_LINE_MAX + 1, &r, &used) == 414,
	    "parser: oversized request line 414");
	memcpy(big, "GET / HTTP/1.1\r\nX: ", 19);
	TAP(http_parse(big, HTTP_HEAD_MAX, &r, &used) == 431,
	    "parser: oversized headers 431");
}

static void test_paths(void)
{
	char out[64];

	TAP(path_from_target("/a/./b//c", 9, out, sizeof(out)) == 0 &&
	    strcmp(out, "a/b/c") == 0, "path: . and empty segments dropped");
	TAP(path_from_target("/a%20b?x=..", 11, out, sizeof(out)) == 0 &&
	    strcmp(out, "a b") == 0, "path: percent-decoding, query dropped");
	TAP(path_from_target("/../etc/passwd", 14, out, sizeof(out)) == 403,
	    "path: .. refused 403");
	TAP(path_from_target("/a/%2e%2e/%2E%2e/x", 18, out, sizeof(out)) == 403,
	    "path: percent-encoded .. refused 403");
	TAP(path_from_target("/a%2f..%2fb", 11, out, sizeof(out)) == 403,
	    "path: encoded slash cannot hide ..");
	TAP(path_from_target("/a%00b", 6, out, sizeof(out)) == 400, "path: %%00 refused 400");
	TAP(path_from_target("/a%zz", 5, out, sizeof(out)) == 400, "path: bad escape 400");
	TAP(path_from_target("/a%4", 4, out, sizeof(out)) == 400, "path: short escape 400");
	TAP(path_from_target("http://h/x", 10, out, sizeof(out)) == 0 &&
	    strcmp(out, "x") == 0, "path: absolute-form accepted (RFC 9112 3.2.2)");
	TAP(path_from_target("etc/passwd", 10, out, sizeof(out)) == 400,
	    "path: relative target refused 400");
	TAP(path_from_target("//etc/passwd", 12, out, sizeof(out)) == 0 &&
	    strcmp(out, "etc/passwd") == 0, "path: leading // stays inside the folder");
	TAP(path_from_target("/...", 4, out, sizeof(out)) == 404,
	    "path: ... is a dotfile: not served (404)");
}

static int rng(const char *spec, long long size, long long start, long long len)
{
	struct byte_range r = { -1, -1 };
	int st = range_resolve(spec, (off_t)size, &r);

	return st == 206 && r.start == start && r.len == len;
}

static void test_ranges(void)
{
	struct byte_range r;

	TAP(rng("bytes=0-99", 1000, 0, 100), "range: first-last");
	TAP(rng("bytes=900-", 1000, 900, 100), "range: open end");
	TAP(rng("bytes=-100", 1000, 900, 100), "range: suffix");
	TAP(rng("bytes=-5000", 1000, 0, 1000), "range: suffix longer than file");
	TAP(rng("bytes=990-5000", 1000, 990, 10), "range: last clamped");
	TAP(rng("bytes=999-999", 1000, 999, 1), "range: last byte");
	TAP(range_resolve("bytes=1000-", 1000, &r) == 416, "range: start at size 416");
	TAP(range_resolve("bytes=5-4", 1000, &r) == 416, "range: last < first 416");
	TAP(range_resolve("bytes=-0", 1000, &r) == 416, "range: empty suffix 416");
	TAP(range_resolve("bytes=abc", 1000, &r) == 416, "range: garbage 416");
	TAP(range_resolve("bytes=-", 1000, &r) == 416, "range: lone dash 416");
	TAP(range_resolve("bytes=0-0", 0, &r) == 416, "range: empty file 416");
	TAP(range_resolve("bytes=99999999999999999999999-", 1000, &r) == 416,
	    "range: huge start 416");
	TAP(rng("bytes=0-99999999999999999999999", 1000, 0, 1000), "range: huge last clamped");
	TAP(range_resolve("bytes=0-1,5-6", 1000, &r) == 0, "range: several ranges ignored");
	TAP(range_resolve("items=0-1", 1000, &r) == 0, "range: other unit ignored");
}

int main(void)
{
	test_parser_ok();
	test_parser_incomplete();
	test_parser_errors();
	test_paths();
	test_ranges();
	return tap_failed ? 1 : 0;
}
