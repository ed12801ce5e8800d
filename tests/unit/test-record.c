/* Unit tests of record-codec, record and record-read: a sample survives
 * flattening, delta encoding, a file and a reader bit for bit; deltas of an
 * idle or lightly moving sample stay small; a torn tail, a bad checksum, a
 * wrong version, junk and malformed payloads are refused or cut off cleanly. */
#include "unit.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "crc32c.h"
#include "record-codec.h"
#include "record-read.h"
#include "record.h"
#include "sample.h"

/* Every count of c set, each to its own value; one in eight moves
 * steadily with k (as a few latency buckets and an op's counts do). */
static void fill_counts(struct proc_counts *c, uint64_t base, unsigned k)
{
	uint64_t *w[2 * PROC_OPS + PROC_LAT_BUCKETS + 2];
	size_t n = 0;

	for (int op = 0; op < PROC_OPS; op++) {
		w[n++] = &c->requests[op];
		w[n++] = &c->bytes[op];
	}
	for (int b = 0; b < PROC_LAT_BUCKETS; b++)
		w[n++] = &c->lat[b];
	w[n++] = &c->done;
	w[n++] = &c->lat_sum_ns;
	for (size_t i = 0; i < n; i++)
		*w[i] = base + 1000 * i + (i % 8 ? 0 : (i + 1) * k);
}

/* --trace-processes' requests: pid 101 on one device, pid 102 on two,
 * two cgroups and the losses of one device, some counts moving with k. */
/* (Failures only: Check sends a message for every assertion that passes,
 * and a test that makes hundreds of samples would send thousands.) */
static void make_traced(struct proc_sample *ps, unsigned k)
{
	struct proc_trace *t;
	struct proc_cgtrace *c;
	struct proc_loss *l;

	ps->traced = true;
	ps->skipped = 3;
	ps->not_kept = k;
	for (unsigned i = 0; i < 3; i++) {
		if (!(t = proc_sample_add_trace(ps, i ? 102 : 101, makedev(7, i == 1))))
			ck_abort_msg("no memory");
		t->cgroup_id = 55;
		t->gone = i == 2; /* its process exited: its last counts */
		snprintf(t->comm, sizeof(t->comm), "fio%u", i);
		fill_counts(&t->c, 100000 * (i + 1), k);
	}
	for (unsigned i = 0; i < 2; i++) {
		if (!(c = proc_sample_add_cgtrace(ps, 55 - 54 * i, makedev(7, 1))))
			ck_abort_msg("no memory");
		fill_counts(&c->c, 500000 * (i + 1), k);
	}
	c->c.lat[3] = UINT64_MAX - 2 + k; /* wraps: exact anyway */
	if (!(l = proc_sample_add_loss(ps, makedev(7, 1))))
		ck_abort_msg("no memory");
	l->no_start = k;
	proc_sample_sort_traced(ps);
}

/* A sample with every part filled: disks with strings, per-CPU detail,
 * traced counters with a matrix, readahead, cgroups, temperatures,
 * processes and their traced requests. */
static void make_sample(struct sample *s, unsigned k)
{
	sample_clear(s);
	s->t = 1000.25 + k;
	s->wall.tv_sec = 1764633600 + k;
	s->wall.tv_nsec = 123456789;
	s->uptime = 5000.5 + k;
	for (unsigned i = 0; i < 3; i++) {
		struct disk_sample *d = sample_add_disk(s);
		ck_assert_ptr_nonnull(d);
		d->st.dev = makedev(7, i);
		snprintf(d->st.name, sizeof(d->st.name), "loop%u", i);
		d->st.nfields = 20;
		d->st.rd_ios = 1000 + (i == 1 ? 100 * k : 0);
		d->st.rd_sectors = 80000 + (i == 1 ? 800 * k : 0);
		d->st.wr_ticks = UINT64_MAX - 5 + k; /* wraps: deltas are modulo 2^64 */
		d->info.diskseq = 40 + i;
		d->info.generation = i == 2 ? 3 : 0; /* loop2 re-created twice under one diskseq */
		d->info.read_ahead_kb = i == 2 ? SAMPLE_ABSENT : 128;
		d->info.nr_hw_queues = -1;
		snprintf(d->info.scheduler, sizeof(d->info.scheduler), "%s", k >= 2 && i == 0 ? "none" : "mq-deadline");
		ck_assert_int_eq(disk_text_own(&d->info.text), 0);
		snprintf(d->info.text->backing, sizeof(d->info.text->backing), "/var/tmp/img%u", i);
	}
	s->cpu.valid = true;
	s->cpu.user = 100 + k;
	s->mem.valid = true;
	s->mem.total_kb = 8 << 20;
	s->ntemps = 1;
	snprintf(s->temps[0].label, sizeof(s->temps[0].label), "Package id 0");
	s->temps[0].celsius = 41.5;
	ck_assert_int_eq(sample_cpus_reserve(&s->cpus, 2), 0);
	s->cpus.valid = s->cpus.have_stat = true;
	s->cpus.stat[1].idle = 77 + k;
	s->cpus.block_softirq[0] = 9;
	s->cpus.nirq = 2;
	s->cpus.irq[1] = 33;
	snprintf(s->cpus.irq_dev, sizeof(s->cpus.irq_dev), "nvme0n1");
	snprintf(s->cpus.effective[1], sizeof(s->cpus.effective[1]), "0-1");
	s->cpus.irq_count[3] = 5 + k;
	s->traced = true;
	ck_assert_int_eq(trace_sample_resize(&s->trace, 2, 2), 0);
	s->trace.devs[0].dev = makedev(7, 0);
	s->trace.devs[1].dev = makedev(7, 1);
	s->trace.devs[1].path = TRACE_PATH_BIO;
	s->trace.devs[1].tot.lat[7] = 10 * k;
	s->trace.devs[1].tot.size_count[1][3] = 3 * k;
	s->trace.devs[1].tot.dlat[2][5] = 4;
	s->trace.cpu[3].completed = 2 * k;
	s->trace.matrix[7] = k;
	s->trace.missed = 1;
	s->ra_valid = true;
	ck_assert_int_eq(ra_sample_resize(&s->ra, 1), 0);
	s->ra.page_size = 4096;
	s->ra.devs[0].dev = makedev(7, 1);
	s->ra.devs[0].c.hit = 500 + k;
	s->ra.devs[0].c.win_hist[4] = 2;
	s->cg.valid = true;
	s->cg.version = 2;
	s->cg.t = 999.5;
	snprintf(s->cg.mount, sizeof(s->cg.mount), "sys/fs/cgroup");
	ck_assert_ptr_nonnull(cgroup_sample_add_group(&s->cg, 1, "/", 0));
	ck_assert_ptr_nonnull(cgroup_sample_add_group(&s->cg, 55, "/system.slice", 1));
	struct cgroup_io *io = cgroup_sample_add_io(&s->cg, makedev(7, 1), CGROUP_COUNTER_V2);
	ck_assert_ptr_nonnull(io);
	io->rbytes = 4096 * k;
	s->procs.valid = true;
	s->procs.t = 999.75;
	for (pid_t pid = 100; pid < 103; pid++) {
		struct proc_entry *e = proc_sample_add(&s->procs, pid, 5000 + (uint64_t)pid);
		ck_assert_ptr_nonnull(e);
		snprintf(e->comm, sizeof(e->comm), "fio");
		snprintf(e->cmdline, sizeof(e->cmdline), "fio --name=p%d", (int)pid);
		e->rbytes = (uint64_t)pid * k;
	}
	make_traced(&s->procs, k);
}

static bool same_counts(const struct proc_counts *a, const struct proc_counts *b)
{
	return !memcmp(a->requests, b->requests, sizeof(a->requests)) && !memcmp(a->bytes, b->bytes, sizeof(a->bytes)) &&
	       !memcmp(a->lat, b->lat, sizeof(a->lat)) && a->done == b->done && a->lat_sum_ns == b->lat_sum_ns;
}

/* The traced requests per process and cgroup field by field, not through
 * the walk that wrote them (a field it leaves out is missed both ways):
 * what differs first, NULL when nothing does. One assertion per sample,
 * not one per field (Check sends a message for each that passes). */
static const char *traced_differ(const struct proc_sample *a, const struct proc_sample *b)
{
	if (a->traced != b->traced)
		return "traced";
	if (!a->traced)
		return NULL;
	if (a->skipped != b->skipped || a->not_kept != b->not_kept)
		return "skipped or not kept";
	if (a->ntr != b->ntr || a->ncg != b->ncg || a->nloss != b->nloss)
		return "a count of pairs or losses";
	for (size_t i = 0; i < a->ntr; i++)
		if (a->tr[i].tgid != b->tr[i].tgid || a->tr[i].dev != b->tr[i].dev ||
		    a->tr[i].cgroup_id != b->tr[i].cgroup_id || strcmp(a->tr[i].comm, b->tr[i].comm) ||
		    a->tr[i].gone != b->tr[i].gone ||
		    !same_counts(&a->tr[i].c, &b->tr[i].c))
			return "a (process, device) pair";
	for (size_t i = 0; i < a->ncg; i++)
		if (a->cg[i].cgroup_id != b->cg[i].cgroup_id || a->cg[i].dev != b->cg[i].dev ||
		    !same_counts(&a->cg[i].c, &b->cg[i].c))
			return "a (cgroup, device) pair";
	for (size_t i = 0; i < a->nloss; i++)
		if (a->loss[i].dev != b->loss[i].dev || a->loss[i].no_start != b->loss[i].no_start)
			return "a device's loss";
	return NULL;
}

/* Two samples are the same when they flatten to the same lists (and
 * their traced requests per process and cgroup are). */
static void assert_same(const struct sample *a, const struct sample *b)
{
	struct record_flat fa, fb;

	const char *differ = traced_differ(&a->procs, &b->procs);

	ck_assert_msg(!differ, "traced per process: %s differs", differ);
	/* and the traced counters field by field: one the walk left out both
	 * ways would flatten the same */
	ck_assert_int_eq(a->traced, b->traced);
	ck_assert_uint_eq(a->trace.ndevs, b->trace.ndevs);
	for (size_t i = 0; a->traced && i < a->trace.ndevs; i++)
		ck_assert_msg(!memcmp(&a->trace.devs[i].tot, &b->trace.devs[i].tot, sizeof(a->trace.devs[i].tot)),
			      "traced device %zu's counters differ", i);

	record_flat_init(&fa);
	record_flat_init(&fb);
	ck_assert_int_eq(record_flatten(a, &fa), 0);
	ck_assert_int_eq(record_flatten(b, &fb), 0);
	ck_assert_uint_eq(fa.nw, fb.nw);
	ck_assert_uint_eq(fa.ns, fb.ns);
	ck_assert_int_eq(memcmp(fa.w, fb.w, fa.nw * sizeof(*fa.w)), 0);
	ck_assert_uint_eq(fa.nsb, fb.nsb);
	ck_assert_int_eq(memcmp(fa.sb, fb.sb, fa.nsb), 0);
	record_flat_free(&fa);
	record_flat_free(&fb);
}

/* Sample i of r is make_sample(k[i]), for each of the n; the reader is
 * closed after. */
static void assert_replays(struct record_reader *r, const unsigned *k, size_t n)
{
	struct sample want, got;

	sample_init(&want);
	sample_init(&got);
	while (n-- > 0) {
		make_sample(&want, k[n]);
		ck_assert_int_eq(record_reader_get(r, n, &got), 0);
		assert_same(&want, &got);
	}
	record_reader_close(r);
	sample_free(&want);
	sample_free(&got);
}

START_TEST(test_crc32c)
{
	/* RFC 3720's check value */
	ck_assert_uint_eq(crc32c(0, "123456789", 9), 0xe3069283u);
	ck_assert_uint_eq(crc32c(crc32c(0, "1234", 4), "56789", 5), 0xe3069283u);
}
END_TEST

START_TEST(test_roundtrip_key_and_delta)
{
	struct sample a, b, out;
	struct record_flat fa, fb, dec;
	struct record_buf key = { 0 }, delta = { 0 };

	sample_init(&a);
	sample_init(&b);
	sample_init(&out);
	record_flat_init(&fa);
	record_flat_init(&fb);
	record_flat_init(&dec);
	make_sample(&a, 1);
	make_sample(&b, 2);
	ck_assert_int_eq(record_flatten(&a, &fa), 0);
	ck_assert_int_eq(record_flatten(&b, &fb), 0);
	ck_assert_int_eq(record_encode(NULL, &fa, &key), 0);
	ck_assert_int_eq(record_encode(&fa, &fb, &delta), 0);
	ck_assert_int_eq(record_decode(&dec, true, key.p, key.n), 0);
	ck_assert_int_eq(record_unflatten(&dec, RECORD_VERSION, &out), 0);
	assert_same(&a, &out);
	/* fields read back as they were, not only as words */
	ck_assert_str_eq(out.disks[2].info.text->backing, "/var/tmp/img2");
	ck_assert_uint_eq(out.disks[2].info.generation, 3);
	ck_assert_int_eq(out.disks[2].info.read_ahead_kb, SAMPLE_ABSENT);
	ck_assert_uint_eq(out.disks[0].st.wr_ticks, UINT64_MAX - 4);
	ck_assert(out.t == 1001.25 && out.temps[0].celsius == 41.5);
	ck_assert_uint_eq(out.trace.devs[1].tot.lat[7], 10);
	ck_assert_uint_eq(out.trace.matrix[7], 1);
	ck_assert_uint_eq(out.cg.ngroups, 2);
	ck_assert_uint_eq(out.cg.groups[1].n, 1);
	ck_assert_str_eq(out.cg.groups[1].path, "/system.slice");
	ck_assert_uint_eq(out.cg.io[0].rbytes, 4096);
	ck_assert_uint_eq(out.cpus.irq_count[3], 6);
	ck_assert_uint_eq(out.procs.n, 3);
	ck_assert_str_eq(out.procs.p[2].cmdline, "fio --name=p102");
	ck_assert_uint_eq(out.procs.p[1].rbytes, 101);
	ck_assert(out.procs.traced);
	ck_assert_uint_eq(out.procs.ntr, 3);
	ck_assert_int_eq(out.procs.tr[2].tgid, 102);
	ck_assert_uint_eq(out.procs.tr[2].dev, makedev(7, 1));
	ck_assert_str_eq(out.procs.tr[2].comm, "fio1");
	ck_assert_uint_eq(out.procs.tr[2].c.requests[1], 202000); /* fill_counts: 200000, third word */
	ck_assert_uint_eq(out.procs.tr[2].c.requests[0], 200001); /* first word, moving */
	ck_assert_uint_eq(out.procs.tr[0].cgroup_id, 55);
	ck_assert_uint_eq(out.procs.ncg, 2);
	ck_assert_uint_eq(out.procs.cg[0].cgroup_id, 1);
	ck_assert_uint_eq(out.procs.cg[0].c.lat[3], UINT64_MAX - 1);
	ck_assert_uint_eq(out.procs.nloss, 1);
	ck_assert_uint_eq(out.procs.loss[0].no_start, 1);
	ck_assert_uint_eq(out.procs.skipped, 3);
	/* the delta applies to the key's list */
	ck_assert_int_eq(record_decode(&dec, false, delta.p, delta.n), 0);
	ck_assert_int_eq(record_unflatten(&dec, RECORD_VERSION, &out), 0);
	assert_same(&b, &out);
	ck_assert_str_eq(out.disks[0].info.scheduler, "none");
	/* and holds only what moved (each word's first step: its place and
	 * its delta, under 2 bytes) and one string */
	{
		size_t moving = 0;
		for (size_t i = 0; i < fb.nw; i++)
			moving += fa.w[i] != fb.w[i];
		ck_assert_uint_lt(delta.n, 40 + 2 * moving);
	}
	ck_assert_uint_gt(key.n, 4 * delta.n);
	record_buf_free(&key);
	record_buf_free(&delta);
	record_flat_free(&fa);
	/* a freed list is an empty one: freed again, or used again */
	record_flat_free(&fa);
	ck_assert_uint_eq(fa.nw, 0);
	ck_assert_int_eq(record_flatten(&a, &fa), 0);
	ck_assert_uint_eq(fa.nw, fb.nw);
	record_flat_free(&fa);
	record_flat_free(&fb);
	record_flat_free(&dec);
	sample_free(&a);
	sample_free(&b);
	sample_free(&out);
}
END_TEST

