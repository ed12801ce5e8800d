#include "sweep-figure.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "crc32c.h"

/* MB is 2^20 bytes, as iostat -m and fio's MiB/s; rates are over the busy
 * span (first to last I/O), totals over the whole window. good is known
 * for throughput and the readahead hit ratio (higher) and latency (lower);
 * CPU figures have none: a setting that does the work sooner may use more
 * CPU per second or per (larger, fewer) I/O, a time-limited command more
 * CPU in all. */
const struct sweep_figure_def sweep_figures[SF_COUNT] = {
	[SF_READS] = { "reads", "reads completed on the device", SFD_READS, 0, 0 },
	[SF_WRITES] = { "writes", "writes completed on the device", SFD_WRITES, 0, 0 },
	[SF_READ_BYTES] = { "read_bytes", "bytes read from the device", SFD_READS, 0, 0 },
	[SF_WRITE_BYTES] = { "write_bytes", "bytes written to the device", SFD_WRITES, 0, 0 },
	[SF_MB_S] = { "mb_s", "device MB/s, reads and writes", SFD_BOTH, +1, 2 },
	[SF_READ_MB_S] = { "read_mb_s", "device MB/s, reads only", SFD_READS, +1, 2 },
	[SF_WRITE_MB_S] = { "write_mb_s", "device MB/s, writes only", SFD_WRITES, +1, 2 },
	[SF_IOPS] = { "iops", "device IOPS, reads and writes", SFD_BOTH, 0, 1 },
	[SF_READ_IOPS] = { "read_iops", "device IOPS, reads only", SFD_READS, 0, 1 },
	[SF_WRITE_IOPS] = { "write_iops", "device IOPS, writes only", SFD_WRITES, 0, 1 },
	[SF_REQ_KB] = { "req_kb", "average request KiB, reads and writes", SFD_BOTH, 0, 1 },
	[SF_OWN_READS] = { "own_reads", "the command's reads (bios, its cgroup)", SFD_READS, 0, 0 },
	[SF_OWN_WRITES] = { "own_writes", "the command's writes (bios, its cgroup)", SFD_WRITES, 0, 0 },
	[SF_OWN_READ_BYTES] = { "own_read_bytes", "the command's bytes read", SFD_READS, 0, 0 },
	[SF_OWN_WRITE_BYTES] = { "own_write_bytes", "the command's bytes written", SFD_WRITES, 0, 0 },
	[SF_OWN_MB_S] = { "own_mb_s", "the command's MB/s, reads and writes", SFD_BOTH, +1, 2 },
	[SF_OWN_IOPS] = { "own_iops", "the command's bios/s, reads and writes", SFD_BOTH, 0, 1 },
	[SF_OWN_CPU_USER_US] = { "own_cpu_user_us", "the command's user CPU, us", SFD_NONE, 0, 0 },
	[SF_OWN_CPU_SYS_US] = { "own_cpu_sys_us", "the command's system CPU, us", SFD_NONE, 0, 0 },
	[SF_OWN_CPU_US_PER_IO] = { "own_cpu_us_per_io", "the command's CPU us per own I/O", SFD_BOTH, 0, 2 },
	[SF_CPU_USER_PCT] = { "cpu_user_pct", "all CPUs user+nice %", SFD_NONE, 0, 1 },
	[SF_CPU_SYS_PCT] = { "cpu_sys_pct", "all CPUs system %", SFD_NONE, 0, 1 },
	[SF_CPU_IRQ_PCT] = { "cpu_irq_pct", "all CPUs irq %", SFD_NONE, 0, 1 },
	[SF_CPU_SOFTIRQ_PCT] = { "cpu_softirq_pct", "all CPUs softirq %", SFD_NONE, 0, 1 },
	[SF_CPU_US_PER_IO] = { "cpu_us_per_io", "system busy CPU us per device I/O", SFD_BOTH, 0, 2 },
	[SF_R_AWAIT] = { "r_await", "read await ms (mean of intervals)", SFD_READS, -1, 3 },
	[SF_W_AWAIT] = { "w_await", "write await ms (mean of intervals)", SFD_WRITES, -1, 3 },
	[SF_AQU_SZ] = { "aqu_sz", "average queue size (mean of intervals)", SFD_BOTH, 0, 2 },
	[SF_UTIL] = { "util", "%util (mean of intervals)", SFD_BOTH, 0, 1 },
	[SF_HIT_PCT] = { "hit_pct", "readahead hit % (mean of intervals)", SFD_READS, +1, 1 },
	[SF_LAT_P99_US] = { "lat_p99_us", "traced p99 latency us, reads and writes", SFD_BOTH, -1, 0 },
	[SF_TRACE_GAP_PCT] = { "trace_gap_pct", "kernel completions not traced, % (negative: traced more)", SFD_BOTH,
			       0, 2 },
	[SF_FIO_READ_IOPS] = { "fio_read_iops", "fio read IOPS", SFD_READS, +1, 1 },
	[SF_FIO_READ_MB_S] = { "fio_read_mb_s", "fio MB/s, reads only", SFD_READS, +1, 2 },
	[SF_FIO_READ_P50] = { "fio_read_clat_p50_us", "fio read clat p50 us", SFD_READS, -1, 1 },
	[SF_FIO_READ_P99] = { "fio_read_clat_p99_us", "fio read clat p99 us", SFD_READS, -1, 1 },
	[SF_FIO_WRITE_IOPS] = { "fio_write_iops", "fio write IOPS", SFD_WRITES, +1, 1 },
	[SF_FIO_WRITE_MB_S] = { "fio_write_mb_s", "fio MB/s, writes only", SFD_WRITES, +1, 2 },
	[SF_FIO_WRITE_P50] = { "fio_write_clat_p50_us", "fio write clat p50 us", SFD_WRITES, -1, 1 },
	[SF_FIO_WRITE_P99] = { "fio_write_clat_p99_us", "fio write clat p99 us", SFD_WRITES, -1, 1 },
	[SF_FIO_USR_CPU] = { "fio_usr_cpu", "fio usr CPU %", SFD_NONE, 0, 2 },
	[SF_FIO_SYS_CPU] = { "fio_sys_cpu", "fio sys CPU %", SFD_NONE, 0, 2 },
};

