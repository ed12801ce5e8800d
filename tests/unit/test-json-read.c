/* json-read: the reader the sweeps use for fio's JSON. Every value type,
 * the node array past its first allocation, the depth limit at its edge,
 * and the malformed documents it must refuse rather than half-read. */
#include <errno.h>
#include <math.h>
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json-read.h"
#include "unit.h"

static double num(const struct json_doc *d, int node, const char *a, const char *b)
{
	const char *path[] = { a, b };

	return json_num_path(d, node, path, b ? 2 : 1);
}

START_TEST(every_value_type)
{
	static const char text[] = "fio-3.33 note: something\n"
				   "{\"t\": true, \"f\": false, \"n\": null, \"s\": \"a\\\"b\\\\\",\n"
				   "\t\"i\": -12, \"x\": 2.5e3, \"a\": [1, {\"k\": 7}], \"o\": {}, \"e\": []}";
	struct json_doc d;
	int c, k;

	ck_assert_int_eq(json_read(text, &d), 0);
	ck_assert_int_eq(d.n[0].type, JSON_OBJ);
	ck_assert_ptr_null(d.n[0].key);
	c = json_get(&d, 0, "t");
	ck_assert_int_eq(d.n[c].type, JSON_BOOL);
	ck_assert(d.n[c].num == 1);
	c = json_get(&d, 0, "f");
	ck_assert_int_eq(d.n[c].type, JSON_BOOL);
	ck_assert(d.n[c].num == 0);
	c = json_get(&d, 0, "n");
	ck_assert_int_eq(d.n[c].type, JSON_NULL);
	c = json_get(&d, 0, "s");
	ck_assert_int_eq(d.n[c].type, JSON_STR);
	/* raw contents: the escaped quote does not end the string */
	ck_assert_uint_eq(d.n[c].len, 6);
	ck_assert(!memcmp(d.n[c].str, "a\\\"b\\\\", 6));
	ck_assert(num(&d, 0, "i", NULL) == -12);
	ck_assert(num(&d, 0, "x", NULL) == 2500);
	/* the array's children in order, with no key */
	c = json_get(&d, 0, "a");
	ck_assert_int_eq(d.n[c].type, JSON_ARR);
	k = d.n[c].child;
	ck_assert_int_eq(d.n[k].type, JSON_NUM);
	ck_assert(d.n[k].num == 1);
	ck_assert_ptr_null(d.n[k].key);
	ck_assert_uint_eq(d.n[k].keylen, 0);
	k = d.n[k].next;
	ck_assert_int_eq(d.n[k].type, JSON_OBJ);
	ck_assert(num(&d, k, "k", NULL) == 7);
	ck_assert_int_eq(d.n[k].next, -1);
	/* empty containers have no child */
	c = json_get(&d, 0, "o");
	ck_assert_int_eq(d.n[c].type, JSON_OBJ);
	ck_assert_int_eq(d.n[c].child, -1);
	c = json_get(&d, 0, "e");
	ck_assert_int_eq(d.n[c].type, JSON_ARR);
	ck_assert_int_eq(d.n[c].child, -1);
	ck_assert_int_eq(d.n[c].next, -1); /* the last member */
	/* t f n s i x a o e: 9 members and the root, 3 more in the array */
	ck_assert_uint_eq(d.count, 13);
	json_free(&d);
	ck_assert_ptr_null(d.n);
	ck_assert_uint_eq(d.count, 0);
	ck_assert_uint_eq(d.cap, 0);
}
END_TEST

