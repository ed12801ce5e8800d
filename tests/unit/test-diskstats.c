#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <unistd.h>

#include "model.h"
#include "root.h"
#include "source-diskstats.h"
#include "unit.h"

/* Read a standalone diskstats fixture file into s; returns the bad lines. */
static int load(const char *file, struct sample *s, char *err, size_t errlen)
{
	char path[4096], *text;
	FILE *f;
	long n;

	snprintf(path, sizeof(path), "%s", unit_fixture(file));
	f = fopen(path, "r");
	ck_assert_msg(f != NULL, "fixture %s", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	text = calloc(1, (size_t)n + 1);
	ck_assert_int_eq(fread(text, 1, (size_t)n, f), n);
	fclose(f);
	sample_init(s);
	int bad = source_diskstats_parse(text, s, err, errlen);
	free(text);
	return bad;
}

static const struct disk_sample *by_name(const struct sample *s, const char *name)
{
	for (size_t i = 0; i < s->ndisks; i++)
		if (!strcmp(s->disks[i].st.name, name))
			return &s->disks[i];
	return NULL;
}

START_TEST(fields14)
{
	struct sample s;
	char err[160];
	const struct disk_sample *d;

	ck_assert_int_eq(load("diskstats/fields14", &s, err, sizeof(err)), 0);
	d = by_name(&s, "nvme0n1");
	ck_assert_ptr_nonnull(d);
	ck_assert_int_eq(d->st.nfields, 14);
	ck_assert_uint_eq(major(d->st.dev), 259);
	/* sys/block/nvme0n1/stat of the capture: 92731 2 1883694 15569 926939 ... */
	ck_assert_uint_eq(d->st.rd_ios, 92731);
	ck_assert_uint_eq(d->st.rd_sectors, 1883694);
	ck_assert_uint_eq(d->st.wr_sectors, 16648017);
	ck_assert_uint_eq(d->st.time_in_queue, 3160736);
	ck_assert_uint_eq(d->st.dc_ios, 0);
	ck_assert_uint_eq(d->st.fl_ios, 0);
	sample_free(&s);
}
END_TEST

START_TEST(fields18_and_20)
{
	struct sample s;
	char err[160];
	const struct disk_sample *d;

	ck_assert_int_eq(load("diskstats/fields18", &s, err, sizeof(err)), 0);
	ck_assert_uint_ge(s.ndisks, 6);
	for (size_t i = 0; i < s.ndisks; i++)
		ck_assert_int_eq(s.disks[i].st.nfields, 18);
	sample_free(&s);
	ck_assert_int_eq(load("diskstats/fields20", &s, err, sizeof(err)), 0);
	d = by_name(&s, "loop1");
	ck_assert_ptr_nonnull(d);
	ck_assert_int_eq(d->st.nfields, 20);
	ck_assert_uint_eq(d->st.rd_ios, 4096);
	ck_assert_uint_eq(d->st.rd_sectors, 524288);
	sample_free(&s);
}
END_TEST

START_TEST(malformed_lines)
{
	struct sample s;
	char err[160];
	int bad = load("diskstats/malformed", &s, err, sizeof(err));

	/* 13 lines: 1 and 13 good, 6 and 11 blank (not errors), 9 bad ones. */
	ck_assert_int_eq(bad, 9);
	ck_assert_uint_eq(s.ndisks, 2);
	ck_assert_str_eq(s.disks[0].st.name, "sda");
	ck_assert_str_eq(s.disks[1].st.name, "sdb");
	/* The first bad line is named, with what is wrong with it. */
	ck_assert_msg(strstr(err, "line 2:") != NULL, "err: %s", err);
	ck_assert_msg(strstr(err, "fields") != NULL, "err: %s", err);
	sample_free(&s);
}
END_TEST

/* Each defect alone gives its own reason. */
START_TEST(parse_line_reasons)
{
	static const struct {
		const char *line, *why;
	} cases[] = {
		{ "8 0 sda 1 2 3", "expected 14, 18 or 20 fields, got 6" },
		{ "8 0 sda -1 0 0 0 0 0 0 0 0 0 0", "field 4 is not an unsigned number" },
		{ "8 0 sda 1x 0 0 0 0 0 0 0 0 0 0", "field 4 is not an unsigned number" },
		{ "8 0 sda 18446744073709551616 0 0 0 0 0 0 0 0 0 0", "field 4 is not an unsigned number" },
		{ "x 0 sda 1 0 0 0 0 0 0 0 0 0 0", "bad major number" },
		{ "8 0 0123456789012345678901234567890123 1 0 0 0 0 0 0 0 0 0 0", "device name longer than 31 bytes" },
		{ "8 0", "missing device name" },
		{ "8 0 sda 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0", "more than 20 fields" },
	};
	struct disk_stat st;
	char why[96];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ck_assert_int_eq(source_diskstats_parse_line(cases[i].line, &st, why, sizeof(why)), -EINVAL);
		ck_assert_str_eq(why, cases[i].why);
	}
	ck_assert_int_eq(source_diskstats_parse_line("   7       3 loop3 18446744073709551615 0 0 0 0 0 0 0 0 0 0",
						     &st, why, sizeof(why)), 0);
	ck_assert_uint_eq(st.rd_ios, UINT64_MAX);
	ck_assert_uint_eq(st.dev, makedev(7, 3));
}
END_TEST

