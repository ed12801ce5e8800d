/* series, snapshot, compare, ab: windows since a change, verdicts on
 * constructed series and hand-made snapshots of several devices, the A/B
 * keys' take/compare/save, file round trip, parser errors with line
 * numbers, and a save killed with SIGKILL never leaving a partial file
 * under a final name. */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ab.h"
#include "compare.h"
#include "format.h"
#include "series.h"
#include "snapshot-output.h"
#include "snapshot.h"
#include "unit.h"

static struct disk_metrics disk(const char *name, unsigned minor, double r_s, double rareq)
{
	struct disk_metrics m;

	memset(&m, 0, sizeof(m));
	unit_row_info(&m);
	m.dev = makedev(7, minor);
	snprintf(m.name, sizeof(m.name), "%s", name);
	m.state = DISK_OK;
	m.interval = 1;
	m.r_s = r_s;
	m.rareq_sz = rareq;
	m.rkb_s = r_s * rareq;
	m.rmb_s = m.rkb_s / 1024;
	m.r_await = 2;
	m.read_ahead_kb = 128;
	m.max_sectors_kb = -1;
	m.t_lat_avg_us = m.t_lat_p99_us = m.t_same_cpu_pct = m.t_completed = m.t_gap_pct = NAN;
	return m;
}

static void feed(struct series *se, double t0, int n, double r_s, double jitter, double rareq)
{
	for (int i = 0; i < n; i++) {
		struct disk_metrics m = disk("loop7", 7, r_s + (i % 2 ? jitter : -jitter), rareq);
		ck_assert_int_eq(series_add(se, &m, 1, t0 + i + 1), 0);
	}
}

static void take(struct series *se, double now, struct snapshot *s)
{
	struct snapshot_source src = { .series = se, .host = "testhost", .kernel = "6.18-test", .t_now = now };
	char msg[256];

	src.wall_now.tv_sec = 1767225600 + (time_t)now;
	ck_assert_int_eq(snapshot_capture(s, &src, msg, sizeof(msg)), 0);
}

START_TEST(test_window_since_change)
{
	struct series *se;
	struct series_window w;

	ck_assert_int_eq(series_new(30, &se), 0);
	series_window_init(&w);
	feed(se, 0, 50, 100, 1, 4);
	ck_assert_int_eq(series_window_get(se, makedev(7, 7), "loop7", &w), 0);
	ck_assert_uint_eq(w.n, 30); /* at most the window */
	ck_assert_double_eq_tol(w.st[COLUMN_R_S].mean, 100, 1e-9);
	/* A change at t = 45.5: the interval (45, 46] straddles it and is left out. */
	series_mark_change(se, makedev(7, 7), "loop7", 45.5);
	ck_assert_int_eq(series_window_get(se, makedev(7, 7), "loop7", &w), 0);
	ck_assert_uint_eq(w.n, 4);
	ck_assert_double_eq_tol(w.t_start, 46, 1e-9);
	/* Another name on the same dev_t is another device. */
	ck_assert_int_eq(series_window_get(se, makedev(7, 7), "loop8", &w), -ENOENT);
	/* Gauges below 0 mean "no such attribute" and are not statistics. */
	ck_assert_uint_eq(w.st[COLUMN_MAXSECT_KB].n, 0);
	ck_assert_uint_eq(w.st[COLUMN_T_P99].n, 0);
	series_window_free(&w);
	series_free(se);
}
END_TEST

START_TEST(test_verdicts)
{
	struct series *se;
	struct snapshot a, b;
	struct compare_result r;
	const struct compare_dev *cd;
	char line[160];

	ck_assert_int_eq(series_new(30, &se), 0);
	feed(se, 0, 20, 100, 5, 4);
	take(se, 20, &a);
	series_mark_change(se, makedev(7, 7), "loop7", 20);
	/* Throughput up by 3 sd: r/s and rMB/s higher; only rMB/s (the
	 * primary figure, throughput) is judged: better. Request size 4 -> 8:
	 * higher, never judged. r_await constant on both sides: same. */
	feed(se, 20, 20, 115, 5, 8);
	take(se, 40, &b);
	ck_assert_uint_eq(b.dev[0].n, 20);
	ck_assert_int_eq(compare_snapshots(&a, &b, &r), 0);
	ck_assert_str_eq(r.warning, "");
	ck_assert_int_eq(r.primary, CMP_PRIMARY_MBPS);
	cd = compare_find(&r, "loop7");
	ck_assert_ptr_nonnull(cd);
	ck_assert_ptr_nonnull(cd->headline);
	ck_assert_int_eq(cd->headline->col, COLUMN_RMB_S);
	compare_headline(cd, r.primary, line, sizeof(line));
	ck_assert_str_eq(line, "primary MB/s: rMB/s 0.39 -> 0.90 (+130.0%) higher, better");
	for (size_t i = 0; i < cd->nm; i++) {
		const struct compare_metric *m = &cd->m[i];
		if (m->col == COLUMN_R_S) {
			ck_assert_int_eq(m->verdict, CMP_HIGHER);
			ck_assert_int_eq(m->judged, CMP_UNJUDGED);
			ck_assert_double_eq_tol(m->change_pct, 15, 1e-6);
		} else if (m->col == COLUMN_RMB_S) {
			ck_assert_int_eq(m->verdict, CMP_HIGHER);
			ck_assert_int_eq(m->judged, CMP_BETTER);
		} else if (m->col == COLUMN_RAREQ_SZ) {
			ck_assert_int_eq(m->verdict, CMP_HIGHER);
			ck_assert_int_eq(m->judged, CMP_UNJUDGED);
		} else if (m->col == COLUMN_R_AWAIT) {
			ck_assert_int_eq(m->verdict, CMP_SAME);
			ck_assert_int_eq(m->judged, CMP_UNJUDGED);
		}
	}
	/* IOPS as the primary figure: now r/s is judged, rMB/s is not */
	compare_judge(&r, CMP_PRIMARY_IOPS);
	ck_assert_int_eq(cd->headline->col, COLUMN_R_S);
	for (size_t i = 0; i < cd->nm; i++) {
		if (cd->m[i].col == COLUMN_R_S)
			ck_assert_int_eq(cd->m[i].judged, CMP_BETTER);
		if (cd->m[i].col == COLUMN_RMB_S)
			ck_assert_int_eq(cd->m[i].judged, CMP_UNJUDGED);
	}
	compare_free(&r);
	/* Swapped: the same difference is lower, and worse. */
	ck_assert_int_eq(compare_snapshots(&b, &a, &r), 0);
	for (size_t i = 0; i < r.dev[0].nm; i++)
		if (r.dev[0].m[i].col == COLUMN_RMB_S) {
			ck_assert_int_eq(r.dev[0].m[i].verdict, CMP_LOWER);
			ck_assert_int_eq(r.dev[0].m[i].judged, CMP_WORSE);
		}
	compare_free(&r);
	{
		struct stats_summary x = { 20, 100, 5, 90, 110 }, y = { 20, 101, 5, 91, 111 };
		struct compare_metric m;
		char v[32];
		compare_metric(COLUMN_W_AWAIT, &x, &y, &m);
		ck_assert_int_eq(m.verdict, CMP_NOISE);
		compare_metric_text(&m, v, sizeof(v));
		ck_assert_str_eq(v, "within noise");
		/* nothing moved on either side: "same", even with one interval */
		{
			struct stats_summary c = { 20, 4, 0, 4, 4 }, d = { 1, 4, NAN, 4, 4 };
			compare_metric(COLUMN_RAREQ_SZ, &c, &c, &m);
			compare_metric_text(&m, v, sizeof(v));
			ck_assert_str_eq(v, "same");
			compare_metric(COLUMN_RAREQ_SZ, &c, &d, &m);
			ck_assert_int_eq(m.verdict, CMP_SAME);
			/* constant on both sides but at different values: higher */
			d.n = 20, d.sd = 0, d.mean = d.min = d.max = 8;
			compare_metric(COLUMN_RAREQ_SZ, &c, &d, &m);
			ck_assert_int_eq(m.verdict, CMP_HIGHER);
		}
		y.mean = 110;
		compare_metric(COLUMN_W_AWAIT, &x, &y, &m);
		ck_assert_int_eq(m.verdict, CMP_HIGHER);
		ck_assert_int_eq(m.judged, CMP_WORSE); /* await: latency, lower is better, always judged */
		compare_metric_text(&m, v, sizeof(v));
		ck_assert_str_eq(v, "higher, worse");
		/* issue 9: larger requests, fewer of them: IOPS lower, not "worse" */
		compare_metric(COLUMN_R_S, &y, &x, &m);
		ck_assert_int_eq(m.verdict, CMP_LOWER);
		ck_assert_int_eq(m.judged, CMP_UNJUDGED);
		compare_metric_text(&m, v, sizeof(v));
		ck_assert_str_eq(v, "lower");
		/* in_flight: a gauge without a good direction, never judged */
		compare_metric(COLUMN_IN_FLIGHT, &x, &y, &m);
		ck_assert_int_eq(m.judged, CMP_UNJUDGED);
	}
	snapshot_free(&a);
	snapshot_free(&b);
	series_free(se);
}
END_TEST

/* A of loop7, B of loop8: compared (one pair, both sides) with a warning,
 * not two one-sided devices; the same name with another major:minor (the
 * device re-created) and another host are warned about too. */
START_TEST(test_different_devices_warn)
{
	struct series *se;
	struct snapshot a, b;
	struct compare_result r;

	ck_assert_int_eq(series_new(30, &se), 0);
	feed(se, 0, 10, 100, 5, 4);
	take(se, 10, &a);
	series_free(se);
	ck_assert_int_eq(series_new(30, &se), 0);
	for (int i = 0; i < 10; i++) {
		struct disk_metrics m = disk("loop8", 8, 200 + (i % 2 ? 5 : -5), 4);
		ck_assert_int_eq(series_add(se, &m, 1, i + 1), 0);
	}
	take(se, 10, &b);
	ck_assert_int_eq(compare_snapshots(&a, &b, &r), 0);
	ck_assert_uint_eq(r.ndev, 1);
	ck_assert_ptr_nonnull(r.dev[0].a);
	ck_assert_ptr_nonnull(r.dev[0].b);
	ck_assert_str_eq(r.warning, "A is loop7 (7:7), B is loop8 (7:8): different devices");
	compare_free(&r);
	snprintf(b.dev[0].name, sizeof(b.dev[0].name), "loop7");
	b.dev[0].minor = 9;
	snprintf(b.host, sizeof(b.host), "otherhost");
	ck_assert_int_eq(compare_snapshots(&a, &b, &r), 0);
	ck_assert_str_eq(r.warning, "loop7 is 7:7 in A but 7:9 in B: not the same device; A was taken on testhost, B on otherhost");
	compare_free(&r);
	/* the same name and number with another diskseq: re-created */
	b.dev[0].minor = 7;
	a.dev[0].diskseq = 1636;
	b.dev[0].diskseq = 1639;
	ck_assert_int_eq(compare_snapshots(&a, &b, &r), 0);
	ck_assert_str_eq(r.warning, "loop7 has diskseq 1636 in A but 1639 in B: re-created in between, maybe not the same "
				    "device; A was taken on testhost, B on otherhost");
	compare_free(&r);
	b.dev[0].diskseq = 1636;
	snprintf(b.host, sizeof(b.host), "testhost");
	ck_assert_int_eq(compare_snapshots(&a, &b, &r), 0);
	ck_assert_str_eq(r.warning, "");
	compare_free(&r);
	/* the same device: no warning */
	ck_assert_int_eq(compare_snapshots(&a, &a, &r), 0);
	ck_assert_str_eq(r.warning, "");
	compare_free(&r);
	snapshot_free(&a);
	snapshot_free(&b);
	series_free(se);
}
END_TEST

/* A device of a hand-made snapshot: r/s and rMB/s at the given means (sd 1
 * over 10 intervals), wMB/s at wmb, w/s all zero, nothing traced. */
static void hand_dev(struct snapshot_dev *d, const char *name, unsigned minor, double r_s, double wmb)
{
	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "%s", name);
	d->major = 7;
	d->minor = minor;
	d->n = 10;
	d->st[COLUMN_R_S] = (struct stats_summary){ 10, r_s, 1, r_s - 2, r_s + 2 };
	d->st[COLUMN_RMB_S] = (struct stats_summary){ 10, r_s / 256, 0.01, r_s / 256 - 0.02, r_s / 256 + 0.02 };
	d->st[COLUMN_WMB_S] = (struct stats_summary){ 10, wmb, 0.01, wmb - 0.02, wmb + 0.02 };
	d->st[COLUMN_W_S] = (struct stats_summary){ 10, 0, 0, 0, 0 };
}

/* Free the vecs hand-made devices were given, as snapshot_free would. */
static void hand_free_vecs(struct snapshot_dev *d, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; k < d[i].nvec; k++)
			free(d[i].vec[k].v);
		free(d[i].vec);
		d[i].vec = NULL;
		d[i].nvec = 0;
	}
}

