/* model-cpus: the CPU view's rows, a pure function of two samples (their
 * per-CPU detail and trace counters) and the selected device's traced
 * interval. */
#ifndef BLKTUNE_MODEL_CPUS_H
#define BLKTUNE_MODEL_CPUS_H

#include <stdbool.h>
#include <stddef.h>

#include "sample.h"
#include "trace.h"

struct cpu_row {
	double irq_pct, softirq_pct, iowait_pct; /* NAN without per-CPU stat */
	double block_softirq_s;                  /* BLOCK softirqs/s, all devices */
	double dev_irq_s;                        /* the device's interrupts/s here */
	bool in_affinity;                        /* in an IRQ's effective affinity */
	double dev_issued_s, dev_completed_s;    /* traced, NAN when untraced */
	double all_issued_s, all_completed_s;
};

struct cpus_metrics {
	bool valid;
	unsigned ncpu, cap;
	struct cpu_row *row;
	char dev[SAMPLE_NAME_MAX];
	unsigned nirq;
	char irqs[96];                           /* "35,36" */
};

void model_cpus_free(struct cpus_metrics *m);
/* dev_tm: the selected device's traced interval, or NULL. Returns 0 or -ENOMEM. */
int model_cpus(const struct sample *prev, const struct sample *cur, const struct trace_metrics *dev_tm,
	       struct cpus_metrics *out);
/* Is cpu in a kernel CPU list ("0-3,8")? */
bool model_cpulist_has(const char *list, unsigned cpu);

#endif
