#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "columns.h"
#include "history.h"
#include "rows.h"
#include "unit.h"

static void mk(struct disk_metrics *m, const char *name, enum disk_kind kind, double r_s, double util)
{
	memset(m, 0, sizeof(*m));
	unit_row_info(m);
	snprintf(m->name, sizeof(m->name), "%s", name);
	UNIT_INFO(m)->kind = kind;
	m->state = DISK_OK;
	m->r_s = r_s;
	m->util = util;
	m->interval = 1.0;
}

static void setup(struct disk_metrics *m)
{
	mk(&m[0], "sdb", DISK_KIND_DISK, 10, 50);
	mk(&m[1], "sda", DISK_KIND_DISK, 300, 20);
	mk(&m[2], "sda1", DISK_KIND_PARTITION, 300, 20);
	mk(&m[3], "dm-0", DISK_KIND_DM, 0, 0);
	snprintf(UNIT_INFO(&m[3])->text->dm_name, sizeof(m[3].info->text->dm_name), "vg-root");
	mk(&m[4], "loop0", DISK_KIND_DISK, 0, 0);
}

START_TEST(sort_and_filter)
{
	struct disk_metrics m[5];
	struct rows_filter f = { .sort_column = COLUMN_DEVICE };
	size_t idx[5], n;

	setup(m);
	n = rows_build(m, 5, &f, idx);
	ck_assert_uint_eq(n, 4); /* partition hidden */
	/* By the name shown: dm-0 is "vg-root", after sdb. */
	ck_assert_str_eq(m[idx[0]].name, "loop0");
	ck_assert_str_eq(m[idx[2]].name, "sdb");
	ck_assert_str_eq(m[idx[3]].name, "dm-0");
	f.sort_column = COLUMN_R_S;
	f.sort_reverse = true;
	n = rows_build(m, 5, &f, idx);
	ck_assert_str_eq(m[idx[0]].name, "sda");
	ck_assert_str_eq(m[idx[1]].name, "sdb");
	f.sort_column = COLUMN_UTIL;
	n = rows_build(m, 5, &f, idx);
	ck_assert_str_eq(m[idx[0]].name, "sdb");
	f.partitions = true;
	ck_assert_uint_eq(rows_build(m, 5, &f, idx), 5);
	f.hide_idle = true;
	ck_assert_uint_eq(rows_build(m, 5, &f, idx), 3);
	f.hide_idle = false;
	snprintf(f.name, sizeof(f.name), "sda");
	ck_assert_uint_eq(rows_build(m, 5, &f, idx), 2);
	snprintf(f.name, sizeof(f.name), "root"); /* matches the dm name */
	n = rows_build(m, 5, &f, idx);
	ck_assert_uint_eq(n, 1);
	ck_assert_str_eq(m[idx[0]].name, "dm-0");
}
END_TEST

/* The last order is kept only while it is still the order: a stale one
 * (a row gone, one twice, out of range, out of order, another sort, another
 * count) gives what a fresh sort gives. */
static void same_as_fresh(const struct disk_metrics *m, size_t n, const struct rows_filter *f, const size_t *prev,
			  size_t nprev)
{
	size_t want[8], got[8], nw, ng;

	nw = rows_build(m, n, f, want);
	memcpy(got, prev, nprev * sizeof(*prev));
	ng = rows_build_from(m, n, f, got, nprev);
	ck_assert_uint_eq(ng, nw);
	for (size_t i = 0; i < nw; i++)
		ck_assert_msg(got[i] == want[i], "row %zu: %zu, not %zu", i, got[i], want[i]);
}

START_TEST(last_order_kept_only_while_it_holds)
{
	struct disk_metrics m[5];
	struct rows_filter f = { .sort_column = COLUMN_DEVICE };
	size_t fresh[5], n;

	setup(m);
	n = rows_build(m, 5, &f, fresh); /* loop0 sda sdb dm-0: 4 1 0 3 */
	ck_assert_uint_eq(n, 4);
	same_as_fresh(m, 5, &f, fresh, n);
	same_as_fresh(m, 5, &f, (const size_t[]){ 1, 4, 0, 3 }, 4); /* out of order */
	same_as_fresh(m, 5, &f, (const size_t[]){ 4, 1, 1, 3 }, 4); /* one twice, one missing */
	same_as_fresh(m, 5, &f, (const size_t[]){ 4, 1, 0, 9 }, 4); /* out of range */
	same_as_fresh(m, 5, &f, (const size_t[]){ 4, 1, 2, 3 }, 4); /* a hidden row */
	same_as_fresh(m, 5, &f, (const size_t[]){ 4, 1, 0 }, 3);    /* one fewer */
	same_as_fresh(m, 5, &f, (const size_t[]){ 4, 1, 0, 3, 2 }, 5);
	f.sort_reverse = true; /* another order: the same rows reversed */
	same_as_fresh(m, 5, &f, fresh, n);
	f.sort_reverse = false;
	f.sort_column = COLUMN_R_S; /* by r/s: sdb (10) before sda (300) */
	same_as_fresh(m, 5, &f, fresh, n);
	m[0].r_s = 1000; /* the figures moved: sdb now last */
	same_as_fresh(m, 5, &f, fresh, n);
}
END_TEST

