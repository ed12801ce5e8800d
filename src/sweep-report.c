#include "sweep-report.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "format.h"
#include "plot.h"
#include "sweep-csv.h"
#include "sweep-stats.h"

/* Figures the report has a table for when any run measured them (the judged
 * figure and the metrics come first). */
static const enum sweep_fig report_figs[] = {
	SF_MB_S, SF_READ_MB_S, SF_WRITE_MB_S, SF_IOPS, SF_REQ_KB, SF_OWN_MB_S, SF_OWN_IOPS,
	SF_OWN_CPU_US_PER_IO, SF_CPU_US_PER_IO, SF_CPU_SYS_PCT, SF_CPU_SOFTIRQ_PCT, SF_FIO_READ_MB_S,
	SF_FIO_READ_IOPS, SF_FIO_READ_P50, SF_FIO_READ_P99, SF_FIO_WRITE_MB_S, SF_FIO_WRITE_IOPS,
	SF_FIO_WRITE_P50, SF_FIO_WRITE_P99, SF_FIO_USR_CPU, SF_FIO_SYS_CPU, SF_LAT_P99_US, SF_HIT_PCT,
};

static size_t nvalues(const struct sweep_info *in, char **vals, size_t max, char *buf, size_t len)
{
	char *save = NULL, *tok;
	size_t n = 0;

	snprintf(buf, len, "%s", in->values);
	for (tok = strtok_r(buf, ",", &save); tok && n < max; tok = strtok_r(NULL, ",", &save))
		vals[n++] = tok;
	return n;
}

int sweep_report_figure(const struct sweep_report *rp)
{
	int fig = rp->info->plot[0] ? sweep_figure_lookup(rp->info->plot, rp->metrics, rp->nmetrics) : SF_MB_S;

	return fig < 0 ? SF_MB_S : fig;
}

static bool measured(const struct sweep_report *rp, int fig)
{
	/* all zero (a read-only workload's writes) says nothing worth a table */
	for (size_t i = 0; i < rp->nruns; i++) {
		double v = sweep_figure_value(&rp->runs[i], fig);
		if (!isnan(v) && v != 0)
			return true;
	}
	return false;
}

/* A cell's text: out holds FORMAT_PLAIN_MAX bytes, room for any double
 * with its decimals (a 1e30 from a crafted sweep.csv was cut to 31
 * characters, a wrong number). */
#define CELL_MAX FORMAT_PLAIN_MAX

static void cell(double v, int prec, char *out, size_t len)
{
	if (isnan(v))
		snprintf(out, len, "-");
	else
		snprintf(out, len, "%.*f", prec, v);
}

/* better/worse only for the judged figure and latency, and only where the
 * table knows which way is good: a --metric, %util or a CPU share judged
 * is "higher"/"lower", never "better" because it went up. */
static int judge_dir(int fig, bool judged)
{
	int good = sweep_figure_good(fig);

	return judged || good < 0 ? good : 0;
}

void sweep_report_table(FILE *f, const struct sweep_report *rp, int fig, bool judged)
{
	char *vals[SWEEP_VALUES_MAX], buf[2048], name[64], title[160];
	size_t nv = nvalues(rp->info, vals, SWEEP_VALUES_MAX, buf, sizeof(buf)), base = 0;
	struct sweep_value_stats st[SWEEP_VALUES_MAX];
	int prec = fig < SF_COUNT ? sweep_figures[fig].prec : 2;

	/* The baseline is one of the values: a sweep picks one, and
	 * sweep_info_read refuses a sweep.info whose baseline is not. */
	for (size_t v = 0; v < nv; v++) {
		sweep_stats_value(rp->runs, rp->nruns, vals[v], fig, &st[v]);
		if (!strcmp(vals[v], rp->info->baseline))
			base = v;
	}
	for (size_t v = 0; v < nv; v++)
		sweep_stats_verdict(&st[base], &st[v]);
	sweep_figure_title(fig, rp->metrics, name, sizeof(name), title, sizeof(title));
	fprintf(f, "%s (%s)%s\n", title, name, judged ? ", the judged figure" : "");
	fprintf(f, "  %-14s %4s %14s %12s %7s %9s  %s\n", rp->info->tunable[0] ? rp->info->tunable : "value", "runs",
		"mean", "+- 95% CI", "CV %", "change %", "verdict");
	for (size_t v = 0; v < nv; v++) {
		char m[CELL_MAX], ci[CELL_MAX], cv[CELL_MAX], ch[CELL_MAX];
		cell(st[v].s.mean, prec, m, sizeof(m));
		cell(st[v].ci, prec, ci, sizeof(ci));
		cell(st[v].cv_pct, 1, cv, sizeof(cv));
		if (isnan(st[v].change_pct))
			snprintf(ch, sizeof(ch), "-");
		else
			snprintf(ch, sizeof(ch), "%+.2f", st[v].change_pct);
		fprintf(f, "  %-14s %4zu %14s %12s %7s %9s  %s\n", vals[v], st[v].s.n, m, ci, cv, ch,
			sweep_stats_verdict_text(st[v].verdict, judge_dir(fig, judged)));
	}
}

