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
 * print what the kernel set, one line per spec. Returns 0 when every change
 * was made, 1 when any was refused or failed, 2 for a malformed spec (nothing
 * is changed then). */
int cli_tunable_set(const char *root_dir, const char *journal_dir, const char *const *specs,
		    size_t nspecs, FILE *out, FILE *err);
/* Restore the journal without asking, printing each value. Returns 0 when
 * everything is back (or nothing was pending), 1 otherwise. */
int cli_tunable_restore(const char *root_dir, const char *journal_dir, FILE *out, FILE *err);
/* Originals waiting in the journal (the TUI offers to restore them at start),
 * 0 when none, or -errno. */
int cli_tunable_journal_pending(const char *journal_dir);

#endif
