/* setuid.c: a program that only drops privileges, for
 * tests/build/audit-unresolved.sh. musl's setuid() passes SYS_setuid32 through
 * __setxid() and __synccall(); the number reaches r7 from a struct. */
#include <unistd.h>

int main(void)
{
	return setuid(65534) != 0;
}
