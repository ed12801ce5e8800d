#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/stat.h>

#include "root.h"
#include "sampler.h"
#include "unit.h"

START_TEST(refuses_escapes)
{
	struct root *r;
	char buf[64];

	ck_assert_int_eq(root_check_path("sys/block/sda"), 0);
	ck_assert_int_eq(root_check_path("../etc/passwd"), -EINVAL);
	ck_assert_int_eq(root_check_path("sys/../../etc"), -EINVAL);
	ck_assert_int_eq(root_check_path("/etc/passwd"), -EINVAL);
	ck_assert_int_eq(root_check_path(""), -EINVAL);
	ck_assert_int_eq(root_check_path("sys/block/..x"), 0);
	ck_assert_int_eq(root_open(unit_fixture("nvme"), &r), 0);
	ck_assert_int_eq(root_read(r, "../README", buf, sizeof(buf)), -EINVAL);
	ck_assert_int_eq(root_write(r, "sys/block/../x", "1"), -EINVAL);
	ck_assert(!root_is_live(r));
	root_close(r);
}
END_TEST

/* An absolute symlink inside a captured tree resolves inside the tree, never
 * to the machine running the test. */
START_TEST(symlinks_stay_inside)
{
	char *dir = unit_fixture_copy("nvme");
	char link[4200], buf[256];
	struct root *r;

	snprintf(link, sizeof(link), "%s/proc/evil", dir);
	ck_assert_int_eq(symlink("/etc/hostname", link), 0);
	ck_assert_int_eq(root_open(dir, &r), 0);
	ck_assert_int_eq(root_read(r, "proc/evil", buf, sizeof(buf)), -ENOENT);
	/* relative kernel links work: sys/block/nvme0n1 -> ../devices/... */
	ck_assert_int_gt(root_read(r, "sys/block/nvme0n1/queue/read_ahead_kb", buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "128\n");
	ck_assert_int_gt(root_readlink(r, "sys/block/nvme0n1", buf, sizeof(buf)), 0);
	ck_assert(strstr(buf, "../devices/") == buf);
	root_close(r);
	unit_rmtree(dir);
	free(dir);
}
END_TEST

START_TEST(numbers)
{
	char *dir = unit_fixture_copy("nvme");
	char p[4200];
	struct root *r;
	unsigned long long u;
	long long s;

	ck_assert_int_eq(root_open(dir, &r), 0);
	snprintf(p, sizeof(p), "%s/proc/n1", dir);
	unit_write_file(p, "-1\n");
	ck_assert_int_eq(root_read_s64(r, "proc/n1", &s), 0);
	ck_assert_int_eq(s, -1);
	ck_assert_int_eq(root_read_u64(r, "proc/n1", &u), -ERANGE);
	unit_write_file(p, "12 x\n");
	ck_assert_int_eq(root_read_u64(r, "proc/n1", &u), -EINVAL);
	unit_write_file(p, "18446744073709551615\n");
	ck_assert_int_eq(root_read_u64(r, "proc/n1", &u), 0);
	ck_assert(u == 18446744073709551615ULL);
	ck_assert_int_eq(root_write(r, "proc/n1", "42"), 0);
	ck_assert_int_eq(root_read_u64(r, "proc/n1", &u), 0);
	ck_assert(u == 42);
	ck_assert_int_eq(root_read_u64(r, "proc/missing", &u), -ENOENT);
	root_close(r);
	unit_rmtree(dir);
	free(dir);
}
END_TEST

START_TEST(pread_rereads)
{
	char *dir = unit_fixture_copy("nvme");
	char p[4200], buf[32];
	struct root *r;
	int fd;

	ck_assert_int_eq(root_open(dir, &r), 0);
	fd = root_openat(r, "sys/block/sda/queue/read_ahead_kb", O_RDONLY);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_gt(root_pread(fd, buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "128\n");
	snprintf(p, sizeof(p), "%s/sys/block/sda/queue/read_ahead_kb", dir);
	/* rewrite in place so the kept fd sees it */
	FILE *f = fopen(p, "r+");
	fputs("256\n", f);
	fclose(f);
	ck_assert_int_gt(root_pread(fd, buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "256\n");
	close(fd);
	root_close(r);
	unit_rmtree(dir);
	free(dir);
}
END_TEST

START_TEST(missing_root)
{
	struct root *r;

	ck_assert_int_eq(root_open("/nonexistent/blktune", &r), -ENOENT);
}
END_TEST

static void make_fifo(const char *dir, const char *rel)
{
	char path[4200];

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(mkfifo(path, 0600), 0);
}

/* A FIFO where a kernel file should be (a doctored --root tree) used to
 * block open() or read() forever: every kind of access refuses it at once. */
START_TEST(fifo_is_refused_not_waited_for)
{
	char *dir = unit_fixture_copy("live-vm/t0");
	unsigned long long v;
	struct sampler *sp;
	struct sample s;
	struct root *r;
	char buf[64];
	int fd;

	make_fifo(dir, "sys/devices/virtual/block/loop1/queue/read_ahead_kb");
	make_fifo(dir, "sys/devices/virtual/block/loop1/queue/scheduler");
	make_fifo(dir, "sys/devices/virtual/block/loop1/diskseq");
	make_fifo(dir, "proc/version");
	make_fifo(dir, "proc/uptime");
	ck_assert_int_eq(root_open(dir, &r), 0);
	ck_assert_int_eq(root_read(r, "proc/version", buf, sizeof(buf)), -ROOT_ENOTREG);
	ck_assert_int_eq(root_read_u64(r, "sys/block/loop1/diskseq", &v), -ROOT_ENOTREG);
	ck_assert_int_eq(root_openat(r, "sys/block/loop1/queue/scheduler", O_RDONLY), -ROOT_ENOTREG);
	/* writing: a FIFO without a reader, and one with a reader */
	ck_assert_int_eq(root_write(r, "sys/block/loop1/queue/read_ahead_kb", "128"), -ROOT_ENOTREG);
	snprintf(buf, sizeof(buf), "x");
	fd = root_openat(r, "sys/block/loop2/queue/read_ahead_kb", O_RDONLY);
	ck_assert_int_ge(fd, 0); /* the control: a regular file opens */
	close(fd);
	ck_assert_ptr_nonnull(strstr(root_strerror(-ROOT_ENOTREG), "not a regular file"));
	/* The whole sampler over the tree: loop1 without diskseq or tunables. */
	ck_assert_int_eq(sampler_open(r, SAMPLER_NO_TRACE, &sp), 0);
	ck_assert_str_eq(sampler_host(sp)->kernel, "?");
	sample_init(&s);
	ck_assert_int_eq(sampler_take(sp, &s), 0);
	for (size_t i = 0; i < s.ndisks; i++) {
		if (strcmp(s.disks[i].st.name, "loop1"))
			continue;
		ck_assert_uint_eq(s.disks[i].info.diskseq, 0);
		ck_assert_int_eq(s.disks[i].info.read_ahead_kb, SAMPLE_UNREADABLE);
	}
	sample_free(&s);
	sampler_close(sp);
	/* proc/diskstats itself: the sampler refuses to start, with a reason */
	make_fifo(dir, "proc/diskstats");
	ck_assert_int_eq(sampler_open(r, SAMPLER_NO_TRACE, &sp), -ROOT_ENOTREG);
	root_close(r);
	/* A device node on the live system is no kernel file either. */
	ck_assert_int_eq(root_open("/", &r), 0);
	ck_assert_int_eq(root_read(r, "dev/null", buf, sizeof(buf)), -ROOT_ENOTREG);
	root_close(r);
	unit_rmtree(dir);
	free(dir);
}
END_TEST

UNIT_SUITE(root_suite)
static Suite *root_suite(void)
{
	Suite *s = suite_create("root");
	TCase *tc = tcase_create("paths");

	tcase_add_test(tc, refuses_escapes);
	tcase_add_test(tc, symlinks_stay_inside);
	tcase_add_test(tc, numbers);
	tcase_add_test(tc, pread_rereads);
	tcase_add_test(tc, fifo_is_refused_not_waited_for);
	tcase_add_test(tc, missing_root);
	suite_add_tcase(s, tc);
	return s;
}
