/* app_conform_test.c - unit tests of what issue 23 added: HTTP-dates,
 * preconditions and If-Range, the framing checks of the parser, absolute
 * targets, dotfiles and trailing slashes, and the settings table's bounds. */
#include <stdlib.h>
#include <string.h>

#include "app_tap.h"
#include "cond.h"
#include "config.h"
#include "http.h"
#include "httpdate.h"
#include "path.h"

static int parse(const char *s, struct http_request *r)
{
	size_t used = 0;

	return http_parse(s, strlen(s), r, &used);
}

static void test_dates(void)
{
	char d[HTTP_DATE_SIZE];
	const char *fix = "Sun, 06 Nov 1994 08:49:37 GMT";

	http_date(d, 784111777);
	TAP(strcmp(d, fix) == 0, "date: 784111777 is %s (got %s)", fix, d);
	http_date(d, 0);
	TAP(strcmp(d, "Thu, 01 Jan 1970 00:00:00 GMT") == 0, "date: the epoch (got %s)", d);
	http_date(d, 951782400); /* a leap day */
	TAP(strcmp(d, "Tue, 29 Feb 2000 00:00:00 GMT") == 0, "date: 2000-02-29 (got %s)", d);
	http_date(d, 4102444799LL);
	TAP(strcmp(d, "Thu, 31 Dec 2099 23:59:59 GMT") == 0, "date: 2099-12-31 (got %s)", d);
	TAP(http_date_parse(fix, strlen(fix)) == 784111777, "date: IMF-fixdate read");
	TAP(http_date_parse("Sunday, 06-Nov-94 08:49:37 GMT", 30) == 784111777,
	    "date: rfc850-date read");
	TAP(http_date_parse("Sun Nov  6 08:49:37 1994", 24) == 784111777,
	    "date: asctime-date read");
	TAP(http_date_parse("Tue, 29 Feb 2000 00:00:00 GMT", 29) == 951782400,
	    "date: leap day read");
	TAP(http_date_parse("yesterday", 9) == -1, "date: a word is not a date");
	TAP(http_date_parse("Sun, 06 Nov 1994 25:49:37 GMT", 29) == -1, "date: hour 25 refused");
	TAP(http_date_parse("Sun, 06 Nov 1994 GMT", 20) == -1, "date: no time refused");
	TAP(http_date_parse("Sun, 06 Foo 1994 08:49:37 GMT", 29) == -1, "date: no month refused");
	TAP(http_date_parse("", 0) == -1, "date: empty refused");
}

static struct http_request cond_req(const char *extra)
{
	char buf[1024];
	struct http_request r;

	snprintf(buf, sizeof(buf), "GET /f HTTP/1.1\r\nHost: h\r\n%s\r\n", extra);
	if (parse(buf, &r) != 1)
		r.method = HTTP_OTHER;
	return r;
}

