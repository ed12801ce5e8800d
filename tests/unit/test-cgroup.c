/* cgroup: the io.stat and v1 blkio parsers (many devices, a missing device,
 * junk, numbers at and past 2^64), source-cgroup on v1 and v2 fixture trees
 * (the walk, which counter wins, a file past one buffer, no hierarchy), the
 * model's rates and identity, and the JSON it renders to. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "cgroup-stat.h"
#include "model-cgroup.h"
#include "output-cgroup.h"
#include "root.h"
#include "source-cgroup.h"
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

/* MAJ:MIN at their edges: major 0-4095, minor 0-1048575, digits 0-9. */
START_TEST(test_parse_v2_device_edges)
{
	const char *text = "9:0 rbytes=1\n4095:1048575 rbytes=2\n4096:0 rbytes=3\n7:1048576 rbytes=4\n0:9 rbytes=5\n"
			   ":0 rbytes=6\n/:0 rbytes=7\n7:x rbytes=8\n";
	struct cgroup_stat_dev d[MAXD];
	size_t n = 0;
	unsigned bad = 0;

	ck_assert_int_eq(cgroup_stat_parse_v2(text, d, &n, MAXD, &bad), 0);
	ck_assert_uint_eq(n, 3);
	ck_assert_uint_eq(bad, 5);
	ck_assert_uint_eq(cgroup_stat_find(d, n, 9, 0)->rbytes, 1);
	ck_assert_uint_eq(cgroup_stat_find(d, n, 4095, 1048575)->rbytes, 2);
	ck_assert_uint_eq(cgroup_stat_find(d, n, 0, 9)->rbytes, 5);
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

static void read_tree(const char *fixture, struct cgroup_sample *c)
{
	struct root *r;
	struct source_cgroup *src;

	ck_assert_int_eq(root_open(unit_fixture(fixture), &r), 0);
	ck_assert_int_eq(source_cgroup_open(r, &src), 0);
	cgroup_sample_init(c);
	ck_assert_int_eq(source_cgroup_read(src, c), 0);
	source_cgroup_close(src);
	root_close(r);
}

static const struct cgroup_io *io_of(const struct cgroup_sample *c, const char *path, unsigned ma, unsigned mi)
{
	for (size_t g = 0; g < c->ngroups; g++)
		if (!strcmp(c->groups[g].path, path))
			return cgroup_sample_io(c, &c->groups[g], makedev(ma, mi));
	return NULL;
}

static uint64_t ino_of(const char *fixture, const char *rel)
{
	char path[4096];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", unit_fixture(fixture), rel);
	ck_assert_int_eq(stat(path, &st), 0);
	return st.st_ino;
}

START_TEST(test_source_v1)
{
	static const char *const order[] = { "/", "/big", "/system.slice", "/system.slice/db.service", "/user.slice" };
	struct cgroup_sample c;
	const struct cgroup_io *io;

	read_tree("cgroup-v1", &c);
	ck_assert(c.valid);
	ck_assert_int_eq(c.version, 1);
	ck_assert_str_eq(c.mount, "sys/fs/cgroup/blkio");
	/* depth first, siblings by name; user.slice has no device line but
	 * is a group all the same (traced ids find their path) */
	ck_assert_uint_eq(c.ngroups, 5);
	ck_assert_uint_eq(c.groups[4].n, 0);
	ck_assert_str_eq(cgroup_sample_find_id(&c, ino_of("cgroup-v1", "sys/fs/cgroup/blkio/user.slice"))->path,
			 "/user.slice");
	ck_assert_ptr_null(cgroup_sample_find_id(&c, 0));
	for (size_t i = 0; i < 5; i++)
		ck_assert_str_eq(c.groups[i].path, order[i]);
	ck_assert_int_eq(c.groups[0].depth, 0);
	ck_assert_int_eq(c.groups[3].depth, 2);
	ck_assert_uint_eq(c.groups[3].id, ino_of("cgroup-v1", "sys/fs/cgroup/blkio/system.slice/db.service"));
	ck_assert_uint_eq(c.groups[0].id, ino_of("cgroup-v1", "sys/fs/cgroup/blkio"));
	/* throttle wins where it counts; bfq where only it does */
	io = io_of(&c, "/", 7, 0);
	ck_assert_int_eq(io->counter, CGROUP_COUNTER_THROTTLE);
	ck_assert_uint_eq(io->rbytes, 1000);
	ck_assert_uint_eq(io->wios, 20);
	io = io_of(&c, "/", 7, 5);
	ck_assert_int_eq(io->counter, CGROUP_COUNTER_BFQ);
	ck_assert_uint_eq(io->wbytes, 131072);
	ck_assert_uint_eq(io->wios, 2);
	io = io_of(&c, "/", 8, 0);
	ck_assert_uint_eq(io->dbytes, 4096);
	ck_assert_uint_eq(io->dios, 1);
	io = io_of(&c, "/system.slice", 7, 5);
	ck_assert_int_eq(io->counter, CGROUP_COUNTER_BFQ);
	ck_assert_uint_eq(io->rios, 1);
	/* no bfq files: throttle alone; its two junk lines counted */
	io = io_of(&c, "/system.slice/db.service", 7, 0);
	ck_assert_uint_eq(io->rbytes, 512);
	ck_assert_uint_eq(c.bad_lines, 2);
	/* a file of 32 KB, past the first read buffer: its last device whole */
	io = io_of(&c, "/big", 259, 299);
	ck_assert_ptr_nonnull(io);
	ck_assert_uint_eq(io->rbytes, 299 * 4096);
	ck_assert_uint_eq(io->rios, 299);
	ck_assert_uint_eq(c.groups[1].n, 300);
	ck_assert_uint_eq(c.skipped, 0);
	cgroup_sample_free(&c);
}
END_TEST

START_TEST(test_source_v2)
{
	struct cgroup_sample c;
	const struct cgroup_io *io;

	read_tree("cgroup-v2", &c);
	ck_assert(c.valid);
	ck_assert_int_eq(c.version, 2);
	ck_assert_str_eq(c.mount, "sys/fs/cgroup");
	/* init.scope has no io.stat: a group without devices */
	ck_assert_uint_eq(c.ngroups, 4);
	ck_assert_str_eq(c.groups[1].path, "/init.scope");
	ck_assert_uint_eq(c.groups[1].n, 0);
	ck_assert_str_eq(c.groups[2].path, "/system.slice");
	ck_assert_str_eq(c.groups[3].path, "/system.slice/web.service");
	io = io_of(&c, "/system.slice", 254, 0);
	ck_assert_int_eq(io->counter, CGROUP_COUNTER_V2);
	ck_assert_uint_eq(io->rbytes, 524288);
	ck_assert_uint_eq(io->wbytes, 2097152);
	ck_assert_uint_eq(io->rios, 128);
	ck_assert_uint_eq(io->wios, 512);
	ck_assert_uint_eq(io->dbytes, 4096);
	ck_assert_uint_eq(c.groups[2].n, 5); /* 254:0 7:0 7:1 7:2 8:16 */
	ck_assert_ptr_null(io_of(&c, "/system.slice", 7, 3));
	ck_assert_ptr_null(io_of(&c, "/system.slice", 7, 4));
	ck_assert_uint_eq(c.bad_lines, 3);
	io = io_of(&c, "/system.slice/web.service", 8, 16); /* a file without a newline */
	ck_assert_uint_eq(io->rbytes, 99);
	cgroup_sample_free(&c);
}
END_TEST

START_TEST(test_source_none)
{
	struct cgroup_sample c;

	read_tree("sata", &c);
	ck_assert(!c.valid);
	ck_assert_ptr_nonnull(strstr(c.why, "no cgroup v2 io controller and no v1 blkio"));
	cgroup_sample_free(&c);
}
END_TEST

/* A sample at time t with disks loop0 (7:0), loop1 (7:1), sda1 (a
 * partition) and one cgroup /a (id) whose 7:0 counters are rb/rios. */
static void fake(struct sample *s, double t, uint64_t id, uint64_t rb, uint64_t rios, enum cgroup_counter ctr)
{
	static const struct {
		const char *name;
		unsigned ma, mi;
		enum disk_kind kind;
	} disks[] = { { "loop0", 7, 0, DISK_KIND_DISK }, { "loop1", 7, 1, DISK_KIND_DISK },
		      { "sda1", 8, 1, DISK_KIND_PARTITION } };
	struct cgroup_io *io;

	sample_init(s);
	s->t = t;
	for (size_t i = 0; i < 3; i++) {
		struct disk_sample *d = sample_add_disk(s);
		d->st.dev = makedev(disks[i].ma, disks[i].mi);
		snprintf(d->st.name, sizeof(d->st.name), "%s", disks[i].name);
		d->info.kind = disks[i].kind;
	}
	s->cg.valid = true;
	s->cg.t = t + 0.001; /* read a little after the sample's instant */
	s->cg.version = 1;
	snprintf(s->cg.mount, sizeof(s->cg.mount), "sys/fs/cgroup/blkio");
	ck_assert_ptr_nonnull(cgroup_sample_add_group(&s->cg, 1, "/", 0));
	io = cgroup_sample_add_io(&s->cg, makedev(7, 0), ctr);
	io->rbytes = rb * 2;
	io->rios = rios * 2;
	ck_assert_ptr_nonnull(cgroup_sample_add_group(&s->cg, id, "/a", 1));
	io = cgroup_sample_add_io(&s->cg, makedev(7, 0), ctr);
	io->rbytes = rb;
	io->rios = rios;
	/* a device line with nothing counted: no row */
	cgroup_sample_add_io(&s->cg, makedev(7, 1), ctr);
}

static const struct cgroup_row *row_of(const struct cgroup_metrics *m, const char *path)
{
	for (size_t i = 0; i < m->nrows; i++)
		if (!strcmp(m->row[i].path, path))
			return &m->row[i];
	return NULL;
}

START_TEST(test_model)
{
	struct sample a, b;
	struct cgroup_metrics m = { 0 };
	const struct cgroup_row *r;
	dev_t only = makedev(7, 1);

	fake(&a, 10.0, 42, 4096, 1, CGROUP_COUNTER_THROTTLE);
	fake(&b, 12.0, 42, 4096 + 8192, 5, CGROUP_COUNTER_THROTTLE);
	ck_assert_int_eq(model_cgroup(&a, &b, NULL, 0, &m), 0);
	ck_assert(m.valid);
	ck_assert_str_eq(m.hierarchy, "/sys/fs/cgroup/blkio");
	ck_assert_uint_eq(m.nrows, 2);
	r = row_of(&m, "/a");
	ck_assert(r->rates);
	ck_assert_str_eq(r->dev_name, "loop0");
	ck_assert_double_eq_tol(r->rbytes_s, 4096.0, 1e-9);
	ck_assert_double_eq_tol(r->rios_s, 2.0, 1e-9);
	ck_assert_uint_eq(r->rbytes, 4096 + 8192);
	ck_assert(m.counter_used[CGROUP_COUNTER_THROTTLE]);
	/* loop1 has no line in the root: counted by nobody; the partition is not listed */
	ck_assert_uint_eq(m.nuncounted, 1);
	ck_assert_str_eq(m.uncounted[0], "loop1");
	/* rates over the walks' own instants, not the samples' */
	a.cg.t = 10.5;
	b.cg.t = 12.5 - 0.5 / 2;
	ck_assert_int_eq(model_cgroup(&a, &b, NULL, 0, &m), 0);
	ck_assert_double_eq_tol(row_of(&m, "/a")->rbytes_s, 8192 / 1.75, 1e-9);
	ck_assert_double_eq_tol(m.interval, 1.75, 1e-9);
	a.cg.t = 10.001;
	b.cg.t = 12.001;
	/* the device filter */
	ck_assert_int_eq(model_cgroup(&a, &b, &only, 1, &m), 0);
	ck_assert_uint_eq(m.nrows, 0);
	ck_assert_uint_eq(m.nuncounted, 1);
	/* first sample: counts, no rates */
	ck_assert_int_eq(model_cgroup(NULL, &b, NULL, 0, &m), 0);
	ck_assert(!row_of(&m, "/a")->rates);
	sample_free(&a);
	sample_free(&b);

	/* re-created under the same name (another id): no rate spans the two */
	fake(&a, 10.0, 42, 4096, 1, CGROUP_COUNTER_THROTTLE);
	fake(&b, 12.0, 43, 8192, 2, CGROUP_COUNTER_THROTTLE);
	ck_assert_int_eq(model_cgroup(&a, &b, NULL, 0, &m), 0);
	ck_assert(!row_of(&m, "/a")->rates);
	ck_assert(row_of(&m, "/")->rates);
	sample_free(&a);
	sample_free(&b);
	/* counters went back (blkio.reset_stats), or another counter took over */
	fake(&a, 10.0, 42, 8192, 2, CGROUP_COUNTER_THROTTLE);
	fake(&b, 12.0, 42, 4096, 1, CGROUP_COUNTER_THROTTLE);
	ck_assert_int_eq(model_cgroup(&a, &b, NULL, 0, &m), 0);
	ck_assert(!row_of(&m, "/a")->rates);
	sample_free(&b);
	fake(&b, 12.0, 42, 16384, 4, CGROUP_COUNTER_BFQ);
	ck_assert_int_eq(model_cgroup(&a, &b, NULL, 0, &m), 0);
	ck_assert(!row_of(&m, "/a")->rates);
	sample_free(&a);
	sample_free(&b);
	model_cgroup_free(&m);
}
END_TEST

/* Every field of a row, the edges of its rates, and what a call resets:
 * writes as well as reads; counters that did not move (an idle interval)
 * are rates of 0, not a reset; two walks at one instant give no rates;
 * the first disk can be the one nobody counts; counters not used are not
 * marked; the walk's own counts are passed on; free leaves m reusable. */
START_TEST(test_model_fields)
{
	struct sample a, b;
	struct cgroup_metrics m = { 0 };
	const struct cgroup_row *r;
	struct cgroup_io *io;

	fake(&a, 10.0, 42, 4096, 1, CGROUP_COUNTER_THROTTLE);
	fake(&b, 12.0, 42, 4096, 1, CGROUP_COUNTER_THROTTLE);
	io = &a.cg.io[a.cg.nio - 2]; /* /a's 7:0 */
	io->wbytes = 1000, io->wios = 10;
	io = &b.cg.io[b.cg.nio - 2];
	io->wbytes = 5000, io->wios = 30;
	b.cg.skipped = 3;
	b.cg.bad_lines = 2;
	ck_assert_int_eq(model_cgroup(&a, &b, NULL, 0, &m), 0);
	r = row_of(&m, "/a");
	ck_assert_ptr_nonnull(r);
	ck_assert(r->rates);
	ck_assert_double_eq_tol(r->rbytes_s, 0, 1e-12);
	ck_assert_double_eq_tol(r->rios_s, 0, 1e-12);
	ck_assert_uint_eq(r->wbytes, 5000);
	ck_assert_uint_eq(r->wios, 30);
	ck_assert_double_eq_tol(r->wbytes_s, 4000 / 2.0, 1e-9);
	ck_assert_double_eq_tol(r->wios_s, 20 / 2.0, 1e-9);
	ck_assert_uint_eq(m.skipped, 3);
	ck_assert_uint_eq(m.bad_lines, 2);
	ck_assert(m.counter_used[CGROUP_COUNTER_THROTTLE]);
	ck_assert(!m.counter_used[CGROUP_COUNTER_BFQ]);
	ck_assert(!m.traced);
	ck_assert_double_eq(m.trace_interval, 0);
	ck_assert_uint_eq(m.loss.ndev, 0);
	ck_assert_uint_eq(m.loss.no_start, 0);
	ck_assert_uint_eq(m.loss.skipped, 0);
	/* two walks at one instant: counts, no rates */
	a.cg.t = b.cg.t;
	ck_assert_int_eq(model_cgroup(&a, &b, NULL, 0, &m), 0);
	ck_assert(!row_of(&m, "/a")->rates);
	/* the first sample: no interval */
	ck_assert_int_eq(model_cgroup(NULL, &b, NULL, 0, &m), 0);
	ck_assert_double_eq(m.interval, 0);
	/* loop0, the first disk, without a line in the root: nobody counts it */
	b.cg.io[0].dev = makedev(7, 5);
	ck_assert_int_eq(model_cgroup(NULL, &b, NULL, 0, &m), 0);
	ck_assert_uint_eq(m.nuncounted, 2);
	ck_assert_str_eq(m.uncounted[0], "loop0");
	/* freed, then used again */
	model_cgroup_free(&m);
	ck_assert_ptr_null(m.row);
	ck_assert_int_eq(model_cgroup(&a, &b, NULL, 0, &m), 0);
	ck_assert_uint_ge(m.nrows, 1);
	model_cgroup_free(&m);
	sample_free(&a);
	sample_free(&b);
}
END_TEST

START_TEST(test_model_invalid_and_json)
{
	struct sample a, b;
	struct cgroup_metrics m = { 0 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	sample_init(&b);
	snprintf(b.cg.why, sizeof(b.cg.why), "no \"blkio\"");
	ck_assert_int_eq(model_cgroup(NULL, &b, NULL, 0, &m), 0);
	ck_assert(!m.valid);
	f = open_memstream(&buf, &len);
	output_cgroup_json(f, &m);
	fclose(f);
	ck_assert_str_eq(buf, "{\"version\": null, \"error\": \"no \\\"blkio\\\"\"}");
	free(buf);
	sample_free(&b);

	fake(&a, 10.0, 42, 4096, 1, CGROUP_COUNTER_BFQ);
	fake(&b, 12.0, 42, 8192, 3, CGROUP_COUNTER_BFQ);
	ck_assert_int_eq(model_cgroup(&a, &b, NULL, 0, &m), 0);
	f = open_memstream(&buf, &len);
	output_cgroup_json(f, &m);
	fclose(f);
	ck_assert_str_eq(buf, "{\"version\": 1, \"hierarchy\": \"/sys/fs/cgroup/blkio\", \"traced\": false, "
			      "\"uncounted\": [\"loop1\"], "
			      "\"uncounted_total\": 1, \"skipped\": 0, \"bad_lines\": 0, \"groups\": ["
			      "{\"path\": \"/\", \"id\": 1, \"device\": \"loop0\", \"counter\": \"bfq\", \"rbytes\": 16384, "
			      "\"wbytes\": 0, \"rios\": 6, \"wios\": 0, \"rbytes_s\": 4096.000, \"wbytes_s\": 0.000, "
			      "\"rios_s\": 2.000, \"wios_s\": 0.000}, "
			      "{\"path\": \"/a\", \"id\": 42, \"device\": \"loop0\", \"counter\": \"bfq\", \"rbytes\": 8192, "
			      "\"wbytes\": 0, \"rios\": 3, \"wios\": 0, \"rbytes_s\": 2048.000, \"wbytes_s\": 0.000, "
			      "\"rios_s\": 1.000, \"wios_s\": 0.000}]}");
	free(buf);
	sample_free(&a);
	sample_free(&b);
	model_cgroup_free(&m);
}
END_TEST

/* A traced (cgroup id, device) pair in s: reads, their bytes, done. */
static struct proc_cgtrace *traced(struct sample *s, uint64_t id, unsigned mi, uint64_t reads, uint64_t writes)
{
	struct proc_cgtrace *t = proc_sample_add_cgtrace(&s->procs, id, makedev(7, mi));

	ck_assert_ptr_nonnull(t);
	t->c.requests[0] = reads;
	t->c.bytes[0] = reads * 4096;
	t->c.requests[1] = writes;
	t->c.bytes[1] = writes * 4096;
	t->c.done = reads + writes;
	return t;
}

static const struct cgroup_row *row_at(const struct cgroup_metrics *m, uint64_t id, unsigned mi)
{
	for (size_t i = 0; i < m->nrows; i++)
		if (m->row[i].id == id && m->row[i].dev == makedev(7, mi))
			return &m->row[i];
	return NULL;
}

/* --trace-processes: traced pairs by cgroup id beside the kernel's counts. */
START_TEST(test_model_traced)
{
	struct sample a, b;
	struct cgroup_metrics m = { 0 };
	const struct cgroup_row *r;
	struct proc_cgtrace *t;
	dev_t only = makedev(7, 1);
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	fake(&a, 10.0, 42, 4096, 1, CGROUP_COUNTER_THROTTLE);
	fake(&b, 12.0, 42, 4096 + 8192, 5, CGROUP_COUNTER_THROTTLE);
	a.procs.valid = b.procs.valid = true;
	a.procs.traced = b.procs.traced = true;
	a.procs.t = 10.2;
	b.procs.t = 12.7; /* the traced rates over their own instants: 2.5 s */
	traced(&a, 42, 0, 10, 0);
	t = traced(&b, 42, 0, 35, 0);
	t->c.lat[7] = 25; /* the interval's 25 in (64, 128] us */
	t->c.lat_sum_ns = 25 * 100000ULL;
	traced(&b, 42, 1, 0, 5); /* 7:1: a line that counts nothing, traced */
	t = traced(&b, 42, 2, 1, 0); /* 7:2: no line at all, not in diskstats */
	t->c.lat[11] = 1; /* done in (1, 2] ms */
	t->c.lat_sum_ns = 1500000;
	traced(&b, 99, 0, 3, 0); /* an id the walk did not find (removed) */
	traced(&b, 0, 0, 0, 2);  /* no bio (a flush) */
	proc_sample_sort_traced(&a.procs);
	proc_sample_sort_traced(&b.procs);

	ck_assert_int_eq(model_cgroup(&a, &b, NULL, 0, &m), 0);
	ck_assert(m.traced);
	ck_assert_double_eq_tol(m.trace_interval, 2.5, 1e-9);
	ck_assert_uint_eq(m.nrows, 6);
	/* the tree first (counted, or traced under a cgroup found), then the ids not found, by id */
	r = &m.row[0];
	ck_assert(r->id == 1 && r->counted && !r->traced);
	r = &m.row[1];
	ck_assert(r->id == 42 && r->dev == makedev(7, 0) && r->counted && r->traced);
	ck_assert_str_eq(r->path, "/a");
	ck_assert(r->t.rates);
	ck_assert_double_eq_tol(r->t.req_s[0], 10.0, 1e-9);
	ck_assert_double_eq_tol(r->t.bytes_s[0], 40960.0, 1e-9);
	ck_assert_uint_eq(r->t.requests[0], 35);
	ck_assert_uint_eq(r->t.bytes[0], 35 * 4096);
	ck_assert(r->t.lat_p50_us > 64 && r->t.lat_p50_us <= 128);
	ck_assert_double_eq_tol(r->t.lat_avg_us, 100.0, 1e-9);
	ck_assert_double_eq_tol(r->rbytes_s, 4096.0, 1e-9); /* the kernel's rates as before */
	r = &m.row[2];
	ck_assert(r->id == 42 && r->dev == makedev(7, 1) && !r->counted && r->traced);
	ck_assert_str_eq(r->path, "/a");
	ck_assert_int_eq(r->depth, 1);
	/* a new pair (created since a traced sample without it): 5 writes in 2.5 s */
	ck_assert(r->t.rates);
	ck_assert_double_eq_tol(r->t.req_s[1], 2.0, 1e-9);
	ck_assert_double_eq_tol(r->t.bytes_s[1], 5 * 4096 / 2.5, 1e-9);
	ck_assert(!r->rates);
	ck_assert_uint_eq(r->t.requests[1], 5);
	r = &m.row[3];
	ck_assert(r->id == 42 && r->dev == makedev(7, 2) && !r->counted && r->traced);
	ck_assert_str_eq(r->path, "/a");
	ck_assert_str_eq(r->dev_name, "7:2");
	r = &m.row[4];
	ck_assert(r->id == 0 && !r->counted && r->traced && r->path[0] == '\0');
	r = &m.row[5];
	ck_assert(r->id == 99 && !r->counted && r->traced && r->path[0] == '\0');
	ck_assert_uint_eq(r->t.requests[0], 3);
	ck_assert_double_eq_tol(r->t.req_s[0], 3 / 2.5, 1e-9);
	/* the new pair's percentiles are its whole histogram's */
	r = row_at(&m, 42, 2);
	ck_assert(r->t.rates);
	ck_assert(r->t.lat_p50_us > 1024 && r->t.lat_p50_us <= 2048);
	ck_assert_double_eq_tol(r->t.lat_avg_us, 1500.0, 1e-9);

	f = open_memstream(&buf, &len);
	output_cgroup_json(f, &m);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(buf, "\"traced\": true, "));
	ck_assert_ptr_nonnull(strstr(buf, "\"rios_s\": 4.000, \"wios_s\": 0.000, \"traced\": null}"));
	ck_assert_ptr_nonnull(strstr(buf, "{\"path\": \"/a\", \"id\": 42, \"device\": \"loop1\", \"counter\": null, "
					  "\"rbytes\": null, \"wbytes\": null, \"rios\": null, \"wios\": null, "
					  "\"rbytes_s\": null, \"wbytes_s\": null, \"rios_s\": null, \"wios_s\": null, "
					  "\"traced\": {\"requests\": 5, \"read_requests\": 0, \"read_bytes\": 0, "
					  "\"write_requests\": 5, \"write_bytes\": 20480, "));
	ck_assert_ptr_nonnull(strstr(buf, "{\"path\": null, \"id\": 99, \"device\": \"loop0\""));
	ck_assert_ptr_nonnull(strstr(buf, "\"traced\": {\"requests\": 35, \"read_requests\": 35, \"read_bytes\": 143360, "));
	ck_assert_ptr_nonnull(strstr(buf, "\"read_requests_s\": 10.0, "));
	free(buf);

	/* the device filter holds for traced rows too */
	ck_assert_int_eq(model_cgroup(&a, &b, &only, 1, &m), 0);
	ck_assert_uint_eq(m.nrows, 1);
	ck_assert_ptr_nonnull(row_at(&m, 42, 1));
	/* a previous sample without tracing: counts, no traced rates */
	a.procs.traced = false;
	ck_assert_int_eq(model_cgroup(&a, &b, NULL, 0, &m), 0);
	ck_assert(m.traced);
	ck_assert(!row_at(&m, 42, 0)->t.rates);
	ck_assert_uint_eq(row_at(&m, 42, 0)->t.requests[0], 35);
	ck_assert(row_at(&m, 42, 0)->rates);
	for (size_t i = 0; i < m.nrows; i++) /* new pairs neither */
		ck_assert(!m.row[i].t.rates);
	ck_assert(row_at(&m, 42, 1)->traced);
	/* no previous sample: counts, no rates */
	ck_assert_int_eq(model_cgroup(NULL, &b, NULL, 0, &m), 0);
	ck_assert_uint_eq(m.nrows, 6);
	for (size_t i = 0; i < m.nrows; i++)
		ck_assert(!m.row[i].t.rates);
	/* tracing off now: the kernel's rows only, no traced figures */
	b.procs.traced = false;
	ck_assert_int_eq(model_cgroup(&a, &b, NULL, 0, &m), 0);
	ck_assert(!m.traced);
	ck_assert_uint_eq(m.nrows, 2); /* 7:2 and the ids not found are gone with the tracing */
	ck_assert(!m.row[1].traced);
	f = open_memstream(&buf, &len);
	output_cgroup_json(f, &m);
	fclose(f);
	ck_assert_ptr_null(strstr(buf, "\"traced\": null"));
	free(buf);
	/* counts that went back (the map's LRU dropped the pair and it came
	 * back): no traced rate */
	a.procs.traced = b.procs.traced = true;
	a.procs.cg[0].c.requests[0] = 100;
	ck_assert_uint_eq(a.procs.cg[0].cgroup_id, 42);
	ck_assert_int_eq(model_cgroup(&a, &b, NULL, 0, &m), 0);
	ck_assert(!row_at(&m, 42, 0)->t.rates);
	sample_free(&a);
	sample_free(&b);
	model_cgroup_free(&m);
}
END_TEST

UNIT_SUITE(cgroup_suite)
static Suite *cgroup_suite(void)
{
	Suite *s = suite_create("cgroup");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_parse_v2);
	tcase_add_test(tc, test_parse_v2_device_edges);
	tcase_add_test(tc, test_parse_v2_full);
	tcase_add_test(tc, test_parse_v1);
	tcase_add_test(tc, test_parse_cpu_v2);
	tcase_add_test(tc, test_source_v1);
	tcase_add_test(tc, test_source_v2);
	tcase_add_test(tc, test_source_none);
	tcase_add_test(tc, test_model);
	tcase_add_test(tc, test_model_fields);
	tcase_add_test(tc, test_model_invalid_and_json);
	tcase_add_test(tc, test_model_traced);
	suite_add_tcase(s, tc);
	return s;
}
