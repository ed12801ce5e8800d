#include "snapshot-output.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <time.h>

#include "format.h"

/* Returns format_time's: 0, or -ERANGE with out "n/a". */
static int when(double t, char *out, size_t len)
{
	return format_time(t, "%Y-%m-%d %H:%M:%S", out, len);
}

void snapshot_bucket_label(const struct snapshot_vec_def *def, unsigned i, bool utf8, char *out, size_t len)
{
	if (!def->bucket_le || i >= def->len) {
		snprintf(out, len, "%s", "");
		return;
	}
	format_bucket(def->bucket_le(i), i ? def->bucket_le(i - 1) : 0, !strcmp(def->unit, "bytes"), utf8, out, len);
}

const char *snapshot_unit_text(const struct snapshot_vec_def *def, bool utf8)
{
	return !strcmp(def->unit, "us") ? format_us(utf8) : def->unit;
}

static double vec_sum(const struct snapshot_vec *v)
{
	double s = 0;

	for (size_t i = 0; v && i < v->n; i++)
		s += v->v[i];
	return s;
}

/* Plain decimal, never 1.18729e+06; "n/a" for NAN. buf holds
 * FORMAT_PLAIN_MAX bytes. */
static const char *plain(double v, int sig, char *buf)
{
	if (isnan(v))
		return "n/a";
	format_plain(v, sig, buf, FORMAT_PLAIN_MAX);
	return buf;
}

static void vec_line(FILE *f, const struct snapshot_vec_def *def, const struct snapshot_vec *v, size_t i, bool utf8)
{
	char label[32], n[FORMAT_PLAIN_MAX];

	if (def->kind == SNAP_VEC_HIST)
		snapshot_bucket_label(def, (unsigned)i, utf8, label, sizeof(label));
	else if (def->kind == SNAP_VEC_PERCPU)
		snprintf(label, sizeof(label), "cpu%zu", i);
	else
		snprintf(label, sizeof(label), "%s", def->names[i]);
	fprintf(f, "    %-*s %12s", format_pad(label, 10), label, plain(v->v[i], 6, n));
}

int snapshot_print_text(FILE *f, const struct snapshot *s)
{
	char t[32], a[FORMAT_PLAIN_MAX], b[32];
	bool utf8 = format_locale_utf8();

	when(s->time, t, sizeof(t));
	fprintf(f, "snapshot of %s, kernel %s, taken %s, window up to %s s\n", s->host, s->kernel, t,
		plain(s->window, 6, a));
	for (size_t i = 0; i < s->ndev; i++) {
		const struct snapshot_dev *d = &s->dev[i];

		when(d->start, a, sizeof(a));
		/* the end's time of day after the start's date; "n/a" whole */
		fprintf(f, "\n%s (%u:%u): %zu intervals, %s to %s (%.1f s)", d->name, d->major, d->minor, d->n, a,
			when(d->end, b, sizeof(b)) == 0 ? b + 11 : b, d->end - d->start);
		if (d->idle || d->partial)
			fprintf(f, "; %zu idle and %zu partial intervals left out", d->idle, d->partial);
		fputc('\n', f);
		fprintf(f, "  %-10s %5s %12s %12s %12s %12s\n", "metric", "n", "mean", "sd", "min", "max");
		for (int c = 0; c < COLUMN_COUNT; c++) {
			const struct stats_summary *st = &d->st[c];
			if (st->n == 0 || (st->min == 0 && st->max == 0))
				continue;
			char n1[FORMAT_PLAIN_MAX], n2[FORMAT_PLAIN_MAX];
			char n3[FORMAT_PLAIN_MAX], n4[FORMAT_PLAIN_MAX];
			fprintf(f, "  %-10s %5zu %12s %12s %12s %12s\n", columns[c].header, st->n, plain(st->mean, 6, n1),
				plain(st->sd, 6, n2), plain(st->min, 6, n3), plain(st->max, 6, n4));
		}
		/* no stat line where the kernel counts none: n/a, not a zero left out */
		int na = 0;
		for (int c = 0; c < COLUMN_COUNT; c++)
			if (columns[c].type == COL_NUM && !snapshot_dev_counted(d, (enum column_id)c))
				fprintf(f, "%s%s", na++ ? " " : "  n/a, not counted by the kernel: ", columns[c].header);
		if (na)
			fputc('\n', f);
		if (d->ntun)
			fprintf(f, "  tunables:\n");
		for (size_t k = 0; k < d->ntun; k++)
			fprintf(f, "    %-28s %s\n", d->tun[k].name, d->tun[k].value);
		for (size_t k = 0; k < d->nvec; k++) {
			const struct snapshot_vec_def *def = &snapshot_vecs[d->vec[k].id];
			fprintf(f, "  %s (%s):\n", def->title, snapshot_unit_text(def, utf8));
			for (size_t j = 0; j < d->vec[k].n; j++) {
				if (def->kind != SNAP_VEC_VALUES && d->vec[k].v[j] == 0)
					continue;
				vec_line(f, def, &d->vec[k], j, utf8);
				fputc('\n', f);
			}
		}
	}
	return ferror(f) ? -EIO : 0;
}

