#include "cli-snapshot.h"

#include <stdio.h>
#include <string.h>

#include "compare.h"
#include "snapshot-output.h"
#include "snapshot.h"

static int load(const char *path, struct snapshot *s)
{
	char msg[SNAPSHOT_MSG_MAX];

	if (snapshot_read(path, s, msg, sizeof(msg)) < 0) {
		fprintf(stderr, "blktune: %s\n", msg);
		return -1;
	}
	return 0;
}

static int show(int argc, char **argv)
{
	struct snapshot s;
	int rc;

	if (argc != 2) {
		fprintf(stderr, "usage: blktune show FILE\n");
		return 2;
	}
	if (load(argv[1], &s) < 0)
		return 1;
	rc = snapshot_print_text(stdout, &s) < 0;
	snapshot_free(&s);
	return rc;
}

static int diff(int argc, char **argv)
{
	const char *files[2];
	struct compare_result r;
	struct snapshot a, b;
	int nfiles = 0, json = 0, rc;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			json = 1;
		else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "blktune diff: unknown option %s (usage: blktune diff A B [--json])\n", argv[i]);
			return 2;
		} else if (nfiles < 2)
			files[nfiles++] = argv[i];
		else
			nfiles = 3;
	}
	if (nfiles != 2) {
		fprintf(stderr, "usage: blktune diff A B [--json]\n");
		return 2;
	}
	if (load(files[0], &a) < 0)
		return 1;
	if (load(files[1], &b) < 0) {
		snapshot_free(&a);
		return 1;
	}
	if (compare_snapshots(&a, &b, &r) < 0) {
		fprintf(stderr, "blktune: out of memory\n");
		rc = 1;
	} else {
		rc = (json ? compare_print_json(stdout, &r) : compare_print_text(stdout, &r)) < 0;
		compare_free(&r);
	}
	snapshot_free(&a);
	snapshot_free(&b);
	return rc;
}

int cli_snapshot_main(int argc, char **argv)
{
	if (argc >= 1 && !strcmp(argv[0], "show"))
		return show(argc, argv);
	if (argc >= 1 && !strcmp(argv[0], "diff"))
		return diff(argc, argv);
	fprintf(stderr, "usage: blktune diff A B [--json] | blktune show FILE\n");
	return 2;
}
