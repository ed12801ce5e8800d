/* tunable-table: every tunable blktune knows, as rows of one table (name, file,
 * type, range, step rule, layer, help), and the pure routines that validate and
 * step a value against a row. Nothing here touches a file: the device-specific
 * facts (max_hw_sectors_kb, the scheduler list, online CPUs) come in a
 * struct tunable_limits filled by tunable.c. */
#ifndef BLKTUNE_TUNABLE_TABLE_H
#define BLKTUNE_TUNABLE_TABLE_H

#include <stdbool.h>
#include <stddef.h>

#define TUNABLE_CHOICES_MAX 256

enum tunable_type {
	TUNABLE_UINT,    /* decimal, >= 0 */
	TUNABLE_INT,     /* decimal, may be negative (wbt_lat_usec -1) */
	TUNABLE_BOOL,    /* 0 or 1 */
	TUNABLE_CHOICE,  /* one word of limits.choices (scheduler) */
	TUNABLE_CPULIST, /* "0-3,6", every CPU online (IRQ affinity) */
	TUNABLE_TEXT,    /* shown only (write_cache) */
};

enum tunable_step {
	TUNABLE_STEP_NONE,
	TUNABLE_STEP_DOUBLE, /* sizes and times: double up, halve down */
	TUNABLE_STEP_ONE,    /* +1 / -1 */
	TUNABLE_STEP_CYCLE,  /* next / previous value or choice, wrapping */
};

/* Where in a device stack a tunable takes effect (ARCHITECTURE §2). */
enum tunable_layer {
	TUNABLE_LAYER_TOP,    /* the device a filesystem sits on */
	TUNABLE_LAYER_BOTTOM, /* the device that talks to hardware */
	TUNABLE_LAYER_QUEUE,  /* the request queue of a blk-mq device */
	TUNABLE_LAYER_DEVICE, /* this device only */
	TUNABLE_LAYER_IRQ,    /* an interrupt, possibly shared by devices */
};

/* Where the file lives: below sys/block/DEV/ or below proc/irq/N/. */
enum tunable_place {
	TUNABLE_PLACE_DEVICE,
	TUNABLE_PLACE_IRQ,
};

struct tunable_def {
	const char *name;      /* "read_ahead_kb", "iosched/fifo_batch", "irq" */
	const char *path;      /* relative to sys/block/DEV/ or proc/irq/N/ */
	enum tunable_place place;
	const char *sched;     /* scheduler owning the row, NULL otherwise */
	enum tunable_type type;
	long long min, max;    /* accepted input (numbers), before device limits */
	long long step_min;    /* smallest non-zero value a step goes to */
	enum tunable_step step;
	enum tunable_layer layer;
	bool writable;
	int restore_rank;      /* restore lower ranks first (scheduler before its parameters) */
	const char *side_effects; /* names the kernel may change when this is written */
	const char *special;   /* a value with a meaning of its own, "-1" */
	const char *unit;
	const char *help;
};

/* The device's facts a value is checked against. */
struct tunable_limits {
	long long min, max;
	const char *why_max;   /* words for max: "the device's max_hw_sectors_kb" */
	char choices[TUNABLE_CHOICES_MAX]; /* space separated: CHOICE words, CPULIST cycle order */
};

size_t tunable_table_count(void);
const struct tunable_def *tunable_table_at(size_t i);
/* Row by name; "iosched/X" not in the table gets the generic scheduler row. */
const struct tunable_def *tunable_table_find(const char *name);
/* The restore order of a tunable by name ("irq/36" is the irq row's; an
 * unknown name comes last): lower ranks are written first. */
int tunable_table_rank(const char *name);
/* True for the generic row of a scheduler parameter blktune has no help for. */
bool tunable_table_is_generic(const struct tunable_def *def);
const char *tunable_table_layer_name(enum tunable_layer layer);
const char *tunable_table_type_name(enum tunable_type type);

/* The row's own limits, before any device fact. */
void tunable_table_limits(const struct tunable_def *def, struct tunable_limits *lim);
/* "4..1280", "none mq-deadline kyber bfq", "0 or 1", "CPUs 0-3". */
void tunable_table_range_text(const struct tunable_def *def, const struct tunable_limits *lim,
			      char *buf, size_t size);

/* Check value; on success write its normalised form (what to write) into norm.
 * Returns 0, or -EINVAL / -ERANGE / -EPERM with the reason in words in msg
 * ("above the device's limit (1280, max_hw_sectors_kb)"). */
int tunable_table_validate(const struct tunable_def *def, const struct tunable_limits *lim,
			   const char *value, char *norm, size_t norm_size, char *msg, size_t msg_size);

/* The value one step up (dir > 0) or down from cur. Returns 0, -ERANGE at an
 * end of the range (msg says which), -EPERM for rows without a step rule. */
int tunable_table_step(const struct tunable_def *def, const struct tunable_limits *lim,
		       const char *cur, int dir, char *out, size_t out_size, char *msg, size_t msg_size);

/* Parse a CPU list ("0-3,6") into a bitmap of nbits bits. Returns 0 or -EINVAL. */
int tunable_table_cpulist_parse(const char *s, unsigned long long *bits, size_t nbits);

#endif
