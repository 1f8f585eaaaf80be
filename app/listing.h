/* listing.h - the HTML index of a directory, headed by the board's state,
 * made piece by piece so a folder of any size costs bounded memory and a
 * bounded time per piece. */
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

/* Room a piece needs: the status table, or one entry line. */
#define LISTING_PIECE_MIN 1024

/* A page in the making. fd < 0: none. The folder's read position after the
 * last entry written is the only state between pieces. */
struct listing {
	int fd;
	int phase;                   /* top, entries, tail, done */
	long long pos;               /* getdents64 offset (d_off) */
	const char *rel;             /* the folder, as a relative path: the
	                              * caller's storage, kept until done */
};

/* Start the page of the folder dirfd (taken over) reached as rel. */
void listing_start(struct listing *l, int dirfd, const char *rel);

/* Write the next piece into out (cap >= LISTING_PIECE_MIN bytes): the
 * status table, then the entries (dotfiles are not listed: they are not
 * served either), each with its size, then the closing tags. Returns its
 * length, 0 once the page is complete, -1 when the folder cannot be read
 * (the page is then incomplete: the caller must say so, e.g. by cutting
 * the connection). Every entry is listed; one whose line cannot fit a
 * piece is listed with its link and a note instead of its name. */
long listing_next(struct listing *l, const struct listing_status *st,
		  char *out, size_t cap);

/* Close the folder (done or not). */
void listing_close(struct listing *l);

#endif
