/* output: batch reports (text like iostat -x -y, JSON lines with iostat's
 * key names). Render only: every figure comes from the model. */
#ifndef BLKTUNE_OUTPUT_H
#define BLKTUNE_OUTPUT_H

#include <stdio.h>

#include "model.h"
#include "rows.h"
#include "sample.h"
#include "sampler.h"

struct output_report {
	const struct sample *cur;
	const struct cpu_metrics *cpu;
	const struct disk_metrics *disks;
	const struct trace_metrics *traces; /* parallel to disks; NULL: none */
	const struct ra_metrics *ra;        /* parallel to disks; NULL: readahead mode off */
	const size_t *rows; /* indices into disks, in display order */
	size_t nrows;
	double interval;
	const struct sampler_host *host;
};

int output_text(FILE *f, const struct output_report *r);
int output_json(FILE *f, const struct output_report *r);
/* ISO 8601 local time with offset, e.g. 2026-11-30T15:40:01+0000 */
void output_timestamp(const struct timespec *ts, char *out, size_t len);

#endif
