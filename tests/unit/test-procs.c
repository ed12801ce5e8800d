/* procs: the process view's model on a fixture of two samples
 * (tests/fixtures/procs): rates over the interval, identity by PID and
 * start time, counters that go back, idle and new processes, sorting by
 * every column both ways with ties by PID, and the JSON it renders to. */
#include <bpf/bpf.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "model-procs.h"
#include "output-procs.h"
#include "source-procs-bpf.h"
#include "unit.h"

/* A fixture file into a sample (the README says the format). */
static void load(const char *name, struct proc_sample *s)
{
	char path[512], line[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", unit_fixture("procs"), name);
	ck_assert_ptr_nonnull(f = fopen(path, "r"));
	proc_sample_init(s);
	s->valid = s->all_users = true;
	while (fgets(line, sizeof(line), f)) {
		char user[PROC_USER_MAX], comm[PROC_COMM_MAX];
		unsigned long long start, rb, wb;
		int pid, uid, at = 0;
		struct proc_entry *e;

		line[strcspn(line, "\n")] = '\0';
		if (sscanf(line, "t %lf", &s->t) == 1 || sscanf(line, "unreadable %u", &s->unreadable) == 1)
			continue;
		ck_assert_int_eq(sscanf(line, "%d %llu %d %31s %63s %llu %llu %n", &pid, &start, &uid, user, comm, &rb,
					&wb, &at),
				 7);
		ck_assert_ptr_nonnull(e = proc_sample_add(s, pid, start));
		e->uid = (uid_t)uid;
		snprintf(e->user, sizeof(e->user), "%s", user);
		snprintf(e->comm, sizeof(e->comm), "%s", comm);
		snprintf(e->cmdline, sizeof(e->cmdline), "%s", line + at);
		e->rbytes = rb;
		e->wbytes = wb;
	}
	fclose(f);
	proc_sample_sort(s);
}

/* The fixture's two samples: t0 into a, t1 (2 s later) into b. */
static void load_pair(struct proc_sample *a, struct proc_sample *b)
{
	load("t0", a);
	load("t1", b);
}

/* What load_pair and model_procs made. */
static void free_all(struct proc_sample *a, struct proc_sample *b, struct proc_metrics *m)
{
	proc_sample_free(a);
	proc_sample_free(b);
	model_procs_free(m);
}

static const struct proc_row *row(const struct proc_metrics *m, pid_t pid)
{
	return model_procs_find(m, pid);
}

START_TEST(test_rates)
{
	struct proc_sample a, b;
	struct proc_metrics m = { 0 };
	const struct proc_row *r;

	load_pair(&a, &b);
	ck_assert_int_eq(model_procs(&a, &b, true, &m), 0);
	ck_assert(m.valid);
	ck_assert_double_eq_tol(m.interval, 2.0, 1e-9);
	ck_assert_uint_eq(m.unreadable, 3);
	ck_assert_uint_eq(m.nprocs, 8);
	ck_assert_uint_eq(m.nrows, 8);
	ck_assert_ptr_nonnull(r = row(&m, 100));
	ck_assert(r->rates);
	ck_assert_double_eq_tol(r->wbytes_s, 2 * 1048576.0, 1e-6);
	ck_assert_double_eq_tol(r->rbytes_s, 0, 1e-9);
	ck_assert_uint_eq(r->wbytes, 5242880);
	ck_assert_str_eq(r->cmdline, "fio --name=writer --rw=write");
	ck_assert_ptr_nonnull(r = row(&m, 101));
	ck_assert_double_eq_tol(r->rbytes_s, 1048576.0, 1e-6);
	ck_assert_ptr_nonnull(r = row(&m, 102));
	ck_assert(r->rates);
	ck_assert_double_eq_tol(r->rbytes_s + r->wbytes_s, 0, 1e-9);
	ck_assert_ptr_nonnull(r = row(&m, 103)); /* PID reused: another process */
	ck_assert(!r->rates);
	ck_assert_str_eq(r->comm, "new");
	ck_assert_ptr_nonnull(r = row(&m, 104)); /* counters back: no rate, not a huge one */
	ck_assert(!r->rates);
	ck_assert_ptr_null(row(&m, 105));       /* gone */
	ck_assert_ptr_nonnull(r = row(&m, 106)); /* new: its bytes predate the interval */
	ck_assert(!r->rates);
	ck_assert_ptr_nonnull(r = row(&m, 107));
	ck_assert_double_eq_tol(r->rbytes_s, 524288.0, 1e-6);
	ck_assert_str_eq(r->cmdline, "");
	ck_assert_ptr_nonnull(r = row(&m, 108));
	ck_assert_str_eq(r->user, "alice");
	ck_assert_uint_eq(r->uid, 1000);
	/* whose processes: the sample's user */
	b.all_users = false;
	b.uid = 1000;
	ck_assert_int_eq(model_procs(&a, &b, true, &m), 0);
	ck_assert(!m.all_users);
	ck_assert_uint_eq(m.uid, 1000);
	b.all_users = true;

	/* only those that moved bytes in the interval */
	ck_assert_int_eq(model_procs(&a, &b, false, &m), 0);
	ck_assert_uint_eq(m.nrows, 4);
	ck_assert_ptr_nonnull(row(&m, 100));
	ck_assert_ptr_nonnull(row(&m, 101));
	ck_assert_ptr_nonnull(row(&m, 107));
	ck_assert_ptr_nonnull(row(&m, 108));
	ck_assert_ptr_null(row(&m, 102));
	ck_assert_ptr_null(row(&m, 106));

	/* no previous sample, or an invalid one: no rates, no active rows */
	ck_assert_int_eq(model_procs(NULL, &b, true, &m), 0);
	ck_assert_double_eq_tol(m.interval, 0, 1e-9);
	for (size_t i = 0; i < m.nrows; i++)
		ck_assert(!m.row[i].rates);
	a.valid = false;
	ck_assert_int_eq(model_procs(&a, &b, false, &m), 0);
	ck_assert_uint_eq(m.nrows, 0);
	/* an invalid current sample: not valid, why kept */
	b.valid = false;
	snprintf(b.why, sizeof(b.why), "no /proc");
	ck_assert_int_eq(model_procs(NULL, &b, true, &m), 0);
	ck_assert(!m.valid);
	ck_assert_str_eq(m.why, "no /proc");
	free_all(&a, &b, &m);
	ck_assert_ptr_null(m.row);
	ck_assert_uint_eq(m.nrows + m.cap + m.ndev, 0);
}
END_TEST

static void order(const struct proc_metrics *m, const pid_t *want, size_t n)
{
	ck_assert_uint_eq(m->nrows, n);
	for (size_t i = 0; i < n; i++)
		ck_assert_msg(m->row[i].pid == want[i], "row %zu: pid %d, want %d", i, (int)m->row[i].pid, (int)want[i]);
}

START_TEST(test_sort)
{
	struct proc_sample a, b;
	struct proc_metrics m = { 0 };

	load_pair(&a, &b);
	ck_assert_int_eq(model_procs(&a, &b, false, &m), 0);
	/* read + write: 108 (4 MiB/s) > 100 (2) > 101 (1) > 107 (0.5) */
	model_procs_sort(&m, PROC_COL_BYTES_S, false);
	order(&m, (const pid_t[]){ 108, 100, 101, 107 }, 4);
	model_procs_sort(&m, PROC_COL_BYTES_S, true);
	order(&m, (const pid_t[]){ 107, 101, 100, 108 }, 4);
	/* ties by PID: 100 and 108 both write 2 MiB/s */
	model_procs_sort(&m, PROC_COL_WBYTES_S, false);
	order(&m, (const pid_t[]){ 100, 108, 101, 107 }, 4);
	model_procs_sort(&m, PROC_COL_RBYTES_S, false);
	order(&m, (const pid_t[]){ 108, 101, 107, 100 }, 4);
	model_procs_sort(&m, PROC_COL_PID, false);
	order(&m, (const pid_t[]){ 100, 101, 107, 108 }, 4);
	model_procs_sort(&m, PROC_COL_PID, true);
	order(&m, (const pid_t[]){ 108, 107, 101, 100 }, 4);
	model_procs_sort(&m, PROC_COL_USER, false);
	order(&m, (const pid_t[]){ 108, 100, 101, 107 }, 4);
	/* command line, else comm: the kworker's empty one sorts by "kworker/u8:1" */
	model_procs_sort(&m, PROC_COL_COMMAND, false);
	order(&m, (const pid_t[]){ 108, 101, 100, 107 }, 4);
	model_procs_sort(&m, PROC_COL_RBYTES, false);
	order(&m, (const pid_t[]){ 108, 101, 107, 100 }, 4);
	model_procs_sort(&m, PROC_COL_WBYTES, false);
	order(&m, (const pid_t[]){ 100, 108, 101, 107 }, 4);
	/* a column past the table sorts by read + write */
	model_procs_sort(&m, PROC_COLUMNS, false);
	order(&m, (const pid_t[]){ 108, 100, 101, 107 }, 4);

	/* with every process: those without rates after those with, whatever the order */
	ck_assert_int_eq(model_procs(&a, &b, true, &m), 0);
	model_procs_sort(&m, PROC_COL_BYTES_S, true);
	ck_assert(m.row[0].rates && m.row[4].rates);
	ck_assert(!m.row[5].rates && !m.row[6].rates && !m.row[7].rates);
	ck_assert_int_eq(m.row[0].pid, 102); /* 0 B/s, the least that has a rate */
	free_all(&a, &b, &m);
}
END_TEST

START_TEST(test_json)
{
	struct proc_sample a, b;
	struct proc_metrics m = { 0 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	load_pair(&a, &b);
	ck_assert_int_eq(model_procs(&a, &b, false, &m), 0);
	model_procs_sort(&m, PROC_COL_BYTES_S, false);
	m.nrows = 1;
	ck_assert_ptr_nonnull(f = open_memstream(&buf, &len));
	output_procs_json(f, &m);
	fclose(f);
	ck_assert_str_eq(buf, "{\"interval\": 2.000, \"all_users\": true, \"traced\": false, \"processes\": 8, \"unreadable\": 3, \"rows\": ["
			      "{\"pid\": 108, \"user\": \"alice\", \"uid\": 1000, \"command\": \"dd\", \"cmdline\": "
			      "\"dd if=/dev/zero of=/tmp/x\", \"rbytes\": 4194304, \"wbytes\": 4194304, "
			      "\"rbytes_s\": 2097152.0, \"wbytes_s\": 2097152.0}]}");
	free(buf);
	m.valid = false;
	snprintf(m.why, sizeof(m.why), "not \"live\"");
	ck_assert_ptr_nonnull(f = open_memstream(&buf, &len));
	output_procs_json(f, &m);
	fclose(f);
	ck_assert_str_eq(buf, "{\"error\": \"not \\\"live\\\"\"}");
	free(buf);
	free_all(&a, &b, &m);
}
END_TEST

START_TEST(test_find)
{
	struct proc_sample s;

	proc_sample_init(&s);
	for (int pid = 50; pid > 0; pid -= 7)
		ck_assert_ptr_nonnull(proc_sample_add(&s, pid, (uint64_t)pid * 10));
	proc_sample_sort(&s);
	for (size_t i = 1; i < s.n; i++)
		ck_assert_int_lt(s.p[i - 1].pid, s.p[i].pid);
	ck_assert_ptr_nonnull(proc_sample_find(&s, 1, 10));
	ck_assert_ptr_nonnull(proc_sample_find(&s, 50, 500));
	ck_assert_ptr_null(proc_sample_find(&s, 50, 501)); /* same PID, another start */
	ck_assert_ptr_null(proc_sample_find(&s, 51, 510));
	ck_assert_ptr_null(proc_sample_find(&s, 0, 0));
	proc_sample_reset(&s);
	ck_assert_uint_eq(s.n, 0);
	ck_assert_ptr_null(proc_sample_find(&s, 1, 10));
	proc_sample_free(&s);
}
END_TEST

/* --trace-processes pairs: rates per device, latency of the interval, a
 * process active by requests alone (the flusher), the top processes of a
 * device, pairs of a reused PID without rates. */
START_TEST(test_traced)
{
	struct proc_sample a, b;
	struct proc_metrics m = { 0 };
	const struct proc_row *r;
	struct proc_trace *t;
	size_t idx[4];

	load_pair(&a, &b);
	a.traced = b.traced = true;
	/* 101 reads from 7:0 (200 requests in 2 s, all done in (64, 128] us) */
	ck_assert_ptr_nonnull(t = proc_sample_add_trace(&a, 101, makedev(7, 0)));
	t->c.requests[0] = 100;
	t->c.done = 100;
	ck_assert_ptr_nonnull(t = proc_sample_add_trace(&b, 101, makedev(7, 0)));
	t->c.requests[0] = 300;
	t->c.done = 300;
	t->c.lat[7] = 200;
	t->c.lat_sum_ns = 200 * 100000ULL;
	t->cgroup_id = 42;
	snprintf(t->comm, sizeof(t->comm), "fio-reader");
	/* 102 (no bytes in /proc/PID/io: a flusher) writes 10 requests to 7:0 and 7:1 */
	ck_assert_ptr_nonnull(proc_sample_add_trace(&a, 102, makedev(7, 1)));
	ck_assert_ptr_nonnull(t = proc_sample_add_trace(&b, 102, makedev(7, 1)));
	t->c.requests[1] = 10;
	ck_assert_ptr_nonnull(t = proc_sample_add_trace(&b, 102, makedev(7, 0)));
	t->c.requests[1] = 20;
	/* 103's PID was reused: the pair carries no rate */
	ck_assert_ptr_nonnull(t = proc_sample_add_trace(&a, 103, makedev(7, 0)));
	ck_assert_ptr_nonnull(t = proc_sample_add_trace(&b, 103, makedev(7, 0)));
	t->c.requests[0] = 50;
	proc_sample_sort_traced(&a);
	proc_sample_sort_traced(&b);

	ck_assert_int_eq(model_procs(&a, &b, false, &m), 0);
	ck_assert(m.traced);
	ck_assert_ptr_nonnull(r = model_procs_find(&m, 101));
	ck_assert_uint_eq(r->ndev, 1);
	ck_assert(m.dev[r->dfirst].f.rates);
	ck_assert_double_eq_tol(m.dev[r->dfirst].f.req_s[0], 100, 1e-9);
	ck_assert_double_eq_tol(r->req_s, 100, 1e-9);
	ck_assert_uint_eq(m.dev[r->dfirst].cgroup_id, 42);
	ck_assert_str_eq(m.dev[r->dfirst].comm, "fio-reader");
	ck_assert(m.dev[r->dfirst].f.lat_p50_us > 64 && m.dev[r->dfirst].f.lat_p50_us <= 128);
	ck_assert_double_eq_tol(m.dev[r->dfirst].f.lat_avg_us, 100, 1e-9);
	ck_assert_ptr_nonnull(r = model_procs_find(&m, 102)); /* active by requests alone */
	ck_assert_uint_eq(r->ndev, 2);
	/* 7:1 had a pair: 5/s; 7:0 is new since: its 20 from zero, 10/s */
	ck_assert_double_eq_tol(r->req_s, 15, 1e-9);
	ck_assert_uint_eq(m.dev[r->dfirst].dev, makedev(7, 0));
	ck_assert(m.dev[r->dfirst].f.rates);
	ck_assert_double_eq_tol(m.dev[r->dfirst].f.req_s[1], 10, 1e-9);
	ck_assert_double_eq_tol(m.dev[r->dfirst + 1].f.req_s[1], 5, 1e-9);
	ck_assert_ptr_null(model_procs_find(&m, 103)); /* no rate, no bytes: not active */
	ck_assert_int_eq(model_procs(&a, &b, true, &m), 0);
	ck_assert_ptr_nonnull(r = model_procs_find(&m, 103));
	ck_assert(!m.dev[r->dfirst].f.rates);
	ck_assert_uint_eq(m.dev[r->dfirst].f.requests[0], 50);
	/* its req/s is no figure (JSON null, "-"), 101's and 102's are */
	ck_assert(!r->req_rates);
	ck_assert(model_procs_find(&m, 101)->req_rates && model_procs_find(&m, 102)->req_rates);
	{
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);

		output_procs_json(f, &m);
		fclose(f);
		ck_assert_msg(strstr(buf, "\"pid\": 103,") && strstr(strstr(buf, "\"pid\": 103,"), "\"req_s\": null,"),
			      "%s", buf);
		ck_assert_msg(strstr(strstr(buf, "\"pid\": 101,"), "\"req_s\": 100.0,"), "%s", buf);
		free(buf);
	}
	/* top of 7:0: 101 (100/s), then 102 (its new pair's 10/s); not 103 */
	ck_assert_uint_eq(model_procs_top(&m, makedev(7, 0), idx, 4), 2);
	ck_assert_int_eq(m.row[idx[0]].pid, 101);
	ck_assert_int_eq(m.row[idx[1]].pid, 102);
	ck_assert_uint_eq(model_procs_top(&m, makedev(7, 1), idx, 4), 1);
	ck_assert_int_eq(m.row[idx[0]].pid, 102);
	ck_assert_uint_eq(model_procs_top(&m, makedev(8, 0), idx, 4), 0);
	/* by req/s, 101 (100/s) first, then 102 (15/s) */
	model_procs_sort(&m, PROC_COL_REQS_S, false);
	ck_assert_int_eq(m.row[0].pid, 101);
	ck_assert_int_eq(m.row[1].pid, 102);
	free_all(&a, &b, &m);
}
END_TEST

/* What the mode could not follow: per device, completions without a
 * start since tracing began and over the interval (a device new since the
 * previous sample counts from zero, a count that went back from zero, an
 * untraced previous sample gives no interval: null in the JSON); program
 * runs skipped the same; the JSON object renders them. */
START_TEST(test_loss)
{
	struct proc_sample a, b;
	struct proc_loss_figures l = { 0 };
	struct proc_metrics m = { 0 };
	struct proc_loss *x;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	load_pair(&a, &b);
	a.traced = b.traced = true;
	a.skipped = 3;
	b.skipped = 5;
	a.not_kept = 10;
	b.not_kept = 14;
	ck_assert_ptr_nonnull(x = proc_sample_add_loss(&a, makedev(7, 1)));
	x->no_start = 4;
	ck_assert_ptr_nonnull(x = proc_sample_add_loss(&b, makedev(7, 1)));
	x->no_start = 6;
	ck_assert_ptr_nonnull(x = proc_sample_add_loss(&b, makedev(7, 0)));
	x->no_start = 2; /* new since a */
	ck_assert_ptr_nonnull(x = proc_sample_add_loss(&a, makedev(8, 0)));
	x->no_start = 9;
	ck_assert_ptr_nonnull(x = proc_sample_add_loss(&b, makedev(8, 0)));
	x->no_start = 1; /* went back: a new tracer */
	ck_assert_ptr_nonnull(x = proc_sample_add_loss(&a, makedev(8, 16)));
	x->no_start = 7;
	ck_assert_ptr_nonnull(x = proc_sample_add_loss(&b, makedev(8, 16)));
	x->no_start = 7; /* unchanged: none new */
	proc_sample_sort_traced(&a);
	proc_sample_sort_traced(&b);
	ck_assert_ptr_null(proc_sample_loss(&b, makedev(9, 0)));
	ck_assert_uint_eq(proc_sample_loss(&b, makedev(7, 1))->no_start, 6);

	ck_assert_int_eq(model_procs_loss(&a, &b, &l), 0);
	ck_assert(l.since_prev);
	ck_assert_uint_eq(l.ndev, 4);
	ck_assert_uint_eq(l.dev[3].no_start, 7);
	ck_assert_uint_eq(l.dev[3].no_start_new, 0);
	ck_assert_uint_eq(l.dev[0].dev, makedev(7, 0));
	ck_assert_uint_eq(l.dev[0].no_start, 2);
	ck_assert_uint_eq(l.dev[0].no_start_new, 2);
	ck_assert_str_eq(l.dev[0].dev_name, "7:0");
	ck_assert_uint_eq(l.dev[1].no_start, 6);
	ck_assert_uint_eq(l.dev[1].no_start_new, 2);
	ck_assert_uint_eq(l.dev[2].no_start, 1);
	ck_assert_uint_eq(l.dev[2].no_start_new, 1);
	ck_assert_uint_eq(l.no_start, 16);
	ck_assert_uint_eq(l.no_start_new, 5);
	ck_assert_uint_eq(l.skipped, 5);
	ck_assert_uint_eq(l.skipped_new, 2);
	ck_assert_uint_eq(l.not_kept, 14);
	ck_assert_uint_eq(l.not_kept_new, 4);
	b.skipped = 1; /* went back */
	b.not_kept = 2;
	ck_assert_int_eq(model_procs_loss(&a, &b, &l), 0);
	ck_assert_uint_eq(l.skipped_new, 1);
	ck_assert_uint_eq(l.not_kept_new, 2);
	ck_assert_uint_eq(l.not_kept, 2);

	/* the previous sample not traced (or absent): no interval */
	a.traced = false;
	ck_assert_int_eq(model_procs_loss(&a, &b, &l), 0);
	ck_assert(!l.since_prev);
	ck_assert_uint_eq(l.no_start, 16);
	ck_assert_uint_eq(l.no_start_new, 0);
	ck_assert_uint_eq(l.skipped_new, 0);
	ck_assert_uint_eq(l.not_kept_new, 0);
	ck_assert_ptr_nonnull(f = open_memstream(&buf, &len));
	output_procs_loss(f, &l);
	fclose(f);
	/* named from the sample's diskstats where it has the device; a name
	 * of quotes only, escaped, still fits the JSON buffer whole */
	{
		struct sample ds;
		struct disk_sample *d;

		sample_init(&ds);
		ck_assert_ptr_nonnull(d = sample_add_disk(&ds));
		d->st.dev = makedev(7, 1);
		snprintf(d->st.name, sizeof(d->st.name), "loop1");
		ck_assert_ptr_nonnull(d = sample_add_disk(&ds));
		d->st.dev = makedev(8, 16);
		memset(d->st.name, '"', sizeof(d->st.name) - 1);
		d->st.name[sizeof(d->st.name) - 1] = '\0';
		model_procs_loss_names(&l, &ds);
		sample_free(&ds);
	}
	ck_assert_str_eq(l.dev[0].dev_name, "7:0");
	ck_assert_str_eq(l.dev[1].dev_name, "loop1");
	ck_assert_str_eq(l.dev[2].dev_name, "8:0");
	ck_assert_uint_eq(strspn(l.dev[3].dev_name, "\""), SAMPLE_NAME_MAX - 1);
	/* buf: rendered before the names */
	ck_assert_str_eq(buf, "{\"runs_skipped\": 1, \"runs_skipped_new\": null, \"done_without_start\": 16, "
			      "\"done_without_start_new\": null, \"not_kept\": 2, \"not_kept_new\": null, \"devices\": ["
			      "{\"device\": \"7:0\", \"dev\": \"7:0\", \"done_without_start\": 2, \"done_without_start_new\": null}, "
			      "{\"device\": \"7:1\", \"dev\": \"7:1\", \"done_without_start\": 6, \"done_without_start_new\": null}, "
			      "{\"device\": \"8:0\", \"dev\": \"8:0\", \"done_without_start\": 1, \"done_without_start_new\": null}, "
			      "{\"device\": \"8:16\", \"dev\": \"8:16\", \"done_without_start\": 7, \"done_without_start_new\": null}]}");
	free(buf);
	buf = NULL;
	ck_assert_ptr_nonnull(f = open_memstream(&buf, &len));
	output_procs_loss(f, &l);
	fclose(f);
	{
		char want[2 * SAMPLE_NAME_MAX + 8];
		size_t k = 0;

		want[k++] = '"';
		for (int i = 0; i < SAMPLE_NAME_MAX - 1; i++) {
			want[k++] = '\\';
			want[k++] = '"';
		}
		want[k++] = '"';
		want[k] = '\0';
		ck_assert_ptr_nonnull(strstr(buf, "{\"device\": \"loop1\", \"dev\": \"7:1\""));
		ck_assert_ptr_nonnull(strstr(buf, want));
	}
	free(buf);
	buf = NULL;
	ck_assert_int_eq(model_procs_loss(NULL, &b, &l), 0);
	ck_assert(!l.since_prev);
	/* an untraced sample: nothing lost, whatever it holds */
	b.traced = false;
	ck_assert_int_eq(model_procs_loss(&a, &b, &l), 0);
	ck_assert_uint_eq(l.skipped + l.not_kept + l.no_start + l.ndev, 0);
	ck_assert_uint_eq(l.skipped_new + l.not_kept_new + l.no_start_new, 0);
	b.traced = true;

	/* through the process view: the JSON carries it when traced */
	a.traced = true;
	ck_assert_int_eq(model_procs(&a, &b, false, &m), 0);
	ck_assert_uint_eq(m.loss.no_start_new, 5);
	ck_assert_ptr_nonnull(f = open_memstream(&buf, &len));
	output_procs_json(f, &m);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(buf, "\"trace_loss\": {\"runs_skipped\": 1, \"runs_skipped_new\": 1, "
					  "\"done_without_start\": 16, \"done_without_start_new\": 5, "));
	free(buf);
	buf = NULL;
	/* a traced sample that lost nothing: an empty object, not none */
	b.nloss = 0;
	b.skipped = 0;
	ck_assert_int_eq(model_procs_loss(&a, &b, &l), 0);
	ck_assert_uint_eq(l.ndev, 0);
	ck_assert_uint_eq(l.no_start, 0);
	/* an untraced sample: nothing */
	b.traced = false;
	b.skipped = 4;
	ck_assert_ptr_nonnull(proc_sample_add_loss(&b, makedev(7, 0)));
	ck_assert_int_eq(model_procs_loss(&a, &b, &l), 0);
	ck_assert_uint_eq(l.ndev, 0);
	ck_assert_uint_eq(l.skipped, 0);
	ck_assert_uint_eq(l.skipped_new, 0);
	ck_assert_uint_eq(l.no_start, 0);
	ck_assert_int_eq(model_procs(&a, &b, false, &m), 0);
	ck_assert_ptr_nonnull(f = open_memstream(&buf, &len));
	output_procs_json(f, &m);
	fclose(f);
	ck_assert_ptr_null(strstr(buf, "trace_loss"));
	free(buf);
	proc_sample_free(&a);
	proc_sample_free(&b);
	model_procs_loss_free(&l);
	ck_assert_ptr_null(l.dev);
	ck_assert_uint_eq(l.ndev + l.cap, 0);
	model_procs_free(&m);
	ck_assert_ptr_null(m.loss.dev);
	ck_assert_uint_eq(m.loss.ndev + m.loss.cap, 0);
}
END_TEST

