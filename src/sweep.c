#include "sweep.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "app.h"
#include "columns.h"
#include "loop.h"
#include "plot.h"
#include "series.h"
#include "snapshot.h"
#include "sweep-opts.h"
#include "tunable.h"

/* One run's figures: means over its window. */
struct sweep_row {
	const char *value;
	long repeat;
	char got[TUNABLE_VALUE_MAX]; /* what the kernel set */
	bool ok;
	int status;                  /* CMD's exit status, -1 without CMD */
	struct snapshot snap;
	char path[PATH_MAX];
};

/* The CSV's figures: iostat's names, then the traced p99. */
static const enum column_id csv_cols[] = {
	COLUMN_RKB_S, COLUMN_WKB_S, COLUMN_R_S, COLUMN_W_S, COLUMN_RAREQ_SZ, COLUMN_WAREQ_SZ,
	COLUMN_R_AWAIT, COLUMN_W_AWAIT, COLUMN_AQU_SZ, COLUMN_UTIL, COLUMN_RA_HIT,
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

static pid_t start(const char *cmd, const sigset_t *old)
{
	pid_t pid = fork();

	if (pid == 0) {
		/* Its own process group, so a stop kills the whole pipeline. */
		setpgid(0, 0);
		sigprocmask(SIG_SETMASK, old, NULL);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	if (pid > 0)
		setpgid(pid, pid);
	return pid;
}

static int stop(pid_t pid)
{
	int st;

	kill(-pid, SIGTERM);
	waitpid(pid, &st, 0);
	return st;
}

/* Sample the device while CMD runs or for the duration. Returns 0, the
 * signal that interrupted it, or -errno. */
static int measure(struct app *a, struct loop *l, struct series *se, struct tunable_session *ts,
		   const struct sweep_opts *o, struct sweep_row *row, const sigset_t *old, const char *tag)
{
	double t0;
	pid_t pid = -1;
	int err, signo, ev, st = 0;

	if ((err = app_refresh(a)) < 0)
		return err;
	t0 = a->cur.t;
	/* The swept device records the values in force (its snapshot shows
	 * them, not the sampler's reading from before the change). */
	for (size_t i = 0; i < a->nm; i++)
		if (!strcmp(a->m[i].name, o->dev))
			snapshot_record_change(se, ts, a->m[i].dev, a->m[i].name, t0);
		else
			series_mark_change(se, a->m[i].dev, a->m[i].name, t0);
	if ((err = loop_set_interval(l, o->interval)) < 0)
		return err;
	if (o->run && (pid = start(o->run, old)) < 0)
		return -errno;
	row->status = -1;
	for (;;) {
		if ((ev = loop_wait(l, &signo)) < 0) {
			err = ev;
			break;
		}
		if (ev == LOOP_SIGNAL) {
			if (signo == SIGWINCH)
				continue;
			err = signo;
			break;
		}
		if ((err = app_refresh(a)) < 0 || (err = series_add_traced(se, a->m, a->tm, a->nm, a->cur.t)) < 0)
			break;
		if (isatty(STDERR_FILENO))
			fprintf(stderr, "\r%s: %.0f s ", tag, a->cur.t - t0);
		if (pid > 0 && waitpid(pid, &st, WNOHANG) == pid) {
			row->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
			pid = -1;
			break;
		}
		if (o->duration > 0 && a->cur.t - t0 >= o->duration - o->interval / 2)
			break;
	}
	if (pid > 0) {
		st = stop(pid);
		row->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	}
	if (isatty(STDERR_FILENO))
		fputc('\n', stderr);
	return err;
}

static double mean(const struct snapshot *s, enum column_id c)
{
	return s->ndev && s->dev[0].st[c].n ? s->dev[0].st[c].mean : NAN;
}

static double p99(const struct snapshot *s)
{
	const struct snapshot_vec *v = s->ndev ? snapshot_dev_vec(&s->dev[0], SNAP_VEC_LAT_PCT) : NULL;

	return v ? v->v[2] : NAN;
}

static double mbps(const struct snapshot *s)
{
	return mean(s, COLUMN_RMB_S) + mean(s, COLUMN_WMB_S);
}

static void cell(double v, int prec, char *out, size_t len)
{
	if (isnan(v))
		snprintf(out, len, "n/a");
	else
		snprintf(out, len, "%.*f", prec, v);
}

static void table(const struct sweep_opts *o, struct sweep_row *rows, size_t n)
{
	printf("\n%-14s %6s %10s %10s %9s %10s %7s %s\n", o->name, "repeat", "MB/s", "IOPS", "req KiB",
	       "p99 us", "RA hit%", "snapshot");
	for (size_t i = 0; i < n; i++) {
		const struct snapshot *s = &rows[i].snap;
		double iops = mean(s, COLUMN_R_S) + mean(s, COLUMN_W_S);
		double kb = mean(s, COLUMN_RKB_S) + mean(s, COLUMN_WKB_S);
		char c[5][24];

		if (!rows[i].ok) {
			printf("%-14s %6ld %s\n", rows[i].value, rows[i].repeat, "(failed)");
			continue;
		}
		cell(mbps(s), 2, c[0], sizeof(c[0]));
		cell(iops, 1, c[1], sizeof(c[1]));
		cell(iops > 0 ? kb / iops : NAN, 1, c[2], sizeof(c[2]));
		cell(p99(s), 0, c[3], sizeof(c[3]));
		/* mean of the per-interval hit%: n/a unless the readahead mode ran */
		cell(mean(s, COLUMN_RA_HIT), 1, c[4], sizeof(c[4]));
		printf("%-14s %6ld %10s %10s %9s %10s %7s %s\n", rows[i].got, rows[i].repeat, c[0], c[1], c[2],
		       c[3], c[4], rows[i].path);
	}
}

static void plot(const struct sweep_opts *o, struct sweep_row *rows, size_t n)
{
	struct plot_point p[SWEEP_VALUES_MAX];
	size_t np = 0;

	for (size_t v = 0; v < o->nvalues; v++) {
		double sum = 0, x;
		char *end;
		long k = 0;

		for (size_t i = 0; i < n; i++)
			if (rows[i].value == o->values[v] && rows[i].ok && !isnan(mbps(&rows[i].snap))) {
				sum += mbps(&rows[i].snap);
				k++;
			}
		x = strtod(o->values[v], &end);
		p[np++] = (struct plot_point){ *end ? NAN : x, k ? sum / (double)k : NAN, o->values[v] };
	}
	putchar('\n');
	plot_draw(stdout, p, np, 60, 12, o->name, "MB/s (read + write, mean of repeats)");
}

static int csv(const char *path, const struct sweep_row *rows, size_t n)
{
	FILE *f = fopen(path, "w");
	int err = 0;

	if (!f)
		return -errno;
	fputs("value,repeat,intervals", f);
	for (size_t c = 0; c < sizeof(csv_cols) / sizeof(csv_cols[0]); c++)
		fprintf(f, ",%s", columns[csv_cols[c]].json);
	fputs(",lat_p99_us,cmd_status,snapshot\n", f);
	for (size_t i = 0; i < n; i++) {
		const struct snapshot *s = &rows[i].snap;
		if (!rows[i].ok)
			continue;
		fprintf(f, "%s,%ld,%zu", rows[i].got, rows[i].repeat, s->ndev ? s->dev[0].n : 0);
		for (size_t c = 0; c < sizeof(csv_cols) / sizeof(csv_cols[0]); c++) {
			double v = mean(s, csv_cols[c]);
			if (isnan(v))
				fputc(',', f);
			else
				fprintf(f, ",%.6g", v);
		}
		if (isnan(p99(s)))
			fputc(',', f);
		else
			fprintf(f, ",%.6g", p99(s));
		fprintf(f, ",%d,%s\n", rows[i].status, rows[i].path);
	}
	if (fclose(f) != 0)
		err = -errno;
	return err;
}

/* File names: the tunable and value with anything odd made '_'. */
static void label(char *out, size_t len, const char *name, const char *value, long repeat)
{
	snprintf(out, len, "%s=%s-r%ld", name, value, repeat);
	for (char *p = out; *p; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.=-_", *p))
			*p = '_';
}

static int sweep_dir(const struct sweep_opts *o, char *out, size_t len)
{
	char base[PATH_MAX], stamp[32];
	time_t now = time(NULL);
	struct tm tm;
	int err;

	if (o->dir) {
		snprintf(out, len, "%s", o->dir);
		return 0;
	}
	if ((err = snapshot_default_dir(base, sizeof(base))) < 0)
		return err;
	localtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	snprintf(out, len, "%s/sweep-%s-%s", base, stamp, o->dev);
	return 0;
}

struct sweep {
	struct sweep_opts o;
	struct app a;
	struct loop *l;
	struct series *se;
	struct tunable_session *ts;
	struct sweep_row rows[SWEEP_RUNS_MAX];
	size_t order[SWEEP_RUNS_MAX];
	size_t nrows;
	char dir[PATH_MAX];
	sigset_t old;
};

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

/* One value, one repeat. Returns 0, a signal number, or -errno (fatal). */
static int run_one(struct sweep *sw, size_t v, long r, size_t step, size_t steps)
{
	struct sweep_row *row = &sw->rows[sw->nrows++];
	struct snapshot_source src = { 0 };
	struct tunable_result res;
	char tag[128], lab[160], msg[SNAPSHOT_MSG_MAX];
	int err;

	row->value = sw->o.values[v];
	row->repeat = r;
	snprintf(tag, sizeof(tag), "[%zu/%zu] %s=%s repeat %ld/%ld", step, steps, sw->o.name, row->value, r,
		 sw->o.repeat);
	if (tunable_set(sw->ts, sw->o.dev, sw->o.name, row->value, &res) < 0) {
		printf("%s: %s\n", tag, res.msg);
		return 0;
	}
	snprintf(row->got, sizeof(row->got), "%s", res.got);
	printf("%s: %s\n", tag, res.msg);
	fflush(stdout);
	if ((err = settle(sw)) != 0)
		return err;
	if (sw->o.drop_caches)
		drop_caches(sw->a.root);
	if ((err = measure(&sw->a, sw->l, sw->se, sw->ts, &sw->o, row, &sw->old, tag)) != 0)
		return err;
	src.series = sw->se;
	src.ts = sw->ts;
	src.host = sampler_host(sw->a.sampler)->hostname;
	src.kernel = sampler_host(sw->a.sampler)->kernel;
	src.t_now = sw->a.cur.t;
	src.wall_now = sw->a.cur.wall;
	src.only = sw->o.dev;
	if (snapshot_capture(&row->snap, &src, msg, sizeof(msg)) < 0) {
		printf("%s: %s\n", tag, msg);
		return 0;
	}
	label(lab, sizeof(lab), sw->o.name, row->got, r);
	if (snapshot_save(&row->snap, sw->dir, lab, row->path, sizeof(row->path), msg, sizeof(msg)) < 0)
		fprintf(stderr, "blktune sweep: %s\n", msg);
	row->ok = true;
	printf("%s: %.2f MB/s over %zu intervals\n", tag, mbps(&row->snap), row->snap.dev[0].n);
	if (row->status > 0)
		printf("%s: the command exited with status %d\n", tag, row->status);
	return 0;
}

static int setup(struct sweep *sw)
{
	struct app_options ao;
	struct tunable_info info;
	const char *why;
	char msg[TUNABLE_MSG_MAX];
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
	if (!tunable_session_writable(sw->ts, &why)) {
		fprintf(stderr, "blktune sweep: %s\n", why);
		return -EACCES;
	}
	if ((err = tunable_get(sw->ts, sw->o.dev, sw->o.name, &info, msg, sizeof(msg))) < 0) {
		fprintf(stderr, "blktune sweep: %s\n", msg);
		return err;
	}
	if (!info.writable) {
		fprintf(stderr, "blktune sweep: %s %s is read-only\n", sw->o.dev, sw->o.name);
		return -EPERM;
	}
	printf("sweep %s %s: now %s; values %zu x %ld repeat(s), %s\n", sw->o.dev, sw->o.name, info.value,
	       sw->o.nvalues, sw->o.repeat, sw->o.run ? sw->o.run : "sampling only");
	if ((err = sweep_dir(&sw->o, sw->dir, sizeof(sw->dir))) < 0) {
		fprintf(stderr, "blktune sweep: snapshot directory: %s\n", strerror(-err));
		return err;
	}
	if ((err = series_new(SERIES_WINDOW_MAX, &sw->se)) < 0)
		return err;
	/* loop_new blocks SIGINT, SIGTERM, SIGHUP and SIGQUIT before the first
	 * change: from here on a signal is an event, so the restore runs. */
	sigemptyset(&none);
	sigprocmask(SIG_BLOCK, &none, &sw->old);
	return loop_new(sw->o.interval, false, &sw->l);
}

int sweep_main(int argc, char **argv)
{
	static struct sweep sw; /* large (rows hold snapshots); one sweep per process */
	size_t steps, step;
	int rc, err = 0, failed, cerr;

	memset(&sw, 0, sizeof(sw));
	if ((rc = sweep_opts_parse(argc, argv, &sw.o, stdout, stderr)) != 0)
		return rc == 1 ? 0 : rc;
	steps = sw.o.nvalues * (size_t)sw.o.repeat;
	if (sw.o.shuffle && !sw.o.seed_given)
		sw.o.seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 20);
	sweep_opts_order(&sw.o, sw.order, steps);
	if ((err = setup(&sw)) < 0) {
		rc = 1;
		goto out;
	}
	if (sw.o.shuffle)
		printf("shuffled order, seed %llu (--shuffle=%llu repeats it)\n", (unsigned long long)sw.o.seed,
		       (unsigned long long)sw.o.seed);
	for (step = 0; step < steps && !err; step++)
		err = run_one(&sw, sw.order[step], (long)(step / sw.o.nvalues) + 1, step + 1, steps);
	if (err > 0)
		printf("interrupted by signal %d (%s): restoring\n", err, strsignal(err));
	failed = tunable_restore_all(sw.ts, restore_report, NULL);
	if (failed != 0)
		fprintf(stderr, "blktune sweep: the original value could not be restored: blktune --restore retries\n");
	table(&sw.o, sw.rows, sw.nrows);
	plot(&sw.o, sw.rows, sw.nrows);
	rc = err < 0 || failed != 0;
	if (sw.o.csv && (cerr = csv(sw.o.csv, sw.rows, sw.nrows)) < 0) {
		fprintf(stderr, "blktune sweep: %s: %s\n", sw.o.csv, strerror(-cerr));
		rc = 1;
	}
	if (err < 0)
		fprintf(stderr, "blktune sweep: %s\n", strerror(-err));
	for (size_t i = 0; i < sw.nrows; i++)
		if (!sw.rows[i].ok)
			rc = 1;
	if (err > 0)
		rc = 128 + err;
out:
	for (size_t i = 0; i < sw.nrows; i++)
		snapshot_free(&sw.rows[i].snap);
	loop_free(sw.l);
	series_free(sw.se);
	if (sw.ts)
		tunable_session_close(sw.ts);
	if (sw.a.root)
		app_close(&sw.a);
	return rc;
}
