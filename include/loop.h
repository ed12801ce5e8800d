/* loop: one epoll over a timerfd (sampling ticks), a signalfd (SIGWINCH,
 * SIGINT, SIGTERM, SIGHUP) and optionally stdin. No busy waiting; ticks stay
 * regular whatever keys arrive. */
#ifndef BLKTUNE_LOOP_H
#define BLKTUNE_LOOP_H

#include <stdbool.h>

enum loop_event {
	LOOP_TICK,
	LOOP_INPUT,
	LOOP_SIGNAL,
	LOOP_TIMEOUT, /* loop_wait_timeout: nothing happened in time */
};

struct loop;

int loop_new(double interval, bool with_stdin, struct loop **out);
void loop_free(struct loop *l);
/* Re-arm the timer: the next tick comes one new interval from now. */
int loop_set_interval(struct loop *l, double interval);
/* Stop or resume ticking (pause). */
int loop_pause(struct loop *l, bool paused);
/* Wait for the next event; *signo is set for LOOP_SIGNAL. Returns the event
 * or -errno. */
int loop_wait(struct loop *l, int *signo);
/* The same, giving up after timeout_ms (-1: never) with LOOP_TIMEOUT. */
int loop_wait_timeout(struct loop *l, int timeout_ms, int *signo);

#endif
