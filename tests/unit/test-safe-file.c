/* safe-file: the directory chain (owner, group/other-writable, sticky
 * parents), files opened without following links or blocking (symlink, FIFO,
 * hard link, mode, owner), O_TRUNC only after the checks, unique O_EXCL
 * temporary files; and snapshot_save, which writes through it. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "safe-file.h"
#include "snapshot.h"
#include "unit.h"

static char *tmpdir(void)
{
	char tmpl[] = "/tmp/blktune-unit-XXXXXX";
	char *d = mkdtemp(tmpl);

	ck_assert_ptr_nonnull(d);
	return strdup(d);
}

static const char *at(const char *dir, const char *name)
{
	static char buf[4][600];
	static int slot;
	char *p = buf[slot++ % 4];

	snprintf(p, 600, "%s/%s", dir, name);
	return p;
}

START_TEST(test_dir_chain)
{
	char *dir = tmpdir(), msg[512], link[600];
	struct safe_dir d;

	/* Created 0700, with its parents. */
	ck_assert_int_eq(safe_dir_check(at(dir, "a/b/c"), true, msg, sizeof(msg)), 0);
	ck_assert_int_eq(safe_dir_check(at(dir, "missing"), false, msg, sizeof(msg)), -ENOENT);
	ck_assert_int_eq(chmod(at(dir, "a/b/c"), 0750), 0);
	ck_assert_int_eq(safe_dir_check(at(dir, "a/b/c"), false, msg, sizeof(msg)), 0);
	ck_assert_int_eq(chmod(at(dir, "a/b/c"), 0770), 0);
	ck_assert_int_eq(safe_dir_check(at(dir, "a/b/c"), false, msg, sizeof(msg)), -EPERM);
	ck_assert_msg(strstr(msg, "c is writable by group or others (mode 0770): refused"), "%s", msg);
	ck_assert_int_eq(chmod(at(dir, "a/b/c"), 0700), 0);
	/* A parent others can write, unless it is sticky. */
	ck_assert_int_eq(chmod(at(dir, "a"), 0777), 0);
	ck_assert_int_eq(safe_dir_check(at(dir, "a/b/c"), false, msg, sizeof(msg)), -EPERM);
	ck_assert_msg(strstr(msg, "/a above it is writable by group or others (mode 0777)"), "%s", msg);
	ck_assert_int_eq(chmod(at(dir, "a"), 01777), 0);
	ck_assert_int_eq(safe_dir_check(at(dir, "a/b/c"), false, msg, sizeof(msg)), 0);
	/* A sticky directory is not enough for the directory itself. */
	ck_assert_int_eq(safe_dir_check(at(dir, "a"), false, msg, sizeof(msg)), -EPERM);
	ck_assert_int_eq(chmod(at(dir, "a"), 0700), 0);
	/* Through a symlink: the real chain is checked and opened. */
	snprintf(link, sizeof(link), "%s/link", dir);
	ck_assert_int_eq(symlink(at(dir, "a/b/c"), link), 0);
	ck_assert_int_eq(safe_dir_open(link, false, &d, msg, sizeof(msg)), 0);
	ck_assert_str_eq(d.path, link);
	safe_dir_close(&d);
	ck_assert_int_eq(chmod(at(dir, "a/b"), 0757), 0);
	d.fd = 1234; /* what a failure leaves, whatever was there */
	ck_assert_int_eq(safe_dir_open(link, false, &d, msg, sizeof(msg)), -EPERM);
	ck_assert_int_eq(d.fd, -1);
	ck_assert_str_eq(d.path, "");
	ck_assert_int_eq(chmod(at(dir, "a/b"), 0700), 0);
	/* Not a directory. */
	unit_write_file(at(dir, "file"), "x");
	ck_assert_int_eq(safe_dir_check(at(dir, "file"), false, msg, sizeof(msg)), -ENOTDIR);
	if (geteuid() == 0) {
		ck_assert_int_eq(chown(at(dir, "a/b/c"), 65534, 65534), 0);
		ck_assert_int_eq(safe_dir_check(at(dir, "a/b/c"), false, msg, sizeof(msg)), -EPERM);
		ck_assert_msg(strstr(msg, "is owned by uid 65534, not 0"), "%s", msg);
		ck_assert_int_eq(chown(at(dir, "a/b/c"), 0, 0), 0);
		/* Above it, another user's directory is refused too, root's is fine. */
		ck_assert_int_eq(chown(at(dir, "a"), 65534, 65534), 0);
		ck_assert_int_eq(safe_dir_check(at(dir, "a/b/c"), false, msg, sizeof(msg)), -EPERM);
		ck_assert_msg(strstr(msg, "above it is owned by uid 65534, not root or 0"), "%s", msg);
	}
	unit_rmtree(dir);
	free(dir);
}
END_TEST

/* Creating: the nearest directory of the chain that exists is checked, as
 * one above the leaf, before anything is made in it (absolute or relative
 * name); a directory of the chain that cannot be made is the one named; a
 * name too long is refused before anything is made. */
