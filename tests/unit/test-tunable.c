/* tunable: listing, set with read-back, journal, undo, restore after a crash,
 * refusals, on a writable copy of the tunables-basic fixture. A fake kernel
 * (the writer hook) rounds and refuses the way kernel 6.18 does. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ab.h"
#include "cli-tunable.h"
#include "journal.h"
#include "root.h"
#include "series.h"
#include "tunable.h"
#include "unit.h"

static char *tree, jdir[256], pmsg[512];
static struct root *r;

static int put(const struct root *rt, const char *rel, const char *val)
{
	int fd = root_openat(rt, rel, O_WRONLY | O_TRUNC);
	ssize_t n;

	if (fd < 0)
		return fd;
	n = write(fd, val, strlen(val));
	close(fd);
	return n < 0 ? -EIO : 0;
}

static const char *base(const char *rel)
{
	const char *s = strrchr(rel, '/');
	return s ? s + 1 : rel;
}

/* The tests that set it model 6.18's queue limits commit (see fake_kernel). */
static bool limits_raise_ra;

static const char *file_at(const struct root *rt, const char *rel)
{
	static char buf[64];

	if (root_read(rt, rel, buf, sizeof(buf)) < 0)
		return "0";
	return buf;
}

/* What kernel 6.18 does with these writes (measured on a loop device). */
static int fake_kernel(const struct root *rt, const char *rel, const char *val)
{
	char buf[256], dir[512], off[512];
	long long v = atoll(val);
	const char *b = base(rel);

	if (strcmp(b, "read_ahead_kb") == 0) {
		snprintf(buf, sizeof(buf), "%lld\n", v / 4 * 4); /* whole 4 KiB pages */
		return put(rt, rel, buf);
	}
	if (strcmp(b, "nr_requests") == 0) {
		snprintf(buf, sizeof(buf), "%lld\n", v < 4 ? 4 : v);
		return put(rt, rel, buf);
	}
	if (strcmp(b, "smp_affinity_list") == 0 && strstr(rel, "/41/"))
		return -EIO; /* a managed NVMe queue interrupt */
	if (strcmp(b, "max_sectors_kb") == 0 && v == 999)
		return -EINVAL;
	if (limits_raise_ra &&
	    (strcmp(b, "max_sectors_kb") == 0 || strcmp(b, "add_random") == 0 || strcmp(b, "iostats") == 0)) {
		/* A queue limits commit: read_ahead_kb becomes at least twice
		 * max_sectors_kb and 128. */
		long long ms, ra;
		snprintf(dir, sizeof(dir), "%.*smax_sectors_kb", (int)(b - rel), rel);
		snprintf(off, sizeof(off), "%.*sread_ahead_kb", (int)(b - rel), rel);
		snprintf(buf, sizeof(buf), "%s\n", val);
		if (put(rt, rel, buf) < 0)
			return -EIO;
		ms = atoll(file_at(rt, dir));
		ra = atoll(file_at(rt, off));
		ra = ra < 2 * ms ? 2 * ms : ra;
		snprintf(buf, sizeof(buf), "%lld\n", ra < 128 ? 128 : ra);
		return put(rt, off, buf);
	}
	if (strcmp(b, "scheduler") == 0) {
		/* The queue's scheduler swaps its iosched/ directory and resets nr_requests. */
		bool none = strcmp(val, "none") == 0;
		snprintf(dir, sizeof(dir), "%s/%.*s/iosched", root_path(rt), (int)(b - rel - 1), rel);
		snprintf(off, sizeof(off), "%s.off", dir);
		if (rename(none ? dir : off, none ? off : dir) < 0)
			return -errno;
		snprintf(buf, sizeof(buf), "%s\n", none ? "mq-deadline [none]" : "[mq-deadline] none");
		put(rt, "sys/block/loop3/queue/nr_requests", none ? "128\n" : "256\n");
		return put(rt, rel, buf);
	}
	snprintf(buf, sizeof(buf), "%s\n", val);
	return put(rt, rel, buf);
}

static void setup(void)
{
	tree = unit_fixture_copy("tunables-basic");
	snprintf(jdir, sizeof(jdir), "%s/run-blktune", tree);
	ck_assert_int_eq(root_open(tree, &r), 0);
	tunable_set_writer(fake_kernel);
}

static void teardown(void)
{
	tunable_set_writer(NULL);
	root_close(r);
	unit_rmtree(tree);
	free(tree);
}

static struct tunable_session *session(void)
{
	struct tunable_session *s;

	ck_assert_int_eq(tunable_session_open(r, jdir, &s), 0);
	return s;
}

static const char *file(const char *rel)
{
	static char buf[8][256];
	static int slot;
	char *p = buf[slot++ % 8];

	if (root_read(r, rel, p, 256) < 0)
		return "(absent)";
	p[strcspn(p, "\n")] = '\0';
	return p;
}

static const struct tunable_info *row(const struct tunable_info *rows, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (strcmp(rows[i].name, name) == 0)
			return &rows[i];
	return NULL;
}

START_TEST(test_device_names)
{
	static const struct { const char *dev; int err; const char *words; } cases[] = {
		{ "../vda", -EINVAL, "not a block device name" },
		{ "loop3/../vda", -EINVAL, "not a block device name" },
		{ "..", -EINVAL, "not a block device name" },
		{ ".", -EINVAL, "not a block device name" },
		{ "", -EINVAL, "not a block device name" },
		{ "loop3 ", -EINVAL, "not a block device name" },
		{ "loop3p1", -ENODEV, "partition: partitions use the queue of loop3" },
		{ "sdz", -ENODEV, "no block device sdz" },
		{ "loop3", 0, "" },
		{ "dm-0", 0, "" },
	};
	struct tunable_session *s = session();
	struct tunable_result res;
	char msg[256];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		msg[0] = '\0';
		ck_assert_int_eq(tunable_check_device(r, cases[i].dev, msg, sizeof(msg)), cases[i].err);
		ck_assert_msg(strstr(msg, cases[i].words), "%s: %s", cases[i].dev, msg);
		if (cases[i].err) {
			ck_assert_int_eq(tunable_set(s, cases[i].dev, "read_ahead_kb", "256", &res), cases[i].err);
			ck_assert_msg(strstr(res.msg, "refused"), "%s", res.msg);
		}
	}
	/* Nothing was journaled for refused names. */
	ck_assert_int_eq(journal_pending(jdir, pmsg, sizeof(pmsg)), -ENOENT);
	tunable_session_close(s);
}
END_TEST

