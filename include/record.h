/* record: blktune -w FILE. Appends every sample the app takes to a
 * recording, as record-codec encodes it, framed and checksummed so that a
 * killed recorder loses at most the record it was writing.
 *
 * File layout (integers little-endian, varints LEB128):
 *   "BLKTREC\n"  magic, 8 bytes
 *   u32          format version (RECORD_VERSION)
 *   frames:      u8 type, varint payload length, payload,
 *                u32 CRC-32C of type, length and payload
 * Frame types: RECORD_HEADER first (host, kernel, blktune version, interval,
 * key spacing), then RECORD_KEY (a whole sample), RECORD_DELTA (a sample
 * against the one before) and RECORD_CHANGE (a tunable changed: applies
 * between the samples around it). A key frame comes every RECORD_KEY_EVERY
 * samples so a reader can seek; everything else is a delta. */
#ifndef BLKTUNE_RECORD_H
#define BLKTUNE_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sample.h"

#define RECORD_MAGIC "BLKTREC\n"
#define RECORD_VERSION 5u
/* The oldest version a reader replays: 4 differs from 5 only in what its
 * samples hold (no --trace-processes requests), so its files replay as
 * they did; older ones are refused as older. */
#define RECORD_VERSION_MIN 4u
#define RECORD_KEY_EVERY 300u

enum record_type {
	RECORD_HEADER = 1,
	RECORD_KEY = 2,
	RECORD_DELTA = 3,
	RECORD_CHANGE = 4,
};

struct record_meta {
	char host[64];
	char kernel[64];
	char version[16];  /* blktune's */
	double interval;   /* seconds, as asked with -d */
	long long start;   /* CLOCK_REALTIME seconds when recording began */
	unsigned key_every;
};

/* A tunable's value, whole: TUNABLE_VALUE_MAX (an irq's smp_affinity_list
 * on a host of many CPUs is long). On disk a string is its length and its
 * bytes, so the size is no part of the format; a reader takes up to 255. */
#define RECORD_VALUE_MAX 256

/* A tunable change, as recorded (and read back by record-read). */
struct record_change {
	double t;          /* CLOCK_MONOTONIC of the change, as samples' t */
	long long wall;    /* CLOCK_REALTIME seconds */
	char dev[32], tunable[32], from[RECORD_VALUE_MAX], to[RECORD_VALUE_MAX];
};

struct record;

/* Create path (never an existing file) and write the header. Returns 0 or
 * -errno with one line in why. */
int record_create(const char *path, const struct record_meta *m, struct record **out, char *why, size_t whylen);
/* Append one sample. Returns 0, -E2BIG (the sample holds more than a
 * reader takes: nothing written) or -errno (the frame may be torn: a
 * reader stops before it), with one line in why (the file not named). */
int record_sample(struct record *r, const struct sample *s, char *why, size_t whylen);
int record_change(struct record *r, const struct record_change *c);
/* Set c's names and values. Returns 0, or -EOVERFLOW when one is longer
 * than its field holds: a change is recorded whole or not at all. */
int record_change_set(struct record_change *c, const char *dev, const char *tunable, const char *from, const char *to);
/* Bytes written so far (the header included). */
uint64_t record_bytes(const struct record *r);
/* fsync and close. Returns 0 or -errno. */
int record_close(struct record *r);

/* The frame around a payload, appended to out (the writer's and the
 * tests'). Returns 0 or -ENOMEM. */
struct record_buf;
int record_frame(struct record_buf *out, enum record_type type, const struct record_buf *payload);

#endif
