#include "sampler.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "format.h"
#include "source-bpf.h"
#include "source-cgroup.h"
#include "source-procs.h"
#include "source-procs-bpf.h"
#include "source-cpu.h"
#include "source-cpus.h"
#include "source-diskstats.h"
#include "source-mem.h"
#include "source-mounts.h"
#include "source-names.h"
#include "source-queue.h"
#include "source-readahead.h"
#include "source-replay.h"
#include "source-sensors.h"

/* Temperatures move slowly and libsensors walks hwmon: read them seldom. */
#define SENSORS_PERIOD_S 2.0
/* /proc/meminfo's Buffers line walks every block device in the kernel
 * (nr_blockdev_pages): at 1024 devices it costs more than diskstats. The
 * header's cache/dirty/writeback figures need no more than 1 Hz. */
#define MEM_PERIOD_S 1.0

struct sampler {
	const struct root *root;
	struct source_diskstats *ds;
	struct source_queue *q;
	struct source_mounts *mounts;
	struct source_cpu *cpu;
	struct source_mem *mem;
	struct source_sensors *sensors;
	double sensors_next, mem_next;
	struct mem_stat mem_last;
	struct temp_reading temps[SAMPLE_TEMPS_MAX];
	int ntemps;
	struct sampler_host host;
	struct source_bpf *bpf;
	struct source_cpus *cpus; /* only while the CPU view is on */
	struct source_ra *ra;     /* only while the readahead mode is on */
	struct source_cgroup *cg; /* only while the cgroup view (or --cgroups) is on */
	struct source_procs *procs; /* only while the process view (or --top-processes) is on */
	struct source_procs_bpf *procs_bpf; /* --trace-processes */
	struct source_names *names; /* only with -j */
	/* -r FILE: the recording is the only source; the rest stay NULL */
	struct source_replay *replay;
	bool replay_traced, replay_ra;
	char trace_why[SAMPLE_TRACE_OFF_MAX];
	/* the tracer loading in a thread (SAMPLER_DEFER_TRACE) */
	pthread_t loader;
	bool loading;
	atomic_bool loaded;
	/* the first frame is on the screen: the load may start (go) */
	pthread_mutex_t go_lock;
	pthread_cond_t go_cond;
	bool go;
	struct source_bpf *loaded_bpf;
	char loaded_why[160];
	uint64_t disks_fp; /* fingerprint of the disk set tracing last saw */
	bool have_fp;
	double uptime0, t0;
	char err[200];
};

/* How long the loader waits for the first frame before it loads anyway. */
#define FIRST_FRAME_WAIT_S 2

static void *load_tracer(void *arg)
{
	struct sampler *sp = arg;
	const char *delay = getenv("BLKTUNE_TRACE_LOAD_DELAY_MS");
	struct timespec until;

	/* The load (a helper process parsing the kernel's BTF) took a CPU
	 * from the first frame on a 2-CPU machine: it starts once the frame
	 * is drawn (sampler_frame_drawn), or after FIRST_FRAME_WAIT_S. */
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += FIRST_FRAME_WAIT_S;
	pthread_mutex_lock(&sp->go_lock);
	while (!sp->go)
		if (pthread_cond_timedwait(&sp->go_cond, &sp->go_lock, &until) == ETIMEDOUT)
			break;
	pthread_mutex_unlock(&sp->go_lock);

	if (delay) {
		long ms = strtol(delay, NULL, 10);
		struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

		if (ms > 0 && ms < 60000)
			nanosleep(&ts, NULL);
	}
	if (source_bpf_open(&sp->loaded_bpf, sp->loaded_why, sizeof(sp->loaded_why)) < 0)
		sp->loaded_bpf = NULL;
	atomic_store(&sp->loaded, true);
	return NULL;
}

void sampler_frame_drawn(struct sampler *sp)
{
	if (!sp->loading)
		return;
	pthread_mutex_lock(&sp->go_lock);
	sp->go = true;
	pthread_cond_signal(&sp->go_cond);
	pthread_mutex_unlock(&sp->go_lock);
}

