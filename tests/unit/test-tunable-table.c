/* tunable-table: validation of every tunable (good and bad values) and step rules. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tunable-table.h"
#include "unit.h"

struct vcase {
	const char *name;
	long long max;         /* device limit; 0 keeps the table's */
	const char *choices;
	const char *value;
	int err;               /* 0, -EINVAL, -ERANGE, -EPERM */
	const char *norm;      /* expected written form when err == 0 */
	const char *words;     /* expected in the message when err != 0 */
};

static const struct vcase vcases[] = {
	{ "read_ahead_kb", 0, NULL, "4096", 0, "4096", NULL },
	{ "read_ahead_kb", 0, NULL, "0", 0, "0", NULL },
	{ "read_ahead_kb", 0, NULL, "3", 0, "3", NULL },           /* the kernel rounds: read back tells */
	{ "read_ahead_kb", 0, NULL, " 128\n", 0, "128", NULL },
	{ "read_ahead_kb", 0, NULL, "-1", -EINVAL, NULL, "negative" },
	{ "read_ahead_kb", 0, NULL, "abc", -EINVAL, NULL, "not a number" },
	{ "read_ahead_kb", 0, NULL, "12k", -EINVAL, NULL, "not a number" },
	{ "read_ahead_kb", 0, NULL, "", -EINVAL, NULL, "not a number" },
	{ "read_ahead_kb", 0, NULL, "4294967296", -ERANGE, NULL, "above the maximum" },
	{ "max_sectors_kb", 1280, NULL, "512", 0, "512", NULL },
	{ "max_sectors_kb", 1280, NULL, "1280", 0, "1280", NULL },
	{ "max_sectors_kb", 1280, NULL, "2000", -ERANGE, NULL, "above the device's limit (1280" },
	{ "max_sectors_kb", 1280, NULL, "3", -ERANGE, NULL, "below the minimum 4" },
	{ "nr_requests", 128, NULL, "64", 0, "64", NULL },
	{ "nr_requests", 128, NULL, "3", -ERANGE, NULL, "below the minimum 4" }, /* the kernel would set 4 */
	{ "nr_requests", 128, NULL, "100000", -ERANGE, NULL, "above the device's limit" },
	{ "nr_requests", 128, NULL, "0", -ERANGE, NULL, "below the minimum" },
	{ "rq_affinity", 0, NULL, "2", 0, "2", NULL },
	{ "rq_affinity", 0, NULL, "0", 0, "0", NULL },
	{ "rq_affinity", 0, NULL, "3", -ERANGE, NULL, "above the maximum 2" }, /* kernel: acts as 1 */
	{ "nomerges", 0, NULL, "1", 0, "1", NULL },
	{ "nomerges", 0, NULL, "5", -ERANGE, NULL, "above the maximum 2" },
	{ "nomerges", 0, NULL, "-1", -EINVAL, NULL, "negative" },
	{ "scheduler", 0, "none mq-deadline kyber bfq", "bfq", 0, "bfq", NULL },
	{ "scheduler", 0, "none mq-deadline kyber bfq", "none\n", 0, "none", NULL },
	{ "scheduler", 0, "none mq-deadline kyber bfq", "foo", -EINVAL, NULL, "not one of: none" },
	{ "scheduler", 0, "none mq-deadline", "[none]", -EINVAL, NULL, "not one of" },
	{ "scheduler", 0, "none mq-deadline", "", -EINVAL, NULL, "not one of" },
	/* the kernel refuses two words: never write only the first */
	{ "scheduler", 0, "none mq-deadline kyber bfq", "none kyber", -EINVAL, NULL, "more than a word, not one of: none" },
	{ "scheduler", 0, "none mq-deadline kyber bfq", " kyber \n", 0, "kyber", NULL },
	{ "wbt_lat_usec", 0, NULL, "-1", 0, "-1", NULL },
	{ "wbt_lat_usec", 0, NULL, "0", 0, "0", NULL },
	{ "wbt_lat_usec", 0, NULL, "75000", 0, "75000", NULL },
	{ "wbt_lat_usec", 0, NULL, "-2", -ERANGE, NULL, "below the minimum -1" },
	{ "wbt_lat_usec", 0, NULL, "x1", -EINVAL, NULL, "not a number" },
	{ "add_random", 0, NULL, "1", 0, "1", NULL },
	{ "add_random", 0, NULL, "2", -ERANGE, NULL, "0 or 1" },
	{ "iostats", 0, NULL, "0", 0, "0", NULL },
	{ "iostats", 0, NULL, "yes", -EINVAL, NULL, "not a number" },
	{ "write_cache", 0, NULL, "write through", -EPERM, NULL, "read-only" },
	{ "write_cache", 0, NULL, "write back", -EPERM, NULL, "read-only" },
	{ "iosched/read_expire", 0, NULL, "250", 0, "250", NULL },
	{ "iosched/read_expire", 0, NULL, "2147483647", -ERANGE, NULL, "above the maximum" }, /* wraps in 6.18 */
	{ "iosched/front_merges", 0, NULL, "3", -ERANGE, NULL, "0 or 1" },
	{ "iosched/fifo_batch", 0, NULL, "-1", -EINVAL, NULL, "negative" },
	{ "iosched/async_depth", 0, NULL, "0", -ERANGE, NULL, "below the minimum 1" },
	{ "iosched/read_lat_nsec", 0, NULL, "2000000", 0, "2000000", NULL },
	{ "iosched/slice_idle", 0, NULL, "5000", -ERANGE, NULL, "above the maximum 4293" },
	{ "iosched/low_latency", 0, NULL, "0", 0, "0", NULL },
	{ "iosched/back_seek_penalty", 0, NULL, "0", -ERANGE, NULL, "below the minimum 1" },
	{ "iosched/some_future_knob", 0, NULL, "-5", 0, "-5", NULL }, /* generic row: the kernel judges */
	/* digits at both ends of '0'..'9', after a minus too */
	{ "iosched/some_future_knob", 0, NULL, "-9", 0, "-9", NULL },
	{ "iosched/some_future_knob", 0, NULL, "-0", 0, "0", NULL },
	{ "iosched/some_future_knob", 0, NULL, "-/", -EINVAL, NULL, "not a number" },
	{ "iosched/some_future_knob", 0, NULL, "-:", -EINVAL, NULL, "not a number" },
	{ "wbt_lat_usec", 0, NULL, "-9", -ERANGE, NULL, "below the minimum -1" },
	{ "read_ahead_kb", 0, NULL, "9", 0, "9", NULL },
	{ "read_ahead_kb", 0, NULL, ":", -EINVAL, NULL, "not a number" },
	{ "read_ahead_kb", 0, NULL, "\t 64 \t", 0, "64", NULL },
	{ "read_ahead_kb", 0, NULL, "64 1", -EINVAL, NULL, "not a number" },
	{ "read_ahead_kb", 0, NULL, "99999999999999999999", -ERANGE, NULL, "number too large" },
	{ "wbt_lat_usec", 0, NULL, "-99999999999999999999", -ERANGE, NULL, "number too large" },
	{ "read_ahead_kb", 0, NULL, "1\n2\n", -EINVAL, NULL, "more than one line" },
	{ "irq", 0, "0 1 2 3 0-3", "0-1", 0, "0-1", NULL },
	{ "irq", 0, "0 1 2 3 0-3", "1,3", 0, "1,3", NULL },
	{ "irq", 0, "0 1 2 3 0-3", "4", -ERANGE, NULL, "not online" },
	{ "irq", 0, "0 1 2 3 0-3", "3-1", -EINVAL, NULL, "not a CPU list" },
	{ "irq", 0, "0 1 2 3 0-3", "a", -EINVAL, NULL, "not a CPU list" },
	{ "irq", 0, "0 1 2 3 0-3", "", -EINVAL, NULL, "not a CPU list" },
	/* Ceilings, at and one past. Millisecond parameters: one hour (the
	 * kernel's msecs_to_jiffies of more overflows its int); wbt_lat_usec the
	 * same hour in microseconds; bfq's slice_idle is stored in ns in a u32
	 * (4293 ms, 4294966 us). */
	{ "iosched/read_expire", 0, NULL, "3600000", 0, "3600000", NULL },
	{ "iosched/read_expire", 0, NULL, "3600001", -ERANGE, NULL, "above the maximum 3600000" },
	{ "iosched/write_expire", 0, NULL, "3600000", 0, "3600000", NULL },
	{ "iosched/write_expire", 0, NULL, "3600001", -ERANGE, NULL, "above the maximum 3600000" },
	{ "iosched/prio_aging_expire", 0, NULL, "3600001", -ERANGE, NULL, "above the maximum 3600000" },
	{ "iosched/fifo_expire_async", 0, NULL, "3600001", -ERANGE, NULL, "above the maximum 3600000" },
	{ "iosched/fifo_expire_sync", 0, NULL, "3600000", 0, "3600000", NULL },
	{ "iosched/fifo_expire_sync", 0, NULL, "3600001", -ERANGE, NULL, "above the maximum 3600000" },
	{ "iosched/timeout_sync", 0, NULL, "3600001", -ERANGE, NULL, "above the maximum 3600000" },
	{ "iosched/fifo_expire_async", 0, NULL, "1", 0, "1", NULL },
	{ "iosched/fifo_expire_async", 0, NULL, "0", -ERANGE, NULL, "below the minimum 1" },
	{ "iosched/timeout_sync", 0, NULL, "0", -ERANGE, NULL, "below the minimum 1" },
	{ "iosched/read_expire", 0, NULL, "0", 0, "0", NULL },
	{ "iosched/slice_idle", 0, NULL, "4293", 0, "4293", NULL },
	{ "iosched/slice_idle", 0, NULL, "4294", -ERANGE, NULL, "above the maximum 4293" },
	{ "iosched/slice_idle_us", 0, NULL, "4294966", 0, "4294966", NULL },
	{ "iosched/slice_idle_us", 0, NULL, "4294967", -ERANGE, NULL, "above the maximum 4294966" },
	{ "wbt_lat_usec", 0, NULL, "3600000000", 0, "3600000000", NULL },
	{ "wbt_lat_usec", 0, NULL, "3600000001", -ERANGE, NULL, "above the maximum 3600000000" },
	{ "rq_affinity", 0, NULL, "-1", -EINVAL, NULL, "negative" },
	{ "nomerges", 0, NULL, "2", 0, "2", NULL },
	{ "max_sectors_kb", 1280, NULL, "4", 0, "4", NULL },
	{ "max_sectors_kb", 1280, NULL, "1281", -ERANGE, NULL, "above the device's limit (1280" },
	{ "nr_requests", 128, NULL, "4", 0, "4", NULL },
	{ "nr_requests", 128, NULL, "128", 0, "128", NULL },
	{ "nr_requests", 128, NULL, "129", -ERANGE, NULL, "above the device's limit" },
	{ "read_ahead_kb", 0, NULL, "4294967295", 0, "4294967295", NULL },
	{ "iosched/writes_starved", 0, NULL, "2147483647", 0, "2147483647", NULL },
	{ "iosched/writes_starved", 0, NULL, "2147483648", -ERANGE, NULL, "above the maximum" },
	/* The highest CPU a list may name is 4095 (the parser's 4096 bits);
	 * 4096 is refused before any bit is set (an off-by-one bound writes past
	 * the stack array: ASan stops it). */
	{ "irq", 0, "0 4095 0-4095", "4095", 0, "4095", NULL },
	{ "irq", 0, "0 4095 0-4095", "0-4095", 0, "0-4095", NULL },
	{ "irq", 0, "0 4095 0-4095", "4096", -EINVAL, NULL, "not a CPU list" },
	{ "irq", 0, "0 4095 0-4095", "4090-4096", -EINVAL, NULL, "not a CPU list" },
	{ "irq", 0, "0 1 2 3 0-3", "3", 0, "3", NULL },
	{ "irq", 0, "0 1 2 3 0-3", "0-4", -ERANGE, NULL, "not online" },
	{ "irq", 0, "0 1 2 3 0-3", "1-", -EINVAL, NULL, "not a CPU list" },
	{ "irq", 0, "0 1 2 3 0-3", "1,", -EINVAL, NULL, "not a CPU list" },
	{ "irq", 0, "0 1 2 3 0-3", "2-2", 0, "2-2", NULL },
};

