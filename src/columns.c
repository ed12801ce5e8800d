#include <ctype.h>
#include "columns.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "format.h"
#include "names.h"

const char *const column_unit_names[COLUMN_UNITS] = { "kB", "MB", "GB" };

const struct column columns[COLUMN_COUNT] = {
	[COLUMN_DEVICE] = {
		.header = "DEVICE",
		.json = "disk_device",
		.type = COL_NAME,
		.width = 10,
		.prec = 0,
		.table = true,
		.formula = "device name as in /proc/diskstats; a device-mapper device shows its mapper name "
			   "(dm/name, as iostat -N); with -j its /dev/disk/by-* name where it has one",
	},
	[COLUMN_R_S] = {
		.header = "r/s",
		.json = "r/s",
		.type = COL_NUM,
		.offset = offsetof(struct disk_metrics, r_s),
		.width = 7,
		.prec = 1,
		.good = +1,
		.table = true,
		.formula = "reads completed / interval",
	},
	[COLUMN_W_S] = {
		.header = "w/s",
		.json = "w/s",
		.type = COL_NUM,
		.offset = offsetof(struct disk_metrics, w_s),
		.width = 7,
		.prec = 1,
		.good = +1,
		.table = true,
		.formula = "writes completed / interval",
	},
	[COLUMN_RMB_S] = {
		.header = "rMB/s",
		.json = "rMB/s",
		.type = COL_NUM,
		.offset = offsetof(struct disk_metrics, rmb_s),
		.width = 7,
		.prec = 2,
		.good = +1,
		.table = true,
		.flags = COLUMN_THROUGHPUT,
		.formula = "sectors read x 512 / 2^20 / interval",
	},
	[COLUMN_WMB_S] = {
		.header = "wMB/s",
		.json = "wMB/s",
		.type = COL_NUM,
		.offset = offsetof(struct disk_metrics, wmb_s),
		.width = 7,
		.prec = 2,
		.good = +1,
		.table = true,
		.flags = COLUMN_THROUGHPUT,
		.formula = "sectors written x 512 / 2^20 / interval",
	},
	[COLUMN_RAREQ_SZ] = {
		.header = "rareq-sz",
		.json = "rareq-sz",
		.type = COL_NUM,
		.offset = offsetof(struct disk_metrics, rareq_sz),
		.width = 8,
		.prec = 1,
		.table = true,
		.formula = "sectors read / reads / 2 (KiB per read request)",
		.per = COLUMN_R_S,
	},
	[COLUMN_WAREQ_SZ] = {
		.header = "wareq-sz",
		.json = "wareq-sz",
		.type = COL_NUM,
		.offset = offsetof(struct disk_metrics, wareq_sz),
		.width = 8,
		.prec = 1,
		.table = true,
		.formula = "sectors written / writes / 2 (KiB per write request)",
		.per = COLUMN_W_S,
	},
	[COLUMN_R_AWAIT] = {
		.header = "r_await",
		.json = "r_await",
		.type = COL_NUM,
		.offset = offsetof(struct disk_metrics, r_await),
		.width = 7,
		.prec = 2,
		.good = -1,
		.table = true,
		.formula = "read ticks (ms) / reads: queue + service time",
		.per = COLUMN_R_S,
	},
	[COLUMN_W_AWAIT] = {
		.header = "w_await",
		.json = "w_await",
		.type = COL_NUM,
		.offset = offsetof(struct disk_metrics, w_await),
		.width = 7,
		.prec = 2,
		.good = -1,
		.table = true,
		.formula = "write ticks (ms) / writes",
		.per = COLUMN_W_S,
	},
	[COLUMN_AQU_SZ] = {
		.header = "aqu-sz",
		.json = "aqu-sz",
		.type = COL_NUM,
		.offset = offsetof(struct disk_metrics, aqu_sz),
		.width = 6,
		.prec = 2,
		.table = true,
		.formula = "weighted time in queue (ms) / interval (ms): average queue depth",
	},
	[COLUMN_UTIL] = {
		.header = "%util",
		.json = "util",
		.type = COL_NUM,
		.offset = offsetof(struct disk_metrics, util),
		.width = 6,
		.prec = 1,
		.table = true,
		.formula = "io_ticks (ms) / interval (ms) x 100: time with I/O in flight, at most 100 as iostat "
			   "prints it (io_ticks is counted in jiffies and read a moment apart from the clock, so a "
			   "busy interval can come out a little above the interval)",
	},
	[COLUMN_IN_FLIGHT] = {
		.header = "inflt",
		.json = "in_flight",
		.type = COL_NUM,
		.offset = offsetof(struct disk_metrics, in_flight),
		.width = 5,
		.prec = 0,
		.table = true,
		.formula = "requests in flight at the sample (field 9)",
		.flags = COLUMN_GAUGE,
	},
	[COLUMN_RRQM_PCT] = {
		.header = "%rrqm",
		.json = "rrqm",
		.type = COL_NUM,
		.offset = offsetof(struct disk_metrics, rrqm_pct),
		.width = 6,
		.prec = 1,
		.table = true,
		.formula = "read merges / (read merges + reads) x 100",
		.per = COLUMN_R_S,
	},
	[COLUMN_WRQM_PCT] = {
		.header = "%wrqm",
		.json = "wrqm",
		.type = COL_NUM,
		.offset = offsetof(struct disk_metrics, wrqm_pct),
		.width = 6,
		.prec = 1,
		.table = true,
		.formula = "write merges / (write merges + writes) x 100",
		.per = COLUMN_W_S,
	},
	[COLUMN_T_AVG] = {
		.header = "t_avg_us",
		.json = "lat_avg_us",
		.type = COL_NUM,
		.offset = offsetof(struct disk_metrics, t_lat_avg_us),
		.width = 8,
		.prec = 0,
		.good = -1,
		.table = true,
		.formula = "traced: mean request allocation-to-completion time, microseconds",
		.flags = COLUMN_TRACED,
	},
	[COLUMN_T_P99] = {
		.header = "t_p99_us",
		.json = "lat_p99_us",
		.type = COL_NUM,
		.offset = offsetof(struct disk_metrics, t_lat_p99_us),
		.width = 8,
		.prec = 0,
		.good = -1,
		.table = true,
		.formula = "traced: 99th percentile of that latency (log2-bucket resolution)",
		.flags = COLUMN_TRACED,
	},
	[COLUMN_T_QP99] = {
		.header = "q_p99_us",
		.json = "q_p99_us",
		.type = COL_NUM,
		.offset = offsetof(struct disk_metrics, t_q_p99_us),
		.width = 8,
		.prec = 0,
		.good = -1,
		.table = true,
		.formula = "traced: 99th percentile of queue time, request allocation/insert to issue to the "
			   "driver, all ops (btt Q2D; log2-bucket resolution; n/a on bio-based devices)",
		.flags = COLUMN_TRACED | COLUMN_SPLIT,
	},
	[COLUMN_T_DP99] = {
		.header = "d_p99_us",
		.json = "d_p99_us",
		.type = COL_NUM,
		.offset = offsetof(struct disk_metrics, t_d_p99_us),
		.width = 8,
		.prec = 0,
		.good = -1,
		.table = true,
		.formula = "traced: 99th percentile of device time, issue to the driver to completion, all ops "
			   "(btt D2C; log2-bucket resolution; n/a on bio-based devices)",
		.flags = COLUMN_TRACED | COLUMN_SPLIT,
	},
	[COLUMN_T_SAME] = {
		.header = "t_%same",
		.json = "same_cpu_pct",
		.type = COL_NUM,
		.offset = offsetof(struct disk_metrics, t_same_cpu_pct),
		.width = 7,
		.prec = 1,
		.table = true,
		.formula = "traced: % of completions on the CPU that submitted the request",
		.flags = COLUMN_TRACED,
	},
	[COLUMN_RA_HIT] = {
		.header = "ra_hit%",
		.json = "hit_pct",
		.type = COL_NUM,
		.offset = offsetof(struct disk_metrics, ra_hit_pct),
		.width = 7,
		.prec = 1,
		.good = +1,
		.table = true,
		.formula = "readahead mode: readahead pages whose first use was read() or a fault on that page / readahead pages " "decided in the interval x 100",
		.flags = COLUMN_RAMODE,
	},
	[COLUMN_RA_KB] = {
		.header = "ra_kb",
		.json = "read_ahead_kb",
		.type = COL_NUM,
		.offset = offsetof(struct disk_metrics, read_ahead_kb),
		.width = 6,
		.prec = 0,
		.table = true,
		.formula = "queue/read_ahead_kb now",
		.flags = COLUMN_GAUGE,
	},
	[COLUMN_MAXSECT_KB] = {
		.header = "maxs_kb",
		.json = "max_sectors_kb",
		.type = COL_NUM,
		.offset = offsetof(struct disk_metrics, max_sectors_kb),
		.width = 7,
		.prec = 0,
		.table = true,
		.formula = "queue/max_sectors_kb now (largest request)",
		.flags = COLUMN_GAUGE,
	},
	[COLUMN_SCHED] = {
		.header = "sched",
		.json = "scheduler",
		.type = COL_SCHED,
		.width = 11,
		.prec = 0,
		.table = true,
		.formula = "active I/O scheduler (queue/scheduler)",
	},
	[COLUMN_STACK] = {
		.header = "stack",
		.json = "stack",
		.type = COL_STACK,
		.width = 16,
		.prec = 0,
		.table = true,
		.formula = "on X: the devices a dm/md device stacks on (slaves/); in X: what holds it (holders/); "
			   "of X: the disk a partition is part of",
	},
	[COLUMN_D_S] = {
		.header = "d/s",
		.json = "d/s",
		.type = COL_NUM,
		.offset = offsetof(struct disk_metrics, d_s),
		.width = 7,
		.prec = 1,
		.good = +1,
		.table = false,
		.formula = "discards completed / interval",
		.min_fields = 18,
	},
	[COLUMN_F_S] = {
		.header = "f/s",
		.json = "f/s",
		.type = COL_NUM,
		.offset = offsetof(struct disk_metrics, f_s),
		.width = 7,
		.prec = 1,
		.table = false,
		.formula = "flush requests completed / interval",
		.min_fields = 20,
	},
	[COLUMN_RKB_S] = {
		.header = "rkB/s",
		.json = "rkB/s",
		.type = COL_NUM,
		.offset = offsetof(struct disk_metrics, rkb_s),
		.width = 9,
		.prec = 1,
		.good = +1,
		.table = false,
		.formula = "sectors read / 2 / interval",
	},
	[COLUMN_WKB_S] = {
		.header = "wkB/s",
		.json = "wkB/s",
		.type = COL_NUM,
		.offset = offsetof(struct disk_metrics, wkb_s),
		.width = 9,
		.prec = 1,
		.good = +1,
		.table = false,
		.formula = "sectors written / 2 / interval",
	},
	[COLUMN_DKB_S] = {
		.header = "dkB/s",
		.json = "dkB/s",
		.type = COL_NUM,
		.offset = offsetof(struct disk_metrics, dkb_s),
		.width = 9,
		.prec = 1,
		.good = +1,
		.table = false,
		.formula = "sectors discarded / 2 / interval",
		.min_fields = 18,
	},
	[COLUMN_RRQM_S] = {
		.header = "rrqm/s",
		.json = "rrqm/s",
		.type = COL_NUM,
		.offset = offsetof(struct disk_metrics, rrqm_s),
		.width = 7,
		.prec = 1,
		.table = false,
		.formula = "read merges / interval",
	},
	[COLUMN_WRQM_S] = {
		.header = "wrqm/s",
		.json = "wrqm/s",
		.type = COL_NUM,
		.offset = offsetof(struct disk_metrics, wrqm_s),
		.width = 7,
		.prec = 1,
		.table = false,
		.formula = "write merges / interval",
	},
	[COLUMN_DRQM_S] = {
		.header = "drqm/s",
		.json = "drqm/s",
		.type = COL_NUM,
		.offset = offsetof(struct disk_metrics, drqm_s),
		.width = 7,
		.prec = 1,
		.table = false,
		.formula = "discard merges / interval",
		.min_fields = 18,
	},
	[COLUMN_DRQM_PCT] = {
		.header = "%drqm",
		.json = "drqm",
		.type = COL_NUM,
		.offset = offsetof(struct disk_metrics, drqm_pct),
		.width = 6,
		.prec = 1,
		.table = false,
		.formula = "discard merges / (discard merges + discards) x 100",
		.per = COLUMN_D_S,
		.min_fields = 18,
	},
	[COLUMN_D_AWAIT] = {
		.header = "d_await",
		.json = "d_await",
		.type = COL_NUM,
		.offset = offsetof(struct disk_metrics, d_await),
		.width = 7,
		.prec = 2,
		.good = -1,
		.table = false,
		.formula = "discard ticks (ms) / discards",
		.per = COLUMN_D_S,
		.min_fields = 18,
	},
	[COLUMN_F_AWAIT] = {
		.header = "f_await",
		.json = "f_await",
		.type = COL_NUM,
		.offset = offsetof(struct disk_metrics, f_await),
		.width = 7,
		.prec = 2,
		.good = -1,
		.table = false,
		.formula = "flush ticks (ms) / flushes",
		.per = COLUMN_F_S,
		.min_fields = 20,
	},
	[COLUMN_DAREQ_SZ] = {
		.header = "dareq-sz",
		.json = "dareq-sz",
		.type = COL_NUM,
		.offset = offsetof(struct disk_metrics, dareq_sz),
		.width = 8,
		.prec = 1,
		.table = false,
		.formula = "sectors discarded / discards / 2 (KiB)",
		.per = COLUMN_D_S,
		.min_fields = 18,
	},
};

