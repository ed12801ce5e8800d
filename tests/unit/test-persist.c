/* persist: identity from a fake root (udev database and sysfs written here),
 * the order of settings, file names and the exact rule text. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
	ck_assert_str_eq(why, "sdz: no such disk");
	/* a dev file read empty (the disk is going away) names no disk either */
	{
		char p[256];

		snprintf(p, sizeof(p), "%s/sys/block/loop2/dev", dir);
		unit_write_file(p, "");
		ck_assert_int_eq(persist_identity(r, "loop2", &id, why, sizeof(why)), -ENODEV);
		unit_write_file(p, "\n");
		ck_assert_int_eq(persist_identity(r, "loop2", &id, why, sizeof(why)), -ENODEV);
	}
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
		{ "add_random", "0" },
	};
	char rule[1024], name[128];

	snprintf(id.value, sizeof(id.value), "/srv/a b/data.img");
	persist_sort(set, 5);
	ck_assert_str_eq(set[0].name, "scheduler");
	/* nr_requests resets mq-deadline's async_depth: before the parameters */
	ck_assert_str_eq(set[1].name, "nr_requests");
	ck_assert_str_eq(set[2].name, "iosched/fifo_batch");
	ck_assert_str_eq(set[3].name, "add_random"); /* after iosched/ though it sorts first */
	ck_assert_str_eq(set[4].name, "read_ahead_kb"); /* add_random raises it */
	memmove(&set[3], &set[4], sizeof(set[0]));
	ck_assert_int_eq(persist_rule(&id, "loop2", set, 4, rule, sizeof(rule)), 0);
	ck_assert_str_eq(strstr(rule, "ACTION"),
			 "ACTION==\"add|change\", SUBSYSTEM==\"block\", ENV{DEVTYPE}==\"disk\", "
			 "ATTR{loop/backing_file}==\"/srv/a b/data.img\", ATTR{queue/scheduler}=\"mq-deadline\", "
			 "ATTR{queue/nr_requests}=\"64\", ATTR{queue/iosched/fifo_batch}=\"8\", "
			 "ATTR{queue/read_ahead_kb}=\"1024\"\n");
	ck_assert_ptr_nonnull(strstr(rule, "# Written by blktune persist for loop2"));
	/* pinned (the CRC-32C of "loop\0/srv/a b/data.img", as Python's bitwise
	 * one gives it): the next version finds this one's rule under the same
	 * name only while the hash never changes */
	persist_file_name(&id, name, sizeof(name));
	ck_assert_str_eq(name, "60-blktune-loop-data.img-1e1d3754.rules");
	id.key = PERSIST_SERIAL;
	snprintf(id.value, sizeof(id.value), "WDC WD40/EFRX:1");
	persist_file_name(&id, name, sizeof(name));
	ck_assert_str_eq(name, "60-blktune-serial-WDC_WD40_EFRX_1-516eeae4.rules");
	persist_rule(&id, "sda", set, 1, rule, sizeof(rule));
	ck_assert_ptr_nonnull(strstr(rule, "ENV{ID_SERIAL}==\"WDC WD40/EFRX:1\""));
	/* a value that would end the string early is refused, not written */
	snprintf(set[0].value, sizeof(set[0].value), "x\", RUN+=\"/bin/sh");
	ck_assert_int_eq(persist_rule(&id, "sda", set, 1, rule, sizeof(rule)), -EINVAL);
	snprintf(set[0].value, sizeof(set[0].value), "none");
	ck_assert_int_eq(persist_rule(&id, "sda", set, 4, rule, 200), -ENOSPC);
}
END_TEST

/* The settings in the order a rule writes them, "name=value ...". */
static const char *in_rule_order(struct persist_setting *set, int n)
{
	static char buf[1024];
	size_t off = 0;

	ck_assert_int_ge(n, 0);
	persist_sort(set, (size_t)n);
	buf[0] = '\0';
	for (int i = 0; i < n; i++)
		off += (size_t)snprintf(buf + off, sizeof(buf) - off, "%s%s=%s", i ? " " : "", set[i].name, set[i].value);
	return buf;
}

/* A scheduler parameter is only there under its scheduler: a rule holding
 * one selects that scheduler first, and never holds another's parameters. */
