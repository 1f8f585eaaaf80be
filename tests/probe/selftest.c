/* selftest.c - run the kernel's tools/testing/selftests/splice programs the
 * way their shell scripts do, without a shell: stdout into a pipe (splice
 * needs one), stderr into a file. The programs are linked with
 * tests/selftests/splice_trace.c, which prints "splice-trace: ret=N errno=N"
 * on stderr for every splice() they make; that gives the errno even for
 * default_file_splice_read, which ignores it. One line per run:
 * probe: selftest NAME ARGS exit=N bytes=N match=yes|no splice_ret=N splice_errno=NAME
 * and, for splice_family (its own TAP output), one line per stdout line:
 * probe: selftest splice_family stdout: LINE
 */
#include "probe.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define OUT_CAP 8192

struct run {
	int status;              /* exit code, 128+signal, or -1 */
	size_t out_len;          /* bytes the program wrote to stdout */
	unsigned char out[OUT_CAP];
	char err[1024];          /* start of its stderr, NUL-terminated */
};

static void child_exec(const char *prog, char *const argv[], int in, int out,
		       int err)
{
	if (dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0)
		_exit(126);
	execv(prog, argv);
	_exit(127);
}

static int wait_status(pid_t pid)
{
	int st;

	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	return WIFSIGNALED(st) ? 128 + WTERMSIG(st) : -1;
}

static int slurp_err(const char *path, struct run *rn)
{
	size_t n = 0;

	if (read_file(path, (unsigned char *)rn->err, sizeof(rn->err) - 1,
		      &n) < 0)
		return -1;
	rn->err[n < sizeof(rn->err) ? n : sizeof(rn->err) - 1] = '\0';
	return 0;
}

/* Run prog with stdin from in_path; fill rn. */
static int run_prog(const struct probe *pr, const char *prog,
		    char *const argv[], const char *in_path, struct run *rn)
{
	char err_path[PATH_LEN];
	int p[2], in, err;
	pid_t pid;

	if (path_join(err_path, pr->dir, "selftest.err") < 0)
		return -1;
	in = open(in_path, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -1;
	err = open(err_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (err < 0 || pipe2(p, O_CLOEXEC) < 0) {
		close(in);
		if (err >= 0)
			close(err);
		return -1;
	}
	fflush(stdout);
	pid = fork();
	if (pid == 0)
		child_exec(prog, argv, in, p[1], err);
	if (close(p[1]) < 0 || close(in) < 0 || close(err) < 0 || pid < 0) {
		close(p[0]);
		return -1;
	}
	if (read_to_eof(p[0], rn->out, sizeof(rn->out), &rn->out_len) < 0) {
		close(p[0]);
		return -1;
	}
	if (close(p[0]) < 0)
		return -1;
	rn->status = wait_status(pid);
	return slurp_err(err_path, rn);
}

/* First "splice-trace: ret=R errno=E" line on stderr, if any. */
static void parse_trace(const char *err, long *ret, int *eno)
{
	const char *t = strstr(err, "splice-trace: ret=");

	*ret = 0;
	*eno = -1;
	if (!t)
		return;
	if (sscanf(t, "splice-trace: ret=%ld errno=%d", ret, eno) != 2)
		*eno = -1;
}

static void report_run(const char *name, const char *args,
		       const struct run *rn, const unsigned char *want,
		       size_t want_len)
{
	int match = want && rn->out_len == want_len &&
		    memcmp(rn->out, want, want_len) == 0;
	const char *nl = strchr(rn->err, '\n');
	const char *msg = rn->err;
	long sret;
	int eno;

	parse_trace(rn->err, &sret, &eno);
	printf("probe: selftest %s %s exit=%d bytes=%zu match=%s splice_ret=%ld splice_errno=%s\n",
	       name, args, rn->status, rn->out_len, match ? "yes" : "no",
	       sret, eno < 0 ? "none" : errname(eno));
	/* A TAP program (want == NULL): show its stdout, line by line. */
	if (!want) {
		const char *o = (const char *)rn->out, *end = o + rn->out_len;

		while (o < end) {
			const char *e = memchr(o, '\n', (size_t)(end - o));
			int len = (int)((e ? e : end) - o);

			printf("probe: selftest %s stdout: %.*s\n", name, len, o);
			o = e ? e + 1 : end;
		}
	}
	/* Show what the program itself said (its perror), trace lines aside. */
	while (msg && *msg) {
		nl = strchr(msg, '\n');
		if (strncmp(msg, "splice-trace:", 13) != 0)
			printf("probe: selftest %s stderr: %.*s\n", name,
			       nl ? (int)(nl - msg) : (int)strlen(msg), msg);
		msg = nl ? nl + 1 : NULL;
	}
	fflush(stdout);
}

static void run_one(const struct probe *pr, const char *name,
		    const char *in_path, const char *arg1, const char *arg2,
		    const unsigned char *want, size_t want_len)
{
	char prog[PATH_LEN];
	char args[PATH_LEN];
	char *argv[4] = { prog, (char *)arg1, (char *)arg2, NULL };
	struct run *rn = calloc(1, sizeof(*rn));

	snprintf(args, sizeof(args), "%s%s%s",
		 !arg1 ? "</dev/null" : want ? "file" : "dir",
		 arg2 ? " " : "", arg2 ? arg2 : "");
	if (!rn || path_join(prog, pr->stdir, name) < 0 ||
	    run_prog(pr, prog, argv, in_path, rn) < 0) {
		printf("probe: selftest %s %s exit=-1 bytes=0 match=no splice_ret=0 splice_errno=%s\n",
		       name, args, errname(errno));
		fflush(stdout);
	} else {
		report_run(name, args, rn, want, want_len);
	}
	free(rn);
}

/*
 * default_file_splice_read.sh: splice from /dev/null to a pipe must leak
 * nothing. short_splice_read.sh: a full (4096) and a 2-byte splice of a
 * file give its content and its first two bytes; it reads /proc and /sys,
 * which the tiny board has not, so it runs here on a rootfs file.
 * splice_family (the series' new selftest): the five syscalls all ENOSYS
 * or all there, and copy_file_range copies 1 MiB + 1 byte in pr->dir.
 */
void run_selftests(const struct probe *pr)
{
	static const char text[] = "splice selftest on the board\n";
	char path[PATH_LEN];

	if (path_join(path, pr->dir, "short.txt") < 0 ||
	    make_file(path, (const unsigned char *)text, sizeof(text) - 1) < 0) {
		printf("probe: selftest setup failed errno=%s\n",
		       errname(errno));
		return;
	}
	run_one(pr, "default_file_splice_read", "/dev/null", NULL, NULL,
		(const unsigned char *)"", 0);
	run_one(pr, "splice_read", "/dev/null", path, "4096",
		(const unsigned char *)text, sizeof(text) - 1);
	run_one(pr, "splice_read", "/dev/null", path, "2",
		(const unsigned char *)text, 2);
	run_one(pr, "splice_family", "/dev/null", pr->dir, NULL, NULL, 0);
}
