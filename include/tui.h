/* tui: the interactive front end's event loop. */
#ifndef BLKTUNE_TUI_H
#define BLKTUNE_TUI_H

#include "app.h"

/* Runs until q or a terminating signal. Returns the exit status. */
int tui_run(struct app *a);

#endif
