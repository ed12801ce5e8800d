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

static const struct proc_row *row(const struct proc_metrics *m, pid_t pid)
{
	return model_procs_find(m, pid);
}

START_TEST(test_rates)
{
	struct proc_sample a, b;
	struct proc_metrics m = { 0 };
	const struct proc_row *r;

	load("t0", &a);
	load("t1", &b);
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
	proc_sample_free(&a);
	proc_sample_free(&b);
	model_procs_free(&m);
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

	load("t0", &a);
	load("t1", &b);
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
	proc_sample_free(&a);
	proc_sample_free(&b);
	model_procs_free(&m);
}
END_TEST

START_TEST(test_json)
{
	struct proc_sample a, b;
	struct proc_metrics m = { 0 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	load("t0", &a);
	load("t1", &b);
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
	proc_sample_free(&a);
	proc_sample_free(&b);
	model_procs_free(&m);
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

	load("t0", &a);
	load("t1", &b);
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
	proc_sample_free(&a);
	proc_sample_free(&b);
	model_procs_free(&m);
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

	load("t0", &a);
	load("t1", &b);
	a.traced = b.traced = true;
	a.skipped = 3;
	b.skipped = 5;
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
	b.skipped = 1; /* went back */
	ck_assert_int_eq(model_procs_loss(&a, &b, &l), 0);
	ck_assert_uint_eq(l.skipped_new, 1);

	/* the previous sample not traced (or absent): no interval */
	a.traced = false;
	ck_assert_int_eq(model_procs_loss(&a, &b, &l), 0);
	ck_assert(!l.since_prev);
	ck_assert_uint_eq(l.no_start, 16);
	ck_assert_uint_eq(l.no_start_new, 0);
	ck_assert_uint_eq(l.skipped_new, 0);
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
			      "\"done_without_start_new\": null, \"devices\": ["
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

	load("t0", &a);
	load("t1", &b); /* 2 s later */
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
	proc_sample_free(&a);
	proc_sample_free(&b);
	model_procs_free(&m);
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
	suite_add_tcase(s, tc);
	return s;
}
