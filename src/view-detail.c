#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "columns.h"
#include "format.h"
#include "view.h"

static const char *const kind_text[] = {
	[DISK_KIND_DISK] = "disk", [DISK_KIND_PARTITION] = "partition", [DISK_KIND_DM] = "device-mapper",
	[DISK_KIND_MD] = "md raid", [DISK_KIND_UNKNOWN] = "no queue",
};

/* Text laid out in words that never break: a line starts with an 8-column
 * label, and a word that does not fit the width goes to the next line,
 * under the label's end. Nothing is cut at 80 columns. */
struct flow {
	int y, x, width, end; /* end: the pane's last line + 1 */
};

static void flow_start(struct flow *f, const char *label)
{
	if (f->y < f->end)
		mvprintw(f->y, 0, "%-8s", label);
	f->x = 8;
}

static void flow_word(struct flow *f, const char *word)
{
	int n = (int)strlen(word);

	if (f->x > 9 && f->x + 1 + n > f->width) {
		f->y++;
		f->x = 8;
	}
	if (f->y < f->end)
		mvprintw(f->y, f->x, " %.*s", f->width - f->x - 1, word);
	f->x += 1 + n;
}

static void flow_end(struct flow *f)
{
	f->y++;
}

/* One label's "header value" pairs for a list of columns. */
static void figures(struct flow *f, const struct disk_metrics *m, const char *label, const enum column_id *ids, int n)
{
	char cell[64], word[96];

	flow_start(f, label);
	for (int i = 0; i < n; i++) {
		const struct column *c = &columns[ids[i]];
		column_cell(c, m, cell, sizeof(cell));
		snprintf(word, sizeof(word), "%s %s ", c->header, cell + strspn(cell, " "));
		flow_word(f, word);
	}
	flow_end(f);
}

static void ll(char *out, size_t len, long long v)
{
	if (v < 0)
		snprintf(out, len, "%s", v == SAMPLE_UNREADABLE ? "n/a" : "-");
	else
		snprintf(out, len, "%lld", v);
}

/* What the device is and what is on it: size, model and vendor (or a loop
 * device's backing file), rotational, mountpoints and filesystem. */
static void context(const struct disk_info *in, int y, int width)
{
	char size[16] = "-", line[512];
	const char *rot = in->rotational == SAMPLE_UNREADABLE ? "n/a" : in->rotational < 0 ? "-" :
			  in->rotational ? "yes" : "no";
	int n;

	if (in->size_sectors >= 0)
		format_kb((double)in->size_sectors / 2, size, sizeof(size));
	n = snprintf(line, sizeof(line), "device   size %s", size);
	if (in->text->model[0] || in->text->vendor[0])
		n += snprintf(line + n, sizeof(line) - (size_t)n, "  model %s%s%s%s", in->text->model[0] ? in->text->model : "-",
			      in->text->vendor[0] ? " (vendor " : "", in->text->vendor, in->text->vendor[0] ? ")" : "");
	if (in->text->backing[0])
		n += snprintf(line + n, sizeof(line) - (size_t)n, "  file %s", in->text->backing);
	snprintf(line + n, sizeof(line) - (size_t)n, "  rotational %s", rot);
	mvprintw(y, 0, "%.*s", width, line);
	if (in->mounts[0])
		snprintf(line, sizeof(line), "mounted  %s (%s)", in->mounts, in->fstype);
	else
		snprintf(line, sizeof(line), "mounted  -");
	mvprintw(y + 1, 0, "%.*s", width, line);
}

/* --trace-processes: the processes that submitted most requests to this
 * disk in the interval (writeback under the flusher thread). */
static void top_processes(struct ui *u, dev_t dev, int y, int width)
{
	const struct proc_metrics *pm = &u->app->pm;
	size_t idx[4], n = model_procs_top(pm, dev, idx, 4);

	mvprintw(y, 0, "%.*s", width, n ? "top processes" : "top processes  none submitted in the interval (traced)");
	for (size_t i = 0; i < n; i++) {
		const struct proc_row *r = &pm->row[idx[i]];
		char comm[PROC_COMM_MAX];
		double req = 0;

		for (size_t d = r->dfirst; d < r->dfirst + r->ndev; d++)
			if (pm->dev[d].dev == dev)
				for (int op = 0; op < PROC_OPS; op++)
					req += pm->dev[d].f.req_s[op];
		format_sanitize(r->comm, comm, sizeof(comm));
		printw("  %s[%d] %.0f req/s", comm, (int)r->pid, req);
	}
}

