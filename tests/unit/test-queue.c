#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "root.h"
#include "source-diskstats.h"
#include "source-queue.h"
#include "unit.h"

struct tree {
	struct root *r;
	struct source_diskstats *ds;
	struct source_queue *q;
	struct sample s;
};

static void open_tree(struct tree *t, const char *name)
{
	ck_assert_int_eq(root_open(unit_fixture(name), &t->r), 0);
	ck_assert_int_eq(source_diskstats_open(t->r, &t->ds), 0);
	ck_assert_int_eq(source_queue_open(t->r, &t->q), 0);
	sample_init(&t->s);
	ck_assert_int_eq(source_diskstats_read(t->ds, &t->s), 0);
	t->s.t = 1.0;
	ck_assert_int_eq(source_queue_fill(t->q, &t->s), 0);
}

static void close_tree(struct tree *t)
{
	sample_free(&t->s);
	source_queue_close(t->q);
	source_diskstats_close(t->ds);
	root_close(t->r);
}

START_TEST(nvme_queue_and_partitions)
{
	struct tree t;
	const struct disk_info *in;

	open_tree(&t, "nvme");
	in = unit_disk_info(&t.s, "nvme0n1");
	ck_assert_int_eq(in->kind, DISK_KIND_DISK);
	ck_assert(in->has_queue);
	ck_assert_int_eq(in->nr_hw_queues, 7);
	ck_assert_int_eq(in->read_ahead_kb, 128);
	ck_assert_int_eq(in->max_hw_sectors_kb, 2048);
	ck_assert_str_eq(in->scheduler, "none");
	ck_assert_int_eq(in->rotational, 0);
	in = unit_disk_info(&t.s, "nvme0n1p2");
	ck_assert_int_eq(in->kind, DISK_KIND_PARTITION);
	ck_assert_str_eq(in->text->parent, "nvme0n1");
	ck_assert(!in->has_queue);
	ck_assert_int_eq(in->read_ahead_kb, -1);
	in = unit_disk_info(&t.s, "sda3");
	ck_assert_str_eq(in->text->parent, "sda");
	/* Four tunables kept open per device with a queue (nvme0n1, sda, sdb),
	 * and the size of each of the 13 devices. */
	ck_assert_uint_eq(source_queue_open_fds(t.q), 12 + 13);
	close_tree(&t);
}
END_TEST

START_TEST(lvm_stacking)
{
	struct tree t;
	const struct disk_info *in;

	open_tree(&t, "lvm");
	in = unit_disk_info(&t.s, "dm-0");
	ck_assert_int_eq(in->kind, DISK_KIND_DM);
	ck_assert_str_eq(in->text->dm_name, "vg_foo.4059-lv_foo.4059");
	/* slaves/ order is the directory's: check membership. */
	for (int i = 0; i < 4; i++) {
		char l[8];
		snprintf(l, sizeof(l), "loop%d", i);
		ck_assert_msg(strstr(in->text->slaves, l) != NULL, "slaves %s", in->text->slaves);
	}
	ck_assert_str_eq(unit_disk_info(&t.s, "loop0")->text->holders, "dm-0");
	ck_assert_str_eq(unit_disk_info(&t.s, "sda")->text->holders, "");
	close_tree(&t);
}
END_TEST

/* An md or dm device on more devices than its 95 bytes hold: the list
 * ends with how many it leaves out, never cut silently. */
START_TEST(many_slaves_counted)
{
	char *dir = unit_fixture_copy("lvm");
	char path[4200], *p;
	struct tree t;
	const char *sl;
	size_t named = 1, more = 0;

	for (int i = 0; i < 24; i++) {
		snprintf(path, sizeof(path), "%s/sys/block/dm-0/slaves/nvme%dn1", dir, i + 10);
		ck_assert_int_eq(symlink("../../nvme0n1", path), 0);
	}
	ck_assert_int_eq(root_open(dir, &t.r), 0);
	ck_assert_int_eq(source_diskstats_open(t.r, &t.ds), 0);
	ck_assert_int_eq(source_queue_open(t.r, &t.q), 0);
	sample_init(&t.s);
	ck_assert_int_eq(source_diskstats_read(t.ds, &t.s), 0);
	t.s.t = 1.0;
	ck_assert_int_eq(source_queue_fill(t.q, &t.s), 0);
	sl = unit_disk_info(&t.s, "dm-0")->text->slaves;
	ck_assert_uint_lt(strlen(sl), sizeof(unit_disk_info(&t.s, "dm-0")->text->slaves));
	p = strrchr(sl, ',');
	ck_assert_ptr_nonnull(p);
	for (const char *c = sl; c < p; c++)
		named += *c == ',';
	/* 28 in all (4 loops and 24 more): those named and "+N more" */
	ck_assert_msg(sscanf(p, ",+%zu more", &more) == 1, "%s", sl);
	ck_assert_uint_eq(named + more, 28);
	ck_assert_uint_ge(named, 5);
	close_tree(&t);
	unit_rmtree(dir);
	free(dir);
}
END_TEST

