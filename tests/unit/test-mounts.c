/* source-mounts and the device context of source-queue: the sata capture's
 * mountinfo and sysfs (real, kernel 6.17), and hand-made mountinfo lines. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

/* btrfs (and bcachefs) mount a block device under an anonymous number:
 * the line's source names the device, by kernel name or under mapper/. A
 * btrfs on loop2 showed "mounted -" (lsblk: the mountpoint). */
START_TEST(anonymous_number_by_source)
{
	char *dir = unit_fixture_copy("live-vm"), root_dir[4200], path[4300];
	struct root *r;
	struct source_diskstats *ds;
	struct source_queue *q;
	struct source_mounts *m;
	struct sample s;
	struct source_mounts_entry *e;
	static const char text[] =
		"47 27 0:40 / /mnt/b rw,relatime - btrfs /dev/loop1 rw,subvol=/\n"
		"48 27 0:40 /home /mnt/home rw - btrfs /dev/loop1 rw,subvol=/home\n" /* same fs */
		"49 27 0:23 / /dev/shm rw - tmpfs tmpfs rw\n"                        /* no device */
		"50 27 0:41 / /mnt/v rw - btrfs /dev/mapper/vg-data rw\n"
		"51 27 254:0 / / rw - ext4 /dev/vda rw\n";

	ck_assert_int_eq(source_mounts_parse(text, &e), 3);
	ck_assert_uint_eq(e[0].dev, makedev(0, 40));
	ck_assert_str_eq(e[0].points, "/mnt/b, /mnt/home");
	ck_assert_uint_eq(e[1].dev, makedev(0, 41));
	ck_assert_str_eq(e[1].points, "/mnt/v");
	ck_assert_uint_eq(e[2].dev, makedev(254, 0));
	free(e);

	snprintf(root_dir, sizeof(root_dir), "%s/t0", dir);
	snprintf(path, sizeof(path), "%s/proc/self", root_dir);
	ck_assert_int_eq(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/proc/self/mountinfo", root_dir);
	unit_write_file(path, text);
	ck_assert_int_eq(root_open(root_dir, &r), 0);
	ck_assert_int_eq(source_diskstats_open(r, &ds), 0);
	ck_assert_int_eq(source_queue_open(r, &q), 0);
	ck_assert_int_eq(source_mounts_open(r, &m), 0);
	sample_init(&s);
	ck_assert_int_eq(source_diskstats_read(ds, &s), 0);
	s.t = 1.0;
	ck_assert_int_eq(source_queue_fill(q, &s), 0);
	source_mounts_fill(m, &s);
	ck_assert_str_eq(unit_disk_info(&s, "loop1")->mounts, "/mnt/b, /mnt/home");
	ck_assert_str_eq(unit_disk_info(&s, "loop1")->fstype, "btrfs");
	ck_assert_str_eq(unit_disk_info(&s, "vda")->mounts, "/");
	ck_assert_str_eq(unit_disk_info(&s, "loop0")->mounts, "");
	sample_free(&s);
	source_mounts_close(m);
	source_queue_close(q);
	source_diskstats_close(ds);
	root_close(r);
	unit_rmtree(dir);
	free(dir);
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
	tcase_add_test(tc, anonymous_number_by_source);
	suite_add_tcase(s, tc);
	return s;
}
