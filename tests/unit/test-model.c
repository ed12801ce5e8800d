#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "columns.h"
#include "model.h"
#include "root.h"
#include "source-diskstats.h"
#include "unit.h"

static void load_tree(const char *tree, struct sample *s)
{
	struct root *r;
	struct source_diskstats *src;

	ck_assert_int_eq(root_open(unit_fixture(tree), &r), 0);
	ck_assert_int_eq(source_diskstats_open(r, &src), 0);
	sample_init(s);
	ck_assert_int_eq(source_diskstats_read(src, s), 0);
	source_diskstats_close(src);
	root_close(r);
}

static void load_file(const char *file, struct sample *s)
{
	char *text;
	FILE *f = fopen(unit_fixture(file), "r");
	char err[160];
	long n;

	ck_assert_ptr_nonnull(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	text = calloc(1, (size_t)n + 1);
	ck_assert_int_eq(fread(text, 1, (size_t)n, f), n);
	fclose(f);
	sample_init(s);
	ck_assert_int_eq(source_diskstats_parse(text, s, err, sizeof(err)), 0);
	free(text);
}

static const struct disk_metrics *find(const struct disk_metrics *m, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(m[i].name, name))
			return &m[i];
	return NULL;
}

#define NEAR(a, b) ck_assert_msg(fabs((a) - (b)) < 1e-6 * (1 + fabs(b)), "%s = %.9f, want %.9f", #a, (a), (b))

/* live-vm: loop1 read 4096 x 64 KiB with O_DIRECT between t0 and t1
 * (tests/fixtures/README). Every iostat -x figure by hand. */
START_TEST(iostat_formulas_on_capture)
{
	struct sample t0, t1;
	struct disk_metrics *m;
	const struct disk_metrics *d;
	const double iv = 7.53;

	load_tree("live-vm/t0", &t0);
	load_tree("live-vm/t1", &t1);
	t0.t = 100.0;
	t1.t = 100.0 + iv;
	m = calloc(t1.ndisks, sizeof(*m));
	model_disks(&t0, &t1, m);
	d = find(m, t1.ndisks, "loop1");
	ck_assert_ptr_nonnull(d);
	ck_assert_int_eq(d->state, DISK_OK);
	ck_assert_uint_eq(d->d_rd_ios, 4096);
	ck_assert_uint_eq(d->d_rd_sectors, 524288);
	NEAR(d->r_s, 4096 / iv);
	NEAR(d->rkb_s, 524288 / 2.0 / iv);
	NEAR(d->rmb_s, 256.0 / iv);
	NEAR(d->rareq_sz, 64.0);
	NEAR(d->r_await, 935.0 / 4096.0);
	NEAR(d->aqu_sz, 935.0 / (iv * 1000.0));
	NEAR(d->util, 912.0 / (iv * 1000.0) * 100.0);
	NEAR(d->rrqm_pct, 0.0);
	NEAR(d->w_s, 0.0);
	NEAR(d->wareq_sz, 0.0);
	NEAR(d->w_await, 0.0);
	/* vda's deltas from the README: merges and discards too. */
	d = find(m, t1.ndisks, "vda");
	ck_assert_ptr_nonnull(d);
	NEAR(d->r_s, 379 / iv);
	NEAR(d->rrqm_pct, 28.0 / (28 + 379) * 100.0);
	NEAR(d->rrqm_s, 28 / iv);
	NEAR(d->wrqm_s, 720 / iv);
	NEAR(d->wrqm_pct, 720.0 / (720 + 14) * 100.0);
	NEAR(d->rareq_sz, 5368.0 / 379 / 2);
	NEAR(d->wareq_sz, 5936.0 / 14 / 2);
	NEAR(d->r_await, 551.0 / 379);
	NEAR(d->w_await, 19.0 / 14);
	NEAR(d->d_s, 6 / iv);
	NEAR(d->dkb_s, 96 / 2.0 / iv);
	NEAR(d->dareq_sz, 96.0 / 6 / 2);
	NEAR(d->d_await, 1.0 / 6);
	NEAR(d->f_s, 0.0);
	free(m);
	sample_free(&t0);
	sample_free(&t1);
}
END_TEST

