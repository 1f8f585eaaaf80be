/* app_wrap_sysinfo.c - test double: the server linked with
 * -Wl,--wrap=sysinfo, so the host looks like a small board.
 *   WRAP_SYSINFO_TOTAL_K  total RAM to report, KiB (default 30280: the
 *                         32 MiB board's banner in app/README.md)
 *   WRAP_SYSINFO_FILE     a file holding the free RAM to report, KiB; read
 *                         on every call, so a test can lower and raise it
 *                         while the server runs (default 26564)
 * mem_unit is 1024, so the server's KiB figures are these numbers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysinfo.h>

int __real_sysinfo(struct sysinfo *si);
int __wrap_sysinfo(struct sysinfo *si);

static unsigned long free_k(void)
{
	const char *path = getenv("WRAP_SYSINFO_FILE");
	unsigned long v = 26564;
	FILE *f = path ? fopen(path, "r") : NULL;

	if (f) {
		if (fscanf(f, "%lu", &v) != 1)
			v = 26564;
		if (fclose(f) != 0)
			v = 26564;
	}
	return v;
}

int __wrap_sysinfo(struct sysinfo *si)
{
	const char *total = getenv("WRAP_SYSINFO_TOTAL_K");
	int r = __real_sysinfo(si);

	if (r != 0)
		return r;
	si->mem_unit = 1024;
	si->totalram = total ? strtoul(total, NULL, 10) : 30280;
	si->freeram = free_k();
	return 0;
}
