#include "sweep.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "app.h"
#include "columns.h"
#include "loop.h"
#include "sampler.h"
#include "series.h"
#include "snapshot.h"
#include "sweep-csv.h"
#include "sweep-figure.h"
#include "sweep-info.h"
#include "sweep-opts.h"
#include "safe-file.h"
#include "sweep-report.h"
#include "sweep-run.h"
#include "tunable.h"

struct sweep {
	struct sweep_opts o;
	struct sweep_info info;
	struct app a;
	struct loop *l;
	struct series *se;
	struct tunable_session *ts;
	struct sweep_runner rn;
	struct sweep_run runs[SWEEP_RUNS_MAX];
	size_t nruns;
	size_t order[SWEEP_RUNS_MAX];
	char dir[PATH_MAX];
	sigset_t old;
	bool usage;       /* setup refused the command line: exit status 2 */
	bool save_failed; /* a snapshot was not saved: exit status 1 */
};

static void restore_report(void *arg, const struct tunable_result *res)
{
	fprintf(res->err && res->err != -ENODEV ? stderr : stdout, "restore: %s\n", res->msg);
}

static void drop_caches(const struct root *r)
{
	int err;

	sync();
	if ((err = root_write(r, "proc/sys/vm/drop_caches", "3")) < 0)
		fprintf(stderr, "blktune sweep: dropping caches: %s\n", strerror(-err));
}

static double now_mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Let the change settle; a signal cuts it short. Returns 0, a signal or -errno. */
static int settle(struct sweep *sw)
{
	double end = now_mono() + sw->o.settle, left;
	int ev, signo;

	while ((left = end - now_mono()) > 0) {
		ev = loop_wait_timeout(sw->l, (int)ceil(left * 1000), &signo);
		if (ev < 0)
			return ev;
		if (ev == LOOP_SIGNAL && signo != SIGWINCH)
			return signo;
	}
	return 0;
}

/* stdout went away (| head -1): stop like on a signal, so the values are
 * restored; SIGPIPE itself is ignored during a sweep. */
static int out_gone(void)
{
	return fflush(stdout) != 0 && errno == EPIPE ? SIGPIPE : 0;
}

static double snap_mean(const struct snapshot *s, enum column_id c)
{
	return s->ndev && s->dev[0].st[c].n ? s->dev[0].st[c].mean : NAN;
}

/* The per-interval figures the snapshot summarises. */
static void snapshot_figures(const struct snapshot *s, struct sweep_run *run)
{
	const struct snapshot_vec *v = s->ndev ? snapshot_dev_vec(&s->dev[0], SNAP_VEC_LAT_PCT) : NULL;

	run->intervals = s->ndev ? s->dev[0].n : 0;
	run->fig[SF_R_AWAIT] = snap_mean(s, COLUMN_R_AWAIT);
	run->fig[SF_W_AWAIT] = snap_mean(s, COLUMN_W_AWAIT);
	run->fig[SF_AQU_SZ] = snap_mean(s, COLUMN_AQU_SZ);
	run->fig[SF_UTIL] = snap_mean(s, COLUMN_UTIL);
	run->fig[SF_HIT_PCT] = snap_mean(s, COLUMN_RA_HIT);
	run->fig[SF_LAT_P99_US] = v ? v->v[2] : NAN;
	run->fig[SF_TRACE_GAP_PCT] = s->ndev ? snapshot_trace_gap_pct(&s->dev[0]) : NAN;
}

