/* capacity: how growable per-device arrays give memory back. They double
 * when full; when the devices they hold fall to a quarter (a few hundred
 * loop devices came and went), they shrink to twice what is left, so a
 * long-running instance returns to about a fresh one's size instead of
 * keeping its highest device count for ever. */
#ifndef BLKTUNE_CAPACITY_H
#define BLKTUNE_CAPACITY_H

#include <stddef.h>

/* Below this many slots an array is never shrunk (not worth a realloc). */
#define CAPACITY_MIN 32

/* The capacity an array of cap slots holding used should have now: cap, or
 * a smaller one (at least CAPACITY_MIN, at least 2 * used). */
size_t capacity_shrunk(size_t used, size_t cap);
/* arr (cap slots of size bytes, used of them in use) shrunk as
 * capacity_shrunk says: the new block, *cap updated; arr itself when it
 * stays (or realloc fails: the larger block is kept). */
void *capacity_shrink(void *arr, size_t size, size_t used, size_t *cap);
/* Hand freed heap pages back to the kernel (after arrays shrank: glibc
 * keeps them otherwise, and RSS stays at its peak). */
void capacity_release(void);

#endif
