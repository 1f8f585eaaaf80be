/* response.c - header formatting (no I/O). */
#include <stdio.h>

#include "response.h"

const char *resp_reason(int status)
{
	switch (status) {
	case 200: return "OK";
	case 206: return "Partial Content";
	case 304: return "Not Modified";
	case 400: return "Bad Request";
	case 403: return "Forbidden";
	case 404: return "Not Found";
	case 408: return "Request Timeout";
	case 412: return "Precondition Failed";
	case 414: return "URI Too Long";
	case 416: return "Range Not Satisfiable";
	case 431: return "Request Header Fields Too Large";
	case 501: return "Not Implemented";
	case 503: return "Service Unavailable";
	case 505: return "HTTP Version Not Supported";
	default: return "Internal Server Error";
	}
}

/* snprintf at out+*used; false when it does not fit. */
#define APPEND(out, cap, used, ...)                                          \
	do {                                                                   \
		int n_ = snprintf((out) + *(used), (cap) - *(used), __VA_ARGS__); \
		if (n_ < 0 || (size_t)n_ >= (cap) - *(used))                      \
			return 0;                                              \
		*(used) += (size_t)n_;                                         \
	} while (0)

static size_t format_fields(char *out, size_t cap, size_t *used,
			    const struct resp_head *h)
{
	if (h->date)
		APPEND(out, cap, used, "Date: %s\r\n", h->date);
	if (h->etag)
		APPEND(out, cap, used, "ETag: %s\r\n", h->etag);
	if (h->last_modified)
		APPEND(out, cap, used, "Last-Modified: %s\r\n", h->last_modified);
	if (h->type)
		APPEND(out, cap, used, "Content-Type: %s\r\n", h->type);
	if (h->chunked)
		APPEND(out, cap, used, "Transfer-Encoding: chunked\r\n");
	else if (!h->no_length)
		APPEND(out, cap, used, "Content-Length: %lld\r\n", (long long)h->length);
	if (h->status == 206 && h->range)
		APPEND(out, cap, used, "Content-Range: bytes %lld-%lld/%lld\r\n",
		       (long long)h->range->start,
		       (long long)(h->range->start + h->range->len - 1),
		       (long long)h->total);
	if (h->status == 416)
		APPEND(out, cap, used, "Content-Range: bytes */%lld\r\n",
		       (long long)h->total);
	return 1;
}

size_t resp_format(char *out, size_t cap, const struct resp_head *h)
{
	size_t used = 0;

	APPEND(out, cap, &used, "HTTP/1.1 %d %s\r\nServer: fileserver\r\n",
	       h->status, resp_reason(h->status));
	if (!format_fields(out, cap, &used, h))
		return 0;
	APPEND(out, cap, &used, "Accept-Ranges: bytes\r\nConnection: %s\r\n\r\n",
	       h->keep_alive ? "keep-alive" : "close");
	return used;
}

size_t resp_error(char *out, size_t cap, struct resp_head *h, bool head_only,
		  size_t *head_len)
{
	char body[64];
	int bn = snprintf(body, sizeof(body), "%d %s\n", h->status,
			  resp_reason(h->status));
	size_t used;

	h->type = "text/plain; charset=utf-8";
	h->length = bn > 0 ? bn : 0;
	used = resp_format(out, cap, h);
	if (used == 0 || bn < 0 || (size_t)bn >= cap - used)
		return 0;
	*head_len = used;
	if (!head_only)
		APPEND(out, cap, &used, "%s", body);
	return used;
}
