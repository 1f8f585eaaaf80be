/* cond.h - conditional requests (RFC 9110 13): preconditions against the
 * file's validators, and If-Range. Pure: no I/O. */
#ifndef APP_COND_H
#define APP_COND_H

#include <stdbool.h>

#include "http.h"

/* The validators of the file being served. */
struct cond_file {
	const char *etag;          /* strong entity-tag, quotes included */
	const char *last_modified; /* its Last-Modified field value */
	long long mtime;           /* the same, in seconds */
	bool date_strong;          /* last_modified may validate If-Range
	                            * (RFC 9110 8.8.2.2) */
};

/* Evaluate the preconditions in the order of RFC 9110 13.2.2. Returns 0
 * to go on, 304 (Not Modified) or 412 (Precondition Failed). */
int cond_status(const struct http_request *req, const struct cond_file *f);

/* May the request's Range be honoured? Only for GET with a Range, and
 * with an If-Range only when it matches exactly: a strong entity-tag
 * match, or the very Last-Modified value (RFC 9110 13.1.5, 14.2). */
bool cond_range_ok(const struct http_request *req, const struct cond_file *f);

/* Does the field value list ("*" or entity-tags) match etag? weak: the
 * weak comparison (W/ ignored), else the strong one (RFC 9110 8.8.3.2). */
bool cond_etag_match(const char *list, const char *etag, bool weak);

#endif