START_TEST(test_create_checks_first)
{
	char *dir = tmpdir(), msg[512], cwd[PATH_MAX], *longname = malloc(PATH_MAX + 1);
	struct stat st;
	size_t len;
	int before;

	ck_assert_ptr_nonnull(getcwd(cwd, sizeof(cwd)));
	ck_assert_int_eq(mkdir(at(dir, "open"), 0700), 0);
	ck_assert_int_eq(chmod(at(dir, "open"), 0777), 0);
	ck_assert_int_eq(safe_dir_check(at(dir, "open/new/sub"), true, msg, sizeof(msg)), -EPERM);
	ck_assert_msg(strstr(msg, "/open above it is writable by group or others (mode 0777)"), "%s", msg);
	ck_assert_int_eq(lstat(at(dir, "open/new"), &st), -1);
	ck_assert_int_eq(safe_dir_check(at(dir, "open/new"), true, msg, sizeof(msg)), -EPERM);
	ck_assert_int_eq(lstat(at(dir, "open/new"), &st), -1);
	ck_assert_int_eq(chdir(at(dir, "open")), 0);
	ck_assert_int_eq(safe_dir_check("new", true, msg, sizeof(msg)), -EPERM);
	ck_assert_int_eq(safe_dir_check("new/sub", true, msg, sizeof(msg)), -EPERM);
	ck_assert_int_eq(lstat(at(dir, "open/new"), &st), -1);
	/* Sticky, it is fine above (not as the leaf). */
	ck_assert_int_eq(chmod(at(dir, "open"), 01777), 0);
	ck_assert_int_eq(safe_dir_check("new/sub", true, msg, sizeof(msg)), 0);
	ck_assert_int_eq(lstat(at(dir, "open/new/sub"), &st), 0);
	ck_assert_uint_eq(st.st_mode & 07777, 0700);
	ck_assert_int_eq(chdir(dir), 0);
	ck_assert_int_eq(safe_dir_check("rel/sub", true, msg, sizeof(msg)), 0);
	ck_assert_int_eq(lstat(at(dir, "rel/sub"), &st), 0);
	ck_assert_int_eq(chdir(cwd), 0);
	/* A file in the chain: the directory that could not be made is named. */
	unit_write_file(at(dir, "file"), "x");
	ck_assert_int_eq(safe_dir_check(at(dir, "file/x/y"), true, msg, sizeof(msg)), -ENOTDIR);
	ck_assert_msg(strstr(msg, "cannot create ") && strstr(msg, "/file/x: Not a directory") &&
			      !strstr(msg, "/x/y"), "%s", msg);
	/* PATH_MAX long (no room for its NUL): said to be too long, nothing
	 * made, under a safe directory or an unsafe one. */
	ck_assert_int_eq(chmod(at(dir, "open"), 0777), 0);
	for (int unsafe = 0; unsafe < 2; unsafe++) {
		const char *base = at(dir, unsafe ? "open" : "rel");

		before = unit_count_entries(base);
		len = (size_t)snprintf(longname, PATH_MAX + 1, "%s", base);
		while (len < PATH_MAX) {
			size_t n = PATH_MAX - len - 1 > 100 ? 100 : PATH_MAX - len - 1;

			if (PATH_MAX - len - 1 - n == 1)
				n--; /* never a last component of nothing */
			longname[len++] = '/';
			memset(longname + len, 'd', n);
			len += n;
			longname[len] = '\0';
		}
		ck_assert_uint_eq(strlen(longname), PATH_MAX);
		ck_assert_int_eq(safe_dir_check(longname, true, msg, sizeof(msg)), -ENAMETOOLONG);
		ck_assert_msg(strstr(msg, "cannot create ") && strstr(msg, ": File name too long"), "%s", msg);
		ck_assert_int_eq(unit_count_entries(base), before);
	}
	/* No name. */
	ck_assert_int_eq(safe_dir_check("", true, msg, sizeof(msg)), -EINVAL);
	ck_assert_str_eq(msg, "empty directory name");
	ck_assert_int_eq(safe_dir_check(NULL, false, msg, sizeof(msg)), -EINVAL);
	free(longname);
	unit_rmtree(dir);
	free(dir);
}
END_TEST

struct as_nobody {
	const char *own;    /* a directory nobody owns */
	const char *closed; /* and one it may not read (mode 0) */
};

/* As a user: root's / above is fine, / itself is not the user's own. */
static int check_as_nobody(void *arg)
{
	const struct as_nobody *a = arg;
	struct safe_dir d;
	char msg[512];

	if (setgroups(0, NULL) < 0 || setresgid(65534, 65534, 65534) < 0 || setresuid(65534, 65534, 65534) < 0)
		return 10;
	if (safe_dir_check(a->own, false, msg, sizeof(msg)) != 0)
		return 11;
	if (safe_dir_check("/", false, msg, sizeof(msg)) != -EPERM || !strstr(msg, "/ is owned by uid 0, not 65534"))
		return 12;
	if (safe_dir_check(a->closed, false, msg, sizeof(msg)) != 0)
		return 13;
	if (safe_dir_open(a->closed, false, &d, msg, sizeof(msg)) != -EACCES || d.fd != -1 ||
	    !strstr(msg, "closed: Permission denied"))
		return 14;
	return 0;
}

START_TEST(test_dir_chain_as_user)
{
	char *dir = tmpdir();
	struct as_nobody a = { at(dir, "own"), at(dir, "closed") };
	struct safe_dir d;
	char msg[512];

	if (geteuid() != 0) { /* becoming another user takes root */
		unit_rmtree(dir);
		free(dir);
		return;
	}
	ck_assert_int_eq(safe_dir_check("/", false, msg, sizeof(msg)), 0);
	ck_assert_int_eq(safe_dir_open("/", false, &d, msg, sizeof(msg)), 0);
	safe_dir_close(&d);
	ck_assert_int_eq(chmod(dir, 0755), 0);
	ck_assert_int_eq(mkdir(a.own, 0700), 0);
	ck_assert_int_eq(chown(a.own, 65534, 65534), 0);
	ck_assert_int_eq(mkdir(a.closed, 0), 0);
	ck_assert_int_eq(chown(a.closed, 65534, 65534), 0);
	ck_assert_int_eq(unit_in_child(check_as_nobody, &a), 0);
	unit_rmtree(dir);
	free(dir);
}
END_TEST

