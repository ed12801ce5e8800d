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
	for (size_t i = 0; i < r->nrows; i++) {
		const struct disk_metrics *m = &r->disks[r->rows[i]];
		char line[1024];
		size_t used = 0;
		/* One write per row: a thousand devices make 27000 cells. */
		for (size_t k = 0; k < columns_batch_count; k++) {
			const struct column *c = &columns[columns_batch_order[k]];
			size_t n;
			if ((c->flags & COLUMN_RAMODE) && !r->ra)
				continue;
			if (columns_batch_order[k] == COLUMN_DEVICE)
				column_name_cell(m, name_width, cell, sizeof(cell));
			else
				column_cell(c, m, cell, sizeof(cell));
			n = strlen(cell);
			if (used + n + 2 >= sizeof(line))
				break;
			if (k)
				line[used++] = ' ';
			memcpy(line + used, cell, n);
			used += n;
		}
		line[used++] = '\n';
		fwrite(line, 1, used, f);
	}
	fputc('\n', f);
	return fflush(f) == 0 ? 0 : -1;
}