/* The rate of a traced pair of a process: ok tells whether it has one. */
static double pair_req_s(const struct proc_metrics *m, pid_t pid, dev_t dev, int op, bool *ok)
{
	const struct proc_row *r = model_procs_find(m, pid);

	ck_assert_msg(r != NULL, "no row for %d", (int)pid);
	for (size_t i = r->dfirst; i < r->dfirst + r->ndev; i++)
		if (m->dev[i].dev == dev) {
			*ok = m->dev[i].f.rates;
			return m->dev[i].f.req_s[op];
		}
	ck_abort_msg("no pair %d %u:%u", (int)pid, major(dev), minor(dev));
	return 0;
}

/* A traced pair (pid, 7:mi) in s with n requests of operation op. */
static struct proc_trace *pair(struct proc_sample *s, pid_t pid, unsigned mi, int op, uint64_t n)
{
	struct proc_trace *t = proc_sample_add_trace(s, pid, makedev(7, mi));

	ck_assert_ptr_nonnull(t);
	t->c.requests[op] = n;
	return t;
}

/* A pair absent from the previous traced sample was created since (zeroed):
 * its counts are the interval's, also for a process new since, but not for
 * a reused PID whose pair the previous sample had, and not over a previous
 * sample that was not traced (or none, or an invalid one). */
