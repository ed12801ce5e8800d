#include "output.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "columns.h"
#include "format.h"
#include "output-cgroup.h"
#include "output-procs.h"
#include "record.h"

static const char *const kind_names[] = {
	[DISK_KIND_DISK] = "disk", [DISK_KIND_PARTITION] = "part", [DISK_KIND_DM] = "dm",
	[DISK_KIND_MD] = "md",     [DISK_KIND_UNKNOWN] = "unknown",
};

static void json_num(FILE *f, double v, int prec)
{
	if (!isfinite(v))
		fputs("null", f);
	else
		fprintf(f, "%.*f", prec, v);
}

/* A tunable that the device lacks is null, not -1. */
static void json_tunable(FILE *f, const char *key, long long v)
{
	fprintf(f, ", \"%s\": ", key);
	if (v < 0)
		fputs("null", f);
	else
		fprintf(f, "%lld", v);
}

/* A name beside disk_device: null where the device has none. */
static void json_name(FILE *f, const char *key, const char *v)
{
	char s[2 * NAMES_MAX + 8];

	fprintf(f, ", \"%s\": ", key);
	if (!*v) {
		fputs("null", f);
		return;
	}
	format_json_string(v, s, sizeof(s));
	fputs(s, f);
}

static void disk_object(FILE *f, const struct output_report *r, const struct disk_metrics *m,
			const struct trace_metrics *tm, const struct ra_metrics *ra)
{
	char s[256];

	format_json_string(m->name, s, sizeof(s));
	fprintf(f, "{\"disk_device\": %s", s);
	json_name(f, "mapper_name", m->info->text->dm_name);
	if (r->persistent)
		json_name(f, "persistent_name", m->info->persistent);
	for (size_t k = 0; k < columns_batch_count; k++) {
		const struct column *c = &columns[columns_batch_order[k]];
		if (c->type != COL_NUM || (c->flags & (COLUMN_GAUGE | COLUMN_TRACED | COLUMN_RAMODE)))
			continue;
		fprintf(f, ", \"%s\": ", c->json);
		/* A new or re-created device has no interval yet: no rate, not 0;
		 * a kernel that does not count discards or flushes, no figure. */
		json_num(f, m->state == DISK_OK && column_counted(c, m) ? column_value(c, m) : NAN, 2);
	}
	fprintf(f, ", \"in_flight\": %.0f", m->in_flight);
	fprintf(f, ", \"state\": \"%s\"", m->state == DISK_OK ? "ok" : m->state == DISK_NEW ? "new" : "reset");
	fprintf(f, ", \"kind\": \"%s\"", kind_names[m->info->kind]);
	if (m->info->diskseq)
		fprintf(f, ", \"diskseq\": %llu", m->info->diskseq);
	else
		fputs(", \"diskseq\": null", f);
	json_tunable(f, "read_ahead_kb", m->info->read_ahead_kb);
	json_tunable(f, "max_sectors_kb", m->info->max_sectors_kb);
	json_tunable(f, "max_hw_sectors_kb", m->info->max_hw_sectors_kb);
	json_tunable(f, "nr_requests", m->info->nr_requests);
	if (disk_has_scheduler(m->info)) {
		format_json_string(m->info->scheduler, s, sizeof(s));
		fprintf(f, ", \"scheduler\": %s", s);
	} else {
		fputs(", \"scheduler\": null", f);
	}
	format_json_string(m->info->text->slaves, s, sizeof(s));
	fprintf(f, ", \"slaves\": %s", s);
	format_json_string(m->info->text->holders, s, sizeof(s));
	fprintf(f, ", \"holders\": %s", s);
	fprintf(f, ", \"traced\": %s", m->traced ? "true" : "false");
	if (tm && m->t_metrics) {
		trace_metrics_json(f, tm);
		fprintf(f, ", \"same_cpu_pct\": ");
		json_num(f, m->t_same_cpu_pct, 2);
		fprintf(f, ", \"trace_gap_pct\": ");
		json_num(f, m->t_gap_pct, 2);
	}
	if (ra && m->ra_metrics)
		ra_metrics_json(f, ra);
	else if (ra)
		fputs(", \"readahead\": null", f);
	fputc('}', f);
}

int output_json(FILE *f, const struct output_report *r)
{
	char ts[40], host[160];

	output_timestamp(&r->cur->wall, ts, sizeof(ts));
	format_json_string(r->host->hostname, host, sizeof(host));
	fprintf(f, "{\"timestamp\": \"%s\", \"host\": %s, \"interval_s\": %.6f, ", ts, host, r->interval);
	if (r->since_boot)
		fputs("\"since_boot\": true, ", f);
	fputs("\"cpu\": ", f);
	if (r->cpu->valid)
		fprintf(f,
			"{\"user\": %.2f, \"nice\": %.2f, \"system\": %.2f, \"iowait\": %.2f, \"irq\": %.2f, "
			"\"softirq\": %.2f, \"steal\": %.2f, \"idle\": %.2f}",
			r->cpu->user, r->cpu->nice, r->cpu->system, r->cpu->iowait, r->cpu->irq, r->cpu->softirq,
			r->cpu->steal, r->cpu->idle);
	else
		fputs("null", f);
	fputs(", \"disk\": [", f);
	for (size_t i = 0; i < r->nrows; i++) {
		if (i)
			fputs(", ", f);
		disk_object(f, r, &r->disks[r->rows[i]], r->traces ? &r->traces[r->rows[i]] : NULL,
			    r->ra ? &r->ra[r->rows[i]] : NULL);
	}
	fputs("]", f);
	if (r->trace_off) {
		char why[1024]; /* a reason of 160 bytes, each escaped to 6 at most */

		format_json_string(r->trace_off, why, sizeof(why));
		fprintf(f, ", \"trace_off\": %s", why);
	}
	if (r->trace_loss) {
		const struct trace_loss *l = r->trace_loss;

		fprintf(f, ", \"trace_loss\": {\"runs_skipped\": %" PRIu64, l->skipped);
		output_json_count_new(f, "runs_skipped_new", l->since_prev, l->skipped_new);
		fprintf(f, ", \"map_full\": %" PRIu64, l->map_full);
		output_json_count_new(f, "map_full_new", l->since_prev, l->map_full_new);
		fputc('}', f);
	}
	if (r->cgroups) {
		fputs(", \"cgroups\": ", f);
		output_cgroup_json(f, r->cgroups);
	}
	if (r->procs) {
		fputs(", \"processes\": ", f);
		output_procs_json(f, r->procs);
	}
	if (r->nchanges) {
		fputs(", \"tunable_changes\": [", f);
		for (size_t k = 0; k < r->nchanges; k++) {
			const struct record_change *c = &r->changes[k];
			struct timespec w = { .tv_sec = (time_t)c->wall };
			/* a byte may take a 6-byte escape */
			char when[40], dev[6 * sizeof(c->dev) + 3], tun[6 * sizeof(c->tunable) + 3],
				from[6 * sizeof(c->from) + 3], to[6 * sizeof(c->to) + 3];
			output_timestamp(&w, when, sizeof(when));
			format_json_string(c->dev, dev, sizeof(dev));
			format_json_string(c->tunable, tun, sizeof(tun));
			format_json_string(c->from, from, sizeof(from));
			format_json_string(c->to, to, sizeof(to));
			fprintf(f, "%s{\"time\": \"%s\", \"disk_device\": %s, \"tunable\": %s, \"from\": %s, \"to\": %s}",
				k ? ", " : "", when, dev, tun, from, to);
		}
		fputc(']', f);
	}
	fputs("}\n", f);
	return fflush(f) == 0 ? 0 : -1;
}