static const struct compare_metric *metric_of(const struct compare_dev *cd, enum column_id col)
{
	for (size_t i = 0; i < cd->nm; i++)
		if (cd->m[i].col == col)
			return &cd->m[i];
	return NULL;
}

/* Several devices: A's in A's order, then those only in B (B lists one
 * first, so a walk that skips B's first device loses it); one-sided
 * devices have their own side's figures and tunables and no verdicts; the
 * headline is the busier direction; a figure zero throughout is inactive. */
START_TEST(test_multi_device)
{
	static struct snapshot_dev da[2], db[2];
	static struct snapshot_tunable ta[2] = { { "read_ahead_kb", "128" }, { "wbt_lat_usec", "2000" } }, tb[3] = {
		{ "read_ahead_kb", "128" }, { "nr_requests", "64" }, { "wbt_lat_usec", "0" } };
	struct snapshot a = { .host = "h", .kernel = "k", .dev = da, .ndev = 2 };
	struct snapshot b = { .host = "h", .kernel = "k", .dev = db, .ndev = 2 };
	struct compare_result r;
	const struct compare_dev *cd;
	const struct compare_metric *m;
	char line[160];

	hand_dev(&da[0], "loop7", 7, 1000, 0);
	hand_dev(&da[1], "loop8", 8, 500, 0);
	hand_dev(&db[0], "loop9", 9, 300, 0);
	hand_dev(&db[1], "loop7", 7, 1200, 9);
	db[0].tun = tb;
	db[0].ntun = 2;
	da[0].tun = ta;
	da[0].ntun = 2;
	db[1].tun = tb;
	db[1].ntun = 3;
	ck_assert_int_eq(compare_snapshots(&a, &b, &r), 0);
	ck_assert_str_eq(r.warning, "");
	ck_assert_uint_eq(r.ndev, 3);
	ck_assert_str_eq(r.dev[0].name, "loop7");
	ck_assert_str_eq(r.dev[1].name, "loop8");
	ck_assert_str_eq(r.dev[2].name, "loop9");
	/* loop7 on both sides: wMB/s went 0 -> 9 while rMB/s stayed below 5:
	 * the headline is the busier direction, wMB/s */
	cd = &r.dev[0];
	ck_assert_ptr_eq(cd->a, &da[0]);
	ck_assert_ptr_eq(cd->b, &db[1]);
	ck_assert_ptr_nonnull(cd->headline);
	ck_assert_int_eq(cd->headline->col, COLUMN_WMB_S);
	m = metric_of(cd, COLUMN_R_S);
	ck_assert_ptr_nonnull(m);
	ck_assert_int_eq(m->verdict, CMP_HIGHER);
	ck_assert_double_eq_tol(m->change_pct, 20, 1e-9);
	/* w/s 0 on both sides: listed (there are intervals) but not active */
	m = metric_of(cd, COLUMN_W_S);
	ck_assert_ptr_nonnull(m);
	ck_assert(!m->active);
	ck_assert_int_eq(m->verdict, CMP_SAME);
	/* nothing traced on either side: no metric at all */
	ck_assert_ptr_null(metric_of(cd, COLUMN_T_AVG));
	/* tunables: the differing ones first (nr_requests only in B,
	 * wbt_lat_usec changed), each group by name; read_ahead_kb last */
	ck_assert_uint_eq(cd->ntun, 3);
	ck_assert_uint_eq(cd->ndiffer, 2);
	ck_assert_str_eq(cd->tun[0].name, "nr_requests");
	ck_assert_ptr_null(cd->tun[0].a);
	ck_assert_str_eq(cd->tun[0].b, "64");
	ck_assert_str_eq(cd->tun[1].name, "wbt_lat_usec");
	ck_assert_str_eq(cd->tun[1].a, "2000");
	ck_assert_str_eq(cd->tun[1].b, "0");
	ck_assert_str_eq(cd->tun[2].name, "read_ahead_kb");
	ck_assert(!cd->tun[2].differs);
	/* loop8, only in A: its figures, no verdict, no change */
	cd = &r.dev[1];
	ck_assert_ptr_eq(cd->a, &da[1]);
	ck_assert_ptr_null(cd->b);
	ck_assert_uint_eq(cd->ntun, 0);
	m = metric_of(cd, COLUMN_R_S);
	ck_assert_ptr_nonnull(m);
	ck_assert(m->active);
	ck_assert_int_eq(m->verdict, CMP_NA);
	ck_assert(isnan(m->change_pct));
	ck_assert_uint_eq(m->b.n, 0);
	compare_headline(cd, r.primary, line, sizeof(line));
	ck_assert_str_eq(line, "primary MB/s: rMB/s 1.95 -> - (-) n/a");
	/* loop9, only in B */
	cd = compare_find(&r, "loop9");
	ck_assert_ptr_eq(cd, &r.dev[2]);
	ck_assert_ptr_null(cd->a);
	ck_assert_ptr_eq(cd->b, &db[0]);
	m = metric_of(cd, COLUMN_R_S);
	ck_assert_ptr_nonnull(m);
	ck_assert(m->active);
	ck_assert_double_eq(m->b.mean, 300);
	ck_assert_uint_eq(m->a.n, 0);
	ck_assert_uint_eq(cd->ntun, 2);
	ck_assert_uint_eq(cd->ndiffer, 2);
	ck_assert_ptr_null(compare_find(&r, "loop10"));
	/* another primary: IOPS has r/s as loop7's headline; no device has a
	 * readahead hit ratio, so under RA hit% none has a headline (the old
	 * one is dropped); a primary past the last is throughput */
	compare_judge(&r, CMP_PRIMARY_IOPS);
	ck_assert_int_eq(r.dev[0].headline->col, COLUMN_R_S);
	compare_judge(&r, CMP_PRIMARY_HIT);
	ck_assert_ptr_null(r.dev[0].headline);
	ck_assert_ptr_null(r.dev[2].headline);
	compare_judge(&r, CMP_PRIMARIES);
	ck_assert_int_eq(r.primary, CMP_PRIMARY_MBPS);
	ck_assert_int_eq(r.dev[0].headline->col, COLUMN_WMB_S);
	compare_free(&r);
	ck_assert_uint_eq(r.ndev, 0);
	ck_assert_ptr_null(r.dev);

	/* every device re-created in between: the first is warned about, and
	 * how many more */
	da[0].diskseq = 1;
	db[1].diskseq = 2;
	da[1].diskseq = 3;
	hand_dev(&db[0], "loop8", 8, 300, 0);
	db[0].diskseq = 4;
	ck_assert_int_eq(compare_snapshots(&a, &b, &r), 0);
	ck_assert_str_eq(r.warning, "loop7 has diskseq 1 in A but 2 in B: re-created in between, maybe not the same "
				    "device; 1 more device of another number or diskseq in B");
	ck_assert_uint_eq(r.ndev, 2);
	compare_free(&r);
	/* every device with another number in B: likewise the first */
	db[1].minor = 17;
	db[0].minor = 18;
	ck_assert_int_eq(compare_snapshots(&a, &b, &r), 0);
	ck_assert_str_eq(r.warning,
			 "loop7 is 7:7 in A but 7:17 in B: not the same device; 1 more device of another number or "
			 "diskseq in B");
	compare_free(&r);
	/* the second one only: named in full */
	db[1].minor = 7;
	db[1].diskseq = 1;
	ck_assert_int_eq(compare_snapshots(&a, &b, &r), 0);
	ck_assert_str_eq(r.warning, "loop8 is 7:8 in A but 7:18 in B: not the same device");
	compare_free(&r);
	db[1].diskseq = 2;
	db[0].minor = 8;
	/* rMB/s and wMB/s equally busy: the headline is the first, rMB/s */
	da[0].st[COLUMN_WMB_S] = da[0].st[COLUMN_RMB_S];
	db[1].st[COLUMN_WMB_S] = db[1].st[COLUMN_RMB_S];
	ck_assert_int_eq(compare_snapshots(&a, &b, &r), 0);
	ck_assert_int_eq(r.dev[0].headline->col, COLUMN_RMB_S);
	compare_free(&r);
}
END_TEST

/* Devices on one side each, all different, in arrays of exactly their
 * size (ASan sees a read past them), and a pair of single devices of
 * different names; then the warning at its longest: every name and host as
 * long as they can be, cut at the buffer's end, in a result on the heap
 * (ASan sees a write past it). */
START_TEST(test_one_sided_and_long_warning)
{
	struct snapshot_dev *da = calloc(1, sizeof(*da)), *db = calloc(2, sizeof(*db));
	struct snapshot a = { .host = "h", .kernel = "k", .dev = da, .ndev = 1 };
	struct snapshot b = { .host = "h", .kernel = "k", .dev = db, .ndev = 2 };
	struct compare_result *r = malloc(sizeof(*r));
	char name_a[SAMPLE_NAME_MAX], name_b[SAMPLE_NAME_MAX];

	ck_assert_ptr_nonnull(da);
	ck_assert_ptr_nonnull(db);
	ck_assert_ptr_nonnull(r);
	hand_dev(&da[0], "loop7", 7, 100, 0);
	hand_dev(&db[0], "loop8", 8, 100, 0);
	hand_dev(&db[1], "loop9", 9, 100, 0);
	ck_assert_int_eq(compare_snapshots(&a, &b, r), 0);
	ck_assert_uint_eq(r->ndev, 3);
	ck_assert_ptr_null(r->dev[0].b);
	ck_assert_ptr_null(r->dev[1].a);
	ck_assert_ptr_null(r->dev[2].a);
	ck_assert_str_eq(r->dev[2].name, "loop9");
	compare_free(r);
	/* one device a side, other names: one pair, named after A's */
	b.ndev = 1;
	ck_assert_int_eq(compare_snapshots(&a, &b, r), 0);
	ck_assert_uint_eq(r->ndev, 1);
	ck_assert_str_eq(r->dev[0].name, "loop7");
	ck_assert_ptr_eq(r->dev[0].b, &db[0]);
	compare_free(r);
	/* the longest names, numbers and hosts */
	memset(name_a, 'a', sizeof(name_a) - 1);
	name_a[sizeof(name_a) - 1] = 0;
	memset(name_b, 'b', sizeof(name_b) - 1);
	name_b[sizeof(name_b) - 1] = 0;
	snprintf(da[0].name, sizeof(da[0].name), "%s", name_a);
	snprintf(db[0].name, sizeof(db[0].name), "%s", name_b);
	da[0].major = db[0].major = da[0].minor = db[0].minor = 4294967295u;
	memset(a.host, 'x', sizeof(a.host) - 1);
	memset(b.host, 'y', sizeof(b.host) - 1);
	/* and traced figures that lack (A) and exceed (B) the kernel's count */
	ck_assert_int_eq(snapshot_dev_add_vec(&da[0], SNAP_VEC_COMPLETIONS, (double[]){ 1e15, 9e14 }, 2), 0);
	ck_assert_int_eq(snapshot_dev_add_vec(&db[0], SNAP_VEC_COMPLETIONS, (double[]){ 1e15, 1.1e15 }, 2), 0);
	ck_assert_int_eq(compare_snapshots(&a, &b, r), 0);
	ck_assert_uint_eq(strlen(r->warning), COMPARE_WARNING_MAX - 1);
	ck_assert_msg(strstr(r->warning, "): different devices; A was taken on xxxx") != NULL, "%s", r->warning);
	ck_assert_msg(strncmp(r->warning, "A is aaaa", 9) == 0, "%s", r->warning);
	ck_assert_msg(strstr(r->warning, "aaa in A: the traced figures lack 10.0% of the kernel's 1000000000000000 "
				      "completions (900000000000000 traced); bbbb") != NULL, "%s", r->warning);
	compare_free(r);
	hand_free_vecs(da, 1);
	hand_free_vecs(db, 1);
	/* short names and other hosts: both warnings, whole */
	snprintf(da[0].name, sizeof(da[0].name), "loop7");
	snprintf(db[0].name, sizeof(db[0].name), "loop8");
	da[0].major = db[0].major = 7;
	da[0].minor = 7;
	db[0].minor = 8;
	snprintf(a.host, sizeof(a.host), "ha");
	snprintf(b.host, sizeof(b.host), "hb");
	ck_assert_int_eq(compare_snapshots(&a, &b, r), 0);
	ck_assert_str_eq(r->warning, "A is loop7 (7:7), B is loop8 (7:8): different devices; A was taken on ha, B on hb");
	compare_free(r);
	free(r);
	free(da);
	free(db);
}
END_TEST

/* compare_metric at its edges: which side makes a figure active, a change
 * from a mean of exactly 1, and which columns are ever judged. */
