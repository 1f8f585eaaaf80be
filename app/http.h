/* http.h - HTTP/1.x request parser (pure: no I/O, fuzzed on the host). */
#ifndef APP_HTTP_H
#define APP_HTTP_H

#include <stdbool.h>
#include <stddef.h>

#define HTTP_LINE_MAX 2048  /* request line, CRLF included: else 414 */
#define HTTP_HEAD_MAX 8192  /* request line + headers: else 431 */
#define HTTP_PATH_MAX 1024  /* decoded path: else 414 */
#define HTTP_RANGE_MAX 64   /* Range header value kept for range.c */
#define HTTP_COND_MAX 128   /* If-Match, If-None-Match, If-Range values kept */

enum http_method { HTTP_GET, HTTP_HEAD, HTTP_OTHER };

struct http_request {
	enum http_method method;
	char method_name[16];        /* sanitized, for the log */
	char target[96];             /* sanitized raw target, for the log */
	char path[HTTP_PATH_MAX];    /* decoded, relative to the served folder */
	char range[HTTP_RANGE_MAX];  /* Range value when has_range */
	/* Preconditions (RFC 9110 13.1), "" when absent. A value too long to
	 * keep is replaced by one that matches nothing: If-Match then fails
	 * (412), If-Range then sends the whole body (200); a too long
	 * If-None-Match is dropped (a full 200 is always safe). */
	char if_match[HTTP_COND_MAX];
	char if_none_match[HTTP_COND_MAX];
	char if_range[HTTP_COND_MAX];
	long long if_modified_since;   /* seconds, -1: absent or not a date */
	long long if_unmodified_since; /* seconds, -1: absent or not a date */
	bool has_range;
	bool range_too_long;         /* a Range header too long to be sane */
	bool has_body;               /* Content-Length > 0 or Transfer-Encoding:
	                              * a body we do not read, so the connection
	                              * closes after the answer, whatever a
	                              * Connection header says */
	bool keep_alive;
	bool http10;                 /* HTTP/1.0: close-delimited bodies */
	/* Framing checks, decided once the head is read (RFC 9112 3.2, 6.1,
	 * 6.3): Host lines, Content-Length values, Transfer-Encoding. */
	unsigned char hosts;
	bool cl_seen, cl_bad, te_seen, te_unknown;
	unsigned long long cl;
};

/* Parse the request at the start of buf (len bytes).
 * Returns 0 when more bytes are needed (len < HTTP_HEAD_MAX), 1 when a
 * complete, acceptable GET/HEAD request was parsed, or an HTTP error status
 * (400, 403, 404, 414, 431, 501, 505). Empty lines before the request
 * line are skipped (RFC 9112 2.2). *consumed is set to the request's length
 * when it returns 1 (the next pipelined request starts there). */
int http_parse(const char *buf, size_t len, struct http_request *req,
	       size_t *consumed);

/* Is it worth parsing buf (len bytes) now, when buf[0..scanned) was seen
 * before and did not hold a complete head? True when the end of the head
 * (an empty line) lies in the new bytes, or the limits are reached (the
 * parser then answers 414/431). So a head dribbled in byte by byte is
 * scanned once, not once per byte. */
bool http_head_ready(const char *buf, size_t len, size_t scanned);

#endif
