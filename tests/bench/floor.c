/* floor OBJ PROG: load tests/bench/floor.bpf.c's object, attach only program
 * PROG, print "ready", then answer each "stats" line on stdin with
 * "RUN_CNT RUN_TIME_NS" (kernel.bpf_stats_enabled must be 1 for them to
 * move); exit at end of input. The tracing benchmark's floor: the same number
 * of do-nothing programs on the same tracepoint, in the same run. */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <stdio.h>
#include <string.h>

static int quiet(enum libbpf_print_level l, const char *f, va_list ap)
{
	(void)l;
	(void)f;
	(void)ap;
	return 0;
}

int main(int argc, char **argv)
{
	struct bpf_object *obj;
	struct bpf_program *p, *want = NULL;
	struct bpf_link *link;
	char line[64];

	if (argc != 3) {
		fprintf(stderr, "usage: floor OBJ PROG\n");
		return 2;
	}
	libbpf_set_print(quiet);
	obj = bpf_object__open_file(argv[1], NULL);
	if (!obj) {
		perror(argv[1]);
		return 1;
	}
	bpf_object__for_each_program(p, obj) {
		if (!strcmp(bpf_program__name(p), argv[2]))
			want = p;
		else
			bpf_program__set_autoload(p, false);
	}
	if (!want || bpf_object__load(obj) || !(link = bpf_program__attach(want))) {
		fprintf(stderr, "floor: cannot load or attach %s\n", argv[2]);
		return 1;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("ready\n");
	while (fgets(line, sizeof(line), stdin)) {
		struct bpf_prog_info info;
		__u32 len = sizeof(info);

		memset(&info, 0, sizeof(info));
		if (bpf_obj_get_info_by_fd(bpf_program__fd(want), &info, &len))
			return 1;
		printf("%llu %llu\n", (unsigned long long)info.run_cnt, (unsigned long long)info.run_time_ns);
	}
	bpf_link__destroy(link);
	bpf_object__close(obj);
	return 0;
}
