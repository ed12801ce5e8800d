/* columns: what each column shows (the figure, its layout, which way is
 * better, what makes it defined), and how a cell is drawn in every state. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "columns.h"
#include "unit.h"

/* The specification of every numeric column: the figure it shows, its cell
 * (width, decimals: the iostat -x layout the README shows), the better
 * direction for A/B verdicts, the rate that must be non-zero for a
 * per-request figure, and whether it is a gauge, traced or readahead-only.
 * A new column is added here too: the count below checks that. */
static const struct {
	enum column_id id;
	size_t offset;
	int width, prec, good;
	enum column_id per;
	unsigned flags;
} spec[] = {
#define F(f) offsetof(struct disk_metrics, f)
	{ COLUMN_R_S, F(r_s), 7, 1, +1, 0, 0 },
	{ COLUMN_W_S, F(w_s), 7, 1, +1, 0, 0 },
	{ COLUMN_RMB_S, F(rmb_s), 7, 2, +1, 0, COLUMN_THROUGHPUT },
	{ COLUMN_WMB_S, F(wmb_s), 7, 2, +1, 0, COLUMN_THROUGHPUT },
	{ COLUMN_RAREQ_SZ, F(rareq_sz), 8, 1, 0, COLUMN_R_S, 0 },
	{ COLUMN_WAREQ_SZ, F(wareq_sz), 8, 1, 0, COLUMN_W_S, 0 },
	{ COLUMN_R_AWAIT, F(r_await), 7, 2, -1, COLUMN_R_S, 0 },
	{ COLUMN_W_AWAIT, F(w_await), 7, 2, -1, COLUMN_W_S, 0 },
	{ COLUMN_AQU_SZ, F(aqu_sz), 6, 2, 0, 0, 0 },
	{ COLUMN_UTIL, F(util), 6, 1, 0, 0, 0 },
	{ COLUMN_IN_FLIGHT, F(in_flight), 5, 0, 0, 0, COLUMN_GAUGE },
	{ COLUMN_RA_HIT, F(ra_hit_pct), 7, 1, +1, 0, COLUMN_RAMODE },
	{ COLUMN_T_AVG, F(t_lat_avg_us), 8, 0, -1, 0, COLUMN_TRACED },
	{ COLUMN_T_P99, F(t_lat_p99_us), 8, 0, -1, 0, COLUMN_TRACED },
	{ COLUMN_T_QP99, F(t_q_p99_us), 8, 0, -1, 0, COLUMN_TRACED | COLUMN_SPLIT },
	{ COLUMN_T_DP99, F(t_d_p99_us), 8, 0, -1, 0, COLUMN_TRACED | COLUMN_SPLIT },
	{ COLUMN_T_SAME, F(t_same_cpu_pct), 7, 1, 0, 0, COLUMN_TRACED },
	{ COLUMN_RRQM_PCT, F(rrqm_pct), 6, 1, 0, COLUMN_R_S, 0 },
	{ COLUMN_WRQM_PCT, F(wrqm_pct), 6, 1, 0, COLUMN_W_S, 0 },
	{ COLUMN_RA_KB, F(read_ahead_kb), 6, 0, 0, 0, COLUMN_GAUGE },
	{ COLUMN_MAXSECT_KB, F(max_sectors_kb), 7, 0, 0, 0, COLUMN_GAUGE },
	{ COLUMN_D_S, F(d_s), 7, 1, +1, 0, 0 },
	{ COLUMN_F_S, F(f_s), 7, 1, 0, 0, 0 },
	{ COLUMN_RKB_S, F(rkb_s), 9, 1, +1, 0, 0 },
	{ COLUMN_WKB_S, F(wkb_s), 9, 1, +1, 0, 0 },
	{ COLUMN_DKB_S, F(dkb_s), 9, 1, +1, 0, 0 },
	{ COLUMN_RRQM_S, F(rrqm_s), 7, 1, 0, 0, 0 },
	{ COLUMN_WRQM_S, F(wrqm_s), 7, 1, 0, 0, 0 },
	{ COLUMN_DRQM_S, F(drqm_s), 7, 1, 0, 0, 0 },
	{ COLUMN_DRQM_PCT, F(drqm_pct), 6, 1, 0, COLUMN_D_S, 0 },
	{ COLUMN_D_AWAIT, F(d_await), 7, 2, -1, COLUMN_D_S, 0 },
	{ COLUMN_F_AWAIT, F(f_await), 7, 2, -1, COLUMN_F_S, 0 },
	{ COLUMN_DAREQ_SZ, F(dareq_sz), 8, 1, 0, COLUMN_D_S, 0 },
#undef F
};

