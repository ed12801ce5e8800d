#include "output-prom.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "trace.h"

/* A diskstats counter: its name, help, which lines carry it, and how to get
 * it in base units from struct disk_stat (a table, not a switch). */
enum prom_unit { UNIT_COUNT, UNIT_SECTORS, UNIT_MS };

struct prom_counter {
	const char *name, *help, *type;
	int min_fields; /* diskstats fields (with major, minor, name) the line needs */
	size_t off;
	enum prom_unit unit;
};

#define ST(f) offsetof(struct disk_stat, f)
static const struct prom_counter counters[] = {
	{ "blktune_reads_completed_total", "Reads completed (diskstats).", "counter", 14, ST(rd_ios), UNIT_COUNT },
	{ "blktune_reads_merged_total", "Adjacent reads merged into one request.", "counter", 14, ST(rd_merges), UNIT_COUNT },
	{ "blktune_read_bytes_total", "Bytes read.", "counter", 14, ST(rd_sectors), UNIT_SECTORS },
	{ "blktune_read_time_seconds_total", "Time reads spent from queueing to completion, summed.", "counter", 14, ST(rd_ticks), UNIT_MS },
	{ "blktune_writes_completed_total", "Writes completed.", "counter", 14, ST(wr_ios), UNIT_COUNT },
	{ "blktune_writes_merged_total", "Adjacent writes merged into one request.", "counter", 14, ST(wr_merges), UNIT_COUNT },
	{ "blktune_written_bytes_total", "Bytes written.", "counter", 14, ST(wr_sectors), UNIT_SECTORS },
	{ "blktune_write_time_seconds_total", "Time writes spent from queueing to completion, summed.", "counter", 14, ST(wr_ticks), UNIT_MS },
	{ "blktune_io_now", "Requests in flight.", "gauge", 14, ST(in_flight), UNIT_COUNT },
	{ "blktune_io_time_seconds_total", "Time the device had requests in flight (%util's numerator).", "counter", 14, ST(io_ticks), UNIT_MS },
	{ "blktune_io_time_weighted_seconds_total", "Time in flight summed over requests (aqu-sz's numerator).", "counter", 14, ST(time_in_queue), UNIT_MS },
	{ "blktune_discards_completed_total", "Discards completed.", "counter", 18, ST(dc_ios), UNIT_COUNT },
	{ "blktune_discards_merged_total", "Adjacent discards merged.", "counter", 18, ST(dc_merges), UNIT_COUNT },
	{ "blktune_discarded_bytes_total", "Bytes discarded.", "counter", 18, ST(dc_sectors), UNIT_SECTORS },
	{ "blktune_discard_time_seconds_total", "Time discards spent, summed.", "counter", 18, ST(dc_ticks), UNIT_MS },
	{ "blktune_flush_requests_total", "Flush requests completed.", "counter", 20, ST(fl_ios), UNIT_COUNT },
	{ "blktune_flush_requests_time_seconds_total", "Time flushes spent, summed.", "counter", 20, ST(fl_ticks), UNIT_MS },
};
#undef ST

/* A queue setting as a gauge in base units; -1 (unknown) is left out. */
struct prom_gauge {
	const char *name, *help;
	size_t off;
	long long scale;
};

#define QI(f) offsetof(struct disk_info, f)
static const struct prom_gauge gauges[] = {
	{ "blktune_read_ahead_bytes", "queue/read_ahead_kb in bytes.", QI(read_ahead_kb), 1024 },
	{ "blktune_max_sectors_bytes", "queue/max_sectors_kb in bytes: the largest request built.", QI(max_sectors_kb), 1024 },
	{ "blktune_max_hw_sectors_bytes", "queue/max_hw_sectors_kb in bytes: the hardware's limit.", QI(max_hw_sectors_kb), 1024 },
	{ "blktune_nr_requests", "queue/nr_requests.", QI(nr_requests), 1 },
};
#undef QI

/* Label values: backslash, double quote and newline escaped as the format
 * says; other control bytes cannot come from a kernel name but are dropped. */
static void label(FILE *f, const char *v)
{
	for (; *v; v++) {
		if (*v == '\\' || *v == '"')
			fprintf(f, "\\%c", *v);
		else if (*v == '\n')
			fputs("\\n", f);
		else if ((unsigned char)*v >= 0x20 && *v != 0x7f)
			fputc(*v, f);
	}
}

