/* source-mounts and the device context of source-queue: the sata capture's
 * mountinfo and sysfs (real, kernel 6.17), and hand-made mountinfo lines. */
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "root.h"
#include "source-diskstats.h"
#include "source-mounts.h"
#include "source-queue.h"
#include "unit.h"

START_TEST(parse_lines)
{
	static const char text[] =
		"79 2 8:4 / / rw,relatime shared:1 - ext4 /dev/sda4 rw\n"
		"37 79 0:6 / /dev rw,nosuid shared:2 - devtmpfs devtmpfs rw\n"              /* anonymous */
		"80 79 8:4 /srv /srv\\040data rw - ext4 /dev/sda4 rw\n"                       /* bind, escaped */
		"81 79 8:4 / / rw - ext4 /dev/sda4 rw\n"                                      /* once only */
		"garbage\n"
		"82 79 8:17 / /mnt/a\\033[2J rw master:3 unbindable - xfs /dev/sdb1 rw\n"     /* ESC: sanitized */
		"83 79 x:y / /bad rw - ext4 /dev/x rw\n"
		"84 79 8:33 / /nofs rw shared:9\n";                                           /* no "-" */
	struct source_mounts_entry *e;
	int n = source_mounts_parse(text, &e);

	ck_assert_int_eq(n, 2);
	ck_assert_uint_eq(e[0].dev, makedev(8, 4));
	ck_assert_str_eq(e[0].fstype, "ext4");
	ck_assert_str_eq(e[0].points, "/, /srv data");
	ck_assert_uint_eq(e[1].dev, makedev(8, 17));
	ck_assert_str_eq(e[1].fstype, "xfs");
	ck_assert_str_eq(e[1].points, "/mnt/a?[2J");
	free(e);
	ck_assert_int_eq(source_mounts_parse("", &e), 0);
	free(e);
}
END_TEST

/* Many mountpoints of one device: cut with "...", never past the field. */
START_TEST(parse_many_points)
{
	char text[8192];
	struct source_mounts_entry *e;
	size_t used = 0;

	for (int i = 0; i < 40; i++)
		used += (size_t)snprintf(text + used, sizeof(text) - used,
					 "%d 1 8:4 / /mnt/point%02d rw - ext4 /dev/sda4 rw\n", 100 + i, i);
	ck_assert_int_eq(source_mounts_parse(text, &e), 1);
	ck_assert_uint_lt(strlen(e[0].points), sizeof(e[0].points));
	ck_assert(strncmp(e[0].points, "/mnt/point00, /mnt/point01", 26) == 0);
	ck_assert_msg(strstr(e[0].points, ", ..."), "%s", e[0].points);
	free(e);
}
END_TEST

START_TEST(sata_context)
{
	struct root *r;
	struct source_diskstats *ds;
	struct source_queue *q;
	struct source_mounts *m;
	struct sample s;
	const struct disk_info *in;

	ck_assert_int_eq(root_open(unit_fixture("sata"), &r), 0);
	ck_assert_int_eq(source_diskstats_open(r, &ds), 0);
	ck_assert_int_eq(source_queue_open(r, &q), 0);
	ck_assert_int_eq(source_mounts_open(r, &m), 0);
	sample_init(&s);
	ck_assert_int_eq(source_diskstats_read(ds, &s), 0);
	s.t = 1.0;
	ck_assert_int_eq(source_queue_fill(q, &s), 0);
	source_mounts_fill(m, &s);
	in = unit_disk_info(&s, "sda");
	ck_assert_int_eq(in->size_sectors, 468862128);
	ck_assert_str_eq(in->text->model, "KINGSTON SH103S3"); /* sysfs pads it with blanks */
	ck_assert_str_eq(in->text->vendor, "ATA");
	ck_assert_str_eq(in->mounts, "");
	in = unit_disk_info(&s, "sda4");
	ck_assert_str_eq(in->mounts, "/");
	ck_assert_str_eq(in->fstype, "ext4");
	ck_assert_str_eq(in->text->model, ""); /* a partition has no device/ of its own */
	in = unit_disk_info(&s, "sda1");
	ck_assert_str_eq(in->mounts, "/boot/efi");
	ck_assert_str_eq(in->fstype, "vfat");
	in = unit_disk_info(&s, "nvme0n1");
	ck_assert_str_eq(in->text->vendor, ""); /* nvme has no vendor file */
	ck_assert_str_eq(in->text->model, "KINGSTON SFYR2S1T0");
	in = unit_disk_info(&s, "nvme0n1p2");
	ck_assert_str_eq(in->mounts, "/home/work");
	ck_assert_str_eq(in->fstype, "xfs");
	in = unit_disk_info(&s, "sr0");
	ck_assert_str_eq(in->text->vendor, "HL-DT-ST");
	sample_free(&s);
	source_mounts_close(m);
	source_queue_close(q);
	source_diskstats_close(ds);
	root_close(r);
}
END_TEST

/* A tree without proc/self/mountinfo (the nvme capture has none): nothing
 * mounted, no failure. */
START_TEST(no_mountinfo)
{
	struct root *r;
	struct source_diskstats *ds;
	struct source_mounts *m;
	struct sample s;

	ck_assert_int_eq(root_open(unit_fixture("live-vm/t0"), &r), 0);
	ck_assert_int_eq(source_diskstats_open(r, &ds), 0);
	ck_assert_int_eq(source_mounts_open(r, &m), 0);
	sample_init(&s);
	ck_assert_int_eq(source_diskstats_read(ds, &s), 0);
	s.t = 1.0;
	source_mounts_fill(m, &s);
	ck_assert_str_eq(unit_disk_info(&s, "vda")->mounts, "");
	sample_free(&s);
	source_mounts_close(m);
	source_diskstats_close(ds);
	root_close(r);
}
END_TEST

UNIT_SUITE(mounts_suite)
static Suite *mounts_suite(void)
{
	Suite *s = suite_create("mounts");
	TCase *tc = tcase_create("mounts");

	tcase_add_test(tc, parse_lines);
	tcase_add_test(tc, parse_many_points);
	tcase_add_test(tc, sata_context);
	tcase_add_test(tc, no_mountinfo);
	suite_add_tcase(s, tc);
	return s;
}
