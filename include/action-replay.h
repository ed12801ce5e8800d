/* action-replay: the keys of the full-screen replay (blktune -r FILE):
 * step one interval (t back, T forward), jump to a typed time (J), to the
 * recorded changes (n, N), and A/B around a change (E). The replay starts
 * paused on its first interval; space plays it at the -d interval and it
 * pauses at the end. Keys that would change the machine say so and do
 * nothing. */
#ifndef BLKTUNE_ACTION_REPLAY_H
#define BLKTUNE_ACTION_REPLAY_H

#include <stdbool.h>

#include "ui.h"

/* At start: the first interval, paused, the recording's span said. */
void action_replay_start(struct ui *u);
/* A tick while playing: the next interval, or pause at the end. */
unsigned action_replay_tick(struct ui *u);
unsigned action_replay_back(struct ui *u);
unsigned action_replay_forward(struct ui *u);
unsigned action_replay_jump_ask(struct ui *u);
/* Enter in the time prompt: u->input as HH:MM[:SS]. */
unsigned action_replay_jump_input(struct ui *u);
unsigned action_replay_next_change(struct ui *u);
unsigned action_replay_prev_change(struct ui *u);
/* A before the change under the current time (of the selected device, else
 * any), B after it, compared as live. */
unsigned action_replay_ab_around(struct ui *u);
/* The tunables panel's rows in a replay: the values of m's device the
 * recording holds at the time shown (replay_tunables), read-only; AT
 * START the value at the recording's start. Returns their number. */
struct tunable_info;
int action_replay_tunables(struct ui *u, const struct disk_metrics *m, struct tunable_info *out, int max);
/* The one line a key that changes the machine gets in a replay. */
unsigned action_replay_refuse(struct ui *u, const char *label);

#endif