START_TEST(test_traced_new_pair)
{
	struct proc_sample a, b;
	struct proc_metrics m = { 0 };
	const struct proc_row *r;
	struct proc_trace *t;
	bool ok;

	load_pair(&a, &b);
	a.traced = b.traced = true;
	/* 100 has a pair on 7:0 before; its first requests to 7:1 came since */
	pair(&a, 100, 0, 1, 40);
	pair(&b, 100, 0, 1, 60);
	pair(&b, 100, 1, 1, 7)->c.bytes[1] = 7 * 4096;
	/* 106 is new since (a quick dd): 30 reads, 20 done in (64, 128] us
	 * and 10 in (1, 2] ms */
	t = pair(&b, 106, 0, 0, 30);
	t->c.done = 30;
	t->c.lat[7] = 20;
	t->c.lat[11] = 10;
	t->c.lat_sum_ns = 20 * 100000ULL + 10 * 1500000ULL;
	/* 103's PID was reused: the old holder's pair on 7:0 is in a, and the
	 * new holder's first requests to 7:1 are not */
	pair(&a, 103, 0, 0, 5);
	pair(&b, 103, 0, 0, 9);
	pair(&b, 103, 1, 0, 4);
	proc_sample_sort_traced(&a);
	proc_sample_sort_traced(&b);

	ck_assert_int_eq(model_procs(&a, &b, true, &m), 0);
	/* an existing pair: from its counts before */
	ck_assert_double_eq_tol(pair_req_s(&m, 100, makedev(7, 0), 1, &ok), 10, 1e-9);
	ck_assert(ok);
	/* a new pair of a process there before: its counts over the interval */
	ck_assert_double_eq_tol(pair_req_s(&m, 100, makedev(7, 1), 1, &ok), 3.5, 1e-9);
	ck_assert(ok);
	ck_assert_double_eq_tol(model_procs_find(&m, 100)->req_s, 13.5, 1e-9);
	/* a new process, its pair new: the same, and its percentiles and mean
	 * latency from its whole histogram */
	ck_assert_double_eq_tol(pair_req_s(&m, 106, makedev(7, 0), 0, &ok), 15, 1e-9);
	ck_assert(ok);
	ck_assert_ptr_nonnull(r = model_procs_find(&m, 106));
	ck_assert_uint_eq(r->ndev, 1);
	ck_assert_uint_eq(m.dev[r->dfirst].f.requests[0], 30);
	ck_assert(m.dev[r->dfirst].f.lat_p50_us > 64 && m.dev[r->dfirst].f.lat_p50_us <= 128);
	ck_assert(m.dev[r->dfirst].f.lat_p99_us > 1024 && m.dev[r->dfirst].f.lat_p99_us <= 2048);
	ck_assert_double_eq_tol(m.dev[r->dfirst].f.lat_avg_us, 20 * 100.0 / 30 + 10 * 1500.0 / 30, 1e-9);
	/* a reused PID: the pair a had is partly the old holder's, no rate;
	 * its pair a lacked is new since, counted from zero */
	pair_req_s(&m, 103, makedev(7, 0), 0, &ok);
	ck_assert(!ok);
	ck_assert_double_eq_tol(pair_req_s(&m, 103, makedev(7, 1), 0, &ok), 2, 1e-9);
	ck_assert(ok);
	ck_assert_double_eq_tol(model_procs_find(&m, 103)->req_s, 2, 1e-9);

	/* a previous sample not traced: nothing says which pairs are new */
	a.traced = false;
	ck_assert_int_eq(model_procs(&a, &b, true, &m), 0);
	ck_assert(m.traced);
	for (size_t i = 0; i < m.ndev; i++)
		ck_assert(!m.dev[i].f.rates);
	ck_assert_uint_eq(model_procs_find(&m, 106)->ndev, 1);
	ck_assert(isnan(m.dev[model_procs_find(&m, 106)->dfirst].f.lat_p50_us));
	/* none, or an invalid one: no rates either */
	a.traced = true;
	ck_assert_int_eq(model_procs(NULL, &b, true, &m), 0);
	ck_assert_uint_eq(m.ndev, 5);
	for (size_t i = 0; i < m.ndev; i++)
		ck_assert(!m.dev[i].f.rates);
	a.valid = false;
	ck_assert_int_eq(model_procs(&a, &b, true, &m), 0);
	ck_assert_uint_eq(m.ndev, 5);
	for (size_t i = 0; i < m.ndev; i++)
		ck_assert(!m.dev[i].f.rates);
	free_all(&a, &b, &m);
}
END_TEST

