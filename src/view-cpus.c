#include <curses.h>
#include <math.h>

#include "format.h"
#include "view.h"

static void cell(double v, int width, int prec)
{
	char b[32];

	if (isnan(v))
		printw(" %*s", width, "n/a");
	else {
		format_num(v, width, prec, b, sizeof(b));
		printw(" %s", b);
	}
}

/* A row per CPU (paged with j/k for machines with hundreds): the selected
 * device's traced issues and completions, all devices', the device's
 * interrupts, BLOCK softirqs and the CPU's irq/softirq/iowait time. */
void view_cpus_draw(struct ui *u, int y, int height, int width)
{
	const struct cpus_metrics *c = &u->app->cpus;
	const struct disk_metrics *m = ui_selected(u);
	int rows, note_h;

	attrset(view_attr(u, VC_TITLE));
	mvprintw(y, 0, "CPUs for %s", m ? m->name : "-");
	attrset(A_NORMAL);
	if (c->valid && c->nirq)
		printw("   IRQs %s (* = in their effective affinity)", c->irqs);
	else if (c->valid)
		printw("   no IRQ of its own (loop, dm, md, zram complete in software)");
	/* what the figures are, wrapped (at 80 columns it takes three lines) */
	note_h = view_wrap(y + 1, width, 4,
			   "per second; traced counts are requests, interrupts are not (one IRQ completes many at "
			   "depth > 1); BLOCK softirqs are every device's");
	y += note_h - 1;
	height -= note_h - 1;
	rows = height - 3;
	attrset(view_attr(u, VC_HEADER));
	mvhline(y + 2, 0, ' ', width);
	mvprintw(y + 2, 0, "%-6s %9s %9s %9s %9s %8s %9s %6s %6s %6s", "CPU", "dev_iss", "dev_cmp", "all_iss",
		 "all_cmp", "dev_irq", "blk_sirq", "%irq", "%sirq", "%iowt");
	attrset(A_NORMAL);
	if (!c->valid) {
		mvprintw(y + 3, 0, "collecting: per-CPU figures appear after one interval");
		return;
	}
	if (u->cpu_top > (int)c->ncpu - rows)
		u->cpu_top = (int)c->ncpu - rows > 0 ? (int)c->ncpu - rows : 0;
	for (int r = 0; r < rows && u->cpu_top + r < (int)c->ncpu; r++) {
		unsigned cpu = (unsigned)(u->cpu_top + r);
		const struct cpu_row *w = &c->row[cpu];

		move(y + 3 + r, 0);
		printw("%-4u %c", cpu, w->in_affinity ? '*' : ' ');
		cell(w->dev_issued_s, 9, 0);
		cell(w->dev_completed_s, 9, 0);
		cell(w->all_issued_s, 9, 0);
		cell(w->all_completed_s, 9, 0);
		cell(w->dev_irq_s, 8, 0);
		cell(w->block_softirq_s, 9, 0);
		cell(w->irq_pct, 6, 1);
		cell(w->softirq_pct, 6, 1);
		cell(w->iowait_pct, 6, 1);
	}
	if ((int)c->ncpu > rows)
		mvprintw(y + height - 1, width - 30, "CPUs %d-%d of %u (j/k)", u->cpu_top,
			 u->cpu_top + rows - 1 < (int)c->ncpu ? u->cpu_top + rows - 1 : (int)c->ncpu - 1, c->ncpu);
}