static void test_conditions(void)
{
	const char *lm = "Sun, 06 Nov 1994 08:49:37 GMT";
	struct cond_file f = { .etag = "\"1-2-3\"", .last_modified = lm,
			       .mtime = 784111777, .date_strong = true };
	struct http_request r;

	r = cond_req("");
	TAP(cond_status(&r, &f) == 0, "cond: no precondition: go on");
	r = cond_req("If-None-Match: \"1-2-3\"\r\n");
	TAP(cond_status(&r, &f) == 304, "cond: If-None-Match same tag: 304");
	r = cond_req("If-None-Match: \"x\", W/\"1-2-3\"\r\n");
	TAP(cond_status(&r, &f) == 304, "cond: If-None-Match weak compare in a list: 304");
	r = cond_req("If-None-Match: *\r\n");
	TAP(cond_status(&r, &f) == 304, "cond: If-None-Match *: 304");
	r = cond_req("If-None-Match: \"1-2-4\"\r\nIf-Modified-Since: Sun, 06 Nov 1994 08:49:37 GMT\r\n");
	TAP(cond_status(&r, &f) == 0, "cond: If-None-Match miss wins over If-Modified-Since: go on");
	r = cond_req("If-Modified-Since: Sun, 06 Nov 1994 08:49:37 GMT\r\n");
	TAP(cond_status(&r, &f) == 304, "cond: If-Modified-Since = mtime: 304");
	r = cond_req("If-Modified-Since: Sun, 06 Nov 1994 08:49:36 GMT\r\n");
	TAP(cond_status(&r, &f) == 0, "cond: If-Modified-Since a second earlier: go on");
	r = cond_req("If-Modified-Since: not a date\r\n");
	TAP(cond_status(&r, &f) == 0, "cond: If-Modified-Since not a date: ignored");
	r = cond_req("If-Match: \"1-2-3\"\r\n");
	TAP(cond_status(&r, &f) == 0, "cond: If-Match same tag: go on");
	r = cond_req("If-Match: W/\"1-2-3\"\r\n");
	TAP(cond_status(&r, &f) == 412, "cond: If-Match weak tag never matches: 412");
	r = cond_req("If-Match: \"9\"\r\n");
	TAP(cond_status(&r, &f) == 412, "cond: If-Match other tag: 412");
	r = cond_req("If-Match: *\r\n");
	TAP(cond_status(&r, &f) == 0, "cond: If-Match *: go on");
	r = cond_req("If-Unmodified-Since: Sun, 06 Nov 1994 08:49:36 GMT\r\n");
	TAP(cond_status(&r, &f) == 412, "cond: If-Unmodified-Since earlier: 412");
	r = cond_req("If-Unmodified-Since: Sun, 06 Nov 1994 08:49:37 GMT\r\n");
	TAP(cond_status(&r, &f) == 0, "cond: If-Unmodified-Since = mtime: go on");
	r = cond_req("If-Match: \"1-2-3\"\r\nIf-Unmodified-Since: Sun, 06 Nov 1994 08:49:36 GMT\r\n");
	TAP(cond_status(&r, &f) == 0, "cond: If-Match decides, If-Unmodified-Since ignored");
	r = cond_req("If-Match: \"1-2-3\"\r\nIf-None-Match: \"1-2-3\"\r\n");
	TAP(cond_status(&r, &f) == 304, "cond: If-Match passes, then If-None-Match: 304");

	r = cond_req("Range: bytes=0-1\r\n");
	TAP(cond_range_ok(&r, &f), "if-range: a Range alone is honoured");
	r = cond_req("");
	TAP(!cond_range_ok(&r, &f), "if-range: no Range, nothing to honour");
	r = cond_req("Range: bytes=0-1\r\nIf-Range: \"1-2-3\"\r\n");
	TAP(cond_range_ok(&r, &f), "if-range: same strong tag: Range honoured");
	r = cond_req("Range: bytes=0-1\r\nIf-Range: \"1-2-4\"\r\n");
	TAP(!cond_range_ok(&r, &f), "if-range: other tag: whole body");
	r = cond_req("Range: bytes=0-1\r\nIf-Range: W/\"1-2-3\"\r\n");
	TAP(!cond_range_ok(&r, &f), "if-range: weak tag: whole body");
	r = cond_req("Range: bytes=0-1\r\nIf-Range: Sun, 06 Nov 1994 08:49:37 GMT\r\n");
	TAP(cond_range_ok(&r, &f), "if-range: the very Last-Modified: Range honoured");
	r = cond_req("Range: bytes=0-1\r\nIf-Range: Sun, 06 Nov 1994 08:49:38 GMT\r\n");
	TAP(!cond_range_ok(&r, &f), "if-range: another date: whole body");
	f.date_strong = false;
	r = cond_req("Range: bytes=0-1\r\nIf-Range: Sun, 06 Nov 1994 08:49:37 GMT\r\n");
	TAP(!cond_range_ok(&r, &f), "if-range: a weak Last-Modified never validates");
	f.date_strong = true;
	TAP(parse("HEAD /f HTTP/1.1\r\nHost: h\r\nRange: bytes=0-1\r\n\r\n", &r) == 1 &&
	    !cond_range_ok(&r, &f), "if-range: HEAD with Range: whole (RFC 9110 14.2)");
}