/* A process that exited before the walk (its pairs read, then deleted:
 * gone) is a row of its own with its traced requests, marked exited, named
 * by the pair's comm, without /proc figures; a pair out of the walk that is
 * not gone (a process the caller may not read) makes no row. */
START_TEST(test_traced_exited)
{
	struct proc_sample a, b;
	struct proc_metrics m = { 0 };
	const struct proc_row *r;
	struct proc_trace *t;
	bool ok;

	load_pair(&a, &b);
	a.traced = b.traced = true;
	/* 900 was alive in a with 10 reads on 7:0; it ended after 30 */
	pair(&a, 900, 0, 0, 10);
	t = pair(&b, 900, 0, 0, 30);
	t->gone = true;
	snprintf(t->comm, sizeof(t->comm), "dd");
	/* 901 came and went within the interval: 8 writes on 7:1 */
	t = pair(&b, 901, 1, 1, 8);
	t->gone = true;
	snprintf(t->comm, sizeof(t->comm), "cp");
	/* 902 is in no walk but alive (not ours to read): no row */
	pair(&b, 902, 0, 0, 50);
	proc_sample_sort_traced(&a);
	proc_sample_sort_traced(&b);

	ck_assert_int_eq(model_procs(&a, &b, false, &m), 0);
	ck_assert_ptr_nonnull(r = model_procs_find(&m, 900));
	ck_assert(r->exited && !r->rates);
	ck_assert_str_eq(r->comm, "dd");
	ck_assert_double_eq_tol(pair_req_s(&m, 900, makedev(7, 0), 0, &ok), 10, 1e-9); /* 20 over 2 s */
	ck_assert(ok);
	ck_assert_double_eq_tol(r->req_s, 10, 1e-9);
	ck_assert_ptr_nonnull(r = model_procs_find(&m, 901));
	ck_assert(r->exited);
	ck_assert_double_eq_tol(pair_req_s(&m, 901, makedev(7, 1), 1, &ok), 4, 1e-9); /* from zero */
	ck_assert(ok);
	ck_assert_ptr_null(model_procs_find(&m, 902));
	free_all(&a, &b, &m);
}
END_TEST

