/* sweep: the exact-window model, fio parsers, --metric, the CSV
 * and info round trips, plain number formatting, and the report's
 * statistics checked against hand computations on fixed numbers. */
#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "crc32c.h"
#include "format.h"
#include "plot.h"
#include "sweep-csv.h"
#include "sweep-figure.h"
#include "sweep-info.h"
#include "sweep-report.h"
#include "sweep-stats.h"
#include "sweep-window.h"
#include "sweep-workload.h"
#include "unit.h"

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = calloc(1, 1 << 20);
	size_t n;

	ck_assert_ptr_nonnull(f);
	n = fread(buf, 1, (1 << 20) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static struct disk_stat ds(unsigned long long rd, unsigned long long wr, unsigned long long inflight,
			   unsigned long long ticks)
{
	struct disk_stat s;

	memset(&s, 0, sizeof(s));
	s.rd_ios = rd;
	s.rd_sectors = rd * 8;
	s.wr_ios = wr;
	s.wr_sectors = wr * 16;
	s.in_flight = inflight;
	s.io_ticks = ticks;
	return s;
}

START_TEST(test_window_trims_idle_head_and_tail)
{
	struct sweep_window w;
	struct sweep_window_result r;
	struct disk_stat s;

	/* start at 10.000; idle polls until 10.300; I/O from (10.300, 10.305];
	 * completions until 12.300; idle tail to the exit at 12.500 */
	s = ds(100, 50, 0, 1000);
	sweep_window_start(&w, 10.000, &s);
	for (int k = 1; k <= 60; k++)
		sweep_window_poll(&w, 10.000 + k * 0.005, &s);
	for (int k = 61; k <= 460; k++) {
		struct disk_stat b = ds(100 + (unsigned)k, 50 + (unsigned)k / 2, 1, 1000 + (unsigned)k);
		sweep_window_poll(&w, 10.000 + k * 0.005, &b);
		s = b;
	}
	s.in_flight = 0;
	for (int k = 461; k <= 499; k++)
		sweep_window_poll(&w, 10.000 + k * 0.005, &s);
	sweep_window_end(&w, 12.500, &s);
	sweep_window_result(&w, &r);
	ck_assert_double_eq_tol(r.window, 2.5, 1e-9);
	ck_assert_double_eq_tol(r.head, 0.300, 1e-9);
	/* in flight at 12.300, so busy through the 12.305 poll */
	ck_assert_double_eq_tol(r.tail, 0.195, 1e-9);
	ck_assert_double_eq_tol(r.busy, 2.005, 1e-9);
	ck_assert_double_eq_tol(r.reads, 460 - 0, 1e-9);
	ck_assert_double_eq_tol(r.writes, 230, 1e-9);
	ck_assert_double_eq_tol(r.read_bytes, 460.0 * 8 * 512, 1e-9);
	ck_assert_double_eq_tol(r.write_bytes, 230.0 * 16 * 512, 1e-9);
	ck_assert_double_eq_tol(r.idle_pct, 100 * 0.495 / 2.5, 1e-9);
	ck_assert_uint_eq(w.polls, 500); /* 499 polls and the end's */
}
END_TEST

/* A request in flight through a poll with no counter moving (one slow
 * request) is I/O time, not idle. */
START_TEST(test_window_one_request_in_flight)
{
	struct sweep_window w;
	struct sweep_window_result r;
	struct disk_stat s = ds(7, 7, 0, 9), f = s;

	f.in_flight = 1;
	sweep_window_start(&w, 1, &s);
	sweep_window_poll(&w, 1.5, &f); /* in flight at the end of (1, 1.5] */
	sweep_window_poll(&w, 2.0, &f); /* and at both ends of (1.5, 2] */
	sweep_window_end(&w, 3, &s);    /* in flight at the start of (2, 3] */
	sweep_window_result(&w, &r);
	ck_assert_double_eq_tol(r.idle_pct, 0, 1e-12);
	ck_assert_double_eq_tol(r.head, 0, 1e-12);
	ck_assert_double_eq_tol(r.busy, 2, 1e-12);
	ck_assert_double_eq_tol(r.tail, 0, 1e-12);
}
END_TEST

START_TEST(test_window_no_io)
{
	struct sweep_window w;
	struct sweep_window_result r;
	struct disk_stat s = ds(7, 7, 0, 9);

	sweep_window_start(&w, 1, &s);
	sweep_window_poll(&w, 1.5, &s);
	sweep_window_end(&w, 2, &s);
	sweep_window_result(&w, &r);
	ck_assert_double_eq(r.busy, 0);
	ck_assert_double_eq_tol(r.head, 1, 1e-12);
	ck_assert_double_eq(r.tail, 0);
	ck_assert_double_eq_tol(r.idle_pct, 100, 1e-9);
	ck_assert_uint_eq(w.polls, 2);
	/* a window of no time at all: 0 % idle, not 0/0 */
	sweep_window_start(&w, 5, &s);
	sweep_window_end(&w, 5, &s);
	sweep_window_result(&w, &r);
	ck_assert_double_eq(r.window, 0);
	ck_assert_double_eq(r.idle_pct, 0);
	/* a clock that steps back counts no negative time */
	sweep_window_start(&w, 5, &s);
	sweep_window_poll(&w, 4, &s);
	sweep_window_end(&w, 6, &s);
	sweep_window_result(&w, &r);
	ck_assert_double_eq_tol(r.window, 1, 1e-12);
	ck_assert_double_eq_tol(r.idle_pct, 100, 1e-9);
}
END_TEST

START_TEST(test_window_parse_stat)
{
	/* a real /sys/block/loop0/stat line (17 fields) */
	const char *line = "    1234        5    98765      432     2222        0    44444      555        3      777     1000"
			   "        0        0        0        0       11       22\n";
	struct disk_stat s;

	ck_assert_int_eq(sweep_window_parse_stat(line, &s), 0);
	ck_assert_uint_eq(s.rd_ios, 1234);
	ck_assert_uint_eq(s.rd_sectors, 98765);
	ck_assert_uint_eq(s.wr_ios, 2222);
	ck_assert_uint_eq(s.wr_sectors, 44444);
	ck_assert_uint_eq(s.in_flight, 3);
	ck_assert_uint_eq(s.io_ticks, 777);
	ck_assert_uint_eq(s.fl_ios, 11);
	ck_assert_int_lt(sweep_window_parse_stat("12 x\n", &s), 0);
	/* a line that fills the 512-byte buffer exactly is refused, not cut */
	{
		char big[600];

		/* "0 0 x " + text + NUL = 512 bytes: fits */
		snprintf(big, sizeof(big), "%s%*s", line, (int)(511 - 6 - strlen(line)), "");
		ck_assert_uint_eq(strlen(big), 505);
		ck_assert_int_eq(sweep_window_parse_stat(big, &s), 0);
		ck_assert_uint_eq(s.fl_ios, 11);
		/* one byte more: 513, refused */
		snprintf(big, sizeof(big), "%s%*s", line, (int)(512 - 6 - strlen(line)), "");
		ck_assert_int_eq(sweep_window_parse_stat(big, &s), -EINVAL);
	}
}
END_TEST

START_TEST(test_fio_json)
{
	/* expected numbers read from the files with python's json module */
	char *t = slurp(unit_fixture("sweep/fio-read.json"));
	struct sweep_run r;

	sweep_run_init(&r);
	ck_assert_int_eq(sweep_workload_fio_parse(t, &r), 0);
	ck_assert_double_eq_tol(r.fig[SF_FIO_READ_IOPS], 1618.690655, 1e-6);
	ck_assert_double_eq_tol(r.fig[SF_FIO_READ_MB_S], 1697320171 / 1048576.0, 1e-6);
	ck_assert_double_eq_tol(r.fig[SF_FIO_READ_P50], 1433.6, 1e-9);
	ck_assert_double_eq_tol(r.fig[SF_FIO_READ_P99], 10158.08, 1e-9);
	ck_assert(isnan(r.fig[SF_FIO_WRITE_MB_S])); /* no writes: not measured */
	ck_assert_double_eq_tol(r.fig[SF_FIO_USR_CPU], 0.75, 1e-9);
	ck_assert_double_eq_tol(r.fig[SF_FIO_SYS_CPU], 17.8, 1e-9);
	free(t);
	/* two jobs, a note before the JSON, one direction each */
	t = slurp(unit_fixture("sweep/fio-two-jobs.json"));
	sweep_run_init(&r);
	ck_assert_int_eq(sweep_workload_fio_parse(t, &r), 0);
	ck_assert_double_eq_tol(r.fig[SF_FIO_READ_IOPS], 20408.163265, 1e-6);
	ck_assert_double_eq_tol(r.fig[SF_FIO_WRITE_IOPS], 71428.571429, 1e-6);
	ck_assert_double_eq_tol(r.fig[SF_FIO_WRITE_MB_S], 585142857 / 1048576.0, 1e-6);
	ck_assert_double_eq_tol(r.fig[SF_FIO_READ_P99], 440.32, 1e-9);
	ck_assert_double_eq_tol(r.fig[SF_FIO_WRITE_P50], 4.768, 1e-9);
	ck_assert_double_eq_tol(r.fig[SF_FIO_SYS_CPU], 23.71134 + 15.384615, 1e-9);
	free(t);
	sweep_run_init(&r);
	ck_assert_int_lt(sweep_workload_fio_parse("fio: no such file\n", &r), 0);
	ck_assert_int_lt(sweep_workload_fio_parse("{\"jobs\": [ {\"read\": ", &r), 0);
	ck_assert_int_lt(sweep_workload_fio_parse("{\"jobs\": [ {\"read\": {\"iops\": 1e400}} ]}", &r), 0);
}
END_TEST

START_TEST(test_fio_command)
{
	char *out = NULL, sh[256];
	FILE *p;

	ck_assert(sweep_workload_is_fio("fio job.fio"));
	ck_assert(sweep_workload_is_fio("  /usr/bin/fio --name=x --rw=read"));
	ck_assert(!sweep_workload_is_fio("fio job.fio; echo done"));
	ck_assert(!sweep_workload_is_fio("fiola x"));
	ck_assert(sweep_workload_is_fio("DIR=/mnt/ra DEV=/dev/loop0 fio job.fio"));
	ck_assert(!sweep_workload_is_fio("DIR=/x"));
	ck_assert(!sweep_workload_is_fio("1X=/x fio job.fio"));
	ck_assert(!sweep_workload_is_fio("DIR=$HOME fio job.fio"));
	ck_assert_int_eq(sweep_workload_fio_cmd("fio a.fio", "/d/r1.fio.json", &out), 0);
	ck_assert_str_eq(out, "fio a.fio --output-format=json --output='/d/r1.fio.json'");
	free(out);
	/* a quote in the directory is quoted for sh, not a reason to drop
	 * the JSON options (and with them fio's figures) */
	ck_assert_int_eq(sweep_workload_fio_cmd("printf '%s\\n'", "/d/it's/r1.fio.json", &out), 0);
	ck_assert_str_eq(out, "printf '%s\\n' --output-format=json --output='/d/it'\\''s/r1.fio.json'");
	p = popen(out, "r");
	ck_assert_ptr_nonnull(p);
	ck_assert_ptr_nonnull(fgets(sh, sizeof(sh), p));
	ck_assert_str_eq(sh, "--output-format=json\n");
	ck_assert_ptr_nonnull(fgets(sh, sizeof(sh), p));
	ck_assert_str_eq(sh, "--output=/d/it's/r1.fio.json\n");
	ck_assert_int_eq(pclose(p), 0);
	free(out);
}
END_TEST

/* Which way each figure is better, from what it measures rather than from
 * the table: throughput (MB/s of any kind, and fio's IOPS) and the
 * readahead hit ratio higher; latency (await, latency us figures) lower;
 * counts, sizes, the device's own IOPS (larger requests mean fewer: issue
 * 9), queue size, utilisation, the trace gap and every CPU figure (the man
 * page gives CPU no direction: a faster setting may use more) neither. A
 * figure judged the wrong way prints "better" for a slower setting; one
 * judged that should not be prints a verdict nobody asked for. */
static int good_by_name(const char *n)
{
	size_t l = strlen(n);
	bool fio = !strncmp(n, "fio_", 4);
#define ENDS(s) (l >= strlen(s) && !strcmp(n + l - strlen(s), s))
	if (!strcmp(n, "mb_s") || ENDS("_mb_s") || !strcmp(n, "hit_pct") || (fio && ENDS("_iops")))
		return +1;
	if (strstr(n, "cpu"))
		return 0;
	if (ENDS("_await") || ENDS("_us"))
		return -1;
#undef ENDS
	return 0;
}

START_TEST(test_figure_directions)
{
	int judged = 0;

	for (int f = 0; f < SF_COUNT; f++) {
		ck_assert_msg(sweep_figure_good(f) == good_by_name(sweep_figures[f].name), "%s: good %d, want %d",
			      sweep_figures[f].name, sweep_figure_good(f), good_by_name(sweep_figures[f].name));
		judged += sweep_figure_good(f) != 0;
	}
	/* the rules above are not vacuous: both directions occur */
	ck_assert_int_ge(judged, 10);
	ck_assert_int_eq(sweep_figure_good(-1), 0);
	ck_assert_int_eq(sweep_figure_good(SF_COUNT), 0);
}
END_TEST

/* Figures by name: the first and last of the table, metrics by their
 * place, and a name that only looks like "metric:NAME"; the list every
 * --plot error prints, whole. */
START_TEST(test_figure_lookup_and_list)
{
	const struct sweep_metric_opt metrics[2] = { { "a", "x" }, { "b", "y" } };
	char *text = NULL;
	size_t len = 0, commas = 0;
	FILE *f;

	ck_assert_int_eq(sweep_figure_lookup("reads", metrics, 2), SF_READS);
	ck_assert_int_eq(SF_READS, 0);
	ck_assert_int_eq(sweep_figure_lookup("fio_sys_cpu", metrics, 2), SF_FIO_SYS_CPU);
	ck_assert_int_eq(sweep_figure_lookup("metric:a", metrics, 2), SF_COUNT);
	ck_assert_int_eq(sweep_figure_lookup("metric:b", metrics, 2), SF_COUNT + 1);
	ck_assert_int_eq(sweep_figure_lookup("metric_a", metrics, 2), -ENOENT);
	ck_assert_int_eq(sweep_figure_lookup("metric:c", metrics, 2), -ENOENT);
	ck_assert_int_eq(sweep_figure_lookup("metric:b", metrics, 1), -ENOENT);
	f = open_memstream(&text, &len);
	ck_assert_ptr_nonnull(f);
	sweep_figure_list(f);
	fclose(f);
	ck_assert_msg(!strncmp(text, "reads, writes, ", 15), "%s", text);
	ck_assert_msg(len > 13 && !strcmp(text + len - 13, ", fio_sys_cpu"), "%s", text);
	for (const char *p = text; (p = strstr(p, ", ")); p += 2)
		commas++;
	ck_assert_uint_eq(commas, SF_COUNT - 1);
	free(text);
}
END_TEST

/* A run starts with no figure at all (not 0: a missing figure must never
 * read as a measured zero) and no exit status; figures and metrics are read
 * by index up to their last, and titled. */
START_TEST(test_run_init_and_figures)
{
	static struct sweep_run r;
	const struct sweep_metric_opt metrics[2] = { { "a", "x" }, { "b", "y" } };
	char name[64], title[128];

	memset(&r, 0x5a, sizeof(r));
	sweep_run_init(&r);
	ck_assert_int_eq(r.status, -1);
	ck_assert_str_eq(r.asked, "");
	ck_assert_uint_eq(r.ncpu, 0);
	ck_assert(isnan(r.window_s) && isnan(r.busy_s) && isnan(r.head_s) && isnan(r.tail_s) && isnan(r.idle_pct));
	for (int i = 0; i < SF_COUNT; i++)
		ck_assert_msg(isnan(r.fig[i]), "fig %d", i);
	for (int i = 0; i < SWEEP_METRICS_MAX; i++)
		ck_assert_msg(isnan(r.metric[i]), "metric %d", i);
	r.fig[SF_READS] = 7;
	r.metric[0] = 8;
	r.metric[SWEEP_METRICS_MAX - 1] = 9;
	ck_assert_double_eq(sweep_figure_value(&r, SF_READS), 7);
	ck_assert(isnan(sweep_figure_value(&r, -1)));
	ck_assert_double_eq(sweep_figure_value(&r, SF_COUNT), 8);
	ck_assert_double_eq(sweep_figure_value(&r, SF_COUNT + SWEEP_METRICS_MAX - 1), 9);
	ck_assert(isnan(sweep_figure_value(&r, SF_COUNT + SWEEP_METRICS_MAX)));
	sweep_figure_title(SF_READS, metrics, name, sizeof(name), title, sizeof(title));
	ck_assert_str_eq(name, "reads");
	ck_assert_str_eq(title, "reads completed on the device");
	sweep_figure_title(SF_COUNT + 1, metrics, name, sizeof(name), title, sizeof(title));
	ck_assert_str_eq(name, "metric:b");
	ck_assert_str_eq(title, "b (--metric, higher/lower only)");
}
END_TEST

START_TEST(test_metric)
{
	const char *out = "rate: 12.5 MB/s\nnoise 99\nrate: 42.25 MB/s (2 runs)\nend 7\n";

	ck_assert_double_eq_tol(sweep_workload_metric(out, "rate: [0-9.]+"), 42.25, 1e-12);
	/* a group picks the number inside it */
	ck_assert_double_eq_tol(sweep_workload_metric(out, "rate: ([0-9.]+) MB/s \\(([0-9]) runs"), 42.25, 1e-12);
	ck_assert_double_eq_tol(sweep_workload_metric("x -3.5 y\n", "x .* y"), -3.5, 1e-12);
	/* a hyphen after a digit is a range, not a minus sign: 20, not -20 */
	ck_assert_double_eq_tol(sweep_workload_metric("lat 10-20 us\n", "lat [0-9-]+"), 20, 1e-12);
	ck_assert_double_eq_tol(sweep_workload_metric("lat 1.5-2.5 us\n", "lat [0-9.-]+"), 2.5, 1e-12);
	ck_assert_double_eq_tol(sweep_workload_metric("lat 10.-20 us\n", "lat [0-9.-]+"), 20, 1e-12);
	ck_assert_double_eq_tol(sweep_workload_metric("d -20 x\n", "d [0-9-]+"), -20, 1e-12);
	ck_assert_double_eq_tol(sweep_workload_metric("d=-20\n", "d=[0-9-]+"), -20, 1e-12);
	ck_assert_double_eq_tol(sweep_workload_metric("-7\n", "[0-9-]+"), -7, 1e-12);
	ck_assert_double_eq_tol(sweep_workload_metric("v 3--4\n", "v [0-9-]+"), -4, 1e-12);
	ck_assert(isnan(sweep_workload_metric(out, "nothing here")));
	ck_assert(isnan(sweep_workload_metric(out, "rate: ([a-z]+)")));
	/* beyond a double is no figure, not inf; a tiny one is 0 */
	ck_assert(isnan(sweep_workload_metric("rate 1e400\n", "rate [0-9e]+")));
	ck_assert(isnan(sweep_workload_metric("rate -1e400\n", "rate [0-9e-]+")));
	ck_assert_double_eq(sweep_workload_metric("rate 1e-400\n", "rate [0-9e-]+"), 0);
}
END_TEST

/* Write text to a new file, read back its tail of max bytes. */
static char *tail_of(const char *text, size_t max)
{
	char path[] = "/tmp/blktune-unit-tail-XXXXXX", *out = NULL;
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	ck_assert_int_eq(sweep_workload_read_tail(path, max, &out), 0);
	unlink(path);
	return out;
}

/* --metric searches the end of the output: slurp kept the first 64 MiB
 * while its comment said the last, so "the last match" was wrong beyond. */
START_TEST(test_read_tail)
{
	char big[4096], *t;

	/* 20 lines of 10 bytes, the last says 7: 64 bytes are its end, from
	 * the first whole line in them */
	big[0] = '\0';
	for (int i = 0; i < 19; i++)
		strcat(big, "rate: 512\n");
	strcat(big, "rate: 007\n");
	t = tail_of(big, 64);
	ck_assert_str_eq(t, "rate: 512\nrate: 512\nrate: 512\nrate: 512\nrate: 512\nrate: 007\n");
	ck_assert_double_eq(sweep_workload_metric(t, "rate: [0-9]+"), 7);
	free(t);
	/* a cut inside a number never leaves its tail to match */
	t = tail_of("rate: 5123\n", 4);
	ck_assert_str_eq(t, "");
	free(t);
	t = tail_of("rate: 5123\nrate: 9\n", 12);
	ck_assert_str_eq(t, "rate: 9\n");
	free(t);
	/* at or under the limit: the whole file */
	t = tail_of("rate: 1\nrate: 2", 15);
	ck_assert_str_eq(t, "rate: 1\nrate: 2");
	free(t);
	t = tail_of("rate: 1\nrate: 2", 14);
	ck_assert_str_eq(t, "rate: 2");
	free(t);
	/* past the buffer's first size (64 KiB) and the limit: 1 MiB of lines */
	{
		size_t len = 1 << 20, at = 0;
		char *text = malloc(len + 1);
		ck_assert_ptr_nonnull(text);
		while (at + 10 <= len - 10) {
			memcpy(text + at, "rate: 512\n", 10);
			at += 10;
		}
		memcpy(text + at, "rate: 007\n", 10);
		text[at + 10] = '\0';
		t = tail_of(text, 100000);
		ck_assert_uint_le(strlen(t), 100000);
		ck_assert_uint_ge(strlen(t), 100000 - 10);
		ck_assert_double_eq(sweep_workload_metric(t, "rate: [0-9]+"), 7);
		ck_assert_int_eq(strncmp(t, "rate: 512\n", 10), 0);
		free(t);
		free(text);
	}
	ck_assert_int_eq(sweep_workload_read_tail("/nonexistent/x", 64, &t), -ENOENT);
}
END_TEST

START_TEST(test_format_plain)
{
	char b[64];

	format_plain(1187290.4, 6, b, sizeof(b));
	ck_assert_str_eq(b, "1187290");
	format_plain(1.18729e+12, 9, b, sizeof(b));
	ck_assert_str_eq(b, "1187290000000");
	format_plain(0.000123456, 6, b, sizeof(b));
	ck_assert_str_eq(b, "0.000123456");
	format_plain(2.5, 9, b, sizeof(b));
	ck_assert_str_eq(b, "2.5");
	format_plain(-0.0000001, 3, b, sizeof(b));
	ck_assert_str_eq(b, "-0.0000001");
	format_plain(0, 6, b, sizeof(b));
	ck_assert_str_eq(b, "0");
	format_plain(NAN, 6, b, sizeof(b));
	ck_assert_str_eq(b, "");
	/* never an exponent (the man page: no number in scientific notation):
	 * a --metric of 0.0000123 was 1.23e-05 in sweep.csv */
	format_plain(0.0000123, 9, b, sizeof(b));
	ck_assert_str_eq(b, "0.0000123");
	format_plain(1.2345678912e-9, 9, b, sizeof(b));
	ck_assert_str_eq(b, "0.00000000123456789");
	format_plain(-1.5e-13, 6, b, sizeof(b));
	ck_assert_str_eq(b, "-0.00000000000015");
	/* too long for the buffer (99 digits in 64 bytes were cut to 63, a CSV
	 * the reader took back as 5.42e62: make fuzz-sweep): an error and "",
	 * never a cut number; FORMAT_PLAIN_MAX holds every double */
	ck_assert_int_eq(format_plain(5.422222222222222e98, 9, b, sizeof(b)), -ERANGE);
	ck_assert_str_eq(b, "");
	ck_assert_int_eq(format_plain(1e63, 3, b, 8), -ERANGE);
	ck_assert_str_eq(b, "");
	{
		static const double ends[] = { DBL_MAX, -DBL_MAX, DBL_MIN, -DBL_TRUE_MIN, 5.422222222222222e98 };
		char big[FORMAT_PLAIN_MAX];

		for (size_t i = 0; i < sizeof(ends) / sizeof(ends[0]); i++) {
			ck_assert_int_eq(format_plain(ends[i], 17, big, sizeof(big)), 0);
			ck_assert_msg(strspn(big, "-0123456789.") == strlen(big) && strlen(big) > 90, "%g: %s",
				      ends[i], big);
			ck_assert_msg(strtod(big, NULL) == ends[i], "%g read back as %.17g", ends[i],
				      strtod(big, NULL));
		}
	}
}
END_TEST

/* format_exact: the fewest digits that read back as the same double, in
 * plain notation: sweep.csv's numbers give blktune report what the sweep
 * had in memory (9 digits once turned a printed mean's last digit). */
START_TEST(test_format_exact)
{
	static const struct {
		double v;
		const char *want;
	} cases[] = {
		{ 0.1, "0.1" },
		{ 7585.34, "7585.34" },
		{ 100, "100" },
		{ 1187290000000.0, "1187290000000" },
		{ -0.0000123, "-0.0000123" },
		{ 1.0 / 3, "0.3333333333333333" },
		{ 2.0 / 3, "0.6666666666666666" },
		{ 7585.341234567891, "7585.341234567891" },
		{ 0, "0" },
		{ -0.0, "0" },
		{ 9007199254740993.0, "9007199254740992" },
	};
	char b[FORMAT_PLAIN_MAX];
	unsigned short seed[3] = { 1, 2, 3 };

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ck_assert_int_eq(format_exact(cases[i].v, b, sizeof(b)), 0);
		ck_assert_str_eq(b, cases[i].want);
	}
	ck_assert_int_eq(format_exact(NAN, b, sizeof(b)), 0);
	ck_assert_str_eq(b, "");
	ck_assert_int_eq(format_exact(1e63, b, 8), -ERANGE);
	ck_assert_str_eq(b, "");
	/* every decade, both sides of each power of ten (where log10 floors to
	 * the wrong decade), the ends of the range: read back exactly, never
	 * an exponent, and one digit fewer would not read back */
	for (int e = -323; e <= 308; e++) {
		double p = pow(10, e), vs[4];

		vs[0] = p;
		vs[1] = nextafter(p, 0);
		vs[2] = nextafter(p, INFINITY);
		vs[3] = p * (1 + erand48(seed));
		for (size_t k = 0; k < 4; k++) {
			double v = (k & 1) ? -vs[k] : vs[k];
			size_t digits = 0;
			const char *c;

			if (isinf(v) || v == 0)
				continue;
			ck_assert_int_eq(format_exact(v, b, sizeof(b)), 0);
			ck_assert_msg(strspn(b, "-0123456789.") == strlen(b), "%.17g: %s", v, b);
			ck_assert_msg(strtod(b, NULL) == v, "%.17g read back as %.17g (%s)", v, strtod(b, NULL), b);
			for (c = b + strspn(b, "-0."); *c; c++)
				digits += *c != '.';
			ck_assert_msg(digits <= 17 || strchr(b, '.') == NULL, "%.17g: %s", v, b);
		}
	}
	ck_assert_int_eq(format_exact(DBL_MAX, b, sizeof(b)), 0);
	ck_assert(strtod(b, NULL) == DBL_MAX);
	ck_assert_int_eq(format_exact(-DBL_TRUE_MIN, b, sizeof(b)), 0);
	ck_assert(strtod(b, NULL) == -DBL_TRUE_MIN);
	/* shortest: for random doubles, the digits before the last one given do
	 * not read back (else fewer would have been written) */
	for (int i = 0; i < 20000; i++) {
		double v = ldexp(erand48(seed), (int)(erand48(seed) * 80) - 40);
		char fewer[FORMAT_PLAIN_MAX];
		int sig = 0;

		ck_assert_int_eq(format_exact(v, b, sizeof(b)), 0);
		ck_assert_msg(strtod(b, NULL) == v, "%.17g: %s", v, b);
		for (const char *c = b + strspn(b, "0."); *c; c++)
			sig += *c != '.';
		if (sig > 1 && strchr(b, '.')) {
			format_plain(v, sig - 1, fewer, sizeof(fewer));
			ck_assert_msg(strtod(fewer, NULL) != v, "%.17g: %s, yet %s reads back", v, b, fewer);
		}
	}
}
END_TEST