START_TEST(test_list)
{
	struct tunable_session *s = session();
	struct tunable_info rows[TUNABLE_LIST_MAX];
	const struct tunable_info *t;
	char msg[256];
	int n = tunable_list(s, "loop3", rows, TUNABLE_LIST_MAX, msg, sizeof(msg));

	ck_assert_int_gt(n, 10);
	t = row(rows, n, "max_sectors_kb");
	ck_assert_str_eq(t->range, "4..1280 KiB");
	ck_assert_str_eq(t->value, "1280");
	ck_assert_str_eq(t->start, "1280");
	ck_assert(t->writable);
	t = row(rows, n, "scheduler");
	ck_assert_str_eq(t->value, "mq-deadline");
	ck_assert_str_eq(t->range, "mq-deadline none");
	t = row(rows, n, "nr_requests");
	ck_assert_str_eq(t->range, "4..2048"); /* with a scheduler */
	t = row(rows, n, "read_ahead_kb");
	ck_assert_ptr_nonnull(t);
	ck_assert_msg(strstr(t->note, "files on dm-0"), "%s", t->note);
	ck_assert_ptr_nonnull(row(rows, n, "iosched/fifo_batch"));
	ck_assert_ptr_nonnull(row(rows, n, "iosched/future_knob")); /* unknown to the table, still shown */
	ck_assert(!row(rows, n, "write_cache")->writable);
	ck_assert_ptr_null(row(rows, n, "iosched/slice_idle"));

	n = tunable_list(s, "dm-0", rows, TUNABLE_LIST_MAX, msg, sizeof(msg));
	ck_assert_ptr_null(row(rows, n, "scheduler")); /* bio-based */
	ck_assert_ptr_null(row(rows, n, "nr_requests"));
	t = row(rows, n, "read_ahead_kb");
	ck_assert_ptr_nonnull(t);
	ck_assert_msg(strstr(t->note, "governs files on dm-0"), "%s", t->note);
	t = row(rows, n, "max_sectors_kb");
	ck_assert_ptr_nonnull(t);
	ck_assert_msg(strstr(t->note, "loop3"), "%s", t->note);

	n = tunable_list(s, "vda", rows, TUNABLE_LIST_MAX, msg, sizeof(msg));
	ck_assert_str_eq(row(rows, n, "nr_requests")->range, "4..256"); /* scheduler none: tag depth */
	ck_assert_ptr_nonnull(row(rows, n, "irq/36"));
	ck_assert_ptr_null(row(rows, n, "irq/35"));
	ck_assert_str_eq(row(rows, n, "irq/36")->value, "0-3");
	ck_assert_str_eq(row(rows, n, "irq/36")->range, "CPUs of 0 1 2 3 0-3");

	ck_assert_int_eq(tunable_list(s, "loop3p1", rows, TUNABLE_LIST_MAX, msg, sizeof(msg)), -ENODEV);
	tunable_session_close(s);
}
END_TEST

/* read_ahead_kb ends at the machine's memory (whole pages), not at 2^32-1
 * KiB; a restore still puts back a larger original the kernel held. */
START_TEST(test_readahead_memory)
{
	struct tunable_session *s;
	struct tunable_info rows[TUNABLE_LIST_MAX];
	struct tunable_result res;
	char msg[256], path[512];
	FILE *f;
	int n;

	snprintf(path, sizeof(path), "%s/proc/meminfo", tree);
	ck_assert_ptr_nonnull(f = fopen(path, "w"));
	fputs("MemTotal:        1000003 kB\nMemFree:          500000 kB\n", f);
	fclose(f);
	ck_assert_int_eq(put(r, "sys/block/loop3/queue/read_ahead_kb", "2000000\n"), 0);
	s = session();
	n = tunable_list(s, "loop3", rows, TUNABLE_LIST_MAX, msg, sizeof(msg));
	ck_assert_str_eq(row(rows, n, "read_ahead_kb")->range, "0..1000000 KiB");
	ck_assert_int_eq(tunable_set(s, "loop3", "read_ahead_kb", "1000004", &res), -ERANGE);
	ck_assert_msg(strstr(res.msg, "above the device's limit (1000000, this machine's memory, MemTotal"), "%s",
		      res.msg);
	ck_assert_int_eq(tunable_set(s, "loop3", "read_ahead_kb", "1000000", &res), 0);
	ck_assert_int_eq(tunable_restore_all(s, NULL, NULL), 0);
	ck_assert_str_eq(file("sys/block/loop3/queue/read_ahead_kb"), "2000000");
	tunable_session_close(s);
}
END_TEST

/* Many CPUs in a fragmented online set: the IRQ cycle lists the single
 * CPUs that fit and still ends with the whole online set, the one a value
 * is checked against (cut short, CPU 254 was refused as not online). */
START_TEST(test_irq_many_cpus)
{
	struct tunable_session *s;
	struct tunable_result res;

	ck_assert_int_eq(put(r, "sys/devices/system/cpu/online", "0-62,64-126,128-190,192-254\n"), 0);
	s = session();
	ck_assert_int_eq(tunable_set(s, "vda", "irq/36", "254", &res), 0);
	ck_assert_str_eq(file("proc/irq/36/smp_affinity_list"), "254");
	ck_assert_int_eq(tunable_set(s, "vda", "irq/36", "192-200,0", &res), 0);
	ck_assert_int_eq(tunable_set(s, "vda", "irq/36", "63", &res), -ERANGE);
	ck_assert_msg(strstr(res.msg, "not online (online: 0-62,64-126,128-190,192-254)"), "%s", res.msg);
	ck_assert_int_eq(tunable_set(s, "vda", "irq/36", "255", &res), -ERANGE);
	tunable_session_close(s);
}
END_TEST

START_TEST(test_set_read_back)
{
	struct tunable_session *s = session();
	struct tunable_result res;
	struct tunable_info info;
	char msg[512];

	ck_assert_int_eq(tunable_set(s, "loop3", "read_ahead_kb", "4096", &res), 0);
	ck_assert_str_eq(res.msg, "loop3 read_ahead_kb 128 -> 4096 (files opened before keep the old value)");
	ck_assert(res.changed && !res.differs);
	ck_assert_int_eq(tunable_set(s, "loop3", "read_ahead_kb", "3", &res), 0);
	ck_assert(res.differs);
	ck_assert_str_eq(res.got, "0");
	ck_assert_msg(strstr(res.msg, "asked 3, kernel set 0"), "%s", res.msg);
	/* the kernel's minimum is 4 (BLKDEV_MIN_RQ): 3 is refused, not quietly made 4 */
	ck_assert_int_eq(tunable_set(s, "vda", "nr_requests", "3", &res), -ERANGE);
	ck_assert_msg(strstr(res.msg, "below the minimum 4"), "%s", res.msg);
	ck_assert_int_eq(tunable_set(s, "vda", "nr_requests", "4", &res), 0);
	ck_assert_msg(strstr(res.msg, "vda nr_requests 256 -> 4"), "%s", res.msg);
	ck_assert_int_eq(tunable_set(s, "vda", "nr_requests", "100000", &res), -ERANGE);
	ck_assert_str_eq(res.msg, "vda nr_requests 100000 refused: above the device's limit "
				  "(256, the hardware queue depth, scheduler none)");
	ck_assert_int_eq(tunable_set(s, "loop3", "max_sectors_kb", "999", &res), -EINVAL);
	ck_assert_msg(strstr(res.msg, "refused: the kernel said Invalid argument"), "%s", res.msg);
	ck_assert_int_eq(tunable_set(s, "loop3", "write_cache", "write through", &res), -EPERM);
	ck_assert_str_eq(file("sys/block/loop3/queue/write_cache"), "write back");
	ck_assert_int_eq(tunable_set(s, "loop3", "nomerges", "0", &res), 0);
	ck_assert_str_eq(res.msg, "loop3 nomerges already 0");
	ck_assert_int_eq(tunable_set(s, "loop3", "bogus", "1", &res), -ENOENT);
	ck_assert_int_eq(tunable_set(s, "loop3", "iosched/../../x", "1", &res), -ENOENT);
	ck_assert_int_eq(tunable_set(s, "vda", "iosched/fifo_batch", "1", &res), -ENOENT);
	/* IRQs: only those serving the device; a managed one refuses with EIO. */
	ck_assert_int_eq(tunable_set(s, "vda", "irq/36", "1", &res), 0);
	ck_assert_str_eq(file("proc/irq/36/smp_affinity_list"), "1");
	ck_assert_int_eq(tunable_set(s, "vda", "irq/41", "1", &res), -ENOENT);
	ck_assert_int_eq(tunable_set(s, "nvme0n1", "irq/41", "0", &res), -EIO);
	ck_assert_msg(strstr(res.msg, "managed interrupt"), "%s", res.msg);
	snprintf(msg, sizeof(msg), "%s/proc/irq/40/smp_affinity_list", tree);
	ck_assert_int_eq(chmod(msg, 0444), 0);
	ck_assert_int_eq(tunable_set(s, "nvme0n1", "irq/40", "1", &res), -EPERM);
	ck_assert_msg(strstr(res.msg, "managed interrupt"), "%s", res.msg);
	ck_assert_int_eq(tunable_get(s, "nvme0n1", "irq/40", &info, msg, sizeof(msg)), 0);
	ck_assert(!info.writable);
	ck_assert_msg(strstr(info.note, "IRQ 40 nvme0q0, effective CPUs 0; managed"), "%s", info.note);
	ck_assert_int_eq(tunable_set(s, "nvme0n1", "irq/42", "7", &res), -ERANGE);
	ck_assert_msg(strstr(res.msg, "not online"), "%s", res.msg);
	/* Side effects the kernel makes are reported. */
	ck_assert_int_eq(tunable_set(s, "loop3", "scheduler", "none", &res), 0);
	ck_assert_msg(strstr(res.msg, "loop3 scheduler mq-deadline -> none; kernel also set nr_requests 256 -> 128"),
		      "%s", res.msg);
	tunable_session_close(s);
}
END_TEST

