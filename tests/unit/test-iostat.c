/* iostat's habits: averages since boot, -z, -h. Expected figures are worked
 * out by hand from the fixture's own counters (tests/fixtures/lvm-names:
 * proc/uptime 250.00, proc/diskstats from the real LVM capture). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "columns.h"
#include "model-boot.h"
#include "output.h"
#include "rows.h"
#include "sampler.h"
#include "unit.h"

struct boot {
	struct root *r;
	struct sampler *sp;
	struct sample s;
	struct disk_metrics m[32];
	double uptime;
};

static void boot_open(struct boot *b, const char *dir, enum names_type names)
{
	ck_assert_int_eq(root_open(dir, &b->r), 0);
	ck_assert_int_eq(sampler_open(b->r, SAMPLER_NO_TRACE, &b->sp), 0);
	ck_assert_int_eq(sampler_names(b->sp, names), 0);
	sample_init(&b->s);
	ck_assert_int_eq(sampler_take(b->sp, &b->s), 0);
	ck_assert_uint_le(b->s.ndisks, 32);
	ck_assert_int_eq(sampler_uptime(b->sp, &b->uptime), 0);
	model_boot_disks(&b->s, b->uptime, b->m);
}

static void boot_close(struct boot *b)
{
	sample_free(&b->s);
	sampler_close(b->sp);
	root_close(b->r);
}

static const struct disk_metrics *dev(const struct boot *b, const char *name)
{
	for (size_t i = 0; i < b->s.ndisks; i++)
		if (!strcmp(b->m[i].name, name))
			return &b->m[i];
	ck_abort_msg("no device %s", name);
	return NULL;
}

/* sda: 55043 1720 2444371 17797 | 17556 6790 553842 69514 | 0 12296 87299. */
START_TEST(since_boot_figures)
{
	struct boot b;
	const struct disk_metrics *m;

	boot_open(&b, unit_fixture("lvm-names"), NAMES_NONE);
	ck_assert_double_eq(b.uptime, 250.0);
	m = dev(&b, "sda");
	ck_assert_int_eq(m->state, DISK_OK);
	ck_assert_double_eq_tol(m->interval, 250.0, 1e-12);
	ck_assert_double_eq_tol(m->r_s, 220.172, 1e-9);            /* 55043 / 250 */
	ck_assert_double_eq_tol(m->rkb_s, 4888.742, 1e-9);         /* 2444371 / 2 / 250 */
	ck_assert_double_eq_tol(m->rrqm_s, 6.88, 1e-9);            /* 1720 / 250 */
	ck_assert_double_eq_tol(m->rrqm_pct, 3.030143, 1e-6);      /* 1720 / 56763 x 100 */
	ck_assert_double_eq_tol(m->r_await, 0.323329, 1e-6);       /* 17797 / 55043 */
	ck_assert_double_eq_tol(m->rareq_sz, 22.204195, 1e-6);     /* 2444371 / 55043 / 2 */
	ck_assert_double_eq_tol(m->w_s, 70.224, 1e-9);             /* 17556 / 250 */
	ck_assert_double_eq_tol(m->wkb_s, 1107.684, 1e-9);         /* 553842 / 2 / 250 */
	ck_assert_double_eq_tol(m->wrqm_pct, 27.889592, 1e-6);     /* 6790 / 24346 */
	ck_assert_double_eq_tol(m->w_await, 3.959558, 1e-6);       /* 69514 / 17556 */
	ck_assert_double_eq_tol(m->aqu_sz, 0.349196, 1e-9);        /* 87299 / 250000 */
	ck_assert_double_eq_tol(m->util, 4.9184, 1e-9);            /* 12296 / 250000 x 100 */
	m = dev(&b, "dm-0"); /* 57 0 1320 0 1 0 8 0 0 0 0 */
	ck_assert_double_eq_tol(m->r_s, 0.228, 1e-12);
	ck_assert_double_eq_tol(m->rareq_sz, 11.578947, 1e-6);     /* 1320 / 57 / 2 */
	ck_assert_double_eq_tol(m->w_s, 0.004, 1e-12);
	m = dev(&b, "loop4"); /* never used */
	ck_assert_int_eq(m->state, DISK_OK);
	ck_assert_double_eq(m->r_s, 0);
	ck_assert_double_eq(m->r_await, 0);
	boot_close(&b);
}
END_TEST

