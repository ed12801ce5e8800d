#include "sweep-run.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "snapshot.h"
#include "sweep-cgroup.h"
#include "sweep-window.h"
#include "sweep-workload.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static long long diskseq(const struct sweep_runner *rn)
{
	char path[128];
	long long v;

	snprintf(path, sizeof(path), "sys/block/%s/diskseq", rn->o->dev);
	return root_read_s64(rn->a->root, path, &v) == 0 ? v : -1;
}

int sweep_runner_open(struct sweep_runner *rn, struct app *a, struct loop *l, struct series *se,
		      struct tunable_session *ts, const struct sweep_opts *o, const char *dir,
		      const sigset_t *child_mask)
{
	char path[128], buf[64];
	unsigned ma, mi;
	ssize_t n;

	memset(rn, 0, sizeof(*rn));
	rn->a = a;
	rn->l = l;
	rn->se = se;
	rn->ts = ts;
	rn->o = o;
	rn->dir = dir;
	rn->child_mask = *child_mask;
	snprintf(path, sizeof(path), "sys/block/%s/dev", o->dev);
	if ((n = root_read(a->root, path, buf, sizeof(buf))) < 0 || sscanf(buf, "%u:%u", &ma, &mi) != 2) {
		fprintf(stderr, "blktune sweep: %s: cannot read the device number\n", path);
		return n < 0 ? (int)n : -EINVAL;
	}
	rn->major = ma;
	rn->minor = mi;
	snprintf(path, sizeof(path), "sys/block/%s/stat", o->dev);
	if ((rn->stat_fd = root_openat(a->root, path, O_RDONLY)) < 0) {
		fprintf(stderr, "blktune sweep: %s: %s\n", path, strerror(-rn->stat_fd));
		return rn->stat_fd;
	}
	rn->is_fio = o->run && sweep_workload_is_fio(o->run);
	rn->diskseq = diskseq(rn);
	/* A command's process that outlives its parent comes to us, not to
	 * PID 1 (which may reap it late, or never, in a container): reap()
	 * then sees the group end as soon as its last process does. */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	return 0;
}

void sweep_runner_close(struct sweep_runner *rn)
{
	if (rn->stat_fd > 0)
		close(rn->stat_fd);
	rn->stat_fd = -1;
}

static int read_stat(const struct sweep_runner *rn, struct disk_stat *st)
{
	char buf[512];
	ssize_t n = root_pread(rn->stat_fd, buf, sizeof(buf));

	return n < 0 ? (int)n : sweep_window_parse_stat(buf, st);
}

/* The cgroup's counters as a disk_stat, so the same window model finds the
 * command's own first and last I/O (submissions, in the throttle layer). */
static int read_own(const struct sweep_runner *rn, const struct sweep_cgroup *cg, struct disk_stat *st)
{
	struct sweep_cgroup_io io;
	int err = sweep_cgroup_read_io(rn->a->root, cg, &io);

	memset(st, 0, sizeof(*st));
	if (err < 0)
		return err;
	st->rd_ios = io.rios;
	st->wr_ios = io.wios;
	st->rd_sectors = io.rbytes; /* bytes here, not sectors: only differences matter */
	st->wr_sectors = io.wbytes;
	return 0;
}

struct child {
	pid_t pid;
	int pidfd;
	int status;
	struct rusage ru;
	bool reaped, killed, ended;
};

static pid_t start(const struct sweep_runner *rn, const char *cmd, const char *out, int *release)
{
	int sync[2];
	pid_t pid;

	if (pipe2(sync, O_CLOEXEC) < 0)
		return -errno;
	if ((pid = fork()) < 0) {
		int err = -errno;
		close(sync[0]);
		close(sync[1]);
		return err;
	}
	if (pid == 0) {
		char c;
		/* Its own process group, so a stop kills the whole pipeline. */
		setpgid(0, 0);
		signal(SIGPIPE, SIG_DFL);
		sigprocmask(SIG_SETMASK, &rn->child_mask, NULL);
		close(sync[1]);
		/* Wait until the parent has put us in the cgroup and read the
		 * counters: the window starts exactly here. */
		if (read(sync[0], &c, 1) < 0)
			_exit(126);
		if (out) {
			int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
			if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0 || dup2(fd, STDERR_FILENO) < 0)
				_exit(126);
		}
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	setpgid(pid, pid);
	close(sync[0]);
	*release = sync[1];
	return pid;
}

