#include "exporter.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <microhttpd.h>
#include <netdb.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output-prom.h"
#include "safe-file.h"

#define PROM_CONTENT_TYPE "text/plain; version=0.0.4; charset=utf-8"
#define ERROR_CONTENT_TYPE "text/plain; charset=utf-8"
#define TEXTFILE_NAME "blktune.prom"
/* Connections the server keeps at once, and how long one may sit idle. A
 * handful of idle or trickling clients must not take /metrics away from
 * Prometheus: many slots, and an idle one is freed within seconds (a scrape
 * is one request answered at once). The limit stays within a quarter of the
 * fd budget, which the devices' kept files share. */
#define CONNECTIONS_MAX 256U
#define CONNECTIONS_MIN 16U
#define CONNECTION_TIMEOUT_S 3U

struct exporter {
	struct MHD_Daemon *httpd;
	pthread_mutex_t lock; /* guards text: the server thread reads it */
	char *text;
	size_t len;
	int dirfd;     /* --textfile directory, or -1 */
	char *dirpath; /* ... as given: reopened when the directory went */
	struct ms_wrap wraps; /* the ms counters' 32-bit wraps, per device */
};

int exporter_parse_listen(const char *s, char *host, size_t hostlen, unsigned *port)
{
	const char *colon, *h = s;
	size_t n;
	char *end;
	unsigned long p;

	if (*s == '[') {
		const char *close = strchr(s, ']');
		if (!close || close[1] != ':')
			return -EINVAL;
		h = s + 1;
		n = (size_t)(close - h);
		colon = close + 1;
	} else {
		colon = strrchr(s, ':');
		if (!colon || memchr(s, ':', (size_t)(colon - s)))
			return -EINVAL; /* IPv6 needs brackets */
		n = (size_t)(colon - s);
	}
	if (n == 0 || n >= hostlen)
		return -EINVAL;
	errno = 0;
	p = strtoul(colon + 1, &end, 10);
	if (errno || end == colon + 1 || *end || p == 0 || p > 65535)
		return -EINVAL;
	memcpy(host, h, n);
	host[n] = '\0';
	*port = (unsigned)p;
	return 0;
}

static enum MHD_Result serve(void *cls, struct MHD_Connection *c, const char *url, const char *method,
			     const char *version, const char *upload, size_t *upload_size, void **state)
{
	struct exporter *e = cls;
	struct MHD_Response *r;
	enum MHD_Result ret;
	unsigned code = MHD_HTTP_OK;
	const char *type = ERROR_CONTENT_TYPE;

	if (strcmp(method, "GET") && strcmp(method, "HEAD")) {
		static char msg[] = "only GET\n";
		r = MHD_create_response_from_buffer(sizeof(msg) - 1, msg, MHD_RESPMEM_PERSISTENT);
		code = MHD_HTTP_METHOD_NOT_ALLOWED;
	} else if (strcmp(url, "/metrics")) {
		static char msg[] = "blktune serves /metrics\n";
		r = MHD_create_response_from_buffer(sizeof(msg) - 1, msg, MHD_RESPMEM_PERSISTENT);
		code = MHD_HTTP_NOT_FOUND;
	} else {
		pthread_mutex_lock(&e->lock);
		r = MHD_create_response_from_buffer(e->len, e->text ? e->text : (char *)"", MHD_RESPMEM_MUST_COPY);
		pthread_mutex_unlock(&e->lock);
		type = PROM_CONTENT_TYPE;
	}
	if (!r)
		return MHD_NO;
	/* RFC 9110 15.5.6: a 405 says which methods the resource takes. */
	if (code == MHD_HTTP_METHOD_NOT_ALLOWED)
		MHD_add_response_header(r, "Allow", "GET, HEAD");
	MHD_add_response_header(r, "Content-Type", type);
	ret = MHD_queue_response(c, code, r);
	MHD_destroy_response(r);
	return ret;
}

static int start_server(struct exporter *e, const char *listen, char *why, size_t whylen)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM, .ai_flags = AI_NUMERICSERV }, *ai;
	char host[128], port_s[8];
	unsigned port;
	sigset_t all, old;
	struct rlimit rl;
	unsigned limit = CONNECTIONS_MAX;
	int rc, saved;

	if (exporter_parse_listen(listen, host, sizeof(host), &port) < 0) {
		snprintf(why, whylen, "--listen %s: want ADDR:PORT, e.g. 127.0.0.1:9101 or [::1]:9101", listen);
		return -EINVAL;
	}
	snprintf(port_s, sizeof(port_s), "%u", port);
	if ((rc = getaddrinfo(host, port_s, &hints, &ai))) {
		snprintf(why, whylen, "--listen %s: %s", listen, gai_strerror(rc));
		/* a name that is no address is the command line's fault; a
		 * resolver that could not answer is not */
		return rc == EAI_AGAIN ? -EAGAIN : rc == EAI_MEMORY ? -ENOMEM : rc == EAI_SYSTEM ? -EIO : -EINVAL;
	}
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur / 4 < limit)
		limit = rl.rlim_cur / 4 > CONNECTIONS_MIN ? (unsigned)(rl.rlim_cur / 4) : CONNECTIONS_MIN;
	/* epoll, not select(): blktune keeps a few files open per device, so
	 * on a machine with a few hundred devices an accepted connection's fd
	 * is past FD_SETSIZE, and a select() server drops it unanswered. */
	/* The server's thread takes no signal: one that reached it (SIGINT,
	 * ignored in a background job; SIGTERM, whose default ends the process)
	 * was lost to the main loop's signalfd, so blktune went on, or died
	 * without restoring the tunables. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	errno = 0;
	e->httpd = MHD_start_daemon(MHD_USE_EPOLL_INTERNAL_THREAD | (ai->ai_family == AF_INET6 ? MHD_USE_IPv6 : 0),
				    (uint16_t)port, NULL, NULL, serve, e,
				    MHD_OPTION_SOCK_ADDR, ai->ai_addr,
				    MHD_OPTION_CONNECTION_LIMIT, limit,
				    MHD_OPTION_CONNECTION_TIMEOUT, CONNECTION_TIMEOUT_S,
				    MHD_OPTION_END);
	saved = errno;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	freeaddrinfo(ai);
	if (!e->httpd) {
		/* libmicrohttpd leaves errno as the failing call set it (bind:
		 * EADDRINUSE, EADDRNOTAVAIL, EACCES); a failure of its own (a
		 * thread it could not start) may leave none, and then no
		 * reason is better than a made-up one. */
		if (!saved) {
			snprintf(why, whylen,
				 "--listen %s: cannot listen: libmicrohttpd could not start its server and gave no reason",
				 listen);
			return -EIO;
		}
		snprintf(why, whylen, "--listen %s: cannot listen: %s", listen, strerror(saved));
		return -saved;
	}
	return 0;
}

