/* conn.c - the per-connection state machine:
 *   READ  -> (request parsed) -> HEAD -> BODY -> READ (keep-alive)
 *                                          \-> DRAIN (close) -> closed */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cond.h"
#include "conn.h"
#include "fsopen.h"
#include "httpdate.h"
#include "listing.h"
#include "log.h"
#include "mime.h"
#include "range.h"
#include "response.h"

#define STEP_NEXT (-1) /* state changed: run the next step at once */

static void close_fd(int *fd)
{
	if (*fd >= 0 && close(*fd) != 0 && errno != EINTR)
		log_msg("close: %s", strerror(errno));
	*fd = -1;
}

void conn_open(struct conn *c, int fd, unsigned addr, const char *peer,
	       const struct conn_env *env)
{
	c->fd = fd;
	c->addr = addr;
	c->state = CONN_READ;
	c->deadline_ms = env->now_ms + env->timeout_ms;
	snprintf(c->peer, sizeof(c->peer), "%s", peer);
	c->in_len = 0;
	c->scanned = 0;
	c->out_len = c->out_sent = c->head_len = 0;
	c->job.file_fd = -1;
	c->list.fd = -1;
	c->status = 0;
	c->progress_ms = env->waited_ms;
}

static const char *via_name(const struct conn *c)
{
	const char *via = xfer_via_name(c->job.via);

	if (via)
		return via;
	return c->mem_body > 0 ? "memory" : "-";
}

static long long body_sent(const struct conn *c)
{
	return c->mem_body + (long long)(c->file_body - c->job.left);
}

/* The request log line: client method path status bytes via. */
static void log_request(const struct conn *c, const char *note)
{
	log_msg("%s %s %s %d %lld %s%s", c->peer,
		c->method[0] ? c->method : "-", c->target[0] ? c->target : "-",
		c->status, body_sent(c), via_name(c), note);
}

static void set_error(struct conn *c, const struct conn_env *env, int status,
		      bool keep_alive, off_t total)
{
	struct resp_head h = { .status = status, .total = total,
			       .date = env->date, .keep_alive = keep_alive };

	c->keep_alive = keep_alive;
	c->status = status;
	c->head_len = 0;
	c->out_len = resp_error(c->out, sizeof(c->out), &h, c->head, &c->head_len);
}

/* Append the next piece of the index to out: a chunk (HTTP/1.1) or raw
 * bytes (HTTP/1.0, the close ends the body); the last chunk after the
 * page. -1 when the folder cannot be read. */
static int list_piece(struct conn *c, const struct conn_env *env)
{
	size_t pre = c->chunked ? 5 : 0, post = c->chunked ? 2 : 0;
	char *p = c->out + c->out_len;
	long n;

	if (sizeof(c->out) - c->out_len < pre + post + LISTING_PIECE_MIN)
		return 0; /* not now: the rest of out goes first */
	n = listing_next(&c->list, env->status, p + pre,
			 sizeof(c->out) - c->out_len - pre - post);
	if (n < 0) {
		log_msg("%s index: %s", c->peer, strerror(errno));
		return -1;
	}
	if (n == 0) {
		listing_close(&c->list);
		if (c->chunked) {
			memcpy(p, "0\r\n\r\n", 5);
			c->out_len += 5;
		}
		return 0;
	}
	if (c->chunked) {
		static const char hex[] = "0123456789abcdef";

		/* n < 4096: three hex digits (leading zeros are allowed) */
		p[0] = hex[(n >> 8) & 15];
		p[1] = hex[(n >> 4) & 15];
		p[2] = hex[n & 15];
		memcpy(p + 3, "\r\n", 2);
		memcpy(p + pre + n, "\r\n", 2);
	}
	c->out_len += pre + (size_t)n + post;
	if (env->min_rate)
		c->cap_ms += (long long)(pre + (size_t)n + post) * 1000 / env->min_rate;
	return 0;
}

/* Keep path at the end of in[] while the index is sent: nothing is read
 * then, and what follows the request (consumed bytes, which hold its
 * target, so more than the decoded path and its NUL) ends before it. */
