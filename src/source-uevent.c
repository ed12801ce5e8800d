#include "source-uevent.h"

#include <errno.h>
#include <linux/netlink.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* The kernel's own messages (udev re-broadcasts on group 2). */
#define KERNEL_GROUP 1

struct source_uevent {
	int fd;
};

int source_uevent_open(struct source_uevent **out)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK, .nl_groups = KERNEL_GROUP };
	struct source_uevent *u;
	int err;

	*out = NULL;
	if (!(u = calloc(1, sizeof(*u))))
		return -ENOMEM;
	u->fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, NETLINK_KOBJECT_UEVENT);
	if (u->fd < 0 || bind(u->fd, (struct sockaddr *)&sa, sizeof(sa))) {
		err = -errno;
		if (u->fd >= 0)
			close(u->fd);
		free(u);
		return err;
	}
	*out = u;
	return 0;
}

void source_uevent_close(struct source_uevent *u)
{
	if (!u)
		return;
	close(u->fd);
	free(u);
}

int source_uevent_parse(const char *msg, size_t len, char *name, size_t namelen)
{
	const char *end = msg + len, *devpath = NULL, *slash;
	bool block = false;

	/* the header "ACTION@DEVPATH", then KEY=VALUE strings */
	if (!len || !memchr(msg, '@', strnlen(msg, len)))
		return 0;
	for (const char *p = msg; p < end;) {
		size_t n = strnlen(p, (size_t)(end - p));

		if (n == (size_t)(end - p))
			break; /* unterminated: ignore the rest */
		if (!strncmp(p, "SUBSYSTEM=", 10))
			block = !strcmp(p + 10, "block");
		else if (!strncmp(p, "DEVPATH=", 8))
			devpath = p + 8;
		p += n + 1;
	}
	if (!block || !devpath)
		return 0;
	slash = strrchr(devpath, '/');
	slash = slash ? slash + 1 : devpath;
	if (!*slash || strlen(slash) >= namelen)
		return 0;
	memcpy(name, slash, strlen(slash) + 1);
	return 1;
}

int source_uevent_drain(struct source_uevent *u, void (*fn)(void *ctx, const char *name), void *ctx)
{
	char buf[8192], name[256];
	int nblock = 0;

	for (;;) {
		struct sockaddr_nl from;
		struct iovec iov = { .iov_base = buf, .iov_len = sizeof(buf) - 1 };
		struct msghdr msg = { .msg_name = &from, .msg_namelen = sizeof(from), .msg_iov = &iov,
				      .msg_iovlen = 1 };
		ssize_t n = recvmsg(u->fd, &msg, 0);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN)
				return nblock;
			/* ENOBUFS: events were lost; the socket goes on. */
			return -errno;
		}
		/* Only the kernel (port 0) speaks for devices. */
		if (from.nl_pid != 0)
			continue;
		if (msg.msg_flags & MSG_TRUNC)
			return -ENOBUFS; /* an event we cannot read is one lost */
		buf[n] = '\0';
		if (source_uevent_parse(buf, (size_t)n, name, sizeof(name))) {
			fn(ctx, name);
			nblock++;
		}
	}
}