/* The sweep of the report test: values 32, 1024, 4096, three repeats each,
 * mb_s fixed by hand. */
static const double fixed_mb[3][3] = { { 100, 102, 104 }, { 110, 111, 115 }, { 100, 90, 110 } };
static const char *const fixed_vals[3] = { "32", "1024", "4096" };

static void fixed_runs(struct sweep_run *runs)
{
	for (size_t r = 0, k = 0; r < 3; r++)
		for (size_t v = 0; v < 3; v++, k++) {
			sweep_run_init(&runs[k]);
			snprintf(runs[k].asked, sizeof(runs[k].asked), "%s", fixed_vals[v]);
			snprintf(runs[k].value, sizeof(runs[k].value), "%s", fixed_vals[v]);
			runs[k].repeat = (long)r + 1;
			runs[k].order = k + 1;
			runs[k].window_s = k == 4 ? 3.0 : 12.0; /* one short run */
			runs[k].busy_s = 11.5;
			runs[k].head_s = 0.25;
			runs[k].tail_s = 0.25;
			runs[k].idle_pct = k == 7 ? 20 : 4.2;
			runs[k].intervals = 12;
			runs[k].status = 0;
			runs[k].fig[SF_MB_S] = fixed_mb[v][r];
			runs[k].fig[SF_READ_BYTES] = 1187290000000.0; /* would print 1.18729e+12 with %g */
			runs[k].metric[0] = (double)k;
		}
}

