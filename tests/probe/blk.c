/* blk.c - copy_file_range(2) on a real block device, as /init of the block
 * probe board: the vexpress SD card (MMC_ARMMMCI, QEMU -sd) with ext2, which
 * has no ->copy_file_range, so every copy goes through do_splice_direct():
 * the splice pipe with CONFIG_SYSCALL_SPLICE=y, the bounce copy with =n.
 *
 * One line per case, the same fields on every kernel so that the host can
 * compare a =y run with a =n run line by line:
 * blk: MODE size=N in=OFF out=OFF ret=N errno=NAME copied=N match=yes|no sha256=HEX
 * ret is the last copy_file_range() return (-1: errno is its error), copied
 * the bytes copied in total, match whether the destination file holds
 * exactly the source's bytes there and ends after them (is empty when
 * nothing was copied), sha256 the digest of those destination bytes.
 * A timing line per mode for the 1 MiB + 1 copies (not compared):
 * blk-time: MODE size=N usec=N
 *
 * First of all (it needs procfs only, not the SD card), copy_file_range()
 * from /proc/config.gz, a file with only ->read (proc_reg_file_ops) and a
 * non-zero size, to /proc/self/comm, one with only ->write, in the same
 * file system: do_splice_direct() must refuse it (EINVAL on both kernels),
 * not call a NULL ->read_iter:
 * blk: read-only-fops ret=N errno=NAME
 * Before the cases it runs the series' splice_family selftest on the ext2
 * mount (/splice_family /mnt: its O_DIRECT cases need a file system with
 * direct I/O, its io_uring case a kernel with io_uring), whose TAP lines go
 * to the console as they are, then:
 * blk: selftest exit=N
 */
#include "probe.h"
#include "sha256.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MNT "/mnt"
#define SRC MNT "/src.bin"
#define DST MNT "/dst.bin"
#define BIG (1024u * 1024u + 1u)
#define MAX_OFF 8192u
#define SRC_LEN (BIG + MAX_OFF)

struct mode {
	const char *name;
	int in_flags;
	int out_flags;
};

static const struct mode modes[] = {
	{ "plain", 0, 0 },
	{ "direct-in", O_DIRECT, 0 },
	{ "direct-out", 0, O_DIRECT },
	{ "direct-both", O_DIRECT, O_DIRECT },
	{ "sync-out", 0, O_SYNC },
};
static const size_t sizes[] = { 0, 1, 4095, 4096, BIG };
static const loff_t offs[][2] = { { 0, 0 }, { 4096, 8192 }, { 512, 1536 }, { 1, 3 } };

static long long now_usec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static void run_case(const struct mode *m, const unsigned char *data,
		     unsigned char *got, size_t size, loff_t in, loff_t out)
{
	loff_t oi = in, oo = out;
	long long ret = 0, t;
	size_t copied = 0, n = 0;
	int src, dst, err = 0, match;
	struct sha256 s;
	char hex[65];

	unlink(DST);
	src = open(SRC, O_RDONLY | m->in_flags);
	dst = open(DST, O_WRONLY | O_CREAT | O_TRUNC | m->out_flags, 0644);
	if (src < 0 || dst < 0) {
		printf("blk: %s size=%zu in=%lld out=%lld open failed errno=%s\n",
		       m->name, size, (long long)in, (long long)out,
		       errname(errno));
		goto out;
	}
	t = now_usec();
	while (copied < size) {
		ret = syscall(__NR_copy_file_range, src, &oi, dst, &oo,
			      size - copied, 0);
		if (ret <= 0) {
			err = ret < 0 ? errno : 0;
			break;
		}
		copied += (size_t)ret;
	}
	t = now_usec() - t;
	if (fsync(dst) < 0 && !err)
		err = errno;
	close(dst);
	dst = -1;
	if (read_file(DST, got, SRC_LEN, &n) < 0)
		n = 0;
	/* nothing copied: the new file stays empty; else it ends there */
	match = copied ? n == (size_t)out + copied &&
			 memcmp(got + out, data + in, copied) == 0 :
			 n == 0;
	sha256_init(&s);
	if (n >= (size_t)out + copied)
		sha256_update(&s, got + out, copied);
	sha256_hex(&s, hex);
	printf("blk: %s size=%zu in=%lld out=%lld ret=%lld errno=%s copied=%zu match=%s sha256=%s\n",
	       m->name, size, (long long)in, (long long)out, ret,
	       errname(err), copied, match ? "yes" : "no", hex);
	if (size == BIG && in == 0 && out == 0)
		printf("blk-time: %s size=%zu usec=%lld\n", m->name, size, t);
out:
	if (src >= 0)
		close(src);
	if (dst >= 0)
		close(dst);
	fflush(stdout);
}

/* The series' selftest on the ext2 mount; its TAP output goes to stdout. */
static void run_selftest(void)
{
	int status = 0;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		execl("/splice_family", "splice_family", MNT, (char *)NULL);
		printf("blk: selftest exec errno=%s\n", errname(errno));
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid) {
		printf("blk: selftest exit=-1 errno=%s\n", errname(errno));
		return;
	}
	printf("blk: selftest exit=%d\n",
	       WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
}

/*
 * copy_file_range() between two procfs files that have only ->read and
 * only ->write: the copy reaches do_splice_direct() (same file system, no
 * ->copy_file_range), which must answer EINVAL as the splice version does.
 */
static void read_only_fops_case(void)
{
	int in = -1, out = -1, err = 0;
	long ret = -1;

	mkdir("/proc", 0555);
	if (mount("proc", "/proc", "proc", 0, NULL) < 0 && errno != EBUSY)
		err = errno;
	if (!err) {
		in = open("/proc/config.gz", O_RDONLY);
		out = open("/proc/self/comm", O_WRONLY);
		if (in < 0 || out < 0)
			err = errno;
	}
	if (!err) {
		ret = syscall(__NR_copy_file_range, in, NULL, out, NULL, 64, 0);
		err = ret < 0 ? errno : 0;
	}
	printf("blk: read-only-fops ret=%ld errno=%s\n", ret, errname(err));
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
}

static void finish(void)
{
	printf("blk: done\n");
	fflush(stdout);
	sync();
	umount(MNT);
	if (getpid() == 1) {
		reboot(RB_POWER_OFF);
		for (;;)
			pause();
	}
}

int main(void)
{
	unsigned char *data = malloc(SRC_LEN), *got = malloc(SRC_LEN);
	size_t mi, si, oi;

	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("blk: start\n");
	read_only_fops_case();
	mkdir(MNT, 0755);
	if (!data || !got ||
	    mount("/dev/mmcblk0", MNT, "ext2", 0, NULL) < 0) {
		printf("blk: setup failed errno=%s\n", errname(errno));
		finish();
		return 1;
	}
	printf("blk: splice errno=%s\n",
	       errname(syscall(__NR_splice, -1, NULL, -1, NULL, 1, 0) < 0 ?
		       errno : 0));
	fill_pattern(data, SRC_LEN, 0xb10cu);
	if (make_file(SRC, data, SRC_LEN) < 0) {
		printf("blk: cannot write %s errno=%s\n", SRC, errname(errno));
		finish();
		return 1;
	}
	run_selftest();
	for (mi = 0; mi < sizeof(modes) / sizeof(modes[0]); mi++)
		for (si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++)
			for (oi = 0; oi < sizeof(offs) / sizeof(offs[0]); oi++)
				run_case(&modes[mi], data, got, sizes[si],
					 offs[oi][0], offs[oi][1]);
	free(data);
	free(got);
	finish();
	return 0;
}