START_TEST(test_open_rules)
{
	char *dir = tmpdir(), msg[512], name[64], name2[64];
	struct safe_dir d;
	struct stat st;
	int fd, fds;

	ck_assert_int_eq(safe_dir_open(dir, false, &d, msg, sizeof(msg)), 0);
	fds = unit_count_fds();
	unit_write_file(at(dir, "victim"), "precious\n");
	ck_assert_int_eq(chmod(at(dir, "victim"), 0600), 0);
	ck_assert_int_eq(symlink(at(dir, "victim"), at(dir, "link")), 0);
	/* A symlink is never followed, for reading or writing or creating. */
	ck_assert_int_eq(safe_open_read(&d, "link", msg, sizeof(msg)), -EPERM);
	ck_assert_msg(strstr(msg, "link is a symbolic link: refused"), "%s", msg);
	ck_assert_int_eq(safe_open(&d, "link", O_WRONLY | O_CREAT | O_TRUNC, msg, sizeof(msg)), -EPERM);
	ck_assert_int_eq(symlink(at(dir, "nothing-yet"), at(dir, "dangling")), 0);
	ck_assert_int_eq(safe_open(&d, "dangling", O_WRONLY | O_CREAT, msg, sizeof(msg)), -EPERM);
	ck_assert_int_eq(access(at(dir, "nothing-yet"), F_OK), -1);
	ck_assert_str_eq(unit_slurp(at(dir, "victim")), "precious\n");
	/* A FIFO opens without blocking, for reading or writing, and is refused. */
	ck_assert_int_eq(mkfifo(at(dir, "fifo"), 0600), 0);
	ck_assert_int_eq(safe_open_read(&d, "fifo", msg, sizeof(msg)), -EPERM);
	ck_assert_msg(strstr(msg, "fifo is not a regular file"), "%s", msg);
	ck_assert_int_eq(safe_open(&d, "fifo", O_WRONLY | O_APPEND, msg, sizeof(msg)), -EPERM);
	ck_assert_int_eq(safe_open(&d, "fifo", O_RDWR, msg, sizeof(msg)), -EPERM);
	/* A directory, a second hard link, group/other-writable: refused. */
	ck_assert_int_eq(mkdir(at(dir, "sub"), 0700), 0);
	ck_assert_int_eq(safe_open_read(&d, "sub", msg, sizeof(msg)), -EPERM);
	ck_assert_int_eq(link(at(dir, "victim"), at(dir, "hard")), 0);
	ck_assert_int_eq(safe_open_read(&d, "victim", msg, sizeof(msg)), -EPERM);
	ck_assert_msg(strstr(msg, "victim has 2 hard links"), "%s", msg);
	ck_assert_int_eq(unlink(at(dir, "hard")), 0);
	ck_assert_int_eq(chmod(at(dir, "victim"), 0646), 0);
	/* O_TRUNC never reaches a refused file. */
	ck_assert_int_eq(safe_open(&d, "victim", O_WRONLY | O_TRUNC, msg, sizeof(msg)), -EPERM);
	ck_assert_str_eq(unit_slurp(at(dir, "victim")), "precious\n");
	ck_assert_msg(strstr(msg, "victim is writable by group or others (mode 0646): refused"), "%s", msg);
	ck_assert_int_eq(chmod(at(dir, "victim"), 0775), 0);
	ck_assert_int_eq(safe_open(&d, "victim", O_WRONLY | O_TRUNC, msg, sizeof(msg)), -EPERM);
	ck_assert_msg(strstr(msg, "(mode 0775)"), "%s", msg);
	ck_assert_int_eq(unit_count_fds(), fds); /* every refused descriptor closed */
	ck_assert_int_eq(chmod(at(dir, "victim"), 0644), 0);
	fd = safe_open(&d, "victim", O_WRONLY | O_TRUNC, msg, sizeof(msg));
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(fstat(fd, &st), 0);
	ck_assert_int_eq(st.st_size, 0);
	ck_assert_int_eq(fcntl(fd, F_GETFL) & O_NONBLOCK, 0);
	ck_assert_int_ne(fcntl(fd, F_GETFD) & FD_CLOEXEC, 0);
	close(fd);
	/* created 0600 */
	fd = safe_open(&d, "new", O_WRONLY | O_CREAT | O_EXCL, msg, sizeof(msg));
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(fstat(fd, &st), 0);
	ck_assert_uint_eq(st.st_mode & 07777, 0600);
	close(fd);
	ck_assert_int_eq(safe_open_read(&d, "absent", msg, sizeof(msg)), -ENOENT);
	ck_assert_int_eq(safe_open_read(&d, "../victim", msg, sizeof(msg)), -EINVAL);
	/* Temporary files: new, 0600, unique names. */
	fd = safe_create_tmp(&d, "t", name, sizeof(name), msg, sizeof(msg));
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(fstat(fd, &st), 0);
	ck_assert_int_eq(st.st_mode & 07777, 0600);
	close(fd);
	fd = safe_create_tmp(&d, "t", name2, sizeof(name2), msg, sizeof(msg));
	ck_assert_int_ge(fd, 0);
	close(fd);
	ck_assert_str_ne(name, name2);
	ck_assert_int_eq(strncmp(name, "t.", 2), 0);
	ck_assert_uint_eq(strlen(name), 10);
	/* link never replaces; rename does; unlink. */
	ck_assert_int_eq(safe_link(&d, name, name2), -EEXIST);
	ck_assert_int_eq(safe_rename(&d, name, name2), 0);
	ck_assert_int_eq(safe_unlink(&d, name2), 0);
	ck_assert_int_eq(safe_unlink(&d, name2), -ENOENT);
	safe_dir_close(&d);
	unit_rmtree(dir);
	free(dir);
}
END_TEST

/* A file of n bytes, byte i being i * 31 + i / 4096 (each buffer's bytes
 * differ from the one before's). */
static void write_bytes(const char *path, size_t n)
{
	FILE *f = fopen(path, "w");

	ck_assert_ptr_nonnull(f);
	for (size_t i = 0; i < n; i++)
		fputc((int)(unsigned char)(i * 31 + i / 4096), f);
	ck_assert_int_eq(ferror(f), 0);
	ck_assert_int_eq(fclose(f), 0);
}

static bool has_pattern_bytes(const char *buf, size_t n)
{
	size_t i = 0;

	while (i < n && buf[i] == (char)(unsigned char)(i * 31 + i / 4096))
		i++;
	return i == n;
}

/* safe_read_all: the whole file at every size around a buffer's (4096, less
 * its NUL), past several; max bytes read, one more refused; what is refused
 * to open is refused here too; no descriptor left. */
