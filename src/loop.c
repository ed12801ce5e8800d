#include "loop.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <unistd.h>

struct loop {
	int ep, tfd, sfd;
	double interval;
	bool paused;
	sigset_t old;
};

static int arm(struct loop *l)
{
	struct itimerspec its;
	double sec = l->interval;

	memset(&its, 0, sizeof(its));
	if (!l->paused) {
		its.it_interval.tv_sec = (time_t)sec;
		its.it_interval.tv_nsec = (long)((sec - floor(sec)) * 1e9);
		its.it_value = its.it_interval;
	}
	return timerfd_settime(l->tfd, 0, &its, NULL) < 0 ? -errno : 0;
}

static int add(int ep, int fd, uint32_t tag)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.u32 = tag };
	return epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev) < 0 ? -errno : 0;
}

int loop_new(double interval, bool with_stdin, struct loop **out)
{
	struct loop *l = calloc(1, sizeof(*l));
	sigset_t set;
	int err;

	if (!l)
		return -ENOMEM;
	l->ep = l->tfd = l->sfd = -1;
	l->interval = interval;
	sigemptyset(&set);
	sigaddset(&set, SIGWINCH);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGQUIT);
	if (sigprocmask(SIG_BLOCK, &set, &l->old) < 0 ||
	    (l->ep = epoll_create1(EPOLL_CLOEXEC)) < 0 ||
	    (l->tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK)) < 0 ||
	    (l->sfd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK)) < 0) {
		err = -errno;
		loop_free(l);
		return err;
	}
	if ((err = add(l->ep, l->tfd, LOOP_TICK)) < 0 || (err = add(l->ep, l->sfd, LOOP_SIGNAL)) < 0 ||
	    (with_stdin && (err = add(l->ep, STDIN_FILENO, LOOP_INPUT)) < 0) || (err = arm(l)) < 0) {
		loop_free(l);
		return err;
	}
	*out = l;
	return 0;
}

void loop_free(struct loop *l)
{
	if (!l)
		return;
	if (l->ep >= 0)
		close(l->ep);
	if (l->tfd >= 0)
		close(l->tfd);
	if (l->sfd >= 0)
		close(l->sfd);
	sigprocmask(SIG_SETMASK, &l->old, NULL);
	free(l);
}

int loop_watch(struct loop *l, int fd)
{
	return add(l->ep, fd, LOOP_FD);
}

int loop_unwatch(struct loop *l, int fd)
{
	return epoll_ctl(l->ep, EPOLL_CTL_DEL, fd, NULL) < 0 ? -errno : 0;
}

int loop_set_interval(struct loop *l, double interval)
{
	l->interval = interval;
	return arm(l);
}

int loop_pause(struct loop *l, bool paused)
{
	l->paused = paused;
	return arm(l);
}

int loop_wait(struct loop *l, int *signo)
{
	return loop_wait_timeout(l, -1, signo);
}

int loop_wait_timeout(struct loop *l, int timeout_ms, int *signo)
{
	for (;;) {
		struct epoll_event ev;
		int n = epoll_wait(l->ep, &ev, 1, timeout_ms);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0) {
			if (timeout_ms >= 0)
				return LOOP_TIMEOUT;
			continue;
		}
		switch (ev.data.u32) {
		case LOOP_TICK: {
			uint64_t expirations;
			/* Missed ticks collapse into one: sample now, stay on the grid. */
			if (read(l->tfd, &expirations, sizeof(expirations)) < 0)
				continue;
			return LOOP_TICK;
		}
		case LOOP_SIGNAL: {
			struct signalfd_siginfo si;
			if (read(l->sfd, &si, sizeof(si)) != (ssize_t)sizeof(si))
				continue;
			*signo = (int)si.ssi_signo;
			return LOOP_SIGNAL;
		}
		case LOOP_FD:
			return LOOP_FD;
		default:
			return LOOP_INPUT;
		}
	}
}