static const char *keep_path(struct conn *c, const char *path, size_t consumed)
{
	size_t n = strlen(path) + 1;
	char *at = c->in + sizeof(c->in) - n;

	if (n > consumed || c->in_len - consumed > sizeof(c->in) - n)
		return ""; /* cannot happen (see above); the links then lack it */
	memcpy(at, path, n);
	return at;
}

/* A folder: its index, streamed (chunked on HTTP/1.1, close-delimited on
 * HTTP/1.0), so it has no length and costs one piece of out[] at a time. */
static void serve_listing(struct conn *c, const struct conn_env *env, int dirfd,
			  const struct http_request *req, size_t consumed)
{
	struct resp_head h = { .status = 200, .type = "text/html; charset=utf-8",
			       .date = env->date, .chunked = !req->http10,
			       .no_length = true };

	if (req->http10)
		c->keep_alive = false;
	h.keep_alive = c->keep_alive;
	c->status = 200;
	c->head_len = c->out_len = resp_format(c->out, sizeof(c->out), &h);
	if (c->head || c->out_len == 0) {
		if (close(dirfd) != 0 && errno != EINTR)
			log_msg("close: %s", strerror(errno));
		return;
	}
	c->chunked = !req->http10;
	listing_start(&c->list, dirfd, keep_path(c, req->path, consumed));
}

/* The file's validators: a strong ETag from inode, size and mtime (to the
 * nanosecond), and Last-Modified, never later than the clock when there
 * is one (RFC 9110 8.8.2.1). */
static void validators(const struct stat *st, const struct conn_env *env,
		       char *etag, size_t cap, char *lm, struct cond_file *f)
{
	long long mt = (long long)st->st_mtim.tv_sec;

	snprintf(etag, cap, "\"%llx-%llx-%llx\"", (unsigned long long)st->st_ino,
		 (unsigned long long)st->st_size,
		 (unsigned long long)st->st_mtim.tv_sec * 1000000000ULL +
			 (unsigned long long)st->st_mtim.tv_nsec);
	if (env->wall_s >= 0 && mt > env->wall_s)
		mt = env->wall_s;
	http_date(lm, mt);
	*f = (struct cond_file){ .etag = etag, .last_modified = lm, .mtime = mt,
				 .date_strong = env->wall_s < 0 || mt < env->wall_s };
}

static void serve_file(struct conn *c, const struct conn_env *env, int fd,
		       const struct stat *st, const struct http_request *req)
{
	char etag[64], lm[HTTP_DATE_SIZE];
	struct cond_file f;
	struct byte_range r = { 0, st->st_size };
	struct resp_head h = { .status = 200, .type = mime_type(req->path),
			       .total = st->st_size, .keep_alive = c->keep_alive,
			       .date = env->date, .etag = etag, .last_modified = lm };
	int cs;

	validators(st, env, etag, sizeof(etag), lm, &f);
	cs = cond_status(req, &f);
	if (cs == 304) {
		h.status = 304;
		h.type = NULL;
		h.no_length = true;
	} else if (cs != 0) {
		close_fd(&fd);
		set_error(c, env, cs, c->keep_alive, 0);
		return;
	} else if (cond_range_ok(req, &f)) {
		int rs = req->range_too_long ? 416
					     : range_resolve(req->range, st->st_size, &r);
		if (rs == 416) {
			close_fd(&fd);
			set_error(c, env, 416, c->keep_alive, st->st_size);
			return;
		}
		if (rs == 206) {
			h.status = 206;
			h.range = &r;
		}
	}
	h.length = r.len;
	c->status = h.status;
	c->head_len = c->out_len = resp_format(c->out, sizeof(c->out), &h);
	if (c->head || cs == 304) {
		close_fd(&fd);
		return;
	}
	c->job = (struct xfer_job){ .file_fd = fd, .off = r.start, .left = r.len };
	c->file_body = r.len;
}