START_TEST(test_metric_edges)
{
	const struct stats_summary zero = { 10, 0, 0, 0, 0 }, none = { 0, NAN, NAN, NAN, NAN };
	const struct stats_summary some = { 10, 0.5, 0.5, 0, 1 }, one = { 10, 1, 0.1, 0.9, 1.1 };
	const struct stats_summary two = { 10, 2, 0.1, 1.9, 2.1 };
	struct compare_metric m;

	compare_metric(COLUMN_R_S, &zero, &zero, &m);
	ck_assert(!m.active);
	compare_metric(COLUMN_R_S, &none, &zero, &m);
	ck_assert(!m.active);
	compare_metric(COLUMN_R_S, &some, &zero, &m);
	ck_assert(m.active);
	compare_metric(COLUMN_R_S, &zero, &some, &m);
	ck_assert(m.active);
	compare_metric(COLUMN_R_S, &none, &some, &m);
	ck_assert(m.active);
	ck_assert(isnan(m.change_pct));
	/* a max below 0 is activity too (min 0 .. max 1 above; here -1 .. 0) */
	{
		const struct stats_summary neg = { 10, -0.5, 0.5, -1, 0 };
		compare_metric(COLUMN_R_S, &zero, &neg, &m);
		ck_assert(m.active);
	}
	/* from 1 to 2: +100 % */
	compare_metric(COLUMN_R_S, &one, &two, &m);
	ck_assert_double_eq_tol(m.change_pct, 100, 1e-9);
	compare_metric(COLUMN_R_S, &zero, &two, &m);
	ck_assert(isnan(m.change_pct));
	/* latency is judged under every primary; a gauge without a direction
	 * (in_flight) never; a throughput column only under its own */
	for (int p = 0; p < CMP_PRIMARIES; p++) {
		ck_assert(compare_judges(COLUMN_W_AWAIT, (enum compare_primary)p));
		ck_assert(!compare_judges(COLUMN_IN_FLIGHT, (enum compare_primary)p));
	}
	ck_assert(compare_judges(COLUMN_WMB_S, CMP_PRIMARY_MBPS));
	ck_assert(!compare_judges(COLUMN_WMB_S, CMP_PRIMARY_IOPS));
	ck_assert(compare_judges(COLUMN_D_S, CMP_PRIMARY_IOPS));
	ck_assert(!compare_judges(COLUMN_R_S, CMP_PRIMARY_HIT));
	/* every column of each primary, and none for a primary past the last */
	ck_assert(compare_judges(COLUMN_DKB_S, CMP_PRIMARY_MBPS));
	ck_assert(compare_judges(COLUMN_RA_HIT, CMP_PRIMARY_HIT));
	ck_assert(!compare_judges(COLUMN_RMB_S, CMP_PRIMARIES));
}
END_TEST

/* The headline under each primary: discards alone (IOPS: d/s), and the
 * readahead hit ratio (RA hit%). */
START_TEST(test_headline_primaries)
{
	static struct snapshot_dev da[1], db[1];
	struct snapshot a = { .host = "h", .kernel = "k", .dev = da, .ndev = 1 };
	struct snapshot b = { .host = "h", .kernel = "k", .dev = db, .ndev = 1 };
	struct compare_result r;
	char line[160];

	hand_dev(&da[0], "loop7", 7, 0, 0);
	hand_dev(&db[0], "loop7", 7, 0, 0);
	da[0].st[COLUMN_R_S] = db[0].st[COLUMN_R_S] = (struct stats_summary){ 10, 0, 0, 0, 0 };
	da[0].st[COLUMN_D_S] = (struct stats_summary){ 10, 50, 1, 48, 52 };
	db[0].st[COLUMN_D_S] = (struct stats_summary){ 10, 80, 1, 78, 82 };
	da[0].st[COLUMN_RA_HIT] = (struct stats_summary){ 10, 90, 1, 88, 92 };
	db[0].st[COLUMN_RA_HIT] = (struct stats_summary){ 10, 70, 1, 68, 72 };
	ck_assert_int_eq(compare_snapshots(&a, &b, &r), 0);
	compare_judge(&r, CMP_PRIMARY_IOPS);
	ck_assert_ptr_nonnull(r.dev[0].headline);
	ck_assert_int_eq(r.dev[0].headline->col, COLUMN_D_S);
	compare_headline(&r.dev[0], r.primary, line, sizeof(line));
	ck_assert_str_eq(line, "primary IOPS: d/s 50.0 -> 80.0 (+60.0%) higher, better");
	compare_judge(&r, CMP_PRIMARY_HIT);
	ck_assert_ptr_nonnull(r.dev[0].headline);
	ck_assert_int_eq(r.dev[0].headline->col, COLUMN_RA_HIT);
	compare_headline(&r.dev[0], r.primary, line, sizeof(line));
	ck_assert_str_eq(line, "primary RA hit%: ra_hit% 90.0 -> 70.0 (-22.2%) lower, worse");
	compare_free(&r);
}
END_TEST

static char *to_text(const struct snapshot *s, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(snapshot_write(s, f), 0);
	fclose(f);
	return buf;
}

static void sample_snapshot(struct snapshot *s)
{
	struct series *se;
	double v[TRACE_LAT_BUCKETS] = { 0 };
	struct snapshot_tunable *t;

	ck_assert_int_eq(series_new(30, &se), 0);
	feed(se, 0, 10, 100, 3, 4);
	take(se, 10, s);
	series_free(se);
	/* Tunables and a histogram, as a capture with tracing would add. */
	s->dev[0].tun = calloc(2, sizeof(*t));
	s->dev[0].ntun = 2;
	snprintf(s->dev[0].tun[0].name, TUNABLE_NAME_MAX, "read_ahead_kb");
	snprintf(s->dev[0].tun[0].value, TUNABLE_VALUE_MAX, "128");
	snprintf(s->dev[0].tun[1].name, TUNABLE_NAME_MAX, "irq/36");
	snprintf(s->dev[0].tun[1].value, TUNABLE_VALUE_MAX, "0-1 (managed)");
	v[3] = 10;
	v[7] = 0.5e9;
	ck_assert_int_eq(snapshot_dev_add_vec(&s->dev[0], SNAP_VEC_LAT, v, TRACE_LAT_BUCKETS), 0);
	v[0] = 1;
	ck_assert_int_eq(snapshot_dev_add_vec(&s->dev[0], SNAP_VEC_CPU_ISSUED, v, 2), 0);
	ck_assert_int_eq(snapshot_dev_add_vec(&s->dev[0], SNAP_VEC_SIZE_READ, v, 2), -EINVAL); /* order */
}

START_TEST(test_round_trip)
{
	struct snapshot s, back;
	char msg[256], *text, *again;
	size_t len, len2;

	sample_snapshot(&s);
	s.dev[0].diskseq = 1639;
	text = to_text(&s, &len);
	ck_assert_str_eq(strtok(strdup(text), "\n"), "blktune-snapshot 2");
	ck_assert_ptr_nonnull(strstr(text, "\ndevice loop7 7:7 1639\n"));
	ck_assert_int_eq(snapshot_parse(text, len, "t.snap", &back, msg, sizeof(msg)), 0);
	ck_assert_str_eq(back.host, "testhost");
	ck_assert_uint_eq(back.ndev, 1);
	ck_assert_str_eq(back.dev[0].name, "loop7");
	ck_assert_uint_eq(back.dev[0].minor, 7);
	ck_assert_uint_eq(back.dev[0].diskseq, 1639);
	ck_assert_uint_eq(back.dev[0].n, 10);
	/* %.17g: every double comes back bit for bit */
	ck_assert(back.dev[0].st[COLUMN_R_S].mean == s.dev[0].st[COLUMN_R_S].mean);
	ck_assert(back.dev[0].st[COLUMN_R_S].sd == s.dev[0].st[COLUMN_R_S].sd);
	ck_assert_str_eq(snapshot_tunable(&back.dev[0], "irq/36"), "0-1 (managed)");
	ck_assert_double_eq(snapshot_dev_vec(&back.dev[0], SNAP_VEC_LAT)->v[7], 0.5e9);
	ck_assert_uint_eq(snapshot_dev_vec(&back.dev[0], SNAP_VEC_CPU_ISSUED)->n, 2);
	again = to_text(&back, &len2);
	ck_assert_str_eq(again, text);
	free(text);
	free(again);
	snapshot_free(&s);
	snapshot_free(&back);
}
END_TEST

/* Version 1 files (before diskseq) still read, with diskseq 0 (unknown);
 * version 2 requires it. */
