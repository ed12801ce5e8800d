#include "ab.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

static const char slot_name[AB_SLOTS] = { 'A', 'B' };

static void compared(const struct ab *ab, enum ab_slot slot, char *msg, size_t len);

void ab_init(struct ab *ab)
{
	memset(ab, 0, sizeof(*ab));
	for (int i = 0; i < AB_SLOTS; i++)
		snapshot_init(&ab->snap[i]);
}

void ab_free(struct ab *ab)
{
	if (ab->have_cmp)
		compare_free(&ab->cmp);
	for (int i = 0; i < AB_SLOTS; i++)
		snapshot_free(&ab->snap[i]);
	ab_init(ab);
}

int ab_take(struct ab *ab, enum ab_slot slot, const struct ab_source *src, const char *dev, char *msg,
	    size_t len)
{
	struct snapshot_source ss = {
		.series = src->series, .ts = src->ts, .host = src->host, .kernel = src->kernel,
		.t_now = src->t_now, .wall_now = src->wall_now, .only = dev, .busy_only = true,
	};
	struct snapshot s;
	char why[SNAPSHOT_MSG_MAX];
	int err;

	snapshot_init(&s);
	if ((err = snapshot_capture(&s, &ss, why, sizeof(why))) < 0) {
		snprintf(msg, len, "%c not taken: %s", slot_name[slot], why);
		return err;
	}
	if (ab->have_cmp) {
		compare_free(&ab->cmp);
		ab->have_cmp = false;
	}
	snapshot_free(&ab->snap[slot]);
	ab->snap[slot] = s;
	ab->have[slot] = true;
	ab->saved[slot] = false;
	if (s.ndev == 1)
		snprintf(msg, len, "%c: %s, %zu busy intervals (%.1f s), %zu idle left out (+%zu partial)",
			 slot_name[slot], s.dev[0].name, s.dev[0].n, s.dev[0].end - s.dev[0].start, s.dev[0].idle,
			 s.dev[0].partial);
	else
		snprintf(msg, len, "%c: %zu devices", slot_name[slot], s.ndev);
	if (ab->have[AB_A] && ab->have[AB_B]) {
		if ((err = compare_snapshots(&ab->snap[AB_A], &ab->snap[AB_B], &ab->cmp)) < 0)
			return err;
		compare_judge(&ab->cmp, ab->primary);
		ab->have_cmp = true;
		compared(ab, slot, msg, len);
	}
	return 0;
}

/* "; B vs A: primary MB/s: ... lower, worse" and any warning. */
static void compared(const struct ab *ab, enum ab_slot slot, char *msg, size_t len)
{
	size_t n = strlen(msg);
	char line[160] = "";

	if (ab->cmp.ndev)
		compare_headline(&ab->cmp.dev[0], ab->cmp.primary, line, sizeof(line));
	snprintf(msg + n, len - n, "; compared with %c%s%s%s%s", slot_name[!slot], line[0] ? ": " : "", line,
		 ab->cmp.warning[0] ? "; WARNING: " : "", ab->cmp.warning);
}

void ab_next_primary(struct ab *ab, char *msg, size_t len)
{
	ab->primary = (enum compare_primary)((ab->primary + 1) % CMP_PRIMARIES);
	if (ab->have_cmp)
		compare_judge(&ab->cmp, ab->primary);
	snprintf(msg, len, "better/worse judged on %s and latency", compare_primaries[ab->primary].name);
}

#define AB_RANKS 10 /* tunable_table_rank's 0..9 */

struct apply_ctx {
	struct tunable_session *ts;
	struct series *se;
	double t_now;
	tunable_report_fn report;
	void *arg;
};

