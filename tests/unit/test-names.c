/* Device names people read: mapper names (dm/name), persistent names from
 * dev/disk/by-* (iostat -j), -p resolving any of them; on the lvm-names
 * fixture tree (README: the real LVM capture plus dev/disk links). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "columns.h"
#include "model.h"
#include "names.h"
#include "rows.h"
#include "sampler.h"
#include "source-names.h"
#include "unit.h"

struct tree {
	struct root *r;
	struct sampler *sp;
	struct sample s;
};

static void open_tree(struct tree *t, const char *dir, enum names_type type)
{
	ck_assert_int_eq(root_open(dir, &t->r), 0);
	ck_assert_int_eq(sampler_open(t->r, SAMPLER_NO_TRACE, &t->sp), 0);
	ck_assert_int_eq(sampler_names(t->sp, type), 0);
	sample_init(&t->s);
	ck_assert_int_eq(sampler_take(t->sp, &t->s), 0);
}

static void close_tree(struct tree *t)
{
	sample_free(&t->s);
	sampler_close(t->sp);
	root_close(t->r);
}

START_TEST(type_words)
{
	ck_assert_int_eq(names_type_parse("ID"), NAMES_ID);
	ck_assert_int_eq(names_type_parse("label"), NAMES_LABEL);
	ck_assert_int_eq(names_type_parse("Path"), NAMES_PATH);
	ck_assert_int_eq(names_type_parse("UUID"), NAMES_UUID);
	ck_assert_int_eq(names_type_parse("PARTUUID"), NAMES_PARTUUID);
	ck_assert_int_eq(names_type_parse("PARTLABEL"), -EINVAL);
	ck_assert_int_eq(names_type_parse(""), -EINVAL);
	ck_assert_str_eq(names_type_dir(NAMES_PARTUUID), "by-partuuid");
	ck_assert_ptr_null(names_type_dir(NAMES_NONE));
}
END_TEST

/* Without -j no persistent names are read; the dm device has its mapper name. */
START_TEST(mapper_name_without_j)
{
	struct tree t;

	open_tree(&t, unit_fixture("lvm-names"), NAMES_NONE);
	ck_assert_str_eq(unit_disk_info(&t.s, "dm-0")->text->dm_name, "vg_foo.4059-lv_foo.4059");
	ck_assert_int_eq(unit_disk_info(&t.s, "dm-0")->kind, DISK_KIND_DM);
	ck_assert_str_eq(unit_disk_info(&t.s, "dm-0")->persistent, "");
	ck_assert_str_eq(unit_disk_info(&t.s, "sda")->persistent, "");
	ck_assert_str_eq(unit_disk_info(&t.s, "sda")->text->dm_name, "");
	close_tree(&t);
}
END_TEST

/* Each type: the alphabetically first link wins (sda has ata-* and wwn-*,
 * by-path has both -ata-1 and -ata-1.0); devices without a link get "". */
