/* Unit tests of trace (decoding of map contents, deltas, resets, percentiles,
 * JSON) and trace-topology (256-CPU fixture tree, matrix grouping). */
#include "unit.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "root.h"
#include "columns.h"
#include "model.h"
#include "trace.h"
#include "trace-topology.h"

#define KDEV(ma, mi) ((uint32_t)(ma) << 20 | (uint32_t)(mi))

START_TEST(test_size_buckets)
{
	ck_assert_uint_eq(blktune_size_bucket(1), 0);
	ck_assert_uint_eq(blktune_size_bucket(512), 0);
	ck_assert_uint_eq(blktune_size_bucket(513), 1);
	ck_assert_uint_eq(blktune_size_bucket(4096), 3);
	ck_assert_uint_eq(blktune_size_bucket(4097), 4);
	ck_assert_uint_eq(blktune_size_bucket(65536), 7);
	ck_assert_uint_eq(blktune_size_bucket(4 << 20), 13);
	ck_assert_uint_eq(blktune_size_bucket((4 << 20) + 1), 14);
	ck_assert_uint_eq(blktune_size_bucket(1ULL << 40), 14);
	/* Every bucket's bound falls in that bucket, one byte more in the next. */
	for (unsigned i = 0; i + 1 < TRACE_SIZE_BUCKETS; i++) {
		ck_assert_uint_eq(blktune_size_bucket(trace_size_bucket_le(i)), i);
		ck_assert_uint_eq(blktune_size_bucket(trace_size_bucket_le(i) + 1), i + 1);
	}
	ck_assert_uint_eq(trace_size_bucket_le(0), 512);
	ck_assert_uint_eq(trace_size_bucket_le(13), 4 << 20);
	ck_assert_uint_eq(trace_size_bucket_le(14), 0);
}
END_TEST

START_TEST(test_lat_buckets)
{
	ck_assert_uint_eq(blktune_lat_bucket(0), 0);
	ck_assert_uint_eq(blktune_lat_bucket(1000), 0);
	ck_assert_uint_eq(blktune_lat_bucket(1001), 1);
	ck_assert_uint_eq(blktune_lat_bucket(2000), 1);
	ck_assert_uint_eq(blktune_lat_bucket(2001), 2);
	ck_assert_uint_eq(blktune_lat_bucket(1000000), 10); /* 1 ms in (512, 1024] µs */
	ck_assert_uint_eq(blktune_lat_bucket(UINT64_MAX / 2), TRACE_LAT_BUCKETS - 1);
	for (unsigned i = 0; i + 1 < TRACE_LAT_BUCKETS; i++) {
		uint64_t ns = trace_lat_bucket_le_us(i) * 1000;

		ck_assert_uint_eq(blktune_lat_bucket(ns), i);
		ck_assert_uint_eq(blktune_lat_bucket(ns + 1), i + 1);
	}
	ck_assert_uint_eq(trace_lat_bucket_le_us(TRACE_LAT_BUCKETS - 1), 0);
	/* against the definition, ceil(ns / 1000) <= 2^i, around every power
	 * of two and every bucket edge */
	for (unsigned k = 0; k < 63; k++)
		for (int d = -2; d <= 2; d++) {
			uint64_t ns = (1ULL << k) + (uint64_t)(int64_t)d, us = ns / 1000 + (ns % 1000 != 0);
			unsigned want = 0;

			while (want < TRACE_LAT_BUCKETS - 1 && us > (1ULL << want))
				want++;
			ck_assert_uint_eq(blktune_lat_bucket(ns), want);
		}
	for (unsigned i = 0; i < 40; i++)
		for (int d = -1; d <= 1; d++) {
			uint64_t ns = (1000ULL << i) + (uint64_t)(int64_t)d, us = ns / 1000 + (ns % 1000 != 0);
			unsigned want = 0;

			while (want < TRACE_LAT_BUCKETS - 1 && us > (1ULL << want))
				want++;
			ck_assert_uint_eq(blktune_lat_bucket(ns), want);
		}
}
END_TEST

