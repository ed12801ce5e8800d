#include "action.h"
#include "action-replay.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* After a write: every figure of that device is re-read on the next sample,
 * and the panel shows the kernel's value at once. */
static void changed(struct ui *u, const struct tunable_result *res)
{
	const struct disk_metrics *m = ui_selected(u);

	app_mark_change(u->app, u->ts, res->dev);
	if (res->changed)
		action_record_change(u, res);
	if (m && !strcmp(m->name, res->dev))
		sampler_invalidate(u->app->sampler, m->dev);
	else
		for (size_t i = 0; i < u->app->nm; i++)
			if (!strcmp(u->app->m[i].name, res->dev))
				sampler_invalidate(u->app->sampler, u->app->m[i].dev);
	if (u->mode == UI_TUNABLES)
		action_tunables_reload(u);
}

void action_record_change(void *arg, const struct tunable_result *res)
{
	struct ui *u = arg;

	if (app_record_change(u->app, res->dev, res->name, res->before, res->got) < 0)
		ui_status(u, "%s", u->app->export_error);
}

static unsigned report(struct ui *u, const struct tunable_result *res)
{
	ui_status(u, "%s", res->msg);
	if ((!res->err || res->changed) && res->dev[0] && res->name[0]) {
		snprintf(u->tun_last_dev, sizeof(u->tun_last_dev), "%s", res->dev);
		snprintf(u->tun_last_name, sizeof(u->tun_last_name), "%s", res->name);
	}
	if (!res->err || res->changed)
		changed(u, res);
	return ACT_REDRAW;
}

static int row_named(const struct ui *u, const char *name)
{
	for (int i = 0; i < u->ntun; i++)
		if (!strcmp(u->tun[i].name, name))
			return i;
	return -1;
}

/* A device's panel opens on the row of the last tunable changed on it, else
 * on read_ahead_kb: never on a row number left from another device. */
static int first_row(const struct ui *u)
{
	int i = -1;

	if (!strcmp(u->tun_last_dev, u->tun_dev))
		i = row_named(u, u->tun_last_name);
	if (i < 0)
		i = row_named(u, "read_ahead_kb");
	return i < 0 ? 0 : i;
}

void action_tunables_open(struct ui *u)
{
	u->tun_dev[0] = '\0';
	action_tunables_reload(u);
}

void action_tunables_reload(struct ui *u)
{
	const struct disk_metrics *m = ui_selected(u);
	char sel[TUNABLE_NAME_MAX] = "";
	bool fresh;
	int n;

	u->tun_read_t = now();
	u->tun_msg[0] = '\0';
	if (!m) {
		u->ntun = 0;
		snprintf(u->tun_msg, sizeof(u->tun_msg), "no device selected");
		return;
	}
	if (!u->tun && !(u->tun = calloc(TUNABLE_LIST_MAX, sizeof(*u->tun)))) {
		u->ntun = 0;
		snprintf(u->tun_msg, sizeof(u->tun_msg), "out of memory");
		return;
	}
	fresh = strcmp(u->tun_dev, m->name) != 0;
	/* The rows change (another scheduler's parameters): the selection
	 * stays on its tunable, not on its row number. */
	if (!fresh && u->tun_sel < u->ntun)
		snprintf(sel, sizeof(sel), "%s", u->tun[u->tun_sel].name);
	if (fresh)
		snprintf(u->tun_dev, sizeof(u->tun_dev), "%s", m->name);
	if (ui_replay(u))
		n = action_replay_tunables(u, m, u->tun, TUNABLE_LIST_MAX);
	else
		n = tunable_list(u->ts, m->name, u->tun, TUNABLE_LIST_MAX, u->tun_msg, sizeof(u->tun_msg));
	u->ntun = n < 0 ? 0 : n;
	if (fresh) {
		u->tun_sel = first_row(u);
		u->tun_top = 0;
	} else if (sel[0] && (n = row_named(u, sel)) >= 0) {
		u->tun_sel = n;
	}
	if (u->tun_sel >= u->ntun)
		u->tun_sel = u->ntun ? u->ntun - 1 : 0;
}

static bool writable(struct ui *u)
{
	const char *why;

	if (tunable_session_writable(u->ts, &why))
		return true;
	ui_status(u, "%s", why);
	return false;
}

unsigned action_tunable_step(struct ui *u, const char *name, int dir)
{
	const struct disk_metrics *m = ui_selected(u);
	struct tunable_result res;

	if (!m) {
		ui_status(u, "no device selected");
		return ACT_REDRAW;
	}
	if (!writable(u))
		return ACT_REDRAW;
	tunable_step(u->ts, m->name, name, dir, &res);
	return report(u, &res);
}