static void fixed_info(struct sweep_info *in)
{
	sweep_info_init(in);
	snprintf(in->dev, sizeof(in->dev), "loop7");
	snprintf(in->tunable, sizeof(in->tunable), "max_sectors_kb");
	snprintf(in->values, sizeof(in->values), "32,1024,4096");
	snprintf(in->baseline, sizeof(in->baseline), "32");
	snprintf(in->original, sizeof(in->original), "1280");
	snprintf(in->kernel, sizeof(in->kernel), "6.18.0-test");
	snprintf(in->host, sizeof(in->host), "testhost");
	snprintf(in->model, sizeof(in->model), "QEMU HARDDISK");
	snprintf(in->vendor, sizeof(in->vendor), "ATA");
	snprintf(in->scheduler, sizeof(in->scheduler), "[none] mq-deadline");
	snprintf(in->command, sizeof(in->command), "blktune sweep loop7 max_sectors_kb=32,1024,4096 --repeat 3");
	snprintf(in->order, sizeof(in->order), "interleaved");
	snprintf(in->plot, sizeof(in->plot), "mb_s");
	in->repeat = 3;
	in->interval = 1;
	in->settle = 1;
	in->size_bytes = 536870912;
	in->max_hw_sectors_kb = 1280;
	in->max_segments = 128;
	in->logical_block_size = 512;
	in->physical_block_size = 4096;
	in->rotational = 0;
	in->nr_hw_queues = 2;
	in->ntun = 2;
	snprintf(in->tun[0].name, TUNABLE_NAME_MAX, "read_ahead_kb");
	snprintf(in->tun[0].value, TUNABLE_VALUE_MAX, "128");
	snprintf(in->tun[1].name, TUNABLE_NAME_MAX, "nr_requests");
	snprintf(in->tun[1].value, TUNABLE_VALUE_MAX, "256");
}

START_TEST(test_stats_by_hand)
{
	static struct sweep_run runs[9];
	struct sweep_value_stats a, b, c;

	fixed_runs(runs);
	sweep_stats_value(runs, 9, "32", SF_MB_S, &a);
	sweep_stats_value(runs, 9, "1024", SF_MB_S, &b);
	sweep_stats_value(runs, 9, "4096", SF_MB_S, &c);
	/* 100, 102, 104: mean 102, sd 2, CI = 4.303 x 2 / sqrt(3) = 4.9687 */
	ck_assert_uint_eq(a.s.n, 3);
	ck_assert_double_eq_tol(a.s.mean, 102, 1e-12);
	ck_assert_double_eq_tol(a.ci, 4.303 * 2 / sqrt(3), 1e-3);
	ck_assert_double_eq_tol(a.cv_pct, 100 * 2.0 / 102, 1e-9);
	/* 110, 111, 115: mean 112, sd sqrt(14/2) = 2.6458, CI = 4.303 x 2.6458 / 1.7321 = 6.573 */
	ck_assert_double_eq_tol(b.s.mean, 112, 1e-12);
	ck_assert_double_eq_tol(b.ci, 4.303 * sqrt(7) / sqrt(3), 1e-3);
	sweep_stats_verdict(&a, &a);
	sweep_stats_verdict(&a, &b);
	sweep_stats_verdict(&a, &c);
	ck_assert_int_eq(a.verdict, SV_BASELINE);
	/* Welch: t = 10 / sqrt(4/3 + 7/3) = 6.547, df = 3.72, t(0.975) = 2.87: higher */
	ck_assert_double_eq_tol(b.w.t, 10 / sqrt(11.0 / 3), 1e-9);
	ck_assert_int_eq(b.verdict, SV_HIGHER);
	ck_assert_double_eq_tol(b.change_pct, 100 * 10.0 / 102, 1e-9);
	/* 100, 90, 110: mean 100, sd 10: within noise of 102 */
	ck_assert_int_eq(c.verdict, SV_SAME);
	ck_assert_double_eq_tol(c.cv_pct, 10, 1e-9);
	ck_assert_str_eq(sweep_stats_verdict_text(SV_HIGHER, +1), "better");
	ck_assert_str_eq(sweep_stats_verdict_text(SV_HIGHER, -1), "worse");
	ck_assert_str_eq(sweep_stats_verdict_text(SV_HIGHER, 0), "higher");
}
END_TEST

/* sweep_stats_value of `value` over the 4 runs into a struct filled with
 * garbage first (every field is the function's own): n runs, mean. */
static void value_over_garbage(const struct sweep_run *runs, const char *value, size_t n, double mean,
			       struct sweep_value_stats *out)
{
	memset(out, 0xa5, sizeof(*out));
	sweep_stats_value(runs, 4, value, SF_MB_S, out);
	ck_assert_uint_eq(out->s.n, n);
	ck_assert_double_eq_tol(out->s.mean, mean, 1e-12);
}

/* The edges of one value's figures and of its verdict. */
START_TEST(test_stats_edges)
{
	static struct sweep_run runs[4];
	struct sweep_value_stats base, v;
	static const char *const asked[4] = { "a", "a", "b", "b" };
	static const double fig[4] = { -1, 1, 5, NAN };

	for (size_t i = 0; i < 4; i++) {
		sweep_run_init(&runs[i]);
		snprintf(runs[i].asked, sizeof(runs[i].asked), "%s", asked[i]);
		runs[i].fig[SF_MB_S] = fig[i];
	}
	/* -1 and 1: mean 0, so no CV (not inf, not nan printed as a number) */
	value_over_garbage(runs, "a", 2, 0, &base);
	ck_assert(isnan(base.cv_pct));
	ck_assert(isnan(base.change_pct));
	ck_assert_int_eq(base.verdict, SV_NA);
	ck_assert(!base.w.valid);
	ck_assert_double_eq(base.w.t, 0);
	/* "b": the NAN run is left out, one run is left: no CI, no CV */
	value_over_garbage(runs, "b", 1, 5, &v);
	ck_assert(isnan(v.ci));
	ck_assert(isnan(v.cv_pct));
	/* against a baseline whose mean is 0: no change in % */
	sweep_stats_verdict(&base, &v);
	ck_assert(isnan(v.change_pct));
	/* one run on a side: no verdict, whatever the struct held */
	ck_assert_int_eq(v.verdict, SV_NA);
	v.verdict = SV_HIGHER;
	sweep_stats_verdict(&base, &v);
	ck_assert_int_eq(v.verdict, SV_NA);
	/* a baseline mean of 1 (0 -> 1 in the guard) has a change: 5 is +400 % */
	base.s.mean = 1;
	sweep_stats_verdict(&base, &v);
	ck_assert_double_eq_tol(v.change_pct, 400, 1e-9);
	/* a value no run asked for: nothing, and its own baseline is n/a */
	sweep_stats_value(runs, 4, "c", SF_MB_S, &v);
	ck_assert_uint_eq(v.s.n, 0);
	sweep_stats_verdict(&v, &v);
	ck_assert_int_eq(v.verdict, SV_NA);
	sweep_stats_verdict(&base, &v);
	ck_assert(isnan(v.change_pct));
	ck_assert_int_eq(v.verdict, SV_NA);
	/* every verdict's words */
	ck_assert_str_eq(sweep_stats_verdict_text(SV_LOWER, +1), "worse");
	ck_assert_str_eq(sweep_stats_verdict_text(SV_LOWER, -1), "better");
	ck_assert_str_eq(sweep_stats_verdict_text(SV_LOWER, 0), "lower");
	ck_assert_str_eq(sweep_stats_verdict_text(SV_SAME, +1), "same (noise)");
	ck_assert_str_eq(sweep_stats_verdict_text(SV_BASELINE, -1), "baseline");
	ck_assert_str_eq(sweep_stats_verdict_text(SV_NA, +1), "n/a (<2 runs)");
}
END_TEST

/* One run's warnings: window WIN s, idle IDLE %, at interval IV s, GAP %
 * of the kernel's completions not traced. */
static size_t gap_warning(double win, double idle, double iv, double gap, char (*out)[SWEEP_WARN_LEN], size_t max)
{
	static struct sweep_run r;
	char *const vals[1] = { (char *)"x" };

	sweep_run_init(&r);
	r.fig[SF_TRACE_GAP_PCT] = gap;
	snprintf(r.asked, sizeof(r.asked), "x");
	r.order = 7;
	r.repeat = 2;
	r.window_s = win;
	r.idle_pct = idle;
	r.fig[SF_MB_S] = 100;
	memset(out, 0, max * sizeof(*out));
	return sweep_stats_warnings(&r, 1, vals, 1, iv, SF_MB_S, "mb_s", out, max);
}

static size_t one_warning(double win, double idle, double iv, char (*out)[SWEEP_WARN_LEN], size_t max)
{
	return gap_warning(win, idle, iv, NAN, out, max);
}

/* Each warning at its threshold (strictly past it warns), the two ways a
 * short window is said, and max respected: out has exactly max entries, so
 * ASan sees a write past it. */
START_TEST(test_warnings_edges)
{
	char (*out)[SWEEP_WARN_LEN] = malloc(3 * SWEEP_WARN_LEN);
	char (*one)[SWEEP_WARN_LEN] = malloc(SWEEP_WARN_LEN);
	static struct sweep_run runs[4];
	char *const vals[2] = { (char *)"p", (char *)"q" };

	ck_assert_ptr_nonnull(out);
	ck_assert_ptr_nonnull(one);
	/* each threshold from both sides; NULL: no warning */
	static const struct {
		double win, idle, iv;
		const char *want;
	} cases[] = {
		/* exactly 5 s and 10 intervals of 0.5 s; idle exactly 10 % */
		{ 5, 10, 0.5, NULL },
		/* just under 5 s, where 10 intervals are 5 s: said in seconds */
		{ 4.99, 0, 0.5, "window 4.99 s is shorter than 5 s" },
		/* 10 intervals of 1 s are longer than 5 s: said in intervals */
		{ 10, 0, 1, NULL },
		{ 9.99, 0, 1, "window 9.99 s is shorter than 10 intervals (10 s)" },
		{ 5.5, 0, 0.6, "window 5.5 s is shorter than 10 intervals (6 s)" },
		/* 10 intervals of 0.54 s are 5.4 s (9 would be 4.86) */
		{ 5.2, 0, 0.54, "window 5.2 s is shorter than 10 intervals (5.4 s)" },
		/* three significant digits of each figure */
		{ 5.9876, 0, 0.61234, "window 5.99 s is shorter than 10 intervals (6.12 s)" },
		/* under 5 s warns however short the interval */
		{ 4.5, 0, 0.1, "window 4.5 s is shorter than 5 s" },
		{ 60, 10.0001, 1, "the device was idle 10% of the window" },
		{ 60, 12.345, 1, "the device was idle 12.3% of the window" },
		/* a run without a window (it did not run) is not judged at all */
		{ NAN, 50, 1, NULL },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char want[SWEEP_WARN_LEN];

		ck_assert_uint_eq(one_warning(cases[i].win, cases[i].idle, cases[i].iv, out, 3), cases[i].want ? 1 : 0);
		if (!cases[i].want)
			continue;
		snprintf(want, sizeof(want), "run 7 (x, repeat 2): %s", cases[i].want);
		ck_assert_str_eq(out[0], want);
	}
	/* traced figures held to the kernel's completions: past 1 % either
	 * way (the gap of any window's two reads is below it), none untraced */
	static const struct {
		double gap;
		const char *want;
	} gaps[] = {
		{ 1, NULL }, { -1, NULL }, { NAN, NULL }, { 0, NULL },
		{ 1.01, "the traced figures lack 1.01% of the kernel's completions" },
		{ 1.2345, "the traced figures lack 1.23% of the kernel's completions" },
		{ -2.5, "2.5% more completions traced than the kernel counted" },
		{ 100, "the traced figures lack 100% of the kernel's completions" },
	};
	for (size_t i = 0; i < sizeof(gaps) / sizeof(gaps[0]); i++) {
		char want[SWEEP_WARN_LEN];

		ck_assert_uint_eq(gap_warning(60, 0, 1, gaps[i].gap, out, 3), gaps[i].want ? 1 : 0);
		if (!gaps[i].want)
			continue;
		snprintf(want, sizeof(want), "run 7 (x, repeat 2): %s", gaps[i].want);
		ck_assert_str_eq(out[0], want);
	}
	/* with a short window and an idle one: in that order, and max kept */
	ck_assert_uint_eq(gap_warning(2, 50, 1, 3, out, 3), 3);
	ck_assert(strstr(out[1], "lack 3%") != NULL);
	ck_assert(strstr(out[2], "idle 50%") != NULL);
	ck_assert_uint_eq(gap_warning(2, 50, 1, 3, one, 1), 1);
	ck_assert(strstr(one[0], "shorter") != NULL);

	/* both, in that order, then max 1 keeps only the first */
	ck_assert_uint_eq(one_warning(2, 50, 1, out, 3), 2);
	ck_assert(strstr(out[0], "shorter than 10 intervals") != NULL);
	ck_assert_str_eq(out[1], "run 7 (x, repeat 2): the device was idle 50% of the window");
	ck_assert_uint_eq(one_warning(2, 50, 1, one, 1), 1);
	ck_assert(strstr(one[0], "shorter") != NULL);

	/* CV: p is 90, 110 (mean 100, sd 14.1: CV 14.1 %), q 100, 100.5
	 * (CV 0.35 %); windows and idle clean */
	static const double x[4] = { 90, 110, 100, 100.5 };
	for (size_t i = 0; i < 4; i++) {
		sweep_run_init(&runs[i]);
		snprintf(runs[i].asked, sizeof(runs[i].asked), "%s", i < 2 ? "p" : "q");
		runs[i].order = i + 1;
		runs[i].window_s = 60;
		runs[i].idle_pct = 1;
		runs[i].fig[SF_MB_S] = x[i];
	}
	ck_assert_uint_eq(sweep_stats_warnings(runs, 4, vals, 2, 1, SF_MB_S, "mb_s", out, 3), 1);
	ck_assert_str_eq(out[0], "value=p: mb_s varies 14.1% (CV) across 2 repeats (mean 100)");
	/* a CV either side of 10 %: 100 and 115.45 (sd 10.925, mean 107.725:
	 * CV 10.14 %, the mean to four digits), 100 and 115.2 (sd 10.748, mean
	 * 107.6: CV 9.989 %) */
	runs[1].fig[SF_MB_S] = 100;
	runs[0].fig[SF_MB_S] = 115.45;
	ck_assert_uint_eq(sweep_stats_warnings(runs, 4, vals, 2, 1, SF_MB_S, "mb_s", out, 3), 1);
	ck_assert_str_eq(out[0], "value=p: mb_s varies 10.1% (CV) across 2 repeats (mean 107.7)");
	runs[0].fig[SF_MB_S] = 115.2;
	ck_assert_uint_eq(sweep_stats_warnings(runs, 4, vals, 2, 1, SF_MB_S, "mb_s", out, 3), 0);
	/* a short run fills the only place: no CV warning past it */
	runs[0].fig[SF_MB_S] = 90;
	runs[1].fig[SF_MB_S] = 110;
	runs[2].window_s = 1;
	ck_assert_uint_eq(sweep_stats_warnings(runs, 4, vals, 2, 1, SF_MB_S, "mb_s", one, 1), 1);
	ck_assert(strstr(one[0], "run 3 (q, repeat 0): window 1 s") == one[0]);
	/* two short runs, room for one: the second is not written past it */
	runs[3].window_s = 1;
	ck_assert_uint_eq(sweep_stats_warnings(runs, 4, vals, 2, 1, SF_MB_S, "mb_s", one, 1), 1);
	runs[3].window_s = 60;
	/* with room: the short run, then the CV */
	ck_assert_uint_eq(sweep_stats_warnings(runs, 4, vals, 2, 1, SF_MB_S, "mb_s", out, 3), 2);
	ck_assert(strstr(out[1], "value=p: mb_s varies") == out[1]);
	/* a value with one run has no CV to warn about */
	ck_assert_uint_eq(sweep_stats_warnings(runs, 1, vals, 1, 1, SF_MB_S, "mb_s", out, 3), 0);
	free(out);
	free(one);
}
END_TEST

