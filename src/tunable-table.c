#include "tunable-table.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Ranges are what blktune accepts, measured against kernel 6.18 on a loop device
 * (tests/integration/tunables-set-restore.sh checks them): where the kernel accepts
 * nonsense (rq_affinity=3, read_expire=2^31 which wraps negative) we refuse it
 * here, where the kernel rounds (read_ahead_kb to pages, times to jiffies) we
 * let it and report what it set. */
#define MS_MAX 3600000LL /* one hour: larger jiffies conversions overflow */

#define QUEUE(n, t, lo, hi, smin, st, lay, rank, fx, help) \
	{ n, "queue/" n, TUNABLE_PLACE_DEVICE, NULL, t, lo, hi, smin, st, lay, true, rank, fx, NULL, NULL, help }
#define IOSCHED(s, n, t, lo, hi, smin, st, unit, help) \
	{ "iosched/" n, "queue/iosched/" n, TUNABLE_PLACE_DEVICE, s, t, lo, hi, smin, st, \
	  TUNABLE_LAYER_QUEUE, true, 2, NULL, NULL, unit, help }

static const struct tunable_def table[] = {
	{ "read_ahead_kb", "queue/read_ahead_kb", TUNABLE_PLACE_DEVICE, NULL, TUNABLE_UINT,
	  0, UINT_MAX, 4, TUNABLE_STEP_DOUBLE, TUNABLE_LAYER_TOP, true, 4, NULL, NULL, "KiB",
	  "Largest readahead window for files on this device. The kernel rounds down to whole pages "
	  "(3 becomes 0). Each file copies it at open(): files opened before a change keep the old value. "
	  "blktune takes at most the machine's memory (MemTotal): a larger window is evicted before it is read." },
	{ "max_sectors_kb", "queue/max_sectors_kb", TUNABLE_PLACE_DEVICE, NULL, TUNABLE_UINT,
	  4, UINT_MAX, 4, TUNABLE_STEP_DOUBLE, TUNABLE_LAYER_BOTTOM, true, 3, "read_ahead_kb", NULL, "KiB",
	  "Largest request the block layer builds, up to the hardware's max_hw_sectors_kb. Raising it "
	  "can raise read_ahead_kb too (the kernel keeps readahead at least twice the request size)." },
	QUEUE("nr_requests", TUNABLE_UINT, 4, 1LL << 20, 4, TUNABLE_STEP_DOUBLE, TUNABLE_LAYER_QUEUE, 1,
	      "iosched/async_depth",
	      "Requests the queue may hold, at least 4 (the kernel's BLKDEV_MIN_RQ); the limit is the hardware queue depth "
	      "with scheduler none, 2048 with a scheduler."),
	QUEUE("rq_affinity", TUNABLE_UINT, 0, 2, 1, TUNABLE_STEP_CYCLE, TUNABLE_LAYER_QUEUE, 5, NULL,
	      "Where completions run. 0: on the CPU that took the interrupt. 1: moved to a CPU sharing a "
	      "cache with the CPU that issued the request. 2: forced onto the issuing CPU itself."),
	QUEUE("nomerges", TUNABLE_UINT, 0, 2, 1, TUNABLE_STEP_CYCLE, TUNABLE_LAYER_QUEUE, 5, NULL,
	      "Request merging. 0: all merges tried. 1: only the simple one-hit merge with the last "
	      "request. 2: no merging at all (each bio is its own request)."),
	{ "scheduler", "queue/scheduler", TUNABLE_PLACE_DEVICE, NULL, TUNABLE_CHOICE,
	  0, 0, 0, TUNABLE_STEP_CYCLE, TUNABLE_LAYER_QUEUE, true, 0, "nr_requests iosched/*", NULL, NULL,
	  "I/O scheduler of the request queue. Changing it replaces its parameters (queue/iosched/) and "
	  "resets nr_requests." },
	{ "wbt_lat_usec", "queue/wbt_lat_usec", TUNABLE_PLACE_DEVICE, NULL, TUNABLE_INT,
	  -1, MS_MAX * 1000, 1000, TUNABLE_STEP_DOUBLE, TUNABLE_LAYER_QUEUE, true, 5, NULL, "-1", "us",
	  "Writeback throttling target read latency. 0 turns throttling off; -1 asks for the kernel's "
	  "default for this device." },
	/* add_random and iostats are queue limits (features) since 6.11: a write
	 * commits the limits, which raises read_ahead_kb to at least twice
	 * max_sectors_kb and 128 KiB, as a max_sectors_kb write does. Restored
	 * before read_ahead_kb, like it. */
	QUEUE("add_random", TUNABLE_BOOL, 0, 1, 1, TUNABLE_STEP_CYCLE, TUNABLE_LAYER_DEVICE, 3, "read_ahead_kb",
	      "1: I/O completion timings feed the kernel's entropy pool (a small cost per request). Writing it "
	      "raises read_ahead_kb to at least twice max_sectors_kb and 128 KiB."),
	QUEUE("iostats", TUNABLE_BOOL, 0, 1, 1, TUNABLE_STEP_CYCLE, TUNABLE_LAYER_DEVICE, 3, "read_ahead_kb",
	      "1: the device is accounted in /proc/diskstats. 0 saves a little per request, but blktune's "
	      "rates and latencies for this device stop. Writing it raises read_ahead_kb to at least "
	      "twice max_sectors_kb and 128 KiB."),
	{ "write_cache", "queue/write_cache", TUNABLE_PLACE_DEVICE, NULL, TUNABLE_TEXT,
	  0, 0, 0, TUNABLE_STEP_NONE, TUNABLE_LAYER_BOTTOM, false, 9, NULL, NULL, NULL,
	  "Shown, never written: setting \"write through\" on a device whose cache is volatile stops "
	  "the kernel from sending flushes, and data is lost on power failure." },

	IOSCHED("mq-deadline", "read_expire", TUNABLE_UINT, 0, MS_MAX, 1, TUNABLE_STEP_DOUBLE, "ms",
		"Deadline of a read (rounded to the timer tick)."),
	IOSCHED("mq-deadline", "write_expire", TUNABLE_UINT, 0, MS_MAX, 1, TUNABLE_STEP_DOUBLE, "ms",
		"Deadline of a write (rounded to the timer tick)."),
	IOSCHED("mq-deadline", "writes_starved", TUNABLE_UINT, 0, INT_MAX, 1, TUNABLE_STEP_ONE, NULL,
		"How many read batches may pass before writes are served."),
	IOSCHED("mq-deadline", "front_merges", TUNABLE_BOOL, 0, 1, 1, TUNABLE_STEP_CYCLE, NULL,
		"1: try merging a bio in front of a queued request."),
	IOSCHED("mq-deadline", "fifo_batch", TUNABLE_UINT, 0, INT_MAX, 1, TUNABLE_STEP_DOUBLE, NULL,
		"Requests dispatched in one sorted batch before deadlines are checked."),
	IOSCHED("mq-deadline", "prio_aging_expire", TUNABLE_UINT, 0, MS_MAX, 1, TUNABLE_STEP_DOUBLE, "ms",
		"Lower-priority requests waiting this long are served first."),
	IOSCHED("mq-deadline", "async_depth", TUNABLE_UINT, 1, INT_MAX, 1, TUNABLE_STEP_DOUBLE, NULL,
		"Requests asynchronous writes may hold, leaving room for synchronous I/O."),
	IOSCHED("kyber", "read_lat_nsec", TUNABLE_UINT, 1, LLONG_MAX / 2, 1000, TUNABLE_STEP_DOUBLE, "ns",
		"Target read latency: kyber shrinks queue depths to meet it."),
	IOSCHED("kyber", "write_lat_nsec", TUNABLE_UINT, 1, LLONG_MAX / 2, 1000, TUNABLE_STEP_DOUBLE, "ns",
		"Target write latency."),
	IOSCHED("bfq", "back_seek_max", TUNABLE_UINT, 0, INT_MAX, 1, TUNABLE_STEP_DOUBLE, "KiB",
		"Longest backward seek bfq treats as sequential."),
	IOSCHED("bfq", "back_seek_penalty", TUNABLE_UINT, 1, INT_MAX, 1, TUNABLE_STEP_ONE, NULL,
		"Cost factor of a backward seek against a forward one."),
	IOSCHED("bfq", "fifo_expire_async", TUNABLE_UINT, 1, MS_MAX, 1, TUNABLE_STEP_DOUBLE, "ms",
		"Deadline of an asynchronous request."),
	IOSCHED("bfq", "fifo_expire_sync", TUNABLE_UINT, 1, MS_MAX, 1, TUNABLE_STEP_DOUBLE, "ms",
		"Deadline of a synchronous request."),
	IOSCHED("bfq", "low_latency", TUNABLE_BOOL, 0, 1, 1, TUNABLE_STEP_CYCLE, NULL,
		"1: favour interactive and soft real-time tasks."),
	IOSCHED("bfq", "max_budget", TUNABLE_UINT, 0, INT_MAX, 1, TUNABLE_STEP_DOUBLE, "sectors",
		"Most sectors a queue may dispatch in a turn; 0 lets bfq tune it."),
	IOSCHED("bfq", "slice_idle", TUNABLE_UINT, 0, 4293, 1, TUNABLE_STEP_DOUBLE, "ms",
		"Idle wait for the next request of a sync queue; 0 disables idling (often best on SSDs)."),
	IOSCHED("bfq", "slice_idle_us", TUNABLE_UINT, 0, 4294966, 1, TUNABLE_STEP_DOUBLE, "us",
		"slice_idle in microseconds (the same setting)."),
	IOSCHED("bfq", "strict_guarantees", TUNABLE_BOOL, 0, 1, 1, TUNABLE_STEP_CYCLE, NULL,
		"1: strict service guarantees at some throughput cost."),
	IOSCHED("bfq", "timeout_sync", TUNABLE_UINT, 1, MS_MAX, 1, TUNABLE_STEP_DOUBLE, "ms",
		"Longest time a sync queue is served in a turn."),

	{ "irq", "smp_affinity_list", TUNABLE_PLACE_IRQ, NULL, TUNABLE_CPULIST,
	  0, 0, 0, TUNABLE_STEP_CYCLE, TUNABLE_LAYER_IRQ, true, 6, NULL, NULL, NULL,
	  "CPUs allowed to take this interrupt (effective_affinity_list shows where it goes). Managed "
	  "per-queue interrupts (NVMe) are placed by the kernel and refuse changes." },
};

