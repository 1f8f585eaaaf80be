/* httpdate.h - HTTP-date (RFC 9110 5.6.7): written as IMF-fixdate, read in
 * all three forms. Pure: no clock, no locale, no libc time zone code. */
#ifndef APP_HTTPDATE_H
#define APP_HTTPDATE_H

#include <stddef.h>

#define HTTP_DATE_SIZE 30 /* "Sun, 06 Nov 1994 08:49:37 GMT" and its NUL */

/* Write t (seconds since 1970, UTC; negative taken as 0) into out. */
void http_date(char out[HTTP_DATE_SIZE], long long t);

/* Read an IMF-fixdate, rfc850-date or asctime-date from s[0..n). Returns
 * seconds since 1970 (0 for earlier dates), or -1 when it is not a date
 * (RFC 9110 13.1.3/13.1.4: such a header is then ignored). */
long long http_date_parse(const char *s, size_t n);

#endif
