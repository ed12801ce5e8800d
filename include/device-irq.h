/* device-irq: the interrupts that serve a block device and their CPU affinity.
 * Found, in this order: NVMe queues by name in /proc/interrupts ("nvme0q3"),
 * the MSI interrupts of the nearest PCI ancestor (virtio: msi_irqs/, minus the
 * config-change interrupt that carries no I/O), then interrupts named after the
 * nearest ancestor's driver ("ahci[0000:00:1f.2]"). Loop, dm, md and zram
 * devices have none. */
#ifndef BLKTUNE_DEVICE_IRQ_H
#define BLKTUNE_DEVICE_IRQ_H

#include <stddef.h>

#include "root.h"

#define DEVICE_IRQ_MAX 64

struct device_irq {
	unsigned irq;
	char name[128];       /* action in /proc/interrupts: "virtio1-req.0", "nvme0q3" */
	char affinity[128];   /* proc/irq/N/smp_affinity_list */
	char effective[128];  /* proc/irq/N/effective_affinity_list; "" where absent */
	unsigned long long count; /* interrupts so far, summed over CPUs */
};

struct device_irq_set {
	size_t n;
	struct device_irq irq[DEVICE_IRQ_MAX];
	char how[128];        /* "MSI interrupts of PCI 0000:00:02.0", or why there are none */
};

/* Fill out with the IRQs serving dev (a name under sys/block). Returns 0 (also
 * when none is found: out->n == 0 and out->how says why) or -errno. */
int device_irq_find(const struct root *r, const char *dev, struct device_irq_set *out);
/* Re-read one IRQ's smp_affinity_list and effective_affinity_list. */
int device_irq_read_affinity(const struct root *r, struct device_irq *irq);
/* The path of an IRQ's file, relative to the root: "proc/irq/36/smp_affinity_list". */
void device_irq_path(unsigned irq, const char *file, char *buf, size_t size);

#endif