START_TEST(near_wrap_counters_are_exact)
{
	struct sample t0, t1;
	struct disk_metrics m[8];
	const struct disk_metrics *d;

	load_file("diskstats/near-wrap-t0", &t0);
	load_file("diskstats/near-wrap-t1", &t1);
	ck_assert_uint_le(t1.ndisks, 8);
	t0.t = 0;
	t1.t = 2.0;
	model_disks(&t0, &t1, m);
	d = find(m, t1.ndisks, "sda");
	ck_assert_int_eq(d->state, DISK_OK);
	ck_assert_uint_eq(d->d_rd_ios, 1000);
	ck_assert_uint_eq(d->d_wr_ios, 10000);
	ck_assert_uint_eq(d->d_wr_sectors, 80000);
	NEAR(d->r_s, 500.0);
	NEAR(d->w_s, 5000.0);
	NEAR(d->wkb_s, 80000 / 2.0 / 2.0);
	NEAR(d->w_await, 5000.0 / 10000);
	NEAR(d->wrqm_pct, 2000.0 / 12000 * 100);
	NEAR(d->f_await, 5.0 / 10);
	NEAR(d->util, 1000.0 / 2000 * 100);
	NEAR(d->in_flight, 2.0);
	/* sdb: the 32-bit millisecond fields wrap; the 64-bit counters grow.
	 * A wrap, not a reset: deltas modulo 2^32. */
	d = find(m, t1.ndisks, "sdb");
	ck_assert_int_eq(d->state, DISK_OK);
	NEAR(d->r_await, 10.0 / 100);
	NEAR(d->w_await, 500.0 / 200);
	NEAR(d->util, 500.0 / 2000 * 100);
	NEAR(d->aqu_sz, 700.0 / 2000);
	NEAR(d->f_await, 3.0 / 4);
	d = find(m, t1.ndisks, "sdc");
	NEAR(d->r_s, 5.0);
	sample_free(&t0);
	sample_free(&t1);
}
END_TEST

START_TEST(backwards_counter_is_a_reset)
{
	struct sample t0, t1;
	struct disk_metrics m[8];
	const struct disk_metrics *d;
	char cell[32];

	load_file("diskstats/reset-t0", &t0);
	load_file("diskstats/reset-t1", &t1);
	t0.t = 10;
	t1.t = 11;
	model_disks(&t0, &t1, m);
	d = find(m, t1.ndisks, "loop0");
	ck_assert_int_eq(d->state, DISK_RESTARTED);
	NEAR(d->r_s, 0.0); /* not 1.8e19 */
	column_cell(&columns[COLUMN_R_S], d, cell, sizeof(cell));
	ck_assert_str_eq(cell, "  reset");
	ck_assert_int_eq(find(m, t1.ndisks, "dm-0")->state, DISK_RESTARTED);
	/* sda: in_flight 5 -> 1 is a gauge going down, not a reset. */
	d = find(m, t1.ndisks, "sda");
	ck_assert_int_eq(d->state, DISK_OK);
	NEAR(d->r_s, 500.0);
	NEAR(d->in_flight, 1.0);
	NEAR(d->f_s, 120.0);
	NEAR(d->f_await, 60.0 / 120);
	sample_free(&t0);
	sample_free(&t1);
}
END_TEST

START_TEST(devices_appear_and_vanish)
{
	struct sample t0, t1;
	struct disk_metrics m[8];
	const struct disk_metrics *d;

	load_file("diskstats/appear-t0", &t0);
	load_file("diskstats/appear-t1", &t1);
	t0.t = 0;
	t1.t = 1;
	model_disks(&t0, &t1, m);
	ck_assert_ptr_null(find(m, t1.ndisks, "sdb"));
	ck_assert_int_eq(find(m, t1.ndisks, "sdc")->state, DISK_NEW);
	/* Same name, other major:minor: another device, no rate across them. */
	d = find(m, t1.ndisks, "nvme0n1");
	ck_assert_uint_eq(d->dev, makedev(259, 1));
	ck_assert_int_eq(d->state, DISK_NEW);
	d = find(m, t1.ndisks, "sda1");
	ck_assert_int_eq(d->state, DISK_OK);
	NEAR(d->r_s, 120.0);
	NEAR(d->rareq_sz, 9600.0 / 120 / 2);
	sample_free(&t0);
	sample_free(&t1);
}
END_TEST

