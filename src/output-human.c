/* output-human: batch text for people (-h), in iostat -x -h's layout. */
#include "output.h"

#include <math.h>
#include <stdio.h>

#include "columns.h"
#include "format.h"
#include "names.h"

/* How a figure is printed: plain with two decimals, a size in kB with a
 * k/M/G/T suffix, or a percentage with one decimal and a % sign. */
enum human_kind { H_PLAIN, H_KB, H_PCT };

struct human_col {
	enum column_id id;
	int width;
	enum human_kind kind;
};

#define GROUP_MAX 6

/* iostat -x -h's groups (sysstat 12.6): one per kind of request, then
 * flushes with the queue figures; blktune's traced latency last, only
 * while something is traced. */
static const struct human_col groups[][GROUP_MAX] = {
	{ { COLUMN_R_S, 8, H_PLAIN }, { COLUMN_RKB_S, 9, H_KB }, { COLUMN_RRQM_S, 8, H_PLAIN },
	  { COLUMN_RRQM_PCT, 6, H_PCT }, { COLUMN_R_AWAIT, 7, H_PLAIN }, { COLUMN_RAREQ_SZ, 8, H_KB } },
	{ { COLUMN_W_S, 8, H_PLAIN }, { COLUMN_WKB_S, 9, H_KB }, { COLUMN_WRQM_S, 8, H_PLAIN },
	  { COLUMN_WRQM_PCT, 6, H_PCT }, { COLUMN_W_AWAIT, 7, H_PLAIN }, { COLUMN_WAREQ_SZ, 8, H_KB } },
	{ { COLUMN_D_S, 8, H_PLAIN }, { COLUMN_DKB_S, 9, H_KB }, { COLUMN_DRQM_S, 8, H_PLAIN },
	  { COLUMN_DRQM_PCT, 6, H_PCT }, { COLUMN_D_AWAIT, 7, H_PLAIN }, { COLUMN_DAREQ_SZ, 8, H_KB } },
	{ { COLUMN_F_S, 8, H_PLAIN }, { COLUMN_F_AWAIT, 7, H_PLAIN }, { COLUMN_AQU_SZ, 7, H_PLAIN },
	  { COLUMN_UTIL, 6, H_PCT }, { COLUMN_COUNT, 0, H_PLAIN } },
	{ { COLUMN_T_AVG, 8, H_PLAIN }, { COLUMN_T_P99, 8, H_PLAIN }, { COLUMN_T_SAME, 7, H_PCT },
	  { COLUMN_COUNT, 0, H_PLAIN } },
};
#define NGROUPS (sizeof(groups) / sizeof(groups[0]))
#define TRACED_GROUP (NGROUPS - 1)

void output_human_cell(double kb_or_value, int kind, int width, char *out, size_t len)
{
	static const char units[] = "kMGTPE";
	double v = kb_or_value;
	int u = 0;

	if (!isfinite(v)) {
		snprintf(out, len, "%*s", width, "-");
		return;
	}
	switch (kind) {
	case H_KB:
		while (fabs(v) >= 1024.0 && units[u + 1]) {
			v /= 1024.0;
			u++;
		}
		snprintf(out, len, "%*.1f%c", width - 1, v, units[u]);
		return;
	case H_PCT:
		snprintf(out, len, "%*.1f%%", width - 1, v);
		return;
	default:
		snprintf(out, len, "%*.2f", width, v);
	}
}

static void cell(const struct human_col *hc, const struct disk_metrics *m, char *out, size_t len)
{
	const struct column *c = &columns[hc->id];

	if (m->state != DISK_OK)
		snprintf(out, len, "%*s", hc->width, m->state == DISK_RESTARTED ? "reset" : "-");
	else if (((c->flags & COLUMN_TRACED) && !m->traced) || !column_counted(c, m))
		snprintf(out, len, "%*s", hc->width, "n/a");
	else
		output_human_cell(column_value(c, m), (int)hc->kind, hc->width, out, len);
}

int output_human(FILE *f, const struct output_report *r)
{
	bool traced = false;
	char buf[64];

	for (size_t i = 0; i < r->nrows; i++)
		traced = traced || r->disks[r->rows[i]].traced;
	output_header(f, r);
	for (size_t g = 0; g < NGROUPS; g++) {
		if (g == TRACED_GROUP && !traced)
			continue;
		for (int k = 0; k < GROUP_MAX && groups[g][k].width; k++)
			fprintf(f, k ? " %*s" : "%*s", groups[g][k].width, columns[groups[g][k].id].header);
		fputs(" Device\n", f);
		for (size_t i = 0; i < r->nrows; i++) {
			const struct disk_metrics *m = &r->disks[r->rows[i]];
			for (int k = 0; k < GROUP_MAX && groups[g][k].width; k++) {
				cell(&groups[g][k], m, buf, sizeof(buf));
				fprintf(f, k ? " %s" : "%s", buf);
			}
			fprintf(f, " %s\n", names_label(m));
		}
		fputc('\n', f);
	}
	return fflush(f) == 0 ? 0 : -1;
}
