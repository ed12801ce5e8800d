#include "action-replay.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "action.h"
#include "format.h"
#include "replay-nav.h"
#include "source-replay.h"
#include "tunable-table.h"

static const struct record_reader *reader(const struct ui *u)
{
	struct source_replay *src = sampler_replay(u->app->sampler);

	return src ? source_replay_reader(src) : NULL;
}

/* Moving in time stops the playing: the interval stays on screen. */
static void hold(struct ui *u)
{
	u->paused = true;
	loop_pause(u->loop, true);
}

static void clock_text(const struct timespec *w, char *out, size_t len)
{
	format_time((double)w->tv_sec, "%H:%M:%S", out, len);
}

/* Every change recorded in the interval shown: "change at 14:02:05: loop0
 * read_ahead_kb 128 -> 1024" (more than one: the first and a count). */
static bool say_changes(struct ui *u)
{
	const struct record_change *c;
	const size_t *before;
	size_t nch = record_reader_changes(reader(u), &c, &before), pos = app_replay_pos(u->app), n = 0, first = 0;
	char at[16];

	for (size_t k = 0; k < nch; k++)
		if (before[k] == pos && !n++)
			first = k;
	if (!n)
		return false;
	format_time((double)c[first].wall, "%H:%M:%S", at, sizeof(at));
	ui_status(u, "change at %s: %s %s %s -> %s%s", at, c[first].dev, c[first].tunable, c[first].from, c[first].to,
		  n > 1 ? " (and more in this interval: n steps to each)" : "");
	return true;
}

/* Where the replay is now, on the status line (after a jump or a step). */
static void say_where(struct ui *u, const char *what)
{
	size_t pos = app_replay_pos(u->app), n = record_reader_count(reader(u));
	char at[16];

	if (say_changes(u))
		return;
	clock_text(&u->app->cur.wall, at, sizeof(at));
	ui_status(u, "%s: interval %zu of %zu, %s", what, pos, n - 1, at);
}

static unsigned go(struct ui *u, size_t i, const char *what)
{
	int err;

	if ((err = app_replay_goto(u->app, i)) < 0) {
		ui_status(u, "replay: %s", strerror(-err));
		return ACT_REDRAW;
	}
	ui_sync_selection(u);
	if (u->mode == UI_TUNABLES)
		action_tunables_reload(u);
	say_where(u, what);
	return ACT_REDRAW;
}

void action_replay_start(struct ui *u)
{
	const struct record_reader *r = reader(u);
	size_t n = record_reader_count(r), jumps;
	char from[32], to[32];
	time_t first, last;

	hold(u);
	if (n >= 2)
		app_replay_goto(u->app, 1);
	jumps = record_reader_range(r, &first, &last);
	format_time((double)record_reader_wall(r, 0).tv_sec, "%Y-%m-%d %H:%M:%S", from, sizeof(from));
	format_time((double)record_reader_wall(r, n - 1).tv_sec, "%H:%M:%S", to, sizeof(to));
	if (record_reader_warning(r)[0])
		ui_status(u, "%s", record_reader_warning(r));
	else
		ui_status(u, "replay: %zu intervals%s, %s to %s%s; T forward, t back, J jumps to a time, space plays",
			  n - 1, u->app->opt.count > 0 ? " (-n: the recording's first)" : "", from, to,
			  jumps ? " (the clock jumped)" : "");
}

unsigned action_replay_tick(struct ui *u)
{
	size_t pos = app_replay_pos(u->app), n = record_reader_count(reader(u));
	int err;

	if (pos + 1 >= n) {
		hold(u);
		ui_status(u, "end of the recording: t steps back, J jumps to a time");
		return ACT_REDRAW;
	}
	if ((err = app_refresh(u->app)) < 0) {
		ui_status(u, "replay: %s", strerror(-err));
		return ACT_REDRAW;
	}
	if (u->mode == UI_TUNABLES)
		action_tunables_reload(u);
	say_changes(u);
	return ACT_REDRAW | ACT_ROWS;
}

