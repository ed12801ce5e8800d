/* source-mem: page cache, dirty and writeback memory from libproc2's meminfo
 * and vmstat APIs (live /proc only, as with source-cpu). */
#ifndef BLKTUNE_SOURCE_MEM_H
#define BLKTUNE_SOURCE_MEM_H

#include "root.h"
#include "sample.h"

struct source_mem;

int source_mem_open(const struct root *r, struct source_mem **out);
void source_mem_close(struct source_mem *src);
int source_mem_read(struct source_mem *src, struct sample *s);

#endif