START_TEST(uptime_errors)
{
	char *dir = unit_fixture_copy("lvm-names");
	char path[4300];
	struct root *r;
	struct sampler *sp;
	double up;

	ck_assert_int_eq(root_open(dir, &r), 0);
	ck_assert_int_eq(sampler_open(r, SAMPLER_NO_TRACE, &sp), 0);
	snprintf(path, sizeof(path), "%s/proc/uptime", dir);
	unit_write_file(path, "0.00 0.00\n");
	ck_assert_int_eq(sampler_uptime(sp, &up), -EINVAL);
	unit_write_file(path, "soon\n");
	ck_assert_int_eq(sampler_uptime(sp, &up), -EINVAL);
	unit_write_file(path, "12345.67 100.00\n");
	ck_assert_int_eq(sampler_uptime(sp, &up), 0);
	ck_assert_double_eq_tol(up, 12345.67, 1e-9);
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(sampler_uptime(sp, &up), -ENOENT);
	sampler_close(sp);
	root_close(r);
	unit_rmtree(dir);
	free(dir);
}
END_TEST

START_TEST(cpu_since_boot)
{
	struct cpu_stat c = { .valid = true, .user = 600, .nice = 0, .system = 200, .idle = 1000, .iowait = 200 };
	struct cpu_metrics out;

	model_boot_cpu(&c, &out);
	ck_assert(out.valid);
	ck_assert_double_eq_tol(out.user, 30.0, 1e-12); /* 600 / 2000 */
	ck_assert_double_eq_tol(out.system, 10.0, 1e-12);
	ck_assert_double_eq_tol(out.iowait, 10.0, 1e-12);
	ck_assert_double_eq_tol(out.idle, 50.0, 1e-12);
	c.valid = false;
	model_boot_cpu(&c, &out);
	ck_assert(!out.valid);
}
END_TEST

static struct disk_sample *add(struct sample *s, unsigned minor, const char *name)
{
	struct disk_sample *d = sample_add_disk(s);

	ck_assert_ptr_nonnull(d);
	d->st.dev = makedev(8, minor);
	snprintf(d->st.name, sizeof(d->st.name), "%s", name);
	d->st.nfields = 20;
	d->info.kind = DISK_KIND_DISK;
	return d;
}

/* -z is iostat's: a device is left out when no read, write, discard or
 * flush completed, even with requests in flight (the TUI's i keeps those). */
START_TEST(omit_zero_is_iostats)
{
	struct sample p, c;
	struct disk_metrics m[6];
	struct rows_filter f = { .sort_column = COLUMN_DEVICE };
	size_t idx[6], n;
	const char *const names[6] = { "reads", "flush", "discard", "inflight", "quiet", "writes" };

	sample_init(&p);
	sample_init(&c);
	for (unsigned i = 0; i < 6; i++) {
		add(&p, i * 16, names[i])->st.rd_ios = 100;
		add(&c, i * 16, names[i])->st.rd_ios = 100;
	}
	p.t = 10, c.t = 12;
	c.disks[0].st.rd_ios = 101;
	c.disks[1].st.fl_ios = 1;
	c.disks[2].st.dc_ios = 3;
	c.disks[3].st.in_flight = 4;
	c.disks[3].st.io_ticks = 2000; /* busy all along, nothing finished */
	c.disks[5].st.wr_ios = 7;
	model_disks(&p, &c, m);
	f.omit_zero = true;
	n = rows_build(m, 6, &f, idx);
	ck_assert_uint_eq(n, 4);
	for (size_t i = 0; i < n; i++)
		ck_assert_msg(strcmp(m[idx[i]].name, "inflight") && strcmp(m[idx[i]].name, "quiet"), "%s shown",
			      m[idx[i]].name);
	/* The TUI's idle filter differs: in-flight requests are activity. */
	f.omit_zero = false;
	f.hide_idle = true;
	ck_assert_uint_eq(rows_build(m, 6, &f, idx), 5);
	/* A device without an interval yet has nothing to show under -z. */
	f.hide_idle = false;
	f.omit_zero = true;
	model_disks(NULL, &c, m);
	ck_assert_uint_eq(rows_build(m, 6, &f, idx), 0);
	sample_free(&p);
	sample_free(&c);
}
END_TEST

