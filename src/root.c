#include "root.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

struct root {
	int dirfd;
	bool live;
	char path[PATH_MAX];
};

int root_open(const char *path, struct root **out)
{
	struct root *r;
	char real[PATH_MAX];

	if (!path || !*path)
		return -EINVAL;
	if (!realpath(path, real))
		return -errno;
	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->dirfd = open(real, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (r->dirfd < 0) {
		int err = -errno;
		free(r);
		return err;
	}
	snprintf(r->path, sizeof(r->path), "%s", real);
	r->live = strcmp(real, "/") == 0;
	*out = r;
	return 0;
}

void root_close(struct root *r)
{
	if (!r)
		return;
	close(r->dirfd);
	free(r);
}

const char *root_path(const struct root *r)
{
	return r->path;
}

bool root_is_live(const struct root *r)
{
	return r->live;
}

void root_sysfs_name(const char *name, char *out, size_t outlen)
{
	snprintf(out, outlen, "%s", name);
	for (char *p = out; *p; p++)
		if (*p == '/')
			*p = '!';
}

int root_check_path(const char *rel)
{
	const char *p = rel;

	if (!rel || !*rel || *rel == '/')
		return -EINVAL;
	while (*p) {
		size_t n = strcspn(p, "/");
		if (n == 2 && p[0] == '.' && p[1] == '.')
			return -EINVAL;
		p += n;
		while (*p == '/')
			p++;
	}
	return 0;
}

static int open_below(const struct root *r, const char *rel, int flags)
{
	struct open_how how = { .flags = (unsigned long long)(flags | O_CLOEXEC) };
	int fd;

	if (r->live) {
		/* The live root needs no confinement: skip openat2's resolve cost. */
		fd = openat(r->dirfd, rel, flags | O_CLOEXEC);
		return fd < 0 ? -errno : fd;
	}
	/* A captured tree holds symlinks such as ../devices/...: resolve them
	 * inside the tree, never on the machine running the tests. */
	how.resolve = RESOLVE_IN_ROOT;
	/* EAGAIN: a rename anywhere on the machine raced a ".." of the lookup
	 * and the kernel would not vouch for it; openat2(2) says retry. */
	for (int tries = 0;; tries++) {
		fd = (int)syscall(SYS_openat2, r->dirfd, rel, &how, sizeof(how));
		if (fd >= 0 || errno != EAGAIN || tries == 64)
			break;
	}
	if (fd < 0 && errno == ENOSYS)
		fd = openat(r->dirfd, rel, flags | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

int root_openat(const struct root *r, const char *rel, int flags)
{
	bool file = !(flags & (O_PATH | O_DIRECTORY));
	struct stat st;
	int fd, err = root_check_path(rel);

	if (err)
		return err;
	/* Kernel files (sysfs attributes, /proc entries) are regular files. A
	 * FIFO or device in their place (a doctored --root tree) would block
	 * open or read forever: open without blocking and refuse it. */
	fd = open_below(r, rel, file ? flags | O_NONBLOCK : flags);
	if (!file)
		return fd;
	if (fd == -ENXIO)
		return -ROOT_ENOTREG; /* a FIFO without a reader, opened to write */
	if (fd < 0)
		return fd;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return -ROOT_ENOTREG;
	}
	return fd;
}

const char *root_strerror(int err)
{
	if (err == -ROOT_ENOTREG)
		return "not a regular file (a kernel file is never a FIFO or a device)";
	return strerror(err < 0 ? -err : err);
}

ssize_t root_pread(int fd, char *buf, size_t size)
{
	ssize_t n;

	if (size == 0)
		return -EINVAL;
	n = pread(fd, buf, size - 1, 0);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return n;
}

ssize_t root_pread_all(int fd, char **buf, size_t *cap, size_t max)
{
	size_t len = 0;

	if (!*buf) {
		*cap = 16384;
		if (!(*buf = malloc(*cap)))
			return -ENOMEM;
	}
	for (;;) {
		ssize_t n = pread(fd, *buf + len, *cap - 1 - len, (off_t)len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			break;
		len += (size_t)n;
		if (len < *cap - 1)
			continue;
		if (*cap >= max)
			return -EFBIG;
		char *b = realloc(*buf, *cap * 2);
		if (!b)
			return -ENOMEM;
		*buf = b;
		*cap *= 2;
	}
	(*buf)[len] = '\0';
	return (ssize_t)len;
}

ssize_t root_read_all(const struct root *r, const char *rel, char **buf, size_t *cap, size_t max)
{
	int fd = root_openat(r, rel, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return fd;
	n = root_pread_all(fd, buf, cap, max);
	close(fd);
	return n;
}

ssize_t root_read(const struct root *r, const char *rel, char *buf, size_t size)
{
	size_t len = 0;
	int fd = root_openat(r, rel, O_RDONLY);

	if (fd < 0)
		return fd;
	if (size == 0) {
		close(fd);
		return -EINVAL;
	}
	while (len < size - 1) {
		ssize_t n = read(fd, buf + len, size - 1 - len);
		if (n < 0) {
			int err = -errno;
			if (errno == EINTR)
				continue;
			close(fd);
			return err;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	return (ssize_t)len;
}

static int parse_number(const char *buf, bool is_signed, void *out)
{
	char *end;

	errno = 0;
	if (is_signed) {
		long long v = strtoll(buf, &end, 10);
		if (errno || end == buf)
			return errno ? -errno : -EINVAL;
		*(long long *)out = v;
	} else {
		unsigned long long v;
		while (*buf == ' ' || *buf == '\t')
			buf++;
		if (*buf == '-')
			return -ERANGE;
		v = strtoull(buf, &end, 10);
		if (errno || end == buf)
			return errno ? -errno : -EINVAL;
		*(unsigned long long *)out = v;
	}
	while (*end == ' ' || *end == '\n' || *end == '\t')
		end++;
	return *end ? -EINVAL : 0;
}

int root_pread_u64(int fd, unsigned long long *out)
{
	char buf[64];
	ssize_t n = root_pread(fd, buf, sizeof(buf));

	if (n < 0)
		return (int)n;
	return parse_number(buf, false, out);
}

int root_pread_s64(int fd, long long *out)
{
	char buf[64];
	ssize_t n = root_pread(fd, buf, sizeof(buf));

	if (n < 0)
		return (int)n;
	return parse_number(buf, true, out);
}

int root_read_u64(const struct root *r, const char *rel, unsigned long long *out)
{
	char buf[64];
	ssize_t n = root_read(r, rel, buf, sizeof(buf));

	if (n < 0)
		return (int)n;
	return parse_number(buf, false, out);
}

int root_read_s64(const struct root *r, const char *rel, long long *out)
{
	char buf[64];
	ssize_t n = root_read(r, rel, buf, sizeof(buf));

	if (n < 0)
		return (int)n;
	return parse_number(buf, true, out);
}

int root_write(const struct root *r, const char *rel, const char *val)
{
	size_t len = strlen(val);
	ssize_t n;
	int err = 0, fd = root_openat(r, rel, O_WRONLY | O_TRUNC); /* O_TRUNC: no-op on sysfs, right for fixture copies */

	if (fd < 0)
		return fd;
	n = write(fd, val, len);
	if (n < 0)
		err = -errno;
	else if ((size_t)n != len)
		err = -EIO;
	if (close(fd) < 0 && !err)
		err = -errno;
	return err;
}

ssize_t root_readlink(const struct root *r, const char *rel, char *buf, size_t size)
{
	char dir[PATH_MAX];
	const char *base = strrchr(rel ? rel : "", '/');
	ssize_t n;
	int fd, err = root_check_path(rel);

	if (err)
		return err;
	if (size == 0)
		return -EINVAL;
	/* Resolve the directory part inside the root, then read the last link. */
	if (base) {
		snprintf(dir, sizeof(dir), "%.*s", (int)(base - rel), rel);
		fd = root_openat(r, dir, O_PATH | O_DIRECTORY);
		if (fd < 0)
			return fd;
		base++;
	} else {
		fd = dup(r->dirfd);
		if (fd < 0)
			return -errno;
		base = rel;
	}
	n = readlinkat(fd, base, buf, size - 1);
	err = errno;
	close(fd);
	if (n < 0)
		return -err;
	buf[n] = '\0';
	return n;
}

ssize_t root_readlink_in(DIR *d, const char *name, char *buf, size_t size)
{
	ssize_t n;

	if (!*name || strchr(name, '/') || !strcmp(name, "..") || size == 0)
		return -EINVAL;
	n = readlinkat(dirfd(d), name, buf, size - 1);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return n;
}

DIR *root_opendir(const struct root *r, const char *rel)
{
	DIR *d;
	int fd = root_openat(r, rel, O_RDONLY | O_DIRECTORY);

	if (fd < 0) {
		errno = -fd;
		return NULL;
	}
	d = fdopendir(fd);
	if (!d) {
		int e = errno;
		close(fd);
		errno = e;
	}
	return d;
}

bool root_exists(const struct root *r, const char *rel)
{
	int fd = root_openat(r, rel, O_PATH);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

int root_mkdir(const struct root *r, const char *rel, mode_t mode)
{
	int err = root_check_path(rel);

	if (err)
		return err;
	return mkdirat(r->dirfd, rel, mode) < 0 ? -errno : 0;
}

int root_rmdir(const struct root *r, const char *rel)
{
	int err = root_check_path(rel);

	if (err)
		return err;
	return unlinkat(r->dirfd, rel, AT_REMOVEDIR) < 0 ? -errno : 0;
}