/* Every limit of a line, at and one past: major 4095 (12 bits), minor
 * 1048575 (20 bits), a 31-byte name, 14/18/20 fields and the counts between,
 * tabs as separators, no newline at the end. */
START_TEST(parse_line_bounds)
{
	static const struct {
		const char *line, *why; /* why NULL: parses */
	} cases[] = {
		{ "4095 0 sda 1 0 0 0 0 0 0 0 0 0 0", NULL },
		{ "4096 0 sda 1 0 0 0 0 0 0 0 0 0 0", "bad major number" },
		{ "8 1048575 sda 1 0 0 0 0 0 0 0 0 0 0", NULL },
		{ "8 1048576 sda 1 0 0 0 0 0 0 0 0 0 0", "bad minor number" },
		{ "8 x sda 1 0 0 0 0 0 0 0 0 0 0", "bad minor number" },
		{ "8 0 0123456789012345678901234567890 1 0 0 0 0 0 0 0 0 0 0", NULL },
		{ "8 0 01234567890123456789012345678901 1 0 0 0 0 0 0 0 0 0 0", "device name longer than 31 bytes" },
		{ "8 0 sda 0 0 0 0 0 0 0 0 0 0", "expected 14, 18 or 20 fields, got 13" },
		{ "8 0 sda 0 0 0 0 0 0 0 0 0 0 0 0", "expected 14, 18 or 20 fields, got 15" },
		{ "8 0 sda 0 0 0 0 0 0 0 0 0 0 0 0 0 0", "expected 14, 18 or 20 fields, got 17" },
		{ "8 0 sda 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0", "expected 14, 18 or 20 fields, got 19" },
		{ "8 0 sda 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0", NULL },
		{ "8 0 sda 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n", NULL },
		{ "8\t0\tsda\t5\t0\t0\t0\t0\t0\t0\t0\t0\t0\t9", NULL },
		{ "8 0 sda 1 0 0 0 0 0 0 0 0 0 0x", "field 14 is not an unsigned number" },
		{ "8 0 sda 1844674407370955161 0 0 0 0 0 0 0 0 0 0", NULL },
		{ "8 0 sda 18446744073709551610 0 0 0 0 0 0 0 0 0 0", NULL },
		{ "8 0 sda 18446744073709551620 0 0 0 0 0 0 0 0 0 0", "field 4 is not an unsigned number" },
		{ "8 0 sda 99999999999999999999 0 0 0 0 0 0 0 0 0 0", "field 4 is not an unsigned number" },
		/* the 19 digits that cannot overflow, then the checked ones */
		{ "8 0 sda 9999999999999999999 0 0 0 0 0 0 0 0 0 0", NULL },
		{ "8 0 sda 18446744073709551615 0 0 0 0 0 0 0 0 0 0", NULL },
		{ "8 0 sda 18446744073709551616 0 0 0 0 0 0 0 0 0 0", "field 4 is not an unsigned number" },
		{ "8 0 sda 184467440737095516150 0 0 0 0 0 0 0 0 0 0", "field 4 is not an unsigned number" },
		{ "8 0 sda 000000000000000000000000042 0 0 0 0 0 0 0 0 0 0", NULL },
		{ "8 0 sda 1 0 0 0 0 0 0 0 0 0 1844674407370955161x", "field 14 is not an unsigned number" },
	};
	struct disk_stat st;
	char why[96];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int err = source_diskstats_parse_line(cases[i].line, &st, why, sizeof(why));
		if (!cases[i].why) {
			ck_assert_msg(err == 0, "\"%s\": %s", cases[i].line, why);
		} else {
			ck_assert_msg(err == -EINVAL, "\"%s\" parsed", cases[i].line);
			ck_assert_str_eq(why, cases[i].why);
		}
	}
	/* the values at the overflow check's edges */
	ck_assert_int_eq(source_diskstats_parse_line("8 0 sda 9999999999999999999 0 0 0 0 0 0 0 0 0 "
						     "18446744073709551614", &st, why, sizeof(why)), 0);
	ck_assert_uint_eq(st.rd_ios, 9999999999999999999ULL);
	ck_assert_uint_eq(st.time_in_queue, UINT64_MAX - 1);
	ck_assert_int_eq(source_diskstats_parse_line("8 0 sda 000000000000000000000000042 0 0 0 0 0 0 0 0 0 7",
						     &st, why, sizeof(why)), 0);
	ck_assert_uint_eq(st.rd_ios, 42);
	ck_assert_uint_eq(st.time_in_queue, 7);
	/* the tab-separated line: every field where it belongs */
	ck_assert_int_eq(source_diskstats_parse_line("8\t0\tsda\t5\t0\t0\t0\t0\t0\t0\t0\t0\t0\t9", &st, why,
						     sizeof(why)), 0);
	ck_assert_uint_eq(st.rd_ios, 5);
	ck_assert_uint_eq(st.time_in_queue, 9);
	ck_assert_int_eq(st.nfields, 14);
	/* 20 fields: the last one is the flush time, the name exactly 31 bytes */
	ck_assert_int_eq(source_diskstats_parse_line(
				 "259 1048575 0123456789012345678901234567890 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17",
				 &st, why, sizeof(why)), 0);
	ck_assert_str_eq(st.name, "0123456789012345678901234567890");
	ck_assert_uint_eq(st.dev, makedev(259, 1048575));
	ck_assert_uint_eq(st.rd_merges, 2);
	ck_assert_uint_eq(st.wr_ticks, 8);
	ck_assert_uint_eq(st.in_flight, 9);
	ck_assert_uint_eq(st.io_ticks, 10);
	ck_assert_uint_eq(st.dc_ios, 12);
	ck_assert_uint_eq(st.dc_ticks, 15);
	ck_assert_uint_eq(st.fl_ios, 16);
	ck_assert_uint_eq(st.fl_ticks, 17);
	ck_assert_int_eq(st.nfields, 20);
	ck_assert_uint_eq(source_diskstats_parse_line("8 0 sda 18446744073709551610 0 0 0 0 0 0 0 0 0 0", &st, why,
						      sizeof(why)), 0);
	ck_assert_uint_eq(st.rd_ios, 18446744073709551610ULL);
}
END_TEST