START_TEST(human_cells)
{
	char out[32];

	output_human_cell(0, 1, 9, out, sizeof(out));
	ck_assert_str_eq(out, "     0.0k");
	output_human_cell(1023.9, 1, 9, out, sizeof(out));
	ck_assert_str_eq(out, "  1023.9k");
	output_human_cell(1024, 1, 9, out, sizeof(out));
	ck_assert_str_eq(out, "     1.0M");
	output_human_cell(219367.0, 1, 9, out, sizeof(out)); /* 214.225 MiB/s */
	ck_assert_str_eq(out, "   214.2M");
	output_human_cell(1048576.0 * 3, 1, 9, out, sizeof(out));
	ck_assert_str_eq(out, "     3.0G");
	output_human_cell(3.030143, 2, 6, out, sizeof(out));
	ck_assert_str_eq(out, "  3.0%");
	output_human_cell(100, 2, 6, out, sizeof(out));
	ck_assert_str_eq(out, "100.0%");
	output_human_cell(220.172, 0, 8, out, sizeof(out));
	ck_assert_str_eq(out, "  220.17");
	output_human_cell(NAN, 0, 8, out, sizeof(out));
	ck_assert_str_eq(out, "       -");
}
END_TEST

/* The TUI's m key: MB/s columns in kB/s (x 1024), MB/s, GB/s (/ 1024). */
START_TEST(throughput_units)
{
	struct disk_metrics m;
	char out[32];

	memset(&m, 0, sizeof(m));
	unit_row_info(&m);
	m.state = DISK_OK;
	m.rmb_s = 1000;  /* 1024000 kB/s, 0.977 GB/s */
	m.wmb_s = 0.5;   /* 512 kB/s */
	m.r_s = 3;
	column_cell_unit(&columns[COLUMN_RMB_S], &m, COLUMN_UNIT_KB, out, sizeof(out));
	ck_assert_str_eq(out, "1024000");
	column_cell_unit(&columns[COLUMN_RMB_S], &m, COLUMN_UNIT_GB, out, sizeof(out));
	ck_assert_str_eq(out, "  0.977");
	column_cell_unit(&columns[COLUMN_RMB_S], &m, COLUMN_UNIT_MB, out, sizeof(out));
	ck_assert_str_eq(out, "1000.00");
	column_cell_unit(&columns[COLUMN_WMB_S], &m, COLUMN_UNIT_KB, out, sizeof(out));
	ck_assert_str_eq(out, "  512.0");
	/* Other columns keep their unit. */
	column_cell_unit(&columns[COLUMN_R_S], &m, COLUMN_UNIT_GB, out, sizeof(out));
	ck_assert_str_eq(out, "    3.0");
	column_header_unit(&columns[COLUMN_WMB_S], COLUMN_UNIT_GB, out, sizeof(out));
	ck_assert_str_eq(out, "wGB/s");
	column_header_unit(&columns[COLUMN_RMB_S], COLUMN_UNIT_KB, out, sizeof(out));
	ck_assert_str_eq(out, "rkB/s");
	column_header_unit(&columns[COLUMN_R_AWAIT], COLUMN_UNIT_KB, out, sizeof(out));
	ck_assert_str_eq(out, "r_await");
	/* No interval yet: a dash in every unit. */
	m.state = DISK_NEW;
	column_cell_unit(&columns[COLUMN_RMB_S], &m, COLUMN_UNIT_KB, out, sizeof(out));
	ck_assert_str_eq(out, "      -");
}
END_TEST

static char *report(struct boot *b, bool json, bool human, bool persistent, struct rows_filter *f)
{
	struct sampler_host host = { "fixture", "4.16" };
	struct cpu_metrics cpu = { 0 };
	size_t rows[32];
	struct output_report r = {
		.cur = &b->s, .cpu = &cpu, .disks = b->m, .rows = rows, .interval = b->uptime,
		.since_boot = true, .human = human, .persistent = persistent, .host = &host,
	};
	char *buf = NULL;
	size_t len = 0;
	FILE *mf = open_memstream(&buf, &len);

	r.nrows = rows_build(b->m, b->s.ndisks, f, rows);
	ck_assert_int_eq(json ? output_json(mf, &r) : output_text(mf, &r), 0);
	fclose(mf);
	return buf;
}

/* iostat -x -h's layout (sysstat 12.6 prints exactly these headers), sda's
 * rows worked out from its counters over 250 s. */
