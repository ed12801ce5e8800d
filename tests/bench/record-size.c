/* The size of a recording (blktune -w) of 24 h at 1 s on 64 devices, from
 * an hour of synthetic samples written by the real recorder: counters that
 * move the way busy devices move theirs (rates with noise, latency and size
 * spread over several buckets, per-CPU counts and a completion matrix),
 * scaled to 86400 intervals. Usage: record-size SCENARIO FILE
 *   idle     64 devices, no I/O (the floor: what a frame costs)
 *   typical  64 devices, 8 busy and traced, 56 idle; 16 CPUs, 4 issuing
 *   busy     64 devices all busy and traced, reads and writes; 16 CPUs all
 *            issuing and completing, the matrix's diagonal and neighbours
 *   typical-untraced, busy-untraced  the same without tracing
 *   worst    as busy, and every CPU completing every CPU's requests (the
 *            whole 16x16 matrix moves), latency over 12 buckets per op
 * Prints: scenario, intervals written, bytes, bytes per interval, MB per
 * 24 h, and the entropy of the noise drawn (the floor for any coding). */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "record.h"
#include "sample.h"

#define NDEV 64
#define NCPU 16
#define HOUR 3600

static uint64_t rng = 88172645463325252ull;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* The information the noise carries: each draw is uniform over its
 * range, log2 of its size in bits; no lossless coding of these samples can
 * take less (a coder that knew the generator would need no more). */
static double entropy_bits;

/* about mean, +-12 % */
static uint64_t around(uint64_t mean)
{
	if (mean)
		entropy_bits += log2((double)(mean / 4 + 1));
	return mean ? mean - mean / 8 + next() % (mean / 4 + 1) : 0;
}

struct scenario {
	const char *name;
	int busy;           /* busy devices */
	uint64_t r_iops, w_iops;
	int cpus;           /* CPUs issuing */
	int lat_buckets;    /* latency buckets that move, per op */
	int size_buckets;
	int matrix;         /* 0 diagonal, 1 diagonal and neighbours, 2 all */
	bool untraced;      /* diskstats only (--no-trace, or no BPF) */
};

static const struct scenario scenarios[] = {
	{ "idle", 0, 0, 0, 0, 0, 0, 0 },
	{ "typical", 8, 2000, 800, 4, 5, 2, 0 },
	{ "typical-untraced", 8, 2000, 800, 4, 5, 2, 0, true },
	{ "busy", 64, 20000, 8000, 16, 8, 4, 1 },
	{ "busy-untraced", 64, 20000, 8000, 16, 8, 4, 1, true },
	{ "worst", 64, 50000, 20000, 16, 12, 8, 2 },
};

static void spread(uint64_t *b, int n, int first, uint64_t total)
{
	for (int i = 0; i < n; i++)
		b[first + i] += around(total / (uint64_t)n);
}

static void step(struct sample *s, const struct scenario *sc, unsigned k)
{
	s->t = 1000.0 + k;
	s->wall.tv_sec = 1764633600 + k;
	s->wall.tv_nsec = (long)(next() % 1000000);
	entropy_bits += log2(1e6);
	s->cpu.user += around(60), s->cpu.system += around(30), s->cpu.idle += around(100);
	s->cpu.iowait += around(10);
	for (int i = 0; i < sc->busy; i++) {
		struct disk_stat *st = &s->disks[i].st;
		struct trace_dev *td = &s->trace.devs[i];
		uint64_t r = around(sc->r_iops), w = around(sc->w_iops);

		st->rd_ios += r, st->rd_sectors += r * 8, st->rd_ticks += r / 10, st->rd_merges += r / 50;
		st->wr_ios += w, st->wr_sectors += w * 16, st->wr_ticks += w / 5, st->wr_merges += w / 20;
		entropy_bits += 5;
		st->in_flight = next() % 32, st->io_ticks += around(900), st->time_in_queue += around(3000);
		st->fl_ios += around(10), st->fl_ticks += around(5);
		if (sc->untraced)
			continue;
		td->tot.issued[0] += r, td->tot.issued[1] += w;
		td->tot.completed[0] += r, td->tot.completed[1] += w;
		td->tot.bytes[0] += r * 4096, td->tot.bytes[1] += w * 8192;
		td->tot.lat_sum_ns[0] += r * 100000, td->tot.lat_sum_ns[1] += w * 200000;
		td->tot.q_sum_ns[0] += r * 1000, td->tot.q_sum_ns[1] += w * 3000;
		td->tot.d_sum_ns[0] += r * 99000, td->tot.d_sum_ns[1] += w * 197000;
		spread(td->tot.size_count[0], sc->size_buckets, 3, r);
		spread(td->tot.size_count[1], sc->size_buckets, 3, w);
		spread(td->tot.size_bytes[0], sc->size_buckets, 3, r * 4096);
		spread(td->tot.size_bytes[1], sc->size_buckets, 3, w * 8192);
		spread(td->tot.lat, sc->lat_buckets, 6, r + w);
		for (int op = 0; op < 2; op++) {
			spread(td->tot.qlat[op], sc->lat_buckets, 0, op ? w : r);
			spread(td->tot.dlat[op], sc->lat_buckets, 6, op ? w : r);
		}
		spread(td->tot.cls, 3, 0, r + w);
		for (int c = 0; c < sc->cpus; c++) {
			struct trace_cpu *tc = &s->trace.cpu[(size_t)i * NCPU + (size_t)c];
			uint64_t *m = &s->trace.matrix[(size_t)i * NCPU * NCPU];
			tc->issued += around((r + w) / (uint64_t)sc->cpus);
			tc->completed += around((r + w) / (uint64_t)sc->cpus);
			spread(tc->cls, 2, 0, (r + w) / (uint64_t)sc->cpus);
			for (int to = 0; to < NCPU; to++) {
				int d = abs(to - c);
				if (sc->matrix == 2 || d == 0 || (sc->matrix == 1 && d == 1))
					m[to * NCPU + c] += around((r + w) / (uint64_t)sc->cpus / (d ? 8 : 1));
			}
		}
	}
}