START_TEST(every_numeric_column_as_specified)
{
	static const unsigned flags[] = { COLUMN_GAUGE, COLUMN_TRACED, COLUMN_RAMODE, COLUMN_SPLIT, COLUMN_THROUGHPUT };
	struct disk_metrics m;
	int numeric = 0;
	unsigned all = 0;

	/* each flag its own bit (two branches once both took 8) */
	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		ck_assert_msg(flags[i] && !(flags[i] & (flags[i] - 1)), "flag %u is one bit", flags[i]);
		ck_assert_msg(!(all & flags[i]), "flag %u used twice", flags[i]);
		all |= flags[i];
	}

	for (int i = 0; i < COLUMN_COUNT; i++)
		numeric += columns[i].type == COL_NUM;
	ck_assert_int_eq(numeric, (int)(sizeof(spec) / sizeof(spec[0])));
	for (size_t i = 0; i < sizeof(spec) / sizeof(spec[0]); i++) {
		const struct column *c = &columns[spec[i].id];
		double v = 1000.0 + (double)i;

		ck_assert_int_eq(c->type, COL_NUM);
		ck_assert_msg(c->width == spec[i].width && c->prec == spec[i].prec, "%s: width %d.%d", c->header,
			      c->width, c->prec);
		ck_assert_msg(c->good == spec[i].good, "%s: good %d", c->header, c->good);
		ck_assert_msg(c->per == spec[i].per, "%s: per %d", c->header, c->per);
		ck_assert_msg(c->flags == spec[i].flags, "%s: flags %u", c->header, c->flags);
		ck_assert_msg((int)strlen(c->header) <= c->width, "%s wider than its cell", c->header);
		ck_assert_msg(c->formula && *c->formula, "%s has a formula", c->header);
		memset(&m, 0, sizeof(m));
		unit_row_info(&m);
		memcpy((char *)&m + spec[i].offset, &v, sizeof(v));
		ck_assert_msg(column_value(c, &m) == v, "%s shows another figure", c->header);
		ck_assert_int_eq(column_find(c->header), spec[i].id);
		ck_assert_int_eq(column_find(c->json), spec[i].id);
	}
	ck_assert(column_value(&columns[COLUMN_DEVICE], &m) == 0);
	ck_assert_int_eq(columns[COLUMN_DEVICE].width, 10);
	ck_assert_int_eq(columns[COLUMN_SCHED].width, 11);
	ck_assert_int_eq(columns[COLUMN_STACK].width, 16);
}
END_TEST

static struct disk_metrics row(const char *name, double r_s)
{
	struct disk_metrics m;

	memset(&m, 0, sizeof(m));
	unit_row_info(&m);
	snprintf(m.name, sizeof(m.name), "%s", name);
	m.state = DISK_OK;
	m.r_s = r_s;
	m.in_flight = 3;
	m.read_ahead_kb = 128;
	m.traced = true;
	m.t_lat_avg_us = 250;
	m.ra_metrics = true;
	m.ra_hit_pct = 99.5;
	return m;
}

static const char *cell(enum column_id id, const struct disk_metrics *m)
{
	static char buf[4][64];
	static int slot;
	char *b = buf[slot++ % 4];

	column_cell(&columns[id], m, b, 64);
	ck_assert_int_eq((int)strlen(b), columns[id].width);
	return b;
}