START_TEST(test_version1_and_diskseq)
{
	const char *v1 = "blktune-snapshot 1\nhost h\nkernel k\ntime 1\nwindow 30\n"
			 "device loop0 7:0\nspan 0 1 1\nend-device\nend 1\n";
	struct snapshot s;
	char msg[256], *t;

	ck_assert_int_eq(snapshot_parse(v1, strlen(v1), "v1.snap", &s, msg, sizeof(msg)), 0);
	ck_assert_uint_eq(s.dev[0].diskseq, 0);
	snapshot_free(&s);
	t = strdup(v1);
	t[17] = '2';
	ck_assert_int_eq(snapshot_parse(t, strlen(t), "v2.snap", &s, msg, sizeof(msg)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(msg, "v2.snap:6: expected 'device NAME MAJOR:MINOR DISKSEQ'"));
	free(t);
}
END_TEST

/* Replace the first occurrence of from in text (which must contain it). */
static char *edit(const char *text, const char *from, const char *to)
{
	const char *at = strstr(text, from);
	char *out;

	ck_assert_ptr_nonnull(at);
	out = malloc(strlen(text) + strlen(to) + 1);
	sprintf(out, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
	return out;
}

static void expect_error(const char *text, size_t len, const char *want)
{
	struct snapshot s;
	char msg[256];

	ck_assert_int_eq(snapshot_parse(text, len, "x.snap", &s, msg, sizeof(msg)), -EINVAL);
	if (!strstr(msg, want))
		ck_abort_msg("got '%s', want '%s'", msg, want);
	ck_assert_uint_eq(s.ndev, 0);
}

/* A busy-only capture after a recorded change: the tunables are the ones
 * recorded in force (not read at capture time: ts is NULL here), the idle
 * intervals are left out and counted, and the count survives the file. A
 * file written before the count existed (three-field span) still reads. */
START_TEST(test_busy_capture_records)
{
	static const struct series_tunable tv[] = { { "max_sectors_kb", "32" }, { "scheduler", "none" } };
	struct series *se;
	struct snapshot s, back;
	struct snapshot_source src = { .host = "h", .kernel = "k", .busy_only = true,
				       .wall_now = { .tv_sec = 1767225600 } }; /* a span is dates */
	char msg[256], *text, *old;
	size_t len;

	ck_assert_int_eq(series_new(60, &se), 0);
	ck_assert_int_eq(series_set_tunables(se, makedev(7, 7), "loop7", 0, tv, 2), 0);
	feed(se, 0, 17, 0, 0, 4); /* idle: r/s 0 */
	feed(se, 17, 12, 100, 2, 32);
	src.series = se;
	src.t_now = 29;
	ck_assert_int_eq(snapshot_capture(&s, &src, msg, sizeof(msg)), 0);
	ck_assert_uint_eq(s.dev[0].n, 11); /* the first busy one is partial */
	ck_assert_uint_eq(s.dev[0].idle, 17);
	ck_assert_uint_eq(s.dev[0].partial, 1);
	ck_assert_double_eq_tol(s.dev[0].st[COLUMN_R_S].mean, 100 + 2.0 / 11, 1e-9); /* jitter -2 +2 ... from the second */
	ck_assert_str_eq(snapshot_tunable(&s.dev[0], "max_sectors_kb"), "32");
	ck_assert_str_eq(snapshot_tunable(&s.dev[0], "scheduler"), "none");
	ck_assert_double_eq(s.dev[0].st[COLUMN_MAXSECT_KB].mean, 32);
	text = to_text(&s, &len);
	ck_assert_ptr_nonnull(strstr(text, " 11 17 1\n"));
	ck_assert_int_eq(snapshot_parse(text, len, "t.snap", &back, msg, sizeof(msg)), 0);
	ck_assert_uint_eq(back.dev[0].idle, 17);
	ck_assert_uint_eq(back.dev[0].partial, 1);
	snapshot_free(&back);
	old = edit(text, " 11 17 1\n", " 11\n");
	ck_assert_int_eq(snapshot_parse(old, strlen(old), "old.snap", &back, msg, sizeof(msg)), 0);
	ck_assert_uint_eq(back.dev[0].idle, 0);
	ck_assert_uint_eq(back.dev[0].n, 11);
	snapshot_free(&back);
	free(old);
	old = edit(text, " 11 17 1\n", " 11 17 1 1\n");
	expect_error(old, strlen(old), "x.snap:7:");
	free(old);
	old = edit(text, " 11 17 1\n", " 11 x\n");
	expect_error(old, strlen(old), "idle intervals 'x' is not a count");
	free(old);
	/* Not busy-only: every interval, nothing left out */
	snapshot_free(&s);
	src.busy_only = false;
	ck_assert_int_eq(snapshot_capture(&s, &src, msg, sizeof(msg)), 0);
	ck_assert_uint_eq(s.dev[0].n, 29);
	ck_assert_uint_eq(s.dev[0].idle, 0);
	free(text);
	snapshot_free(&s);
	series_free(se);
}
END_TEST

START_TEST(test_parser_errors)
{
	struct snapshot s;
	size_t len;
	char *text, *t;

	sample_snapshot(&s);
	text = to_text(&s, &len);
	snapshot_free(&s);
	expect_error("", 0, "x.snap:0: empty file");
	expect_error("hello\n", 6, "x.snap:1: not a blktune snapshot");
	t = edit(text, "blktune-snapshot 2", "blktune-snapshot 3");
	expect_error(t, strlen(t), "x.snap:1: unknown version '3'");
	free(t);
	/* truncated anywhere: in the middle of a line, or at a line end */
	expect_error(text, len / 2, "truncated");
	t = strstr(text, "end-device\n");
	expect_error(text, (size_t)(t - text), "truncated: no 'end' line (file ends inside a device)");
	expect_error(text, len - 2, "truncated: the last line has no newline");
	/* reordered sections: host after kernel; a stat after a tunable */
	t = edit(text, "host testhost\nkernel 6.18-test\n", "kernel 6.18-test\nhost testhost\n");
	expect_error(t, strlen(t), "x.snap:2: 'kernel' cannot follow 'blktune-snapshot'");
	free(t);
	t = edit(text, "end-device\n", "stat r/s 2 1 0 1 1\nend-device\n");
	expect_error(t, strlen(t), "'stat' cannot follow 'vec'");
	free(t);
	/* duplicate: a second window line, a stat twice, a device twice */
	t = edit(text, "window 30\n", "window 30\nwindow 30\n");
	expect_error(t, strlen(t), "x.snap:6: 'window' cannot follow 'window'");
	free(t);
	t = edit(text, "stat r/s", "stat r/s 2 1 0 1 1\nstat r/s");
	expect_error(t, strlen(t), "metric r/s twice");
	free(t);
	{
		/* named at the second device's line, with the first one's */
		const char *end = strstr(text, "end 1\n"), *dev = strstr(text, "device loop7 ");
		size_t at = 1, first = 1;
		char want[96];

		for (const char *c = text; c < end; c++) {
			at += *c == '\n';
			first += c < dev && *c == '\n';
		}
		t = edit(text, "end 1\n", "device loop7 7:7 0\nspan 0 1 1 0 0\nend-device\nend 2\n");
		snprintf(want, sizeof(want), "x.snap:%zu: device loop7 appears twice (first on line %zu)", at, first);
		expect_error(t, strlen(t), want);
		free(t);
		/* loop7 m loop7 m: the reader stops at the second loop7, though m's
		 * pair sorts after it */
		t = edit(text, "end 1\n", "device m 7:8 0\nspan 0 1 1 0 0\nend-device\ndevice loop7 7:7 0\nspan 0 1 1 0 0\n"
					    "end-device\ndevice m 7:8 0\nspan 0 1 1 0 0\nend-device\nend 4\n");
		snprintf(want, sizeof(want), "x.snap:%zu: device loop7 appears twice (first on line %zu)", at + 3, first);
		expect_error(t, strlen(t), want);
		free(t);
		/* loop7 m n m: m's lines, not the first device's */
		t = edit(text, "end 1\n", "device m 7:8 0\nspan 0 1 1 0 0\nend-device\ndevice n 7:7 0\nspan 0 1 1 0 0\n"
					    "end-device\ndevice m 7:9 0\nspan 0 1 1 0 0\nend-device\nend 4\n");
		snprintf(want, sizeof(want), "x.snap:%zu: device m appears twice (first on line %zu)", at + 6, at);
		expect_error(t, strlen(t), want);
	}
	free(t);
	/* garbage and malformed lines */
	t = edit(text, "window 30\n", "window 30\n\x01\xff garbage\n");
	expect_error(t, strlen(t), "x.snap:6: unknown record");
	free(t);
	t = edit(text, "time ", "time x");
	expect_error(t, strlen(t), "x.snap:4: time 'x");
	free(t);
	t = edit(text, "device loop7 7:7 0", "device loop7 7-7 0");
	expect_error(t, strlen(t), "x.snap:6: '7-7' is not MAJOR:MINOR");
	free(t);
	t = edit(text, "stat r/s 10", "stat r/s 11");
	expect_error(t, strlen(t), "x.snap:8: n '11' is not a count up to 10");
	free(t);
	t = edit(text, "stat r/s", "stat bogus/s");
	expect_error(t, strlen(t), "unknown metric 'bogus/s'");
	free(t);
	t = edit(text, "vec trace cpu_issued 1 0", "vec trace cpu_issued 1 -4");
	expect_error(t, strlen(t), "negative count");
	free(t);
	t = edit(text, "end 1", "end 2");
	expect_error(t, strlen(t), "end says 2 devices, the file has 1");
	free(t);
	t = edit(text, "end 1\n", "end 1\nmore\n");
	expect_error(t, strlen(t), "data after 'end'");
	free(t);
	/* at most TUNABLE_LIST_MAX tunables a device (a capture writes no
	 * more): one more is refused on its own line */
	for (int more = 0; more < 2; more++) {
		char *vec = strstr(text, "\nvec "), *many, line[64];
		size_t had = 0, before = 0, at;
		struct snapshot s2;
		char msg[256];
		ck_assert_ptr_nonnull(vec);
		at = (size_t)(vec - text) + 1;
		for (const char *q = text; (q = strstr(q, "\ntunable ")); q++)
			had++;
		for (size_t i = 0; i < at; i++)
			before += text[i] == '\n';
		many = malloc(len + 32 * TUNABLE_LIST_MAX + 1);
		ck_assert_ptr_nonnull(many);
		memcpy(many, text, at);
		many[at] = '\0';
		for (size_t k = 0; k < TUNABLE_LIST_MAX - had + (size_t)more; k++)
			sprintf(many + strlen(many), "tunable t%zu 1\n", k);
		strcat(many, text + at);
		if (!more) {
			ck_assert_msg(snapshot_parse(many, strlen(many), "x.snap", &s2, msg, sizeof(msg)) == 0, "%s", msg);
			ck_assert_uint_eq(s2.dev[0].ntun, TUNABLE_LIST_MAX);
			snapshot_free(&s2);
		} else {
			snprintf(line, sizeof(line), "x.snap:%zu: more than %d tunables for device loop7", before + 1 +
				 TUNABLE_LIST_MAX - had, TUNABLE_LIST_MAX);
			expect_error(many, strlen(many), line);
		}
		free(many);
	}
	{
		char nul[64] = "blktune-snapshot 1\nho\0st x\n";
		expect_error(nul, 27, "x.snap:2: garbage: a NUL byte");
	}
	free(text);
}
END_TEST

/* The text with the line that starts with prefix replaced by line. */
static char *edit_line(const char *text, const char *prefix, const char *line)
{
	const char *at = strstr(text, prefix), *end;
	char *out;

	ck_assert_ptr_nonnull(at);
	end = strchr(at, '\n');
	ck_assert_ptr_nonnull(end);
	ck_assert_int_ne(asprintf(&out, "%.*s%s%s", (int)(at - text), text, line, end), -1);
	return out;
}

struct bad_line {
	const char *line, *why;
};

/* The sample's line that starts with prefix replaced by each bad line is
 * refused with its why; by each good line it is read, written again (the
 * writer takes what the reader took) and read back. */
static void check_lines(const char *prefix, const struct bad_line *bad, size_t nbad, const char *const *good,
			size_t ngood)
{
	struct snapshot s;
	size_t len;
	char *text, *t, *again, msg[256];

	sample_snapshot(&s);
	text = to_text(&s, &len);
	snapshot_free(&s);
	for (size_t i = 0; i < nbad; i++) {
		t = edit_line(text, prefix, bad[i].line);
		expect_error(t, strlen(t), bad[i].why);
		free(t);
	}
	for (size_t i = 0; i < ngood; i++) {
		t = edit_line(text, prefix, good[i]);
		ck_assert_msg(snapshot_parse(t, strlen(t), "x.snap", &s, msg, sizeof(msg)) == 0, "%s: %s", good[i],
			      msg);
		again = to_text(&s, &len);
		snapshot_free(&s);
		ck_assert_int_eq(snapshot_parse(again, len, "x.snap", &s, msg, sizeof(msg)), 0);
		snapshot_free(&s);
		free(again);
		free(t);
	}
	free(text);
}

static size_t count_files(const char *dir, const char *suffix, bool check);

/* snapshot_write refuses s with -ERANGE, before writing a byte. */
static void expect_write_refused(const struct snapshot *s)
{
	char *buf = NULL;
	size_t len;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(snapshot_write(s, f), -ERANGE);
	fclose(f);
	ck_assert_uint_eq(len, 0);
	free(buf);
}

/* Summary lines that cannot come from any data: a negative or missing
 * standard deviation, one with a single value, min above max, no values. */
START_TEST(test_stat_line_bounds)
{
	static const struct bad_line bad[] = {
		{ "stat r/s 10 5 -0.5 1 9", "metric r/s: inconsistent" },  /* negative sd */
		{ "stat r/s 10 5 -1e-300 1 9", "metric r/s: inconsistent" },
		{ "stat r/s 10 5 -inf 1 9", "sd '-inf' is not a number" },
		{ "stat r/s 10 5 nan 1 9", "metric r/s: inconsistent" },   /* n >= 2 has an sd */
		{ "stat r/s 1 5 0 5 5", "metric r/s: inconsistent" },      /* n = 1 has none */
		{ "stat r/s 10 5 1 9 1", "metric r/s: inconsistent" },     /* min > max */
		{ "stat r/s 0 5 nan 5 5", "metric r/s: inconsistent" },    /* no values */
		{ "stat r/s 10 nan 1 1 9", "metric r/s: inconsistent" },
		{ "stat r/s 10 5 1 nan 9", "metric r/s: inconsistent" },
		{ "stat r/s 10 5 1 1 nan", "metric r/s: inconsistent" },
	};
	static const char *const good[] = {
		"stat r/s 10 5 0 5 5",     /* sd 0: every value the same */
		"stat r/s 1 5 nan 5 5",
		"stat r/s 2 5 1e-300 4 6", /* a tiny sd is an sd (min = max allows 0 only) */
	};
	check_lines("stat r/s ", bad, sizeof(bad) / sizeof(bad[0]), good, sizeof(good) / sizeof(good[0]));
}
END_TEST

/* A mean outside [min, max], or an sd where every value was the same (min
 * = max) or a single value spread over a range, cannot come from data: such
 * a line is refused, where it used to give "+400.0% same" in a diff. A mean
 * off its bounds by rounding (1e-9 of their size and less) is not. The
 * writer refuses what the reader would. */
START_TEST(test_stat_line_consistent)
{
	static const struct bad_line bad[] = {
		{ "stat r/s 10 50 3 10 10", "metric r/s: inconsistent" },  /* the diff that said "same" */
		{ "stat r/s 10 50 0 10 10", "metric r/s: inconsistent" },  /* mean above min = max */
		{ "stat r/s 10 10 3 10 10", "metric r/s: inconsistent" },  /* sd with min = max */
		{ "stat r/s 10 10 1e-300 10 10", "metric r/s: inconsistent" },
		{ "stat r/s 10 0.5 1 1 9", "metric r/s: inconsistent" },   /* mean below min */
		{ "stat r/s 10 9.5 1 1 9", "metric r/s: inconsistent" },   /* mean above max */
		{ "stat r/s 10 9.0000001 1 1 9", "metric r/s: inconsistent" },
		{ "stat r/s 10 -1e-6 1 0 9", "metric r/s: inconsistent" },
		{ "stat r/s 1 5 nan 5 6", "metric r/s: inconsistent" },    /* one value, two bounds */
	};
	static const char *const good[] = {
		"stat r/s 10 9 1 1 9",                 /* mean at a bound */
		"stat r/s 10 9.000000001 1 1 9",       /* rounding: 1.1e-10 of 9 */
		"stat r/s 10 0.99999999999 1 1 9",
		"stat r/s 10 0 0 0 0",
		"stat r/s 10 -2 3 -5 1",
		"stat r/s 2 1.7976931348623157e308 1e308 1.6e308 1.7976931348623157e308",
	};
	struct snapshot s;

	check_lines("stat r/s ", bad, sizeof(bad) / sizeof(bad[0]), good, sizeof(good) / sizeof(good[0]));
	/* the writer: the same summaries are refused before anything is written */
	sample_snapshot(&s);
	s.dev[0].st[COLUMN_R_S] = (struct stats_summary){ 10, 50, 3, 10, 10 };
	expect_write_refused(&s);
	s.dev[0].st[COLUMN_R_S] = (struct stats_summary){ 10, 10, 3, 10, 10 };
	expect_write_refused(&s);
	snapshot_free(&s);
}
END_TEST

/* A figure is "same" only when both sides held one and the same value:
 * equal bounds with means apart (a summary no data gives, made by hand
 * here) is a difference, not "same". */
START_TEST(test_same_needs_equal_means)
{
	struct stats_summary a = { 10, 10, 0, 10, 10 }, b = { 10, 50, 0, 10, 10 };
	struct compare_metric m;

	compare_metric(COLUMN_RMB_S, &a, &b, &m);
	ck_assert_int_ne(m.verdict, CMP_SAME);
	ck_assert_int_eq(m.verdict, CMP_HIGHER);
	compare_metric(COLUMN_RMB_S, &a, &a, &m);
	ck_assert_int_eq(m.verdict, CMP_SAME);
	a.sd = b.sd = 3; /* sd where min = max: still no "same" */
	compare_metric(COLUMN_RMB_S, &a, &b, &m);
	ck_assert_int_ne(m.verdict, CMP_SAME);
}
END_TEST

/* A span is two dates from 1970 to 9999 (as time is), end not before
 * start: "span 1767225570 1e300 ..." made show print the bytes after
 * "n/a" in an uninitialised buffer. The writer never writes a span the
 * reader refuses; show prints "n/a" for an end that is no date. */
START_TEST(test_span_dates)
{
	static const struct bad_line bad[] = {
		{ "span 1767225570 1e300 10 0 0", "x.snap:7: span" },
		{ "span -1 5 10 0 0", "x.snap:7: span" },
		{ "span 1767225570 253402300800 10 0 0", "x.snap:7: span" },
		{ "span 253402300800 253402300800 10 0 0", "x.snap:7: span" },
		{ "span nan 5 10 0 0", "x.snap:7: span" },
		{ "span 5 4 10 0 0", "x.snap:7: span ends before it starts" },
	};
	static const char *const good[] = {
		"span 0 0 10 0 0",
		"span 1767225570 253402300799.99997 10 0 0",
	};
	struct snapshot s;
	char *buf = NULL;
	size_t len;
	FILE *f;

	sample_snapshot(&s);
	/* show: an end that is no date is "n/a", never what lies past it */
	s.dev[0].start = 1767225570;
	s.dev[0].end = 1e300;
	f = open_memstream(&buf, &len);
	ck_assert_int_eq(snapshot_print_text(f, &s), 0);
	fclose(f);
	if (!strstr(buf, " to n/a ("))
		ck_abort_msg("%s", buf);
	free(buf);
	/* the writer refuses it, and a start before 1970, before writing */
	expect_write_refused(&s);
	s.dev[0].start = -1;
	s.dev[0].end = 5;
	expect_write_refused(&s);
	/* a save says why in one line, and leaves nothing behind */
	{
		char tmpl[] = "/tmp/blktune-unit-XXXXXX", *dir = mkdtemp(tmpl), path[4096], msg[256];
		ck_assert_ptr_nonnull(dir);
		ck_assert_int_eq(snapshot_save(&s, dir, "A", path, sizeof(path), msg, sizeof(msg)), -ERANGE);
		ck_assert_msg(strstr(msg, "its reader would refuse it): not saved"), "%s", msg);
		ck_assert_uint_eq(count_files(dir, ".snap", false), 0);
		unit_rmtree(dir);
	}
	snapshot_free(&s);
	check_lines("span ", bad, sizeof(bad) / sizeof(bad[0]), good, sizeof(good) / sizeof(good[0]));
}
END_TEST

static size_t count_files(const char *dir, const char *suffix, bool check)
{
	struct dirent *e;
	DIR *d = opendir(dir);
	size_t n = 0;

	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name), sl = strlen(suffix);
		char path[4096], msg[256];
		struct snapshot s;

		if (l < sl || strcmp(e->d_name + l - sl, suffix))
			continue;
		n++;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (check) {
			if (snapshot_read(path, &s, msg, sizeof(msg)) != 0)
				ck_abort_msg("partial file under a final name: %s", msg);
			snapshot_free(&s);
		}
	}
	closedir(d);
	return n;
}

