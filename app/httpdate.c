/* httpdate.c - HTTP-date without gmtime(): days from and to a civil date
 * (the proleptic Gregorian algorithms of H. Hinnant, "chrono-Compatible
 * Low-Level Date Algorithms"). */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "httpdate.h"

static const char months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
static const char wdays[] = "ThuFriSatSunMonTueWed"; /* 1970-01-01: Thu */

static long long days_from_civil(long long y, int m, int d)
{
	long long era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

void http_date(char out[HTTP_DATE_SIZE], long long t)
{
	long long z, era, doe, yoe, doy, mp, secs;
	int d, m;

	if (t < 0)
		t = 0;
	z = t / 86400 + 719468;
	secs = t % 86400;
	era = z / 146097;
	doe = z - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	d = (int)(doy - (153 * mp + 2) / 5 + 1);
	m = (int)(mp < 10 ? mp + 3 : mp - 9);
	snprintf(out, HTTP_DATE_SIZE, "%.3s, %02u %.3s %04u %02u:%02u:%02u GMT",
		 wdays + (t / 86400) % 7 * 3, (unsigned)d % 32u, months + (m - 1) * 3,
		 (unsigned)(yoe + era * 400 + (m <= 2)) % 10000u,
		 (unsigned)(secs / 3600) % 24u, (unsigned)(secs / 60) % 60u,
		 (unsigned)secs % 60u);
}

struct date_parts {
	int day, mon, year, hh, mi, ss;
};

static bool all_digits(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return n > 0;
}

static int number(const char *s, size_t n)
{
	int v = 0;

	for (size_t i = 0; i < n; i++)
		v = v * 10 + (s[i] - '0');
	return v;
}

/* "08:49:37" */
static bool time_of_day(const char *s, size_t n, struct date_parts *p)
{
	if (n != 8 || s[2] != ':' || s[5] != ':' || !all_digits(s, 2) ||
	    !all_digits(s + 3, 2) || !all_digits(s + 6, 2))
		return false;
	p->hh = number(s, 2);
	p->mi = number(s + 3, 2);
	p->ss = number(s + 6, 2);
	return p->hh < 24 && p->mi < 60 && p->ss < 61;
}

/* One word of a date: a day, a year, a time, a month; weekday names and
 * "GMT" pass. False when the word fits none of them. */
static bool date_word(const char *s, size_t n, struct date_parts *p)
{
	if (n == 0)
		return true;
	if (memchr(s, ':', n))
		return time_of_day(s, n, p);
	if (all_digits(s, n)) {
		if (n <= 2 && p->day < 0)
			p->day = number(s, n);
		else if (n == 4 || n == 2)
			p->year = n == 4 ? number(s, n) : number(s, n) + (number(s, n) < 70 ? 2000 : 1900);
		else
			return false;
		return true;
	}
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z')))
			return false;
	for (int m = 0; n == 3 && m < 12; m++)
		if (strncasecmp(s, months + m * 3, 3) == 0)
			p->mon = m + 1;
	return true;
}

long long http_date_parse(const char *s, size_t n)
{
	struct date_parts p = { -1, -1, -1, -1, 0, 0 };
	size_t i = 0;
	long long t;

	while (i < n) {
		size_t j = i;

		while (j < n && s[j] != ' ' && s[j] != ',' && s[j] != '-')
			j++;
		if (!date_word(s + i, j - i, &p))
			return -1;
		i = j + 1;
	}
	if (p.day < 1 || p.day > 31 || p.mon < 0 || p.year < 0 || p.hh < 0)
		return -1;
	t = days_from_civil(p.year, p.mon, p.day) * 86400 + p.hh * 3600 +
	    p.mi * 60 + p.ss;
	return t < 0 ? 0 : t;
}
