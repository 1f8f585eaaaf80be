/* exitonly.c: sendfile's errno is tested for ENOSYS, but the ENOSYS branch
 * only prints a message and exits, for tests/build/audit-enosys.sh. Never
 * run, only audited. A compare alone is no fallback: the audit must answer
 * "no fallback proven". */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/sendfile.h>

int main(void)
{
	off_t ofs = 0;
	ssize_t n = sendfile(1, 0, &ofs, 4096);

	if (n < 0 && errno == ENOSYS) {
		fputs("no sendfile\n", stderr);
		exit(1);
	}
	return n < 0;
}
