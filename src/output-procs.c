#include "output-procs.h"

#include <inttypes.h>

#include "format.h"

static void rate(FILE *f, const char *key, bool valid, double v)
{
	if (valid)
		fprintf(f, ", \"%s\": %.1f", key, v);
	else
		fprintf(f, ", \"%s\": null", key);
}

static void row(FILE *f, const struct proc_row *r)
{
	char user[2 * PROC_USER_MAX + 8], comm[2 * PROC_COMM_MAX + 8], cmd[2 * PROC_CMDLINE_MAX + 8];

	format_json_string(r->user, user, sizeof(user));
	format_json_string(r->comm, comm, sizeof(comm));
	format_json_string(r->cmdline, cmd, sizeof(cmd));
	fprintf(f, "{\"pid\": %d, \"user\": %s, \"uid\": %u, \"command\": %s, \"cmdline\": %s, \"rbytes\": %" PRIu64
		   ", \"wbytes\": %" PRIu64,
		(int)r->pid, user, (unsigned)r->uid, comm, cmd, r->rbytes, r->wbytes);
	rate(f, "rbytes_s", r->rates, r->rbytes_s);
	rate(f, "wbytes_s", r->rates, r->wbytes_s);
	fputc('}', f);
}

void output_procs_json(FILE *f, const struct proc_metrics *m)
{
	char s[2 * 160 + 8];

	if (!m->valid) {
		format_json_string(m->why[0] ? m->why : "no process figures yet", s, sizeof(s));
		fprintf(f, "{\"error\": %s}", s);
		return;
	}
	fprintf(f, "{\"interval\": %.3f, \"all_users\": %s, \"processes\": %zu, \"unreadable\": %u, \"rows\": [",
		m->interval, m->all_users ? "true" : "false", m->nprocs, m->unreadable);
	for (size_t i = 0; i < m->nrows; i++) {
		if (i)
			fputs(", ", f);
		row(f, &m->row[i]);
	}
	fputs("]}", f);
}