/* Values the kernel rounds to one setting (read_ahead_kb 100 and 101 are
 * both 25 pages): the rows are labelled as asked, so the warnings say the
 * two are one setting, whichever comes first; a value set as asked says
 * nothing. */
START_TEST(test_warnings_kernel_value)
{
	static struct sweep_run runs[4];
	static const char *const asked[][3] = { { "100", "101", "200" }, { "101", "100", "200" } };
	char (*out)[SWEEP_WARN_LEN] = malloc(8 * SWEEP_WARN_LEN);

	ck_assert_ptr_nonnull(out);
	for (size_t o = 0; o < 2; o++) {
		char *vals[3] = { (char *)asked[o][0], (char *)asked[o][1], (char *)asked[o][2] };
		char want[SWEEP_WARN_LEN];
		size_t n, first = 0;

		for (size_t i = 0; i < 3; i++) {
			sweep_run_init(&runs[i]);
			snprintf(runs[i].asked, sizeof(runs[i].asked), "%s", vals[i]);
			snprintf(runs[i].value, sizeof(runs[i].value), "%s", i < 2 ? "100" : "200");
		}
		n = sweep_stats_warnings(runs, 3, vals, 3, 1, SF_MB_S, "mb_s", out, 8);
		if (o == 1) {
			ck_assert_str_eq(out[0], "value 101 ran as 100 (what the kernel set)");
			first = 1;
		}
		ck_assert_uint_eq(n, first + 1);
		snprintf(want, sizeof(want), "values %s and %s both ran as 100: one setting, not two", vals[0], vals[1]);
		ck_assert_str_eq(out[first], want);
	}
	free(out);
}
END_TEST

START_TEST(test_report_fields_and_ci)
{
	static struct sweep_run runs[9];
	static struct sweep_info info;
	struct sweep_metric_opt metrics[1] = { { "ops", "x" } };
	struct sweep_report rp = { &info, runs, 9, metrics, 1 };
	char *text = NULL, want[160];
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	fixed_runs(runs);
	runs[0].ncpu = 2;
	for (int c = 0; c < 2; c++)
		for (int k = 0; k < SCP_COUNT; k++)
			runs[0].cpu[c][k] = 10 * c + k + 0.5;
	fixed_info(&info);
	ck_assert_int_eq(sweep_report_write(f, &rp), 0);
	fclose(f);
	static const char *const fields[] = {
		"kernel: 6.18.0-test", "host: testhost", "model: QEMU HARDDISK", "vendor: ATA",
		"size: 536870912 bytes", "max_hw_sectors_kb 1280", "max_segments 128", "logical_block_size 512",
		"physical_block_size 4096", "rotational 0", "nr_hw_queues 2", "scheduler: [none] mq-deadline",
		"read_ahead_kb", "nr_requests", "blktune sweep loop7 max_sectors_kb=32,1024,4096 --repeat 3",
		"baseline: 32 (original value 1280)", "device MB/s, reads and writes (mb_s), the judged figure",
		"(metric:ops)", "against max_sectors_kb (log scale)", "Warnings",
		"run 5 (1024, repeat 2): window 3 s is shorter than 10 intervals (10 s)",
		"run 8 (1024, repeat 3): the device was idle 20% of the window",
		"per CPU (mean of each value's runs", "  32                0     0.5     1.5     2.5     3.5",
		"                    1    10.5    11.5    12.5    13.5",
		"value=4096: mb_s varies", /* CV exactly 10: no warning (> 10 only) */
	};
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		if (i == sizeof(fields) / sizeof(fields[0]) - 1)
			ck_assert_msg(!strstr(text, fields[i]), "unexpected: %s", fields[i]);
		else
			ck_assert_msg(strstr(text, fields[i]) != NULL, "report lacks '%s':\n%s", fields[i], text);
	}
	/* the table rows, against the hand computation */
	snprintf(want, sizeof(want), "  %-14s %4d %14.2f %12.2f %7.1f %9s  %s", "32", 3, 102.0, 4.303 * 2 / sqrt(3),
		 100 * 2.0 / 102, "-", "baseline");
	ck_assert_msg(strstr(text, want) != NULL, "no row '%s' in\n%s", want, text);
	snprintf(want, sizeof(want), "  %-14s %4d %14.2f %12.2f %7.1f %9s  %s", "1024", 3, 112.0,
		 4.303 * sqrt(7) / sqrt(3), 100 * sqrt(7) / 112, "+9.80", "better");
	ck_assert_msg(strstr(text, want) != NULL, "no row '%s' in\n%s", want, text);
	snprintf(want, sizeof(want), "  %-14s %4d %14.2f %12.2f %7.1f %9s  %s", "4096", 3, 100.0, 4.303 * 10 / sqrt(3),
		 10.0, "-1.96", "same (noise)");
	ck_assert_msg(strstr(text, want) != NULL, "no row '%s' in\n%s", want, text);
	ck_assert_msg(!strstr(text, "e+"), "scientific notation in\n%s", text);
	free(text);
}
END_TEST

/* The verdict of the 1024 row (mean 112 against 102, significant) when fig
 * holds mb_s's numbers. */
static const char *verdict_1024(int fig, bool judged, int metric)
{
	static struct sweep_run runs[9];
	static struct sweep_info info;
	static char row[256];
	struct sweep_metric_opt metrics[1] = { { "ops", "x" } };
	struct sweep_report rp = { &info, runs, 9, metrics, 1 };
	char *text = NULL, *p;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	fixed_runs(runs);
	fixed_info(&info);
	for (int k = 0; k < 9; k++) {
		runs[k].fig[fig] = runs[k].fig[SF_MB_S];
		runs[k].metric[0] = runs[k].fig[SF_MB_S];
	}
	sweep_report_table(f, &rp, metric ? SF_COUNT : fig, judged);
	fclose(f);
	p = strstr(text, "\n  1024 ");
	ck_assert_msg(p != NULL, "%s", text);
	snprintf(row, sizeof(row), "%.*s", (int)strcspn(p + 1, "\n"), p + 1);
	free(text);
	return strrchr(row, ' ') + 1;
}

/* A judged figure without a known direction (a --metric, %util, a CPU
 * share, the trace gap) went up: "higher", not "better"; mb_s and latency
 * keep their direction judged or not. */
START_TEST(test_verdict_direction)
{
	static const int none[] = { SF_UTIL, SF_AQU_SZ, SF_CPU_SYS_PCT, SF_TRACE_GAP_PCT, SF_IOPS, SF_CPU_US_PER_IO };

	ck_assert_str_eq(verdict_1024(SF_MB_S, true, 0), "better");
	ck_assert_str_eq(verdict_1024(SF_MB_S, false, 0), "higher");
	ck_assert_str_eq(verdict_1024(SF_R_AWAIT, false, 0), "worse");
	ck_assert_str_eq(verdict_1024(SF_LAT_P99_US, true, 0), "worse");
	ck_assert_str_eq(verdict_1024(SF_MB_S, true, 1), "higher"); /* metric:ops */
	for (size_t i = 0; i < sizeof(none) / sizeof(none[0]); i++) {
		ck_assert_msg(!strcmp(verdict_1024(none[i], true, 0), "higher"), "%s judged: %s",
			      sweep_figures[none[i]].name, verdict_1024(none[i], true, 0));
		ck_assert_str_eq(verdict_1024(none[i], false, 0), "higher");
	}
}
END_TEST

/* What blktune sweep --report writes from memory is what blktune report
 * DIR prints from sweep.info and sweep.csv (a CI run once differed: the CSV
 * kept 9 digits). Runs with random figures, so some sit near a printed
 * rounding edge. */
START_TEST(test_report_from_files_is_report_from_memory)
{
	static struct sweep_run runs[9], back[9];
	static struct sweep_info info, iback;
	struct sweep_metric_opt metrics[1] = { { "copied", "x" } }, mback[SWEEP_METRICS_MAX];
	unsigned short seed[3] = { 7, 8, 9 };
	char msg[256];

	for (int trial = 0; trial < 300; trial++) {
		struct sweep_report rp = { &info, runs, 9, metrics, 1 }, rb = { &iback, back, 9, mback, 0 };
		char *a = NULL, *b = NULL, *csv = NULL, *inf = NULL;
		size_t la = 0, lb = 0, lc = 0, li = 0;
		FILE *f;

		fixed_runs(runs);
		fixed_info(&info);
		for (int k = 0; k < 9; k++) {
			double scale = pow(10, (int)(erand48(seed) * 6));

			runs[k].ncpu = 2;
			for (int c = 0; c < 2; c++)
				for (int p = 0; p < SCP_COUNT; p++)
					runs[k].cpu[c][p] = 100 * erand48(seed);
			runs[k].window_s = 2 + 20 * erand48(seed);
			runs[k].idle_pct = 30 * erand48(seed);
			runs[k].fig[SF_MB_S] = fixed_mb[k % 3][k / 3] * (1 + erand48(seed) / 7) * scale / 1000;
			runs[k].fig[SF_IOPS] = 1e5 * erand48(seed);
			runs[k].fig[SF_R_AWAIT] = 10 * erand48(seed);
			runs[k].fig[SF_CPU_US_PER_IO] = erand48(seed);
			runs[k].metric[0] = 1e9 * erand48(seed);
		}
		/* a window at 10 intervals to the last bit: warned of or not, the same
		 * from the files (sweep.info once kept 15 digits of the interval) */
		info.interval = 0.5 + erand48(seed);
		runs[4].window_s = nextafter(10 * info.interval, trial & 1 ? INFINITY : 0);
		f = open_memstream(&a, &la);
		ck_assert_int_eq(sweep_report_write(f, &rp), 0);
		fclose(f);
		f = open_memstream(&csv, &lc);
		ck_assert_int_eq(sweep_csv_write(f, runs, 9, metrics, 1), 0);
		fclose(f);
		f = open_memstream(&inf, &li);
		ck_assert_int_eq(sweep_info_write(f, &info), 0);
		fclose(f);
		f = fmemopen(csv, lc, "r");
		ck_assert_int_eq(sweep_csv_read(f, back, 9, mback, &rb.nmetrics, msg, sizeof(msg)), 9);
		fclose(f);
		f = fmemopen(inf, li, "r");
		ck_assert_int_eq(sweep_info_read(f, &iback, msg, sizeof(msg)), 0);
		fclose(f);
		f = open_memstream(&b, &lb);
		ck_assert_int_eq(sweep_report_write(f, &rb), 0);
		fclose(f);
		if (strcmp(a, b)) {
			size_t i = 0, line = 1;

			while (a[i] && a[i] == b[i])
				line += a[i++] == '\n';
			ck_abort_msg("trial %d: the report from the files differs at line %zu:\n%.120s\n%.120s", trial,
				     line, a + i - (i > 40 ? 40 : i), b + i - (i > 40 ? 40 : i));
		}
		free(a);
		free(b);
		free(csv);
		free(inf);
	}
}
END_TEST

/* The report's own text, line by line where it is more than the tables of
 * test_report_fields_and_ci: the header's figures, the runs table (every
 * cell of three runs, by hand below), the per-CPU table, which figure
 * tables appear (only figures some run measured, never all zero). */
static char *report_text(struct sweep_run *runs, size_t n, struct sweep_info *info,
			 struct sweep_metric_opt *metrics, size_t nm)
{
	struct sweep_report rp = { info, runs, n, metrics, nm };
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(sweep_report_write(f, &rp), 0);
	fclose(f);
	return text;
}

static void has_line(const char *text, const char *line)
{
	char want[512];

	snprintf(want, sizeof(want), "\n%s\n", line);
	if (!strstr(text, want)) {
		fprintf(stderr, "%s", text); /* the report, too long for Check's message */
		ck_abort_msg("no line '%s' in the report (on stderr)", line);
	}
}

/* text holds needle; else the report goes to stderr (too long for
 * Check's message) */
static void has_text(const char *text, const char *needle)
{
	if (!strstr(text, needle)) {
		fprintf(stderr, "%s", text);
		ck_abort_msg("no '%.200s' in the report (on stderr)", needle);
	}
}

