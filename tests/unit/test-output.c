#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "columns.h"
#include "format.h"
#include "output.h"
#include "trace.h"
#include "unit.h"

START_TEST(numbers_fit_their_cells)
{
	char out[64];

	format_num(12.345, 7, 2, out, sizeof(out));
	ck_assert_str_eq(out, "  12.35");
	format_num(0.05, 7, 2, out, sizeof(out));
	ck_assert_str_eq(out, "   0.05");
	format_num(0, 7, 2, out, sizeof(out));
	ck_assert_str_eq(out, "   0.00");
	/* zero, ready-made or formatted, is what printf makes of it, in
	 * every width it fits (and the narrowest ones it does not) */
	for (int w = 1; w <= 24; w++)
		for (int p = 0; p <= 3; p++) {
			char want[64];
			size_t n;

			snprintf(want, sizeof(want), "%*.*f", w, p, 0.0);
			if ((int)strlen(want) > w)
				continue;
			n = format_num(0.0, w, p, out, sizeof(out));
			ck_assert_msg(!strcmp(out, want) && n == strlen(want), "0 in %d.%d: '%s'", w, p, out);
			format_num(-0.0, w, p, out, sizeof(out));
			ck_assert_msg(!strcmp(out, want), "-0 in %d.%d: '%s'", w, p, out);
		}
	format_num(0, 3, 2, out, sizeof(out)); /* no room for 0.00: 0.0 */
	ck_assert_str_eq(out, "0.0");
	format_num(0, 7, 2, out, 5); /* no room in out: cut, never overrun */
	ck_assert_uint_lt(strlen(out), 5);
	format_num(-1.5, 6, 1, out, sizeof(out));
	ck_assert_str_eq(out, "  -1.5");
	format_num(-0.001, 6, 2, out, sizeof(out));
	ck_assert_str_eq(out, "  0.00"); /* never "-0.00" */
	format_num(99999.96, 7, 1, out, sizeof(out));
	ck_assert_str_eq(out, " 100000");
	format_num(4096, 6, 0, out, sizeof(out));
	ck_assert_str_eq(out, "  4096");
	format_num(123456.7, 7, 1, out, sizeof(out));
	ck_assert_str_eq(out, " 123457");
	format_num(12345678.0, 7, 1, out, sizeof(out));
	ck_assert_str_eq(out, " 12346k");
	format_num(1.5e12, 6, 1, out, sizeof(out));
	ck_assert_int_le((int)strlen(out), 6);
	ck_assert(strchr(out, 'G') || strchr(out, 'T'));
	format_kb(4096, out, sizeof(out));
	ck_assert_str_eq(out, "4M");
	format_kb(1536, out, sizeof(out));
	ck_assert_str_eq(out, "1.5M");
	format_uptime(90061, out, sizeof(out));
	ck_assert_str_eq(out, "1d 01:01");
	format_json_string("a\"b\\c\n", out, sizeof(out));
	ck_assert_str_eq(out, "\"a\\\"b\\\\c\\u000a\"");
}
END_TEST

/* The edges format_num's paths meet at: a cell exactly as wide as the
 * buffer (cut, never overrun: the fast paths need width < len), the bytes
 * after the cell untouched, and |v| >= 1e15, which fixed() leaves to
 * printf with fewer decimals before any k/M suffix. */
