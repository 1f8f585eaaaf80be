/* fsopen.c - openat() walk with O_NOFOLLOW on every component. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsopen.h"
#include "http.h"

static int status_of(int err)
{
	switch (err) {
	case ENOENT:
	case ENOTDIR:
	case ENAMETOOLONG:
		return -404;
	case ELOOP:   /* a symlink: never followed */
	case EACCES:
	case EPERM:
		return -403;
	default:
		return -500;
	}
}

static void close_quietly(int fd)
{
	if (close(fd) != 0 && errno != EINTR)
		return; /* nothing to do about it on a read-only descriptor */
}

/* Open the single component name under dirfd. The last one's type is
 * checked before it is opened: opening a FIFO, even non-blocking, would
 * release a writer blocked on it. Between the check
 * and the open only a writer of the served folder could swap it, and
 * check_type() catches that after the open. */
static int open_component(int dirfd, const char *name, int last)
{
	int flags = O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK;
	struct stat st;

	if (last) {
		if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
			return -1;
		if (S_ISLNK(st.st_mode)) {
			errno = ELOOP;
			return -1;
		}
		if (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
			errno = EACCES;
			return -1;
		}
	}
	if (!last)
		flags |= O_DIRECTORY;
	return openat(dirfd, name, flags);
}

/* Why name could not be opened under dirfd: a symlink (O_NOFOLLOW gives
 * ELOOP, or ENOTDIR with O_DIRECTORY) is forbidden, not missing. */
static int open_failure(int dirfd, const char *name, int err)
{
	struct stat st;

	if ((err == ENOTDIR || err == ELOOP) &&
	    fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode))
		return -403;
	return status_of(err);
}

static int check_type(int fd, struct stat *st)
{
	if (fstat(fd, st) != 0) {
		int err = errno;

		close_quietly(fd);
		return status_of(err);
	}
	if (!S_ISREG(st->st_mode) && !S_ISDIR(st->st_mode)) {
		close_quietly(fd);
		return -403;
	}
	return fd;
}

int fs_open_beneath(int rootfd, const char *rel, struct stat *st)
{
	char name[HTTP_PATH_MAX];
	int fd = openat(rootfd, ".", O_RDONLY | O_CLOEXEC | O_DIRECTORY);
	const char *p = rel;

	if (fd < 0)
		return status_of(errno);
	while (*p) {
		const char *slash = strchr(p, '/');
		size_t n = slash ? (size_t)(slash - p) : strlen(p);
		int next;

		if (n >= sizeof(name)) {
			close_quietly(fd);
			return -404;
		}
		memcpy(name, p, n);
		name[n] = '\0';
		next = open_component(fd, name, slash == NULL);
		if (next < 0) {
			int st_code = open_failure(fd, name, errno);

			close_quietly(fd);
			return st_code;
		}
		close_quietly(fd);
		fd = next;
		p = slash ? slash + 1 : p + n;
	}
	return check_type(fd, st);
}
