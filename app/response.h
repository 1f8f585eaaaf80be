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
	bool keep_alive;
};

const char *resp_reason(int status);

/* Format the header block into out (cap bytes). Returns its length, or 0 if
 * it does not fit. */
size_t resp_format(char *out, size_t cap, const struct resp_head *h);

/* A complete error/status response with a one-line text body; returns its
 * length (0 if it does not fit) and sets *head_len to the header part. */
size_t resp_error(char *out, size_t cap, int status, bool keep_alive,
		  off_t total, size_t *head_len);

#endif
