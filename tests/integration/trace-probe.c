/* trace-probe: drives source-bpf for the integration tests and the overhead
 * benchmark. Opens the tracer, prints "ready", then obeys lines on stdin:
 *   start  take the first sample
 *   stop   take the second sample and print the named device's interval as
 *          "key value" lines, then "end"
 *   stats  print per-program kernel statistics, then "end"
 * It runs no workload itself. Exit status 77 when tracing cannot load here. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "bpf-helper.h"
#include "source-bpf.h"
#include "trace.h"

static const char *const op_names[TRACE_OPS] = { "read", "write", "discard", "flush" };

static void put_double(const char *key, double v)
{
	if (isnan(v))
		printf("%s nan\n", key);
	else
		printf("%s %.3f\n", key, v);
}

static void print_metrics(const struct source_bpf *src, const struct trace_metrics *m,
			  const struct trace_sample *cur)
{
	uint64_t grp[TRACE_CLASSES];

	printf("path %s\n", m->path == TRACE_PATH_BIO ? "bio" : "rq");
	printf("issued %llu\ncompleted %llu\n", (unsigned long long)m->issued,
	       (unsigned long long)m->completed);
	for (int op = 0; op < TRACE_OPS; op++) {
		printf("issued_%s %llu\n", op_names[op], (unsigned long long)m->d.issued[op]);
		printf("bytes_%s %llu\n", op_names[op], (unsigned long long)m->d.bytes[op]);
		printf("completed_%s %llu\n", op_names[op], (unsigned long long)m->d.completed[op]);
	}
	for (int rw = 0; rw < 2; rw++) {
		for (unsigned i = 0; i < TRACE_SIZE_BUCKETS; i++) {
			uint64_t le = trace_size_bucket_le(i);
			char key[64];

			snprintf(key, sizeof(key), "size_%s_%s%llu", op_names[rw], le ? "le_" : "gt_",
				 (unsigned long long)(le ? le : trace_size_bucket_le(i - 1)));
			printf("%s %llu\n", key, (unsigned long long)m->d.size_count[rw][i]);
			printf("%s_bytes %llu\n", key, (unsigned long long)m->d.size_bytes[rw][i]);
		}
	}
	printf("lat_n %llu\nno_start %llu\nsteps %llu\n", (unsigned long long)m->lat_n,
	       (unsigned long long)m->d.no_start, (unsigned long long)m->d.steps);
	printf("split %d\n", m->split);
	for (int op = 0; op <= TRACE_OPS; op++) {
		const struct trace_split *sp = &m->sp[op];
		const char *n = op < TRACE_OPS ? op_names[op] : "all";
		uint64_t lat_n = 0;

		if (op < TRACE_OPS) {
			for (int i = 0; i < TRACE_LAT_BUCKETS; i++)
				lat_n += m->d.qlat[op][i];
			printf("q_n_%s %llu\nno_issue_%s %llu\n", n, (unsigned long long)lat_n, n,
			       (unsigned long long)m->d.no_issue[op]);
			printf("lat_avg_%s_us %.3f\n", n, m->lat_avg_op_us[op]);
		}
		printf("d_n_%s %llu\n", n, (unsigned long long)sp->n);
		printf("q_avg_%s_us %.3f\nq_p50_%s_us %.3f\nq_p90_%s_us %.3f\nq_p99_%s_us %.3f\n", n,
		       sp->q_avg_us, n, sp->q_p50_us, n, sp->q_p90_us, n, sp->q_p99_us);
		printf("d_avg_%s_us %.3f\nd_p50_%s_us %.3f\nd_p90_%s_us %.3f\nd_p99_%s_us %.3f\n", n,
		       sp->d_avg_us, n, sp->d_p50_us, n, sp->d_p90_us, n, sp->d_p99_us);
	}
	put_double("lat_avg_us", m->lat_avg_us);
	put_double("lat_p50_us", m->lat_p50_us);
	put_double("lat_p90_us", m->lat_p90_us);
	put_double("lat_p99_us", m->lat_p99_us);
	put_double("lat_max_us", m->lat_max_us);
	for (unsigned c = 0; c < m->ncpu; c++)
		printf("cpu%u_issued %llu\ncpu%u_completed %llu\n", c,
		       (unsigned long long)m->cpu[c].issued, c, (unsigned long long)m->cpu[c].completed);
	for (int k = 0; k < TRACE_CLASSES; k++)
		printf("class_%s %llu\n", trace_class_names[k], (unsigned long long)m->d.cls[k]);
	for (unsigned to = 0; to < m->nmat; to++)
		for (unsigned from = 0; from < m->nmat; from++)
			if (m->matrix[to * m->nmat + from])
				printf("matrix_%u_from_%u %llu\n", to, from,
				       (unsigned long long)m->matrix[to * m->nmat + from]);
	trace_matrix_group(source_bpf_topology(src), m->matrix, m->nmat, grp);
	for (int k = 0; k < TRACE_CLASSES; k++)
		printf("group_%s %llu\n", trace_class_names[k], (unsigned long long)grp[k]);
	printf("ncpu %u\nmissed %llu\nmap_full %llu\n", m->ncpu, (unsigned long long)cur->missed,
	       (unsigned long long)cur->map_full);
	fputs("json {\"disk_device\": \"x\"", stdout);
	trace_metrics_json(stdout, m);
	fputs("}\n", stdout);
}

static uint64_t misses(const struct source_bpf *src)
{
	struct source_bpf_prog_stat st[SOURCE_BPF_PROGS];
	uint64_t n = 0;

	if (source_bpf_prog_stats(src, st) == 0)
		for (int i = 0; i < SOURCE_BPF_PROGS; i++)
			n += st[i].recursion_misses;
	return n;
}

static int parse_dev(const char *arg, dev_t *dev)
{
	unsigned maj, min;
	struct stat st;

	if (sscanf(arg, "%u:%u", &maj, &min) == 2) {
		*dev = makedev(maj, min);
		return 0;
	}
	if (stat(arg, &st) || !S_ISBLK(st.st_mode))
		return -1;
	*dev = st.st_rdev;
	return 0;
}

int main(int argc, char **argv)
{
	struct trace_sample prev, cur;
	struct trace_metrics m;
	struct source_bpf *src;
	char why[256], line[64];
	dev_t dev;
	int err;

	/* Started by bpf-loader to load a BPF object: nothing else. */
	if ((err = bpf_helper_main(argc, argv)) >= 0)
		return err;
	if (argc != 2 || parse_dev(argv[1], &dev)) {
		fprintf(stderr, "usage: trace-probe /dev/BLOCKDEV|MAJ:MIN\n");
		return 2;
	}
	err = source_bpf_open(&src, why, sizeof(why));
	if (err) {
		fprintf(stderr, "trace-probe: %s\n", why);
		return 77;
	}
	uint64_t misses0 = 0;

	trace_sample_init(&prev);
	trace_sample_init(&cur);
	trace_metrics_init(&m);
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("ready bio_traced=%d\n", source_bpf_bio_traced(src));
	while (fgets(line, sizeof(line), stdin)) {
		if (!strncmp(line, "start", 5)) {
			misses0 = misses(src);
			err = source_bpf_read(src, &prev);
			printf("started %d\n", err);
		} else if (!strncmp(line, "stop", 4)) {
			err = source_bpf_read(src, &cur);
			if (!err)
				err = trace_metrics_compute(&prev, &cur, dev, &m);
			if (err)
				printf("error %s\n", strerror(-err));
			else
				print_metrics(src, &m, &cur);
			/* runs the kernel skipped (a program nested in itself on
			 * one CPU), for every device together */
			printf("misses %llu\n", (unsigned long long)(misses(src) - misses0));
			printf("end\n");
		} else if (!strncmp(line, "stats", 5)) {
			struct source_bpf_prog_stat st[SOURCE_BPF_PROGS];

			if (source_bpf_prog_stats(src, st) == 0)
				for (int i = 0; i < SOURCE_BPF_PROGS; i++)
					printf("prog %s attached %d run_cnt %llu run_time_ns %llu misses %llu\n",
					       st[i].name, st[i].attached, (unsigned long long)st[i].run_cnt,
					       (unsigned long long)st[i].run_time_ns,
					       (unsigned long long)st[i].recursion_misses);
			printf("end\n");
		}
	}
	trace_metrics_free(&m);
	trace_sample_free(&prev);
	trace_sample_free(&cur);
	source_bpf_close(src);
	return 0;
}
