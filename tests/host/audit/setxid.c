/* setxid.c: drops group and user privileges, for
 * tests/build/audit-unresolved.sh. musl's setgid() and setuid() both reach
 * do_setxid through __setxid() and __synccall(); its svc takes the number
 * from __setxid's stack (setgid32 or setuid32), with --all-sites too. */
#include <unistd.h>

int main(void)
{
	if (setgid(65534) != 0)
		return 1;
	return setuid(65534) != 0;
}
