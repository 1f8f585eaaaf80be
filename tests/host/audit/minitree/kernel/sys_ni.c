COND_SYSCALL(futex_time32);
COND_SYSCALL(epoll_wait);
COND_SYSCALL(socket);
COND_SYSCALL(timer_create);