START_TEST(test_op_groups)
{
	ck_assert_uint_eq(blktune_op(0), BLKTUNE_OP_READ);
	ck_assert_uint_eq(blktune_op(1 | 1 << 11), BLKTUNE_OP_WRITE); /* flags above the op */
	ck_assert_uint_eq(blktune_op(2), BLKTUNE_OP_FLUSH);
	ck_assert_uint_eq(blktune_op(3), BLKTUNE_OP_DISCARD);
	ck_assert_uint_eq(blktune_op(5), BLKTUNE_OP_DISCARD);
	ck_assert_uint_eq(blktune_op(9), BLKTUNE_OP_WRITE); /* write zeroes */
}
END_TEST

START_TEST(test_percentiles)
{
	uint64_t h[TRACE_LAT_BUCKETS] = { 0 };

	ck_assert(isnan(trace_lat_percentile_us(h, 0.5)));
	ck_assert(isnan(trace_lat_max_us(h)));
	h[3] = 100; /* (4, 8] µs */
	ck_assert_double_eq_tol(trace_lat_percentile_us(h, 0.50), 6.0, 1e-9);
	ck_assert_double_eq_tol(trace_lat_percentile_us(h, 0.90), 7.6, 1e-9);
	ck_assert_double_eq_tol(trace_lat_percentile_us(h, 0.99), 7.96, 1e-9);
	ck_assert_double_eq_tol(trace_lat_percentile_us(h, 1.0), 8.0, 1e-9);
	ck_assert_double_eq_tol(trace_lat_max_us(h), 8.0, 1e-9);
	memset(h, 0, sizeof(h));
	h[1] = 50;  /* (1, 2] */
	h[10] = 50; /* (512, 1024] */
	ck_assert_double_eq_tol(trace_lat_percentile_us(h, 0.0), 1.0, 1e-9);
	ck_assert_double_eq_tol(trace_lat_percentile_us(h, 0.50), 2.0, 1e-9);
	ck_assert_double_eq_tol(trace_lat_percentile_us(h, 0.90), 512 + 512 * 0.8, 1e-9);
	ck_assert_double_eq_tol(trace_lat_max_us(h), 1024.0, 1e-9);
	memset(h, 0, sizeof(h));
	h[0] = 4; /* (0, 1] */
	ck_assert_double_eq_tol(trace_lat_percentile_us(h, 0.5), 0.5, 1e-9);
	h[TRACE_LAT_BUCKETS - 1] = 1; /* open last bucket: taken as one doubling */
	ck_assert_double_eq_tol(trace_lat_max_us(h), ldexp(1, TRACE_LAT_BUCKETS - 1), 1e-3);
}
END_TEST

/* ncpu per-CPU map values for one device, as the kernel would hold them:
 * scale makes a later sample larger. */
static struct blktune_dev_cpu *fake_values(unsigned ncpu, uint64_t scale)
{
	struct blktune_dev_cpu *v = calloc(ncpu, sizeof(*v));

	ck_assert_ptr_nonnull(v);
	for (unsigned c = 0; c < ncpu; c++) {
		v[c].seq = 5;
		v[c].issued[BLKTUNE_OP_READ] = 10 * scale * (c + 1);
		v[c].bytes[BLKTUNE_OP_READ] = 4096 * 10 * scale * (c + 1);
		v[c].size_count[0][3] = 10 * scale * (c + 1);
		v[c].size_bytes[0][3] = 4096 * 10 * scale * (c + 1);
		v[c].issued[BLKTUNE_OP_WRITE] = scale;
		v[c].bytes[BLKTUNE_OP_WRITE] = 65536 * scale;
		v[c].size_count[1][7] = scale;
		v[c].size_bytes[1][7] = 65536 * scale;
		v[c].completed[BLKTUNE_OP_READ] = 10 * scale * (c + 1);
		v[c].completed[BLKTUNE_OP_WRITE] = scale;
		v[c].lat[3] = 10 * scale * (c + 1) + scale;
		v[c].lat_sum_ns[BLKTUNE_OP_READ] = 6000 * 10 * scale * (c + 1);
		v[c].lat_sum_ns[BLKTUNE_OP_WRITE] = 6000 * scale;
		/* completions here were submitted on CPU 0 */
		v[c].cls[c == 0 ? BLKTUNE_CLASS_SAME_CPU : BLKTUNE_CLASS_SAME_LLC] = 10 * scale * (c + 1) + scale;
		v[c].from_cpu[0] = 10 * scale * (c + 1) + scale;
	}
	return v;
}