/* One pair's figures from its counts now and a baseline that is not zero:
 * every rate and the interval's latency are differences; counts that went
 * back, a zero interval or no baseline give no rate and no latency. */
START_TEST(test_figures)
{
	struct proc_counts p = { 0 }, c = { 0 };
	struct proc_figures f;

	p.requests[0] = 10, p.requests[1] = 4, p.requests[3] = 2;
	p.bytes[0] = 10 * 4096, p.bytes[1] = 4 * 8192;
	p.done = 16;
	p.lat[5] = 15; /* (16, 32] us, before and after: none in the interval */
	p.lat[11] = 1; /* (1, 2] ms */
	p.lat_sum_ns = 15 * 20000ULL + 1500000ULL;
	c = p;
	c.requests[0] = 30, c.requests[3] = 3;
	c.bytes[0] = 30 * 4096;
	c.done = 37; /* 21 done in the interval: 20 in (64, 128] us, 1 in (1, 2] ms */
	c.lat[7] = 20;
	c.lat[11] = 2;
	c.lat_sum_ns = p.lat_sum_ns + 20 * 100000ULL + 1800000ULL;

	model_procs_figures(&c, &p, 2.0, &f);
	ck_assert(f.rates);
	ck_assert_uint_eq(f.requests[0], 30); /* cumulative counts are now's */
	ck_assert_uint_eq(f.requests[3], 3);
	ck_assert_uint_eq(f.bytes[0], 30 * 4096);
	ck_assert_uint_eq(f.done, 37);
	ck_assert_double_eq_tol(f.req_s[0], 10, 1e-9);
	ck_assert_double_eq_tol(f.req_s[1], 0, 1e-9);
	ck_assert_double_eq_tol(f.req_s[3], 0.5, 1e-9);
	ck_assert_double_eq_tol(f.bytes_s[0], 10 * 4096, 1e-9);
	ck_assert_double_eq_tol(f.bytes_s[1], 0, 1e-9);
	/* the interval's 21: p50 among the 20, p99 the slow one, not the 15
	 * in (16, 32] that were there before */
	ck_assert_msg(f.lat_p50_us > 64 && f.lat_p50_us <= 128, "p50 %f", f.lat_p50_us);
	ck_assert_msg(f.lat_p99_us > 1024 && f.lat_p99_us <= 2048, "p99 %f", f.lat_p99_us);
	ck_assert_double_eq_tol(f.lat_avg_us, (20 * 100.0 + 1800.0) / 21, 1e-9);

	/* nothing completed in the interval: rates, no latency */
	c = p;
	c.requests[0] = 12;
	model_procs_figures(&c, &p, 2.0, &f);
	ck_assert(f.rates);
	ck_assert_double_eq_tol(f.req_s[0], 1, 1e-9);
	ck_assert(isnan(f.lat_p50_us) && isnan(f.lat_p99_us) && isnan(f.lat_avg_us));

	/* a count that went back (a new tracer): no rate, no latency, counts kept */
	for (int k = 0; k < 3; k++) {
		c = p;
		if (k == 0)
			c.requests[1] = 3;
		else if (k == 1)
			c.bytes[0] = 1;
		else
			c.done = 15;
		model_procs_figures(&c, &p, 2.0, &f);
		ck_assert_msg(!f.rates, "went back (%d): no rates", k);
		ck_assert(isnan(f.lat_p50_us) && isnan(f.lat_avg_us));
		ck_assert_double_eq_tol(f.req_s[0] + f.bytes_s[0], 0, 1e-9);
		ck_assert_uint_eq(f.requests[0], 10);
	}
	/* half a second */
	c = p;
	c.requests[0] = 11;
	c.done = 17;
	c.lat[7] = 1;
	c.lat_sum_ns = p.lat_sum_ns + 100000;
	model_procs_figures(&c, &p, 0.5, &f);
	ck_assert(f.rates);
	ck_assert_double_eq_tol(f.req_s[0], 2, 1e-9);
	ck_assert_double_eq_tol(f.lat_avg_us, 100, 1e-9);
	ck_assert_msg(f.lat_p50_us > 64 && f.lat_p50_us <= 128, "p50 %f", f.lat_p50_us);
	/* a bucket lower than before (never seen; a torn read) adds nothing */
	c.lat[5] = 14;
	model_procs_figures(&c, &p, 0.5, &f);
	ck_assert_msg(f.lat_p50_us > 64 && f.lat_p50_us <= 128, "p50 %f", f.lat_p50_us);
	/* no interval, or no baseline */
	c = p;
	c.requests[0] = 20;
	model_procs_figures(&c, &p, 0, &f);
	ck_assert(!f.rates);
	ck_assert(isnan(f.lat_p50_us) && isnan(f.lat_p99_us) && isnan(f.lat_avg_us));
	ck_assert_double_eq_tol(f.req_s[0], 0, 1e-9);
	model_procs_figures(&c, NULL, 2.0, &f);
	ck_assert(!f.rates);
	ck_assert_uint_eq(f.requests[0], 20);
}
END_TEST