START_TEST(test_journal_undo_step)
{
	struct tunable_session *s = session();
	struct tunable_result res;
	struct journal *j;
	char msg[256];

	ck_assert_int_eq(tunable_step(s, "loop3", "read_ahead_kb", 1, &res), 0);
	ck_assert_str_eq(file("sys/block/loop3/queue/read_ahead_kb"), "256");
	ck_assert_int_eq(tunable_step(s, "loop3", "read_ahead_kb", 1, &res), 0);
	ck_assert_int_eq(tunable_step(s, "loop3", "rq_affinity", 1, &res), 0);
	ck_assert_str_eq(file("sys/block/loop3/queue/rq_affinity"), "2");
	ck_assert_int_eq(tunable_step(s, "loop3", "max_sectors_kb", 1, &res), -ERANGE);
	ck_assert_msg(strstr(res.msg, "already at its maximum"), "%s", res.msg);
	/* "changed" counts tunables that differ from their originals, not
	 * key presses: two steps of read_ahead_kb are one changed tunable. */
	ck_assert_uint_eq(tunable_session_changes(s), 2);
	/* Only the first original of each (device, tunable) is journaled. */
	ck_assert_int_eq(journal_pending(jdir, pmsg, sizeof(pmsg)), 2);

	ck_assert_int_eq(tunable_undo(s, &res), 0);
	ck_assert_str_eq(file("sys/block/loop3/queue/rq_affinity"), "1");
	ck_assert_uint_eq(tunable_session_changes(s), 1);
	ck_assert_int_eq(tunable_undo(s, &res), 0);
	ck_assert_str_eq(res.msg, "undo: loop3 read_ahead_kb 512 -> 256");
	ck_assert_uint_eq(tunable_session_changes(s), 1); /* 256 is still not 128 */
	ck_assert_int_eq(tunable_undo(s, &res), 0);
	ck_assert_str_eq(file("sys/block/loop3/queue/read_ahead_kb"), "128");
	ck_assert_uint_eq(tunable_session_changes(s), 0);
	ck_assert_int_eq(tunable_undo(s, &res), -ENOENT);

	/* Another instance cannot take the journal while this one holds it. */
	ck_assert_int_eq(journal_open(jdir, false, &j, msg, sizeof(msg)), -EWOULDBLOCK);
	ck_assert_int_eq(tunable_keep(s, NULL, NULL), 0);
	ck_assert_int_eq(journal_pending(jdir, pmsg, sizeof(pmsg)), -ENOENT);
	ck_assert_int_eq(journal_open(jdir, false, &j, msg, sizeof(msg)), 0);
	journal_close(j);
	tunable_session_close(s);
}
END_TEST

static const char *const loop3_files[] = {
	"read_ahead_kb", "max_sectors_kb", "nr_requests", "rq_affinity", "nomerges", "scheduler",
	"wbt_lat_usec", "add_random", "iostats", "iosched/read_expire", "iosched/fifo_batch",
	"iosched/async_depth", "iosched/front_merges", "iosched/future_knob",
};

START_TEST(test_restore_after_crash)
{
	char before[sizeof(loop3_files) / sizeof(loop3_files[0])][256], rel[256];
	struct tunable_session *s;
	int status, reported = 0;
	pid_t pid;

	for (size_t i = 0; i < sizeof(loop3_files) / sizeof(loop3_files[0]); i++) {
		snprintf(rel, sizeof(rel), "sys/block/loop3/queue/%s", loop3_files[i]);
		snprintf(before[i], sizeof(before[i]), "%s", file(rel));
	}
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		struct tunable_result res;
		s = session();
		int bad = tunable_set(s, "loop3", "iosched/fifo_batch", "64", &res) |
			  tunable_set(s, "loop3", "iosched/future_knob", "9", &res) |
			  tunable_set(s, "loop3", "nr_requests", "64", &res) |
			  tunable_set(s, "loop3", "scheduler", "none", &res) |
			  tunable_set(s, "loop3", "read_ahead_kb", "3", &res) |
			  tunable_set(s, "loop3", "max_sectors_kb", "64", &res) |
			  tunable_set(s, "loop3", "nomerges", "2", &res) |
			  tunable_set(s, "loop3", "wbt_lat_usec", "0", &res) |
			  tunable_set(s, "loop3", "iostats", "0", &res) |
			  tunable_set(s, "vda", "irq/36", "2", &res);
		_exit(bad ? 1 : 0); /* no restore, no close: a crash */
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_int_eq(WEXITSTATUS(status), 0);
	ck_assert_str_eq(file("sys/block/loop3/queue/scheduler"), "mq-deadline [none]");
	ck_assert_int_gt(journal_pending(jdir, pmsg, sizeof(pmsg)), 10);

	s = session();
	ck_assert_int_eq(tunable_restore_all(s, NULL, NULL), 0);
	for (size_t i = 0; i < sizeof(loop3_files) / sizeof(loop3_files[0]); i++) {
		snprintf(rel, sizeof(rel), "sys/block/loop3/queue/%s", loop3_files[i]);
		ck_assert_msg(strcmp(file(rel), before[i]) == 0, "%s: %s, want %s", loop3_files[i], file(rel),
			      before[i]);
	}
	ck_assert_str_eq(file("proc/irq/36/smp_affinity_list"), "0-3");
	ck_assert_int_eq(journal_pending(jdir, pmsg, sizeof(pmsg)), -ENOENT);
	(void)reported;
	tunable_session_close(s);
}
END_TEST

struct counts {
	int vanished, other, restored;
	char msgs[2048];
};

static void count_results(void *arg, const struct tunable_result *res)
{
	struct counts *c = arg;
	size_t used = strlen(c->msgs);

	if (res->err == -ENODEV && strstr(res->msg, "vanished"))
		c->vanished++;
	else if (strstr(res->msg, "another device now"))
		c->other++;
	else if (!res->err)
		c->restored++;
	snprintf(c->msgs + used, sizeof(c->msgs) - used, "%s\n", res->msg);
}