/* Tunables are re-read only every few seconds or after invalidate. */
START_TEST(tunables_reread_policy)
{
	char *dir = unit_fixture_copy("nvme");
	char path[4200], size[4200];
	struct root *r;
	struct source_diskstats *ds;
	struct source_queue *q;
	struct sample s;

	ck_assert_int_eq(root_open(dir, &r), 0);
	ck_assert_int_eq(source_diskstats_open(r, &ds), 0);
	ck_assert_int_eq(source_queue_open(r, &q), 0);
	sample_init(&s);
	ck_assert_int_eq(source_diskstats_read(ds, &s), 0);
	s.t = 1.0;
	ck_assert_int_eq(source_queue_fill(q, &s), 0);
	ck_assert_int_eq(sample_find(&s, makedev(259, 0), 0)->info.read_ahead_kb, 128);
	/* The file changes in place (the fd stays valid) */
	snprintf(path, sizeof(path), "%s/sys/block/nvme0n1/queue/read_ahead_kb", dir);
	unit_write_file(path, "4096\n");
	/* the size too (a resize), through its kept fd with the tunables */
	snprintf(size, sizeof(size), "%s/sys/block/nvme0n1/size", dir);
	unit_write_file(size, "1000\n");
	s.t = 2.0;
	ck_assert_int_eq(source_queue_fill(q, &s), 0);
	ck_assert_int_eq(sample_find(&s, makedev(259, 0), 0)->info.read_ahead_kb, 128);
	ck_assert_int_eq(sample_find(&s, makedev(259, 0), 0)->info.size_sectors, 468862128);
	source_queue_invalidate(q, makedev(259, 0));
	ck_assert_int_eq(source_queue_fill(q, &s), 0);
	ck_assert_int_eq(sample_find(&s, makedev(259, 0), 0)->info.read_ahead_kb, 4096);
	ck_assert_int_eq(sample_find(&s, makedev(259, 0), 0)->info.size_sectors, 1000);
	unit_write_file(size, "garbage\n");
	unit_write_file(path, "512\n");
	s.t = 2.0 + SOURCE_QUEUE_REREAD_S * 1.3;
	ck_assert_int_eq(source_queue_fill(q, &s), 0);
	ck_assert_int_eq(sample_find(&s, makedev(259, 0), 0)->info.read_ahead_kb, 512);
	ck_assert_int_eq(sample_find(&s, makedev(259, 0), 0)->info.size_sectors, SAMPLE_UNREADABLE);
	/* A device that left: its fds are closed (4 tunables and the size). */
	size_t before = source_queue_open_fds(q);
	for (size_t i = 0; i < s.ndisks;)
		if (!strcmp(s.disks[i].st.name, "sdb")) {
			disk_text_put(s.disks[i].info.text); /* the sample's reference */
			s.disks[i] = s.disks[--s.ndisks];
		} else {
			i++;
		}
	ck_assert_int_eq(source_queue_fill(q, &s), 0);
	ck_assert_uint_eq(source_queue_open_fds(q), before - 5);
	sample_free(&s);
	source_queue_close(q);
	source_diskstats_close(ds);
	root_close(r);
	unit_rmtree(dir);
	free(dir);
}
END_TEST

START_TEST(sysfs_names)
{
	char out[32];

	root_sysfs_name("cciss/c0d0", out, sizeof(out));
	ck_assert_str_eq(out, "cciss!c0d0");
}
END_TEST

UNIT_SUITE(queue_suite)
static Suite *queue_suite(void)
{
	Suite *s = suite_create("source-queue");
	TCase *tc = tcase_create("sysfs");

	tcase_add_test(tc, nvme_queue_and_partitions);
	tcase_add_test(tc, lvm_stacking);
	tcase_add_test(tc, many_slaves_counted);
	tcase_add_test(tc, tunables_reread_policy);
	tcase_add_test(tc, sysfs_names);
	suite_add_tcase(s, tc);
	return s;
}
