/* Prometheus exposition of a hand-made sample: every value below is computed
 * by hand from the counters set here, not by blktune's code. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exporter.h"
#include "ms-wrap.h"
#include "output-prom.h"
#include "sample.h"
#include "trace.h"
#include "unit.h"

static char *render_ts(const struct sample *s, long long ts)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(output_prom(f, s, ts, NULL), 0);
	fclose(f);
	return buf;
}

static char *render(const struct sample *s)
{
	return render_ts(s, 0);
}

static struct disk_sample *add(struct sample *s, const char *name, int nfields)
{
	struct disk_sample *d = sample_add_disk(s);

	ck_assert_ptr_nonnull(d);
	snprintf(d->st.name, sizeof(d->st.name), "%s", name);
	d->st.nfields = nfields;
	d->info.has_queue = true;
	d->info.read_ahead_kb = 128;
	d->info.max_sectors_kb = 1280;
	d->info.max_hw_sectors_kb = -1;
	d->info.nr_requests = 64;
	snprintf(d->info.scheduler, sizeof(d->info.scheduler), "mq-deadline");
	return d;
}

START_TEST(counters_in_base_units)
{
	struct sample s;
	struct disk_sample *d;
	char *out;

	sample_init(&s);
	d = add(&s, "nvme0n1", 20);
	d->st.rd_ios = 10, d->st.rd_sectors = 24, d->st.rd_ticks = 1234;
	d->st.wr_sectors = 1, d->st.time_in_queue = 5, d->st.in_flight = 3;
	d->st.fl_ios = 7, d->st.fl_ticks = 1000;
	d = add(&s, "sda", 14);
	d->st.dc_ios = 99; /* a 14-field line has no discard counters to show */
	out = render(&s);
	ck_assert_ptr_nonnull(strstr(out, "# TYPE blktune_reads_completed_total counter\n"));
	ck_assert_ptr_nonnull(strstr(out, "blktune_reads_completed_total{device=\"nvme0n1\"} 10\n"));
	ck_assert_ptr_nonnull(strstr(out, "blktune_read_bytes_total{device=\"nvme0n1\"} 12288\n"));    /* 24 * 512 */
	ck_assert_ptr_nonnull(strstr(out, "blktune_read_time_seconds_total{device=\"nvme0n1\"} 1.234\n"));
	ck_assert_ptr_nonnull(strstr(out, "blktune_written_bytes_total{device=\"nvme0n1\"} 512\n"));
	ck_assert_ptr_nonnull(strstr(out, "blktune_io_time_weighted_seconds_total{device=\"nvme0n1\"} 0.005\n"));
	ck_assert_ptr_nonnull(strstr(out, "# TYPE blktune_io_now gauge\n"));
	ck_assert_ptr_nonnull(strstr(out, "blktune_io_now{device=\"nvme0n1\"} 3\n"));
	ck_assert_ptr_nonnull(strstr(out, "blktune_flush_requests_total{device=\"nvme0n1\"} 7\n"));
	ck_assert_ptr_nonnull(strstr(out, "blktune_flush_requests_time_seconds_total{device=\"nvme0n1\"} 1.000\n"));
	ck_assert_ptr_null(strstr(out, "blktune_discards_completed_total{device=\"sda\"}"));
	ck_assert_ptr_null(strstr(out, "blktune_flush_requests_total{device=\"sda\"}"));
	ck_assert_ptr_nonnull(strstr(out, "blktune_reads_completed_total{device=\"sda\"} 0\n"));
	/* gauges: kB become bytes; unknown (-1) is left out */
	ck_assert_ptr_nonnull(strstr(out, "blktune_read_ahead_bytes{device=\"sda\"} 131072\n"));
	ck_assert_ptr_nonnull(strstr(out, "blktune_max_sectors_bytes{device=\"sda\"} 1310720\n"));
	ck_assert_ptr_null(strstr(out, "blktune_max_hw_sectors_bytes"));
	ck_assert_ptr_nonnull(strstr(out, "blktune_scheduler{device=\"sda\",scheduler=\"mq-deadline\"} 1\n"));
	ck_assert_ptr_nonnull(strstr(out, "blktune_scheduler{device=\"nvme0n1\","));
	/* one HELP and TYPE per family, however many devices */
	ck_assert_ptr_null(strstr(strstr(out, "# TYPE blktune_read_bytes_total") + 1, "# TYPE blktune_read_bytes_total"));
	ck_assert_ptr_null(strstr(out, "e+"));
	free(out);
	sample_free(&s);
}
END_TEST

