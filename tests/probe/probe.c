/* probe.c - exercise splice, vmsplice, tee, sendfile, sendfile64 and
 * copy_file_range (also interrupted by a signal: intr.c) and print one
 * machine-readable line per case.
 *
 * As /init of a test initramfs (pid 1) it brings up lo, works in /probe,
 * runs the selftests from /selftests, prints "probe: done" and powers the
 * board off. Run by hand (any other pid) it works in a fresh directory
 * under $TMPDIR (default /tmp), takes the selftest directory as argv[1],
 * leaves the network alone and just exits.
 */
#include "probe.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <unistd.h>

#define INIT_DIR "/probe"
#define INIT_SELFTESTS "/selftests"

static int setup_dir(int as_init, char *dir)
{
	const char *tmp = getenv("TMPDIR");

	if (as_init) {
		strcpy(dir, INIT_DIR);
		if (mkdir(dir, 0755) < 0 && errno != EEXIST)
			return -1;
		return 0;
	}
	if (snprintf(dir, PATH_LEN, "%s/probe.XXXXXX", tmp ? tmp : "/tmp") >=
	    PATH_LEN)
		return -1;
	return mkdtemp(dir) ? 0 : -1;
}

static int setup(struct probe *pr, int as_init, char *dir)
{
	if (setup_dir(as_init, dir) < 0)
		return -1;
	pr->dir = dir;
	pr->data = malloc(DATA_LEN);
	pr->got = malloc(DATA_LEN + 1);
	if (!pr->data || !pr->got)
		return -1;
	fill_pattern(pr->data, DATA_LEN, 0x5eed1234u);
	if (path_join(pr->src, dir, "src.bin") < 0)
		return -1;
	return make_file(pr->src, pr->data, DATA_LEN);
}

/* By hand, leave nothing behind in $TMPDIR (as init the rootfs goes away). */
static void cleanup(const struct probe *pr)
{
	static const char *const names[] = {
		"src.bin", "splice.out", "sendfile.out", "sendfile64.out",
		"cfr.out", "short.txt", "selftest.err",
	};
	char path[PATH_LEN];
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (path_join(path, pr->dir, names[i]) == 0 &&
		    unlink(path) < 0 && errno != ENOENT)
			printf("probe: cannot remove %s errno=%s\n", path,
			       errname(errno));
	if (rmdir(pr->dir) < 0)
		printf("probe: cannot remove %s errno=%s\n", pr->dir,
		       errname(errno));
}

static void finish(int as_init)
{
	printf("probe: done\n");
	fflush(stdout);
	if (!as_init)
		return;
	sync();
	if (reboot(RB_POWER_OFF) < 0)
		printf("probe: reboot(RB_POWER_OFF) failed errno=%s\n",
		       errname(errno));
	fflush(stdout);
	for (;;)
		pause();   /* init must not exit; the host's timeout ends QEMU */
}

int main(int argc, char **argv)
{
	int as_init = getpid() == 1;
	char dir[PATH_LEN];
	struct probe pr;

	memset(&pr, 0, sizeof(pr));
	setvbuf(stdout, NULL, _IOLBF, 0);
	pr.stdir = argc > 1 ? argv[1] : INIT_SELFTESTS;
	printf("probe: start pid=%d dir=%s\n", (int)getpid(),
	       as_init ? INIT_DIR : "$TMPDIR");
	if (setup(&pr, as_init, dir) < 0) {
		printf("probe: setup failed errno=%s\n", errname(errno));
		finish(as_init);
		return 1;
	}
	if (as_init) {
		int rc = net_setup_lo();

		printf("probe: net lo-up ret=%d errno=%s\n", rc,
		       errname(rc < 0 ? errno : 0));
	}
	run_splice_cases(&pr);
	run_vmsplice_cases(&pr);
	run_tee_cases(&pr);
	run_sendfile_cases(&pr);
	run_copy_file_range_cases(&pr);
	run_signal_cases(&pr);
	run_selftests(&pr);
	free(pr.data);
	free(pr.got);
	if (!as_init)
		cleanup(&pr);
	finish(as_init);
	return 0;
}
