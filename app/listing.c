/* listing.c - directory index: the board's state, then names
 * percent-encoded into links, with their sizes. Plain HTML, no scripts. */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
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

/* "2097152 bytes", "folder" or "" for what an entry is. */
static void describe(int dirfd, const char *name, char *out, size_t cap)
{
	struct stat st;

	out[0] = '\0';
	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
		return;
	if (S_ISREG(st.st_mode))
		snprintf(out, cap, "%lld bytes", (long long)st.st_size);
	else if (S_ISDIR(st.st_mode))
		snprintf(out, cap, "folder");
}

static size_t add_entry(char *out, size_t cap, size_t used, int dirfd,
			const char *rel, const char *name)
{
	char path[600], enc[1800], line[2048], what[32];
	int n;

	n = snprintf(path, sizeof(path), "%s%s%s", rel, *rel ? "/" : "", name);
	if (n < 0 || (size_t)n >= sizeof(path))
		return used;
	encode(enc, sizeof(enc), path);
	describe(dirfd, name, what, sizeof(what));
	n = snprintf(line, sizeof(line), "<li><a href=\"/%s\">/%s</a> %s</li>\n",
		     enc, enc, what);
	if (n < 0 || (size_t)n >= sizeof(line) || used + (size_t)n >= cap)
		return used;
	return add(out, cap, used, line);
}

/* The status table. Every value is the program's own text (no client
 * input), so nothing needs escaping. */
static size_t add_status(char *out, size_t cap, size_t used,
			 const struct listing_status *st)
{
	char t[768];
	int n = snprintf(t, sizeof(t),
			 "<!DOCTYPE html>\n<html><head><title>vexpress-a9 file server</title>"
			 "</head><body>\n<h1>vexpress-a9 file server</h1>\n<table>\n"
			 "<tr><th>kernel</th><td id=\"kernel\">%s</td></tr>\n"
			 "<tr><th>sendfile</th><td id=\"sendfile\">%s</td></tr>\n"
			 "<tr><th>fallback</th><td id=\"fallback\">%s</td></tr>\n"
			 "<tr><th>last body moved by</th><td id=\"last-via\">%s</td></tr>\n"
			 "<tr><th>RAM</th><td id=\"ram\">%llu KiB total, %llu KiB free</td></tr>\n"
			 "<tr><th>requests served</th><td id=\"requests\">%lu</td></tr>\n"
			 "</table>\n<h2>files</h2>\n<ul>\n",
			 st->kernel, st->sendfile, st->fallback,
			 st->last_via ? st->last_via : "no body yet",
			 st->ram_total_k, st->ram_free_k, st->requests);

	if (n < 0 || (size_t)n >= sizeof(t))
		return used;
	return add(out, cap, used, t);
}

size_t listing_build(int dirfd, const char *rel, const struct listing_status *st,
		     char *out, size_t cap)
{
	static const char tail[] = "</ul></body></html>\n";
	DIR *d = fdopendir(dirfd);
	const struct dirent *e;
	size_t used = 0;

	if (cap < sizeof(tail) + 64)
		return 0;
	out[0] = '\0';
	used = add_status(out, cap - sizeof(tail), used, st);
	if (!d) {
		if (close(dirfd) != 0)
			return 0;
		return add(out, cap, used, tail);
	}
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		used = add_entry(out, cap - sizeof(tail), used, dirfd, rel,
				 e->d_name);
	}
	if (closedir(d) != 0)
		return 0; /* reported as a failure by the caller (500) */
	return add(out, cap, used, tail);
}
