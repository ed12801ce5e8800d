#include "cli-tunable.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "journal.h"
#include "root.h"
#include "tunable.h"

/* Messages quote values read back from sysfs: never terminal controls. */
static void put_msg(FILE *f, const char *prefix, const char *msg)
{
	char clean[TUNABLE_MSG_MAX];

	format_sanitize(msg, clean, sizeof(clean));
	fprintf(f, "%s%s\n", prefix, clean);
}

struct spec {
	char dev[TUNABLE_DEV_MAX];
	char name[TUNABLE_NAME_MAX];
	char value[TUNABLE_VALUE_MAX];
};

/* "DEV:TUNABLE=VALUE"; a leading "/dev/" is what people type and is dropped. */
static int parse_spec(const char *s, struct spec *out)
{
	const char *colon, *eq;

	if (strncmp(s, "/dev/", 5) == 0)
		s += 5;
	colon = strchr(s, ':');
	eq = colon ? strchr(colon + 1, '=') : NULL;
	if (!colon || !eq || colon == s || eq == colon + 1 || !eq[1])
		return -EINVAL;
	if ((size_t)(colon - s) >= sizeof(out->dev) || (size_t)(eq - colon - 1) >= sizeof(out->name) ||
	    strlen(eq + 1) >= sizeof(out->value))
		return -ENAMETOOLONG;
	snprintf(out->dev, sizeof(out->dev), "%.*s", (int)(colon - s), s);
	snprintf(out->name, sizeof(out->name), "%.*s", (int)(eq - colon - 1), colon + 1);
	snprintf(out->value, sizeof(out->value), "%s", eq + 1);
	return 0;
}

static int open_session(const char *root_dir, const char *jdir, struct root **r,
			struct tunable_session **s, FILE *err)
{
	int e = root_open(root_dir ? root_dir : "/", r);

	if (e) {
		fprintf(err, "blktune: root %s: %s\n", root_dir ? root_dir : "/", strerror(-e));
		return e;
	}
	e = tunable_session_open(*r, jdir, s);
	if (e) {
		fprintf(err, "blktune: %s\n", strerror(-e));
		root_close(*r);
	}
	return e;
}

struct report_ctx {
	FILE *out, *err;
	int n;
};

static void report(void *arg, const struct tunable_result *res)
{
	struct report_ctx *c = arg;

	c->n++;
	/* A vanished device is news, not a failure of the restore. */
	if (res->err && res->err != -ENODEV)
		put_msg(c->err, "blktune: ", res->msg);
	else
		put_msg(c->out, "", res->msg);
}

/* A journal directory that is not safe (another's, writable by others) or
 * not a directory at all: exit status 2, as the man page says. */
static int unsafe(int e)
{
	return e == -EPERM || e == -ENOTDIR;
}

/* Open the journal before anything changes: an unsafe journal directory is
 * refused (2) before any write, and lines taken out of it are reported. */
static int open_journal(struct tunable_session *s, struct report_ctx *ctx)
{
	char msg[TUNABLE_MSG_MAX];
	int e;

	if (!tunable_session_writable(s, NULL))
		return 0;
	e = tunable_session_journal(s, report, ctx, msg, sizeof(msg));
	if (e)
		put_msg(ctx->err, "blktune: ", msg);
	return unsafe(e) ? 2 : e ? 1 : 0;
}

/* The scheduler spec i is written under: the value of the last earlier
 * spec setting its device's scheduler, else NULL (the one in force). */
static const char *sched_before(const struct spec *p, size_t i)
{
	const char *sched = NULL;

	for (size_t k = 0; k < i; k++)
		if (!strcmp(p[k].dev, p[i].dev) && !strcmp(p[k].name, "scheduler"))
			sched = p[k].value;
	return sched;
}

/* Check every value before writing any, each under the state the specs
 * before it will have made (the scheduler they set): a command is applied
 * whole or not at all, unless the kernel refuses a write. Values are
 * normalised in place. Returns 0, or 2 with one line naming the spec. */
static int check_all(struct tunable_session *s, struct spec *p, const char *const *specs, size_t n, FILE *err)
{
	for (size_t i = 0; i < n; i++) {
		struct tunable_result res;

		if (tunable_check_under(s, p[i].dev, p[i].name, p[i].value, sched_before(p, i), &res)) {
			char line[TUNABLE_MSG_MAX + 64];

			snprintf(line, sizeof(line), "--set %s: %s; nothing changed", specs[i], res.msg);
			put_msg(err, "blktune: ", line);
			return 2;
		}
		snprintf(p[i].value, sizeof(p[i].value), "%s", res.asked);
	}
	return 0;
}

/* A write the kernel refused stops the command there: the specs before it
 * stay applied (their originals are in the journal), the rest are not
 * tried. */
