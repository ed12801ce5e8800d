/* cli-persist: `blktune persist DEV [TUNABLE[=VALUE]...]` writes (or with
 * --remove deletes) the udev rule of persist.h, after showing it. */
#ifndef BLKTUNE_CLI_PERSIST_H
#define BLKTUNE_CLI_PERSIST_H

/* argv[0] is "persist". Returns the exit status: 0, 1 (nothing written, or
 * the write failed), 2 (bad command line). */
int cli_persist_main(int argc, char **argv);

#endif