static void limits(const struct tunable_def *def, const struct vcase *c, struct tunable_limits *lim)
{
	tunable_table_limits(def, lim);
	if (c->max) {
		lim->max = c->max;
		lim->why_max = "test";
	}
	if (c->choices)
		snprintf(lim->choices, sizeof(lim->choices), "%s", c->choices);
}

START_TEST(test_validate)
{
	const struct vcase *c = &vcases[_i];
	const struct tunable_def *def = tunable_table_find(c->name);
	struct tunable_limits lim;
	char norm[256] = "", msg[256] = "";
	int err;

	ck_assert_msg(def != NULL, "row %s", c->name);
	limits(def, c, &lim);
	err = tunable_table_validate(def, &lim, c->value, norm, sizeof(norm), msg, sizeof(msg));
	ck_assert_msg(err == c->err, "%s=\"%s\": err %d, want %d (%s)", c->name, c->value, err, c->err, msg);
	if (!err)
		ck_assert_str_eq(norm, c->norm);
	else
		ck_assert_msg(strstr(msg, c->words), "%s=\"%s\": message \"%s\" lacks \"%s\"", c->name, c->value,
			      msg, c->words);
}
END_TEST

struct scase {
	const char *name;
	long long max;
	const char *choices;
	const char *cur;
	int dir;
	const char *want; /* NULL: -ERANGE at an end */
};

