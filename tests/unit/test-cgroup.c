/* cgroup: the io.stat and v1 blkio parsers (many devices, a missing device,
 * junk, numbers at and past 2^64). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cgroup-stat.h"
#include "unit.h"

#define MAXD 8

START_TEST(test_parse_v2)
{
	const char *text = "254:0 wbytes=20 rbytes=10 wios=2 rios=1 dios=4 dbytes=40 cost.vrate=100.00 cost.usage=12\n"
			   "7:0 rbytes=4096 wbytes=0 rios=1 wios=0 dbytes=0 dios=0 depth=64 avg_lat=120\n"
			   "junk line\n"
			   "7:3 rbytes=12 wbytes\n"
			   "7:4 rbytes=18446744073709551616 wbytes=0\n"
			   "8:16 rbytes=18446744073709551615\n"
			   "\n"
			   "7:9 rbytes=1 rios=1"; /* no newline at the end */
	struct cgroup_stat_dev d[MAXD];
	const struct cgroup_stat_dev *x;
	size_t n = 0;
	unsigned bad = 0;

	ck_assert_int_eq(cgroup_stat_parse_v2(text, d, &n, MAXD, &bad), 0);
	ck_assert_uint_eq(n, 4);
	ck_assert_uint_eq(bad, 3);
	x = cgroup_stat_find(d, n, 254, 0);
	ck_assert_ptr_nonnull(x);
	ck_assert_uint_eq(x->rbytes, 10);
	ck_assert_uint_eq(x->wbytes, 20);
	ck_assert_uint_eq(x->rios, 1);
	ck_assert_uint_eq(x->wios, 2);
	ck_assert_uint_eq(x->dbytes, 40);
	ck_assert_uint_eq(x->dios, 4);
	x = cgroup_stat_find(d, n, 8, 16);
	ck_assert_ptr_nonnull(x);
	ck_assert_uint_eq(x->rbytes, UINT64_MAX);
	ck_assert_uint_eq(x->wbytes, 0); /* missing keys are 0 */
	x = cgroup_stat_find(d, n, 7, 9);
	ck_assert_ptr_nonnull(x);
	ck_assert_uint_eq(x->rios, 1);
	ck_assert_ptr_null(cgroup_stat_find(d, n, 7, 3));
	ck_assert_ptr_null(cgroup_stat_find(d, n, 7, 4));
	ck_assert_ptr_null(cgroup_stat_find(d, n, 7, 1)); /* a device with no line */
}
END_TEST

START_TEST(test_parse_v2_full)
{
	const char *text = "7:0 rbytes=1\n7:1 rbytes=2\n7:2 rbytes=3\n7:0 rbytes=5\n";
	struct cgroup_stat_dev d[2];
	size_t n = 0;
	unsigned bad = 0;

	/* the third device does not fit; the ones that did stay, updated */
	ck_assert_int_eq(cgroup_stat_parse_v2(text, d, &n, 2, &bad), -E2BIG);
	ck_assert_uint_eq(n, 2);
	ck_assert_uint_eq(cgroup_stat_find(d, n, 7, 0)->rbytes, 5);
	ck_assert_uint_eq(cgroup_stat_find(d, n, 7, 1)->rbytes, 2);
	ck_assert_uint_eq(bad, 0);
}
END_TEST

START_TEST(test_parse_v1)
{
	/* blkio.throttle.io_service_bytes as 6.18 writes it */
	const char *bytes = "7:1 Read 32505856\n7:1 Write 34603008\n7:1 Sync 67108864\n7:1 Async 0\n"
			    "7:1 Discard 4096\n7:1 Total 67112960\n7:10 Read 5\n7:10 Write 6\n"
			    "7:10 Frobnicate 7\n7:11 Read\n7:12 Read 18446744073709551616\nTotal 67108864\n";
	const char *ios = "7:1 Read 10\n7:1 Write 20\n7:1 Discard 1\n7:1 Total 31\nTotal 31\n";
	struct cgroup_stat_dev d[MAXD];
	const struct cgroup_stat_dev *x;
	size_t n = 0;
	unsigned bad = 0;

	ck_assert_int_eq(cgroup_stat_parse_v1(bytes, CGROUP_STAT_BYTES, d, &n, MAXD, &bad), 0);
	ck_assert_int_eq(cgroup_stat_parse_v1(ios, CGROUP_STAT_IOS, d, &n, MAXD, &bad), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_uint_eq(bad, 3);
	x = cgroup_stat_find(d, n, 7, 1);
	ck_assert_uint_eq(x->rbytes, 32505856);
	ck_assert_uint_eq(x->wbytes, 34603008);
	ck_assert_uint_eq(x->dbytes, 4096);
	ck_assert_uint_eq(x->rios, 10);
	ck_assert_uint_eq(x->wios, 20);
	ck_assert_uint_eq(x->dios, 1);
	x = cgroup_stat_find(d, n, 7, 10);
	ck_assert_uint_eq(x->rbytes, 5);
	ck_assert_uint_eq(x->wbytes, 6);
	ck_assert_uint_eq(x->rios, 0);
	ck_assert_ptr_null(cgroup_stat_find(d, n, 7, 2));
	ck_assert_ptr_null(cgroup_stat_find(d, n, 7, 12));
}
END_TEST

START_TEST(test_parse_cpu_v2)
{
	uint64_t u, s;

	ck_assert_int_eq(cgroup_stat_parse_cpu_v2("usage_usec 1500\nuser_usec 1000\nsystem_usec 500\n", &u, &s), 0);
	ck_assert_uint_eq(u, 1000000);
	ck_assert_uint_eq(s, 500000);
	ck_assert_int_eq(cgroup_stat_parse_cpu_v2("usage_usec 1500\n", &u, &s), -ENOENT);
	/* cgroup.controllers: whole words only */
	ck_assert(cgroup_stat_controller("cpuset cpu io memory\n", "io"));
	ck_assert(cgroup_stat_controller("io", "io"));
	ck_assert(!cgroup_stat_controller("cpuset iolatency memory\n", "io"));
	ck_assert(!cgroup_stat_controller("cpu bio\n", "io"));
}
END_TEST

UNIT_SUITE(cgroup_suite)
static Suite *cgroup_suite(void)
{
	Suite *s = suite_create("cgroup");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_parse_v2);
	tcase_add_test(tc, test_parse_v2_full);
	tcase_add_test(tc, test_parse_v1);
	tcase_add_test(tc, test_parse_cpu_v2);
	suite_add_tcase(s, tc);
	return s;
}