START_TEST(merge_keeps_the_scheduler_with_its_parameters)
{
	struct persist_setting set[PERSIST_MAX];
	const struct persist_setting lat = { "iosched/read_lat_nsec", "3000000" }, lat9 = { "iosched/read_lat_nsec", "9" },
				     batch = { "iosched/fifo_batch", "8" }, ra = { "read_ahead_kb", "512" },
				     none = { "scheduler", "none" }, bfq = { "scheduler", "bfq" };
	char note[512];
	int n;

	/* a parameter alone brings the scheduler in force, before it */
	n = persist_merge(set, 0, PERSIST_MAX, &lat, "kyber", note, sizeof(note));
	ck_assert_str_eq(in_rule_order(set, n), "scheduler=kyber iosched/read_lat_nsec=3000000");
	ck_assert_str_eq(note, "scheduler kyber added: its parameters exist only under it");
	/* another setting leaves them as they are, and says nothing */
	n = persist_merge(set, (size_t)n, PERSIST_MAX, &ra, "kyber", note, sizeof(note));
	ck_assert_str_eq(in_rule_order(set, n), "scheduler=kyber iosched/read_lat_nsec=3000000 read_ahead_kb=512");
	ck_assert_str_eq(note, "");
	/* the same parameter again: replaced, not doubled */
	n = persist_merge(set, (size_t)n, PERSIST_MAX, &lat9, "kyber", note, sizeof(note));
	ck_assert_str_eq(in_rule_order(set, n), "scheduler=kyber iosched/read_lat_nsec=9 read_ahead_kb=512");
	/* another scheduler's parameter: its scheduler replaces the rule's,
	 * whose parameters go, said so */
	n = persist_merge(set, (size_t)n, PERSIST_MAX, &batch, "mq-deadline", note, sizeof(note));
	ck_assert_str_eq(in_rule_order(set, n), "scheduler=mq-deadline iosched/fifo_batch=8 read_ahead_kb=512");
	ck_assert_str_eq(note, "dropped iosched/read_lat_nsec (not mq-deadline's); scheduler kyber replaced by mq-deadline");
	/* a scheduler persisted: the parameters of the old one go */
	n = persist_merge(set, (size_t)n, PERSIST_MAX, &none, "mq-deadline", note, sizeof(note));
	ck_assert_str_eq(in_rule_order(set, n), "scheduler=none read_ahead_kb=512");
	ck_assert_str_eq(note, "dropped iosched/fifo_batch (not none's)");
	/* the scheduler it is already: kept */
	set[0] = bfq;
	set[2] = (struct persist_setting){ "iosched/slice_idle", "0" };
	n = persist_merge(set, 3, PERSIST_MAX, &bfq, "bfq", note, sizeof(note));
	ck_assert_str_eq(in_rule_order(set, n), "scheduler=bfq iosched/slice_idle=0 read_ahead_kb=512");
	ck_assert_str_eq(note, "");
	/* a parameter the table does not know is the rule's scheduler's,
	 * whatever is in force now */
	set[0] = (struct persist_setting){ "scheduler", "ssched" };
	set[1] = (struct persist_setting){ "iosched/newparam", "7" };
	n = persist_merge(set, 2, PERSIST_MAX, &ra, "none", note, sizeof(note));
	ck_assert_str_eq(in_rule_order(set, n), "scheduler=ssched iosched/newparam=7 read_ahead_kb=512");
	ck_assert_str_eq(note, "");
	/* a rule an older blktune wrote, a parameter without its scheduler:
	 * the table says whose, else it is the one in force, else unknown */
	set[0] = (struct persist_setting){ "iosched/read_lat_nsec", "5" };
	n = persist_merge(set, 1, PERSIST_MAX, &ra, "none", note, sizeof(note));
	ck_assert_str_eq(in_rule_order(set, n), "scheduler=kyber iosched/read_lat_nsec=5 read_ahead_kb=512");
	set[0] = (struct persist_setting){ "iosched/newparam", "5" };
	n = persist_merge(set, 1, PERSIST_MAX, &ra, "ssched", note, sizeof(note));
	ck_assert_str_eq(in_rule_order(set, n), "scheduler=ssched iosched/newparam=5 read_ahead_kb=512");
	set[0] = (struct persist_setting){ "iosched/newparam", "5" };
	n = persist_merge(set, 1, PERSIST_MAX, &ra, NULL, note, sizeof(note));
	ck_assert_str_eq(in_rule_order(set, n), "iosched/newparam=5 read_ahead_kb=512");
	ck_assert_str_eq(note, "");
	/* a parameter with no scheduler in force has none to go with */
	ck_assert_int_eq(persist_merge(set, 0, PERSIST_MAX, &lat, "none", note, sizeof(note)), -EINVAL);
	ck_assert_int_eq(persist_merge(set, 0, PERSIST_MAX, &lat, NULL, note, sizeof(note)), -EINVAL);
	ck_assert_int_eq(persist_merge(set, 0, PERSIST_MAX, &lat, "", note, sizeof(note)), -EINVAL);
	/* no room for the setting, or for the scheduler it needs */
	set[0] = ra;
	set[1] = (struct persist_setting){ "nr_requests", "64" };
	ck_assert_int_eq(persist_merge(set, 2, 2, &lat, "kyber", note, sizeof(note)), -ENOSPC);
	ck_assert_int_eq(persist_merge(set, 1, 2, &lat, "kyber", note, sizeof(note)), -ENOSPC);
	ck_assert_int_eq(persist_merge(set, 1, 3, &lat, "kyber", note, sizeof(note)), 3);
	/* a larger max than the rule may hold is the rule's */
	for (size_t i = 0; i < PERSIST_MAX; i++)
		snprintf(set[i].name, sizeof(set[i].name), "x%zu", i);
	ck_assert_int_eq(persist_merge(set, PERSIST_MAX, PERSIST_MAX + 4, &ra, "kyber", note, sizeof(note)), -ENOSPC);
	/* a note longer than its buffer is cut, never overrun */
	set[0] = (struct persist_setting){ "scheduler", "kyber" };
	set[1] = lat;
	ck_assert_int_eq(persist_merge(set, 2, PERSIST_MAX, &batch, "mq-deadline", note, 12), 2);
	ck_assert_str_eq(note, "dropped ios");
}
END_TEST

/* Each value is checked as --set checks it, under the scheduler the rule
 * selects (udev writes it first): nr_requests may reach 2048 under one,
 * only the hardware queue depth under none. */
START_TEST(check_under_the_rules_scheduler)
{
	struct root *r = tree(NULL, "/var/lib/disk.img\n");
	struct persist_setting set[3];
	char p[256], msg[512];

	const char *files[][2] = {
		{ "queue/scheduler", "none [mq-deadline] kyber\n" },
		{ "mq/0/nr_tags", "128\n" },
		{ "mq/1/nr_tags", "256\n" },
	};

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(p, sizeof(p), "%s/sys/block/loop2/%s", dir, files[i][0]);
		unit_write_file(p, files[i][1]);
	}
	/* none selected, mq-deadline in force: the smallest queue's depth */
	set[0] = (struct persist_setting){ "scheduler", "none" };
	set[1] = (struct persist_setting){ "nr_requests", "2048" };
	ck_assert_int_eq(persist_check(r, "loop2", set, 2, "mq-deadline", msg, sizeof(msg)), -ERANGE);
	ck_assert_str_eq(msg, "nr_requests 2048 refused under scheduler none: above the device's limit (128, the "
			      "hardware queue depth, scheduler none)");
	snprintf(set[1].value, sizeof(set[1].value), "129");
	ck_assert_int_eq(persist_check(r, "loop2", set, 2, "mq-deadline", msg, sizeof(msg)), -ERANGE);
	snprintf(set[1].value, sizeof(set[1].value), "128");
	ck_assert_int_eq(persist_check(r, "loop2", set, 2, "mq-deadline", msg, sizeof(msg)), 0);
	/* no scheduler in the rule: the one in force, as given */
	snprintf(set[0].value, sizeof(set[0].value), "2048");
	snprintf(set[0].name, sizeof(set[0].name), "nr_requests");
	ck_assert_int_eq(persist_check(r, "loop2", set, 1, "mq-deadline", msg, sizeof(msg)), 0);
	ck_assert_int_eq(persist_check(r, "loop2", set, 1, "none", msg, sizeof(msg)), -ERANGE);
	ck_assert_str_eq(msg, "nr_requests 2048 refused: above the device's limit (128, the hardware queue depth, "
			      "scheduler none)");
	/* NULL: the one the device has now */
	ck_assert_int_eq(persist_check(r, "loop2", set, 1, NULL, msg, sizeof(msg)), 0);
	/* a scheduler selected, none in force: the kernel's limit with one */
	set[0] = (struct persist_setting){ "nr_requests", "2048" };
	set[1] = (struct persist_setting){ "scheduler", " kyber" };
	ck_assert_int_eq(persist_check(r, "loop2", set, 2, "none", msg, sizeof(msg)), 0);
	ck_assert_str_eq(set[1].value, "kyber"); /* normalised as --set writes it */
	snprintf(set[0].value, sizeof(set[0].value), "2049");
	ck_assert_int_eq(persist_check(r, "loop2", set, 2, "none", msg, sizeof(msg)), -ERANGE);
	ck_assert_str_eq(msg, "nr_requests 2049 refused under scheduler kyber: above the device's limit (2048, the "
			      "kernel's limit with a scheduler)");
	/* the table's checks as --set makes them, and rows a rule may not write */
	set[0] = (struct persist_setting){ "scheduler", "bfq" };
	ck_assert_int_eq(persist_check(r, "loop2", set, 1, "none", msg, sizeof(msg)), -EINVAL);
	ck_assert_str_eq(msg, "scheduler bfq refused: not one of: none mq-deadline kyber");
	set[0] = (struct persist_setting){ "write_cache", "write through" };
	ck_assert_int_eq(persist_check(r, "loop2", set, 1, "none", msg, sizeof(msg)), -EPERM);
	set[0] = (struct persist_setting){ "nr_requests", "2" };
	ck_assert_int_eq(persist_check(r, "loop2", set, 1, "mq-deadline", msg, sizeof(msg)), -ERANGE);
	ck_assert_str_eq(msg, "nr_requests 2 refused: below the minimum 4");
	done(r);
}
END_TEST

