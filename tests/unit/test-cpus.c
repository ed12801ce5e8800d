#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

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

/* Lists as the kernel writes them, and their ends. */
START_TEST(cpulist_edges)
{
	ck_assert(model_cpulist_has("9", 9));      /* decimal, not another base */
	ck_assert(model_cpulist_has("0-9", 9));
	ck_assert(model_cpulist_has("12-19", 19));
	ck_assert(!model_cpulist_has("12-19", 11));
	ck_assert(!model_cpulist_has("12-19", 20));
	ck_assert(model_cpulist_has("0-3,8", 2));
	ck_assert(model_cpulist_has("0-3,8-9", 9));
	ck_assert(!model_cpulist_has("0-3,8", 7));
	ck_assert(!model_cpulist_has("0-3,8", 9));
	ck_assert(model_cpulist_has("1,", 1));     /* a trailing comma ends the list */
	ck_assert(!model_cpulist_has("1,", 0));
	ck_assert(!model_cpulist_has("1,", 2));
	ck_assert(!model_cpulist_has("2-", 2));    /* malformed range */
	ck_assert(!model_cpulist_has("-2", 2));
	ck_assert(!model_cpulist_has("1 2", 2));   /* stops at what is no separator */
}
END_TEST

#define RIG_NCPU 4

/* Two samples built by hand: per-CPU arrays and trace counters live here,
 * not in the heap, so the samples are never sample_free'd. The trace's
 * per-CPU array holds a third device's worth past its two devices, so a
 * read past a device's CPUs finds known numbers, not the next block. */
struct rig {
	struct sample s[2];
	struct cpu_stat stat[2][RIG_NCPU];
	uint64_t softirq[2][RIG_NCPU];
	uint64_t irqc[2][SAMPLE_IRQ_MAX * RIG_NCPU];
	struct trace_dev tdev[2][2];
	struct trace_cpu tcpu[2][3 * RIG_NCPU];
};

static void rig_stat(struct cpu_stat *st, uint64_t user, uint64_t nice, uint64_t system, uint64_t idle,
		     uint64_t iowait, uint64_t irq, uint64_t softirq, uint64_t steal)
{
	*st = (struct cpu_stat){ true, user, nice, system, idle, iowait, irq, softirq, steal };
}

/* Device d's CPU cpu in sample k of a trace with ncpu CPUs. */
static void rig_trace(struct rig *g, int k, unsigned ncpu, unsigned d, unsigned cpu, uint64_t issued,
		      uint64_t completed)
{
	g->tcpu[k][d * ncpu + cpu].issued = issued;
	g->tcpu[k][d * ncpu + cpu].completed = completed;
}