/* SIGTERM to the command's process group; what is still there after
 * SWEEP_KILL_GRACE_MS (a command that ignores SIGTERM, or a child it left)
 * gets SIGKILL, so the time limit and a Ctrl-C always end a run. */
static void reap(struct child *c)
{
	struct timespec tick = { 0, 10 * 1000000 };
	int left = SWEEP_KILL_GRACE_MS;

	if (c->pid <= 0 || c->ended)
		return;
	c->ended = true;
	if (kill(-c->pid, SIGTERM) == 0) {
		/* The group is gone once its leader is reaped and no member is
		 * left (the leader's zombie alone still counts for kill). */
		for (; left > 0; left -= 10) {
			if (!c->reaped && wait4(c->pid, &c->status, WNOHANG, &c->ru) == c->pid)
				c->reaped = true;
			/* The leader's status is taken: now the orphans of its
			 * group, ours as subreaper (a zombie counts for kill). */
			while (c->reaped && waitpid(-c->pid, NULL, WNOHANG) > 0)
				;
			if (c->reaped && kill(-c->pid, 0) < 0 && errno == ESRCH)
				break;
			nanosleep(&tick, NULL);
		}
		if (left <= 0) {
			c->killed = !c->reaped;
			kill(-c->pid, SIGKILL);
		}
	}
	if (!c->reaped && wait4(c->pid, &c->status, 0, &c->ru) == c->pid)
		c->reaped = true;
}

static double tv(const struct timeval *t)
{
	return (double)t->tv_sec * 1e6 + (double)t->tv_usec;
}

/* The system's CPU time over the window, and per device I/O. */
static void cpu_figures(const struct cpu_stat *a, const struct cpu_stat *b, double ios, struct sweep_run *run)
{
	double user, sys, irq, soft, total;

	if (!a->valid || !b->valid)
		return;
	user = (double)(b->user + b->nice - a->user - a->nice);
	sys = (double)(b->system - a->system);
	irq = (double)(b->irq - a->irq);
	soft = (double)(b->softirq - a->softirq);
	total = user + sys + irq + soft + (double)(b->idle + b->iowait + b->steal - a->idle - a->iowait - a->steal);
	if (total <= 0)
		return;
	run->fig[SF_CPU_USER_PCT] = 100 * user / total;
	run->fig[SF_CPU_SYS_PCT] = 100 * sys / total;
	run->fig[SF_CPU_IRQ_PCT] = 100 * irq / total;
	run->fig[SF_CPU_SOFTIRQ_PCT] = 100 * soft / total;
	if (ios > 0)
		run->fig[SF_CPU_US_PER_IO] = (user + sys + irq + soft) * 1e6 / (double)sysconf(_SC_CLK_TCK) / ios;
}

/* The same split per CPU, from the CPU view's per-CPU /proc/stat rows. */
static void cpu_split(const struct cpu_stat *a, const struct cpus_sample *now, unsigned n, struct sweep_run *run)
{
	if (!now->valid || !now->have_stat || now->ncpu < n)
		return;
	for (unsigned c = 0; c < n && c < SWEEP_CPUS_MAX; c++) {
		const struct cpu_stat *b = &now->stat[c];
		double part[SCP_COUNT], total;
		if (!a[c].valid || !b->valid)
			return;
		part[SCP_USER] = (double)(b->user + b->nice - a[c].user - a[c].nice);
		part[SCP_SYS] = (double)(b->system - a[c].system);
		part[SCP_IRQ] = (double)(b->irq - a[c].irq);
		part[SCP_SOFTIRQ] = (double)(b->softirq - a[c].softirq);
		total = part[0] + part[1] + part[2] + part[3] +
			(double)(b->idle + b->iowait + b->steal - a[c].idle - a[c].iowait - a[c].steal);
		for (int k = 0; k < SCP_COUNT; k++)
			run->cpu[c][k] = total > 0 ? 100 * part[k] / total : NAN;
	}
	run->ncpu = n < SWEEP_CPUS_MAX ? n : SWEEP_CPUS_MAX;
}

