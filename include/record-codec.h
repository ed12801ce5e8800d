/* record-codec: a sample as a flat list of 64-bit words and a list of
 * strings, and one recording record as the difference between two such
 * lists. The walk over the sample is written once and used both ways, so
 * what is recorded is exactly what the sampler assembled.
 *
 * Each word has a delta (cur - prev, modulo 2^64) and the delta it had in
 * the record before; a word is "moving" when its delta differs from that
 * one. A record's payload (all numbers LEB128 varints):
 *   nwords ntoggles { skip }*ntoggles { zigzag(delta - last delta) }*moving
 *   nstrings nchanged { skip len bytes }*nchanged
 * The toggles name, in order, the words whose moving flag differs from the
 * previous record's (skip counts the words passed over since the last
 * toggle); then one residual per moving word, in order. A key record
 * starts from a list, deltas and flags all zero and no strings, and leaves
 * the deltas zero and no word moving behind it (its values are no rate).
 * An idle counter and one that moves at a steady rate cost nothing; a
 * busy device that keeps being busy costs its residuals and no positions.
 * Bound: a record is at most 3 + 14 bytes per word + what its strings
 * take (each toggle at most 4 bytes for RECORD_MAX_WORDS, each residual at
 * most 10). */
#ifndef BLKTUNE_RECORD_CODEC_H
#define BLKTUNE_RECORD_CODEC_H

#include <stdbool.h>
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
	/* the coder's state, set by record_encode and record_decode: each
	 * word's last delta and whether it moved in the last record */
	uint64_t *d;
	unsigned char *on;
	size_t capd, capon;
};

/* Growable byte buffer for payloads. */
struct record_buf {
	unsigned char *p;
	size_t n, cap;
};

void record_flat_init(struct record_flat *f);
void record_flat_free(struct record_flat *f);
void record_flat_reset(struct record_flat *f);

/* Flatten s into f (reset first). Returns 0 or -ENOMEM. */
int record_flatten(const struct sample *s, struct record_flat *f);
/* Rebuild s (cleared first) from f. Returns 0, -EINVAL (f does not
 * describe a sample: a count out of range, words or strings missing) or
 * -ENOMEM. */
int record_unflatten(const struct record_flat *f, struct sample *s);
/* The first words of every flat sample: t's bits, wall seconds and
 * nanoseconds (the reader's index takes them without a full rebuild). */
int record_flat_times(const struct record_flat *f, double *t, struct timespec *wall);

/* Append the payload of cur against prev (NULL: a key record), prev as
 * the last record_encode or record_decode left it; sets cur's state. */
int record_encode(const struct record_flat *prev, struct record_flat *cur, struct record_buf *out);
/* Apply a payload to f, which holds the previous record's list and state
 * (a key record starts f afresh). Returns 0, -EINVAL (malformed) or
 * -ENOMEM; after an error f is undefined until the next key. */
int record_decode(struct record_flat *f, bool key, const unsigned char *p, size_t n);

void record_buf_free(struct record_buf *b);
int record_buf_put(struct record_buf *b, const void *p, size_t n);
int record_buf_varint(struct record_buf *b, uint64_t v);
/* Read a varint at *p (advanced) before end. Returns 0 or -EINVAL. */
int record_varint(const unsigned char **p, const unsigned char *end, uint64_t *v);

#endif