bool column_counted(const struct column *c, const struct disk_metrics *m)
{
	return !c->min_fields || !m->nfields || m->nfields >= c->min_fields;
}

double column_value(const struct column *c, const struct disk_metrics *m)
{
	double v;

	if (c->type != COL_NUM)
		return 0;
	/* memcpy: the offset is a double's, but the compiler cannot know it */
	memcpy(&v, (const char *)m + c->offset, sizeof(v));
	return v;
}

int column_natural_cmp(const char *a, const char *b)
{
	while (*a && *b) {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			const char *ea = a, *eb = b;
			size_t la, lb;
			int r;

			while (*a == '0' && isdigit((unsigned char)a[1]))
				a++;
			while (*b == '0' && isdigit((unsigned char)b[1]))
				b++;
			for (ea = a; isdigit((unsigned char)*ea); ea++)
				;
			for (eb = b; isdigit((unsigned char)*eb); eb++)
				;
			la = (size_t)(ea - a), lb = (size_t)(eb - b);
			if (la != lb)
				return la < lb ? -1 : 1;
			if ((r = strncmp(a, b, la)))
				return r < 0 ? -1 : 1;
			a = ea, b = eb;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		a++, b++;
	}
	return *a ? 1 : *b ? -1 : 0;
}

int column_compare(const struct column *c, const struct disk_metrics *a, const struct disk_metrics *b)
{
	int r = 0;

	if (c->type == COL_NUM) {
		double x = column_value(c, a), y = column_value(c, b);
		r = (x > y) - (x < y);
	} else if (c->type == COL_SCHED) {
		r = strcmp(a->info->scheduler, b->info->scheduler);
	} else if (c->type == COL_STACK) {
		char x[200], y[200];
		column_stack_text(a, x, sizeof(x));
		column_stack_text(b, y, sizeof(y));
		r = strcmp(x, y);
	} else if (c->type == COL_NAME) {
		r = column_natural_cmp(names_label(a), names_label(b));
	}
	return r;
}

