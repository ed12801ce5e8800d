/* source-uevent: the kernel's block-device uevents (add, remove, change:
 * a loop device attached or detached, a disk re-created, media changed),
 * read from a NETLINK_KOBJECT_UEVENT socket without blocking. It tells the
 * queue source which devices may have changed identity, so a refresh reads
 * diskseq only for those instead of for every device. Only the live
 * system has uevents (and only in the initial network namespace: where the
 * socket cannot be opened the caller checks every device, as without it). */
#ifndef BLKTUNE_SOURCE_UEVENT_H
#define BLKTUNE_SOURCE_UEVENT_H

#include <stddef.h>

struct source_uevent;

/* Returns 0 or -errno. */
int source_uevent_open(struct source_uevent **out);
void source_uevent_close(struct source_uevent *u);
/* Every pending event of the block subsystem, oldest first: fn(ctx, name)
 * with the device's kernel name ("loop3", "sda1", "cciss!c0d0" as sysfs
 * spells it). Returns the number of block events, -ENOBUFS when the kernel
 * dropped events since the last drain (the caller must then assume every
 * device changed), or -errno. */
int source_uevent_drain(struct source_uevent *u, void (*fn)(void *ctx, const char *name), void *ctx);
/* One message as the kernel sends it ("ACTION@DEVPATH\0KEY=VALUE\0..."):
 * 1 with the device name in name (the last component of DEVPATH) when it is
 * a block device's, 0 for any other subsystem or malformed text. */
int source_uevent_parse(const char *msg, size_t len, char *name, size_t namelen);

#endif