START_TEST(number_cells_at_their_edges)
{
	char out[64], buf[16];
	size_t n;

	/* width == len: printf's cut, one byte short, not the whole cell */
	n = format_num(12.5, 4, 1, out, 4);
	ck_assert_str_eq(out, "12.");
	ck_assert_uint_eq(n, 3);
	n = format_num(0, 4, 1, out, 4); /* the ready-made zero too */
	ck_assert_str_eq(out, " 0.");
	ck_assert_uint_eq(n, 3);
	n = format_num(0, 4, 1, out, 5); /* one byte more: the whole cell */
	ck_assert_str_eq(out, " 0.0");
	ck_assert_uint_eq(n, 4);
	/* the cell and its NUL, nothing after */
	memset(buf, 'x', sizeof(buf));
	n = format_num(1.5, 7, 1, buf, 8);
	ck_assert_str_eq(buf, "    1.5");
	ck_assert_uint_eq(n, 7);
	for (size_t i = 8; i < sizeof(buf); i++)
		ck_assert_msg(buf[i] == 'x', "byte %zu after the cell written", i);
	memset(buf, 'x', sizeof(buf)); /* the ready-made zero too */
	n = format_num(0, 7, 1, buf, sizeof(buf));
	ck_assert_str_eq(buf, "    0.0");
	ck_assert_uint_eq(n, 7);
	for (size_t i = 8; i < sizeof(buf); i++)
		ck_assert_msg(buf[i] == 'x', "byte %zu after the zero written", i);
	/* 1e15 and beyond: printf's digits, the decimals dropped to fit,
	 * before a suffix */
	n = format_num(1e15, 16, 1, out, sizeof(out));
	ck_assert_str_eq(out, "1000000000000000");
	ck_assert_uint_eq(n, 16);
	n = format_num(-1e15, 17, 0, out, sizeof(out));
	ck_assert_str_eq(out, "-1000000000000000");
	ck_assert_uint_eq(n, 17);
	format_num(1e15, 18, 1, out, sizeof(out));
	ck_assert_str_eq(out, "1000000000000000.0");
	format_num(1e15, 15, 1, out, sizeof(out));
	ck_assert_str_eq(out, " 1000000000000k");
	/* just below 1e15, fixed() writes the same digits */
	format_num(999999999999999.0, 15, 1, out, sizeof(out));
	ck_assert_str_eq(out, "999999999999999");
}
END_TEST

/* format_pad: a UTF-8 continuation byte takes no column, so the printf
 * width grows by one for each. */
START_TEST(pad_counts_continuation_bytes)
{
	ck_assert_int_eq(format_pad("abc", 8), 8);
	ck_assert_int_eq(format_pad("", 8), 8);
	ck_assert_int_eq(format_pad("sda\xc3\xa9", 8), 9);       /* é: 2 bytes */
	ck_assert_int_eq(format_pad("\xe2\x96\x88\xc2\xb5s", 9), 12); /* █µs */
}
END_TEST

/* format_kb changes unit at 1024 exactly, and where one decimal rounds to
 * 1024.0: that is the next unit's 1.0 (memory and sizes are any number of
 * KiB: 1048575K is 1023.999M). */
START_TEST(kb_units_at_1024)
{
	char out[32];

	format_kb(1023, out, sizeof(out));
	ck_assert_str_eq(out, "1023K");
	format_kb(1024, out, sizeof(out));
	ck_assert_str_eq(out, "1M");
	format_kb(1023.5, out, sizeof(out));
	ck_assert_str_eq(out, "1023.5K");
	format_kb(1023.94, out, sizeof(out));
	ck_assert_str_eq(out, "1023.9K");
	format_kb(1023.96, out, sizeof(out));
	ck_assert_str_eq(out, "1.0M");
	format_kb(1048575, out, sizeof(out));
	ck_assert_str_eq(out, "1.0G");
	format_kb(1048576, out, sizeof(out));
	ck_assert_str_eq(out, "1G");
	format_kb(0.5, out, sizeof(out));
	ck_assert_str_eq(out, "0.5K");
	/* no unit after P: 1024P and 1024.0P stay */
	format_kb(1125899906842624.0, out, sizeof(out)); /* 1024^5 KiB */
	ck_assert_str_eq(out, "1024P");
	format_kb(1099511627776.0 * 1023.99, out, sizeof(out));
	ck_assert_str_eq(out, "1024.0P");
}
END_TEST

/* A latency percentile changes to ms where "%.0fus" would write 1000us. */
START_TEST(latency_units_at_1ms)
{
	char out[32];

	format_latency(NAN, out, sizeof(out));
	ck_assert_str_eq(out, "-");
	format_latency(87, out, sizeof(out));
	ck_assert_str_eq(out, "87us");
	format_latency(999.4, out, sizeof(out));
	ck_assert_str_eq(out, "999us");
	format_latency(999.5, out, sizeof(out));
	ck_assert_str_eq(out, "1.0ms");
	format_latency(1000, out, sizeof(out));
	ck_assert_str_eq(out, "1.0ms");
	format_latency(1550, out, sizeof(out));
	ck_assert_str_eq(out, "1.6ms");
	format_latency(1949, out, sizeof(out)); /* ms are 1000us, not 999 */
	ck_assert_str_eq(out, "1.9ms");
	format_latency(123456, out, sizeof(out));
	ck_assert_str_eq(out, "123.5ms");
}
END_TEST