static const struct scase scases[] = {
	{ "read_ahead_kb", 0, NULL, "128", 1, "256" },
	{ "read_ahead_kb", 0, NULL, "128", -1, "64" },
	{ "read_ahead_kb", 0, NULL, "4", -1, "0" },
	{ "read_ahead_kb", 0, NULL, "0", 1, "4" },
	{ "read_ahead_kb", 0, NULL, "0", -1, NULL },
	{ "max_sectors_kb", 1280, NULL, "1024", 1, "1280" },
	{ "max_sectors_kb", 1280, NULL, "1280", 1, NULL },
	{ "max_sectors_kb", 1280, NULL, "4", -1, NULL },
	{ "nr_requests", 128, NULL, "4", -1, NULL },
	{ "nr_requests", 128, NULL, "64", 1, "128" },
	{ "rq_affinity", 0, NULL, "2", 1, "0" },
	{ "rq_affinity", 0, NULL, "0", -1, "2" },
	{ "nomerges", 0, NULL, "0", 1, "1" },
	{ "add_random", 0, NULL, "0", 1, "1" },
	{ "add_random", 0, NULL, "1", 1, "0" },
	{ "scheduler", 0, "none mq-deadline kyber bfq", "none", 1, "mq-deadline" },
	{ "scheduler", 0, "none mq-deadline kyber bfq", "bfq", 1, "none" },
	{ "scheduler", 0, "none mq-deadline kyber bfq", "none", -1, "bfq" },
	{ "wbt_lat_usec", 0, NULL, "-1", 1, "1000" },
	{ "wbt_lat_usec", 0, NULL, "2000", -1, "1000" },
	{ "wbt_lat_usec", 0, NULL, "1000", -1, "0" },
	{ "iosched/writes_starved", 0, NULL, "2", 1, "3" },
	{ "irq", 0, "0 1 0-1", "0-1", 1, "0" },
	{ "irq", 0, "0 1 0-1", "0", 1, "1" },
	/* doubling next to the maximum: exact below max / 2, the maximum above */
	{ "read_ahead_kb", 0, NULL, "2147483647", 1, "4294967294" },
	{ "read_ahead_kb", 0, NULL, "2147483648", 1, "4294967295" },
	{ "read_ahead_kb", 0, NULL, "4294967295", 1, NULL },
	{ "wbt_lat_usec", 0, NULL, "1800000000", 1, "3600000000" },
	{ "wbt_lat_usec", 0, NULL, "1800000001", 1, "3600000000" },
	{ "wbt_lat_usec", 0, NULL, "3600000000", 1, NULL },
	{ "max_sectors_kb", 1280, NULL, "640", 1, "1280" },
	{ "max_sectors_kb", 1280, NULL, "641", 1, "1280" },
	/* halving next to the smallest step */
	{ "read_ahead_kb", 0, NULL, "10", -1, "5" },
	{ "read_ahead_kb", 0, NULL, "9", -1, "4" },
	{ "read_ahead_kb", 0, NULL, "8", -1, "4" },
	{ "read_ahead_kb", 0, NULL, "5", -1, "4" },
	{ "max_sectors_kb", 1280, NULL, "6", -1, "4" },
	{ "max_sectors_kb", 1280, NULL, "8", -1, "4" },
	{ "wbt_lat_usec", 0, NULL, "0", 1, "1000" },
	{ "wbt_lat_usec", 0, NULL, "0", -1, NULL }, /* off stays off: -1 is no step below it */
	{ "iosched/read_lat_nsec", 0, NULL, "3000", -1, "1500" }, /* kyber: 1 us the smallest step */
	{ "iosched/read_lat_nsec", 0, NULL, "1500", -1, "1000" },
	{ "iosched/write_lat_nsec", 0, NULL, "1999", -1, "1000" },
	{ "wbt_lat_usec", 0, NULL, "-1", -1, NULL },
	/* cycling and single steps at both ends */
	{ "rq_affinity", 0, NULL, "1", 1, "2" },
	{ "rq_affinity", 0, NULL, "1", -1, "0" },
	{ "nomerges", 0, NULL, "2", 1, "0" },
	{ "iosched/writes_starved", 0, NULL, "2", -1, "1" },
	{ "iosched/writes_starved", 0, NULL, "0", -1, NULL },
	{ "iosched/writes_starved", 0, NULL, "2147483647", 1, NULL },
	{ "iosched/back_seek_penalty", 0, NULL, "1", -1, NULL },
	{ "iosched/back_seek_penalty", 0, NULL, "1", 1, "2" },
	/* an unknown current choice starts at an end of the list */
	{ "scheduler", 0, "none mq-deadline kyber bfq", "foo", 1, "none" },
	{ "scheduler", 0, "none mq-deadline kyber bfq", "foo", -1, "bfq" },
	{ "scheduler", 0, "none mq-deadline kyber bfq", "kyber", -1, "mq-deadline" },
	{ "scheduler", 0, "none mq-deadline kyber bfq", "  kyber\n", 1, "bfq" },
};

