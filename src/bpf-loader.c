#include "bpf-loader.h"

#include <bpf/bpf.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

/* Loading takes 20-100 ms; a helper silent this long is stuck. */
#define HELPER_TIMEOUT_MS 30000

struct loaded_map {
	char name[BPF_LOADER_NAME];
	int fd;
};

struct loaded_prog {
	char name[BPF_LOADER_NAME];
	int fd, link; /* link: -1 when not attached */
	uint32_t attach_type;
};

struct bpf_loaded {
	struct loaded_map maps[BPF_LOADER_MAX];
	struct loaded_prog progs[BPF_LOADER_MAX];
	size_t nmaps, nprogs;
};

int bpf_loader_send(int sock, const struct bpf_loader_reply *r, const int *fds)
{
	union {
		char buf[CMSG_SPACE(sizeof(int) * BPF_LOADER_MAX)];
		struct cmsghdr align;
	} ctl;
	struct iovec iov = { .iov_base = (void *)r, .iov_len = sizeof(*r) };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };

	if (r->n > BPF_LOADER_MAX)
		return -E2BIG;
	if (r->n) {
		struct cmsghdr *c;

		memset(&ctl, 0, sizeof(ctl));
		msg.msg_control = ctl.buf;
		msg.msg_controllen = CMSG_SPACE(sizeof(int) * r->n);
		c = CMSG_FIRSTHDR(&msg);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int) * r->n);
		memcpy(CMSG_DATA(c), fds, sizeof(int) * r->n);
	}
	return sendmsg(sock, &msg, MSG_NOSIGNAL) == (ssize_t)sizeof(*r) ? 0 : -errno;
}

static void close_fds(const int *fds, size_t n)
{
	for (size_t i = 0; i < n; i++)
		close(fds[i]);
}

static bool name_ok(const char *name)
{
	return memchr(name, '\0', BPF_LOADER_NAME) && name[0];
}

/* Check the reply's entries against the fds that came, and build the
 * object from them. Returns 0 or -EPROTO with why. */
static int take(const struct bpf_loader_reply *r, const int *fds, size_t nfds, struct bpf_loaded *l, char *why,
		size_t whylen)
{
	if (nfds != r->n) {
		snprintf(why, whylen, "BPF helper sent %zu of %u descriptors", nfds, r->n);
		return -EPROTO;
	}
	for (size_t i = 0; i < r->n; i++) {
		const struct bpf_loader_entry *e = &r->e[i];
		int p;

		if (!name_ok(e->name)) {
			snprintf(why, whylen, "BPF helper sent an unnamed or unterminated entry %zu", i);
			return -EPROTO;
		}
		switch (e->kind) {
		case BPF_LOADER_MAP:
			memcpy(l->maps[l->nmaps].name, e->name, BPF_LOADER_NAME);
			l->maps[l->nmaps++].fd = fds[i];
			break;
		case BPF_LOADER_PROG:
			memcpy(l->progs[l->nprogs].name, e->name, BPF_LOADER_NAME);
			l->progs[l->nprogs].fd = fds[i];
			l->progs[l->nprogs].link = -1;
			l->progs[l->nprogs++].attach_type = e->attach_type;
			break;
		case BPF_LOADER_LINK:
			p = bpf_loaded_prog_find(l, e->name);
			if (p < 0 || l->progs[p].link >= 0) {
				snprintf(why, whylen, p < 0 ? "BPF helper sent a link for %s without its program"
							    : "BPF helper sent two links for %s", e->name);
				return -EPROTO;
			}
			l->progs[p].link = fds[i];
			break;
		default:
			snprintf(why, whylen, "BPF helper sent an entry of unknown kind %u", e->kind);
			return -EPROTO;
		}
	}
	return 0;
}

int bpf_loader_recv(int sock, struct bpf_loaded **out, char *why, size_t whylen)
{
	union {
		char buf[CMSG_SPACE(sizeof(int) * BPF_LOADER_MAX)];
		struct cmsghdr align;
	} ctl;
	struct bpf_loader_reply *r = malloc(sizeof(*r));
	struct iovec iov = { .iov_base = r, .iov_len = r ? sizeof(*r) : 0 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl.buf,
			      .msg_controllen = sizeof(ctl.buf) };
	int fds[BPF_LOADER_MAX];
	size_t nfds = 0;
	struct bpf_loaded *l;
	ssize_t got;
	int err;

	*out = NULL;
	if (!r)
		return -ENOMEM;
	do
		got = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC);
	while (got < 0 && errno == EINTR);
	if (got < 0) {
		err = -errno;
		free(r);
		return err;
	}
	for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
		size_t k;

		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
			continue;
		k = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		if (k > BPF_LOADER_MAX - nfds)
			k = BPF_LOADER_MAX - nfds;
		memcpy(fds + nfds, CMSG_DATA(c), k * sizeof(int));
		nfds += k;
	}
	l = calloc(1, sizeof(*l));
	if (got == 0 && !nfds)
		err = -EPIPE;
	else if (!l)
		err = -ENOMEM;
	else if ((size_t)got != sizeof(*r) || (msg.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) ||
		 r->magic != BPF_LOADER_MAGIC || r->n > BPF_LOADER_MAX) {
		snprintf(why, whylen, "BPF helper sent a malformed reply (%zd bytes)", got);
		err = -EPROTO;
	} else if (r->err) {
		/* the helper's own reason: keep only what fits, terminated */
		snprintf(why, whylen, "%.*s", (int)sizeof(r->why), r->why);
		err = r->err < 0 ? r->err : -EPROTO;
	} else
		err = take(r, fds, nfds, l, why, whylen);
	free(r);
	if (err) {
		close_fds(fds, nfds);
		free(l);
		return err;
	}
	*out = l;
	return 0;
}