START_TEST(human_report)
{
	struct boot b;
	struct rows_filter f = { .sort_column = COLUMN_DEVICE, .omit_zero = true };
	char *t;

	boot_open(&b, unit_fixture("lvm-names"), NAMES_NONE);
	t = report(&b, false, true, false, &f);
	ck_assert_msg(strstr(t, "averages since boot (uptime 250.00 s)\n"), "%s", t);
	ck_assert(strstr(t, "\n     r/s     rkB/s   rrqm/s  %rrqm r_await rareq-sz Device\n"));
	ck_assert(strstr(t, "\n     w/s     wkB/s   wrqm/s  %wrqm w_await wareq-sz Device\n"));
	ck_assert(strstr(t, "\n     d/s     dkB/s   drqm/s  %drqm d_await dareq-sz Device\n"));
	ck_assert(strstr(t, "\n     f/s f_await  aqu-sz  %util Device\n"));
	/* 4888.742 kB/s = 4.77 MiB/s; 1107.684 kB/s = 1.08 MiB/s */
	ck_assert_msg(strstr(t, "\n  220.17      4.8M     6.88   3.0%    0.32    22.2k sda\n"), "%s", t);
	ck_assert(strstr(t, "\n   70.22      1.1M    27.16  27.9%    3.96    15.8k sda\n"));
	/* a 14-field kernel counts no flushes: n/a, not 0 */
	ck_assert(strstr(t, "\n     n/a     n/a    0.35   4.9% sda\n"));
	ck_assert(strstr(t, "\n    0.23      2.6k     0.00   0.0%    0.00    11.6k vg_foo.4059-lv_foo.4059\n"));
	/* -z: loop4 never did any I/O. */
	ck_assert_ptr_null(strstr(t, "loop4"));
	/* No traced group when nothing is traced. */
	ck_assert_ptr_null(strstr(t, "t_avg_us"));
	free(t);
	f.omit_zero = false;
	t = report(&b, false, true, false, &f);
	ck_assert_ptr_nonnull(strstr(t, " loop4\n"));
	free(t);
	/* While a device is traced, a last group has the traced latency;
	 * devices the tracer did not see read n/a. */
	for (size_t i = 0; i < b.s.ndisks; i++)
		if (!strcmp(b.m[i].name, "sda")) {
			b.m[i].traced = true;
			b.m[i].t_lat_avg_us = 412.5;
			b.m[i].t_lat_p99_us = 2048;
			b.m[i].t_same_cpu_pct = 87.24;
		}
	t = report(&b, false, true, false, &f);
	ck_assert_msg(strstr(t, "\nt_avg_us t_p99_us t_%same Device\n"), "%s", t);
	ck_assert(strstr(t, "\n  412.50  2048.00   87.2% sda\n"));
	ck_assert(strstr(t, "\n     n/a      n/a     n/a loop4\n"));
	free(t);
	boot_close(&b);
}
END_TEST

/* The plain text keeps long names whole; JSON keeps the kernel name in
 * disk_device with the mapper (and -j) name beside it. */
START_TEST(names_in_text_and_json)
{
	struct boot b;
	struct rows_filter f = { .sort_column = COLUMN_DEVICE };
	char *t;

	boot_open(&b, unit_fixture("lvm-names"), NAMES_LABEL);
	t = report(&b, false, false, true, &f);
	ck_assert_msg(strstr(t, "\ndata      "), "%s", t);
	ck_assert(strstr(t, "\nloop4     "));
	free(t);
	t = report(&b, true, false, true, &f);
	ck_assert_msg(strstr(t, "{\"disk_device\": \"dm-0\", \"mapper_name\": \"vg_foo.4059-lv_foo.4059\", "
				"\"persistent_name\": \"data\", \"r/s\": 0.23,"), "%s", t);
	ck_assert(strstr(t, "{\"disk_device\": \"sda\", \"mapper_name\": null, \"persistent_name\": null, "
			    "\"r/s\": 220.17,"));
	ck_assert(strstr(t, "\"interval_s\": 250.000000, \"since_boot\": true, "));
	free(t);
	boot_close(&b);
	boot_open(&b, unit_fixture("lvm-names"), NAMES_NONE);
	t = report(&b, false, false, false, &f);
	ck_assert_msg(strstr(t, "\nvg_foo.4059-lv_foo.4059     0.2 "), "%s", t);
	free(t);
	t = report(&b, true, false, false, &f);
	ck_assert_ptr_null(strstr(t, "persistent_name"));
	free(t);
	boot_close(&b);
}
END_TEST

UNIT_SUITE(iostat_suite)
static Suite *iostat_suite(void)
{
	Suite *s = suite_create("iostat");
	TCase *tc = tcase_create("iostat");

	tcase_add_test(tc, since_boot_figures);
	tcase_add_test(tc, uptime_errors);
	tcase_add_test(tc, cpu_since_boot);
	tcase_add_test(tc, omit_zero_is_iostats);
	tcase_add_test(tc, human_cells);
	tcase_add_test(tc, human_report);
	tcase_add_test(tc, throughput_units);
	tcase_add_test(tc, names_in_text_and_json);
	suite_add_tcase(s, tc);
	return s;
}