/* End a sample line: the sample's own time in ms when given (the HTTP
 * endpoint: a scrape lands up to one interval after the sample, and rate()
 * over scrape times would be off by that much), nothing for the textfile
 * collector, which refuses timestamps. */
static void eol(FILE *f, long long ts_ms)
{
	if (ts_ms > 0)
		fprintf(f, " %lld\n", ts_ms);
	else
		fputc('\n', f);
}

static void head(FILE *f, const char *name, const char *help, const char *type)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

static void series_start(FILE *f, const char *name, const char *suffix, const char *dev)
{
	fprintf(f, "%s%s{device=\"", name, suffix);
	label(f, dev);
	fputc('"', f);
}

static void put_counters(FILE *f, const struct sample *s, long long ts, const struct ms_wrap *wraps)
{
	for (size_t c = 0; c < sizeof(counters) / sizeof(counters[0]); c++) {
		const struct prom_counter *k = &counters[c];
		bool any = false;

		for (size_t i = 0; i < s->ndisks; i++) {
			const struct disk_stat *st = &s->disks[i].st;
			uint64_t v;

			memcpy(&v, (const char *)st + k->off, sizeof(v));
			if (wraps)
				v = ms_wrap_value(wraps, i, k->off, v);

			if (st->nfields < k->min_fields)
				continue;
			if (!any)
				head(f, k->name, k->help, k->type);
			any = true;
			series_start(f, k->name, "", st->name);
			switch (k->unit) {
			case UNIT_COUNT:
				fprintf(f, "} %" PRIu64, v);
				break;
			case UNIT_SECTORS:
				fprintf(f, "} %" PRIu64, v * 512);
				break;
			case UNIT_MS:
				fprintf(f, "} %" PRIu64 ".%03u", v / 1000, (unsigned)(v % 1000));
				break;
			}
			eol(f, ts);
		}
	}
}

static void put_gauges(FILE *f, const struct sample *s, long long ts)
{
	for (size_t g = 0; g < sizeof(gauges) / sizeof(gauges[0]); g++) {
		bool any = false;

		for (size_t i = 0; i < s->ndisks; i++) {
			const struct disk_info *in = &s->disks[i].info;
			long long v;

			memcpy(&v, (const char *)in + gauges[g].off, sizeof(v));

			if (!in->has_queue || v < 0)
				continue;
			if (!any)
				head(f, gauges[g].name, gauges[g].help, "gauge");
			any = true;
			series_start(f, gauges[g].name, "", s->disks[i].st.name);
			fprintf(f, "} %lld", v * gauges[g].scale);
			eol(f, ts);
		}
	}
	head(f, "blktune_scheduler", "The queue's active I/O scheduler (value always 1).", "gauge");
	for (size_t i = 0; i < s->ndisks; i++) {
		if (!disk_has_scheduler(&s->disks[i].info))
			continue;
		series_start(f, "blktune_scheduler", "", s->disks[i].st.name);
		fputs(",scheduler=\"", f);
		label(f, s->disks[i].info.scheduler);
		fputs("\"} 1", f);
		eol(f, ts);
	}
}

/* One histogram series: cumulative buckets, +Inf, _sum and _count. le_of(i)
 * is bucket i's upper bound in the metric's unit, 0 for the open last one,
 * printed with `decimals` places: plain numbers, never 1e-06. */
static void put_hist(FILE *f, long long ts, const char *name, const char *dev, const char *extra,
		     const uint64_t *b, unsigned n, double (*le_of)(unsigned), int decimals, double sum)
{
	uint64_t cum = 0;

	for (unsigned i = 0; i < n; i++) {
		double le = le_of(i);

		cum += b[i];
		if (le == 0)
			continue;
		series_start(f, name, "_bucket", dev);
		fprintf(f, "%s,le=\"%.*f\"} %" PRIu64, extra, decimals, le, cum);
		eol(f, ts);
	}
	series_start(f, name, "_bucket", dev);
	fprintf(f, "%s,le=\"+Inf\"} %" PRIu64, extra, cum);
	eol(f, ts);
	series_start(f, name, "_sum", dev);
	fprintf(f, "%s} %.9f", extra, sum);
	eol(f, ts);
	series_start(f, name, "_count", dev);
	fprintf(f, "%s} %" PRIu64, extra, cum);
	eol(f, ts);
}

static double size_le(unsigned i)
{
	return (double)trace_size_bucket_le(i);
}

static double lat_le_s(unsigned i)
{
	return (double)trace_lat_bucket_le_us(i) / 1e6;
}

