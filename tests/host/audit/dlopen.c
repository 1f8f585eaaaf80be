/* dlopen.c: a program that loads the module named on its command line,
 * for tests/build/audit-accounted.sh: what the module does is not in the
 * program, so the audit cannot account for it. */
#include <dlfcn.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	void *h;

	if (argc < 2)
		return 2;
	h = dlopen(argv[1], RTLD_NOW);
	if (!h) {
		fprintf(stderr, "dlopen: %s\n", dlerror());
		return 1;
	}
	return dlclose(h) != 0;
}