START_TEST(zero_interval_and_first_sample)
{
	struct disk_sample a, b;
	struct disk_metrics m;

	memset(&a, 0, sizeof(a));
	a.st.dev = makedev(8, 0);
	strcpy(a.st.name, "sda");
	b = a;
	b.st.rd_ios = 10;
	model_disk(&a, &b, 0.0, &m);
	ck_assert_int_eq(m.state, DISK_NEW);
	model_disk(NULL, &b, 1.0, &m);
	ck_assert_int_eq(m.state, DISK_NEW);
	ck_assert(model_disk_idle(&m));
	model_disk(&a, &b, 0.5, &m);
	ck_assert_int_eq(m.state, DISK_OK);
	NEAR(m.r_s, 20.0);
	NEAR(m.rareq_sz, 0.0); /* no sectors: 0, not NaN */
	ck_assert(!model_disk_idle(&m));
}
END_TEST

START_TEST(util_is_capped)
{
	struct disk_sample a, b;
	struct disk_metrics m;

	memset(&a, 0, sizeof(a));
	b = a;
	b.st.io_ticks = 1500; /* more busy time than the interval (rounding) */
	model_disk(&a, &b, 1.0, &m);
	NEAR(m.util, 100.0);
}
END_TEST

START_TEST(cpu_percentages)
{
	struct cpu_stat p = { .valid = true, .user = 100, .system = 50, .idle = 800, .iowait = 10 };
	struct cpu_stat c = p;
	struct cpu_metrics m;

	c.user += 30;
	c.system += 10;
	c.idle += 50;
	c.iowait += 5;
	c.softirq += 5;
	model_cpu(&p, &c, &m);
	ck_assert(m.valid);
	NEAR(m.user, 30.0);
	NEAR(m.system, 10.0);
	NEAR(m.idle, 50.0);
	NEAR(m.iowait, 5.0);
	NEAR(m.softirq, 5.0);
	/* iowait may step back (hotplug): counted as 0, never negative */
	c.iowait = 0;
	model_cpu(&p, &c, &m);
	ck_assert(m.iowait == 0.0);
	p.valid = false;
	model_cpu(&p, &c, &m);
	ck_assert(!m.valid);
}
END_TEST

/* A partial reset: one 64-bit counter alone going back is enough (a device
 * re-created between samples and already busy again has every other counter
 * past the old values). A millisecond field going back is a 2^32 wrap only
 * across the wrap (from near 2^32 to near 0); a step back of a few ms is a
 * reset too: r_await was 429496729.5 ms for 1000 -> 999. */
/* A counter of struct disk_stat by its offset (memcpy: no cast from char *
 * that clang's -Wcast-align refuses). */
static void stat_put(struct disk_stat *st, size_t off, uint64_t v)
{
	memcpy((char *)st + off, &v, sizeof(v));
}

static uint64_t stat_get(const struct disk_stat *st, size_t off)
{
	uint64_t v;

	memcpy(&v, (const char *)st + off, sizeof(v));
	return v;
}