/* Bucket labels: each unit's edge, the open last bucket written as the
 * bound before it is, and every bucket of the real tables without an
 * exponent and within view-trace's 9 columns. */
START_TEST(bucket_labels_at_unit_edges)
{
	static const struct {
		uint64_t le, prev;
		bool bytes, utf8;
		const char *want;
	} cases[] = {
		{ 512, 0, true, false, "<=512" },
		{ 1023, 512, true, false, "<=1023" },
		{ 1024, 512, true, false, "<=1K" },
		{ 1536, 1024, true, false, "<=1.5K" },
		{ 4096, 2048, true, false, "<=4K" },
		{ 4194304, 2097152, true, false, "<=4M" },
		{ 0, 4194304, true, false, ">4M" },
		{ 0, 512, true, false, ">512" },
		{ 1, 0, false, true, "<=1\u00b5s" },
		{ 999, 512, false, false, "<=999us" },
		{ 1000, 999, false, false, "<=1ms" },
		{ 1024, 512, false, false, "<=1.02ms" },
		{ 524288, 262144, false, false, "<=524ms" },
		{ 999499, 524288, false, false, "<=999ms" },
		{ 999500, 524288, false, false, "<=1s" },
		{ 1000000, 524288, false, false, "<=1s" },
		{ 1048576, 524288, false, false, "<=1.05s" },
		{ 4194304, 2097152, false, false, "<=4.19s" },
		{ 0, 8388608, false, false, ">8.39s" },
		{ 0, 1000000, false, false, ">1s" },
		{ 999499999, 0, false, false, "<=999s" },
		{ 999500000, 0, false, false, "<=1000s" },
		{ 1073741824, 536870912, false, false, "<=1074s" },
		{ 0, 1073741824, false, false, ">1074s" },
	};
	char out[32];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		format_bucket(cases[i].le, cases[i].prev, cases[i].bytes, cases[i].utf8, out, sizeof(out));
		ck_assert_msg(!strcmp(out, cases[i].want), "bucket %llu after %llu (%s): \"%s\" not \"%s\"",
			      (unsigned long long)cases[i].le, (unsigned long long)cases[i].prev,
			      cases[i].bytes ? "bytes" : "us", out, cases[i].want);
	}
	for (unsigned i = 0; i < TRACE_LAT_BUCKETS; i++) {
		format_bucket(trace_lat_bucket_le_us(i), i ? trace_lat_bucket_le_us(i - 1) : 0, false, false, out,
			      sizeof(out));
		ck_assert_msg(!strchr(out, 'e') && strlen(out) <= 9, "latency bucket %u: \"%s\"", i, out);
	}
	for (unsigned i = 0; i < TRACE_SIZE_BUCKETS; i++) {
		format_bucket(trace_size_bucket_le(i), i ? trace_size_bucket_le(i - 1) : 0, true, false, out,
			      sizeof(out));
		ck_assert_msg(!strchr(out, 'e') && strlen(out) <= 9, "size bucket %u: \"%s\"", i, out);
	}
}
END_TEST

START_TEST(sparkline_scales_to_max)
{
	float v[4] = { 0, 1, 4, 8 };
	char out[64];

	format_sparkline(v, 4, 10, false, out, sizeof(out));
	ck_assert_str_eq(out, " ▁▄█");
	format_sparkline(v, 4, 10, true, out, sizeof(out));
	ck_assert_str_eq(out, " .-#");
}
END_TEST

/* The window is the last width points; the scale is their maximum, whatever
 * lies before them or past n; any activity shows; nothing is drawn past len. */
