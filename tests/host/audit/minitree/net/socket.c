SYSCALL_DEFINE3(socket, int, family, int, type, int, protocol)
{
}