/* The udev database is read whole: a property past 8 KiB of S: lines is
 * found, a longer key sharing the prefix is not taken for it, and a value
 * that would not fit is refused, never cut. */
START_TEST(udev_database_read_whole)
{
	struct persist_id id;
	char why[512], *db = malloc(20000), big[600];
	struct root *r;
	size_t off = 0;

	for (int i = 0; i < 200; i++)
		off += (size_t)sprintf(db + off, "S:disk/by-path/pci-0000:00:1f.2-ata-%03d-part-with-a-long-name\n", i);
	ck_assert_uint_gt(off, 8192);
	sprintf(db + off, "E:ID_WWN_WITH_EXTENSION=0x5000c500a1b2c3d4-ext\nE:ID_WWN=0x5000c500a1b2c3d4\n");
	r = tree(db, NULL);
	ck_assert_int_eq(persist_identity(r, "sda", &id, why, sizeof(why)), 0);
	ck_assert_int_eq(id.key, PERSIST_WWN);
	ck_assert_str_eq(id.value, "0x5000c500a1b2c3d4");
	done(r);

	/* 600 KiB of S: lines still found; past 1 MiB the entry is not read */
	for (size_t size = 600 << 10; size <= (1100 << 10); size += 500 << 10) {
		char *huge = malloc(size + 64);
		size_t o = 0;

		while (o + 64 < size)
			o += (size_t)sprintf(huge + o, "S:disk/by-id/%050zu\n", o);
		sprintf(huge + o, "E:ID_SERIAL=S%zu\n", size);
		r = tree(huge, NULL);
		if (size < (1 << 20)) {
			ck_assert_int_eq(persist_identity(r, "sda", &id, why, sizeof(why)), 0);
			ck_assert_int_eq(id.key, PERSIST_SERIAL);
		} else {
			ck_assert_int_eq(persist_identity(r, "sda", &id, why, sizeof(why)), -ENOENT);
			ck_assert_ptr_nonnull(strstr(why, "no stable identity"));
		}
		done(r);
		free(huge);
	}

	/* the first of two equal keys */
	r = tree("E:ID_SERIAL=FIRST\nE:ID_SERIAL=SECOND\n", NULL);
	ck_assert_int_eq(persist_identity(r, "sda", &id, why, sizeof(why)), 0);
	ck_assert_str_eq(id.value, "FIRST");
	done(r);

	/* only the longer key: no WWN, the serial is used */
	r = tree("E:ID_WWN_WITH_EXTENSION=0x5000\nE:ID_SERIAL_SHORT=QM1\nE:ID_SERIAL=QEMU_QM1\n", NULL);
	ck_assert_int_eq(persist_identity(r, "sda", &id, why, sizeof(why)), 0);
	ck_assert_int_eq(id.key, PERSIST_SERIAL);
	ck_assert_str_eq(id.value, "QEMU_QM1");
	done(r);

	/* 511 bytes fit the identity, 512 do not */
	memset(big, 'w', sizeof(big));
	for (size_t n = 511; n <= 512; n++) {
		sprintf(db, "E:ID_SERIAL=%.*s\n", (int)n, big);
		r = tree(db, NULL);
		memset(why, 0, sizeof(why));
		if (n == 511) {
			ck_assert_int_eq(persist_identity(r, "sda", &id, why, sizeof(why)), 0);
			ck_assert_uint_eq(strlen(id.value), 511);
		} else {
			ck_assert_int_eq(persist_identity(r, "sda", &id, why, sizeof(why)), -ENAMETOOLONG);
			ck_assert_str_eq(why, "sda: its serial is longer than 511 bytes: a rule on a cut one would "
					      "match nothing");
		}
		done(r);
	}
	free(db);
}
END_TEST

START_TEST(loop_file_never_cut)
{
	struct persist_id id;
	char why[512], path[700];
	struct root *r;

	for (size_t n = 510; n <= 513; n++) {
		memset(path, 'p', n);
		path[0] = '/';
		strcpy(path + n, "\n");
		r = tree(NULL, path);
		if (n <= 511) {
			ck_assert_int_eq(persist_identity(r, "loop2", &id, why, sizeof(why)), 0);
			ck_assert_int_eq(id.key, PERSIST_LOOP_FILE);
			ck_assert_uint_eq(strlen(id.value), n);
		} else {
			ck_assert_msg(persist_identity(r, "loop2", &id, why, sizeof(why)) == -ENAMETOOLONG, "%zu", n);
			ck_assert_ptr_nonnull(strstr(why, "loop2: its loop is longer than 511 bytes"));
		}
		done(r);
	}
	/* trailing newline and spaces go (udev ignores trailing white space too) */
	r = tree(NULL, "/srv/x.img  \n");
	ck_assert_int_eq(persist_identity(r, "loop2", &id, why, sizeof(why)), 0);
	ck_assert_str_eq(id.value, "/srv/x.img");
	done(r);
}
END_TEST

/* Which bytes a rule can quote: printable ASCII but " \ * ? [ |, and
 * bytes above 0x7f (UTF-8 names). */