START_TEST(test_vanished_and_reused)
{
	struct tunable_session *s = session();
	struct tunable_result res;
	struct counts c = { 0 };
	char path[512];

	ck_assert_int_eq(tunable_set(s, "sda", "read_ahead_kb", "512", &res), 0);
	ck_assert_int_eq(tunable_set(s, "loop3", "read_ahead_kb", "512", &res), 0);
	tunable_session_close(s);
	/* sda is unplugged; loop3 is detached and the name reused by another file. */
	snprintf(path, sizeof(path), "%s/sys/block/sda", tree);
	ck_assert_int_eq(unlink(path), 0);
	snprintf(path, sizeof(path), "%s/sys/devices/virtual/block/loop3/diskseq", tree);
	ck_assert_int_eq(chmod(path, 0644), 0);
	unit_write_file(path, "99\n");

	s = session();
	ck_assert_int_eq(tunable_set(s, "loop3", "read_ahead_kb", "1024", &res), -EEXIST);
	ck_assert_msg(strstr(res.msg, "--restore"), "%s", res.msg);
	/* The vanished device is news; the reused name is a failure, reported
	 * with its line and kept aside, never written. */
	ck_assert_int_eq(tunable_restore_all(s, count_results, &c), 1);
	ck_assert_int_eq(c.vanished, 1);
	ck_assert_int_eq(c.other, 1);
	ck_assert_msg(strstr(c.msgs, "journal line 3: loop3 read_ahead_kb 128 not restored: another device now "
				     "(diskseq 99, was "), "%s", c.msgs);
	ck_assert_str_eq(file("sys/block/loop3/queue/read_ahead_kb"), "512");
	ck_assert_int_eq(journal_pending(jdir, pmsg, sizeof(pmsg)), -ENOENT);
	snprintf(path, sizeof(path), "%s/journal.rejected", jdir);
	ck_assert_int_eq(access(path, F_OK), 0);
	/* Now a change of the new loop3 journals its own original. */
	ck_assert_int_eq(tunable_set(s, "loop3", "read_ahead_kb", "1024", &res), 0);
	ck_assert_int_eq(tunable_restore_all(s, NULL, NULL), 0);
	ck_assert_str_eq(file("sys/block/loop3/queue/read_ahead_kb"), "512");
	tunable_session_close(s);
}
END_TEST

/* Undo writes only to the device it changed: a name reused by another
 * device (a new diskseq) is refused as --restore refuses it, and a device
 * that went away is said to be gone, not "undone". */
START_TEST(test_undo_other_device)
{
	struct tunable_session *s = session();
	struct tunable_result res;
	char path[512];

	ck_assert_int_eq(tunable_set(s, "loop3", "read_ahead_kb", "512", &res), 0);
	ck_assert_int_eq(tunable_set(s, "sda", "read_ahead_kb", "512", &res), 0);
	snprintf(path, sizeof(path), "%s/sys/block/sda", tree);
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(tunable_undo(s, &res), -ENODEV);
	ck_assert_msg(strstr(res.msg, "sda") && strstr(res.msg, "no block device"), "%s", res.msg);
	/* loop3 detached, the name taken by another file with its own value */
	snprintf(path, sizeof(path), "%s/sys/devices/virtual/block/loop3/diskseq", tree);
	ck_assert_int_eq(chmod(path, 0644), 0);
	unit_write_file(path, "99\n");
	ck_assert_int_eq(put(r, "sys/block/loop3/queue/read_ahead_kb", "256\n"), 0);
	ck_assert_int_eq(tunable_undo(s, &res), -EEXIST);
	ck_assert_msg(strstr(res.msg, "another device now (diskseq 99, was "), "%s", res.msg);
	ck_assert_str_eq(file("sys/block/loop3/queue/read_ahead_kb"), "256");
	ck_assert_int_eq(tunable_undo(s, &res), -ENOENT);
	tunable_session_close(s);
}
END_TEST

/* Undo keeps the newest 64 changes: past that the oldest goes, and the
 * undos walk back through the others in order. */
START_TEST(test_undo_history_full)
{
	struct tunable_session *s = session();
	struct tunable_result res;
	char v[32];

	/* 65 changes: 4, 8, ..., 260 (the original is 128) */
	for (int i = 1; i <= 65; i++) {
		snprintf(v, sizeof(v), "%d", 4 * i);
		ck_assert_int_eq(tunable_set(s, "loop3", "read_ahead_kb", v, &res), 0);
	}
	for (int i = 64; i >= 1; i--) {
		ck_assert_int_eq(tunable_undo(s, &res), 0);
		snprintf(v, sizeof(v), "%d", 4 * i);
		ck_assert_str_eq(file("sys/block/loop3/queue/read_ahead_kb"), v);
	}
	/* the first change (128 -> 4) was dropped from the history */
	ck_assert_int_eq(tunable_undo(s, &res), -ENOENT);
	ck_assert_str_eq(file("sys/block/loop3/queue/read_ahead_kb"), "4");
	ck_assert_int_eq(tunable_restore_all(s, NULL, NULL), 0);
	ck_assert_str_eq(file("sys/block/loop3/queue/read_ahead_kb"), "128");
	tunable_session_close(s);
}
END_TEST

/* A value someone else already put back: the restore says so, "unchanged",
 * and the journal is emptied like after a write. */
START_TEST(test_restore_already_back)
{
	struct tunable_session *s = session();
	struct tunable_result res;
	struct counts c = { 0 };

	ck_assert_int_eq(tunable_set(s, "loop3", "read_ahead_kb", "512", &res), 0);
	tunable_session_close(s);
	ck_assert_int_eq(put(r, "sys/block/loop3/queue/read_ahead_kb", "128\n"), 0);
	s = session();
	ck_assert_int_eq(tunable_restore_all(s, count_results, &c), 0);
	ck_assert_int_eq(c.restored, 1);
	ck_assert_msg(strstr(c.msgs, "loop3 read_ahead_kb 128 (unchanged)"), "%s", c.msgs);
	ck_assert_str_eq(file("sys/block/loop3/queue/read_ahead_kb"), "128");
	ck_assert_int_eq(journal_pending(jdir, pmsg, sizeof(pmsg)), -ENOENT);
	tunable_session_close(s);
}
END_TEST

/* The kernel of the undo test: refuses (or, clamping, halves) a write of
 * nr_requests 64, as a queue whose depth changed with its scheduler may. */
static bool undo_clamps;
static int refuse_nr64(const struct root *rt, const char *rel, const char *val)
{
	if (!strcmp(base(rel), "nr_requests") && !strcmp(val, "64"))
		return undo_clamps ? fake_kernel(rt, rel, "32") : -EINVAL;
	return fake_kernel(rt, rel, val);
}

/* Undo puts back what the kernel changed with the change too (nr_requests
 * with the scheduler); what does not go back is said, not passed over. */
START_TEST(test_undo_side_values_said)
{
	struct tunable_result res;

	for (int clamp = 0; clamp <= 1; clamp++) {
		struct tunable_session *s = session();

		tunable_set_writer(fake_kernel);
		ck_assert_int_eq(tunable_set(s, "loop3", "nr_requests", "64", &res), 0);
		ck_assert_int_eq(tunable_set(s, "loop3", "scheduler", "none", &res), 0);
		ck_assert_str_eq(file("sys/block/loop3/queue/nr_requests"), "128");
		undo_clamps = clamp;
		tunable_set_writer(refuse_nr64);
		ck_assert_int_eq(tunable_undo(s, &res), 0);
		ck_assert_str_eq(file("sys/block/loop3/queue/scheduler"), "[mq-deadline] none");
		if (clamp) {
			ck_assert_msg(strstr(res.msg, "; nr_requests is 32 (asked 64)"), "%s", res.msg);
		} else {
			ck_assert_msg(strstr(res.msg, "; nr_requests stays 256 ("), "%s", res.msg);
			ck_assert_str_eq(file("sys/block/loop3/queue/nr_requests"), "256");
		}
		tunable_set_writer(fake_kernel);
		ck_assert_int_eq(tunable_restore_all(s, NULL, NULL), 0);
		tunable_session_close(s);
	}
	/* all back: nothing said */
	{
		struct tunable_session *s = session();

		ck_assert_int_eq(tunable_set(s, "loop3", "nr_requests", "64", &res), 0);
		ck_assert_int_eq(tunable_set(s, "loop3", "scheduler", "none", &res), 0);
		ck_assert_int_eq(tunable_undo(s, &res), 0);
		ck_assert_msg(!strchr(res.msg, ';'), "%s", res.msg);
		ck_assert_str_eq(file("sys/block/loop3/queue/nr_requests"), "64");
		ck_assert_int_eq(tunable_restore_all(s, NULL, NULL), 0);
		tunable_session_close(s);
	}
}
END_TEST