static const char *helper_path(void)
{
	const char *p = secure_getenv("BLKTUNE_BPF_HELPER");

	return p && *p ? p : "/proc/self/exe";
}

/* Why the helper ended without a reply, from its wait status. */
static void helper_died(pid_t pid, char *why, size_t whylen)
{
	int st;

	if (waitpid(pid, &st, 0) != pid)
		snprintf(why, whylen, "BPF helper ended without a reply");
	else if (WIFSIGNALED(st))
		snprintf(why, whylen, "BPF helper killed by signal %d (%s)", WTERMSIG(st), strsignal(WTERMSIG(st)));
	else
		snprintf(why, whylen, "BPF helper exited with status %d and no reply", WEXITSTATUS(st));
}

/* Fork and exec the helper on sock (async-signal-safe calls only in the
 * child: the caller may be threaded). Returns the pid or -errno. */
static pid_t spawn(const char *path, char *const argv[], int sock, int devnull)
{
	sigset_t none;
	pid_t pid;

	sigemptyset(&none);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid > 0)
		return pid;
	/* The parent's blocked signals (signalfd) would block them here too. */
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (fcntl(sock, F_SETFD, 0) == 0 && dup2(devnull, 0) == 0 && dup2(devnull, 1) == 1 && dup2(devnull, 2) == 2)
		execv(path, argv);
	_exit(127);
}

int bpf_loader_open(const char *object, const char *const *defer, struct bpf_loaded **out, char *why,
		    size_t whylen)
{
	char sockarg[16], *argv[BPF_LOADER_MAX + 5];
	const char *path = helper_path();
	struct pollfd pfd;
	int sv[2], devnull, err, argc = 0;
	pid_t pid;

	*out = NULL;
	argv[argc++] = (char *)"blktune";
	argv[argc++] = (char *)"--bpf-helper";
	argv[argc++] = (char *)object;
	argv[argc++] = sockarg;
	for (size_t i = 0; defer && defer[i] && argc < BPF_LOADER_MAX + 4; i++)
		argv[argc++] = (char *)defer[i];
	argv[argc] = NULL;
	devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (devnull < 0) {
		err = -errno;
		snprintf(why, whylen, "cannot open /dev/null: %s", strerror(-err));
		return err;
	}
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv)) {
		err = -errno;
		close(devnull);
		snprintf(why, whylen, "cannot make a socket for the BPF helper: %s", strerror(-err));
		return err;
	}
	snprintf(sockarg, sizeof(sockarg), "%d", sv[1]);
	pid = spawn(path, argv, sv[1], devnull);
	close(sv[1]);
	close(devnull);
	if (pid < 0) {
		close(sv[0]);
		snprintf(why, whylen, "cannot start the BPF helper: %s", strerror((int)-pid));
		return (int)pid;
	}
	pfd = (struct pollfd){ .fd = sv[0], .events = POLLIN };
	while ((err = poll(&pfd, 1, HELPER_TIMEOUT_MS)) < 0 && errno == EINTR)
		;
	if (err == 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		close(sv[0]);
		snprintf(why, whylen, "BPF helper did not answer in %d s", HELPER_TIMEOUT_MS / 1000);
		return -ETIMEDOUT;
	}
	err = bpf_loader_recv(sv[0], out, why, whylen);
	close(sv[0]);
	if (err == -EPIPE) {
		helper_died(pid, why, whylen);
		return err;
	}
	/* It exits right after sending. */
	waitpid(pid, NULL, 0);
	return err;
}

void bpf_loaded_close(struct bpf_loaded *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->nprogs; i++) {
		bpf_loaded_detach(l, i);
		close(l->progs[i].fd);
	}
	for (size_t i = 0; i < l->nmaps; i++)
		close(l->maps[i].fd);
	free(l);
}

int bpf_loaded_map_fd(const struct bpf_loaded *l, const char *name)
{
	for (size_t i = 0; i < l->nmaps; i++)
		if (!strcmp(l->maps[i].name, name))
			return l->maps[i].fd;
	return -ENOENT;
}

size_t bpf_loaded_nprogs(const struct bpf_loaded *l)
{
	return l->nprogs;
}

const char *bpf_loaded_prog_name(const struct bpf_loaded *l, size_t i)
{
	return l->progs[i].name;
}

int bpf_loaded_prog_fd(const struct bpf_loaded *l, size_t i)
{
	return l->progs[i].fd;
}

int bpf_loaded_prog_find(const struct bpf_loaded *l, const char *name)
{
	for (size_t i = 0; i < l->nprogs; i++)
		if (!strcmp(l->progs[i].name, name))
			return (int)i;
	return -ENOENT;
}

int bpf_loaded_attach(struct bpf_loaded *l, size_t i)
{
	struct loaded_prog *p = &l->progs[i];
	int fd;

	if (p->link >= 0)
		return 0;
	/* What libbpf's attach does for tp_btf/fentry once loaded: the
	 * program carries its target, no BTF is needed here. */
	fd = bpf_link_create(p->fd, 0, (enum bpf_attach_type)p->attach_type, NULL);
	if (fd < 0)
		return -errno;
	p->link = fd;
	return 0;
}

void bpf_loaded_detach(struct bpf_loaded *l, size_t i)
{
	if (l->progs[i].link >= 0)
		close(l->progs[i].link);
	l->progs[i].link = -1;
}

int bpf_loaded_attached(const struct bpf_loaded *l, size_t i)
{
	return l->progs[i].link >= 0;
}
