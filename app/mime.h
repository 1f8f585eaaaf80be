/* mime.h - Content-Type from a file name. */
#ifndef APP_MIME_H
#define APP_MIME_H

const char *mime_type(const char *path);

#endif
