/* source-cpu: CPU time from the first line of /proc/stat, pread through a
 * kept fd. Live system only: with a captured --root this source stays off
 * (cpu.valid is false), as it did when libproc2 read the live /proc. */
#ifndef BLKTUNE_SOURCE_CPU_H
#define BLKTUNE_SOURCE_CPU_H

#include "root.h"
#include "sample.h"

struct source_cpu;

int source_cpu_open(const struct root *r, struct source_cpu **out);
void source_cpu_close(struct source_cpu *src);
int source_cpu_read(struct source_cpu *src, struct sample *s);
/* The "cpu" line of /proc/stat text: user nice system idle iowait irq
 * softirq steal (ticks; a kernel without the later fields gives 0 for
 * them, at least four are needed). 0 or -EINVAL. */
int source_cpu_parse(const char *text, struct cpu_stat *out);

#endif
