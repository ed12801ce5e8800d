/* cli-snapshot: "blktune diff A B [--json]" and "blktune show FILE".
 * main() calls cli_snapshot_main(argc - 1, argv + 1) when argv[1] is "diff"
 * or "show"; it returns the exit status (0, 1 on an unreadable or malformed
 * file, 2 for bad usage). */
#ifndef BLKTUNE_CLI_SNAPSHOT_H
#define BLKTUNE_CLI_SNAPSHOT_H

int cli_snapshot_main(int argc, char **argv);

#endif
