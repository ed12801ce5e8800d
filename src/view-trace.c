#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "format.h"
#include "view.h"

/* The traced pages of the detail pane: request sizes and latency side by
 * side, and the per-CPU view of one device. Drawing only: every figure comes
 * from the trace_metrics the model computed. */

static const struct trace_metrics *traced(const struct ui *u, const struct disk_metrics **mp)
{
	const struct disk_metrics *m = ui_selected(u);

	*mp = m;
	if (!m || !m->t_metrics)
		return NULL;
	return &u->app->tm[m - u->app->m];
}

/* Why there is nothing to show, in one line. */
static void no_trace(struct ui *u, const struct disk_metrics *m, int y)
{
	const char *why;

	if (!sampler_tracing(u->app->sampler, &why))
		mvprintw(y, 0, "tracing %s", why);
	else if (m && m->info->kind == DISK_KIND_PARTITION)
		mvprintw(y, 0, "partitions are traced as their disk: select %s", m->info->text->parent);
	else
		mvprintw(y, 0, "no traced I/O on this device in the last interval");
}

/* Under a "<=" heading the bound alone; the open last bucket keeps its ">". */
static const char *le_only(const char *lab)
{
	return strncmp(lab, "<=", 2) ? lab : lab + 2;
}

static void bar(int n, int width)
{
	for (int i = 0; i < n && i < width; i++)
		addch('#');
}

/* First and last non-empty bucket over several histograms. */
static void span(const uint64_t *const *h, int nh, int nb, int *lo, int *hi)
{
	*lo = nb;
	*hi = -1;
	for (int k = 0; k < nh; k++)
		for (int i = 0; i < nb; i++)
			if (h[k][i]) {
				if (i < *lo)
					*lo = i;
				if (i > *hi)
					*hi = i;
			}
}

void view_trace_sizes_draw(struct ui *u, int y, int height, int width)
{
	const struct disk_metrics *m;
	const struct trace_metrics *t = traced(u, &m);
	const uint64_t *sz[2], *lat[1];
	int lo, hi, llo, lhi, rows = height - 2, right = width / 2 + 2;
	uint64_t rtot = 0, wtot = 0, rb = 0, wb = 0, ltot = 0, lmax = 0, smax = 0;
	char lab[24];

	if (!t) {
		no_trace(u, m, y);
		return;
	}
	sz[0] = t->d.size_count[TRACE_OP_READ];
	sz[1] = t->d.size_count[TRACE_OP_WRITE];
	lat[0] = t->d.lat;
	span(sz, 2, TRACE_SIZE_BUCKETS, &lo, &hi);
	span(lat, 1, TRACE_LAT_BUCKETS, &llo, &lhi);
	for (int i = 0; i < TRACE_SIZE_BUCKETS; i++) {
		rtot += sz[0][i];
		wtot += sz[1][i];
		rb += t->d.size_bytes[TRACE_OP_READ][i];
		wb += t->d.size_bytes[TRACE_OP_WRITE][i];
		smax = sz[0][i] + sz[1][i] > smax ? sz[0][i] + sz[1][i] : smax;
	}
	for (int i = 0; i < TRACE_LAT_BUCKETS; i++) {
		ltot += t->d.lat[i];
		lmax = t->d.lat[i] > lmax ? t->d.lat[i] : lmax;
	}
	attrset(view_attr(u, VC_TITLE));
	mvprintw(y, 0, "request sizes (traced, this interval)");
	mvprintw(y, right, "latency, allocation to completion (log2 buckets)");
	attrset(A_NORMAL);
	mvprintw(y + 1, 0, "%-8s %8s %6s %8s %6s", "size", "reads", "%bytes", "writes", "%bytes");
	mvprintw(y + 1, right, "%-9s %8s %6s", "<=", "count", "%");
	/* Keep the widest part of each histogram if the pane is short. */
	if (hi - lo + 1 > rows)
		lo = hi - rows + 1;
	if (lhi - llo + 1 > rows)
		llo = lhi - rows + 1;
	for (int i = lo, r = 0; i <= hi && r < rows; i++, r++) {
		format_bucket(trace_size_bucket_le((unsigned)i), i ? trace_size_bucket_le((unsigned)i - 1) : 0, true,
			      u->utf8, lab, sizeof(lab));
		mvprintw(y + 2 + r, 0, "%-8s %8llu %5.1f%% %8llu %5.1f%% ", lab, (unsigned long long)sz[0][i],
			 rb ? 100.0 * (double)t->d.size_bytes[TRACE_OP_READ][i] / (double)rb : 0.0,
			 (unsigned long long)sz[1][i],
			 wb ? 100.0 * (double)t->d.size_bytes[TRACE_OP_WRITE][i] / (double)wb : 0.0);
		bar(smax ? (int)((sz[0][i] + sz[1][i]) * 12 / smax) : 0, right - 2 - getcurx(stdscr));
	}
	for (int i = llo, r = 0; i <= lhi && r < rows; i++, r++) {
		format_bucket(trace_lat_bucket_le_us((unsigned)i), i ? trace_lat_bucket_le_us((unsigned)i - 1) : 0,
			      false, u->utf8, lab, sizeof(lab));
		mvprintw(y + 2 + r, right, "%-*s %8llu %5.1f%% ", format_pad(le_only(lab), 9), le_only(lab),
			 (unsigned long long)t->d.lat[i], ltot ? 100.0 * (double)t->d.lat[i] / (double)ltot : 0.0);
		bar(lmax ? (int)(t->d.lat[i] * 16 / lmax) : 0, width - getcurx(stdscr) - 1);
	}
	if (rtot + wtot == 0 && ltot == 0)
		mvprintw(y + 2, 0, "no reads or writes traced in the last interval");
	if (height > 2 && isfinite(t->lat_p50_us))
		mvprintw(y + height - 1, right, "p50 %.0f  p90 %.0f  p99 %.0f  max %.0f %s (bucket resolution)",
			 t->lat_p50_us, t->lat_p90_us, t->lat_p99_us, t->lat_max_us, format_us(u->utf8));
	else if (height > 2 && t->d.no_start)
		mvprintw(y + height - 1, right, "%.*s", width - right > 0 ? width - right : 0,
			 "no latency: the kernel kept no start time (queue/iostats 0, no scheduler)");
}

