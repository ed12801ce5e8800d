/* tui: the interactive front end's event loop. */
#ifndef BLKTUNE_TUI_H
#define BLKTUNE_TUI_H

#include "app.h"

/* Runs until q or a terminating signal. Returns 0, -errno, or
 * TUI_UNRESTORED when a tunable was left not restored (exit status 1). */
#define TUI_UNRESTORED 1
int tui_run(struct app *a);

#endif
