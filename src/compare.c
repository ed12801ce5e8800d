#include "compare.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"

const char *const compare_verdict_names[CMP_VERDICTS] = {
	[CMP_NA] = "n/a", [CMP_NOISE] = "within noise", [CMP_HIGHER] = "higher", [CMP_LOWER] = "lower",
	[CMP_SAME] = "same",
};

const char *const compare_judgement_names[CMP_WORSE + 1] = {
	[CMP_UNJUDGED] = NULL, [CMP_BETTER] = "better", [CMP_WORSE] = "worse",
};

const struct compare_primary_def compare_primaries[CMP_PRIMARIES] = {
	[CMP_PRIMARY_MBPS] = { "MB/s", { COLUMN_RMB_S, COLUMN_WMB_S, COLUMN_RKB_S, COLUMN_WKB_S, COLUMN_DKB_S }, 5, 2 },
	[CMP_PRIMARY_IOPS] = { "IOPS", { COLUMN_R_S, COLUMN_W_S, COLUMN_D_S }, 3, 3 },
	[CMP_PRIMARY_HIT] = { "RA hit%", { COLUMN_RA_HIT }, 1, 1 },
};

bool compare_judges(enum column_id col, enum compare_primary p)
{
	if (columns[col].good < 0) /* latency: lower is better whatever the primary */
		return true;
	for (size_t i = 0; p < CMP_PRIMARIES && i < compare_primaries[p].ncol; i++)
		if (compare_primaries[p].col[i] == col)
			return true;
	return false;
}

/* The per-direction columns of the primary figure (rMB/s, not rkB/s). */
static bool headline_col(enum column_id col, enum compare_primary p)
{
	for (size_t i = 0; i < compare_primaries[p].nheadline; i++)
		if (compare_primaries[p].col[i] == col)
			return true;
	return false;
}

static void judge(struct compare_metric *m, enum compare_primary p)
{
	double d = m->b.mean - m->a.mean;

	m->judged = CMP_UNJUDGED;
	if ((m->verdict != CMP_HIGHER && m->verdict != CMP_LOWER) || !columns[m->col].good ||
	    !compare_judges(m->col, p))
		return;
	m->judged = d * columns[m->col].good > 0 ? CMP_BETTER : CMP_WORSE;
}

void compare_change_text(double pct, char *out, size_t len)
{
	if (isnan(pct))
		snprintf(out, len, "-");
	else if (!(fabs(pct) < 999999.5)) /* "%+.0f%%" would be wider, or inf */
		snprintf(out, len, "%s", pct > 0 ? ">+999999%" : "<-999999%");
	else if (snprintf(out, len, "%+.1f%%", pct) > COMPARE_CHANGE_WIDTH)
		snprintf(out, len, "%+.0f%%", pct);
}

void compare_metric_text(const struct compare_metric *m, char *out, size_t len)
{
	if (m->judged != CMP_UNJUDGED)
		snprintf(out, len, "%s, %s", compare_verdict_names[m->verdict], compare_judgement_names[m->judged]);
	else
		snprintf(out, len, "%s", compare_verdict_names[m->verdict]);
}

void compare_mean_text(const struct compare_metric *m, bool b, int width, char *out, size_t len)
{
	bool na = b ? m->na_b : m->na_a;
	double v = b ? m->b.mean : m->a.mean;

	if (na || isnan(v))
		snprintf(out, len, "%*s", width, na ? "n/a" : "-");
	else
		format_num(v, width, columns[m->col].prec, out, len);
}

bool compare_metric_uncounted(const struct compare_metric *m)
{
	return !m->active && (m->na_a || m->na_b);
}

size_t compare_uncounted(const struct compare_dev *cd, char *out, size_t len)
{
	size_t n = 0, at = 0;

	if (len)
		out[0] = '\0';
	for (size_t i = 0; i < cd->nm; i++) {
		if (!compare_metric_uncounted(&cd->m[i]))
			continue;
		if (at < len)
			at += (size_t)snprintf(out + at, len - at, "%s%s", n ? " " : "", columns[cd->m[i].col].header);
		n++;
	}
	return n;
}

void compare_metric(enum column_id col, const struct stats_summary *a, const struct stats_summary *b,
		    struct compare_metric *out)
{
	memset(out, 0, sizeof(*out));
	out->col = col;
	out->a = *a;
	out->b = *b;
	out->active = (a->n && (a->min != 0 || a->max != 0)) || (b->n && (b->min != 0 || b->max != 0));
	out->change_pct = a->n && b->n && a->mean != 0 ? (b->mean - a->mean) / fabs(a->mean) * 100 : NAN;
	stats_welch(a, b, &out->w);
	/* A figure that did not move (0.0 against 0.0, 4.0 KiB requests on both
	 * sides) is the same, not "within noise": there was no noise. Equal
	 * bounds with means apart are no such figure (a reader refuses them;
	 * a summary made otherwise may still hold them). */
	if (a->n && b->n && a->min == a->max && b->min == b->max && a->min == b->min && a->mean == b->mean)
		out->verdict = CMP_SAME;
	else if (!out->w.valid)
		out->verdict = CMP_NA;
	else if (!out->w.significant)
		out->verdict = CMP_NOISE;
	else
		out->verdict = b->mean > a->mean ? CMP_HIGHER : CMP_LOWER;
	judge(out, CMP_PRIMARY_MBPS);
}