/* A parameter of a scheduler blktune does not know yet: still shown and
 * settable as a plain number the kernel validates. */
static const struct tunable_def generic_iosched =
	IOSCHED(NULL, "*", TUNABLE_INT, LLONG_MIN / 2, LLONG_MAX / 2, 1, TUNABLE_STEP_ONE, NULL,
		"Scheduler parameter without help in blktune: see the kernel's block/*-iosched documentation.");

static const char *const layer_names[] = {
	[TUNABLE_LAYER_TOP] = "top of the stack",
	[TUNABLE_LAYER_BOTTOM] = "bottom of the stack",
	[TUNABLE_LAYER_QUEUE] = "request queue",
	[TUNABLE_LAYER_DEVICE] = "this device",
	[TUNABLE_LAYER_IRQ] = "interrupt",
};

static const char *const type_names[] = {
	[TUNABLE_UINT] = "number", [TUNABLE_INT] = "number", [TUNABLE_BOOL] = "0 or 1",
	[TUNABLE_CHOICE] = "choice", [TUNABLE_CPULIST] = "CPU list", [TUNABLE_TEXT] = "text",
};

size_t tunable_table_count(void)
{
	return sizeof(table) / sizeof(table[0]);
}

const struct tunable_def *tunable_table_at(size_t i)
{
	return i < tunable_table_count() ? &table[i] : NULL;
}