static void rig_init(struct rig *g)
{
	memset(g, 0, sizeof(*g));
	for (int k = 0; k < 2; k++) {
		struct sample *s = &g->s[k];
		struct cpus_sample *c = &s->cpus;

		s->t = k ? 12.0 : 10.0; /* an interval of 2 s */
		c->valid = c->have_stat = true;
		c->ncpu = c->cap = RIG_NCPU;
		c->stat = g->stat[k];
		c->block_softirq = g->softirq[k];
		c->irq_count = g->irqc[k];
		c->nirq = 2;
		c->irq[0] = 35;
		c->irq[1] = 36;
		snprintf(c->irq_dev, sizeof(c->irq_dev), "vdb");
		s->traced = true;
		s->trace.ncpu = RIG_NCPU;
		s->trace.nmat = 2; /* CPUs 2 and 3 have no submitting-CPU figures */
		s->trace.ndevs = 2;
		s->trace.cap = 2;
		s->trace.devs = g->tdev[k];
		s->trace.cpu = g->tcpu[k];
		g->tdev[k][0].dev = makedev(253, 0);
		g->tdev[k][1].dev = makedev(253, 16);
	}
	/* CPU 0: 200 ticks, irq 30, softirq 6, iowait 20 */
	rig_stat(&g->stat[0][0], 100, 10, 50, 1000, 5, 7, 1, 0);
	rig_stat(&g->stat[1][0], 160, 20, 80, 1040, 25, 37, 7, 4);
	/* CPU 1: user and iowait went backwards (count 0); 50 idle, 25 irq,
	 * 25 softirq: 100 ticks */
	rig_stat(&g->stat[0][1], 500, 0, 0, 100, 9, 0, 0, 0);
	rig_stat(&g->stat[1][1], 400, 0, 0, 150, 3, 25, 25, 0);
	/* CPU 2: no line in prev */
	rig_stat(&g->stat[1][2], 1, 1, 1, 1, 1, 1, 1, 1);
	/* CPU 3: no tick at all */
	rig_stat(&g->stat[0][3], 5, 5, 5, 5, 5, 5, 5, 5);
	rig_stat(&g->stat[1][3], 5, 5, 5, 5, 5, 5, 5, 5);

	memcpy(g->softirq[0], (uint64_t[]){ 100, 200, 300, 400 }, sizeof(g->softirq[0]));
	memcpy(g->softirq[1], (uint64_t[]){ 140, 150, 301, 400 }, sizeof(g->softirq[1]));

	/* irq_count[i * ncpu + cpu]: IRQ 35 on CPU 0, IRQ 36 on CPUs 2 and 3 */
	g->irqc[0][0] = 10, g->irqc[1][0] = 30;
	g->irqc[0][RIG_NCPU + 2] = 100, g->irqc[1][RIG_NCPU + 2] = 90; /* backwards */
	g->irqc[0][RIG_NCPU + 3] = 5, g->irqc[1][RIG_NCPU + 3] = 11;
	snprintf(g->s[0].cpus.effective[0], 64, "2"); /* prev's affinity is not read */
	snprintf(g->s[1].cpus.effective[0], 64, "0-1");
	snprintf(g->s[1].cpus.effective[1], 64, "3");

	/* traced, two devices: prev and cur */
	rig_trace(g, 0, RIG_NCPU, 0, 0, 10, 10), rig_trace(g, 1, RIG_NCPU, 0, 0, 30, 28);
	rig_trace(g, 0, RIG_NCPU, 1, 0, 5, 4), rig_trace(g, 1, RIG_NCPU, 1, 0, 9, 8);
	rig_trace(g, 0, RIG_NCPU, 0, 1, 100, 50), rig_trace(g, 1, RIG_NCPU, 0, 1, 100, 60);
	rig_trace(g, 0, RIG_NCPU, 1, 1, 0, 0), rig_trace(g, 1, RIG_NCPU, 1, 1, 6, 0);
	rig_trace(g, 0, RIG_NCPU, 0, 2, 0, 0), rig_trace(g, 1, RIG_NCPU, 0, 2, 8, 8);
	rig_trace(g, 0, RIG_NCPU, 0, 3, 0, 20), rig_trace(g, 1, RIG_NCPU, 0, 3, 0, 10);
	rig_trace(g, 0, RIG_NCPU, 1, 3, 0, 0), rig_trace(g, 1, RIG_NCPU, 1, 3, 0, 4);
}

/* The rows from prev g->s[0] to cur g->s[1]. */
static void rig_rows(const struct rig *g, const struct trace_metrics *tm, struct cpus_metrics *m)
{
	ck_assert_int_eq(model_cpus(&g->s[0], &g->s[1], tm, m), 0);
}

#define NEAR(x, want) ck_assert_msg(fabs((x) - (want)) < 1e-9, "%s = %g, want %g", #x, (double)(x), (double)(want))