START_TEST(sparkline_at_its_edges)
{
	float v[7] = { 900, 900, 0, 0.01f, 1, 2, 500 };
	float unit[3] = { 0, 0.5f, 1 };
	float zero[3] = { 0, 0, 0 };
	float odd[4] = { NAN, -4, INFINITY, 1 };
	char out[64];

	format_sparkline(v, 6, 4, true, out, sizeof(out)); /* 0 .01 1 2; not 900, not v[6] */
	ck_assert_str_eq(out, " .-#");
	format_sparkline(v + 2, 4, 4, true, out, sizeof(out)); /* n == width: all of it */
	ck_assert_str_eq(out, " .-#");
	format_sparkline(unit, 3, 3, false, out, sizeof(out)); /* a maximum of 1 */
	ck_assert_str_eq(out, " ▄█");
	format_sparkline(v + 2, 3, 3, true, out, sizeof(out)); /* 0 .01 1: the scale is 1 */
	ck_assert_str_eq(out, " .#");
	{
		float small[3] = { 0, 0.25f, 0.5f }; /* a maximum below 1 is the scale */
		format_sparkline(small, 3, 3, false, out, sizeof(out));
		ck_assert_str_eq(out, " ▄█");
	}
	format_sparkline(zero, 3, 3, false, out, sizeof(out));
	ck_assert_str_eq(out, "   ");
	format_sparkline(odd, 4, 4, true, out, sizeof(out));
	ck_assert_int_eq((int)strlen(out), 4);
	ck_assert_int_eq(out[0], ' ');
	ck_assert_int_eq(out[1], ' ');
	format_sparkline(odd + 3, 1, 4, true, out, sizeof(out));
	ck_assert_str_eq(out, "#");

	/* " ▄█" and its NUL need 8 bytes; "▄█" and its NUL 7. */
	memset(out, 'x', sizeof(out));
	format_sparkline(unit, 3, 3, false, out, 8);
	ck_assert_str_eq(out, " ▄█");
	memset(out, 'x', sizeof(out));
	format_sparkline(unit + 1, 2, 3, false, out, 7);
	ck_assert_str_eq(out, "▄█");
	memset(out, 'x', sizeof(out));
	format_sparkline(unit + 1, 2, 3, false, out, 6);
	ck_assert_str_eq(out, "▄");
	ck_assert_int_eq(out[6], 'x');
	format_sparkline(unit, 3, 3, false, out, 1);
	ck_assert_str_eq(out, "");
}
END_TEST

/* Uptime at the edges of each unit, and of what it shows at all. */
START_TEST(uptime_at_its_edges)
{
	static const struct {
		double secs;
		const char *want;
	} cases[] = {
		{ 0, "00:00:00" },	     { 0.999, "00:00:00" },  { 59, "00:00:59" },
		{ 60, "00:01:00" },	     { 3599, "00:59:59" },   { 3600, "01:00:00" },
		{ 86399, "23:59:59" },	     { 86400, "1d 00:00" },  { 89999, "1d 00:59" },
		{ 90000, "1d 01:00" },	     { 90061, "1d 01:01" },  { 99999999999.0, "1157407d 09:46" },
		{ 1e11, "n/a" },	     { -0.5, "n/a" },	     { -1, "n/a" },
		{ -INFINITY, "n/a" },
	};
	char out[64];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		format_uptime(cases[i].secs, out, sizeof(out));
		ck_assert_msg(!strcmp(out, cases[i].want), "%.3f s: \"%s\", not \"%s\"", cases[i].secs, out,
			      cases[i].want);
	}
}
END_TEST

