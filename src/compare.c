#include "compare.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const compare_verdict_names[CMP_VERDICTS] = {
	[CMP_NA] = "n/a", [CMP_NOISE] = "within noise", [CMP_BETTER] = "better", [CMP_WORSE] = "worse",
	[CMP_CHANGED] = "changed",
};

void compare_metric(enum column_id col, const struct stats_summary *a, const struct stats_summary *b,
		    struct compare_metric *out)
{
	double d;

	memset(out, 0, sizeof(*out));
	out->col = col;
	out->a = *a;
	out->b = *b;
	out->active = (a->n && (a->min != 0 || a->max != 0)) || (b->n && (b->min != 0 || b->max != 0));
	out->change_pct = a->n && b->n && a->mean != 0 ? (b->mean - a->mean) / fabs(a->mean) * 100 : NAN;
	stats_welch(a, b, &out->w);
	if (!out->w.valid)
		out->verdict = CMP_NA;
	else if (!out->w.significant)
		out->verdict = CMP_NOISE;
	else if (columns[col].good == 0)
		out->verdict = CMP_CHANGED;
	else {
		d = (b->mean - a->mean) * columns[col].good;
		out->verdict = d > 0 ? CMP_BETTER : CMP_WORSE;
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
		if (columns[c].type != COL_NUM || (sa->n == 0 && sb->n == 0))
			continue;
		compare_metric((enum column_id)c, sa, sb, &cd->m[cd->nm++]);
	}
	return tunables(cd);
}

int compare_snapshots(const struct snapshot *a, const struct snapshot *b, struct compare_result *out)
{
	int err = 0;

	memset(out, 0, sizeof(*out));
	out->a = a;
	out->b = b;
	if (!(out->dev = calloc(a->ndev + b->ndev + 1, sizeof(*out->dev))))
		return -ENOMEM;
	for (size_t i = 0; i < a->ndev && !err; i++)
		err = add(out, a->dev[i].name, &a->dev[i], snapshot_find(b, a->dev[i].name));
	for (size_t i = 0; i < b->ndev && !err; i++)
		if (!snapshot_find(a, b->dev[i].name))
			err = add(out, b->dev[i].name, NULL, &b->dev[i]);
	if (err)
		compare_free(out);
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