/* A queue without a scheduler file (zram) has no scheduler series, not
 * one named "-". */
START_TEST(no_scheduler_no_series)
{
	struct sample s;
	struct disk_sample *d;
	char *out;

	sample_init(&s);
	d = add(&s, "zram0", 20);
	snprintf(d->info.scheduler, sizeof(d->info.scheduler), "-");
	add(&s, "sda", 20);
	out = render(&s);
	ck_assert_ptr_null(strstr(out, "blktune_scheduler{device=\"zram0\""));
	ck_assert_ptr_nonnull(strstr(out, "blktune_scheduler{device=\"sda\",scheduler=\"mq-deadline\"} 1\n"));
	ck_assert_ptr_nonnull(strstr(out, "blktune_read_ahead_bytes{device=\"zram0\"} 131072\n"));
	free(out);
	sample_free(&s);
}
END_TEST

/* What the tracer lost: two counters without a device, only while traced
 * (traced but no device seen yet included), each sample line timestamped. */
START_TEST(trace_loss_counters)
{
	struct sample s;
	char *out;

	sample_init(&s);
	add(&s, "sda", 14);
	s.trace.missed = 12;
	s.trace.map_full = 3;
	out = render(&s);
	ck_assert_ptr_null(strstr(out, "blktune_trace_"));
	free(out);
	s.traced = true;
	out = render_ts(&s, 1764567890123LL);
	ck_assert_ptr_nonnull(strstr(out, "# TYPE blktune_trace_runs_skipped_total counter\n"
					  "blktune_trace_runs_skipped_total 12 1764567890123\n"));
	ck_assert_ptr_nonnull(strstr(out, "# TYPE blktune_trace_map_full_total counter\n"
					  "blktune_trace_map_full_total 3 1764567890123\n"));
	ck_assert_ptr_null(strstr(out, "blktune_request_size_bytes")); /* no traced device yet */
	free(out);
	sample_free(&s);
}
END_TEST

/* Traced histograms for every traced disk, the first one included, under
 * its diskstats name; a disk the tracer has not seen has none, the last one
 * of a full array included. */
START_TEST(traced_histograms_per_disk)
{
	static const struct {
		const char *name;
		unsigned ma, mi;
		uint64_t reads;
	} disks[] = { { "sda", 8, 0, 5 }, { "loop3", 7, 3, 7 }, { "sdb", 8, 16, 0 } };
	/* ascending kernel dev_t: loop3 (7:3) before sda (8:0); sdb untraced */
	const struct blktune_key keys[] = { { 7U << 20 | 3, BLKTUNE_PATH_RQ }, { 8U << 20, BLKTUNE_PATH_RQ } };
	const uint64_t reads[] = { 7, 5 };
	struct blktune_dev_cpu v;
	struct sample s;
	char *out, want[128];

	sample_init(&s);
	for (size_t i = 0; i < sizeof(disks) / sizeof(disks[0]); i++) {
		struct disk_sample *d = add(&s, disks[i].name, 20);
		d->st.dev = makedev(disks[i].ma, disks[i].mi);
	}
	/* untraced disks up to the array's end: ASan sees a read past it */
	while (s.ndisks < s.cap) {
		char name[16];
		snprintf(name, sizeof(name), "vd%zu", s.ndisks);
		add(&s, name, 20)->st.dev = makedev(253, (unsigned)s.ndisks);
	}
	s.traced = true;
	trace_sample_reset(&s.trace, 1);
	for (size_t i = 0; i < 2; i++) {
		memset(&v, 0, sizeof(v));
		v.size_count[0][3] = reads[i];
		v.size_bytes[0][3] = reads[i] * 4096;
		v.completed[BLKTUNE_OP_READ] = reads[i];
		ck_assert_int_eq(trace_sample_add(&s.trace, &keys[i], &v), 0);
	}
	out = render(&s);
	for (size_t i = 0; i < 2; i++) {
		snprintf(want, sizeof(want), "blktune_request_size_bytes_count{device=\"%s\",op=\"read\"} %llu\n",
			 disks[i].name, (unsigned long long)disks[i].reads);
		ck_assert_msg(strstr(out, want) != NULL, "no %s in %s", want, out);
		snprintf(want, sizeof(want), "blktune_request_latency_seconds_count{device=\"%s\"} ", disks[i].name);
		ck_assert_msg(strstr(out, want) != NULL, "no %s", want);
	}
	ck_assert_ptr_null(strstr(out, "blktune_request_size_bytes_count{device=\"sdb\""));
	free(out);
	sample_free(&s);
}
END_TEST