int main(int argc, char **argv)
{
	const struct scenario *sc = NULL;
	struct record_meta m = { .host = "bench", .kernel = "6.18.0", .version = "bench", .interval = 1 };
	struct record *rec;
	struct sample s;
	char why[256];
	double bytes;

	for (size_t i = 0; argc == 3 && i < sizeof(scenarios) / sizeof(scenarios[0]); i++)
		if (!strcmp(argv[1], scenarios[i].name))
			sc = &scenarios[i];
	if (!sc) {
		fprintf(stderr, "usage: record-size idle|typical[-untraced]|busy[-untraced]|worst FILE\n");
		return 2;
	}
	sample_init(&s);
	for (int i = 0; i < NDEV; i++) {
		struct disk_sample *d = sample_add_disk(&s);
		d->st.dev = makedev(259, (unsigned)i);
		snprintf(d->st.name, sizeof(d->st.name), "nvme%dn1", i);
		d->st.nfields = 20;
		d->st.rd_ios = 123456789;
		d->info.has_queue = true;
		d->info.read_ahead_kb = 128, d->info.nr_requests = 1023, d->info.max_sectors_kb = 1280;
		d->info.max_hw_sectors_kb = 2048, d->info.logical_block_size = 512, d->info.physical_block_size = 4096;
		d->info.nr_hw_queues = NCPU, d->info.size_sectors = 7501476528ll;
		snprintf(d->info.scheduler, sizeof(d->info.scheduler), "none");
		if (disk_text_own(&d->info.text) < 0)
			return 1;
		snprintf(d->info.text->model, sizeof(d->info.text->model), "SAMSUNG MZQL27T6HBLA-00A07");
		snprintf(d->info.mounts, sizeof(d->info.mounts), "/srv/data%d", i);
		snprintf(d->info.fstype, sizeof(d->info.fstype), "xfs");
	}
	s.cpu.valid = s.mem.valid = true;
	s.traced = !sc->untraced;
	if (trace_sample_resize(&s.trace, NCPU, NDEV) < 0)
		return 1;
	for (int i = 0; i < NDEV; i++)
		s.trace.devs[i].dev = s.disks[i].st.dev;
	if (record_create(argv[2], &m, &rec, why, sizeof(why)) < 0) {
		fprintf(stderr, "%s\n", why);
		return 1;
	}
	for (unsigned k = 0; k < HOUR; k++) {
		step(&s, sc, k);
		if (record_sample(rec, &s, why, sizeof(why)) < 0) {
			fprintf(stderr, "%s: %s\n", argv[2], why);
			return 1;
		}
	}
	bytes = (double)record_bytes(rec);
	if (record_close(rec) < 0)
		return 1;
	printf("%-16s %u intervals %.0f bytes %.0f B/interval %.1f MB/24h (noise entropy %.0f B/interval, %.1f MB/24h)\n",
	       sc->name, HOUR, bytes, bytes / HOUR, bytes / HOUR * 86400 / 1e6, entropy_bits / 8 / HOUR,
	       entropy_bits / 8 / HOUR * 86400 / 1e6);
	sample_free(&s);
	return 0;
}