/* Two samples at the same time: no rates, never a division by zero; the
 * row keeps the process's start time (its identity). */
START_TEST(test_same_time)
{
	struct proc_sample a, b;
	struct proc_metrics m = { 0 };
	const struct proc_row *r;

	load_pair(&a, &b);
	ck_assert_int_eq(model_procs(&a, &b, true, &m), 0);
	ck_assert_ptr_nonnull(r = model_procs_find(&m, 108));
	ck_assert_uint_eq(r->start, 6000);
	ck_assert_ptr_nonnull(r = model_procs_find(&m, 103));
	ck_assert_uint_eq(r->start, 999);
	b.t = a.t;
	ck_assert_int_eq(model_procs(&a, &b, true, &m), 0);
	for (size_t i = 0; i < m.nrows; i++) {
		ck_assert(!m.row[i].rates);
		ck_assert(isfinite(m.row[i].rbytes_s) && isfinite(m.row[i].wbytes_s));
	}
	/* half a second: rates all the same */
	b.t = a.t + 0.5;
	ck_assert_int_eq(model_procs(&a, &b, false, &m), 0);
	ck_assert_ptr_nonnull(r = model_procs_find(&m, 101));
	ck_assert(r->rates);
	ck_assert_double_eq_tol(r->rbytes_s, 4 * 1048576.0, 1e-6);
	/* the least that moved is active: a byte read, a byte written, one
	 * request, in 2 s (0.5/s each) */
	b.t = a.t + 2;
	b.traced = a.traced = true;
	for (size_t i = 0; i < b.n; i++) {
		if (b.p[i].pid == 102)
			b.p[i].rbytes++;
		if (b.p[i].pid == 104) {
			b.p[i].pid = 109; /* so that it is new, and has no rate */
			b.p[i].start = 1;
		}
	}
	for (size_t i = 0; i < a.n; i++)
		if (a.p[i].pid == 107)
			a.p[i].rbytes = 1048575; /* 107 wrote nothing: 0.5 B/s read */
	pair(&b, 103, 0, 0, 1);
	proc_sample_sort(&b);
	proc_sample_sort_traced(&b);
	ck_assert_int_eq(model_procs(&a, &b, false, &m), 0);
	ck_assert_ptr_nonnull(r = model_procs_find(&m, 102));
	ck_assert_double_eq_tol(r->rbytes_s, 0.5, 1e-9);
	ck_assert_ptr_nonnull(r = model_procs_find(&m, 107));
	ck_assert_double_eq_tol(r->rbytes_s, 0.5, 1e-9);
	ck_assert_ptr_nonnull(r = model_procs_find(&m, 103)); /* a reused PID, active by its new pair */
	ck_assert_double_eq_tol(r->req_s, 0.5, 1e-9);
	ck_assert_ptr_null(model_procs_find(&m, 109));
	for (size_t i = 0; i < b.n; i++)
		if (b.p[i].pid == 102)
			b.p[i].rbytes--, b.p[i].wbytes++;
	ck_assert_int_eq(model_procs(&a, &b, false, &m), 0);
	ck_assert_ptr_nonnull(r = model_procs_find(&m, 102));
	ck_assert_double_eq_tol(r->wbytes_s, 0.5, 1e-9);
	free_all(&a, &b, &m);
}
END_TEST

/* Sorting every process: a rate column puts the rows without rates last
 * whatever the direction and the order before; any other column mixes
 * them in its own order. Strings compare by sign, not by strcmp's size. */