START_TEST(timestamps_on_every_sample_line)
{
	struct sample s;
	char *out, *line, *save = NULL;
	int samples = 0;

	sample_init(&s);
	add(&s, "sdc", 20)->st.rd_ios = 5;
	out = render_ts(&s, 1764567890123LL);
	ck_assert_ptr_nonnull(strstr(out, "blktune_reads_completed_total{device=\"sdc\"} 5 1764567890123\n"));
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#')
			continue;
		samples++;
		ck_assert_msg(strlen(line) > 14 && !strcmp(line + strlen(line) - 14, " 1764567890123"), "%s", line);
	}
	ck_assert_int_ge(samples, 20);
	free(out);
	sample_free(&s);
}
END_TEST

START_TEST(ms_counter_past_32_bits)
{
	struct sample s;
	struct disk_sample *d;
	char *out;

	sample_init(&s);
	d = add(&s, "sdb", 14);
	d->st.rd_ticks = 5000000000ULL + 7; /* 5e9 ms + 7 */
	out = render(&s);
	ck_assert_ptr_nonnull(strstr(out, "blktune_read_time_seconds_total{device=\"sdb\"} 5000000.007\n"));
	free(out);
	sample_free(&s);
}
END_TEST

/* The kernel's millisecond fields wrap at 2^32 (%u); published counters
 * go on past the wrap while the device lives (a step back reads as a reset
 * to Prometheus), and start again from the raw value for a device that was
 * reset or re-created. Expected values by hand: 2^32 ms = 4294967.296 s. */
static char *render_wrapped(const struct sample *s, struct ms_wrap *w)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_int_eq(ms_wrap_update(w, s), 0);
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(output_prom(f, s, 0, w), 0);
	fclose(f);
	return buf;
}

/* out has line; else the message shows the line out has for its series */
static void has(char *out, const char *line)
{
	size_t series = strcspn(line, " ");
	const char *got = out;

	if (!strstr(out, line)) {
		while (got && strncmp(got, line, series))
			if ((got = strchr(got, '\n')) != NULL)
				got++;
		ck_abort_msg("want '%s', got '%.*s'", line, got ? (int)strcspn(got, "\n") : 4, got ? got : "none");
	}
	free(out);
}

/* A whole file, NUL-terminated (free it). */
static char *slurp(const char *path)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = fopen(path, "r"), *m = open_memstream(&buf, &len);
	int c;

	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(m);
	while ((c = fgetc(f)) != EOF)
		fputc(c, m);
	fclose(f);
	fclose(m);
	return buf;
}

/* A sample of the named disks (NULL-terminated), each with that diskseq,
 * rd_ios and time_in_queue. */
static void disks_of(struct sample *s, const char *const *names, const unsigned long long *seq,
		     const uint64_t *ios, const uint64_t *tiq)
{
	sample_clear(s);
	for (size_t i = 0; names[i]; i++) {
		struct disk_sample *d = add(s, names[i], 20);

		d->st.dev = makedev(8, 16 * (unsigned)names[i][2]); /* sdb 8:1568, sdc 8:1584 */
		d->info.diskseq = seq[i];
		d->st.rd_ios = ios[i];
		d->st.time_in_queue = tiq[i];
		d->st.rd_ticks = 5;    /* where the test leaves sdc's: a field a */
		d->st.io_ticks = 100;  /* few ms back would be a reset */
	}
}

#define TIQ(dev) "blktune_io_time_weighted_seconds_total{device=\"" dev "\"} "

