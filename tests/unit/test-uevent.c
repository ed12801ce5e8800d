/* source-uevent: which kernel messages name a block device, and which name. */
#include <string.h>

#include "source-uevent.h"
#include "unit.h"

#define MSG(s) s, sizeof(s) - 1

START_TEST(block_events_name_the_device)
{
	char name[32] = "";

	ck_assert_int_eq(source_uevent_parse(MSG("change@/devices/virtual/block/loop3\0ACTION=change\0"
						 "DEVPATH=/devices/virtual/block/loop3\0SUBSYSTEM=block\0"
						 "DISK_MEDIA_CHANGE=1\0MAJOR=7\0MINOR=3\0DEVNAME=loop3\0DEVTYPE=disk\0"
						 "DISKSEQ=41\0SEQNUM=5000\0"),
					     name, sizeof(name)),
			 1);
	ck_assert_str_eq(name, "loop3");
	/* a partition: its own name; sysfs's '!' kept (the caller maps it) */
	ck_assert_int_eq(source_uevent_parse(MSG("add@/devices/pci/cciss!c0d0/cciss!c0d0p1\0ACTION=add\0"
						 "DEVPATH=/devices/pci/cciss!c0d0/cciss!c0d0p1\0SUBSYSTEM=block\0"),
					     name, sizeof(name)),
			 1);
	ck_assert_str_eq(name, "cciss!c0d0p1");
}
END_TEST

START_TEST(other_events_are_not)
{
	char name[32] = "untouched";

	/* another subsystem, with a block-looking path */
	ck_assert_int_eq(source_uevent_parse(MSG("change@/devices/virtual/bdi/7:3\0ACTION=change\0"
						 "DEVPATH=/devices/virtual/bdi/7:3\0SUBSYSTEM=bdi\0"),
					     name, sizeof(name)),
			 0);
	/* SUBSYSTEM=blockx is not block */
	ck_assert_int_eq(source_uevent_parse(MSG("add@/x/sda\0DEVPATH=/x/sda\0SUBSYSTEM=blockx\0"), name,
					     sizeof(name)),
			 0);
	/* no header, no DEVPATH, an unterminated last field, an empty name */
	ck_assert_int_eq(source_uevent_parse(MSG("DEVPATH=/x/sda\0SUBSYSTEM=block\0"), name, sizeof(name)), 0);
	ck_assert_int_eq(source_uevent_parse(MSG("add@/x/sda\0SUBSYSTEM=block\0"), name, sizeof(name)), 0);
	ck_assert_int_eq(source_uevent_parse(MSG("add@/x/sda\0SUBSYSTEM=block\0DEVPATH=/x/sda"), name,
					     sizeof(name)),
			 0);
	ck_assert_int_eq(source_uevent_parse(MSG("add@/x/\0DEVPATH=/x/\0SUBSYSTEM=block\0"), name, sizeof(name)),
			 0);
	ck_assert_int_eq(source_uevent_parse("", 0, name, sizeof(name)), 0);
	ck_assert_str_eq(name, "untouched");
	/* a name that does not fit */
	ck_assert_int_eq(source_uevent_parse(MSG("add@/x/sda\0DEVPATH=/x/sdabcdefgh\0SUBSYSTEM=block\0"), name, 8),
			 0);
	ck_assert_int_eq(source_uevent_parse(MSG("add@/x/sda\0DEVPATH=/x/sdabcde\0SUBSYSTEM=block\0"), name, 8), 1);
	ck_assert_str_eq(name, "sdabcde");
}
END_TEST

UNIT_SUITE(uevent_suite)
static Suite *uevent_suite(void)
{
	Suite *s = suite_create("uevent");
	TCase *tc = tcase_create("parse");

	tcase_add_test(tc, block_events_name_the_device);
	tcase_add_test(tc, other_events_are_not);
	suite_add_tcase(s, tc);
	return s;
}