START_TEST(one_counter_back_is_a_reset)
{
	static const size_t counters[] = {
		offsetof(struct disk_stat, rd_ios), offsetof(struct disk_stat, rd_merges),
		offsetof(struct disk_stat, rd_sectors), offsetof(struct disk_stat, wr_ios),
		offsetof(struct disk_stat, wr_merges), offsetof(struct disk_stat, wr_sectors),
		offsetof(struct disk_stat, dc_ios), offsetof(struct disk_stat, dc_merges),
		offsetof(struct disk_stat, dc_sectors), offsetof(struct disk_stat, fl_ios),
	};
	static const size_t ms[] = {
		offsetof(struct disk_stat, rd_ticks), offsetof(struct disk_stat, wr_ticks),
		offsetof(struct disk_stat, dc_ticks), offsetof(struct disk_stat, fl_ticks),
		offsetof(struct disk_stat, io_ticks), offsetof(struct disk_stat, time_in_queue),
	};
	struct disk_sample a, b;
	struct disk_metrics m;

	memset(&a, 0, sizeof(a));
	for (size_t off = offsetof(struct disk_stat, rd_ios); off <= offsetof(struct disk_stat, fl_ticks);
	     off += sizeof(uint64_t))
		stat_put(&a.st, off, 1000);
	for (size_t i = 0; i < sizeof(counters) / sizeof(counters[0]); i++) {
		b = a;
		for (size_t off = offsetof(struct disk_stat, rd_ios); off <= offsetof(struct disk_stat, fl_ticks);
		     off += sizeof(uint64_t))
			stat_put(&b.st, off, stat_get(&b.st, off) + 10);
		stat_put(&b.st, counters[i], 999);
		model_disk(&a, &b, 1.0, &m);
		ck_assert_msg(m.state == DISK_RESTARTED, "counter at offset %zu back: state %d", counters[i],
			      m.state);
		NEAR(m.r_s, 0.0);
		/* equal is not back */
		stat_put(&b.st, counters[i], 1000);
		model_disk(&a, &b, 1.0, &m);
		ck_assert_msg(m.state == DISK_OK, "counter at offset %zu unchanged: state %d", counters[i], m.state);
	}
	for (size_t i = 0; i < sizeof(ms) / sizeof(ms[0]); i++) {
		b = a;
		b.st.rd_ios = 1010;
		stat_put(&b.st, ms[i], 999);
		model_disk(&a, &b, 1.0, &m);
		ck_assert_msg(m.state == DISK_RESTARTED, "ms field at offset %zu back 1 ms: state %d", ms[i],
			      m.state);
		/* across the wrap: 1000 ms later it reads 499 */
		stat_put(&a.st, ms[i], UINT32_MAX - 500);
		stat_put(&b.st, ms[i], 499);
		model_disk(&a, &b, 1.0, &m);
		ck_assert_msg(m.state == DISK_OK, "ms field at offset %zu wrapped: state %d", ms[i], m.state);
		NEAR(m.r_s, 10.0);
		stat_put(&a.st, ms[i], 1000);
	}
	/* The wrap itself: 1000 ms later the field reads 499 */
	b = a;
	b.st.rd_ios = 1010;
	a.st.rd_ticks = UINT32_MAX - 500;
	b.st.rd_ticks = 499;
	model_disk(&a, &b, 1.0, &m);
	NEAR(m.r_await, 1000.0 / 10);
	/* half the range back is still a wrap (2^31 ms in the interval) */
	a.st.rd_ticks = (uint64_t)1 << 31;
	b.st.rd_ticks = 0;
	model_disk(&a, &b, 1.0, &m);
	ck_assert_int_eq(m.state, DISK_OK);
	NEAR(m.r_await, 2147483648.0 / 10);
	/* and a 64-bit millisecond value going back is no wrap: 0, not 2^64 */
	a.st.rd_ticks = (uint64_t)UINT32_MAX + 5;
	b.st.rd_ticks = 3;
	model_disk(&a, &b, 1.0, &m);
	NEAR(m.r_await, 0.0);
	a.st.rd_ticks = UINT32_MAX;
	b.st.rd_ticks = 0;
	model_disk(&a, &b, 1.0, &m);
	NEAR(m.r_await, 1.0 / 10);
}
END_TEST

/* An interval with discards and discard merges (fstrim on an SSD): every
 * discard figure as iostat -x computes it (drqm/s, %drqm, dkB/s, dareq-sz,
 * d_await), and none of it leaks into the read or write figures. */
START_TEST(interval_with_discard_merges)
{
	struct disk_sample a, b;
	struct disk_metrics m;

	memset(&a, 0, sizeof(a));
	a.st.dev = makedev(259, 0);
	strcpy(a.st.name, "nvme0n1");
	a.st.nfields = 20;
	a.st.dc_ios = 100;
	a.st.dc_merges = 50;
	a.st.dc_sectors = 8000;
	a.st.dc_ticks = 40;
	b = a;
	b.st.dc_ios += 30;      /* 30 discards completed */
	b.st.dc_merges += 90;   /* 90 bios merged into them */
	b.st.dc_sectors += 245760; /* 120 MiB */
	b.st.dc_ticks += 75;
	b.st.wr_ios = 6;
	b.st.wr_sectors = 48;
	model_disk(&a, &b, 2.0, &m);
	ck_assert_int_eq(m.state, DISK_OK);
	NEAR(m.d_s, 15.0);
	NEAR(m.drqm_s, 45.0);
	NEAR(m.drqm_pct, 90.0 / (90 + 30) * 100.0);
	NEAR(m.dkb_s, 245760 / 2.0 / 2.0);
	NEAR(m.dareq_sz, 245760.0 / 30 / 2);
	NEAR(m.d_await, 75.0 / 30);
	NEAR(m.rrqm_s, 0.0);
	NEAR(m.wrqm_s, 0.0);
	NEAR(m.wrqm_pct, 0.0);
	NEAR(m.w_s, 3.0);
	NEAR(m.wkb_s, 48 / 2.0 / 2.0);
	NEAR(m.wmb_s, 48 / 2.0 / 2.0 / 1024.0);
	NEAR(m.wareq_sz, 4.0);
	NEAR(m.r_s, 0.0);
	ck_assert(!model_disk_idle(&m));
}
END_TEST