START_TEST(test_kill9_never_leaves_half_file)
{
	char tmpl[] = "/tmp/blktune-unit-XXXXXX", *dir = mkdtemp(tmpl);
	struct snapshot s;
	size_t saved = 0;

	ck_assert_ptr_nonnull(dir);
	/* Big enough (about 1 MB) that a kill lands mid-write. */
	sample_snapshot(&s);
	{
		struct snapshot_dev one = s.dev[0];
		s.dev = realloc(s.dev, 4000 * sizeof(*s.dev));
		for (size_t i = 1; i < 4000; i++) {
			s.dev[i] = one;
			snprintf(s.dev[i].name, sizeof(s.dev[i].name), "d%zu", i);
			s.dev[i].ntun = 0;
			s.dev[i].nvec = 0;
		}
		s.ndev = 4000;
	}
	for (int round = 0; round < 8; round++) {
		pid_t pid = fork();
		struct timespec ts = { 0, (long)(2 + round * round * 4) * 1000000L };
		int st;

		if (pid == 0) {
			char path[4096], msg[256];
			for (;;)
				snapshot_save(&s, dir, "K", path, sizeof(path), msg, sizeof(msg));
		}
		nanosleep(&ts, NULL);
		kill(pid, SIGKILL);
		waitpid(pid, &st, 0);
		ck_assert(WIFSIGNALED(st));
	}
	saved = count_files(dir, ".snap", true);
	/* Temporary files may be left by the kills, never a final name. */
	fprintf(stderr, "kill -9 test: %zu complete snapshots, %zu temporary files\n", saved,
		count_files(dir, "", false) - saved - 2); /* not . and .. */
	/* The next save (under the directory's lock) removes what the killed
	 * ones left: afterwards only complete snapshots are there. */
	{
		char path[4096], msg[256];

		ck_assert_int_eq(snapshot_save(&s, dir, "K", path, sizeof(path), msg, sizeof(msg)), 0);
	}
	ck_assert_uint_eq(count_files(dir, ".snap", true), saved + 1);
	ck_assert_uint_eq(count_files(dir, "", false), saved + 1 + 2); /* with . and .. */
	s.ndev = 1;
	snapshot_free(&s);
	unit_rmtree(dir);
}
END_TEST

/* The A/B keys' engine: a take of one device or of all, a failed take that
 * keeps what was there, the comparison once both exist and again after a
 * retake, the primary figure cycling, and saving (once per take, with the
 * diff command to run, and a refusal that saves nothing). */
START_TEST(test_ab_take_compare_save)
{
	char tmpl[] = "/tmp/blktune-unit-XXXXXX", *dir = mkdtemp(tmpl), msg[512], path[4200];
	struct series *se;
	struct ab ab;
	struct ab_source src = { .host = "testhost", .kernel = "6.18-test", .wall_now = { .tv_sec = 1767225600 } };

	ck_assert_ptr_nonnull(dir);
	ck_assert_int_eq(series_new(60, &se), 0);
	src.series = se;
	ab_init(&ab);
	/* 5 idle intervals, then 12 of loop7 at 100 r/s with loop8 beside it */
	feed(se, 0, 5, 0, 0, 4);
	for (int i = 0; i < 12; i++) {
		struct disk_metrics m[2] = { disk("loop7", 7, 100 + (i % 2 ? 2 : -2), 4),
					     disk("loop8", 8, 50, 4) };
		ck_assert_int_eq(series_add(se, m, 2, 6 + i), 0);
	}
	src.t_now = 17;
	ck_assert_int_eq(ab_take(&ab, AB_A, &src, "loop7", msg, sizeof(msg)), 0);
	ck_assert_str_eq(msg, "A: loop7, 11 busy intervals (11.0 s), 5 idle left out (+1 partial)");
	ck_assert(ab.have[AB_A] && !ab.have[AB_B] && !ab.have_cmp);
	/* B of a device the series does not have: not taken, A kept */
	ck_assert_int_lt(ab_take(&ab, AB_B, &src, "loop9", msg, sizeof(msg)), 0);
	ck_assert_msg(strncmp(msg, "B not taken: ", 13) == 0, "%s", msg);
	ck_assert(!ab.have[AB_B] && ab.have[AB_A] && !ab.have_cmp);
	ck_assert_uint_eq(ab.snap[AB_A].dev[0].n, 11);
	/* a tunable changed at 17; 10 intervals at 150 r/s: B higher, better
	 * (A's 11 intervals: six at 102 and five at 98, mean 100.18: +49.7 %) */
	series_mark_change(se, makedev(7, 7), "loop7", 17);
	for (int i = 0; i < 10; i++) {
		struct disk_metrics m = disk("loop7", 7, 150 + (i % 2 ? 2 : -2), 4);
		ck_assert_int_eq(series_add(se, &m, 1, 18 + i), 0);
	}
	src.t_now = 27;
	ck_assert_int_eq(ab_take(&ab, AB_B, &src, "loop7", msg, sizeof(msg)), 0);
	ck_assert_str_eq(msg, "B: loop7, 10 busy intervals (10.0 s), 0 idle left out (+0 partial); compared with A: "
			      "primary MB/s: rMB/s 0.39 -> 0.59 (+49.7%) higher, better");
	ck_assert(ab.have_cmp);
	ck_assert_uint_eq(ab.cmp.ndev, 1);
	/* the primary figure cycles, and the comparison is judged again */
	ab_next_primary(&ab, msg, sizeof(msg));
	ck_assert_str_eq(msg, "better/worse judged on IOPS and latency");
	ck_assert_int_eq(ab.cmp.primary, CMP_PRIMARY_IOPS);
	ck_assert_int_eq(ab.cmp.dev[0].headline->col, COLUMN_R_S);
	ab_next_primary(&ab, msg, sizeof(msg));
	ck_assert_str_eq(msg, "better/worse judged on RA hit% and latency");
	ab_next_primary(&ab, msg, sizeof(msg));
	ck_assert_str_eq(msg, "better/worse judged on MB/s and latency");
	ck_assert_int_eq(ab.cmp.primary, CMP_PRIMARY_MBPS);
	/* a retake is judged on the primary chosen, into a message cut at the
	 * end of a buffer of exactly its size (on the heap: ASan sees past it) */
	ab_next_primary(&ab, msg, sizeof(msg));
	{
		char *small = malloc(100);

		ck_assert_ptr_nonnull(small);
		ck_assert_int_eq(ab_take(&ab, AB_B, &src, "loop7", small, 100), 0);
		ck_assert_uint_eq(strlen(small), 99);
		free(small);
	}
	ck_assert_int_eq(ab.cmp.primary, CMP_PRIMARY_IOPS);
	ck_assert_int_eq(ab.cmp.dev[0].headline->col, COLUMN_R_S);
	ab_next_primary(&ab, msg, sizeof(msg));
	ab_next_primary(&ab, msg, sizeof(msg));
	/* A retaken (every device): compared again, loop8 on A's side only */
	ck_assert_int_eq(ab_take(&ab, AB_A, &src, NULL, msg, sizeof(msg)), 0);
	ck_assert_msg(strncmp(msg, "A: 2 devices; compared with B", 29) == 0, "%s", msg);
	ck_assert(ab.have_cmp);
	ck_assert_uint_eq(ab.cmp.ndev, 2);
	ck_assert_ptr_null(ab.cmp.dev[1].b); /* loop8: in A only */
	/* save: both, once; the message is the diff to run */
	ck_assert_int_eq(ab_save(&ab, dir, msg, sizeof(msg)), 0);
	snprintf(path, sizeof(path), "saved: blktune diff %s %s", ab.path[AB_A], ab.path[AB_B]);
	ck_assert_str_eq(msg, path);
	ck_assert(ab.saved[AB_A] && ab.saved[AB_B]);
	ck_assert_int_eq(access(ab.path[AB_A], R_OK), 0);
	ck_assert_int_eq(access(ab.path[AB_B], R_OK), 0);
	ck_assert_uint_eq(count_files(dir, ".snap", true), 2);
	/* each file carries its slot's label */
	ck_assert_msg(strstr(strrchr(ab.path[AB_A], '/'), "-A") != NULL, "%s", ab.path[AB_A]);
	ck_assert_msg(strstr(strrchr(ab.path[AB_B], '/'), "-B") != NULL, "%s", ab.path[AB_B]);
	ck_assert_int_eq(ab_save(&ab, dir, msg, sizeof(msg)), 0);
	ck_assert_uint_eq(count_files(dir, ".snap", true), 2);
	/* a retake of B is saved anew, A is not */
	ck_assert_int_eq(ab_take(&ab, AB_B, &src, "loop7", msg, sizeof(msg)), 0);
	ck_assert(ab.saved[AB_A] && !ab.saved[AB_B]);
	/* a directory that is a file: B not saved, and said */
	snprintf(path, sizeof(path), "%s/file", dir);
	fclose(fopen(path, "w"));
	ck_assert_int_lt(ab_save(&ab, path, msg, sizeof(msg)), 0);
	ck_assert_msg(strncmp(msg, "B not saved: ", 13) == 0, "%s", msg);
	ck_assert(!ab.saved[AB_B]);
	ck_assert_int_eq(ab_save(&ab, dir, msg, sizeof(msg)), 0);
	ck_assert_uint_eq(count_files(dir, ".snap", true), 3);
	ab_free(&ab);
	ck_assert(!ab.have[AB_A] && !ab.have_cmp);
	/* nothing, then A alone */
	ck_assert_int_eq(ab_save(&ab, dir, msg, sizeof(msg)), 0);
	ck_assert_str_eq(msg, "nothing to save: take A and B first");
	ck_assert_int_eq(ab_take(&ab, AB_B, &src, "loop7", msg, sizeof(msg)), 0);
	ck_assert_int_eq(ab_save(&ab, dir, msg, sizeof(msg)), 0);
	snprintf(path, sizeof(path), "saved %s", ab.path[AB_B]);
	ck_assert_str_eq(msg, path);
	ab_free(&ab);
	series_free(se);
	unit_rmtree(dir);
}
END_TEST

