/* Unit tests of readahead (bit helpers shared with the kernel side, per-CPU
 * summing, the identity, deltas and resets, percentages, window histogram,
 * JSON) and of source-readahead's attribution (partition -> disk) on the
 * nvme, sata and lvm fixture trees. */
#include "unit.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "readahead.h"
#include "root.h"
#include "source-readahead.h"

START_TEST(test_bits)
{
	ck_assert_uint_eq(ra_popcount(0), 0);
	ck_assert_uint_eq(ra_popcount(~0ULL), 64);
	ck_assert_uint_eq(ra_popcount(0x8000000000000001ULL), 2);
	ck_assert_uint_eq(ra_popcount(0xf0f0ULL), 8);
	/* Block 1 holds pages 64..127. */
	ck_assert_uint_eq(ra_range_mask(1, 0, 64), 0);
	ck_assert_uint_eq(ra_range_mask(1, 64, 128), ~0ULL);
	ck_assert_uint_eq(ra_range_mask(1, 0, 1000), ~0ULL);
	ck_assert_uint_eq(ra_range_mask(1, 64, 65), 1);
	ck_assert_uint_eq(ra_range_mask(1, 127, 200), 1ULL << 63);
	ck_assert_uint_eq(ra_range_mask(1, 70, 74), 0xfULL << 6);
	ck_assert_uint_eq(ra_range_mask(1, 74, 70), 0);
	ck_assert_uint_eq(ra_range_mask(0, 0, 0), 0);
}
END_TEST

/* Where a block's folios begin, as add_to_page_cache records it: the folio
 * a fault or fault-around lands in is mapped whole. */
START_TEST(test_folio_bounds)
{
	struct ra_block b = { 0 };
	__u64 lo, hi;

	ck_assert_uint_eq(ra_lsb(1), 0);
	ck_assert_uint_eq(ra_lsb(1ULL << 63), 63);
	ck_assert_uint_eq(ra_lsb(0x50), 4);
	ck_assert_uint_eq(ra_msb(1), 0);
	ck_assert_uint_eq(ra_msb(~0ULL), 63);
	ck_assert_uint_eq(ra_msb(0x50), 6);
	/* block 2 (pages 128..191): a 4-page folio at 136, a 16-page one at 144 */
	b.heads = 1ULL << 8 | 1ULL << 12 | 1ULL << 16 | 1ULL << 32;
	ra_folio_bounds(&b, 136, &lo, &hi);
	ck_assert_uint_eq(lo, 136);
	ck_assert_uint_eq(hi, 140);
	ra_folio_bounds(&b, 139, &lo, &hi);
	ck_assert_uint_eq(lo, 136);
	ck_assert_uint_eq(hi, 140);
	ra_folio_bounds(&b, 150, &lo, &hi);
	ck_assert_uint_eq(lo, 144);
	ck_assert_uint_eq(hi, 160);
	/* past the last head: up to the block's end */
	ra_folio_bounds(&b, 191, &lo, &hi);
	ck_assert_uint_eq(lo, 160);
	ck_assert_uint_eq(hi, 192);
	/* no head at or below: not known, the page alone */
	ra_folio_bounds(&b, 130, &lo, &hi);
	ck_assert_uint_eq(lo, 130);
	ck_assert_uint_eq(hi, 131);
	/* a head at the block's first page, a page at its last */
	b.heads = 1;
	ra_folio_bounds(&b, 191, &lo, &hi);
	ck_assert_uint_eq(lo, 128);
	ck_assert_uint_eq(hi, 192);
	/* a 512-page folio covers whole blocks: aligned to its size */
	b.order = 9;
	ra_folio_bounds(&b, 1000, &lo, &hi);
	ck_assert_uint_eq(lo, 512);
	ck_assert_uint_eq(hi, 1024);
	ra_folio_bounds(&b, 1024, &lo, &hi);
	ck_assert_uint_eq(lo, 1024);
	ck_assert_uint_eq(hi, 1536);
}
END_TEST

/* The counting filter: the same block always lands in the same slot, in
 * range; neighbouring blocks and files spread. */
START_TEST(test_live_slot)
{
	struct ra_block_key a = { .ino = 12, .blk = 7, .dev = 7 << 20 }, b = a;
	unsigned same = 0;

	ck_assert_uint_eq(ra_live_slot(&a), ra_live_slot(&b));
	ck_assert_uint_lt(ra_live_slot(&a), RA_LIVE_SLOTS);
	for (unsigned i = 0; i < 1000; i++) {
		b.blk = a.blk + 1 + i;
		same += ra_live_slot(&b) == ra_live_slot(&a);
		ck_assert_uint_lt(ra_live_slot(&b), RA_LIVE_SLOTS);
	}
	ck_assert_uint_le(same, 2);
	b = a;
	b.ino++;
	ck_assert_uint_ne(ra_live_slot(&a), ra_live_slot(&b));
	b = a;
	b.dev++;
	ck_assert_uint_ne(ra_live_slot(&a), ra_live_slot(&b));
}
END_TEST