START_TEST(ms_counters_go_on_past_the_wrap)
{
	static const char *const one[] = { "sdc", NULL }, *const two[] = { "sdb", "sdc", NULL };
	struct ms_wrap w = { 0 };
	struct sample s;
	struct disk_sample *d;

	sample_init(&s);
	disks_of(&s, one, (const unsigned long long[]){ 9 }, (const uint64_t[]){ 10 },
		 (const uint64_t[]){ 4294967000ULL });
	d = &s.disks[0];
	d->st.rd_ticks = UINT32_MAX;
	d->st.io_ticks = 100;
	has(render_wrapped(&s, &w), TIQ("sdc") "4294967.000\n");
	/* both wrapped; io_ticks did not */
	d->st.rd_ios = 11;
	d->st.time_in_queue = 500;
	d->st.rd_ticks = 5;
	has(render_wrapped(&s, &w), TIQ("sdc") "4294967.796\n");
	has(render_wrapped(&s, &w), "blktune_read_time_seconds_total{device=\"sdc\"} 4294967.301\n");
	has(render_wrapped(&s, &w), "blktune_io_time_seconds_total{device=\"sdc\"} 0.100\n");
	ck_assert_uint_eq(ms_wrap_value(&w, 0, offsetof(struct disk_stat, rd_ios), 11), 11);
	ck_assert_uint_eq(ms_wrap_value(&w, 1, offsetof(struct disk_stat, rd_ticks), 5), 5); /* no disk 1 */
	/* a second wrap */
	d->st.time_in_queue = 4294967295ULL;
	has(render_wrapped(&s, &w), TIQ("sdc") "8589934.591\n");
	/* a new disk ahead of it moves it to index 1: its wraps follow it */
	disks_of(&s, two, (const unsigned long long[]){ 9, 9 }, (const uint64_t[]){ 0, 11 },
		 (const uint64_t[]){ 3, 7 });
	has(render_wrapped(&s, &w), TIQ("sdc") "8589934.599\n");
	has(render_wrapped(&s, &w), TIQ("sdb") "0.003\n");
	/* the device reset (its 64-bit counters stepped back): raw again */
	disks_of(&s, two, (const unsigned long long[]){ 9, 9 }, (const uint64_t[]){ 0, 1 },
		 (const uint64_t[]){ 3, 8 });
	has(render_wrapped(&s, &w), TIQ("sdc") "0.008\n");
	/* wrapped once more, then re-created under the same name and number
	 * (another diskseq): raw again */
	s.disks[1].st.time_in_queue = 4294967295ULL;
	has(render_wrapped(&s, &w), TIQ("sdc") "4294967.295\n");
	s.disks[1].st.time_in_queue = 2;
	has(render_wrapped(&s, &w), TIQ("sdc") "4294967.298\n");
	s.disks[1].st.time_in_queue = 1;
	s.disks[1].info.diskseq = 10;
	has(render_wrapped(&s, &w), TIQ("sdc") "0.001\n");
	/* the same name and diskseq on another number: another device */
	s.disks[1].st.time_in_queue = 4294967295ULL;
	has(render_wrapped(&s, &w), TIQ("sdc") "4294967.295\n");
	s.disks[1].st.time_in_queue = 4;
	has(render_wrapped(&s, &w), TIQ("sdc") "4294967.300\n");
	s.disks[1].st.time_in_queue = 3;
	s.disks[1].st.dev = makedev(8, 1);
	has(render_wrapped(&s, &w), TIQ("sdc") "0.003\n");
	/* a step back of a few ms is no wrap (that takes over 2^31 ms in one
	 * interval) but a reset (model.h): the value as the kernel has it */
	s.disks[1].st.time_in_queue = 4294967295ULL;
	has(render_wrapped(&s, &w), TIQ("sdc") "4294967.295\n");
	s.disks[1].st.time_in_queue = 4294967290ULL;
	has(render_wrapped(&s, &w), TIQ("sdc") "4294967.290\n");
	ms_wrap_free(&w);
	/* freed: nothing known, and usable again */
	ck_assert_uint_eq(w.n, 0);
	ck_assert_ptr_null(w.d);
	s.disks[1].st.time_in_queue = 2;
	has(render_wrapped(&s, &w), TIQ("sdc") "0.002\n");
	ms_wrap_free(&w);
	/* without wraps given: the raw value */
	has(render(&s), TIQ("sdc") "0.002\n");
	sample_free(&s);
}
END_TEST