START_TEST(cells_in_every_state)
{
	struct disk_metrics m = row("nvme0n1p12", 1234.5);

	ck_assert_str_eq(cell(COLUMN_R_S, &m), " 1234.5");
	ck_assert_str_eq(cell(COLUMN_IN_FLIGHT, &m), "    3");
	ck_assert_str_eq(cell(COLUMN_T_AVG, &m), "     250");
	ck_assert_str_eq(cell(COLUMN_RA_HIT, &m), "   99.5");
	/* names are cut to the cell, left-aligned */
	ck_assert_str_eq(cell(COLUMN_DEVICE, &m), "nvme0n1p12");
	snprintf(m.name, sizeof(m.name), "dm-10-long-name");
	ck_assert_str_eq(cell(COLUMN_DEVICE, &m), "dm-10-long");
	snprintf(m.name, sizeof(m.name), "sda");
	ck_assert_str_eq(cell(COLUMN_DEVICE, &m), "sda       ");
	/* a traced bio-based device (no queue/device split): the split columns
	 * are n/a, throughput is shown */
	m.t_metrics = true;
	m.t_split = false;
	m.rmb_s = 12.5;
	ck_assert_str_eq(cell(COLUMN_RMB_S, &m), "  12.50");
	ck_assert_str_eq(cell(COLUMN_T_QP99, &m), "     n/a");
	/* untraced: n/a; readahead mode off: -; a gauge without the attribute: - */
	m.traced = false;
	ck_assert_str_eq(cell(COLUMN_T_AVG, &m), "     n/a");
	ck_assert_str_eq(cell(COLUMN_R_S, &m), " 1234.5");
	m.ra_metrics = false;
	ck_assert_str_eq(cell(COLUMN_RA_HIT, &m), "      -");
	m.in_flight = -1;
	ck_assert_str_eq(cell(COLUMN_IN_FLIGHT, &m), "    -");
	m.in_flight = 0;
	ck_assert_str_eq(cell(COLUMN_IN_FLIGHT, &m), "    0");
	/* no interval: rates are '-', a reset says so; gauges still show */
	m.state = DISK_NEW;
	ck_assert_str_eq(cell(COLUMN_R_S, &m), "      -");
	ck_assert_str_eq(cell(COLUMN_RA_KB, &m), "   128");
	m.state = DISK_RESTARTED;
	ck_assert_str_eq(cell(COLUMN_R_S, &m), "  reset");
	ck_assert_str_eq(cell(COLUMN_RA_KB, &m), "   128");
	/* scheduler: '-' for a device without a request queue */
	UNIT_INFO(&m)->has_queue = true;
	snprintf(UNIT_INFO(&m)->scheduler, sizeof(m.info->scheduler), "mq-deadline");
	ck_assert_str_eq(cell(COLUMN_SCHED, &m), "mq-deadline");
	UNIT_INFO(&m)->has_queue = false;
	ck_assert_str_eq(cell(COLUMN_SCHED, &m), "-          ");
	/* stack: what it is on, else what holds it, else '-' */
	ck_assert_str_eq(cell(COLUMN_STACK, &m), "-               ");
	snprintf(UNIT_INFO(&m)->text->holders, sizeof(m.info->text->holders), "dm-0");
	ck_assert_str_eq(cell(COLUMN_STACK, &m), "in dm-0         ");
	snprintf(UNIT_INFO(&m)->text->slaves, sizeof(m.info->text->slaves), "sda,sdb,sdc,sdd,sde");
	ck_assert_str_eq(cell(COLUMN_STACK, &m), "on sda,sdb,sdc,s");
	/* a partition: the disk it is part of, and what it holds */
	UNIT_INFO(&m)->kind = DISK_KIND_PARTITION;
	snprintf(UNIT_INFO(&m)->text->parent, sizeof(m.info->text->parent), "sda");
	ck_assert_str_eq(cell(COLUMN_STACK, &m), "of sda, in dm-0 ");
	UNIT_INFO(&m)->text->holders[0] = '\0';
	ck_assert_str_eq(cell(COLUMN_STACK, &m), "of sda          ");
}
END_TEST

/* A kernel before 4.18 prints 14 fields (no discards: they count as
 * writes), before 5.5 18 (no flushes): those figures are no count there,
 * n/a in cells, not the 0 the model holds. */
START_TEST(figures_the_kernel_does_not_count)
{
	static const enum column_id dc[] = { COLUMN_D_S, COLUMN_DKB_S, COLUMN_DRQM_S,
					     COLUMN_DRQM_PCT, COLUMN_D_AWAIT, COLUMN_DAREQ_SZ };
	static const enum column_id fl[] = { COLUMN_F_S, COLUMN_F_AWAIT };
	struct disk_metrics m;
	char cell[64];

	memset(&m, 0, sizeof(m));
	unit_row_info(&m);
	m.state = DISK_OK;
	m.interval = 1;
	for (int nf = 14; nf <= 20; nf += 2) {
		if (nf == 16)
			continue;
		m.nfields = nf;
		for (size_t i = 0; i < sizeof(dc) / sizeof(dc[0]); i++) {
			column_cell(&columns[dc[i]], &m, cell, sizeof(cell));
			ck_assert_msg(!!strstr(cell, "n/a") == (nf < 18), "%s at %d fields: '%s'", columns[dc[i]].header,
				      nf, cell);
			ck_assert(column_counted(&columns[dc[i]], &m) == (nf >= 18));
		}
		for (size_t i = 0; i < sizeof(fl) / sizeof(fl[0]); i++) {
			column_cell(&columns[fl[i]], &m, cell, sizeof(cell));
			ck_assert_msg(!!strstr(cell, "n/a") == (nf < 20), "%s at %d fields: '%s'", columns[fl[i]].header,
				      nf, cell);
		}
		/* what every kernel counts */
		column_cell(&columns[COLUMN_W_S], &m, cell, sizeof(cell));
		ck_assert_ptr_null(strstr(cell, "n/a"));
		ck_assert(column_counted(&columns[COLUMN_AQU_SZ], &m));
	}
}
END_TEST