static void cell_us(double v, bool known)
{
	if (!known)
		printw(" %6s", "n/a");
	else if (!isfinite(v))
		printw(" %6s", "-");
	else
		printw(" %6.0f", v);
}

/* Queue time (allocation/insert -> issue to the driver) against device time
 * (issue -> completion), per operation, btt's Q2D and D2C. */
void view_trace_split_draw(struct ui *u, int y, int height, int width)
{
	static const char *const names[TRACE_OPS + 1] = { "read", "write", "discard", "flush", "all" };
	const struct disk_metrics *m;
	const struct trace_metrics *t = traced(u, &m);
	const uint64_t *h[2];
	uint64_t qmax = 0, dmax = 0;
	int lo, hi, line, rows;
	char lab[24];

	if (!t) {
		no_trace(u, m, y);
		return;
	}
	attrset(view_attr(u, VC_TITLE));
	mvprintw(y, 0, "where the time goes (traced, this interval; %s at log2-bucket resolution)", format_us(u->utf8));
	attrset(A_NORMAL);
	mvprintw(y + 1, 0, "%-7s %8s %6s  |%7s %6s %6s %6s |%7s %6s %6s %6s | %s", "op", "requests", "alloc>", "queue",
		 "p50", "p90", "p99", "device", "p50", "p90", "p99", "no issue time");
	for (int op = 0; op <= TRACE_OPS && y + 2 + op < y + height; op++) {
		const struct trace_split *sp = &t->sp[op];
		uint64_t n = op < TRACE_OPS ? t->d.completed[op] : t->completed;
		uint64_t noi = 0;
		double avg = op < TRACE_OPS ? t->lat_avg_op_us[op] : t->lat_avg_us;

		for (int k = 0; k < TRACE_OPS; k++)
			noi += (op == TRACE_OPS || op == k) ? t->d.no_issue[k] : 0;
		mvprintw(y + 2 + op, 0, "%-7s %8llu", names[op], (unsigned long long)n);
		cell_us(n ? avg : NAN, true);
		printw("  |");
		cell_us(sp->q_avg_us, t->split);
		cell_us(sp->q_p50_us, t->split);
		cell_us(sp->q_p90_us, t->split);
		cell_us(sp->q_p99_us, t->split);
		printw(" |");
		cell_us(sp->d_avg_us, t->split);
		cell_us(sp->d_p50_us, t->split);
		cell_us(sp->d_p90_us, t->split);
		cell_us(sp->d_p99_us, t->split);
		if (t->split)
			printw(" | %llu", (unsigned long long)noi);
		else
			printw(" | n/a");
	}
	line = y + 3 + TRACE_OPS;
	if (!t->split) {
		mvprintw(line, 0, "bio-based device (zram, dm, md): no request queue, so no queue part; queue and "
				  "device time are n/a, alloc> is bio queue to completion");
		return;
	}
	mvprintw(line++, 0, "alloc>: mean allocation to completion (agrees with await); queue: allocation/insert "
			    "to issue to the driver; device: issue to completion");
	if (t->sp[TRACE_OPS].n == 0 && t->completed) {
		mvprintw(line, 0, "no request had an issue time: this queue keeps no blk-stat accounting "
				  "(io_start_time_ns), e.g. wbt off");
		return;
	}
	/* All ops: the two histograms side by side. */
	h[0] = t->qall;
	h[1] = t->dall;
	span(h, 2, TRACE_LAT_BUCKETS, &lo, &hi);
	rows = y + height - line - 1;
	if (rows < 1 || hi < 0)
		return;
	if (hi - lo + 1 > rows) {
		/* the window of `rows` buckets holding the most requests */
		uint64_t best = 0;
		int at = lo;

		for (int s0 = lo; s0 + rows - 1 <= hi; s0++) {
			uint64_t sum = 0;

			for (int i = s0; i < s0 + rows; i++)
				sum += t->qall[i] + t->dall[i];
			if (sum > best) {
				best = sum;
				at = s0;
			}
		}
		lo = at;
		hi = at + rows - 1;
	}
	for (int i = lo; i <= hi; i++) {
		qmax = t->qall[i] > qmax ? t->qall[i] : qmax;
		dmax = t->dall[i] > dmax ? t->dall[i] : dmax;
	}
	mvprintw(line++, 0, "%-9s %8s %-20s %8s", "<=", "queue", "", "device");
	for (int i = lo; i <= hi && line < y + height; i++, line++) {
		format_bucket(trace_lat_bucket_le_us((unsigned)i), i ? trace_lat_bucket_le_us((unsigned)i - 1) : 0,
			      false, u->utf8, lab, sizeof(lab));
		mvprintw(line, 0, "%-*s %8llu ", format_pad(le_only(lab), 9), le_only(lab), (unsigned long long)t->qall[i]);
		bar(qmax ? (int)(t->qall[i] * 20 / qmax) : 0, 20);
		mvprintw(line, 39, "%8llu ", (unsigned long long)t->dall[i]);
		bar(dmax ? (int)(t->dall[i] * 20 / dmax) : 0, width - getcurx(stdscr) - 1);
	}
}

