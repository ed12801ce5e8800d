/* safe-file: the directory chain (owner, group/other-writable, sticky
 * parents), files opened without following links or blocking (symlink, FIFO,
 * hard link, mode, owner), O_TRUNC only after the checks, unique O_EXCL
 * temporary files; and snapshot_save, which writes through it. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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
	ck_assert_int_eq(safe_dir_open(link, false, &d, msg, sizeof(msg)), -EPERM);
	ck_assert_int_eq(d.fd, -1);
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

START_TEST(test_open_rules)
{
	char *dir = tmpdir(), msg[512], name[64], name2[64];
	struct safe_dir d;
	struct stat st;
	int fd;

	ck_assert_int_eq(safe_dir_open(dir, false, &d, msg, sizeof(msg)), 0);
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
	ck_assert_int_eq(chmod(at(dir, "victim"), 0644), 0);
	fd = safe_open(&d, "victim", O_WRONLY | O_TRUNC, msg, sizeof(msg));
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(fstat(fd, &st), 0);
	ck_assert_int_eq(st.st_size, 0);
	ck_assert_int_eq(fcntl(fd, F_GETFL) & O_NONBLOCK, 0);
	ck_assert_int_ne(fcntl(fd, F_GETFD) & FD_CLOEXEC, 0);
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
	/* a message that fits is whole */
	ck_assert_int_eq(safe_save("", write_nothing, NULL, msg, sizeof(msg)), -EINVAL);
	ck_assert_str_eq(msg, reason);
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

UNIT_SUITE(safe_file_suite)
static Suite *safe_file_suite(void)
{
	Suite *s = suite_create("safe-file");
	TCase *tc = tcase_create("safe-file");

	tcase_add_test(tc, test_dir_chain);
	tcase_add_test(tc, test_open_rules);
	tcase_add_test(tc, test_snapshot_save_safe);
	tcase_add_test(tc, test_remove_stale);
	tcase_add_test(tc, test_message_keeps_reason);
	tcase_add_test(tc, test_write_all_short_writes);
	suite_add_tcase(s, tc);
	return s;
}