START_TEST(cpu_rows_by_hand)
{
	struct rig g;
	struct cpus_metrics m = { 0 };
	struct trace_cpu dcpu[3] = { { .issued = 4, .completed = 6 }, { .issued = 2, .completed = 1 },
				     { .issued = 10, .completed = 12 } };
	struct trace_metrics tm = { .path = TRACE_PATH_RQ, .ncpu = 3, .nmat = 2, .cpu = dcpu };
	const struct cpu_row *r;

	rig_init(&g);
	rig_rows(&g, &tm, &m);
	ck_assert(m.valid);
	ck_assert_uint_eq(m.ncpu, RIG_NCPU);
	ck_assert_uint_eq(m.cap, RIG_NCPU);
	ck_assert_str_eq(m.dev, "vdb");
	ck_assert_uint_eq(m.nirq, 2);
	ck_assert_str_eq(m.irqs, "35,36");

	r = &m.row[0];
	NEAR(r->irq_pct, 30 * 100.0 / 200);    /* 15 % */
	NEAR(r->softirq_pct, 6 * 100.0 / 200); /* 3 % */
	NEAR(r->iowait_pct, 20 * 100.0 / 200); /* 10 % */
	NEAR(r->block_softirq_s, 40 / 2.0);
	NEAR(r->dev_irq_s, 20 / 2.0);
	ck_assert(r->in_affinity);
	NEAR(r->dev_issued_s, 4 / 2.0);
	NEAR(r->dev_completed_s, 6 / 2.0);
	NEAR(r->all_issued_s, ((30 + 9) - (10 + 5)) / 2.0);
	NEAR(r->all_completed_s, ((28 + 8) - (10 + 4)) / 2.0);

	r = &m.row[1];
	NEAR(r->irq_pct, 25.0); /* 25 of 100: the backward user ticks count 0 */
	NEAR(r->softirq_pct, 25.0);
	NEAR(r->iowait_pct, 0.0);
	NEAR(r->block_softirq_s, 0.0); /* 200 -> 150: backwards */
	NEAR(r->dev_irq_s, 0.0);
	ck_assert(r->in_affinity); /* "0-1" ends at 1 */
	NEAR(r->dev_issued_s, 2 / 2.0);
	NEAR(r->dev_completed_s, 1 / 2.0);
	NEAR(r->all_issued_s, (106 - 100) / 2.0);
	NEAR(r->all_completed_s, (60 - 50) / 2.0);

	r = &m.row[2];
	ck_assert(isnan(r->irq_pct) && isnan(r->softirq_pct) && isnan(r->iowait_pct)); /* prev had no line */
	NEAR(r->block_softirq_s, 1 / 2.0);
	NEAR(r->dev_irq_s, 0.0); /* 100 -> 90: backwards */
	ck_assert(!r->in_affinity);
	ck_assert(isnan(r->dev_issued_s)); /* request-based, CPU 2 >= nmat 2 */
	NEAR(r->dev_completed_s, 12 / 2.0);
	ck_assert(isnan(r->all_issued_s)); /* CPU 2 >= the trace's nmat 2 */
	NEAR(r->all_completed_s, 8 / 2.0);

	r = &m.row[3];
	ck_assert(r->irq_pct == 0 && r->softirq_pct == 0 && r->iowait_pct == 0); /* no tick: 0, not NAN */
	NEAR(r->block_softirq_s, 0.0);
	NEAR(r->dev_irq_s, 6 / 2.0);
	ck_assert(r->in_affinity);
	ck_assert(isnan(r->dev_issued_s) && isnan(r->dev_completed_s)); /* CPU 3 >= dev_tm ncpu 3 */
	ck_assert(isnan(r->all_issued_s));
	NEAR(r->all_completed_s, 4 / 2.0); /* device 0 went back (20 -> 10): 0; device 1's 4 stay */

	/* bio-based: every CPU below the device's ncpu has issues */
	tm.path = TRACE_PATH_BIO;
	rig_rows(&g, &tm, &m);
	NEAR(m.row[2].dev_issued_s, 10 / 2.0);
	NEAR(m.row[0].dev_issued_s, 4 / 2.0);
	ck_assert(isnan(m.row[3].dev_issued_s));

	/* an interval under a second */
	g.s[1].t = 10.5;
	rig_rows(&g, NULL, &m);
	ck_assert(m.valid);
	NEAR(m.row[0].block_softirq_s, 40 / 0.5);
	NEAR(m.row[0].all_completed_s, 22 / 0.5);
	ck_assert(isnan(m.row[0].dev_issued_s) && isnan(m.row[0].dev_completed_s)); /* no dev_tm */
	g.s[1].t = 12.0;

	/* one sample without per-CPU ticks: no percentages */
	g.s[1].cpus.have_stat = false;
	rig_rows(&g, NULL, &m);
	ck_assert(isnan(m.row[0].irq_pct) && isnan(m.row[1].softirq_pct) && isnan(m.row[3].iowait_pct));
	g.s[1].cpus.have_stat = true;
	g.s[0].cpus.have_stat = false;
	rig_rows(&g, NULL, &m);
	ck_assert(isnan(m.row[0].irq_pct) && isnan(m.row[1].softirq_pct) && isnan(m.row[3].iowait_pct));
	g.s[0].cpus.have_stat = true;

	/* traces with different CPU counts, or one untraced: no traced figures */
	g.s[0].trace.ncpu = 3;
	rig_rows(&g, NULL, &m);
	ck_assert(isnan(m.row[0].all_issued_s) && isnan(m.row[0].all_completed_s));
	ck_assert(isnan(m.row[1].all_completed_s));
	g.s[0].trace.ncpu = RIG_NCPU;
	g.s[1].traced = false;
	rig_rows(&g, NULL, &m);
	ck_assert(isnan(m.row[0].all_completed_s));
	g.s[1].traced = true;
	g.s[0].traced = false;
	rig_rows(&g, NULL, &m);
	ck_assert(isnan(m.row[0].all_completed_s));
	g.s[0].traced = true;

	/* a different IRQ set: no IRQ figures, an empty list */
	g.s[0].cpus.irq[1] = 37;
	rig_rows(&g, NULL, &m);
	ck_assert_uint_eq(m.nirq, 0);
	ck_assert_str_eq(m.irqs, "");
	ck_assert(m.row[0].dev_irq_s == 0 && !m.row[0].in_affinity && !m.row[3].in_affinity);
	g.s[0].cpus.nirq = 1; /* and a different count */
	g.s[0].cpus.irq[1] = 36;
	rig_rows(&g, NULL, &m);
	ck_assert_uint_eq(m.nirq, 0);
	g.s[0].cpus.nirq = 2;

	model_cpus_free(&m);
	ck_assert(m.row == NULL && m.cap == 0 && m.ncpu == 0 && !m.valid && m.nirq == 0);
	/* and usable again after free */
	rig_rows(&g, NULL, &m);
	ck_assert(m.valid && m.cap == RIG_NCPU);
	NEAR(m.row[0].dev_irq_s, 10.0);
	model_cpus_free(&m);
}
END_TEST

