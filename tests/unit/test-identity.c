/* A device's identity is dev_t, name and diskseq: a loop device detached and
 * attached again (same name, same number, new diskseq) must never get a rate,
 * a sparkline point or an A/B interval across the old and the new counters. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "diskseq.h"
#include "history.h"
#include "model.h"
#include "root.h"
#include "sampler.h"
#include "series.h"
#include "unit.h"

static const struct disk_metrics *find(const struct disk_metrics *m, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(m[i].name, name))
			return &m[i];
	ck_abort_msg("no %s", name);
	return NULL;
}

/* Both captures of live-vm through the whole sampler (diskstats + sysfs). */
static void take(const char *root_dir, double t, struct sample *s)
{
	struct sampler *sp;
	struct root *r;

	ck_assert_int_eq(root_open(root_dir, &r), 0);
	ck_assert_int_eq(sampler_open(r, SAMPLER_NO_TRACE, &sp), 0);
	sample_init(s);
	ck_assert_int_eq(sampler_take(sp, s), 0);
	s->t = t;
	sampler_close(sp);
	root_close(r);
}

START_TEST(diskseq_read_from_fixture)
{
	struct root *r;
	unsigned long long seq = 0;

	ck_assert_int_eq(root_open(unit_fixture("live-vm/t0"), &r), 0);
	ck_assert_int_eq(diskseq_read(r, "loop1", &seq), 0);
	ck_assert_uint_eq(seq, 12);
	ck_assert_int_eq(diskseq_read(r, "nosuchdisk", &seq), -ENOENT);
	root_close(r);
	/* A tree from a kernel without diskseq (before 5.15). */
	ck_assert_int_eq(root_open(unit_fixture("nvme"), &r), 0);
	ck_assert_int_eq(diskseq_read(r, "nvme0n1", &seq), -ENOENT);
	root_close(r);
}
END_TEST

/* live-vm t0 -> t1: loop1 read 4096 requests. Same name and number in t1,
 * another diskseq: a re-attached device, so no rate; vda keeps its rate. */
START_TEST(same_name_other_diskseq_gets_no_rate)
{
	char *dir = unit_fixture_copy("live-vm"), t0[4200], t1[4200], path[4300];
	struct disk_metrics m[16];
	struct sample s0, s1;
	const struct disk_metrics *d;

	snprintf(t0, sizeof(t0), "%s/t0", dir);
	snprintf(t1, sizeof(t1), "%s/t1", dir);
	take(t0, 100.0, &s0);
	take(t1, 107.53, &s1);
	ck_assert_uint_le(s1.ndisks, 16);
	model_disks(&s0, &s1, m);
	d = find(m, s1.ndisks, "loop1");
	ck_assert_uint_eq(d->info->diskseq, 12);
	ck_assert_int_eq(d->state, DISK_OK); /* control: the same device has a rate */
	ck_assert_uint_eq(d->d_rd_ios, 4096);
	sample_free(&s1);

	snprintf(path, sizeof(path), "%s/sys/devices/virtual/block/loop1/diskseq", t1);
	unit_write_file(path, "15\n");
	take(t1, 107.53, &s1);
	model_disks(&s0, &s1, m);
	d = find(m, s1.ndisks, "loop1");
	ck_assert_uint_eq(d->info->diskseq, 15);
	ck_assert_int_eq(d->state, DISK_NEW);
	ck_assert(d->r_s == 0 && d->d_rd_ios == 0);
	ck_assert_int_eq(find(m, s1.ndisks, "vda")->state, DISK_OK);
	sample_free(&s0);
	sample_free(&s1);
	unit_rmtree(dir);
	free(dir);
}
END_TEST

/* One sampler kept open over the tree while loop1 is re-attached: the kept
 * diskseq fd sees the new number at the very next sample. */
START_TEST(running_sampler_sees_the_reattach)
{
	char *dir = unit_fixture_copy("live-vm"), root_dir[4200], path[4300], cmd[9000];
	struct disk_metrics m[16];
	struct sample prev, cur;
	struct sampler *sp;
	struct root *r;
	const struct disk_metrics *d;

	snprintf(root_dir, sizeof(root_dir), "%s/t0", dir);
	ck_assert_int_eq(root_open(root_dir, &r), 0);
	ck_assert_int_eq(sampler_open(r, SAMPLER_NO_TRACE, &sp), 0);
	sample_init(&prev);
	sample_init(&cur);
	ck_assert_int_eq(sampler_take(sp, &prev), 0);
	/* Counters grow as in t1, and loop1 has a new diskseq. */
	snprintf(cmd, sizeof(cmd), "cp '%s/t1/proc/diskstats' '%s/proc/diskstats'", dir, root_dir);
	ck_assert_int_eq(system(cmd), 0);
	snprintf(path, sizeof(path), "%s/sys/devices/virtual/block/loop1/diskseq", root_dir);
	unit_write_file(path, "13\n");
	ck_assert_int_eq(sampler_take(sp, &cur), 0);
	model_disks(&prev, &cur, m);
	d = find(m, cur.ndisks, "loop1");
	ck_assert_uint_eq(d->info->diskseq, 13);
	ck_assert_int_eq(d->state, DISK_NEW);
	ck_assert_int_eq(find(m, cur.ndisks, "vda")->state, DISK_OK);
	/* The next interval is the new device's own: a rate again. */
	sample_swap(&prev, &cur);
	ck_assert_int_eq(sampler_take(sp, &cur), 0);
	model_disks(&prev, &cur, m);
	ck_assert_int_eq(find(m, cur.ndisks, "loop1")->state, DISK_OK);
	sample_free(&prev);
	sample_free(&cur);
	sampler_close(sp);
	root_close(r);
	unit_rmtree(dir);
	free(dir);
}
END_TEST

