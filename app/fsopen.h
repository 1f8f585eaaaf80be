/* fsopen.h - open a path strictly beneath the served folder. */
#ifndef APP_FSOPEN_H
#define APP_FSOPEN_H

#include <sys/stat.h>

/* Open rel (relative, no "..": see path.c) under the directory rootfd,
 * component by component with O_NOFOLLOW, so no symlink is ever followed
 * and nothing outside the folder can be reached. "" opens the folder.
 * Returns an fd (regular file or directory, *st filled) or an HTTP status
 * as a negative number: -404 missing, -403 symlink/special/forbidden,
 * -500 other errors. */
int fs_open_beneath(int rootfd, const char *rel, struct stat *st);

#endif
