/* probe.h - shared declarations of the splice-family probe. */
#ifndef PROBE_H
#define PROBE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define DATA_LEN 65536u   /* bytes moved by every case */
#define CHUNK 16384u      /* one step of a pipe loop (fits a 64 KiB pipe) */
#define PATH_LEN 256

/* Everything a case needs; no global state. */
struct probe {
	const char *dir;          /* writable work directory */
	const char *stdir;        /* directory holding the selftest programs */
	unsigned char *data;      /* DATA_LEN bytes of the test pattern */
	unsigned char *got;       /* DATA_LEN + 1 bytes of receive buffer */
	char src[PATH_LEN];       /* a file holding data[] */
};

/* The outcome of one case. */
struct result {
	long long ret;   /* bytes the syscall reported in total, -1 on error */
	int err;         /* errno of the failing call, 0 if none */
	size_t bytes;    /* bytes that arrived at the destination */
	int match;       /* 1 if they equal the expected bytes */
	uint64_t hash;   /* FNV-1a of the bytes that arrived */
};

/* util.c */
void fill_pattern(unsigned char *buf, size_t len, uint32_t seed);
uint64_t fnv1a(const unsigned char *buf, size_t len);
const char *errname(int err);
int write_all(int fd, const void *buf, size_t len);
int read_exact(int fd, unsigned char *buf, size_t len);
int read_to_eof(int fd, unsigned char *buf, size_t cap, size_t *n);
int make_file(const char *path, const unsigned char *buf, size_t len);
int read_file(const char *path, unsigned char *buf, size_t cap, size_t *n);
int path_join(char *out, const char *dir, const char *name);
void result_fail(struct result *r, int err);
void result_check(struct result *r, const unsigned char *want, size_t want_len,
		  const unsigned char *got, size_t got_len);
void report(const char *sys, const char *what, size_t want,
	    const struct result *r);

/* net.c; a peer closes 'other' (the probe's end of the pair) first */
int net_setup_lo(void);
int tcp_pair(int *a, int *b);
struct peer {
	pid_t pid;
	int res_fd;  /* sink: reads struct result from here; -1 for a source */
};
int sink_start(int sock, int other, const unsigned char *want, size_t len,
	       unsigned char *buf, struct peer *p);
int sink_finish(struct peer *p, struct result *r);
int source_start(int sock, int other, const unsigned char *data, size_t len,
		 struct peer *p);
int source_finish(struct peer *p);

/* cases.c */
void run_splice_cases(const struct probe *pr);
void run_vmsplice_cases(const struct probe *pr);
void run_tee_cases(const struct probe *pr);
void run_sendfile_cases(const struct probe *pr);
void run_copy_file_range_cases(const struct probe *pr);

/* intr.c */
void run_signal_cases(const struct probe *pr);

/* selftest.c */
void run_selftests(const struct probe *pr);

#endif
