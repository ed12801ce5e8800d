/* Test driver for cli-tunable.c with main()'s option names:
 *   tunable-cli [--root DIR] [--journal-dir DIR] (--set DEV:T=V ... | --restore | --pending) */
#include <stdio.h>
#include <string.h>

#include "cli-tunable.h"

int main(int argc, char **argv)
{
	const char *root = NULL, *jdir = NULL, *sets[64];
	size_t nsets = 0;
	int restore = 0, pending = 0;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--root") == 0 && i + 1 < argc)
			root = argv[++i];
		else if (strcmp(argv[i], "--journal-dir") == 0 && i + 1 < argc)
			jdir = argv[++i];
		else if (strcmp(argv[i], "--set") == 0 && i + 1 < argc && nsets < 64)
			sets[nsets++] = argv[++i];
		else if (strcmp(argv[i], "--restore") == 0)
			restore = 1;
		else if (strcmp(argv[i], "--pending") == 0)
			pending = 1;
		else {
			fprintf(stderr, "usage: %s [--root DIR] [--journal-dir DIR] (--set DEV:T=V ... | --restore | --pending)\n",
				argv[0]);
			return 2;
		}
	}
	if (pending) {
		int n = cli_tunable_journal_pending(jdir);
		printf("%d\n", n);
		return n < 0;
	}
	if (restore)
		return cli_tunable_restore(root, jdir, stdout, stderr);
	return cli_tunable_set(root, jdir, sets, nsets, stdout, stderr);
}