START_TEST(test_report_text_exact)
{
	static struct sweep_run runs[9];
	static struct sweep_info info;
	struct sweep_metric_opt metrics[2] = { { "ops", "x" }, { "zero", "y" } };
	static const char head[] =
		"blktune sweep of max_sectors_kb on loop7: 32,1024,4096\n\nMachine\n"
		"  kernel: 6.18.0-test\n  host: testhost\n  started: 2026-12-05 16:00:00\n\n"
		"Device loop7\n  model: QEMU HARDDISK\n  vendor: ATA\n"
		"  size: 536870912 bytes, diskseq 77\n"
		"  queue limits: max_hw_sectors_kb 1280, max_sectors_kb 640, max_segments 128\n"
		"    logical_block_size 512, physical_block_size 4096, rotational 0, nr_hw_queues 2\n"
		"  scheduler: [none] mq-deadline\n  tunables before the sweep:\n"
		"    read_ahead_kb                128\n    nr_requests                  256\n\n"
		"Command line\n  blktune sweep loop7 max_sectors_kb=32,1024,4096 --repeat 3\n"
		"  each run: (sampling only)\n  metric ops: last number matching /([0-9]+) ops/\n"
		"  runs: 3 per value, interleaved order; settle 0.5 s after each change; interval 0.25 s\n"
		"  baseline: 32 (original value 1280)\n\n";
	char *text;

	fixed_runs(runs);
	fixed_info(&info);
	snprintf(info.started, sizeof(info.started), "2026-12-05 16:00:00");
	info.diskseq = 77;
	info.max_sectors_kb = 640;
	info.settle = 0.5;
	info.interval = 0.25;
	info.nmetrics = 1;
	snprintf(info.metric[0].name, sizeof(info.metric[0].name), "ops");
	snprintf(info.metric[0].regex, sizeof(info.metric[0].regex), "([0-9]+) ops");
	/* fio: reads only, reads and writes, writes only; own MB/s on one run */
	runs[0].fig[SF_FIO_READ_MB_S] = 10;
	runs[1].fig[SF_FIO_READ_MB_S] = 5;
	runs[1].fig[SF_FIO_WRITE_MB_S] = 7;
	runs[2].fig[SF_FIO_WRITE_MB_S] = 3;
	runs[2].fig[SF_OWN_MB_S] = 42.125; /* a tie: "42.12", to even */
	runs[2].head_s = 0.0125; /* 12.5 ms: "12" or "13" as %.0f rounds it, even */
	runs[2].tail_s = 1.5;
	runs[2].status = 3;
	runs[1].ncpu = 1;
	runs[1].cpu[0][SCP_USER] = 12.25;
	runs[1].cpu[0][SCP_SYS] = 1;
	runs[1].cpu[0][SCP_IRQ] = 0.5;
	runs[1].cpu[0][SCP_SOFTIRQ] = 2;
	runs[4].ncpu = 1;
	runs[4].cpu[0][SCP_USER] = 13.75; /* the 1024 runs: mean of 12.25 and 13.75 */
	runs[4].cpu[0][SCP_SYS] = 3;
	runs[4].cpu[0][SCP_IRQ] = 0.5;
	runs[4].cpu[0][SCP_SOFTIRQ] = 0;
	for (int k = 0; k < 9; k++)
		runs[k].metric[1] = 0; /* metric "zero": all zero, no table */
	text = report_text(runs, 9, &info, metrics, 2);
	if (strncmp(text, head, strlen(head))) {
		fprintf(stderr, "%s", text);
		ck_abort_msg("the report's header differs (the report on stderr)");
	}
	/* runs: order, value, repeat, window, busy, head and tail in ms, idle %,
	 * intervals, device MB/s (fixed_mb), own MB/s, fio read + write, status */
	has_line(text, "  order value          repeat  window s    busy s  head ms  tail ms  idle%  intv   dev MB/s   own MB/s   fio MB/s status");
	has_line(text, "      1 32                  1    12.000    11.500      250      250    4.2    12     100.00          -      10.00      0");
	has_line(text, "      2 1024                1    12.000    11.500      250      250    4.2    12     110.00          -      12.00      0");
	has_line(text, "      3 4096                1    12.000    11.500       12     1500    4.2    12     100.00      42.12       3.00      3");
	has_line(text, "      5 1024                2     3.000    11.500      250      250    4.2    12     111.00          -          -      0");
	/* per CPU: the mean of the runs of a value that have the CPU */
	has_line(text, "  max_sectors_kb  cpu   user%    sys%    irq%   soft%");
	has_line(text, "  1024              0    13.0     2.0     0.5     1.0");
	has_line(text, "  32                0       -       -       -       -");
	/* one CPU: one row per value, then the plot */
	has_text(text, "% of that CPU)\n  max_sectors_kb  cpu   user%    sys%    irq%   soft%\n"
		       "  32                0       -       -       -       -\n"
		       "  1024              0    13.0     2.0     0.5     1.0\n"
		       "  4096              0       -       -       -       -\n\n");
	/* tables: the judged figure, the metric measured, figures some run
	 * measured (fio, own); none for the all-zero metric or unmeasured ones */
	ck_assert_msg(strstr(text, "(metric:ops)") != NULL, "%s", text);
	ck_assert_msg(!strstr(text, "(metric:zero)"), "%s", text);
	ck_assert_msg(strstr(text, "(fio_read_mb_s)") != NULL && strstr(text, "(own_mb_s)") != NULL, "%s", text);
	ck_assert_msg(!strstr(text, "(iops)") && !strstr(text, "(hit_pct)"), "%s", text);
	/* the plot's y: the judged figure's title and direction */
	ck_assert_msg(strstr(text, "device MB/s, reads and writes: mean of repeats, bars 95% CI, against "
				   "max_sectors_kb (log scale)") != NULL, "%s", text);
	free(text);
}
END_TEST

/* blktune report's command line: usage and help, each file missing or
 * malformed (exit 1), and what it prints, run in a child with stdout in a
 * file: the report from the directory's files, whole. */
struct report_run {
	int argc;
	char *argv[3];
	char out[64];
	char err[64]; /* stderr's file; "" for /dev/null */
};

static int report_child(void *arg)
{
	struct report_run *r = arg;
	int rc;

	if (!freopen(r->out, "w", stdout) || !freopen(r->err[0] ? r->err : "/dev/null", "w", stderr))
		return 99;
	rc = sweep_report_main(r->argc, r->argv);
	fflush(stdout);
	fflush(stderr); /* a file since freopen: buffered */
	return rc;
}

START_TEST(test_report_main)
{
	static struct sweep_run runs[9];
	static struct sweep_info info;
	struct sweep_metric_opt metrics[1] = { { "ops", "x" } };
	char tmpl[] = "/tmp/blktune-unit-XXXXXX", *dir = mkdtemp(tmpl), path[4200], *want, *got;
	struct report_run r = { 2, { (char *)"report", dir, NULL }, "", "" };

	ck_assert_ptr_nonnull(dir);
	snprintf(r.out, sizeof(r.out), "%s/out", dir);
	r.argc = 1;
	ck_assert_int_eq(unit_in_child(report_child, &r), 2);
	r.argc = 3;
	r.argv[2] = dir;
	ck_assert_int_eq(unit_in_child(report_child, &r), 2);
	r.argc = 2;
	r.argv[1] = (char *)"-x";
	ck_assert_int_eq(unit_in_child(report_child, &r), 2);
	for (int h = 0; h < 2; h++) {
		r.argv[1] = (char *)(h ? "-h" : "--help");
		ck_assert_int_eq(unit_in_child(report_child, &r), 0);
		got = unit_slurp(r.out);
		ck_assert_str_eq(got, "usage: blktune report DIR   (the directory of a blktune sweep)\n");
	}
	r.argv[1] = dir;
	/* no sweep.info; then a malformed one */
	ck_assert_int_eq(unit_in_child(report_child, &r), 1);
	snprintf(path, sizeof(path), "%s/sweep.info", dir);
	unit_write_file(path, "not a sweep.info\n");
	ck_assert_int_eq(unit_in_child(report_child, &r), 1);
	fixed_runs(runs);
	fixed_info(&info);
	ck_assert_int_eq(sweep_info_save(path, &info, path + 4100, 100), 0);
	/* no sweep.csv; then a malformed one */
	ck_assert_int_eq(unit_in_child(report_child, &r), 1);
	snprintf(path, sizeof(path), "%s/sweep.csv", dir);
	unit_write_file(path, "value,asked,repeat\n1,1,x\n");
	ck_assert_int_eq(unit_in_child(report_child, &r), 1);
	ck_assert_int_eq(sweep_csv_save(path, runs, 9, metrics, 1, path + 4100, 100), 0);
	/* both: exit 0, the report of the nine runs */
	ck_assert_int_eq(unit_in_child(report_child, &r), 0);
	got = slurp(r.out);
	want = report_text(runs, 9, &info, metrics, 1);
	ck_assert_msg(!strcmp(got, want) || (fprintf(stderr, "%s\n----\n%s", got, want), 0),
		      "blktune report DIR is not the report of its files (both on stderr)");
	free(got);
	free(want);
	snprintf(path, sizeof(path), "rm -rf %s", dir);
	ck_assert_int_eq(system(path), 0);
}
END_TEST

/* The report's edges: a head idle time of seconds in ms (x 1000, not
 * rounded away), a device without model or vendor, every warning and not
 * only the first; then blktune report's one-line errors for each file: a
 * link (never followed), not a regular file, missing, malformed. */