/* A device's first sample: the gauges and sysfs values are shown, every
 * rate is exactly 0 (no interval yet), never left over from a previous
 * device in the same slot. */
START_TEST(first_sample_fields)
{
	struct disk_sample b;
	struct disk_metrics m;

	memset(&b, 0, sizeof(b));
	b.st.dev = makedev(8, 16);
	strcpy(b.st.name, "sdb");
	b.st.nfields = 20;
	b.st.rd_ios = 100;
	b.st.rd_sectors = 800;
	b.st.in_flight = 3;
	b.info.read_ahead_kb = 4096;
	b.info.max_sectors_kb = 1280;
	memset(&m, 0x5a, sizeof(m));
	model_disk(NULL, &b, 1.0, &m);
	ck_assert_int_eq(m.state, DISK_NEW);
	ck_assert_str_eq(m.name, "sdb");
	ck_assert_uint_eq(m.dev, makedev(8, 16));
	ck_assert_int_eq(m.nfields, 20);
	ck_assert(m.in_flight == 3.0);
	ck_assert(m.read_ahead_kb == 4096.0);
	ck_assert(m.max_sectors_kb == 1280.0);
	ck_assert(m.interval == 1.0);
	ck_assert(m.r_s == 0.0 && m.w_s == 0.0 && m.rkb_s == 0.0 && m.util == 0.0 && m.aqu_sz == 0.0);
	ck_assert_uint_eq(m.d_rd_ios, 0);
	ck_assert_uint_eq(m.d_rd_sectors, 0);
	ck_assert(!m.traced && !m.t_metrics && !m.ra_metrics);
	ck_assert(isnan(m.t_lat_avg_us) && isnan(m.t_lat_p99_us) && isnan(m.ra_hit_pct));
	ck_assert(model_disk_idle(&m));
}
END_TEST

/* Traced figures joined to the diskstats rows: each whole disk gets its own
 * device's deltas (6 us mean latency, 22 of 64 completions on the submitting
 * CPU), an untraced disk shows 0 completions, a partition, a device without
 * an interval and samples without tracing get nothing, and the traced count
 * is reconciled with diskstats. */
#define KDEV(ma, mi) ((uint32_t)(ma) << 20 | (uint32_t)(mi))
static void traced_sample(struct sample *s, uint64_t scale, uint64_t rd_ios)
{
	static const struct {
		const char *name;
		unsigned ma, mi;
		enum disk_kind kind;
	} disks[] = { { "loop3", 7, 3, DISK_KIND_DISK }, { "sdb1", 8, 17, DISK_KIND_PARTITION },
		      { "loop5", 7, 5, DISK_KIND_DISK }, { "loop6", 7, 6, DISK_KIND_DISK } };
	struct blktune_key keys[] = { { KDEV(7, 3), BLKTUNE_PATH_RQ }, { KDEV(7, 6), BLKTUNE_PATH_RQ },
				      { KDEV(8, 17), BLKTUNE_PATH_RQ } };
	struct blktune_dev_cpu v[2];

	sample_init(s);
	for (size_t i = 0; i < sizeof(disks) / sizeof(disks[0]); i++) {
		struct disk_sample *d = sample_add_disk(s);
		ck_assert_ptr_nonnull(d);
		d->st.dev = makedev(disks[i].ma, disks[i].mi);
		strcpy(d->st.name, disks[i].name);
		d->info.kind = disks[i].kind;
		d->st.rd_ios = rd_ios;
		d->st.wr_ios = 2 * scale;
		d->st.dc_ios = scale;     /* 2 discards and 8 flushes in the interval */
		d->st.fl_ios = 4 * scale;
	}
	memset(v, 0, sizeof(v));
	for (unsigned c = 0; c < 2; c++) {
		v[c].completed[BLKTUNE_OP_READ] = 10 * scale * (c + 1);
		v[c].completed[BLKTUNE_OP_WRITE] = scale;
		v[c].completed[BLKTUNE_OP_FLUSH] = 2 * scale;
		v[c].completed[BLKTUNE_OP_DISCARD] = c == 0 ? scale : 0;
		v[c].issued[BLKTUNE_OP_READ] = 10 * scale * (c + 1);
		v[c].issued[BLKTUNE_OP_WRITE] = scale;
		v[c].lat[3] = 10 * scale * (c + 1) + scale;
		v[c].lat_sum_ns[BLKTUNE_OP_READ] = 6000 * 10 * scale * (c + 1);
		v[c].lat_sum_ns[BLKTUNE_OP_WRITE] = 6000 * scale;
		v[c].cls[c == 0 ? BLKTUNE_CLASS_SAME_CPU : BLKTUNE_CLASS_SAME_LLC] = 10 * scale * (c + 1) + scale;
		v[c].from_cpu[0] = 10 * scale * (c + 1) + scale;
	}
	trace_sample_reset(&s->trace, 2);
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		ck_assert_int_eq(trace_sample_add(&s->trace, &keys[i], v), 0);
	s->traced = true;
}