START_TEST(test_decode)
{
	struct blktune_key k1 = { KDEV(7, 3), BLKTUNE_PATH_RQ }, k2 = { KDEV(259, 0xfffff), BLKTUNE_PATH_RQ };
	struct blktune_key k0 = { KDEV(8, 0), BLKTUNE_PATH_RQ };
	struct blktune_dev_cpu *v = fake_values(4, 1);
	struct trace_sample s;
	const struct trace_cpu *cpu;
	const uint64_t *mat;

	trace_sample_init(&s);
	trace_sample_reset(&s, 4);
	ck_assert_uint_eq(s.nmat, 4);
	ck_assert_int_eq(trace_sample_add(&s, &k1, v), 0);
	ck_assert_int_eq(trace_sample_add(&s, &k2, v), 0);
	/* out of order: the reader must sort the keys */
	ck_assert_int_eq(trace_sample_add(&s, &k0, v), -EINVAL);
	ck_assert_uint_eq(s.ndevs, 2);
	ck_assert(s.devs[0].dev == makedev(7, 3));
	ck_assert(s.devs[1].dev == makedev(259, 0xfffff));
	ck_assert_int_eq(trace_sample_find(&s, makedev(259, 0xfffff)), 1);
	ck_assert_int_eq(trace_sample_find(&s, makedev(7, 3)), 0);
	ck_assert_int_eq(trace_sample_find(&s, makedev(8, 0)), -1);
	/* sums over CPUs 1..4 x 10 */
	ck_assert_uint_eq(s.devs[0].tot.issued[TRACE_OP_READ], 100);
	ck_assert_uint_eq(s.devs[0].tot.size_count[TRACE_OP_READ][3], 100);
	ck_assert_uint_eq(s.devs[0].tot.size_bytes[TRACE_OP_READ][3], 409600);
	ck_assert_uint_eq(s.devs[0].tot.issued[TRACE_OP_WRITE], 4);
	ck_assert_uint_eq(s.devs[0].tot.cls[TRACE_CLASS_SAME_CPU], 11);
	ck_assert_uint_eq(s.devs[0].tot.cls[TRACE_CLASS_SAME_LLC], 21 + 31 + 41);
	cpu = trace_sample_cpu(&s, 1);
	/* request-based: submitted on CPU 0 (the matrix column), not where
	 * they completed */
	ck_assert_uint_eq(cpu[2].issued, 0);
	ck_assert_uint_eq(cpu[0].issued, 11 + 21 + 31 + 41);
	ck_assert_uint_eq(cpu[2].completed, 31);
	mat = trace_sample_matrix(&s, 1);
	ck_assert_uint_eq(mat[2 * 4 + 0], 31); /* completed on 2, submitted on 0 */
	ck_assert_uint_eq(mat[2 * 4 + 1], 0);
	free(v);
	trace_sample_free(&s);
}
END_TEST

static void fill(struct trace_sample *s, unsigned ncpu, uint64_t scale, bool with_second)
{
	struct blktune_key k1 = { KDEV(7, 3), BLKTUNE_PATH_RQ }, k2 = { KDEV(252, 1), BLKTUNE_PATH_BIO };
	struct blktune_dev_cpu *v = fake_values(ncpu, scale);

	trace_sample_reset(s, ncpu);
	ck_assert_int_eq(trace_sample_add(s, &k1, v), 0);
	if (with_second)
		ck_assert_int_eq(trace_sample_add(s, &k2, v), 0);
	free(v);
}

/* A CPU whose slot still holds an older disk's counters (a lower seq)
 * counts nothing for the new one: its matrix row is zero, even in a reset
 * sample whose memory held a row there before. */
START_TEST(test_stale_cpu_row_zero)
{
	struct trace_sample s;
	struct blktune_key k = { KDEV(7, 3), BLKTUNE_PATH_RQ };
	struct blktune_dev_cpu *v;

	trace_sample_init(&s);
	fill(&s, 2, 1, false);
	ck_assert_uint_eq(s.nmat, 2);
	ck_assert_uint_eq(s.matrix[1 * s.nmat + 0], 21); /* CPU 1's row */
	v = fake_values(2, 1);
	v[1].seq = 4; /* CPU 1 last counted the previous disk */
	trace_sample_reset(&s, 2);
	ck_assert_int_eq(trace_sample_add(&s, &k, v), 0);
	ck_assert_uint_eq(s.devs[0].seq, 5);
	ck_assert_uint_eq(s.matrix[0 * s.nmat + 0], 11);
	for (unsigned i = 0; i < s.nmat; i++)
		ck_assert_uint_eq(s.matrix[1 * s.nmat + i], 0);
	/* submitted on CPU 0: CPU 0's completions only */
	ck_assert_uint_eq(s.cpu[0].issued, 11);
	ck_assert_uint_eq(s.devs[0].tot.completed[BLKTUNE_OP_READ], 10);
	free(v);
	trace_sample_free(&s);
}
END_TEST

