#include "sweep-stats.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "format.h"
#include "snapshot.h"

void sweep_stats_value(const struct sweep_run *runs, size_t n, const char *value, int fig,
		       struct sweep_value_stats *out)
{
	struct stats_acc acc;

	memset(out, 0, sizeof(*out));
	stats_acc_init(&acc);
	for (size_t i = 0; i < n; i++) {
		double x = sweep_figure_value(&runs[i], fig);
		if (!strcmp(runs[i].asked, value) && !isnan(x))
			stats_acc_add(&acc, x);
	}
	stats_acc_summary(&acc, &out->s);
	out->ci = stats_ci95(&out->s);
	out->cv_pct = out->s.n >= 2 && out->s.mean != 0 ? 100 * out->s.sd / fabs(out->s.mean) : NAN;
	out->change_pct = NAN;
	out->verdict = SV_NA;
}

void sweep_stats_verdict(const struct sweep_value_stats *base, struct sweep_value_stats *v)
{
	if (base == v) {
		v->verdict = base->s.n ? SV_BASELINE : SV_NA;
		return;
	}
	v->change_pct = base->s.n && v->s.n && base->s.mean != 0
		? 100 * (v->s.mean - base->s.mean) / fabs(base->s.mean) : NAN;
	stats_welch(&base->s, &v->s, &v->w);
	if (!v->w.valid)
		v->verdict = SV_NA;
	else if (!v->w.significant)
		v->verdict = SV_SAME;
	else
		v->verdict = v->s.mean > base->s.mean ? SV_HIGHER : SV_LOWER;
}

const char *sweep_stats_verdict_text(enum sweep_verdict v, int good)
{
	switch (v) {
	case SV_BASELINE:
		return "baseline";
	case SV_SAME:
		return "same (noise)";
	case SV_HIGHER:
		return good > 0 ? "better" : good < 0 ? "worse" : "higher";
	case SV_LOWER:
		return good > 0 ? "worse" : good < 0 ? "better" : "lower";
	case SV_NA:
		break;
	}
	return "n/a (<2 runs)";
}

/* What the kernel set for value (its first run that says), or NULL. */
static const char *kernel_value(const struct sweep_run *runs, size_t n, const char *value)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(runs[i].asked, value) && runs[i].value[0])
			return runs[i].value;
	return NULL;
}

size_t sweep_stats_warnings(const struct sweep_run *runs, size_t n, char *const *values, size_t nvalues,
			    double interval, int fig, const char *figname, char (*out)[SWEEP_WARN_LEN], size_t max)
{
	size_t k = 0;
	char a[FORMAT_PLAIN_MAX], b[FORMAT_PLAIN_MAX];

	for (size_t i = 0; i < n && k < max; i++) {
		const struct sweep_run *r = &runs[i];
		if (isnan(r->window_s))
			continue;
		if (r->window_s < 5 || r->window_s < 10 * interval) {
			format_plain(r->window_s, 3, a, sizeof(a));
			format_plain(10 * interval, 3, b, sizeof(b));
			if (10 * interval > 5)
				snprintf(out[k++], SWEEP_WARN_LEN,
					 "run %zu (%s, repeat %ld): window %s s is shorter than 10 intervals (%s s)",
					 r->order, r->asked, r->repeat, a, b);
			else
				snprintf(out[k++], SWEEP_WARN_LEN,
					 "run %zu (%s, repeat %ld): window %s s is shorter than 5 s", r->order, r->asked,
					 r->repeat, a);
		}
		/* its traced figures (lat_p99_us) lack, or hold beyond, more of
		 * the kernel's completions than any window's reads explain */
		if (k < max && fabs(r->fig[SF_TRACE_GAP_PCT]) > SNAPSHOT_TRACE_GAP_WARN_PCT) {
			format_plain(fabs(r->fig[SF_TRACE_GAP_PCT]), 3, a, sizeof(a));
			if (r->fig[SF_TRACE_GAP_PCT] > 0)
				snprintf(out[k++], SWEEP_WARN_LEN,
					 "run %zu (%s, repeat %ld): the traced figures lack %s%% of the kernel's completions",
					 r->order, r->asked, r->repeat, a);
			else
				snprintf(out[k++], SWEEP_WARN_LEN,
					 "run %zu (%s, repeat %ld): %s%% more completions traced than the kernel counted",
					 r->order, r->asked, r->repeat, a);
		}
		if (k < max && r->idle_pct > 10) {
			format_plain(r->idle_pct, 3, a, sizeof(a));
			snprintf(out[k++], SWEEP_WARN_LEN,
				 "run %zu (%s, repeat %ld): the device was idle %s%% of the window", r->order, r->asked,
				 r->repeat, a);
		}
	}
	/* The kernel rounds some values (read_ahead_kb to pages): rows are
	 * labelled as asked, so say which ran as what, and which two rows are
	 * one kernel setting measured twice. */
	for (size_t v = 0; v < nvalues && k < max; v++) {
		const char *kv = kernel_value(runs, n, values[v]), *ku;
		size_t u = 0;

		if (!kv)
			continue;
		while (u < v && (!(ku = kernel_value(runs, n, values[u])) || strcmp(ku, kv)))
			u++;
		if (u < v)
			snprintf(out[k++], SWEEP_WARN_LEN, "values %.60s and %.60s both ran as %.60s: one setting, not two",
				 values[u], values[v], kv);
		else if (strcmp(kv, values[v]))
			snprintf(out[k++], SWEEP_WARN_LEN, "value %.60s ran as %.60s (what the kernel set)", values[v],
				 kv);
	}
	for (size_t v = 0; v < nvalues && k < max; v++) {
		struct sweep_value_stats st;
		sweep_stats_value(runs, n, values[v], fig, &st);
		if (st.cv_pct > 10) {
			format_plain(st.cv_pct, 3, a, sizeof(a));
			format_plain(st.s.mean, 4, b, sizeof(b));
			snprintf(out[k++], SWEEP_WARN_LEN, "%s=%s: %s varies %s%% (CV) across %zu repeats (mean %s)",
				 "value", values[v], figname, a, st.s.n, b);
		}
	}
	return k;
}