START_TEST(test_step)
{
	const struct scase *c = &scases[_i];
	const struct tunable_def *def = tunable_table_find(c->name);
	struct tunable_limits lim;
	char out[256] = "", msg[256] = "";
	int err;

	tunable_table_limits(def, &lim);
	if (c->max)
		lim.max = c->max;
	if (c->choices)
		snprintf(lim.choices, sizeof(lim.choices), "%s", c->choices);
	err = tunable_table_step(def, &lim, c->cur, c->dir, out, sizeof(out), msg, sizeof(msg));
	if (c->want) {
		ck_assert_msg(err == 0, "%s %s %+d: %s", c->name, c->cur, c->dir, msg);
		ck_assert_str_eq(out, c->want);
	} else {
		ck_assert_int_eq(err, -ERANGE);
		ck_assert_msg(strstr(msg, "already at its"), "%s", msg);
	}
}
END_TEST

/* What a step cannot do: no step for a read-only row, no choices known, a
 * current value that is not a number. */
START_TEST(test_step_refusals)
{
	struct tunable_limits lim;
	char out[64], msg[128];
	const struct tunable_def *d;

	d = tunable_table_find("write_cache");
	tunable_table_limits(d, &lim);
	ck_assert_int_eq(tunable_table_step(d, &lim, "write back", 1, out, sizeof(out), msg, sizeof(msg)), -EPERM);
	ck_assert_str_eq(msg, "no step for write_cache");
	d = tunable_table_find("scheduler");
	tunable_table_limits(d, &lim);
	ck_assert_int_eq(tunable_table_step(d, &lim, "none", 1, out, sizeof(out), msg, sizeof(msg)), -ENOENT);
	ck_assert_str_eq(msg, "no choices known");
	d = tunable_table_find("read_ahead_kb");
	tunable_table_limits(d, &lim);
	ck_assert_int_eq(tunable_table_step(d, &lim, "12k", 1, out, sizeof(out), msg, sizeof(msg)), -EINVAL);
	ck_assert_str_eq(msg, "current value \"12k\" is not a number");
	ck_assert_int_eq(tunable_table_step(d, &lim, "0", -1, out, sizeof(out), msg, sizeof(msg)), -ERANGE);
	ck_assert_str_eq(msg, "read_ahead_kb already at its minimum (0)");
}
END_TEST