static void interval(struct disk_metrics *m, unsigned long long seq, double r_s)
{
	memset(m, 0, sizeof(*m));
	unit_row_info(m);
	m->dev = makedev(7, 1);
	strcpy(m->name, "loop1");
	UNIT_INFO(m)->diskseq = seq;
	m->state = DISK_OK;
	m->interval = 1.0;
	m->r_s = r_s;
	m->rmb_s = r_s / 16;
	m->t_lat_avg_us = m->t_lat_p99_us = m->t_same_cpu_pct = m->ra_hit_pct = NAN;
}

/* Three intervals of the old device, then the new one appears (its first
 * sample is DISK_NEW) and has two: its window holds those two only. */
START_TEST(series_and_history_restart_on_new_diskseq)
{
	struct series *se;
	struct history *h;
	struct series_window w;
	struct disk_metrics m;
	float mb[HISTORY_POINTS], io[HISTORY_POINTS];
	unsigned long long seq;
	const char *name;
	double t = 10;
	dev_t dev;

	ck_assert_int_eq(series_new(30, &se), 0);
	ck_assert_int_eq(history_new(&h), 0);
	for (int i = 0; i < 3; i++) {
		interval(&m, 1636, 1000);
		ck_assert_int_eq(series_add(se, &m, 1, t++), 0);
		ck_assert_int_eq(history_add(h, &m, 1), 0);
	}
	interval(&m, 1639, 0);
	m.state = DISK_NEW;
	ck_assert_int_eq(series_add(se, &m, 1, t++), 0);
	ck_assert_int_eq(history_add(h, &m, 1), 0);
	for (int i = 0; i < 2; i++) {
		interval(&m, 1639, 450);
		ck_assert_int_eq(series_add(se, &m, 1, t++), 0);
		ck_assert_int_eq(history_add(h, &m, 1), 0);
	}
	series_window_init(&w);
	ck_assert_int_eq(series_window_get(se, makedev(7, 1), "loop1", &w), 0);
	ck_assert_uint_eq(w.n, 2);
	ck_assert(w.st[COLUMN_R_S].min == 450 && w.st[COLUMN_R_S].max == 450);
	ck_assert_uint_eq(series_count(se), 1);
	series_device(se, 0, &dev, &name, &seq);
	ck_assert_uint_eq(seq, 1639);
	ck_assert_int_eq(history_get(h, makedev(7, 1), "loop1", mb, io), 2);
	ck_assert(io[0] == 450 && io[1] == 450);
	series_window_free(&w);
	series_free(se);
	history_free(h);
}
END_TEST

/* A partition deleted and added again keeps name, number and diskseq (its
 * disk's); source-queue counts the re-creation up in info.generation, and
 * nothing spans the two: no rate, sparkline point or A/B interval. */
START_TEST(another_generation_is_another_device)
{
	struct disk_sample a, b;
	struct disk_metrics m;
	struct series *se;
	struct history *h;
	struct series_window w;
	float mb[HISTORY_POINTS], io[HISTORY_POINTS];
	double t = 10;

	memset(&a, 0, sizeof(a));
	a.st.dev = makedev(259, 2);
	strcpy(a.st.name, "loop2p1");
	a.st.nfields = 20;
	a.st.rd_ios = 1000;
	a.info.diskseq = 148082;
	a.info.kind = DISK_KIND_PARTITION;
	a.info.text = &disk_text_none;
	b = a;
	b.st.rd_ios = 3000;
	model_disk(&a, &b, 1.0, &m);
	ck_assert_int_eq(m.state, DISK_OK); /* the same device: 2000 reads */
	b.info.generation = 1;
	ck_assert(!sample_same_disk(&a, &b));
	model_disks(&(struct sample){ .disks = &a, .ndisks = 1, .t = 1 }, &(struct sample){ .disks = &b, .ndisks = 1, .t = 2 },
		    &m);
	ck_assert_int_eq(m.state, DISK_NEW);

	ck_assert_int_eq(series_new(30, &se), 0);
	ck_assert_int_eq(history_new(&h), 0);
	for (int i = 0; i < 3; i++) {
		interval(&m, 148082, 1000);
		ck_assert_int_eq(series_add(se, &m, 1, t++), 0);
		ck_assert_int_eq(history_add(h, &m, 1), 0);
	}
	interval(&m, 148082, 450);
	UNIT_INFO(&m)->generation = 1;
	ck_assert_int_eq(series_add(se, &m, 1, t++), 0);
	ck_assert_int_eq(history_add(h, &m, 1), 0);
	series_window_init(&w);
	ck_assert_int_eq(series_window_get(se, makedev(7, 1), "loop1", &w), 0);
	ck_assert_uint_eq(w.n, 1);
	ck_assert_int_eq(history_get(h, makedev(7, 1), "loop1", mb, io), 1);
	ck_assert(io[0] == 450);
	series_window_free(&w);
	series_free(se);
	history_free(h);
}
END_TEST

UNIT_SUITE(identity_suite)
static Suite *identity_suite(void)
{
	Suite *s = suite_create("identity");
	TCase *tc = tcase_create("identity");

	tcase_add_test(tc, diskseq_read_from_fixture);
	tcase_add_test(tc, same_name_other_diskseq_gets_no_rate);
	tcase_add_test(tc, running_sampler_sees_the_reattach);
	tcase_add_test(tc, series_and_history_restart_on_new_diskseq);
	tcase_add_test(tc, another_generation_is_another_device);
	tcase_set_timeout(tc, 60); /* fixture copies on a busy machine */
	suite_add_tcase(s, tc);
	return s;
}