void column_stack_text(const struct disk_metrics *m, char *out, size_t len)
{
	/* A partition is part of its disk, and may hold a dm device itself. */
	if (m->info->kind == DISK_KIND_PARTITION && m->info->text->parent[0])
		snprintf(out, len, "of %s%s%s", m->info->text->parent, m->info->text->holders[0] ? ", in " : "", m->info->text->holders);
	else if (m->info->text->slaves[0])
		snprintf(out, len, "on %s", m->info->text->slaves);
	else if (m->info->text->holders[0])
		snprintf(out, len, "in %s", m->info->text->holders);
	else
		snprintf(out, len, "-");
}

size_t column_name_cell(const struct disk_metrics *m, int width, char *out, size_t len)
{
	return format_left(out, len, width, names_label(m));
}

int column_name_width(const struct disk_metrics *m, const size_t *rows, size_t n, int max)
{
	int w = columns[COLUMN_DEVICE].width;

	for (size_t i = 0; i < n; i++) {
		int l = (int)strlen(names_label(&m[rows[i]]));
		if (l > w)
			w = l;
	}
	return w < max ? w : max;
}

/* A number cell: v in c's width with prec decimals, or why there is none. */
static inline __attribute__((always_inline)) size_t num_cell(const struct column *c, const struct disk_metrics *m,
							     double v, int prec, char *out, size_t len)
{
	/* most cells: a rate of a device counted as usual */
	if (!(c->flags & (COLUMN_RAMODE | COLUMN_TRACED | COLUMN_SPLIT | COLUMN_GAUGE)) && m->state == DISK_OK &&
	    !c->min_fields)
		return format_num(v, c->width, prec, out, len);
	if ((c->flags & COLUMN_RAMODE) && !m->ra_metrics)
		return format_right(out, len, c->width, "-");
	if ((c->flags & COLUMN_TRACED) && !m->traced)
		return format_right(out, len, c->width, "n/a");
	if ((c->flags & COLUMN_SPLIT) && m->t_metrics && !m->t_split)
		return format_right(out, len, c->width, "n/a");
	if (c->flags & COLUMN_GAUGE) {
		if (v < 0)
			return format_right(out, len, c->width, v == SAMPLE_UNREADABLE ? "n/a" : "-");
	} else if (m->state != DISK_OK) {
		return format_right(out, len, c->width, m->state == DISK_RESTARTED ? "reset" : "-");
	} else if (!column_counted(c, m)) {
		return format_right(out, len, c->width, "n/a");
	}
	return format_num(v, c->width, prec, out, len);
}