START_TEST(quotable_edges)
{
	static const struct {
		const char *v;
		int ok;
	} cases[] = {
		{ "a b", 1 },   { "a~b", 1 },     { "a]b", 1 },    { "caf\xc3\xa9", 1 }, { "a\x1f", 0 },
		{ "a\x7f", 0 }, { "a\x01", 0 },   { "", 0 },       { "a*", 0 },          { "a?", 0 },
		{ "a[", 0 },    { "a|b", 0 },     { "a\"b", 0 },   { "a\\b", 0 },        { "!", 1 },
	};
	struct persist_id id = { .key = PERSIST_SERIAL, .value = "S1" };
	struct persist_setting set = { "read_ahead_kb", "" };
	char rule[1024];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(set.value, sizeof(set.value), "%s", cases[i].v);
		ck_assert_msg(persist_rule(&id, "sda", &set, 1, rule, sizeof(rule)) == (cases[i].ok ? 0 : -EINVAL),
			      "value '%s'", cases[i].v);
	}
	/* the name is held to the same rules */
	snprintf(set.value, sizeof(set.value), "8");
	snprintf(set.name, sizeof(set.name), "iosched/*");
	ck_assert_int_eq(persist_rule(&id, "sda", &set, 1, rule, sizeof(rule)), -EINVAL);
	/* an identity with a control byte is refused */
	{
		struct root *r = tree("E:ID_SERIAL=ab\x1f" "c\n", NULL);
		char why[512];

		ck_assert_int_eq(persist_identity(r, "sda", &id, why, sizeof(why)), -EINVAL);
		ck_assert_str_eq(why, "sda: its serial holds a character a udev rule cannot match exactly");
		done(r);
	}
}
END_TEST

/* Every buffer size: the rule is written whole or not at all. */
START_TEST(rule_buffer_edges)
{
	struct persist_id id = { .key = PERSIST_WWN, .value = "0x5000c500a1b2c3d4" };
	struct persist_setting set[] = { { "scheduler", "none" }, { "read_ahead_kb", "4096" } };
	char full[2048], *rule;
	size_t need;

	for (size_t n = 0; n <= 2; n++) {
		ck_assert_int_eq(persist_rule(&id, "sdb", set, n, full, sizeof(full)), 0);
		need = strlen(full) + 1;
		ck_assert(full[need - 2] == '\n');
		ck_assert_ptr_nonnull(strstr(full, "ENV{ID_WWN}==\"0x5000c500a1b2c3d4\""));
		for (size_t len = 1; len <= need + 1; len++) {
			int err;

			/* exactly len bytes on the heap: ASan sees a byte written past them */
			ck_assert_ptr_nonnull(rule = malloc(len));
			err = persist_rule(&id, "sdb", set, n, rule, len);
			ck_assert_msg(err == (len >= need ? 0 : -ENOSPC), "%zu settings, %zu bytes of %zu: %d", n, len,
				      need, err);
			if (!err)
				ck_assert_str_eq(rule, full);
			free(rule);
		}
	}
}
END_TEST

/* name is "60-blktune-" + head + "-" + 8 lowercase hex digits + ".rules". */
static void assert_name(const char *name, const char *head)
{
	size_t n = strlen(name), h = strlen("60-blktune-") + strlen(head);

	ck_assert_msg(n == h + 15 && !strncmp(name, "60-blktune-", 11) && !strncmp(name + 11, head, strlen(head)) &&
			      name[h] == '-' && strspn(name + h + 1, "0123456789abcdef") == 8 &&
			      !strcmp(name + h + 9, ".rules"),
		      "%s is not 60-blktune-%s-HASH.rules", name, head);
}

/* The name of id, into a static buffer of NAME_MAX + 1 (one of two). */
static const char *name_of(enum persist_key key, const char *value)
{
	static char buf[2][NAME_MAX + 1];
	static int i;
	struct persist_id id = { .key = key };

	ck_assert_uint_lt(strlen(value), sizeof(id.value));
	snprintf(id.value, sizeof(id.value), "%s", value);
	i = !i;
	persist_file_name(&id, buf[i], sizeof(buf[i]));
	ck_assert_uint_lt(strlen(buf[i]), PERSIST_NAME_MAX);
	return buf[i];
}

START_TEST(file_names)
{
	char a[512], b[512], head[128];

	/* a loop file without a directory keeps its whole name */
	assert_name(name_of(PERSIST_LOOP_FILE, "disk.img"), "loop-disk.img");
	/* bytes beyond ASCII letters, digits, '.' and '-' become '_' */
	assert_name(name_of(PERSIST_WWN, "eui.00a0/b\xc3\xa9-c d"), "wwn-eui.00a0_b__-c_d");
	/* a serial's '/' is no directory: the whole value is used */
	assert_name(name_of(PERSIST_SERIAL, "a/b"), "serial-a_b");
	/* the same identity, the same name: the next call finds the rule */
	ck_assert_str_eq(name_of(PERSIST_SERIAL, "a/b"), name_of(PERSIST_SERIAL, "a/b"));
	/* the readable part is lossy, the name is not: the same basename in
	 * two directories, '_' and the byte it stands for, another key */
	ck_assert_str_ne(name_of(PERSIST_LOOP_FILE, "/a/img"), name_of(PERSIST_LOOP_FILE, "/b/img"));
	assert_name(name_of(PERSIST_LOOP_FILE, "/b/img"), "loop-img");
	ck_assert_str_ne(name_of(PERSIST_SERIAL, "AB C"), name_of(PERSIST_SERIAL, "AB_C"));
	ck_assert_str_ne(name_of(PERSIST_SERIAL, "a/b"), name_of(PERSIST_SERIAL, "a_b"));
	ck_assert_str_ne(name_of(PERSIST_WWN, "x"), name_of(PERSIST_SERIAL, "x"));
	ck_assert_str_ne(name_of(PERSIST_LOOP_FILE, "/x/serial-y"), name_of(PERSIST_SERIAL, "y"));
	/* the longest identity: its first 95 bytes, within NAME_MAX, and told
	 * apart from one that differs past them (its last byte) */
	memset(a, 'x', sizeof(a) - 1);
	a[sizeof(a) - 1] = '\0';
	memcpy(b, a, sizeof(b));
	b[sizeof(b) - 2] = 'y';
	snprintf(head, sizeof(head), "serial-%.95s", a);
	assert_name(name_of(PERSIST_SERIAL, a), head);
	ck_assert_uint_le(strlen(name_of(PERSIST_SERIAL, a)), NAME_MAX);
	ck_assert_str_ne(name_of(PERSIST_SERIAL, a), name_of(PERSIST_SERIAL, b));
	/* a loop file whose last component alone is that long */
	a[0] = b[0] = '/';
	snprintf(head, sizeof(head), "loop-%.95s", a + 1);
	assert_name(name_of(PERSIST_LOOP_FILE, a), head);
	ck_assert_str_ne(name_of(PERSIST_LOOP_FILE, a), name_of(PERSIST_LOOP_FILE, b));
}
END_TEST