static void print_run(const struct sweep_run *r, const char *tag)
{
	char own[96] = "", fio[96] = "", cpu[64] = "";
	double fmb = r->fig[SF_FIO_READ_MB_S], fwb = r->fig[SF_FIO_WRITE_MB_S];

	if (!isnan(r->fig[SF_OWN_MB_S]) || !isnan(r->fig[SF_OWN_READ_BYTES]))
		snprintf(own, sizeof(own), "; own %.2f MB/s (%.0f reads, %.0f writes)",
			 isnan(r->fig[SF_OWN_MB_S]) ? 0 : r->fig[SF_OWN_MB_S], r->fig[SF_OWN_READS],
			 r->fig[SF_OWN_WRITES]);
	if (!isnan(fmb) || !isnan(fwb))
		snprintf(fio, sizeof(fio), "; fio %.2f MB/s", (isnan(fmb) ? 0 : fmb) + (isnan(fwb) ? 0 : fwb));
	if (!isnan(r->fig[SF_CPU_US_PER_IO]))
		snprintf(cpu, sizeof(cpu), "; CPU %.2f us/IO", r->fig[SF_CPU_US_PER_IO]);
	printf("%s: window %.3f s, trimmed idle head %.0f ms and tail %.0f ms: %.2f MB/s, %.1f IOPS over "
	       "%.3f s%s%s%s; %zu intervals\n",
	       tag, r->window_s, r->head_s * 1000, r->tail_s * 1000, isnan(r->fig[SF_MB_S]) ? 0 : r->fig[SF_MB_S],
	       isnan(r->fig[SF_IOPS]) ? 0 : r->fig[SF_IOPS], r->busy_s, own, fio, cpu, r->intervals);
	if (r->ncpu) {
		printf("%s: CPU user/sys/irq/softirq %%:", tag);
		for (unsigned c = 0; c < r->ncpu; c++)
			printf(" cpu%u %.0f/%.0f/%.0f/%.0f", c, r->cpu[c][SCP_USER], r->cpu[c][SCP_SYS],
			       r->cpu[c][SCP_IRQ], r->cpu[c][SCP_SOFTIRQ]);
		putchar('\n');
	}
	if (r->stopped && r->killed)
		printf("%s: the command was stopped at the --duration limit: it ignored SIGTERM, SIGKILL "
		       "%.0f s later\n", tag, SWEEP_KILL_GRACE_MS / 1000.0);
	else if (r->stopped)
		printf("%s: the command was stopped at the --duration limit\n", tag);
	else if (r->status > 0)
		printf("%s: the command exited with status %d\n", tag, r->status);
}

/* --dir as given (the options checked it), else a new directory under the
 * state directory: never one an earlier sweep wrote (two in one second). */
static int sweep_dir(const struct sweep_opts *o, char *out, size_t len, char *why, size_t why_size)
{
	char base[PATH_MAX], stamp[32];
	time_t now = time(NULL);
	struct tm tm;
	int err;

	if (o->dir) {
		snprintf(out, len, "%s", o->dir);
		if (mkdir(out, 0755) < 0 && errno != EEXIST)
			goto fail;
		return 0;
	}
	if ((err = snapshot_default_dir(base, sizeof(base), why, why_size)) < 0)
		return err;
	localtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	for (int n = 1; n < 100; n++) {
		if (n == 1)
			snprintf(out, len, "%s/sweep-%s-%s", base, stamp, o->dev);
		else
			snprintf(out, len, "%s/sweep-%s-%s-%d", base, stamp, o->dev, n);
		if (mkdir(out, 0755) == 0)
			return 0;
		if (errno != EEXIST)
			goto fail;
	}
fail:
	err = -errno;
	snprintf(why, why_size, "cannot create %s: %s", out, strerror(-err));
	return err;
}

static int save_csv(struct sweep *sw)
{
	char path[PATH_MAX + 16], msg[PATH_MAX + 256];
	int err;

	snprintf(path, sizeof(path), "%s/sweep.csv", sw->dir);
	if ((err = sweep_csv_save(path, sw->runs, sw->nruns, sw->o.metric, sw->o.nmetrics, msg, sizeof(msg))) < 0)
		fprintf(stderr, "blktune sweep: %s\n", msg);
	return err;
}