START_TEST(test_delta)
{
	struct trace_sample a, b, c;
	struct trace_metrics m;

	trace_sample_init(&a);
	trace_sample_init(&b);
	trace_sample_init(&c);
	trace_metrics_init(&m);
	fill(&a, 2, 1, false);
	fill(&b, 2, 3, true);
	ck_assert_int_eq(trace_metrics_compute(&a, &b, makedev(7, 3), &m), 0);
	ck_assert_uint_eq(m.path, TRACE_PATH_RQ);
	/* CPU0 10 -> 30, CPU1 20 -> 60 reads; 1 -> 3 writes each */
	ck_assert_uint_eq(m.d.issued[TRACE_OP_READ], 60);
	ck_assert_uint_eq(m.d.issued[TRACE_OP_WRITE], 4);
	ck_assert_uint_eq(m.issued, 64);
	ck_assert_uint_eq(m.completed, 64);
	ck_assert_uint_eq(m.d.size_count[TRACE_OP_READ][3], 60);
	ck_assert_uint_eq(m.d.size_bytes[TRACE_OP_WRITE][7], 4 * 65536);
	ck_assert_uint_eq(m.cpu[0].issued, 64); /* all submitted on CPU 0 */
	ck_assert_uint_eq(m.cpu[1].completed, 42);
	ck_assert_uint_eq(m.lat_n, 64);
	ck_assert_double_eq_tol(m.lat_avg_us, 6.0 * 64 / 64, 1e-9);
	ck_assert_double_eq_tol(m.lat_avg_op_us[TRACE_OP_READ], 6.0, 1e-9);
	ck_assert(isnan(m.lat_avg_op_us[TRACE_OP_DISCARD]));
	ck_assert_double_eq_tol(m.lat_p50_us, 6.0, 1e-9);
	ck_assert_double_eq_tol(m.cls_share[TRACE_CLASS_SAME_CPU], 22.0 / 64, 1e-9);
	ck_assert_uint_eq(m.matrix[1 * 2 + 0], 42);

	/* A device new in b counts from zero: the kernel adds it at its first event. */
	ck_assert_int_eq(trace_metrics_compute(&a, &b, makedev(252, 1), &m), 0);
	ck_assert_uint_eq(m.path, TRACE_PATH_BIO);
	ck_assert_uint_eq(m.d.issued[TRACE_OP_READ], 90);
	ck_assert_int_eq(trace_metrics_compute(&b, &a, makedev(252, 1), &m), -ENOENT);

	/* Going backwards is a reset: no metrics. */
	ck_assert_int_eq(trace_metrics_compute(&b, &a, makedev(7, 3), &m), -ERANGE);
	/* A different CPU count cannot be subtracted. */
	fill(&c, 4, 5, false);
	ck_assert_int_eq(trace_metrics_compute(&a, &c, makedev(7, 3), &m), -ERANGE);
	/* No previous sample: everything since tracing began. */
	ck_assert_int_eq(trace_metrics_compute(NULL, &c, makedev(7, 3), &m), 0);
	ck_assert_uint_eq(m.ncpu, 4);
	ck_assert_uint_eq(m.d.issued[TRACE_OP_READ], 50 * (1 + 2 + 3 + 4));
	/* Zero interval: idle, nothing derived (test_json: zero counts give
	 * undefined percentiles). */
	ck_assert_int_eq(trace_metrics_compute(&c, &c, makedev(7, 3), &m), -ENODATA);

	trace_metrics_free(&m);
	trace_sample_free(&a);
	trace_sample_free(&b);
	trace_sample_free(&c);
}
END_TEST

/* A dev_t that names a new disk (diskseq grew): CPUs still holding the old
 * disk's counters are left out, and the interval counts from zero. */