static void serve(struct conn *c, const struct conn_env *env,
		  const struct http_request *req, size_t consumed)
{
	struct stat st;
	int fd = fs_open_beneath(env->rootfd, req->path, &st);

	if (fd < 0) {
		set_error(c, env, -fd, -fd != 500 && c->keep_alive, 0);
		return;
	}
	if (S_ISDIR(st.st_mode))
		serve_listing(c, env, fd, req, consumed);
	else
		serve_file(c, env, fd, &st, req);
}

/* The overall deadline of a response of n bytes: the send timeout plus the
 * time n bytes take at the minimum rate. A slow reader refreshes the
 * no-progress deadline with every byte, but cannot pass this one. */
static long long response_cap(const struct conn_env *env, long long n)
{
	if (env->min_rate == 0)
		return LLONG_MAX;
	return env->now_ms + env->send_timeout_ms + n * 1000 / env->min_rate;
}

/* The next deadline while answering: no progress for send_timeout, and
 * never past the response's overall deadline. */
static long long send_deadline(const struct conn *c, const struct conn_env *env)
{
	long long d = env->now_ms + env->send_timeout_ms;

	return d < c->cap_ms ? d : c->cap_ms;
}

/* A request was parsed (st == 1) or refused (st = an HTTP status). */
static void start_response(struct conn *c, const struct conn_env *env, int st,
			   const struct http_request *req, size_t consumed)
{
	snprintf(c->method, sizeof(c->method), "%s", req->method_name);
	snprintf(c->target, sizeof(c->target), "%s", req->target);
	c->out_len = c->out_sent = c->head_len = 0;
	c->job = (struct xfer_job){ .file_fd = -1 };
	c->file_body = 0;
	c->mem_body = 0;
	c->head = req->method == HTTP_HEAD;
	c->chunked = false;
	c->cap_ms = response_cap(env, 0);
	if (st != 1) {
		set_error(c, env, st, false, 0);
		c->in_len = 0; /* framing is lost: close after the answer */
	} else {
		c->keep_alive = req->keep_alive;
		memmove(c->in, c->in + consumed, c->in_len - consumed);
		serve(c, env, req, consumed);
		c->in_len -= consumed;
	}
	c->scanned = 0; /* what follows (a pipelined request) is new */
	if (c->out_len == 0)
		set_error(c, env, 500, false, 0);
	if (c->list.fd >= 0 && list_piece(c, env) < 0)
		set_error(c, env, 500, false, 0);
	c->state = CONN_HEAD;
	c->cap_ms = response_cap(env, (long long)c->out_len + c->file_body);
	c->deadline_ms = send_deadline(c, env);
}

static int step_read(struct conn *c, const struct conn_env *env)
{
	struct http_request req;
	size_t consumed = 0;
	int st = 0;
	ssize_t n;

	if (c->in_len > 0 && http_head_ready(c->in, c->in_len, c->scanned))
		st = http_parse(c->in, c->in_len, &req, &consumed);
	if (st != 0) {
		start_response(c, env, st, &req, consumed);
		return STEP_NEXT;
	}
	c->scanned = c->in_len;
	n = recv(c->fd, c->in + c->in_len, sizeof(c->in) - c->in_len, 0);
	if (n < 0)
		return errno == EINTR ? STEP_NEXT
		       : errno == EAGAIN || errno == EWOULDBLOCK ? POLLIN : 0;
	if (n == 0)
		return 0; /* the client is done (or gave up mid-request) */
	c->in_len += (size_t)n;
	return STEP_NEXT;
}

static int finish(struct conn *c, const struct conn_env *env,
		  unsigned long *answered)
{
	log_request(c, "");
	(*answered)++;
	if (c->job.via)
		env->xfer->last_via = c->job.via;
	c->status = 0;
	close_fd(&c->job.file_fd);
	c->deadline_ms = env->now_ms + env->timeout_ms;
	c->progress_ms = env->waited_ms;
	if (c->keep_alive) {
		c->state = CONN_READ;
		/* One response per turn: a pipelined request waits for the next
		 * turn (POLLOUT comes at once, POLLIN once it is in the socket),
		 * so one client cannot keep the others waiting, and the server
		 * sees each answer counted before the next is started. */
		return c->in_len > 0 ? POLLOUT : POLLIN;
	}
	/* Half-close and read what the client still sends, so our last bytes
	 * are not destroyed by a reset when we close with unread input. */
	if (shutdown(c->fd, SHUT_WR) != 0)
		return 0;
	c->state = CONN_DRAIN;
	c->deadline_ms = env->now_ms + CONN_DRAIN_MS;
	return STEP_NEXT;
}