/* An unchanged sample costs three bytes (the layout as before, no bits,
 * no string changed) right after a key; so does a sample whose counters
 * all move at the rate they moved in the records before, once they have
 * been steady RECORD_QUIET records. */
#define IDLE_RECORD 3

START_TEST(test_idle_delta)
{
	struct sample a;
	struct record_flat f[2], dec;
	struct record_buf b = { 0 };

	sample_init(&a);
	record_flat_init(&f[0]);
	record_flat_init(&f[1]);
	record_flat_init(&dec);
	for (unsigned k = 0; k < 4; k++) {
		struct record_flat *prev = k ? &f[(k - 1) % 2] : NULL, *cur = &f[k % 2];
		make_sample(&a, 3);
		ck_assert_int_eq(record_flatten(&a, cur), 0);
		b.n = 0;
		ck_assert_int_eq(record_encode(prev, cur, &b), 0);
		ck_assert_int_eq(record_decode(&dec, !k, b.p, b.n), 0);
		ck_assert_uint_eq(dec.nw, cur->nw);
		ck_assert_int_eq(memcmp(dec.w, cur->w, dec.nw * sizeof(*dec.w)), 0);
		if (k >= 1) /* the key leaves no delta behind: a repeat is idle at once */
			ck_assert_uint_eq(b.n, IDLE_RECORD);
	}
	/* steady rates: k, k+1, k+2 ... every counter moves as it did */
	for (unsigned k = 0; k < RECORD_QUIET + 5; k++) {
		struct record_flat *prev = k ? &f[(k - 1) % 2] : NULL, *cur = &f[k % 2];
		make_sample(&a, 10 + k);
		ck_assert_int_eq(record_flatten(&a, cur), 0);
		b.n = 0;
		ck_assert_int_eq(record_encode(prev, cur, &b), 0);
		ck_assert_int_eq(record_decode(&dec, !k, b.p, b.n), 0);
		ck_assert_int_eq(memcmp(dec.w, cur->w, dec.nw * sizeof(*dec.w)), 0);
		/* the first delta names what moves; those words stay active
		 * (a bit each) until their delta has repeated RECORD_QUIET
		 * times, then cost nothing */
		if (k >= 1 && k <= RECORD_QUIET + 1)
			ck_assert_msg(b.n > IDLE_RECORD, "record %u: %zu bytes", k, b.n);
		if (k >= 2 && k <= RECORD_QUIET + 1) { /* a bit per active word */
			size_t moving = 0;
			for (size_t i = 0; i < cur->nw; i++)
				moving += cur->w[i] != prev->w[i];
			ck_assert_msg(b.n < 12 + moving / 8, "record %u: %zu bytes, %zu words moving", k, b.n, moving);
		}
		if (k >= RECORD_QUIET + 2)
			ck_assert_msg(b.n == IDLE_RECORD, "record %u: %zu bytes", k, b.n);
	}
	record_buf_free(&b);
	record_flat_free(&f[0]);
	record_flat_free(&f[1]);
	record_flat_free(&dec);
	sample_free(&a);
}
END_TEST

/* 4 KiB requests: a bucket's bytes and an op's bytes follow from the
 * counts, so more such requests move the count only (one word); a size off
 * the bucket's top still replays exactly. */
START_TEST(test_size_prediction)
{
	struct sample a, out;
	struct record_flat f[2], dec;
	struct record_buf b = { 0 };
	size_t len[5];

	sample_init(&a);
	sample_init(&out);
	record_flat_init(&f[0]);
	record_flat_init(&f[1]);
	record_flat_init(&dec);
	make_sample(&a, 3);
	for (unsigned k = 0; k < 5; k++) {
		struct record_flat *prev = k ? &f[(k - 1) % 2] : NULL, *cur = &f[k % 2];
		struct trace_counts *t = &a.trace.devs[0].tot;
		uint64_t n = k < 3 ? 0 : 10 * k + k * k; /* from record 3 on, a changing number */
		t->size_count[0][3] += n;
		t->size_bytes[0][3] += n * 4096;
		t->bytes[0] += n * 4096;
		if (k == 4) { /* one 3000-byte read: bucket 3 too, below its top */
			t->size_count[0][3]++;
			t->size_bytes[0][3] += 3000;
			t->bytes[0] += 3000;
		}
		ck_assert_int_eq(record_flatten(&a, cur), 0);
		b.n = 0;
		ck_assert_int_eq(record_encode(prev, cur, &b), 0);
		len[k] = b.n;
		ck_assert_int_eq(record_decode(&dec, !k, b.p, b.n), 0);
		ck_assert_int_eq(record_unflatten(&dec, RECORD_VERSION, &out), 0);
		assert_same(&a, &out);
	}
	ck_assert_uint_eq(out.trace.devs[0].tot.size_bytes[0][3], (30 + 9 + 40 + 16) * 4096ull + 4096 * 0 + 3000);
	/* record 3: one word enters (the count of entries, a place among
	 * some thousand words and an escaped residual of 39: under 7 bytes);
	 * a bucket's bytes moving too would be twice that */
	ck_assert_uint_le(len[3], len[2] + 7);
	ck_assert_uint_gt(len[4], len[3]); /* the odd size moves two predicted words more */
	record_buf_free(&b);
	record_flat_free(&f[0]);
	record_flat_free(&f[1]);
	record_flat_free(&dec);
	sample_free(&a);
	sample_free(&out);
}
END_TEST

/* make_sample's, with churn: from record 4 to 6 a fourth disk (first in
 * the list when front, else last), from record 5 on no process 101. */
static void churn_sample(struct sample *s, unsigned k, bool front)
{
	make_sample(s, k);
	if (k >= 4 && k < 7) {
		struct disk_sample *d = sample_add_disk(s);
		ck_assert_ptr_nonnull(d);
		if (front) {
			memmove(&s->disks[1], &s->disks[0], (s->ndisks - 1) * sizeof(*d));
			d = &s->disks[0];
		}
		memset(d, 0, sizeof(*d));
		d->st.dev = makedev(7, 9);
		snprintf(d->st.name, sizeof(d->st.name), "loop9");
		d->st.nfields = 20;
		d->st.rd_ios = 70 * k;
		d->st.rd_sectors = 560 * k;
		d->info.diskseq = 90;
		d->info.text = &disk_text_none; /* the memset's NULL: a text of its own below */
		ck_assert_int_eq(disk_text_own(&d->info.text), 0);
		snprintf(d->info.text->backing, sizeof(d->info.text->backing), "/var/tmp/img9");
	}
	if (k >= 5) {
		memmove(&s->procs.p[1], &s->procs.p[2], sizeof(s->procs.p[0]));
		s->procs.n--;
	}
}

/* Devices and processes that come and go: every record decodes to its
 * sample, and a disk that appears or goes at the front of the list costs
 * what it costs at the end (its own words and a few bytes of layout), not
 * a shift of every word after it. */
START_TEST(test_churn)
{
	struct sample a, out;
	struct record_flat f[2], dec;
	struct record_buf b = { 0 };
	size_t len[2][10];

	sample_init(&a);
	sample_init(&out);
	for (int front = 0; front < 2; front++) {
		record_flat_init(&f[0]);
		record_flat_init(&f[1]);
		record_flat_init(&dec);
		for (unsigned k = 0; k < 10; k++) {
			struct record_flat *prev = k ? &f[(k - 1) % 2] : NULL, *cur = &f[k % 2];
			churn_sample(&a, k, front);
			ck_assert_int_eq(record_flatten(&a, cur), 0);
			b.n = 0;
			ck_assert_int_eq(record_encode(prev, cur, &b), 0);
			len[front][k] = b.n;
			ck_assert_int_eq(record_decode(&dec, !k, b.p, b.n), 0);
			ck_assert_int_eq(record_unflatten(&dec, RECORD_VERSION, &out), 0);
			assert_same(&a, &out);
			ck_assert_uint_eq(out.ndisks, k >= 4 && k < 7 ? 4 : 3);
			ck_assert_str_eq(out.disks[0].st.name, front && k >= 4 && k < 7 ? "loop9" : "loop0");
			ck_assert_uint_eq(out.procs.n, k >= 5 ? 2 : 3);
		}
		record_flat_free(&f[0]);
		record_flat_free(&f[1]);
		record_flat_free(&dec);
	}
	for (unsigned k = 4; k < 10; k++)
		ck_assert_msg(len[1][k] <= len[0][k] + 4, "record %u: %zu bytes at the front, %zu at the end", k, len[1][k],
			      len[0][k]);
	/* and a device's arrival is far from a key's cost */
	ck_assert_uint_lt(3 * len[1][4], len[1][0]);
	record_buf_free(&b);
	sample_free(&a);
	sample_free(&out);
}
END_TEST

/* Words set straight into a flat list (no strings). */
static void set_words(struct record_flat *f, const uint64_t *w, size_t n)
{
	record_flat_reset(f);
	if (f->capw < n) {
		f->w = realloc(f->w, n * sizeof(*f->w));
		ck_assert_ptr_nonnull(f->w);
		f->capw = n;
	}
	memcpy(f->w, w, n * sizeof(*w));
	f->nw = n;
}

#define NSEQ 12
/* The encoding at its boundaries, word by word: a steady counter, one
 * that wraps past 2^64, one that resets to zero, the largest residual
 * (2^63, a ten-byte varint), zero and all-ones words, a list that grows
 * and shrinks (a device appears, another goes), a key mid-way. Every record
 * decodes to the words written, within the documented bound; every strict
 * prefix of a payload is refused. */
START_TEST(test_codec_boundaries)
{
	static const size_t nw[NSEQ] = { 6, 6, 6, 6, 6, 9, 9, 4, 6, 6, 6, 6 };
	static const bool key[NSEQ] = { 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0 };
	struct record_flat f[2], dec, tmp;
	struct record_buf b[NSEQ] = { { 0 } };
	uint64_t w[NSEQ][9];

	for (unsigned k = 0; k < NSEQ; k++) {
		w[k][0] = 1000 * (uint64_t)k;                  /* steady */
		w[k][1] = UINT64_MAX - 2500 + 1000 * (uint64_t)k; /* wraps at k 3 */
		w[k][2] = k < 6 ? 5000000000ull * k : 7 * (uint64_t)(k - 6); /* reset at k 6 */
		w[k][3] = k == 3 ? 1ull << 63 : 0;           /* a delta of 2^63, then back */
		w[k][4] = 0;
		w[k][5] = UINT64_MAX;
		for (unsigned j = 6; j < 9; j++)
			w[k][j] = k * j;
	}
	record_flat_init(&f[0]);
	record_flat_init(&f[1]);
	record_flat_init(&dec);
	record_flat_init(&tmp);
	for (unsigned k = 0; k < NSEQ; k++) {
		struct record_flat *prev = key[k] ? NULL : &f[(k + 1) % 2], *cur = &f[k % 2];
		set_words(cur, w[k], nw[k]);
		ck_assert_int_eq(record_encode(prev, cur, &b[k]), 0);
		ck_assert_msg(b[k].n <= 20 + 17 + 17 * nw[k], "record %u: %zu bytes over the bound", k, b[k].n);
		ck_assert_int_eq(record_decode(&dec, key[k], b[k].p, b[k].n), 0);
		ck_assert_uint_eq(dec.nw, nw[k]);
		for (size_t i = 0; i < nw[k]; i++)
			ck_assert_msg(dec.w[i] == w[k][i], "record %u word %zu: %llu, want %llu", k, i,
				      (unsigned long long)dec.w[i], (unsigned long long)w[k][i]);
		if (k == 3) /* word 3 enters, by 2^63: an escaped 64-bit residual
			     * (81 bits) and its place, beside record 2's bits */
			ck_assert_msg(b[k].n >= b[k - 1].n + 10 && b[k].n <= b[k - 1].n + 12, "record 3: %zu bytes, 2: %zu",
				      b[k].n, b[k - 1].n);
	}
	/* every strict prefix of a payload is refused, decoded on the state
	 * the records before it (from their key) leave */
	for (unsigned k = 0; k < NSEQ; k++) {
		unsigned from = k;
		while (!key[from])
			from--;
		for (size_t cut = 0; cut < b[k].n; cut++) {
			for (unsigned j = from; j < k; j++)
				ck_assert_int_eq(record_decode(&tmp, key[j], b[j].p, b[j].n), 0);
			ck_assert_msg(record_decode(&tmp, key[k], b[k].p, cut) == -EINVAL, "record %u cut at %zu", k, cut);
		}
	}
	for (unsigned k = 0; k < NSEQ; k++)
		record_buf_free(&b[k]);
	record_flat_free(&f[0]);
	record_flat_free(&f[1]);
	record_flat_free(&dec);
	record_flat_free(&tmp);
}
END_TEST