/* The exporter keeps the wraps between publishes (the textfile here). */
START_TEST(exporter_publishes_past_the_wrap)
{
	char dir[] = "/tmp/blktune-unit-XXXXXX", path[64];
	struct exporter *e;
	struct sample s;
	char why[256];

	ck_assert_ptr_nonnull(mkdtemp(dir));
	ck_assert_int_eq(exporter_open(NULL, dir, &e, why, sizeof(why)), 0);
	sample_init(&s);
	for (int i = 0; i < 2; i++) {
		if (!i)
			add(&s, "loop9", 14);
		s.disks[0].st.io_ticks = i ? 10 : 4294967290ULL;
		ck_assert_int_eq(exporter_publish(e, &s, why, sizeof(why)), 0);
	}
	exporter_close(e);
	snprintf(path, sizeof(path), "%s/blktune.prom", dir);
	has(slurp(path), "blktune_io_time_seconds_total{device=\"loop9\"} 4294967.306\n");
	unlink(path);
	rmdir(dir);
	sample_free(&s);
}
END_TEST

START_TEST(label_values_escaped)
{
	struct sample s;
	char *out;

	sample_init(&s);
	add(&s, "a\"b\\c\nd\x1b", 14);
	out = render(&s);
	ck_assert_ptr_nonnull(strstr(out, "{device=\"a\\\"b\\\\c\\nd\"} 0\n"));
	ck_assert_ptr_null(strchr(out, 0x1b));
	free(out);
	sample_free(&s);
}
END_TEST

START_TEST(listen_addresses)
{
	char host[64];
	unsigned port;

	ck_assert_int_eq(exporter_parse_listen("127.0.0.1:9101", host, sizeof(host), &port), 0);
	ck_assert_str_eq(host, "127.0.0.1");
	ck_assert_uint_eq(port, 9101);
	ck_assert_int_eq(exporter_parse_listen("[::1]:65535", host, sizeof(host), &port), 0);
	ck_assert_str_eq(host, "::1");
	ck_assert_uint_eq(port, 65535);
	ck_assert_int_eq(exporter_parse_listen("localhost:1", host, sizeof(host), &port), 0);
	ck_assert_uint_eq(port, 1);
	ck_assert_int_eq(exporter_parse_listen("127.0.0.1:65536", host, sizeof(host), &port), -EINVAL);
	ck_assert_int_eq(exporter_parse_listen("127.0.0.1:0", host, sizeof(host), &port), -EINVAL);
	ck_assert_int_eq(exporter_parse_listen("127.0.0.1:", host, sizeof(host), &port), -EINVAL);
	ck_assert_int_eq(exporter_parse_listen("127.0.0.1:80x", host, sizeof(host), &port), -EINVAL);
	ck_assert_int_eq(exporter_parse_listen(":9101", host, sizeof(host), &port), -EINVAL);
	ck_assert_int_eq(exporter_parse_listen("::1:9101", host, sizeof(host), &port), -EINVAL);
	ck_assert_int_eq(exporter_parse_listen("[::1]9101", host, sizeof(host), &port), -EINVAL);
	ck_assert_int_eq(exporter_parse_listen("9101", host, sizeof(host), &port), -EINVAL);
}
END_TEST

/* A server that cannot start says why, with the kernel's reason: a port
 * another socket holds, and an address this machine does not have. */
START_TEST(listen_failure_reason)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(a);
	struct exporter *e = NULL;
	char why[256], addr[64];
	int fd;

	ck_assert_int_ge(fd = socket(AF_INET, SOCK_STREAM, 0), 0);
	ck_assert_int_eq(bind(fd, (struct sockaddr *)&a, sizeof(a)), 0); /* a free port */
	ck_assert_int_eq(listen(fd, 1), 0);
	ck_assert_int_eq(getsockname(fd, (struct sockaddr *)&a, &len), 0);
	snprintf(addr, sizeof(addr), "127.0.0.1:%u", ntohs(a.sin_port));
	ck_assert_int_eq(exporter_open(addr, NULL, &e, why, sizeof(why)), -EADDRINUSE);
	ck_assert_ptr_null(e);
	ck_assert_ptr_nonnull(strstr(why, addr));
	ck_assert_ptr_nonnull(strstr(why, strerror(EADDRINUSE)));
	close(fd);
	/* TEST-NET-1 (RFC 5737): no interface here has it */
	ck_assert_int_eq(exporter_open("192.0.2.1:9101", NULL, &e, why, sizeof(why)), -EADDRNOTAVAIL);
	ck_assert_ptr_null(e);
	ck_assert_ptr_nonnull(strstr(why, strerror(EADDRNOTAVAIL)));
}
END_TEST

