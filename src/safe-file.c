#include "safe-file.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#define TMP_TRIES 100
#define TMP_SUFFIX 8 /* letters or digits after "PREFIX." */

/* Messages name a path first and say what is wrong at the end: one too
 * long for msg (a path near PATH_MAX) loses the middle of the path, never
 * the reason: "HEAD...TAIL", the tail holding the end of the message. */
static void say(char *msg, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void say(char *msg, size_t size, const char *fmt, ...)
{
	char full[3 * PATH_MAX];
	size_t len, head, tail;
	va_list ap;
	int n;

	if (!msg || !size)
		return;
	va_start(ap, fmt);
	n = vsnprintf(full, sizeof(full), fmt, ap);
	va_end(ap);
	len = n < 0 ? 0 : strlen(full);
	if (len < size || size < 8) {
		snprintf(msg, size, "%s", full);
		return;
	}
	/* head + "..." + tail + NUL fill msg exactly; the tail is the longer */
	head = (size - 4) / 3;
	tail = size - 4 - head;
	memcpy(msg, full, head);
	memcpy(msg + head, "...", 3);
	memcpy(msg + head + 3, full + len - tail, tail);
	msg[size - 1] = '\0';
}

/* failed gets the directory of the chain that could not be made (the one a
 * person must fix: "/nonexistent", not the snapshot directory below it). */
static int mkdir_p(const char *path, char *failed, size_t flen)
{
	char buf[PATH_MAX];

	if (snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf))
		return -ENAMETOOLONG;
	for (char *p = buf + 1;; p++) {
		if (*p && *p != '/')
			continue;
		char c = *p;
		*p = '\0';
		if (mkdir(buf, 0700) < 0 && errno != EEXIST) {
			int err = -errno;
			snprintf(failed, flen, "%s", buf);
			return err;
		}
		if (!c)
			return 0;
		*p = '/';
	}
}

/* One directory of the chain: the last one (leaf) must be the running uid's
 * own; those above may be root's too, and writable by others only if sticky. */
static int dir_ok(const char *path, const struct stat *st, bool leaf, const char *dir, char *msg, size_t size)
{
	uid_t uid = geteuid();
	/* "DIR is ...", or "DIR: /x above it is ..." for a directory of the chain. */
	const char *sep = leaf ? "" : ": ", *name = leaf ? "" : path, *what = leaf ? "" : " above it";

	if (S_ISLNK(st->st_mode) || !S_ISDIR(st->st_mode)) {
		say(msg, size, "%s%s%s%s is not a directory", dir, sep, name, what);
		return leaf ? -ENOTDIR : -EPERM;
	}
	if (st->st_uid != uid && (leaf || st->st_uid != 0)) {
		say(msg, size, "%s%s%s%s is owned by uid %u, not %s%u: refused (another user could plant files)",
		    dir, sep, name, what, (unsigned)st->st_uid, leaf ? "" : "root or ", (unsigned)uid);
		return -EPERM;
	}
	if ((st->st_mode & (S_IWGRP | S_IWOTH)) && (leaf || !(st->st_mode & S_ISVTX))) {
		say(msg, size, "%s%s%s%s is writable by group or others (mode %04o): refused", dir, sep, name, what,
		    (unsigned)(st->st_mode & 07777));
		return -EPERM;
	}
	return 0;
}

/* Check the real path's chain; the leaf's lstat goes to leaf_st. With
 * parent, real is a directory to make the leaf in: it is judged as one
 * above the leaf is. */
static int check_chain(const char *dir, const char *real, bool parent, struct stat *leaf_st, char *msg,
		       size_t size)
{
	char buf[PATH_MAX];
	size_t len = strlen(real);
	struct stat st;
	int err;

	/* "/" first, then each directory below it down to the leaf. */
	if (lstat("/", &st) < 0)
		return -errno;
	if ((err = dir_ok("/", &st, len == 1 && !parent, dir, msg, size)) < 0)
		return err;
	*leaf_st = st;
	snprintf(buf, sizeof(buf), "%s", real);
	for (size_t i = 1; len > 1 && i <= len; i++) {
		bool leaf = i == len;
		char c = buf[i];

		if (!leaf && c != '/')
			continue;
		buf[i] = '\0';
		if (lstat(buf, &st) < 0) {
			err = -errno;
			say(msg, size, "%s: %s: %s", dir, buf, strerror(-err));
			return err;
		}
		if ((err = dir_ok(buf, &st, leaf && !parent, dir, msg, size)) < 0)
			return err;
		buf[i] = c;
		if (leaf)
			*leaf_st = st;
	}
	return 0;
}