/* Collects what a keep reports. */
static void collect_msgs(void *arg, const struct tunable_result *res)
{
	char *buf = arg;
	size_t used = strlen(buf);

	snprintf(buf + used, 1024 - used, "%s\n", res->msg);
}

/* Quit and hang-up restore what this session changed; the originals an
 * earlier session left in the journal stay there for blktune --restore (the
 * person answered "leave them"), unless this session changed that tunable
 * again: then it is this session's to put back. */
START_TEST(test_restore_session_leaves_earlier)
{
	char ra0[64], ms0[64], nm0[64];
	struct tunable_session *s = session();
	struct tunable_result res;

	snprintf(ra0, sizeof(ra0), "%s", file("sys/block/loop3/queue/read_ahead_kb"));
	snprintf(ms0, sizeof(ms0), "%s", file("sys/block/loop3/queue/max_sectors_kb"));
	snprintf(nm0, sizeof(nm0), "%s", file("sys/block/loop3/queue/nomerges"));
	ck_assert_int_eq(tunable_set(s, "loop3", "read_ahead_kb", "512", &res), 0);
	ck_assert_int_eq(tunable_set(s, "loop3", "nomerges", "2", &res), 0);
	ck_assert_uint_eq(tunable_session_changes(s), 2);
	tunable_session_close(s); /* the earlier session ends without restoring */

	s = session();
	ck_assert_uint_eq(tunable_session_changes(s), 0);
	ck_assert_int_eq(tunable_set(s, "loop3", "max_sectors_kb", "64", &res), 0);
	ck_assert_uint_eq(tunable_session_changes(s), 1); /* its own only */
	ck_assert_int_eq(tunable_set(s, "loop3", "nomerges", "1", &res), 0);
	ck_assert_uint_eq(tunable_session_changes(s), 2); /* nomerges adopted */
	ck_assert_int_eq(tunable_restore_session(s, NULL, NULL), 0);
	ck_assert_uint_eq(tunable_session_changes(s), 0);
	ck_assert_str_eq(file("sys/block/loop3/queue/max_sectors_kb"), ms0);
	ck_assert_str_eq(file("sys/block/loop3/queue/nomerges"), nm0); /* the earlier original */
	ck_assert_str_eq(file("sys/block/loop3/queue/read_ahead_kb"), "512");
	ck_assert_int_eq(journal_pending(jdir, pmsg, sizeof(pmsg)), 1);
	tunable_session_close(s);

	s = session(); /* U, y or --restore: everything */
	ck_assert_int_eq(tunable_restore_all(s, NULL, NULL), 0);
	ck_assert_str_eq(file("sys/block/loop3/queue/read_ahead_kb"), ra0);
	ck_assert_int_eq(journal_pending(jdir, pmsg, sizeof(pmsg)), -ENOENT);
	tunable_session_close(s);
}
END_TEST

/* A value the kernel changed with this session's write (a scheduler switch
 * resets nr_requests) is this session's too, though an earlier session left
 * its original: quit puts it back and the journal is empty. */
START_TEST(test_restore_session_side_value)
{
	char nr0[64], sched0[64], path[512], buf[2048];
	FILE *f;
	size_t n;
	struct tunable_session *s = session();
	struct tunable_result res;

	snprintf(nr0, sizeof(nr0), "%s", file("sys/block/loop3/queue/nr_requests"));
	snprintf(sched0, sizeof(sched0), "%s", file("sys/block/loop3/queue/scheduler"));
	ck_assert_int_eq(tunable_set(s, "loop3", "nr_requests", "64", &res), 0);
	tunable_session_close(s);

	s = session();
	ck_assert_int_eq(tunable_set(s, "loop3", "scheduler", "none", &res), 0);
	ck_assert_msg(strstr(res.msg, "kernel also set nr_requests 64 -> 128"), "%s", res.msg);
	ck_assert_int_eq(tunable_restore_session(s, NULL, NULL), 0);
	ck_assert_str_eq(file("sys/block/loop3/queue/scheduler"), sched0);
	ck_assert_str_eq(file("sys/block/loop3/queue/nr_requests"), nr0);
	/* nr_requests' original is gone from the journal (restored); the
	 * scheduler's parameters the earlier session journaled stay its own */
	ck_assert_int_eq(journal_pending(jdir, pmsg, sizeof(pmsg)), 1);
	snprintf(path, sizeof(path), "%s/journal", jdir);
	ck_assert_ptr_nonnull(f = fopen(path, "r"));
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	ck_assert_msg(!strstr(buf, "nr_requests") && strstr(buf, "iosched/async_depth"), "%s", buf);
	tunable_session_close(s);
}
END_TEST

/* K or k keeps this session's changes and forgets their originals; an
 * earlier session's originals stay in the journal (they are not lost). */
START_TEST(test_keep_leaves_earlier)
{
	char ms0[64], msgs[1024] = "";
	struct tunable_session *s = session();
	struct tunable_result res;

	snprintf(ms0, sizeof(ms0), "%s", file("sys/block/loop3/queue/max_sectors_kb"));
	ck_assert_int_eq(tunable_set(s, "loop3", "read_ahead_kb", "512", &res), 0);
	tunable_session_close(s);

	s = session();
	ck_assert_int_eq(tunable_set(s, "loop3", "max_sectors_kb", "64", &res), 0);
	ck_assert_int_eq(tunable_keep(s, collect_msgs, msgs), 0);
	ck_assert_msg(strstr(msgs, "loop3 max_sectors_kb kept at 64") && !strstr(msgs, "read_ahead_kb"), "%s", msgs);
	ck_assert_uint_eq(tunable_session_changes(s), 0);
	ck_assert_int_eq(journal_pending(jdir, pmsg, sizeof(pmsg)), 1);
	/* a change after the keep is journaled anew and restored */
	ck_assert_int_eq(tunable_set(s, "loop3", "nomerges", "2", &res), 0);
	ck_assert_uint_eq(tunable_session_changes(s), 1);
	ck_assert_int_eq(journal_pending(jdir, pmsg, sizeof(pmsg)), 2);
	tunable_session_close(s);

	s = session();
	ck_assert_int_eq(tunable_restore_all(s, NULL, NULL), 0);
	ck_assert_str_eq(file("sys/block/loop3/queue/read_ahead_kb"), "128");
	ck_assert_str_eq(file("sys/block/loop3/queue/max_sectors_kb"), "64"); /* kept */
	ck_assert_int_eq(journal_pending(jdir, pmsg, sizeof(pmsg)), -ENOENT);
	tunable_session_close(s);
}
END_TEST

/* A change stepped back by hand leaves no original to offer at the next
 * start; one that still differs, and an earlier session's, stay. */