/* The range line of the tunables panel, per type. */
START_TEST(test_range_text)
{
	static const struct {
		const char *name, *choices, *want;
	} cases[] = {
		{ "read_ahead_kb", NULL, "0..4294967295 KiB" },
		{ "wbt_lat_usec", NULL, "-1..3600000000 us" },
		{ "iosched/writes_starved", NULL, "0..2147483647" },
		{ "add_random", NULL, "0 or 1" },
		{ "scheduler", "none bfq", "none bfq" },
		{ "irq", "0 1 0-1", "CPUs of 0 1 0-1" },
		{ "write_cache", NULL, "read-only" },
	};
	char buf[128];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct tunable_def *d = tunable_table_find(cases[i].name);
		struct tunable_limits lim;

		tunable_table_limits(d, &lim);
		if (cases[i].choices)
			snprintf(lim.choices, sizeof(lim.choices), "%s", cases[i].choices);
		tunable_table_range_text(d, &lim, buf, sizeof(buf));
		ck_assert_str_eq(buf, cases[i].want);
	}
	ck_assert_str_eq(tunable_table_type_name(TUNABLE_CPULIST), "CPU list");
	ck_assert_str_eq(tunable_table_type_name(TUNABLE_BOOL), "0 or 1");
	ck_assert_str_eq(tunable_table_layer_name(TUNABLE_LAYER_IRQ), "interrupt");
	/* lookups: exact names, the generic iosched row for one level only */
	ck_assert_str_eq(tunable_table_find("iosched/fifo_batch")->name, "iosched/fifo_batch");
	ck_assert(!tunable_table_is_generic(tunable_table_find("iosched/fifo_batch")));
	ck_assert_str_eq(tunable_table_find("iosched/fifo_batch")->sched, "mq-deadline");
	ck_assert_ptr_null(tunable_table_at(tunable_table_count()));
	ck_assert_ptr_null(tunable_table_find("iosched/"));
	ck_assert_ptr_null(tunable_table_find("queue/read_ahead_kb"));
	ck_assert_ptr_null(tunable_table_find("read_ahead_k"));
}
END_TEST