START_TEST(test_win_buckets)
{
	ck_assert_uint_eq(ra_win_bucket(0), 0);
	ck_assert_uint_eq(ra_win_bucket(1), 0);
	ck_assert_uint_eq(ra_win_bucket(2), 1);
	ck_assert_uint_eq(ra_win_bucket(3), 1);
	ck_assert_uint_eq(ra_win_bucket(32), 5);   /* 128 KiB of 4 KiB pages */
	ck_assert_uint_eq(ra_win_bucket(1024), 10); /* 4 MiB */
	ck_assert_uint_eq(ra_win_bucket(1ULL << 40), RA_HIST - 1);
	/* Each bucket's exclusive bound is the next bucket's first size. */
	for (unsigned i = 0; i + 1 < RA_HIST; i++) {
		ck_assert_uint_eq(ra_win_bucket(ra_win_bucket_lt(i) - 1), i);
		ck_assert_uint_eq(ra_win_bucket(ra_win_bucket_lt(i)), i + 1);
	}
	ck_assert_uint_eq(ra_win_bucket_lt(RA_HIST - 1), 0);
}
END_TEST

/* A device's counters: pages read ahead, their fates, windows. */
static struct ra_counts counts(uint64_t sync, uint64_t async, uint64_t hit, uint64_t mapped,
			       uint64_t waste)
{
	struct ra_counts c;

	memset(&c, 0, sizeof(c));
	c.sync_pages = sync;
	c.async_pages = async;
	c.hit = hit;
	c.mapped = mapped;
	c.waste = waste;
	return c;
}

START_TEST(test_percpu_sum)
{
	struct ra_dev_cpu v[3];
	struct ra_counts c;

	memset(v, 0, sizeof(v));
	v[0].sync_pages = 10;
	v[1].async_pages = 20;
	v[2].hit = 5;
	v[0].hit = 7;
	v[1].win_hist[5] = 2;
	v[2].win_hist[5] = 1;
	v[2].dropped = 3;
	v[1].read_pages = 9;
	/* every other counter too, on two CPUs each, and the first and last
	 * window buckets */
	v[0].sync_triggers = 1, v[2].sync_triggers = 2;
	v[1].async_triggers = 4, v[2].async_triggers = 8;
	v[0].windows = 16, v[1].windows = 32;
	v[0].window_pages = 64, v[2].window_pages = 128;
	v[1].demand = 256, v[2].demand = 512;
	v[0].mapped = 2, v[2].mapped = 1;
	v[1].waste = 4, v[2].waste = 1;
	v[0].clamped = 6, v[1].clamped = 7;
	v[0].win_hist[0] = 1, v[2].win_hist[RA_HIST - 1] = 4;
	ra_counts_from_cpus(&c, v, 3);
	ck_assert_uint_eq(c.sync_pages, 10);
	ck_assert_uint_eq(c.async_pages, 20);
	ck_assert_uint_eq(c.hit, 12);
	ck_assert_uint_eq(c.dropped, 3);
	ck_assert_uint_eq(c.read_pages, 9);
	ck_assert_uint_eq(c.sync_triggers, 3);
	ck_assert_uint_eq(c.async_triggers, 12);
	ck_assert_uint_eq(c.windows, 48);
	ck_assert_uint_eq(c.window_pages, 192);
	ck_assert_uint_eq(c.demand, 768);
	ck_assert_uint_eq(c.mapped, 3);
	ck_assert_uint_eq(c.waste, 5);
	ck_assert_uint_eq(c.clamped, 13);
	for (unsigned i = 0; i < RA_HIST; i++)
		ck_assert_uint_eq(c.win_hist[i], i == 0 ? 1 : i == 5 ? 3 : i == RA_HIST - 1 ? 4 : 0);
	/* unread = pages - hit - mapped - waste, never below 0 */
	ck_assert_uint_eq(ra_counts_unread(&c), 30 - 12 - 3 - 5);
	c.hit = 100;
	ck_assert_uint_eq(ra_counts_unread(&c), 0);
}
END_TEST