START_TEST(test_report_edges)
{
	static struct sweep_run runs[9];
	static struct sweep_info info;
	struct sweep_metric_opt metrics[1] = { { "ops", "x" } };
	char tmpl[] = "/tmp/blktune-unit-XXXXXX", *dir = mkdtemp(tmpl), info_path[4200], csv[4200], cmd[4300];
	char msg[100], *text, *p, *got;
	struct report_run r = { 2, { (char *)"report", dir, NULL }, "", "" };
	size_t nwarn = 0;

	ck_assert_ptr_nonnull(dir);
	fixed_runs(runs);
	fixed_info(&info);
	info.model[0] = info.vendor[0] = '\0';
	runs[5].head_s = 2.0; /* 2000 ms, 1998 if scaled by 999 */
	runs[6].fig[SF_OWN_MB_S] = 1e30; /* from a crafted sweep.csv: printed whole */
	text = report_text(runs, 9, &info, metrics, 1);
	has_text(text, " 1000000000000000019884624838656.00 ");
	has_text(text, "\nDevice loop7\n  model: n/a\n  vendor: n/a\n");
	has_line(text, "      6 4096                2    12.000    11.500     2000      250    4.2    12      90.00          -          -      0");
	/* fixed_runs has a short run (5) and an idle one (8): both warned */
	p = strstr(text, "\nWarnings\n");
	ck_assert_ptr_nonnull(p);
	for (char *q = p; (q = strstr(q, "\n  warning: ")) != NULL; q++)
		nwarn++;
	ck_assert_str_eq(p, "\nWarnings\n"
			    "  warning: run 5 (1024, repeat 2): window 3 s is shorter than 10 intervals (10 s)\n"
			    "  warning: run 8 (1024, repeat 3): the device was idle 20% of the window\n");
	ck_assert_uint_eq(nwarn, 2);
	/* the plot: 12 rows and a 60-column axis under its title */
	p = strstr(text, "against max_sectors_kb (log scale)\n");
	ck_assert_ptr_nonnull(p);
	p = strchr(p, '\n') + 1;
	for (int row = 0; row < 12; row++, p = strchr(p, '\n') + 1)
		ck_assert_msg(strstr(p, " |") < strchr(p, '\n'), "plot row %d: %.80s", row, p);
	ck_assert_msg(!strncmp(p, "          +", 11) && strspn(p + 11, "-") == 60 && p[71] == '\n', "%.80s", p);
	/* three repeats a value: error bars ('-' caps, '|' between) */
	p = strstr(text, "against max_sectors_kb (log scale)\n");
	nwarn = 0;
	for (int row = 0; row < 12; row++) {
		p = strchr(p, '\n') + 1;
		for (const char *q = strstr(p, " |") + 2; *q != '\n'; q++)
			nwarn += *q == '-' || *q == '|' || *q == '^';
	}
	ck_assert_uint_ge(nwarn, 3); /* a bar per value, one row at least */
	free(text);

	/* The judged figure a metric: its table first, device MB/s among the
	 * others; each metric measured has a table, one only some run
	 * measured (IOPS, run 1) too, and a metric beyond those named has
	 * none. 15 significant digits of the size. A sweep.info without an
	 * interval: warnings judge windows against 1 s. */
	fixed_info(&info);
	snprintf(info.plot, sizeof(info.plot), "metric:ops");
	info.size_bytes = 999999999999999.0;
	info.interval = NAN;
	{
		struct sweep_metric_opt two[3] = { { "ops", "x" }, { "two", "y" }, { "", "" } };

		for (int k = 0; k < 9; k++) {
			runs[k].metric[1] = 2.0 * k;
			runs[k].metric[2] = 7; /* not a metric of this sweep */
		}
		runs[0].fig[SF_IOPS] = 5;
		text = report_text(runs, 9, &info, two, 2);
	}
	has_text(text, "size: 999999999999999 bytes");
	has_text(text, "ops (--metric, higher/lower only) (metric:ops), the judged figure\n");
	has_text(text, "\ndevice MB/s, reads and writes (mb_s)\n");
	has_text(text, "(metric:two)\n");
	has_text(text, "(iops)\n");
	has_text(text, "window 3 s is shorter than 10 intervals (10 s)");
	has_text(text, "ops (--metric, higher/lower only): mean of repeats, bars 95% CI,");
	nwarn = 0; /* tables of metrics: ops and two, not the third */
	for (char *q = text; (q = strstr(q, "(metric:")) != NULL; q++)
		nwarn++;
	ck_assert_uint_eq(nwarn, 2);
	free(text);
	/* A value list filling sweep.info's whole field (2047 characters):
	 * every table, the plot and the warnings label the last value
	 * whole. 15 significant digits of a fraction. */
	{
		size_t len = 0;

		for (int v = 0; v < 64; v++)
			len += (size_t)snprintf(info.values + len, sizeof(info.values) - len, "%s%031d", v ? "," : "", v);
		ck_assert_uint_eq(len, 64 * 31 + 63);
		snprintf(info.baseline, sizeof(info.baseline), "%031d", 0);
		snprintf(info.plot, sizeof(info.plot), "mb_s");
		info.settle = 0.123456789012345;
		text = report_text(runs, 9, &info, metrics, 1);
		has_text(text, "settle 0.123456789012345 s after");
		/* the last value ends the value list: its row in the judged table */
		p = strstr(text, "\n  0000000000000000000000000000063    0 ");
		ck_assert_msg(p != NULL, "no row of the whole last value");
		free(text);
		fixed_info(&info);
	}
	/* a judged figure of both directions whose title does not say so */
	snprintf(info.plot, sizeof(info.plot), "util");
	for (int k = 0; k < 9; k++)
		runs[k].fig[SF_UTIL] = 50 + k;
	text = report_text(runs, 9, &info, metrics, 1);
	has_text(text, "\n%util (mean of intervals), reads and writes: mean of repeats, bars 95% CI,");
	free(text);

	/* More values than a sweep has (sweep.info does not limit them): the
	 * first 64; more warnings than the report holds: the first 64. */
	{
		static struct sweep_run many[30];
		size_t len = 0;

		fixed_info(&info);
		info.values[0] = '\0';
		for (int v = 1; v <= 65; v++)
			len += (size_t)snprintf(info.values + len, sizeof(info.values) - len, "%s%d", v > 1 ? "," : "", v);
		snprintf(info.baseline, sizeof(info.baseline), "1");
		for (size_t k = 0; k < 30; k++) {
			sweep_run_init(&many[k]);
			snprintf(many[k].asked, sizeof(many[k].asked), "%zu", k % 3 + 1);
			snprintf(many[k].value, sizeof(many[k].value), "%zu", k % 3 + 1);
			many[k].order = k + 1;
			many[k].repeat = 1;
			many[k].window_s = 3;   /* short */
			many[k].idle_pct = 50;  /* idle */
			many[k].fig[SF_TRACE_GAP_PCT] = 40; /* traced figures lacking */
			many[k].fig[SF_MB_S] = 100 + (double)k;
		}
		text = report_text(many, 30, &info, metrics, 0);
	}
	has_text(text, "\n  64                0 ");
	ck_assert(!strstr(text, "\n  65 "));
	p = strstr(text, "\nWarnings\n");
	ck_assert_ptr_nonnull(p);
	nwarn = 0;
	for (char *q = p; (q = strstr(q, "\n  warning: ")) != NULL; q++)
		nwarn++;
	ck_assert_uint_eq(nwarn, 64);
	/* three per run: the 64th is run 22's first, and the last */
	if (strlen(p) < 78 || strcmp(p + strlen(p) - 78, "warning: run 22 (1, repeat 1): window 3 s is shorter than 10 intervals (10 s)\n")) {
		fprintf(stderr, "%s", p);
		ck_abort_msg("not the first 64 warnings (on stderr)");
	}
	free(text);

	snprintf(r.out, sizeof(r.out), "%s/out", dir);
	snprintf(r.err, sizeof(r.err), "%s/err", dir);
	snprintf(info_path, sizeof(info_path), "%s/sweep.info", dir);
	snprintf(csv, sizeof(csv), "%s/sweep.csv", dir);
	/* sweep.info a link to a good file: refused, not followed */
	snprintf(cmd, sizeof(cmd), "%s/real.info", dir);
	ck_assert_int_eq(sweep_info_save(cmd, &info, msg, sizeof(msg)), 0);
	ck_assert_int_eq(symlink(cmd, info_path), 0);
	ck_assert_int_eq(unit_in_child(report_child, &r), 1);
	got = slurp(r.err);
	snprintf(cmd, sizeof(cmd), "blktune report: %s: a symbolic link (never followed)\n", info_path);
	ck_assert_str_eq(got, cmd);
	free(got);
	/* a directory */
	ck_assert_int_eq(unlink(info_path), 0);
	ck_assert_int_eq(mkdir(info_path, 0700), 0);
	ck_assert_int_eq(unit_in_child(report_child, &r), 1);
	got = slurp(r.err);
	snprintf(cmd, sizeof(cmd), "blktune report: %s: not a regular file\n", info_path);
	ck_assert_str_eq(got, cmd);
	free(got);
	ck_assert_int_eq(rmdir(info_path), 0);
	/* a good sweep.info, no sweep.csv: the csv is named */
	ck_assert_int_eq(sweep_info_save(info_path, &info, msg, sizeof(msg)), 0);
	ck_assert_int_eq(unit_in_child(report_child, &r), 1);
	got = slurp(r.err);
	snprintf(cmd, sizeof(cmd), "blktune report: %s: No such file or directory\n", csv);
	ck_assert_str_eq(got, cmd);
	free(got);
	/* a sweep.csv of no runs (the sweep stopped before its first): a
	 * report, exit 0 */
	unit_write_file(csv, "value,asked,repeat\n");
	ck_assert_int_eq(unit_in_child(report_child, &r), 0);
	got = slurp(r.out);
	ck_assert_msg(!strncmp(got, "blktune sweep of max_sectors_kb on loop7: ", 42), "%.100s", got);
	free(got);
	/* stdout that cannot be written: exit 1 */
	snprintf(cmd, sizeof(cmd), "%s", r.out);
	snprintf(r.out, sizeof(r.out), "/dev/full");
	ck_assert_int_eq(unit_in_child(report_child, &r), 1);
	snprintf(r.out, sizeof(r.out), "%s", cmd);
	/* a refused file is closed: no descriptor left open */
	{
		int before = unit_count_fds(), err = dup(2), null = open("/dev/null", O_WRONLY);
		char *av[] = { (char *)"report", dir, NULL };

		ck_assert_int_ge(err, 0);
		ck_assert_int_ge(null, 0);
		ck_assert_int_ge(dup2(null, 2), 0); /* the one-line error */
		close(null);
		ck_assert_int_eq(rename(csv, info_path), 0); /* sweep.info: a FIFO next */
		ck_assert_int_eq(unlink(info_path), 0);
		ck_assert_int_eq(mkfifo(info_path, 0600), 0);
		ck_assert_int_eq(sweep_report_main(2, av), 1);
		ck_assert_int_ge(dup2(err, 2), 0);
		close(err);
		ck_assert_int_eq(unit_count_fds(), before);
		ck_assert_int_eq(unlink(info_path), 0);
		ck_assert_int_eq(sweep_info_save(info_path, &info, msg, sizeof(msg)), 0);
	}
	/* a malformed sweep.csv: its line, and nothing on stdout */
	unit_write_file(csv, "value,asked,repeat\n1,1,x\n");
	ck_assert_int_eq(unit_in_child(report_child, &r), 1);
	got = slurp(r.err);
	ck_assert_msg(!strncmp(got, "blktune report: ", 16) && strstr(got, "sweep.csv:") && strstr(got, "line 2") &&
			      strchr(got, '\n') == got + strlen(got) - 1,
		      "%s", got);
	free(got);
	got = slurp(r.out);
	ck_assert_str_eq(got, "");
	free(got);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

START_TEST(test_csv_round_trip)
{
	static struct sweep_run runs[9], back[9];
	struct sweep_metric_opt metrics[1] = { { "ops", "x" } }, mback[SWEEP_METRICS_MAX];
	size_t nm = 0;
	char *text = NULL, msg[128];
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int n;

	fixed_runs(runs);
	runs[0].ncpu = 2;
	for (int c = 0; c < 2; c++)
		for (int k = 0; k < SCP_COUNT; k++)
			runs[0].cpu[c][k] = 10 * c + k + 0.5;
	snprintf(runs[2].snapshot, sizeof(runs[2].snapshot), "/tmp/a,\"b\".snap");
	ck_assert_int_eq(sweep_csv_write(f, runs, 9, metrics, 1), 0);
	fclose(f);
	ck_assert_msg(!strstr(text, "e+"), "scientific notation in %s", text);
	ck_assert(strstr(text, ",1187290000000,") != NULL);
	ck_assert(strstr(text, "value,asked,repeat,order,started,window_s,busy_s,head_idle_s,tail_idle_s,idle_pct,"
			       "intervals,reads,writes,read_bytes,write_bytes,mb_s,") == text);
	ck_assert(strstr(text, ",metric:ops,cpu0_user_pct,cpu0_sys_pct,cpu0_irq_pct,cpu0_softirq_pct,cpu1_user_pct,"
			       "cpu1_sys_pct,cpu1_irq_pct,cpu1_softirq_pct,cmd_status,snapshot\n") != NULL);
	f = fmemopen(text, len, "r");
	n = sweep_csv_read(f, back, 9, mback, &nm, msg, sizeof(msg));
	fclose(f);
	ck_assert_int_eq(n, 9);
	ck_assert_uint_eq(nm, 1);
	ck_assert_str_eq(mback[0].name, "ops");
	for (int i = 0; i < 9; i++) {
		ck_assert_str_eq(back[i].asked, runs[i].asked);
		ck_assert_int_eq(back[i].repeat, runs[i].repeat);
		ck_assert_double_eq(back[i].fig[SF_MB_S], runs[i].fig[SF_MB_S]);
		ck_assert_double_eq(back[i].metric[0], runs[i].metric[0]);
		ck_assert(isnan(back[i].fig[SF_OWN_MB_S]));
	}
	ck_assert_str_eq(back[2].snapshot, "/tmp/a,\"b\".snap");
	ck_assert_uint_eq(back[0].ncpu, 2);
	ck_assert_double_eq(back[0].cpu[1][SCP_SOFTIRQ], 13.5);
	ck_assert_double_eq(back[0].cpu[0][SCP_USER], 0.5);
	ck_assert_uint_eq(back[1].ncpu, 0); /* empty cells: no per-CPU figures */
	free(text);
	/* a row with a bad number is named by line */
	f = fmemopen((char *)"value,asked,repeat\n1,1,x\n", 25, "r");
	ck_assert_int_eq(sweep_csv_read(f, back, 9, mback, &nm, msg, sizeof(msg)), -EINVAL);
	fclose(f);
	ck_assert_msg(strstr(msg, "line 2") != NULL, "%s", msg);
}
END_TEST

/* The value list and the command line as sweep.info keeps them: the
 * length a whole copy needs is returned, and a buffer too short is never
 * written past (64 values of 43 characters once overran values[2048]). */
START_TEST(test_info_lengths)
{
	static struct sweep_opts o;
	static char vals[SWEEP_VALUES_MAX][48];
	char *buf = malloc(2048), small[8];
	char *argv[] = { (char *)"sweep", (char *)"it's" };
	size_t n;

	ck_assert_ptr_nonnull(buf);
	for (size_t v = 0; v < SWEEP_VALUES_MAX; v++) {
		snprintf(vals[v], sizeof(vals[v]), "%043zu", 100 + v);
		o.values[o.nvalues++] = vals[v];
	}
	n = sweep_info_values(&o, buf, 2048);
	ck_assert_uint_eq(n, 64 * 43 + 63);
	/* cut (the length says so) where a piece no longer fits, inside it */
	ck_assert_uint_eq(strlen(buf), 46 * 44);
	ck_assert_int_eq(strncmp(buf + strlen(buf) - 44, vals[45], 43), 0);
	o.nvalues = 3;
	ck_assert_uint_eq(sweep_info_values(&o, buf, 2048), 3 * 43 + 2);
	ck_assert_uint_eq(strlen(buf), 3 * 43 + 2);
	ck_assert_uint_eq(sweep_info_values(&o, NULL, 0), 3 * 43 + 2);
	ck_assert_uint_eq(sweep_info_command(2, argv, NULL, 0), strlen("sweep 'it'\\''s'"));
	ck_assert_uint_eq(sweep_info_command(2, argv, small, sizeof(small)), strlen("sweep 'it'\\''s'"));
	ck_assert_str_eq(small, "sweep '");
	ck_assert_uint_eq(sweep_info_command(2, argv, buf, 2048), strlen(buf));
	ck_assert_str_eq(buf, "sweep 'it'\\''s'");
	free(buf);
}
END_TEST

/* A --run as long as it may be (and the command line quoting it) goes to
 * sweep.info and back whole: the report's "each run:" line is not cut. */
START_TEST(test_info_long_run)
{
	static struct sweep_info in, back;
	static char run[SWEEP_RUN_MAX];
	char *text = NULL, msg[128], *argv[] = { (char *)"sweep", (char *)"--run", run };
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	memset(run, 'x', sizeof(run) - 1);
	memset(run, '\'', 1000); /* each quoted in 4 bytes on the command line */
	run[sizeof(run) - 1] = '\0';
	fixed_info(&in);
	snprintf(in.run, sizeof(in.run), "%s", run);
	ck_assert_uint_lt(sweep_info_command(3, argv, in.command, sizeof(in.command)), sizeof(in.command));
	ck_assert_int_eq(sweep_info_write(f, &in), 0);
	fclose(f);
	f = fmemopen(text, len, "r");
	ck_assert_int_eq(sweep_info_read(f, &back, msg, sizeof(msg)), 0);
	fclose(f);
	ck_assert_str_eq(back.run, run);
	ck_assert_str_eq(back.command, in.command);
	ck_assert_str_eq(back.tunable, "max_sectors_kb");
	free(text);
}
END_TEST

/* Write n runs with ncpu CPUs and nm metrics, read them back. */
static char *csv_cpus(struct sweep_run *runs, size_t n, unsigned ncpu, struct sweep_metric_opt *metrics, size_t nm)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	for (size_t i = 0; i < n; i++) {
		sweep_run_init(&runs[i]);
		snprintf(runs[i].asked, sizeof(runs[i].asked), "%zu", 128 * (i + 1));
		snprintf(runs[i].value, sizeof(runs[i].value), "%zu", 128 * (i + 1));
		runs[i].repeat = 1;
		runs[i].order = i + 1;
		runs[i].status = (int)i + 3;
		runs[i].fig[SF_MB_S] = 100.5 + (double)i;
		snprintf(runs[i].snapshot, sizeof(runs[i].snapshot), "/tmp/run%zu.snap", i);
		for (size_t m = 0; m < nm; m++)
			runs[i].metric[m] = (double)m + 0.25;
		runs[i].ncpu = ncpu;
		for (unsigned c = 0; c < ncpu; c++)
			for (int k = 0; k < SCP_COUNT; k++)
				runs[i].cpu[c][k] = c * 0.5 + k + 0.125;
	}
	ck_assert_int_eq(sweep_csv_write(f, runs, n, metrics, nm), 0);
	fclose(f);
	return text;
}

/* Per-CPU columns at every count the writer writes (up to the runner's
 * SWEEP_CPUS_MAX), with and without all 8 metrics: nothing lost, nothing
 * shifted. Fields were capped at 82, so with 7 CPUs the snapshot column
 * was dropped, with 8 cmd_status read as -1 and later CPUs vanished. */
START_TEST(test_csv_many_cpus)
{
	static struct sweep_run runs[2], back[2];
	static const unsigned ncpus[] = { 1, 7, 8, SWEEP_CPUS_MAX };
	struct sweep_metric_opt metrics[SWEEP_METRICS_MAX], mback[SWEEP_METRICS_MAX];
	char msg[128];

	for (size_t m = 0; m < SWEEP_METRICS_MAX; m++) {
		snprintf(metrics[m].name, sizeof(metrics[m].name), "m%zu", m);
		metrics[m].regex = "x";
	}
	for (size_t i = 0; i < sizeof(ncpus) / sizeof(ncpus[0]); i++)
		for (size_t nm = 0; nm <= SWEEP_METRICS_MAX; nm += SWEEP_METRICS_MAX) {
			char *text = csv_cpus(runs, 2, ncpus[i], metrics, nm);
			size_t nmb = 0;
			FILE *f = fmemopen(text, strlen(text), "r");
			int n = sweep_csv_read(f, back, 2, mback, &nmb, msg, sizeof(msg));

			fclose(f);
			ck_assert_msg(n == 2, "%u CPUs, %zu metrics: %d (%s)", ncpus[i], nm, n, n < 0 ? msg : "");
			ck_assert_uint_eq(nmb, nm);
			for (size_t r = 0; r < 2; r++) {
				ck_assert_uint_eq(back[r].ncpu, ncpus[i]);
				ck_assert_int_eq(back[r].status, (int)r + 3);
				ck_assert_str_eq(back[r].snapshot, runs[r].snapshot);
				ck_assert_double_eq(back[r].fig[SF_MB_S], runs[r].fig[SF_MB_S]);
				for (size_t m = 0; m < nm; m++)
					ck_assert_double_eq(back[r].metric[m], runs[r].metric[m]);
				for (unsigned c = 0; c < ncpus[i]; c++)
					for (int k = 0; k < SCP_COUNT; k++)
						ck_assert_double_eq(back[r].cpu[c][k], runs[r].cpu[c][k]);
			}
			free(text);
		}
}
END_TEST

/* Read the CSV text into back (up to max runs); -errno or the runs read. */
static int csv_read_text(const char *text, struct sweep_run *back, size_t max, struct sweep_metric_opt *mback,
			 size_t *nm, char *msg, size_t len)
{
	FILE *f = *text ? fmemopen((char *)text, strlen(text), "r") : fopen("/dev/null", "r");
	int n;

	ck_assert_ptr_nonnull(f);
	n = sweep_csv_read(f, back, max, mback, nm, msg, len);
	fclose(f);
	return n;
}

/* The header's per-CPU groups: as many as the widest of the n runs
 * written, none when no run has per-CPU figures, and a run past n is
 * never looked at. */
