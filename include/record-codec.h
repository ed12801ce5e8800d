/* record-codec: a sample as a flat list of 64-bit words and a list of
 * strings, and one recording record as the difference between two such
 * lists. The walk over the sample is written once and used both ways, so
 * what is recorded is exactly what the sampler assembled.
 *
 * A record's payload (all numbers LEB128 varints):
 *   nwords nchanged { skip zigzag(cur - prev) }*nchanged
 *   nstrings nchanged { skip len bytes }*nchanged
 * where skip counts the unchanged words (strings) before the next changed
 * one and prev is the previous record's list (all zero and empty for a key
 * record). An idle device costs nothing; a busy one only its moving
 * counters and histogram buckets. */
#ifndef BLKTUNE_RECORD_CODEC_H
#define BLKTUNE_RECORD_CODEC_H

#include <stddef.h>
#include <stdint.h>

#include "sample.h"

/* Limits a decoder enforces on what a file claims. */
#define RECORD_MAX_DISKS 65536
#define RECORD_MAX_CPUS 8192
#define RECORD_MAX_PROCS (1u << 22)
#define RECORD_MAX_WORDS (64u << 20)
#define RECORD_MAX_STRINGS (1u << 20)

struct record_flat {
	uint64_t *w;
	size_t nw, capw;
	char *sb;      /* strings, each NUL-terminated */
	size_t nsb, capsb;
	size_t *so;    /* string i starts at sb + so[i] */
	size_t ns, caps;
};

/* Growable byte buffer for payloads. */
struct record_buf {
	unsigned char *p;
	size_t n, cap;
};

void record_flat_init(struct record_flat *f);
void record_flat_free(struct record_flat *f);
void record_flat_reset(struct record_flat *f);
int record_flat_copy(struct record_flat *dst, const struct record_flat *src);

/* Flatten s into f (reset first). Returns 0 or -ENOMEM. */
int record_flatten(const struct sample *s, struct record_flat *f);
/* Rebuild s (cleared first) from f. Returns 0, -EINVAL (f does not
 * describe a sample: a count out of range, words or strings missing) or
 * -ENOMEM. */
int record_unflatten(const struct record_flat *f, struct sample *s);
/* The first words of every flat sample: t's bits, wall seconds and
 * nanoseconds (the reader's index takes them without a full rebuild). */
int record_flat_times(const struct record_flat *f, double *t, struct timespec *wall);

/* Append the payload of cur against prev (NULL: a key record). */
int record_encode(const struct record_flat *prev, const struct record_flat *cur, struct record_buf *out);
/* Apply a payload to f (holding the previous record's list, or reset for
 * a key). Returns 0, -EINVAL (malformed) or -ENOMEM. */
int record_decode(struct record_flat *f, const unsigned char *p, size_t n);

void record_buf_free(struct record_buf *b);
int record_buf_put(struct record_buf *b, const void *p, size_t n);
int record_buf_varint(struct record_buf *b, uint64_t v);
/* Read a varint at *p (advanced) before end. Returns 0 or -EINVAL. */
int record_varint(const unsigned char **p, const unsigned char *end, uint64_t *v);

#endif
