/* stats: summaries, Student's t and Welch's test against reference values.
 * References: R 4.x (qt, pt, t.test) and scipy.stats.t, as stated per test. */
#include <float.h>
#include <math.h>

#include "stats.h"
#include "unit.h"

START_TEST(test_summary)
{
	const double x[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	struct stats_summary s;

	stats_summarize(x, 8, &s);
	ck_assert_uint_eq(s.n, 8);
	ck_assert_double_eq_tol(s.mean, 5, 1e-12);
	ck_assert_double_eq_tol(s.sd, sqrt(32.0 / 7), 1e-12); /* sample sd */
	ck_assert_double_eq(s.min, 2);
	ck_assert_double_eq(s.max, 9);
	stats_summarize(x, 1, &s);
	ck_assert(isnan(s.sd));
	ck_assert_double_eq(s.mean, 2);
	ck_assert_double_eq(s.min, 2);
	ck_assert_double_eq(s.max, 2);
	{
		/* all negative (min and max start at +-inf, not 0), n = 2 */
		const double y[] = { -3, -7 };
		stats_summarize(y, 2, &s);
		ck_assert_double_eq(s.min, -7);
		ck_assert_double_eq(s.max, -3);
		ck_assert_double_eq_tol(s.mean, -5, 1e-15);
		ck_assert_double_eq_tol(s.sd, sqrt(8.0), 1e-12);
	}
	{
		/* a spread well below 1 (sum of squares 0.005) */
		const double z[] = { 1.0, 1.1 };
		stats_summarize(z, 2, &s);
		ck_assert_double_eq_tol(s.sd, sqrt(0.005), 1e-12);
	}
	stats_summarize(x, 0, &s);
	ck_assert(isnan(s.mean));
}
END_TEST

START_TEST(test_t_quantile)
{
	/* qt(0.975, df) in R / scipy.stats.t.ppf(0.975, df) */
	static const struct { double df, q; } ref[] = {
		{ 1, 12.706204736174707 }, { 2, 4.302652729749464 }, { 5, 2.570581835636314 },
		{ 10, 2.2281388519649385 }, { 30, 2.0422724563012373 }, { 1000, 1.9623390808264078 },
		{ INFINITY, 1.959963984540054 },
	};

	for (size_t i = 0; i < sizeof(ref) / sizeof(ref[0]); i++)
		ck_assert_double_eq_tol(stats_t_quantile(0.975, ref[i].df), ref[i].q, 1e-9);
	ck_assert_double_eq_tol(stats_t_quantile(0.025, 5), -2.570581835636314, 1e-9);
	/* fractional df: the quantile inverts the CDF */
	ck_assert_double_eq_tol(stats_t_cdf(stats_t_quantile(0.975, 17.776), 17.776), 0.975, 1e-12);
}
END_TEST

START_TEST(test_t_cdf)
{
	/* pt(2, 5) = 0.9490302605850709; df 1 is Cauchy, df 2 has a closed form */
	ck_assert_double_eq_tol(stats_t_cdf(2, 5), 0.9490302605850709, 1e-12);
	ck_assert_double_eq_tol(stats_t_cdf(0.7, 1), 0.5 + atan(0.7) / M_PI, 1e-13);
	ck_assert_double_eq_tol(stats_t_cdf(-1.3, 2), 0.5 - 1.3 / (2 * sqrt(2 + 1.69)), 1e-13);
	ck_assert_double_eq_tol(stats_t_cdf(0, 7.5), 0.5, 1e-15);
	/* I_x(a, b) symmetry and a closed form: I_x(1, b) = 1 - (1 - x)^b */
	ck_assert_double_eq_tol(stats_betai(1, 3.5, 0.3), 1 - pow(0.7, 3.5), 1e-13);
	ck_assert_double_eq_tol(stats_betai(2.5, 4, 0.6) + stats_betai(4, 2.5, 0.4), 1, 1e-13);
}
END_TEST

/* Against mpmath 1.3.0 at 30 digits (betainc, regularized): large and
 * fractional df, t near 0 (x near 1: the symmetric branch of the incomplete
 * beta), a far tail; quantiles below 1 and far out; the ends and bad input. */
START_TEST(test_t_mpmath)
{
	static const struct { double t, df, p; } ref[] = {
		{ 0.5, 1000, 0.69140745958305714062 }, { 0.05, 200, 0.5199138565633692929 },
		{ -0.01, 5000, 0.49601084315586768009 }, { 3, 3, 0.97116555718878134571 },
		{ 0.2, 0.5, 0.55289961773275602588 }, { 40, 2, 0.99968779266390762968 },
	};

	for (size_t i = 0; i < sizeof(ref) / sizeof(ref[0]); i++)
		ck_assert_double_eq_tol(stats_t_cdf(ref[i].t, ref[i].df), ref[i].p, 1e-12);
	ck_assert_double_eq_tol(stats_betai(300, 0.5, 0.9995), 0.58399210243308942155, 1e-11);
	ck_assert_double_eq_tol(stats_t_quantile(0.6, 7), 0.26316686135202281214, 1e-9);
	ck_assert_double_eq_tol(stats_t_quantile(0.4, 7), -0.26316686135202281214, 1e-9);
	ck_assert_double_eq_tol(stats_t_quantile(0.999999, 3), 103.29946778041934274, 1e-6);
	/* ends */
	ck_assert_double_eq(stats_betai(2, 3, 0), 0);
	ck_assert_double_eq(stats_betai(2, 3, -0.5), 0);
	ck_assert_double_eq(stats_betai(2, 3, 1), 1);
	ck_assert_double_eq(stats_betai(2, 3, 1.5), 1);
	ck_assert_double_eq(stats_t_cdf(INFINITY, 5), 1);
	ck_assert_double_eq(stats_t_cdf(-INFINITY, 5), 0);
	ck_assert_double_eq(stats_t_cdf(0, 5), 0.5);
	ck_assert_double_eq(stats_t_quantile(0.5, 5), 0);
	/* bad input: no number */
	ck_assert(isnan(stats_t_cdf(1, 0)));
	ck_assert(isnan(stats_t_cdf(1, -2)));
	ck_assert(isnan(stats_t_cdf(NAN, 3)));
	ck_assert(isnan(stats_t_quantile(0.975, 0)));
	ck_assert(isnan(stats_t_quantile(0.975, NAN)));
	ck_assert(isnan(stats_t_quantile(0, 5)));
	ck_assert(isnan(stats_t_quantile(1, 5)));
}
END_TEST

START_TEST(test_welch_sleep)
{
	/* R: t.test(extra ~ group, data = sleep): Welch Two Sample t-test,
	 * t = -1.8608, df = 17.776, p-value = 0.07939 (group 1 minus group 2). */
	const double g1[] = { 0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0 };
	const double g2[] = { 1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4 };
	struct stats_summary a, b;
	struct stats_welch w;

	stats_summarize(g2, 10, &a);
	stats_summarize(g1, 10, &b);
	stats_welch(&a, &b, &w); /* B - A = group 1 - group 2 */
	ck_assert(w.valid);
	ck_assert_double_eq_tol(w.t, -1.860813, 1e-6);
	ck_assert_double_eq_tol(w.df, 17.77647, 1e-5);
	ck_assert_double_eq_tol(w.p, 0.07939414, 1e-7);
	ck_assert(!w.significant);
	/* qt(0.975, 17) = 2.109816, qt(0.975, 18) = 2.100922: at 17.776 about 2.1029 */
	ck_assert_double_eq_tol(w.tcrit, 2.1029, 5e-4);
}
END_TEST

START_TEST(test_welch_edges)
{
	struct stats_summary a = { 5, 10, 0, 10, 10 }, b = { 5, 12, 0, 12, 12 }, one = { 1, 3, NAN, 3, 3 };
	struct stats_welch w;

	/* No variance: different means are a real difference, equal are not. */
	stats_welch(&a, &b, &w);
	ck_assert(w.valid && w.significant && isinf(w.t) && w.t > 0);
	ck_assert_double_eq(w.p, 0);
	ck_assert_double_eq(w.df, 8);
	ck_assert_double_eq_tol(w.tcrit, 2.306004135204166, 1e-9); /* qt(0.975, 8) */
	stats_welch(&b, &a, &w);
	ck_assert(w.valid && w.significant && isinf(w.t) && w.t < 0 && w.p == 0);
	stats_welch(&a, &a, &w);
	ck_assert(w.valid && !w.significant);
	ck_assert_double_eq(w.t, 0);
	ck_assert_double_eq(w.p, 1);
	/* n >= 2 with no sd (a malformed summary) is no test either */
	one = (struct stats_summary){ 3, 3, NAN, 3, 3 };
	stats_welch(&a, &one, &w);
	ck_assert(!w.valid && !w.significant && isnan(w.t) && isnan(w.p));
	stats_welch(&one, &a, &w);
	ck_assert(!w.valid);
	one = (struct stats_summary){ 1, 3, NAN, 3, 3 };
	stats_welch(&a, &one, &w);
	ck_assert(!w.valid);
	/* the smallest samples that have an sd: n = 2 on either side */
	{
		struct stats_summary two = { 2, 11, 1, 10, 12 }, five = { 5, 10, 1, 9, 11 };
		stats_welch(&five, &two, &w);
		ck_assert(w.valid && !isnan(w.p));
		stats_welch(&two, &five, &w);
		ck_assert(w.valid && !isnan(w.p));
	}
	/* Large separation relative to noise. */
	a = (struct stats_summary){ 30, 100, 5, 90, 110 };
	b = (struct stats_summary){ 30, 110, 5, 100, 120 };
	stats_welch(&a, &b, &w);
	ck_assert(w.significant);
	ck_assert_double_eq_tol(w.df, 58, 1e-9);
	ck_assert_double_eq_tol(w.t, 10 / sqrt(50.0 / 30), 1e-9);
}
END_TEST

/* Huge df: lgamma(a + b) - lgamma(a) - lgamma(b) cancels to noise when a
 * is 5e14 (it gave 0.25 for the 97.5% quantile at df 1e15, 8 at 1e18).
 * References from mpmath 1.3.0 at 50 digits (betainc, regularized; the
 * quantile by findroot) and Python's statistics.NormalDist (df DBL_MAX).
 * Either side of df 1e6, where stats_t_cdf leaves the incomplete beta, and
 * up to 1e7 the values hold to 1e-12 (the plain normal is 1.6e-7 off at
 * 1e6), so the switch makes no step a verdict could see. */
START_TEST(test_t_huge_df)
{
	static const struct { double t, df, p; } ref[] = {
		{ -3, 1e15, 0.0013498980316301278 }, { -3, 1e18, 0.0013498980316300946 },
		{ -3, 1.0000001e7, 0.0013499013555182482 }, { 0.5, 1e12, 0.69146246127395809343 },
		{ 2.5, 1e12, 0.99379033467414443972 }, { 2.5, 1.0000001e7, 0.99379032673171155917 },
		{ 0.5, 1.0000001e7, 0.69146245577299300814 },
	};

	for (size_t i = 0; i < sizeof(ref) / sizeof(ref[0]); i++)
		ck_assert_double_eq_tol(stats_t_cdf(ref[i].t, ref[i].df), ref[i].p, 1e-12);
	ck_assert_double_eq_tol(stats_t_quantile(0.975, 1e15), 1.9599639845400566, 1e-9);
	ck_assert_double_eq_tol(stats_t_quantile(0.975, 1e18), 1.9599639845400542, 1e-9);
	ck_assert_double_eq_tol(stats_t_quantile(0.025, 1e18), -1.9599639845400542, 1e-9);
	ck_assert_double_eq_tol(stats_t_quantile(0.975, 2e7), 1.9599641031536228, 1e-9);
	ck_assert_double_eq_tol(stats_t_quantile(0.975, 1.0000001e7), 1.9599642217671818, 1e-9);
	ck_assert_double_eq_tol(stats_t_quantile(0.975, 9.99e6), 1.9599642220046701, 1e-9);
	ck_assert_double_eq_tol(stats_t_cdf(-3, 1e7), 0.0013499013555185806, 1e-12);
	ck_assert_double_eq_tol(stats_t_quantile(0.975, 9.9e5), 1.9599663807765000031, 1e-9);
	ck_assert_double_eq_tol(stats_t_quantile(0.975, 1.01e6), 1.9599663333262174575, 1e-9);
	ck_assert_double_eq_tol(stats_t_cdf(-3, 9.9e5), 0.0013499316064614108275, 1e-12);
	ck_assert_double_eq_tol(stats_t_cdf(-3, 1.01e6), 0.0013499309416089543432, 1e-12);
	ck_assert_double_eq(stats_t_cdf(-1e200, 1e18), 0);
	ck_assert_double_eq(stats_t_cdf(1e200, 1e18), 1);
	ck_assert_double_eq_tol(stats_t_cdf(-3, DBL_MAX), 0.0013498980316301035, 1e-12);
}
END_TEST

/* Standard deviations whose squares overflow (or underflow) a double: the
 * test is scale-free, so a and b scaled by 1e200 (or 1e-200) give what
 * they give at scale 1: n 10 sd 3 against n 12 sd 5, means 4 apart. t, df
 * from the Welch-Satterthwaite formulas in mpmath at 50 digits; the
 * critical value and p from mpmath's incomplete beta. */
START_TEST(test_welch_scale)
{
	static const double scale[] = { 1, 1e200, 1e-200, 1e154, 1e300 };

	for (size_t i = 0; i < sizeof(scale) / sizeof(scale[0]); i++) {
		double k = scale[i];
		struct stats_summary a = { 10, 0, 3 * k, -5 * k, 5 * k }, b = { 12, 4 * k, 5 * k, -5 * k, 12 * k };
		struct stats_welch w;

		stats_welch(&a, &b, &w);
		ck_assert(w.valid);
		ck_assert_double_eq_tol(w.t, 2.315842933279394864, 1e-9);
		ck_assert_double_eq_tol(w.df, 18.367345875241023503, 1e-9);
		ck_assert_double_eq_tol(w.tcrit, 2.0979142325565354774, 1e-9);
		ck_assert_double_eq_tol(w.p, 0.032311859236235526221, 1e-9);
		ck_assert(w.significant);
	}
}
END_TEST

UNIT_SUITE(stats_suite)
static Suite *stats_suite(void)
{
	Suite *s = suite_create("stats");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_summary);
	tcase_add_test(tc, test_t_quantile);
	tcase_add_test(tc, test_t_cdf);
	tcase_add_test(tc, test_welch_sleep);
	tcase_add_test(tc, test_t_mpmath);
	tcase_add_test(tc, test_welch_edges);
	tcase_add_test(tc, test_t_huge_df);
	tcase_add_test(tc, test_welch_scale);
	suite_add_tcase(s, tc);
	return s;
}