START_TEST(lookups)
{
	struct json_doc d;
	const char *deep[] = { "jobs", "read", "iops" };

	ck_assert_int_eq(json_read("{\"read\": {\"iops\": 5, \"bw\": \"x\"}, \"rea\": 1, \"readx\": 2, \"read\": 9}", &d), 0);
	/* a key matches whole, not as a prefix of another or by a prefix */
	ck_assert(num(&d, 0, "rea", NULL) == 1);
	ck_assert(num(&d, 0, "readx", NULL) == 2);
	/* the first of two equal keys */
	ck_assert(num(&d, 0, "read", "iops") == 5);
	ck_assert(isnan(num(&d, 0, "read", "bw")));   /* a string is no number */
	ck_assert(isnan(num(&d, 0, "read", "none"))); /* absent */
	ck_assert(isnan(num(&d, 0, "rea", "iops")));  /* through a number */
	ck_assert(isnan(json_num_path(&d, 0, deep, 3)));
	ck_assert_int_eq(json_get(&d, -1, "read"), -1);
	ck_assert_int_eq(json_get(&d, (int)d.count, "read"), -1);
	ck_assert_int_eq(json_get(&d, json_get(&d, 0, "rea"), "x"), -1); /* not an object */
	/* the node itself with an empty path; a negative node is NaN */
	ck_assert(isnan(json_num_path(&d, 0, deep, 0)));
	ck_assert(json_num_path(&d, json_get(&d, 0, "rea"), deep, 0) == 1);
	ck_assert(isnan(json_num_path(&d, -1, deep, 0)));
	json_free(&d);

	/* a root array: its first element is node 1 */
	ck_assert_int_eq(json_read("  [ 3 , 4 ]  trailing", &d), 0);
	ck_assert_int_eq(d.n[0].type, JSON_ARR);
	ck_assert_int_eq(d.n[0].child, 1);
	ck_assert(d.n[1].num == 3);
	ck_assert(d.n[d.n[1].next].num == 4);
	ck_assert_int_eq(json_get(&d, 0, "x"), -1); /* an array has no members */
	json_free(&d);
}
END_TEST

/* More nodes than the first allocation (256): every one read, in order
 * (ASan catches a write past the array). */
START_TEST(past_the_first_allocation)
{
	size_t n = 1000, len = 0;
	char *text = malloc(n * 24 + 16);
	struct json_doc d;
	int c, i = 0;

	len += (size_t)sprintf(text + len, "{\"a\": [");
	for (size_t k = 0; k < n; k++)
		len += (size_t)sprintf(text + len, "%s%zu.5", k ? "," : "", k);
	sprintf(text + len, "], \"end\": 42}");
	ck_assert_int_eq(json_read(text, &d), 0);
	ck_assert_uint_eq(d.count, n + 3);
	ck_assert_uint_ge(d.cap, d.count);
	for (c = d.n[json_get(&d, 0, "a")].child; c >= 0; c = d.n[c].next, i++)
		ck_assert_msg(d.n[c].num == i + 0.5, "element %d is %g", i, d.n[c].num);
	ck_assert_int_eq(i, (int)n);
	ck_assert(num(&d, 0, "end", NULL) == 42);
	json_free(&d);
	/* exactly the first allocation: a lookup one past the last node reads
	 * nothing (ASan sees a read past the array) */
	len = (size_t)sprintf(text, "[");
	for (size_t k = 0; k < 255; k++)
		len += (size_t)sprintf(text + len, "%s{}", k ? "," : "");
	sprintf(text + len, "]");
	ck_assert_int_eq(json_read(text, &d), 0);
	ck_assert_uint_eq(d.count, 256);
	ck_assert_uint_eq(d.cap, 256);
	ck_assert_int_eq(json_get(&d, 255, "x"), -1);
	ck_assert_int_eq(json_get(&d, 256, "x"), -1);
	json_free(&d);
	free(text);
}
END_TEST

/* Nesting up to the limit reads; one level more is refused. */
static char *nested(int levels)
{
	char *t = malloc((size_t)levels * 2 + 2);
	int i;

	for (i = 0; i < levels; i++)
		t[i] = '[';
	for (; i < 2 * levels; i++)
		t[i] = ']';
	t[i] = '\0';
	return t;
}

START_TEST(depth_limit)
{
	struct json_doc d;
	char *ok = nested(65), *deep = nested(66);

	/* the root is depth 0: 65 arrays reach depth 64 */
	ck_assert_int_eq(json_read(ok, &d), 0);
	ck_assert_uint_eq(d.count, 65);
	json_free(&d);
	ck_assert_int_eq(json_read(deep, &d), -EINVAL);
	ck_assert_ptr_null(d.n); /* freed on failure */
	free(ok);
	free(deep);
}
END_TEST