START_TEST(test_save_and_default_dir)
{
	char tmpl[] = "/tmp/blktune-unit-XXXXXX", *dir = mkdtemp(tmpl), d[4096], p1[4096], p2[4096], msg[256];
	struct snapshot s;

	sample_snapshot(&s);
	setenv("XDG_STATE_HOME", dir, 1);
	ck_assert_int_eq(snapshot_default_dir(d, sizeof(d), NULL, 0), 0);
	ck_assert(strstr(d, "/blktune") != NULL);
	ck_assert_int_eq(snapshot_save(&s, NULL, "A", p1, sizeof(p1), msg, sizeof(msg)), 0);
	ck_assert_int_eq(snapshot_save(&s, NULL, "A", p2, sizeof(p2), msg, sizeof(msg)), 0);
	ck_assert_str_ne(p1, p2); /* same second: never over the first */
	ck_assert_uint_eq(count_files(d, ".snap", true), 2);
	/* a time its reader refuses (a replay's odd clock): never written */
	{
		static const double bad[] = { -1, FORMAT_DATE_END, NAN };
		double was = s.time;

		for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			s.time = bad[i];
			ck_assert_int_eq(snapshot_save(&s, NULL, "A", p2, sizeof(p2), msg, sizeof(msg)), -ERANGE);
			ck_assert_ptr_nonnull(strstr(msg, "no date from 1970 to 9999: not saved"));
		}
		s.time = FORMAT_DATE_END - 1;
		ck_assert_int_eq(snapshot_save(&s, NULL, "A", p2, sizeof(p2), msg, sizeof(msg)), 0);
		ck_assert_uint_eq(count_files(d, ".snap", true), 3);
		s.time = was;
		{
			struct snapshot back;

			ck_assert_int_eq(snapshot_read(p2, &back, msg, sizeof(msg)), 0);
			ck_assert(back.time == FORMAT_DATE_END - 1);
			snapshot_free(&back);
		}
	}
	/* A state directory whose name does not fit the buffer: refused, said,
	 * never a truncated name used. */
	{
		char longdir[sizeof(d)];

		memset(longdir, 'a', sizeof(longdir) - 1);
		for (size_t i = 0; i < sizeof(longdir) - 1; i += 100)
			longdir[i] = '/'; /* components the kernel takes */
		longdir[sizeof(d) - strlen("/blktune")] = '\0'; /* with /blktune: exactly sizeof(d) */
		setenv("XDG_STATE_HOME", longdir, 1);
		ck_assert_int_eq(snapshot_default_dir(d, sizeof(d), msg, sizeof(msg)), -ENAMETOOLONG);
		ck_assert_msg(strstr(msg, "state directory name too long (4096 bytes, at most 4095): /aaa") == msg, "msg: %s", msg);
		longdir[sizeof(d) - strlen("/blktune") - 1] = '\0'; /* one shorter: fits */
		setenv("XDG_STATE_HOME", longdir, 1);
		ck_assert_int_ne(snapshot_default_dir(d, sizeof(d), msg, sizeof(msg)), -ENAMETOOLONG);
		ck_assert_uint_eq(strlen(d), sizeof(d) - 1);
	}
	unsetenv("XDG_STATE_HOME");
	snapshot_free(&s);
	unit_rmtree(dir);
}
END_TEST

/* A capture of one device that had only idle intervals since its last
 * change (busy-only): no snapshot, and the message counts them. */
START_TEST(test_capture_idle_only)
{
	struct series *se;
	struct snapshot s;
	struct snapshot_source src = { .host = "h", .kernel = "k", .busy_only = true, .only = "loop7" };
	char msg[256];

	ck_assert_int_eq(series_new(60, &se), 0);
	src.series = se;
	src.t_now = 0;
	ck_assert_int_eq(snapshot_capture(&s, &src, msg, sizeof(msg)), -ENOENT);
	ck_assert_str_eq(msg, "loop7 has no complete interval since its last change yet");
	feed(se, 0, 17, 0, 0, 4); /* idle: r/s 0 */
	src.t_now = 17;
	ck_assert_int_eq(snapshot_capture(&s, &src, msg, sizeof(msg)), -ENOENT);
	ck_assert_uint_eq(s.ndev, 0);
	ck_assert_str_eq(msg, "loop7 had no I/O since its last change (17 idle intervals)");
	series_free(se);
}
END_TEST

/* n busy intervals of name on dev with that diskseq, the first ending at
 * t0 + 1, as feed's. */
static void feed_device(struct series *se, const char *name, dev_t dev, unsigned long long diskseq, double t0,
			int n, double read_ahead_kb)
{
	for (int i = 0; i < n; i++) {
		struct disk_metrics m = disk(name, minor(dev), 100 + (i % 2 ? 2 : -2), 4);

		m.dev = dev;
		m.read_ahead_kb = read_ahead_kb;
		UNIT_INFO(&m)->diskseq = diskseq;
		ck_assert_int_eq(series_add(se, &m, 1, t0 + i + 1), 0);
	}
}

/* The A/B keys' capture: one device by name, busy intervals only. */
static int take_only(struct series *se, const char *name, double now, struct snapshot *s, char *msg,
		     size_t len)
{
	struct snapshot_source src = { .series = se, .host = "h", .kernel = "k", .t_now = now, .only = name,
				       .busy_only = true };

	src.wall_now.tv_sec = 1767225600 + (time_t)now;
	return snapshot_capture(s, &src, msg, len);
}

/* A loop device attached again (same name and number, a new diskseq) after
 * a recorded change on the old one: A of the new device holds what it
 * sampled (128), not the old device's recorded 1024, and the comparison with
 * a B after a change to 1024 says the tunable differs. */
START_TEST(test_recreated_device_window)
{
	static const struct series_tunable ra1024 = { "read_ahead_kb", "1024" };
	const dev_t dev = makedev(7, 7);
	struct series *se;
	struct snapshot a, b;
	struct compare_result r;
	const struct compare_dev *cd;
	char msg[256];

	ck_assert_int_eq(series_new(30, &se), 0);
	ck_assert_int_eq(series_set_tunables(se, dev, "loop7", 0, &ra1024, 1), 0);
	feed_device(se, "loop7", dev, 1, 0, 5, 1024);
	feed_device(se, "loop7", dev, 2, 5, 10, 128);
	ck_assert_int_eq(take_only(se, "loop7", 15, &a, msg, sizeof(msg)), 0);
	ck_assert_uint_eq(a.ndev, 1);
	ck_assert_uint_eq(a.dev[0].diskseq, 2);
	ck_assert_uint_eq(a.dev[0].n, 10);
	ck_assert_ptr_null(snapshot_tunable(&a.dev[0], "read_ahead_kb")); /* none recorded, ts NULL */
	ck_assert_double_eq(a.dev[0].st[COLUMN_RA_KB].mean, 128);
	ck_assert_int_eq(series_set_tunables(se, dev, "loop7", 15.5, &ra1024, 1), 0);
	feed_device(se, "loop7", dev, 2, 15, 14, 1024);
	ck_assert_int_eq(take_only(se, "loop7", 29, &b, msg, sizeof(msg)), 0);
	ck_assert_str_eq(snapshot_tunable(&b.dev[0], "read_ahead_kb"), "1024");
	ck_assert_double_eq(b.dev[0].st[COLUMN_RA_KB].mean, 1024);
	ck_assert_int_eq(compare_snapshots(&a, &b, &r), 0);
	cd = compare_find(&r, "loop7");
	ck_assert_ptr_nonnull(cd);
	ck_assert_uint_eq(cd->ndiffer, 1);
	ck_assert_str_eq(cd->tun[0].name, "read_ahead_kb");
	ck_assert_ptr_null(cd->tun[0].a);
	compare_free(&r);
	snapshot_free(&a);
	snapshot_free(&b);
	series_free(se);
}
END_TEST

/* A name the kernel now gives another number (an NVMe namespace re-created
 * under another minor) is one device: A holds the new one alone, and the
 * file written from it reads back. */
START_TEST(test_name_on_new_number)
{
	struct series *se;
	struct snapshot a, back;
	char msg[256], *text;
	size_t len;

	ck_assert_int_eq(series_new(30, &se), 0);
	feed_device(se, "nvme0n1", makedev(259, 0), 7, 0, 5, 128);
	feed_device(se, "nvme0n1", makedev(259, 3), 8, 5, 10, 128);
	ck_assert_int_eq(take_only(se, "nvme0n1", 15, &a, msg, sizeof(msg)), 0);
	ck_assert_uint_eq(a.ndev, 1);
	ck_assert_uint_eq(a.dev[0].minor, 3);
	ck_assert_uint_eq(a.dev[0].diskseq, 8);
	ck_assert_uint_eq(a.dev[0].n, 10);
	text = to_text(&a, &len);
	ck_assert_int_eq(snapshot_parse(text, len, "a.snap", &back, msg, sizeof(msg)), 0);
	ck_assert_uint_eq(back.ndev, 1);
	/* the old number's entry is gone from the series, not just from A */
	ck_assert_uint_eq(series_count(se), 1);
	ck_assert_uint_eq(series_points(se, makedev(259, 0), "nvme0n1"), 0);
	free(text);
	snapshot_free(&back);
	snapshot_free(&a);
	series_free(se);
}
END_TEST

/* A snapshot holding one name twice is a file its reader refuses: neither
 * written to a stream nor saved, and the save says why in one line. */
START_TEST(test_write_refuses_name_twice)
{
	static struct snapshot_dev d[2];
	struct snapshot s = { .host = "h", .kernel = "k", .time = 1767225600, .window = 30, .dev = d, .ndev = 2 };
	char tmpl[] = "/tmp/blktune-unit-XXXXXX", *dir = mkdtemp(tmpl), path[4096], msg[256], *buf = NULL;
	size_t len = 0;
	FILE *f;

	ck_assert_ptr_nonnull(dir);
	hand_dev(&d[0], "nvme0n1", 0, 100, 0);
	hand_dev(&d[1], "nvme0n1", 3, 100, 0);
	d[0].major = d[1].major = 259;
	f = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(snapshot_write(&s, f), -EINVAL);
	fclose(f);
	ck_assert_uint_eq(len, 0); /* not a line of it */
	free(buf);
	ck_assert_int_eq(snapshot_save(&s, dir, "A", path, sizeof(path), msg, sizeof(msg)), -EINVAL);
	ck_assert_str_eq(msg, "device nvme0n1 appears twice (259:0 and 259:3): not saved");
	ck_assert_int_eq(unit_count_entries(dir), 0);
	snprintf(d[1].name, sizeof(d[1].name), "nvme1n1");
	ck_assert_int_eq(snapshot_save(&s, dir, "A", path, sizeof(path), msg, sizeof(msg)), 0);
	unit_rmtree(dir);
}
END_TEST

START_TEST(test_output)
{
	struct snapshot a, b;
	struct compare_result r;
	char *buf = NULL;
	size_t len;
	FILE *f;

	sample_snapshot(&a);
	sample_snapshot(&b);
	snprintf(b.dev[0].tun[0].value, TUNABLE_VALUE_MAX, "4096");
	ck_assert_int_eq(compare_snapshots(&a, &b, &r), 0);
	ck_assert_uint_eq(r.dev[0].ndiffer, 1);
	ck_assert_str_eq(r.dev[0].tun[0].name, "read_ahead_kb"); /* differing first */
	f = open_memstream(&buf, &len);
	ck_assert_int_eq(compare_print_text(f, &r), 0);
	ck_assert_int_eq(compare_print_json(f, &r), 0);
	ck_assert_int_eq(snapshot_print_text(f, &a), 0);
	fclose(f);
	ck_assert(strstr(buf, "read_ahead_kb                128 -> 4096") != NULL);
	if (!strstr(buf, "\"verdict\": \"within noise\""))
		ck_abort_msg("%s", buf);
	free(buf);
	compare_free(&r);
	snapshot_free(&a);
	snapshot_free(&b);
}
END_TEST

