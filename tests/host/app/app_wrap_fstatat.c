/* app_wrap_fstatat.c - test double: the server linked with
 * -Wl,--wrap=fstatat. WRAP_FSTATAT_AS_FILE=NAME: fstatat() of a file
 * named NAME reports a regular file, whatever it is: as if the folder's
 * writer swapped a regular file for a FIFO (or a device) between the
 * server's type check and its open. Every other call is the real one. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int __real_fstatat(int dirfd, const char *name, struct stat *st, int flags);
int __wrap_fstatat(int dirfd, const char *name, struct stat *st, int flags);

int __wrap_fstatat(int dirfd, const char *name, struct stat *st, int flags)
{
	const char *as_file = getenv("WRAP_FSTATAT_AS_FILE");
	int r = __real_fstatat(dirfd, name, st, flags);

	if (r == 0 && as_file && strcmp(name, as_file) == 0)
		st->st_mode = S_IFREG | (st->st_mode & 07777);
	return r;
}
