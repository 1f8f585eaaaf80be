/* path.h - turn a request target into a path relative to the served folder. */
#ifndef APP_PATH_H
#define APP_PATH_H

#include <stddef.h>

/* Decode the origin-form target t (n bytes, e.g. "/a%20b/c.txt?x=1") into
 * out (cap bytes): percent-decoded, query and fragment dropped, empty and "."
 * segments removed, no leading slash ("" is the folder itself).
 * Returns 0, or an HTTP status: 400 (not origin-form, bad %-escape, NUL or
 * control byte), 403 (a ".." segment), 414 (longer than cap). */
int path_from_target(const char *t, size_t n, char *out, size_t cap);

#endif
