SYSCALL_DEFINE1(exit, int, error_code)
{
}

SYSCALL_DEFINE1(exit_group, int, error_code)
{
}