const struct tunable_def *tunable_table_find(const char *name)
{
	for (size_t i = 0; i < tunable_table_count(); i++)
		if (strcmp(table[i].name, name) == 0)
			return &table[i];
	if (strncmp(name, "iosched/", 8) == 0 && name[8] && !strchr(name + 8, '/'))
		return &generic_iosched;
	return NULL;
}

int tunable_table_rank(const char *name)
{
	const struct tunable_def *def = tunable_table_find(strncmp(name, "irq/", 4) == 0 ? "irq" : name);

	return def ? def->restore_rank : 9;
}

bool tunable_table_is_generic(const struct tunable_def *def)
{
	return def == &generic_iosched;
}

const char *tunable_table_layer_name(enum tunable_layer layer)
{
	return layer_names[layer];
}

const char *tunable_table_type_name(enum tunable_type type)
{
	return type_names[type];
}

void tunable_table_limits(const struct tunable_def *def, struct tunable_limits *lim)
{
	memset(lim, 0, sizeof(*lim));
	lim->min = def->min;
	lim->max = def->max;
}

void tunable_table_range_text(const struct tunable_def *def, const struct tunable_limits *lim,
			      char *buf, size_t size)
{
	switch (def->type) {
	case TUNABLE_UINT:
	case TUNABLE_INT:
		snprintf(buf, size, "%lld..%lld%s%s", lim->min, lim->max, def->unit ? " " : "",
			 def->unit ? def->unit : "");
		break;
	case TUNABLE_BOOL:
		snprintf(buf, size, "0 or 1");
		break;
	case TUNABLE_CHOICE:
		snprintf(buf, size, "%s", lim->choices);
		break;
	case TUNABLE_CPULIST:
		snprintf(buf, size, "CPUs of %s", lim->choices);
		break;
	case TUNABLE_TEXT:
		snprintf(buf, size, "read-only");
		break;
	}
}

