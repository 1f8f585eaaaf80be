/* app_wrap_sysinfo.c - test double: the server linked with
 * -Wl,--wrap=sysinfo, so the host looks like a small board.
 *   WRAP_SYSINFO_TOTAL_K  total RAM to report, KiB (default 30280: the
 *                         32 MiB board's banner in app/README.md)
 *   WRAP_SYSINFO_FILE     a file holding the free RAM to report, KiB; read
 *                         on every call, so a test can lower and raise it
 *                         while the server runs (default 26564)
 *   WRAP_SYSINFO_SLEEP_FILE  a file holding how long each call takes, ms;
 *                         read on every call (default, and no file: 0),
 *                         so a test can make the loop stall where the
 *                         server samples its RAM, as a loaded board can
 * mem_unit is 1024, so the server's KiB figures are these numbers. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysinfo.h>
#include <time.h>

int __real_sysinfo(struct sysinfo *si);
int __wrap_sysinfo(struct sysinfo *si);

/* The number in the file named by env, or dflt. */
static unsigned long from_file(const char *env, unsigned long dflt)
{
	const char *path = getenv(env);
	unsigned long v = dflt;
	FILE *f = path ? fopen(path, "r") : NULL;

	if (f) {
		if (fscanf(f, "%lu", &v) != 1)
			v = dflt;
		if (fclose(f) != 0)
			v = dflt;
	}
	return v;
}

static void stall(void)
{
	unsigned long ms = from_file("WRAP_SYSINFO_SLEEP_FILE", 0);
	struct timespec ts = { .tv_sec = (time_t)(ms / 1000),
			       .tv_nsec = (long)(ms % 1000) * 1000000L };

	while (ms && nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

int __wrap_sysinfo(struct sysinfo *si)
{
	const char *total = getenv("WRAP_SYSINFO_TOTAL_K");
	int r = __real_sysinfo(si);

	if (r != 0)
		return r;
	stall();
	si->mem_unit = 1024;
	si->totalram = total ? strtoul(total, NULL, 10) : 30280;
	si->freeram = from_file("WRAP_SYSINFO_FILE", 26564);
	return 0;
}