START_TEST(test_read_all)
{
	static const size_t sizes[] = { 0, 1, 4094, 4095, 4096, 4097, 8191, 8192, 3 * 4096 + 5, 100000 };
	static const size_t maxes[] = { 1, 4094, 4095, 4096, 8190, 8191, 8192, 20000 };
	char *dir = tmpdir(), msg[512], *buf;
	struct safe_dir d;
	int fds;

	ck_assert_int_eq(safe_dir_open(dir, false, &d, msg, sizeof(msg)), 0);
	fds = unit_count_fds();
	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		size_t n = sizes[k];

		write_bytes(at(dir, "f"), n);
		ck_assert_int_eq(safe_read_all(&d, "f", 1 << 20, &buf, msg, sizeof(msg)), (ssize_t)n);
		ck_assert_ptr_nonnull(buf);
		ck_assert_msg(buf[n] == '\0' && has_pattern_bytes(buf, n), "size %zu", n);
		free(buf);
	}
	for (size_t k = 0; k < sizeof(maxes) / sizeof(maxes[0]); k++) {
		size_t max = maxes[k];

		write_bytes(at(dir, "f"), max);
		ck_assert_int_eq(safe_read_all(&d, "f", max, &buf, msg, sizeof(msg)), (ssize_t)max);
		free(buf);
		write_bytes(at(dir, "f"), max + 1);
		ck_assert_int_eq(safe_read_all(&d, "f", max, &buf, msg, sizeof(msg)), -EFBIG);
		ck_assert_ptr_null(buf);
		ck_assert_msg(strstr(msg, "/f: larger than ") && strstr(msg, " bytes: refused"), "%s", msg);
		write_bytes(at(dir, "f"), 3 * max + 4096);
		ck_assert_int_eq(safe_read_all(&d, "f", max, &buf, msg, sizeof(msg)), -EFBIG);
		ck_assert_ptr_null(buf);
	}
	ck_assert_int_eq(safe_read_all(&d, "absent", 100, &buf, msg, sizeof(msg)), -ENOENT);
	ck_assert_ptr_null(buf);
	ck_assert_int_eq(symlink(at(dir, "f"), at(dir, "link")), 0);
	ck_assert_int_eq(safe_read_all(&d, "link", 1 << 20, &buf, msg, sizeof(msg)), -EPERM);
	ck_assert_ptr_null(buf);
	/* a directory opens for reading, and read() fails */
	ck_assert_int_eq(mkdir(at(dir, "sub"), 0700), 0);
	ck_assert_int_eq(safe_read_all(&d, "sub", 100, &buf, msg, sizeof(msg)), -EPERM);
	/* SIZE_MAX: no limit (max + 1 is no bound) */
	write_bytes(at(dir, "f"), 10000);
	ck_assert_int_eq(safe_read_all(&d, "f", SIZE_MAX, &buf, msg, sizeof(msg)), 10000);
	free(buf);
	/* an errno a signal left before the call changes nothing */
	write_bytes(at(dir, "f"), 5000);
	errno = EINTR;
	ck_assert_int_eq(safe_read_all(&d, "f", 1 << 20, &buf, msg, sizeof(msg)), 5000);
	free(buf);
	ck_assert_int_eq(unit_count_fds(), fds);
	safe_dir_close(&d);
	/* a read that fails: /proc/self/mem at address 0 (a regular file of ours) */
	if (geteuid() == 0) {
		ck_assert_int_eq(safe_dir_open("/proc/self", false, &d, msg, sizeof(msg)), 0);
		fds = unit_count_fds();
		ck_assert_int_eq(safe_read_all(&d, "mem", 100, &buf, msg, sizeof(msg)), -EIO);
		ck_assert_ptr_null(buf);
		ck_assert_msg(strstr(msg, "/proc/self/mem: Input/output error"), "%s", msg);
		ck_assert_int_eq(unit_count_fds(), fds);
		safe_dir_close(&d);
	}
	unit_rmtree(dir);
	free(dir);
}
END_TEST

static int write_nothing(FILE *f, const void *arg);

/* Started with stdin closed, 0 is a descriptor like any other: a directory
 * or a file opened as 0 works and is closed; a closed safe_dir (or none)
 * closes nothing. */
START_TEST(test_descriptor_zero)
{
	char *dir = tmpdir(), msg[512], name[64], *buf;
	struct safe_dir d;
	int fds, fd;

	close(0);
	fds = unit_count_fds();
	ck_assert_int_eq(safe_dir_open(dir, false, &d, msg, sizeof(msg)), 0);
	ck_assert_int_eq(d.fd, 0);
	safe_dir_close(&d);
	ck_assert_int_eq(d.fd, -1);
	ck_assert_int_eq(unit_count_fds(), fds);
	safe_dir_close(&d);
	safe_dir_close(NULL);
	ck_assert_int_eq(open("/dev/null", O_RDONLY), 0);
	ck_assert_int_eq(safe_dir_open(dir, false, &d, msg, sizeof(msg)), 0);
	ck_assert_int_gt(d.fd, 0);
	close(0);
	fd = safe_create_tmp(&d, "t", name, sizeof(name), msg, sizeof(msg));
	ck_assert_int_eq(fd, 0);
	ck_assert_int_eq(safe_write_all(fd, "x", 1), 0);
	close(fd);
	fd = safe_open(&d, name, O_WRONLY | O_APPEND, msg, sizeof(msg));
	ck_assert_int_eq(fd, 0);
	ck_assert_int_eq(safe_write_all(fd, "y", 1), 0);
	close(fd);
	ck_assert_int_eq(safe_read_all(&d, name, 100, &buf, msg, sizeof(msg)), 2);
	ck_assert_str_eq(buf, "xy");
	free(buf);
	ck_assert_int_eq(fcntl(0, F_GETFD), -1);
	ck_assert_int_eq(safe_rename(&d, name, "t.00000000"), 0);
	ck_assert_int_eq(safe_remove_stale(&d, "t"), 1);
	ck_assert_int_eq(unit_count_entries(dir), 0);
	/* safe_save with 0 free: its directory (the current one) is 0 */
	ck_assert_int_eq(chdir(dir), 0);
	ck_assert_int_eq(safe_save("saved", write_nothing, NULL, msg, sizeof(msg)), 0);
	ck_assert_int_eq(unit_count_entries(dir), 1);
	ck_assert_int_eq(safe_unlink(&d, "saved"), 0);
	safe_dir_close(&d);
	ck_assert_int_eq(unit_count_fds(), fds);
	unit_rmtree(dir);
	free(dir);
}
END_TEST

/* Temporary names: "PREFIX." and 8 letters or digits, every one a name
 * safe_remove_stale takes for one; a name buffer without room for the NUL
 * or a name the file system refuses: the error, nothing made, no retry. */
