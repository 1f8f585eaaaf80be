/* range.c - parse "bytes=first-last", "bytes=first-", "bytes=-suffix". */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>

#include "range.h"

#define RANGE_POS_MAX ((off_t)INT64_MAX / 16)

static const char *skip_ows(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* Digits at *pp into *out (saturating at RANGE_POS_MAX); false if none. */
static bool parse_pos(const char **pp, off_t *out)
{
	const char *p = *pp;
	off_t v = 0;

	if (*p < '0' || *p > '9')
		return false;
	for (; *p >= '0' && *p <= '9'; p++)
		v = v >= RANGE_POS_MAX ? RANGE_POS_MAX : v * 10 + (*p - '0');
	*pp = p;
	*out = v;
	return true;
}

static int resolve_suffix(off_t suffix, off_t size, struct byte_range *r)
{
	if (suffix == 0 || size == 0)
		return 416;
	r->len = suffix < size ? suffix : size;
	r->start = size - r->len;
	return 206;
}

int range_resolve(const char *spec, off_t size, struct byte_range *r)
{
	const char *p = skip_ows(spec);
	off_t first = 0, last = 0;
	bool has_first, has_last;

	if (strncasecmp(p, "bytes", 5) != 0)
		return 0;
	p = skip_ows(p + 5);
	if (*p != '=')
		return 0;
	if (strchr(p, ','))
		return 0; /* several ranges: serve it all, that is allowed */
	p = skip_ows(p + 1);
	has_first = parse_pos(&p, &first);
	if (*p++ != '-')
		return 416;
	has_last = parse_pos(&p, &last);
	if (*skip_ows(p) != '\0' || (!has_first && !has_last))
		return 416;
	if (!has_first)
		return resolve_suffix(last, size, r);
	if ((has_last && last < first) || first >= size)
		return 416;
	if (!has_last || last >= size)
		last = size - 1;
	r->start = first;
	r->len = last - first + 1;
	return 206;
}
