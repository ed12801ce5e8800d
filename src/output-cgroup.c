#include "output-cgroup.h"

#include <inttypes.h>

#include "format.h"
#include "output-procs.h"

static void rate(FILE *f, const char *key, bool valid, double v)
{
	if (valid)
		fprintf(f, ", \"%s\": %.3f", key, v);
	else
		fprintf(f, ", \"%s\": null", key);
}

static void row(FILE *f, const struct cgroup_metrics *m, const struct cgroup_row *r)
{
	char path[2 * CGROUP_PATH_MAX + 8], dev[2 * SAMPLE_NAME_MAX + 8];

	format_json_string(r->path, path, sizeof(path));
	format_json_string(r->dev_name, dev, sizeof(dev));
	fprintf(f, "{\"path\": %s, \"id\": %" PRIu64 ", \"device\": %s", r->path[0] ? path : "null", r->id, dev);
	if (r->counted)
		fprintf(f,
			", \"counter\": \"%s\", \"rbytes\": %" PRIu64 ", \"wbytes\": %" PRIu64 ", \"rios\": %" PRIu64
			", \"wios\": %" PRIu64,
			cgroup_counter_names[r->counter], r->rbytes, r->wbytes, r->rios, r->wios);
	else
		fputs(", \"counter\": null, \"rbytes\": null, \"wbytes\": null, \"rios\": null, \"wios\": null", f);
	rate(f, "rbytes_s", r->rates, r->rbytes_s);
	rate(f, "wbytes_s", r->rates, r->wbytes_s);
	rate(f, "rios_s", r->rates, r->rios_s);
	rate(f, "wios_s", r->rates, r->wios_s);
	if (m->traced && r->traced) {
		fputs(", \"traced\": {", f);
		/* the figures' writer opens with ", ": the object starts with the total */
		fprintf(f, "\"requests\": %" PRIu64, r->t.requests[0] + r->t.requests[1] + r->t.requests[2] + r->t.requests[3]);
		output_procs_figures(f, &r->t);
		fputc('}', f);
	} else if (m->traced) {
		fputs(", \"traced\": null", f);
	}
	fputc('}', f);
}

void output_cgroup_json(FILE *f, const struct cgroup_metrics *m)
{
	char s[2 * 160 + 8];

	if (!m->valid) {
		format_json_string(m->why[0] ? m->why : "no cgroup figures yet", s, sizeof(s));
		fprintf(f, "{\"version\": null, \"error\": %s}", s);
		return;
	}
	format_json_string(m->hierarchy, s, sizeof(s));
	fprintf(f, "{\"version\": %d, \"hierarchy\": %s, \"traced\": %s, \"uncounted\": [", m->version, s,
		m->traced ? "true" : "false");
	for (size_t i = 0; i < m->nuncounted && i < MODEL_CGROUP_UNCOUNTED; i++) {
		format_json_string(m->uncounted[i], s, sizeof(s));
		fprintf(f, "%s%s", i ? ", " : "", s);
	}
	fprintf(f, "], \"uncounted_total\": %zu, \"skipped\": %u, \"bad_lines\": %u, \"groups\": [", m->nuncounted,
		m->skipped, m->bad_lines);
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