/* Strict decimal: optional '-', digits, trailing newline or blanks.
 * -EDOM: a minus where none is allowed; -ERANGE: too large for long long. */
static int parse_decimal(const char *s, bool allow_neg, long long *out)
{
	const char *p = s;
	char *end;

	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == '-' && !allow_neg)
		return -EDOM;
	if (!(*p == '-' ? p[1] >= '0' && p[1] <= '9' : *p >= '0' && *p <= '9'))
		return -EINVAL;
	errno = 0;
	*out = strtoll(p, &end, 10);
	if (errno)
		return -ERANGE;
	while (*end == ' ' || *end == '\t' || *end == '\n')
		end++;
	return *end ? -EINVAL : 0;
}

/* Copy the first word of s (no blanks, no newline). */
static void first_word(const char *s, char *out, size_t size)
{
	size_t n;

	s += strspn(s, " \t\n");
	n = strcspn(s, " \t\n");
	snprintf(out, size, "%.*s", (int)n, s);
}

/* Nothing but blanks around one word: the kernel refuses "none kyber", and
 * writing its first word alone would be another request. */
static bool one_word(const char *s)
{
	s += strspn(s, " \t\n");
	s += strcspn(s, " \t\n");
	return s[strspn(s, " \t\n")] == '\0';
}

static bool word_in(const char *list, const char *word)
{
	size_t len = strlen(word);

	for (const char *p = list; *p;) {
		size_t n;

		p += strspn(p, " ");
		n = strcspn(p, " ");
		if (n && n == len && strncmp(p, word, n) == 0)
			return true;
		p += n;
	}
	return false;
}