START_TEST(test_tmp_names)
{
	static const char alnum[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	char *dir = tmpdir(), msg[512], name[300], prefix[260];
	struct safe_dir d;
	int fd, fds;

	ck_assert_int_eq(safe_dir_open(dir, false, &d, msg, sizeof(msg)), 0);
	fds = unit_count_fds();
	for (int i = 0; i < 200; i++) {
		fd = safe_create_tmp(&d, ".p", name, sizeof(name), msg, sizeof(msg));
		ck_assert_int_ge(fd, 0);
		close(fd);
		ck_assert_uint_eq(strlen(name), 11);
		ck_assert_int_eq(strncmp(name, ".p.", 3), 0);
		ck_assert_msg(strspn(name + 3, alnum) == 8, "%s", name);
	}
	ck_assert_int_eq(unit_count_entries(dir), 200);
	ck_assert_int_eq(safe_remove_stale(&d, ".p"), 200);
	ck_assert_int_eq(unit_count_entries(dir), 0);
	/* ".p." and 8: 11 bytes and a NUL */
	ck_assert_int_eq(safe_create_tmp(&d, ".p", name, 11, msg, sizeof(msg)), -ENAMETOOLONG);
	ck_assert_int_eq(unit_count_entries(dir), 0);
	fd = safe_create_tmp(&d, ".p", name, 12, msg, sizeof(msg));
	ck_assert_int_ge(fd, 0);
	close(fd);
	ck_assert_int_eq(unit_count_entries(dir), 1);
	/* longer than NAME_MAX: openat's ENAMETOOLONG, said */
	memset(prefix, 'p', 250);
	prefix[250] = '\0';
	ck_assert_int_eq(safe_create_tmp(&d, prefix, name, sizeof(name), msg, sizeof(msg)), -ENAMETOOLONG);
	ck_assert_msg(strstr(msg, ": File name too long"), "%s", msg);
	ck_assert_int_eq(unit_count_fds(), fds);
	safe_dir_close(&d);
	unit_rmtree(dir);
	free(dir);
}
END_TEST

/* Without entropy (getrandom refused, as before the kernel's pool is
 * ready): the names come from the pid and the try, still "PREFIX." and 8
 * letters or digits; 100 tries, then -EEXIST; another process's names are
 * others. Returns the first check that fails, 0 when none does. */
static int tmp_without_entropy(void *arg)
{
	struct sock_filter insns[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getrandom, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { sizeof(insns) / sizeof(insns[0]), insns };
	const struct safe_dir *d = arg;
	char name[64], msg[512], one;
	int fd, check = 1;

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) < 0)
		return check;
	if (getrandom(&one, 1, 0) != -1 || errno != ENOSYS)
		return check + 1;
	check += 2;
	for (int i = 0; i < 100; i++, check++) {
		fd = safe_create_tmp(d, "t", name, sizeof(name), msg, sizeof(msg));
		if (fd < 0 || close(fd) < 0 || strlen(name) != 10 || strncmp(name, "t.", 2))
			return check;
		for (const char *c = name + 2; *c; c++)
			if (!isalnum((unsigned char)*c))
				return check;
	}
	if (safe_create_tmp(d, "t", name, sizeof(name), msg, sizeof(msg)) != -EEXIST ||
	    !strstr(msg, ": no unused temporary name after 100 tries"))
		return check;
	return 0;
}

START_TEST(test_tmp_without_entropy)
{
	char *dir = tmpdir(), msg[512];
	struct safe_dir d;

	ck_assert_int_eq(safe_dir_open(dir, false, &d, msg, sizeof(msg)), 0);
	ck_assert_int_eq(unit_in_child(tmp_without_entropy, &d), 0);
	ck_assert_int_eq(unit_count_entries(dir), 100);
	/* a second process: 100 names of its own */
	ck_assert_int_eq(unit_in_child(tmp_without_entropy, &d), 0);
	ck_assert_int_eq(unit_count_entries(dir), 200);
	safe_dir_close(&d);
	unit_rmtree(dir);
	free(dir);
}
END_TEST