/* Take over the tracer the thread loaded: when it is done, or (wait) now. */
static void adopt_tracer(struct sampler *sp, bool wait)
{
	if (!sp->loading || (!wait && !atomic_load(&sp->loaded)))
		return;
	sampler_frame_drawn(sp); /* waited for now: no frame to wait for */
	pthread_join(sp->loader, NULL);
	sp->loading = false;
	pthread_cond_destroy(&sp->go_cond);
	pthread_mutex_destroy(&sp->go_lock);
	sp->bpf = sp->loaded_bpf;
	snprintf(sp->trace_why, sizeof(sp->trace_why), "%s", sp->loaded_why);
}

/* Host and kernel names reach every view and output: sanitised here. */
static void read_line(const struct root *r, const char *path, char *out, size_t len)
{
	char raw[256];

	if (root_read(r, path, raw, sizeof(raw)) < 0)
		snprintf(raw, sizeof(raw), "?");
	raw[strcspn(raw, "\n")] = '\0';
	format_sanitize(raw, out, len);
}

int sampler_open(const struct root *r, unsigned flags, struct sampler **out)
{
	struct sampler *sp = calloc(1, sizeof(*sp));
	int err;

	if (!sp)
		return -ENOMEM;
	sp->root = r;
	sp->uptime0 = -1;
	if ((err = source_diskstats_open(r, &sp->ds)) < 0 || (err = source_queue_open(r, &sp->q)) < 0) {
		sampler_close(sp);
		return err;
	}
	/* Optional sources: absent on a captured root or a machine without them. */
	if (source_cpu_open(r, &sp->cpu) < 0)
		sp->cpu = NULL;
	if (source_mem_open(r, &sp->mem) < 0)
		sp->mem = NULL;
	if (source_mounts_open(r, &sp->mounts) < 0)
		sp->mounts = NULL;
	if (source_sensors_open(r, &sp->sensors) < 0)
		sp->sensors = NULL;
	/* Tracing watches the live kernel: meaningless beside a captured tree. */
	if (flags & SAMPLER_NO_TRACE)
		snprintf(sp->trace_why, sizeof(sp->trace_why), "off (--no-trace)");
	else if (!root_is_live(r))
		snprintf(sp->trace_why, sizeof(sp->trace_why), "off (--root reads a captured tree)");
	else if (flags & SAMPLER_DEFER_TRACE) {
		snprintf(sp->trace_why, sizeof(sp->trace_why), "loading");
		atomic_init(&sp->loaded, false);
		/* The loader thread takes no signal: SIGHUP, SIGTERM and the
		 * rest go to the main loop's signalfd, which restores tunables;
		 * delivered to this thread they would end the process unrestored
		 * (a slow load on a busy machine, a dropped ssh session). */
		sigset_t all, old;

		sigfillset(&all);
		pthread_mutex_init(&sp->go_lock, NULL);
		pthread_cond_init(&sp->go_cond, NULL);
		pthread_sigmask(SIG_BLOCK, &all, &old);
		sp->loading = pthread_create(&sp->loader, NULL, load_tracer, sp) == 0;
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		if (!sp->loading) {
			pthread_cond_destroy(&sp->go_cond);
			pthread_mutex_destroy(&sp->go_lock);
		}
		if (!sp->loading && source_bpf_open(&sp->bpf, sp->trace_why, sizeof(sp->trace_why)) < 0)
			sp->bpf = NULL;
	} else if (source_bpf_open(&sp->bpf, sp->trace_why, sizeof(sp->trace_why)) < 0)
		sp->bpf = NULL;
	read_line(r, "proc/sys/kernel/hostname", sp->host.hostname, sizeof(sp->host.hostname));
	read_line(r, "proc/sys/kernel/osrelease", sp->host.kernel, sizeof(sp->host.kernel));
	if (!strcmp(sp->host.kernel, "?")) {
		/* Captured trees may hold only proc/version: "Linux version X ..." */
		char v[256];
		read_line(r, "proc/version", v, sizeof(v));
		if (sscanf(v, "Linux version %63s", sp->host.kernel) != 1)
			snprintf(sp->host.kernel, sizeof(sp->host.kernel), "?");
	}
	*out = sp;
	return 0;
}