int tunable_table_cpulist_parse(const char *s, unsigned long long *bits, size_t nbits)
{
	const char *p = s;

	memset(bits, 0, (nbits + 63) / 64 * sizeof(*bits));
	p += strspn(p, " \t");
	if (*p == '\0' || *p == '\n')
		return -EINVAL;
	for (;;) {
		char *end;
		unsigned long lo, hi;

		if (*p < '0' || *p > '9')
			return -EINVAL;
		lo = strtoul(p, &end, 10);
		hi = lo;
		if (*end == '-') {
			p = end + 1;
			if (*p < '0' || *p > '9')
				return -EINVAL;
			hi = strtoul(p, &end, 10);
		}
		if (hi < lo || hi >= nbits)
			return -EINVAL;
		for (unsigned long c = lo; c <= hi; c++)
			bits[c / 64] |= 1ULL << (c % 64);
		p = end;
		if (*p != ',')
			break;
		p++;
	}
	p += strspn(p, " \t\n");
	return *p ? -EINVAL : 0;
}

#define CPU_BITS 4096

static int validate_cpulist(const struct tunable_limits *lim, const char *value, char *norm,
			    size_t norm_size, char *msg, size_t msg_size)
{
	unsigned long long want[CPU_BITS / 64], online[CPU_BITS / 64];
	bool any = false;

	if (tunable_table_cpulist_parse(value, want, CPU_BITS)) {
		snprintf(msg, msg_size, "not a CPU list (like 0-3,6)");
		return -EINVAL;
	}
	/* The cycle order ends with the whole online set: parse the last word. */
	const char *last = strrchr(lim->choices, ' ');
	if (tunable_table_cpulist_parse(last ? last + 1 : lim->choices, online, CPU_BITS))
		memset(online, 0xff, sizeof(online));
	for (size_t i = 0; i < CPU_BITS / 64; i++) {
		if (want[i] & ~online[i]) {
			snprintf(msg, msg_size, "names a CPU that is not online (online: %s)",
				 last ? last + 1 : lim->choices);
			return -ERANGE;
		}
		any |= want[i] != 0;
	}
	if (!any) {
		snprintf(msg, msg_size, "names no CPU");
		return -EINVAL;
	}
	first_word(value, norm, norm_size);
	return 0;
}

int tunable_table_validate(const struct tunable_def *def, const struct tunable_limits *lim,
			   const char *value, char *norm, size_t norm_size, char *msg, size_t msg_size)
{
	long long v;
	int err;

	msg[0] = '\0';
	if (!def->writable) {
		snprintf(msg, msg_size, "read-only in blktune");
		return -EPERM;
	}
	if (strchr(value, '\n') && strchr(value, '\n')[1]) {
		snprintf(msg, msg_size, "more than one line");
		return -EINVAL;
	}
	switch (def->type) {
	case TUNABLE_CHOICE:
		first_word(value, norm, norm_size);
		if (!*norm || !word_in(lim->choices, norm) || !one_word(value)) {
			snprintf(msg, msg_size, "%s one of: %s", one_word(value) ? "not" : "more than a word, not",
				 lim->choices);
			return -EINVAL;
		}
		return 0;
	case TUNABLE_CPULIST:
		return validate_cpulist(lim, value, norm, norm_size, msg, msg_size);
	case TUNABLE_TEXT:
		snprintf(msg, msg_size, "read-only in blktune");
		return -EPERM;
	case TUNABLE_UINT:
	case TUNABLE_INT:
	case TUNABLE_BOOL:
		break;
	}
	err = parse_decimal(value, def->type == TUNABLE_INT, &v);
	if (err == -EDOM) {
		snprintf(msg, msg_size, "negative values are not allowed");
		return -EINVAL;
	}
	if (err == -ERANGE) {
		snprintf(msg, msg_size, "number too large");
		return -ERANGE;
	}
	if (err) {
		snprintf(msg, msg_size, "not a number");
		return -EINVAL;
	}
	if (def->type == TUNABLE_BOOL && v != 0 && v != 1) {
		snprintf(msg, msg_size, "must be 0 or 1");
		return -ERANGE;
	}
	if (v > lim->max) {
		if (lim->why_max)
			snprintf(msg, msg_size, "above the device's limit (%lld, %s)", lim->max, lim->why_max);
		else
			snprintf(msg, msg_size, "above the maximum %lld", lim->max);
		return -ERANGE;
	}
	if (v < lim->min) {
		snprintf(msg, msg_size, "below the minimum %lld", lim->min);
		return -ERANGE;
	}
	snprintf(norm, norm_size, "%lld", v);
	return 0;
}