void sweep_report_plot(FILE *f, const struct sweep_report *rp)
{
	char *vals[SWEEP_VALUES_MAX], buf[2048], name[64], title[160], y[320];
	size_t nv = nvalues(rp->info, vals, SWEEP_VALUES_MAX, buf, sizeof(buf));
	struct plot_point p[SWEEP_VALUES_MAX];
	int fig = sweep_report_figure(rp);
	const char *dir = "";

	for (size_t v = 0; v < nv; v++) {
		struct sweep_value_stats st;
		char *end;
		double x = strtod(vals[v], &end);
		sweep_stats_value(rp->runs, rp->nruns, vals[v], fig, &st);
		p[v] = (struct plot_point){ *end || end == vals[v] ? NAN : x, st.s.n ? st.s.mean : NAN, vals[v],
					    st.s.mean - st.ci, st.s.mean + st.ci };
		if (isnan(st.ci))
			p[v].lo = p[v].hi = 0;
	}
	sweep_figure_title(fig, rp->metrics, name, sizeof(name), title, sizeof(title));
	if (fig < SF_COUNT && !strstr(title, "only") && !strstr(title, "reads and writes"))
		dir = sweep_figures[fig].dir == SFD_READS ? ", reads only" : sweep_figures[fig].dir == SFD_WRITES
			? ", writes only" : sweep_figures[fig].dir == SFD_BOTH ? ", reads and writes" : "";
	snprintf(y, sizeof(y), "%s%s: mean of repeats, bars 95%% CI,", title, dir);
	plot_draw(f, p, nv, 60, 12, rp->info->tunable, y);
}

size_t sweep_report_warnings(FILE *f, const struct sweep_report *rp)
{
	static char w[64][SWEEP_WARN_LEN];
	char *vals[SWEEP_VALUES_MAX], buf[2048], name[64], title[160];
	size_t nv = nvalues(rp->info, vals, SWEEP_VALUES_MAX, buf, sizeof(buf)), n;
	int fig = sweep_report_figure(rp);

	sweep_figure_title(fig, rp->metrics, name, sizeof(name), title, sizeof(title));
	n = sweep_stats_warnings(rp->runs, rp->nruns, vals, nv, isnan(rp->info->interval) ? 1 : rp->info->interval,
				 fig, name, w, 64);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "  warning: %s\n", w[i]);
	if (!n)
		fprintf(f, "  none\n");
	return n;
}

static void num(FILE *f, const char *label, double v)
{
	char b[FORMAT_PLAIN_MAX];

	format_plain(v, 15, b, sizeof(b));
	fprintf(f, "%s%s", label, isnan(v) ? "n/a" : b);
}

