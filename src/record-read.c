#include "record-read.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "crc32c.h"
#include "format.h"
#include "record-codec.h"

struct entry {
	size_t off, len;  /* the payload in the file */
	size_t key;       /* the key frame to decode from */
	double t;
	struct timespec wall;
};

struct record_reader {
	const unsigned char *map; /* the whole file, read at open */
	size_t size;
	struct record_meta meta;
	unsigned version; /* the file's format version: how its samples are walked */
	struct entry *e;
	size_t n, cap;
	struct record_change *ch;
	size_t *ch_before, nch, chcap;
	struct record_flat flat;
	size_t at;        /* the sample flat holds, or SIZE_MAX */
	struct sample check; /* each sample rebuilt once at open */
	char warning[PATH_MAX + 128]; /* the whole path, and what happened where */
};

static uint32_t get_le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static int get_string(const unsigned char **p, const unsigned char *end, char *out, size_t size)
{
	uint64_t len;
	char raw[RECORD_VALUE_MAX]; /* the longest string a writer writes, and NUL */

	if (record_varint(p, end, &len) < 0 || len > (uint64_t)(end - *p) || len >= sizeof(raw))
		return -EINVAL;
	memcpy(raw, *p, len);
	raw[len] = '\0';
	*p += len;
	/* What a file says reaches the screen: no control characters. */
	format_sanitize(raw, out, size);
	return 0;
}

static int parse_header(struct record_reader *r, const unsigned char *p, const unsigned char *end)
{
	uint64_t ibits, start, key;
	struct record_meta *m = &r->meta;

	if (get_string(&p, end, m->host, sizeof(m->host)) < 0 || get_string(&p, end, m->kernel, sizeof(m->kernel)) < 0 ||
	    get_string(&p, end, m->version, sizeof(m->version)) < 0 || record_varint(&p, end, &ibits) < 0 ||
	    record_varint(&p, end, &start) < 0 || record_varint(&p, end, &key) < 0 || p != end)
		return -EINVAL;
	memcpy(&m->interval, &ibits, sizeof(ibits));
	m->start = (long long)start;
	m->key_every = (unsigned)key;
	return 0;
}

static int parse_change(struct record_reader *r, const unsigned char *p, const unsigned char *end)
{
	struct record_change c;
	uint64_t tbits, wall;

	if (record_varint(&p, end, &tbits) < 0 || record_varint(&p, end, &wall) < 0 ||
	    get_string(&p, end, c.dev, sizeof(c.dev)) < 0 || get_string(&p, end, c.tunable, sizeof(c.tunable)) < 0 ||
	    get_string(&p, end, c.from, sizeof(c.from)) < 0 || get_string(&p, end, c.to, sizeof(c.to)) < 0 || p != end)
		return -EINVAL;
	memcpy(&c.t, &tbits, sizeof(tbits));
	c.wall = (long long)wall;
	if (r->nch == r->chcap) {
		size_t cap = r->chcap ? r->chcap * 2 : 16;
		struct record_change *nc = realloc(r->ch, cap * sizeof(*nc));
		size_t *nb;
		if (!nc)
			return -ENOMEM;
		r->ch = nc;
		if (!(nb = realloc(r->ch_before, cap * sizeof(*nb))))
			return -ENOMEM;
		r->ch_before = nb;
		r->chcap = cap;
	}
	r->ch[r->nch] = c;
	r->ch_before[r->nch++] = r->n;
	return 0;
}

static int add_sample(struct record_reader *r, bool key, size_t off, size_t len)
{
	struct entry *e;
	int err;

	if (!key && !r->n)
		return -EINVAL; /* a delta needs a sample before it */
	/* From here flat holds this frame's sample or garbage, not the last
	 * one indexed: a later get must decode again. */
	r->at = SIZE_MAX;
	if ((err = record_decode(&r->flat, key, r->map + off, len)) < 0)
		return err;
	if (r->n == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 1024;
		struct entry *ne = realloc(r->e, cap * sizeof(*ne));
		if (!ne)
			return -ENOMEM;
		r->e = ne;
		r->cap = cap;
	}
	e = &r->e[r->n];
	e->off = off;
	e->len = len;
	e->key = key ? r->n : r->e[r->n - 1].key;
	if (record_flat_times(&r->flat, &e->t, &e->wall) < 0)
		return -EINVAL;
	/* Words that are no sample are a malformed record like any other:
	 * found here, replay stops before them instead of failing there. */
	if ((err = record_unflatten(&r->flat, r->version, &r->check)) < 0)
		return err;
	r->n++;
	r->at = r->n - 1;
	return 0;
}

/* Walk the frames. Stops at the first torn or corrupt one, with a warning:
 * what comes before it is intact. */