/* t and T: one interval, and the replay stays paused there (atop's t/T). */
static unsigned step(struct ui *u, int dir)
{
	size_t pos = app_replay_pos(u->app), n = record_reader_count(reader(u));

	hold(u);
	if (dir < 0 && pos <= 1) {
		ui_status(u, "the first interval of the recording: T steps forward");
		return ACT_REDRAW;
	}
	if (dir > 0 && pos + 1 >= n) {
		ui_status(u, "the last interval of the recording: t steps back");
		return ACT_REDRAW;
	}
	/* forward is one more sample, no rebuild */
	if (dir > 0) {
		int err = app_refresh(u->app);
		if (err < 0) {
			ui_status(u, "replay: %s", strerror(-err));
			return ACT_REDRAW;
		}
		ui_sync_selection(u);
		if (u->mode == UI_TUNABLES)
			action_tunables_reload(u);
		say_where(u, "forward");
		return ACT_REDRAW | ACT_ROWS;
	}
	return go(u, pos - 1, "back");
}

unsigned action_replay_back(struct ui *u)
{
	return step(u, -1);
}

unsigned action_replay_forward(struct ui *u)
{
	return step(u, +1);
}

unsigned action_replay_jump_ask(struct ui *u)
{
	char at[16];

	clock_text(&u->app->cur.wall, at, sizeof(at));
	u->prompt = UI_PROMPT_TIME;
	snprintf(u->input, sizeof(u->input), "%s", at);
	u->input_fresh = true;
	return ACT_REDRAW;
}

/* What times the recording holds, for a refusal: "it runs from 14:00:00
 * to 15:00:00", or when the wall clock was set while recording the
 * earliest and latest and that it jumped (they bound no one run then). */
static void say_range(const struct record_reader *r, char *out, size_t len)
{
	time_t first, last;
	size_t jumps = record_reader_range(r, &first, &last);
	char a[16], b[16];

	format_time((double)first, "%H:%M:%S", a, sizeof(a));
	format_time((double)last, "%H:%M:%S", b, sizeof(b));
	if (jumps)
		snprintf(out, len, "it holds %s to %s, not all between (the clock jumped %zu time%s)", a,
			 b, jumps, jumps > 1 ? "s" : "");
	else
		snprintf(out, len, "it runs from %s to %s", a, b);
}

unsigned action_replay_jump_input(struct ui *u)
{
	const struct record_reader *r = reader(u);
	size_t i;
	char range[160], what[64];
	bool again;
	int sod;

	say_range(r, range, sizeof(range));
	if (replay_parse_clock(u->input, &sod) < 0) {
		ui_status(u, "time \"%s\": HH:MM or HH:MM:SS; %s", u->input, range);
		return ACT_REDRAW;
	}
	if (replay_clock_find(r, sod, u->app->cur.wall.tv_sec, &i, &again) < 0) {
		ui_status(u, "%s is not in the recording: %s", u->input, range);
		return ACT_REDRAW;
	}
	if (i < 1)
		i = 1; /* the first sample ends no interval */
	hold(u);
	/* a time read twice (clock set back, DST): the first, and say so */
	if (again)
		snprintf(what, sizeof(what), "jumped to the first %02d:%02d:%02d (read again later)", sod / 3600,
			 sod / 60 % 60, sod % 60);
	else
		snprintf(what, sizeof(what), "jumped");
	return go(u, i, what);
}

/* n and N: to the interval of the next (previous) recorded change. */
static unsigned to_change(struct ui *u, int dir)
{
	const struct record_change *c;
	const size_t *before;
	size_t nch = record_reader_changes(reader(u), &c, &before), pos = app_replay_pos(u->app);
	size_t n = record_reader_count(reader(u));

	if (!nch) {
		ui_status(u, "no tunable change in this recording");
		return ACT_REDRAW;
	}
	for (size_t j = 0; j < nch; j++) {
		size_t k = dir > 0 ? j : nch - 1 - j;

		if (before[k] >= n || (dir > 0 ? before[k] <= pos : before[k] >= pos))
			continue;
		hold(u);
		return go(u, before[k], "change");
	}
	ui_status(u, dir > 0 ? "no later change in the recording (N goes back)" : "no earlier change in the recording");
	return ACT_REDRAW;
}

unsigned action_replay_next_change(struct ui *u)
{
	return to_change(u, +1);
}

unsigned action_replay_prev_change(struct ui *u)
{
	return to_change(u, -1);
}

