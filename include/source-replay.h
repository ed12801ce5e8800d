/* source-replay: samples from a recording (blktune -r FILE) instead of the
 * kernel. The sampler takes them in order, and the model, views and outputs
 * cannot tell them from live ones. A position lets the full-screen view
 * step back and forth in time. */
#ifndef BLKTUNE_SOURCE_REPLAY_H
#define BLKTUNE_SOURCE_REPLAY_H

#include <stddef.h>

#include "record-read.h"
#include "sample.h"

struct source_replay;

/* Returns 0 or -errno with one line in why. */
int source_replay_open(const char *path, struct source_replay **out, char *why, size_t whylen);
void source_replay_close(struct source_replay *src);
/* The next sample into s. Returns 0, -ENODATA after the last, or -errno. */
int source_replay_read(struct source_replay *src, struct sample *s);
/* The next read gives sample i (0 .. count). */
void source_replay_seek(struct source_replay *src, size_t i);
/* The index of the next sample read. */
size_t source_replay_pos(const struct source_replay *src);
const struct record_reader *source_replay_reader(const struct source_replay *src);
/* Replay the first n intervals only (-n in the full screen). */
void source_replay_limit(struct source_replay *src, size_t n);

#endif