void compare_judge(struct compare_result *r, enum compare_primary p)
{
	r->primary = p < CMP_PRIMARIES ? p : CMP_PRIMARY_MBPS;
	for (size_t i = 0; i < r->ndev; i++) {
		struct compare_dev *cd = &r->dev[i];
		double best = -INFINITY;

		cd->headline = NULL;
		for (size_t k = 0; k < cd->nm; k++) {
			struct compare_metric *m = &cd->m[k];
			double big = fmax(m->a.n ? m->a.mean : -INFINITY, m->b.n ? m->b.mean : -INFINITY);

			judge(m, r->primary);
			if (m->active && headline_col(m->col, r->primary) && big > best) {
				best = big;
				cd->headline = m;
			}
		}
	}
}

static int tun_cmp(const void *x, const void *y)
{
	const struct compare_tunable *a = x, *b = y;

	if (a->differs != b->differs)
		return a->differs ? -1 : 1;
	return strcmp(a->name, b->name);
}

static bool same(const char *a, const char *b)
{
	return a && b && !strcmp(a, b);
}

static int tunables(struct compare_dev *cd)
{
	size_t na = cd->a ? cd->a->ntun : 0, nb = cd->b ? cd->b->ntun : 0, n = 0;

	if (!(cd->tun = calloc(na + nb + 1, sizeof(*cd->tun))))
		return -ENOMEM;
	for (size_t i = 0; i < na; i++) {
		const char *name = cd->a->tun[i].name;
		cd->tun[n++] = (struct compare_tunable){ name, cd->a->tun[i].value,
							  cd->b ? snapshot_tunable(cd->b, name) : NULL, false };
	}
	for (size_t i = 0; i < nb; i++) {
		const char *name = cd->b->tun[i].name;
		if (!cd->a || !snapshot_tunable(cd->a, name))
			cd->tun[n++] = (struct compare_tunable){ name, NULL, cd->b->tun[i].value, false };
	}
	for (size_t i = 0; i < n; i++) {
		cd->tun[i].differs = !same(cd->tun[i].a, cd->tun[i].b);
		cd->ndiffer += cd->tun[i].differs;
	}
	cd->ntun = n;
	qsort(cd->tun, n, sizeof(*cd->tun), tun_cmp);
	return 0;
}

static int add(struct compare_result *r, const char *name, const struct snapshot_dev *a,
	       const struct snapshot_dev *b)
{
	static const struct stats_summary none = { 0, NAN, NAN, NAN, NAN };
	struct compare_dev *cd = &r->dev[r->ndev++];

	memset(cd, 0, sizeof(*cd));
	cd->name = name;
	cd->a = a;
	cd->b = b;
	for (int c = 0; c < COLUMN_COUNT; c++) {
		const struct stats_summary *sa = a ? &a->st[c] : &none, *sb = b ? &b->st[c] : &none;
		bool na_a = a && !snapshot_dev_counted(a, (enum column_id)c);
		bool na_b = b && !snapshot_dev_counted(b, (enum column_id)c);

		/* a figure a kernel does not count stays, as n/a */
		if (columns[c].type != COL_NUM || (sa->n == 0 && sb->n == 0 && !na_a && !na_b))
			continue;
		compare_metric((enum column_id)c, sa, sb, &cd->m[cd->nm]);
		cd->m[cd->nm].na_a = na_a;
		cd->m[cd->nm++].na_b = na_b;
	}
	return tunables(cd);
}

static void fixed(double v, int prec, char *out, size_t len)
{
	if (isnan(v))
		snprintf(out, len, "-");
	else
		snprintf(out, len, "%.*f", prec, v);
}

void compare_headline(const struct compare_dev *cd, enum compare_primary p, char *out, size_t len)
{
	const struct compare_metric *m = cd->headline;
	char v[32], ch[COMPARE_CHANGE_MAX], a[32], b[32];

	if (!m) {
		snprintf(out, len, "%s", "");
		return;
	}
	compare_metric_text(m, v, sizeof(v));
	compare_change_text(m->change_pct, ch, sizeof(ch));
	fixed(m->a.mean, columns[m->col].prec, a, sizeof(a));
	fixed(m->b.mean, columns[m->col].prec, b, sizeof(b));
	snprintf(out, len, "primary %s: %s %s -> %s (%s) %s", compare_primaries[p].name, columns[m->col].header, a, b,
		 ch, v);
}

/* Append one warning to r's, after "; " when it has one already; cut at
 * the buffer's end (then nothing more is added). */
