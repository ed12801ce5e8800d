/* batch: reports on stdout every interval, like top -b / iostat -x -y. */
#ifndef BLKTUNE_BATCH_H
#define BLKTUNE_BATCH_H

#include "app.h"

/* Runs until COUNT reports or SIGINT/SIGTERM/SIGHUP. Returns 0 or -errno. */
int batch_run(struct app *a);

#endif
