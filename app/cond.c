/* cond.c - If-Match, If-Unmodified-Since, If-None-Match,
 * If-Modified-Since, If-Range. */
#include <string.h>

#include "cond.h"

/* One entity-tag at *pp (W/ then a quoted string); its bounds in *s, *n,
 * weak in *w. False at a malformed one. */
static bool next_tag(const char **pp, const char **s, size_t *n, bool *w)
{
	const char *p = *pp, *end;

	*w = p[0] == 'W' && p[1] == '/';
	if (*w)
		p += 2;
	if (*p != '"')
		return false;
	end = strchr(p + 1, '"');
	if (!end)
		return false;
	*s = p;
	*n = (size_t)(end - p) + 1;
	*pp = end + 1;
	return true;
}

bool cond_etag_match(const char *list, const char *etag, bool weak)
{
	const char *p = list;
	size_t el = strlen(etag);

	while (*p) {
		const char *s;
		size_t n;
		bool w;

		while (*p == ' ' || *p == '\t' || *p == ',')
			p++;
		if (*p == '\0')
			break;
		if (*p == '*')
			return true;
		if (!next_tag(&p, &s, &n, &w))
			return false;
		if ((weak || !w) && n == el && memcmp(s, etag, n) == 0)
			return true;
	}
	return false;
}

int cond_status(const struct http_request *req, const struct cond_file *f)
{
	if (req->if_match[0]) {
		if (!cond_etag_match(req->if_match, f->etag, false))
			return 412;
	} else if (req->if_unmodified_since >= 0 &&
		   f->mtime > req->if_unmodified_since) {
		return 412;
	}
	if (req->if_none_match[0])
		return cond_etag_match(req->if_none_match, f->etag, true) ? 304 : 0;
	if (req->if_modified_since >= 0 && f->mtime <= req->if_modified_since)
		return 304;
	return 0;
}

bool cond_range_ok(const struct http_request *req, const struct cond_file *f)
{
	const char *v = req->if_range;

	if (req->method != HTTP_GET || !req->has_range)
		return false;
	/* A client that asks for a part of the copy it has from a date (wget
	 * -c -N sends Range with If-Modified-Since, never If-Range) has a
	 * stale copy when the file changed after it: a part of the new file
	 * would be spliced onto the old one. A server MAY ignore Range (RFC
	 * 9110 14.2): it does here, and sends the whole new file. */
	if (req->if_modified_since >= 0 && f->mtime > req->if_modified_since)
		return false;
	if (!v[0])
		return true;
	if (v[0] == '"' || (v[0] == 'W' && v[1] == '/'))
		return v[0] == '"' && strcmp(v, f->etag) == 0;
	return f->date_strong && strcmp(v, f->last_modified) == 0;
}