START_TEST(test_identity_and_pcts)
{
	struct ra_sample a, b;
	struct ra_counts c0 = counts(100, 0, 0, 0, 0), c1 = counts(300, 700, 600, 100, 50);
	struct ra_metrics m;
	dev_t d = makedev(7, 0);

	ra_sample_init(&a);
	ra_sample_init(&b);
	a.page_size = b.page_size = 4096;
	a.t_ns = 1000000000ULL;
	b.t_ns = 3000000000ULL;
	c1.windows = 4;
	c1.window_pages = 4 * 32;
	c1.win_hist[5] = 4;
	c1.read_pages = 1000;
	c1.demand = 100;
	c1.sync_triggers = 1;
	c1.async_triggers = 3;
	c1.dropped = 7;
	ck_assert_int_eq(ra_sample_add(&a, d, d, &c0), 0);
	ck_assert_int_eq(ra_sample_add(&b, d, d, &c1), 0);
	ck_assert_int_eq(ra_metrics_compute(&a, &b, d, &m), 0);
	ck_assert_uint_eq(m.kind, RA_DEV_FS | RA_DEV_DISK);
	ck_assert_uint_eq(m.pages, 900);
	ck_assert_uint_eq(m.sync_pages, 200);
	ck_assert_uint_eq(m.async_pages, 700);
	ck_assert_uint_eq(m.unread, 1000 - 600 - 100 - 50);
	/* cumulative identity */
	ck_assert_uint_eq(600 + 100 + 50 + m.unread, 1000);
	/* shares of the pages whose fate was decided: 750 */
	ck_assert_double_eq_tol(m.hit_pct, 80.0, 1e-9);
	ck_assert_double_eq_tol(m.mapped_pct, 100.0 * 100 / 750, 1e-9);
	ck_assert_double_eq_tol(m.waste_pct, 100.0 * 50 / 750, 1e-9);
	ck_assert_double_eq_tol(m.hit_pct + m.mapped_pct + m.waste_pct, 100.0, 1e-9);
	ck_assert_double_eq_tol(m.waste_mb, 50 * 4096.0 / 1048576, 1e-9);
	ck_assert_double_eq_tol(m.avg_window_kb, 128.0, 1e-9);
	ck_assert_uint_eq(m.win_hist[5], 4);
	ck_assert_double_eq_tol(m.cache_hit_pct, 90.0, 1e-9);
	ck_assert_double_eq_tol(m.interval_s, 2.0, 1e-9);
	ck_assert_double_eq_tol(m.pages_per_s, 450.0, 1e-9);
	ck_assert_uint_eq(m.sync_triggers, 1);
	ck_assert_uint_eq(m.async_triggers, 3);
	/* every count of the interval is the difference of the two samples' */
	ck_assert_uint_eq(m.dev, d);
	ck_assert_uint_eq(m.hit, 600);
	ck_assert_uint_eq(m.mapped, 100);
	ck_assert_uint_eq(m.waste, 50);
	ck_assert_uint_eq(m.dropped, 7);
	ck_assert_uint_eq(m.windows, 4);
	ck_assert_uint_eq(m.window_pages, 128);
	ck_assert_uint_eq(m.demand, 100);
	ck_assert_uint_eq(m.read_pages, 1000);

	/* Nothing decided, no windows, no reads, zero interval: NAN, not 0. */
	ck_assert_int_eq(ra_metrics_compute(&b, &b, d, &m), 0);
	ck_assert(isnan(m.hit_pct) && isnan(m.waste_pct) && isnan(m.mapped_pct));
	ck_assert(isnan(m.avg_window_kb) && isnan(m.cache_hit_pct) && isnan(m.pages_per_s));
	ck_assert_uint_eq(m.unread, 250);

	/* More pages waiting than asked for within one interval: clamped. */
	b.devs[0].c.demand = 2000;
	ck_assert_int_eq(ra_metrics_compute(&a, &b, d, &m), 0);
	ck_assert_double_eq(m.cache_hit_pct, 0.0);
	ra_sample_free(&a);
	ra_sample_free(&b);
}
END_TEST

