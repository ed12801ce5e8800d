/* columns: every per-device figure as a row of one table: header, JSON key
 * (iostat's own where iostat has the figure), width, precision, the good
 * direction (for A/B verdicts) and the formula (help screen, man page). */
#ifndef BLKTUNE_COLUMNS_H
#define BLKTUNE_COLUMNS_H

#include <stdbool.h>
#include <stddef.h>

#include "model.h"

enum column_type {
	COL_NAME,   /* device name */
	COL_NUM,    /* a double in struct disk_metrics */
	COL_SCHED,  /* the active scheduler (string) */
	COL_STACK,  /* what a dm/md device stacks on, or what holds a disk */
};

enum column_id {
	COLUMN_DEVICE,
	COLUMN_R_S, COLUMN_W_S, COLUMN_RMB_S, COLUMN_WMB_S,
	COLUMN_RAREQ_SZ, COLUMN_WAREQ_SZ, COLUMN_R_AWAIT, COLUMN_W_AWAIT,
	COLUMN_AQU_SZ, COLUMN_UTIL, COLUMN_IN_FLIGHT,
	COLUMN_RA_HIT, /* only while the readahead mode is on: then it matters most */
	COLUMN_T_AVG, COLUMN_T_P99, COLUMN_T_QP99, COLUMN_T_DP99, COLUMN_T_SAME,
	COLUMN_RRQM_PCT, COLUMN_WRQM_PCT,
	COLUMN_RA_KB, COLUMN_MAXSECT_KB, COLUMN_SCHED, COLUMN_STACK,
	/* the rest: detail pane, batch output and JSON only */
	COLUMN_D_S, COLUMN_F_S, COLUMN_RKB_S, COLUMN_WKB_S, COLUMN_DKB_S,
	COLUMN_RRQM_S, COLUMN_WRQM_S, COLUMN_DRQM_S, COLUMN_DRQM_PCT,
	COLUMN_D_AWAIT, COLUMN_F_AWAIT, COLUMN_DAREQ_SZ,
	COLUMN_COUNT
};

struct column {
	const char *header;
	const char *json;     /* key in JSON output */
	enum column_type type;
	size_t offset;        /* of the double in struct disk_metrics (COL_NUM) */
	int width, prec;
	int good;             /* +1 higher is better, -1 lower is better, 0 neither */
	bool table;           /* a device-table column */
	const char *formula;
	unsigned flags;
	/* A per-request figure (await, request size, merge %) is undefined in
	 * an interval without requests of its kind: the rate column that must be
	 * non-zero, 0 for figures that are always defined. */
	enum column_id per;
	/* Fields a diskstats line needs for the kernel to count this figure:
	 * 18 for discards (4.18), 20 for flushes (5.5); 0 for every line. */
	int min_fields;
};

/* A gauge (in flight, a tunable) has a value without an interval; negative
 * means the device has no such attribute. */
#define COLUMN_GAUGE 1u
/* From the BPF tracer: "n/a" where tracing is off or the device untraced;
 * JSON carries them in the trace fields instead. */
#define COLUMN_TRACED 2u
/* Shown only while the readahead mode is on; JSON has it in "readahead". */
#define COLUMN_RAMODE 4u
/* Traced queue/device split: "n/a" on bio-based devices (no queue part). */
#define COLUMN_SPLIT 8u

/* A throughput column (MB/s in the table) that the TUI's unit key shows in
 * kB/s, MB/s or GB/s. */
#define COLUMN_THROUGHPUT 16u

enum column_unit { COLUMN_UNIT_KB, COLUMN_UNIT_MB, COLUMN_UNIT_GB, COLUMN_UNITS };
extern const char *const column_unit_names[COLUMN_UNITS]; /* "kB", "MB", "GB" */

extern const struct column columns[COLUMN_COUNT];

double column_value(const struct column *c, const struct disk_metrics *m);
/* Whether the kernel counted c's figure for m: an older kernel's shorter
 * line has no discard or flush fields, and 0 there is no count ("n/a", JSON
 * null). A device without a line length (made up in tests) counts all. */
bool column_counted(const struct column *c, const struct disk_metrics *m);
/* Sort order on a column: <0, 0, >0 like strcmp; names break ties. */
/* Names in natural order: digit runs compare as numbers (loop2 < loop10),
 * and a disk's partitions follow it (sda < sda1 < sda2 < sdb). */
int column_natural_cmp(const char *a, const char *b);
int column_compare(const struct column *c, const struct disk_metrics *a, const struct disk_metrics *b);
/* Text of a cell, right-aligned for numbers, exactly c->width wide; its length. */
size_t column_cell(const struct column *c, const struct disk_metrics *m, char *out, size_t len);
/* The DEVICE cell (names_label) left-aligned in exactly width characters;
 * its length. */
size_t column_name_cell(const struct disk_metrics *m, int width, char *out, size_t len);
/* Width for the DEVICE column that fits the longest name among rows: at
 * least the column's own width, at most max. */
int column_name_width(const struct disk_metrics *m, const size_t *rows, size_t n, int max);
/* "on sda2,sdb1" / "in dm-0" / "-" (untruncated). */
void column_stack_text(const struct disk_metrics *m, char *out, size_t len);
/* Header and cell of a column with throughput in unit u (other columns:
 * the header and column_cell). */
void column_header_unit(const struct column *c, enum column_unit u, char *out, size_t len);
void column_cell_unit(const struct column *c, const struct disk_metrics *m, enum column_unit u, char *out,
		      size_t len);
/* Look a column up by header or JSON key; -1 if unknown. */
int column_find(const char *name);


/* Batch output order: iostat -x's (sysstat 12.6), then blktune's own. */
extern const enum column_id columns_batch_order[];
extern const size_t columns_batch_count;

#endif