START_TEST(persistent_names_by_type)
{
	struct tree t;

	open_tree(&t, unit_fixture("lvm-names"), NAMES_ID);
	ck_assert_str_eq(unit_disk_info(&t.s, "sda")->persistent, "ata-KINGSTON_SH103S3240G_50026B722600AF32");
	ck_assert_str_eq(unit_disk_info(&t.s, "sda3")->persistent, "ata-KINGSTON_SH103S3240G_50026B722600AF32-part3");
	ck_assert_str_eq(unit_disk_info(&t.s, "dm-0")->persistent, "dm-name-vg_foo.4059-lv_foo.4059");
	ck_assert_str_eq(unit_disk_info(&t.s, "loop0")->persistent, "");
	close_tree(&t);
	open_tree(&t, unit_fixture("lvm-names"), NAMES_PATH);
	ck_assert_str_eq(unit_disk_info(&t.s, "sda")->persistent, "pci-0000:00:1f.2-ata-1");
	ck_assert_str_eq(unit_disk_info(&t.s, "sda6")->persistent, "pci-0000:00:1f.2-ata-1-part6");
	ck_assert_str_eq(unit_disk_info(&t.s, "dm-0")->persistent, "");
	close_tree(&t);
	open_tree(&t, unit_fixture("lvm-names"), NAMES_LABEL);
	ck_assert_str_eq(unit_disk_info(&t.s, "dm-0")->persistent, "data");
	ck_assert_str_eq(unit_disk_info(&t.s, "sda4")->persistent, "root");
	ck_assert_str_eq(unit_disk_info(&t.s, "sda2")->persistent, "boot");
	ck_assert_str_eq(unit_disk_info(&t.s, "sda")->persistent, "");
	close_tree(&t);
	open_tree(&t, unit_fixture("lvm-names"), NAMES_UUID);
	ck_assert_str_eq(unit_disk_info(&t.s, "sda1")->persistent, "9C2E-1A7B");
	ck_assert_str_eq(unit_disk_info(&t.s, "dm-0")->persistent, "c1a7e3d9-24f6-4b8a-9e05-6d2b7f1c8a34");
	close_tree(&t);
	open_tree(&t, unit_fixture("lvm-names"), NAMES_PARTUUID);
	ck_assert_str_eq(unit_disk_info(&t.s, "sda5")->persistent, "4f6b2c1e-05");
	ck_assert_str_eq(unit_disk_info(&t.s, "sda")->persistent, "");
	close_tree(&t);
}
END_TEST

/* Junk in the directory (a plain file, a dangling link, a name too long
 * for a device) is skipped; a missing directory means no names. */
