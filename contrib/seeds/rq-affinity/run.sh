#!/bin/sh
# One rq_affinity run of seed 002: the reader pinned ON or OFF the CPU that
# takes the device's interrupt, cpuburn pinned beside it; prints the reader's
# IOPS (fio) and cpuburn's rate.   run.sh DEV on|off SECONDS
set -eu
dev=$1 where=$2 secs=$3
here=$(dirname "$0")
n=$(basename "$dev")
# The IRQ CPU: the effective affinity of the device's first queue interrupt
# (as blktune's device-irq does for virtio: the PCI function's msi_irqs, the
# first of which is the config-change interrupt).
irq=$(ls "/sys/block/$n/device/../msi_irqs" 2>/dev/null | sort -n | sed -n 2p)
[ -n "$irq" ] || irq=$(ls "/sys/block/$n/device/msi_irqs" 2>/dev/null | sort -n | sed -n 2p)
[ -n "$irq" ] || { echo "no MSI interrupt found for $n (loop devices have none)" >&2; exit 1; }
irqcpu=$(cut -d, -f1 "/proc/irq/$irq/effective_affinity_list" | cut -d- -f1)
ncpu=$(nproc)
if [ "$where" = on ]; then cpu=$irqcpu; else cpu=$(( (irqcpu + 1) % ncpu )); fi
echo "irq $irq on cpu $irqcpu; reader and cpuburn on cpu $cpu"
out=$(mktemp)
taskset -c "$cpu" "$here/cpuburn" "$secs" | tail -n 1 > "$out" &
DEV=$dev CPU=$cpu SECS=$secs fio "$here/reader.fio" --minimal | awk -F';' '{ print "reader", $8, "IOPS" }'
wait
cat "$out"
rm -f "$out"