void view_detail_draw(struct ui *u, int y, int height, int width)
{
	static const enum column_id rd[] = { COLUMN_R_S, COLUMN_RKB_S, COLUMN_RRQM_S, COLUMN_RRQM_PCT, COLUMN_R_AWAIT, COLUMN_RAREQ_SZ };
	static const enum column_id wr[] = { COLUMN_W_S, COLUMN_WKB_S, COLUMN_WRQM_S, COLUMN_WRQM_PCT, COLUMN_W_AWAIT, COLUMN_WAREQ_SZ };
	static const enum column_id dc[] = { COLUMN_D_S, COLUMN_DKB_S, COLUMN_DRQM_S, COLUMN_DRQM_PCT, COLUMN_D_AWAIT, COLUMN_DAREQ_SZ };
	static const enum column_id fl[] = { COLUMN_F_S, COLUMN_F_AWAIT };
	static const enum column_id q[] = { COLUMN_AQU_SZ, COLUMN_UTIL, COLUMN_IN_FLIGHT };
	const struct disk_metrics *m = ui_selected(u);
	const struct disk_info *in;
	float mb[HISTORY_POINTS], io[HISTORY_POINTS];
	char b[6][32], stack[200], spark[HISTORY_POINTS * 4 + 1];
	int n, line = y;

	attrset(view_attr(u, VC_HEADER));
	mvhline(line, 0, ' ', width);
	if (!m) {
		mvprintw(line, 0, "detail: no device selected");
		attrset(A_NORMAL);
		return;
	}
	in = m->info;
	column_stack_text(m, stack, sizeof(stack));
	mvprintw(line++, 0, "%s  %s%s%s%s  %s", m->name, kind_text[in->kind], in->text->dm_name[0] ? " " : "", in->text->dm_name,
		 in->kind == DISK_KIND_PARTITION ? " of " : "", in->kind == DISK_KIND_PARTITION ? in->text->parent : stack);
	/* The kernel name heads the pane: the table may show another (-j). */
	if (in->persistent[0])
		printw("  (%s)", in->persistent);
	attrset(A_NORMAL);
	context(in, line, width);
	line += 2;
	ll(b[0], sizeof(b[0]), in->max_hw_sectors_kb);
	ll(b[1], sizeof(b[1]), in->logical_block_size);
	ll(b[2], sizeof(b[2]), in->physical_block_size);
	ll(b[3], sizeof(b[3]), in->nr_requests);
	ll(b[4], sizeof(b[4]), in->nr_hw_queues);
	{
		struct flow f = { .y = line, .width = width, .end = y + height };
		char w[6][96];

		snprintf(w[0], sizeof(w[0]), "max_hw_sectors_kb %s ", b[0]);
		snprintf(w[1], sizeof(w[1]), "logical %s ", b[1]);
		snprintf(w[2], sizeof(w[2]), "physical %s ", b[2]);
		snprintf(w[3], sizeof(w[3]), "hw queues %s ", b[4]);
		snprintf(w[4], sizeof(w[4]), "nr_requests %s", b[3]);
		flow_start(&f, "limits");
		for (int i = 0; i < 5; i++)
			flow_word(&f, w[i]);
		flow_end(&f);
		ll(b[0], sizeof(b[0]), in->read_ahead_kb);
		ll(b[1], sizeof(b[1]), in->max_sectors_kb);
		snprintf(w[0], sizeof(w[0]), "read_ahead_kb %s ", b[0]);
		snprintf(w[1], sizeof(w[1]), "max_sectors_kb %s ", b[1]);
		snprintf(w[2], sizeof(w[2]), "scheduler %s", in->has_queue ? in->scheduler : "-");
		flow_start(&f, "tunables");
		for (int i = 0; i < 3; i++)
			flow_word(&f, w[i]);
		if (in->kind == DISK_KIND_DM || in->kind == DISK_KIND_MD) {
			snprintf(w[3], sizeof(w[3]), "(read_ahead_kb here governs files on %s;", m->name);
			flow_word(&f, w[3]);
			flow_word(&f, "max_sectors_kb matters below)");
		}
		flow_end(&f);
		figures(&f, m, "read", rd, 6);
		figures(&f, m, "write", wr, 6);
		figures(&f, m, "discard", dc, 6);
		figures(&f, m, "flush", fl, 2);
		figures(&f, m, "queue", q, 3);
		line = f.y;
	}
	if (m->state == DISK_RESTARTED && line < y + height)
		mvprintw(line++, 0, "counters went backwards this interval: device reset or re-created");
	if (u->app->pm.valid && u->app->pm.traced)
		top_processes(u, m->dev, line++, width);
	n = history_get(u->app->hist, m->dev, m->name, mb, io);
	if (line < y + height && n > 0) {
		float max = 0;
		for (int i = 0; i < n; i++)
			max = mb[i] > max ? mb[i] : max;
		format_sparkline(mb, n, width - 24, !u->utf8, spark, sizeof(spark));
		mvprintw(line++, 0, "MB/s     %s  max %.1f", spark, max);
	}
	if (line < y + height && n > 0) {
		float max = 0;
		for (int i = 0; i < n; i++)
			max = io[i] > max ? io[i] : max;
		format_sparkline(io, n, width - 24, !u->utf8, spark, sizeof(spark));
		mvprintw(line++, 0, "IOPS     %s  max %.0f", spark, max);
	}
	if (line < y + height)
		mvprintw(line++, 0, "         (last %.0f s)", history_span(u->app->hist, m->dev, m->name));
}