/* Snapshots: the TUI's w and sweep write through snapshot_save. */
START_TEST(test_snapshot_save_safe)
{
	char *dir = tmpdir(), path[4096], msg[512], stamp[32], planted[700];
	struct snapshot s;
	struct tm tm;
	time_t when;

	snapshot_init(&s);
	snprintf(s.host, sizeof(s.host), "h");
	snprintf(s.kernel, sizeof(s.kernel), "k");
	s.time = 1764547200.0;
	s.window = 1;
	/* A directory others can write: refused, nothing created. */
	ck_assert_int_eq(mkdir(at(dir, "open"), 0777), 0);
	ck_assert_int_eq(chmod(at(dir, "open"), 0777), 0);
	ck_assert_int_eq(snapshot_save(&s, at(dir, "open"), "A", path, sizeof(path), msg, sizeof(msg)), -EPERM);
	ck_assert_msg(strstr(msg, "snapshot directory ") && strstr(msg, "writable by group or others"), "%s", msg);
	ck_assert_int_eq(rmdir(at(dir, "open")), 0);
	/* The default directory ($XDG_STATE_HOME/blktune) is checked too. */
	ck_assert_int_eq(mkdir(at(dir, "state"), 0700), 0);
	ck_assert_int_eq(mkdir(at(dir, "state/blktune"), 0700), 0);
	ck_assert_int_eq(chmod(at(dir, "state/blktune"), 0777), 0);
	setenv("XDG_STATE_HOME", at(dir, "state"), 1);
	ck_assert_int_eq(snapshot_save(&s, NULL, "A", path, sizeof(path), msg, sizeof(msg)), -EPERM);
	ck_assert_int_eq(chmod(at(dir, "state/blktune"), 0700), 0);
	ck_assert_int_eq(snapshot_save(&s, NULL, "A", path, sizeof(path), msg, sizeof(msg)), 0);
	unsetenv("XDG_STATE_HOME");
	/* A link planted at the final name is never followed nor replaced. */
	unit_write_file(at(dir, "victim"), "precious\n");
	ck_assert_int_eq(mkdir(at(dir, "snaps"), 0700), 0);
	when = (time_t)s.time;
	localtime_r(&when, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	snprintf(planted, sizeof(planted), "%s/snaps/%s-A.snap", dir, stamp);
	ck_assert_int_eq(symlink(at(dir, "victim"), planted), 0);
	ck_assert_int_eq(snapshot_save(&s, at(dir, "snaps"), "A", path, sizeof(path), msg, sizeof(msg)), 0);
	ck_assert_msg(strstr(path, "-A-2.snap"), "%s", path);
	ck_assert_str_eq(unit_slurp(at(dir, "victim")), "precious\n");
	snapshot_free(&s);
	unit_rmtree(dir);
	free(dir);
}
END_TEST

/* What a kill -9 left: safe_remove_stale removes the regular files named as
 * safe_create_tmp names them, and a link of such a name itself (its target
 * untouched); never a directory, a FIFO, or another name. snapshot_save does
 * it under the directory's lock, which it holds while its own file exists. */
START_TEST(test_remove_stale)
{
	char *dir = tmpdir(), msg[512], path[4096], name[64];
	struct safe_dir d;
	struct snapshot s;
	struct stat st;
	int fd;

	unit_write_file(at(dir, "victim"), "precious\n");
	ck_assert_int_eq(mkdir(at(dir, "s"), 0700), 0);
	unit_write_file(at(dir, "s/.snapshot.AbCd1234"), "half a snapshot");
	ck_assert_int_eq(symlink(at(dir, "victim"), at(dir, "s/.snapshot.LinkLink")), 0);
	ck_assert_int_eq(mkdir(at(dir, "s/.snapshot.DirDir00"), 0700), 0);
	ck_assert_int_eq(mkfifo(at(dir, "s/.snapshot.Fifo0000"), 0600), 0);
	unit_write_file(at(dir, "s/.snapshot.short"), "not ours");
	unit_write_file(at(dir, "s/.snapshot.AbCd1234.x"), "not ours");
	unit_write_file(at(dir, "s/.snapshotXAbCd1234"), "not ours");
	unit_write_file(at(dir, "s/kept.snap"), "a snapshot");
	ck_assert_int_eq(safe_dir_open(at(dir, "s"), false, &d, msg, sizeof(msg)), 0);
	ck_assert_int_eq(safe_dir_lock(&d), 0);
	ck_assert_int_eq(safe_remove_stale(&d, ".snapshot"), 2);
	ck_assert_int_eq(safe_dir_unlock(&d), 0);
	ck_assert_int_eq(lstat(at(dir, "s/.snapshot.AbCd1234"), &st), -1);
	ck_assert_int_eq(lstat(at(dir, "s/.snapshot.LinkLink"), &st), -1);
	ck_assert_str_eq(unit_slurp(at(dir, "victim")), "precious\n");
	ck_assert_int_eq(lstat(at(dir, "s/.snapshot.DirDir00"), &st), 0);
	ck_assert_int_eq(lstat(at(dir, "s/.snapshot.Fifo0000"), &st), 0);
	ck_assert_int_eq(lstat(at(dir, "s/.snapshot.short"), &st), 0);
	ck_assert_int_eq(lstat(at(dir, "s/.snapshot.AbCd1234.x"), &st), 0);
	ck_assert_int_eq(lstat(at(dir, "s/.snapshotXAbCd1234"), &st), 0);
	ck_assert_int_eq(lstat(at(dir, "s/kept.snap"), &st), 0);
	/* A temporary file of a save under way (it holds the lock) is its own:
	 * the lock is exclusive, so a second one waits (not tried here); the
	 * file a save made is gone when it returns. */
	fd = safe_create_tmp(&d, ".snapshot", name, sizeof(name), msg, sizeof(msg));
	ck_assert_int_ge(fd, 0);
	close(fd);
	safe_dir_close(&d);
	snapshot_init(&s);
	snprintf(s.host, sizeof(s.host), "h");
	snprintf(s.kernel, sizeof(s.kernel), "k");
	s.time = 1764547200.0;
	s.window = 1;
	ck_assert_int_eq(snapshot_save(&s, at(dir, "s"), "A", path, sizeof(path), msg, sizeof(msg)), 0);
	snprintf(path, sizeof(path), "%s/s/%s", dir, name);
	ck_assert_msg(lstat(path, &st) == -1, "%s left by a killed save is still there", name);
	ck_assert_int_eq(lstat(at(dir, "s/.snapshot.Fifo0000"), &st), 0);
	snapshot_free(&s);
	unit_rmtree(dir);
	free(dir);
}
END_TEST

static int write_nothing(FILE *f, const void *arg)
{
	(void)f, (void)arg;
	return 0;
}

/* A message about a path too long for the caller's buffer keeps the head of
 * the path and the reason at its end, the middle elided; one that fits is
 * whole. */
START_TEST(test_message_keeps_reason)
{
	static const char reason[] = ": not a file name";
	char path[PATH_MAX + 200], msg[256];
	size_t n;

	memset(path, 'a', sizeof(path) - 1);
	path[0] = '/';
	path[sizeof(path) - 2] = 'z';
	path[sizeof(path) - 1] = '\0';
	ck_assert_int_eq(safe_save(path, write_nothing, NULL, msg, sizeof(msg)), -EINVAL);
	n = strlen(msg);
	ck_assert_uint_eq(n, sizeof(msg) - 1);
	ck_assert_str_eq(msg + n - strlen(reason), reason);
	ck_assert_msg(msg[n - strlen(reason) - 1] == 'z', "the path's last character before the reason: %s", msg);
	ck_assert_msg(strstr(msg, "...") && msg[0] == '/', "head, ..., tail: %s", msg);
	/* the smallest buffer that elides, and one too small to: cut, NUL-ended */
	ck_assert_int_eq(safe_save(path, write_nothing, NULL, msg, 8), -EINVAL);
	ck_assert_str_eq(msg, "/...ame");
	ck_assert_int_eq(safe_save(path, write_nothing, NULL, msg, 7), -EINVAL);
	ck_assert_str_eq(msg, "/aaaaa");
	/* one byte too long for msg (20 bytes): elided too, the reason whole;
	 * one that just fits: whole */
	ck_assert_int_eq(safe_save("/x/", write_nothing, NULL, msg, 20), -EINVAL);
	ck_assert_str_eq(msg, "/x/: ...a file name");
	ck_assert_int_eq(safe_save("/x/", write_nothing, NULL, msg, 21), -EINVAL);
	ck_assert_str_eq(msg, "/x/: not a file name");
	/* The longest message, two paths near PATH_MAX (the name given, and a
	 * directory of its real chain), still ends with its reason. */
	{
		char *dir = tmpdir(), *deep = malloc(PATH_MAX), *given = malloc(PATH_MAX), big[3 * PATH_MAX];
		size_t len = (size_t)snprintf(deep, PATH_MAX, "%s", dir), glen;

		while (len + 201 < PATH_MAX - 3) { /* room left for "/x" and a NUL */
			deep[len++] = '/';
			memset(deep + len, 'd', 200);
			len += 200;
			deep[len] = '\0';
			ck_assert_int_eq(mkdir(deep, 0700), 0);
		}
		ck_assert_int_eq(chmod(deep, 0777), 0); /* the leaf's parent: unsafe */
		snprintf(deep + len, PATH_MAX - len, "/x");
		ck_assert_int_eq(mkdir(deep, 0700), 0);
		/* the same directory, named PATH_MAX - 1 long: slashes in front */
		glen = strlen(deep);
		memset(given, '/', PATH_MAX - 1 - glen);
		memcpy(given + PATH_MAX - 1 - glen, deep, glen + 1);
		ck_assert_int_eq(safe_dir_check(given, false, big, sizeof(big)), -EPERM);
		ck_assert_str_eq(big + strlen(big) - 9, ": refused");
		ck_assert_msg(strlen(big) > 2 * PATH_MAX, "%zu", strlen(big));
		free(deep);
		free(given);
		unit_rmtree(dir);
		free(dir);
	}
	/* a message that fits is whole */
	ck_assert_int_eq(safe_save("", write_nothing, NULL, msg, sizeof(msg)), -EINVAL);
	ck_assert_str_eq(msg, reason);
}
END_TEST

/* safe_save's writer: n bytes of a pattern, its errors not looked at (as
 * a writer of fprintf calls), then fail as its result. */
struct pattern {
	size_t n;
	int fail;
};

static int write_pattern(FILE *f, const void *arg)
{
	const struct pattern *w = arg;

	for (size_t i = 0; i < w->n; i++)
		fputc((int)(unsigned char)(i * 31 + i / 4096), f);
	return w->fail;
}

/* path holds exactly the n bytes of the pattern. */
static bool has_pattern(const char *path, size_t n)
{
	FILE *f = fopen(path, "r");
	size_t i = 0;
	int c;

	if (!f)
		return false;
	while ((c = getc(f)) != EOF && i < n && c == (int)(unsigned char)(i * 31 + i / 4096))
		i++;
	fclose(f);
	return i == n && c == EOF;
}

static int save(const char *path, size_t n, int fail, char *msg, size_t size)
{
	struct pattern w = { n, fail };

	snprintf(msg, size, "stale"); /* a message from before is not this one */
	errno = EINTR;                /* nor is an errno from before */
	return safe_save(path, write_pattern, &w, msg, size);
}

static int lowest_free_fd(void)
{
	int fd = dup(2);

	close(fd);
	return fd;
}

static int entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

/* In a mount namespace, chrooted to a test directory (every path a mutant
 * might get wrong stays inside it), with a 64 KiB tmpfs at /full: returns
 * the number of the first check that fails, 0 when none does. */
static int save_in_chroot(void *arg)
{
	const char *dir = arg;
	char path[PATH_MAX + 1], name[300], msg[512], full[600], ro[600];
	struct stat st;
	int check = 0, fd;

#define CHECK(x)                  \
	do {                      \
		check++;          \
		if (!(x))         \
			return check; \
	} while (0)
	snprintf(full, sizeof(full), "%s/full", dir);
	snprintf(ro, sizeof(ro), "%s/ro", dir);
	CHECK(unshare(CLONE_NEWNS) == 0);
	CHECK(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0);
	CHECK(mkdir(full, 0700) == 0 && mkdir(ro, 0700) == 0);
	CHECK(mount("tmpfs", full, "tmpfs", 0, "size=64k,mode=0700") == 0);
	CHECK(mount("tmpfs", ro, "tmpfs", MS_RDONLY, "mode=0700") == 0);
	CHECK(chroot(dir) == 0 && chdir("/") == 0);
	fd = lowest_free_fd();
	/* whole, past stdio's buffer, over an old file; nothing else left */
	CHECK(mkdir("/sub", 0700) == 0);
	CHECK(save("/sub/out", 10, 0, msg, sizeof(msg)) == 0);
	CHECK(save("/sub/out", 100000, 0, msg, sizeof(msg)) == 0 && !msg[0]);
	CHECK(has_pattern("/sub/out", 100000) && stat("/sub/out", &st) == 0 && (st.st_mode & 07777) == 0600);
	CHECK(entries("/sub") == 1 && entries("/") == 3); /* sub, full, ro */
	/* in /, and relative to the current directory */
	CHECK(save("/top", 10, 0, msg, sizeof(msg)) == 0 && has_pattern("/top", 10));
	CHECK(chdir("/sub") == 0 && save("rel", 20, 0, msg, sizeof(msg)) == 0 && has_pattern("/sub/rel", 20));
	CHECK(chdir("/") == 0 && unlink("/sub/rel") == 0 && entries("/") == 4);
	/* a link at the name is replaced, never followed */
	CHECK(save("/victim", 7, 0, msg, sizeof(msg)) == 0 && symlink("/victim", "/sub/link") == 0);
	CHECK(save("/sub/link", 30, 0, msg, sizeof(msg)) == 0 && has_pattern("/victim", 7));
	CHECK(lstat("/sub/link", &st) == 0 && S_ISREG(st.st_mode) && has_pattern("/sub/link", 30));
	CHECK(unlink("/sub/link") == 0);
	/* the writer fails: its error, said; the old file as it was */
	CHECK(save("/sub/out", 5000, -EIO, msg, sizeof(msg)) == -EIO);
	CHECK(!strcmp(msg, "/sub/out: Input/output error"));
	CHECK(has_pattern("/sub/out", 100000) && entries("/sub") == 1);
	/* the rename fails (a directory at the name) */
	CHECK(mkdir("/sub/adir", 0700) == 0 && mkdir("/sub/adir/x", 0700) == 0);
	CHECK(save("/sub/adir", 10, 0, msg, sizeof(msg)) == -EISDIR && strstr(msg, "/sub/adir: Is a directory"));
	CHECK(entries("/sub") == 2 && entries("/sub/adir") == 1);
	/* a full disk: the write's error, the old file as it was */
	CHECK(save("/full/out", 100, 0, msg, sizeof(msg)) == 0);
	CHECK(save("/full/out", 200000, 0, msg, sizeof(msg)) == -ENOSPC);
	CHECK(!strcmp(msg, "/full/out: No space left on device"));
	CHECK(has_pattern("/full/out", 100) && entries("/full") == 1);
	/* no temporary file can be made */
	CHECK(save("/ro/out", 10, 0, msg, sizeof(msg)) == -EROFS && strstr(msg, "Read-only file system"));
	CHECK(lowest_free_fd() == fd); /* every descriptor closed */
	/* names: the longest base (NAME_MAX - 10) and one more; PATH_MAX long */
	memset(name, 'n', 246);
	snprintf(path, sizeof(path), "/sub/%.245s", name);
	CHECK(save(path, 10, 0, msg, sizeof(msg)) == 0 && has_pattern(path, 10) && unlink(path) == 0);
	snprintf(path, sizeof(path), "/sub/%.246s", name);
	CHECK(save(path, 10, 0, msg, sizeof(msg)) == -EINVAL && strstr(msg, ": not a file name"));
	CHECK(save("/sub/", 10, 0, msg, sizeof(msg)) == -EINVAL && entries("/sub") == 2);
	memset(path, '/', PATH_MAX); /* "////.../sub/out", PATH_MAX long */
	memcpy(path + PATH_MAX - 7, "sub/out", 7);
	path[PATH_MAX] = '\0';
	CHECK(strlen(path) == PATH_MAX && save(path, 10, 0, msg, sizeof(msg)) == -EINVAL);
	CHECK(has_pattern("/sub/out", 100000));
	CHECK(lowest_free_fd() == fd);
	/* creating: a missing directory right below / is checked against /, not
	 * against the current directory (here an unsafe one) */
	CHECK(mkdir("/open", 0700) == 0 && chmod("/open", 0777) == 0 && chdir("/open") == 0);
	CHECK(safe_dir_check("/newtop/x", true, msg, sizeof(msg)) == 0 && stat("/newtop/x", &st) == 0);
#undef CHECK
	return 0;
}

START_TEST(test_save)
{
	char *dir = tmpdir();
	int st;

	if (geteuid() != 0) { /* a mount namespace and chroot take root */
		unit_rmtree(dir);
		free(dir);
		return;
	}
	st = unit_in_child(save_in_chroot, dir);
	ck_assert_msg(st == 0, "check %d failed", st);
	unit_rmtree(dir);
	free(dir);
}
END_TEST

static volatile sig_atomic_t ticks;

static void tick(int sig)
{
	(void)sig;
	ticks++;
}

/* safe_write_all into a pipe a child drains slowly, while a timer without
 * SA_RESTART interrupts the blocked write again and again: write() returns
 * short counts (and EINTR when nothing was written yet), and every byte
 * must still arrive once, in order. */
START_TEST(test_write_all_short_writes)
{
	size_t len = 1 << 20;
	unsigned char *buf = malloc(len);
	struct sigaction sa = { .sa_handler = tick }; /* no SA_RESTART */
	struct itimerval it = { { 0, 2000 }, { 0, 2000 } }, off = { { 0, 0 }, { 0, 0 } };
	int fds[2], status;
	pid_t pid;

	for (size_t i = 0; i < len; i++)
		buf[i] = (unsigned char)(i * 7 + i / 251);
	ck_assert_int_eq(pipe(fds), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		unsigned char in[4096];
		size_t got = 0;
		ssize_t n;

		close(fds[1]);
		while ((n = read(fds[0], in, sizeof(in))) > 0) {
			for (ssize_t k = 0; k < n; k++)
				if (got + (size_t)k >= len || in[k] != buf[got + (size_t)k])
					_exit(4);
			got += (size_t)n;
			if (got % (64 << 10) < sizeof(in))
				usleep(3000); /* let the writer block and the timer cut it */
		}
		_exit(got == len ? 0 : 5);
	}
	close(fds[0]);
	signal(SIGPIPE, SIG_IGN); /* a reader that quits early: EPIPE, not death */
	ck_assert_int_eq(sigaction(SIGALRM, &sa, NULL), 0);
	ck_assert_int_eq(setitimer(ITIMER_REAL, &it, NULL), 0);
	ck_assert_int_eq(safe_write_all(fds[1], buf, len), 0);
	setitimer(ITIMER_REAL, &off, NULL);
	close(fds[1]);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "reader status %#x", status);
	ck_assert_int_gt(ticks, 0); /* the timer did interrupt */
	/* a closed reader: EPIPE, not a loop */
	ck_assert_int_eq(pipe(fds), 0);
	close(fds[0]);
	ck_assert_int_eq(safe_write_all(fds[1], buf, 10), -EPIPE);
	close(fds[1]);
	free(buf);
}
END_TEST

