#define AF_UNIX		1
#define AF_INET		2
#define PF_UNIX		AF_UNIX
#define PF_INET		AF_INET