START_TEST(compare_orders_by_figure_or_name)
{
	struct disk_metrics a = row("sdb", 10), b = row("sda", 20), c = row("sdc", 10);

	ck_assert_int_lt(column_compare(&columns[COLUMN_R_S], &a, &b), 0);
	ck_assert_int_gt(column_compare(&columns[COLUMN_R_S], &b, &a), 0);
	ck_assert_int_eq(column_compare(&columns[COLUMN_R_S], &a, &c), 0); /* ties: the caller's */
	ck_assert_int_eq(column_compare(&columns[COLUMN_R_S], &a, &a), 0);
	ck_assert_int_gt(column_compare(&columns[COLUMN_DEVICE], &a, &b), 0);
	ck_assert_int_lt(column_compare(&columns[COLUMN_DEVICE], &a, &c), 0);
	{
		/* names in natural order: loop9 before loop10 */
		struct disk_metrics x = row("loop9", 1), y = row("loop10", 1);
		ck_assert_int_lt(column_compare(&columns[COLUMN_DEVICE], &x, &y), 0);
		ck_assert_int_gt(column_compare(&columns[COLUMN_DEVICE], &y, &x), 0);
	}
	snprintf(UNIT_INFO(&a)->scheduler, sizeof(a.info->scheduler), "bfq");
	snprintf(UNIT_INFO(&b)->scheduler, sizeof(b.info->scheduler), "none");
	ck_assert_int_lt(column_compare(&columns[COLUMN_SCHED], &a, &b), 0);
	ck_assert_int_gt(column_compare(&columns[COLUMN_SCHED], &b, &a), 0);
	snprintf(UNIT_INFO(&a)->text->slaves, sizeof(a.info->text->slaves), "sdz");
	snprintf(UNIT_INFO(&b)->text->slaves, sizeof(b.info->text->slaves), "sdy");
	ck_assert_int_gt(column_compare(&columns[COLUMN_STACK], &a, &b), 0);
	ck_assert_int_eq(column_find("R/S"), COLUMN_R_S);
	ck_assert_int_eq(column_find("disk_device"), COLUMN_DEVICE);
	ck_assert_int_eq(column_find("t_avg"), -1);
}
END_TEST

/* Batch and JSON output list iostat -x's columns in iostat's order first. */
START_TEST(batch_order_is_iostat_order)
{
	static const enum column_id iostat[] = {
		COLUMN_DEVICE, COLUMN_R_S, COLUMN_RKB_S, COLUMN_RRQM_S, COLUMN_RRQM_PCT, COLUMN_R_AWAIT,
		COLUMN_RAREQ_SZ, COLUMN_W_S, COLUMN_WKB_S, COLUMN_WRQM_S, COLUMN_WRQM_PCT, COLUMN_W_AWAIT,
		COLUMN_WAREQ_SZ, COLUMN_D_S, COLUMN_DKB_S, COLUMN_DRQM_S, COLUMN_DRQM_PCT, COLUMN_D_AWAIT,
		COLUMN_DAREQ_SZ, COLUMN_F_S, COLUMN_F_AWAIT, COLUMN_AQU_SZ, COLUMN_UTIL,
	};
	size_t n = sizeof(iostat) / sizeof(iostat[0]);

	ck_assert_uint_ge(columns_batch_count, n);
	for (size_t i = 0; i < n; i++)
		ck_assert_int_eq(columns_batch_order[i], iostat[i]);
	for (size_t i = 0; i < columns_batch_count; i++)
		for (size_t j = i + 1; j < columns_batch_count; j++)
			ck_assert_int_ne(columns_batch_order[i], columns_batch_order[j]);
}
END_TEST

UNIT_SUITE(columns_suite)
static Suite *columns_suite(void)
{
	Suite *s = suite_create("columns");
	TCase *tc = tcase_create("columns");

	tcase_add_test(tc, every_numeric_column_as_specified);
	tcase_add_test(tc, cells_in_every_state);
	tcase_add_test(tc, figures_the_kernel_does_not_count);
	tcase_add_test(tc, compare_orders_by_figure_or_name);
	tcase_add_test(tc, batch_order_is_iostat_order);
	suite_add_tcase(s, tc);
	return s;
}