START_TEST(test_reset_and_missing)
{
	struct ra_sample a, b;
	struct ra_counts big = counts(500, 500, 100, 0, 0), small = counts(10, 0, 0, 0, 0);
	struct ra_metrics m;
	dev_t d = makedev(8, 1), other = makedev(8, 16);

	ra_sample_init(&a);
	ra_sample_init(&b);
	ck_assert_int_eq(ra_sample_add(&a, d, d, &big), 0);
	ck_assert_int_eq(ra_sample_add(&b, d, d, &small), 0);
	/* The source was closed and re-opened: counters went backwards. */
	ck_assert_int_eq(ra_metrics_compute(&a, &b, d, &m), -ERANGE);
	/* A histogram bucket alone going backwards is a reset too. */
	b.devs[0].c = big;
	a.devs[0].c.win_hist[3] = 2;
	ck_assert_int_eq(ra_metrics_compute(&a, &b, d, &m), -ERANGE);
	ck_assert_int_eq(ra_metrics_compute(&a, &b, other, &m), -ENOENT);
	/* A device new in cur counts from zero; no prev: since attach. */
	ck_assert_int_eq(ra_sample_add(&b, other, other, &small), 0);
	ck_assert_int_eq(ra_metrics_compute(&a, &b, other, &m), 0);
	ck_assert_uint_eq(m.pages, 10);
	ck_assert_int_eq(ra_metrics_compute(NULL, &b, d, &m), 0);
	ck_assert_uint_eq(m.pages, 1000);
	ck_assert_double_eq(m.interval_s, 0);
	ra_sample_free(&a);
	ra_sample_free(&b);
}
END_TEST

START_TEST(test_rollup_copy_swap)
{
	struct ra_sample a, b;
	struct ra_counts p1 = counts(10, 0, 1, 0, 0), p2 = counts(0, 20, 2, 0, 0), whole = counts(5, 0, 0, 0, 0);
	dev_t sda = makedev(8, 0), sda1 = makedev(8, 1), sda2 = makedev(8, 2), anon = makedev(0, 45);
	ssize_t i;

	ra_sample_init(&a);
	ra_sample_init(&b);
	/* Out of order on purpose: the sample keeps itself sorted. */
	ck_assert_int_eq(ra_sample_add(&a, sda2, sda, &p2), 0);
	ck_assert_int_eq(ra_sample_add(&a, anon, 0, &whole), 0);
	ck_assert_int_eq(ra_sample_add(&a, sda1, sda, &p1), 0);
	ck_assert_uint_eq(a.ndevs, 4);
	for (size_t k = 1; k < a.ndevs; k++)
		ck_assert(a.devs[k - 1].dev < a.devs[k].dev);
	i = ra_sample_find(&a, sda);
	ck_assert_int_ge(i, 0);
	ck_assert_uint_eq(a.devs[i].kind, RA_DEV_DISK);
	ck_assert_uint_eq(a.devs[i].c.sync_pages, 10);
	ck_assert_uint_eq(a.devs[i].c.async_pages, 20);
	ck_assert_uint_eq(a.devs[i].c.hit, 3);
	/* A filesystem on the whole disk adds to the same entry. */
	ck_assert_int_eq(ra_sample_add(&a, sda, sda, &whole), 0);
	i = ra_sample_find(&a, sda);
	ck_assert_uint_eq(a.devs[i].kind, RA_DEV_DISK | RA_DEV_FS);
	ck_assert_uint_eq(a.devs[i].c.sync_pages, 15);
	i = ra_sample_find(&a, sda1);
	ck_assert_uint_eq(a.devs[i].kind, RA_DEV_FS);
	ck_assert_uint_eq(a.devs[i].c.sync_pages, 10);
	ck_assert_int_eq(ra_sample_find(&a, anon) >= 0, 1);
	ck_assert_int_eq(ra_sample_find(&a, makedev(9, 9)), -1);

	ck_assert_int_eq(ra_sample_copy(&b, &a), 0);
	ck_assert_uint_eq(b.ndevs, a.ndevs);
	ck_assert_mem_eq(b.devs, a.devs, a.ndevs * sizeof(*a.devs));
	ra_sample_reset(&a);
	ck_assert_uint_eq(a.ndevs, 0);
	ra_sample_swap(&a, &b);
	ck_assert_uint_eq(a.ndevs, 4);
	ck_assert_uint_eq(b.ndevs, 0);
	ra_sample_free(&a);
	ra_sample_free(&b);
}
END_TEST

START_TEST(test_json)
{
	struct ra_metrics m;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	memset(&m, 0, sizeof(m));
	m.pages = 900;
	m.sync_pages = 200;
	m.async_pages = 700;
	m.hit = 600;
	m.mapped = 100;
	m.waste = 50;
	m.unread = 250;
	m.hit_pct = 80;
	m.waste_pct = 100.0 / 15;
	m.avg_window_kb = 128;
	m.cache_hit_pct = NAN;
	ck_assert_int_eq(ra_metrics_json(f, &m), 0);
	fclose(f);
	ck_assert_str_eq(buf, ", \"readahead\": {\"pages\": 900, \"sync_pages\": 200, \"async_pages\": 700, "
			      "\"hit\": 600, \"mapped\": 100, \"waste\": 50, \"unread\": 250, "
			      "\"hit_pct\": 80.00, \"waste_pct\": 6.67, \"avg_window_kb\": 128.00, "
			      "\"cache_hit_pct\": null}");
	free(buf);
}
END_TEST