START_TEST(test_sort_all)
{
	struct proc_sample a, b;
	struct proc_metrics m = { 0 };
	static const enum proc_column rates[] = { PROC_COL_RBYTES_S, PROC_COL_WBYTES_S, PROC_COL_BYTES_S,
						  PROC_COL_REQS_S };

	load_pair(&a, &b);
	ck_assert_int_eq(model_procs(&a, &b, true, &m), 0);
	/* rows with rates: 100 101 102 107 108; without: 103 104 106 */
	model_procs_sort(&m, PROC_COL_PID, true);
	model_procs_sort(&m, PROC_COL_PID, false);
	order(&m, (const pid_t[]){ 100, 101, 102, 103, 104, 106, 107, 108 }, 8);
	model_procs_sort(&m, PROC_COL_PID, true);
	order(&m, (const pid_t[]){ 108, 107, 106, 104, 103, 102, 101, 100 }, 8);
	/* from PID descending, the rows without rates sit among the others */
	model_procs_sort(&m, PROC_COL_RBYTES_S, false);
	order(&m, (const pid_t[]){ 108, 101, 107, 100, 102, 103, 104, 106 }, 8);
	for (size_t c = 0; c < sizeof(rates) / sizeof(rates[0]); c++)
		for (int rev = 0; rev < 2; rev++) {
			model_procs_sort(&m, PROC_COL_PID, c % 2);
			model_procs_sort(&m, rates[c], rev);
			for (size_t i = 0; i < m.nrows; i++)
				ck_assert_msg(m.row[i].rates == (i < 5), "column %zu%s: row %zu (pid %d)", c,
					      rev ? " reversed" : "", i, (int)m.row[i].pid);
		}
	/* a column that is not a rate: by it alone */
	model_procs_sort(&m, PROC_COL_WBYTES, true);
	model_procs_sort(&m, PROC_COL_RBYTES, false);
	order(&m, (const pid_t[]){ 108, 101, 107, 106, 102, 104, 100, 103 }, 8);
	/* from PID ascending: alice (102, 108) before root */
	model_procs_sort(&m, PROC_COL_PID, false);
	model_procs_sort(&m, PROC_COL_USER, false);
	order(&m, (const pid_t[]){ 102, 108, 100, 101, 103, 104, 106, 107 }, 8);
	model_procs_sort(&m, PROC_COL_USER, true);
	order(&m, (const pid_t[]){ 100, 101, 103, 104, 106, 107, 102, 108 }, 8);
	model_procs_sort(&m, PROC_COL_PID, false);
	model_procs_sort(&m, PROC_COL_COMMAND, false);
	order(&m, (const pid_t[]){ 102, 104, 108, 101, 100, 106, 107, 103 }, 8);
	/* a command line of one character is still the command line, on
	 * either side of the comparison: 104 ("back") and 102 ("bash") */
	for (size_t i = 0; i < m.nrows; i++)
		if (m.row[i].pid == 104)
			snprintf(m.row[i].cmdline, sizeof(m.row[i].cmdline), "z");
		else if (m.row[i].pid == 102)
			snprintf(m.row[i].cmdline, sizeof(m.row[i].cmdline), "y");
	model_procs_sort(&m, PROC_COL_COMMAND, false);
	order(&m, (const pid_t[]){ 108, 101, 100, 106, 107, 103, 102, 104 }, 8);
	model_procs_sort(&m, PROC_COL_PID, true);
	model_procs_sort(&m, PROC_COL_COMMAND, true);
	order(&m, (const pid_t[]){ 104, 102, 103, 107, 106, 100, 101, 108 }, 8);
	free_all(&a, &b, &m);
}
END_TEST

/* The top processes of a device: at most n, largest first, ties in row
 * order, only those with requests there; idx may be shorter than the
 * candidates. */
START_TEST(test_top)
{
	struct proc_sample a, b;
	struct proc_metrics m = { 0 };
	size_t idx[3];

	load_pair(&a, &b);
	a.traced = b.traced = true;
	/* per second on 7:0 over 2 s: 100: 4, 101: 9, 102: 1 (a write), 107: 4,
	 * 108: 6; 106 is new (its 10 count from zero: 5); 7:1 only 104 */
	pair(&a, 100, 0, 0, 2);
	pair(&b, 100, 0, 0, 10);
	pair(&a, 101, 0, 0, 0);
	pair(&b, 101, 0, 0, 18);
	pair(&a, 102, 0, 1, 5);
	pair(&b, 102, 0, 1, 7);
	pair(&b, 106, 0, 0, 10);
	pair(&a, 107, 0, 0, 1);
	pair(&b, 107, 0, 0, 9);
	pair(&a, 108, 0, 0, 0);
	pair(&b, 108, 0, 0, 12);
	pair(&a, 104, 1, 0, 0);
	pair(&b, 104, 1, 0, 6);
	proc_sample_sort_traced(&a);
	proc_sample_sort_traced(&b);
	ck_assert_int_eq(model_procs(&a, &b, true, &m), 0);
	model_procs_sort(&m, PROC_COL_PID, false);
	ck_assert_uint_eq(model_procs_top(&m, makedev(7, 0), idx, 3), 3);
	ck_assert_int_eq(m.row[idx[0]].pid, 101);
	ck_assert_int_eq(m.row[idx[1]].pid, 108);
	ck_assert_int_eq(m.row[idx[2]].pid, 106);
	/* one slot: the largest; a row moved to the top by its PID stays its row */
	ck_assert_uint_eq(model_procs_top(&m, makedev(7, 0), idx, 1), 1);
	ck_assert_int_eq(m.row[idx[0]].pid, 101);
	m.row[1].pid = 99; /* 101's row */
	ck_assert_uint_eq(model_procs_top(&m, makedev(7, 0), idx, 3), 3);
	ck_assert_int_eq(m.row[idx[0]].pid, 99);
	ck_assert_uint_eq(model_procs_top(&m, makedev(7, 1), idx, 3), 1);
	ck_assert_int_eq(m.row[idx[0]].pid, 104);
	ck_assert_uint_eq(model_procs_top(&m, makedev(7, 2), idx, 3), 0);
	ck_assert_uint_eq(model_procs_top(&m, makedev(7, 0), idx, 0), 0);
	{
		size_t six[6];

		/* more slots than candidates: 101 (as 99) 108 106 100 107 102 */
		ck_assert_uint_eq(model_procs_top(&m, makedev(7, 0), six, 6), 6);
		ck_assert_int_eq(m.row[six[3]].pid, 100);
		ck_assert_int_eq(m.row[six[4]].pid, 107);
		ck_assert_int_eq(m.row[six[5]].pid, 102);
	}
	free_all(&a, &b, &m);
}
END_TEST

/* Device names from the sample's diskstats: every pair and loss row whose
 * device the sample has, the others keep "major:minor". */
START_TEST(test_names)
{
	struct proc_sample a, b;
	struct proc_metrics m = { 0 };
	struct sample ds;
	struct disk_sample *d;
	const struct proc_row *r;

	load_pair(&a, &b);
	a.traced = b.traced = true;
	pair(&b, 100, 0, 0, 3);
	pair(&b, 100, 1, 0, 3);
	pair(&b, 101, 2, 0, 3);
	ck_assert_ptr_nonnull(proc_sample_add_loss(&b, makedev(7, 0)));
	ck_assert_ptr_nonnull(proc_sample_add_loss(&b, makedev(7, 2)));
	proc_sample_sort_traced(&b);
	sample_init(&ds);
	/* untraced: no pairs to name (and no array) */
	ck_assert_int_eq(model_procs(&a, &a, true, &m), 0);
	ck_assert_uint_eq(m.ndev, 0);
	model_procs_names(&m, &ds);
	ck_assert_int_eq(model_procs(&a, &b, true, &m), 0);
	ck_assert_ptr_nonnull(d = sample_add_disk(&ds));
	d->st.dev = makedev(7, 2);
	snprintf(d->st.name, sizeof(d->st.name), "loop2");
	ck_assert_ptr_nonnull(d = sample_add_disk(&ds));
	d->st.dev = makedev(7, 0);
	snprintf(d->st.name, sizeof(d->st.name), "loop0");
	model_procs_names(&m, &ds);
	ck_assert_ptr_nonnull(r = model_procs_find(&m, 100));
	ck_assert_uint_eq(r->ndev, 2);
	ck_assert_str_eq(m.dev[r->dfirst].dev_name, "loop0");
	ck_assert_str_eq(m.dev[r->dfirst + 1].dev_name, "7:1");
	ck_assert_ptr_nonnull(r = model_procs_find(&m, 101));
	ck_assert_str_eq(m.dev[r->dfirst].dev_name, "loop2");
	ck_assert_uint_eq(m.loss.ndev, 2);
	ck_assert_str_eq(m.loss.dev[0].dev_name, "loop0");
	ck_assert_str_eq(m.loss.dev[1].dev_name, "loop2");
	sample_free(&ds);
	free_all(&a, &b, &m);
}
END_TEST

