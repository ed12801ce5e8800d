/* source-procs: per-process I/O counters for the process view, from
 * /proc/PID/io (read_bytes, write_bytes) through libproc2's pids API, with
 * each process's PID, start time, user, comm and command line.
 *
 * libproc2 reads the live /proc itself (its path is built in, no root
 * directory can be given), so this source works only on the live root: with
 * --root DIR it refuses to open rather than mix two machines in one sample,
 * and the view and the JSON say why.
 *
 * /proc/PID/io is readable only where ptrace would be allowed (the kernel's
 * PTRACE_MODE_READ): for root every process, for anyone else the processes
 * whose real, effective and saved user ids are all the caller's. libproc2
 * gives 0 for an io file it cannot read, which would read as "no I/O": so
 * without root the other users' processes are left out and counted as
 * unreadable, and the view says so. */
#ifndef BLKTUNE_SOURCE_PROCS_H
#define BLKTUNE_SOURCE_PROCS_H

#include <stddef.h>

#include "proc-sample.h"
#include "root.h"

struct source_procs;

/* Returns 0, -EOPNOTSUPP (not the live root: why says so), or -errno from
 * libproc2. */
int source_procs_open(const struct root *r, struct source_procs **out, char *why, size_t whylen);
void source_procs_close(struct source_procs *src);
/* Fill out (reset first). Returns 0 or -errno. */
int source_procs_read(struct source_procs *src, struct proc_sample *out);

#endif
