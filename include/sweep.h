/* sweep: blktune sweep DEV TUNABLE=V1,V2,... [--run CMD] [--duration S]
 *        [--repeat N] [--drop-caches] [--csv FILE] [-d INTERVAL] [--dir DIR]
 * For each value and repeat: set it through the tunables engine (validated,
 * journaled, read back), optionally drop the page cache, run CMD (sh -c) or
 * sample for S seconds, summarise the device's window as a snapshot (saved),
 * and at the end (also on SIGINT, SIGTERM, SIGHUP, SIGQUIT) restore the
 * original value. Prints a progress line per run, a table and a plot.
 * main() calls sweep_main(argc - 1, argv + 1) when argv[1] is "sweep"; the
 * return value is the exit status (2: bad usage, 1: a failure, 128 + signal
 * when interrupted). */
#ifndef BLKTUNE_SWEEP_H
#define BLKTUNE_SWEEP_H

int sweep_main(int argc, char **argv);

#endif
