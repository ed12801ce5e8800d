#include "record.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "crc32c.h"
#include "record-codec.h"
#include "safe-file.h"

struct record {
	int fd;
	int failed; /* a torn frame that could not be cut off: nothing more is written */
	unsigned key_every, since_key;
	bool have_prev;
	struct record_flat prev, cur;
	struct record_buf payload, frame;
	uint64_t bytes;
};

static void put_le32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

int record_frame(struct record_buf *out, enum record_type type, const struct record_buf *payload)
{
	size_t start = out->n;
	unsigned char t = (unsigned char)type, crc[4];
	int err;

	if ((err = record_buf_put(out, &t, 1)) < 0 || (err = record_buf_varint(out, payload->n)) < 0 ||
	    (err = record_buf_put(out, payload->p, payload->n)) < 0)
		return err;
	put_le32(crc, crc32c(0, out->p + start, out->n - start));
	return record_buf_put(out, crc, 4);
}

static int put_string(struct record_buf *b, const char *s)
{
	int err = record_buf_varint(b, strlen(s));

	return err ? err : record_buf_put(b, s, strlen(s));
}

/* One write per frame: a kill between two leaves whole frames behind. A
 * frame that failed part-way (the disk filled) is cut off again, so the
 * file still ends with whole frames and what is written later (a sample
 * after a lost change, once there is room) is not hidden behind a torn
 * one, where a reader stops. If it cannot be cut off, nothing more is
 * written. */
static int write_all(struct record *r, const struct record_buf *b)
{
	int err = r->failed ? r->failed : safe_write_all(r->fd, b->p, b->n);

	if (!err)
		r->bytes += b->n;
	else if (!r->failed && ftruncate(r->fd, (off_t)r->bytes) < 0)
		r->failed = err;
	return err;
}

static int emit(struct record *r, enum record_type type)
{
	int err;

	r->frame.n = 0;
	if ((err = record_frame(&r->frame, type, &r->payload)) < 0)
		return err;
	return write_all(r, &r->frame);
}

int record_create(const char *path, const struct record_meta *m, struct record **out, char *why, size_t whylen)
{
	struct record *r = calloc(1, sizeof(*r));
	unsigned char head[12];
	uint64_t ibits;
	int err;

	if (!r)
		return -ENOMEM;
	record_flat_init(&r->prev);
	record_flat_init(&r->cur);
	r->key_every = m->key_every ? m->key_every : RECORD_KEY_EVERY;
	r->fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (r->fd < 0) {
		err = -errno;
		if (err == -EEXIST)
			snprintf(why, whylen, "-w %s: the file exists (a recording is never overwritten; choose a new name)",
				 path);
		else
			snprintf(why, whylen, "-w %s: %s", path, strerror(-err));
		free(r);
		return err;
	}
	memcpy(head, RECORD_MAGIC, 8);
	put_le32(head + 8, RECORD_VERSION);
	memcpy(&ibits, &m->interval, sizeof(ibits));
	if ((err = record_buf_put(&r->frame, head, sizeof(head))) < 0 || (err = write_all(r, &r->frame)) < 0 ||
	    (err = put_string(&r->payload, m->host)) < 0 || (err = put_string(&r->payload, m->kernel)) < 0 ||
	    (err = put_string(&r->payload, m->version)) < 0 || (err = record_buf_varint(&r->payload, ibits)) < 0 ||
	    (err = record_buf_varint(&r->payload, (uint64_t)m->start)) < 0 ||
	    (err = record_buf_varint(&r->payload, r->key_every)) < 0 || (err = emit(r, RECORD_HEADER)) < 0) {
		snprintf(why, whylen, "-w %s: %s", path, strerror(-err));
		record_close(r);
		unlink(path);
		return err;
	}
	*out = r;
	return 0;
}

int record_sample(struct record *r, const struct sample *s, char *why, size_t whylen)
{
	bool key = !r->have_prev || r->since_key >= r->key_every;
	struct record_flat t;
	int err;

	r->payload.n = 0;
	/* Refused before a byte is written: the file ends with the sample
	 * before, whole, as a reader takes it. */
	if (record_times_check(s->t, (long long)s->wall.tv_sec, (long long)s->wall.tv_nsec) < 0) {
		snprintf(why, whylen, "a sample dated %lld.%09lld (monotonic %g s), no date a recording holds "
			 "(1970 to 9999); recorded up to the one before", (long long)s->wall.tv_sec,
			 (long long)s->wall.tv_nsec, s->t);
		return -ERANGE;
	}
	if ((err = record_flatten(s, &r->cur)) < 0 ||
	    (err = record_encode(key ? NULL : &r->prev, &r->cur, &r->payload)) < 0) {
		if (err == -E2BIG && r->cur.over)
			snprintf(why, whylen, "a sample of %zu %s, more than a recording holds (%zu); recorded up to the one before",
				 r->cur.over_n, r->cur.over, r->cur.over_max);
		else
			snprintf(why, whylen, "%s", strerror(-err));
		return err;
	}
	if ((err = emit(r, key ? RECORD_KEY : RECORD_DELTA)) < 0) {
		snprintf(why, whylen, "%s", strerror(-err));
		return err;
	}
	r->since_key = key ? 1 : r->since_key + 1;
	t = r->prev;
	r->prev = r->cur;
	r->cur = t;
	r->have_prev = true;
	return 0;
}

int record_change(struct record *r, const struct record_change *c)
{
	uint64_t tbits;
	int err;

	memcpy(&tbits, &c->t, sizeof(tbits));
	r->payload.n = 0;
	if ((err = record_buf_varint(&r->payload, tbits)) < 0 ||
	    (err = record_buf_varint(&r->payload, (uint64_t)c->wall)) < 0 ||
	    (err = put_string(&r->payload, c->dev)) < 0 || (err = put_string(&r->payload, c->tunable)) < 0 ||
	    (err = put_string(&r->payload, c->from)) < 0 || (err = put_string(&r->payload, c->to)) < 0)
		return err;
	return emit(r, RECORD_CHANGE);
}

static int set_field(char *field, size_t size, const char *s)
{
	size_t n = strlen(s);

	if (n >= size)
		return -EOVERFLOW;
	memcpy(field, s, n + 1);
	return 0;
}

int record_change_set(struct record_change *c, const char *dev, const char *tunable, const char *from, const char *to)
{
	int err;

	if ((err = set_field(c->dev, sizeof(c->dev), dev)) < 0 ||
	    (err = set_field(c->tunable, sizeof(c->tunable), tunable)) < 0 ||
	    (err = set_field(c->from, sizeof(c->from), from)) < 0 || (err = set_field(c->to, sizeof(c->to), to)) < 0)
		return err;
	return 0;
}

uint64_t record_bytes(const struct record *r)
{
	return r->bytes;
}

int record_close(struct record *r)
{
	int err = 0;

	if (!r)
		return 0;
	if (r->fd >= 0 && fsync(r->fd) < 0)
		err = -errno;
	if (r->fd >= 0 && close(r->fd) < 0 && !err)
		err = -errno;
	record_flat_free(&r->prev);
	record_flat_free(&r->cur);
	record_buf_free(&r->payload);
	record_buf_free(&r->frame);
	free(r);
	return err;
}
