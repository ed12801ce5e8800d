/* sweep: blktune sweep DEV TUNABLE=V1,V2,... [options] (sweep-opts.h).
 * For each run in the order (interleaved repeats or shuffled): set the value
 * through the tunables engine (validated, journaled, read back), settle,
 * optionally drop the page cache, run CMD in a cgroup of its own or sample
 * for --duration (sweep-run.c: the exact window and its figures), save a
 * snapshot of the run's intervals and the CSV; at the end (also on SIGINT,
 * SIGTERM, SIGHUP, SIGQUIT and a closed stdout) restore the original value,
 * print the tables, plot and warnings (sweep-report.c) and write --report.
 * main() calls sweep_main(argc - 1, argv + 1) when argv[1] is "sweep"; the
 * return value is the exit status (2: bad usage, 1: a failure or a command
 * that exited non-zero, 128 + signal when interrupted, 141 for a closed
 * pipe). */
#ifndef BLKTUNE_SWEEP_H
#define BLKTUNE_SWEEP_H

int sweep_main(int argc, char **argv);

#endif