START_TEST(test_csv_cpu_columns)
{
	static struct sweep_run runs[2];
	struct sweep_metric_opt metrics[1] = { { "ops", "x" } };
	size_t ncols = 0;
	char *text;

	text = csv_cpus(runs, 2, 0, metrics, 1);
	ck_assert_msg(!strstr(text, "cpu0_"), "%s", text);
	ck_assert_msg(strstr(text, ",mb_s,") && strstr(text, ",metric:ops,cmd_status,snapshot\n"), "%s", text);
	free(text);
	/* runs[1] is beyond n = 1: its 3 CPUs must not widen the header */
	runs[0].ncpu = 1;
	runs[1].ncpu = 3;
	text = NULL;
	{
		size_t len = 0;
		FILE *f = open_memstream(&text, &len);

		ck_assert_int_eq(sweep_csv_write(f, runs, 1, metrics, 1), 0);
		fclose(f);
	}
	ck_assert_msg(strstr(text, ",metric:ops,cpu0_user_pct,cpu0_sys_pct,cpu0_irq_pct,cpu0_softirq_pct,"
				   "cmd_status,snapshot\n"), "%s", text);
	for (const char *p = text; *p != '\n'; p++)
		ncols += *p == ',';
	/* 11 lead columns, the figures, one metric, one CPU's 4 parts, 2 tail columns */
	ck_assert_uint_eq(ncols + 1, 11 + SF_COUNT + 1 + 4 + 2);
	free(text);
}
END_TEST

/* What the reader does at its edges: every failure path names line 1 or
 * the row, every cell it cannot take is refused, nothing of a previous
 * read or of an unknown column leaks into a run. */
START_TEST(test_csv_read_edges)
{
	static struct sweep_run back[2];
	struct sweep_metric_opt mback[SWEEP_METRICS_MAX];
	static char tiny[400];
	size_t nm = 0;
	char msg[128];

	/* no header at all */
	msg[0] = '\0';
	ck_assert_int_eq(csv_read_text("", back, 2, mback, &nm, msg, sizeof(msg)), -EINVAL);
	ck_assert_str_eq(msg, "line 1: no CSV header");
	/* the shortest header taken: value and one column more */
	ck_assert_int_eq(csv_read_text("value,asked\n128,64\n", back, 2, mback, &nm, msg, sizeof(msg)), 1);
	ck_assert_str_eq(back[0].value, "128");
	ck_assert_str_eq(back[0].asked, "64");
	ck_assert_int_eq(csv_read_text("value\n128\n", back, 2, mback, &nm, msg, sizeof(msg)), -EINVAL);
	/* a column this version does not know is skipped, whatever it holds */
	ck_assert_int_eq(csv_read_text("value,future,asked\n128,junk,64\n", back, 2, mback, &nm, msg, sizeof(msg)), 1);
	ck_assert_str_eq(back[0].value, "128");
	ck_assert_str_eq(back[0].asked, "64");
	/* ... an empty name too, after a CPU column (no per-CPU figure of it) */
	ck_assert_int_eq(csv_read_text("value,cpu1_user_pct,,asked\n128,5,7,64\n", back, 2, mback, &nm, msg,
				       sizeof(msg)), 1);
	ck_assert_double_eq(back[0].cpu[1][SCP_USER], 5);
	ck_assert_uint_eq(back[0].ncpu, 2);
	ck_assert_str_eq(back[0].asked, "64");
	/* ... and a name that only starts like a CPU column */
	ck_assert_int_eq(csv_read_text("value,cpu1_user_pct,cpu1_user_pctX,asked\n128,5,7,64\n", back, 2, mback, &nm,
				       msg, sizeof(msg)), 1);
	ck_assert_double_eq(back[0].cpu[1][SCP_USER], 5);
	/* the last line without its LF keeps its last character */
	ck_assert_int_eq(csv_read_text("value,snapshot\n128,/tmp/x.snap", back, 2, mback, &nm, msg, sizeof(msg)), 1);
	ck_assert_str_eq(back[0].snapshot, "/tmp/x.snap");
	/* metric names from the header come without a regex, whatever the
	 * array held before; runs read over stale ones start afresh */
	for (size_t m = 0; m < SWEEP_METRICS_MAX; m++)
		mback[m].regex = "stale";
	memset(back, 0x5a, sizeof(back));
	ck_assert_int_eq(csv_read_text("value,metric:ops,started,cpu0_user_pct\n128,3.5,,\n", back, 2, mback, &nm, msg,
				       sizeof(msg)), 1);
	ck_assert_uint_eq(nm, 1);
	ck_assert_str_eq(mback[0].name, "ops");
	ck_assert_ptr_null(mback[0].regex);
	ck_assert_double_eq(back[0].metric[0], 3.5);
	ck_assert_str_eq(back[0].asked, "");
	ck_assert_int_eq(back[0].status, -1);
	ck_assert_int_eq(back[0].repeat, 0);
	ck_assert(isnan(back[0].fig[SF_MB_S]) && isnan(back[0].metric[1]));
	/* an empty cell is a figure not measured: NAN, not sweep_run_init's 0 */
	ck_assert(isnan(back[0].started));
	ck_assert(isnan(back[0].cpu[0][SCP_USER]));
	ck_assert_uint_eq(back[0].ncpu, 0);
	/* whole numbers are decimal: 19 and 10 as written, a letter refused */
	ck_assert_int_eq(csv_read_text("value,repeat,cmd_status\n128,19,10\n", back, 2, mback, &nm, msg, sizeof(msg)),
			 1);
	ck_assert_int_eq(back[0].repeat, 19);
	ck_assert_int_eq(back[0].status, 10);
	ck_assert_int_eq(csv_read_text("value,cmd_status\n128,1a\n", back, 2, mback, &nm, msg, sizeof(msg)), -EINVAL);
	ck_assert_msg(strstr(msg, "line 2: bad cmd_status '1a'"), "%s", msg);
	/* a whole number is taken up to the limits of its field, and past
	 * them refused, never wrapped (an exit status of 2^32 + 3 was read
	 * as 3, an order of -1 as SIZE_MAX) */
	snprintf(tiny, sizeof(tiny), "value,cmd_status,order\n128,%d,%zu\n256,%d,0\n", INT_MIN, SIZE_MAX, INT_MAX);
	ck_assert_msg(csv_read_text(tiny, back, 2, mback, &nm, msg, sizeof(msg)) == 2, "%s", msg);
	ck_assert_int_eq(back[0].status, INT_MIN);
	ck_assert_uint_eq(back[0].order, SIZE_MAX);
	ck_assert_int_eq(back[1].status, INT_MAX);
	ck_assert_uint_eq(back[1].order, 0);
	static const char *const wide[] = {
		"value,cmd_status\n128,4294967299\n", "value,cmd_status\n128,2147483648\n",
		"value,cmd_status\n128,-2147483649\n", "value,order\n128,-1\n",
		"value,intervals\n128, -1\n", "value,order\n128,18446744073709551616\n",
	};
	for (size_t i = 0; i < sizeof(wide) / sizeof(wide[0]); i++)
		ck_assert_msg(csv_read_text(wide[i], back, 2, mback, &nm, msg, sizeof(msg)) == -EINVAL &&
				      strstr(msg, "line 2: bad "), "%s: %s", wide[i], msg);
	/* a cell that strtod rounds up to DBL_MIN (ERANGE: tiny before
	 * rounding) is that normal number, no error */
	snprintf(tiny, sizeof(tiny), "value,mb_s\n128,0.%0307d22250738585072012\n", 0);
	ck_assert_msg(csv_read_text(tiny, back, 2, mback, &nm, msg, sizeof(msg)) == 1, "%s", msg);
	ck_assert_double_eq(back[0].fig[SF_MB_S], DBL_MIN);
}
END_TEST

/* Columns the runs cannot hold are an error naming the line, never dropped. */
START_TEST(test_csv_too_many_columns)
{
	static struct sweep_run runs[1], back[1];
	struct sweep_metric_opt metrics[SWEEP_METRICS_MAX], mback[SWEEP_METRICS_MAX];
	char msg[128], *text, *big, *nl;
	size_t nmb, len;
	FILE *f;

	for (size_t m = 0; m < SWEEP_METRICS_MAX; m++) {
		snprintf(metrics[m].name, sizeof(metrics[m].name), "m%zu", m);
		metrics[m].regex = "x";
	}
	text = csv_cpus(runs, 1, SWEEP_CPUS_MAX, metrics, SWEEP_METRICS_MAX);
	len = strlen(text);
	/* the widest CSV the writer writes, plus one field in the row only */
	big = malloc(len + 8);
	snprintf(big, len + 8, "%.*s,x\n", (int)len - 1, text);
	f = fmemopen(big, strlen(big), "r");
	ck_assert_int_eq(sweep_csv_read(f, back, 1, mback, &nmb, msg, sizeof(msg)), -EINVAL);
	fclose(f);
	ck_assert_msg(strstr(msg, "line 2: more than ") != NULL, "%s", msg);
	/* ... and one more column in the header too */
	nl = strchr(text, '\n');
	snprintf(big, len + 8, "%.*s,x\n%.*s,x\n", (int)(nl - text), text, (int)(len - 1 - (size_t)(nl + 1 - text)),
		 nl + 1);
	f = fmemopen(big, strlen(big), "r");
	ck_assert_int_eq(sweep_csv_read(f, back, 1, mback, &nmb, msg, sizeof(msg)), -EINVAL);
	fclose(f);
	ck_assert_msg(strstr(msg, "line 1: more than ") != NULL, "%s", msg);
	free(big);
	free(text);
	/* a CPU past the limit, a ninth metric */
	static const char *const heads[] = {
		"value,cpu64_user_pct\n1,2\n",
		"value,metric:a,metric:b,metric:c,metric:d,metric:e,metric:f,metric:g,metric:h,metric:i\n"
		"1,1,1,1,1,1,1,1,1,1\n",
	};
	for (size_t i = 0; i < 2; i++) {
		f = fmemopen((char *)heads[i], strlen(heads[i]), "r");
		ck_assert_int_eq(sweep_csv_read(f, back, 1, mback, &nmb, msg, sizeof(msg)), -EINVAL);
		fclose(f);
		ck_assert_msg(!strncmp(msg, "line 1: ", 8), "%s", msg);
	}
}
END_TEST

/* Numbers round-trip in plain notation: a --metric of 0.0000123 was
 * written 1.23e-05, which the man page forbids. */
START_TEST(test_csv_plain_numbers)
{
	static struct sweep_run runs[1], back[1];
	struct sweep_metric_opt metrics[1] = { { "tiny", "x" } }, mback[SWEEP_METRICS_MAX];
	static const double v[] = { 0.0000123, 1.2345678912e-9, 5.422222222222222e98, -DBL_MAX, DBL_TRUE_MIN };
	char msg[128];

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		char *text = csv_cpus(runs, 1, 1, metrics, 1);
		size_t nmb, len = 0;
		FILE *f;

		free(text);
		runs[0].metric[0] = v[i];
		runs[0].cpu[0][SCP_SYS] = v[i];
		text = NULL;
		f = open_memstream(&text, &len);
		ck_assert_int_eq(sweep_csv_write(f, runs, 1, metrics, 1), 0);
		fclose(f);
		ck_assert_msg(!strpbrk(strchr(text, '\n'), "eE"), "an exponent in %s", text);
		ck_assert_msg(i || strstr(text, ",0.0000123,"), "%s", text);
		f = fmemopen(text, strlen(text), "r");
		ck_assert_msg(sweep_csv_read(f, back, 1, mback, &nmb, msg, sizeof(msg)) == 1, "%g: %s", v[i], msg);
		fclose(f);
		ck_assert_msg(fabs(back[0].metric[0] - v[i]) <= 1e-8 * fabs(v[i]), "%g read back as %g", v[i],
			      back[0].metric[0]);
		ck_assert_msg(fabs(back[0].cpu[0][SCP_SYS] - v[i]) <= 1e-8 * fabs(v[i]), "%g", v[i]);
		free(text);
	}
}
END_TEST

START_TEST(test_info_round_trip)
{
	static struct sweep_info in, back;
	char *text = NULL, msg[128];
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	char *argv[] = { (char *)"sweep", (char *)"loop7", (char *)"--run", (char *)"fio 'a b'.fio" };

	fixed_info(&in);
	sweep_info_command(4, argv, in.command, sizeof(in.command));
	ck_assert_str_eq(in.command, "sweep loop7 --run 'fio '\\''a b'\\''.fio'");
	ck_assert_int_eq(sweep_info_write(f, &in), 0);
	fclose(f);
	f = fmemopen(text, len, "r");
	ck_assert_int_eq(sweep_info_read(f, &back, msg, sizeof(msg)), 0);
	fclose(f);
	ck_assert_str_eq(back.tunable, "max_sectors_kb");
	ck_assert_str_eq(back.command, in.command);
	ck_assert_uint_eq(back.ntun, 2);
	ck_assert_str_eq(back.tun[1].name, "nr_requests");
	ck_assert_str_eq(back.tun[1].value, "256");
	ck_assert_double_eq(back.max_hw_sectors_kb, 1280);
	ck_assert_double_eq(back.size_bytes, 536870912);
	ck_assert(isnan(back.max_sectors_kb));
	free(text);
}
END_TEST


/* Strings in sweep.csv and sweep.info are sanitised (an ESC from a command
 * line or a doctored file never reaches a terminal) and CSV fields quoted as
 * RFC 4180 says; both files are written through safe_save (a planted link
 * replaced, never followed; an unsafe directory refused); blktune report
 * opens them without following links or blocking and refuses what is not a
 * regular file. */