/* A payload written by hand: bytes, and bits least significant first. */
struct hand {
	unsigned char p[64];
	size_t n;
	unsigned bit; /* bits used in p[n - 1], 8 when full */
};

static void hand_byte(struct hand *h, unsigned char c)
{
	h->p[h->n++] = c;
	h->bit = 8;
}

static void hand_bits(struct hand *h, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		if (h->bit == 8)
			hand_byte(h, 0), h->bit = 0;
		h->p[h->n - 1] |= (unsigned char)(((v >> i) & 1) << h->bit++);
	}
}

/* gamma(x): zeros, a one, the bits below the top one */
static void hand_gamma(struct hand *h, uint64_t x)
{
	unsigned z = 63 - (unsigned)__builtin_clzll(x);

	hand_bits(h, 0, z);
	hand_bits(h, 1, 1);
	hand_bits(h, x, z);
}

/* A key of one new segment of nw words and no string, then bits. */
static void hand_key(struct hand *h, unsigned nw)
{
	h->n = 0;
	h->bit = 8;
	hand_byte(h, 2);     /* one segment */
	hand_byte(h, 1);     /* new */
	hand_byte(h, (unsigned char)nw);
	hand_byte(h, 0);     /* no string */
}

/* Payloads that lie: segments from a record before a key, runs longer
 * than the list before, torn varints, more entries than words, a place
 * past the last word, strings longer than the payload, bits or bytes past
 * the end, words left over for the walk. */
START_TEST(test_malformed_payloads)
{
	struct record_flat f;
	struct sample s;
	struct hand h;
	static const unsigned char cases[][10] = {
		{ 2, 3, 1, 0, 0, 0 },        /* a key's segment said to come from the record before */
		{ 2, 2, 0, 0 },              /* a key's run of segments as before */
		{ 2, 0x80 },                 /* a torn varint */
		{ 2, 1, 0x80 },              /* a torn size */
		{ 2, 1, 0, 1, 0, 1, 0, 50, 'a' }, /* a string longer than the payload */
		{ 2, 1, 0, 0, 0, 0, 0 },     /* bytes after the end */
		{ 2, 1, 1, 0, 5, 1 },        /* bits longer than the payload */
		{ 0, 0, 0 },                 /* a key that says "as before" */
	};
	static const size_t len[] = { 6, 4, 2, 3, 9, 7, 6, 3 };

	record_flat_init(&f);
	sample_init(&s);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		record_flat_reset(&f);
		ck_assert_msg(record_decode(&f, true, cases[i], len[i]) == -EINVAL, "case %zu", i);
	}
	/* 5 entries among 2 words */
	hand_key(&h, 2);
	hand_byte(&h, 1);
	hand_gamma(&h, 6);
	hand_byte(&h, 0);
	ck_assert_int_eq(record_decode(&f, true, h.p, h.n), -EINVAL);
	/* a byte of bits more than they need */
	hand_key(&h, 1);
	hand_byte(&h, 2);
	hand_gamma(&h, 1);
	hand_byte(&h, 0);
	hand_byte(&h, 0);
	ck_assert_int_eq(record_decode(&f, true, h.p, h.n), -EINVAL);
	/* an entry just past the last of 3 words, then at the last: residual
	 * 10 (gamma of its 4 bits plus 1, then 010 below its top bit) is the
	 * word 5 */
	for (unsigned skip = 3; skip + 1 >= 3; skip--) {
		hand_key(&h, 3);
		hand_byte(&h, skip == 3 ? 1 : 2);
		hand_gamma(&h, 2);
		hand_gamma(&h, skip + 1);
		if (skip == 2) {
			hand_gamma(&h, 5);
			hand_bits(&h, 10, 3);
		}
		hand_byte(&h, 0);
		ck_assert_int_eq(h.p[4], h.n - 6);
		record_flat_reset(&f);
		ck_assert_int_eq(record_decode(&f, true, h.p, h.n), (skip == 3 ? -EINVAL : 0));
	}
	ck_assert_uint_eq(f.nw, 3);
	ck_assert_uint_eq(f.w[0], 0);
	ck_assert_uint_eq(f.w[2], 5); /* zigzag 10 */
	/* a layout of no segment: an empty record */
	{
		static const unsigned char empty[] = { 1, 0, 0 };
		record_flat_reset(&f);
		ck_assert_int_eq(record_decode(&f, true, empty, sizeof(empty)), 0);
		ck_assert_uint_eq(f.nw, 0);
		ck_assert_uint_eq(f.ns, 0);
	}
	/* a key whose every word enters (none is 0) */
	{
		struct record_flat w;
		struct record_buf b = { 0 };
		const uint64_t words[] = { 1, 2, 3, 1ull << 40, UINT64_MAX };
		record_flat_init(&w);
		set_words(&w, words, 5);
		ck_assert_int_eq(record_encode(NULL, &w, &b), 0);
		record_flat_reset(&f);
		ck_assert_int_eq(record_decode(&f, true, b.p, b.n), 0);
		ck_assert_uint_eq(f.nw, 5);
		ck_assert_int_eq(memcmp(f.w, words, sizeof(words)), 0);
		record_buf_free(&b);
		record_flat_free(&w);
	}
	/* well-formed payload, but three words are no sample */
	{
		static const unsigned char three[] = { 2, 1, 3, 0, 0, 0 };
		record_flat_reset(&f);
		ck_assert_int_eq(record_decode(&f, true, three, sizeof(three)), 0);
		ck_assert_int_eq(record_unflatten(&f, RECORD_VERSION, &s), -EINVAL);
	}
	/* a disk count beyond the limit is refused before any allocation */
	{
		struct record_flat w;
		struct record_buf b = { 0 };
		const uint64_t words[] = { 5, 1, 4, RECORD_MAX_DISKS + 1, 0 };
		record_flat_init(&w);
		set_words(&w, words, 5);
		ck_assert_int_eq(record_encode(NULL, &w, &b), 0);
		record_flat_reset(&f);
		ck_assert_int_eq(record_decode(&f, true, b.p, b.n), 0);
		ck_assert_uint_eq(f.w[3], RECORD_MAX_DISKS + 1);
		ck_assert_int_eq(record_unflatten(&f, RECORD_VERSION, &s), -EINVAL);
		record_buf_free(&b);
		record_flat_free(&w);
	}
	record_flat_free(&f);
	sample_free(&s);
}
END_TEST

/* a, as a key record and back, into out: record_unflatten's result */
static int through_key(const struct sample *a, struct sample *out)
{
	struct record_flat f, dec;
	struct record_buf b = { 0 };
	int err;

	record_flat_init(&f);
	record_flat_init(&dec);
	ck_assert_int_eq(record_flatten(a, &f), 0);
	ck_assert_int_eq(record_encode(NULL, &f, &b), 0);
	ck_assert_int_eq(record_decode(&dec, true, b.p, b.n), 0);
	err = record_unflatten(&dec, RECORD_VERSION, out);
	record_buf_free(&b);
	record_flat_free(&f);
	record_flat_free(&dec);
	return err;
}

/* Why a sample is untraced is recorded (format 5), so a replay's JSON says
 * what the live run's said; a traced sample carries none. */
START_TEST(test_trace_off_recorded)
{
	struct sample a, out;

	sample_init(&a);
	sample_init(&out);
	make_sample(&a, 1);
	a.traced = false;
	snprintf(a.trace_off, sizeof(a.trace_off), "BPF helper exited with status 3 and no reply");
	ck_assert_int_eq(through_key(&a, &out), 0);
	ck_assert(!out.traced);
	ck_assert_str_eq(out.trace_off, "BPF helper exited with status 3 and no reply");
	a.traced = true;
	ck_assert_int_eq(through_key(&a, &out), 0);
	ck_assert(out.traced);
	ck_assert_str_eq(out.trace_off, "");
	sample_free(&a);
	sample_free(&out);
}
END_TEST

/* A device's kind names a row of the outputs' tables: the last kind reads
 * back, one past it (or far past it) is refused, not used as an index. */
START_TEST(test_disk_kind_range)
{
	static const uint64_t kinds[] = { DISK_KIND_UNKNOWN, DISK_KIND_UNKNOWN + 1, 100000000, 1ull << 32 };
	struct sample a, out;
	struct record_flat f, dec;
	struct record_buf b = { 0 };
	size_t at = 0;

	sample_init(&a);
	sample_init(&out);
	record_flat_init(&f);
	record_flat_init(&dec);
	make_sample(&a, 1);
	ck_assert_int_eq(record_flatten(&a, &f), 0);
	/* the kind is the third word of the disk's queue settings, after the
	 * diskseq and the generation */
	for (size_t i = 0; i < f.nw; i++)
		if (f.g[i] == RG_INFO && f.w[i] == a.disks[1].info.diskseq) {
			at = i + 2;
			break;
		}
	ck_assert_uint_gt(at, 0);
	ck_assert_uint_eq(f.w[at - 1], a.disks[1].info.generation);
	ck_assert_uint_eq(f.w[at], a.disks[1].info.kind);
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		ck_assert_int_eq(record_flatten(&a, &f), 0);
		f.w[at] = kinds[k];
		b.n = 0;
		ck_assert_int_eq(record_encode(NULL, &f, &b), 0);
		ck_assert_int_eq(record_decode(&dec, true, b.p, b.n), 0);
		ck_assert_msg(record_unflatten(&dec, RECORD_VERSION, &out) == (kinds[k] <= DISK_KIND_UNKNOWN ? 0 : -EINVAL), "kind %llu",
			      (unsigned long long)kinds[k]);
		if (kinds[k] <= DISK_KIND_UNKNOWN)
			ck_assert_int_eq(out.disks[1].info.kind, kinds[k]);
	}
	record_buf_free(&b);
	record_flat_free(&f);
	record_flat_free(&dec);
	sample_free(&a);
	sample_free(&out);
}
END_TEST

static char *tmpdir(void)
{
	char tmpl[] = "/tmp/blktune-unit-XXXXXX";
	char *d = mkdtemp(tmpl);

	ck_assert_ptr_nonnull(d);
	return strdup(d);
}

/* Write n samples (keys every 4) and a tunable change after the third. */
static void write_file(const char *path, unsigned n)
{
	struct record_meta m = { .host = "host1", .kernel = "6.18.0", .version = "0.1", .interval = 0.5,
				 .start = 1764633600, .key_every = 4 };
	struct record_change c = { .t = 1003.0, .wall = 1764633603, .dev = "loop0", .tunable = "scheduler",
				   .from = "mq-deadline", .to = "none" };
	struct record *r;
	struct sample s;
	char why[256];

	sample_init(&s);
	ck_assert_int_eq(record_create(path, &m, &r, why, sizeof(why)), 0);
	for (unsigned k = 0; k < n; k++) {
		make_sample(&s, k);
		ck_assert_int_eq(record_sample(r, &s, why, sizeof(why)), 0);
		if (k == 2)
			ck_assert_int_eq(record_change(r, &c), 0);
	}
	ck_assert_int_eq(record_close(r), 0);
	sample_free(&s);
}

static off_t file_size(const char *path)
{
	struct stat st;

	ck_assert_int_eq(stat(path, &st), 0);
	return st.st_size;
}

START_TEST(test_file_roundtrip_and_seek)
{
	char *dir = tmpdir(), path[4200], why[256];
	struct record_reader *r;
	struct sample want, got;
	const struct record_change *c;
	const size_t *before;
	static const size_t order[] = { 9, 0, 5, 6, 7, 3, 3, 2, 8, 1, 4 };

	snprintf(path, sizeof(path), "%s/r.btr", dir);
	write_file(path, 10);
	sample_init(&want);
	sample_init(&got);
	ck_assert_int_eq(record_reader_open(path, &r, why, sizeof(why)), 0);
	ck_assert_uint_eq(record_reader_count(r), 10);
	ck_assert_str_eq(record_reader_warning(r), "");
	ck_assert_str_eq(record_reader_meta(r)->host, "host1");
	ck_assert_str_eq(record_reader_meta(r)->kernel, "6.18.0");
	ck_assert(record_reader_meta(r)->interval == 0.5);
	ck_assert_uint_eq(record_reader_meta(r)->key_every, 4);
	/* any order: forward, back across key frames, the same twice */
	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		make_sample(&want, (unsigned)order[i]);
		ck_assert_int_eq(record_reader_get(r, order[i], &got), 0);
		assert_same(&want, &got);
	}
	ck_assert_int_eq(record_reader_get(r, 10, &got), -ERANGE);
	ck_assert_int_eq(record_reader_wall(r, 7).tv_sec, 1764633607);
	{
		time_t w[] = { 1764633605, 1764633700 };
		size_t which = 9;

		ck_assert_uint_eq(record_reader_find(r, w, 2, 0, &which), 5);
		ck_assert_uint_eq(which, 0);
		/* the interval ending at ..606.123 spent 0.877 s of second 605 */
		ck_assert_uint_eq(record_reader_find(r, w, 2, 6, NULL), 6);
		ck_assert_uint_eq(record_reader_find(r, w, 2, 7, NULL), 10);
		ck_assert_uint_eq(record_reader_find(r, w + 1, 1, 0, NULL), 10);
	}
	ck_assert_uint_eq(record_reader_changes(r, &c, &before), 1);
	ck_assert_str_eq(c[0].to, "none");
	ck_assert_str_eq(c[0].tunable, "scheduler");
	ck_assert_uint_eq(before[0], 3);
	record_reader_close(r);
	/* never over an existing file */
	{
		struct record_meta m = { .host = "x" };
		struct record *w;
		off_t size = file_size(path);
		ck_assert_int_eq(record_create(path, &m, &w, why, sizeof(why)), -EEXIST);
		ck_assert_ptr_nonnull(strstr(why, "exists"));
		ck_assert_int_eq(file_size(path), size);
	}
	sample_free(&want);
	sample_free(&got);
	unit_rmtree(dir);
	free(dir);
}
END_TEST

/* A file cut short while it is replayed: what was there at open replays
 * (a mapping of it ended the process with SIGBUS). */