START_TEST(traced_figures_join_the_rows)
{
	struct sample p, c;
	struct disk_metrics m[4];
	struct trace_metrics tm[4];

	for (int i = 0; i < 4; i++)
		trace_metrics_init(&tm[i]);
	traced_sample(&p, 1, 0);
	traced_sample(&c, 3, 60);
	p.t = 10;
	c.t = 11;
	model_disks(&p, &c, m);
	model_trace(&p, &c, m, tm);
	/* loop3 (index 0) and loop6 (index 3): 60 reads, 4 writes, 2 discards
	 * and 8 flushes completed */
	for (int i = 0; i < 4; i += 3) {
		ck_assert_msg(m[i].traced && m[i].t_metrics, "%s traced", m[i].name);
		NEAR(m[i].t_completed, 74.0);
		NEAR(m[i].t_lat_avg_us, 6.0);
		NEAR(m[i].t_same_cpu_pct, 22.0 / 64 * 100);
		NEAR(m[i].t_gap_pct, 0.0); /* diskstats: the same 74 */
		ck_assert(!isnan(m[i].t_lat_p99_us));
	}
	/* a partition is traced as its disk: no figures of its own */
	ck_assert(!m[1].traced && !m[1].t_metrics && isnan(m[1].t_lat_avg_us));
	/* a disk with no traced I/O: idle, 0 completions, no latency */
	ck_assert(m[2].traced && !m[2].t_metrics);
	ck_assert(m[2].t_completed == 0.0);
	ck_assert(isnan(m[2].t_lat_avg_us));
	/* a traced disk without an event in the interval (the same counters
	 * twice): idle, the same as one never seen, no figures of the last */
	{
		struct sample c2;

		traced_sample(&c2, 3, 60);
		c2.t = 12;
		model_disks(&c, &c2, m);
		model_trace(&c, &c2, m, tm);
		ck_assert_int_eq(m[0].state, DISK_OK);
		ck_assert(m[0].traced && !m[0].t_metrics);
		ck_assert(m[0].t_completed == 0.0);
		ck_assert(isnan(m[0].t_lat_avg_us) && isnan(m[0].t_lat_p99_us));
		sample_free(&c2);
	}
	sample_free(&c);
	/* diskstats counted 80 reads where tracing saw 60: the gap is shown */
	traced_sample(&c, 3, 80);
	c.t = 11;
	model_disks(&p, &c, m);
	model_trace(&p, &c, m, tm);
	NEAR(m[0].t_gap_pct, 20.0 / 94 * 100);
	/* no interval for the device: nothing traced */
	c.disks[0].st.rd_ios = 0;
	c.disks[0].st.wr_ios = 0; /* went back: a reset */
	model_disks(&p, &c, m);
	model_trace(&p, &c, m, tm);
	ck_assert_int_eq(m[0].state, DISK_RESTARTED);
	ck_assert(!m[0].traced && !m[0].t_metrics);
	ck_assert(m[3].traced && m[3].t_metrics);
	/* either sample untraced, or no previous one: nothing */
	c.traced = false;
	model_trace(&p, &c, m, tm);
	ck_assert(!m[3].traced && !m[3].t_metrics && isnan(m[3].t_completed));
	c.traced = true;
	p.traced = false;
	model_trace(&p, &c, m, tm);
	ck_assert(!m[3].traced);
	model_trace(NULL, &c, m, tm);
	ck_assert(!m[3].traced);
	for (int i = 0; i < 4; i++)
		trace_metrics_free(&tm[i]);
	sample_free(&p);
	sample_free(&c);
}
END_TEST