/* A trace that counts fewer CPUs than the CPU view: the CPUs past it have no
 * traced figures of their own (completions 0, issues unknown). */
START_TEST(cpu_rows_short_trace)
{
	struct rig g;
	struct cpus_metrics m = { 0 };

	rig_init(&g);
	memset(g.tcpu, 0, sizeof(g.tcpu));
	for (int k = 0; k < 2; k++) {
		g.s[k].trace.ncpu = 3;
		g.s[k].trace.nmat = 3;
	}
	rig_trace(&g, 0, 3, 0, 2, 1, 2), rig_trace(&g, 1, 3, 0, 2, 5, 8);
	rig_trace(&g, 0, 3, 1, 0, 1, 1), rig_trace(&g, 1, 3, 1, 0, 9, 9);
	rig_trace(&g, 0, 3, 2, 0, 0, 0), rig_trace(&g, 1, 3, 2, 0, 100, 100); /* no device's */
	rig_rows(&g, NULL, &m);
	NEAR(m.row[0].all_issued_s, 8 / 2.0);
	NEAR(m.row[0].all_completed_s, 8 / 2.0);
	NEAR(m.row[2].all_issued_s, 4 / 2.0); /* CPU 2 < nmat 3 */
	NEAR(m.row[2].all_completed_s, 6 / 2.0);
	ck_assert(isnan(m.row[3].all_issued_s));
	ck_assert(isnan(m.row[3].all_completed_s)); /* past the tracer's CPUs */
	model_cpus_free(&m);
}
END_TEST

/* All devices' figures are each device's own difference: a disk replaced
 * behind the same dev_t (a loop device detached and attached again: new
 * diskseq, counters from zero) or gone since prev takes nothing from the
 * other devices' interval. Measured before: with a loop device reattached
 * while another ran at 2000 requests/s, the CPU view showed all_iss and
 * all_cmp 0 on both CPUs for that interval (BLOCK softirqs 541 and 1467). */
START_TEST(cpu_rows_device_replaced)
{
	struct rig g;
	struct cpus_metrics m = { 0 };

	rig_init(&g);
	memset(g.tcpu, 0, sizeof(g.tcpu));
	/* device 0: 8000 completions on CPU 0 of the old disk, then 3 of the new one */
	g.tdev[0][0].seq = 7, g.tdev[1][0].seq = 9;
	rig_trace(&g, 0, RIG_NCPU, 0, 0, 8000, 8000), rig_trace(&g, 1, RIG_NCPU, 0, 0, 3, 3);
	/* device 1: 100 -> 300 on CPU 0, the same disk */
	g.tdev[0][1].seq = g.tdev[1][1].seq = 4;
	rig_trace(&g, 0, RIG_NCPU, 1, 0, 100, 100), rig_trace(&g, 1, RIG_NCPU, 1, 0, 300, 300);
	rig_rows(&g, NULL, &m);
	NEAR(m.row[0].all_issued_s, (3 + 200) / 2.0);
	NEAR(m.row[0].all_completed_s, (3 + 200) / 2.0);

	/* device 0 gone from cur: device 1 (now cur's only device) keeps its 200 */
	g.s[1].trace.ndevs = 1;
	g.tdev[1][0] = g.tdev[1][1];
	memcpy(&g.tcpu[1][0], &g.tcpu[1][RIG_NCPU], RIG_NCPU * sizeof(g.tcpu[1][0]));
	rig_rows(&g, NULL, &m);
	NEAR(m.row[0].all_completed_s, 200 / 2.0);
	NEAR(m.row[0].all_issued_s, 200 / 2.0);
	model_cpus_free(&m);
}
END_TEST

