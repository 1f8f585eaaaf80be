/* condwait.c: waits on a condition variable with a deadline, for
 * tests/build/audit-cond.sh. musl's __pthread_cond_timedwait (libc.a of
 * musl-dev:armel) makes futex with r7 = 240, tests the result against
 * -ENOSYS, and on that path makes it again with r7 unchanged; a
 * conditional `addne r7, sp, #36` between them runs only on the other
 * path. */
#include <errno.h>
#include <pthread.h>
#include <time.h>

int main(void)
{
	pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
	pthread_cond_t c = PTHREAD_COND_INITIALIZER;
	struct timespec ts = { 0, 0 };
	int e;

	if (pthread_mutex_lock(&m) != 0)
		return 1;
	e = pthread_cond_timedwait(&c, &m, &ts);
	if (pthread_mutex_unlock(&m) != 0)
		return 1;
	return e == ETIMEDOUT ? 0 : 1;
}
