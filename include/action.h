/* action: what keys do to tunables (validate, write, read back, journal via
 * tunable.c), with the result on the status line. Keymap rows point here. */
#ifndef BLKTUNE_ACTION_H
#define BLKTUNE_ACTION_H

#include <stdio.h>

#include "ui.h"

/* Seconds between re-reads of the tunables panel while it is shown. */
#define ACTION_PANEL_REREAD_S 2.0

/* Re-read the panel's rows for the selected device (a file read: called on
 * entering the panel, after a change, and from the tick). */
void action_tunables_reload(struct ui *u);
/* The panel opened afresh: on the last tunable changed there, or read_ahead_kb. */
void action_tunables_open(struct ui *u);
/* Step the named tunable of the selected device up (+1) or down (-1). */
unsigned action_tunable_step(struct ui *u, const char *name, int dir);
/* Set the panel's selected tunable to u->input. */
unsigned action_tunable_set_input(struct ui *u);
unsigned action_undo(struct ui *u);
/* A value changed (a tunable_report_fn, arg the ui): into the recording
 * (-w), a failure said on the status line. */
void action_record_change(void *arg, const struct tunable_result *res);
unsigned action_restore_all(struct ui *u);
unsigned action_keep(struct ui *u);
/* A/B: take snapshot A or B of the selected device (its series window). */
unsigned action_ab_take(struct ui *u, enum ab_slot slot);
/* Put the selected device's tunables back to A's or B's values. */
unsigned action_ab_apply(struct ui *u, enum ab_slot slot);
unsigned action_ab_save(struct ui *u);
/* At exit or on SIGTERM/SIGHUP: restore unless the person chose keep.
 * Writes one line per value to the status (and returns failures). */
int action_exit_restore(struct ui *u);
/* After endwin: print what every restore and keep of the session did, and
 * what is left in the journal, one line each; frees the log. */
void action_exit_report(struct ui *u, FILE *f);

#endif
