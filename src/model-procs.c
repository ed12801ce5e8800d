#include "model-procs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct proc_column_info proc_columns[PROC_COLUMNS] = {
	[PROC_COL_PID] = { "PID", "pid", false, "process id" },
	[PROC_COL_USER] = { "USER", "user", false, "effective user" },
	[PROC_COL_RBYTES_S] = { "rB/s", "rbytes_s", true, "bytes read per second (read_bytes)" },
	[PROC_COL_WBYTES_S] = { "wB/s", "wbytes_s", true,
				"bytes written per second (write_bytes: counted when the page is dirtied)" },
	[PROC_COL_BYTES_S] = { "B/s", "bytes_s", true, "read and written per second" },
	[PROC_COL_RBYTES] = { "read", "rbytes", true, "bytes read since the process started" },
	[PROC_COL_WBYTES] = { "written", "wbytes", true, "bytes written since the process started" },
	[PROC_COL_COMMAND] = { "COMMAND", "command", false, "command line (kernel threads: [name])" },
};

void model_procs_free(struct proc_metrics *m)
{
	free(m->row);
	memset(m, 0, sizeof(*m));
}

static void fill_row(struct proc_row *r, const struct proc_entry *e, const struct proc_entry *pe, double interval)
{
	memset(r, 0, sizeof(*r));
	r->pid = e->pid;
	r->start = e->start;
	r->uid = e->uid;
	snprintf(r->user, sizeof(r->user), "%s", e->user);
	snprintf(r->comm, sizeof(r->comm), "%s", e->comm);
	snprintf(r->cmdline, sizeof(r->cmdline), "%s", e->cmdline);
	r->rbytes = e->rbytes;
	r->wbytes = e->wbytes;
	/* the counters only grow while a process lives */
	r->rates = pe && interval > 0 && e->rbytes >= pe->rbytes && e->wbytes >= pe->wbytes;
	if (r->rates) {
		r->rbytes_s = (double)(e->rbytes - pe->rbytes) / interval;
		r->wbytes_s = (double)(e->wbytes - pe->wbytes) / interval;
	}
}

int model_procs(const struct proc_sample *prev, const struct proc_sample *cur, bool all, struct proc_metrics *out)
{
	const struct proc_sample *pp = prev && prev->valid ? prev : NULL;
	double interval = pp ? cur->t - pp->t : 0;

	out->nrows = 0;
	out->valid = cur->valid;
	out->interval = interval;
	out->all_users = cur->all_users;
	out->uid = cur->uid;
	out->unreadable = cur->unreadable;
	out->nprocs = cur->n;
	snprintf(out->why, sizeof(out->why), "%s", cur->why);
	if (!cur->valid)
		return 0;
	if (cur->n > out->cap) {
		struct proc_row *r = realloc(out->row, cur->n * sizeof(*r));
		if (!r)
			return -ENOMEM;
		out->row = r;
		out->cap = cur->n;
	}
	for (size_t i = 0; i < cur->n; i++) {
		const struct proc_entry *e = &cur->p[i];
		struct proc_row *r = &out->row[out->nrows];

		fill_row(r, e, pp ? proc_sample_find(pp, e->pid, e->start) : NULL, interval);
		if (all || (r->rates && (r->rbytes_s > 0 || r->wbytes_s > 0)))
			out->nrows++;
	}
	return 0;
}

static int cmp_num(double a, double b)
{
	return (a > b) - (a < b);
}

/* Ascending comparison of two rows by one column. */
static int cmp_col(const struct proc_row *a, const struct proc_row *b, enum proc_column col)
{
	switch (col) {
	case PROC_COL_PID:
		return cmp_num(a->pid, b->pid);
	case PROC_COL_USER:
		return strcmp(a->user, b->user);
	case PROC_COL_RBYTES_S:
		return cmp_num(a->rbytes_s, b->rbytes_s);
	case PROC_COL_WBYTES_S:
		return cmp_num(a->wbytes_s, b->wbytes_s);
	case PROC_COL_BYTES_S:
		return cmp_num(a->rbytes_s + a->wbytes_s, b->rbytes_s + b->wbytes_s);
	case PROC_COL_RBYTES:
		return cmp_num((double)a->rbytes, (double)b->rbytes);
	case PROC_COL_WBYTES:
		return cmp_num((double)a->wbytes, (double)b->wbytes);
	case PROC_COL_COMMAND:
		return strcmp(a->cmdline[0] ? a->cmdline : a->comm, b->cmdline[0] ? b->cmdline : b->comm);
	case PROC_COLUMNS:
		break;
	}
	return 0;
}

struct sort_by {
	enum proc_column col;
	int sign;
};

static bool rate_col(enum proc_column c)
{
	return c == PROC_COL_RBYTES_S || c == PROC_COL_WBYTES_S || c == PROC_COL_BYTES_S;
}

static int cmp_rows(const void *x, const void *y, void *arg)
{
	const struct proc_row *a = x, *b = y;
	const struct sort_by *by = arg;
	int c;

	if (rate_col(by->col) && a->rates != b->rates)
		return a->rates ? -1 : 1;
	if ((c = cmp_col(a, b, by->col)))
		return by->sign * c;
	return cmp_num(a->pid, b->pid);
}

void model_procs_sort(struct proc_metrics *m, enum proc_column col, bool reverse)
{
	struct sort_by by = { col < PROC_COLUMNS ? col : PROC_COL_BYTES_S, 1 };

	by.sign = proc_columns[by.col].descending != reverse ? -1 : 1;
	if (m->nrows > 1)
		qsort_r(m->row, m->nrows, sizeof(m->row[0]), cmp_rows, &by);
}

const struct proc_row *model_procs_find(const struct proc_metrics *m, pid_t pid)
{
	for (size_t i = 0; i < m->nrows; i++)
		if (m->row[i].pid == pid)
			return &m->row[i];
	return NULL;
}