START_TEST(textfile_replaced_whole)
{
	char dir[] = "/tmp/blktune-unit-XXXXXX", path[64], buf[256];
	struct exporter *e;
	struct sample s;
	char why[256];
	FILE *f;
	size_t n;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	ck_assert_int_eq(exporter_open(NULL, dir, &e, why, sizeof(why)), 0);
	sample_init(&s);
	add(&s, "loop9", 14)->st.rd_ios = 41;
	ck_assert_int_eq(exporter_publish(e, &s, why, sizeof(why)), 0);
	s.disks[0].st.rd_ios = 42;
	ck_assert_int_eq(exporter_publish(e, &s, why, sizeof(why)), 0);
	snprintf(path, sizeof(path), "%s/blktune.prom", dir);
	ck_assert_ptr_nonnull(f = fopen(path, "r"));
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	ck_assert_ptr_nonnull(strstr(buf, "blktune_reads_completed_total{device=\"loop9\"} 42\n"));
	exporter_close(e);
	/* nothing but the file is left behind */
	snprintf(buf, sizeof(buf), "test $(ls -A %s | wc -l) -eq 1", dir);
	ck_assert_int_eq(system(buf), 0);
	/* a directory that is gone: publishing fails, and says so */
	ck_assert_int_eq(exporter_open(NULL, dir, &e, why, sizeof(why)), 0);
	snprintf(buf, sizeof(buf), "rm -rf %s", dir);
	ck_assert_int_eq(system(buf), 0);
	ck_assert_int_lt(exporter_publish(e, &s, why, sizeof(why)), 0);
	exporter_close(e);
	ck_assert_int_eq(exporter_open(NULL, "/nonexistent/dir", &e, why, sizeof(why)), -ENOENT);
	ck_assert_ptr_nonnull(strstr(why, "--textfile /nonexistent/dir"));
	ck_assert_int_eq(exporter_open("127.0.0.1", NULL, &e, why, sizeof(why)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(why, "ADDR:PORT"));
	sample_free(&s);
}
END_TEST

/* A server on 127.0.0.1, a port above 20000 (another test's may be taken:
 * the next one). textfile_dir as exporter_open. Returns the port. */
static unsigned start_on_free_port(const char *textfile_dir, struct exporter **e)
{
	char addr[64], why[256];
	unsigned port = 20000 + (unsigned)getpid() % 20000;
	int err = -EADDRINUSE;

	for (int i = 0; i < 50 && err == -EADDRINUSE; i++, port++) {
		snprintf(addr, sizeof(addr), "127.0.0.1:%u", port);
		err = exporter_open(addr, textfile_dir, e, why, sizeof(why));
	}
	ck_assert_msg(err == 0, "%s", why);
	return port - 1;
}

static int connect_to(unsigned port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK),
				 .sin_port = htons((uint16_t)port) };
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(connect(fd, (struct sockaddr *)&a, sizeof(a)), 0);
	return fd;
}

/* One HTTP/1.0 request; the whole answer (headers and body) in a static
 * buffer. Waits at most 5 s for it. */