START_TEST(cpu_rows_invalid)
{
	struct rig g;
	struct cpus_metrics m = { 0 };

	rig_init(&g);
	rig_rows(&g, NULL, &m);
	ck_assert(m.valid);
	g.s[1].t = 10.0; /* no time passed */
	rig_rows(&g, NULL, &m);
	ck_assert(!m.valid);
	g.s[1].t = 9.0; /* time went back */
	rig_rows(&g, NULL, &m);
	ck_assert(!m.valid);
	g.s[1].t = 12.0;
	g.s[0].cpus.ncpu = 3; /* CPU count changed */
	rig_rows(&g, NULL, &m);
	ck_assert(!m.valid);
	g.s[0].cpus.ncpu = RIG_NCPU;
	g.s[0].cpus.valid = false;
	rig_rows(&g, NULL, &m);
	ck_assert(!m.valid);
	g.s[0].cpus.valid = true;
	g.s[1].cpus.valid = false;
	rig_rows(&g, NULL, &m);
	ck_assert(!m.valid);
	g.s[1].cpus.valid = true;
	rig_rows(&g, NULL, &m);
	ck_assert(m.valid);
	model_cpus_free(&m);
}
END_TEST

/* The IRQ list: joined with ',', cut at the last IRQ that fits whole. */
START_TEST(cpu_irq_list)
{
	struct rig g;
	struct cpus_metrics m = { 0 };
	char want[sizeof(m.irqs)] = "";

	rig_init(&g);
	for (int k = 0; k < 2; k++) {
		g.s[k].cpus.nirq = SAMPLE_IRQ_MAX;
		for (unsigned i = 0; i < SAMPLE_IRQ_MAX; i++)
			g.s[k].cpus.irq[i] = 4000000000u + i;
	}
	/* ten digits, then eleven with the comma: eight make 87 characters,
	 * a ninth would need 98 of the 96 */
	for (unsigned i = 0; i < 8; i++)
		snprintf(want + strlen(want), sizeof(want) - strlen(want), "%s%u", i ? "," : "", 4000000000u + i);
	ck_assert_uint_eq(strlen(want), 87);
	rig_rows(&g, NULL, &m);
	ck_assert_uint_eq(m.nirq, SAMPLE_IRQ_MAX);
	ck_assert_str_eq(m.irqs, want);
	/* a ninth of eight digits needs 9 + 1 bytes of the 9 left: cut */
	for (int k = 0; k < 2; k++)
		g.s[k].cpus.irq[8] = 40000000u;
	rig_rows(&g, NULL, &m);
	ck_assert_str_eq(m.irqs, want);
	/* one of seven digits fills the list to 95 characters and its NUL;
	 * the tenth is cut */
	for (int k = 0; k < 2; k++)
		g.s[k].cpus.irq[8] = 4000000u;
	strcat(want, ",4000000");
	ck_assert_uint_eq(strlen(want), sizeof(m.irqs) - 1);
	rig_rows(&g, NULL, &m);
	ck_assert_str_eq(m.irqs, want);
	/* then a short list replaces it whole */
	for (int k = 0; k < 2; k++) {
		g.s[k].cpus.nirq = 3;
		g.s[k].cpus.irq[0] = 7;
		g.s[k].cpus.irq[1] = 120;
		g.s[k].cpus.irq[2] = 5;
	}
	rig_rows(&g, NULL, &m);
	ck_assert_str_eq(m.irqs, "7,120,5");
	model_cpus_free(&m);
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
	tcase_add_test(tc, cpulist_edges);
	tcase_add_test(tc, cpu_rows_by_hand);
	tcase_add_test(tc, cpu_rows_short_trace);
	tcase_add_test(tc, cpu_rows_device_replaced);
	tcase_add_test(tc, cpu_rows_invalid);
	tcase_add_test(tc, cpu_irq_list);
	suite_add_tcase(s, tc);
	return s;
}
