#include "stats.h"

#include <float.h>
#include <math.h>

void stats_acc_init(struct stats_acc *a)
{
	a->n = 0;
	a->mean = a->m2 = 0;
	a->min = INFINITY;
	a->max = -INFINITY;
}

void stats_acc_add(struct stats_acc *a, double x)
{
	double d = x - a->mean;

	a->n++;
	a->mean += d / (double)a->n;
	a->m2 += d * (x - a->mean);
	if (x < a->min)
		a->min = x;
	if (x > a->max)
		a->max = x;
}

void stats_acc_summary(const struct stats_acc *a, struct stats_summary *out)
{
	out->n = a->n;
	if (a->n == 0) {
		out->mean = out->sd = out->min = out->max = NAN;
		return;
	}
	out->mean = a->mean;
	out->min = a->min;
	out->max = a->max;
	out->sd = a->n < 2 ? NAN : sqrt(fmax(a->m2, 0) / (double)(a->n - 1));
}

void stats_summarize(const double *x, size_t n, struct stats_summary *out)
{
	struct stats_acc a;

	stats_acc_init(&a);
	for (size_t i = 0; i < n; i++)
		stats_acc_add(&a, x[i]);
	stats_acc_summary(&a, out);
}

/* Continued fraction of the incomplete beta (modified Lentz), which converges
 * fast for x < (a + 1) / (a + b + 2); the caller uses the symmetry otherwise. */
static double betacf(double a, double b, double x)
{
	const double tiny = 1e-300, eps = 1e-15;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;

	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	h = d;
	for (int m = 1; m <= 10000; m++) {
		double m2 = 2.0 * m, aa, del;

		aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
		d = 1 + aa * d;
		if (fabs(d) < tiny)
			d = tiny;
		c = 1 + aa / c;
		if (fabs(c) < tiny)
			c = tiny;
		d = 1 / d;
		h *= d * c;
		aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
		d = 1 + aa * d;
		if (fabs(d) < tiny)
			d = tiny;
		c = 1 + aa / c;
		if (fabs(c) < tiny)
			c = tiny;
		d = 1 / d;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < eps)
			break;
	}
	return h;
}

double stats_betai(double a, double b, double x)
{
	double lbt;

	if (!(x > 0))
		return 0;
	if (!(x < 1))
		return 1;
	lbt = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x);
	if (x < (a + 1) / (a + b + 2))
		return exp(lbt) * betacf(a, b, x) / a;
	return 1 - exp(lbt) * betacf(b, a, 1 - x) / b;
}

/* Above this many degrees of freedom the incomplete beta is not used: its
 * lgamma(a + b) - lgamma(a) - lgamma(b) cancels (4e-9 of the quantile lost
 * at df 1e7, all of it by df 1e15). Student's t is the normal distribution
 * there to within 1.6e-7, and to within 3e-13 with the first term of its
 * expansion in 1/df: F(t) = Phi(t) - phi(t) (t^3 + t) / (4 df) + O(1/df^2).
 * At 1e6 the two ways agree to 1e-12. */
#define STATS_T_NORMAL_DF 1e6

double stats_t_cdf(double t, double df)
{
	double tail;

	if (isnan(t) || isnan(df) || df <= 0)
		return NAN;
	if (isinf(t))
		return t > 0 ? 1 : 0;
	if (df > STATS_T_NORMAL_DF) {
		/* phi(t) is 0 in doubles beyond |t| 39, where t^3 may overflow */
		double term = fabs(t) < 40 ? exp(-t * t / 2) / sqrt(2 * M_PI) * (t * t * t + t) / (4 * df) : 0;
		return 0.5 * erfc(-t / sqrt(2)) - term;
	}
	/* P(T > |t|) = I_{df/(df+t^2)}(df/2, 1/2) / 2 */
	tail = 0.5 * stats_betai(df / 2, 0.5, df / (df + t * t));
	return t > 0 ? 1 - tail : tail;
}

double stats_t_quantile(double p, double df)
{
	double lo = 0, hi = 1, target;
	bool upper = p > 0.5;

	if (!(p > 0 && p < 1) || isnan(df) || df <= 0)
		return NAN;
	if (p == 0.5)
		return 0;
	/* Work on the upper half by symmetry; bracket, then bisect to double
	 * precision (60 halvings of a bracket no wider than its upper end). */
	target = upper ? p : 1 - p;
	while (stats_t_cdf(hi, df) < target && hi < 1e300)
		hi *= 2;
	for (int i = 0; i < 200 && hi - lo > DBL_EPSILON * hi; i++) {
		double mid = lo + (hi - lo) / 2;
		if (stats_t_cdf(mid, df) < target)
			lo = mid;
		else
			hi = mid;
	}
	return upper ? lo + (hi - lo) / 2 : -(lo + (hi - lo) / 2);
}

void stats_welch(const struct stats_summary *a, const struct stats_summary *b, struct stats_welch *out)
{
	double scale, va, vb, se2, diff;

	out->t = out->df = out->p = out->tcrit = NAN;
	out->significant = false;
	out->valid = a->n >= 2 && b->n >= 2 && !isnan(a->sd) && !isnan(b->sd);
	if (!out->valid)
		return;
	/* The variances in units of the larger sd: t and df are scale-free, and
	 * an sd of 1e200 (whose square is no double) or 1e-200 (whose square
	 * is 0) gives what an sd of 1 does. */
	scale = fmax(a->sd, b->sd);
	va = scale > 0 ? (a->sd / scale) * (a->sd / scale) / (double)a->n : 0;
	vb = scale > 0 ? (b->sd / scale) * (b->sd / scale) / (double)b->n : 0;
	se2 = va + vb;
	diff = b->mean - a->mean;
	if (se2 <= 0) {
		/* No noise at all: any difference is real. */
		out->df = (double)(a->n + b->n - 2);
		out->tcrit = stats_t_quantile(0.975, out->df);
		out->t = diff == 0 ? 0 : copysign(INFINITY, diff);
		out->p = diff == 0 ? 1 : 0;
		out->significant = diff != 0;
		return;
	}
	out->t = diff / scale / sqrt(se2);
	out->df = se2 * se2 / (va * va / (double)(a->n - 1) + vb * vb / (double)(b->n - 1));
	out->tcrit = stats_t_quantile(0.975, out->df);
	out->p = 2 * stats_t_cdf(-fabs(out->t), out->df);
	out->significant = fabs(out->t) > out->tcrit;
}

double stats_ci95(const struct stats_summary *s)
{
	if (s->n < 2 || isnan(s->sd))
		return NAN;
	return stats_t_quantile(0.975, (double)(s->n - 1)) * s->sd / sqrt((double)s->n);
}
