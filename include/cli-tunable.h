/* cli-tunable: the batch entry points main() calls for tunables. They print
 * to the streams they are given (main passes stdout/stderr) and return an exit
 * status; the engine underneath (tunable.c) never prints.
 *
 *   blktune --set DEV:TUNABLE=VALUE [--set ...]  validate, journal, write, read back
 *   blktune --restore                            put back every journaled original
 *
 * root_dir NULL means "/"; journal_dir NULL means $BLKTUNE_JOURNAL_DIR or
 * /run/blktune. */
#ifndef BLKTUNE_CLI_TUNABLE_H
#define BLKTUNE_CLI_TUNABLE_H

#include <stddef.h>
#include <stdio.h>

/* Apply each "DEV:TUNABLE=VALUE" in order (DEV may be written /dev/DEV) and
 * print what the kernel set, one line per spec. Every value is checked
 * first, each under the scheduler the specs before it set: one refused is
 * said in one line and nothing is changed or journaled (2). A write the
 * kernel refuses stops there (1): the specs before it stay applied and
 * journaled, the rest are not tried, and a line says so. Returns 0 when
 * every change was made, 1 then, 2 for a malformed or refused spec or a
 * journal directory that is not safe (nothing is changed then). */
int cli_tunable_set(const char *root_dir, const char *journal_dir, const char *const *specs,
		    size_t nspecs, FILE *out, FILE *err);
/* Restore the journal without asking, printing each value and each line not
 * restored (with its journal line). Returns 0 when everything is back (or
 * there is no journal), 2 for a journal directory or file that is not safe,
 * 1 when anything else was not restored. */
int cli_tunable_restore(const char *root_dir, const char *journal_dir, FILE *out, FILE *err);
/* Lines waiting in the journal (the TUI offers to restore them at start),
 * 0 when none, or -errno with msg (-EPERM: not safe). */
int cli_tunable_journal_pending(const char *journal_dir, char *msg, size_t msg_size);

#endif