START_TEST(names_in_natural_order)
{
	static const char *const kernel[] = { "loop10", "sdb", "loop2", "nvme0n1p10", "sda2", "nvme0n1", "loop1",
					      "sda", "nvme0n1p2", "sda10", "loop0", "sdaa" };
	static const char *const want[] = { "loop0", "loop1", "loop2", "loop10", "nvme0n1", "nvme0n1p2",
					    "nvme0n1p10", "sda", "sda2", "sda10", "sdaa", "sdb" };
	static const char *const want_rev[] = { "sdb", "sdaa", "sda", "sda2", "sda10", "nvme0n1", "nvme0n1p2",
						"nvme0n1p10", "loop10", "loop2", "loop1", "loop0" };
	struct disk_metrics m[12];
	struct rows_filter f = { .sort_column = COLUMN_DEVICE, .partitions = true };
	size_t idx[12];

	for (int i = 0; i < 12; i++) {
		bool part = !strcmp(kernel[i], "sda2") || !strcmp(kernel[i], "sda10") ||
			    !strcmp(kernel[i], "nvme0n1p10") || !strcmp(kernel[i], "nvme0n1p2");
		mk(&m[i], kernel[i], part ? DISK_KIND_PARTITION : DISK_KIND_DISK, 0, 0);
		if (part)
			snprintf(UNIT_INFO(&m[i])->text->parent, sizeof(m[i].info->text->parent), "%s",
				 kernel[i][0] == 's' ? "sda" : "nvme0n1");
	}
	ck_assert_uint_eq(rows_build(m, 12, &f, idx), 12);
	for (int i = 0; i < 12; i++)
		ck_assert_str_eq(m[idx[i]].name, want[i]);
	/* reversed: disks reverse, each disk's partitions stay under it */
	f.sort_reverse = true;
	rows_build(m, 12, &f, idx);
	for (int i = 0; i < 12; i++)
		ck_assert_str_eq(m[idx[i]].name, want_rev[i]);
	ck_assert_int_lt(column_natural_cmp("a007", "a8"), 0);
	ck_assert_int_eq(column_natural_cmp("a07", "a7"), 0);
	ck_assert_int_gt(column_natural_cmp("sdb", "sda99"), 0);
	ck_assert_int_lt(column_natural_cmp("x99999999999999999999", "x100000000000000000000"), 0);
}
END_TEST

/* With -j the rows are sorted by persistent names, which a partition's
 * kernel parent name ("sda") is not: each disk's partitions still follow
 * it, in both directions, and a disk comes before its partitions even when
 * they sort before it by their own names (by-uuid: only partitions have
 * one). They once sorted under "sda", far from "ata-X". */
START_TEST(partitions_follow_their_disk_by_persistent_name)
{
	static const struct {
		const char *name, *parent, *persistent;
	} dev[] = {
		{ "sda", "", "ata-X" }, { "sda1", "sda", "ata-X-part1" }, { "sda2", "sda", "ata-X-part2" },
		{ "loop0", "", "" },    { "sdb", "", "" },                  { "sdb1", "sdb", "9C2E" },
		{ "dm-0", "", "dm-name-vg" },
	};
	static const char *const want[] = { "sda", "sda1", "sda2", "dm-0", "loop0", "sdb", "sdb1" };
	static const char *const want_rev[] = { "sdb", "sdb1", "loop0", "dm-0", "sda", "sda1", "sda2" };
	struct disk_metrics m[7];
	struct rows_filter f = { .sort_column = COLUMN_DEVICE, .partitions = true };
	size_t idx[7], prev[7];

	for (int i = 0; i < 7; i++) {
		mk(&m[i], dev[i].name, dev[i].parent[0] ? DISK_KIND_PARTITION : DISK_KIND_DISK, 0, 0);
		snprintf(UNIT_INFO(&m[i])->text->parent, sizeof(m[i].info->text->parent), "%s", dev[i].parent);
		snprintf(UNIT_INFO(&m[i])->persistent, sizeof(m[i].info->persistent), "%s", dev[i].persistent);
	}
	ck_assert_uint_eq(rows_build(m, 7, &f, idx), 7);
	for (int i = 0; i < 7; i++)
		ck_assert_msg(!strcmp(m[idx[i]].name, want[i]), "row %d: %s, not %s", i, m[idx[i]].name, want[i]);
	/* kept as it is on the next refresh */
	memcpy(prev, idx, sizeof(idx));
	ck_assert_uint_eq(rows_build_from(m, 7, &f, prev, 7), 7);
	ck_assert(!memcmp(prev, idx, sizeof(idx)));
	f.sort_reverse = true;
	rows_build(m, 7, &f, idx);
	for (int i = 0; i < 7; i++)
		ck_assert_msg(!strcmp(m[idx[i]].name, want_rev[i]), "reversed row %d: %s, not %s", i,
			      m[idx[i]].name, want_rev[i]);
}
END_TEST