const char *const sweep_cpu_parts[SCP_COUNT] = { "user", "sys", "irq", "softirq" };

void sweep_label(char out[SWEEP_LABEL_MAX], const char *name, const char *value, long repeat)
{
	char tail[32], hash[16];

	snprintf(tail, sizeof(tail), "-r%ld", repeat);
	if (snprintf(out, SWEEP_LABEL_MAX, "%s=%s%s", name, value, tail) >= SWEEP_LABEL_MAX) {
		snprintf(hash, sizeof(hash), "-h%08x", (unsigned)crc32c(0, value, strlen(value)));
		/* the value's head fills what name, '=', hash and tail leave */
		int head = SWEEP_LABEL_MAX - 1 - (int)(strlen(name) + 1 + strlen(hash) + strlen(tail));
		snprintf(out, SWEEP_LABEL_MAX, "%s=%.*s%s%s", name, head, value, hash, tail);
	}
	for (char *p = out; *p; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.=-_", *p))
			*p = '_';
}

void sweep_run_init(struct sweep_run *r)
{
	memset(r, 0, sizeof(*r));
	r->status = -1;
	r->window_s = r->busy_s = r->head_s = r->tail_s = r->idle_pct = NAN;
	for (size_t i = 0; i < SF_COUNT; i++)
		r->fig[i] = NAN;
	for (size_t i = 0; i < SWEEP_METRICS_MAX; i++)
		r->metric[i] = NAN;
}

int sweep_figure_lookup(const char *name, const struct sweep_metric_opt *metrics, size_t nmetrics)
{
	for (int i = 0; i < SF_COUNT; i++)
		if (!strcmp(name, sweep_figures[i].name))
			return i;
	if (!strncmp(name, "metric:", 7))
		for (size_t i = 0; i < nmetrics; i++)
			if (!strcmp(name + 7, metrics[i].name))
				return SF_COUNT + (int)i;
	return -ENOENT;
}

double sweep_figure_value(const struct sweep_run *r, int fig)
{
	if (fig < 0)
		return NAN;
	if (fig < SF_COUNT)
		return r->fig[fig];
	return fig - SF_COUNT < SWEEP_METRICS_MAX ? r->metric[fig - SF_COUNT] : NAN;
}

void sweep_figure_title(int fig, const struct sweep_metric_opt *metrics, char *name, size_t nlen, char *title,
			size_t tlen)
{
	if (fig >= 0 && fig < SF_COUNT) {
		snprintf(name, nlen, "%s", sweep_figures[fig].name);
		snprintf(title, tlen, "%s", sweep_figures[fig].title);
	} else {
		snprintf(name, nlen, "metric:%s", metrics[fig - SF_COUNT].name);
		snprintf(title, tlen, "%s (--metric, higher/lower only)", metrics[fig - SF_COUNT].name);
	}
}

int sweep_figure_good(int fig)
{
	return fig >= 0 && fig < SF_COUNT ? sweep_figures[fig].good : 0;
}

void sweep_figure_list(FILE *f)
{
	for (size_t i = 0; i < SF_COUNT; i++)
		fprintf(f, "%s%s", i ? ", " : "", sweep_figures[i].name);
}
