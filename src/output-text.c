#include "output.h"

#include <string.h>
#include <time.h>

#include "columns.h"
#include "format.h"

void output_timestamp(const struct timespec *ts, char *out, size_t len)
{
	format_time((double)ts->tv_sec, "%Y-%m-%dT%H:%M:%S%z", out, len);
}

void output_header(FILE *f, const struct output_report *r)
{
	char ts[40];

	output_timestamp(&r->cur->wall, ts, sizeof(ts));
	if (r->since_boot)
		fprintf(f, "%s  %s  averages since boot (uptime %.2f s)", ts, r->host->hostname, r->interval);
	else
		fprintf(f, "%s  %s  interval %.2f s", ts, r->host->hostname, r->interval);
	if (r->cpu->valid)
		fprintf(f, "  cpu: %.1f us %.1f ni %.1f sy %.1f wa %.1f hi %.1f si %.1f st %.1f id",
			r->cpu->user, r->cpu->nice, r->cpu->system, r->cpu->iowait, r->cpu->irq,
			r->cpu->softirq, r->cpu->steal, r->cpu->idle);
	fputc('\n', f);
}

int output_text(FILE *f, const struct output_report *r)
{
	char cell[OUTPUT_NAME_MAX + 8];
	int name_width = column_name_width(r->disks, r->rows, r->nrows, OUTPUT_NAME_MAX);

	if (r->human)
		return output_human(f, r);
	output_header(f, r);
	for (size_t k = 0; k < columns_batch_count; k++) {
		const struct column *c = &columns[columns_batch_order[k]];
		if ((c->flags & COLUMN_RAMODE) && !r->ra)
			continue;
		int w = c->type == COL_NUM ? c->width : -(columns_batch_order[k] == COLUMN_DEVICE ? name_width : c->width);
		fprintf(f, k ? " %*s" : "%*s", w, c->header);
	}
	fputc('\n', f);
	/* The columns shown, once, not per row. */
	enum column_id shown[COLUMN_COUNT];
	size_t nshown = 0;
	for (size_t k = 0; k < columns_batch_count; k++)
		if (!(columns[columns_batch_order[k]].flags & COLUMN_RAMODE) || r->ra)
			shown[nshown++] = columns_batch_order[k];
	for (size_t i = 0; i < r->nrows; i++) {
		const struct disk_metrics *m = &r->disks[r->rows[i]];
		char line[1024];
		size_t used = 0;
		/* One write per row: a thousand devices make 27000 cells. Each
		 * cell is formatted in place, cut where a cell buffer of
		 * sizeof(cell) would cut it. */
		for (size_t k = 0; k < nshown; k++) {
			size_t at = used + (k > 0), room = sizeof(line) - at, n;
			if (room > sizeof(cell))
				room = sizeof(cell);
			if (shown[k] == COLUMN_DEVICE)
				n = column_name_cell(m, name_width, line + at, room);
			else
				n = column_cell(&columns[shown[k]], m, line + at, room);
			if (used + n + 2 >= sizeof(line))
				break;
			if (k)
				line[used] = ' ';
			used = at + n;
		}
		line[used++] = '\n';
		fwrite(line, 1, used, f);
	}
	fputc('\n', f);
	return fflush(f) == 0 ? 0 : -1;
}