__attribute__((format(printf, 2, 3))) static void add_warning(struct compare_result *r, const char *fmt, ...)
{
	size_t n = strlen(r->warning);
	va_list ap;

	if (n + 3 >= sizeof(r->warning)) /* no room for "; " and a character */
		return;
	if (n) {
		memcpy(r->warning + n, "; ", 3);
		n += 2;
	}
	va_start(ap, fmt);
	vsnprintf(r->warning + n, sizeof(r->warning) - n, fmt, ap);
	va_end(ap);
}

/* Devices of s (side "A" or "B") whose traced figures lack more than 1 %
 * of the kernel's completions in the window (or hold more): their
 * histograms and percentiles undercount (snapshot_trace_gap). */
static void warn_gaps(struct compare_result *r, const struct snapshot *s, const char *side)
{
	double pct, kernel, traced;

	for (size_t i = 0; i < s->ndev; i++) {
		if (!snapshot_trace_gap(&s->dev[i], &pct, &kernel, &traced))
			continue;
		if (pct < 0)
			add_warning(r, "%s in %s: %.0f completions traced, %.1f%% more than the kernel's %.0f",
				    s->dev[i].name, side, traced, -pct, kernel);
		else
			add_warning(r, "%s in %s: the traced figures lack %.1f%% of the kernel's %.0f completions "
				    "(%.0f traced)", s->dev[i].name, side, pct, kernel, traced);
	}
}

/* Two single-device snapshots: compared whatever their names, with a
 * warning when they are not the same device; likewise a name whose
 * major:minor or diskseq changed (re-created in between), or another host. */
static void warn(struct compare_result *r)
{
	const struct snapshot *a = r->a, *b = r->b;
	size_t others = 0;

	if (a->ndev == 1 && b->ndev == 1 && strcmp(a->dev[0].name, b->dev[0].name))
		add_warning(r, "A is %s (%u:%u), B is %s (%u:%u): different devices", a->dev[0].name, a->dev[0].major,
			    a->dev[0].minor, b->dev[0].name, b->dev[0].major, b->dev[0].minor);
	/* The first such device in full, then how many more: none is hidden
	 * behind the first. */
	for (size_t i = 0; i < a->ndev; i++) {
		const struct snapshot_dev *x = &a->dev[i], *y = snapshot_find(b, x->name);
		bool moved = y && (x->major != y->major || x->minor != y->minor);
		/* Same name and number, another diskseq: re-created in between
		 * (a loop device attached again, maybe to another file). */
		bool again = y && !moved && x->diskseq && y->diskseq && x->diskseq != y->diskseq;

		if (!moved && !again)
			continue;
		if (others++)
			continue;
		if (moved)
			add_warning(r, "%s is %u:%u in A but %u:%u in B: not the same device", x->name, x->major,
				    x->minor, y->major, y->minor);
		else
			add_warning(r, "%s has diskseq %llu in A but %llu in B: re-created in between, "
				    "maybe not the same device", x->name, x->diskseq, y->diskseq);
	}
	if (others > 1)
		add_warning(r, "%zu more device%s of another number or diskseq in B", others - 1,
			    others > 2 ? "s" : "");
	if (strcmp(a->host, b->host))
		add_warning(r, "A was taken on %s, B on %s", a->host, b->host);
	warn_gaps(r, a, "A");
	warn_gaps(r, b, "B");
}

int compare_snapshots(const struct snapshot *a, const struct snapshot *b, struct compare_result *out)
{
	int err = 0;

	memset(out, 0, sizeof(*out));
	out->a = a;
	out->b = b;
	if (!(out->dev = calloc(a->ndev + b->ndev + 1, sizeof(*out->dev))))
		return -ENOMEM;
	warn(out);
	if (a->ndev == 1 && b->ndev == 1 && strcmp(a->dev[0].name, b->dev[0].name)) {
		if ((err = add(out, a->dev[0].name, &a->dev[0], &b->dev[0])) < 0)
			compare_free(out);
		else
			compare_judge(out, CMP_PRIMARY_MBPS);
		return err;
	}
	for (size_t i = 0; i < a->ndev && !err; i++)
		err = add(out, a->dev[i].name, &a->dev[i], snapshot_find(b, a->dev[i].name));
	for (size_t i = 0; i < b->ndev && !err; i++)
		if (!snapshot_find(a, b->dev[i].name))
			err = add(out, b->dev[i].name, NULL, &b->dev[i]);
	if (err)
		compare_free(out);
	else
		compare_judge(out, CMP_PRIMARY_MBPS);
	return err;
}

void compare_free(struct compare_result *r)
{
	for (size_t i = 0; i < r->ndev; i++)
		free(r->dev[i].tun);
	free(r->dev);
	memset(r, 0, sizeof(*r));
}

const struct compare_dev *compare_find(const struct compare_result *r, const char *name)
{
	for (size_t i = 0; i < r->ndev; i++)
		if (!strcmp(r->dev[i].name, name))
			return &r->dev[i];
	return NULL;
}