static void runs_table(FILE *f, const struct sweep_report *rp)
{
	fprintf(f, "  %5s %-14s %6s %9s %9s %8s %8s %6s %5s %10s %10s %10s %6s\n", "order", "value", "repeat",
		"window s", "busy s", "head ms", "tail ms", "idle%", "intv", "dev MB/s", "own MB/s", "fio MB/s",
		"status");
	for (size_t i = 0; i < rp->nruns; i++) {
		const struct sweep_run *r = &rp->runs[i];
		char c[8][CELL_MAX];
		double fio = r->fig[SF_FIO_READ_MB_S] + r->fig[SF_FIO_WRITE_MB_S];
		if (isnan(fio))
			fio = isnan(r->fig[SF_FIO_READ_MB_S]) ? r->fig[SF_FIO_WRITE_MB_S] : r->fig[SF_FIO_READ_MB_S];
		cell(r->window_s, 3, c[0], sizeof(c[0]));
		cell(r->busy_s, 3, c[1], sizeof(c[1]));
		cell(r->head_s * 1000, 0, c[2], sizeof(c[2]));
		cell(r->tail_s * 1000, 0, c[3], sizeof(c[3]));
		cell(r->idle_pct, 1, c[4], sizeof(c[4]));
		cell(r->fig[SF_MB_S], 2, c[5], sizeof(c[5]));
		cell(r->fig[SF_OWN_MB_S], 2, c[6], sizeof(c[6]));
		cell(fio, 2, c[7], sizeof(c[7]));
		fprintf(f, "  %5zu %-14s %6ld %9s %9s %8s %8s %6s %5zu %10s %10s %10s %6d\n", r->order, r->value,
			r->repeat, c[0], c[1], c[2], c[3], c[4], r->intervals, c[5], c[6], c[7], r->status);
	}
}

void sweep_report_cpus(FILE *f, const struct sweep_report *rp)
{
	char *vals[SWEEP_VALUES_MAX], buf[2048];
	size_t nv = nvalues(rp->info, vals, SWEEP_VALUES_MAX, buf, sizeof(buf));
	unsigned ncpu = 0;

	for (size_t i = 0; i < rp->nruns; i++)
		if (rp->runs[i].ncpu > ncpu)
			ncpu = rp->runs[i].ncpu;
	if (!ncpu) {
		fprintf(f, "  n/a (no per-CPU /proc/stat)\n");
		return;
	}
	fprintf(f, "  %-14s %4s %7s %7s %7s %7s\n", rp->info->tunable, "cpu", "user%", "sys%", "irq%", "soft%");
	for (size_t v = 0; v < nv; v++)
		for (unsigned c = 0; c < ncpu; c++) {
			double sum[SCP_COUNT] = { 0 };
			size_t k = 0;
			char cells[SCP_COUNT][CELL_MAX];
			for (size_t i = 0; i < rp->nruns; i++) {
				const struct sweep_run *r = &rp->runs[i];
				if (strcmp(r->asked, vals[v]) || c >= r->ncpu || isnan(r->cpu[c][0]))
					continue;
				for (int p = 0; p < SCP_COUNT; p++)
					sum[p] += r->cpu[c][p];
				k++;
			}
			for (int p = 0; p < SCP_COUNT; p++)
				cell(k ? sum[p] / (double)k : NAN, 1, cells[p], sizeof(cells[p]));
			fprintf(f, "  %-14s %4u %7s %7s %7s %7s\n", c ? "" : vals[v], c, cells[0], cells[1], cells[2],
				cells[3]);
		}
}