/* A kernel before 4.18 prints no discard fields, one before 5.5 no flush
 * fields: A taken on a 14-field kernel, B on a 20-field one that saw
 * discards. A's file has no discard or flush stat lines and reads back
 * without them; show, diff and its JSON call A's figures n/a (null), not 0,
 * and list the ones neither side has as not counted. */
START_TEST(test_figures_the_kernel_does_not_count)
{
	struct series *sa, *sb;
	struct snapshot a, b, back;
	struct compare_result r;
	char msg[256], *text, *buf = NULL;
	const struct compare_metric *ds = NULL;
	size_t len;
	FILE *f;

	ck_assert_int_eq(series_new(30, &sa), 0);
	ck_assert_int_eq(series_new(30, &sb), 0);
	for (int i = 0; i < 4; i++) {
		struct disk_metrics m = disk("loop7", 7, 100, 4);
		m.nfields = 14;
		ck_assert_int_eq(series_add(sa, &m, 1, 101 + i), 0);
		m.nfields = 20;
		m.d_s = 5;
		ck_assert_int_eq(series_add(sb, &m, 1, 101 + i), 0);
	}
	take(sa, 105, &a);
	take(sb, 105, &b);
	series_free(sa);
	series_free(sb);
	text = to_text(&a, &len);
	ck_assert_ptr_nonnull(strstr(text, "\nstat r/s 4 "));
	ck_assert_msg(!strstr(text, "\nstat d/s") && !strstr(text, "\nstat f/s"), "%s", text);
	ck_assert_int_eq(snapshot_parse(text, len, "a.snap", &back, msg, sizeof(msg)), 0);
	ck_assert(!snapshot_dev_counted(&back.dev[0], COLUMN_D_S));
	ck_assert(!snapshot_dev_counted(&back.dev[0], COLUMN_D_AWAIT));
	ck_assert(!snapshot_dev_counted(&back.dev[0], COLUMN_F_AWAIT));
	ck_assert(snapshot_dev_counted(&back.dev[0], COLUMN_R_S));
	ck_assert(snapshot_dev_counted(&b.dev[0], COLUMN_D_S));
	ck_assert(snapshot_dev_counted(&b.dev[0], COLUMN_F_S));
	ck_assert_int_eq(compare_snapshots(&back, &b, &r), 0);
	for (size_t i = 0; i < r.dev[0].nm; i++)
		if (r.dev[0].m[i].col == COLUMN_D_S)
			ds = &r.dev[0].m[i];
	ck_assert_ptr_nonnull(ds);
	ck_assert(ds->na_a && !ds->na_b && ds->active && ds->verdict == CMP_NA);
	f = open_memstream(&buf, &len);
	ck_assert_int_eq(compare_print_text(f, &r), 0);
	ck_assert_int_eq(compare_print_json(f, &r), 0);
	ck_assert_int_eq(snapshot_print_text(f, &back), 0);
	fclose(f);
	ck_assert_msg(strstr(buf, "\n  d/s               n/a        5.0         -  n/a\n"), "%s", buf);
	/* B counts flushes (none) and discards; A counts neither */
	ck_assert_msg(strstr(buf, "\n  n/a, not counted by the kernel: f/s dkB/s drqm/s %drqm d_await f_await dareq-sz\n"),
		      "%s", buf);
	ck_assert_msg(strstr(buf, "{\"metric\": \"d/s\", \"good\": 1, \"a\": {\"n\": 0, \"mean\": null, \"sd\": null, "
			      "\"min\": null, \"max\": null}"), "%s", buf);
	/* show: A's own list */
	ck_assert_msg(strstr(buf, "\n  n/a, not counted by the kernel: d/s f/s dkB/s drqm/s %drqm d_await f_await dareq-sz\n"),
		      "%s", buf);
	free(buf);
	free(text);
	compare_free(&r);
	snapshot_free(&a);
	snapshot_free(&b);
	snapshot_free(&back);
}
END_TEST

/* The change column is 9 characters whatever the change: one decimal up
 * to +-99999.9%, whole percent to +-999999%, then a bound. A mean of 1
 * against 1e199 printed "+10000000000000" (cut, no '%'); the headline cut
 * it too. */
START_TEST(test_change_column_bounded)
{
	static const struct {
		double b;
		const char *col, *head;
	} ref[] = {
		{ 1e199, " >+999999%  higher", "(>+999999%)" },
		{ -1e199, " <-999999%  lower", "(<-999999%)" },
		{ 1000.999, " +99999.9%  higher", "(+99999.9%)" },
		{ 1000.9996, "  +100000%  higher", "(+100000%)" },
		{ 10000.99, "  +999999%  higher", "(+999999%)" },
		{ 10000.996, " >+999999%  higher", "(>+999999%)" },
		{ 1.5, "    +50.0%  higher", "(+50.0%)" },
	};

	for (size_t i = 0; i < sizeof(ref) / sizeof(ref[0]); i++) {
		static struct snapshot_dev da, db;
		struct snapshot a = { .host = "h", .kernel = "k", .dev = &da, .ndev = 1 };
		struct snapshot b = { .host = "h", .kernel = "k", .dev = &db, .ndev = 1 };
		struct compare_result r;
		char *buf = NULL, line[160];
		size_t len;
		FILE *f;

		hand_dev(&da, "loop7", 7, 256, 0);
		hand_dev(&db, "loop7", 7, 256, 0);
		da.st[COLUMN_RMB_S] = (struct stats_summary){ 10, 1, 0.01, 0.98, 1.02 };
		db.st[COLUMN_RMB_S] = (struct stats_summary){ 10, ref[i].b, 0, ref[i].b, ref[i].b };
		ck_assert_int_eq(compare_snapshots(&a, &b, &r), 0);
		f = open_memstream(&buf, &len);
		ck_assert_int_eq(compare_print_text(f, &r), 0);
		fclose(f);
		if (!strstr(buf, ref[i].col))
			ck_abort_msg("want '%s' in\n%s", ref[i].col, buf);
		compare_headline(&r.dev[0], r.primary, line, sizeof(line));
		if (!strstr(line, ref[i].head))
			ck_abort_msg("want '%s' in '%s'", ref[i].head, line);
		free(buf);
		compare_free(&r);
	}
	{
		static const struct {
			double pct;
			const char *text;
		} edge[] = {
			{ NAN, "-" }, { INFINITY, ">+999999%" }, { -INFINITY, "<-999999%" }, { 99999.94, "+99999.9%" },
			{ -99999.96, "-100000%" }, { 999999.49, "+999999%" }, { -999999.49, "-999999%" },
			{ 999999.5, ">+999999%" }, { -999999.5, "<-999999%" }, { -0.04, "-0.0%" }, { 0, "+0.0%" },
		};
		char out[COMPARE_CHANGE_MAX];
		for (size_t i = 0; i < sizeof(edge) / sizeof(edge[0]); i++) {
			compare_change_text(edge[i].pct, out, sizeof(out));
			ck_assert_str_eq(out, edge[i].text);
			ck_assert_uint_le(strlen(out), COMPARE_CHANGE_WIDTH);
		}
	}
}
END_TEST

/* One traced interval's metrics: 97 completions (57 on CPU 0, 40 on
 * CPU 1, of 60 and 40 issued), all in latency bucket 3. */
static void traced_97(struct trace_metrics *tm, struct trace_cpu cpu[2])
{
	trace_metrics_init(tm);
	memset(cpu, 0, 2 * sizeof(*cpu));
	cpu[0].issued = 60;
	cpu[0].completed = 57;
	cpu[1].issued = 40;
	cpu[1].completed = 40;
	tm->cpu = cpu;
	tm->ncpu = 2;
	tm->completed = 97;
	tm->d.lat[3] = 97;
}

/* A traced window's completions: the kernel's (diskstats reads, writes,
 * discards and flushes) and the traced ones, summed over the same
 * intervals, including one where the device was traced and had completions
 * but the tracer saw no event at all; an untraced interval adds to
 * neither. Then snapshot_trace_gap at its 1 % edge, the compare warnings
 * of both signs, and the vec's round trip. */
START_TEST(test_trace_completions)
{
	struct trace_metrics tm;
	struct trace_cpu cpu[2];
	struct series *se;
	struct snapshot s, back;
	const struct snapshot_vec *v;
	double pct, kernel, traced;
	char msg[256], *text;
	size_t len;

	ck_assert_int_eq(series_new(30, &se), 0);
	traced_97(&tm, cpu);
	for (int i = 0; i < 3; i++) {
		struct disk_metrics m = disk("loop7", 7, 100, 4);
		m.d_rd_ios = 90;
		m.d_wr_ios = 8;
		m.d_s = 1.5; /* 1.5 discards and 0.5 flushes a second, over 2 s: 4 */
		m.f_s = 0.5;
		m.interval = 2;
		m.traced = true;
		m.t_metrics = i != 1; /* the second: traced, but no event seen */
		ck_assert_int_eq(series_add_traced(se, &m, &tm, 1, 2.0 * (i + 1)), 0);
	}
	{ /* traced, one completion and no event: that one counts */
		struct disk_metrics m = disk("loop7", 7, 100, 4);
		m.d_rd_ios = 1;
		m.interval = 2;
		m.traced = true;
		ck_assert_int_eq(series_add_traced(se, &m, &tm, 1, 7), 0);
	}
	{ /* untraced: no completions of either kind counted */
		struct disk_metrics m = disk("loop7", 7, 100, 4);
		m.d_rd_ios = 1000;
		m.interval = 2;
		ck_assert_int_eq(series_add(se, &m, 1, 9), 0);
	}
	snapshot_init(&s);
	take(se, 9, &s);
	series_free(se);
	ck_assert_ptr_nonnull(v = snapshot_dev_vec(&s.dev[0], SNAP_VEC_COMPLETIONS));
	ck_assert_uint_eq(v->n, 2);
	ck_assert_double_eq(v->v[0], 3 * 102 + 1);
	ck_assert_double_eq(v->v[1], 2 * 97);
	ck_assert_double_eq(snapshot_dev_vec(&s.dev[0], SNAP_VEC_CPU_COMPLETED)->v[0], 2 * 57);
	ck_assert_double_eq(snapshot_dev_vec(&s.dev[0], SNAP_VEC_LAT)->v[3], 2 * 97);
	ck_assert(snapshot_trace_gap(&s.dev[0], &pct, &kernel, &traced));
	ck_assert_double_eq_tol(pct, (307.0 - 194) / 307 * 100, 1e-9);
	ck_assert_double_eq(kernel, 307);
	ck_assert_double_eq(traced, 194);
	/* the round trip keeps it */
	text = to_text(&s, &len);
	ck_assert_ptr_nonnull(strstr(text, "\nvec trace completions 307 194\n"));
	ck_assert_int_eq(snapshot_parse(text, len, "t.snap", &back, msg, sizeof(msg)), 0);
	ck_assert_double_eq(snapshot_dev_vec(&back.dev[0], SNAP_VEC_COMPLETIONS)->v[1], 194);
	free(text);
	snapshot_free(&back);
	snapshot_free(&s);
}
END_TEST

START_TEST(test_trace_gap_edges)
{
	struct snapshot_dev d, e;
	struct snapshot a = { .host = "h", .kernel = "k", .dev = &d, .ndev = 1 };
	struct snapshot b = { .host = "h", .kernel = "k", .dev = &e, .ndev = 1 };
	struct compare_result r;
	double pct = -7, kernel = -7, traced = -7;

	hand_dev(&d, "loop7", 7, 100, 0);
	hand_dev(&e, "loop7", 7, 100, 0);
	ck_assert(!snapshot_trace_gap(&d, &pct, &kernel, &traced)); /* no vec */
	ck_assert(isnan(snapshot_trace_gap_pct(&d)));
	ck_assert_int_eq(snapshot_dev_add_vec(&d, SNAP_VEC_COMPLETIONS, (double[]){ 1000, 990 }, 2), 0);
	ck_assert_double_eq_tol(snapshot_trace_gap_pct(&d), 1.0, 1e-12);
	ck_assert(!snapshot_trace_gap(&d, &pct, &kernel, &traced)); /* exactly 1 %: noise */
	ck_assert(pct == -7 && kernel == -7 && traced == -7);
	d.vec[0].v[1] = 989;
	ck_assert(snapshot_trace_gap(&d, &pct, &kernel, &traced));
	ck_assert_double_eq_tol(pct, 1.1, 1e-9);
	d.vec[0].v[1] = 1010;
	ck_assert(!snapshot_trace_gap(&d, &pct, &kernel, &traced));
	d.vec[0].v[1] = 1011;
	ck_assert(snapshot_trace_gap(&d, &pct, &kernel, &traced));
	ck_assert_double_eq_tol(pct, -1.1, 1e-9);
	d.vec[0].v[0] = 0; /* no kernel count (iostats 0): nothing to hold it to */
	ck_assert(!snapshot_trace_gap(&d, &pct, &kernel, &traced));
	ck_assert(isnan(snapshot_trace_gap_pct(&d)));
	/* compare: a warning for each side that lacks or exceeds */
	d.vec[0].v[0] = 1000;
	d.vec[0].v[1] = 950;
	ck_assert_int_eq(compare_snapshots(&a, &b, &r), 0);
	ck_assert_str_eq(r.warning, "loop7 in A: the traced figures lack 5.0% of the kernel's 1000 completions (950 traced)");
	compare_free(&r);
	ck_assert_int_eq(snapshot_dev_add_vec(&e, SNAP_VEC_COMPLETIONS, (double[]){ 2000, 2100 }, 2), 0);
	ck_assert_int_eq(compare_snapshots(&a, &b, &r), 0);
	ck_assert_str_eq(r.warning, "loop7 in A: the traced figures lack 5.0% of the kernel's 1000 completions (950 traced); "
				    "loop7 in B: 2100 completions traced, 5.0% more than the kernel's 2000");
	compare_free(&r);
	d.vec[0].v[1] = 1000;
	ck_assert_int_eq(compare_snapshots(&a, &b, &r), 0);
	ck_assert_str_eq(r.warning, "loop7 in B: 2100 completions traced, 5.0% more than the kernel's 2000");
	compare_free(&r);
	hand_free_vecs(&d, 1);
	hand_free_vecs(&e, 1);
}
END_TEST