/* Nothing is made inside a directory that is not safe: the nearest one of
 * dir's chain that exists is checked first, as a directory above dir. */
static int check_before_create(const char *dir, char *msg, size_t size)
{
	char buf[PATH_MAX], real[PATH_MAX], *slash;
	struct stat st;

	if (snprintf(buf, sizeof(buf), "%s", dir) >= (int)sizeof(buf))
		return 0; /* mkdir_p says it is too long */
	while (stat(buf, &st) < 0 && errno == ENOENT && strcmp(buf, ".") && strcmp(buf, "/")) {
		if (!(slash = strrchr(buf, '/')))
			snprintf(buf, sizeof(buf), ".");
		else if (slash == buf)
			buf[1] = '\0';
		else
			*slash = '\0';
	}
	/* dir itself is there (the check after covers it), or a failure
	 * other than a missing directory, which mkdir_p or realpath reports */
	if (!strcmp(buf, dir) || !realpath(buf, real))
		return 0;
	return check_chain(dir, real, true, &st, msg, size);
}

static int check(const char *dir, bool create, char *real, struct stat *st, char *msg, size_t size)
{
	int err;

	if (!dir || !*dir) {
		say(msg, size, "empty directory name");
		return -EINVAL;
	}
	if (create && (err = check_before_create(dir, msg, size)) < 0)
		return err;
	if (create && (err = mkdir_p(dir, real, PATH_MAX)) < 0) {
		say(msg, size, "cannot create %s: %s", err == -ENAMETOOLONG ? dir : real, strerror(-err));
		return err;
	}
	if (!realpath(dir, real)) {
		err = -errno;
		say(msg, size, "%s: %s", dir, strerror(-err));
		return err;
	}
	return check_chain(dir, real, false, st, msg, size);
}

int safe_dir_check(const char *dir, bool create, char *msg, size_t msg_size)
{
	char real[PATH_MAX];
	struct stat st;

	return check(dir, create, real, &st, msg, msg_size);
}

int safe_dir_open(const char *dir, bool create, struct safe_dir *d, char *msg, size_t msg_size)
{
	char real[PATH_MAX];
	struct stat st, fst;
	int err;

	d->fd = -1;
	d->path[0] = '\0';
	if ((err = check(dir, create, real, &st, msg, msg_size)) < 0)
		return err;
	d->fd = open(real, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (d->fd < 0) {
		err = -errno;
		say(msg, msg_size, "%s: %s", dir, strerror(-err));
		return err;
	}
	/* The directory opened is the one checked, and still as checked. */
	if (fstat(d->fd, &fst) < 0 || fst.st_dev != st.st_dev || fst.st_ino != st.st_ino ||
	    (err = dir_ok(dir, &fst, true, dir, msg, msg_size)) < 0) {
		if (!err) {
			err = -EPERM;
			say(msg, msg_size, "%s changed while it was checked: refused", dir);
		}
		safe_dir_close(d);
		return err;
	}
	snprintf(d->path, sizeof(d->path), "%s", dir);
	return 0;
}

void safe_dir_close(struct safe_dir *d)
{
	if (d && d->fd >= 0) {
		close(d->fd);
		d->fd = -1;
	}
}

int safe_dir_sync(const struct safe_dir *d)
{
	return fsync(d->fd) < 0 ? -errno : 0;
}

/* The rules for a file: regular, one link, the uid's own, not group/other writable. */
static int file_ok(const struct safe_dir *d, const char *name, int fd, char *msg, size_t size)
{
	struct stat st;

	if (fstat(fd, &st) < 0) {
		int err = -errno;
		say(msg, size, "%s/%s: %s", d->path, name, strerror(-err));
		return err;
	}
	if (!S_ISREG(st.st_mode)) {
		say(msg, size, "%s/%s is not a regular file: refused", d->path, name);
		return -EPERM;
	}
	if (st.st_uid != geteuid()) {
		say(msg, size, "%s/%s is owned by uid %u, not %u: refused", d->path, name, (unsigned)st.st_uid,
		    (unsigned)geteuid());
		return -EPERM;
	}
	if (st.st_mode & (S_IWGRP | S_IWOTH)) {
		say(msg, size, "%s/%s is writable by group or others (mode %04o): refused", d->path, name,
		    (unsigned)(st.st_mode & 07777));
		return -EPERM;
	}
	if (st.st_nlink != 1) {
		say(msg, size, "%s/%s has %lu hard links: refused", d->path, name, (unsigned long)st.st_nlink);
		return -EPERM;
	}
	return 0;
}

int safe_open(const struct safe_dir *d, const char *name, int flags, char *msg, size_t msg_size)
{
	bool trunc = flags & O_TRUNC;
	int fd, err;

	if (!name || !*name || strchr(name, '/')) {
		say(msg, msg_size, "%s: bad file name", d->path);
		return -EINVAL;
	}
	/* O_TRUNC only after the checks: never truncate a file that is refused. */
	fd = openat(d->fd, name, (flags & ~O_TRUNC) | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0600);
	if (fd < 0) {
		err = -errno;
		if (err == -ELOOP) {
			say(msg, msg_size, "%s/%s is a symbolic link: refused", d->path, name);
			return -EPERM;
		}
		if (err == -ENXIO) { /* a FIFO without reader, a socket, a device */
			say(msg, msg_size, "%s/%s is not a regular file: refused", d->path, name);
			return -EPERM;
		}
		say(msg, msg_size, "%s/%s: %s", d->path, name, strerror(-err));
		return err;
	}
	if ((err = file_ok(d, name, fd, msg, msg_size)) < 0 ||
	    (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) < 0 && (err = -errno)) ||
	    (trunc && ftruncate(fd, 0) < 0 && (err = -errno))) {
		if (err != -EPERM)
			say(msg, msg_size, "%s/%s: %s", d->path, name, strerror(-err));
		close(fd);
		return err;
	}
	return fd;
}