static const char *http(unsigned port, const char *method, const char *path)
{
	static char buf[65536];
	char req[256];
	size_t n = 0;
	int fd = connect_to(port);
	struct pollfd p = { .fd = fd, .events = POLLIN };

	snprintf(req, sizeof(req), "%s %s HTTP/1.0\r\nHost: x\r\n\r\n", method, path);
	ck_assert_int_eq(write(fd, req, strlen(req)), (ssize_t)strlen(req));
	while (n < sizeof(buf) - 1 && poll(&p, 1, 5000) == 1) {
		ssize_t r = read(fd, buf + n, sizeof(buf) - 1 - n);
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	buf[n] = '\0';
	close(fd);
	return buf;
}

/* A textfile that cannot be written (its directory removed) must not stop
 * the endpoint: scrapes see every new sample all the same. */
START_TEST(endpoint_goes_on_when_textfile_fails)
{
	char dir[] = "/tmp/blktune-unit-XXXXXX", why[256] = "", buf[128];
	struct exporter *e;
	struct sample s;
	unsigned port;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	port = start_on_free_port(dir, &e);
	sample_init(&s);
	s.wall.tv_sec = 1700000000;
	add(&s, "loop9", 14)->st.rd_ios = 41;
	ck_assert_int_eq(exporter_publish(e, &s, why, sizeof(why)), 0);
	ck_assert_ptr_nonnull(strstr(http(port, "GET", "/metrics"), "blktune_reads_completed_total{device=\"loop9\"} 41 1700000000000\n"));
	snprintf(buf, sizeof(buf), "rm -rf %s", dir);
	ck_assert_int_eq(system(buf), 0);
	s.disks[0].st.rd_ios = 42;
	s.wall.tv_sec++;
	ck_assert_int_eq(exporter_publish(e, &s, why, sizeof(why)), -ENOENT);
	ck_assert_msg(strstr(why, "--textfile ") && strstr(why, dir) && strstr(why, strerror(ENOENT)), "%s", why);
	ck_assert_ptr_nonnull(strstr(http(port, "GET", "/metrics"), "blktune_reads_completed_total{device=\"loop9\"} 42 1700000001000\n"));
	exporter_close(e);
	sample_free(&s);
}
END_TEST

/* The directory removed and made again (a cleanup, a remount) is written
 * again: a failed write is retried the next interval, as the man page says. */
START_TEST(textfile_written_again_in_a_new_directory)
{
	char dir[] = "/tmp/blktune-unit-XXXXXX", why[256], path[64];
	struct exporter *e;
	struct sample s;
	const char *text;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	ck_assert_int_eq(exporter_open(NULL, dir, &e, why, sizeof(why)), 0);
	sample_init(&s);
	add(&s, "loop9", 14)->st.rd_ios = 41;
	ck_assert_int_eq(exporter_publish(e, &s, why, sizeof(why)), 0);
	snprintf(path, sizeof(path), "%s/blktune.prom", dir);
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(rmdir(dir), 0);
	ck_assert_int_eq(exporter_publish(e, &s, why, sizeof(why)), -ENOENT);
	ck_assert_int_eq(exporter_publish(e, &s, why, sizeof(why)), -ENOENT);
	ck_assert_int_eq(mkdir(dir, 0755), 0);
	s.disks[0].st.rd_ios = 43;
	ck_assert_int_eq(exporter_publish(e, &s, why, sizeof(why)), 0);
	ck_assert_ptr_nonnull(text = unit_slurp(path));
	ck_assert_ptr_nonnull(strstr(text, "blktune_reads_completed_total{device=\"loop9\"} 43\n"));
	ck_assert_int_eq(unit_count_entries(dir), 1);
	/* and the old descriptor is not kept: one open, as before */
	s.disks[0].st.rd_ios = 44;
	int fds = unit_count_fds();
	ck_assert_int_eq(exporter_publish(e, &s, why, sizeof(why)), 0);
	ck_assert_int_eq(unit_count_fds(), fds);
	exporter_close(e);
	unit_rmtree(dir);
	sample_free(&s);
}
END_TEST

/* node_exporter reads the file as another user: 0644 whatever blktune's
 * umask, and whatever mode the file it replaces had. */
START_TEST(textfile_mode_is_0644)
{
	char dir[] = "/tmp/blktune-unit-XXXXXX", why[256], path[64];
	struct exporter *e;
	struct sample s;
	struct stat st;
	mode_t old = umask(077);

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/blktune.prom", dir);
	unit_write_file(path, "old\n");
	ck_assert_int_eq(chmod(path, 0600), 0);
	ck_assert_int_eq(exporter_open(NULL, dir, &e, why, sizeof(why)), 0);
	sample_init(&s);
	add(&s, "loop9", 14);
	ck_assert_int_eq(exporter_publish(e, &s, why, sizeof(why)), 0);
	umask(old);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_uint_eq(st.st_mode & 07777, 0644);
	exporter_close(e);
	unit_rmtree(dir);
	sample_free(&s);
}
END_TEST

/* 405 names the methods (RFC 9110 15.5.6: MUST); an error's body is plain
 * text, not an exposition; /metrics is. */
START_TEST(http_errors_are_plain_text)
{
	struct exporter *e;
	unsigned port = start_on_free_port(NULL, &e);
	const char *r;

	r = http(port, "POST", "/metrics");
	ck_assert_msg(!strncmp(r, "HTTP/1.0 405", 12) || !strncmp(r, "HTTP/1.1 405", 12), "%s", r);
	ck_assert_msg(strcasestr(r, "\r\nAllow: GET, HEAD\r\n"), "%s", r);
	ck_assert_msg(strcasestr(r, "\r\nContent-Type: text/plain; charset=utf-8\r\n"), "%s", r);
	r = http(port, "GET", "/");
	ck_assert_msg(strstr(r, " 404 "), "%s", r);
	ck_assert_msg(strcasestr(r, "\r\nContent-Type: text/plain; charset=utf-8\r\n"), "%s", r);
	ck_assert_msg(!strcasestr(r, "\r\nAllow:"), "%s", r);
	r = http(port, "GET", "/metrics");
	ck_assert_msg(strstr(r, " 200 "), "%s", r);
	ck_assert_msg(strcasestr(r, "\r\nContent-Type: text/plain; version=0.0.4; charset=utf-8\r\n"), "%s", r);
	exporter_close(e);
}
END_TEST

/* Idle connections (a port scanner, a client that never sends) do not take
 * the endpoint: 64 of them, and a scrape is still answered; an idle one is
 * closed within a few seconds. */
START_TEST(idle_connections_leave_room)
{
	struct exporter *e;
	unsigned port = start_on_free_port(NULL, &e);
	int fds[64];
	struct timespec t0, t1;
	struct pollfd p;
	char c;

	for (size_t i = 0; i < sizeof(fds) / sizeof(fds[0]); i++)
		fds[i] = connect_to(port);
	ck_assert_msg(strstr(http(port, "GET", "/metrics"), " 200 "), "no answer with 64 idle connections");
	/* the first idle one: closed by the server (EOF) within 5 s */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	p = (struct pollfd){ .fd = fds[0], .events = POLLIN };
	ck_assert_int_eq(poll(&p, 1, 6000), 1);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ck_assert_int_eq(read(fds[0], &c, 1), 0);
	ck_assert_int_le(t1.tv_sec - t0.tv_sec, 5);
	for (size_t i = 0; i < sizeof(fds) / sizeof(fds[0]); i++)
		close(fds[i]);
	exporter_close(e);
}
END_TEST

UNIT_SUITE(output_prom_suite)
static Suite *output_prom_suite(void)
{
	Suite *s = suite_create("output-prom");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, counters_in_base_units);
	tcase_add_test(tc, no_scheduler_no_series);
	tcase_add_test(tc, ms_counter_past_32_bits);
	tcase_add_test(tc, ms_counters_go_on_past_the_wrap);
	tcase_add_test(tc, exporter_publishes_past_the_wrap);
	tcase_add_test(tc, timestamps_on_every_sample_line);
	tcase_add_test(tc, trace_loss_counters);
	tcase_add_test(tc, traced_histograms_per_disk);
	tcase_add_test(tc, label_values_escaped);
	tcase_add_test(tc, listen_addresses);
	tcase_add_test(tc, listen_failure_reason);
	tcase_add_test(tc, textfile_replaced_whole);
	tcase_add_test(tc, endpoint_goes_on_when_textfile_fails);
	tcase_add_test(tc, textfile_written_again_in_a_new_directory);
	tcase_add_test(tc, textfile_mode_is_0644);
	tcase_add_test(tc, http_errors_are_plain_text);
	tcase_add_test(tc, idle_connections_leave_room);
	tcase_set_timeout(tc, 30); /* an idle connection waited for (3 s) under ASan on a busy machine */
	suite_add_tcase(s, tc);
	return s;
}
