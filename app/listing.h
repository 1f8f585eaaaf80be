/* listing.h - the HTML index of a directory, headed by the board's state. */
#ifndef APP_LISTING_H
#define APP_LISTING_H

#include <stddef.h>

/* What the index page tells about the board, as the server sees it now. */
struct listing_status {
	const char *kernel;          /* "Linux 6.1.192 (armv7l)" */
	const char *sendfile;        /* "available", "not available (ENOSYS)", ... */
	const char *fallback;        /* "read/write" or "mmap" */
	const char *last_via;        /* what moved the last body, NULL: none yet */
	unsigned long long ram_total_k, ram_free_k;
	unsigned long requests;      /* answered so far */
};

/* Write the page into out (cap bytes): the status table, then a list of the
 * entries of the directory dirfd (reached as the relative path rel), each
 * with its size. dirfd is consumed (closed). Returns the body length (0 on
 * failure); entries that do not fit are left out. */
size_t listing_build(int dirfd, const char *rel, const struct listing_status *st,
		     char *out, size_t cap);

#endif
