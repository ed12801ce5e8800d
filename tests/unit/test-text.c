/* Text from files never moves the terminal, never breaks JSON, and never
 * passes a number it is not: the shared sanitiser, JSON escaping, the
 * snapshot language (reader = writer), dates, and garbage in number files. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "columns.h"
#include "format.h"
#include "output.h"
#include "root.h"
#include "sampler.h"
#include "snapshot.h"
#include "snapshot-output.h"
#include "unit.h"

START_TEST(sanitise_replaces_controls_and_bad_utf8)
{
	char out[64];

	ck_assert_uint_eq(format_sanitize("sda", out, sizeof(out)), 0);
	ck_assert_str_eq(out, "sda");
	/* ESC, BEL, DEL, C1 CSI (U+009B as UTF-8), a lone 0xff, a lone 0x9b */
	ck_assert_uint_eq(format_sanitize("a\033[31mb\007c\177d\xc2\x9b" "e\xff" "f\x9bg", out, sizeof(out)), 6);
	ck_assert_str_eq(out, "a?[31mb?c?d?e?f?g");
	/* valid UTF-8 stays; overlong '/' (C0 AF), a surrogate, a cut sequence go */
	ck_assert_uint_eq(format_sanitize("caf\xc3\xa9 \xe2\x96\x81", out, sizeof(out)), 0);
	ck_assert_str_eq(out, "caf\xc3\xa9 \xe2\x96\x81");
	format_sanitize("\xc0\xaf|\xed\xa0\x80|\xe2\x96", out, sizeof(out));
	ck_assert_str_eq(out, "??|???|??");
	/* never past the buffer, never half a character */
	format_sanitize("\xc3\xa9\xc3\xa9\xc3\xa9", out, 4);
	ck_assert_str_eq(out, "\xc3\xa9");
	ck_assert(format_text_ok("loop0", true));
	ck_assert(!format_text_ok("", true));
	ck_assert(!format_text_ok("a b", true));
	ck_assert(format_text_ok("0-1 (managed)", false));
	ck_assert(!format_text_ok("x\033", false));
	ck_assert(!format_text_ok("x\xff", false));
	/* every byte at the edges of printable ASCII, alone and in a word */
	for (int b = 1; b < 0x80; b++) {
		char w[] = { 'a', (char)b, 'z', '\0' };
		bool ok = b >= 0x20 && b != 0x7f;

		ck_assert_msg(format_text_ok(w, false) == ok, "byte 0x%02x", b);
		ck_assert_msg(format_text_ok(w, true) == (ok && b != ' '), "byte 0x%02x in a word", b);
	}
	ck_assert(format_text_ok("caf\xc3\xa9", true));
	ck_assert(!format_text_ok("a\xc2\x9bz", false));
}
END_TEST

START_TEST(json_strings_are_always_valid)
{
	char out[128];

	format_json_string("a\"b\\c\n\033", out, sizeof(out));
	ck_assert_str_eq(out, "\"a\\\"b\\\\c\\u000a\\u001b\"");
	format_json_string("x\xff\xfey\xc2\x9b\x7f", out, sizeof(out));
	ck_assert_str_eq(out, "\"x\\ufffd\\ufffdy\\u009b\\u007f\"");
	format_json_string("caf\xc3\xa9", out, sizeof(out));
	ck_assert_str_eq(out, "\"caf\xc3\xa9\"");
	/* truncation keeps the closing quote and whole escapes */
	format_json_string("\033\033\033\033\033\033", out, 20);
	ck_assert_str_eq(out, "\"\\u001b\\u001b\"");
}
END_TEST

START_TEST(dates_out_of_range_are_na)
{
	char out[64];

	ck_assert_int_eq(format_time(0, "%Y", out, sizeof(out)), 0);
	ck_assert_int_eq(format_time(1e300, "%Y-%m-%d", out, sizeof(out)), -ERANGE);
	ck_assert_str_eq(out, "n/a");
	ck_assert_int_eq(format_time(NAN, "%Y", out, sizeof(out)), -ERANGE);
	ck_assert_int_eq(format_time(-1e300, "%Y", out, sizeof(out)), -ERANGE);
	format_uptime(NAN, out, sizeof(out));
	ck_assert_str_eq(out, "n/a");
	format_uptime(1e300, out, sizeof(out));
	ck_assert_str_eq(out, "n/a");
}
END_TEST

static const char *const good_snap =
	"blktune-snapshot 2\nhost vm\nkernel 6.18\ntime 1767225600.000000\nwindow 30\n"
	"device loop0 7:0 5\nspan 0.000000 1.000000 1 0 0\ntunable scheduler none\nend-device\nend 1\n";

static char *with(const char *from, const char *to)
{
	const char *at = strstr(good_snap, from);
	char *out = malloc(strlen(good_snap) + strlen(to) + 1);

	ck_assert_ptr_nonnull(at);
	sprintf(out, "%.*s%s%s", (int)(at - good_snap), good_snap, to, at + strlen(from));
	return out;
}

/* Whatever the reader accepts, the writer writes back byte for byte; what
 * the writer refuses, the reader refuses. */