/* The JSON keys are iostat's, so iostat JSON parsers read blktune's. */
START_TEST(json_uses_iostat_keys)
{
	static const char *const keys[] = { "disk_device", "r/s", "w/s", "d/s", "f/s", "rkB/s", "wkB/s", "dkB/s",
					    "rrqm/s", "wrqm/s", "drqm/s", "rrqm", "wrqm", "drqm", "r_await",
					    "w_await", "d_await", "f_await", "rareq-sz", "wareq-sz", "dareq-sz",
					    "aqu-sz", "util", "in_flight", "read_ahead_kb", "max_sectors_kb",
					    "scheduler" };
	struct sample s;
	struct disk_metrics m;
	struct cpu_metrics cpu = { .valid = true, .user = 1, .idle = 99 };
	struct sampler_host host = { "host\"x", "6.18" };
	size_t rows[1] = { 0 };
	struct output_report r = { .cur = &s, .cpu = &cpu, .disks = &m, .rows = rows, .nrows = 1, .interval = 1.0, .host = &host };
	char *buf = NULL, key[64];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	sample_init(&s);
	memset(&m, 0, sizeof(m));
	unit_row_info(&m);
	strcpy(m.name, "loop3");
	m.state = DISK_OK;
	m.r_s = 4096;
	m.rareq_sz = 64;
	UNIT_INFO(&m)->has_queue = true;
	UNIT_INFO(&m)->read_ahead_kb = 128;
	UNIT_INFO(&m)->max_sectors_kb = -1;
	strcpy(UNIT_INFO(&m)->scheduler, "none");
	ck_assert_int_eq(output_json(f, &r), 0);
	fclose(f);
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		snprintf(key, sizeof(key), "\"%s\": ", keys[i]);
		ck_assert_msg(strstr(buf, key) != NULL, "missing %s in %s", key, buf);
	}
	ck_assert(strstr(buf, "\"r/s\": 4096.00") != NULL);
	ck_assert(strstr(buf, "\"rareq-sz\": 64.00") != NULL);
	ck_assert(strstr(buf, "\"max_sectors_kb\": null") != NULL);
	ck_assert(strstr(buf, "\"scheduler\": \"none\"") != NULL);
	ck_assert(strstr(buf, "\"host\": \"host\\\"x\"") != NULL);
	ck_assert(strstr(buf, "\"interval_s\": 1.000000") != NULL);
	ck_assert_int_eq(buf[len - 1], '\n');
	ck_assert_ptr_null(memchr(buf, '\n', len - 1)); /* one line */
	ck_assert_ptr_null(strstr(buf, "trace_loss")); /* not traced: no member */
	free(buf);
	/* a queue with no scheduler file: null, not "-" */
	strcpy(UNIT_INFO(&m)->scheduler, "-");
	buf = NULL;
	f = open_memstream(&buf, &len);
	ck_assert_int_eq(output_json(f, &r), 0);
	fclose(f);
	ck_assert_msg(strstr(buf, "\"scheduler\": null") != NULL, "%s", buf);
	free(buf);
}
END_TEST

/* A traced report says what the tracer lost: the totals and this
 * interval's growth, null where there is no traced interval before. */
START_TEST(json_trace_loss)
{
	struct sample s;
	struct cpu_metrics cpu = { .valid = false };
	struct sampler_host host = { "h", "6.18" };
	struct trace_loss l = { .since_prev = true, .skipped = 19, .skipped_new = 12, .map_full = 3, .map_full_new = 1 };
	struct output_report r = { .cur = &s, .cpu = &cpu, .interval = 1.0, .host = &host, .trace_loss = &l };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	sample_init(&s);
	ck_assert_int_eq(output_json(f, &r), 0);
	l.since_prev = false;
	ck_assert_int_eq(output_json(f, &r), 0);
	fclose(f);
	ck_assert_msg(strstr(buf, "\"disk\": [], \"trace_loss\": {\"runs_skipped\": 19, \"runs_skipped_new\": 12, "
				  "\"map_full\": 3, \"map_full_new\": 1}}\n") != NULL, "%s", buf);
	ck_assert_msg(strstr(buf, "\"trace_loss\": {\"runs_skipped\": 19, \"runs_skipped_new\": null, "
				  "\"map_full\": 3, \"map_full_new\": null}}\n") != NULL, "%s", buf);
	free(buf);
	/* untraced: why, as a JSON string (a loader's message may hold quotes,
	 * a newline or bytes that are not UTF-8) */
	r.trace_loss = NULL;
	r.trace_off = "BPF helper said \"no\"\n\xff";
	buf = NULL;
	f = open_memstream(&buf, &len);
	ck_assert_int_eq(output_json(f, &r), 0);
	fclose(f);
	ck_assert_msg(strstr(buf, "\"disk\": [], \"trace_off\": \"BPF helper said \\\"no\\\"\\u000a\\ufffd\"}\n") != NULL,
		      "%s", buf);
	free(buf);
	sample_free(&s);
}
END_TEST