static void side_by_side(FILE *f, enum snapshot_vec_id id, const struct snapshot_dev *a,
			 const struct snapshot_dev *b)
{
	const struct snapshot_vec_def *def = &snapshot_vecs[id];
	const struct snapshot_vec *va = a ? snapshot_dev_vec(a, id) : NULL, *vb = b ? snapshot_dev_vec(b, id) : NULL;
	size_t n = va ? va->n : 0;
	bool utf8 = format_locale_utf8();
	double sa = vec_sum(va), sb = vec_sum(vb);

	if (!va && !vb)
		return;
	if (vb && vb->n > n)
		n = vb->n;
	fprintf(f, "  %s (%s)\n    %-10s %18s %18s\n", def->title, snapshot_unit_text(def, utf8), "", "A", "B");
	for (size_t i = 0; i < n; i++) {
		double x = va && i < va->n ? va->v[i] : NAN, y = vb && i < vb->n ? vb->v[i] : NAN;
		char label[32], n1[FORMAT_PLAIN_MAX], n2[FORMAT_PLAIN_MAX];

		if (def->kind != SNAP_VEC_VALUES && !(x > 0) && !(y > 0))
			continue;
		if (def->kind == SNAP_VEC_HIST)
			snapshot_bucket_label(def, (unsigned)i, utf8, label, sizeof(label));
		else if (def->kind == SNAP_VEC_PERCPU)
			snprintf(label, sizeof(label), "cpu%zu", i);
		else
			snprintf(label, sizeof(label), "%s", def->names[i]);
		if (def->kind == SNAP_VEC_VALUES)
			fprintf(f, "    %-10s %18s %18s\n", label, plain(x, 6, n1), plain(y, 6, n2));
		else
			fprintf(f, "    %-*s %10.0f %6.1f%% %10.0f %6.1f%%\n", format_pad(label, 10), label, isnan(x) ? 0 : x,
				sa > 0 && !isnan(x) ? x / sa * 100 : 0, isnan(y) ? 0 : y,
				sb > 0 && !isnan(y) ? y / sb * 100 : 0);
	}
}

