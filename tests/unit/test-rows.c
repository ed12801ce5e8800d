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
	snprintf(m->name, sizeof(m->name), "%s", name);
	m->info.kind = kind;
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
	snprintf(m[3].info.dm_name, sizeof(m[3].info.dm_name), "vg-root");
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
	ck_assert(mb[0] > 9.99f && mb[0] < 10.01f);
	ck_assert(io[1] > 99.9f && io[1] < 100.1f);
	m.interval = 1;
	for (int i = 0; i < 100; i++)
		history_add(h, &m, 1);
	ck_assert_int_eq(history_get(h, m.dev, "sda", mb, io), HISTORY_POINTS);
	/* the device left: its series goes */
	history_add(h, &m, 0);
	ck_assert_int_eq(history_get(h, m.dev, "sda", mb, io), 0);
	history_free(h);
}
END_TEST

UNIT_SUITE(rows_suite)
static Suite *rows_suite(void)
{
	Suite *s = suite_create("rows");
	TCase *tc = tcase_create("rows");

	tcase_add_test(tc, sort_and_filter);
	tcase_add_test(tc, device_list_overrides);
	tcase_add_test(tc, history_one_point_per_second);
	suite_add_tcase(s, tc);
	return s;
}
