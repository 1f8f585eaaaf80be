/* peer-init.c - init for the peer boards (make peers): starts a third-party
 * server and stays PID 1 beside it.
 *
 * The kernel has brought the network up (ip= on the command line, IP_PNP) and
 * opened the console as fds 0-2. /peer-cmd holds the server's argv, one word
 * a line. peer-init forks, the child execs the server (console as its
 * stdio), and peer-init reads the console:
 *   stats     "peer-init: stats: RAM N KiB total, M KiB free" (sysinfo)
 *   poweroff  SIGTERM to the server, sync, power off
 * It reaps every child it inherits and says when the server ends. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/reboot.h>
#include <sys/sysinfo.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_ARGS 16

static void say(const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (n > (int)sizeof(buf) - 2)
		n = (int)sizeof(buf) - 2;
	buf[n++] = '\n';
	if (write(STDOUT_FILENO, "peer-init: ", 11) < 0 || write(STDOUT_FILENO, buf, (size_t)n) < 0)
		return; /* nowhere else to say it */
}

/* Read /peer-cmd into buf, split at newlines into argv; returns argc. */
static int read_cmd(char *buf, size_t size, char **argv)
{
	int fd = open("/peer-cmd", O_RDONLY | O_CLOEXEC);
	ssize_t n;
	int argc = 0;

	if (fd < 0) {
		say("open /peer-cmd: %s", strerror(errno));
		return -1;
	}
	n = read(fd, buf, size - 1);
	if (close(fd) != 0 || n <= 0) {
		say("read /peer-cmd: %s", n < 0 ? strerror(errno) : "empty");
		return -1;
	}
	buf[n] = '\0';
	for (char *p = strtok(buf, "\n"); p && argc < MAX_ARGS; p = strtok(NULL, "\n"))
		argv[argc++] = p;
	argv[argc] = NULL;
	return argc;
}

static pid_t start(char **argv)
{
	pid_t pid = fork();

	if (pid < 0) {
		say("fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		execv(argv[0], argv);
		say("exec %s: %s", argv[0], strerror(errno));
		_exit(127);
	}
	say("started %s (pid %d)", argv[0], (int)pid);
	return pid;
}

static void stats(void)
{
	struct sysinfo si;

	if (sysinfo(&si) != 0) {
		say("stats: sysinfo: %s", strerror(errno));
		return;
	}
	say("stats: RAM %llu KiB total, %llu KiB free",
	    (unsigned long long)si.totalram * si.mem_unit / 1024,
	    (unsigned long long)si.freeram * si.mem_unit / 1024);
}

/* Reap what has ended; *server becomes 0 once the server has. */
static void reap(pid_t *server)
{
	int st;
	pid_t pid;

	while ((pid = waitpid(-1, &st, WNOHANG)) > 0) {
		if (pid != *server)
			continue;
		if (WIFEXITED(st))
			say("server exited with status %d", WEXITSTATUS(st));
		else
			say("server killed by signal %d", WIFSIGNALED(st) ? WTERMSIG(st) : 0);
		*server = 0;
	}
}

static _Noreturn void poweroff(pid_t server)
{
	if (server > 0 && kill(server, SIGTERM) != 0)
		say("kill: %s", strerror(errno));
	say("powering off");
	sync();
	if (reboot(RB_POWER_OFF) != 0)
		say("reboot: %s", strerror(errno));
	for (;;)
		pause();
}

/* One console line: a command or nothing. */
static void command(const char *line, pid_t server)
{
	if (strcmp(line, "stats") == 0)
		stats();
	else if (strcmp(line, "poweroff") == 0)
		poweroff(server);
	else if (line[0] != '\0')
		say("unknown command (try: stats, poweroff)");
}

int main(void)
{
	static char cmd[1024], line[128];
	char *argv[MAX_ARGS + 1];
	size_t used = 0;
	pid_t server;

	if (read_cmd(cmd, sizeof(cmd), argv) < 1)
		poweroff(0);
	stats();
	server = start(argv);
	for (;;) {
		struct pollfd p = { .fd = STDIN_FILENO, .events = POLLIN };
		int r = poll(&p, 1, 200);
		ssize_t n;

		reap(&server);
		if (r < 0 && errno != EINTR) {
			say("poll: %s", strerror(errno));
			poweroff(server);
		}
		if (r <= 0 || !(p.revents & (POLLIN | POLLHUP)))
			continue;
		n = read(STDIN_FILENO, line + used, sizeof(line) - 1 - used);
		if (n <= 0) {
			if (poll(NULL, 0, 200) < 0 && errno != EINTR)
				say("poll: %s", strerror(errno));
			continue; /* a console at EOF: do not spin */
		}
		used += (size_t)n;
		line[used] = '\0';
		for (char *nl; (nl = strpbrk(line, "\r\n")) != NULL;) {
			*nl = '\0';
			command(line, server);
			used -= (size_t)(nl + 1 - line);
			memmove(line, nl + 1, used + 1);
		}
		if (used == sizeof(line) - 1)
			used = 0; /* a line too long: drop it */
	}
}