static void device_figures(const struct sweep_window_result *w, struct sweep_run *run)
{
	double ios = w->reads + w->writes, bytes = w->read_bytes + w->write_bytes;

	run->window_s = w->window;
	run->busy_s = w->busy;
	run->head_s = w->head;
	run->tail_s = w->tail;
	run->idle_pct = w->idle_pct;
	run->fig[SF_READS] = w->reads;
	run->fig[SF_WRITES] = w->writes;
	run->fig[SF_READ_BYTES] = w->read_bytes;
	run->fig[SF_WRITE_BYTES] = w->write_bytes;
	if (w->busy > 0) {
		run->fig[SF_MB_S] = bytes / 1048576.0 / w->busy;
		run->fig[SF_READ_MB_S] = w->read_bytes / 1048576.0 / w->busy;
		run->fig[SF_WRITE_MB_S] = w->write_bytes / 1048576.0 / w->busy;
		run->fig[SF_IOPS] = ios / w->busy;
		run->fig[SF_READ_IOPS] = w->reads / w->busy;
		run->fig[SF_WRITE_IOPS] = w->writes / w->busy;
	}
	if (ios > 0)
		run->fig[SF_REQ_KB] = bytes / 1024.0 / ios;
}

static void own_figures(const struct sweep_window_result *w, struct sweep_run *run)
{
	double ios = w->reads + w->writes;

	/* read_bytes/write_bytes hold bytes x 512 here (see read_own) */
	run->fig[SF_OWN_READS] = w->reads;
	run->fig[SF_OWN_WRITES] = w->writes;
	run->fig[SF_OWN_READ_BYTES] = w->read_bytes / 512;
	run->fig[SF_OWN_WRITE_BYTES] = w->write_bytes / 512;
	if (w->busy > 0) {
		run->fig[SF_OWN_MB_S] = (w->read_bytes + w->write_bytes) / 512 / 1048576.0 / w->busy;
		run->fig[SF_OWN_IOPS] = ios / w->busy;
	}
}

static int slurp(const char *path, char **out)
{
	return sweep_workload_read_tail(path, 64u << 20, out); /* keep the last 64 MiB at most */
}

static void workload_figures(const struct sweep_runner *rn, struct sweep_run *run, const char *json,
			     const char *out, const char *tag)
{
	char *text;

	if (json[0]) {
		if (slurp(json, &text) < 0) {
			printf("%s: no fio JSON in %s\n", tag, json);
		} else {
			if (sweep_workload_fio_parse(text, run) < 0)
				printf("%s: %s is not fio JSON\n", tag, json);
			free(text);
		}
	}
	if (out[0] && slurp(out, &text) == 0) {
		for (size_t m = 0; m < rn->o->nmetrics; m++) {
			run->metric[m] = sweep_workload_metric(text, rn->o->metric[m].regex);
			if (isnan(run->metric[m]))
				printf("%s: --metric %s matched nothing in %s\n", tag, rn->o->metric[m].name, out);
		}
		free(text);
	}
}

static int remove_old(const char *path, const char *tag)
{
	int err;

	if (!path[0] || unlink(path) == 0 || errno == ENOENT)
		return 0;
	err = -errno;
	fprintf(stderr, "blktune sweep: %s: cannot remove %s of an earlier run: %s\n", tag, path, strerror(-err));
	return err;
}

/* DIR/LABEL.SUFFIX into path; a name the kernel would not take is an
 * error, never a shorter name. */
static int run_file(const struct sweep_runner *rn, const char *label, const char *suffix, char *path, size_t len)
{
	if ((size_t)snprintf(path, len, "%s/%s%s", rn->dir, label, suffix) < len)
		return 0;
	fprintf(stderr, "blktune sweep: %s/%s%s: file name too long\n", rn->dir, label, suffix);
	path[0] = '\0';
	return -ENAMETOOLONG;
}

static int sample(struct sweep_runner *rn, bool add)
{
	int err;

	if ((err = app_refresh(rn->a)) < 0)
		return err;
	rn->last_sample = rn->a->cur.t;
	return add ? series_add_traced(rn->se, rn->a->m, rn->a->tm, rn->a->nm, rn->a->cur.t) : 0;
}

