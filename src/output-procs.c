#include "output-procs.h"

#include <inttypes.h>
#include <math.h>
#include <sys/sysmacros.h>

#include "format.h"

static void rate(FILE *f, const char *key, bool valid, double v)
{
	if (valid)
		fprintf(f, ", \"%s\": %.1f", key, v);
	else
		fprintf(f, ", \"%s\": null", key);
}

static void num(FILE *f, const char *key, double v)
{
	if (isnan(v))
		fprintf(f, ", \"%s\": null", key);
	else
		fprintf(f, ", \"%s\": %.1f", key, v);
}

static const char *const ops[PROC_OPS] = { "read", "write", "discard", "flush" };

void output_procs_figures(FILE *f, const struct proc_figures *x)
{
	for (int op = 0; op < PROC_OPS; op++)
		fprintf(f, ", \"%s_requests\": %" PRIu64 ", \"%s_bytes\": %" PRIu64, ops[op], x->requests[op], ops[op],
			x->bytes[op]);
	fprintf(f, ", \"done\": %" PRIu64, x->done);
	for (int op = 0; op < PROC_OPS; op++) {
		char k[32];

		snprintf(k, sizeof(k), "%s_requests_s", ops[op]);
		rate(f, k, x->rates, x->req_s[op]);
	}
	num(f, "lat_p50_us", x->lat_p50_us);
	num(f, "lat_p99_us", x->lat_p99_us);
	num(f, "lat_avg_us", x->lat_avg_us);
}

static void dev_row(FILE *f, const struct proc_dev_row *d)
{
	char name[2 * SAMPLE_NAME_MAX + 8], comm[2 * 16 + 8];

	format_json_string(d->dev_name, name, sizeof(name));
	format_json_string(d->comm, comm, sizeof(comm));
	fprintf(f, "{\"device\": %s, \"dev\": \"%u:%u\", \"cgroup_id\": %" PRIu64 ", \"comm\": %s", name, major(d->dev),
		minor(d->dev), d->cgroup_id, comm);
	output_procs_figures(f, &d->f);
	fputc('}', f);
}

static void row(FILE *f, const struct proc_metrics *m, const struct proc_row *r)
{
	char user[2 * PROC_USER_MAX + 8], comm[2 * PROC_COMM_MAX + 8], cmd[2 * PROC_CMDLINE_MAX + 8];

	format_json_string(r->user, user, sizeof(user));
	format_json_string(r->comm, comm, sizeof(comm));
	format_json_string(r->cmdline, cmd, sizeof(cmd));
	if (r->exited) /* only its traced requests are known: the rest null, not 0 */
		fprintf(f, "{\"pid\": %d, \"exited\": true, \"user\": null, \"uid\": null, \"command\": %s, "
			   "\"cmdline\": null, \"rbytes\": null, \"wbytes\": null",
			(int)r->pid, comm);
	else
		fprintf(f, "{\"pid\": %d, \"user\": %s, \"uid\": %u, \"command\": %s, \"cmdline\": %s, "
			   "\"rbytes\": %" PRIu64 ", \"wbytes\": %" PRIu64,
			(int)r->pid, user, (unsigned)r->uid, comm, cmd, r->rbytes, r->wbytes);
	rate(f, "rbytes_s", r->rates, r->rbytes_s);
	rate(f, "wbytes_s", r->rates, r->wbytes_s);
	if (m->traced) {
		if (r->req_rates)
			fprintf(f, ", \"req_s\": %.1f, \"devices\": [", r->req_s);
		else /* only pairs without a rate yet: no figure, not 0 */
			fputs(", \"req_s\": null, \"devices\": [", f);
		for (size_t i = r->dfirst; i < r->dfirst + r->ndev; i++) {
			if (i > r->dfirst)
				fputs(", ", f);
			dev_row(f, &m->dev[i]);
		}
		fputc(']', f);
	}
	fputc('}', f);
}

void output_json_count_new(FILE *f, const char *key, bool known, uint64_t v)
{
	if (known)
		fprintf(f, ", \"%s\": %" PRIu64, key, v);
	else
		fprintf(f, ", \"%s\": null", key);
}

void output_procs_loss(FILE *f, const struct proc_loss_figures *l)
{
	char s[2 * SAMPLE_NAME_MAX + 8];

	fprintf(f, "{\"runs_skipped\": %" PRIu64, l->skipped);
	output_json_count_new(f, "runs_skipped_new", l->since_prev, l->skipped_new);
	fprintf(f, ", \"done_without_start\": %" PRIu64, l->no_start);
	output_json_count_new(f, "done_without_start_new", l->since_prev, l->no_start_new);
	fprintf(f, ", \"not_kept\": %" PRIu64, l->not_kept);
	output_json_count_new(f, "not_kept_new", l->since_prev, l->not_kept_new);
	fputs(", \"devices\": [", f);
	for (size_t i = 0; i < l->ndev; i++) {
		const struct proc_loss_row *d = &l->dev[i];

		format_json_string(d->dev_name, s, sizeof(s));
		fprintf(f, "%s{\"device\": %s, \"dev\": \"%u:%u\", \"done_without_start\": %" PRIu64, i ? ", " : "",
			s, major(d->dev), minor(d->dev), d->no_start);
		output_json_count_new(f, "done_without_start_new", l->since_prev, d->no_start_new);
		fputc('}', f);
	}
	fputs("]}", f);
}

void output_procs_json(FILE *f, const struct proc_metrics *m)
{
	char s[2 * 160 + 8];

	if (!m->valid) {
		format_json_string(m->why[0] ? m->why : "no process figures yet", s, sizeof(s));
		fprintf(f, "{\"error\": %s}", s);
		return;
	}
	fprintf(f, "{\"interval\": %.3f, \"all_users\": %s, \"traced\": %s, \"processes\": %zu, \"unreadable\": %u, "
		   "\"rows\": [",
		m->interval, m->all_users ? "true" : "false", m->traced ? "true" : "false", m->nprocs, m->unreadable);
	for (size_t i = 0; i < m->nrows; i++) {
		if (i)
			fputs(", ", f);
		row(f, m, &m->row[i]);
	}
	fputc(']', f);
	if (m->traced) {
		fputs(", \"trace_loss\": ", f);
		output_procs_loss(f, &m->loss);
	}
	fputc('}', f);
}
