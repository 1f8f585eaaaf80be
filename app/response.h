/* response.h - status lines and response headers. */
#ifndef APP_RESPONSE_H
#define APP_RESPONSE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "range.h"

struct resp_head {
	int status;
	const char *type;            /* Content-Type, or NULL */
	off_t length;                /* Content-Length */
	const struct byte_range *range; /* 206: the range sent */
	off_t total;                 /* 206/416: full size for Content-Range */
	const char *date;            /* Date value, NULL: the board has no clock */
	const char *etag;            /* ETag value, or NULL */
	const char *last_modified;   /* Last-Modified value, or NULL */
	bool keep_alive;
	bool chunked;                /* Transfer-Encoding: chunked, no length */
	bool no_length;              /* no Content-Length (304, close-delimited) */
};

const char *resp_reason(int status);

/* Format the header block into out (cap bytes). Returns its length, or 0 if
 * it does not fit. */
size_t resp_format(char *out, size_t cap, const struct resp_head *h);

/* A complete error/status response for h (status, keep_alive, total,
 * date set) with a one-line text body, left out when head_only (HEAD:
 * RFC 9110 9.3.2); returns its length (0 if it does not fit) and sets
 * *head_len to the header part. */
size_t resp_error(char *out, size_t cap, struct resp_head *h, bool head_only,
		  size_t *head_len);

#endif
