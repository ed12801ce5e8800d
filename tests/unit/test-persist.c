/* persist: identity from a fake root (udev database and sysfs written here),
 * the order of settings, file names and the exact rule text. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "persist.h"
#include "root.h"
#include "unit.h"

static char dir[64];

static struct root *tree(const char *udev_sda, const char *loop_backing)
{
	char p[256];
	struct root *r;

	snprintf(dir, sizeof(dir), "/tmp/blktune-unit-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(p, sizeof(p), "%s/sys/block/sda/dev", dir);
	unit_write_file(p, "8:0\n");
	snprintf(p, sizeof(p), "%s/sys/block/loop2/dev", dir);
	unit_write_file(p, "7:2\n");
	if (udev_sda) {
		snprintf(p, sizeof(p), "%s/run/udev/data/b8:0", dir);
		unit_write_file(p, udev_sda);
	}
	if (loop_backing) {
		snprintf(p, sizeof(p), "%s/sys/block/loop2/loop/backing_file", dir);
		unit_write_file(p, loop_backing);
	}
	ck_assert_int_eq(root_open(dir, &r), 0);
	return r;
}

static void done(struct root *r)
{
	root_close(r);
	unit_rmtree(dir);
}

START_TEST(wwn_then_serial_then_loop_file)
{
	struct persist_id id;
	char why[512];
	struct root *r;

	r = tree("S:disk/by-id/x\nE:ID_SERIAL=QEMU_HARDDISK_QM00001\nE:ID_WWN=0x5000c500a1b2c3d4\n", NULL);
	ck_assert_int_eq(persist_identity(r, "sda", &id, why, sizeof(why)), 0);
	ck_assert_int_eq(id.key, PERSIST_WWN);
	ck_assert_str_eq(id.value, "0x5000c500a1b2c3d4");
	done(r);

	r = tree("E:ID_WWN=\nE:ID_SERIAL=QEMU_HARDDISK_QM00001\n", NULL);
	ck_assert_int_eq(persist_identity(r, "sda", &id, why, sizeof(why)), 0);
	ck_assert_int_eq(id.key, PERSIST_SERIAL); /* an empty WWN is no WWN */
	ck_assert_str_eq(id.value, "QEMU_HARDDISK_QM00001");
	done(r);

	r = tree(NULL, "/srv/images/data.img\n");
	ck_assert_int_eq(persist_identity(r, "loop2", &id, why, sizeof(why)), 0);
	ck_assert_int_eq(id.key, PERSIST_LOOP_FILE);
	ck_assert_str_eq(id.value, "/srv/images/data.img");
	/* no udev entry and not a loop device: nothing stable to match */
	ck_assert_int_eq(persist_identity(r, "sda", &id, why, sizeof(why)), -ENOENT);
	ck_assert_ptr_nonnull(strstr(why, "no stable identity"));
	ck_assert_int_eq(persist_identity(r, "sdz", &id, why, sizeof(why)), -ENODEV);
	done(r);

	/* a loop device without a backing file (detached) has none either */
	r = tree(NULL, "\n");
	ck_assert_int_eq(persist_identity(r, "loop2", &id, why, sizeof(why)), -ENOENT);
	done(r);
}
END_TEST

START_TEST(identities_a_rule_cannot_quote)
{
	static const char *const bad[] = {
		"E:ID_SERIAL=ab\"c\n", "E:ID_SERIAL=ab\\c\n", "E:ID_SERIAL=ab*\n", "E:ID_SERIAL=a?b\n",
		"E:ID_SERIAL=a[0]\n", "E:ID_SERIAL=a|b\n",
	};
	struct persist_id id;
	char why[512];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct root *r = tree(bad[i], NULL);
		ck_assert_msg(persist_identity(r, "sda", &id, why, sizeof(why)) == -EINVAL, "%s", bad[i]);
		done(r);
	}
}
END_TEST

START_TEST(rule_text_and_order)
{
	struct persist_id id = { .key = PERSIST_LOOP_FILE };
	struct persist_setting set[] = {
		{ "read_ahead_kb", "1024" },
		{ "iosched/fifo_batch", "8" },
		{ "nr_requests", "64" },
		{ "scheduler", "mq-deadline" },
	};
	char rule[1024], name[128];

	snprintf(id.value, sizeof(id.value), "/srv/a b/data.img");
	persist_sort(set, 4);
	ck_assert_str_eq(set[0].name, "scheduler");
	ck_assert_str_eq(set[1].name, "iosched/fifo_batch");
	ck_assert_str_eq(set[2].name, "nr_requests");
	ck_assert_str_eq(set[3].name, "read_ahead_kb");
	ck_assert_int_eq(persist_rule(&id, "loop2", set, 4, rule, sizeof(rule)), 0);
	ck_assert_str_eq(strstr(rule, "ACTION"),
			 "ACTION==\"add|change\", SUBSYSTEM==\"block\", ENV{DEVTYPE}==\"disk\", "
			 "ATTR{loop/backing_file}==\"/srv/a b/data.img\", ATTR{queue/scheduler}=\"mq-deadline\", "
			 "ATTR{queue/iosched/fifo_batch}=\"8\", ATTR{queue/nr_requests}=\"64\", "
			 "ATTR{queue/read_ahead_kb}=\"1024\"\n");
	ck_assert_ptr_nonnull(strstr(rule, "# Written by blktune persist for loop2"));
	persist_file_name(&id, name, sizeof(name));
	ck_assert_str_eq(name, "60-blktune-loop-data.img.rules");
	id.key = PERSIST_SERIAL;
	snprintf(id.value, sizeof(id.value), "WDC WD40/EFRX:1");
	persist_file_name(&id, name, sizeof(name));
	ck_assert_str_eq(name, "60-blktune-serial-WDC_WD40_EFRX_1.rules");
	persist_rule(&id, "sda", set, 1, rule, sizeof(rule));
	ck_assert_ptr_nonnull(strstr(rule, "ENV{ID_SERIAL}==\"WDC WD40/EFRX:1\""));
	/* a value that would end the string early is refused, not written */
	snprintf(set[0].value, sizeof(set[0].value), "x\", RUN+=\"/bin/sh");
	ck_assert_int_eq(persist_rule(&id, "sda", set, 1, rule, sizeof(rule)), -EINVAL);
	snprintf(set[0].value, sizeof(set[0].value), "none");
	ck_assert_int_eq(persist_rule(&id, "sda", set, 4, rule, 200), -ENOSPC);
}
END_TEST

UNIT_SUITE(persist_suite)
static Suite *persist_suite(void)
{
	Suite *s = suite_create("persist");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, wwn_then_serial_then_loop_file);
	tcase_add_test(tc, identities_a_rule_cannot_quote);
	tcase_add_test(tc, rule_text_and_order);
	suite_add_tcase(s, tc);
	return s;
}