/* What the tracer lost: the kernel's cumulative counts as they are, and
 * their growth over the interval only where the previous sample was traced
 * (all of now after a reload set them back); nothing where cur is not
 * traced, and out holds no figure of before. */
START_TEST(trace_loss_since_load_and_interval)
{
	struct sample p, c;
	struct trace_loss l;

	sample_init(&p);
	sample_init(&c);
	p.traced = c.traced = true;
	p.trace.missed = 7;
	p.trace.map_full = 2;
	c.trace.missed = 19;
	c.trace.map_full = 2;
	ck_assert(model_trace_loss(&p, &c, &l));
	ck_assert(l.since_prev);
	ck_assert_uint_eq(l.skipped, 19);
	ck_assert_uint_eq(l.skipped_new, 12);
	ck_assert_uint_eq(l.map_full, 2);
	ck_assert_uint_eq(l.map_full_new, 0);
	c.trace.map_full = 5;
	ck_assert(model_trace_loss(&p, &c, &l));
	ck_assert_uint_eq(l.map_full_new, 3);
	ck_assert_uint_eq(l.skipped_new, 12);
	/* a reloaded tracer: the counts went back */
	c.trace.missed = 4;
	c.trace.map_full = 1;
	ck_assert(model_trace_loss(&p, &c, &l));
	ck_assert_uint_eq(l.skipped_new, 4);
	ck_assert_uint_eq(l.map_full_new, 1);
	/* no traced previous sample: the totals, growth unknown */
	p.traced = false;
	ck_assert(model_trace_loss(&p, &c, &l));
	ck_assert(!l.since_prev);
	ck_assert_uint_eq(l.skipped, 4);
	ck_assert_uint_eq(l.map_full, 1);
	ck_assert_uint_eq(l.skipped_new, 0);
	ck_assert_uint_eq(l.map_full_new, 0);
	l.since_prev = true;
	ck_assert(model_trace_loss(NULL, &c, &l));
	ck_assert(!l.since_prev);
	/* cur not traced: nothing, and nothing left of before */
	p.traced = true;
	c.traced = false;
	memset(&l, 0x5a, sizeof(l));
	ck_assert(!model_trace_loss(&p, &c, &l));
	ck_assert(!l.since_prev);
	ck_assert_uint_eq(l.skipped + l.skipped_new + l.map_full + l.map_full_new, 0);
	ck_assert_uint_eq(model_grown(10, 3), 7);
	ck_assert_uint_eq(model_grown(3, 3), 0);
	ck_assert_uint_eq(model_grown(2, 3), 2);
	sample_free(&p);
	sample_free(&c);
}
END_TEST

/* Readahead figures joined to the rows: hit% of the interval (80 of 100
 * decided pages) for each device with counters in both samples; none on the
 * first sample of the mode, for a device without an interval or without
 * counters; the total since the mode started beside it. */
static void ra_sample_of(struct sample *s, uint64_t scale, bool valid)
{
	static const unsigned minors[] = { 0, 16, 32 };

	sample_init(s);
	for (size_t i = 0; i < 3; i++) {
		struct disk_sample *d = sample_add_disk(s);
		ck_assert_ptr_nonnull(d);
		d->st.dev = makedev(8, minors[i]);
		snprintf(d->st.name, sizeof(d->st.name), "sd%c", 'a' + (int)i);
		d->st.rd_ios = 10 * scale;
	}
	ra_sample_reset(&s->ra);
	s->ra.page_size = 4096;
	for (size_t i = 0; i < 3; i += 2) { /* sda and sdc have counters */
		struct ra_counts c;
		memset(&c, 0, sizeof(c));
		c.async_pages = 100 * scale;
		c.hit = 80 * scale;
		c.waste = 20 * scale;
		ck_assert_int_eq(ra_sample_add(&s->ra, makedev(8, minors[i]), makedev(8, minors[i]), &c), 0);
	}
	s->ra_valid = valid;
}