START_TEST(test_new_disk_same_dev)
{
	struct blktune_key k = { KDEV(7, 3), BLKTUNE_PATH_RQ };
	struct blktune_dev_cpu *v = fake_values(2, 1), *w = fake_values(2, 100);
	struct trace_sample a, b;
	struct trace_metrics m;

	trace_sample_init(&a);
	trace_sample_init(&b);
	trace_metrics_init(&m);
	trace_sample_reset(&a, 2);
	ck_assert_int_eq(trace_sample_add(&a, &k, w), 0);
	ck_assert_uint_eq(a.devs[0].seq, 5);
	/* CPU 1 saw the new disk (seq 6) and restarted; CPU 0 did not yet. */
	v[1].seq = 6;
	trace_sample_reset(&b, 2);
	ck_assert_int_eq(trace_sample_add(&b, &k, v), 0);
	ck_assert_uint_eq(b.devs[0].seq, 6);
	ck_assert_uint_eq(b.devs[0].tot.completed[TRACE_OP_READ], 20);
	ck_assert_uint_eq(trace_sample_cpu(&b, 0)[0].completed, 0);
	/* Smaller than before, yet not a reset: another disk, counted from 0. */
	ck_assert_int_eq(trace_metrics_compute(&a, &b, makedev(7, 3), &m), 0);
	ck_assert_uint_eq(m.completed, 21);
	ck_assert_uint_eq(m.d.completed[TRACE_OP_READ], 20);
	free(v);
	free(w);
	trace_metrics_free(&m);
	trace_sample_free(&a);
	trace_sample_free(&b);
}
END_TEST

/* Queue and device time: per-op percentiles from their own histograms,
 * "all" from their sum, and no split on bio-based devices. */
START_TEST(test_split)
{
	struct blktune_key k1 = { KDEV(7, 3), BLKTUNE_PATH_RQ }, k2 = { KDEV(252, 1), BLKTUNE_PATH_BIO };
	struct blktune_dev_cpu *v = fake_values(1, 1);
	struct trace_sample s;
	struct trace_metrics m;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	/* 100 reads: queue (4, 8] us, device (64, 128] us; 10 flushes:
	 * queue (1, 2], device (512, 1024]; 3 writes without issue time */
	v[0].qlat[BLKTUNE_OP_READ][3] = 100;
	v[0].dlat[BLKTUNE_OP_READ][7] = 100;
	v[0].q_sum_ns[BLKTUNE_OP_READ] = 100 * 6000;
	v[0].d_sum_ns[BLKTUNE_OP_READ] = 100 * 100000;
	v[0].qlat[BLKTUNE_OP_FLUSH][1] = 10;
	v[0].dlat[BLKTUNE_OP_FLUSH][10] = 10;
	v[0].no_issue[BLKTUNE_OP_WRITE] = 3;
	trace_sample_init(&s);
	trace_metrics_init(&m);
	trace_sample_reset(&s, 1);
	ck_assert_int_eq(trace_sample_add(&s, &k1, v), 0);
	ck_assert_int_eq(trace_sample_add(&s, &k2, v), 0);
	ck_assert_int_eq(trace_metrics_compute(NULL, &s, makedev(7, 3), &m), 0);
	ck_assert(m.split);
	ck_assert_uint_eq(m.sp[TRACE_OP_READ].n, 100);
	ck_assert_double_eq_tol(m.sp[TRACE_OP_READ].q_p50_us, 6.0, 1e-9);
	ck_assert_double_eq_tol(m.sp[TRACE_OP_READ].d_p50_us, 96.0, 1e-9);
	ck_assert_double_eq_tol(m.sp[TRACE_OP_READ].d_p99_us, 64 + 64 * 0.99, 1e-9);
	ck_assert_double_eq_tol(m.sp[TRACE_OP_READ].q_avg_us, 6.0, 1e-9);
	ck_assert_double_eq_tol(m.sp[TRACE_OP_READ].d_avg_us, 100.0, 1e-9);
	ck_assert_uint_eq(m.sp[TRACE_OP_FLUSH].n, 10);
	ck_assert_double_eq_tol(m.sp[TRACE_OP_FLUSH].d_p50_us, 768.0, 1e-9);
	ck_assert_uint_eq(m.sp[TRACE_OP_WRITE].n, 0);
	ck_assert(isnan(m.sp[TRACE_OP_WRITE].d_p99_us));
	ck_assert_uint_eq(m.sp[TRACE_OPS].n, 110);
	/* all ops: 99th of 110 is past the 100 reads, in the flushes' bucket */
	ck_assert_double_eq_tol(m.sp[TRACE_OPS].d_p99_us, 512 + 512 * (0.99 * 110 - 100) / 10, 1e-9);
	f = open_memstream(&buf, &len);
	ck_assert_int_eq(trace_metrics_json(f, &m), 0);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(buf, "\"lat_split\": {\"read\": {\"requests\": 100, \"queue_avg_us\": 6.0"));
	ck_assert_ptr_nonnull(strstr(buf, "\"write\": {\"requests\": 0, \"queue_avg_us\": null"));
	ck_assert_ptr_nonnull(strstr(buf, "\"no_issue_time\": 3, \"lat_hist_us\": {\"queue\": [{\"us_le\": 1"));
	free(buf);
	ck_assert_int_eq(trace_metrics_compute(NULL, &s, makedev(252, 1), &m), 0);
	ck_assert(!m.split);
	f = open_memstream(&buf, &len);
	ck_assert_int_eq(trace_metrics_json(f, &m), 0);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(buf, "\"lat_split\": null"));
	free(buf);
	free(v);
	trace_metrics_free(&m);
	trace_sample_free(&s);
}
END_TEST

