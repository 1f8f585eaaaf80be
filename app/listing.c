/* listing.c - directory index: the board's state, then names
 * percent-encoded into links, with their sizes. Plain HTML, no scripts.
 * The folder is read with getdents64 from the offset after the last entry
 * written, so no entry is kept between pieces, and nothing is allocated.
 * getdents64() is libc's (musl: a macro for getdents(), whose svc carries
 * its number): through syscall() the number reaches r7 by a path the
 * syscall audit cannot follow, and it fails closed. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "http.h"
#include "listing.h"

enum { PH_TOP, PH_ENTRIES, PH_TAIL, PH_DONE };

#define DIRBUF 1024  /* getdents64 buffer: a dirent64 is at most 280 bytes */
#define BATCHES 8    /* getdents64 calls per piece at most */

struct dirent64_raw {       /* struct linux_dirent64 */
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

void listing_start(struct listing *l, int dirfd, const char *rel)
{
	l->fd = dirfd;
	l->phase = PH_TOP;
	l->pos = 0;
	l->rel = rel;
}

void listing_close(struct listing *l)
{
	if (l->fd >= 0 && close(l->fd) != 0 && errno != EINTR)
		l->phase = PH_DONE; /* read-only: nothing is lost */
	l->fd = -1;
}

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

/* The line of one entry into out (cap bytes): its length, 0 if even the
 * short form (the link with a note) does not fit. */
static size_t entry_line(const struct listing *l, const char *name, char *out,
			 size_t cap)
{
	char path[HTTP_PATH_MAX + 260], enc[3 * sizeof(path)], what[32];
	size_t rl = strlen(l->rel);
	int n;

	snprintf(path, sizeof(path), "%s%s%s", l->rel,
		 rl && l->rel[rl - 1] != '/' ? "/" : "", name);
	encode(enc, sizeof(enc), path);
	describe(l->fd, name, what, sizeof(what));
	n = snprintf(out, cap, "<li><a href=\"/%s\">/%s</a> %s</li>\n", enc, enc, what);
	if (n > 0 && (size_t)n < cap)
		return (size_t)n;
	n = snprintf(out, cap, "<li><a href=\"/%s\">(name too long to show)</a> %s</li>\n",
		     enc, what);
	return n > 0 && (size_t)n < cap ? (size_t)n : 0;
}

/* The status table. Every value is the program's own text (no client
 * input), so nothing needs escaping. */
static long top(const struct listing_status *st, char *out, size_t cap)
{
	int n = snprintf(out, cap,
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

	return n > 0 && (size_t)n < cap ? n : -1;
}

/* Entries from l->pos on, as many as fit out. 0 at the end of the folder. */
static long entries(struct listing *l, char *out, size_t cap)
{
	char buf[DIRBUF] __attribute__((aligned(8)));
	size_t used = 0;

	for (int b = 0; b < BATCHES && used == 0; b++) {
		long n;

		if (lseek(l->fd, (off_t)l->pos, SEEK_SET) < 0)
			return -1;
		n = getdents64(l->fd, (void *)buf, sizeof(buf));
		if (n <= 0)
			return n < 0 ? -1 : 0;
		for (long i = 0; i < n;) {
			const struct dirent64_raw *d = (const void *)(buf + i);
			size_t k = 0;

			if (d->d_name[0] != '.') {
				k = entry_line(l, d->d_name, out + used, cap - used);
				if (k == 0 && used > 0)
					return (long)used; /* the rest: next piece */
			}
			used += k;
			l->pos = d->d_off;
			i += d->d_reclen;
		}
	}
	return used > 0 ? (long)used : (long)snprintf(out, cap, "\n");
}

long listing_next(struct listing *l, const struct listing_status *st,
		  char *out, size_t cap)
{
	static const char tail[] = "</ul></body></html>\n";
	long n;

	switch (l->phase) {
	case PH_TOP:
		l->phase = PH_ENTRIES;
		return top(st, out, cap);
	case PH_ENTRIES:
		n = entries(l, out, cap);
		if (n != 0)
			return n;
		l->phase = PH_TAIL;
		/* fall through */
	case PH_TAIL:
		l->phase = PH_DONE;
		memcpy(out, tail, sizeof(tail) - 1);
		return (long)sizeof(tail) - 1;
	default:
		return 0;
	}
}
