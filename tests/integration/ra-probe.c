/* ra-probe: drives source-readahead for the integration tests and the
 * benchmark. Opens the readahead source, prints "ready", then obeys lines on
 * stdin:
 *   start  take the first sample
 *   stop   take the second sample and print the named device's interval as
 *          "key value" lines (cum_* since attach, live = bits still set in
 *          the kernel's page map), then "end"
 *   read   take a sample (as a refresh does: state of gone devices is freed)
 *          and print "has 1" or "has 0": whether the named device still
 *          has kernel state
 *   floor  load and attach the object's empty floor program on
 *          mm_filemap_get_pages ("floor fault": those on page_fault_user and
 *          rss_stat), in a second copy of the object with nothing else
 *          loaded: "floor 0" or "floor -errno"
 *   stats  print kernel statistics as "prog NAME run_cnt N run_time_ns N
 *          misses N" lines: all (the mode's programs summed), get_pages,
 *          fault_user, rss_stat, task_exit, and floor (and floor_rss) once
 *          attached; then "end"
 * It runs no workload itself. Exit status 77 when the source cannot load. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "readahead.h"
#include "readahead.skel.h"
#include "bpf-helper.h"
#include "source-readahead.h"

static void put_double(const char *key, double v)
{
	if (isnan(v))
		printf("%s nan\n", key);
	else
		printf("%s %.3f\n", key, v);
}

#define PU(k, v) printf("%s %llu\n", k, (unsigned long long)(v))

static void print_metrics(struct source_ra *src, const struct ra_metrics *m, const struct ra_sample *cur)
{
	const struct ra_counts *c = &cur->devs[ra_sample_find(cur, m->dev)].c;
	uint64_t live = 0;

	printf("kind %s%s\n", m->kind & RA_DEV_FS ? "fs" : "", m->kind & RA_DEV_DISK ? "disk" : "");
	PU("pages", m->pages);
	PU("sync_pages", m->sync_pages);
	PU("async_pages", m->async_pages);
	PU("sync_triggers", m->sync_triggers);
	PU("async_triggers", m->async_triggers);
	PU("hit", m->hit);
	PU("mapped", m->mapped);
	PU("waste", m->waste);
	PU("unread", m->unread);
	PU("dropped", m->dropped);
	PU("windows", m->windows);
	PU("window_pages", m->window_pages);
	PU("demand", m->demand);
	PU("read_pages", m->read_pages);
	for (unsigned i = 0; i < RA_HIST; i++) {
		char key[32];

		if (ra_win_bucket_lt(i))
			snprintf(key, sizeof(key), "hist_lt_%llu", (unsigned long long)ra_win_bucket_lt(i));
		else
			snprintf(key, sizeof(key), "hist_ge_%llu", (unsigned long long)ra_win_bucket_lt(i - 1));
		PU(key, m->win_hist[i]);
	}
	put_double("hit_pct", m->hit_pct);
	put_double("mapped_pct", m->mapped_pct);
	put_double("waste_pct", m->waste_pct);
	put_double("waste_mb", m->waste_mb);
	put_double("avg_window_kb", m->avg_window_kb);
	put_double("cache_hit_pct", m->cache_hit_pct);
	put_double("pages_per_s", m->pages_per_s);
	PU("cum_pages", c->sync_pages + c->async_pages);
	PU("cum_hit", c->hit);
	PU("cum_mapped", c->mapped);
	PU("cum_waste", c->waste);
	PU("cum_unread", ra_counts_unread(c));
	PU("cum_dropped", c->dropped);
	PU("cum_clamped", c->clamped);
	if ((m->kind & RA_DEV_FS) && source_ra_live_pages(src, m->dev, &live) == 0)
		PU("live", live);
	fputs("json {\"disk_device\": \"x\"", stdout);
	ra_metrics_json(stdout, m);
	fputs("}\n", stdout);
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

static void put_stat(const char *name, const struct source_ra_stat *st)
{
	printf("prog %s run_cnt %llu run_time_ns %llu misses %llu\n", name, (unsigned long long)st->run_cnt,
	       (unsigned long long)st->run_time_ns, (unsigned long long)st->recursion_misses);
}

/* The floor: an empty program on mm_filemap_get_pages (with `fault`: one on
 * page_fault_user and one on rss_stat), alone in its copy of the object. */