/* The word after (dir > 0) or before cur in a space-separated list, wrapping. */
static int cycle_word(const char *list, const char *cur, int dir, char *out, size_t size)
{
	char words[32][64];
	int n = 0, at = -1;

	for (const char *p = list; *p && n < 32;) {
		size_t len;

		p += strspn(p, " ");
		len = strcspn(p, " ");
		if (!len)
			break;
		snprintf(words[n], sizeof(words[n]), "%.*s", (int)len, p);
		if (strcmp(words[n], cur) == 0)
			at = n;
		n++;
		p += len;
	}
	if (n == 0)
		return -ENOENT;
	at = at < 0 ? (dir > 0 ? 0 : n - 1) : (at + (dir > 0 ? 1 : n - 1)) % n;
	snprintf(out, size, "%s", words[at]);
	return 0;
}

static long long step_number(const struct tunable_def *def, const struct tunable_limits *lim,
			     long long v, int dir)
{
	long long floor = def->step_min > lim->min ? def->step_min : lim->min;

	switch (def->step) {
	case TUNABLE_STEP_DOUBLE:
		if (dir > 0)
			return v <= 0 ? (floor > 0 ? floor : 1) : (v > lim->max / 2 ? lim->max : v * 2);
		/* Below the smallest step, halving goes to 0 (off) where 0 is allowed. */
		if (v <= floor)
			return lim->min <= 0 ? 0 : floor;
		return v / 2 < floor ? floor : v / 2;
	case TUNABLE_STEP_CYCLE:
		if (dir > 0)
			return v >= lim->max ? lim->min : v + 1;
		return v <= lim->min ? lim->max : v - 1;
	case TUNABLE_STEP_ONE:
	case TUNABLE_STEP_NONE:
		break;
	}
	return dir > 0 ? v + 1 : v - 1;
}

int tunable_table_step(const struct tunable_def *def, const struct tunable_limits *lim,
		       const char *cur, int dir, char *out, size_t out_size, char *msg, size_t msg_size)
{
	char word[64];
	long long v, next;

	msg[0] = '\0';
	if (!def->writable || def->step == TUNABLE_STEP_NONE) {
		snprintf(msg, msg_size, "no step for %s", def->name);
		return -EPERM;
	}
	if (def->type == TUNABLE_CHOICE || def->type == TUNABLE_CPULIST) {
		first_word(cur, word, sizeof(word));
		if (cycle_word(lim->choices, word, dir, out, out_size)) {
			snprintf(msg, msg_size, "no choices known");
			return -ENOENT;
		}
		return 0;
	}
	if (parse_decimal(cur, true, &v)) {
		snprintf(msg, msg_size, "current value \"%s\" is not a number", cur);
		return -EINVAL;
	}
	/* The special value (-1 = default) steps as if it were the minimum real value. */
	if (def->special && v < 0)
		v = 0;
	next = step_number(def, lim, v, dir);
	if (next > lim->max)
		next = lim->max;
	if (next < lim->min)
		next = lim->min;
	if (next == v) {
		snprintf(msg, msg_size, "%s already at its %s (%lld)", def->name, dir > 0 ? "maximum" : "minimum", v);
		return -ERANGE;
	}
	snprintf(out, out_size, "%lld", next);
	return 0;
}
