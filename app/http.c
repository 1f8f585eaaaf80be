/* http.c - HTTP/1.x request line and header parsing. */
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <strings.h>

#include "http.h"
#include "httpdate.h"
#include "log.h"
#include "path.h"

static bool is_tchar(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || (c != '\0' && strchr("!#$%&'*+-.^_`|~", c));
}

/* Index of the first '\n' in buf[from..len), or len. */
static size_t find_lf(const char *buf, size_t from, size_t len)
{
	const char *p = from < len ? memchr(buf + from, '\n', len - from) : NULL;

	return p ? (size_t)(p - buf) : len;
}

/* Length of the head (up to and including the empty line), or 0. */
static size_t head_length(const char *buf, size_t len, size_t first_lf)
{
	size_t i = first_lf;

	while (i < len) {
		size_t next = find_lf(buf, i + 1, len);

		if (next >= len)
			return 0;
		if (next == i + 1 || (next == i + 2 && buf[i + 1] == '\r'))
			return next + 1;
		i = next;
	}
	return 0;
}

/* Line length without its CR LF / LF. */
static size_t trim_eol(const char *line, size_t lf)
{
	return lf > 0 && line[lf - 1] == '\r' ? lf - 1 : lf;
}

static int parse_version(const char *v, size_t n, bool *keep_alive)
{
	if (n == 8 && memcmp(v, "HTTP/1.1", 8) == 0) {
		*keep_alive = true;
		return 0;
	}
	if (n == 8 && memcmp(v, "HTTP/1.0", 8) == 0) {
		*keep_alive = false;
		return 0;
	}
	if (n == 8 && memcmp(v, "HTTP/", 5) == 0 && v[5] >= '0' && v[5] <= '9' &&
	    v[6] == '.' && v[7] >= '0' && v[7] <= '9')
		return 505;
	return 400;
}

static enum http_method method_of(const char *m, size_t n)
{
	if (n == 3 && memcmp(m, "GET", 3) == 0)
		return HTTP_GET;
	if (n == 4 && memcmp(m, "HEAD", 4) == 0)
		return HTTP_HEAD;
	return HTTP_OTHER;
}

/* "METHOD SP target SP HTTP/x.y" (n bytes, no EOL). Fills req. */
static int parse_request_line(const char *l, size_t n, struct http_request *req)
{
	size_t m = 0, t0, t1;
	int st;

	while (m < n && is_tchar(l[m]))
		m++;
	log_sanitize(req->method_name, sizeof(req->method_name), l, m);
	if (m == 0 || m >= n || l[m] != ' ')
		return 400;
	t0 = m + 1;
	t1 = t0;
	while (t1 < n && (unsigned char)l[t1] > 0x20 && l[t1] != 0x7f)
		t1++;
	log_sanitize(req->target, sizeof(req->target), l + t0, t1 - t0);
	if (t1 == t0 || t1 >= n || l[t1] != ' ')
		return 400;
	st = parse_version(l + t1 + 1, n - t1 - 1, &req->keep_alive);
	if (st != 0)
		return st;
	req->http10 = !req->keep_alive;
	req->method = method_of(l, m);
	if (req->method == HTTP_OTHER)
		return 501;
	return path_from_target(l + t0, t1 - t0, req->path, sizeof(req->path));
}

/* Does the comma-separated list v[0..n) hold the token tok? */
static bool list_has(const char *v, size_t n, const char *tok)
{
	size_t tl = strlen(tok), i = 0;

	while (i < n) {
		size_t s, e;

		while (i < n && (v[i] == ' ' || v[i] == '\t' || v[i] == ','))
			i++;
		s = i;
		while (i < n && v[i] != ',')
			i++;
		e = i;
		while (e > s && (v[e - 1] == ' ' || v[e - 1] == '\t'))
			e--;
		if (e - s == tl && strncasecmp(v + s, tok, tl) == 0)
			return true;
	}
	return false;
}

static bool name_is(const char *name, size_t n, const char *want)
{
	return n == strlen(want) && strncasecmp(name, want, n) == 0;
}

/* Keep a header value, or stand-in when it is too long to keep. */
static void keep_value(char *dst, size_t cap, const char *v, size_t vn,
		       const char *too_long)
{
	if (vn >= cap) {
		v = too_long;
		vn = strlen(too_long);
	}
	memcpy(dst, v, vn);
	dst[vn] = '\0';
}

/* Content-Length: 1*DIGIT; a second line must say the same (RFC 9112 6.3). */
static void content_length(const char *v, size_t vn, struct http_request *req)
{
	unsigned long long n = 0;
	size_t i;

	for (i = 0; i < vn && v[i] >= '0' && v[i] <= '9' && n < (1ULL << 60); i++)
		n = n * 10 + (unsigned)(v[i] - '0');
	if (i == 0 || i < vn || (req->cl_seen && n != req->cl))
		req->cl_bad = true;
	req->cl_seen = true;
	req->cl = n;
	if (n > 0)
		req->has_body = true;
}

