/* stats: summaries of a series and Welch's two-sample t-test, the noise test
 * behind every A/B verdict. Student's t distribution is computed from the
 * regularized incomplete beta function, so any (fractional) Welch-Satterthwaite
 * degrees of freedom get an exact critical value, not a table's nearest row. */
#ifndef BLKTUNE_STATS_H
#define BLKTUNE_STATS_H

#include <stdbool.h>
#include <stddef.h>

struct stats_summary {
	size_t n;
	double mean, sd, min, max; /* sd: sample (n - 1); NAN when n < 2; all NAN when n == 0 */
};

/* Running accumulation (Welford), so a summary needs no copy of the series. */
struct stats_acc {
	size_t n;
	double mean, m2, min, max;
};

void stats_acc_init(struct stats_acc *a);
void stats_acc_add(struct stats_acc *a, double x);
void stats_acc_summary(const struct stats_acc *a, struct stats_summary *out);
void stats_summarize(const double *x, size_t n, struct stats_summary *out);

struct stats_welch {
	double t, df;  /* B - A; df from Welch-Satterthwaite */
	double p;      /* two-sided */
	double tcrit;  /* two-sided 95% critical value at df */
	bool significant; /* |t| > tcrit */
	bool valid;    /* false when either side has n < 2 */
};

/* Welch's t-test of B against A. Two series without variance are
 * significantly different exactly when their means differ. Scale-free: the
 * variances are taken in units of the larger sd, so no sd overflows or
 * underflows when squared. */
void stats_welch(const struct stats_summary *a, const struct stats_summary *b, struct stats_welch *out);

/* Regularized incomplete beta I_x(a, b), a, b > 0, 0 <= x <= 1. */
double stats_betai(double a, double b, double x);
/* Student's t distribution with df > 0 degrees of freedom (df may be
 * fractional; INFINITY gives the normal distribution). Above df 1e6, where
 * the incomplete beta starts to cancel (to noise for huge df), the normal
 * distribution with its first 1/df correction (within 3e-13 of t). */
double stats_t_cdf(double t, double df);
/* Quantile: stats_t_cdf(stats_t_quantile(p, df), df) == p, 0 < p < 1. */
double stats_t_quantile(double p, double df);

/* Half-width of the 95% confidence interval of the mean: t(0.975, n-1) x
 * sd / sqrt(n); NAN when n < 2. */
double stats_ci95(const struct stats_summary *s);

#endif