/* A full disk, as a file size limit: the first write stops short at the
 * limit, the next fails (EFBIG). The rule already there must stay as it
 * was, and no temporary file may be left. In a child: the limit is the
 * process's. */
struct rule_write {
	const char *dir, *text;
};

/* persist_write under a 4096-byte file size limit: EFBIG, said with the
 * file's name (0), else 3 or 4. */
static int write_at_limit(void *arg)
{
	const struct rule_write *w = arg;
	char msg[512], want[512];

	if (unit_limit_file_size(4096) < 0)
		return 3;
	snprintf(want, sizeof(want), "%s/60-blktune-x.rules: %s", w->dir, strerror(EFBIG));
	return persist_write(w->dir, "60-blktune-x.rules", w->text, NULL, msg, sizeof(msg)) == -EFBIG &&
			       !strcmp(msg, want)
		       ? 0
		       : 4;
}

START_TEST(write_fails_part_way)
{
	char d[64], p[256], msg[512], *text = malloc(70000);
	struct rule_write w = { d, text };
	int status;

	snprintf(d, sizeof(d), "/tmp/blktune-unit-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(d));
	memset(text, 'r', 69999);
	text[69999] = '\0';
	ck_assert_int_eq(persist_write(d, "60-blktune-x.rules", "old\n", NULL, msg, sizeof(msg)), 0);
	status = unit_in_child(write_at_limit, &w);
	ck_assert_msg(status == 0, "child status %d", status);
	snprintf(p, sizeof(p), "%s/60-blktune-x.rules", d);
	ck_assert_str_eq(unit_slurp(p), "old\n");
	ck_assert_int_eq(unit_count_entries(d), 1);
	free(text);
	unit_rmtree(d);
}
END_TEST

/* Out of descriptors: the directory opens, the temporary file cannot
 * (EMFILE). The directory must be closed again on that path too. In a
 * child: the limit is the process's. */
/* persist_write with one descriptor free: EMFILE, and every descriptor
 * it opened closed again (0), else 3 to 6. */
static int write_with_one_fd(void *d)
{
	char msg[512];
	int before = unit_count_fds(), err;

	if (unit_leave_one_fd() < 0)
		return 3;
	err = persist_write(d, "60-blktune-x.rules", "x\n", NULL, msg, sizeof(msg));
	if (unit_restore_fds() < 0) /* room again to list the descriptors */
		return 6;
	return err == -EMFILE ? (unit_count_fds() == before ? 0 : 5) : 4;
}

START_TEST(no_descriptor_for_the_file)
{
	char d[64];
	int status;

	snprintf(d, sizeof(d), "/tmp/blktune-unit-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(d));
	status = unit_in_child(write_with_one_fd, d);
	ck_assert_msg(status == 0, "child status %d", status);
	ck_assert_int_eq(unit_count_entries(d), 0);
	unit_rmtree(d);
}
END_TEST

/* The panel's p adds to the rule of the disk: persist_read gives back
 * exactly what persist_rule wrote, none for no file, and refuses a file
 * edited by hand or written for another disk (never replaced). */
START_TEST(read_back_a_rule)
{
	struct persist_id id = { .key = PERSIST_WWN }, other = { .key = PERSIST_WWN };
	struct persist_setting set[] = { { "scheduler", "mq-deadline" }, { "iosched/fifo_batch", "8" },
					 { "read_ahead_kb", "1024" } }, got[PERSIST_MAX];
	char d[64], p[300], rule[4096], msg[512];

	snprintf(id.value, sizeof(id.value), "0x5000c500a1b2c3d4");
	snprintf(other.value, sizeof(other.value), "0x5000c500a1b2c3d5");
	snprintf(d, sizeof(d), "/tmp/blktune-unit-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(d));
	ck_assert_int_eq(persist_read(d, "60-blktune-wwn-x.rules", &id, got, PERSIST_MAX, NULL, msg, sizeof(msg)), 0);
	ck_assert_int_eq(persist_rule(&id, "sda", set, 3, rule, sizeof(rule)), 0);
	ck_assert_int_eq(persist_write(d, "60-blktune-wwn-x.rules", rule, NULL, msg, sizeof(msg)), 0);
	ck_assert_int_eq(persist_read(d, "60-blktune-wwn-x.rules", &id, got, PERSIST_MAX, NULL, msg, sizeof(msg)), 3);
	for (int i = 0; i < 3; i++) {
		ck_assert_str_eq(got[i].name, set[i].name);
		ck_assert_str_eq(got[i].value, set[i].value);
	}
	ck_assert_int_eq(persist_read(d, "60-blktune-wwn-x.rules", &id, got, 2, NULL, msg, sizeof(msg)), -ENOSPC);
	ck_assert_int_eq(persist_read(d, "60-blktune-wwn-x.rules", &other, got, PERSIST_MAX, NULL, msg, sizeof(msg)),
			 -EINVAL);
	ck_assert_msg(strstr(msg, "is not the rule blktune wrote for this disk"), "%s", msg);
	/* edited by hand: a RUN added, a setting blktune never writes */
	snprintf(p, sizeof(p), "%.*s, RUN+=\"/bin/true\"\n", (int)strlen(rule) - 1, rule);
	ck_assert_int_eq(persist_write(d, "60-blktune-wwn-x.rules", p, NULL, msg, sizeof(msg)), 0);
	ck_assert_int_eq(persist_read(d, "60-blktune-wwn-x.rules", &id, got, PERSIST_MAX, NULL, msg, sizeof(msg)), -EINVAL);
	snprintf(p, sizeof(p), "%.*s, ATTR{queue/write_cache}=\"write through\"\n", (int)strlen(rule) - 1, rule);
	ck_assert_int_eq(persist_write(d, "60-blktune-wwn-x.rules", p, NULL, msg, sizeof(msg)), 0);
	ck_assert_int_eq(persist_read(d, "60-blktune-wwn-x.rules", &id, got, PERSIST_MAX, NULL, msg, sizeof(msg)), -EINVAL);
	snprintf(p, sizeof(p), "%s# a line after\n", rule);
	ck_assert_int_eq(persist_write(d, "60-blktune-wwn-x.rules", p, NULL, msg, sizeof(msg)), 0);
	ck_assert_int_eq(persist_read(d, "60-blktune-wwn-x.rules", &id, got, PERSIST_MAX, NULL, msg, sizeof(msg)), -EINVAL);
	unit_rmtree(d);
}
END_TEST

/* Two identities whose rule older blktune wrote under one name (lossy:
 * the same basename, '_' for ' '): pairs[i][0] owns the old-named file. */
static const struct persist_id old_pairs[][2] = {
	{ { PERSIST_LOOP_FILE, "/a/img" }, { PERSIST_LOOP_FILE, "/b/img" } },
	{ { PERSIST_SERIAL, "AB C" }, { PERSIST_SERIAL, "AB_C" } },
};
static const char *const old_names[] = { "60-blktune-loop-img.rules", "60-blktune-serial-AB_C.rules" };

/* d/name holding id's rule setting read_ahead_kb=ra, as persist_rule
 * writes it (older blktune wrote the same text); the text into rule. */
static void plant_rule(const char *d, const char *name, const struct persist_id *id, const char *ra, char *rule,
		       size_t len)
{
	struct persist_setting set = { "read_ahead_kb", "" };
	char p[300];

	snprintf(set.value, sizeof(set.value), "%s", ra);
	ck_assert_int_eq(persist_rule(id, "sda", &set, 1, rule, len), 0);
	snprintf(p, sizeof(p), "%s/%s", d, name);
	unit_write_file(p, rule);
}

static const char *at(const char *d, const char *name)
{
	static char p[2][300];
	static int i;

	i = !i;
	snprintf(p[i], sizeof(p[i]), "%s/%s", d, name);
	return p[i];
}

/* What persist_remove says it removed: a, and b unless NULL. */
static const char *removed(const char *a, const char *b)
{
	static char buf[700];

	snprintf(buf, sizeof(buf), "removed %s%s%s", a, b ? " and " : "", b ? b : "");
	return buf;
}

/* A rule under the name older blktune gave it: found for its own disk and
 * moved to the new name (the old file removed once the new one is in
 * place), never read, replaced or removed for another disk sharing the
 * old name. */
START_TEST(rule_under_its_old_name)
{
	struct persist_setting set = { "nr_requests", "64" }, got[PERSIST_MAX];
	char d[64], old_rule[4096], rule[4096], msg[512], mine[PERSIST_NAME_MAX], other[PERSIST_NAME_MAX];
	const struct persist_id *id = old_pairs[_i], *sib = &old_pairs[_i][1];
	const char *old = old_names[_i];
	struct persist_seen seen;

	snprintf(d, sizeof(d), "/tmp/blktune-unit-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(d));
	persist_file_name(id, mine, sizeof(mine));
	persist_file_name(sib, other, sizeof(other));
	plant_rule(d, old, id, "512", old_rule, sizeof(old_rule));

	/* the other disk: the old file is not its rule; it gets its own */
	ck_assert_int_eq(persist_read(d, other, sib, got, PERSIST_MAX, &seen, msg, sizeof(msg)), 0);
	ck_assert(!seen.exists);
	ck_assert_str_eq(seen.legacy, "");
	ck_assert_int_eq(persist_rule(sib, "sdb", &set, 1, rule, sizeof(rule)), 0);
	ck_assert_int_eq(persist_write(d, other, rule, &seen, msg, sizeof(msg)), 0);
	ck_assert_str_eq(unit_slurp(at(d, other)), rule);
	ck_assert_str_eq(unit_slurp(at(d, old)), old_rule);
	ck_assert_int_eq(persist_remove(d, other, sib, msg, sizeof(msg)), 0);
	ck_assert_str_eq(msg, removed(at(d, other), NULL));
	ck_assert_str_eq(unit_slurp(at(d, old)), old_rule);
	ck_assert_int_eq(persist_remove(d, other, sib, msg, sizeof(msg)), -ENOENT);
	ck_assert_str_eq(unit_slurp(at(d, old)), old_rule);
	ck_assert_int_eq(unit_count_entries(d), 1);

	/* its own disk: read there, and a write moves it */
	ck_assert_int_eq(persist_read(d, mine, id, got, PERSIST_MAX, &seen, msg, sizeof(msg)), 1);
	ck_assert_str_eq(got[0].value, "512");
	ck_assert_str_eq(seen.legacy, old);
	ck_assert_int_eq(persist_rule(id, "sda", &set, 1, rule, sizeof(rule)), 0);
	ck_assert_int_eq(persist_write(d, mine, rule, &seen, msg, sizeof(msg)), 0);
	ck_assert_str_eq(unit_slurp(at(d, mine)), rule);
	ck_assert_int_eq(access(at(d, old), F_OK), -1);
	ck_assert_int_eq(unit_count_entries(d), 1);
	ck_assert_int_eq(unlink(at(d, mine)), 0);

	/* edited under the old name while asked: nothing moves */
	plant_rule(d, old, id, "512", old_rule, sizeof(old_rule));
	ck_assert_int_eq(persist_read(d, mine, id, got, PERSIST_MAX, &seen, msg, sizeof(msg)), 1);
	plant_rule(d, old, id, "256", old_rule, sizeof(old_rule));
	ck_assert_int_eq(persist_write(d, mine, rule, &seen, msg, sizeof(msg)), -ESTALE);
	ck_assert_msg(strstr(msg, old) && strstr(msg, "changed since it was read"), "%s", msg);
	ck_assert_str_eq(unit_slurp(at(d, old)), old_rule);
	ck_assert_int_eq(unit_count_entries(d), 1);
	/* a file under the new name made meanwhile: it stays, so does the old */
	ck_assert_int_eq(persist_read(d, mine, id, got, PERSIST_MAX, &seen, msg, sizeof(msg)), 1);
	unit_write_file(at(d, mine), "# mine\n");
	ck_assert_int_eq(persist_write(d, mine, rule, &seen, msg, sizeof(msg)), -ESTALE);
	ck_assert_str_eq(unit_slurp(at(d, mine)), "# mine\n");
	ck_assert_str_eq(unit_slurp(at(d, old)), old_rule);
	ck_assert_int_eq(unlink(at(d, mine)), 0);
	/* edited by hand under the old name: refused, naming it */
	snprintf(rule, sizeof(rule), "%.*s, RUN+=\"/bin/true\"\n", (int)strlen(old_rule) - 1, old_rule);
	unit_write_file(at(d, old), rule);
	ck_assert_int_eq(persist_read(d, mine, id, got, PERSIST_MAX, &seen, msg, sizeof(msg)), -EINVAL);
	ck_assert_msg(strstr(msg, at(d, old)) && strstr(msg, "is not the rule blktune wrote"), "%s", msg);

	/* this disk's rule under both names (an older blktune wrote the
	 * old one again): the old one would win at boot, so neither is
	 * read or written; the other disk's old rule is no such conflict */
	plant_rule(d, old, id, "512", old_rule, sizeof(old_rule));
	plant_rule(d, mine, id, "256", rule, sizeof(rule));
	ck_assert_int_eq(persist_read(d, mine, id, got, PERSIST_MAX, &seen, msg, sizeof(msg)), -EEXIST);
	ck_assert_msg(strstr(msg, at(d, old)) && strstr(msg, mine) && strstr(msg, "override"), "%s", msg);
	ck_assert_str_eq(unit_slurp(at(d, old)), old_rule);
	ck_assert_str_eq(unit_slurp(at(d, mine)), rule);
	ck_assert_int_eq(unlink(at(d, mine)), 0);
	plant_rule(d, other, sib, "128", rule, sizeof(rule));
	ck_assert_int_eq(persist_read(d, other, sib, got, PERSIST_MAX, &seen, msg, sizeof(msg)), 1);
	ck_assert_str_eq(got[0].value, "128");
	ck_assert_int_eq(unlink(at(d, other)), 0);
	ck_assert_int_eq(unlink(at(d, old)), 0);

	/* --remove finds it there too, and both when both are there */
	plant_rule(d, old, id, "512", old_rule, sizeof(old_rule));
	ck_assert_int_eq(persist_remove(d, mine, id, msg, sizeof(msg)), 0);
	ck_assert_str_eq(msg, removed(at(d, old), NULL));
	ck_assert_int_eq(unit_count_entries(d), 0);
	plant_rule(d, old, id, "512", old_rule, sizeof(old_rule));
	plant_rule(d, mine, id, "512", old_rule, sizeof(old_rule));
	ck_assert_int_eq(persist_remove(d, mine, id, msg, sizeof(msg)), 0);
	ck_assert_str_eq(msg, removed(at(d, mine), at(d, old)));
	ck_assert_int_eq(unit_count_entries(d), 0);
	ck_assert_int_eq(persist_remove(d, mine, id, msg, sizeof(msg)), -ENOENT);
	unit_rmtree(d);
}
END_TEST

/* persist_read, then (while the user is asked y/N) the file is edited by
 * hand: persist_write refuses to write over it and leaves it as it is.
 * Same size and mtime put back: a stat check would not see the edit. */
START_TEST(write_refuses_a_file_edited_since_read)
{
	struct persist_id id = { .key = PERSIST_WWN };
	struct persist_setting set[] = { { "read_ahead_kb", "1024" } }, got[PERSIST_MAX];
	struct persist_seen seen;
	char d[64], p[128], rule[4096], edited[4096], *at;
	char msg[512];
	struct stat st;
	struct timespec times[2];

	snprintf(id.value, sizeof(id.value), "0x5000c500a1b2c3d4");
	snprintf(d, sizeof(d), "/tmp/blktune-unit-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(d));
	snprintf(p, sizeof(p), "%s/60-blktune-wwn-x.rules", d);
	ck_assert_int_eq(persist_rule(&id, "sda", set, 1, rule, sizeof(rule)), 0);
	ck_assert_int_eq(persist_write(d, "60-blktune-wwn-x.rules", rule, NULL, msg, sizeof(msg)), 0);
	ck_assert_int_eq(persist_read(d, "60-blktune-wwn-x.rules", &id, got, PERSIST_MAX, &seen, msg, sizeof(msg)), 1);
	/* the edit: 1024 -> 2048 in place, the size and mtime kept */
	ck_assert_int_eq(stat(p, &st), 0);
	snprintf(edited, sizeof(edited), "%s", rule);
	ck_assert_ptr_nonnull(at = strstr(edited, "\"1024\""));
	memcpy(at + 1, "2048", 4);
	unit_write_file(p, edited);
	times[0] = st.st_atim;
	times[1] = st.st_mtim;
	ck_assert_int_eq(utimensat(AT_FDCWD, p, times, 0), 0);
	ck_assert_int_eq(persist_write(d, "60-blktune-wwn-x.rules", "new\n", &seen, msg, sizeof(msg)), -ESTALE);
	ck_assert_msg(strstr(msg, "60-blktune-wwn-x.rules changed since it was read (a hand edit?): left as it is"), "%s", msg);
	ck_assert_str_eq(unit_slurp(p), edited);
	ck_assert_int_eq(unit_count_entries(d), 1); /* no temporary file left */
	/* removed meanwhile: not written back either */
	ck_assert_int_eq(persist_read(d, "60-blktune-wwn-x.rules", &id, got, PERSIST_MAX, &seen, msg, sizeof(msg)), 1);
	ck_assert_int_eq(unlink(p), 0);
	ck_assert_int_eq(persist_write(d, "60-blktune-wwn-x.rules", "new\n", &seen, msg, sizeof(msg)), -ESTALE);
	ck_assert_int_eq(unit_count_entries(d), 0);
	/* none when read, one written by hand meanwhile: it stays */
	ck_assert_int_eq(persist_read(d, "60-blktune-wwn-x.rules", &id, got, PERSIST_MAX, &seen, msg, sizeof(msg)), 0);
	unit_write_file(p, "# mine\n");
	ck_assert_int_eq(persist_write(d, "60-blktune-wwn-x.rules", "new\n", &seen, msg, sizeof(msg)), -ESTALE);
	ck_assert_str_eq(unit_slurp(p), "# mine\n");
	ck_assert_int_eq(unit_count_entries(d), 1);
	/* none then, none now: written */
	ck_assert_int_eq(unlink(p), 0);
	ck_assert_int_eq(persist_read(d, "60-blktune-wwn-x.rules", &id, got, PERSIST_MAX, &seen, msg, sizeof(msg)), 0);
	ck_assert_int_eq(persist_write(d, "60-blktune-wwn-x.rules", rule, &seen, msg, sizeof(msg)), 0);
	ck_assert_str_eq(unit_slurp(p), rule);
	ck_assert_int_eq(unit_count_entries(d), 1);
	/* the same bytes saved again meanwhile (a new inode, a new mtime): written */
	ck_assert_int_eq(persist_read(d, "60-blktune-wwn-x.rules", &id, got, PERSIST_MAX, &seen, msg, sizeof(msg)), 1);
	ck_assert_int_eq(unlink(p), 0);
	unit_write_file(p, rule);
	ck_assert_int_eq(persist_write(d, "60-blktune-wwn-x.rules", "new\n", &seen, msg, sizeof(msg)), 0);
	ck_assert_str_eq(unit_slurp(p), "new\n");
	unit_rmtree(d);
}
END_TEST

START_TEST(write_and_remove)
{
	struct persist_id id = { .key = PERSIST_WWN, .value = "x" };
	char d[64], p[256], msg[512], *text;
	struct stat st;

	int fds = unit_count_fds();

	snprintf(d, sizeof(d), "/tmp/blktune-unit-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(d));
	/* a rule longer than one pipe or page buffer is written whole */
	text = malloc(70000);
	memset(text, 'r', 69998);
	text[69998] = '\n';
	text[69999] = '\0';
	ck_assert_int_eq(persist_write(d, "60-blktune-x.rules", text, NULL, msg, sizeof(msg)), 0);
	snprintf(p, sizeof(p), "%s/60-blktune-x.rules", d);
	ck_assert_int_eq(stat(p, &st), 0);
	ck_assert_int_eq(st.st_mode & 07777, 0644);
	ck_assert_int_eq(st.st_size, 69999);
	ck_assert_int_eq(unit_count_entries(d), 1); /* no temporary file left */
	/* one byte is a whole write too */
	ck_assert_int_eq(persist_write(d, "60-blktune-x.rules", "\n", NULL, msg, sizeof(msg)), 0);
	ck_assert_str_eq(unit_slurp(p), "\n");
	/* written again: replaced */
	ck_assert_int_eq(persist_write(d, "60-blktune-x.rules", "new\n", NULL, msg, sizeof(msg)), 0);
	ck_assert_str_eq(unit_slurp(p), "new\n");
	ck_assert_int_eq(unit_count_entries(d), 1);
	/* a name that is a directory: refused, the old contents stay, no leftover */
	snprintf(p, sizeof(p), "%s/sub", d);
	ck_assert_int_eq(mkdir(p, 0700), 0);
	snprintf(p, sizeof(p), "%s/sub/keep", d);
	unit_write_file(p, "k");
	ck_assert_int_lt(persist_write(d, "sub", "x\n", NULL, msg, sizeof(msg)), 0);
	snprintf(p, sizeof(p), "%s/sub: ", d);
	ck_assert_msg(!strncmp(msg, p, strlen(p)), "%s", msg);
	ck_assert_int_eq(unit_count_entries(d), 2);
	snprintf(p, sizeof(p), "%s/sub/keep", d);
	ck_assert_str_eq(unit_slurp(p), "k");
	/* a directory others may write to is refused before anything is made */
	ck_assert_int_eq(chmod(d, 0777), 0);
	ck_assert_int_eq(persist_write(d, "60-blktune-y.rules", "y\n", NULL, msg, sizeof(msg)), -EPERM);
	ck_assert_int_eq(persist_remove(d, "60-blktune-x.rules", &id, msg, sizeof(msg)), -EPERM);
	ck_assert_int_eq(unit_count_entries(d), 2);
	ck_assert_int_eq(chmod(d, 0700), 0);
	/* remove: the rule goes, and msg names it; a second remove says there is none */
	ck_assert_int_eq(persist_remove(d, "60-blktune-x.rules", &id, msg, sizeof(msg)), 0);
	snprintf(p, sizeof(p), "removed %s/60-blktune-x.rules", d);
	ck_assert_str_eq(msg, p);
	ck_assert_int_eq(unit_count_entries(d), 1);
	ck_assert_int_eq(persist_remove(d, "60-blktune-x.rules", &id, msg, sizeof(msg)), -ENOENT);
	snprintf(p, sizeof(p), "no rule to remove: %s/60-blktune-x.rules: %s", d, strerror(ENOENT));
	ck_assert_str_eq(msg, p);
	/* every path above closed what it opened (the TUI's p writes rules
	 * in a process that runs for days) */
	ck_assert_int_eq(unit_count_fds(), fds);
	free(text);
	unit_rmtree(d);
}
END_TEST

START_TEST(rules_dir_and_allowed_rows)
{
	struct tunable_def def = { .name = "x", .path = "queue/x", .place = TUNABLE_PLACE_DEVICE,
				   .type = TUNABLE_UINT, .writable = true };

	unsetenv("BLKTUNE_RULES_DIR");
	ck_assert_str_eq(persist_rules_dir(), PERSIST_RULES_DIR);
	setenv("BLKTUNE_RULES_DIR", "", 1);
	ck_assert_str_eq(persist_rules_dir(), PERSIST_RULES_DIR);
	setenv("BLKTUNE_RULES_DIR", "/tmp/r", 1);
	ck_assert_str_eq(persist_rules_dir(), "/tmp/r");
	unsetenv("BLKTUNE_RULES_DIR");

	ck_assert(persist_allowed(tunable_table_find("read_ahead_kb")));
	ck_assert(persist_allowed(tunable_table_find("scheduler")));
	ck_assert(!persist_allowed(tunable_table_find("write_cache")));
	ck_assert(!persist_allowed(tunable_table_find("irq")));
	ck_assert(!persist_allowed(NULL));
	/* each condition on its own */
	ck_assert(persist_allowed(&def));
	def.writable = false;
	ck_assert(!persist_allowed(&def));
	def.writable = true;
	def.type = TUNABLE_TEXT;
	ck_assert(!persist_allowed(&def));
	def.type = TUNABLE_BOOL;
	def.place = TUNABLE_PLACE_IRQ;
	ck_assert(!persist_allowed(&def));
	def.place = TUNABLE_PLACE_DEVICE;
	def.path = "device/queue_depth";
	ck_assert(!persist_allowed(&def));
	def.path = "queue";
	ck_assert(!persist_allowed(&def));
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
	tcase_add_test(tc, merge_keeps_the_scheduler_with_its_parameters);
	tcase_add_test(tc, check_under_the_rules_scheduler);
	tcase_add_test(tc, udev_database_read_whole);
	tcase_add_test(tc, loop_file_never_cut);
	tcase_add_test(tc, quotable_edges);
	tcase_add_test(tc, rule_buffer_edges);
	tcase_add_test(tc, file_names);
	tcase_add_test(tc, read_back_a_rule);
	tcase_add_loop_test(tc, rule_under_its_old_name, 0, sizeof(old_pairs) / sizeof(old_pairs[0]));
	tcase_add_test(tc, write_refuses_a_file_edited_since_read);
	tcase_add_test(tc, write_and_remove);
	tcase_add_test(tc, write_fails_part_way);
	tcase_add_test(tc, no_descriptor_for_the_file);
	tcase_add_test(tc, rules_dir_and_allowed_rows);
	suite_add_tcase(s, tc);
	return s;
}