static int floor_open(struct readahead **out, int fault)
{
	struct readahead *skel = readahead__open();
	struct bpf_program *p;
	int err;

	*out = NULL;
	if (!skel)
		return -errno;
	bpf_object__for_each_program(p, skel->obj)
		bpf_program__set_autoload(p, fault ? p == skel->progs.floor_fault || p == skel->progs.floor_rss
						   : p == skel->progs.floor_get_pages);
	err = readahead__load(skel);
	if (!err)
		err = readahead__attach(skel);
	if (err) {
		readahead__destroy(skel);
		return err;
	}
	*out = skel;
	return 0;
}

static void floor_stat(const char *name, struct bpf_program *prog)
{
	struct bpf_prog_info info;
	__u32 len = sizeof(info);
	struct source_ra_stat st = { 0 };

	if (!bpf_program__autoload(prog))
		return;
	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(bpf_program__fd(prog), &info, &len))
		return;
	st.run_cnt = info.run_cnt;
	st.run_time_ns = info.run_time_ns;
	st.recursion_misses = info.recursion_misses;
	put_stat(name, &st);
}

int main(int argc, char **argv)
{
	struct readahead *floor = NULL;
	struct ra_sample prev, cur;
	struct ra_metrics m;
	struct source_ra *src;
	char why[256], line[64];
	dev_t dev;
	int err;

	/* Started by bpf-loader to load a BPF object: nothing else. */
	if ((err = bpf_helper_main(argc, argv)) >= 0)
		return err;
	if (argc != 2 || parse_dev(argv[1], &dev)) {
		fprintf(stderr, "usage: ra-probe /dev/BLOCKDEV|MAJ:MIN\n");
		return 2;
	}
	err = source_ra_open(&src, why, sizeof(why));
	if (err) {
		fprintf(stderr, "ra-probe: %s\n", why);
		return 77;
	}
	ra_sample_init(&prev);
	ra_sample_init(&cur);
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("ready\n");
	while (fgets(line, sizeof(line), stdin)) {
		if (!strncmp(line, "start", 5)) {
			err = source_ra_read(src, &prev);
			printf("started %d\n", err);
		} else if (!strncmp(line, "stop", 4)) {
			err = source_ra_read(src, &cur);
			if (!err)
				err = ra_metrics_compute(&prev, &cur, dev, &m);
			if (err)
				printf("error %s\n", strerror(-err));
			else
				print_metrics(src, &m, &cur);
			printf("end\n");
		} else if (!strncmp(line, "read", 4)) {
			err = source_ra_read(src, &cur);
			printf("has %d\n", err ? err : source_ra_has(src, dev));
		} else if (!strncmp(line, "floor", 5)) {
			printf("floor %d\n", floor ? 0 : floor_open(&floor, !strncmp(line, "floor fault", 11)));
		} else if (!strncmp(line, "stats", 5)) {
			static const char *const names[] = { "get_pages", "fault_user", "rss_stat", "task_exit" };
			struct source_ra_stat st;

			if (source_ra_stats(src, NULL, &st) == 0)
				put_stat("all", &st);
			for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
				if (source_ra_stats(src, names[i], &st) == 0)
					put_stat(names[i], &st);
			if (floor) {
				floor_stat("floor", floor->progs.floor_get_pages);
				floor_stat("floor", floor->progs.floor_fault);
				floor_stat("floor_rss", floor->progs.floor_rss);
			}
			printf("end\n");
		}
	}
	readahead__destroy(floor);
	ra_sample_free(&prev);
	ra_sample_free(&cur);
	source_ra_close(src);
	return 0;
}
