/* action-procs: what keys do in the process view (o): open and close it,
 * move the selection (it follows the process, not the row), sort by any
 * column, show idle processes, and filter the device table to the selected
 * process's devices. Keymap rows point here. */
#ifndef BLKTUNE_ACTION_PROCS_H
#define BLKTUNE_ACTION_PROCS_H

#include "ui.h"

unsigned action_procs(struct ui *u);
unsigned action_procs_down(struct ui *u);
unsigned action_procs_up(struct ui *u);
unsigned action_procs_pgdown(struct ui *u);
unsigned action_procs_pgup(struct ui *u);
unsigned action_procs_sort_next(struct ui *u);
unsigned action_procs_sort_prev(struct ui *u);
unsigned action_procs_reverse(struct ui *u);
unsigned action_procs_all(struct ui *u);
unsigned action_procs_devices(struct ui *u);
/* Drop the device table's process filter (Esc in the table). */
void action_procs_filter_off(struct ui *u);

#endif