int sampler_open_replay(const char *path, struct sampler **out, char *why, size_t whylen)
{
	struct sampler *sp = calloc(1, sizeof(*sp));
	const struct record_meta *m;
	int err;

	if (!sp)
		return -ENOMEM;
	if ((err = source_replay_open(path, &sp->replay, why, whylen)) < 0) {
		free(sp);
		return err;
	}
	m = record_reader_meta(source_replay_reader(sp->replay));
	snprintf(sp->host.hostname, sizeof(sp->host.hostname), "%s", m->host);
	snprintf(sp->host.kernel, sizeof(sp->host.kernel), "%s", m->kernel);
	snprintf(sp->trace_why, sizeof(sp->trace_why), "off in the recording");
	*out = sp;
	return 0;
}

struct source_replay *sampler_replay(const struct sampler *sp)
{
	return sp->replay;
}

void sampler_close(struct sampler *sp)
{
	if (!sp)
		return;
	adopt_tracer(sp, true);
	source_diskstats_close(sp->ds);
	source_queue_close(sp->q);
	source_mounts_close(sp->mounts);
	source_cpu_close(sp->cpu);
	source_mem_close(sp->mem);
	source_sensors_close(sp->sensors);
	source_bpf_close(sp->bpf);
	source_cpus_close(sp->cpus);
	source_ra_close(sp->ra);
	source_cgroup_close(sp->cg);
	source_procs_close(sp->procs);
	source_procs_bpf_close(sp->procs_bpf);
	source_names_close(sp->names);
	source_replay_close(sp->replay);
	free(sp);
}

static int devt_cmp(const void *a, const void *b)
{
	dev_t x = *(const dev_t *)a, y = *(const dev_t *)b;

	return x < y ? -1 : x > y;
}

/* A bio-based disk (no mq/ directory: zram, dm, md) with a size, as
 * source_bpf_bio_needed finds in sysfs, from what source-queue read when
 * each disk appeared: a scan of sysfs at every change of the disk set cost
 * two system calls a device (at 256 devices that others add and remove,
 * more than the rest of a refresh). */
static bool bio_needed(const struct sample *s)
{
	for (size_t i = 0; i < s->ndisks; i++) {
		const struct disk_info *in = &s->disks[i].info;

		if (in->kind != DISK_KIND_PARTITION && in->nr_hw_queues < 0 && in->size_sectors > 0)
			return true;
	}
	return false;
}

/* When the set of disks changes: attach the bio programs only while a
 * bio-based disk exists (they cost per bio), and free the tracing state of
 * disks that went away; when the programs added devices, free too (a disk
 * can come, do I/O and go between two samples). The set is fingerprinted
 * by count and dev_t values. */
static void disks_changed(struct sampler *sp, const struct sample *s)
{
	uint64_t fp = s->ndisks;
	bool new_keys = source_bpf_keys_changed(sp->bpf);
	dev_t *live;

	for (size_t i = 0; i < s->ndisks; i++)
		fp = fp * 1000003u + s->disks[i].st.dev;
	if (sp->have_fp && fp == sp->disks_fp && !new_keys)
		return;
	if (!sp->have_fp || fp != sp->disks_fp)
		source_bpf_set_bio(sp->bpf, bio_needed(s));
	live = malloc((s->ndisks + 1) * sizeof(*live));
	if (!live)
		return; /* try again next time */
	for (size_t i = 0; i < s->ndisks; i++)
		live[i] = s->disks[i].st.dev;
	qsort(live, s->ndisks, sizeof(*live), devt_cmp);
	source_bpf_prune(sp->bpf, sp->root, live, s->ndisks);
	free(live);
	sp->disks_fp = fp;
	sp->have_fp = true;
}

/* The header's word on tracing in a replay: why the live run had none
 * in this sample, as it said then (recordings since format 5 keep it). */