/* The --textfile directory, as exporter_open first opened it (a directory,
 * followed if a link: the path is the user's choice, as the journal's is not).
 * Returns the descriptor or -errno. */
static int open_dir(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

int exporter_open(const char *listen, const char *textfile_dir, struct exporter **out, char *why, size_t whylen)
{
	struct exporter *e = calloc(1, sizeof(*e));
	int err;

	*out = NULL;
	if (!e)
		return -ENOMEM;
	pthread_mutex_init(&e->lock, NULL);
	e->dirfd = -1;
	if (textfile_dir) {
		if (!(e->dirpath = strdup(textfile_dir))) {
			exporter_close(e);
			return -ENOMEM;
		}
		if ((e->dirfd = open_dir(textfile_dir)) < 0) {
			err = e->dirfd;
			snprintf(why, whylen, "--textfile %s: %s", textfile_dir, strerror(-err));
			exporter_close(e);
			return err;
		}
	}
	if (listen && (err = start_server(e, listen, why, whylen)) < 0) {
		exporter_close(e);
		return err;
	}
	*out = e;
	return 0;
}

/* node_exporter reads whole files: write a fresh one and rename it over. */
static int write_in(int dirfd, const char *text, size_t len)
{
	char tmp[64];
	int fd, err = 0;

	snprintf(tmp, sizeof(tmp), ".%s.%ld", TEXTFILE_NAME, (long)getpid());
	(void)unlinkat(dirfd, tmp, 0);
	fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	/* 0644 whatever the umask: node_exporter runs as another user, and
	 * the file replaced was readable by it. */
	if (fchmod(fd, 0644) < 0)
		err = -errno;
	if (!err)
		err = safe_write_all(fd, text, len);
	if (close(fd) < 0 && !err)
		err = -errno;
	if (!err && renameat(dirfd, tmp, dirfd, TEXTFILE_NAME) < 0)
		err = -errno;
	if (err)
		(void)unlinkat(dirfd, tmp, 0);
	return err;
}

/* A directory removed (ENOENT) or gone stale on NFS (ESTALE) is looked up
 * again by its path: one re-created under the same name is written from
 * then on, as a failed write is "retried the next interval". */
static int write_textfile(struct exporter *e, const char *text, size_t len)
{
	int err = write_in(e->dirfd, text, len), fd;

	if (err != -ENOENT && err != -ESTALE)
		return err;
	if ((fd = open_dir(e->dirpath)) < 0)
		return fd;
	close(e->dirfd);
	e->dirfd = fd;
	return write_in(e->dirfd, text, len);
}

static int render(const struct sample *s, long long ts_ms, const struct ms_wrap *w, char **buf, size_t *len)
{
	FILE *f = open_memstream(buf, len);
	int err;

	*buf = NULL;
	if (!f)
		return -ENOMEM;
	err = output_prom(f, s, ts_ms, w);
	if (fclose(f) || !*buf)
		err = -ENOMEM;
	if (err) {
		free(*buf);
		*buf = NULL;
	}
	return err;
}

int exporter_publish(struct exporter *e, const struct sample *s, char *why, size_t whylen)
{
	long long ts = (long long)s->wall.tv_sec * 1000 + s->wall.tv_nsec / 1000000;
	char *buf;
	size_t len;
	int err;

	/* Out of memory here only costs the wraps seen so far: the counters are
	 * published raw, as the kernel has them. */
	(void)ms_wrap_update(&e->wraps, s);
	/* The endpoint first: a textfile that cannot be written (its directory
	 * gone, a full disk) must not freeze what scrapes see. */
	if (e->httpd) {
		if ((err = render(s, ts, &e->wraps, &buf, &len)) < 0) {
			snprintf(why, whylen, "--listen: %s", strerror(-err));
			return err;
		}
		pthread_mutex_lock(&e->lock);
		free(e->text);
		e->text = buf;
		e->len = len;
		pthread_mutex_unlock(&e->lock);
	}
	if (e->dirfd < 0)
		return 0;
	if ((err = render(s, 0, &e->wraps, &buf, &len)) < 0 || (err = write_textfile(e, buf, len)) < 0)
		snprintf(why, whylen, "--textfile %s: %s", e->dirpath, strerror(-err));
	free(buf);
	return err;
}

void exporter_close(struct exporter *e)
{
	if (!e)
		return;
	if (e->httpd)
		MHD_stop_daemon(e->httpd);
	if (e->dirfd >= 0)
		close(e->dirfd);
	pthread_mutex_destroy(&e->lock);
	ms_wrap_free(&e->wraps);
	free(e->dirpath);
	free(e->text);
	free(e);
}