/* Out of line: its buffer would give every cell a frame. */
static __attribute__((noinline)) size_t stack_cell(const struct column *c, const struct disk_metrics *m, char *out,
						   size_t len)
{
	char t[200];

	column_stack_text(m, t, sizeof(t));
	return format_left(out, len, c->width, t);
}

size_t column_cell(const struct column *c, const struct disk_metrics *m, char *out, size_t len)
{
	switch (c->type) {
	case COL_NAME:
		return column_name_cell(m, c->width, out, len);
	case COL_SCHED:
		return format_left(out, len, c->width, m->info->has_queue ? m->info->scheduler : "-");
	case COL_STACK:
		return stack_cell(c, m, out, len);
	case COL_NUM:
		break;
	}
	return num_cell(c, m, column_value(c, m), c->prec, out, len);
}

/* MB/s columns: kB/s shows one decimal, GB/s three (what a row of small
 * rates needs to be told apart). */
static const double unit_scale[COLUMN_UNITS] = { 1024.0, 1.0, 1.0 / 1024.0 };
static const int unit_prec[COLUMN_UNITS] = { 1, 2, 3 };

void column_header_unit(const struct column *c, enum column_unit u, char *out, size_t len)
{
	const char *mb = strstr(c->header, "MB");

	if (!(c->flags & COLUMN_THROUGHPUT) || !mb || u >= COLUMN_UNITS)
		snprintf(out, len, "%s", c->header);
	else
		snprintf(out, len, "%.*s%s%s", (int)(mb - c->header), c->header, column_unit_names[u], mb + 2);
}