/* Select the device the change is on: A/B are taken of the selected one. */
static bool select_dev(struct ui *u, const char *name)
{
	for (size_t r = 0; r < u->app->nrows; r++)
		if (!strcmp(u->app->m[u->app->rows[r]].name, name)) {
			ui_select_row(u, (int)r);
			return true;
		}
	return false;
}

unsigned action_replay_ab_around(struct ui *u)
{
	const struct record_reader *r = reader(u);
	const struct record_change *c;
	const size_t *before;
	size_t nch = record_reader_changes(r, &c, &before), n = record_reader_count(r), a_end, b_end, k;
	const struct disk_metrics *m = ui_selected(u);
	double iv = record_reader_meta(r)->interval;
	char at[16], msg_a[sizeof(u->status)];

	k = replay_change_at(c, before, nch, m ? m->name : NULL, app_replay_pos(u->app));
	if (k == nch)
		k = replay_change_at(c, before, nch, NULL, app_replay_pos(u->app));
	if (k == nch) {
		ui_status(u, "no tunable change in this recording: a and b take A and B where you are");
		return ACT_REDRAW;
	}
	format_time((double)c[k].wall, "%H:%M:%S", at, sizeof(at));
	if (replay_ab_around(c, before, nch, k, n, (size_t)(series_window(u->app->series) / (iv > 0 ? iv : 1) + 0.5), &a_end,
			     &b_end) < 0) {
		ui_status(u, "the change at %s (%s %s) has no whole interval before or after it", at, c[k].dev,
			  c[k].tunable);
		return ACT_REDRAW;
	}
	hold(u);
	if (app_replay_goto(u->app, a_end) < 0 || !select_dev(u, c[k].dev)) {
		ui_status(u, "%s is not in the recording's table (filtered out?)", c[k].dev);
		return ACT_REDRAW;
	}
	action_ab_take(u, AB_A);
	snprintf(msg_a, sizeof(msg_a), "%s", u->status);
	if (!u->ab.have[AB_A] || strncmp(msg_a, "A:", 2))
		return ACT_REDRAW; /* says why A was not taken */
	app_replay_goto(u->app, b_end);
	ui_sync_selection(u);
	action_ab_take(u, AB_B);
	if (u->ab.have_cmp) {
		char line[sizeof(u->status)];

		snprintf(line, sizeof(line), "%s", u->status);
		ui_status(u, "around the change at %s (%s %s %s -> %s): %s", at, c[k].dev, c[k].tunable, c[k].from,
			  c[k].to, line);
	}
	return ACT_REDRAW;
}

unsigned action_replay_refuse(struct ui *u, const char *label)
{
	ui_status(u, "replay: %s would change this machine; a replay changes nothing (t/T step, J jumps)", label);
	return ACT_REDRAW;
}

int action_replay_tunables(struct ui *u, const struct disk_metrics *m, struct tunable_info *out, int max)
{
	const struct record_change *c;
	const size_t *before;
	size_t nch = record_reader_changes(reader(u), &c, &before), n;
	const struct disk_sample *d = sample_find(&u->app->cur, m->dev, 0);
	struct series_tunable tv[32];

	n = replay_tunables(c, before, nch, m->name, app_replay_pos(u->app), d ? &d->info : NULL, tv, 32);
	if (n > (size_t)max)
		n = (size_t)max;
	for (size_t i = 0; i < n; i++) {
		struct tunable_info *t = &out[i];
		size_t k = 0;

		memset(t, 0, sizeof(*t));
		snprintf(t->name, sizeof(t->name), "%s", tv[i].name);
		snprintf(t->value, sizeof(t->value), "%s", tv[i].value);
		/* at start: what the first change of it found, else what it is now */
		while (k < nch && (strcmp(c[k].dev, m->name) || strcmp(c[k].tunable, tv[i].name)))
			k++;
		snprintf(t->start, sizeof(t->start), "%s", k < nch ? c[k].from : tv[i].value);
		t->def = tunable_table_find(tv[i].name);
		t->writable = false;
	}
	if (!n)
		snprintf(u->tun_msg, sizeof(u->tun_msg), "the recording holds no tunable of %s", m->name);
	return (int)n;
}