int sweep_runner_run(struct sweep_runner *rn, struct sweep_run *run, const char *label, const char *tag)
{
	const struct sweep_opts *o = rn->o;
	struct sweep_window w, own;
	struct sweep_window_result wr, ownr;
	struct sweep_cgroup cg = { 0 };
	struct sweep_cgroup_cpu cpu = { 0 };
	struct child c = { .pid = -1, .pidfd = -1 };
	struct cpu_stat cpu0, percpu0[SWEEP_CPUS_MAX];
	unsigned ncpu0 = 0;
	struct disk_stat st, ost;
	char *cmd = NULL, json[PATH_MAX] = "", out[PATH_MAX] = "", msg[256], name[64];
	double t0, next_poll;
	int err = 0, release = -1, ev = LOOP_TIMEOUT, signo;
	bool have_cg = false, ended = false, own_ok = false, iostats_off = false;

	if (o->run) {
		if (rn->is_fio) {
			if ((err = run_file(rn, label, ".fio.json", json, sizeof(json))) < 0 ||
			    (err = sweep_workload_fio_cmd(o->run, json, &cmd)) < 0)
				goto out;
		} else if (!(cmd = strdup(o->run))) {
			err = -ENOMEM;
			goto out;
		}
		if (o->nmetrics && (err = run_file(rn, label, ".out", out, sizeof(out))) < 0)
			goto out;
		/* The files of an earlier run under this label (two values the
		 * kernel reads back alike, or a failed run) are not this one's. */
		if ((err = remove_old(json, tag)) < 0 || (err = remove_old(out, tag)) < 0)
			goto out;
		snprintf(name, sizeof(name), "%d-%zu", (int)getpid(), run->order);
		if (!rn->cgroup_failed) {
			if (sweep_cgroup_create(rn->a->root, name, rn->major, rn->minor, &cg, msg, sizeof(msg)) == 0)
				have_cg = true;
			else {
				fprintf(stderr, "blktune sweep: no cgroup for the command (%s): own I/O n/a\n", msg);
				rn->cgroup_failed = true;
			}
		}
	}
	if (rn->diskseq >= 0 && diskseq(rn) != rn->diskseq) {
		fprintf(stderr, "blktune sweep: %s was replaced since the sweep began (diskseq changed)\n", o->dev);
		err = -ENODEV;
		goto out;
	}
	{
		char path[128];
		long long v;
		snprintf(path, sizeof(path), "sys/block/%s/queue/iostats", o->dev);
		iostats_off = root_read_s64(rn->a->root, path, &v) == 0 && v == 0;
	}
	/* The change is behind us: intervals from here on are this run's. */
	if ((err = sample(rn, false)) < 0)
		goto out;
	t0 = rn->a->cur.t;
	cpu0 = rn->a->cur.cpu;
	if (rn->a->cur.cpus.valid && rn->a->cur.cpus.have_stat) {
		ncpu0 = rn->a->cur.cpus.ncpu < SWEEP_CPUS_MAX ? rn->a->cur.cpus.ncpu : SWEEP_CPUS_MAX;
		memcpy(percpu0, rn->a->cur.cpus.stat, ncpu0 * sizeof(percpu0[0]));
	}
	/* The swept device records the values in force (its snapshot shows
	 * them, not the sampler's reading from before the change). */
	for (size_t i = 0; i < rn->a->nm; i++)
		if (!strcmp(rn->a->m[i].name, o->dev))
			snapshot_record_change(rn->se, rn->ts, rn->a->m[i].dev, rn->a->m[i].name, t0);
		else
			series_mark_change(rn->se, rn->a->m[i].dev, rn->a->m[i].name, t0);
	if ((err = loop_set_interval(rn->l, o->interval)) < 0)
		goto out;
	if (o->run) {
		if ((c.pid = start(rn, cmd, out[0] ? out : NULL, &release)) < 0) {
			err = c.pid;
			goto out;
		}
		if (have_cg && (err = sweep_cgroup_attach(rn->a->root, &cg, c.pid)) < 0) {
			fprintf(stderr, "blktune sweep: cgroup %s: %s: own I/O n/a\n", cg.io, strerror(-err));
			sweep_cgroup_destroy(rn->a->root, &cg);
			have_cg = false;
			err = 0;
		}
		if ((c.pidfd = (int)syscall(SYS_pidfd_open, c.pid, 0)) < 0 || loop_watch(rn->l, c.pidfd) < 0) {
			err = -errno;
			goto out;
		}
	}
	if ((err = read_stat(rn, &st)) < 0)
		goto out;
	sweep_window_start(&w, now(), &st);
	if (have_cg && read_own(rn, &cg, &ost) == 0) {
		sweep_window_start(&own, w.t_start, &ost);
		own_ok = true;
	}
	if (release >= 0) {
		close(release); /* go */
		release = -1;
	}
	next_poll = w.t_start + SWEEP_POLL_MS / 1000.0;
	while (!ended) {
		double t = now(), until = next_poll;
		if (o->duration > 0 && w.t_start + o->duration < until)
			until = w.t_start + o->duration;
		ev = loop_wait_timeout(rn->l, until > t ? (int)ceil((until - t) * 1000) : 0, &signo);
		if (ev < 0) {
			err = ev;
			break;
		}
		if (ev == LOOP_SIGNAL && signo != SIGWINCH) {
			err = signo;
			break;
		}
		t = now();
		if (ev == LOOP_FD || (o->duration > 0 && t >= w.t_start + o->duration)) {
			ended = true; /* the command exited, or the time is up: read now */
		} else if (t >= next_poll) {
			if ((err = read_stat(rn, &st)) < 0)
				break;
			sweep_window_poll(&w, t, &st);
			if (own_ok && read_own(rn, &cg, &ost) == 0)
				sweep_window_poll(&own, t, &ost);
			next_poll = t + SWEEP_POLL_MS / 1000.0;
		}
		if (ev == LOOP_TICK && !ended) {
			if ((err = sample(rn, true)) < 0)
				break;
			if (isatty(STDERR_FILENO))
				fprintf(stderr, "\r%s: %.0f s ", tag, rn->a->cur.t - t0);
		}
	}
	/* The end of the window: on exit, at the time limit, or interrupted. */
	if (read_stat(rn, &st) == 0)
		sweep_window_end(&w, now(), &st);
	if (own_ok && read_own(rn, &cg, &ost) == 0)
		sweep_window_end(&own, w.t_end, &ost);
	/* Still running at the end of the window: the time limit (or a
	 * signal) stops it; that status is ours, not the command's failure. */
	run->stopped = c.pid > 0 && !err && ev != LOOP_FD;
	reap(&c);
	run->killed = c.killed;
	if (isatty(STDERR_FILENO))
		fputc('\n', stderr);
	/* Counters of a device removed and re-created under the same name
	 * are another device's: no figures from them. */
	if (!err && rn->diskseq >= 0 && diskseq(rn) != rn->diskseq) {
		fprintf(stderr, "blktune sweep: %s was replaced during the run (diskseq changed)\n", o->dev);
		err = -ENODEV;
		goto out;
	}
	/* The last, partial interval joins the series when it is not a sliver. */
	if (!err) {
		bool add = now() - rn->last_sample >= o->interval / 4;
		if ((err = sample(rn, add)) < 0)
			goto out;
	}
	run->status = c.pid > 0 ? (WIFEXITED(c.status) ? WEXITSTATUS(c.status) : 128 + WTERMSIG(c.status)) : -1;
	sweep_window_result(&w, &wr);
	if (iostats_off) {
		/* the kernel counted nothing: no zeros that look like figures */
		run->window_s = wr.window;
		printf("%s: %s queue/iostats is 0, the kernel does not count its I/O: device figures n/a\n", tag,
		       o->dev);
	} else {
		device_figures(&wr, run);
	}
	cpu_figures(&cpu0, &rn->a->cur.cpu, wr.reads + wr.writes, run);
	if (ncpu0)
		cpu_split(percpu0, &rn->a->cur.cpus, ncpu0, run);
	if (own_ok) {
		sweep_window_result(&own, &ownr);
		own_figures(&ownr, run);
	}
	if (have_cg) {
		if (sweep_cgroup_read_cpu(rn->a->root, &cg, &cpu) < 0)
			cpu.valid = false;
	}
	if (c.reaped && !cpu.valid) {
		cpu.user_ns = (uint64_t)(tv(&c.ru.ru_utime) * 1000);
		cpu.sys_ns = (uint64_t)(tv(&c.ru.ru_stime) * 1000);
		cpu.valid = true;
	}
	if (cpu.valid) {
		double ios = run->fig[SF_OWN_READS] + run->fig[SF_OWN_WRITES];
		run->fig[SF_OWN_CPU_USER_US] = (double)cpu.user_ns / 1000;
		run->fig[SF_OWN_CPU_SYS_US] = (double)cpu.sys_ns / 1000;
		if (ios > 0)
			run->fig[SF_OWN_CPU_US_PER_IO] = (double)(cpu.user_ns + cpu.sys_ns) / 1000 / ios;
	}
	/* A failed command's files are no measurement of this value. */
	if (!err && c.pid > 0 && (run->status == 0 || run->stopped))
		workload_figures(rn, run, json, out, tag);
out:
	free(cmd);
	if (release >= 0)
		close(release);
	reap(&c);
	if (c.pidfd >= 0) {
		loop_unwatch(rn->l, c.pidfd);
		close(c.pidfd);
	}
	if (cg.io[0] && sweep_cgroup_destroy(rn->a->root, &cg) < 0)
		fprintf(stderr, "blktune sweep: could not remove the cgroup of run %zu\n", run->order);
	return err;
}