void column_cell_unit(const struct column *c, const struct disk_metrics *m, enum column_unit u, char *out,
		      size_t len)
{
	if (!(c->flags & COLUMN_THROUGHPUT) || c->type != COL_NUM || u >= COLUMN_UNITS)
		column_cell(c, m, out, len);
	else
		num_cell(c, m, column_value(c, m) * unit_scale[u], unit_prec[u], out, len);
}

int column_find(const char *name)
{
	for (int i = 0; i < COLUMN_COUNT; i++)
		if (!strcasecmp(columns[i].header, name) || !strcasecmp(columns[i].json, name))
			return i;
	return -1;
}

const enum column_id columns_batch_order[] = {
	COLUMN_DEVICE,
	COLUMN_R_S, COLUMN_RKB_S, COLUMN_RRQM_S, COLUMN_RRQM_PCT, COLUMN_R_AWAIT, COLUMN_RAREQ_SZ,
	COLUMN_W_S, COLUMN_WKB_S, COLUMN_WRQM_S, COLUMN_WRQM_PCT, COLUMN_W_AWAIT, COLUMN_WAREQ_SZ,
	COLUMN_D_S, COLUMN_DKB_S, COLUMN_DRQM_S, COLUMN_DRQM_PCT, COLUMN_D_AWAIT, COLUMN_DAREQ_SZ,
	COLUMN_F_S, COLUMN_F_AWAIT, COLUMN_AQU_SZ, COLUMN_UTIL,
	COLUMN_IN_FLIGHT, COLUMN_T_AVG, COLUMN_T_P99, COLUMN_T_QP99, COLUMN_T_DP99, COLUMN_T_SAME, COLUMN_RA_HIT,
	COLUMN_RA_KB, COLUMN_MAXSECT_KB, COLUMN_SCHED,
};
const size_t columns_batch_count = sizeof(columns_batch_order) / sizeof(columns_batch_order[0]);
