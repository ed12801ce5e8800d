/* source-cpu: CPU time from libproc2's stat API. libproc2 always reads the
 * live /proc, so with a captured --root this source stays off (cpu.valid is
 * false) rather than mixing two machines in one sample. */
#ifndef BLKTUNE_SOURCE_CPU_H
#define BLKTUNE_SOURCE_CPU_H

#include "root.h"
#include "sample.h"

struct source_cpu;

int source_cpu_open(const struct root *r, struct source_cpu **out);
void source_cpu_close(struct source_cpu *src);
int source_cpu_read(struct source_cpu *src, struct sample *s);

#endif