int safe_open_read(const struct safe_dir *d, const char *name, char *msg, size_t msg_size)
{
	return safe_open(d, name, O_RDONLY, msg, msg_size);
}

ssize_t safe_read_all(const struct safe_dir *d, const char *name, size_t max, char **buf, char *msg,
		      size_t msg_size)
{
	size_t len = 0, cap = 4096;
	char *p = malloc(cap);
	int fd;

	*buf = NULL;
	if (!p)
		return -ENOMEM;
	if ((fd = safe_open_read(d, name, msg, msg_size)) < 0) {
		free(p);
		return fd;
	}
	for (;;) {
		ssize_t n;

		/* Full, and len <= max (checked after each read): grow. */
		if (len + 1 == cap) {
			char *q = realloc(p, cap * 2);
			if (!q) {
				say(msg, msg_size, "%s/%s: %s", d->path, name, strerror(ENOMEM));
				free(p);
				close(fd);
				return -ENOMEM;
			}
			p = q;
			cap *= 2;
		}
		n = read(fd, p + len, cap - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int err = -errno;
			say(msg, msg_size, "%s/%s: %s", d->path, name, strerror(-err));
			free(p);
			close(fd);
			return err;
		}
		if (n == 0)
			break;
		len += (size_t)n;
		if (len > max) {
			say(msg, msg_size, "%s/%s: larger than %zu bytes: refused", d->path, name, max);
			free(p);
			close(fd);
			return -EFBIG;
		}
	}
	close(fd);
	p[len] = '\0';
	*buf = p;
	return (ssize_t)len;
}