/* Warnings cut at every length around the buffer's end: six devices of
 * A lack completions, more text than the buffer holds, the first one's
 * kernel count growing a digit at a time, so the sixth message starts at
 * each place near the end in turn (488 to 511 bytes in). The result is on
 * the heap (ASan sees a write past it); the text is as long as it can be
 * (a message is left out only where "; " and one character have no room),
 * never ends in a bare separator, and starts with the first device's
 * message. Then a side with two devices of each sign. */
START_TEST(test_warning_cut_everywhere)
{
	struct snapshot_dev *da = calloc(6, sizeof(*da)), *db = calloc(2, sizeof(*db));
	struct snapshot a = { .host = "h", .kernel = "k", .dev = da, .ndev = 6 };
	struct snapshot b = { .host = "h", .kernel = "k", .dev = db, .ndev = 2 };
	struct compare_result *r = malloc(sizeof(*r));

	ck_assert_ptr_nonnull(r);
	for (int i = 0; i < 6; i++) {
		char name[SAMPLE_NAME_MAX];
		snprintf(name, sizeof(name), "device-number-%02d", i);
		hand_dev(&da[i], name, (unsigned)i, 100, 0);
		ck_assert_int_eq(snapshot_dev_add_vec(&da[i], SNAP_VEC_COMPLETIONS, (double[]){ 1000, 1 }, 2), 0);
	}
	hand_dev(&db[0], "device-with-a-long-name-0", 0, 100, 0);
	hand_dev(&db[1], "device-with-a-long-name-1", 1, 100, 0);
	for (int d = 3; d <= 25; d++) {
		size_t len;

		da[0].vec[0].v[0] = pow(10, d);
		ck_assert_int_eq(compare_snapshots(&a, &b, r), 0);
		len = strlen(r->warning);
		ck_assert_msg(len < COMPARE_WARNING_MAX && len + 3 >= COMPARE_WARNING_MAX, "%zu: %s", len, r->warning);
		ck_assert_msg(strcmp(r->warning + len - 2, "; ") && r->warning[len - 1] != ';', "bare separator: %s",
			      r->warning);
		ck_assert_msg(strncmp(r->warning, "device-number-00 in A: the traced figures lack", 46) == 0, "%s",
			      r->warning);
		ck_assert_msg(strstr(r->warning, "; device-number-04 in A: the traced figures lack 99.9% of the kernel's "
						 "1000 completions (1 traced)") != NULL, "%s", r->warning);
		compare_free(r);
	}
	/* B alone: two devices, each lacking or exceeding, in device order;
	 * one completion and none traced is all of it lacking */
	static const struct {
		double k0, t0, k1, t1;
		const char *want;
	} sides[] = {
		{ 100, 50, 100, 150,
		  "device-with-a-long-name-0 in B: the traced figures lack 50.0% of the kernel's 100 completions (50 "
		  "traced); device-with-a-long-name-1 in B: 150 completions traced, 50.0% more than the kernel's 100" },
		{ 100, 160, 100, 140,
		  "device-with-a-long-name-0 in B: 160 completions traced, 60.0% more than the kernel's 100; "
		  "device-with-a-long-name-1 in B: 140 completions traced, 40.0% more than the kernel's 100" },
		{ 1, 0, 100, 100,
		  "device-with-a-long-name-0 in B: the traced figures lack 100.0% of the kernel's 1 completions (0 traced)" },
	};
	a.ndev = 0;
	ck_assert_int_eq(snapshot_dev_add_vec(&db[0], SNAP_VEC_COMPLETIONS, (double[]){ 0, 0 }, 2), 0);
	ck_assert_int_eq(snapshot_dev_add_vec(&db[1], SNAP_VEC_COMPLETIONS, (double[]){ 0, 0 }, 2), 0);
	for (size_t i = 0; i < sizeof(sides) / sizeof(sides[0]); i++) {
		db[0].vec[0].v[0] = sides[i].k0;
		db[0].vec[0].v[1] = sides[i].t0;
		db[1].vec[0].v[0] = sides[i].k1;
		db[1].vec[0].v[1] = sides[i].t1;
		ck_assert_int_eq(compare_snapshots(&a, &b, r), 0);
		ck_assert_str_eq(r->warning, sides[i].want);
		compare_free(r);
	}
	hand_free_vecs(da, 6);
	hand_free_vecs(db, 2);
	free(da);
	free(db);
	free(r);
}
END_TEST

/* The ring reuses its points (16 of them here, slot i % 16): a point
 * first made for an interval with no traced event (no CPUs) is taken over
 * by a traced one (two CPUs) and back, round after round; the window sums
 * only its own intervals (ASan sees a point kept too small). */
START_TEST(test_trace_points_reused)
{
	struct trace_metrics tm;
	struct trace_cpu cpu[2];
	struct series *se;
	struct snapshot s;
	const struct snapshot_vec *v;

	ck_assert_int_eq(series_new(11, &se), 0);
	traced_97(&tm, cpu);
	for (int i = 0; i < 56; i++) {
		struct disk_metrics m = disk("loop7", 7, 100, 4);
		m.d_rd_ios = 102;
		m.traced = true;
		m.t_metrics = (i / 16) % 2 == 1;
		ck_assert_int_eq(series_add_traced(se, &m, &tm, 1, i + 1.0), 0);
	}
	snapshot_init(&s);
	take(se, 56, &s);
	series_free(se);
	/* (45, 56]: eleven intervals, the last eight traced */
	ck_assert_uint_eq(s.dev[0].n, 11);
	ck_assert_ptr_nonnull(v = snapshot_dev_vec(&s.dev[0], SNAP_VEC_COMPLETIONS));
	ck_assert_double_eq(v->v[0], 11 * 102);
	ck_assert_double_eq(v->v[1], 8 * 97);
	ck_assert_double_eq(snapshot_dev_vec(&s.dev[0], SNAP_VEC_CPU_ISSUED)->v[1], 8 * 40);
	snapshot_free(&s);
}
END_TEST

/* show and diff read a snapshot file: a FIFO (nobody writing: the open
 * would wait for ever), a directory are refused in one line at once. */
START_TEST(test_read_not_regular)
{
	char tmpl[] = "/tmp/blktune-unit-XXXXXX", *dir = mkdtemp(tmpl), path[4200], msg[256];
	struct snapshot s;

	ck_assert_ptr_nonnull(dir);
	snprintf(path, sizeof(path), "%s/fifo", dir);
	ck_assert_int_eq(mkfifo(path, 0600), 0);
	ck_assert_int_eq(snapshot_read(path, &s, msg, sizeof(msg)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(msg, "fifo: not a regular file"));
	ck_assert_int_eq(snapshot_read(dir, &s, msg, sizeof(msg)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(msg, "not a regular file"));
	ck_assert_ptr_null(strchr(msg, '\n'));
	snprintf(path, sizeof(path), "%s/none", dir);
	ck_assert_int_eq(snapshot_read(path, &s, msg, sizeof(msg)), -ENOENT);
	unit_rmtree(dir);
}
END_TEST

/* snapshot_find through the name index gives what a scan gives: the
 * device of a name, NULL for a name not there (prefixes and extensions of
 * names that are); 3000 devices parsed from a file. */
START_TEST(test_find_by_index)
{
	static const char *const parts[] = { "sd", "nvme0n", "loop", "dm-", "md", "zram", "a" };
	unsigned short seed[3] = { 4, 5, 6 };
	char *text = NULL, name[32], msg[256];
	size_t len = 0, n = 3000;
	FILE *f = open_memstream(&text, &len);
	struct snapshot s;

	/* names from 7 prefixes and numbers, none twice, not in sorted order */
	ck_assert_ptr_nonnull(f);
	fprintf(f, "blktune-snapshot 2\nhost h\nkernel k\ntime 1\nwindow 30\n");
	for (size_t i = 0; i < n; i++)
		fprintf(f, "device %s%zu 7:%zu 0\nspan 0 1 1 0 0\nend-device\n", parts[(i * 7919) % 7],
			(i * 7919) % n, i);
	fprintf(f, "end %zu\n", n);
	fclose(f);
	ck_assert_int_eq(snapshot_parse(text, len, "many.snap", &s, msg, sizeof(msg)), 0);
	free(text);
	ck_assert_ptr_nonnull(s.byname);
	ck_assert_uint_eq(s.nbyname, n);
	for (int k = 0; k < 20000; k++) {
		const struct snapshot_dev *want = NULL;

		snprintf(name, sizeof(name), "%s%u", parts[(int)(erand48(seed) * 7)],
			 (unsigned)(erand48(seed) * (double)n * 1.2));
		if (k % 5 == 0) /* often an extension of a name there */
			strcat(name, k % 10 ? "0" : "");
		for (size_t i = 0; i < s.ndev && !want; i++)
			if (!strcmp(s.dev[i].name, name))
				want = &s.dev[i];
		ck_assert_msg(snapshot_find(&s, name) == want, "%s", name);
	}
	for (size_t i = 0; i < s.ndev; i++)
		ck_assert_ptr_eq(snapshot_find(&s, s.dev[i].name), &s.dev[i]);
	ck_assert_ptr_null(snapshot_find(&s, ""));
	ck_assert_ptr_null(snapshot_find(&s, "~"));
	/* an index that does not cover every device (one added since) is not
	 * used: the device it lacks is found */
	snprintf(s.dev[n - 1].name, sizeof(s.dev[n - 1].name), "zz-added");
	s.nbyname--;
	ck_assert_ptr_eq(snapshot_find(&s, "zz-added"), &s.dev[n - 1]);
	snapshot_free(&s);
}
END_TEST

UNIT_SUITE(snapshot_suite)
static Suite *snapshot_suite(void)
{
	Suite *s = suite_create("snapshot");
	TCase *tc = tcase_create("snapshot");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_window_since_change);
	tcase_add_test(tc, test_verdicts);
	tcase_add_test(tc, test_different_devices_warn);
	tcase_add_test(tc, test_multi_device);
	tcase_add_test(tc, test_metric_edges);
	tcase_add_test(tc, test_one_sided_and_long_warning);
	tcase_add_test(tc, test_headline_primaries);
	tcase_add_test(tc, test_ab_take_compare_save);
	tcase_add_test(tc, test_round_trip);
	tcase_add_test(tc, test_busy_capture_records);
	tcase_add_test(tc, test_version1_and_diskseq);
	tcase_add_test(tc, test_parser_errors);
	tcase_add_test(tc, test_stat_line_bounds);
	tcase_add_test(tc, test_stat_line_consistent);
	tcase_add_test(tc, test_same_needs_equal_means);
	tcase_add_test(tc, test_span_dates);
	tcase_add_test(tc, test_kill9_never_leaves_half_file);
	tcase_add_test(tc, test_save_and_default_dir);
	tcase_add_test(tc, test_capture_idle_only);
	tcase_add_test(tc, test_output);
	tcase_add_test(tc, test_figures_the_kernel_does_not_count);
	tcase_add_test(tc, test_change_column_bounded);
	tcase_add_test(tc, test_trace_completions);
	tcase_add_test(tc, test_trace_gap_edges);
	tcase_add_test(tc, test_warning_cut_everywhere);
	tcase_add_test(tc, test_trace_points_reused);
	tcase_add_test(tc, test_read_not_regular);
	tcase_add_test(tc, test_recreated_device_window);
	tcase_add_test(tc, test_name_on_new_number);
	tcase_add_test(tc, test_write_refuses_name_twice);
	tcase_add_test(tc, test_find_by_index);
	suite_add_tcase(s, tc);
	return s;
}