/* The table's q_p99_us and d_p99_us: a number where the device is split,
 * n/a on a bio-based device (no queue part) and where tracing is off. */
START_TEST(test_split_columns)
{
	struct disk_metrics m;
	char out[32];

	memset(&m, 0, sizeof(m));
	m.state = DISK_OK;
	m.traced = m.t_metrics = m.t_split = true;
	m.t_q_p99_us = 123;
	m.t_d_p99_us = 4567;
	column_cell(&columns[COLUMN_T_QP99], &m, out, sizeof(out));
	ck_assert_str_eq(out, "     123");
	column_cell(&columns[COLUMN_T_DP99], &m, out, sizeof(out));
	ck_assert_str_eq(out, "    4567");
	m.t_split = false;
	m.t_q_p99_us = m.t_d_p99_us = NAN;
	column_cell(&columns[COLUMN_T_QP99], &m, out, sizeof(out));
	ck_assert_str_eq(out, "     n/a");
	column_cell(&columns[COLUMN_T_DP99], &m, out, sizeof(out));
	ck_assert_str_eq(out, "     n/a");
	m.traced = m.t_metrics = false;
	column_cell(&columns[COLUMN_T_DP99], &m, out, sizeof(out));
	ck_assert_str_eq(out, "     n/a");
	ck_assert_int_eq(column_find("q_p99_us"), COLUMN_T_QP99);
	ck_assert_int_eq(column_find("d_p99_us"), COLUMN_T_DP99);
}
END_TEST

START_TEST(test_copy_swap)
{
	struct trace_sample a, b;

	trace_sample_init(&a);
	trace_sample_init(&b);
	fill(&a, 3, 2, true);
	a.missed = 5;
	a.map_full = 2;
	ck_assert_int_eq(trace_sample_copy(&b, &a), 0);
	ck_assert_uint_eq(b.ndevs, 2);
	ck_assert_uint_eq(b.ncpu, 3);
	/* the header's "runs skipped, lost: map full" of the copy */
	ck_assert_uint_eq(b.missed, 5);
	ck_assert_uint_eq(b.map_full, 2);
	ck_assert_mem_eq(b.devs, a.devs, 2 * sizeof(*a.devs));
	ck_assert_mem_eq(b.cpu, a.cpu, 2 * 3 * sizeof(*a.cpu));
	ck_assert_mem_eq(b.matrix, a.matrix, 2 * 9 * sizeof(*a.matrix));
	fill(&a, 3, 7, false); /* a changes, the copy does not */
	ck_assert_uint_eq(b.ndevs, 2);
	ck_assert_uint_eq(b.devs[0].tot.issued[0], 2 * 10 * 6);
	trace_sample_swap(&a, &b);
	ck_assert_uint_eq(a.ndevs, 2);
	ck_assert_uint_eq(b.ndevs, 1);
	trace_sample_free(&a);
	trace_sample_free(&b);
}
END_TEST