START_TEST(test_tidy)
{
	struct tunable_session *s = session();
	struct tunable_result res;
	char ms0[64];

	snprintf(ms0, sizeof(ms0), "%s", file("sys/block/loop3/queue/max_sectors_kb"));

	ck_assert_int_eq(tunable_session_tidy(s), 0); /* no journal yet */
	ck_assert_int_eq(tunable_set(s, "loop3", "nomerges", "2", &res), 0);
	tunable_session_close(s);

	s = session();
	ck_assert_int_eq(tunable_set(s, "loop3", "read_ahead_kb", "512", &res), 0);
	ck_assert_int_eq(tunable_set(s, "loop3", "max_sectors_kb", "64", &res), 0);
	ck_assert_int_eq(tunable_set(s, "loop3", "read_ahead_kb", "128", &res), 0);
	ck_assert_int_eq(journal_pending(jdir, pmsg, sizeof(pmsg)), 3);
	ck_assert_int_eq(tunable_session_tidy(s), 0);
	ck_assert_int_eq(journal_pending(jdir, pmsg, sizeof(pmsg)), 2);
	ck_assert_uint_eq(tunable_session_changes(s), 1);
	ck_assert_int_eq(tunable_set(s, "loop3", "max_sectors_kb", ms0, &res), 0); /* back by hand */
	ck_assert_int_eq(tunable_session_tidy(s), 0);
	ck_assert_int_eq(journal_pending(jdir, pmsg, sizeof(pmsg)), 1); /* the earlier nomerges */
	ck_assert_str_eq(file("sys/block/loop3/queue/nomerges"), "2");
	/* a value put back by hand on an earlier session's tunable is not this
	 * session's to forget either */
	ck_assert_int_eq(put(r, "sys/block/loop3/queue/nomerges", "0\n"), 0);
	ck_assert_int_eq(tunable_session_tidy(s), 0);
	ck_assert_int_eq(journal_pending(jdir, pmsg, sizeof(pmsg)), 1);
	tunable_session_close(s);
}
END_TEST

/* --restore goes through --set's table and validation: a journal line for
 * write_cache, nr_requests 0, a negative read_ahead_kb, an unknown tunable
 * or an IRQ that does not serve the device is refused, reported with its
 * line, kept aside; nothing is written. */
START_TEST(test_restore_validates)
{
	static const char *const files[] = { "write_cache", "nr_requests", "read_ahead_kb", "nomerges" };
	char before[4][256], rel[256], path[512], seq[64];
	struct tunable_session *s;
	struct counts c = { 0 };
	FILE *f;

	for (size_t i = 0; i < 4; i++) {
		snprintf(rel, sizeof(rel), "sys/block/loop3/queue/%s", files[i]);
		snprintf(before[i], sizeof(before[i]), "%s", file(rel));
	}
	snprintf(seq, sizeof(seq), "%s", file("sys/block/loop3/diskseq"));
	ck_assert_int_eq(mkdir(jdir, 0700), 0);
	snprintf(path, sizeof(path), "%s/journal", jdir);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f, "blktune-journal 2\n"
		   "orig loop3 - %s write_cache write through\n"
		   "orig loop3 - %s nr_requests 0\n"
		   "orig loop3 - %s read_ahead_kb -1\n"
		   "orig loop3 - %s no_such_knob 1\n"
		   "orig loop3 - %s irq/99 0\n"
		   "orig loop3 - %s nomerges 2\n", seq, seq, seq, seq, seq, seq);
	ck_assert_int_eq(fclose(f), 0);
	s = session();
	ck_assert_int_eq(tunable_restore_all(s, count_results, &c), 5);
	ck_assert_int_eq(c.restored, 1);
	ck_assert_msg(strstr(c.msgs, "journal line 2: loop3 write_cache write through not restored: write_cache is "
				     "read-only for blktune: never written; kept aside in "), "%s", c.msgs);
	ck_assert_msg(strstr(c.msgs, "journal line 3: loop3 nr_requests 0 not restored: 0 refused: below the minimum 4"),
		      "%s", c.msgs);
	ck_assert_msg(strstr(c.msgs, "journal line 4: loop3 read_ahead_kb -1 not restored"), "%s", c.msgs);
	ck_assert_msg(strstr(c.msgs, "journal line 5: loop3 no_such_knob 1 not restored: loop3: unknown tunable"),
		      "%s", c.msgs);
	ck_assert_msg(strstr(c.msgs, "journal line 6: loop3 irq/99 0 not restored: loop3: no interrupt 99"), "%s",
		      c.msgs);
	ck_assert_str_eq(file("sys/block/loop3/queue/write_cache"), before[0]);
	ck_assert_str_eq(file("sys/block/loop3/queue/nr_requests"), before[1]);
	ck_assert_str_eq(file("sys/block/loop3/queue/read_ahead_kb"), before[2]);
	ck_assert_str_eq(file("sys/block/loop3/queue/nomerges"), "2");
	/* Nothing is left to retry: a second restore has nothing to do. */
	ck_assert_int_eq(journal_pending(jdir, pmsg, sizeof(pmsg)), -ENOENT);
	tunable_session_close(s);
}
END_TEST

/* A value the kernel refuses for good is kept aside; one it fails to write
 * for a passing reason stays in the journal to retry. */
static int refusing_kernel(const struct root *rt, const char *rel, const char *val)
{
	if (strstr(rel, "read_ahead_kb") && strcmp(val, "128") == 0)
		return -EINVAL;
	if (strstr(rel, "nomerges"))
		return -EBUSY;
	return fake_kernel(rt, rel, val);
}

START_TEST(test_restore_refused_kept_aside)
{
	struct tunable_session *s = session();
	struct tunable_result res;
	struct counts c = { 0 };

	ck_assert_int_eq(tunable_set(s, "loop3", "read_ahead_kb", "512", &res), 0);
	ck_assert_int_eq(tunable_set(s, "loop3", "nomerges", "2", &res), 0);
	ck_assert_int_eq(tunable_set(s, "loop3", "rq_affinity", "2", &res), 0);
	tunable_set_writer(refusing_kernel);
	ck_assert_int_eq(tunable_restore_all(s, count_results, &c), 2);
	ck_assert_msg(strstr(c.msgs, "loop3 read_ahead_kb 128 not restored: 128 refused by the kernel"), "%s", c.msgs);
	ck_assert_msg(strstr(c.msgs, "loop3 nomerges not restored to 0: Device or resource busy (now 2); kept in the "
				     "journal to retry"), "%s", c.msgs);
	ck_assert_str_eq(file("sys/block/loop3/queue/rq_affinity"), "1");
	/* Only the retry is left; the refused entry does not block a new original. */
	ck_assert_int_eq(journal_pending(jdir, pmsg, sizeof(pmsg)), 1);
	tunable_set_writer(fake_kernel);
	ck_assert_int_eq(tunable_set(s, "loop3", "read_ahead_kb", "1024", &res), 0);
	ck_assert_int_eq(tunable_restore_all(s, NULL, NULL), 0);
	ck_assert_str_eq(file("sys/block/loop3/queue/read_ahead_kb"), "512");
	ck_assert_str_eq(file("sys/block/loop3/queue/nomerges"), "0");
	tunable_session_close(s);
}
END_TEST

START_TEST(test_read_only)
{
	int status;
	pid_t pid;

	if (geteuid() != 0)
		return; /* the drop of privileges below needs root */
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		struct tunable_session *s;
		struct tunable_result res;
		struct root *live;
		const char *why = NULL;

		if (setresuid(65534, 65534, 65534) || root_open("/", &live) ||
		    tunable_session_open(live, jdir, &s))
			_exit(2);
		if (tunable_session_writable(s, &why) || !why || !strstr(why, "not root"))
			_exit(3);
		if (tunable_set(s, "loop0", "read_ahead_kb", "128", &res) != -EACCES &&
		    tunable_set(s, "vda", "read_ahead_kb", "128", &res) != -EACCES)
			_exit(4);
		_exit(0);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_int_eq(WEXITSTATUS(status), 0);
}
END_TEST