/* Rows without a figure (an untraced or idle device's traced latency is
 * NaN, shown "-") go last in both directions, and the rows with one are in
 * order around them: A 100, B -, C 500 sorted largest first once read
 * 100, -, 500 (NaN compared equal to both, so never moved). */
START_TEST(rows_without_a_figure_go_last)
{
	struct disk_metrics m[5];
	struct rows_filter f = { .sort_column = COLUMN_T_AVG, .sort_reverse = true };
	size_t idx[5];
	const double v[5] = { 100, NAN, 500, NAN, 300 };

	for (int i = 0; i < 5; i++) {
		char name[8];
		snprintf(name, sizeof(name), "vd%c", 'a' + i);
		mk(&m[i], name, DISK_KIND_DISK, 0, 0);
		m[i].t_lat_avg_us = v[i];
	}
	ck_assert_uint_eq(rows_build(m, 5, &f, idx), 5);
	ck_assert_str_eq(m[idx[0]].name, "vdc");
	ck_assert_str_eq(m[idx[1]].name, "vde");
	ck_assert_str_eq(m[idx[2]].name, "vda");
	ck_assert_str_eq(m[idx[3]].name, "vdb");
	ck_assert_str_eq(m[idx[4]].name, "vdd");
	f.sort_reverse = false;
	rows_build(m, 5, &f, idx);
	ck_assert_str_eq(m[idx[0]].name, "vda");
	ck_assert_str_eq(m[idx[1]].name, "vde");
	ck_assert_str_eq(m[idx[2]].name, "vdc");
	ck_assert_str_eq(m[idx[3]].name, "vdb");
	ck_assert_str_eq(m[idx[4]].name, "vdd");
}
END_TEST

START_TEST(ties_keep_kernel_order_both_ways)
{
	struct disk_metrics m[4];
	struct rows_filter f = { .sort_column = COLUMN_R_S };
	size_t idx[4];

	mk(&m[0], "vdc", DISK_KIND_DISK, 5, 0);
	mk(&m[1], "vda", DISK_KIND_DISK, 5, 0);
	mk(&m[2], "vdd", DISK_KIND_DISK, 9, 0);
	mk(&m[3], "vdb", DISK_KIND_DISK, 5, 0);
	rows_build(m, 4, &f, idx);
	ck_assert_str_eq(m[idx[0]].name, "vdc");
	ck_assert_str_eq(m[idx[1]].name, "vda");
	ck_assert_str_eq(m[idx[2]].name, "vdb");
	ck_assert_str_eq(m[idx[3]].name, "vdd");
	f.sort_reverse = true;
	rows_build(m, 4, &f, idx);
	ck_assert_str_eq(m[idx[0]].name, "vdd");
	ck_assert_str_eq(m[idx[1]].name, "vdc");
	ck_assert_str_eq(m[idx[2]].name, "vda");
	ck_assert_str_eq(m[idx[3]].name, "vdb");
}
END_TEST

START_TEST(device_list_overrides)
{
	struct disk_metrics m[5];
	const char *devs[] = { "sda1", "loop0" };
	struct rows_filter f = { .sort_column = COLUMN_DEVICE, .devs = devs, .ndevs = 2 };
	size_t idx[5];

	setup(m);
	/* -p names partitions explicitly: they are shown even though hidden by default. */
	ck_assert_uint_eq(rows_build(m, 5, &f, idx), 2);
	ck_assert_str_eq(m[idx[0]].name, "loop0");
	ck_assert_str_eq(m[idx[1]].name, "sda1");
}
END_TEST