int safe_create_tmp(const struct safe_dir *d, const char *prefix, char *name, size_t name_size, char *msg,
		    size_t msg_size)
{
	static const char set[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

	for (int tries = 0; tries < TMP_TRIES; tries++) {
		char suffix[TMP_SUFFIX + 1];
		uint64_t v;
		int fd;

		/* No entropy yet: the pid and a counter are unique enough with
		 * O_EXCL, each value (below 62^8) a name of its own. */
		if (getrandom(&v, sizeof(v), 0) != (ssize_t)sizeof(v))
			v = (uint64_t)getpid() * 1000003u + (unsigned)tries;
		for (size_t i = 0; i < TMP_SUFFIX; i++, v /= sizeof(set) - 1)
			suffix[i] = set[v % (sizeof(set) - 1)];
		suffix[TMP_SUFFIX] = '\0';
		if (snprintf(name, name_size, "%s.%s", prefix, suffix) >= (int)name_size)
			return -ENAMETOOLONG;
		fd = openat(d->fd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd >= 0)
			return fd;
		if (errno != EEXIST) {
			int err = -errno;
			say(msg, msg_size, "%s/%s: %s", d->path, name, strerror(-err));
			return err;
		}
	}
	say(msg, msg_size, "%s: no unused temporary name after %d tries", d->path, TMP_TRIES);
	return -EEXIST;
}

int safe_rename(const struct safe_dir *d, const char *from, const char *to)
{
	return renameat(d->fd, from, d->fd, to) < 0 ? -errno : 0;
}

int safe_link(const struct safe_dir *d, const char *from, const char *to)
{
	return linkat(d->fd, from, d->fd, to, 0) < 0 ? -errno : 0;
}

int safe_write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t w = write(fd, p, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		if (w == 0)
			return -EIO;
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

int safe_unlink(const struct safe_dir *d, const char *name)
{
	return unlinkat(d->fd, name, 0) < 0 ? -errno : 0;
}

int safe_dir_lock(const struct safe_dir *d)
{
	while (flock(d->fd, LOCK_EX) < 0)
		if (errno != EINTR)
			return -errno;
	return 0;
}

int safe_dir_unlock(const struct safe_dir *d)
{
	return flock(d->fd, LOCK_UN) < 0 ? -errno : 0;
}

/* "PREFIX." and safe_create_tmp's 8 letters or digits, nothing else. */
static bool tmp_name(const char *name, const char *prefix)
{
	size_t n = strlen(prefix);

	if (strncmp(name, prefix, n) || name[n] != '.' || strlen(name + n + 1) != TMP_SUFFIX)
		return false;
	for (const char *p = name + n + 1; *p; p++)
		if (!isalnum((unsigned char)*p))
			return false;
	return true;
}

int safe_remove_stale(const struct safe_dir *d, const char *prefix)
{
	int fd = openat(d->fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC), n = 0;
	struct dirent *e;
	DIR *dir;

	if (fd < 0)
		return -errno;
	if (!(dir = fdopendir(fd))) {
		close(fd);
		return -errno;
	}
	while ((e = readdir(dir))) {
		struct stat st;

		if (!tmp_name(e->d_name, prefix))
			continue;
		/* lstat through the directory: a link is judged as a link. */
		if (fstatat(d->fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    !(S_ISREG(st.st_mode) || S_ISLNK(st.st_mode)))
			continue;
		if (unlinkat(d->fd, e->d_name, 0) == 0)
			n++;
	}
	closedir(dir);
	return n;
}

int safe_save(const char *path, int (*write)(FILE *f, const void *arg), const void *arg, char *msg,
	      size_t msg_size)
{
	const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
	char dir[PATH_MAX], tmp[NAME_MAX + 16], prefix[NAME_MAX + 2];
	struct safe_dir d;
	FILE *f;
	int fd, err;

	msg[0] = '\0';
	if (!*base || strlen(path) >= sizeof(dir) || strlen(base) > NAME_MAX - 10) {
		say(msg, msg_size, "%s: not a file name", path);
		return -EINVAL;
	}
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == path)
		snprintf(dir, sizeof(dir), "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	if ((err = safe_dir_open(dir, false, &d, msg, msg_size)) < 0)
		return err;
	snprintf(prefix, sizeof(prefix), ".%s", base);
	if ((fd = safe_create_tmp(&d, prefix, tmp, sizeof(tmp), msg, msg_size)) < 0) {
		safe_dir_close(&d);
		return fd;
	}
	if (!(f = fdopen(fd, "w"))) {
		err = -errno;
		close(fd);
	} else {
		err = write(f, arg);
		if (fflush(f) != 0 || fsync(fileno(f)) != 0)
			err = err ? err : -errno;
		if (fclose(f) != 0 && !err)
			err = -errno;
	}
	if (!err && (err = safe_rename(&d, tmp, base)) == 0)
		err = safe_dir_sync(&d);
	else
		safe_unlink(&d, tmp);
	if (err && !msg[0])
		say(msg, msg_size, "%s: %s", path, strerror(-err));
	safe_dir_close(&d);
	return err;
}