static void replay_trace_why(struct sampler *sp, const struct sample *s)
{
	if (s->traced || !s->trace_off[0]) {
		snprintf(sp->trace_why, sizeof(sp->trace_why), "off in the recording");
		return;
	}
	if (!strncmp(s->trace_off, "off (", 5)) /* "off (--no-trace)" */
		snprintf(sp->trace_why, sizeof(sp->trace_why), "off in the recording %s", s->trace_off + 4);
	else if (!strcmp(s->trace_off, "loading"))
		snprintf(sp->trace_why, sizeof(sp->trace_why), "off in the recording (tracer loading)");
	else
		snprintf(sp->trace_why, sizeof(sp->trace_why), "off in the recording: %s", s->trace_off);
}

int sampler_take(struct sampler *sp, struct sample *s)
{
	struct timespec mono;
	char buf[64];
	int bad;

	if (sp->replay) {
		int err = source_replay_read(sp->replay, s);
		if (!err) {
			sp->replay_traced = s->traced;
			sp->replay_ra = s->ra_valid;
			replay_trace_why(sp, s);
		}
		return err;
	}
	adopt_tracer(sp, false);
	sample_clear(s);
	clock_gettime(CLOCK_MONOTONIC, &mono);
	clock_gettime(CLOCK_REALTIME, &s->wall);
	s->t = (double)mono.tv_sec + (double)mono.tv_nsec / 1e9;
	bad = source_diskstats_read(sp->ds, s);
	if (bad < 0)
		return bad;
	if (bad > 0)
		snprintf(sp->err, sizeof(sp->err), "%s (%d bad line%s skipped)",
			 source_diskstats_error(sp->ds), bad, bad == 1 ? "" : "s");
	else
		sp->err[0] = '\0';
	/* Traced counters right after diskstats, before anything slower, so
	 * both describe the same moment and trace_gap compares like with like. */
	if (sp->bpf)
		s->traced = source_bpf_read(sp->bpf, &s->trace) == 0;
	if (!s->traced)
		snprintf(s->trace_off, sizeof(s->trace_off), "%s",
			 sp->bpf ? "the tracer's counters could not be read" : sp->trace_why);
	/* cgroup counters too: their rates are compared with the device's */
	if (sp->cg && source_cgroup_read(sp->cg, &s->cg) < 0)
		return -ENOMEM;
	/* and the processes' (a process gone meanwhile is left out) */
	if (sp->procs && source_procs_read(sp->procs, &s->procs) == -ENOMEM)
		return -ENOMEM;
	if (sp->procs && sp->procs_bpf && source_procs_bpf_read(sp->procs_bpf, &s->procs) == -ENOMEM)
		return -ENOMEM;
	if (source_queue_fill(sp->q, s) < 0 || (sp->names && source_names_fill(sp->names, s) < 0))
		return -ENOMEM;
	if (sp->mounts)
		source_mounts_fill(sp->mounts, s);
	if (sp->bpf)
		disks_changed(sp, s);
	if (sp->cpu)
		source_cpu_read(sp->cpu, s);
	if (sp->cpus)
		source_cpus_read(sp->cpus, s);
	if (sp->ra)
		s->ra_valid = source_ra_read(sp->ra, &s->ra) == 0;
	/* Slow sources fill the sample when due; in between it gets their
	 * last reading. */
	if (sp->mem && s->t >= sp->mem_next) {
		source_mem_read(sp->mem, s);
		sp->mem_last = s->mem;
		sp->mem_next = s->t + MEM_PERIOD_S;
	}
	s->mem = sp->mem_last;
	if (sp->sensors && s->t >= sp->sensors_next) {
		source_sensors_read(sp->sensors, s);
		memcpy(sp->temps, s->temps, sizeof(sp->temps));
		sp->ntemps = s->ntemps;
		sp->sensors_next = s->t + SENSORS_PERIOD_S;
	}
	memcpy(s->temps, sp->temps, sizeof(s->temps));
	s->ntemps = sp->ntemps;
	/* Uptime advances with the monotonic clock: read it once, not per refresh. */
	if (sp->uptime0 < 0) {
		char *end = buf;
		/* "369.11 712.40": garbage is no uptime (n/a), not 0. */
		if (root_read(sp->root, "proc/uptime", buf, sizeof(buf)) > 0)
			sp->uptime0 = strtod(buf, &end);
		if (end == buf || (*end != ' ' && *end != '\n') || !(sp->uptime0 >= 0))
			sp->uptime0 = NAN;
		sp->t0 = s->t;
	}
	s->uptime = sp->uptime0 + (s->t - sp->t0);
	return 0;
}