/* Each array of a sample past its first allocation (processes 256,
 * pairs 64, cgroup pairs 16, loss rows 8) to exactly a capacity it grows
 * to (a read one past the end is a heap overflow ASan sees), added in
 * descending order: all kept, sorted, and found; the lookups by process
 * and by cgroup give the first of a run and its length. */
START_TEST(test_grow)
{
	struct proc_sample s;
	size_t first;
	enum { NP = 512, NT = 128, NC = 64, NL = 16 };

	proc_sample_init(&s);
	for (int i = NP; i > 0; i--)
		ck_assert_ptr_nonnull(proc_sample_add(&s, i, (uint64_t)i * 3));
	for (int i = NT; i > 0; i--) /* two devices a process: 7:1 first */
		for (unsigned mi = 2; mi > 0; mi--) {
			struct proc_trace *t = proc_sample_add_trace(&s, i, makedev(7, mi - 1));

			ck_assert_ptr_nonnull(t);
			t->c.done = (uint64_t)i;
		}
	for (int i = NC; i > 0; i--)
		for (unsigned mi = 1; mi <= 2; mi++) /* in order already: the sort keeps it */
			ck_assert_ptr_nonnull(proc_sample_add_cgtrace(&s, (uint64_t)i * 10, makedev(8, mi)));
	for (int i = NL; i > 0; i--) {
		struct proc_loss *l = proc_sample_add_loss(&s, makedev(9, i));

		ck_assert_ptr_nonnull(l);
		l->no_start = (uint64_t)i;
	}
	ck_assert_uint_eq(s.n, NP);
	ck_assert_uint_eq(s.ntr, 2 * NT);
	ck_assert_uint_eq(s.ncg, 2 * NC);
	ck_assert_uint_eq(s.nloss, NL);
	ck_assert_uint_eq(s.cap + s.trcap + s.cgcap + s.losscap, NP + 2 * NT + 2 * NC + NL);
	proc_sample_sort(&s);
	proc_sample_sort_traced(&s);
	for (size_t i = 1; i < s.n; i++)
		ck_assert_int_lt(s.p[i - 1].pid, s.p[i].pid);
	for (int i = 1; i <= NP; i++)
		ck_assert_ptr_nonnull(proc_sample_find(&s, i, (uint64_t)i * 3));
	for (size_t i = 0; i < s.ntr; i++) {
		ck_assert_int_eq(s.tr[i].tgid, (pid_t)(i / 2 + 1));
		ck_assert_uint_eq(s.tr[i].dev, makedev(7, i % 2));
	}
	for (int i = 1; i <= NT; i++) {
		const struct proc_trace *t = proc_sample_trace(&s, i, makedev(7, 1));

		ck_assert_ptr_nonnull(t);
		ck_assert_uint_eq(t->c.done, (uint64_t)i);
		ck_assert_uint_eq(proc_sample_traces(&s, i, &first), 2);
		ck_assert_uint_eq(first, (size_t)(i - 1) * 2);
	}
	ck_assert_uint_eq(proc_sample_traces(&s, NT + 1, &first), 0);
	ck_assert_ptr_null(proc_sample_trace(&s, 1, makedev(7, 2)));
	for (int i = 1; i <= NC; i++) {
		ck_assert_uint_eq(proc_sample_cgtraces(&s, (uint64_t)i * 10, &first), 2);
		ck_assert_uint_eq(first, (size_t)(i - 1) * 2);
		ck_assert_uint_eq(s.cg[first].dev, makedev(8, 1));
		ck_assert_uint_eq(s.cg[first + 1].dev, makedev(8, 2));
		ck_assert_ptr_nonnull(proc_sample_cgtrace(&s, (uint64_t)i * 10, makedev(8, 2)));
		ck_assert_uint_eq(proc_sample_cgtraces(&s, (uint64_t)i * 10 + 5, &first), 0);
	}
	ck_assert_uint_eq(proc_sample_cgtraces(&s, 5, &first), 0);
	for (int i = 1; i <= NL; i++) {
		const struct proc_loss *l = proc_sample_loss(&s, makedev(9, i));

		ck_assert_ptr_nonnull(l);
		ck_assert_uint_eq(l->no_start, (uint64_t)i);
	}
	ck_assert_ptr_null(proc_sample_loss(&s, makedev(9, NL + 1)));
	proc_sample_free(&s);
}
END_TEST

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* The pair reader on a real LRU hash the size of the process tracer's:
 * every entry once, over many batches and a buffer that grows, and again
 * into the same buffer. Needs CAP_BPF (root); without it, says so. */
START_TEST(test_read_map)
{
	struct procs_entries e = { 0 };
	uint64_t *keys;
	int fd = bpf_map_create(BPF_MAP_TYPE_LRU_HASH, "test_pairs", sizeof(uint64_t), 2 * sizeof(uint64_t), 16384,
				NULL);

	if (fd == -EPERM) {
		fprintf(stderr, "test_read_map: no CAP_BPF, not run\n");
		return;
	}
	ck_assert_int_ge(fd, 0);
	for (uint64_t k = 1; k <= 5000; k++) {
		uint64_t v[2] = { k * 3, k * 5 };

		ck_assert_int_eq(bpf_map_update_elem(fd, &k, v, BPF_NOEXIST), 0);
	}
	for (int pass = 0; pass < 2; pass++) {
		ck_assert_int_eq(source_procs_bpf_read_map(fd, sizeof(uint64_t), 2 * sizeof(uint64_t), &e), 0);
		ck_assert_uint_eq(e.n, 5000);
		for (size_t i = 0; i < e.n; i++) {
			const uint64_t *k = (const uint64_t *)e.keys + i, *v = (const uint64_t *)e.vals + 2 * i;

			ck_assert(v[0] == *k * 3 && v[1] == *k * 5);
		}
		keys = e.keys;
		qsort(keys, e.n, sizeof(*keys), cmp_u64);
		for (size_t i = 0; i < e.n; i++)
			ck_assert_uint_eq(keys[i], i + 1);
	}
	procs_entries_free(&e);
	/* an empty map: nothing, no error */
	for (uint64_t k = 1; k <= 5000; k++)
		ck_assert_int_eq(bpf_map_delete_elem(fd, &k), 0);
	ck_assert_int_eq(source_procs_bpf_read_map(fd, sizeof(uint64_t), 2 * sizeof(uint64_t), &e), 0);
	ck_assert_uint_eq(e.n, 0);
	procs_entries_free(&e);
	close(fd);
}
END_TEST

UNIT_SUITE(procs_suite)
static Suite *procs_suite(void)
{
	Suite *s = suite_create("procs");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_rates);
	tcase_add_test(tc, test_sort);
	tcase_add_test(tc, test_json);
	tcase_add_test(tc, test_find);
	tcase_add_test(tc, test_traced);
	tcase_add_test(tc, test_traced_new_pair);
	tcase_add_test(tc, test_loss);
	tcase_add_test(tc, test_read_map);
	tcase_add_test(tc, test_figures);
	tcase_add_test(tc, test_same_time);
	tcase_add_test(tc, test_sort_all);
	tcase_add_test(tc, test_top);
	tcase_add_test(tc, test_traced_exited);
	tcase_add_test(tc, test_names);
	tcase_add_test(tc, test_grow);
	suite_add_tcase(s, tc);
	return s;
}