static int refuse(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int refuse(const char *fmt, ...)
{
	va_list ap;

	fputs("blktune sweep: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 2;
}

/* --csv FILE and --report FILE: their directory is checked now, as --dir
 * is, not after the sweep has run. */
static int check_dest(const char *opt, const char *path)
{
	char dir[PATH_MAX], msg[PATH_MAX + 256];
	const char *slash;

	if (!path)
		return 0;
	if (!(slash = strrchr(path, '/')))
		snprintf(dir, sizeof(dir), ".");
	else if (!slash[1])
		return refuse("%s %s: not a file name", opt, path);
	else if ((size_t)(slash - path) >= sizeof(dir))
		return refuse("%s %s: file name too long", opt, path);
	else
		snprintf(dir, sizeof(dir), "%.*s", slash == path ? 1 : (int)(slash - path), path);
	if (safe_dir_check(dir, false, msg, sizeof(msg)) < 0)
		return refuse("%s %s", opt, msg);
	return 0;
}

/* What sweep.info keeps must fit it whole, and where the files go must be
 * fit to take them: all checked before anything changes. Returns 0, or 2
 * after one line on stderr (a bad command line). */
static int check_args(struct sweep *sw, int argc, char **argv)
{
	const struct sweep_opts *o = &sw->o;
	char path[PATH_MAX + 16], msg[PATH_MAX + 256];
	struct stat st;
	size_t n;
	int rc;

	/* The first thing a user who is not root needs to hear (not that his
	 * results directory is root's). */
	if (geteuid() != 0) {
		fprintf(stderr, "blktune sweep: a sweep writes %s's %s: run it as root (sudo blktune sweep ...)\n",
			o->dev, o->name);
		return 1;
	}
	if ((n = sweep_info_values(o, NULL, 0)) >= sizeof(sw->info.values))
		return refuse("values too long: %zu characters after %s=, at most %zu", n, o->name,
			      sizeof(sw->info.values) - 1);
	if (o->run && (n = strlen(o->run)) >= SWEEP_RUN_MAX)
		return refuse("--run too long: %zu bytes, at most %d", n, SWEEP_RUN_MAX - 1);
	for (size_t m = 0; m < o->nmetrics; m++)
		if ((n = strlen(o->metric[m].regex)) >= SWEEP_INFO_STR)
			return refuse("--metric %s: REGEX too long: %zu bytes, at most %d", o->metric[m].name, n,
				      SWEEP_INFO_STR - 1);
	if ((n = strlen("blktune ") + sweep_info_command(argc, argv, NULL, 0)) >= sizeof(sw->info.command))
		return refuse("command line too long for sweep.info: %zu bytes quoted, at most %zu", n,
			      sizeof(sw->info.command) - 1);
	if ((rc = check_dest("--csv", o->csv)) || (rc = check_dest("--report", o->report)))
		return rc;
	if (o->dir) {
		/* Its sweep.csv and sweep.info would be this sweep's, beside
		 * the earlier one's snapshots and command output. */
		for (int i = 0; i < 2; i++) {
			snprintf(path, sizeof(path), "%s/%s", o->dir, i ? "sweep.csv" : "sweep.info");
			if (lstat(path, &st) == 0)
				return refuse("--dir %s holds an earlier sweep (%s): name a new or empty directory",
					      o->dir, i ? "sweep.csv" : "sweep.info");
		}
	} else if (snapshot_default_dir(path, sizeof(path), msg, sizeof(msg)) < 0) {
		return refuse("results directory: %s", msg);
	}
	return 0;
}

/* One run. Returns 0, a signal number, or -errno (fatal). */
static int run_one(struct sweep *sw, size_t v, long r, size_t step, size_t steps)
{
	struct sweep_run *run = &sw->runs[sw->nruns];
	struct snapshot snap;
	struct snapshot_source src = { 0 };
	struct tunable_result res;
	char tag[128], lab[SWEEP_LABEL_MAX], msg[SNAPSHOT_MSG_MAX];
	struct timespec wall;
	int err;

	sweep_run_init(run);
	snprintf(run->asked, sizeof(run->asked), "%s", sw->o.values[v]);
	run->repeat = r;
	run->order = step;
	snprintf(tag, sizeof(tag), "[%zu/%zu] %s=%s repeat %ld/%ld", step, steps, sw->o.name, run->asked, r,
		 sw->o.repeat);
	if (tunable_set(sw->ts, sw->o.dev, sw->o.name, run->asked, &res) < 0) {
		printf("%s: %s\n", tag, res.msg);
		return out_gone();
	}
	snprintf(run->value, sizeof(run->value), "%s", res.got);
	printf("%s: %s\n", tag, res.msg);
	if ((err = out_gone()) || (err = settle(sw)) != 0)
		return err;
	if (sw->o.drop_caches)
		drop_caches(sw->a.root);
	sweep_label(lab, sw->o.name, run->value, r);
	clock_gettime(CLOCK_REALTIME, &wall);
	run->started = (double)wall.tv_sec + (double)wall.tv_nsec / 1e9;
	sw->nruns++;
	if ((err = sweep_runner_run(&sw->rn, run, lab, tag)) != 0) {
		sw->nruns--; /* an interrupted run is no measurement */
		return err;
	}
	src.series = sw->se;
	src.ts = sw->ts;
	src.host = sampler_host(sw->a.sampler)->hostname;
	src.kernel = sampler_host(sw->a.sampler)->kernel;
	src.t_now = sw->a.cur.t;
	src.wall_now = sw->a.cur.wall;
	src.only = sw->o.dev;
	snapshot_init(&snap);
	if (snapshot_capture(&snap, &src, msg, sizeof(msg)) < 0) {
		printf("%s: no snapshot: %s\n", tag, msg);
	} else {
		snapshot_figures(&snap, run);
		if (snapshot_save(&snap, sw->dir, lab, run->snapshot, sizeof(run->snapshot), msg, sizeof(msg)) < 0) {
			fprintf(stderr, "blktune sweep: %s\n", msg);
			sw->save_failed = true;
		}
	}
	snapshot_free(&snap);
	print_run(run, tag);
	/* Saved after every run: an interrupted sweep keeps what it measured
	 * (the save at the end decides the exit status). */
	save_csv(sw);
	return out_gone();
}

/* What the report says about the machine, device, tunables and settings. */
static void gather_info(struct sweep *sw, int argc, char **argv, const char *original)
{
	static struct tunable_info list[TUNABLE_LIST_MAX];
	struct sweep_info *in = &sw->info;
	char msg[TUNABLE_MSG_MAX];
	time_t now = time(NULL);
	struct tm tm;
	int n;

	/* check_args made sure the command line, the values and --run fit. */
	sweep_info_init(in);
	snprintf(in->command, sizeof(in->command), "blktune ");
	sweep_info_command(argc, argv, in->command + 8, sizeof(in->command) - 8);
	snprintf(in->dev, sizeof(in->dev), "%s", sw->o.dev);
	snprintf(in->tunable, sizeof(in->tunable), "%s", sw->o.name);
	sweep_info_values(&sw->o, in->values, sizeof(in->values));
	snprintf(in->original, sizeof(in->original), "%s", original);
	if (sw->o.shuffle)
		snprintf(in->order, sizeof(in->order), "shuffled (seed %llu)", (unsigned long long)sw->o.seed);
	else
		snprintf(in->order, sizeof(in->order), "interleaved");
	snprintf(in->plot, sizeof(in->plot), "%s", sw->o.plot ? sw->o.plot : "mb_s");
	localtime_r(&now, &tm);
	strftime(in->started, sizeof(in->started), "%Y-%m-%d %H:%M:%S %z", &tm);
	snprintf(in->run, sizeof(in->run), "%s", sw->o.run ? sw->o.run : "");
	in->repeat = (double)sw->o.repeat;
	in->settle = sw->o.settle;
	in->duration = sw->o.duration;
	in->interval = sw->o.interval;
	snprintf(in->kernel, sizeof(in->kernel), "%s", sampler_host(sw->a.sampler)->kernel);
	snprintf(in->host, sizeof(in->host), "%s", sampler_host(sw->a.sampler)->hostname);
	sweep_info_device(sw->a.root, sw->o.dev, in);
	if ((n = tunable_list(sw->ts, sw->o.dev, list, TUNABLE_LIST_MAX, msg, sizeof(msg))) > 0)
		for (int i = 0; i < n && in->ntun < SWEEP_INFO_TUN_MAX; i++) {
			snprintf(in->tun[in->ntun].name, TUNABLE_NAME_MAX, "%s", list[i].name);
			snprintf(in->tun[in->ntun++].value, TUNABLE_VALUE_MAX, "%s", list[i].value);
		}
	for (size_t m = 0; m < sw->o.nmetrics; m++) {
		snprintf(in->metric[m].name, SWEEP_METRIC_NAME_MAX, "%s", sw->o.metric[m].name);
		snprintf(in->metric[m].regex, SWEEP_INFO_STR, "%s", sw->o.metric[m].regex);
	}
	in->nmetrics = sw->o.nmetrics;
}

/* --baseline, else the original value if swept, else the first. */
static void pick_baseline(struct sweep *sw)
{
	const char *b = sw->o.baseline;

	for (size_t v = 0; !b && v < sw->o.nvalues; v++)
		if (!strcmp(sw->o.values[v], sw->info.original))
			b = sw->o.values[v];
	snprintf(sw->info.baseline, sizeof(sw->info.baseline), "%s", b ? b : sw->o.values[0]);
}

/* Every value against the table and the device's limits before the first
 * change: a bad one found at its turn would leave a sweep half done. */
static int check_values(struct sweep *sw)
{
	struct tunable_result res;
	int err = 0;

	for (size_t v = 0; v < sw->o.nvalues; v++)
		if (tunable_check(sw->ts, sw->o.dev, sw->o.name, sw->o.values[v], &res) < 0) {
			fprintf(stderr, "blktune sweep: %s\n", res.msg);
			err = res.err;
		}
	return err;
}

static int setup(struct sweep *sw, int argc, char **argv)
{
	struct app_options ao;
	struct tunable_info info;
	char msg[TUNABLE_MSG_MAX], path[PATH_MAX + 16];
	sigset_t none;
	int err;

	app_options_default(&ao);
	ao.interval = sw->o.interval;
	/* A read-ahead sweep is about whether the read-ahead is used: trace it. */
	ao.readahead = !strcmp(sw->o.name, "read_ahead_kb");
	if ((err = app_open(&sw->a, &ao)) < 0 && ao.readahead) {
		/* Without the readahead tracepoints the sweep still measures. */
		fprintf(stderr, "blktune sweep: readahead hit%% n/a: %s\n", sw->a.error);
		app_close(&sw->a);
		ao.readahead = false;
		err = app_open(&sw->a, &ao);
	}
	if (err < 0) {
		fprintf(stderr, "blktune sweep: %s\n", sw->a.error);
		return err;
	}
	if ((err = tunable_check_device(sw->a.root, sw->o.dev, msg, sizeof(msg))) < 0 ||
	    (err = tunable_session_open(sw->a.root, NULL, &sw->ts)) < 0) {
		fprintf(stderr, "blktune sweep: %s\n", err == -ENOMEM ? "out of memory" : msg);
		return err;
	}
	if ((err = tunable_get(sw->ts, sw->o.dev, sw->o.name, &info, msg, sizeof(msg))) < 0) {
		fprintf(stderr, "blktune sweep: %s\n", msg);
		return err;
	}
	if (!info.writable) {
		fprintf(stderr, "blktune sweep: %s %s is read-only\n", sw->o.dev, sw->o.name);
		return -EPERM;
	}
	if ((err = check_values(sw)) < 0) {
		sw->usage = true;
		return err;
	}
	/* The journal now, as the first change would open it: without one
	 * every run's change would be refused and the restore would say it
	 * failed, with nothing changed. */
	if ((err = tunable_session_journal(sw->ts, restore_report, NULL, msg, sizeof(msg))) < 0) {
		fprintf(stderr, "blktune sweep: %s\n", msg);
		return err;
	}
	/* per-CPU /proc/stat rows for the busy split (IRQ counts come along) */
	if (app_cpu_view(&sw->a, true, sw->o.dev) < 0)
		fprintf(stderr, "blktune sweep: per-CPU split n/a\n");
	if ((err = sweep_dir(&sw->o, sw->dir, sizeof(sw->dir), msg, sizeof(msg))) < 0) {
		fprintf(stderr, "blktune sweep: results directory: %s\n", msg);
		sw->usage = true; /* as an unsafe --dir is */
		return err;
	}
	gather_info(sw, argc, argv, info.value);
	pick_baseline(sw);
	snprintf(path, sizeof(path), "%s/sweep.info", sw->dir);
	if ((err = sweep_info_save(path, &sw->info, msg, sizeof(msg))) < 0) {
		fprintf(stderr, "blktune sweep: %s\n", msg);
		return err;
	}
	printf("sweep %s %s: now %s; values %zu x %ld repeat(s), %s order, baseline %s; %s\n", sw->o.dev,
	       sw->o.name, info.value, sw->o.nvalues, sw->o.repeat, sw->info.order, sw->info.baseline,
	       sw->o.run ? sw->o.run : "sampling only");
	printf("results in %s\n", sw->dir);
	if ((err = series_new(SERIES_WINDOW_MAX, &sw->se)) < 0)
		return err;
	/* loop_new blocks SIGINT, SIGTERM, SIGHUP and SIGQUIT before the first
	 * change: from here on a signal is an event, so the restore runs. */
	sigemptyset(&none);
	sigprocmask(SIG_BLOCK, &none, &sw->old);
	if ((err = loop_new(sw->o.interval, false, &sw->l)) < 0)
		return err;
	return sweep_runner_open(&sw->rn, &sw->a, sw->l, sw->se, sw->ts, &sw->o, sw->dir, &sw->old);
}

static int report_writer(FILE *f, const void *arg)
{
	return sweep_report_write(f, arg) < 0 ? -EIO : 0;
}

/* The end of a sweep: tables of the judged figure and the workload's own,
 * the plot, the warnings; the --csv and --report files. dir_saved: DIR's
 * own files are complete. Returns 0 or the -errno of a failed save. */
static int finish(struct sweep *sw, bool print, bool dir_saved)
{
	struct sweep_report rp = { &sw->info, sw->runs, sw->nruns, sw->o.metric, sw->o.nmetrics };
	int fig = sweep_report_figure(&rp), err = 0, e;
	static const enum sweep_fig also[] = { SF_MB_S, SF_OWN_MB_S, SF_FIO_READ_MB_S, SF_FIO_WRITE_MB_S,
					       SF_CPU_US_PER_IO, SF_HIT_PCT };
	char msg[PATH_MAX + 256];

	if (!print)
		goto files;
	putchar('\n');
	sweep_report_table(stdout, &rp, fig, true);
	for (size_t m = 0; m < sw->o.nmetrics; m++)
		if ((int)(SF_COUNT + m) != fig) {
			putchar('\n');
			sweep_report_table(stdout, &rp, (int)(SF_COUNT + m), false);
		}
	for (size_t i = 0; i < sizeof(also) / sizeof(also[0]); i++) {
		bool any = false;
		for (size_t r = 0; r < sw->nruns; r++)
			any |= !isnan(sw->runs[r].fig[also[i]]) && sw->runs[r].fig[also[i]] != 0;
		if ((int)also[i] != fig && any) {
			putchar('\n');
			sweep_report_table(stdout, &rp, (int)also[i], false);
		}
	}
	putchar('\n');
	sweep_report_plot(stdout, &rp);
	printf("\nWarnings\n");
	sweep_report_warnings(stdout, &rp);
files:
	if (sw->o.csv && (e = sweep_csv_save(sw->o.csv, sw->runs, sw->nruns, sw->o.metric, sw->o.nmetrics, msg,
					    sizeof(msg))) < 0) {
		fprintf(stderr, "blktune sweep: %s\n", msg);
		err = e;
	}
	if (sw->o.report && (e = safe_save(sw->o.report, report_writer, &rp, msg, sizeof(msg))) < 0) {
		fprintf(stderr, "blktune sweep: %s\n", msg);
		err = e;
	}
	if (print && dir_saved)
		printf("\nblktune report %s prints the full report\n", sw->dir);
	return err;
}

int sweep_main(int argc, char **argv)
{
	static struct sweep sw; /* large (runs); one sweep per process */
	size_t steps, step;
	int rc, err = 0, failed;
	bool saved;

	memset(&sw, 0, sizeof(sw));
	sw.rn.stat_fd = -1;
	if ((rc = sweep_opts_parse(argc, argv, &sw.o, stdout, stderr)) != 0)
		return rc == 1 ? 0 : rc;
	if ((rc = check_args(&sw, argc, argv)) != 0)
		return rc;
	/* A closed stdout must not kill us before the restore (| head -1). */
	signal(SIGPIPE, SIG_IGN);
	steps = sw.o.nvalues * (size_t)sw.o.repeat;
	if (sw.o.shuffle && !sw.o.seed_given)
		sw.o.seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 20);
	sweep_opts_order(&sw.o, sw.order, steps);
	if ((err = setup(&sw, argc, argv)) < 0) {
		rc = sw.usage ? 2 : 1;
		goto out;
	}
	if (sw.o.shuffle)
		printf("shuffled order, seed %llu (--shuffle=%llu repeats it)\n", (unsigned long long)sw.o.seed,
		       (unsigned long long)sw.o.seed);
	err = out_gone();
	for (step = 0; step < steps && !err; step++)
		err = run_one(&sw, sw.order[step], (long)(step / sw.o.nvalues) + 1, step + 1, steps);
	if (err > 0)
		fprintf(err == SIGPIPE ? stderr : stdout, "interrupted by signal %d (%s): restoring\n", err,
			strsignal(err));
	failed = tunable_restore_all(sw.ts, restore_report, NULL);
	/* What stays journaled is retried; what the kernel or the checks
	 * refused for good was put aside (the restore line says where). */
	if (failed != 0)
		fprintf(stderr, "blktune sweep: the original value could not be restored: %s\n",
			tunable_session_changes(sw.ts) > 0 ? "blktune --restore retries"
							   : "kept aside as said above, not retried");
	rc = err < 0 || failed != 0;
	if (err < 0)
		fprintf(stderr, "blktune sweep: %s\n", strerror(-err));
	/* Results not saved are a failure, whatever was measured. */
	saved = save_csv(&sw) == 0 && !sw.save_failed;
	/* with stdout gone the files are still written */
	if (finish(&sw, err != SIGPIPE, saved) < 0 || !saved)
		rc = 1;
	for (size_t i = 0; i < sw.nruns; i++)
		if (sw.runs[i].status > 0 && !sw.runs[i].stopped)
			rc = 1;
	if (sw.nruns < steps && !err)
		rc = 1;
	if (err > 0)
		rc = 128 + err;
out:
	sweep_runner_close(&sw.rn);
	/* A signal that came after the first (during the restore or the
	 * table) is still blocked: ignored, it is dropped instead of killing
	 * us when loop_free unblocks it, before stdout is flushed and with
	 * another exit status. The sweep is over; nothing is left to stop. */
	fflush(stdout);
	if (sw.l) {
		signal(SIGINT, SIG_IGN);
		signal(SIGTERM, SIG_IGN);
		signal(SIGHUP, SIG_IGN);
		signal(SIGQUIT, SIG_IGN);
	}
	loop_free(sw.l);
	series_free(sw.se);
	if (sw.ts)
		tunable_session_close(sw.ts);
	if (sw.a.root)
		app_close(&sw.a);
	return rc;
}