static void apply_header(const char *name, size_t nn, const char *v, size_t vn,
			 struct http_request *req)
{
	if (name_is(name, nn, "connection")) {
		if (list_has(v, vn, "close"))
			req->keep_alive = false;
		else if (list_has(v, vn, "keep-alive"))
			req->keep_alive = true;
	} else if (name_is(name, nn, "host")) {
		if (req->hosts < 2)
			req->hosts++;
	} else if (name_is(name, nn, "range")) {
		req->has_range = true;
		req->range_too_long = vn >= sizeof(req->range);
		if (!req->range_too_long)
			keep_value(req->range, sizeof(req->range), v, vn, "");
	} else if (name_is(name, nn, "if-match")) {
		keep_value(req->if_match, HTTP_COND_MAX, v, vn, "\"\"");
	} else if (name_is(name, nn, "if-none-match")) {
		keep_value(req->if_none_match, HTTP_COND_MAX, v, vn, "");
	} else if (name_is(name, nn, "if-range")) {
		keep_value(req->if_range, HTTP_COND_MAX, v, vn, "\"\"");
	} else if (name_is(name, nn, "if-modified-since")) {
		req->if_modified_since = http_date_parse(v, vn);
	} else if (name_is(name, nn, "if-unmodified-since")) {
		req->if_unmodified_since = http_date_parse(v, vn);
	} else if (name_is(name, nn, "transfer-encoding")) {
		/* A request body we do not read: answer, then close. Only
		 * "chunked" is a coding we know (RFC 9112 6.1: else 501). */
		req->has_body = req->te_seen = true;
		if (!name_is(v, vn, "chunked"))
			req->te_unknown = true;
	} else if (name_is(name, nn, "content-length")) {
		content_length(v, vn, req);
	}
}

/* One "name: value" line (n bytes, no EOL). */
static int parse_header(const char *l, size_t n, struct http_request *req)
{
	size_t nn = 0, v, e = n;

	while (nn < n && is_tchar(l[nn]))
		nn++;
	if (nn == 0 || nn >= n || l[nn] != ':')
		return 400; /* also rejects obsolete line folding */
	for (size_t i = nn + 1; i < n; i++)
		if (((unsigned char)l[i] < 0x20 && l[i] != '\t') || l[i] == 0x7f)
			return 400;
	v = nn + 1;
	while (v < e && (l[v] == ' ' || l[v] == '\t'))
		v++;
	while (e > v && (l[e - 1] == ' ' || l[e - 1] == '\t'))
		e--;
	apply_header(l, nn, l + v, e - v, req);
	return 0;
}

static int parse_headers(const char *buf, size_t from, size_t end,
			 struct http_request *req)
{
	size_t i = from;

	while (i < end) {
		size_t lf = find_lf(buf, i, end);
		size_t n = trim_eol(buf + i, lf - i);
		int st;

		if (n == 0)
			break;
		st = parse_header(buf + i, n, req);
		if (st != 0)
			return st;
		i = lf + 1;
	}
	return 0;
}

/* What the whole head says about its framing (RFC 9112): 3.2, an HTTP/1.1
 * request without Host, or any with two, is 400; 6.1, Transfer-Encoding in
 * HTTP/1.0 is faulty framing (400), and with Content-Length too we reject
 * it (6.3 allows that); an unknown coding is 501; 6.3, an invalid
 * Content-Length is 400. */
static int framing_status(const struct http_request *req)
{
	if (req->hosts > 1 || (req->hosts == 0 && !req->http10))
		return 400;
	if (req->cl_bad || (req->te_seen && (req->http10 || req->cl_seen)))
		return 400;
	return req->te_unknown ? 501 : 0;
}

/* Length of the empty lines (CRLF or LF) at buf[0..len), which a server
 * SHOULD skip before a request line (RFC 9112 2.2). */
static size_t empty_lines(const char *buf, size_t len)
{
	size_t i = 0;

	for (;;) {
		if (i < len && buf[i] == '\n')
			i++;
		else if (i + 1 < len && buf[i] == '\r' && buf[i + 1] == '\n')
			i += 2;
		else
			return i;
	}
}

static int parse_head(const char *buf, size_t len, struct http_request *req,
		      size_t *consumed)
{
	size_t lf = find_lf(buf, 0, len), head;
	int st;

	if (len >= 5 && memcmp(buf, "HEAD ", 5) == 0)
		req->method = HTTP_HEAD; /* no body even on an early error */
	if (lf >= len)
		return len >= HTTP_LINE_MAX ? 414 : len >= HTTP_HEAD_MAX ? 431 : 0;
	if (lf + 1 > HTTP_LINE_MAX)
		return 414;
	head = head_length(buf, len, lf);
	if (head == 0)
		return len >= HTTP_HEAD_MAX ? 431 : 0;
	*consumed += head;
	if (head > HTTP_HEAD_MAX)
		return 431;
	st = parse_request_line(buf, trim_eol(buf, lf), req);
	if (st != 0)
		return st;
	st = parse_headers(buf, lf + 1, head, req);
	if (req->has_body)
		req->keep_alive = false; /* a later Connection: keep-alive cannot undo it */
	if (st == 0)
		st = framing_status(req);
	return st != 0 ? st : 1;
}

int http_parse(const char *buf, size_t len, struct http_request *req,
	       size_t *consumed)
{
	size_t skip = empty_lines(buf, len);

	memset(req, 0, sizeof(*req));
	req->if_modified_since = req->if_unmodified_since = -1;
	*consumed = skip;
	if (skip == len && len >= HTTP_HEAD_MAX)
		return 431;
	return parse_head(buf + skip, len - skip, req, consumed);
}

bool http_head_ready(const char *buf, size_t len, size_t scanned)
{
	size_t from = scanned > 2 ? scanned - 2 : 0;

	if (len >= HTTP_HEAD_MAX)
		return true;
	if (len >= HTTP_LINE_MAX && scanned < HTTP_LINE_MAX &&
	    !memchr(buf, '\n', HTTP_LINE_MAX))
		return true;
	/* An empty line ends with "\n\n" or "\n\r\n": its last LF is new. */
	for (size_t i = find_lf(buf, from, len); i < len; i = find_lf(buf, i + 1, len)) {
		if (i >= scanned && i >= 1 &&
		    (buf[i - 1] == '\n' || (i >= 2 && buf[i - 1] == '\r' && buf[i - 2] == '\n')))
			return true;
	}
	return false;
}
