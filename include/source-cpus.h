/* source-cpus: per-CPU detail for the CPU view, read only while that view is
 * on: CPU time per CPU (libproc2's stat reap; live system only), BLOCK
 * softirqs per CPU (/proc/softirqs, all devices together) and, per CPU, the
 * interrupts of the IRQs that serve one device (/proc/interrupts). Interrupts
 * are not requests: at queue depth 32 one IRQ completes about 27 of them. */
#ifndef BLKTUNE_SOURCE_CPUS_H
#define BLKTUNE_SOURCE_CPUS_H

#include <stddef.h>
#include <stdint.h>

#include "root.h"
#include "sample.h"

struct source_cpus;

int source_cpus_open(const struct root *r, struct source_cpus **out);
void source_cpus_close(struct source_cpus *src);
/* Watch the IRQs serving dev (NULL: none). Reads their affinity too. */
int source_cpus_watch(struct source_cpus *src, const char *dev);
/* Fill s->cpus. Returns 0 or -errno. */
int source_cpus_read(struct source_cpus *src, struct sample *s);

/* Parsers (pure; fuzzed and unit-tested). */
/* Number of CPU columns in /proc/interrupts' or /proc/softirqs' header line. */
int source_cpus_parse_ncpu(const char *header);
/* The per-CPU counts of the row named `row` ("BLOCK:" style rows of
 * /proc/softirqs, or "36:" rows of /proc/interrupts) into out[ncpu].
 * Returns 0, -ENOENT when the row is absent, -EINVAL when malformed. */
int source_cpus_parse_row(const char *text, const char *row, unsigned ncpu, uint64_t *out);

#endif