static int apply_dev(const struct snapshot_dev *d, const struct apply_ctx *c, int *changed, char *last,
		     size_t lastlen)
{
	struct tunable_info cur;
	struct tunable_result res;
	char why[TUNABLE_MSG_MAX];
	int refused = 0, before = *changed;

	/* In restore order: the scheduler before its parameters (they exist
	 * only under it), nr_requests before async_depth, the queue limits
	 * before read_ahead_kb (writing one raises it). */
	for (int rank = 0; rank < AB_RANKS; rank++) {
		for (size_t i = 0; i < d->ntun; i++) {
			const struct snapshot_tunable *t = &d->tun[i];

			if (tunable_table_rank(t->name) != rank)
				continue;
			/* Gone, read-only (a managed IRQ) or already equal: nothing to do. */
			if (tunable_get(c->ts, d->name, t->name, &cur, why, sizeof(why)) < 0 || !cur.writable ||
			    !strcmp(cur.value, t->value))
				continue;
			if (tunable_set(c->ts, d->name, t->name, t->value, &res) < 0) {
				refused++;
				snprintf(last, lastlen, "%s", res.msg);
				if (res.changed && c->report)
					c->report(c->arg, &res);
				continue;
			}
			if (res.changed && c->report)
				c->report(c->arg, &res);
			(*changed)++;
			if (!refused)
				snprintf(last, lastlen, "%s", res.msg);
		}
	}
	/* One boundary at t_now (before the first write) with the values in
	 * force after the last one. */
	if (c->se && *changed > before)
		snapshot_record_change(c->se, c->ts, makedev(d->major, d->minor), d->name, c->t_now);
	return refused;
}

int ab_apply(struct ab *ab, enum ab_slot slot, struct tunable_session *ts, struct series *se, double t_now,
	     const char *dev, tunable_report_fn report, void *arg, char *msg, size_t len)
{
	const struct apply_ctx c = { .ts = ts, .se = se, .t_now = t_now, .report = report, .arg = arg };
	const struct snapshot *s = &ab->snap[slot];
	char last[TUNABLE_MSG_MAX] = "";
	int changed = 0, refused = 0;
	size_t matched = 0;

	if (!ab->have[slot]) {
		snprintf(msg, len, "no snapshot %c to re-apply", slot_name[slot]);
		return -ENOENT;
	}
	for (size_t i = 0; i < s->ndev; i++)
		if (!dev || !strcmp(dev, s->dev[i].name)) {
			matched++;
			refused += apply_dev(&s->dev[i], &c, &changed, last, sizeof(last));
		}
	if (!matched && s->ndev) {
		/* Not "already set": A was taken on another device. */
		snprintf(msg, len, "%c holds %s%s, not %s: select %s to re-apply it", slot_name[slot], s->dev[0].name,
			 s->ndev > 1 ? " and more" : "", dev, s->dev[0].name);
		return -ENOENT;
	}
	if (!changed && !refused)
		snprintf(msg, len, "%c's tunables are already set", slot_name[slot]);
	else if (changed == 1 && !refused)
		snprintf(msg, len, "%c re-applied: %s", slot_name[slot], last);
	else
		snprintf(msg, len, "%c re-applied: %d changed, %d refused%s%s", slot_name[slot], changed, refused,
			 refused ? ": " : "", refused ? last : "");
	return refused;
}

int ab_save(struct ab *ab, const char *dir, char *msg, size_t len)
{
	char why[SNAPSHOT_MSG_MAX], label[2] = "A";
	int err;

	for (int i = 0; i < AB_SLOTS; i++) {
		if (!ab->have[i] || ab->saved[i])
			continue;
		label[0] = slot_name[i];
		if ((err = snapshot_save(&ab->snap[i], dir, label, ab->path[i], sizeof(ab->path[i]), why,
					 sizeof(why))) < 0) {
			snprintf(msg, len, "%c not saved: %s", slot_name[i], why);
			return err;
		}
		ab->saved[i] = true;
	}
	if (!ab->have[AB_A] && !ab->have[AB_B])
		snprintf(msg, len, "nothing to save: take A and B first");
	else if (ab->have[AB_A] && ab->have[AB_B])
		snprintf(msg, len, "saved: blktune diff %s %s", ab->path[AB_A], ab->path[AB_B]);
	else
		snprintf(msg, len, "saved %s", ab->path[ab->have[AB_A] ? AB_A : AB_B]);
	return 0;
}