START_TEST(test_files_sanitised_and_safe)
{
	static struct sweep_run runs[9], back[9];
	static struct sweep_info in, iback;
	struct sweep_metric_opt metrics[1] = { { "ops", "x" } }, mback[SWEEP_METRICS_MAX];
	char tmpl[] = "/tmp/blktune-unit-XXXXXX", *dir = mkdtemp(tmpl), path[4200], victim[4200], msg[4400];
	char *text = NULL, *argv[] = { (char *)"report", dir };
	size_t len = 0, nm = 0;
	FILE *f;
	int saved_err;

	ck_assert_ptr_nonnull(dir);
	fixed_runs(runs);
	snprintf(runs[0].value, sizeof(runs[0].value), "a\033[2Jb");
	snprintf(runs[1].value, sizeof(runs[1].value), "x,\"y\"\r\nz");
	f = open_memstream(&text, &len);
	ck_assert_int_eq(sweep_csv_write(f, runs, 9, metrics, 1), 0);
	fclose(f);
	ck_assert_msg(!strchr(text, '\033') && !strchr(text, '\r'), "control bytes in %s", text);
	ck_assert_msg(strstr(text, "\na?[2Jb,"), "%s", text);
	ck_assert_msg(strstr(text, "\n\"x,\"\"y\"\"??z\","), "%s", text); /* RFC 4180 quoting */
	f = fmemopen(text, len, "r");
	ck_assert_int_eq(sweep_csv_read(f, back, 9, mback, &nm, msg, sizeof(msg)), 9);
	fclose(f);
	ck_assert_str_eq(back[1].value, "x,\"y\"??z");
	free(text);
	/* A doctored CSV: what is read is sanitised too. */
	{
		static char bad[] = "value,asked,repeat\n\033]0;t\007,1,1\n";
		f = fmemopen(bad, strlen(bad), "r");
		ck_assert_int_eq(sweep_csv_read(f, back, 9, mback, &nm, msg, sizeof(msg)), 1);
		fclose(f);
		ck_assert_str_eq(back[0].value, "?]0;t?");
	}
	/* sweep.info: an ESC in the host is written as '?'; one in a doctored
	 * file is read as '?'. */
	fixed_info(&in);
	snprintf(in.host, sizeof(in.host), "h\033[31m");
	text = NULL;
	f = open_memstream(&text, &len);
	ck_assert_int_eq(sweep_info_write(f, &in), 0);
	fclose(f);
	ck_assert_msg(!strchr(text, '\033'), "%s", text);
	free(text);
	{
		static char bad[] = "blktune-sweep-info 1\nhost x\033[2Jy\ntunable read_ahead_kb 1\033c\n"
				    "values 1\nbaseline 1\n";
		f = fmemopen(bad, strlen(bad), "r");
		ck_assert_int_eq(sweep_info_read(f, &iback, msg, sizeof(msg)), 0);
		fclose(f);
		ck_assert_str_eq(iback.host, "x?[2Jy");
		ck_assert_str_eq(iback.tun[0].value, "1?c");
	}
	/* Written through safe_save: a link planted at sweep.csv is replaced,
	 * its target untouched; nothing of the temporary file stays. */
	snprintf(victim, sizeof(victim), "%s/victim", dir);
	unit_write_file(victim, "precious\n");
	snprintf(path, sizeof(path), "%s/sweep.csv", dir);
	ck_assert_int_eq(symlink(victim, path), 0);
	ck_assert_int_eq(sweep_csv_save(path, runs, 9, metrics, 1, msg, sizeof(msg)), 0);
	ck_assert_str_eq(unit_slurp(victim), "precious\n");
	text = slurp(path);
	ck_assert(strncmp(text, "value,asked,", 12) == 0);
	free(text);
	snprintf(path, sizeof(path), "%s/sweep.info", dir);
	ck_assert_int_eq(symlink(victim, path), 0);
	ck_assert_int_eq(sweep_info_save(path, &in, msg, sizeof(msg)), 0);
	ck_assert_str_eq(unit_slurp(victim), "precious\n");
	/* The report reads them. */
	ck_assert_int_eq(sweep_report_main(2, argv), 0);
	/* A FIFO as sweep.info: refused at once, never waited on. */
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(mkfifo(path, 0600), 0);
	ck_assert_int_eq(sweep_report_main(2, argv), 1);
	/* A link as sweep.info: never followed. */
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(symlink(victim, path), 0);
	ck_assert_int_eq(sweep_report_main(2, argv), 1);
	/* A directory others can write: refused, nothing written. */
	ck_assert_int_eq(chmod(dir, 0777), 0);
	saved_err = sweep_csv_save(path, runs, 9, metrics, 1, msg, sizeof(msg));
	ck_assert_int_eq(saved_err, -EPERM);
	ck_assert_msg(strstr(msg, "writable by group or others"), "%s", msg);
	ck_assert_int_eq(chmod(dir, 0700), 0);
	unit_rmtree(dir);
}
END_TEST

START_TEST(test_plot_error_bars)
{
	/* y 100 and 50; the second's bar reaches 400 (beyond 1.5 x 100) */
	struct plot_point p[3] = {
		{ 128, 100, "128", 90, 110 }, { 1024, 50, "1024", 0, 400 }, { 8192, NAN, "8192", 0, 0 },
	};
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	char *rows[16];
	int n = 0;

	ck_assert_int_eq(plot_draw(f, p, 3, 21, 11, "read_ahead_kb", "MB/s"), 0);
	fclose(f);
	ck_assert_msg(strstr(text, "MB/s against read_ahead_kb (log scale)\n") == text, "%s", text);
	for (char *save = NULL, *l = strtok_r(text, "\n", &save); l && n < 16; l = strtok_r(NULL, "\n", &save))
		rows[n++] = l;
	/* title, 11 plot rows, axis, labels; the axis tops at 150 */
	ck_assert_int_eq(n, 14);
	ck_assert_msg(strstr(rows[1], "150.0 |") != NULL, "%s", rows[1]);
	/* column 11 of the plot area (after "%9s |") is the second point */
	ck_assert_int_eq(rows[1][11 + 10], '^');
	ck_assert_int_eq(rows[11][11 + 10], '-');
	ck_assert_int_eq(rows[1 + 7][11 + 10], '*');   /* 50 of 150 over 10 steps: row 7 */
	ck_assert_int_eq(rows[1 + 3][11], '*');        /* 100: row 3 */
	ck_assert_int_eq(rows[1 + 4][11], '-');        /* 90: the lower cap (110 shares the point's row) */
	free(text);
}
END_TEST

/* The fuzz seeds stay valid inputs (else make fuzz-sweep explores nothing). */
START_TEST(test_fuzz_seeds_parse)
{
	static struct sweep_run runs[SWEEP_RUNS_MAX];
	static struct sweep_info info;
	struct sweep_metric_opt m[SWEEP_METRICS_MAX];
	struct sweep_run r;
	size_t nm;
	char msg[256];
	char *t;
	FILE *f;

	t = slurp(unit_fixture("../fuzz/corpus-sweep/fio.seed"));
	ck_assert_int_eq(t[0], 0);
	sweep_run_init(&r);
	ck_assert_int_eq(sweep_workload_fio_parse(t + 1, &r), 0);
	free(t);
	t = slurp(unit_fixture("../fuzz/corpus-sweep/csv.seed"));
	ck_assert_int_eq(t[0], 1);
	f = fmemopen(t + 1, strlen(t + 1), "r");
	ck_assert_int_gt(sweep_csv_read(f, runs, SWEEP_RUNS_MAX, m, &nm, msg, sizeof(msg)), 0);
	fclose(f);
	free(t);
	t = slurp(unit_fixture("../fuzz/corpus-sweep/info.seed"));
	ck_assert_int_eq(t[0], 2);
	f = fmemopen(t + 1, strlen(t + 1), "r");
	ck_assert_int_eq(sweep_info_read(f, &info, msg, sizeof(msg)), 0);
	ck_assert_str_eq(info.tunable, "max_sectors_kb");
	fclose(f);
	free(t);
}
END_TEST

/* sweep.info with a baseline read as text and its verdicts: none, with
 * msg, when it is refused. */
static int info_text_read(const char *baseline_line, char *msg, size_t len)
{
	static struct sweep_info in, back;
	char *text = NULL, *t;
	size_t n = 0;
	FILE *f = open_memstream(&text, &n);
	int err;

	fixed_info(&in);
	ck_assert_int_eq(sweep_info_write(f, &in), 0);
	fclose(f);
	t = strstr(text, "baseline 32\n");
	ck_assert_ptr_nonnull(t);
	ck_assert_int_ne(asprintf(&t, "%.*s%s%s", (int)(t - text), text, baseline_line, t + 12), -1);
	f = fmemopen(t, strlen(t), "r");
	err = sweep_info_read(f, &back, msg, len);
	fclose(f);
	free(t);
	free(text);
	return err;
}

/* A baseline that is not one of the swept values (no sweep writes one:
 * --baseline must be one, the default is) is a sweep.info blktune report
 * refuses in one line naming the line, exit status 1, as any bad file of
 * the directory: it used to print "baseline: 999" and judge against the
 * first value. */
START_TEST(test_report_baseline_not_swept)
{
	static const struct {
		const char *line, *why;
	} ref[] = {
		{ "baseline 999\n", "line 7: baseline 999 is not one of the swept values" },
		{ "baseline 3\n", "line 7: baseline 3 is not one of the swept values" },
		{ "baseline 1024,4096\n", "line 7: baseline 1024,4096 is not one of the swept values" },
		{ "baseline \n", "line 7: baseline  is not one of the swept values" },
		{ "", "line 30: no baseline line" }, /* the last line */
		{ "baseline 4096\n", NULL },
		{ "baseline 1024\n", NULL },
	};
	static struct sweep_run runs[9];
	static struct sweep_info in;
	struct sweep_metric_opt metrics[1] = { { "ops", "x" } };
	char tmpl[] = "/tmp/blktune-unit-XXXXXX", *dir = mkdtemp(tmpl), path[4200], msg[256], *err;
	char *argv[] = { (char *)"report", dir };
	int saved, fd;

	/* blktune report on such a directory: one line on stderr, status 1 */
	ck_assert_ptr_nonnull(dir);
	fixed_runs(runs);
	snprintf(path, sizeof(path), "%s/sweep.csv", dir);
	ck_assert_int_eq(sweep_csv_save(path, runs, 9, metrics, 1, msg, sizeof(msg)), 0);
	fixed_info(&in);
	snprintf(in.baseline, sizeof(in.baseline), "999");
	snprintf(path, sizeof(path), "%s/sweep.info", dir);
	ck_assert_int_eq(sweep_info_save(path, &in, msg, sizeof(msg)), 0);
	snprintf(path, sizeof(path), "%s/stderr", dir);
	fflush(stderr);
	saved = dup(2);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ck_assert_int_ge(fd, 0);
	dup2(fd, 2);
	close(fd);
	fd = sweep_report_main(2, argv);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	ck_assert_int_eq(fd, 1);
	err = slurp(path);
	snprintf(msg, sizeof(msg), "blktune report: %s/sweep.info:line 7: baseline 999 is not one of the swept values\n",
		 dir);
	ck_assert_str_eq(err, msg);
	free(err);
	unit_rmtree(dir);
	/* the reader: the baseline's line named; a value's prefix, two values
	 * or nothing are no value; the file's other values are */
	for (size_t i = 0; i < sizeof(ref) / sizeof(ref[0]); i++) {
		int r = info_text_read(ref[i].line, msg, sizeof(msg));
		if (!ref[i].why)
			ck_assert_msg(r == 0, "%s: %s", ref[i].line, msg);
		else if (r != -EINVAL || strcmp(msg, ref[i].why))
			ck_abort_msg("%s: got %d '%s', want '%s'", ref[i].line, r, msg, ref[i].why);
	}
}
END_TEST

/* A run's label names its files: whole up to SWEEP_LABEL_MAX - 1
 * characters, one more and the value's head is kept with its CRC-32C, so
 * two long values that differ at their end (CPU lists of a large machine)
 * still name different files. */
START_TEST(test_label)
{
	char l[SWEEP_LABEL_MAX], l2[SWEEP_LABEL_MAX], v[TUNABLE_VALUE_MAX], name[TUNABLE_NAME_MAX], want[400];
	size_t head;

	sweep_label(l, "read_ahead_kb", "128", 1);
	ck_assert_str_eq(l, "read_ahead_kb=128-r1");
	sweep_label(l, "irq/36", "0,2-3", 12);
	ck_assert_str_eq(l, "irq_36=0_2-3-r12");

	/* "nr_requests=" (12) + 144 + "-r1" (3): 159, kept whole */
	memset(v, 'a', 144);
	v[144] = '\0';
	sweep_label(l, "nr_requests", v, 1);
	snprintf(want, sizeof(want), "nr_requests=%s-r1", v);
	ck_assert_str_eq(l, want);
	ck_assert_uint_eq(strlen(l), SWEEP_LABEL_MAX - 1);

	/* one more: the head is what "-h" + 8 hex digits and "-r1" leave */
	memset(v, 'a', 145);
	v[145] = '\0';
	sweep_label(l, "nr_requests", v, 1);
	ck_assert_uint_eq(strlen(l), SWEEP_LABEL_MAX - 1);
	head = SWEEP_LABEL_MAX - 1 - strlen("nr_requests=") - strlen("-h12345678") - strlen("-r1");
	snprintf(want, sizeof(want), "nr_requests=%.*s-h%08x-r1", (int)head, v, (unsigned)crc32c(0, v, 145));
	ck_assert_str_eq(l, want);
	v[144] = 'b';
	sweep_label(l2, "nr_requests", v, 1);
	ck_assert_uint_eq(strlen(l2), SWEEP_LABEL_MAX - 1);
	ck_assert_int_eq(strncmp(l, l2, strlen("nr_requests=") + head), 0);
	ck_assert_str_ne(l, l2);

	/* the longest name, value and repeat there can be */
	memset(name, 'n', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	memset(v, '7', sizeof(v) - 1);
	v[sizeof(v) - 1] = '\0';
	sweep_label(l, name, v, LONG_MAX);
	ck_assert_uint_eq(strlen(l), SWEEP_LABEL_MAX - 1);
	ck_assert_int_eq(strncmp(l, name, strlen(name)), 0);
	snprintf(want, sizeof(want), "-h%08x-r%ld", (unsigned)crc32c(0, v, strlen(v)), LONG_MAX);
	ck_assert_str_eq(l + strlen(l) - strlen(want), want);
}
END_TEST

UNIT_SUITE(sweep_suite)
static Suite *sweep_suite(void)
{
	Suite *s = suite_create("sweep");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_window_trims_idle_head_and_tail);
	tcase_add_test(tc, test_window_no_io);
	tcase_add_test(tc, test_window_one_request_in_flight);
	tcase_add_test(tc, test_window_parse_stat);
	tcase_add_test(tc, test_fio_json);
	tcase_add_test(tc, test_fio_command);
	tcase_add_test(tc, test_metric);
	tcase_add_test(tc, test_figure_directions);
	tcase_add_test(tc, test_figure_lookup_and_list);
	tcase_add_test(tc, test_run_init_and_figures);
	tcase_add_test(tc, test_read_tail);
	tcase_add_test(tc, test_format_plain);
	tcase_add_test(tc, test_format_exact);
	tcase_add_test(tc, test_report_from_files_is_report_from_memory);
	tcase_add_test(tc, test_stats_by_hand);
	tcase_add_test(tc, test_stats_edges);
	tcase_add_test(tc, test_warnings_edges);
	tcase_add_test(tc, test_warnings_kernel_value);
	tcase_add_test(tc, test_report_fields_and_ci);
	tcase_add_test(tc, test_report_text_exact);
	tcase_add_test(tc, test_report_main);
	tcase_add_test(tc, test_report_edges);
	tcase_add_test(tc, test_verdict_direction);
	tcase_add_test(tc, test_csv_round_trip);
	tcase_add_test(tc, test_csv_many_cpus);
	tcase_add_test(tc, test_csv_too_many_columns);
	tcase_add_test(tc, test_csv_cpu_columns);
	tcase_add_test(tc, test_csv_read_edges);
	tcase_add_test(tc, test_csv_plain_numbers);
	tcase_add_test(tc, test_info_round_trip);
	tcase_add_test(tc, test_info_lengths);
	tcase_add_test(tc, test_info_long_run);
	tcase_add_test(tc, test_files_sanitised_and_safe);
	tcase_add_test(tc, test_report_baseline_not_swept);
	tcase_add_test(tc, test_plot_error_bars);
	tcase_add_test(tc, test_fuzz_seeds_parse);
	tcase_add_test(tc, test_label);
	suite_add_tcase(s, tc);
	return s;
}