static int scan(struct record_reader *r, const char *path, char *why, size_t whylen)
{
	size_t off = 12;
	bool have_header = false;

	while (off < r->size) {
		const unsigned char *p = r->map + off + 1, *end = r->map + r->size;
		uint64_t len;
		unsigned type = r->map[off];
		size_t body;
		int err = 0;

		if (record_varint(&p, end, &len) < 0 || len > (uint64_t)(end - p) || (uint64_t)(end - p) - len < 4) {
			snprintf(r->warning, sizeof(r->warning), "%s: ends in a torn record at byte %zu (a recorder stopped mid-write)",
				 path, off);
			break;
		}
		body = (size_t)(p - r->map);
		if (crc32c(0, r->map + off, body + len - off) != get_le32(p + len)) {
			snprintf(r->warning, sizeof(r->warning), "%s: bad checksum at byte %zu; replaying what comes before it",
				 path, off);
			break;
		}
		if (!have_header && type != RECORD_HEADER) {
			snprintf(why, whylen, "%s: no header record: not a blktune recording", path);
			return -EINVAL;
		}
		switch (type) {
		case RECORD_HEADER:
			if (have_header)
				err = -EINVAL;
			else
				err = parse_header(r, p, p + len);
			have_header = true;
			break;
		case RECORD_KEY:
		case RECORD_DELTA:
			err = add_sample(r, type == RECORD_KEY, body, len);
			break;
		case RECORD_CHANGE:
			err = parse_change(r, p, p + len);
			break;
		default:
			err = -EINVAL;
		}
		if (err == -ENOMEM) {
			snprintf(why, whylen, "%s: %s", path, strerror(ENOMEM));
			return err;
		}
		if (err < 0) {
			if (!have_header || r->n == 0) {
				snprintf(why, whylen, "%s: malformed record (type %u) at byte %zu", path, type, off);
				return -EINVAL;
			}
			snprintf(r->warning, sizeof(r->warning), "%s: malformed record (type %u) at byte %zu; replaying what comes before it",
				 path, type, off);
			break;
		}
		off = body + len + 4;
	}
	if (!r->n) {
		snprintf(why, whylen, "%s: no intervals recorded%s%s", path, r->warning[0] ? ": " : "",
			 r->warning[0] ? r->warning + strlen(path) + 2 : "");
		return -EINVAL;
	}
	return 0;
}

/* The file is read whole into memory, not mapped: a mapping of a file
 * cut short while it is replayed (copytruncate, a second recorder's
 * mistake) ends the process with SIGBUS at the next page past the new
 * end. What was there at open is what is replayed. */
static int read_whole(struct record_reader *r, int fd, off_t size)
{
	unsigned char *buf;
	size_t got = 0;

	if (size < 12)
		return 0; /* refused just after, as no recording */
	if ((uint64_t)size > SIZE_MAX || !(buf = malloc((size_t)size)))
		return -ENOMEM;
	while (got < (size_t)size) {
		ssize_t n = pread(fd, buf + got, (size_t)size - got, (off_t)got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int err = -errno;
			free(buf);
			return err;
		}
		if (n == 0)
			break; /* cut short since fstat: what there is */
		got += (size_t)n;
	}
	r->map = buf;
	r->size = got;
	return 0;
}

int record_reader_open(const char *path, struct record_reader **out, char *why, size_t whylen)
{
	struct record_reader *r = calloc(1, sizeof(*r));
	struct stat st;
	int fd, err;

	if (!r)
		return -ENOMEM;
	record_flat_init(&r->flat);
	sample_init(&r->check);
	r->at = SIZE_MAX;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0 || fstat(fd, &st) < 0) {
		err = -errno;
		snprintf(why, whylen, "-r %s: %s", path, strerror(-err));
		goto fail;
	}
	if (!S_ISREG(st.st_mode)) {
		err = -EINVAL;
		snprintf(why, whylen, "-r %s: not a regular file", path);
		goto fail;
	}
	if ((err = read_whole(r, fd, st.st_size)) < 0) {
		snprintf(why, whylen, "-r %s: %s", path, strerror(-err));
		goto fail;
	}
	if (r->size < 12) {
		err = -EINVAL;
		snprintf(why, whylen, "%s: not a blktune recording", path);
		goto fail;
	}
	close(fd);
	fd = -1;
	if (memcmp(r->map, RECORD_MAGIC, 8)) {
		err = -EINVAL;
		snprintf(why, whylen, "%s: not a blktune recording", path);
		goto fail;
	}
	r->version = get_le32(r->map + 8);
	if (r->version < RECORD_VERSION_MIN || r->version > RECORD_VERSION) {
		err = -EINVAL;
		snprintf(why, whylen, "%s: recording format version %u (%s blktune's); this blktune reads versions %u to %u",
			 path, r->version, r->version < RECORD_VERSION_MIN ? "an older" : "a newer", RECORD_VERSION_MIN,
			 RECORD_VERSION);
		goto fail;
	}
	if ((err = scan(r, path, why, whylen)) < 0)
		goto fail;
	*out = r;
	return 0;