START_TEST(test_cut_while_open)
{
	char *dir = tmpdir(), path[4200], why[256];
	struct record_reader *r;
	unsigned k[80];

	snprintf(path, sizeof(path), "%s/r.btr", dir);
	write_file(path, 80);
	ck_assert_int_gt(file_size(path), 8192);
	for (unsigned i = 0; i < 80; i++)
		k[i] = i;
	ck_assert_int_eq(record_reader_open(path, &r, why, sizeof(why)), 0);
	ck_assert_int_eq(truncate(path, 12), 0);
	assert_replays(r, k, 80); /* from the last, so no page read before the cut */
	unit_rmtree(dir);
	free(dir);
}
END_TEST

/* Every cut inside the last frame loses that sample only. */
START_TEST(test_torn_tail)
{
	char *dir = tmpdir(), path[4200], why[256];
	struct record_reader *r;
	struct sample want, got;
	off_t full, nine;

	snprintf(path, sizeof(path), "%s/r.btr", dir);
	write_file(path, 9);
	nine = file_size(path);
	unlink(path);
	write_file(path, 10);
	full = file_size(path);
	sample_init(&want);
	sample_init(&got);
	for (off_t cut = nine + 1; cut < full; cut += (full - nine) / 7 + 1) {
		unlink(path);
		write_file(path, 10);
		ck_assert_int_eq(truncate(path, cut), 0);
		ck_assert_int_eq(record_reader_open(path, &r, why, sizeof(why)), 0);
		ck_assert_uint_eq(record_reader_count(r), 9);
		ck_assert_msg(strstr(record_reader_warning(r), "torn record"), "cut %lld of %lld: %s", (long long)cut,
			      (long long)full, record_reader_warning(r));
		make_sample(&want, 8);
		ck_assert_int_eq(record_reader_get(r, 8, &got), 0);
		assert_same(&want, &got);
		record_reader_close(r);
	}
	/* a long path: the warning still says where and why, whole */
	{
		char longdir[600];
		size_t n = (size_t)snprintf(longdir, sizeof(longdir), "%s/", dir);
		memset(longdir + n, 'd', 250);
		longdir[n + 250] = '\0';
		ck_assert_int_eq(mkdir(longdir, 0700), 0);
		snprintf(path, sizeof(path), "%s/r.btr", longdir);
		write_file(path, 10);
		ck_assert_int_eq(truncate(path, nine + 1), 0);
		ck_assert_int_eq(record_reader_open(path, &r, why, sizeof(why)), 0);
		ck_assert_ptr_eq(strstr(record_reader_warning(r), path), record_reader_warning(r));
		ck_assert_msg(strstr(record_reader_warning(r), "(a recorder stopped mid-write)"), "%s", record_reader_warning(r));
		record_reader_close(r);
		snprintf(path, sizeof(path), "%s/r.btr", dir);
	}
	/* cut exactly at a frame boundary: nothing torn, nothing said */
	ck_assert_int_eq(truncate(path, nine), 0);
	ck_assert_int_eq(record_reader_open(path, &r, why, sizeof(why)), 0);
	ck_assert_uint_eq(record_reader_count(r), 9);
	ck_assert_str_eq(record_reader_warning(r), "");
	record_reader_close(r);
	sample_free(&want);
	sample_free(&got);
	unit_rmtree(dir);
	free(dir);
}
END_TEST

static void poke(const char *path, off_t at, unsigned char v)
{
	int fd = open(path, O_WRONLY);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(pwrite(fd, &v, 1, at), 1);
	close(fd);
}

START_TEST(test_bad_crc_stops_there)
{
	char *dir = tmpdir(), path[4200], nine[4200], why[256];
	struct record_reader *r;
	off_t at;

	snprintf(path, sizeof(path), "%s/r.btr", dir);
	snprintf(nine, sizeof(nine), "%s/nine.btr", dir);
	write_file(nine, 6);
	write_file(path, 10);
	/* a bit flipped inside the 7th sample's frame */
	at = file_size(nine) + 5;
	{
		int fd = open(path, O_RDONLY);
		unsigned char v;
		ck_assert_int_eq(pread(fd, &v, 1, at), 1);
		close(fd);
		poke(path, at, v ^ 0x10);
	}
	ck_assert_int_eq(record_reader_open(path, &r, why, sizeof(why)), 0);
	ck_assert_uint_eq(record_reader_count(r), 6);
	ck_assert_ptr_nonnull(strstr(record_reader_warning(r), "bad checksum"));
	record_reader_close(r);
	unit_rmtree(dir);
	free(dir);
}
END_TEST

