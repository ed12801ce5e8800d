/* sweep-workload: the workload's own figures. A fio command gets JSON output
 * into a file blktune names, and its per-direction IOPS, bandwidth, clat
 * p50/p99 and CPU become run figures; any other command's output is searched
 * for --metric NAME=REGEX (the last number of the last match). */
#ifndef BLKTUNE_SWEEP_WORKLOAD_H
#define BLKTUNE_SWEEP_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>

#include "sweep-figure.h"

/* True when cmd is one plain fio invocation (first word fio or .../fio after
 * any NAME=VALUE assignments, no shell operators or expansions) that blktune can extend with output options. */
bool sweep_workload_is_fio(const char *cmd);
/* cmd + " --output-format=json --output='json'" into *out (malloc'd, the
 * caller frees it), json quoted for sh whatever it holds. Returns 0 or
 * -ENOMEM. */
int sweep_workload_fio_cmd(const char *cmd, const char *json, char **out);
/* fio's JSON text into run->fig[SF_FIO_*]. Returns 0 or -EINVAL. */
int sweep_workload_fio_parse(const char *text, struct sweep_run *run);
/* The last number in the last match of regex in text (the first
 * parenthesised group if the regex has one, else the whole match), or NAN.
 * A '-' is a minus sign only where it starts a number: in "10-20" the
 * numbers are 10 and 20, and 20 is taken. */
double sweep_workload_metric(const char *text, const char *regex);
/* The last max bytes of the file at path (all of a shorter one) into a new
 * NUL-terminated *out, from the first line that starts inside them: the
 * last match of --metric is in the output's end. Returns 0 or -errno. */
int sweep_workload_read_tail(const char *path, size_t max, char **out);

#endif