unsigned action_tunable_set_input(struct ui *u)
{
	struct tunable_result res;

	if (!u->prompt_dev[0] || !writable(u))
		return ACT_REDRAW;
	tunable_set(u->ts, u->prompt_dev, u->prompt_tun, u->input, &res);
	return report(u, &res);
}

unsigned action_undo(struct ui *u)
{
	struct tunable_result res;

	if (tunable_undo(u->ts, &res) == -ENOENT) {
		ui_status(u, "nothing to undo");
		return ACT_REDRAW;
	}
	return report(u, &res);
}

#define EXIT_LOG_LINES 200

static void exit_log(struct ui *u, const char *msg)
{
	struct ui_exit_log *l = &u->exit_log;
	size_t n = strlen(msg);
	char *p;

	if (l->lines >= EXIT_LOG_LINES || !(p = realloc(l->text, l->len + n + 2))) {
		l->dropped++;
		return;
	}
	l->text = p;
	memcpy(l->text + l->len, msg, n);
	l->len += n;
	l->text[l->len++] = '\n';
	l->text[l->len] = '\0';
	l->lines++;
}

struct restore_ctx {
	struct ui *u;
	int n, failed;
	char last[TUNABLE_MSG_MAX];
};

static void restored(void *arg, const struct tunable_result *res)
{
	struct restore_ctx *c = arg;

	c->n++;
	if (res->err)
		c->failed++;
	if (!res->err)
		c->u->exit_log.restored++;
	else if (res->err != -ENODEV) /* a vanished device took its values with it */
		c->u->exit_log.failed++;
	exit_log(c->u, res->msg);
	snprintf(c->last, sizeof(c->last), "%s", res->msg);
	changed(c->u, res);
}

static void kept(void *arg, const struct tunable_result *res)
{
	struct ui *u = arg;

	u->exit_log.kept++;
	exit_log(u, res->msg);
}

unsigned action_restore_all(struct ui *u)
{
	struct restore_ctx c = { .u = u };
	int err;

	if (!writable(u))
		return ACT_REDRAW;
	err = tunable_restore_all(u->ts, restored, &c);
	if (err < 0)
		ui_status(u, "restore failed: %s", strerror(-err));
	else if (c.n == 0)
		ui_status(u, "nothing to restore: every tunable has its original value");
	else if (c.n == 1)
		ui_status(u, "restored: %s", c.last);
	else
		ui_status(u, "restored %d values%s (last: %s)", c.n - c.failed,
			  c.failed ? ", some refused: see the journal" : "", c.last);
	u->journal_pending = 0;
	return ACT_REDRAW;
}

unsigned action_keep(struct ui *u)
{
	int err = tunable_keep(u->ts, kept, u);

	/* Those changes are kept; a change made after K is journaled anew
	 * and restored at quit like any other. */
	if (err < 0)
		ui_status(u, "keep: %s", strerror(-err));
	else
		ui_status(u, "changes kept: quitting or a hang-up will not restore them");
	return ACT_REDRAW;
}

int action_exit_restore(struct ui *u)
{
	struct restore_ctx c = { .u = u };

	if (u->keep_on_exit || tunable_session_changes(u->ts) == 0)
		return 0;
	/* Only this session's: an earlier one's originals stay in the journal. */
	tunable_restore_session(u->ts, restored, &c);
	return c.failed;
}

void action_exit_report(struct ui *u, FILE *f)
{
	struct ui_exit_log *l = &u->exit_log;

	for (char *line = l->text, *nl; line && (nl = strchr(line, '\n')); line = nl + 1)
		fprintf(f, "blktune: %.*s\n", (int)(nl - line), line);
	if (l->dropped)
		fprintf(f, "blktune: ... and %u more\n", l->dropped);
	if (l->restored || l->failed || l->kept)
		fprintf(f, "blktune: this session: %u restored, %u not restored, %u kept changed\n", l->restored,
			l->failed, l->kept);
	if (u->journal_pending > 0 && !u->journal_changed)
		fprintf(f, "blktune: the journal an earlier blktune left (%d line%s) is as it was: blktune --restore "
			   "restores it\n", u->journal_pending, u->journal_pending == 1 ? "" : "s");
	else if (u->journal_pending > 0)
		fprintf(f, "blktune: %d line%s of the journal an earlier blktune left remain%s (this session changed "
			   "the others again): blktune --restore restores %s\n", u->journal_pending,
			u->journal_pending == 1 ? "" : "s", u->journal_pending == 1 ? "s" : "", u->journal_pending == 1 ? "it" : "them");
	free(l->text);
	memset(l, 0, sizeof(*l));
}
