/* Test driver: "snapshot-cli sweep ..." and "snapshot-cli diff|show ..." run
 * the entry points main() dispatches to, so tests/integration/sweep.sh runs
 * before (and independently of) main's wiring. The scripts prefer $BLKTUNE
 * when it knows "sweep". */
#include <stdio.h>
#include <string.h>

#include "cli-snapshot.h"
#include "sweep.h"

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "sweep"))
		return sweep_main(argc - 1, argv + 1);
	if (argc > 1 && (!strcmp(argv[1], "diff") || !strcmp(argv[1], "show")))
		return cli_snapshot_main(argc - 1, argv + 1);
	fprintf(stderr, "usage: %s sweep|diff|show ...\n", argv[0]);
	return 2;
}
