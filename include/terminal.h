/* terminal: can this terminal draw the full-screen view? Kept apart from
 * the curses code: <term.h> defines macros (columns, lines) that clash with
 * ordinary names. */
#ifndef BLKTUNE_TERMINAL_H
#define BLKTUNE_TERMINAL_H

#include <stddef.h>

/* 0 when $TERM is known to terminfo and can move the cursor; otherwise
 * -ENOTTY with a one-line reason in why. */
int terminal_check(char *why, size_t len);

#endif