/* A snapshot in slot `slot` of ab from its tunable lines. */
static void ab_slot_of(struct ab *ab, enum ab_slot slot, const char *tunables)
{
	char snap[1024], msg[256];

	snprintf(snap, sizeof(snap),
		 "blktune-snapshot 2\nhost h\nkernel k\ntime 1\nwindow 30\ndevice loop3 7:3 0\nspan 0 1 1 0 0\n"
		 "%send-device\nend 1\n",
		 tunables);
	snapshot_free(&ab->snap[slot]);
	snapshot_init(&ab->snap[slot]);
	ck_assert_int_eq(snapshot_parse(snap, strlen(snap), "x.snap", &ab->snap[slot], msg, sizeof(msg)), 0);
	ab->have[slot] = true;
}

/* A's and B's keys (ab_apply) report each value they change, as -w records
 * it: device, tunable, before and after as read back; an equal value is no
 * change and is not reported. */
struct reports {
	int n;
	struct tunable_result last[4];
};

static void collect(void *arg, const struct tunable_result *res)
{
	struct reports *got = arg;

	if (got->n < 4)
		got->last[got->n] = *res;
	got->n++;
}

START_TEST(test_ab_apply_reports_changes)
{
	struct tunable_session *ts = session();
	struct reports rep = { 0 };
	char tun[128], msg[512];
	struct ab ab;

	snprintf(tun, sizeof(tun), "tunable read_ahead_kb 510\ntunable max_sectors_kb %s\n",
		 file("sys/block/loop3/queue/max_sectors_kb"));
	ab_init(&ab);
	ab_slot_of(&ab, AB_A, tun);
	ck_assert_str_eq(file("sys/block/loop3/queue/read_ahead_kb"), "128");
	ck_assert_int_eq(ab_apply(&ab, AB_A, ts, NULL, 0, NULL, collect, &rep, msg, sizeof(msg)), 0);
	/* max_sectors_kb was already equal: one report, the kernel's rounding in it */
	ck_assert_int_eq(rep.n, 1);
	ck_assert_str_eq(rep.last[0].dev, "loop3");
	ck_assert_str_eq(rep.last[0].name, "read_ahead_kb");
	ck_assert_str_eq(rep.last[0].before, "128");
	ck_assert_str_eq(rep.last[0].got, "508");
	ck_assert_str_eq(file("sys/block/loop3/queue/read_ahead_kb"), "508");
	/* again: 508 != 510, written again, no change read back, nothing reported */
	rep.n = 0;
	ab_apply(&ab, AB_A, ts, NULL, 0, NULL, collect, &rep, msg, sizeof(msg));
	ck_assert_int_eq(rep.n, 0);
	/* no callback: the same apply, nothing to call */
	ck_assert_int_eq(tunable_undo(ts, &rep.last[0]), 0);
	ck_assert_int_eq(ab_apply(&ab, AB_A, ts, NULL, 0, NULL, NULL, NULL, msg, sizeof(msg)), 0);
	ck_assert_str_eq(file("sys/block/loop3/queue/read_ahead_kb"), "508");
	ab_free(&ab);
	tunable_session_close(ts);
}
END_TEST

/* A snapshot's values go back in restore order: max_sectors_kb (a queue
 * limit, it raises read_ahead_kb to twice itself) before read_ahead_kb, or
 * A's read_ahead_kb would be lost as soon as it was set. */
START_TEST(test_ab_apply_limits_before_readahead)
{
	struct tunable_session *ts = session();
	char msg[512];
	struct ab ab;

	limits_raise_ra = true;
	ab_init(&ab);
	ab_slot_of(&ab, AB_A, "tunable read_ahead_kb 64\ntunable max_sectors_kb 256\n");
	ck_assert_int_eq(ab_apply(&ab, AB_A, ts, NULL, 0, NULL, NULL, NULL, msg, sizeof(msg)), 0);
	ck_assert_str_eq(file("sys/block/loop3/queue/max_sectors_kb"), "256");
	ck_assert_str_eq(file("sys/block/loop3/queue/read_ahead_kb"), "64");
	ab_free(&ab);
	ck_assert_int_eq(tunable_restore_all(ts, NULL, NULL), 0);
	ck_assert_str_eq(file("sys/block/loop3/queue/max_sectors_kb"), "1280");
	ck_assert_str_eq(file("sys/block/loop3/queue/read_ahead_kb"), "128");
	tunable_session_close(ts);
	limits_raise_ra = false;
}
END_TEST

/* The window of loop3 in se starts at */
static double window_start(const struct series *se)
{
	struct series_window w;
	double t;

	series_window_init(&w);
	ck_assert_int_eq(series_window_get(se, makedev(7, 3), "loop3", &w), 0);
	t = w.t_start;
	series_window_free(&w);
	return t;
}

/* ab_apply's words and counts: one change, several, refusals, nothing to
 * do, no snapshot; the scheduler before its own parameters whatever the
 * snapshot's order; and the series marked at t_now only when a value was
 * written. */
START_TEST(test_ab_apply_messages)
{
	struct tunable_session *ts = session();
	struct tunable_result res;
	struct reports rep = { 0 };
	struct series *se;
	struct ab ab;
	char msg[512];

	ck_assert_int_eq(series_new(60, &se), 0);
	for (int i = 0; i < 20; i++) {
		struct disk_metrics m;
		memset(&m, 0, sizeof(m));
		unit_row_info(&m);
		m.dev = makedev(7, 3);
		snprintf(m.name, sizeof(m.name), "loop3");
		m.state = DISK_OK;
		m.interval = 1;
		m.r_s = 10;
		ck_assert_int_eq(series_add(se, &m, 1, i + 1), 0);
	}
	ab_init(&ab);
	ck_assert_int_eq(ab_apply(&ab, AB_B, ts, se, 5, NULL, NULL, NULL, msg, sizeof(msg)), -ENOENT);
	ck_assert_str_eq(msg, "no snapshot B to re-apply");
	/* the queue's scheduler is none (its parameters gone); A has
	 * mq-deadline, with a parameter listed before it */
	ck_assert_int_eq(tunable_set(ts, "loop3", "scheduler", "none", &res), 0);
	ck_assert_str_eq(file("sys/block/loop3/queue/iosched/read_expire"), "(absent)");
	ab_slot_of(&ab, AB_A, "tunable iosched/read_expire 250\ntunable scheduler mq-deadline\n");
	ck_assert_double_eq(window_start(se), 0);
	ck_assert_int_eq(ab_apply(&ab, AB_A, ts, se, 10.5, NULL, NULL, NULL, msg, sizeof(msg)), 0);
	ck_assert_str_eq(msg, "A re-applied: 2 changed, 0 refused");
	ck_assert_str_eq(file("sys/block/loop3/queue/scheduler"), "[mq-deadline] none");
	ck_assert_str_eq(file("sys/block/loop3/queue/iosched/read_expire"), "250");
	/* the change at 10.5 starts the next window after it */
	ck_assert_double_eq(window_start(se), 11);
	/* again: nothing to write, nothing marked */
	ck_assert_int_eq(ab_apply(&ab, AB_A, ts, se, 15.5, NULL, NULL, NULL, msg, sizeof(msg)), 0);
	ck_assert_str_eq(msg, "A's tunables are already set");
	ck_assert_double_eq(window_start(se), 11);
	/* asked for another device than A holds: said, not "already set" */
	ck_assert_int_eq(ab_apply(&ab, AB_A, ts, se, 15.5, "sda", NULL, NULL, msg, sizeof(msg)), -ENOENT);
	ck_assert_str_eq(msg, "A holds loop3, not sda: select loop3 to re-apply it");
	/* one change: its own message */
	ab_slot_of(&ab, AB_B, "tunable read_ahead_kb 256\n");
	ck_assert_int_eq(ab_apply(&ab, AB_B, ts, NULL, 0, NULL, NULL, NULL, msg, sizeof(msg)), 0);
	ck_assert_msg(strncmp(msg, "B re-applied: loop3 read_ahead_kb 128 -> 256", 44) == 0, "%s", msg);
	/* a value the kernel refuses, and one it takes: counted, the refusal said */
	ab_slot_of(&ab, AB_B, "tunable max_sectors_kb 999\ntunable read_ahead_kb 512\n");
	rep.n = 0;
	ck_assert_int_eq(ab_apply(&ab, AB_B, ts, NULL, 0, NULL, collect, &rep, msg, sizeof(msg)), 1);
	/* the refused write changed nothing: only read_ahead_kb is reported */
	ck_assert_int_eq(rep.n, 1);
	ck_assert_str_eq(rep.last[0].name, "read_ahead_kb");
	ck_assert_msg(strncmp(msg, "B re-applied: 1 changed, 1 refused: ", 36) == 0, "%s", msg);
	ck_assert_msg(strstr(msg, "max_sectors_kb") != NULL, "%s", msg);
	ck_assert_str_eq(file("sys/block/loop3/queue/read_ahead_kb"), "512");
	/* only refusals */
	ab_slot_of(&ab, AB_B, "tunable max_sectors_kb 999\n");
	ck_assert_int_eq(ab_apply(&ab, AB_B, ts, NULL, 0, NULL, NULL, NULL, msg, sizeof(msg)), 1);
	ck_assert_msg(strncmp(msg, "B re-applied: 0 changed, 1 refused: ", 36) == 0, "%s", msg);
	/* another device named: nothing of loop3 is touched */
	ab_slot_of(&ab, AB_B, "tunable read_ahead_kb 64\n");
	ck_assert_int_eq(ab_apply(&ab, AB_B, ts, NULL, 0, "loop4", NULL, NULL, msg, sizeof(msg)), -ENOENT);
	ck_assert_str_eq(msg, "B holds loop3, not loop4: select loop3 to re-apply it");
	ck_assert_str_eq(file("sys/block/loop3/queue/read_ahead_kb"), "512");
	ab_free(&ab);
	series_free(se);
	tunable_session_close(ts);
}
END_TEST