/* Restore order: what the kernel changes as a side effect of writing
 * another value is restored after it: the scheduler first (it replaces
 * iosched/ and resets nr_requests), then nr_requests (it moves
 * iosched/async_depth), then the scheduler's parameters; max_sectors_kb
 * (it can raise read_ahead_kb) before read_ahead_kb; the interrupt and the
 * read-only write_cache last. */
START_TEST(test_restore_ranks)
{
#define RANK(n) (tunable_table_find(n)->restore_rank)
	ck_assert_int_lt(RANK("scheduler"), RANK("nr_requests"));
	for (size_t i = 0; i < tunable_table_count(); i++) {
		const struct tunable_def *d = tunable_table_at(i);
		if (strncmp(d->name, "iosched/", 8) == 0)
			ck_assert_msg(d->restore_rank > RANK("nr_requests"), "%s after nr_requests", d->name);
		if (d->side_effects)
			ck_assert_msg(d->restore_rank < 9, "%s restored before what it changes", d->name);
	}
	ck_assert_int_gt(RANK("iosched/new_knob"), RANK("nr_requests"));
	ck_assert_int_lt(RANK("max_sectors_kb"), RANK("read_ahead_kb"));
	/* Writing a queue limit (max_sectors_kb, and the features add_random and
	 * iostats since 6.11) raises read_ahead_kb to twice max_sectors_kb: each
	 * is restored before it and journals it with its own change. */
	ck_assert_int_lt(RANK("add_random"), RANK("read_ahead_kb"));
	ck_assert_int_lt(RANK("iostats"), RANK("read_ahead_kb"));
	ck_assert_int_eq(tunable_table_rank("irq/36"), RANK("irq"));
	ck_assert_int_eq(tunable_table_rank("iosched/new_knob"), RANK("iosched/fifo_batch"));
	ck_assert_int_eq(tunable_table_rank("no_such"), 9);
	ck_assert_str_eq(tunable_table_find("add_random")->side_effects, "read_ahead_kb");
	ck_assert_str_eq(tunable_table_find("iostats")->side_effects, "read_ahead_kb");
	ck_assert_int_lt(RANK("read_ahead_kb"), RANK("irq"));
	ck_assert_int_gt(RANK("write_cache"), RANK("irq"));
	ck_assert_str_eq(tunable_table_find("scheduler")->side_effects, "nr_requests iosched/*");
	ck_assert_str_eq(tunable_table_find("max_sectors_kb")->side_effects, "read_ahead_kb");
	ck_assert_str_eq(tunable_table_find("nr_requests")->side_effects, "iosched/async_depth");
	ck_assert_str_eq(tunable_table_find("wbt_lat_usec")->special, "-1");
#undef RANK
}
END_TEST