START_TEST(readahead_figures_join_the_rows)
{
	struct sample p, c;
	struct disk_metrics m[3];
	struct ra_metrics ram[3], tot[3];

	ra_sample_of(&p, 1, true);
	ra_sample_of(&c, 3, true);
	p.t = 1;
	c.t = 2;
	model_disks(&p, &c, m);
	model_readahead(&p, &c, m, ram, tot);
	for (int i = 0; i < 3; i += 2) {
		ck_assert_msg(m[i].ra_metrics, "%s", m[i].name);
		NEAR(m[i].ra_hit_pct, 80.0);
		ck_assert_uint_eq(ram[i].pages, 200);
		ck_assert_uint_eq(tot[i].pages, 300); /* since the mode started */
	}
	ck_assert(!m[1].ra_metrics && isnan(m[1].ra_hit_pct));
	/* first sample of the mode, or the mode off now: nothing */
	p.ra_valid = false;
	model_readahead(&p, &c, m, ram, tot);
	ck_assert(!m[0].ra_metrics && !m[2].ra_metrics && isnan(m[0].ra_hit_pct));
	p.ra_valid = true;
	c.ra_valid = false;
	model_readahead(&p, &c, m, ram, tot);
	ck_assert(!m[2].ra_metrics);
	c.ra_valid = true;
	model_readahead(NULL, &c, m, ram, tot);
	ck_assert(!m[2].ra_metrics);
	/* a device that went back (reset): no interval, no figures */
	c.disks[0].st.rd_ios = 0;
	model_disks(&p, &c, m);
	model_readahead(&p, &c, m, ram, tot);
	ck_assert(!m[0].ra_metrics);
	ck_assert(m[2].ra_metrics);
	sample_free(&p);
	sample_free(&c);
}
END_TEST

/* The kernel's completions of an interval: reads and writes as counted,
 * discards and flushes from their rates times the interval, rounded (half
 * away from zero), none where there were none. */
START_TEST(completed_counts_every_op)
{
	static const struct {
		uint64_t rd, wr;
		double d_s, f_s, interval;
		uint64_t want;
	} cases[] = {
		{ 3, 2, 0, 0, 1, 5 },       /* reads and writes only: nothing added */
		{ 0, 0, 0, 0.5, 2, 1 },     /* one flush */
		{ 7, 0, 0.25, 0, 2, 8 },    /* half a discard's worth rounds up */
		{ 7, 0, 0.2, 0, 2, 7 },     /* 0.4 rounds down */
		{ 0, 4, 1000, 500, 0.5, 754 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct disk_metrics m;

		memset(&m, 0, sizeof(m));
		m.d_rd_ios = cases[i].rd;
		m.d_wr_ios = cases[i].wr;
		m.d_s = cases[i].d_s;
		m.f_s = cases[i].f_s;
		m.interval = cases[i].interval;
		ck_assert_uint_eq(model_disk_completed(&m), cases[i].want);
	}
}
END_TEST

UNIT_SUITE(model_suite)
static Suite *model_suite(void)
{
	Suite *s = suite_create("model");
	TCase *tc = tcase_create("iostat");

	tcase_add_test(tc, iostat_formulas_on_capture);
	tcase_add_test(tc, near_wrap_counters_are_exact);
	tcase_add_test(tc, backwards_counter_is_a_reset);
	tcase_add_test(tc, devices_appear_and_vanish);
	tcase_add_test(tc, zero_interval_and_first_sample);
	tcase_add_test(tc, util_is_capped);
	tcase_add_test(tc, one_counter_back_is_a_reset);
	tcase_add_test(tc, interval_with_discard_merges);
	tcase_add_test(tc, first_sample_fields);
	tcase_add_test(tc, traced_figures_join_the_rows);
	tcase_add_test(tc, trace_loss_since_load_and_interval);
	tcase_add_test(tc, readahead_figures_join_the_rows);
	tcase_add_test(tc, cpu_percentages);
	tcase_add_test(tc, completed_counts_every_op);
	suite_add_tcase(s, tc);
	return s;
}