fail:
	if (fd >= 0)
		close(fd);
	record_reader_close(r);
	return err;
}

void record_reader_close(struct record_reader *r)
{
	if (!r)
		return;
	free((void *)r->map);
	record_flat_free(&r->flat);
	sample_free(&r->check);
	free(r->e);
	free(r->ch);
	free(r->ch_before);
	free(r);
}

const struct record_meta *record_reader_meta(const struct record_reader *r)
{
	return &r->meta;
}

size_t record_reader_count(const struct record_reader *r)
{
	return r->n;
}

struct timespec record_reader_wall(const struct record_reader *r, size_t i)
{
	return r->e[i < r->n ? i : r->n - 1].wall;
}

double record_reader_t(const struct record_reader *r, size_t i)
{
	return r->e[i < r->n ? i : r->n - 1].t;
}

const char *record_reader_warning(const struct record_reader *r)
{
	return r->warning;
}

size_t record_reader_changes(const struct record_reader *r, const struct record_change **c, const size_t **before)
{
	*c = r->ch;
	*before = r->ch_before;
	return r->nch;
}

void record_reader_limit(struct record_reader *r, size_t n)
{
	if (n && n < r->n)
		r->n = n;
	while (r->nch && r->ch_before[r->nch - 1] >= r->n)
		r->nch--;
	if (r->at != SIZE_MAX && r->at >= r->n)
		r->at = SIZE_MAX;
}

static double wall_of(const struct entry *e)
{
	return (double)e->wall.tv_sec + e->wall.tv_nsec / 1e9;
}

/* The wall-clock seconds sample i's interval spans, (*lo, *hi] as doubles:
 * its monotonic length back from its wall time (the first sample: its own
 * time). The monotonic clock, not the sample before, tells how long the
 * interval was: a wall clock that stepped (or a host that slept) during it
 * read none of the times it skipped. */
static void span(const struct record_reader *r, size_t i, double *lo, double *hi)
{
	double dt = i ? r->e[i].t - r->e[i - 1].t : 0;

	*hi = wall_of(&r->e[i]);
	*lo = dt > 0 && dt < 1e9 ? *hi - dt : *hi; /* a recorded t that makes no sense: the sample alone */
}

size_t record_reader_find(const struct record_reader *r, const time_t *w, size_t nw, size_t from, size_t *which)
{
	for (size_t i = from; i < r->n; i++) {
		size_t a = 0, b = nw;
		double lo, hi;

		span(r, i, &lo, &hi);
		/* the first second ending after lo, then is it at or before hi */
		while (a < b) {
			size_t mid = a + (b - a) / 2;
			if ((double)w[mid] + 1 <= lo)
				a = mid + 1;
			else
				b = mid;
		}
		if (a < nw && (double)w[a] <= hi) {
			if (which)
				*which = a;
			return i;
		}
	}
	return r->n;
}

size_t record_reader_range(const struct record_reader *r, time_t *earliest, time_t *latest)
{
	size_t jumps = 0;

	*earliest = *latest = r->e[0].wall.tv_sec;
	for (size_t i = 1; i < r->n; i++) {
		double dt = r->e[i].t - r->e[i - 1].t;

		if (r->e[i].wall.tv_sec < *earliest)
			*earliest = r->e[i].wall.tv_sec;
		if (r->e[i].wall.tv_sec > *latest)
			*latest = r->e[i].wall.tv_sec;
		/* more than a second off the interval's length, and more than
		 * the 500 ppm NTP slews at: the clock was set (or the host slept) */
		if (fabs(wall_of(&r->e[i]) - wall_of(&r->e[i - 1]) - dt) > 1 + fabs(dt) / 1000)
			jumps++;
	}
	return jumps;
}

int record_reader_get(struct record_reader *r, size_t i, struct sample *s)
{
	size_t from;
	int err;

	if (i >= r->n)
		return -ERANGE;
	/* Forward from where the flat list is, else from the key frame. */
	if (r->at != SIZE_MAX && r->at <= i && r->e[r->at].key == r->e[i].key)
		from = r->at + 1;
	else
		from = r->e[i].key;
	for (size_t k = from; k <= i; k++) {
		if ((err = record_decode(&r->flat, k == r->e[k].key, r->map + r->e[k].off, r->e[k].len)) < 0) {
			r->at = SIZE_MAX;
			return err;
		}
		r->at = k;
	}
	return record_unflatten(&r->flat, r->version, s);
}