/* Every numeric row's accepted range, at and one past each end, as the
 * kernel defines it (block/blk-sysfs.c, mq-deadline.c, kyber-iosched.c,
 * bfq-iosched.c; millisecond values capped at an hour, see MS_MAX), and the
 * first step up from its minimum. */
START_TEST(test_every_range)
{
	static const struct {
		const char *name;
		long long min, max, up_from_min;
	} rows[] = {
		{ "read_ahead_kb", 0, 4294967295LL, 4 },
		{ "max_sectors_kb", 4, 4294967295LL, 8 },
		{ "nr_requests", 4, 1LL << 20, 8 },
		{ "rq_affinity", 0, 2, 1 },
		{ "nomerges", 0, 2, 1 },
		{ "wbt_lat_usec", -1, 3600000000LL, 1000 },
		{ "add_random", 0, 1, 1 },
		{ "iostats", 0, 1, 1 },
		{ "iosched/read_expire", 0, 3600000, 1 },
		{ "iosched/write_expire", 0, 3600000, 1 },
		{ "iosched/writes_starved", 0, 2147483647, 1 },
		{ "iosched/front_merges", 0, 1, 1 },
		{ "iosched/fifo_batch", 0, 2147483647, 1 },
		{ "iosched/prio_aging_expire", 0, 3600000, 1 },
		{ "iosched/async_depth", 1, 2147483647, 2 },
		{ "iosched/read_lat_nsec", 1, 4611686018427387903LL, 2 },
		{ "iosched/write_lat_nsec", 1, 4611686018427387903LL, 2 },
		{ "iosched/back_seek_max", 0, 2147483647, 1 },
		{ "iosched/back_seek_penalty", 1, 2147483647, 2 },
		{ "iosched/fifo_expire_async", 1, 3600000, 2 },
		{ "iosched/fifo_expire_sync", 1, 3600000, 2 },
		{ "iosched/low_latency", 0, 1, 1 },
		{ "iosched/max_budget", 0, 2147483647, 1 },
		{ "iosched/slice_idle", 0, 4293, 1 },
		{ "iosched/slice_idle_us", 0, 4294966, 1 },
		{ "iosched/strict_guarantees", 0, 1, 1 },
		{ "iosched/timeout_sync", 1, 3600000, 2 },
	};
	size_t numeric = 0;

	for (size_t i = 0; i < tunable_table_count(); i++) {
		enum tunable_type t = tunable_table_at(i)->type;
		numeric += t == TUNABLE_UINT || t == TUNABLE_INT || t == TUNABLE_BOOL;
	}
	ck_assert_uint_eq(numeric, sizeof(rows) / sizeof(rows[0]));
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct tunable_def *d = tunable_table_find(rows[i].name);
		struct tunable_limits lim;
		char v[32], norm[64], msg[128], out[64];

		ck_assert_msg(d && !tunable_table_is_generic(d), "%s is a row", rows[i].name);
		tunable_table_limits(d, &lim);
		snprintf(v, sizeof(v), "%lld", rows[i].min);
		ck_assert_msg(tunable_table_validate(d, &lim, v, norm, sizeof(norm), msg, sizeof(msg)) == 0,
			      "%s=%s: %s", rows[i].name, v, msg);
		snprintf(v, sizeof(v), "%lld", rows[i].max);
		ck_assert_msg(tunable_table_validate(d, &lim, v, norm, sizeof(norm), msg, sizeof(msg)) == 0,
			      "%s=%s: %s", rows[i].name, v, msg);
		snprintf(v, sizeof(v), "%lld", rows[i].min - 1);
		ck_assert_msg(tunable_table_validate(d, &lim, v, norm, sizeof(norm), msg, sizeof(msg)) != 0,
			      "%s=%s accepted", rows[i].name, v);
		snprintf(v, sizeof(v), "%lld", rows[i].max + 1);
		ck_assert_msg(tunable_table_validate(d, &lim, v, norm, sizeof(norm), msg, sizeof(msg)) != 0,
			      "%s=%s accepted", rows[i].name, v);
		snprintf(v, sizeof(v), "%lld", rows[i].min);
		ck_assert_msg(tunable_table_step(d, &lim, v, 1, out, sizeof(out), msg, sizeof(msg)) == 0, "%s up: %s",
			      rows[i].name, msg);
		snprintf(v, sizeof(v), "%lld", rows[i].up_from_min);
		ck_assert_msg(!strcmp(out, v), "%s up from %lld: %s, want %s", rows[i].name, rows[i].min, out, v);
	}
}
END_TEST