/* Everything in out[] was sent: the next piece of an index, once per turn
 * (a big folder never holds the others up), or the file body. */
static int head_sent(struct conn *c, const struct conn_env *env,
		     unsigned long *answered)
{
	if (c->list.fd >= 0) {
		c->out_len = c->out_sent = c->head_len = 0;
		if (list_piece(c, env) < 0)
			return 0; /* the page is cut: the client sees no last chunk */
		if (c->out_len > 0)
			return POLLOUT;
	}
	if (c->job.left > 0) {
		c->state = CONN_BODY;
		return STEP_NEXT;
	}
	return finish(c, env, answered);
}

static int step_head(struct conn *c, const struct conn_env *env,
		     unsigned long *answered)
{
	int more = c->job.left > 0 || c->list.fd >= 0 ? MSG_MORE : 0;
	size_t from = c->out_sent > c->head_len ? c->out_sent : c->head_len;
	ssize_t n = 0;

	if (c->out_sent < c->out_len)
		n = send(c->fd, c->out + c->out_sent, c->out_len - c->out_sent,
			 MSG_NOSIGNAL | more);
	if (n < 0)
		return errno == EINTR ? STEP_NEXT
		       : errno == EAGAIN || errno == EWOULDBLOCK ? POLLOUT : 0;
	c->out_sent += (size_t)n;
	if (c->out_sent > from)
		c->mem_body += (long long)(c->out_sent - from);
	if (n > 0)
		c->progress_ms = env->waited_ms;
	c->deadline_ms = send_deadline(c, env);
	if (c->out_sent < c->out_len)
		return POLLOUT;
	return head_sent(c, env, answered);
}

static int step_body(struct conn *c, const struct conn_env *env,
		     unsigned long *answered)
{
	off_t before = c->job.left;
	enum xfer_status s = xfer_run(env->xfer, &c->job, c->fd);

	if (c->job.left != before) {
		c->deadline_ms = send_deadline(c, env);
		c->progress_ms = env->waited_ms;
	}
	if (s == XFER_FAIL)
		return 0;
	if (s == XFER_AGAIN)
		return POLLOUT;
	return finish(c, env, answered);
}

static int step_drain(struct conn *c)
{
	ssize_t n = recv(c->fd, c->in, sizeof(c->in), 0);

	if (n > 0)
		return POLLIN;
	if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
		return POLLIN;
	return 0;
}

short conn_step(struct conn *c, const struct conn_env *env,
		unsigned long *answered)
{
	int r = STEP_NEXT;

	while (r == STEP_NEXT) {
		switch (c->state) {
		case CONN_READ: r = step_read(c, env); break;
		case CONN_HEAD: r = step_head(c, env, answered); break;
		case CONN_BODY: r = step_body(c, env, answered); break;
		case CONN_DRAIN: r = step_drain(c); break;
		default: r = 0; break;
		}
	}
	return (short)r;
}

void conn_close(struct conn *c, const char *why, unsigned long *answered)
{
	if (c->status != 0) {
		char note[48];

		snprintf(note, sizeof(note), " aborted%s%s", why ? ": " : "",
			 why ? why : "");
		log_request(c, note);
		(*answered)++;
	} else if (why && c->state == CONN_READ) {
		log_msg("%s closed: %s%s", c->peer, why,
			c->in_len ? " (request incomplete)" : "");
	}
	close_fd(&c->job.file_fd);
	listing_close(&c->list);
	close_fd(&c->fd);
	c->state = CONN_FREE;
	c->status = 0;
}