START_TEST(test_json)
{
	struct trace_sample a, b;
	struct trace_metrics m;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int depth = 0;

	trace_sample_init(&a);
	trace_sample_init(&b);
	trace_metrics_init(&m);
	fill(&a, 2, 1, false);
	fill(&b, 2, 2, false);
	ck_assert_int_eq(trace_metrics_compute(&a, &b, makedev(7, 3), &m), 0);
	f = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(trace_metrics_json(f, &m), 0);
	fclose(f);
	ck_assert(strncmp(buf, ", \"rq_size_hist\": {\"read\": [{\"bytes_le\": 512, \"count\": 0", 54) == 0);
	ck_assert_ptr_nonnull(strstr(buf, "{\"bytes_le\": 4096, \"count\": 30, \"bytes\": 122880}"));
	ck_assert_ptr_nonnull(strstr(buf, "{\"bytes_le\": null, \"count\": 0"));
	ck_assert_ptr_nonnull(strstr(buf, "\"lat_hist_us\": [{\"us_le\": 1, \"count\": 0}"));
	ck_assert_ptr_nonnull(strstr(buf, "{\"us_le\": 8, \"count\": 32}"));
	ck_assert_ptr_nonnull(strstr(buf, "\"lat_p50_us\": 6.0"));
	ck_assert_ptr_nonnull(strstr(buf, "\"lat_max_us\": 8.0"));
	ck_assert_ptr_nonnull(strstr(buf, "\"per_cpu\": [{\"cpu\": 0, \"issued\": 32, \"completed\": 11}, "
					  "{\"cpu\": 1, \"issued\": 0, \"completed\": 21}]"));
	for (const char *p = buf; *p; p++) {
		depth += (*p == '{' || *p == '[') - (*p == '}' || *p == ']');
		ck_assert_int_ge(depth, 0);
	}
	ck_assert_int_eq(depth, 0);
	free(buf);
	/* No event since prev (an idle device, most of a big machine's every
	 * refresh): -ENODATA, nothing derived, m left as it was. */
	m.completed = 12345;
	ck_assert_int_eq(trace_metrics_compute(&b, &b, makedev(7, 3), &m), -ENODATA);
	ck_assert_uint_eq(m.completed, 12345);
	/* A step in one counter is not idle. */
	fill(&a, 2, 2, false);
	a.devs[0].tot.steps++;
	ck_assert_int_eq(trace_metrics_compute(&b, &a, makedev(7, 3), &m), 0);
	/* An interval of zero counts (a device's first sample, no event yet):
	 * percentiles are null, not 0. */
	fill(&a, 2, 0, false);
	ck_assert_int_eq(trace_metrics_compute(NULL, &a, makedev(7, 3), &m), 0);
	f = open_memstream(&buf, &len);
	ck_assert_int_eq(trace_metrics_json(f, &m), 0);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(buf, "\"lat_p99_us\": null"));
	ck_assert_ptr_nonnull(strstr(buf, "\"per_cpu\": []"));
	free(buf);
	trace_metrics_free(&m);
	trace_sample_free(&a);
	trace_sample_free(&b);
}
END_TEST

START_TEST(test_cpulist)
{
	int first = -1;

	ck_assert_int_eq(trace_topology_cpulist("0-3,8,10-11\n", &first), 12);
	ck_assert_int_eq(first, 0);
	ck_assert_int_eq(trace_topology_cpulist("64-79,192-207", &first), 208);
	ck_assert_int_eq(first, 64);
	ck_assert_int_eq(trace_topology_cpulist("5", &first), 6);
	ck_assert_int_eq(first, 5);
	ck_assert_int_eq(trace_topology_cpulist("", NULL), -EINVAL);
	ck_assert_int_eq(trace_topology_cpulist("3-1", NULL), -EINVAL);
	ck_assert_int_eq(trace_topology_cpulist("1,x", NULL), -EINVAL);
	ck_assert_int_eq(trace_topology_cpulist("1-", NULL), -EINVAL);
}
END_TEST