START_TEST(test_rows)
{
	const struct tunable_def *wc = tunable_table_find("write_cache");

	/* write_cache is shown but never written, and says why. */
	ck_assert(!wc->writable);
	ck_assert(strstr(wc->help, "power failure"));
	ck_assert(strstr(tunable_table_find("rq_affinity")->help, "2:"));
	ck_assert(strstr(tunable_table_find("nomerges")->help, "2:"));
	ck_assert(strstr(tunable_table_find("read_ahead_kb")->help, "opened before"));
	ck_assert(tunable_table_find("iosched/x/y") == NULL);
	ck_assert(tunable_table_find("nope") == NULL);
	ck_assert(tunable_table_is_generic(tunable_table_find("iosched/new_knob")));
	for (size_t i = 0; i < tunable_table_count(); i++) {
		const struct tunable_def *d = tunable_table_at(i);
		ck_assert_msg(d->help && *d->help, "%s has help", d->name);
		ck_assert_msg(tunable_table_find(d->name) == d, "%s unique", d->name);
		ck_assert(tunable_table_layer_name(d->layer) != NULL);
	}
}
END_TEST

/* The parser at its bound, on an array exactly nbits long (heap, so ASan
 * sees one word past it). */
START_TEST(test_cpulist_bound)
{
	unsigned long long *bits = malloc(2 * sizeof(*bits));

	ck_assert_ptr_nonnull(bits);
	ck_assert_int_eq(tunable_table_cpulist_parse("127", bits, 128), 0);
	ck_assert(bits[1] == 1ULL << 63 && bits[0] == 0);
	ck_assert_int_eq(tunable_table_cpulist_parse("0-127", bits, 128), 0);
	ck_assert(bits[0] == ~0ULL && bits[1] == ~0ULL);
	ck_assert_int_eq(tunable_table_cpulist_parse("63,64", bits, 128), 0);
	ck_assert(bits[0] == 1ULL << 63 && bits[1] == 1);
	ck_assert_int_eq(tunable_table_cpulist_parse("128", bits, 128), -EINVAL);
	ck_assert_int_eq(tunable_table_cpulist_parse("120-128", bits, 128), -EINVAL);
	ck_assert_int_eq(tunable_table_cpulist_parse(" 5 \n", bits, 128), 0);
	ck_assert(bits[0] == 1ULL << 5 && bits[1] == 0);
	ck_assert_int_eq(tunable_table_cpulist_parse("5 6", bits, 128), -EINVAL);
	ck_assert_int_eq(tunable_table_cpulist_parse("\n", bits, 128), -EINVAL);
	free(bits);
}
END_TEST

UNIT_SUITE(tunable_table_suite)
static Suite *tunable_table_suite(void)
{
	Suite *s = suite_create("tunable-table");
	TCase *tc = tcase_create("table");

	tcase_add_loop_test(tc, test_validate, 0, (int)(sizeof(vcases) / sizeof(vcases[0])));
	tcase_add_loop_test(tc, test_step, 0, (int)(sizeof(scases) / sizeof(scases[0])));
	tcase_add_test(tc, test_rows);
	tcase_add_test(tc, test_cpulist_bound);
	tcase_add_test(tc, test_step_refusals);
	tcase_add_test(tc, test_range_text);
	tcase_add_test(tc, test_restore_ranks);
	tcase_add_test(tc, test_every_range);
	suite_add_tcase(s, tc);
	return s;
}
