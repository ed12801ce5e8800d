#include "columns.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "format.h"

#define NUM(field) COL_NUM, offsetof(struct disk_metrics, field)

const struct column columns[COLUMN_COUNT] = {
	[COLUMN_DEVICE] = { "DEVICE", "disk_device", COL_NAME, 0, 10, 0, 0, true,
			    "device name as in /proc/diskstats" },
	[COLUMN_R_S] = { "r/s", "r/s", NUM(r_s), 7, 1, +1, true, "reads completed / interval" },
	[COLUMN_W_S] = { "w/s", "w/s", NUM(w_s), 7, 1, +1, true, "writes completed / interval" },
	[COLUMN_RMB_S] = { "rMB/s", "rMB/s", NUM(rmb_s), 7, 2, +1, true,
			   "sectors read x 512 / 2^20 / interval" },
	[COLUMN_WMB_S] = { "wMB/s", "wMB/s", NUM(wmb_s), 7, 2, +1, true,
			   "sectors written x 512 / 2^20 / interval" },
	[COLUMN_RAREQ_SZ] = { "rareq-sz", "rareq-sz", NUM(rareq_sz), 8, 1, 0, true,
			      "sectors read / reads / 2 (KiB per read request)", 0, COLUMN_R_S },
	[COLUMN_WAREQ_SZ] = { "wareq-sz", "wareq-sz", NUM(wareq_sz), 8, 1, 0, true,
			      "sectors written / writes / 2 (KiB per write request)", 0, COLUMN_W_S },
	[COLUMN_R_AWAIT] = { "r_await", "r_await", NUM(r_await), 7, 2, -1, true,
			     "read ticks (ms) / reads: queue + service time", 0, COLUMN_R_S },
	[COLUMN_W_AWAIT] = { "w_await", "w_await", NUM(w_await), 7, 2, -1, true,
			     "write ticks (ms) / writes", 0, COLUMN_W_S },
	[COLUMN_AQU_SZ] = { "aqu-sz", "aqu-sz", NUM(aqu_sz), 6, 2, 0, true,
			    "weighted time in queue (ms) / interval (ms): average queue depth" },
	[COLUMN_UTIL] = { "%util", "util", NUM(util), 6, 1, 0, true,
			  "io_ticks (ms) / interval (ms) x 100: time with I/O in flight" },
	[COLUMN_IN_FLIGHT] = { "inflt", "in_flight", NUM(in_flight), 5, 0, 0, true,
			       "requests in flight at the sample (field 9)" , COLUMN_GAUGE },
	[COLUMN_RRQM_PCT] = { "%rrqm", "rrqm", NUM(rrqm_pct), 6, 1, 0, true,
			      "read merges / (read merges + reads) x 100", 0, COLUMN_R_S },
	[COLUMN_WRQM_PCT] = { "%wrqm", "wrqm", NUM(wrqm_pct), 6, 1, 0, true,
			      "write merges / (write merges + writes) x 100", 0, COLUMN_W_S },
	[COLUMN_T_AVG] = { "t_avg_us", "lat_avg_us", NUM(t_lat_avg_us), 8, 0, -1, true,
			   "traced: mean request allocation-to-completion time, microseconds", COLUMN_TRACED },
	[COLUMN_T_P99] = { "t_p99_us", "lat_p99_us", NUM(t_lat_p99_us), 8, 0, -1, true,
			   "traced: 99th percentile of that latency (log2-bucket resolution)", COLUMN_TRACED },
	[COLUMN_T_SAME] = { "t_%same", "same_cpu_pct", NUM(t_same_cpu_pct), 7, 1, 0, true,
			    "traced: % of completions on the CPU that submitted the request", COLUMN_TRACED },
	[COLUMN_RA_HIT] = { "ra_hit%", "hit_pct", NUM(ra_hit_pct), 7, 1, +1, true,
			    "readahead mode: readahead pages first read before eviction / readahead pages "
			    "decided in the interval x 100", COLUMN_RAMODE },
	[COLUMN_RA_KB] = { "ra_kb", "read_ahead_kb", NUM(read_ahead_kb), 6, 0, 0, true,
			   "queue/read_ahead_kb now" , COLUMN_GAUGE },
	[COLUMN_MAXSECT_KB] = { "maxs_kb", "max_sectors_kb", NUM(max_sectors_kb), 7, 0, 0, true,
				"queue/max_sectors_kb now (largest request)" , COLUMN_GAUGE },
	[COLUMN_SCHED] = { "sched", "scheduler", COL_SCHED, 0, 11, 0, 0, true,
			   "active I/O scheduler (queue/scheduler)" },
	[COLUMN_STACK] = { "stack", "stack", COL_STACK, 0, 16, 0, 0, true,
			   "on X: the devices a dm/md device stacks on (slaves/); in X: what holds it (holders/)" },
	[COLUMN_D_S] = { "d/s", "d/s", NUM(d_s), 7, 1, +1, false, "discards completed / interval" },
	[COLUMN_F_S] = { "f/s", "f/s", NUM(f_s), 7, 1, 0, false, "flush requests completed / interval" },
	[COLUMN_RKB_S] = { "rkB/s", "rkB/s", NUM(rkb_s), 9, 1, +1, false, "sectors read / 2 / interval" },
	[COLUMN_WKB_S] = { "wkB/s", "wkB/s", NUM(wkb_s), 9, 1, +1, false, "sectors written / 2 / interval" },
	[COLUMN_DKB_S] = { "dkB/s", "dkB/s", NUM(dkb_s), 9, 1, +1, false, "sectors discarded / 2 / interval" },
	[COLUMN_RRQM_S] = { "rrqm/s", "rrqm/s", NUM(rrqm_s), 7, 1, 0, false, "read merges / interval" },
	[COLUMN_WRQM_S] = { "wrqm/s", "wrqm/s", NUM(wrqm_s), 7, 1, 0, false, "write merges / interval" },
	[COLUMN_DRQM_S] = { "drqm/s", "drqm/s", NUM(drqm_s), 7, 1, 0, false, "discard merges / interval" },
	[COLUMN_DRQM_PCT] = { "%drqm", "drqm", NUM(drqm_pct), 6, 1, 0, false,
			      "discard merges / (discard merges + discards) x 100", 0, COLUMN_D_S },
	[COLUMN_D_AWAIT] = { "d_await", "d_await", NUM(d_await), 7, 2, -1, false,
			     "discard ticks (ms) / discards", 0, COLUMN_D_S },
	[COLUMN_F_AWAIT] = { "f_await", "f_await", NUM(f_await), 7, 2, -1, false,
			     "flush ticks (ms) / flushes", 0, COLUMN_F_S },
	[COLUMN_DAREQ_SZ] = { "dareq-sz", "dareq-sz", NUM(dareq_sz), 8, 1, 0, false,
			      "sectors discarded / discards / 2 (KiB)", 0, COLUMN_D_S },
};

