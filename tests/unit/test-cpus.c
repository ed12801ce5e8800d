#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model-cpus.h"
#include "root.h"
#include "source-cpus.h"
#include "unit.h"

START_TEST(parse_rows)
{
	static const char softirqs[] = "                    CPU0       CPU1       CPU2\n"
				       "          HI:          0          0          0\n"
				       "       BLOCK:       1604      39498          7\n"
				       "BLOCK_IOPOLL:          1          2          3\n";
	static const char bad[] = "   CPU0 CPU1\n BLOCK: 12 x\n";
	uint64_t v[3];

	ck_assert_int_eq(source_cpus_parse_ncpu(softirqs), 3);
	ck_assert_int_eq(source_cpus_parse_row(softirqs, "BLOCK:", 3, v), 0);
	ck_assert(v[0] == 1604 && v[1] == 39498 && v[2] == 7);
	ck_assert_int_eq(source_cpus_parse_row(softirqs, "NET_RX:", 3, v), -ENOENT);
	ck_assert_int_eq(source_cpus_parse_row(bad, "BLOCK:", 2, v), -EINVAL);
	/* "36:" must not match "136:" */
	ck_assert_int_eq(source_cpus_parse_row(" CPU0\n136:  5 x\n 36:  9 y\n", "36:", 1, v), 0);
	ck_assert(v[0] == 9);
	ck_assert_int_eq(source_cpus_parse_ncpu(""), 0);
}
END_TEST

START_TEST(cpulists)
{
	ck_assert(model_cpulist_has("0-3,8", 0));
	ck_assert(model_cpulist_has("0-3,8", 3));
	ck_assert(!model_cpulist_has("0-3,8", 4));
	ck_assert(model_cpulist_has("0-3,8", 8));
	ck_assert(model_cpulist_has("1", 1));
	ck_assert(!model_cpulist_has("", 0));
	ck_assert(!model_cpulist_has("x", 0));
}
END_TEST

static void take(const char *tree, double t, struct sample *s)
{
	struct root *r;
	struct source_cpus *src;

	ck_assert_int_eq(root_open(unit_fixture(tree), &r), 0);
	ck_assert_int_eq(source_cpus_open(r, &src), 0);
	ck_assert_int_eq(source_cpus_watch(src, "vda"), 0);
	sample_init(s);
	s->t = t;
	ck_assert_int_eq(source_cpus_read(src, s), 0);
	source_cpus_close(src);
	root_close(r);
}

/* live-vm: vda's request IRQ is 36, affinity CPU 1 (tests/fixtures). */
START_TEST(cpu_rows_from_capture)
{
	struct sample t0, t1;
	struct cpus_metrics m = { 0 };

	take("live-vm/t0", 0.0, &t0);
	take("live-vm/t1", 7.53, &t1);
	ck_assert_uint_eq(t1.cpus.ncpu, 2);
	ck_assert_uint_eq(t1.cpus.nirq, 1);
	ck_assert_uint_eq(t1.cpus.irq[0], 36);
	ck_assert(!t1.cpus.have_stat); /* libproc2 reads only the live /proc */
	ck_assert_int_eq(model_cpus(&t0, &t1, NULL, &m), 0);
	ck_assert(m.valid);
	ck_assert_str_eq(m.irqs, "36");
	ck_assert(fabs(m.row[1].dev_irq_s - (37010 - 36919) / 7.53) < 1e-9);
	ck_assert(m.row[0].dev_irq_s == 0);
	ck_assert(fabs(m.row[0].block_softirq_s - 1604 / 7.53) < 1e-9);
	ck_assert(fabs(m.row[1].block_softirq_s - (39498 - 36921) / 7.53) < 1e-9);
	ck_assert(m.row[1].in_affinity && !m.row[0].in_affinity);
	ck_assert(isnan(m.row[0].irq_pct));
	ck_assert(isnan(m.row[0].dev_issued_s)); /* untraced */
	/* a different IRQ set between samples: no IRQ figures, not wrong ones */
	t0.cpus.irq[0] = 35;
	ck_assert_int_eq(model_cpus(&t0, &t1, NULL, &m), 0);
	ck_assert_uint_eq(m.nirq, 0);
	ck_assert(m.row[1].dev_irq_s == 0);
	model_cpus_free(&m);
	sample_free(&t0);
	sample_free(&t1);
}
END_TEST

UNIT_SUITE(cpus_suite)
static Suite *cpus_suite(void)
{
	Suite *s = suite_create("cpus");
	TCase *tc = tcase_create("cpus");

	tcase_add_test(tc, parse_rows);
	tcase_add_test(tc, cpulists);
	tcase_add_test(tc, cpu_rows_from_capture);
	suite_add_tcase(s, tc);
	return s;
}