START_TEST(junk_and_missing_directory)
{
	char *dir = unit_fixture_copy("lvm-names");
	char path[4300], cmd[4400], longname[SAMPLE_PNAME_MAX + 8];
	struct tree t;

	snprintf(path, sizeof(path), "%s/dev/disk/by-id/README", dir);
	unit_write_file(path, "not a link\n");
	snprintf(path, sizeof(path), "%s/dev/disk/by-id/aaa-dangling", dir);
	ck_assert_int_eq(symlink("../../nothing-here", path), 0);
	memset(longname, 'a', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	snprintf(path, sizeof(path), "%s/dev/disk/by-id/%s", dir, longname);
	ck_assert_int_eq(symlink("../../sda", path), 0);
	open_tree(&t, dir, NAMES_ID);
	ck_assert_str_eq(unit_disk_info(&t.s, "sda")->persistent, "ata-KINGSTON_SH103S3240G_50026B722600AF32");
	close_tree(&t);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s/dev/disk/by-label'", dir);
	ck_assert_int_eq(system(cmd), 0);
	open_tree(&t, dir, NAMES_LABEL);
	ck_assert_str_eq(unit_disk_info(&t.s, "dm-0")->persistent, "");
	close_tree(&t);
	unit_rmtree(dir);
	free(dir);
}
END_TEST

/* A link name that would reach the terminal with an escape sequence or
 * bytes that are not UTF-8 (a doctored tree: udev writes them as \xNN) is
 * skipped, never shown: batch text printed the ESC raw. udev's own \x22
 * and quotes or backslashes are text, kept. */
START_TEST(names_with_controls_are_skipped)
{
	char *dir = unit_fixture_copy("lvm-names");
	char path[4300];
	struct tree t;

	snprintf(path, sizeof(path), "%s/dev/disk/by-label/esc\033[31mred", dir);
	ck_assert_int_eq(symlink("../../loop2", path), 0);
	snprintf(path, sizeof(path), "%s/dev/disk/by-label/bad\xff\xfeutf", dir);
	ck_assert_int_eq(symlink("../../loop3", path), 0);
	snprintf(path, sizeof(path), "%s/dev/disk/by-label/we\\x22ird\\x5clab", dir);
	ck_assert_int_eq(symlink("../../loop0", path), 0);
	snprintf(path, sizeof(path), "%s/dev/disk/by-label/a\"b\\c", dir);
	ck_assert_int_eq(symlink("../../loop1", path), 0);
	open_tree(&t, dir, NAMES_LABEL);
	ck_assert_str_eq(unit_disk_info(&t.s, "loop2")->persistent, "");
	ck_assert_str_eq(unit_disk_info(&t.s, "loop3")->persistent, "");
	ck_assert_str_eq(unit_disk_info(&t.s, "loop0")->persistent, "we\\x22ird\\x5clab");
	ck_assert_str_eq(unit_disk_info(&t.s, "loop1")->persistent, "a\"b\\c");
	ck_assert_str_eq(unit_disk_info(&t.s, "dm-0")->persistent, "data");
	close_tree(&t);
	unit_rmtree(dir);
	free(dir);
}
END_TEST

/* udev adds links after a device appears: the directory is read again
 * after SOURCE_NAMES_REREAD_S, or at once when the device set changes. */
START_TEST(reread_policy)
{
	char *dir = unit_fixture_copy("lvm-names");
	char path[4300];
	struct root *r;
	struct source_names *sn;
	struct sample s;
	struct disk_sample *d;

	ck_assert_int_eq(root_open(dir, &r), 0);
	ck_assert_int_eq(source_names_open(r, NAMES_LABEL, &sn), 0);
	sample_init(&s);
	d = sample_add_disk(&s);
	snprintf(d->st.name, sizeof(d->st.name), "sda");
	s.t = 100;
	ck_assert_int_eq(source_names_fill(sn, &s), 0);
	ck_assert_str_eq(s.disks[0].info.persistent, "");
	snprintf(path, sizeof(path), "%s/dev/disk/by-label/disk", dir);
	ck_assert_int_eq(symlink("../../sda", path), 0);
	s.t = 100 + SOURCE_NAMES_REREAD_S - 0.5;
	ck_assert_int_eq(source_names_fill(sn, &s), 0);
	ck_assert_str_eq(s.disks[0].info.persistent, "");
	s.t = 100 + SOURCE_NAMES_REREAD_S + 0.1;
	ck_assert_int_eq(source_names_fill(sn, &s), 0);
	ck_assert_str_eq(s.disks[0].info.persistent, "disk");
	/* A new device: read at once. */
	snprintf(path, sizeof(path), "%s/dev/disk/by-label/scratch", dir);
	ck_assert_int_eq(symlink("../../sdb", path), 0);
	d = sample_add_disk(&s);
	snprintf(d->st.name, sizeof(d->st.name), "sdb");
	s.t += 0.1;
	ck_assert_int_eq(source_names_fill(sn, &s), 0);
	ck_assert_str_eq(s.disks[1].info.persistent, "scratch");
	/* A link whose target is longer than any device name names none, not
	 * the device its first 31 characters spell. */
	d = sample_add_disk(&s);
	snprintf(d->st.name, sizeof(d->st.name), "a23456789012345678901234567890b");
	snprintf(path, sizeof(path), "%s/dev/disk/by-label/long", dir);
	ck_assert_int_eq(symlink("../../a23456789012345678901234567890bcd", path), 0);
	s.t += 0.1;
	ck_assert_int_eq(source_names_fill(sn, &s), 0);
	ck_assert_str_eq(s.disks[2].info.persistent, "");
	sample_free(&s);
	source_names_close(sn);
	root_close(r);
	unit_rmtree(dir);
	free(dir);
}
END_TEST

/* A listing's links are read one component at a time, inside the root. */
START_TEST(readlink_in_a_listing)
{
	struct root *r;
	char out[256];
	DIR *d;

	ck_assert_int_eq(root_open(unit_fixture("lvm-names"), &r), 0);
	ck_assert_ptr_nonnull(d = root_opendir(r, "dev/disk/by-label"));
	ck_assert_int_eq(root_readlink_in(d, "root", out, sizeof(out)), 10);
	ck_assert_str_eq(out, "../../sda4");
	ck_assert_int_eq(root_readlink_in(d, "../by-label/root", out, sizeof(out)), -EINVAL);
	ck_assert_int_eq(root_readlink_in(d, "..", out, sizeof(out)), -EINVAL);
	ck_assert_int_eq(root_readlink_in(d, "", out, sizeof(out)), -EINVAL);
	ck_assert_int_eq(root_readlink_in(d, "nothing", out, sizeof(out)), -ENOENT);
	/* A buffer too small: cut, still terminated. */
	ck_assert_int_eq(root_readlink_in(d, "root", out, 5), 4);
	ck_assert_str_eq(out, "../.");
	closedir(d);
	root_close(r);
}
END_TEST

START_TEST(resolve_dev_paths)
{
	struct root *r;
	char out[NAMES_MAX];

	ck_assert_int_eq(root_open(unit_fixture("lvm-names"), &r), 0);
	ck_assert_int_eq(source_names_resolve(r, "/dev/mapper/vg_foo.4059-lv_foo.4059", out, sizeof(out)), 0);
	ck_assert_str_eq(out, "dm-0");
	ck_assert_int_eq(source_names_resolve(r, "/dev/disk/by-label/root", out, sizeof(out)), 0);
	ck_assert_str_eq(out, "sda4");
	ck_assert_int_eq(source_names_resolve(r, "/dev/disk/by-path/pci-0000:00:1f.2-ata-1.0", out, sizeof(out)), 0);
	ck_assert_str_eq(out, "sda");
	/* A device node (absent from a captured tree) is its own name. */
	ck_assert_int_eq(source_names_resolve(r, "/dev/sdb", out, sizeof(out)), 0);
	ck_assert_str_eq(out, "sdb");
	/* below a directory of /dev: the kernel name holds the '/' */
	ck_assert_int_eq(source_names_resolve(r, "/dev/etherd/e0.0", out, sizeof(out)), 0);
	ck_assert_str_eq(out, "etherd/e0.0");
	ck_assert_int_eq(source_names_resolve(r, "vg0-data", out, sizeof(out)), 0);
	ck_assert_str_eq(out, "vg0-data");
	ck_assert_int_eq(source_names_resolve(r, "/dev/disk/by-id/nope", out, sizeof(out)), -ENOENT);
	ck_assert_int_eq(source_names_resolve(r, "/dev/mapper/nope", out, sizeof(out)), -ENOENT);
	ck_assert_int_eq(source_names_resolve(r, "/dev/../proc/diskstats", out, sizeof(out)), -EINVAL);
	root_close(r);
}
END_TEST

START_TEST(check_arguments)
{
	char longname[NAMES_ARG_MAX + 1];

	ck_assert_int_eq(names_check_arg("sda"), 0);
	ck_assert_int_eq(names_check_arg("vg_foo.4059-lv_foo.4059"), 0);
	ck_assert_int_eq(names_check_arg("/dev/mapper/vg0-data"), 0);
	ck_assert_int_eq(names_check_arg(""), -EINVAL);
	ck_assert_int_eq(names_check_arg("/dev/"), -EINVAL);
	ck_assert_int_eq(names_check_arg("/dev/disk/by-id/"), -EINVAL);
	ck_assert_int_eq(names_check_arg("/etc/passwd"), -EINVAL);
	/* a kernel name may hold '/' (aoe's etherd/e0.0): looked up, not
	 * refused; a path step in it is refused */
	ck_assert_int_eq(names_check_arg("etherd/e0.0"), 0);
	ck_assert_int_eq(names_check_arg("mapper/vg0"), 0);
	ck_assert_int_eq(names_check_arg("../sda"), -EINVAL);
	ck_assert_int_eq(names_check_arg("a/../sda"), -EINVAL);
	ck_assert_int_eq(names_check_arg("a/.."), -EINVAL);
	ck_assert_int_eq(names_check_arg("a//b"), -EINVAL);
	ck_assert_int_eq(names_check_arg("etherd/"), -EINVAL);
	/* A name as long as a mapper name can be is one character too long. */
	memset(longname, 'x', NAMES_MAX);
	longname[NAMES_MAX] = '\0';
	ck_assert_int_eq(names_check_arg(longname), -EINVAL);
	longname[NAMES_MAX - 1] = '\0';
	ck_assert_int_eq(names_check_arg(longname), 0);
	/* A /dev/disk path may be longer than any name, up to NAMES_ARG_MAX. */
	memcpy(longname, "/dev/disk/by-id/", 16);
	memset(longname + 16, 'x', NAMES_ARG_MAX - 16);
	longname[NAMES_ARG_MAX - 1] = '\0';
	ck_assert_int_eq(names_check_arg(longname), 0);
	longname[NAMES_ARG_MAX - 1] = 'x';
	longname[NAMES_ARG_MAX] = '\0';
	ck_assert_int_eq(names_check_arg(longname), -EINVAL);
}
END_TEST

static void mk(struct disk_metrics *m, const char *name, const char *dm, const char *pname)
{
	memset(m, 0, sizeof(*m));
	unit_row_info(m);
	snprintf(m->name, sizeof(m->name), "%s", name);
	snprintf(UNIT_INFO(m)->text->dm_name, sizeof(m->info->text->dm_name), "%s", dm);
	snprintf(UNIT_INFO(m)->persistent, sizeof(m->info->persistent), "%s", pname);
	UNIT_INFO(m)->kind = dm[0] ? DISK_KIND_DM : DISK_KIND_DISK;
	m->state = DISK_OK;
}

/* The label and -p matching: kernel name, mapper name, persistent name. */
START_TEST(labels_and_device_list)
{
	struct disk_metrics m[3];
	const char *devs[] = { "vg0-data" };
	const char *byid[] = { "wwn-0x5000c500a1b2c3d4" };
	struct rows_filter f = { .sort_column = COLUMN_DEVICE, .devs = devs, .ndevs = 1 };
	size_t idx[3];
	char cell[64];

	mk(&m[0], "dm-3", "vg0-data", "");
	mk(&m[1], "sda", "", "wwn-0x5000c500a1b2c3d4");
	mk(&m[2], "sdb", "", "");
	ck_assert_str_eq(names_label(&m[0]), "vg0-data");
	ck_assert_str_eq(names_label(&m[1]), "wwn-0x5000c500a1b2c3d4");
	ck_assert_str_eq(names_label(&m[2]), "sdb");
	ck_assert_uint_eq(rows_build(m, 3, &f, idx), 1);
	ck_assert_str_eq(m[idx[0]].name, "dm-3");
	devs[0] = "dm-3";
	ck_assert_uint_eq(rows_build(m, 3, &f, idx), 1);
	ck_assert_str_eq(m[idx[0]].name, "dm-3");
	f.devs = byid;
	ck_assert_uint_eq(rows_build(m, 3, &f, idx), 1);
	ck_assert_str_eq(m[idx[0]].name, "sda");
	/* A name that is nobody's. */
	devs[0] = "vg0";
	f.devs = devs;
	ck_assert_uint_eq(rows_build(m, 3, &f, idx), 0);
	/* The DEVICE cell shows the label, cut to the width asked for. */
	column_name_cell(&m[0], 10, cell, sizeof(cell));
	ck_assert_str_eq(cell, "vg0-data  ");
	column_name_cell(&m[1], 10, cell, sizeof(cell));
	ck_assert_str_eq(cell, "wwn-0x5000");
	idx[0] = 0, idx[1] = 1, idx[2] = 2;
	ck_assert_int_eq(column_name_width(m, idx, 3, 64), 22);
	ck_assert_int_eq(column_name_width(m, idx, 3, 16), 16);
	ck_assert_int_eq(column_name_width(m, idx + 2, 1, 64), columns[COLUMN_DEVICE].width);
}
END_TEST

UNIT_SUITE(names_suite)
static Suite *names_suite(void)
{
	Suite *s = suite_create("names");
	TCase *tc = tcase_create("names");

	tcase_add_test(tc, type_words);
	tcase_add_test(tc, mapper_name_without_j);
	tcase_add_test(tc, persistent_names_by_type);
	tcase_add_test(tc, junk_and_missing_directory);
	tcase_add_test(tc, names_with_controls_are_skipped);
	tcase_add_test(tc, reread_policy);
	tcase_add_test(tc, readlink_in_a_listing);
	tcase_add_test(tc, resolve_dev_paths);
	tcase_add_test(tc, check_arguments);
	tcase_add_test(tc, labels_and_device_list);
	suite_add_tcase(s, tc);
	return s;
}