/* cli_tunable_set on the fixture: specs specs, the exit status, what it
 * said on stderr into errbuf. */
static int cli_set(const char *const *specs, size_t n, char *errbuf, size_t size)
{
	FILE *out = fopen("/dev/null", "w"), *err = tmpfile();
	int status;
	size_t len;

	ck_assert(out && err);
	status = cli_tunable_set(tree, jdir, specs, n, out, err);
	rewind(err);
	len = fread(errbuf, 1, size - 1, err);
	errbuf[len] = '\0';
	fclose(out);
	fclose(err);
	return status;
}

/* --set checks every spec before it writes any, each under the scheduler
 * the specs before it set: under none, nr_requests' limit is the hardware
 * queue depth (128 on loop3), and mq-deadline's parameters are gone. */
START_TEST(test_cli_set_all_or_nothing)
{
	const char *none_2048[] = { "loop3:scheduler=none", "loop3:nr_requests=2048" };
	const char *none_param[] = { "loop3:scheduler=none", "loop3:iosched/fifo_batch=8" };
	const char *none_64[] = { "loop3:scheduler=none", "loop3:nr_requests=64" };
	char msg[2048], path[512];

	snprintf(path, sizeof(path), "%s/journal", jdir);
	ck_assert_int_eq(cli_set(none_2048, 2, msg, sizeof(msg)), 2);
	ck_assert_str_eq(msg, "blktune: --set loop3:nr_requests=2048: loop3 nr_requests 2048 refused: above the "
			      "device's limit (128, the hardware queue depth, scheduler none); nothing changed\n");
	ck_assert_str_eq(file("sys/block/loop3/queue/scheduler"), "[mq-deadline] none");
	ck_assert_int_ne(access(path, F_OK), 0); /* nothing journaled */
	ck_assert_int_eq(cli_set(none_param, 2, msg, sizeof(msg)), 2);
	ck_assert_msg(strstr(msg, "loop3 has no iosched/fifo_batch under scheduler none; nothing changed"), "%s", msg);
	ck_assert_str_eq(file("sys/block/loop3/queue/scheduler"), "[mq-deadline] none");
	ck_assert_str_eq(file("sys/block/loop3/queue/iosched/fifo_batch"), "16");
	/* the first spec's own state is the one in force: a valid pair goes through */
	ck_assert_int_eq(cli_set(none_64, 2, msg, sizeof(msg)), 0);
	ck_assert_str_eq(file("sys/block/loop3/queue/nr_requests"), "64");
	ck_assert_str_eq(file("sys/block/loop3/queue/scheduler"), "mq-deadline [none]");
}
END_TEST

/* A write the kernel refuses (EINVAL, not foreseen by the checks) stops
 * there: the specs before it stay applied and journaled, the rest are not
 * tried, and stderr says which. */
START_TEST(test_cli_set_kernel_refusal_stops)
{
	const char *specs[] = { "loop3:read_ahead_kb=256", "loop3:max_sectors_kb=999", "loop3:nomerges=1" };
	char msg[2048], path[512], *j = NULL;
	struct root *jr;
	size_t cap = 0;

	ck_assert_int_eq(cli_set(specs, 3, msg, sizeof(msg)), 1);
	ck_assert_msg(strstr(msg, "refused: the kernel said Invalid argument\n"
				  "blktune: --set stopped at loop3:max_sectors_kb=999: the 1 before it stay applied "
				  "(blktune --restore puts them back), the 1 after it were not tried\n"),
		      "%s", msg);
	ck_assert_str_eq(file("sys/block/loop3/queue/read_ahead_kb"), "256");
	ck_assert_str_eq(file("sys/block/loop3/queue/nomerges"), "0");
	snprintf(path, sizeof(path), "%s", jdir);
	ck_assert_int_eq(root_open(path, &jr), 0);
	ck_assert_int_gt(root_read_all(jr, "journal", &j, &cap, 1 << 20), 0);
	ck_assert_msg(strstr(j, " read_ahead_kb 128\n"), "%s", j);
	free(j);
	root_close(jr);
}
END_TEST

UNIT_SUITE(tunable_suite)
static Suite *tunable_suite(void)
{
	Suite *s = suite_create("tunable");
	TCase *tc = tcase_create("tunable");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_device_names);
	tcase_add_test(tc, test_list);
	tcase_add_test(tc, test_set_read_back);
	tcase_add_test(tc, test_irq_many_cpus);
	tcase_add_test(tc, test_readahead_memory);
	tcase_add_test(tc, test_journal_undo_step);
	tcase_add_test(tc, test_restore_after_crash);
	tcase_add_test(tc, test_vanished_and_reused);
	tcase_add_test(tc, test_undo_other_device);
	tcase_add_test(tc, test_restore_already_back);
	tcase_add_test(tc, test_undo_side_values_said);
	tcase_add_test(tc, test_restore_session_leaves_earlier);
	tcase_add_test(tc, test_restore_session_side_value);
	tcase_add_test(tc, test_keep_leaves_earlier);
	tcase_add_test(tc, test_tidy);
	tcase_add_test(tc, test_undo_history_full);
	tcase_add_test(tc, test_restore_validates);
	tcase_add_test(tc, test_restore_refused_kept_aside);
	tcase_add_test(tc, test_read_only);
	tcase_add_test(tc, test_ab_apply_reports_changes);
	tcase_add_test(tc, test_ab_apply_limits_before_readahead);
	tcase_add_test(tc, test_ab_apply_messages);
	tcase_add_test(tc, test_cli_set_all_or_nothing);
	tcase_add_test(tc, test_cli_set_kernel_refusal_stops);
	suite_add_tcase(s, tc);
	return s;
}