START_TEST(malformed)
{
	static const char *const bad[] = {
		"",                       /* nothing */
		"no json here",           /* no container */
		"{",                      /* unterminated */
		"[1, 2",                  /* unterminated */
		"[1 2]",                  /* no comma */
		"[1,]",                   /* trailing comma */
		"{\"a\" 1}",              /* no colon */
		"{\"a\": }",              /* no value */
		"{a: 1}",                 /* unquoted key */
		"{\"a\": 1,}",            /* trailing comma */
		"[\"abc]",                /* unterminated string */
		"[\"ab\\",                /* escape at the end */
		"[\"a\tb\"]",             /* control character in a string */
		"[\"a\nb\"]",
		"[tru]",                  /* cut literal */
		"[nul]",
		"[fals]",
		"[-]",                    /* a sign alone */
		"[+1]",                   /* JSON has no plus */
		"[.5]",
		"[01]",                   /* leading zero */
		"[1.]",                   /* no digit after the point */
		"[1.e5]",
		"[1e]",                   /* no exponent digit */
		"[1e+]",
		"[0x10]",                 /* strtod would take these */
		"[-inf]",
		"[-nan]",
		"[nan]",
		"[- 1]",
		"[1e400]",                /* beyond a double: strtod says inf */
		"[-1e309]",
		"[17976931348623159e292]",
		"{\"a\": [1}, \"b\": 2}", /* mismatched close */
		"[1]]",                   /* fine: the rest is after the value */
	};
	struct json_doc d;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]) - 1; i++) {
		d.n = (struct json_node *)&d; /* json_read must not trust what it finds */
		ck_assert_msg(json_read(bad[i], &d) == -EINVAL, "accepted '%s'", bad[i]);
		ck_assert_ptr_null(d.n);
		ck_assert_uint_eq(d.count, 0);
	}
	ck_assert_int_eq(json_read(bad[sizeof(bad) / sizeof(bad[0]) - 1], &d), 0);
	json_free(&d);
	/* every part of the number grammar */
	ck_assert_int_eq(json_read("[-0, 0.25, 1E-2, 1e+5, 7E3, -10.5e1, 1234567890, 1e-400, 1.7976931348623157e308]", &d), 0);
	{
		static const double want[] = { -0.0, 0.25, 0.01, 1e5, 7000, -105, 1234567890, 0, DBL_MAX };
		int c = d.n[0].child;

		for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++, c = d.n[c].next) {
			ck_assert_int_ge(c, 0);
			ck_assert_int_eq(d.n[c].type, JSON_NUM);
			ck_assert_msg(d.n[c].num == want[i], "number %zu is %g", i, d.n[c].num);
		}
		ck_assert_int_eq(c, -1);
	}
	json_free(&d);
	/* a string may hold a space (0x20), not 0x1f */
	ck_assert_int_eq(json_read("[\" \"]", &d), 0);
	ck_assert_uint_eq(d.n[1].len, 1);
	json_free(&d);
	ck_assert_int_eq(json_read("[\"\x1f\"]", &d), -EINVAL);
	/* whitespace of every kind between tokens */
	ck_assert_int_eq(json_read("{\r\n\t \"a\"\r\n\t :\r\n\t [\r\n\t true\r\n\t ,\r\n\t null\r\n\t ]\r\n\t }", &d), 0);
	ck_assert_uint_eq(d.count, 4);
	json_free(&d);
	/* empty containers with white space inside */
	ck_assert_int_eq(json_read("{ \"o\": { }, \"a\": [ \n ] }", &d), 0);
	ck_assert_int_eq(d.n[json_get(&d, 0, "o")].child, -1);
	ck_assert_int_eq(d.n[json_get(&d, 0, "a")].type, JSON_ARR);
	json_free(&d);
}
END_TEST

UNIT_SUITE(json_read_suite)
static Suite *json_read_suite(void)
{
	Suite *s = suite_create("json-read");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, every_value_type);
	tcase_add_test(tc, lookups);
	tcase_add_test(tc, past_the_first_allocation);
	tcase_add_test(tc, depth_limit);
	tcase_add_test(tc, malformed);
	suite_add_tcase(s, tc);
	return s;
}
