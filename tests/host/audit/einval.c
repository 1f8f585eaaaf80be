/* einval.c: lighttpd's test after sendfile (chunk.c,
 * chunkqueue_write_chunk() in 1.4.69: `if (errno != EINVAL && errno !=
 * ENOSYS) fail; else fall back`), for tests/build/audit-enosys.sh. Never
 * run, only audited. gcc folds the two compares into `sub r3, r3, #22;
 * bics r3, r3, #16; bne` (x - 22 with bit 4 cleared is 0 only for 22 and
 * 38). The audit must find that test (the branch taken when it is 0 covers
 * ENOSYS) and the pread/write on that branch: "fallback". */
#include <errno.h>
#include <stdbool.h>
#include <sys/sendfile.h>
#include <unistd.h>

struct job {
	int sock, fd;
	off_t ofs;
	size_t left;
	bool no_sendfile;
};

static ssize_t copy_rw(struct job *j)
{
	char buf[512];
	size_t want = j->left < sizeof(buf) ? j->left : sizeof(buf);
	ssize_t r = pread(j->fd, buf, want, j->ofs);

	if (r <= 0)
		return r;
	return write(j->sock, buf, (size_t)r);
}

static int send_step(struct job *j)
{
	ssize_t n;

	if (j->no_sendfile)
		n = copy_rw(j);
	else
		n = sendfile(j->sock, j->fd, &j->ofs, j->left);
	if (n < 0) {
		if (j->no_sendfile || (errno != EINVAL && errno != ENOSYS))
			return -1;
		j->no_sendfile = true;
		return 0;
	}
	if (j->no_sendfile)
		j->ofs += n;
	j->left -= (size_t)n;
	return 0;
}

int main(void)
{
	struct job j = { .sock = 1, .fd = 0, .left = 4096 };

	while (j.left > 0) {
		if (send_step(&j) != 0)
			return 1;
	}
	return 0;
}
