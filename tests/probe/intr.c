/* intr.c - copy_file_range(2) of a large file interrupted by a signal.
 *
 * One call copies INTR_LEN bytes on the root file system (no
 * ->copy_file_range of its own: the copy goes through do_splice_direct())
 * while a child process sends SIGALRM every INTR_TICK_NS, to a handler
 * installed without SA_RESTART. (A child and nanosleep(), not setitimer():
 * the board's tiny kernels have no POSIX_TIMERS, so setitimer() and
 * alarm() answer ENOSYS there.) With splice built in, the copy notices the
 * pending signal between two rounds of its pipe (splice_from_pipe_next()
 * answers -ERESTARTSYS) and returns the bytes copied so far, or fails with
 * EINTR if there are none; without splice, the series' bounce copy must do
 * the same. A full copy means the signal was ignored.
 *
 * Line: probe: copy_file_range signal want=N ret=N errno=NAME bytes=N
 *       match=yes|no fnv1a=HEX
 * then: probe: copy_file_range signal signals=N inpos=N outpos=N
 * bytes is the size of the destination, match says whether it equals the
 * first bytes of the source and ret (or 0 after EINTR) is that size. */
#include "probe.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define INTR_COPIES 128u                       /* of data[]: 8 MiB */
#define INTR_LEN (INTR_COPIES * DATA_LEN)
#define INTR_TICK_NS 5000000L                  /* signal period, 5 ms */

/* The one global a signal handler needs: how many SIGALRMs arrived. */
static volatile sig_atomic_t intr_signals;

static void on_alarm(int sig)
{
	(void)sig;
	intr_signals++;
}

/* The source: data[] INTR_COPIES times. */
static int make_big_file(const struct probe *pr, const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	unsigned int i;
	int rc = 0;

	if (fd < 0)
		return -1;
	for (i = 0; i < INTR_COPIES && rc == 0; i++)
		rc = write_all(fd, pr->data, DATA_LEN);
	if (close(fd) < 0)
		rc = -1;
	return rc;
}

/* Read up to len bytes; fewer only at end of file. */
static ssize_t read_upto(int fd, unsigned char *buf, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = read(fd, buf + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		done += (size_t)n;
	}
	return (ssize_t)done;
}

/* Compare the destination, chunk by chunk, with the source's first want
 * bytes (data[] repeated); fnv1a is not computed here (0). */
static void check_big_file(const struct probe *pr, const char *path,
			   size_t want, struct result *r)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	r->bytes = 0;
	r->hash = 0;
	r->match = 0;
	if (fd < 0) {
		result_fail(r, errno);
		return;
	}
	r->match = 1;
	while ((n = read_upto(fd, pr->got, DATA_LEN)) > 0) {
		if (memcmp(pr->got, pr->data, (size_t)n) != 0)
			r->match = 0;
		r->bytes += (size_t)n;
	}
	if (n < 0) {
		result_fail(r, errno);
		r->match = 0;
	}
	if (close(fd) < 0 && r->err == 0)
		result_fail(r, errno);
	if (r->bytes != want)
		r->match = 0;
}

/* The child: SIGALRM to the parent as soon as it runs (while the parent
 * copies: the copy's page cache writes reach cond_resched() for every
 * page), then every INTR_TICK_NS until killed. */
static void ticker(pid_t parent)
{
	const struct timespec tick = { .tv_sec = 0, .tv_nsec = INTR_TICK_NS };

	for (;;) {
		if (kill(parent, SIGALRM) < 0)
			_exit(1);
		nanosleep(&tick, NULL);
	}
}

/* One copy_file_range() of the whole source while the child ticks. */
static long copy_under_signals(int in, int out, int *err)
{
	pid_t parent = getpid(), child;
	long k;

	intr_signals = 0;
	child = fork();
	if (child < 0) {
		*err = errno;
		return -2;
	}
	if (child == 0)
		ticker(parent);
	k = syscall(SYS_copy_file_range, in, NULL, out, NULL,
		    (size_t)INTR_LEN, 0u);
	*err = k < 0 ? errno : 0;
	if (kill(child, SIGKILL) < 0 || waitpid(child, NULL, 0) < 0) {
		if (*err == 0)
			*err = errno;
		return -2;
	}
	return k;
}

static void intr_copy(const struct probe *pr, const char *src,
		      const char *dst, struct result *r)
{
	long long inpos = -1, outpos = -1;
	int in = open(src, O_RDONLY | O_CLOEXEC);
	int out = open(dst, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	int err = 0;
	long k;

	if (in < 0 || out < 0) {
		result_fail(r, errno);
	} else {
		k = copy_under_signals(in, out, &err);
		if (k < 0)
			result_fail(r, err);
		else
			r->ret = k;
		inpos = lseek(in, 0, SEEK_CUR);
		outpos = lseek(out, 0, SEEK_CUR);
	}
	if (in >= 0 && close(in) < 0 && r->err == 0)
		result_fail(r, errno);
	if (out >= 0 && close(out) < 0 && r->err == 0)
		result_fail(r, errno);
	check_big_file(pr, dst, r->ret > 0 ? (size_t)r->ret : 0, r);
	report("copy_file_range", "signal", INTR_LEN, r);
	printf("probe: copy_file_range signal signals=%d inpos=%lld outpos=%lld\n",
	       (int)intr_signals, inpos, outpos);
	fflush(stdout);
}

void run_signal_cases(const struct probe *pr)
{
	struct sigaction sa, old;
	struct result r = { 0 };
	char src[PATH_LEN], dst[PATH_LEN];

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0;                       /* no SA_RESTART */
	if (path_join(src, pr->dir, "intr.src") < 0 ||
	    path_join(dst, pr->dir, "intr.out") < 0 ||
	    make_big_file(pr, src) < 0 || sigaction(SIGALRM, &sa, &old) < 0) {
		result_fail(&r, errno);
		report("copy_file_range", "signal", INTR_LEN, &r);
	} else {
		intr_copy(pr, src, dst, &r);
		if (sigaction(SIGALRM, &old, NULL) < 0)
			printf("probe: sigaction restore errno=%s\n",
			       errname(errno));
	}
	/* 16 MiB of a 32 MiB board: give the room back at once. */
	if (unlink(src) < 0 && errno != ENOENT)
		printf("probe: cannot remove %s errno=%s\n", src, errname(errno));
	if (unlink(dst) < 0 && errno != ENOENT)
		printf("probe: cannot remove %s errno=%s\n", dst, errname(errno));
}