START_TEST(test_topology_256)
{
	struct trace_topology t;
	uint64_t *mat, grp[TRACE_CLASSES];
	struct root *r;

	ck_assert_int_eq(root_open(unit_fixture("cpu256"), &r), 0);
	trace_topology_init(&t);
	ck_assert_int_eq(trace_topology_read(r, &t), 0);
	ck_assert_uint_eq(t.ncpu, 256);
	ck_assert_int_eq(t.llc[0], 0);
	ck_assert_int_eq(t.llc[128], 0);   /* SMT sibling, same L3 */
	ck_assert_int_eq(t.llc[200], 64);  /* L3 picked over the per-core L2 */
	ck_assert_int_eq(t.node[200], 1);
	ck_assert_int_eq(t.node[63], 0);
	ck_assert_int_eq(trace_topology_class(&t, 5, 5), TRACE_CLASS_SAME_CPU);
	ck_assert_int_eq(trace_topology_class(&t, 0, 143), TRACE_CLASS_SAME_LLC);
	ck_assert_int_eq(trace_topology_class(&t, 0, 16), TRACE_CLASS_SAME_NODE);
	ck_assert_int_eq(trace_topology_class(&t, 0, 64), TRACE_CLASS_ELSEWHERE);
	ck_assert_int_eq(trace_topology_class(&t, 0, 999), TRACE_CLASS_ELSEWHERE);

	/* One completion per (completion CPU, submitting CPU) pair: each CPU
	 * has 31 others in its LLC, 96 more in its node, 128 elsewhere. */
	mat = malloc(256 * 256 * sizeof(*mat));
	ck_assert_ptr_nonnull(mat);
	for (size_t i = 0; i < 256 * 256; i++)
		mat[i] = 1;
	trace_matrix_group(&t, mat, 256, grp);
	ck_assert_uint_eq(grp[TRACE_CLASS_SAME_CPU], 256);
	ck_assert_uint_eq(grp[TRACE_CLASS_SAME_LLC], 256 * 31);
	ck_assert_uint_eq(grp[TRACE_CLASS_SAME_NODE], 256 * 96);
	ck_assert_uint_eq(grp[TRACE_CLASS_ELSEWHERE], 256 * 128);
	free(mat);
	trace_topology_free(&t);
	root_close(r);
}
END_TEST

START_TEST(test_topology_missing)
{
	struct trace_topology t;
	struct root *r;
	char *dir = unit_fixture_copy("cpu256");
	char path[4200];

	/* An offline CPU has no cache or node entries: unknown, never "same". */
	snprintf(path, sizeof(path), "rm -rf '%s/sys/devices/system/cpu/cpu7'", dir);
	ck_assert_int_eq(system(path), 0);
	ck_assert_int_eq(root_open(dir, &r), 0);
	trace_topology_init(&t);
	ck_assert_int_eq(trace_topology_read(r, &t), 0);
	ck_assert_int_eq(t.llc[7], -1);
	ck_assert_int_eq(t.node[7], -1);
	ck_assert_int_eq(trace_topology_class(&t, 0, 7), TRACE_CLASS_ELSEWHERE);
	trace_topology_free(&t);
	root_close(r);
	/* No cpu/possible at all. */
	snprintf(path, sizeof(path), "rm -f '%s/sys/devices/system/cpu/possible'", dir);
	ck_assert_int_eq(system(path), 0);
	ck_assert_int_eq(root_open(dir, &r), 0);
	ck_assert_int_eq(trace_topology_read(r, &t), -ENOENT);
	root_close(r);
	unit_rmtree(dir);
	free(dir);
}
END_TEST

UNIT_SUITE(trace_suite)
static Suite *trace_suite(void)
{
	Suite *s = suite_create("trace");
	TCase *tc = tcase_create("trace");

	tcase_add_test(tc, test_size_buckets);
	tcase_add_test(tc, test_lat_buckets);
	tcase_add_test(tc, test_op_groups);
	tcase_add_test(tc, test_percentiles);
	tcase_add_test(tc, test_decode);
	tcase_add_test(tc, test_delta);
	tcase_add_test(tc, test_stale_cpu_row_zero);
	tcase_add_test(tc, test_new_disk_same_dev);
	tcase_add_test(tc, test_split);
	tcase_add_test(tc, test_split_columns);
	tcase_add_test(tc, test_copy_swap);
	tcase_add_test(tc, test_json);
	tcase_add_test(tc, test_cpulist);
	tcase_add_test(tc, test_topology_256);
	tcase_add_test(tc, test_topology_missing);
	suite_add_tcase(s, tc);
	return s;
}