/* "N of M devices": M counts what the table can show, not hidden partitions. */
START_TEST(total_counts_what_can_show)
{
	struct disk_metrics m[5];
	const char *devs[] = { "sda1" };
	struct rows_filter f = { .sort_column = COLUMN_DEVICE, .hide_idle = true, .name = "sd" };

	setup(m);
	ck_assert_uint_eq(rows_total(m, 5, &f), 4);
	f.partitions = true;
	ck_assert_uint_eq(rows_total(m, 5, &f), 5);
	f.partitions = false;
	f.devs = devs;
	f.ndevs = 1;
	ck_assert_uint_eq(rows_total(m, 5, &f), 5); /* -p names the partition */
}
END_TEST

START_TEST(history_one_point_per_second)
{
	struct history *h;
	struct disk_metrics m;
	float mb[HISTORY_POINTS], io[HISTORY_POINTS];

	ck_assert_int_eq(history_new(&h), 0);
	mk(&m, "sda", DISK_KIND_DISK, 100, 0);
	m.dev = makedev(8, 0);
	m.rmb_s = 10;
	m.interval = 0.25;
	for (int i = 0; i < 8; i++)
		ck_assert_int_eq(history_add(h, &m, 1), 0);
	ck_assert_int_eq(history_get(h, m.dev, "sda", mb, io), 2);
	ck_assert(history_span(h, m.dev, "sda") > 1.99 && history_span(h, m.dev, "sda") < 2.01);
	ck_assert(mb[0] > 9.99f && mb[0] < 10.01f);
	ck_assert(io[1] > 99.9f && io[1] < 100.1f);
	m.interval = 1;
	for (int i = 0; i < 100; i++)
		history_add(h, &m, 1);
	ck_assert_int_eq(history_get(h, m.dev, "sda", mb, io), HISTORY_POINTS);
	ck_assert(history_span(h, m.dev, "sda") > 59.99 && history_span(h, m.dev, "sda") < 60.01);
	/* at -d 2 a point is one interval: 60 points span two minutes */
	m.interval = 2;
	for (int i = 0; i < 100; i++)
		history_add(h, &m, 1);
	ck_assert_int_eq(history_get(h, m.dev, "sda", mb, io), HISTORY_POINTS);
	ck_assert(history_span(h, m.dev, "sda") > 119.99 && history_span(h, m.dev, "sda") < 120.01);
	/* the device left: its series goes */
	history_add(h, &m, 0);
	ck_assert_int_eq(history_get(h, m.dev, "sda", mb, io), 0);
	ck_assert(history_span(h, m.dev, "sda") == 0);
	history_free(h);
}
END_TEST

/* The name filter: a glob when it has * ? [ (whole name), else a substring. */
START_TEST(glob_filter)
{
	struct disk_metrics m[5];
	struct rows_filter f = { .sort_column = COLUMN_DEVICE };
	size_t idx[5];

	setup(m);
	snprintf(f.name, sizeof(f.name), "sd[ab]");
	ck_assert_uint_eq(rows_build(m, 5, &f, idx), 2);
	snprintf(f.name, sizeof(f.name), "s*");
	ck_assert_uint_eq(rows_build(m, 5, &f, idx), 2); /* the partition stays hidden */
	snprintf(f.name, sizeof(f.name), "d*"); /* a glob matches the whole name: not sda's "da" */
	ck_assert_uint_eq(rows_build(m, 5, &f, idx), 1);
	ck_assert_str_eq(m[idx[0]].name, "dm-0");
	snprintf(f.name, sizeof(f.name), "vg-*"); /* the dm name */
	ck_assert_uint_eq(rows_build(m, 5, &f, idx), 1);
	snprintf(f.name, sizeof(f.name), "oop"); /* no glob character: a substring */
	ck_assert_uint_eq(rows_build(m, 5, &f, idx), 1);
	snprintf(f.name, sizeof(f.name), "oop*"); /* a glob: anchored at the start */
	ck_assert_uint_eq(rows_build(m, 5, &f, idx), 0);
	ck_assert(!rows_name_match("*", "")); /* an empty name (no dm name) never matches */
}
END_TEST

UNIT_SUITE(rows_suite)
static Suite *rows_suite(void)
{
	Suite *s = suite_create("rows");
	TCase *tc = tcase_create("rows");

	tcase_add_test(tc, sort_and_filter);
	tcase_add_test(tc, total_counts_what_can_show);
	tcase_add_test(tc, last_order_kept_only_while_it_holds);
	tcase_add_test(tc, glob_filter);
	tcase_add_test(tc, device_list_overrides);
	tcase_add_test(tc, names_in_natural_order);
	tcase_add_test(tc, ties_keep_kernel_order_both_ways);
	tcase_add_test(tc, rows_without_a_figure_go_last);
	tcase_add_test(tc, partitions_follow_their_disk_by_persistent_name);
	tcase_add_test(tc, history_one_point_per_second);
	suite_add_tcase(s, tc);
	return s;
}
