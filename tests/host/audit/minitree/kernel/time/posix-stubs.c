/* Only CLOCK_REALTIME and CLOCK_MONOTONIC, as the miniature's stub. */
static int do_clock_gettime(clockid_t which_clock, struct timespec64 *tp)
{
	switch (which_clock) {
	case CLOCK_REALTIME:
		break;
	case CLOCK_MONOTONIC:
		break;
	default:
		return -EINVAL;
	}
	return 0;
}

SYSCALL_DEFINE2(clock_gettime, const clockid_t, which_clock,
		struct __kernel_timespec __user *, tp)
{
	return do_clock_gettime(which_clock, &kernel_tp);
}
