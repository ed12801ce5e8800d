#include "action.h"
#include "action-replay.h"

#include <stdio.h>
#include <time.h>

static double mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

unsigned action_ab_take(struct ui *u, enum ab_slot slot)
{
	const struct app *a = u->app;
	const struct sampler_host *h = sampler_host(a->sampler);
	const struct disk_metrics *m = ui_selected(u);
	struct ab_source src = {
		.series = a->series, .ts = ui_replay(u) ? NULL : u->ts, .host = h->hostname, .kernel = h->kernel,
		.t_now = a->cur.t, .wall_now = a->cur.wall,
	};
	char msg[TUNABLE_MSG_MAX];

	ab_take(&u->ab, slot, &src, m ? m->name : NULL, msg, sizeof(msg));
	ui_status(u, "%s", msg);
	if (u->ab.have_cmp && slot == AB_B) {
		u->mode = UI_AB;
		u->ab_top = 0;
	}
	return ACT_REDRAW;
}

unsigned action_ab_apply(struct ui *u, enum ab_slot slot)
{
	const struct disk_metrics *m = ui_selected(u);
	char msg[TUNABLE_MSG_MAX];
	const char *why;

	if (!tunable_session_writable(u->ts, &why)) {
		ui_status(u, "%s", why);
		return ACT_REDRAW;
	}
	/* ab_apply with no device applies every device of the snapshot: the
	 * keys act on the selected one only. */
	if (!m) {
		ui_status(u, "no device selected: %c re-applies its tunables to the selected device",
			  slot == AB_A ? 'A' : 'B');
		return ACT_REDRAW;
	}
	ab_apply(&u->ab, slot, u->ts, u->app->series, mono_now(), m ? m->name : NULL, action_record_change, u, msg,
		 sizeof(msg));
	ui_status(u, "%s", msg);
	/* Every device of the snapshot may have changed: re-read them all. */
	for (size_t i = 0; i < u->app->nm; i++)
		sampler_invalidate(u->app->sampler, u->app->m[i].dev);
	if (u->mode == UI_TUNABLES)
		action_tunables_reload(u);
	return ACT_REDRAW;
}

unsigned action_ab_save(struct ui *u)
{
	char msg[TUNABLE_MSG_MAX];

	ab_save(&u->ab, NULL, msg, sizeof(msg));
	ui_status(u, "%s", msg);
	return ACT_REDRAW;
}
