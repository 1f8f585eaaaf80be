/* Constant arguments and the audit's pruning (tests/build/audit-constarg.sh).
 * act() makes getppid only when its argument is 2, sched_yield otherwise.
 *   default   every call passes 1: the getppid branch cannot run, and the
 *             audit, which sees the constant at every call, prunes it;
 *   VARIED    one call passes argc: the branch stays (run with one
 *             argument, the program makes getppid);
 *   TAKEN     act's address is taken and the pointer is called with 2:
 *             the calls the audit sees are not all, the branch stays (the
 *             program makes getppid).
 * noipa keeps GCC from specializing act() itself. */
#include <sys/syscall.h>
#include <unistd.h>

__attribute__((noipa)) static long act(int how)
{
	if (how == 2)
		return syscall(SYS_getppid);
	return syscall(SYS_sched_yield);
}

#ifdef TAKEN
static long (*volatile act_ptr)(int) = act;
#endif

int main(int argc, char **argv)
{
	long r = act(1);

	(void)argv;
#if defined(VARIED)
	r |= act(argc);
#elif defined(TAKEN)
	(void)argc;
	r |= act_ptr(2);
#else
	(void)argc;
	r |= act(1);
#endif
	return r < 0 ? 1 : 0;
}