const struct sampler_host *sampler_host(const struct sampler *sp)
{
	return &sp->host;
}

const char *sampler_error(const struct sampler *sp)
{
	return sp->err;
}

void sampler_invalidate(struct sampler *sp, dev_t dev)
{
	if (sp->replay)
		return;
	source_queue_invalidate(sp->q, dev);
}

bool sampler_tracing(const struct sampler *sp, const char **why)
{
	*why = sp->trace_why;
	return sp->replay ? sp->replay_traced : sp->bpf != NULL;
}

const struct source_bpf *sampler_bpf(const struct sampler *sp)
{
	return sp->bpf;
}

int sampler_cpu_detail(struct sampler *sp, bool on, const char *dev)
{
	int err;

	/* A replay shows the per-CPU detail where it was recorded. */
	if (sp->replay)
		return 0;
	if (!on) {
		source_cpus_close(sp->cpus);
		sp->cpus = NULL;
		return 0;
	}
	if (!sp->cpus && (err = source_cpus_open(sp->root, &sp->cpus)) < 0)
		return err;
	return source_cpus_watch(sp->cpus, dev);
}

int sampler_readahead(struct sampler *sp, bool on, char *why, size_t whylen)
{
	int err;

	if (!on) {
		source_ra_close(sp->ra);
		sp->ra = NULL;
		return 0;
	}
	if (sp->ra)
		return 0;
	if (sp->replay) {
		snprintf(why, whylen, "a replay shows readahead figures where the recording has them");
		return -EOPNOTSUPP;
	}
	if (!root_is_live(sp->root)) {
		snprintf(why, whylen, "readahead tracing needs the live system, not --root");
		return -EOPNOTSUPP;
	}
	if ((err = source_ra_open(&sp->ra, why, whylen)) < 0)
		sp->ra = NULL;
	return err;
}

int sampler_cgroups(struct sampler *sp, bool on)
{
	if (sp->replay)
		return 0;
	if (!on) {
		source_cgroup_close(sp->cg);
		sp->cg = NULL;
		return 0;
	}
	return sp->cg ? 0 : source_cgroup_open(sp->root, &sp->cg);
}

int sampler_procs(struct sampler *sp, bool on, char *why, size_t whylen)
{
	int err;

	if (!on) {
		source_procs_close(sp->procs);
		sp->procs = NULL;
		return 0;
	}
	if (sp->procs || sp->replay)
		return 0; /* a replay shows the processes where they were recorded */
	if ((err = source_procs_open(sp->root, &sp->procs, why, whylen)) < 0)
		sp->procs = NULL;
	return err;
}

int sampler_procs_trace(struct sampler *sp, char *why, size_t whylen)
{
	/* a replay has no root: it shows the traced requests where they were
	 * recorded, as it does the processes */
	if (sp->procs_bpf || sp->replay)
		return 0;
	return source_procs_bpf_open(sp->root, &sp->procs_bpf, why, whylen);
}

bool sampler_readahead_on(const struct sampler *sp)
{
	return sp->replay ? sp->replay_ra : sp->ra != NULL;
}

int sampler_names(struct sampler *sp, enum names_type t)
{
	source_names_close(sp->names);
	sp->names = NULL;
	if (sp->replay)
		return 0; /* the recording holds the names it showed */
	return t == NAMES_NONE ? 0 : source_names_open(sp->root, t, &sp->names);
}

int sampler_uptime(const struct sampler *sp, double *out)
{
	char buf[64], *end;
	ssize_t n;

	if (sp->replay)
		return -EOPNOTSUPP;
	n = root_read(sp->root, "proc/uptime", buf, sizeof(buf));

	if (n < 0)
		return (int)n;
	*out = strtod(buf, &end);
	if (end == buf || *out <= 0)
		return -EINVAL;
	return 0;
}