/* The directory's lock waits for another holder, through signals (a
 * timer without SA_RESTART interrupts flock again and again); a closed
 * directory is an error, never a wait. */
START_TEST(test_lock_waits)
{
	char *dir = tmpdir(), msg[512], c;
	struct sigaction sa = { .sa_handler = tick }; /* no SA_RESTART */
	struct itimerval it = { { 0, 5000 }, { 0, 5000 } }, off = { { 0, 0 }, { 0, 0 } };
	struct safe_dir d, held;
	int ready[2], status;
	pid_t pid;

	ck_assert_int_eq(safe_dir_open(dir, false, &d, msg, sizeof(msg)), 0);
	ck_assert_int_eq(pipe(ready), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		if (safe_dir_open(dir, false, &held, msg, sizeof(msg)) < 0 || safe_dir_lock(&held) < 0)
			_exit(1);
		if (write(ready[1], "r", 1) != 1)
			_exit(2);
		usleep(200000);
		_exit(safe_dir_unlock(&held) < 0 ? 3 : 0);
	}
	close(ready[1]);
	ck_assert_int_eq(read(ready[0], &c, 1), 1);
	ticks = 0;
	ck_assert_int_eq(sigaction(SIGALRM, &sa, NULL), 0);
	ck_assert_int_eq(setitimer(ITIMER_REAL, &it, NULL), 0);
	ck_assert_int_eq(safe_dir_lock(&d), 0);
	setitimer(ITIMER_REAL, &off, NULL);
	ck_assert_int_gt(ticks, 0);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "holder status %#x", status);
	ck_assert_int_eq(safe_dir_unlock(&d), 0);
	close(ready[0]);
	safe_dir_close(&d);
	ck_assert_int_eq(safe_dir_lock(&d), -EBADF);
	ck_assert_int_eq(safe_dir_unlock(&d), -EBADF);
	unit_rmtree(dir);
	free(dir);
}
END_TEST

UNIT_SUITE(safe_file_suite)
static Suite *safe_file_suite(void)
{
	Suite *s = suite_create("safe-file");
	TCase *tc = tcase_create("safe-file");

	tcase_add_test(tc, test_dir_chain);
	tcase_add_test(tc, test_create_checks_first);
	tcase_add_test(tc, test_dir_chain_as_user);
	tcase_add_test(tc, test_open_rules);
	tcase_add_test(tc, test_read_all);
	tcase_add_test(tc, test_descriptor_zero);
	tcase_add_test(tc, test_tmp_names);
	tcase_add_test(tc, test_tmp_without_entropy);
	tcase_add_test(tc, test_snapshot_save_safe);
	tcase_add_test(tc, test_remove_stale);
	tcase_add_test(tc, test_message_keeps_reason);
	tcase_add_test(tc, test_save);
	tcase_add_test(tc, test_write_all_short_writes);
	tcase_add_test(tc, test_lock_waits);
	suite_add_tcase(s, tc);
	return s;
}