static void dev_text(FILE *f, const struct compare_dev *cd, enum compare_primary primary)
{
	char na[COLUMN_COUNT * 12];
	size_t quiet = 0;

	fprintf(f, "\n%s", cd->name);
	if (cd->a)
		fprintf(f, "  A: %zu intervals (%.1f s, %zu idle + %zu partial left out)", cd->a->n,
			cd->a->end - cd->a->start, cd->a->idle, cd->a->partial);
	else
		fprintf(f, "  only in B");
	if (cd->b)
		fprintf(f, "  B: %zu intervals (%.1f s, %zu idle + %zu partial left out)", cd->b->n,
			cd->b->end - cd->b->start, cd->b->idle, cd->b->partial);
	else
		fprintf(f, "  only in A");
	fputc('\n', f);
	if (cd->ndiffer)
		fprintf(f, "  tunables that differ:\n");
	for (size_t i = 0; i < cd->ndiffer; i++)
		fprintf(f, "    %-28s %s -> %s\n", cd->tun[i].name, cd->tun[i].a ? cd->tun[i].a : "(absent)",
			cd->tun[i].b ? cd->tun[i].b : "(absent)");
	if (cd->ntun)
		fprintf(f, "  %zu tunable%s the same\n", cd->ntun - cd->ndiffer, cd->ntun - cd->ndiffer == 1 ? "" : "s");
	if (cd->headline) {
		char line[160];
		compare_headline(cd, primary, line, sizeof(line));
		fprintf(f, "  %s\n", line);
	}
	fprintf(f, "  %-10s %10s %10s %9s  %s\n", "metric", "A mean", "B mean", "change", "verdict (Welch 95%)");
	for (size_t i = 0; i < cd->nm; i++) {
		const struct compare_metric *m = &cd->m[i];
		const struct column *c = &columns[m->col];
		char a[16], b[16], ch[COMPARE_CHANGE_MAX], v[32];

		if (!m->active) {
			quiet += !compare_metric_uncounted(m);
			continue;
		}
		compare_mean_text(m, false, 10, a, sizeof(a));
		compare_mean_text(m, true, 10, b, sizeof(b));
		compare_change_text(m->change_pct, ch, sizeof(ch));
		compare_metric_text(m, v, sizeof(v));
		fprintf(f, "  %-10s %s %s %*s  %s", c->header, a, b, COMPARE_CHANGE_WIDTH, ch, v);
		if (m->w.valid && isfinite(m->w.t))
			fprintf(f, " (t %.2f, df %.1f, crit %.2f)", m->w.t, m->w.df, m->w.tcrit);
		fputc('\n', f);
	}
	if (quiet)
		fprintf(f, "  (%zu metrics zero on both sides not shown)\n", quiet);
	if (compare_uncounted(cd, na, sizeof(na)))
		fprintf(f, "  n/a, not counted by the kernel: %s\n", na);
	for (int id = 0; id < SNAP_VEC_COUNT; id++)
		side_by_side(f, (enum snapshot_vec_id)id, cd->a, cd->b);
}

int compare_print_text(FILE *f, const struct compare_result *r)
{
	char ta[32], tb[32];

	when(r->a->time, ta, sizeof(ta));
	when(r->b->time, tb, sizeof(tb));
	fprintf(f, "A: %s, kernel %s, taken %s\nB: %s, kernel %s, taken %s\n", r->a->host, r->a->kernel, ta,
		r->b->host, r->b->kernel, tb);
	if (r->warning[0])
		fprintf(f, "warning: %s\n", r->warning);
	fprintf(f, "better/worse judged on %s and latency; other figures say higher or lower\n",
		compare_primaries[r->primary].name);
	for (size_t i = 0; i < r->ndev; i++)
		dev_text(f, &r->dev[i], r->primary);
	return ferror(f) ? -EIO : 0;
}

/* ---- JSON ---- */

static void jnum(FILE *f, double v)
{
	char b[FORMAT_PLAIN_MAX];

	if (isfinite(v))
		fputs(plain(v, 10, b), f);
	else
		fputs("null", f);
}

static void jstr(FILE *f, const char *s)
{
	char buf[6 * TUNABLE_VALUE_MAX + 8]; /* every byte may become \\u00XX */

	if (!s) {
		fputs("null", f);
		return;
	}
	format_json_string(s, buf, sizeof(buf));
	fputs(buf, f);
}

/* No interval (a kernel that does not count the figure, none with such
 * requests): null figures, not the 0 a file's absent line reads as. */
static void jsummary(FILE *f, const struct stats_summary *s)
{
	fprintf(f, "{\"n\": %zu, \"mean\": ", s->n);
	jnum(f, s->n ? s->mean : NAN);
	fputs(", \"sd\": ", f);
	jnum(f, s->n ? s->sd : NAN);
	fputs(", \"min\": ", f);
	jnum(f, s->n ? s->min : NAN);
	fputs(", \"max\": ", f);
	jnum(f, s->n ? s->max : NAN);
	fputc('}', f);
}

static void jside(FILE *f, const struct snapshot *s, const char *key)
{
	fprintf(f, "\"%s\": {\"host\": ", key);
	jstr(f, s->host);
	fputs(", \"kernel\": ", f);
	jstr(f, s->kernel);
	fputs(", \"time\": ", f);
	jnum(f, s->time);
	fputs(", \"window_max_s\": ", f);
	jnum(f, s->window);
	fputc('}', f);
}

static void jvec(FILE *f, const struct snapshot_vec *v)
{
	if (!v) {
		fputs("null", f);
		return;
	}
	fputc('[', f);
	for (size_t i = 0; i < v->n; i++) {
		fputs(i ? ", " : "", f);
		jnum(f, v->v[i]);
	}
	fputc(']', f);
}