/* Blank lines carry nothing; the first bad line is named, later ones only
 * counted; a text without a final newline still gives its last device. */
START_TEST(parse_text_edges)
{
	struct sample s;
	char err[160];

	sample_init(&s);
	ck_assert_int_eq(source_diskstats_parse("\n   \n8 0 sda 1 0 0 0 0 0 0 0 0 0 0\nbad\n\t\n"
						"8 16 sdb 2 0 0 0 0 0 0 0 0 0 0\n8 1 x\n8 32 sdc 3 0 0 0 0 0 0 0 0 0 0",
						&s, err, sizeof(err)), 2);
	ck_assert_uint_eq(s.ndisks, 3);
	ck_assert_str_eq(s.disks[2].st.name, "sdc");
	ck_assert_uint_eq(s.disks[2].st.rd_ios, 3);
	ck_assert_str_eq(err, "diskstats line 4: bad major number");
	sample_clear(&s);
	ck_assert_int_eq(source_diskstats_parse("", &s, err, sizeof(err)), 0);
	ck_assert_uint_eq(s.ndisks, 0);
	ck_assert_str_eq(err, "");
	ck_assert_int_eq(source_diskstats_parse("x\n", &s, NULL, 0), 1);
	sample_free(&s);
}
END_TEST

/* The source reads through the root module, from a fixture tree. */
START_TEST(source_reads_fixture_root)
{
	struct root *r;
	struct source_diskstats *src;
	struct sample s;

	ck_assert_int_eq(root_open(unit_fixture("sata"), &r), 0);
	ck_assert_int_eq(source_diskstats_open(r, &src), 0);
	sample_init(&s);
	ck_assert_int_eq(source_diskstats_read(src, &s), 0);
	ck_assert_ptr_nonnull(by_name(&s, "sda"));
	ck_assert_ptr_nonnull(by_name(&s, "nvme0n1p4"));
	/* A re-read (pread on the kept fd) gives the same devices again. */
	size_t n = s.ndisks;
	sample_clear(&s);
	ck_assert_int_eq(source_diskstats_read(src, &s), 0);
	ck_assert_uint_eq(s.ndisks, n);
	sample_free(&s);
	source_diskstats_close(src);
	root_close(r);
}
END_TEST