double column_value(const struct column *c, const struct disk_metrics *m)
{
	if (c->type != COL_NUM)
		return 0;
	return *(const double *)((const char *)m + c->offset);
}

int column_compare(const struct column *c, const struct disk_metrics *a, const struct disk_metrics *b)
{
	int r = 0;

	if (c->type == COL_NUM) {
		double x = column_value(c, a), y = column_value(c, b);
		r = (x > y) - (x < y);
	} else if (c->type == COL_SCHED) {
		r = strcmp(a->info.scheduler, b->info.scheduler);
	} else if (c->type == COL_STACK) {
		r = strcmp(a->info.slaves, b->info.slaves);
	}
	return r ? r : strcmp(a->name, b->name);
}

void column_stack_text(const struct disk_metrics *m, char *out, size_t len)
{
	if (m->info.slaves[0])
		snprintf(out, len, "on %s", m->info.slaves);
	else if (m->info.holders[0])
		snprintf(out, len, "in %s", m->info.holders);
	else
		snprintf(out, len, "-");
}

void column_cell(const struct column *c, const struct disk_metrics *m, char *out, size_t len)
{
	double v;

	switch (c->type) {
	case COL_NAME:
		snprintf(out, len, "%-*.*s", c->width, c->width, m->name);
		return;
	case COL_SCHED:
		snprintf(out, len, "%-*.*s", c->width, c->width, m->info.has_queue ? m->info.scheduler : "-");
		return;
	case COL_STACK:
		{
			char t[200];
			column_stack_text(m, t, sizeof(t));
			snprintf(out, len, "%-*.*s", c->width, c->width, t);
		}
		return;
	case COL_NUM:
		break;
	}
	v = column_value(c, m);
	if ((c->flags & COLUMN_RAMODE) && !m->ra_metrics) {
		snprintf(out, len, "%*s", c->width, "-");
		return;
	}
	if ((c->flags & COLUMN_TRACED) && !m->traced) {
		snprintf(out, len, "%*s", c->width, "n/a");
		return;
	}
	if (c->flags & COLUMN_GAUGE) {
		if (v < 0) {
			snprintf(out, len, "%*s", c->width, "-");
			return;
		}
	} else if (m->state != DISK_OK) {
		snprintf(out, len, "%*s", c->width, m->state == DISK_RESTARTED ? "reset" : "-");
		return;
	}
	format_num(v, c->width, c->prec, out, len);
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
	COLUMN_IN_FLIGHT, COLUMN_T_AVG, COLUMN_T_P99, COLUMN_T_SAME, COLUMN_RA_HIT,
	COLUMN_RA_KB, COLUMN_MAXSECT_KB, COLUMN_SCHED,
};
const size_t columns_batch_count = sizeof(columns_batch_order) / sizeof(columns_batch_order[0]);