static void test_framing(void)
{
	struct http_request r;
	size_t used = 0;

	TAP(parse("GET / HTTP/1.1\r\n\r\n", &r) == 400, "framing: HTTP/1.1 without Host 400");
	TAP(parse("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", &r) == 400,
	    "framing: two Host lines 400");
	TAP(parse("GET / HTTP/1.0\r\n\r\n", &r) == 1, "framing: HTTP/1.0 needs no Host");
	TAP(parse("GET / HTTP/1.0\r\nHost: a\r\nHost: a\r\n\r\n", &r) == 400,
	    "framing: two Host lines in 1.0 400");
	TAP(parse("GET / HTTP/1.1\r\nHost: a\r\nContent-Length: abc\r\n\r\n", &r) == 400,
	    "framing: Content-Length abc 400");
	TAP(parse("GET / HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n", &r) == 400,
	    "framing: Content-Length -1 400");
	TAP(parse("GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n", &r) == 400,
	    "framing: two different Content-Length 400");
	TAP(parse("GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\n", &r) == 1,
	    "framing: the same Content-Length twice accepted");
	TAP(parse("GET / HTTP/1.1\r\nHost: a\r\nContent-Length:\r\n\r\n", &r) == 400,
	    "framing: empty Content-Length 400");
	TAP(parse("GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 99999999999999999999999\r\n\r\n", &r) == 400,
	    "framing: overflowing Content-Length 400");
	TAP(parse("GET / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip\r\n\r\n", &r) == 501,
	    "framing: unknown Transfer-Encoding 501");
	TAP(parse("GET / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n", &r) == 1 &&
	    !r.keep_alive, "framing: chunked accepted, then close");
	TAP(parse("GET / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n", &r) == 400,
	    "framing: Transfer-Encoding with Content-Length 400");
	TAP(parse("GET / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n", &r) == 400,
	    "framing: Transfer-Encoding in HTTP/1.0 400");
	TAP(http_parse("\r\n\nGET /a HTTP/1.1\r\nHost: a\r\n\r\n", 31, &r, &used) == 1 &&
	    used == 31 && strcmp(r.path, "a") == 0, "framing: empty lines before the request skipped");
	TAP(parse("GET http://h/a HTTP/1.1\r\nHost: h\r\n\r\n", &r) == 1 &&
	    strcmp(r.path, "a") == 0, "framing: absolute-form target accepted");
	TAP(parse("HEAD /" "\x01" " HTTP/1.1\r\nHost: h\r\n\r\n", &r) == 400 &&
	    r.method == HTTP_HEAD, "framing: an error on HEAD is known to be HEAD");
}

static void test_paths(void)
{
	char out[64];

	TAP(path_from_target("/hello.txt/", 11, out, sizeof(out)) == 0 &&
	    strcmp(out, "hello.txt/") == 0, "path: trailing slash kept (a file is then 404)");
	TAP(path_from_target("/sub/.", 6, out, sizeof(out)) == 0 &&
	    strcmp(out, "sub/") == 0, "path: trailing /. kept as a slash");
	TAP(path_from_target("/", 1, out, sizeof(out)) == 0 && out[0] == '\0',
	    "path: / is the folder itself");
	TAP(path_from_target("/.hidden", 8, out, sizeof(out)) == 404, "path: dotfile 404");
	TAP(path_from_target("/a/.git/config", 14, out, sizeof(out)) == 404,
	    "path: dot-folder 404");
	TAP(path_from_target("HTTP://h", 8, out, sizeof(out)) == 0 && out[0] == '\0',
	    "path: absolute-form without a path is /");
	TAP(path_from_target("https://h/x/", 12, out, sizeof(out)) == 0 &&
	    strcmp(out, "x/") == 0, "path: https absolute-form");
}

static int load(const char *flag, const char *val)
{
	struct srv_config c;
	char *argv[] = { "t", (char *)flag, (char *)val, NULL };

	return config_load(&c, 3, argv);
}

static void test_config(void)
{
	TAP(load("-c", "128") == 0, "config: -c 128 (documented maximum) accepted");
	TAP(load("-c", "129") != 0, "config: -c 129 refused");
	TAP(load("-p", "65535") == 0, "config: port 65535 accepted");
	TAP(load("-p", "65536") != 0, "config: port 65536 refused");
	TAP(load("-p", "0") != 0, "config: port 0 refused");
	TAP(load("-w", "1048576") == 0, "config: rwbuf 1 MiB accepted");
	TAP(load("-w", "1048577") != 0, "config: rwbuf 1 MiB + 1 refused");
	TAP(load("-w", "511") != 0, "config: rwbuf 511 refused");
	TAP(load("-n", "18446744073709551615") == (sizeof(long) == 8 ? 0 : -1),
	    "config: -n up to ULONG_MAX");
	TAP(load("-t", "-1") != 0 && load("-t", "1x") != 0 && load("-t", "") != 0,
	    "config: -1, 1x, empty refused");
	TAP(load("-s", "maybe") != 0 && load("-s", "off") == 0, "config: on|off");
	TAP(load("-f", "mmap") == 0 && load("-f", "splice") != 0, "config: read|mmap");
}

int main(void)
{
	test_dates();
	test_conditions();
	test_framing();
	test_paths();
	test_config();
	return tap_failed ? 1 : 0;
}
