/* output-prom: one sample as Prometheus text exposition (format 0.0.4), as
 * node_exporter's conventions want it: cumulative counters (never rates) in
 * base units (bytes, seconds) with _total, a "device" label, tunables as
 * gauges, traced request sizes and latencies as _bucket{le=...} histograms. */
#ifndef BLKTUNE_OUTPUT_PROM_H
#define BLKTUNE_OUTPUT_PROM_H

#include <stdio.h>

#include "ms-wrap.h"
#include "sample.h"

/* Write every disk of s; with ts_ms > 0 every sample line carries that
 * timestamp (ms since the epoch). wraps, when not NULL, was last updated
 * with s: the millisecond counters are published past their 32-bit wraps
 * (ms-wrap.h). Returns 0 or -EIO. */
int output_prom(FILE *f, const struct sample *s, long long ts_ms, const struct ms_wrap *wraps);

#endif