START_TEST(test_refusals)
{
	char *dir = tmpdir(), path[4200], why[256];
	struct record_reader *r = NULL;

	snprintf(path, sizeof(path), "%s/r.btr", dir);
	write_file(path, 3);
	poke(path, 8, 1); /* version 1: before residual coding */
	ck_assert_int_eq(record_reader_open(path, &r, why, sizeof(why)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(why, "format version 1 (an older blktune's); this blktune reads versions 4 to 5"));
	poke(path, 8, 3); /* version 3: before segments and bit coding */
	ck_assert_int_eq(record_reader_open(path, &r, why, sizeof(why)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(why, "format version 3 (an older blktune's); this blktune reads versions 4 to 5"));
	ck_assert_ptr_null(strchr(why, '\n'));
	poke(path, 8, 6);
	ck_assert_int_eq(record_reader_open(path, &r, why, sizeof(why)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(why, "format version 6 (a newer blktune's); this blktune reads versions 4 to 5"));
	ck_assert_ptr_null(strchr(why, '\n'));
	unlink(path);
	/* junk, short junk, an empty file */
	unit_write_file(path, "Linux version 6.18 and then some text that is no recording\n");
	ck_assert_int_eq(record_reader_open(path, &r, why, sizeof(why)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(why, "not a blktune recording"));
	unit_write_file(path, "BLKT");
	ck_assert_int_eq(record_reader_open(path, &r, why, sizeof(why)), -EINVAL);
	unit_write_file(path, "");
	ck_assert_int_eq(record_reader_open(path, &r, why, sizeof(why)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(why, "not a blktune recording"));
	/* the right magic and then junk: the first frame fails its checksum */
	{
		static const char head[] = "BLKTREC\n\x04\x00\x00\x00 junk junk junk junk";
		FILE *f = fopen(path, "w");
		ck_assert_ptr_nonnull(f);
		ck_assert_uint_eq(fwrite(head, 1, sizeof(head) - 1, f), sizeof(head) - 1);
		fclose(f);
	}
	ck_assert_int_eq(record_reader_open(path, &r, why, sizeof(why)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(why, "no intervals recorded"));
	/* a header and no sample */
	unlink(path);
	write_file(path, 0);
	ck_assert_int_eq(record_reader_open(path, &r, why, sizeof(why)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(why, "no intervals recorded"));
	/* a directory, a missing file */
	ck_assert_int_lt(record_reader_open(dir, &r, why, sizeof(why)), 0);
	ck_assert_int_eq(record_reader_open("/nonexistent/r.btr", &r, why, sizeof(why)), -ENOENT);
	ck_assert_ptr_nonnull(strstr(why, "/nonexistent/r.btr"));
	ck_assert_ptr_null(r);
	unit_rmtree(dir);
	free(dir);
}
END_TEST

/* A tunable value as long as a tunable's (an irq's smp_affinity_list on a
 * host of many CPUs: 255 bytes) is recorded and read back whole; one byte
 * more, or a device name too long, is refused, not cut. */
START_TEST(test_change_values_whole)
{
	char *dir = tmpdir(), path[4200], why[256], longv[RECORD_VALUE_MAX + 1], shortv[RECORD_VALUE_MAX];
	struct record_meta m = { .host = "h", .interval = 1 };
	struct record_change c = { .t = 1001.0 };
	const struct record_change *got;
	const size_t *before;
	struct record_reader *r;
	struct record *w;
	struct sample s;
	size_t n = 0;

	for (unsigned cpu = 0; n < RECORD_VALUE_MAX; cpu += 2)
		n += (size_t)snprintf(longv + n, sizeof(longv) - n, "%u,", cpu);
	longv[RECORD_VALUE_MAX] = '\0';
	memcpy(shortv, longv, RECORD_VALUE_MAX - 1);
	shortv[RECORD_VALUE_MAX - 1] = '\0';
	ck_assert_int_eq(record_change_set(&c, "nvme0n1", "irq_affinity", longv, "0"), -EOVERFLOW);
	ck_assert_int_eq(record_change_set(&c, "nvme0n1", "irq_affinity", "0", longv), -EOVERFLOW);
	ck_assert_int_eq(record_change_set(&c, "a-device-name-of-32-characters-x", "scheduler", "0", "1"), -EOVERFLOW);
	ck_assert_int_eq(record_change_set(&c, "nvme0n1", "irq_affinity", shortv, "0-1"), 0);
	ck_assert_uint_eq(strlen(c.from), RECORD_VALUE_MAX - 1);
	snprintf(path, sizeof(path), "%s/r.btr", dir);
	sample_init(&s);
	ck_assert_int_eq(record_create(path, &m, &w, why, sizeof(why)), 0);
	make_sample(&s, 0);
	ck_assert_int_eq(record_sample(w, &s, why, sizeof(why)), 0);
	ck_assert_int_eq(record_change(w, &c), 0);
	make_sample(&s, 1);
	ck_assert_int_eq(record_sample(w, &s, why, sizeof(why)), 0);
	ck_assert_int_eq(record_close(w), 0);
	ck_assert_int_eq(record_reader_open(path, &r, why, sizeof(why)), 0);
	ck_assert_uint_eq(record_reader_changes(r, &got, &before), 1);
	ck_assert_str_eq(got[0].from, shortv);
	ck_assert_str_eq(got[0].to, "0-1");
	ck_assert_str_eq(got[0].dev, "nvme0n1");
	record_reader_close(r);
	sample_free(&s);
	unit_rmtree(dir);
	free(dir);
}
END_TEST

static int soft_file_limit(rlim_t bytes)
{
	struct rlimit lim;

	if (getrlimit(RLIMIT_FSIZE, &lim) < 0)
		return -1;
	lim.rlim_cur = bytes;
	signal(SIGXFSZ, SIG_IGN); /* the write fails with EFBIG instead */
	return setrlimit(RLIMIT_FSIZE, &lim);
}

static off_t size_of(int fd)
{
	struct stat st;

	return fstat(fd, &st) < 0 ? -1 : st.st_size;
}

/* In a child: a change, then a sample, each failing part-way through its
 * frame (the file-size limit stands in for a full disk). Each is cut off
 * again; once there is room, what follows is written and read back. */
static int fill_up(void *arg)
{
	const char *path = arg;
	struct record_meta m = { .host = "h", .interval = 1, .start = 1764633600 };
	struct record_change c = { .t = 1001.0, .wall = 1764633601, .dev = "loop0", .tunable = "read_ahead_kb",
				   .from = "128", .to = "4096" };
	struct record *w;
	struct sample s;
	char why[256];
	off_t whole;
	int fd;

	sample_init(&s);
	if (record_create(path, &m, &w, why, sizeof(why)) < 0 || (fd = open(path, O_RDONLY)) < 0)
		return 10;
	make_sample(&s, 0);
	if (record_sample(w, &s, why, sizeof(why)) < 0)
		return 11;
	whole = size_of(fd);
	if (soft_file_limit((rlim_t)whole + 5) < 0)
		return 12;
	if (record_change(w, &c) != -EFBIG)
		return 13;
	if (size_of(fd) != whole)
		return 14; /* the torn change is still there */
	if (soft_file_limit(RLIM_INFINITY) < 0)
		return 15;
	make_sample(&s, 1);
	if (record_sample(w, &s, why, sizeof(why)) < 0)
		return 16;
	/* made before the limit: Check's own messages (one per assertion that
	 * passes) go to a file the limit holds too */
	make_sample(&s, 2);
	whole = size_of(fd);
	if (soft_file_limit((rlim_t)whole + 7) < 0)
		return 17;
	if (record_sample(w, &s, why, sizeof(why)) != -EFBIG || !strstr(why, "too large"))
		return 18;
	if (size_of(fd) != whole)
		return 19;
	if (soft_file_limit(RLIM_INFINITY) < 0)
		return 20;
	make_sample(&s, 3);
	if (record_sample(w, &s, why, sizeof(why)) < 0)
		return 21;
	if (record_close(w) < 0)
		return 22;
	close(fd);
	sample_free(&s);
	return 0;
}

START_TEST(test_failed_write_cut_off)
{
	char *dir = tmpdir(), path[4200], why[256];
	static const unsigned want[] = { 0, 1, 3 };
	const struct record_change *c;
	const size_t *before;
	struct record_reader *r;

	snprintf(path, sizeof(path), "%s/r.btr", dir);
	ck_assert_int_eq(unit_in_child(fill_up, path), 0);
	ck_assert_int_eq(record_reader_open(path, &r, why, sizeof(why)), 0);
	ck_assert_str_eq(record_reader_warning(r), "");
	ck_assert_uint_eq(record_reader_count(r), 3);
	ck_assert_uint_eq(record_reader_changes(r, &c, &before), 0);
	assert_replays(r, want, 3);
	unit_rmtree(dir);
	free(dir);
}
END_TEST

/* A delta frame with a good checksum whose payload lies: replay stops
 * there, the samples before it stay readable. */
START_TEST(test_malformed_frame_mid_file)
{
	char *dir = tmpdir(), path[4200], why[256];
	struct record_reader *r;
	struct record_buf payload = { 0 }, frame = { 0 };
	FILE *f;

	snprintf(path, sizeof(path), "%s/r.btr", dir);
	write_file(path, 4);
	record_buf_varint(&payload, 1u << 30); /* more words than a reader takes */
	record_buf_varint(&payload, 0);
	ck_assert_int_eq(record_frame(&frame, RECORD_DELTA, &payload), 0);
	f = fopen(path, "a");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(frame.p, 1, frame.n, f), frame.n);
	fclose(f);
	ck_assert_int_eq(record_reader_open(path, &r, why, sizeof(why)), 0);
	ck_assert_uint_eq(record_reader_count(r), 4);
	ck_assert_ptr_nonnull(strstr(record_reader_warning(r), "malformed record"));
	record_reader_close(r);
	record_buf_free(&payload);
	record_buf_free(&frame);
	unit_rmtree(dir);
	free(dir);
}
END_TEST

/* Append to path a frame holding sample k's flat list, with word `at` set
 * to v when at < SIZE_MAX, coded against the list of sample k - 1 (NULL
 * prev: a key), as the writer codes it; extra bytes trail the payload. */
static void append_sample(const char *path, struct record_flat *prev, struct record_flat *cur, unsigned k, size_t at,
			  uint64_t v, size_t extra)
{
	struct record_buf payload = { 0 }, frame = { 0 };
	struct sample s;
	FILE *f;

	sample_init(&s);
	make_sample(&s, k);
	ck_assert_int_eq(record_flatten(&s, cur), 0);
	if (at != SIZE_MAX)
		cur->w[at] = v;
	ck_assert_int_eq(record_encode(prev, cur, &payload), 0);
	for (size_t i = 0; i < extra; i++)
		ck_assert_int_eq(record_buf_put(&payload, "", 1), 0);
	ck_assert_int_eq(record_frame(&frame, prev ? RECORD_DELTA : RECORD_KEY, &payload), 0);
	f = fopen(path, "a");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(frame.p, 1, frame.n, f), frame.n);
	ck_assert_int_eq(fclose(f), 0);
	record_buf_free(&payload);
	record_buf_free(&frame);
	sample_free(&s);
}

/* The lists write_file(path, n) leaves its last sample's coded against:
 * samples 0 .. n - 1 flattened and coded as the writer did. */
static void writer_state(struct record_flat f[2], unsigned n)
{
	struct record_buf b = { 0 };
	struct sample s;

	sample_init(&s);
	for (unsigned k = 0; k < n; k++) {
		make_sample(&s, k);
		ck_assert_int_eq(record_flatten(&s, &f[k % 2]), 0);
		b.n = 0;
		ck_assert_int_eq(record_encode(k % 4 ? &f[(k + 1) % 2] : NULL, &f[k % 2], &b), 0);
	}
	record_buf_free(&b);
	sample_free(&s);
}

/* A frame that decodes all its words and then fails (a byte after its
 * strings) leaves them in the reader's list: sample 0, the one the list
 * held before, still reads back as sample 0, not as the dropped one. */
START_TEST(test_malformed_frame_keeps_last_sample)
{
	char *dir = tmpdir(), path[4200], why[256];
	struct record_reader *r;
	struct record_flat f[2];
	struct sample want, got;

	snprintf(path, sizeof(path), "%s/r.btr", dir);
	write_file(path, 1);
	record_flat_init(&f[0]);
	record_flat_init(&f[1]);
	writer_state(f, 1);
	append_sample(path, &f[0], &f[1], 1, SIZE_MAX, 0, 1);
	sample_init(&want);
	sample_init(&got);
	ck_assert_int_eq(record_reader_open(path, &r, why, sizeof(why)), 0);
	ck_assert_uint_eq(record_reader_count(r), 1);
	ck_assert_ptr_nonnull(strstr(record_reader_warning(r), "malformed record (type 3)"));
	make_sample(&want, 0);
	ck_assert_int_eq(record_reader_get(r, 0, &got), 0);
	assert_same(&want, &got);
	record_reader_close(r);
	record_flat_free(&f[0]);
	record_flat_free(&f[1]);
	sample_free(&want);
	sample_free(&got);
	unit_rmtree(dir);
	free(dir);
}
END_TEST

/* A sample's clocks out of what any clock gives (a date before 1970 or
 * after 9999, nanoseconds of a whole second, a NaN monotonic time): the
 * recording ends before it; the edges themselves read. The writer writes
 * none of them. */
START_TEST(test_sample_clocks_in_range)
{
	static const struct {
		size_t at;
		double t;   /* the monotonic time (at 0), or */
		uint64_t v; /* the word */
		bool ok;
	} cases[] = {
		{ 0, 0, 0, true },
		{ 0, -1, 0, false },
		{ 0, NAN, 0, false },
		{ 0, 1e15, 0, false },
		{ 1, 0, 0, true },
		{ 1, 0, 253402300799ull, true },
		{ 1, 0, 253402300800ull, false },
		{ 1, 0, UINT64_MAX, false }, /* -1 s */
		{ 2, 0, 999999999, true },
		{ 2, 0, 1000000000, false },
		{ 2, 0, UINT64_MAX, false },
	};
	char *dir = tmpdir(), path[4200], why[256];
	struct record_reader *r;
	struct record_flat f[2];
	struct record_meta m = { .host = "h", .interval = 1 };
	struct record *w;
	struct sample s;

	snprintf(path, sizeof(path), "%s/r.btr", dir);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t v = cases[i].v;

		if (cases[i].at == 0)
			memcpy(&v, &cases[i].t, sizeof(v));
		unlink(path);
		write_file(path, 1);
		record_flat_init(&f[0]);
		record_flat_init(&f[1]);
		writer_state(f, 1);
		append_sample(path, &f[0], &f[1], 1, cases[i].at, v, 0);
		ck_assert_int_eq(record_reader_open(path, &r, why, sizeof(why)), 0);
		ck_assert_msg(record_reader_count(r) == (cases[i].ok ? 2 : 1), "case %zu: %zu samples", i,
			      record_reader_count(r));
		if (!cases[i].ok)
			ck_assert_ptr_nonnull(strstr(record_reader_warning(r), "malformed record (type 3)"));
		record_reader_close(r);
		record_flat_free(&f[0]);
		record_flat_free(&f[1]);
	}
	/* the writer: refused before a byte, the file ends with the one before */
	unlink(path);
	sample_init(&s);
	ck_assert_int_eq(record_create(path, &m, &w, why, sizeof(why)), 0);
	make_sample(&s, 0);
	ck_assert_int_eq(record_sample(w, &s, why, sizeof(why)), 0);
	s.wall.tv_sec = -1;
	ck_assert_int_eq(record_sample(w, &s, why, sizeof(why)), -ERANGE);
	ck_assert_ptr_nonnull(strstr(why, "1970 to 9999"));
	make_sample(&s, 1);
	s.wall.tv_nsec = 1000000000;
	ck_assert_int_eq(record_sample(w, &s, why, sizeof(why)), -ERANGE);
	make_sample(&s, 1);
	s.t = NAN;
	ck_assert_int_eq(record_sample(w, &s, why, sizeof(why)), -ERANGE);
	ck_assert_int_eq(record_close(w), 0);
	ck_assert_int_eq(record_reader_open(path, &r, why, sizeof(why)), 0);
	ck_assert_uint_eq(record_reader_count(r), 1);
	ck_assert_str_eq(record_reader_warning(r), "");
	record_reader_close(r);
	sample_free(&s);
	unit_rmtree(dir);
	free(dir);
}
END_TEST

/* A frame that decodes but is no sample (a disk count over the limit): the
 * recording ends before it at open, saying where, and the samples before
 * it read back; replay never meets it half-way. */
START_TEST(test_unrebuildable_sample_stops_there)
{
	char *dir = tmpdir(), path[4200], why[256], where[64];
	struct record_reader *r;
	struct record_flat f[2];
	struct sample want, got;

	snprintf(path, sizeof(path), "%s/r.btr", dir);
	write_file(path, 2);
	snprintf(where, sizeof(where), "at byte %lld;", (long long)file_size(path));
	record_flat_init(&f[0]);
	record_flat_init(&f[1]);
	writer_state(f, 2);
	/* words 0 .. 3 are the times, word 4 the disk count */
	append_sample(path, &f[1], &f[0], 2, 4, RECORD_MAX_DISKS + 1, 0);
	append_sample(path, &f[0], &f[1], 3, SIZE_MAX, 0, 0);
	sample_init(&want);
	sample_init(&got);
	ck_assert_int_eq(record_reader_open(path, &r, why, sizeof(why)), 0);
	ck_assert_uint_eq(record_reader_count(r), 2);
	ck_assert_msg(strstr(record_reader_warning(r), "malformed record (type 3)") &&
			      strstr(record_reader_warning(r), where),
		      "%s", record_reader_warning(r));
	for (unsigned k = 0; k < 2; k++) {
		make_sample(&want, k);
		ck_assert_int_eq(record_reader_get(r, k, &got), 0);
		assert_same(&want, &got);
	}
	record_reader_close(r);
	record_flat_free(&f[0]);
	record_flat_free(&f[1]);
	sample_free(&want);
	sample_free(&got);
	unit_rmtree(dir);
	free(dir);
}
END_TEST

/* A key of one new segment of nw words and no string, no bits, no string
 * changed: its payload length. */
static size_t words_key(unsigned char *p, uint64_t nw)
{
	struct record_buf b = { 0 };
	size_t n;

	record_buf_varint(&b, 2);
	record_buf_varint(&b, 1);
	record_buf_varint(&b, nw);
	record_buf_varint(&b, 0);
	record_buf_varint(&b, 0);
	record_buf_varint(&b, 0);
	memcpy(p, b.p, b.n);
	n = b.n;
	record_buf_free(&b);
	return n;
}

/* New words cost payload bytes: a key may declare RECORD_NEW_PER_BYTE
 * words per byte of it, not one more. The densest sample the limits allow
 * (RECORD_MAX_CPUS CPUs, traced devices diskstats does not list: per-CPU
 * counters, all zero) stays well inside that. */
START_TEST(test_new_words_per_byte)
{
	unsigned char p[16];
	struct record_flat f, dec;
	struct record_buf b = { 0 };
	struct sample a, out;
	size_t n;

	record_flat_init(&f);
	record_flat_init(&dec);
	n = words_key(p, 8 * RECORD_NEW_PER_BYTE);
	ck_assert_uint_eq(n, 8);
	ck_assert_int_eq(record_decode(&f, true, p, n), 0);
	ck_assert_uint_eq(f.nw, 8 * RECORD_NEW_PER_BYTE);
	n = words_key(p, 8 * RECORD_NEW_PER_BYTE + 1);
	ck_assert_uint_eq(n, 8);
	ck_assert_int_eq(record_decode(&f, true, p, n), -EINVAL);
	n = words_key(p, RECORD_MAX_WORDS);
	ck_assert_int_eq(record_decode(&f, true, p, n), -EINVAL);

	sample_init(&a);
	sample_init(&out);
	a.cpus.valid = true;
	ck_assert_int_eq(sample_cpus_reserve(&a.cpus, RECORD_MAX_CPUS), 0);
	a.cpus.nirq = SAMPLE_IRQ_MAX;
	a.traced = true;
	ck_assert_int_eq(trace_sample_resize(&a.trace, RECORD_MAX_CPUS, 16), 0);
	for (unsigned i = 0; i < 16; i++)
		a.trace.devs[i].dev = makedev(259, i);
	ck_assert_int_eq(record_flatten(&a, &f), 0);
	ck_assert_int_eq(record_encode(NULL, &f, &b), 0);
	ck_assert_msg(f.nw > RECORD_NEW_PER_BYTE / 4 * b.n, "%zu words in %zu bytes: not that dense", f.nw, b.n);
	ck_assert_int_eq(record_decode(&dec, true, b.p, b.n), 0);
	ck_assert_int_eq(record_unflatten(&dec, RECORD_VERSION, &out), 0);
	assert_same(&a, &out);
	record_buf_free(&b);
	record_flat_free(&f);
	record_flat_free(&dec);
	sample_free(&a);
	sample_free(&out);
}
END_TEST

static void append_frame(const char *path, enum record_type type, const unsigned char *p, size_t n, unsigned times)
{
	struct record_buf payload = { 0 }, frame = { 0 };
	FILE *f = fopen(path, "a");

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(record_buf_put(&payload, p, n), 0);
	ck_assert_int_eq(record_frame(&frame, type, &payload), 0);
	for (unsigned i = 0; i < times; i++)
		ck_assert_uint_eq(fwrite(frame.p, 1, frame.n, f), frame.n);
	ck_assert_int_eq(fclose(f), 0);
	record_buf_free(&payload);
	record_buf_free(&frame);
}

/* Many changes (past the first allocation of 16) read back, each after
 * its sample; a frame of a type this version does not know ends the
 * recording before it, said, as a malformed one does. */
START_TEST(test_many_changes_unknown_type)
{
	char *dir = tmpdir(), path[4200], why[256];
	struct record_meta m = { .host = "h", .interval = 1 };
	const struct record_change *got;
	const size_t *before;
	struct record_reader *r;
	struct record *w;
	struct sample s;
	static const unsigned char junk[] = { 1, 2, 3 };

	snprintf(path, sizeof(path), "%s/r.btr", dir);
	sample_init(&s);
	ck_assert_int_eq(record_create(path, &m, &w, why, sizeof(why)), 0);
	for (unsigned k = 0; k < 40; k++) {
		struct record_change c = { .t = 1000.5 + k, .wall = 1764633600 + k };
		char v[16];
		make_sample(&s, k);
		ck_assert_int_eq(record_sample(w, &s, why, sizeof(why)), 0);
		snprintf(v, sizeof(v), "%u", 128u << (k % 8));
		ck_assert_int_eq(record_change_set(&c, "loop0", "read_ahead_kb", "128", v), 0);
		ck_assert_int_eq(record_change(w, &c), 0);
	}
	ck_assert_int_eq(record_close(w), 0);
	append_frame(path, (enum record_type)9, junk, sizeof(junk), 1);
	ck_assert_int_eq(record_reader_open(path, &r, why, sizeof(why)), 0);
	ck_assert_uint_eq(record_reader_count(r), 40);
	ck_assert_uint_eq(record_reader_changes(r, &got, &before), 40);
	for (unsigned k = 0; k < 40; k++) {
		char v[16];
		snprintf(v, sizeof(v), "%u", 128u << (k % 8));
		ck_assert_str_eq(got[k].to, v);
		ck_assert_uint_eq(before[k], k + 1);
	}
	ck_assert_msg(strstr(record_reader_warning(r), "malformed record (type 9)"), "%s", record_reader_warning(r));
	record_reader_close(r);
	sample_free(&s);
	unit_rmtree(dir);
	free(dir);
}
END_TEST

/* record_reader_limit (replay's -n): fewer samples and the changes
 * before them, never more than the file holds; a file with no whole
 * sample says why, without its path twice. */
START_TEST(test_limit_and_empty)
{
	char *dir = tmpdir(), path[4200], why[512], want[4400];
	const struct record_change *c;
	const size_t *before;
	struct record_reader *r;
	struct sample s;
	off_t head;

	snprintf(path, sizeof(path), "%s/r.btr", dir);
	write_file(path, 10); /* a change before sample 3 */
	sample_init(&s);
	ck_assert_int_eq(record_reader_open(path, &r, why, sizeof(why)), 0);
	ck_assert_int_eq(record_reader_get(r, 8, &s), 0);
	record_reader_limit(r, 20);
	ck_assert_uint_eq(record_reader_count(r), 10);
	ck_assert_uint_eq(record_reader_changes(r, &c, &before), 1);
	record_reader_limit(r, 3);
	ck_assert_uint_eq(record_reader_count(r), 3);
	ck_assert_uint_eq(record_reader_changes(r, &c, &before), 0);
	ck_assert_int_eq(record_reader_get(r, 3, &s), -ERANGE);
	{
		unsigned k[3] = { 0, 1, 2 };
		assert_replays(r, k, 3);
	}
	/* the header alone and a torn frame */
	unlink(path);
	write_file(path, 0);
	head = file_size(path);
	unlink(path);
	write_file(path, 1);
	ck_assert_int_eq(truncate(path, head + 5), 0);
	ck_assert_int_eq(record_reader_open(path, &r, why, sizeof(why)), -EINVAL);
	snprintf(want, sizeof(want), "%s: no intervals recorded: ends in a torn record at byte %lld", path, (long long)head);
	ck_assert_msg(strstr(why, want) == why, "%s", why);
	sample_free(&s);
	unit_rmtree(dir);
	free(dir);
}
END_TEST

/* A search that finds nothing stops at the last sample, also when the
 * index is exactly full (1024 entries, its first allocation). */
START_TEST(test_find_in_full_index)
{
	char *dir = tmpdir(), path[4200], why[256];
	struct record_reader *r;
	time_t never[1] = { 1 }, last[1];

	snprintf(path, sizeof(path), "%s/r.btr", dir);
	write_file(path, 1024);
	ck_assert_int_eq(record_reader_open(path, &r, why, sizeof(why)), 0);
	ck_assert_uint_eq(record_reader_count(r), 1024);
	ck_assert_uint_eq(record_reader_find(r, never, 1, 0, NULL), 1024);
	last[0] = record_reader_wall(r, 1023).tv_sec;
	ck_assert_uint_eq(record_reader_find(r, last, 1, 1000, NULL), 1023);
	record_reader_close(r);
	unit_rmtree(dir);
	free(dir);
}
END_TEST

/* A file that is no recording leaves every descriptor as it was, stdin
 * too (the open file is closed once). */
START_TEST(test_refused_file_closes_once)
{
	char *dir = tmpdir(), path[4200], why[512];
	struct record_reader *r;
	int fds = unit_count_fds();

	snprintf(path, sizeof(path), "%s/not.btr", dir);
	unit_write_file(path, "this is not a blktune recording, but long enough\n");
	ck_assert_int_ge(fcntl(0, F_GETFD), 0);
	ck_assert_int_eq(record_reader_open(path, &r, why, sizeof(why)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(why, "not a blktune recording"));
	ck_assert_int_ge(fcntl(0, F_GETFD), 0);
	ck_assert_int_eq(unit_count_fds(), fds);
	unit_rmtree(dir);
	free(dir);
}
END_TEST

struct small_files {
	char key[4200], delta[4200];
};

/* Opened with 64 MiB of address space to spare: what the files declare
 * (gigabytes) is refused before it is allocated. */
static int open_small_files(void *arg)
{
	struct small_files *sf = arg;
	struct record_reader *r;
	char why[256];

	if (unit_limit_memory(64u << 20) < 0)
		return 10;
	if (record_reader_open(sf->key, &r, why, sizeof(why)) != -EINVAL || !strstr(why, "malformed record (type 2) at byte"))
		return 11;
	if (record_reader_open(sf->delta, &r, why, sizeof(why)) != 0)
		return 12;
	if (record_reader_count(r) != 1 || !strstr(record_reader_warning(r), "malformed record (type 3)"))
		return 13;
	record_reader_close(r);
	return 0;
}

/* A file of a few hundred bytes that declares RECORD_MAX_WORDS words in a
 * key and then a hundred deltas (each a pass over them all), and one whose
 * delta brings a segment of half as many: both refused where the words
 * are declared, in bounded memory. */
START_TEST(test_small_file_many_words)
{
	static const unsigned char same[] = { 0, 0, 0 }; /* a delta: nothing moved */
	char *dir = tmpdir();
	struct small_files sf;
	struct record_flat f[2];
	struct record_buf b = { 0 };
	unsigned char p[16];

	snprintf(sf.key, sizeof(sf.key), "%s/key.btr", dir);
	snprintf(sf.delta, sizeof(sf.delta), "%s/delta.btr", dir);
	write_file(sf.key, 0);
	append_frame(sf.key, RECORD_KEY, p, words_key(p, RECORD_MAX_WORDS), 1);
	append_frame(sf.key, RECORD_DELTA, same, sizeof(same), 100);
	ck_assert_int_lt(file_size(sf.key), 1200);
	/* after a real sample, a delta: its segments as before, then a new
	 * one of RECORD_MAX_WORDS / 2 words */
	write_file(sf.delta, 1);
	record_flat_init(&f[0]);
	record_flat_init(&f[1]);
	writer_state(f, 1);
	record_buf_varint(&b, f[0].nseg + 2);
	record_buf_varint(&b, 2 * f[0].nseg);
	record_buf_varint(&b, 1);
	record_buf_varint(&b, RECORD_MAX_WORDS / 2);
	record_buf_varint(&b, 0);
	record_buf_varint(&b, 0);
	record_buf_varint(&b, 0);
	append_frame(sf.delta, RECORD_DELTA, b.p, b.n, 1);
	append_frame(sf.delta, RECORD_DELTA, same, sizeof(same), 100);
	ck_assert_int_eq(unit_in_child(open_small_files, &sf), 0);
	record_buf_free(&b);
	record_flat_free(&f[0]);
	record_flat_free(&f[1]);
	unit_rmtree(dir);
	free(dir);
}
END_TEST

/* A CPU view sample that read no CPU (a container showing none) replays:
 * sizing the rebuilt sample's per-CPU arrays to nothing must not hand
 * memset a NULL (UBSan, which the ASan build aborts on, says so). */
START_TEST(test_zero_cpus)
{
	struct record_flat f, dec;
	struct record_buf b = { 0 };
	struct sample s, out;

	record_flat_init(&f);
	record_flat_init(&dec);
	sample_init(&s);
	sample_init(&out);
	s.t = 1;
	s.cpus.valid = s.cpus.have_stat = true;
	ck_assert_int_eq(sample_cpus_reserve(&s.cpus, 0), 0);
	ck_assert_uint_eq(s.cpus.ncpu, 0);
	ck_assert_int_eq(record_flatten(&s, &f), 0);
	ck_assert_int_eq(record_encode(NULL, &f, &b), 0);
	ck_assert_int_eq(record_decode(&dec, true, b.p, b.n), 0);
	ck_assert_int_eq(record_unflatten(&dec, RECORD_VERSION, &out), 0);
	ck_assert(out.cpus.valid);
	ck_assert_uint_eq(out.cpus.ncpu, 0);
	assert_same(&s, &out);
	record_buf_free(&b);
	record_flat_free(&f);
	record_flat_free(&dec);
	sample_free(&s);
	sample_free(&out);
}
END_TEST

/* The per-item strings and segments the totals are derived from are what
 * the walk writes: a string added to a device would make RECORD_MAX_STRINGS
 * refuse what RECORD_MAX_DISKS allows. */
START_TEST(test_limits_follow_the_walk)
{
	struct record_flat f;
	struct sample s;
	size_t ns0, nseg0;

	record_flat_init(&f);
	sample_init(&s);
	/* every part present and empty, and the most of the rest */
	s.cpus.valid = true;
	s.cpus.nirq = SAMPLE_IRQ_MAX;
	s.ntemps = SAMPLE_TEMPS_MAX;
	s.ra_valid = s.cg.valid = s.procs.valid = s.procs.traced = true;
	/* untraced: why, one string more than the empty traced part */
	ck_assert_int_eq(record_flatten(&s, &f), 0);
	ck_assert_uint_eq(f.ns, RECORD_OTHER_STRINGS);
	s.traced = true;
	ck_assert_int_eq(record_flatten(&s, &f), 0);
	ck_assert_uint_eq(f.ns, RECORD_OTHER_STRINGS - 1);
	ck_assert_uint_eq(f.nseg, RECORD_OTHER_SEGS);
	ns0 = f.ns;
	nseg0 = f.nseg;
	ck_assert_ptr_nonnull(sample_add_disk(&s));
	ck_assert_int_eq(disk_text_own(&s.disks[0].info.text), 0);
	ck_assert_int_eq(trace_sample_resize(&s.trace, 1, 1), 0);
	ck_assert_int_eq(ra_sample_resize(&s.ra, 1), 0);
	ck_assert_ptr_nonnull(cgroup_sample_add_group(&s.cg, 1, "/", 0));
	ck_assert_ptr_nonnull(proc_sample_add(&s.procs, 1, 1));
	ck_assert_ptr_nonnull(proc_sample_add_trace(&s.procs, 1, 1));
	ck_assert_ptr_nonnull(proc_sample_add_cgtrace(&s.procs, 1, 1));
	ck_assert_ptr_nonnull(proc_sample_add_loss(&s.procs, 1));
	ck_assert_int_eq(record_flatten(&s, &f), 0);
	ck_assert_uint_eq(f.ns - ns0, RECORD_DISK_STRINGS + RECORD_PROC_STRINGS + 1 + RECORD_PROC_TRACE_STRINGS);
	/* 3 device lists, a cgroup, a process, 2 traced pairs, a loss */
	ck_assert_uint_eq(f.nseg - nseg0, 8);
	ck_assert_uint_eq(RECORD_MAX_STRINGS, RECORD_MAX_DISKS * RECORD_DISK_STRINGS +
						      RECORD_MAX_PROCS * RECORD_PROC_STRINGS + RECORD_MAX_CGROUPS +
						      RECORD_MAX_PROC_TRACES * RECORD_PROC_TRACE_STRINGS +
						      RECORD_OTHER_STRINGS);
	ck_assert_uint_eq(RECORD_MAX_SEGS, 4 * RECORD_MAX_DISKS + RECORD_MAX_PROCS + RECORD_MAX_CGROUPS +
						   RECORD_MAX_PROC_TRACES + RECORD_MAX_CG_TRACES + RECORD_OTHER_SEGS);
	record_flat_free(&f);
	sample_free(&s);
}
END_TEST

/* --trace-processes' pairs that come and go, k from 0: pid 300 starts on
 * loop1 at 3 (at the front of its device's pairs: PID order) and goes at
 * 7; pid 101 stops at 5; from 6 pid 102 is another process (a new start
 * time) whose pairs count from little again; a cgroup pair comes at 4, a
 * device's loss at 2; nothing is traced at 8. */
static void traced_churn(struct sample *s, unsigned k)
{
	struct proc_sample *ps = &s->procs;

	make_sample(s, k);
	ps->ntr = ps->ncg = ps->nloss = 0;
	if (k == 8) {
		ps->traced = false;
		return;
	}
	for (size_t i = 0; i < ps->n; i++)
		if (ps->p[i].pid == 102 && k >= 6)
			ps->p[i].start = 99999;
	for (pid_t pid = 101; pid <= 300; pid++) {
		struct proc_trace *t;

		if ((pid == 101 && k >= 5) || (pid > 102 && pid != 300) || (pid == 300 && (k < 3 || k >= 7)))
			continue;
		for (unsigned d = 0; d < (pid == 102 ? 2u : 1u); d++) {
			if (!(t = proc_sample_add_trace(ps, pid, makedev(7, d + (pid == 300)))))
				ck_abort_msg("no memory");
			fill_counts(&t->c, (uint64_t)pid * 1000000 + d, pid == 102 && k >= 6 ? k - 6 : k);
			snprintf(t->comm, sizeof(t->comm), "p%d", (int)pid);
			t->cgroup_id = 55;
		}
	}
	for (unsigned i = 0; i < (k >= 4 ? 2u : 1u); i++) {
		struct proc_cgtrace *c = proc_sample_add_cgtrace(ps, 55 + 10 * i, makedev(7, 1));
		if (!c)
			ck_abort_msg("no memory");
		fill_counts(&c->c, 7000000 + i, k);
	}
	for (unsigned i = 0; i < (k >= 2 ? 2u : 1u); i++) {
		struct proc_loss *l = proc_sample_add_loss(ps, makedev(7, 1 - i));
		if (!l)
			ck_abort_msg("no memory");
		l->no_start = k + i;
	}
	proc_sample_sort_traced(ps);
}

/* Written to a file (keys every 4) and read back in any order: every
 * sample is the one written, its traced pairs field by field. */
START_TEST(test_traced_churn_file)
{
	struct record_meta m = { .host = "h", .interval = 1, .start = 1764633600, .key_every = 4 };
	static const size_t order[] = { 9, 0, 5, 6, 7, 3, 3, 2, 8, 1, 4, 6 };
	char *dir = tmpdir(), path[4200], why[256];
	struct record_reader *r;
	struct record *w;
	struct sample want, got;

	snprintf(path, sizeof(path), "%s/r.btr", dir);
	sample_init(&want);
	sample_init(&got);
	ck_assert_int_eq(record_create(path, &m, &w, why, sizeof(why)), 0);
	for (unsigned k = 0; k < 10; k++) {
		traced_churn(&want, k);
		ck_assert_int_eq(record_sample(w, &want, why, sizeof(why)), 0);
	}
	ck_assert_int_eq(record_close(w), 0);
	ck_assert_int_eq(record_reader_open(path, &r, why, sizeof(why)), 0);
	ck_assert_uint_eq(record_reader_count(r), 10);
	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		traced_churn(&want, (unsigned)order[i]);
		ck_assert_int_eq(record_reader_get(r, order[i], &got), 0);
		assert_same(&want, &got);
		ck_assert_uint_eq(got.procs.ntr, order[i] == 8 ? 0 : 2 + (order[i] < 5) + (order[i] >= 3 && order[i] < 7));
	}
	/* the reused PID's pair counts from its own start */
	ck_assert_int_eq(record_reader_get(r, 6, &got), 0);
	ck_assert_int_eq(got.procs.tr[0].tgid, 102);
	ck_assert_uint_eq(got.procs.tr[0].c.requests[0], 102000000 + 0 * 1000);
	record_reader_close(r);
	sample_free(&want);
	sample_free(&got);
	unit_rmtree(dir);
	free(dir);
}
END_TEST

/* The key of segment kind's i-th segment after the traced part's first
 * (the one of counts: its key is the kind's alone). */
static uint64_t traced_key(const struct sample *s, size_t i)
{
	struct record_flat f;
	uint64_t key = 0;

	record_flat_init(&f);
	ck_assert_int_eq(record_flatten(s, &f), 0);
	for (size_t j = 0; j < f.nseg; j++)
		if (f.seg[j].key == (uint64_t)13 << 56) {
			ck_assert_uint_lt(j + 1 + i, f.nseg);
			key = f.seg[j + 1 + i].key;
		}
	record_flat_free(&f);
	ck_assert_uint_ne(key, 0);
	return key;
}

/* Each traced pair and loss is a segment keyed by what it counts: a
 * process's pair by PID, start time and device (a PID reused by another
 * process is another pair), a cgroup's by id and device, a loss by
 * device; counts that move, or other pairs coming before it, do not
 * change a key. */
START_TEST(test_traced_identities)
{
	struct sample a, b;
	/* make_sample's order: (101, 7:0) (102, 7:0) (102, 7:1), then the
	 * cgroups (1, 7:1) (55, 7:1), then the loss of 7:1 */
	uint64_t k101, k102a, k102b, kcg1, kcg55, kloss;

	sample_init(&a);
	sample_init(&b);
	make_sample(&a, 1);
	k101 = traced_key(&a, 0);
	k102a = traced_key(&a, 1);
	k102b = traced_key(&a, 2);
	kcg1 = traced_key(&a, 3);
	kcg55 = traced_key(&a, 4);
	kloss = traced_key(&a, 5);
	ck_assert_uint_ne(k101, k102a);
	ck_assert_uint_ne(k102a, k102b); /* another device */
	ck_assert_uint_ne(kcg1, kcg55);  /* another cgroup */
	ck_assert_uint_ne(k102b, kcg55); /* a cgroup's is no process's */
	ck_assert_uint_ne(kcg55, kloss);
	/* counts move: the same keys */
	make_sample(&b, 7);
	ck_assert_uint_eq(traced_key(&b, 1), k102a);
	ck_assert_uint_eq(traced_key(&b, 4), kcg55);
	ck_assert_uint_eq(traced_key(&b, 5), kloss);
	/* pid 102 gone from /proc (start unknown), then another process under it */
	b.procs.p[2].pid = 103;
	ck_assert_uint_ne(traced_key(&b, 1), k102a);
	b.procs.p[2].pid = 102;
	b.procs.p[2].start++;
	ck_assert_uint_ne(traced_key(&b, 1), k102a);
	ck_assert_uint_eq(traced_key(&b, 0), k101);
	/* the same cgroup on another device; a loss of another device */
	b.procs.cg[1].dev = makedev(7, 2);
	b.procs.loss[0].dev = makedev(7, 2);
	ck_assert_uint_ne(traced_key(&b, 4), kcg55);
	ck_assert_uint_ne(traced_key(&b, 5), kloss);
	/* an unknown cgroup (id 0) on a device is not that device's loss */
	b.procs.cg[0].cgroup_id = 0;
	b.procs.cg[0].dev = b.procs.loss[0].dev;
	ck_assert_uint_ne(traced_key(&b, 3), traced_key(&b, 5));
	/* nor a process's pair whose PID and start time are 0 */
	b.procs.tr[0].tgid = 0;
	b.procs.tr[0].dev = b.procs.loss[0].dev;
	ck_assert_uint_ne(traced_key(&b, 0), traced_key(&b, 3));
	ck_assert_uint_ne(traced_key(&b, 0), traced_key(&b, 5));
	sample_free(&a);
	sample_free(&b);
}
END_TEST

/* A pair that comes or goes at the front of the list costs what it costs
 * at the end: its own words and a few bytes of layout. */
START_TEST(test_traced_churn_cost)
{
	struct sample a;
	struct record_flat f[2];
	struct record_buf b = { 0 };
	size_t len[2][6];

	sample_init(&a);
	for (int front = 0; front < 2; front++) {
		record_flat_init(&f[0]);
		record_flat_init(&f[1]);
		for (unsigned k = 0; k < 6; k++) {
			struct record_flat *prev = k ? &f[(k - 1) % 2] : NULL, *cur = &f[k % 2];
			make_sample(&a, k);
			if (k >= 2 && k < 4) { /* a pair of pid 1 or pid 900 */
				struct proc_trace *t = proc_sample_add_trace(&a.procs, front ? 1 : 900, makedev(7, 0));
				ck_assert_ptr_nonnull(t);
				fill_counts(&t->c, 1, k);
				proc_sample_sort_traced(&a.procs);
			}
			ck_assert_int_eq(record_flatten(&a, cur), 0);
			b.n = 0;
			ck_assert_int_eq(record_encode(prev, cur, &b), 0);
			len[front][k] = b.n;
		}
		record_flat_free(&f[0]);
		record_flat_free(&f[1]);
	}
	for (unsigned k = 2; k < 6; k++)
		ck_assert_msg(len[1][k] <= len[0][k] + 4, "record %u: %zu bytes at the front, %zu at the end", k, len[1][k],
			      len[0][k]);
	record_buf_free(&b);
	sample_free(&a);
}
END_TEST

/* The bits a record spends are charged to the group of the words that
 * moved (tests/bench/record-breakdown's table): a readahead counter that
 * moves costs the readahead group alone, a CPU's traced count the per-CPU
 * group alone, and the charges add up to no more than the payload. */
START_TEST(test_cost_by_group)
{
	static const unsigned char want[] = { RG_RA, RG_TR_CPU };
	double cost[RECORD_GROUPS], total;
	struct record_flat key, cur;
	struct record_buf b = { 0 };
	struct sample a;

	sample_init(&a);
	record_flat_init(&key);
	record_flat_init(&cur);
	make_sample(&a, 1);
	ck_assert_int_eq(record_flatten(&a, &key), 0);
	ck_assert_int_eq(record_encode(NULL, &key, &b), 0);
	for (size_t step = 0; step < sizeof(want); step++) {
		make_sample(&a, 1);
		if (want[step] == RG_RA)
			a.ra.devs[0].c.hit += 1000;
		else
			a.trace.cpu[3].completed += 1000;
		ck_assert_int_eq(record_flatten(&a, &cur), 0);
		memset(cost, 0, sizeof(cost));
		cur.cost = cost;
		b.n = 0;
		ck_assert_int_eq(record_encode(&key, &cur, &b), 0);
		cur.cost = NULL;
		total = 0;
		for (unsigned g = 0; g < RECORD_GROUPS; g++) {
			ck_assert_msg(g == want[step] || cost[g] == 0, "step %zu: %g bits charged to %s", step, cost[g],
				      record_group_name[g]);
			total += cost[g];
		}
		ck_assert_msg(cost[want[step]] > 0 && total <= 8.0 * (double)b.n, "step %zu: %g bits of %zu bytes",
			      step, total, b.n);
	}
	record_buf_free(&b);
	record_flat_free(&key);
	record_flat_free(&cur);
	sample_free(&a);
}
END_TEST

/* Any number of devices, across the counts where the lists of words,
 * strings and segments grow: each sample comes back, from a key or as a
 * delta on the one before (one more device each). */
START_TEST(test_disk_counts)
{
	struct record_flat f[2], dec;
	struct record_buf b = { 0 };
	struct sample a, out;

	sample_init(&a);
	sample_init(&out);
	record_flat_init(&f[0]);
	record_flat_init(&f[1]);
	record_flat_init(&dec);
	for (unsigned n = 1; n <= 140; n++) {
		struct record_flat *cur = &f[n % 2];
		bool key = n % 16 == 1;

		sample_clear(&a);
		a.t = n;
		for (unsigned i = 0; i < n; i++) {
			struct disk_sample *d = sample_add_disk(&a);

			ck_assert_ptr_nonnull(d);
			d->st.dev = makedev(8, i);
			snprintf(d->st.name, sizeof(d->st.name), "sd%u", i);
			d->st.rd_ios = (uint64_t)n * i;
		}
		ck_assert_int_eq(record_flatten(&a, cur), 0);
		b.n = 0;
		ck_assert_int_eq(record_encode(key ? NULL : &f[(n + 1) % 2], cur, &b), 0);
		ck_assert_msg(record_decode(&dec, key, b.p, b.n) == 0, "%u devices", n);
		ck_assert_int_eq(record_unflatten(&dec, RECORD_VERSION, &out), 0);
		ck_assert_uint_eq(out.ndisks, n);
		ck_assert(out.t == n);
		for (unsigned i = 0; i < n; i++)
			if (out.disks[i].st.rd_ios != (uint64_t)n * i || strcmp(out.disks[i].st.name, a.disks[i].st.name))
				ck_abort_msg("%u devices: device %u differs", n, i);
	}
	/* the same 140 devices in the reverse order: each is found where it
	 * stood, and the record holds the new layout, not their values again */
	{
		struct record_flat *prev = &f[140 % 2], *cur = &f[141 % 2];
		struct disk_sample tmp;

		for (unsigned i = 0; i < 70; i++) {
			tmp = a.disks[i];
			a.disks[i] = a.disks[139 - i];
			a.disks[139 - i] = tmp;
		}
		ck_assert_int_eq(record_flatten(&a, cur), 0);
		b.n = 0;
		ck_assert_int_eq(record_encode(prev, cur, &b), 0);
		ck_assert_msg(b.n <= 8 * 140, "%zu bytes", b.n);
		ck_assert_int_eq(record_decode(&dec, false, b.p, b.n), 0);
		ck_assert_int_eq(record_unflatten(&dec, RECORD_VERSION, &out), 0);
		ck_assert_uint_eq(out.disks[0].st.rd_ios, 140 * 139);
		ck_assert_str_eq(out.disks[0].st.name, "sd139");
	}
	record_buf_free(&b);
	record_flat_free(&f[0]);
	record_flat_free(&f[1]);
	record_flat_free(&dec);
	sample_free(&a);
	sample_free(&out);
}
END_TEST

/* Words of a traced part that lie: a count past its limit, a count the
 * words do not hold (refused, not allocated for), a PID's pairs out of
 * order (sorted, as the source sorts them). */
START_TEST(test_traced_hostile_words)
{
	struct sample a, out;
	struct record_flat f;
	size_t h = SIZE_MAX;

	sample_init(&a);
	sample_init(&out);
	record_flat_init(&f);
	make_sample(&a, 1);
	ck_assert_int_eq(record_flatten(&a, &f), 0);
	for (size_t j = 0; j < f.nseg; j++)
		if (f.seg[j].key == (uint64_t)13 << 56)
			h = f.seg[j].w0;
	ck_assert_uint_ne(h, SIZE_MAX);
	/* traced, skipped, not kept, then the three counts */
	ck_assert_uint_eq(f.w[h], 1);
	ck_assert_uint_eq(f.w[h + 3], 3);
	ck_assert_uint_eq(f.w[h + 4], 2);
	ck_assert_uint_eq(f.w[h + 5], 1);
	for (int c = 0; c < 3; c++) {
		static const uint64_t max[3] = { RECORD_MAX_PROC_TRACES, RECORD_MAX_CG_TRACES, RECORD_MAX_DISKS };
		uint64_t was = f.w[h + 3 + c];

		f.w[h + 3 + c] = max[c] + 1;
		ck_assert_int_eq(record_unflatten(&f, RECORD_VERSION, &out), -EINVAL);
		f.w[h + 3 + c] = max[c]; /* allowed, but the words are not there */
		ck_assert_int_eq(record_unflatten(&f, RECORD_VERSION, &out), -EINVAL);
		ck_assert_uint_lt(out.procs.trcap + out.procs.cgcap + out.procs.losscap, 64 + 16 + 8 + 3);
		f.w[h + 3 + c] = UINT64_MAX;
		ck_assert_int_eq(record_unflatten(&f, RECORD_VERSION, &out), -EINVAL);
		f.w[h + 3 + c] = was;
	}
	ck_assert_int_eq(record_unflatten(&f, RECORD_VERSION, &out), 0);
	assert_same(&a, &out);
	/* a version the walk does not know */
	ck_assert_int_eq(record_unflatten(&f, RECORD_VERSION + 1, &out), -EINVAL);
	ck_assert_int_eq(record_unflatten(&f, RECORD_VERSION_MIN - 1, &out), -EINVAL);
	/* pairs written out of order come back in the order the models search */
	{
		struct proc_trace t = a.procs.tr[0];
		a.procs.tr[0] = a.procs.tr[2];
		a.procs.tr[2] = t;
		ck_assert_int_eq(record_flatten(&a, &f), 0);
		ck_assert_int_eq(record_unflatten(&f, RECORD_VERSION, &out), 0);
		ck_assert_int_eq(out.procs.tr[0].tgid, 101);
		ck_assert_ptr_nonnull(proc_sample_trace(&out.procs, 102, makedev(7, 1)));
	}
	record_flat_free(&f);
	sample_free(&a);
	sample_free(&out);
}
END_TEST

/* Rewrite the CRC-32C of the frame at off whose payload, len bytes,
 * starts at pay. */
static void fix_crc(unsigned char *p, size_t off, size_t pay, size_t len)
{
	uint32_t crc = crc32c(0, p + off, pay + len - off);

	for (int i = 0; i < 4; i++)
		p[pay + len + (size_t)i] = (unsigned char)(crc >> (8 * i));
}

/* A recording with traced pairs, corrupted byte by byte inside its
 * sample frames with every checksum made right again: each copy is
 * refused or replays what it can (up to a malformed record), never
 * crashes or overruns (ASan), and what is replayed decodes. */
START_TEST(test_traced_corrupt_file)
{
	char *dir = tmpdir(), path[4200], bad[4200], why[512];
	unsigned char *buf;
	size_t size, frames[32], pay[32], plen[32], nf = 0;
	struct sample s;
	FILE *fp;

	snprintf(path, sizeof(path), "%s/r.btr", dir);
	snprintf(bad, sizeof(bad), "%s/bad.btr", dir);
	sample_init(&s);
	{
		struct record_meta m = { .host = "h", .interval = 1, .start = 1764633600, .key_every = 3 };
		struct record *w;
		ck_assert_int_eq(record_create(path, &m, &w, why, sizeof(why)), 0);
		for (unsigned k = 0; k < 6; k++) {
			traced_churn(&s, k);
			ck_assert_int_eq(record_sample(w, &s, why, sizeof(why)), 0);
		}
		ck_assert_int_eq(record_close(w), 0);
	}
	size = (size_t)file_size(path);
	buf = malloc(size);
	ck_assert_ptr_nonnull(buf);
	fp = fopen(path, "r");
	ck_assert_ptr_nonnull(fp);
	ck_assert_uint_eq(fread(buf, 1, size, fp), size);
	fclose(fp);
	/* the frames: 12 bytes of magic and version, then type, length, payload, CRC */
	for (size_t off = 12; off < size && nf < 32;) {
		size_t len = 0, at = off + 1;
		unsigned shift = 0;
		do {
			len |= (size_t)(buf[at] & 0x7f) << shift;
			shift += 7;
		} while (buf[at++] & 0x80);
		frames[nf] = off;
		pay[nf] = at;
		plen[nf++] = len;
		off = at + len + 4;
	}
	ck_assert_uint_eq(nf, 7);
	for (size_t fi = 1; fi < nf; fi++) {
		/* every byte of a key and a delta, a sample of the others' */
		size_t step = fi == 1 || fi == 2 ? 1 : 7;
		for (size_t at = pay[fi]; at < pay[fi] + plen[fi]; at += step) {
			for (int flip = 0; flip < 2; flip++) {
				struct record_reader *r;
				unsigned char was = buf[at];
				buf[at] = flip ? (unsigned char)(was ^ 0xff) : (unsigned char)(was + 1);
				fix_crc(buf, frames[fi], pay[fi], plen[fi]);
				fp = fopen(bad, "w");
				ck_assert_ptr_nonnull(fp);
				ck_assert_uint_eq(fwrite(buf, 1, size, fp), size);
				fclose(fp);
				if (record_reader_open(bad, &r, why, sizeof(why)) == 0) {
					size_t n = record_reader_count(r);
					if (n > 6 || (n < 6 && !record_reader_warning(r)[0]))
						ck_abort_msg("byte %zu: %zu samples, warning '%s'", at, n, record_reader_warning(r));
					for (size_t i = n; i-- > 0;)
						if (record_reader_get(r, i, &s) < 0)
							ck_abort_msg("byte %zu: sample %zu indexed but not rebuilt", at, i);
					record_reader_close(r);
				}
				buf[at] = was;
				fix_crc(buf, frames[fi], pay[fi], plen[fi]);
			}
		}
	}
	free(buf);
	sample_free(&s);
	unit_rmtree(dir);
	free(dir);
}
END_TEST

/* A recording of format 4, written by the blktune of its time (before
 * the traced requests per process and cgroup): it replays, untraced, and
 * its words walked as format 5 are no sample (the reader walks each file
 * as its version wrote it). */
START_TEST(test_format4_fixture)
{
	char path[4200], why[512];
	struct record_reader *r;
	struct sample s;

	snprintf(path, sizeof(path), "%s/v4.btr", unit_fixture("record"));
	sample_init(&s);
	ck_assert_int_eq(record_reader_open(path, &r, why, sizeof(why)), 0);
	ck_assert_str_eq(record_reader_warning(r), "");
	ck_assert_uint_eq(record_reader_count(r), 4); /* -n 3: the first sample and 3 intervals */
	ck_assert_str_eq(record_reader_meta(r)->host, "vm");
	for (size_t i = 0; i < 4; i++) {
		ck_assert_int_eq(record_reader_get(r, i, &s), 0);
		ck_assert_uint_eq(s.ndisks, 10);
		ck_assert(s.cg.valid && !s.procs.valid && !s.procs.traced);
	}
	ck_assert_str_eq(s.disks[1].st.name, "loop1");
	ck_assert_uint_eq(s.disks[1].st.rd_ios, 0);
	record_reader_close(r);
	sample_free(&s);
}
END_TEST

/* A recording of make_sample(0) then the samples fill(k) builds, k from 0:
 * each written (0) or refused (-E2BIG, with why holding want); then the
 * reader takes exactly those written, and the last as it was. */
struct limit_case {
	void (*fill)(struct sample *s, unsigned k);
	unsigned n;
	int ok[4];
	const char *want;
};

static void write_limits(const struct limit_case *lc)
{
	struct record_meta m = { .host = "h", .interval = 1, .start = 1764633600, .key_every = 2 };
	char *dir = tmpdir(), path[4200], why[256];
	struct record_reader *r;
	struct record *w;
	struct sample s, got, last;
	size_t written = 1;
	off_t before;

	snprintf(path, sizeof(path), "%s/r.btr", dir);
	sample_init(&s);
	sample_init(&got);
	sample_init(&last);
	ck_assert_int_eq(record_create(path, &m, &w, why, sizeof(why)), 0);
	make_sample(&s, 0);
	ck_assert_int_eq(record_sample(w, &s, why, sizeof(why)), 0);
	for (unsigned k = 0; k < lc->n; k++) {
		lc->fill(&s, k);
		before = file_size(path);
		why[0] = '\0';
		ck_assert_int_eq(record_sample(w, &s, why, sizeof(why)), lc->ok[k]);
		if (lc->ok[k]) {
			ck_assert_msg(strstr(why, lc->want), "why: %s", why);
			ck_assert_int_eq(file_size(path), before); /* not a byte of it */
			continue;
		}
		lc->fill(&last, k);
		written++;
	}
	ck_assert_int_eq(record_close(w), 0);
	ck_assert_int_eq(record_reader_open(path, &r, why, sizeof(why)), 0);
	ck_assert_str_eq(record_reader_warning(r), "");
	ck_assert_uint_eq(record_reader_count(r), written);
	ck_assert_int_eq(record_reader_get(r, written - 1, &got), 0);
	if (written > 1)
		assert_same(&last, &got);
	record_reader_close(r);
	sample_free(&s);
	sample_free(&got);
	sample_free(&last);
	unit_rmtree(dir);
	free(dir);
}

/* RECORD_MAX_DISKS devices, then one more, then as many again */
static void fill_disks(struct sample *s, unsigned k)
{
	size_t n = RECORD_MAX_DISKS + (k == 1);

	sample_clear(s);
	s->t = 2000 + k;
	s->wall.tv_sec = 1764633601 + k;
	for (size_t i = 0; i < n; i++) {
		struct disk_sample *d = sample_add_disk(s);
		ck_assert_ptr_nonnull(d);
		d->st.dev = makedev(259, (unsigned)i);
		snprintf(d->st.name, sizeof(d->st.name), "nvme%zun1", i);
		d->st.rd_ios = i * 3 + k;
		ck_assert_int_eq(disk_text_own(&d->info.text), 0);
	}
}

START_TEST(test_limit_disks)
{
	static const struct limit_case lc = { fill_disks, 3, { 0, -E2BIG, 0 }, "65537 devices, more than a recording holds (65536)" };

	write_limits(&lc);
}
END_TEST

/* RECORD_MAX_CPUS CPUs in the CPU view, one more, as many again */
static void fill_cpus(struct sample *s, unsigned k)
{
	unsigned n = RECORD_MAX_CPUS + (k == 1);

	make_sample(s, 1 + k);
	ck_assert_int_eq(sample_cpus_reserve(&s->cpus, n), 0);
	s->cpus.stat[n - 1].idle = 5 + k;
	s->cpus.irq_count[(size_t)n * s->cpus.nirq - 1] = 7;
}

START_TEST(test_limit_cpus)
{
	static const struct limit_case lc = { fill_cpus, 3, { 0, -E2BIG, 0 }, "8193 CPUs, more than a recording holds (8192)" };

	write_limits(&lc);
}
END_TEST

/* 400000 processes, beyond the 349k the old string limit let a reader take */
static void fill_procs(struct sample *s, unsigned k)
{
	make_sample(s, 1 + k);
	for (pid_t pid = 1000; pid < 400000; pid++) {
		struct proc_entry *e = proc_sample_add(&s->procs, pid, (uint64_t)pid * 7);
		ck_assert_ptr_nonnull(e);
		snprintf(e->comm, sizeof(e->comm), "w%d", (int)pid % 97);
		e->rbytes = (uint64_t)pid * k;
	}
}

START_TEST(test_limit_procs)
{
	static const struct limit_case lc = { fill_procs, 2, { 0, 0 }, "" };

	write_limits(&lc);
}
END_TEST

/* Traced devices numbered 0 with every counter 0 and the most CPUs cost a
 * few bytes of layout for 50k words each: more new words a byte than a
 * reader takes. The writer refuses the sample; the file ends before it. */
static void fill_dense(struct sample *s, unsigned k)
{
	make_sample(s, 1 + k);
	if (k)
		return;
	/* the traced requests per process as in the sample before: bytes
	 * of theirs would pay for the dense devices */
	s->procs.ntr = s->procs.ncg = s->procs.nloss = 0;
	make_traced(&s->procs, 0);
	ck_assert_int_eq(trace_sample_resize(&s->trace, RECORD_MAX_CPUS, 64), 0);
}

START_TEST(test_limit_new_per_byte)
{
	static const struct limit_case lc = { fill_dense, 2, { -E2BIG, 0 },
					      "new words and strings for its payload's size, more than a recording holds" };

	write_limits(&lc);
}
END_TEST

/* RECORD_MAX_PROC_TRACES (process, device) pairs, one more, as many again */
static void fill_proc_traces(struct sample *s, unsigned k)
{
	make_sample(s, 1 + k);
	s->procs.ntr = 0;
	for (size_t i = 0; i < RECORD_MAX_PROC_TRACES + (k == 1); i++) {
		struct proc_trace *t = proc_sample_add_trace(&s->procs, (pid_t)(1000 + i / 4), makedev(8, (unsigned)(i % 4)));
		if (!t)
			ck_abort_msg("no memory");
		t->c.requests[0] = i + k;
	}
}

START_TEST(test_limit_proc_traces)
{
	static const struct limit_case lc = { fill_proc_traces, 3, { 0, -E2BIG, 0 },
					      "65537 traced (process, device) pairs, more than a recording holds (65536)" };

	write_limits(&lc);
}
END_TEST

/* RECORD_MAX_CG_TRACES (cgroup, device) pairs and as many devices' losses
 * (RECORD_MAX_DISKS), then a pair more, as many again, a loss more */
static void fill_cg_traces(struct sample *s, unsigned k)
{
	make_sample(s, 1 + k);
	s->procs.ncg = s->procs.nloss = 0;
	for (size_t i = 0; i < RECORD_MAX_CG_TRACES + (k == 1); i++) {
		struct proc_cgtrace *c = proc_sample_add_cgtrace(&s->procs, 1000 + i / 4, makedev(8, (unsigned)(i % 4)));
		if (!c)
			ck_abort_msg("no memory");
		c->c.done = i + k;
	}
	for (size_t i = 0; i < RECORD_MAX_DISKS + (k == 3); i++) {
		struct proc_loss *l = proc_sample_add_loss(&s->procs, makedev(259, (unsigned)i));
		if (!l)
			ck_abort_msg("no memory");
		l->no_start = k;
	}
}

START_TEST(test_limit_cg_traces)
{
	static const struct limit_case lc = { fill_cg_traces, 3, { 0, -E2BIG, 0 },
					      "16385 traced (cgroup, device) pairs, more than a recording holds (16384)" };

	write_limits(&lc);
}
END_TEST

START_TEST(test_limit_losses)
{
	static const struct limit_case lc = { fill_cg_traces, 4, { 0, -E2BIG, 0, -E2BIG },
					      "more than a recording holds" };

	write_limits(&lc);
}
END_TEST

UNIT_SUITE(record_suite)
static Suite *record_suite(void)
{
	Suite *s = suite_create("record");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_crc32c);
	tcase_add_test(tc, test_roundtrip_key_and_delta);
	tcase_add_test(tc, test_trace_off_recorded);
	tcase_add_test(tc, test_idle_delta);
	tcase_add_test(tc, test_codec_boundaries);
	tcase_add_test(tc, test_size_prediction);
	tcase_add_test(tc, test_churn);
	tcase_add_test(tc, test_malformed_payloads);
	tcase_add_test(tc, test_disk_kind_range);
	tcase_add_test(tc, test_file_roundtrip_and_seek);
	tcase_add_test(tc, test_torn_tail);
	tcase_add_test(tc, test_bad_crc_stops_there);
	tcase_add_test(tc, test_refusals);
	tcase_add_test(tc, test_change_values_whole);
	tcase_add_test(tc, test_limit_and_empty);
	tcase_add_test(tc, test_refused_file_closes_once);
	tcase_add_test(tc, test_find_in_full_index);
	tcase_add_test(tc, test_many_changes_unknown_type);
	tcase_add_test(tc, test_sample_clocks_in_range);
	tcase_add_test(tc, test_cut_while_open);
	tcase_add_test(tc, test_failed_write_cut_off);
	tcase_add_test(tc, test_malformed_frame_mid_file);
	tcase_add_test(tc, test_malformed_frame_keeps_last_sample);
	tcase_add_test(tc, test_unrebuildable_sample_stops_there);
	tcase_add_test(tc, test_new_words_per_byte);
	tcase_add_test(tc, test_small_file_many_words);
	tcase_add_test(tc, test_limits_follow_the_walk);
	tcase_add_test(tc, test_zero_cpus);
	tcase_add_test(tc, test_traced_churn_file);
	tcase_add_test(tc, test_traced_identities);
	tcase_add_test(tc, test_traced_churn_cost);
	tcase_add_test(tc, test_cost_by_group);
	tcase_add_test(tc, test_disk_counts);
	tcase_add_test(tc, test_traced_hostile_words);
	tcase_add_test(tc, test_format4_fixture);
	suite_add_tcase(s, tc);
	/* samples at the limits: tens of MB each, slow under ASan */
	tc = tcase_create("limits");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_limit_disks);
	tcase_add_test(tc, test_limit_cpus);
	tcase_add_test(tc, test_limit_procs);
	tcase_add_test(tc, test_limit_new_per_byte);
	tcase_add_test(tc, test_limit_proc_traces);
	tcase_add_test(tc, test_limit_cg_traces);
	tcase_add_test(tc, test_limit_losses);
	suite_add_tcase(s, tc);
	/* thousands of corrupted copies opened and rebuilt: seconds under ASan */
	tc = tcase_create("corrupt");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_traced_corrupt_file);
	suite_add_tcase(s, tc);
	return s;
}
