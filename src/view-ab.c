#include "view-ab.h"

#include <curses.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "format.h"
#include "snapshot-output.h"
#include "view.h"

/* Lines are laid out on a virtual page; only those inside the band after
 * scrolling are drawn, so counting lines is the same code with draw off. */
struct page {
	const struct ab_view_state *st;
	int y, height, width, line;
	bool draw;
};

static void put(struct page *p, enum view_color c, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void put(struct page *p, enum view_color c, const char *fmt, ...)
{
	int row = p->line++ - p->st->top;
	char buf[512];
	va_list ap;

	if (!p->draw || row < 0 || row >= p->height)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	attrset(view_attr(p->st->ui, c));
	mvprintw(p->y + row, 0, "%-*.*s", p->width, p->width, buf);
	attrset(A_NORMAL);
}

static enum view_color metric_color(const struct compare_metric *m)
{
	if (m->judged == CMP_BETTER)
		return VC_GOOD;
	if (m->judged == CMP_WORSE)
		return VC_BAD;
	return m->verdict == CMP_HIGHER || m->verdict == CMP_LOWER ? VC_NORMAL : VC_DIM;
}

static const struct compare_dev *selected(const struct ab_view_state *st)
{
	const struct compare_dev *cd = st->dev ? compare_find(&st->ab->cmp, st->dev) : NULL;

	return cd ? cd : st->ab->cmp.ndev ? &st->ab->cmp.dev[0] : NULL;
}

static void metrics(struct page *p, const struct compare_dev *cd)
{
	char na[COLUMN_COUNT * 12];

	put(p, VC_HEADER, "%-10s %10s %10s %9s  %s", "metric", "A mean", "B mean", "change", "verdict (Welch 95%)");
	for (size_t i = 0; i < cd->nm; i++) {
		const struct compare_metric *m = &cd->m[i];
		const struct column *c = &columns[m->col];
		char a[16], b[16], ch[COMPARE_CHANGE_MAX], v[32];

		if (!m->active)
			continue;
		compare_mean_text(m, false, 10, a, sizeof(a));
		compare_mean_text(m, true, 10, b, sizeof(b));
		compare_change_text(m->change_pct, ch, sizeof(ch));
		compare_metric_text(m, v, sizeof(v));
		put(p, metric_color(m), "%-10s %s %s %*s  %s", c->header, a, b, COMPARE_CHANGE_WIDTH, ch, v);
	}
	if (compare_uncounted(cd, na, sizeof(na)))
		put(p, VC_DIM, "n/a, not counted by the kernel: %s", na);
}

static double vsum(const struct snapshot_vec *v)
{
	double s = 0;

	for (size_t i = 0; v && i < v->n; i++)
		s += v->v[i];
	return s;
}

static void bar(char *out, size_t len, double share, int w)
{
	int n = (int)lround(share * w);

	if (w < 1 || n < 0)
		n = 0;
	if ((size_t)n >= len)
		n = (int)len - 1;
	memset(out, '#', (size_t)n);
	out[n] = '\0';
}

/* A histogram as two bar columns, shares of each side's total. */
static void histogram(struct page *p, const struct compare_dev *cd, enum snapshot_vec_id id)
{
	const struct snapshot_vec_def *def = &snapshot_vecs[id];
	const struct snapshot_vec *va = cd->a ? snapshot_dev_vec(cd->a, id) : NULL;
	const struct snapshot_vec *vb = cd->b ? snapshot_dev_vec(cd->b, id) : NULL;
	double sa = vsum(va), sb = vsum(vb);
	int bw = (p->width - 28) / 2;

	if ((!va && !vb) || def->kind != SNAP_VEC_HIST)
		return;
	put(p, VC_TITLE, "%s (%s): A | B", def->title, snapshot_unit_text(def, p->st->ui->utf8));
	for (size_t i = 0; i < def->len; i++) {
		double x = va && i < va->n ? va->v[i] : 0, y = vb && i < vb->n ? vb->v[i] : 0;
		char label[24], ba[256], bb[256];

		if (x == 0 && y == 0)
			continue;
		snapshot_bucket_label(def, (unsigned)i, p->st->ui->utf8, label, sizeof(label));
		bar(ba, sizeof(ba), sa > 0 ? x / sa : 0, bw);
		bar(bb, sizeof(bb), sb > 0 ? y / sb : 0, bw);
		put(p, VC_NORMAL, "%-*s %5.1f%% %-*s %5.1f%% %s", format_pad(label, 8), label, sa > 0 ? x / sa * 100 : 0, bw, ba,
		    sb > 0 ? y / sb * 100 : 0, bb);
	}
}

static void layout(struct page *p)
{
	const struct ab *ab = p->st->ab;
	const struct compare_dev *cd;

	if (!ab->have_cmp) {
		put(p, VC_HEADER, "A/B comparison");
		put(p, VC_NORMAL, "A: %s   B: %s", ab->have[AB_A] ? "taken" : "not taken",
		    ab->have[AB_B] ? "taken" : "not taken");
		put(p, VC_DIM, "Take A, change a tunable, let the load run, take B: the comparison appears here.");
		return;
	}
	if (!(cd = selected(p->st))) {
		put(p, VC_HEADER, "A/B comparison: no device in either snapshot");
		return;
	}
	put(p, VC_HEADER, "A/B %s   A: %zu busy intervals (%.0f s)   B: %zu busy intervals (%.0f s)   %zu device%s compared",
	    cd->name, cd->a ? cd->a->n : 0, cd->a ? cd->a->end - cd->a->start : 0, cd->b ? cd->b->n : 0,
	    cd->b ? cd->b->end - cd->b->start : 0, ab->cmp.ndev, ab->cmp.ndev == 1 ? "" : "s");
	put(p, VC_DIM, "idle intervals left out: A %zu, B %zu (partial: A %zu, B %zu)   better/worse judged on %s (p: next) and latency",
	    cd->a ? cd->a->idle : 0, cd->b ? cd->b->idle : 0, cd->a ? cd->a->partial : 0, cd->b ? cd->b->partial : 0,
	    compare_primaries[ab->cmp.primary].name);
	if (ab->cmp.warning[0])
		put(p, VC_BAD, "WARNING: %s", ab->cmp.warning);
	if (!cd->a || !cd->b)
		put(p, VC_BAD, "%s is only in %s", cd->name, cd->a ? "A" : "B");
	if (cd->headline) {
		char line[160];
		compare_headline(cd, ab->cmp.primary, line, sizeof(line));
		put(p, metric_color(cd->headline), "%s", line);
	}
	if (cd->ndiffer)
		put(p, VC_TITLE, "tunables that differ");
	else if (cd->ntun)
		put(p, VC_DIM, "no tunable differs (%zu compared)", cd->ntun);
	for (size_t i = 0; i < cd->ndiffer; i++)
		put(p, VC_NORMAL, "  %-28s %s -> %s", cd->tun[i].name, cd->tun[i].a ? cd->tun[i].a : "(absent)",
		    cd->tun[i].b ? cd->tun[i].b : "(absent)");
	metrics(p, cd);
	for (int id = 0; id < SNAP_VEC_COUNT; id++)
		histogram(p, cd, (enum snapshot_vec_id)id);
}

void view_ab_draw(const struct ab_view_state *st, int y, int height, int width)
{
	struct page p = { st, y, height, width, 0, true };

	for (int r = 0; r < height; r++)
		mvhline(y + r, 0, ' ', width);
	layout(&p);
}

int view_ab_lines(const struct ab_view_state *st)
{
	struct page p = { st, 0, 0, 80, 0, false };

	layout(&p);
	return p.line;
}
