/* listing.h - a small HTML index of a directory. */
#ifndef APP_LISTING_H
#define APP_LISTING_H

#include <stddef.h>

/* Write an HTML list of the entries of the directory dirfd (reached as the
 * relative path rel) into out (cap bytes). dirfd is consumed (closed).
 * Returns the body length (0 on failure); entries that do not fit are left out. */
size_t listing_build(int dirfd, const char *rel, char *out, size_t cap);

#endif
