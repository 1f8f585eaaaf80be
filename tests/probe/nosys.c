/* nosys.c - /init of the allowlist probe: on a kernel built with
 * CONFIG_SYSCALL_ALLOWLIST (kernel/6.12/patches), every entry of the
 * syscall table that the list does not keep must answer ENOSYS.
 *
 * The entries to check are compiled in (nosys-table.h, written by
 * tests/probe/nosys-table.sh from the kernel's syscall.tbl and the list
 * it was built with): the probe itself then makes only write, reboot and
 * what musl's start-up makes, all of which the init program makes too, so
 * it runs on a kernel trimmed to init's syscalls. For every entry it makes
 * the call with every argument 0 and prints
 *   nosys: NAME nr=N ret=R errno=E
 * when the call does not fail with ENOSYS, then one line:
 *   nosys: checked=N enosys=N other=N
 * and powers the board off. A call the kernel still has may do anything
 * with zero arguments (exit, pause): that case shows as a missing summary
 * line, which fails the test as surely.
 */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/reboot.h>
#include <unistd.h>

struct entry {
	long nr;
	const char *name;
};

struct tally {
	unsigned checked;
	unsigned enosys;
	unsigned other;
};

#include "nosys-table.h"

/* One line on the console with write(2) only: stdio would add writev and
 * ioctl, which the kernel under test need not have. */
__attribute__((format(printf, 1, 2)))
static void say(const char *fmt, ...)
{
	char buf[160];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(buf))
		n = sizeof(buf) - 1;
	if (write(STDOUT_FILENO, buf, (size_t)n) != n)
		return; /* nowhere left to report it */
}

static void check_one(const struct entry *e, struct tally *t)
{
	long ret;

	errno = 0;
	ret = syscall(e->nr, 0L, 0L, 0L, 0L, 0L, 0L);
	t->checked++;
	if (ret == -1 && errno == ENOSYS) {
		t->enosys++;
		return;
	}
	t->other++;
	say("nosys: %s nr=%ld ret=%ld errno=%d\n", e->name, e->nr, ret,
	    ret == -1 ? errno : 0);
}

int main(void)
{
	struct tally t = { 0, 0, 0 };
	size_t i;

	for (i = 0; i < sizeof(nosys_entries) / sizeof(nosys_entries[0]); i++)
		check_one(&nosys_entries[i], &t);
	say("nosys: checked=%u enosys=%u other=%u\n", t.checked, t.enosys,
	    t.other);
	if (reboot(RB_POWER_OFF) != 0)
		say("nosys: reboot: errno=%d\n", errno);
	return 1;
}