static void say_stopped(FILE *err, const char *const *specs, size_t i, size_t n)
{
	fprintf(err, "blktune: --set stopped at %s: ", specs[i]);
	if (i == 0)
		fprintf(err, "nothing before it was applied");
	else
		fprintf(err, "the %zu before it stay applied (blktune --restore puts them back)", i);
	if (i + 1 < n)
		fprintf(err, ", the %zu after it were not tried", n - i - 1);
	fprintf(err, "\n");
}

int cli_tunable_set(const char *root_dir, const char *jdir, const char *const *specs,
		    size_t nspecs, FILE *out, FILE *err)
{
	struct report_ctx ctx = { out, err, 0 };
	struct tunable_session *s;
	struct spec *parsed;
	struct root *r;
	int status = 0;

	parsed = calloc(nspecs ? nspecs : 1, sizeof(*parsed));
	if (!parsed)
		return 1;
	/* Check every spec before changing anything. */
	for (size_t i = 0; i < nspecs; i++) {
		int e = parse_spec(specs[i], &parsed[i]);

		if (e == -ENAMETOOLONG) {
			/* well formed, only too long: say which part, not the format */
			fprintf(err, "blktune: --set %.60s...: a device name, tunable or value longer than blktune "
				     "takes (%d, %d, %d bytes)\n", specs[i], TUNABLE_DEV_MAX - 1, TUNABLE_NAME_MAX - 1,
				TUNABLE_VALUE_MAX - 1);
			free(parsed);
			return 2;
		}
		if (e) {
			fprintf(err, "blktune: --set %s: expected DEV:TUNABLE=VALUE\n", specs[i]);
			free(parsed);
			return 2;
		}
	}
	if (open_session(root_dir, jdir, &r, &s, err)) {
		free(parsed);
		return 1;
	}
	if (!tunable_session_writable(s, NULL)) {
		fprintf(err, "blktune: --set writes kernel settings: run it as root (sudo blktune --set %s)\n",
			nspecs > 1 ? "..." : specs[0]);
		status = 1;
	} else if ((status = check_all(s, parsed, specs, nspecs, err)) == 0) {
		status = open_journal(s, &ctx);
	}
	if (status != 0) {
		tunable_session_close(s);
		root_close(r);
		free(parsed);
		return status;
	}
	for (size_t i = 0; i < nspecs; i++) {
		struct tunable_result res;

		if (tunable_set(s, parsed[i].dev, parsed[i].name, parsed[i].value, &res)) {
			put_msg(err, "blktune: ", res.msg);
			say_stopped(err, specs, i, nspecs);
			status = 1;
			break;
		} else {
			put_msg(out, "", res.msg);
		}
	}
	if (tunable_session_changes(s))
		fprintf(out, "originals kept in %s/journal: blktune --restore puts them back\n",
			journal_dir(jdir));
	tunable_session_close(s);
	root_close(r);
	free(parsed);
	return status;
}

int cli_tunable_restore(const char *root_dir, const char *jdir, FILE *out, FILE *err)
{
	struct report_ctx ctx = { out, err, 0 };
	struct tunable_session *s;
	struct root *r;
	char msg[TUNABLE_MSG_MAX];
	int n, pending = journal_pending(jdir, msg, sizeof(msg));

	if (pending == -ENOENT) {
		fprintf(out, "nothing to restore: no journal in %s\n", journal_dir(jdir));
		return 0;
	}
	if (open_session(root_dir, jdir, &r, &s, err))
		return 1;
	/* Before the journal directory's checks: /run/blktune is root's, and
	 * "owned by uid 0, not 1000" would not say what to do. */
	if (!tunable_session_writable(s, NULL)) {
		fprintf(err, "blktune: --restore writes kernel settings: run it as root (sudo blktune --restore)\n");
		tunable_session_close(s);
		root_close(r);
		return 1;
	}
	if (pending < 0) {
		put_msg(err, "blktune: ", msg);
		tunable_session_close(s);
		root_close(r);
		return unsafe(pending) ? 2 : 1;
	}
	n = tunable_restore_all(s, report, &ctx);
	if (n < 0 && ctx.n == 0)
		fprintf(err, "blktune: restore: %s\n", strerror(-n));
	else if (n == 0 && ctx.n == 0)
		fprintf(out, "nothing to restore: the journal in %s holds no entry\n", journal_dir(jdir));
	tunable_session_close(s);
	root_close(r);
	return unsafe(n) ? 2 : n == 0 ? 0 : 1;
}

int cli_tunable_journal_pending(const char *jdir, char *msg, size_t msg_size)
{
	int n = journal_pending(jdir, msg, msg_size);

	return n == -ENOENT ? 0 : n;
}