/* A fake root whose proc/diskstats has n devices "loop0".."loop<n-1>" in the
 * kernel's format (20 fields, "%4d %7d %s" then the counters); device i's
 * rd_ios is 1000 + i and its flush count 7 * i. Returns the file's size. */
static long write_many(const char *dir, int n)
{
	char path[4096], line[256];
	FILE *f;
	long size;

	snprintf(path, sizeof(path), "%s/proc", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/proc/diskstats", dir);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	for (int i = 0; i < n; i++) {
		snprintf(line, sizeof(line),
			 "%4d %7d loop%d %d 0 %d 12 34 0 560 78 0 90 123 1 0 8 1 %d 2\n",
			 7, i, i, 1000 + i, 8 * (1000 + i), 7 * i);
		fputs(line, f);
	}
	size = ftell(f);
	ck_assert_int_eq(fclose(f), 0);
	return size;
}

static void check_many(const struct sample *s, int n)
{
	char name[32];

	ck_assert_uint_eq(s->ndisks, (size_t)n);
	for (int i = 0; i < n; i++) {
		const struct disk_sample *d = &s->disks[i];
		snprintf(name, sizeof(name), "loop%d", i);
		ck_assert_str_eq(d->st.name, name);
		ck_assert_uint_eq(d->st.dev, makedev(7, i));
		ck_assert_uint_eq(d->st.rd_ios, 1000 + i);
		ck_assert_uint_eq(d->st.rd_sectors, 8 * (1000 + i));
		ck_assert_uint_eq(d->st.fl_ios, 7 * i);
		ck_assert_int_eq(d->st.nfields, 20);
	}
}

/* A server with a few hundred devices: /proc/diskstats longer than one read
 * buffer (16 KiB) and than two. Every device is read, on the first read and
 * on re-reads as the file grows and shrinks. */
START_TEST(diskstats_past_one_buffer)
{
	char tmpl[] = "/tmp/blktune-unit-XXXXXX";
	char *dir = mkdtemp(tmpl);
	struct root *r;
	struct source_diskstats *src;
	struct sample s;

	ck_assert_ptr_nonnull(dir);
	ck_assert_int_gt(write_many(dir, 500), 2 * 16384);
	ck_assert_int_eq(root_open(dir, &r), 0);
	ck_assert_int_eq(source_diskstats_open(r, &src), 0);
	sample_init(&s);
	ck_assert_int_eq(source_diskstats_read(src, &s), 0);
	check_many(&s, 500);
	sample_clear(&s);
	ck_assert_int_eq(source_diskstats_read(src, &s), 0);
	check_many(&s, 500);
	source_diskstats_close(src);

	/* Exactly at a buffer's edge: the line that ends at byte 16383 of a
	 * 16384-byte buffer (one byte kept for the NUL), and one device more. */
	for (int n = 1; n < 500; n++) {
		long size = write_many(dir, n);
		if (size < 16383 - 80)
			continue;
		if (size > 16384 + 200)
			break;
		ck_assert_int_eq(source_diskstats_open(r, &src), 0);
		sample_clear(&s);
		ck_assert_int_eq(source_diskstats_read(src, &s), 0);
		check_many(&s, n);
		source_diskstats_close(src);
	}

	/* The same open source as the file grows past the grown buffer and
	 * then shrinks: no device lost, no stale tail parsed. */
	write_many(dir, 100);
	ck_assert_int_eq(source_diskstats_open(r, &src), 0);
	sample_clear(&s);
	ck_assert_int_eq(source_diskstats_read(src, &s), 0);
	check_many(&s, 100);
	write_many(dir, 900);
	sample_clear(&s);
	ck_assert_int_eq(source_diskstats_read(src, &s), 0);
	check_many(&s, 900);
	write_many(dir, 3);
	sample_clear(&s);
	ck_assert_int_eq(source_diskstats_read(src, &s), 0);
	check_many(&s, 3);
	ck_assert_str_eq(source_diskstats_error(src), "");
	sample_free(&s);
	source_diskstats_close(src);
	root_close(r);
	unit_rmtree(dir);
}
END_TEST