static dev_t disk_of(const char *fixture, dev_t dev, int want_err)
{
	struct root *r;
	dev_t disk = 1;

	ck_assert_int_eq(root_open(unit_fixture(fixture), &r), 0);
	ck_assert_int_eq(source_ra_disk_of(r, dev, &disk), want_err);
	root_close(r);
	return disk;
}

/* The window note: none within read_ahead_kb (and at it, rounded), the
 * fadvise reason up to twice it, the large-read reason beyond. */
START_TEST(test_window_note)
{
	char b[128];

	ck_assert_int_eq(ra_window_note(2560.0, 2560.0, b, sizeof(b)), 0);
	ck_assert_str_eq(b, "");
	ck_assert_int_eq(ra_window_note(2560.4, 2560.0, b, sizeof(b)), 0);
	ck_assert_int_eq(ra_window_note(1024.0, 2560.0, b, sizeof(b)), 0);
	ck_assert_int_eq(ra_window_note(NAN, 2560.0, b, sizeof(b)), 0);
	ck_assert_int_eq(ra_window_note(5120.0, 0.0, b, sizeof(b)), 0);
	ck_assert_int_gt(ra_window_note(2561.0, 2560.0, b, sizeof(b)), 0);
	ck_assert_ptr_nonnull(strstr(b, "fadvise SEQUENTIAL"));
	ck_assert_int_gt(ra_window_note(5120.0, 2560.0, b, sizeof(b)), 0);
	ck_assert_ptr_nonnull(strstr(b, "fadvise SEQUENTIAL"));
	ck_assert_int_gt(ra_window_note(5121.0, 2560.0, b, sizeof(b)), 0);
	ck_assert_ptr_nonnull(strstr(b, "max_sectors_kb"));
	/* it fits an 80-column screen after the page's two-space indent */
	ck_assert_uint_le(strlen(b) + 2, 80);
	ck_assert_int_gt(ra_window_note(5000.0, 2560.0, b, sizeof(b)), 0);
	ck_assert_uint_le(strlen(b) + 2, 80);
}
END_TEST

START_TEST(test_disk_of)
{
	/* nvme: partitions name their disk, the disk itself */
	ck_assert_uint_eq(disk_of("nvme", makedev(259, 1), 0), makedev(259, 0));
	ck_assert_uint_eq(disk_of("nvme", makedev(259, 3), 0), makedev(259, 0));
	ck_assert_uint_eq(disk_of("nvme", makedev(259, 0), 0), makedev(259, 0));
	/* sata: sda1 and sdc2 */
	ck_assert_uint_eq(disk_of("sata", makedev(8, 1), 0), makedev(8, 0));
	ck_assert_uint_eq(disk_of("sata", makedev(8, 34), 0), makedev(8, 32));
	/* lvm: dm-0 is its own disk, not pushed down to the loops beneath */
	ck_assert_uint_eq(disk_of("lvm", makedev(253, 0), 0), makedev(253, 0));
	/* no block device: anonymous s_dev (tmpfs, overlay) */
	ck_assert_uint_eq(disk_of("nvme", makedev(0, 45), 0), 0);
	/* sata's 7:0 link dangles (the loop was not captured): the link names a
	 * block device without a partition file, so it is its own disk */
	ck_assert_uint_eq(disk_of("sata", makedev(7, 0), 0), makedev(7, 0));
}
END_TEST

UNIT_SUITE(readahead_suite)

static Suite *readahead_suite(void)
{
	Suite *s = suite_create("readahead");
	TCase *tc = tcase_create("readahead");

	tcase_add_test(tc, test_bits);
	tcase_add_test(tc, test_folio_bounds);
	tcase_add_test(tc, test_live_slot);
	tcase_add_test(tc, test_win_buckets);
	tcase_add_test(tc, test_percpu_sum);
	tcase_add_test(tc, test_identity_and_pcts);
	tcase_add_test(tc, test_reset_and_missing);
	tcase_add_test(tc, test_rollup_copy_swap);
	tcase_add_test(tc, test_json);
	tcase_add_test(tc, test_disk_of);
	tcase_add_test(tc, test_window_note);
	suite_add_tcase(s, tc);
	return s;
}