START_TEST(text_columns_align)
{
	struct sample s;
	struct disk_metrics m[2];
	struct cpu_metrics cpu = { 0 };
	struct sampler_host host = { "h", "k" };
	size_t rows[2] = { 0, 1 };
	struct output_report r = { .cur = &s, .cpu = &cpu, .disks = m, .rows = rows, .nrows = 2, .interval = 1.0, .host = &host };
	char *buf = NULL, *l1, *l2, *l3;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	sample_init(&s);
	memset(m, 0, sizeof(m));
	unit_row_info(&m[0]);
	unit_row_info(&m[1]);
	strcpy(m[0].name, "sda");
	strcpy(m[1].name, "nvme0n1");
	m[0].state = m[1].state = DISK_OK;
	m[0].r_s = 1;
	m[1].r_s = 123456;
	ck_assert_int_eq(output_text(f, &r), 0);
	fclose(f);
	l1 = strchr(buf, '\n') + 1;
	l2 = strchr(l1, '\n') + 1;
	l3 = strchr(l2, '\n') + 1;
	ck_assert(strncmp(l1, "DEVICE", 6) == 0);
	/* every line of the table has the same width */
	ck_assert_int_eq(strchr(l1, '\n') - l1, strchr(l2, '\n') - l2);
	ck_assert_int_eq(strchr(l2, '\n') - l2, strchr(l3, '\n') - l3);
	free(buf);
}
END_TEST

START_TEST(column_lookup)
{
	ck_assert_int_eq(column_find("r/s"), COLUMN_R_S);
	ck_assert_int_eq(column_find("util"), COLUMN_UTIL);
	ck_assert_int_eq(column_find("%UTIL"), COLUMN_UTIL);
	ck_assert_int_eq(column_find("nope"), -1);
	for (int i = 0; i < COLUMN_COUNT; i++) {
		ck_assert_ptr_nonnull(columns[i].header);
		ck_assert_ptr_nonnull(columns[i].formula);
		ck_assert_int_gt(columns[i].width, 0);
	}
}
END_TEST

/* The padding helpers are printf's "%*s" and "%-*.*s": compared byte for
 * byte with snprintf at every width, string length and buffer size around
 * the edges (cut to len - 1, empty strings, zero and negative widths). */
START_TEST(padding_is_printfs)
{
	static const char *const strs[] = { "", "-", "n/a", "reset", "mq-deadline", "loop1023", "sda\xc3\xa9" };
	char want[32], got[32];

	for (size_t k = 0; k < sizeof(strs) / sizeof(strs[0]); k++)
		for (int w = -2; w <= 14; w++)
			for (size_t len = 1; len <= sizeof(got); len++) {
				memset(got, 'x', sizeof(got));
				snprintf(want, len, "%*s", w, strs[k]);
				format_right(got, len, w, strs[k]);
				ck_assert_msg(!strcmp(got, want), "right \"%s\" w %d len %zu: \"%s\" not \"%s\"", strs[k],
					      w, len, got, want);
				if (w < 0)
					continue;
				memset(got, 'x', sizeof(got));
				snprintf(want, len, "%-*.*s", w, w, strs[k]);
				format_left(got, len, w, strs[k]);
				ck_assert_msg(!strcmp(got, want), "left \"%s\" w %d len %zu: \"%s\" not \"%s\"", strs[k],
					      w, len, got, want);
			}
	/* nothing written to a buffer of no size */
	got[0] = 'x';
	format_right(got, 0, 5, "abc");
	format_left(got, 0, 5, "abc");
	ck_assert_int_eq(got[0], 'x');
}
END_TEST

UNIT_SUITE(output_suite)
static Suite *output_suite(void)
{
	Suite *s = suite_create("output");
	TCase *tc = tcase_create("output");

	tcase_add_test(tc, numbers_fit_their_cells);
	tcase_add_test(tc, padding_is_printfs);
	tcase_add_test(tc, number_cells_at_their_edges);
	tcase_add_test(tc, pad_counts_continuation_bytes);
	tcase_add_test(tc, kb_units_at_1024);
	tcase_add_test(tc, latency_units_at_1ms);
	tcase_add_test(tc, bucket_labels_at_unit_edges);
	tcase_add_test(tc, sparkline_scales_to_max);
	tcase_add_test(tc, sparkline_at_its_edges);
	tcase_add_test(tc, uptime_at_its_edges);
	tcase_add_test(tc, json_uses_iostat_keys);
	tcase_add_test(tc, json_trace_loss);
	tcase_add_test(tc, text_columns_align);
	tcase_add_test(tc, column_lookup);
	suite_add_tcase(s, tc);
	return s;
}
