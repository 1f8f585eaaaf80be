/* range.h - a single HTTP byte range against a file size. */
#ifndef APP_RANGE_H
#define APP_RANGE_H

#include <sys/types.h>

struct byte_range {
	off_t start;
	off_t len;
};

/* Resolve the Range value spec for a representation of size bytes.
 * Returns 0 to serve the whole file (other unit, or several ranges: a server
 * may ignore those), 206 with *r set for one satisfiable range, or 416 for a
 * malformed or unsatisfiable "bytes=" range. */
int range_resolve(const char *spec, off_t size, struct byte_range *r);

#endif
