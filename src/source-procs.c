#include "source-procs.h"

#include <errno.h>
#include <libproc2/pids.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* The items read per process, and where each lands: PIDS_VAL indexes. */
enum { I_PID, I_START, I_RUID, I_EUID, I_SUID, I_EUSER, I_CMD, I_CMDLINE, I_RBYTES, I_WBYTES, NITEMS };
static enum pids_item items[NITEMS] = {
	[I_PID] = PIDS_ID_PID,
	[I_START] = PIDS_TICS_BEGAN,
	[I_RUID] = PIDS_ID_RUID,
	[I_EUID] = PIDS_ID_EUID,
	[I_SUID] = PIDS_ID_SUID,
	[I_EUSER] = PIDS_ID_EUSER,
	[I_CMD] = PIDS_CMD,
	[I_CMDLINE] = PIDS_CMDLINE,
	[I_RBYTES] = PIDS_IO_READ_BYTES,
	[I_WBYTES] = PIDS_IO_WRITE_BYTES,
};

struct source_procs {
	struct pids_info *info;
	uid_t uid;
	bool root;
};

int source_procs_open(const struct root *r, struct source_procs **out, char *why, size_t whylen)
{
	struct source_procs *src;
	int err;

	if (!root_is_live(r)) {
		snprintf(why, whylen, "process figures come from the live /proc (libproc2 reads it itself), not --root");
		return -EOPNOTSUPP;
	}
	if (!(src = calloc(1, sizeof(*src))))
		return -ENOMEM;
	if ((err = procps_pids_new(&src->info, items, NITEMS)) < 0) {
		snprintf(why, whylen, "libproc2: %s", strerror(-err));
		free(src);
		return err;
	}
	src->uid = geteuid();
	src->root = src->uid == 0;
	*out = src;
	return 0;
}

void source_procs_close(struct source_procs *src)
{
	if (!src)
		return;
	procps_pids_unref(&src->info);
	free(src);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

#define VAL(st, i, type) PIDS_VAL(i, type, st, NULL)

/* Without root, /proc/PID/io is ours to read only where all three user ids
 * are ours (setuid programs and other users' are not). */
static bool readable(const struct source_procs *src, struct pids_stack *st)
{
	return src->root || (VAL(st, I_RUID, u_int) == src->uid && VAL(st, I_EUID, u_int) == src->uid &&
			     VAL(st, I_SUID, u_int) == src->uid);
}

static void copy(struct proc_entry *e, struct pids_stack *st)
{
	const char *cmdline = VAL(st, I_CMDLINE, str);

	e->uid = VAL(st, I_EUID, u_int);
	snprintf(e->user, sizeof(e->user), "%s", VAL(st, I_EUSER, str));
	snprintf(e->comm, sizeof(e->comm), "%s", VAL(st, I_CMD, str));
	/* libproc2 shows a kernel thread's missing command line as [comm] */
	snprintf(e->cmdline, sizeof(e->cmdline), "%s", cmdline && cmdline[0] != '[' ? cmdline : "");
	e->rbytes = VAL(st, I_RBYTES, ul_int);
	e->wbytes = VAL(st, I_WBYTES, ul_int);
}

int source_procs_read(struct source_procs *src, struct proc_sample *out)
{
	double t0 = now();
	struct pids_fetch *f;

	proc_sample_reset(out);
	out->all_users = src->root;
	out->uid = src->uid;
	if (!(f = procps_pids_reap(src->info, PIDS_FETCH_TASKS_ONLY))) {
		snprintf(out->why, sizeof(out->why), "libproc2 could not read /proc");
		return -EIO;
	}
	for (int i = 0; i < f->counts->total; i++) {
		struct pids_stack *st = f->stacks[i];
		struct proc_entry *e;

		if (!readable(src, st)) {
			out->unreadable++;
			continue;
		}
		if (!(e = proc_sample_add(out, VAL(st, I_PID, s_int), VAL(st, I_START, ull_int))))
			return -ENOMEM;
		copy(e, st);
	}
	proc_sample_sort(out);
	out->valid = true;
	out->t = (t0 + now()) / 2;
	return 0;
}
