/* listing.c - directory index: names percent-encoded into links. */
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "listing.h"

/* Percent-encode everything but unreserved characters and '/'. */
static size_t encode(char *out, size_t cap, const char *s)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t o = 0;

	for (; *s && o + 4 < cap; s++) {
		unsigned char c = (unsigned char)*s;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || strchr("-._~/", c)) {
			out[o++] = (char)c;
		} else {
			out[o++] = '%';
			out[o++] = hex[c >> 4];
			out[o++] = hex[c & 15];
		}
	}
	out[o] = '\0';
	return o;
}

static size_t add(char *out, size_t cap, size_t used, const char *text)
{
	size_t n = strlen(text);

	if (used + n >= cap)
		return used;
	memcpy(out + used, text, n + 1);
	return used + n;
}

static size_t add_entry(char *out, size_t cap, size_t used, const char *rel,
			const char *name)
{
	char path[600], enc[1800], line[2048];
	int n;

	n = snprintf(path, sizeof(path), "%s%s%s", rel, *rel ? "/" : "", name);
	if (n < 0 || (size_t)n >= sizeof(path))
		return used;
	encode(enc, sizeof(enc), path);
	n = snprintf(line, sizeof(line), "<li><a href=\"/%s\">/%s</a></li>\n",
		     enc, enc);
	if (n < 0 || (size_t)n >= sizeof(line) || used + (size_t)n >= cap)
		return used;
	return add(out, cap, used, line);
}

size_t listing_build(int dirfd, const char *rel, char *out, size_t cap)
{
	static const char tail[] = "</ul></body></html>\n";
	DIR *d = fdopendir(dirfd);
	const struct dirent *e;
	size_t used = 0;

	if (cap < sizeof(tail) + 64)
		return 0;
	out[0] = '\0';
	used = add(out, cap, used, "<!DOCTYPE html>\n<html><head><title>files</title>"
				   "</head><body><ul>\n");
	if (!d) {
		if (close(dirfd) != 0)
			return 0;
		return add(out, cap, used, tail);
	}
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		used = add_entry(out, cap - sizeof(tail), used, rel, e->d_name);
	}
	if (closedir(d) != 0)
		return 0; /* reported as a failure by the caller (500) */
	return add(out, cap, used, tail);
}