/* Traced histograms of the disks tracing saw, under their diskstats name. */
static void put_traced(FILE *f, const struct sample *s, long long ts)
{
	static const char *const ops[2] = { "read", "write" };
	const struct trace_sample *t = &s->trace;

	if (!s->traced)
		return;
	/* What the traced figures lack, of whichever device (JSON trace_loss). */
	head(f, "blktune_trace_runs_skipped_total",
	     "Tracer program runs the kernel skipped (recursion_misses): events the traced figures lack.", "counter");
	fprintf(f, "blktune_trace_runs_skipped_total %" PRIu64, t->missed);
	eol(f, ts);
	head(f, "blktune_trace_map_full_total", "Traced events lost because the tracer's device map was full.",
	     "counter");
	fprintf(f, "blktune_trace_map_full_total %" PRIu64, t->map_full);
	eol(f, ts);
	if (!t->ndevs)
		return;
	head(f, "blktune_request_size_bytes", "Traced request sizes (bucket resolution: powers of two).", "histogram");
	for (size_t i = 0; i < s->ndisks; i++) {
		ssize_t k = trace_sample_find(t, s->disks[i].st.dev);

		if (k < 0)
			continue;
		for (int op = 0; op < 2; op++) {
			const struct trace_counts *c = &t->devs[k].tot;
			char extra[32];
			double sum = 0;

			for (unsigned b = 0; b < TRACE_SIZE_BUCKETS; b++)
				sum += (double)c->size_bytes[op][b];
			snprintf(extra, sizeof(extra), ",op=\"%s\"", ops[op]);
			put_hist(f, ts, "blktune_request_size_bytes", s->disks[i].st.name, extra, c->size_count[op],
				 TRACE_SIZE_BUCKETS, size_le, 0, sum);
		}
	}
	head(f, "blktune_request_latency_seconds",
	     "Traced request latency, allocation to completion (bucket resolution: powers of two).", "histogram");
	for (size_t i = 0; i < s->ndisks; i++) {
		ssize_t k = trace_sample_find(t, s->disks[i].st.dev);
		double sum = 0;

		if (k < 0)
			continue;
		for (unsigned op = 0; op < TRACE_OPS; op++)
			sum += (double)t->devs[k].tot.lat_sum_ns[op] / 1e9;
		put_hist(f, ts, "blktune_request_latency_seconds", s->disks[i].st.name, "", t->devs[k].tot.lat,
			 TRACE_LAT_BUCKETS, lat_le_s, 6, sum);
	}
}

/* Queue (allocation -> issue) and device (issue -> completion) time per
 * operation, btt's Q2D and D2C; bio-based devices have no queue to split. */
static void put_split(FILE *f, const struct sample *s, long long ts, bool device)
{
	static const char *const ops[TRACE_OPS] = { "read", "write", "discard", "flush" };
	const struct trace_sample *t = &s->trace;
	const char *name = device ? "blktune_request_device_seconds" : "blktune_request_queue_seconds";
	bool any = false;

	for (size_t i = 0; i < s->ndisks; i++) {
		ssize_t k = trace_sample_find(t, s->disks[i].st.dev);

		if (k < 0 || t->devs[k].path != TRACE_PATH_RQ)
			continue;
		if (!any)
			head(f, name, device ? "Traced time from issue to the driver to completion (btt's D2C), per operation."
					     : "Traced time from allocation to issue to the driver (btt's Q2D), per operation.",
			     "histogram");
		any = true;
		for (unsigned op = 0; op < TRACE_OPS; op++) {
			const struct trace_counts *c = &t->devs[k].tot;
			char extra[32];

			snprintf(extra, sizeof(extra), ",op=\"%s\"", ops[op]);
			put_hist(f, ts, name, s->disks[i].st.name, extra, device ? c->dlat[op] : c->qlat[op],
				 TRACE_LAT_BUCKETS, lat_le_s, 6,
				 (double)(device ? c->d_sum_ns[op] : c->q_sum_ns[op]) / 1e9);
		}
	}
}

int output_prom(FILE *f, const struct sample *s, long long ts_ms, const struct ms_wrap *wraps)
{
	put_counters(f, s, ts_ms, wraps);
	put_gauges(f, s, ts_ms);
	put_traced(f, s, ts_ms);
	if (s->traced) {
		put_split(f, s, ts_ms, false);
		put_split(f, s, ts_ms, true);
	}
	return ferror(f) ? -EIO : 0;
}
