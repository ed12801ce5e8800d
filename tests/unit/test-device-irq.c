/* device-irq: discovery on the tunables-basic fixture (virtio, NVMe, SATA, virtual). */
#include <string.h>

#include "device-irq.h"
#include "root.h"
#include "unit.h"

static struct root *open_fixture(void)
{
	struct root *r;

	ck_assert_int_eq(root_open(unit_fixture("tunables-basic"), &r), 0);
	return r;
}

START_TEST(test_virtio)
{
	struct root *r = open_fixture();
	struct device_irq_set set;

	ck_assert_int_eq(device_irq_find(r, "vda", &set), 0);
	/* IRQ 35 is virtio1-config: no I/O, left out. */
	ck_assert_uint_eq(set.n, 1);
	ck_assert_uint_eq(set.irq[0].irq, 36);
	ck_assert_str_eq(set.irq[0].name, "virtio1-req.0");
	ck_assert_str_eq(set.irq[0].affinity, "0-3");
	ck_assert_str_eq(set.irq[0].effective, "0");
	ck_assert_uint_eq(set.irq[0].count, 35681);
	ck_assert_msg(strstr(set.how, "0000:00:02.0"), "%s", set.how);
	root_close(r);
}
END_TEST

START_TEST(test_nvme)
{
	struct root *r = open_fixture();
	struct device_irq_set set;

	ck_assert_int_eq(device_irq_find(r, "nvme0n1", &set), 0);
	ck_assert_uint_eq(set.n, 3); /* nvme0q0..2, not nvme1q1 */
	ck_assert_uint_eq(set.irq[0].irq, 40);
	ck_assert_uint_eq(set.irq[1].irq, 41);
	ck_assert_str_eq(set.irq[1].name, "nvme0q1");
	ck_assert_str_eq(set.irq[1].affinity, "0-1");
	ck_assert_str_eq(set.irq[1].effective, "1");
	ck_assert_uint_eq(set.irq[2].irq, 42);
	ck_assert_str_eq(set.how, "NVMe queues of nvme0");
	root_close(r);
}
END_TEST

START_TEST(test_driver_and_virtual)
{
	struct root *r = open_fixture();
	struct device_irq_set set;

	ck_assert_int_eq(device_irq_find(r, "sda", &set), 0);
	ck_assert_uint_eq(set.n, 1);
	ck_assert_uint_eq(set.irq[0].irq, 27);
	ck_assert_str_eq(set.how, "interrupts named after driver ahci");
	ck_assert_int_eq(device_irq_find(r, "loop3", &set), 0);
	ck_assert_uint_eq(set.n, 0);
	ck_assert_msg(strstr(set.how, "virtual device"), "%s", set.how);
	ck_assert_int_eq(device_irq_find(r, "dm-0", &set), 0);
	ck_assert_uint_eq(set.n, 0);
	ck_assert_int_lt(device_irq_find(r, "nope", &set), 0);
	root_close(r);
}
END_TEST

UNIT_SUITE(device_irq_suite)
static Suite *device_irq_suite(void)
{
	Suite *s = suite_create("device-irq");
	TCase *tc = tcase_create("discovery");

	tcase_add_test(tc, test_virtio);
	tcase_add_test(tc, test_nvme);
	tcase_add_test(tc, test_driver_and_virtual);
	suite_add_tcase(s, tc);
	return s;
}