static void jdev(FILE *f, const struct compare_dev *cd)
{
	fputs("{\"device\": ", f);
	jstr(f, cd->name);
	fputs(", \"a_intervals\": ", f);
	jnum(f, cd->a ? (double)cd->a->n : NAN);
	fputs(", \"b_intervals\": ", f);
	jnum(f, cd->b ? (double)cd->b->n : NAN);
	fputs(", \"a_idle_left_out\": ", f);
	jnum(f, cd->a ? (double)cd->a->idle : NAN);
	fputs(", \"b_idle_left_out\": ", f);
	jnum(f, cd->b ? (double)cd->b->idle : NAN);
	fputs(", \"a_partial_left_out\": ", f);
	jnum(f, cd->a ? (double)cd->a->partial : NAN);
	fputs(", \"b_partial_left_out\": ", f);
	jnum(f, cd->b ? (double)cd->b->partial : NAN);
	fputs(", \"b_device\": ", f);
	jstr(f, cd->b ? cd->b->name : NULL);
	fputs(", \"headline\": ", f);
	jstr(f, cd->headline ? columns[cd->headline->col].json : NULL);
	fputs(", \"tunables\": [", f);
	for (size_t i = 0; i < cd->ntun; i++) {
		fputs(i ? ", " : "", f);
		fputs("{\"name\": ", f);
		jstr(f, cd->tun[i].name);
		fputs(", \"a\": ", f);
		jstr(f, cd->tun[i].a);
		fputs(", \"b\": ", f);
		jstr(f, cd->tun[i].b);
		fprintf(f, ", \"differs\": %s}", cd->tun[i].differs ? "true" : "false");
	}
	fputs("], \"metrics\": [", f);
	for (size_t i = 0; i < cd->nm; i++) {
		const struct compare_metric *m = &cd->m[i];
		fputs(i ? ", " : "", f);
		fputs("{\"metric\": ", f);
		jstr(f, columns[m->col].json);
		fprintf(f, ", \"good\": %d, \"a\": ", columns[m->col].good);
		jsummary(f, &m->a);
		fputs(", \"b\": ", f);
		jsummary(f, &m->b);
		fputs(", \"change_pct\": ", f);
		jnum(f, m->change_pct);
		fputs(", \"t\": ", f);
		jnum(f, m->w.t);
		fputs(", \"df\": ", f);
		jnum(f, m->w.df);
		fputs(", \"t_crit_95\": ", f);
		jnum(f, m->w.tcrit);
		fputs(", \"p\": ", f);
		jnum(f, m->w.p);
		fputs(", \"verdict\": ", f);
		jstr(f, compare_verdict_names[m->verdict]);
		fputs(", \"judgement\": ", f);
		jstr(f, compare_judgement_names[m->judged]);
		fputc('}', f);
	}
	fputs("], \"blocks\": {", f);
	for (int id = 0, k = 0; id < SNAP_VEC_COUNT; id++) {
		const struct snapshot_vec *va = cd->a ? snapshot_dev_vec(cd->a, (enum snapshot_vec_id)id) : NULL;
		const struct snapshot_vec *vb = cd->b ? snapshot_dev_vec(cd->b, (enum snapshot_vec_id)id) : NULL;
		if (!va && !vb)
			continue;
		fprintf(f, "%s\"%s.%s\": {\"a\": ", k++ ? ", " : "", snapshot_vecs[id].block, snapshot_vecs[id].key);
		jvec(f, va);
		fputs(", \"b\": ", f);
		jvec(f, vb);
		fputc('}', f);
	}
	fputs("}}", f);
}

int compare_print_json(FILE *f, const struct compare_result *r)
{
	fputs("{\"format\": \"blktune-diff\", \"version\": 1, \"primary\": ", f);
	jstr(f, compare_primaries[r->primary].name);
	fputs(", \"warning\": ", f);
	jstr(f, r->warning[0] ? r->warning : NULL);
	fputs(", ", f);
	jside(f, r->a, "a");
	fputs(", ", f);
	jside(f, r->b, "b");
	fputs(", \"devices\": [", f);
	for (size_t i = 0; i < r->ndev; i++) {
		fputs(i ? ", " : "", f);
		jdev(f, &r->dev[i]);
	}
	fputs("]}\n", f);
	return ferror(f) ? -EIO : 0;
}
