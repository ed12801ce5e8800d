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
	LOOP_FD,      /* a loop_watch()ed fd is readable (a pidfd: the child exited) */
};

struct loop;

int loop_new(double interval, bool with_stdin, struct loop **out);
void loop_free(struct loop *l);
/* Re-arm the timer: the next tick comes one new interval from now. */
int loop_set_interval(struct loop *l, double interval);
/* Watch one more fd (level-triggered); loop_unwatch before closing it. */
int loop_watch(struct loop *l, int fd);
int loop_unwatch(struct loop *l, int fd);
/* Stop or resume ticking (pause). */
int loop_pause(struct loop *l, bool paused);
/* Wait for the next event; *signo is set for LOOP_SIGNAL. Returns the event
 * or -errno. */
int loop_wait(struct loop *l, int *signo);
/* The same, giving up after timeout_ms (-1: never) with LOOP_TIMEOUT. */
int loop_wait_timeout(struct loop *l, int timeout_ms, int *signo);

#endif