void view_trace_cpus_draw(struct ui *u, int y, int height, int width)
{
	const struct disk_metrics *m;
	const struct trace_metrics *t = traced(u, &m);
	int line = y + 1;

	if (!t) {
		no_trace(u, m, y);
		return;
	}
	attrset(view_attr(u, VC_TITLE));
	mvprintw(y, 0, "completions by where they were submitted:");
	attrset(A_NORMAL);
	for (int c = 0; c < TRACE_CLASSES; c++) {
		if (isfinite(t->cls_share[c]))
			printw("  %s %.1f%%", trace_class_names[c], t->cls_share[c] * 100.0);
		else
			printw("  %s -", trace_class_names[c]);
	}
	if (isfinite(m->t_gap_pct) && m->t_gap_pct > 1.0) {
		attrset(view_attr(u, VC_BAD));
		mvprintw(line++, 0, "traced completions differ from /proc/diskstats by %.1f%%", m->t_gap_pct);
		attrset(A_NORMAL);
	}
	mvprintw(line++, 0, "%-5s %10s %10s", "CPU", "issued", "completed");
	if (t->nmat > 0 && t->nmat <= 16) {
		printw("   submitted on CPU ->");
		for (unsigned c = 0; c < t->nmat && getcurx(stdscr) < width - 9; c++)
			printw(" %8u", c);
	}
	for (unsigned c = 0; c < t->ncpu && line < y + height; c++) {
		const struct trace_cpu *tc = &t->cpu[c];
		if (t->ncpu > 16 && !tc->issued && !tc->completed)
			continue; /* many CPUs: only the busy ones */
		mvprintw(line, 0, "%-5u %10llu %10llu", c, (unsigned long long)tc->issued,
			 (unsigned long long)tc->completed);
		if (t->nmat > 0 && t->nmat <= 16 && c < t->nmat) {
			printw("   completed here:     ");
			for (unsigned s = 0; s < t->nmat && getcurx(stdscr) < width - 9; s++)
				printw(" %8llu", (unsigned long long)t->matrix[c * t->nmat + s]);
		}
		line++;
	}
}