int sweep_report_write(FILE *f, const struct sweep_report *rp)
{
	const struct sweep_info *in = rp->info;
	int fig = sweep_report_figure(rp);

	fprintf(f, "blktune sweep of %s on %s: %s\n\n", in->tunable, in->dev, in->values);
	fprintf(f, "Machine\n  kernel: %s\n  host: %s\n  started: %s\n\n", in->kernel, in->host, in->started);
	fprintf(f, "Device %s\n  model: %s\n  vendor: %s\n", in->dev, in->model[0] ? in->model : "n/a",
		in->vendor[0] ? in->vendor : "n/a");
	num(f, "  size: ", in->size_bytes);
	num(f, " bytes, diskseq ", in->diskseq);
	fputc('\n', f);
	num(f, "  queue limits: max_hw_sectors_kb ", in->max_hw_sectors_kb);
	num(f, ", max_sectors_kb ", in->max_sectors_kb);
	num(f, ", max_segments ", in->max_segments);
	num(f, "\n    logical_block_size ", in->logical_block_size);
	num(f, ", physical_block_size ", in->physical_block_size);
	num(f, ", rotational ", in->rotational);
	num(f, ", nr_hw_queues ", in->nr_hw_queues);
	fprintf(f, "\n  scheduler: %s\n  tunables before the sweep:\n", in->scheduler);
	for (size_t i = 0; i < in->ntun; i++)
		fprintf(f, "    %-28s %s\n", in->tun[i].name, in->tun[i].value);
	fprintf(f, "\nCommand line\n  %s\n", in->command);
	fprintf(f, "  each run: %s\n", in->run[0] ? in->run : "(sampling only)");
	for (size_t i = 0; i < in->nmetrics; i++)
		fprintf(f, "  metric %s: last number matching /%s/\n", in->metric[i].name, in->metric[i].regex);
	num(f, "  runs: ", in->repeat);
	fprintf(f, " per value, %s order; ", in->order);
	num(f, "settle ", in->settle);
	num(f, " s after each change; interval ", in->interval);
	fprintf(f, " s\n  baseline: %s (original value %s)\n\n", in->baseline, in->original);
	fprintf(f, "Results: mean +- 95%% confidence interval over the repeats (Student t on run figures),\n"
		   "verdicts against the baseline by Welch's t-test at 95%%. MB = 2^20 bytes; rates over\n"
		   "each run's first to last I/O.\n\n");
	sweep_report_table(f, rp, fig, true);
	for (size_t i = 0; i < rp->nmetrics; i++)
		if (SF_COUNT + (int)i != fig && measured(rp, SF_COUNT + (int)i)) {
			fputc('\n', f);
			sweep_report_table(f, rp, SF_COUNT + (int)i, false);
		}
	for (size_t i = 0; i < sizeof(report_figs) / sizeof(report_figs[0]); i++)
		if ((int)report_figs[i] != fig && measured(rp, (int)report_figs[i])) {
			fputc('\n', f);
			sweep_report_table(f, rp, (int)report_figs[i], false);
		}
	fprintf(f, "\nRuns (windows: the command's lifetime; head/tail: idle time trimmed before the first and\n"
		   "after the last I/O)\n");
	runs_table(f, rp);
	fprintf(f, "\nCPU time over the windows, per CPU (mean of each value's runs, %% of that CPU)\n");
	sweep_report_cpus(f, rp);
	fputc('\n', f);
	sweep_report_plot(f, rp);
	fprintf(f, "\nWarnings\n");
	sweep_report_warnings(f, rp);
	return ferror(f) ? -EIO : 0;
}

/* A sweep directory may be anyone's: its files are opened without following
 * a link or blocking (a FIFO never hangs the report) and must be regular
 * files. NULL after saying why in one line. */
static FILE *open_file(const char *path)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	FILE *f;

	if (fd < 0) {
		fprintf(stderr, "blktune report: %s: %s\n", path,
			errno == ELOOP ? "a symbolic link (never followed)" : strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		fprintf(stderr, "blktune report: %s: not a regular file\n", path);
		close(fd);
		return NULL;
	}
	/* A regular file: reads may block as usual from here on. */
	if (fcntl(fd, F_SETFL, O_RDONLY) < 0 || !(f = fdopen(fd, "r"))) {
		fprintf(stderr, "blktune report: %s: %s\n", path, strerror(errno));
		close(fd);
		return NULL;
	}
	return f;
}

int sweep_report_main(int argc, char **argv)
{
	static struct sweep_run runs[SWEEP_RUNS_MAX];
	static struct sweep_info info;
	struct sweep_metric_opt metrics[SWEEP_METRICS_MAX];
	struct sweep_report rp = { .info = &info, .runs = runs, .metrics = metrics };
	char path[4096], msg[256];
	FILE *f;
	int n;

	if (argc != 2 || argv[1][0] == '-') {
		if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
			printf("usage: blktune report DIR   (the directory of a blktune sweep)\n");
			return 0;
		}
		fprintf(stderr, "blktune report: usage: blktune report DIR (a sweep's directory)\n");
		return 2;
	}
	snprintf(path, sizeof(path), "%s/sweep.info", argv[1]);
	if (!(f = open_file(path)))
		return 1;
	n = sweep_info_read(f, &info, msg, sizeof(msg));
	fclose(f);
	if (n < 0) {
		fprintf(stderr, "blktune report: %s:%s\n", path, msg);
		return 1;
	}
	snprintf(path, sizeof(path), "%s/sweep.csv", argv[1]);
	if (!(f = open_file(path)))
		return 1;
	n = sweep_csv_read(f, runs, SWEEP_RUNS_MAX, metrics, &rp.nmetrics, msg, sizeof(msg));
	fclose(f);
	if (n < 0) {
		fprintf(stderr, "blktune report: %s:%s\n", path, msg);
		return 1;
	}
	rp.nruns = (size_t)n;
	return sweep_report_write(stdout, &rp) < 0 ? 1 : 0;
}