START_TEST(snapshot_reader_and_writer_accept_one_language)
{
	static const char *const bad[][2] = {
		{ "device loop0", "device lo\033op0" }, { "device loop0", "device lo\xffop0" },
		{ "host vm", "host v\x9bm" },         { "kernel 6.18", "kernel 6.\00718" },
		{ "scheduler none", "scheduler no\033[2Jne" }, { "tunable scheduler", "tunable sched\xc2\x9buler" },
		{ "time 1767225600.000000", "time 1e300" }, { "time 1767225600.000000", "time -5" },
	};
	struct snapshot s;
	char msg[512], *text = NULL;
	size_t len = 0;
	FILE *f;

	ck_assert_int_eq(snapshot_parse(good_snap, strlen(good_snap), "g.snap", &s, msg, sizeof(msg)), 0);
	f = open_memstream(&text, &len);
	ck_assert_int_eq(snapshot_write(&s, f), 0);
	fclose(f);
	ck_assert_str_eq(text, good_snap);
	free(text);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *t = with(bad[i][0], bad[i][1]);
		struct snapshot r;
		ck_assert_msg(snapshot_parse(t, strlen(t), "b.snap", &r, msg, sizeof(msg)) == -EINVAL,
			      "reader accepted case %zu", i);
		ck_assert_msg(format_text_ok(msg, false), "message of case %zu has control bytes", i);
		free(t);
	}
	/* The writer refuses the same: a name with an ESC, a value with 0xff. */
	f = fopen("/dev/null", "w");
	strcpy(s.dev[0].name, "lo\033op0");
	ck_assert_int_eq(snapshot_write(&s, f), -EINVAL);
	strcpy(s.dev[0].name, "loop0");
	strcpy(s.dev[0].tun[0].value, "n\xffone");
	ck_assert_int_eq(snapshot_write(&s, f), -EINVAL);
	strcpy(s.dev[0].tun[0].value, "none");
	ck_assert_int_eq(snapshot_write(&s, f), 0);
	fclose(f);
	/* show of a snapshot made in memory with an impossible time: n/a */
	s.time = 1e300;
	text = NULL;
	f = open_memstream(&text, &len);
	snapshot_print_text(f, &s);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(text, "taken n/a"));
	free(text);
	snapshot_free(&s);
}
END_TEST

/* Garbage in a number file is unreadable (n/a, null), never 0; a missing
 * file stays "-". */
START_TEST(garbage_numbers_are_na_not_zero)
{
	char *dir = unit_fixture_copy("live-vm/t0"), path[4300], cell[64];
	struct sampler *sp;
	struct sample s;
	struct root *r;
	struct disk_metrics m;
	const struct disk_sample *d = NULL;

	snprintf(path, sizeof(path), "%s/sys/devices/virtual/block/loop2/queue/read_ahead_kb", dir);
	unit_write_file(path, "junk\n");
	snprintf(path, sizeof(path), "%s/sys/devices/virtual/block/loop2/queue/max_sectors_kb", dir);
	unit_write_file(path, "12x\n");
	ck_assert_int_eq(root_open(dir, &r), 0);
	ck_assert_int_eq(sampler_open(r, SAMPLER_NO_TRACE, &sp), 0);
	sample_init(&s);
	ck_assert_int_eq(sampler_take(sp, &s), 0);
	for (size_t i = 0; i < s.ndisks; i++)
		if (!strcmp(s.disks[i].st.name, "loop2"))
			d = &s.disks[i];
	ck_assert_ptr_nonnull(d);
	ck_assert_int_eq(d->info.read_ahead_kb, SAMPLE_UNREADABLE);
	ck_assert_int_eq(d->info.max_sectors_kb, SAMPLE_UNREADABLE);
	model_disk(NULL, d, 0, &m);
	column_cell(&columns[COLUMN_RA_KB], &m, cell, sizeof(cell));
	ck_assert_ptr_nonnull(strstr(cell, "n/a"));
	UNIT_INFO(&m)->read_ahead_kb = m.read_ahead_kb = SAMPLE_ABSENT;
	column_cell(&columns[COLUMN_RA_KB], &m, cell, sizeof(cell));
	ck_assert_ptr_null(strstr(cell, "n/a"));
	ck_assert_ptr_nonnull(strchr(cell, '-'));
	sample_free(&s);
	sampler_close(sp);
	root_close(r);
	unit_rmtree(dir);
	free(dir);
}
END_TEST

UNIT_SUITE(text_suite)
static Suite *text_suite(void)
{
	Suite *s = suite_create("text");
	TCase *tc = tcase_create("text");

	tcase_add_test(tc, sanitise_replaces_controls_and_bad_utf8);
	tcase_add_test(tc, json_strings_are_always_valid);
	tcase_add_test(tc, dates_out_of_range_are_na);
	tcase_add_test(tc, snapshot_reader_and_writer_accept_one_language);
	tcase_add_test(tc, garbage_numbers_are_na_not_zero);
	tcase_set_timeout(tc, 60); /* fixture copies on a busy machine */
	suite_add_tcase(s, tc);
	return s;
}