/* A file of exactly the buffer's size less one (the NUL's byte), the size,
 * and one more: the read that finds the end returns 0 bytes. And the source
 * gives its descriptor back when closed. */
START_TEST(diskstats_exact_buffer_sizes)
{
	char tmpl[] = "/tmp/blktune-unit-XXXXXX";
	char *dir = mkdtemp(tmpl), path[4200], fdpath[64];
	struct root *r;
	struct source_diskstats *src;
	struct sample s;
	DIR *d;
	int before = 0, after = 0;

	ck_assert_ptr_nonnull(dir);
	snprintf(path, sizeof(path), "%s/proc", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/proc/diskstats", dir);
	ck_assert_int_eq(root_open(dir, &r), 0);
	sample_init(&s);
	for (long size = 16382; size <= 16385; size++) {
		/* lines of about 80 bytes, then one whose last field is padded
		 * with blanks (the kernel's %u never is, the parser allows it)
		 * to end exactly at size */
		FILE *f = fopen(path, "w");
		long used = 0;
		int i;

		ck_assert_ptr_nonnull(f);
		for (i = 0; used + 200 < size; i++)
			used += fprintf(f, "   7 %7d loop%-8d 1 0 8 0 0 0 0 0 0 0 0 0 0 0 0 0 %21d\n", i, i, i);
		{
			int head = snprintf(NULL, 0, "   7 %7d x 5 0 0 0 0 0 0 0 0 0 ", i);
			int w = (int)(size - used) - head - 1;
			ck_assert_int_ge(w, 1);
			fprintf(f, "   7 %7d x 5 0 0 0 0 0 0 0 0 0 %*d\n", i, w, 0);
		}
		ck_assert_int_eq(ftell(f), size);
		fclose(f);
		ck_assert_int_eq(source_diskstats_open(r, &src), 0);
		sample_clear(&s);
		ck_assert_int_eq(source_diskstats_read(src, &s), 0);
		ck_assert_uint_eq(s.ndisks, (size_t)i + 1);
		ck_assert_uint_eq(s.disks[i].st.rd_ios, 5);
		ck_assert_int_eq(s.disks[i].st.nfields, 14);
		source_diskstats_close(src);
	}
	/* no descriptor left behind by open + close */
	snprintf(fdpath, sizeof(fdpath), "/proc/%d/fd", (int)getpid());
	ck_assert_ptr_nonnull(d = opendir(fdpath));
	while (readdir(d))
		before++;
	closedir(d);
	for (int k = 0; k < 5; k++) {
		ck_assert_int_eq(source_diskstats_open(r, &src), 0);
		source_diskstats_close(src);
	}
	ck_assert_ptr_nonnull(d = opendir(fdpath));
	while (readdir(d))
		after++;
	closedir(d);
	ck_assert_int_eq(after, before);
	sample_free(&s);
	root_close(r);
	unit_rmtree(dir);
}
END_TEST

START_TEST(missing_diskstats_is_an_error)
{
	struct root *r;
	struct source_diskstats *src;

	ck_assert_int_eq(root_open(unit_fixture("diskstats"), &r), 0);
	ck_assert_int_eq(source_diskstats_open(r, &src), -ENOENT);
	root_close(r);
}
END_TEST

UNIT_SUITE(diskstats_suite)
static Suite *diskstats_suite(void)
{
	Suite *s = suite_create("source-diskstats");
	TCase *tc = tcase_create("parse");

	tcase_add_test(tc, fields14);
	tcase_add_test(tc, fields18_and_20);
	tcase_add_test(tc, malformed_lines);
	tcase_add_test(tc, parse_line_reasons);
	tcase_add_test(tc, source_reads_fixture_root);
	tcase_add_test(tc, missing_diskstats_is_an_error);
	tcase_add_test(tc, diskstats_past_one_buffer);
	tcase_add_test(tc, parse_line_bounds);
	tcase_add_test(tc, parse_text_edges);
	tcase_add_test(tc, diskstats_exact_buffer_sizes);
	suite_add_tcase(s, tc);
	return s;
}
