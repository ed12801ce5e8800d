#include "cli-persist.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "persist.h"
#include "root.h"
#include "source-names.h"
#include "tunable-table.h"
#include "tunable.h"

#define PERSIST_USAGE \
	"usage: blktune persist DEV [TUNABLE[=VALUE]...] [--yes] [--rules-dir DIR]\n" \
	"       blktune persist --remove DEV [--rules-dir DIR]\n"

/* What persist writes when no tunable is named: the request queue's own
 * settings, the scheduler first. */
static const char *const default_set[] = {
	"scheduler", "read_ahead_kb", "max_sectors_kb", "nr_requests", "rq_affinity", "nomerges", "wbt_lat_usec",
};

struct persist_cli {
	const char *root_dir, *rules_dir, *dev_arg;
	char dev[64];
	bool remove, yes;
	char **names;
	int nnames;
};

__attribute__((format(printf, 2, 3))) static int fail(int status, const char *fmt, ...)
{
	va_list ap;

	fputs("blktune persist: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return status;
}

static int parse(int argc, char **argv, struct persist_cli *c)
{
	static const struct option opts[] = {
		{ "remove", no_argument, NULL, 'r' },
		{ "yes", no_argument, NULL, 'y' },
		{ "rules-dir", required_argument, NULL, 'D' },
		{ "root", required_argument, NULL, 'R' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int o;

	memset(c, 0, sizeof(*c));
	c->root_dir = "/";
	c->rules_dir = persist_rules_dir();
	optind = 1;
	opterr = 0;
	while ((o = getopt_long(argc, argv, ":y", opts, NULL)) != -1) {
		switch (o) {
		case 'r': c->remove = true; break;
		case 'y': c->yes = true; break;
		case 'D': c->rules_dir = optarg; break;
		case 'R': c->root_dir = optarg; break;
		case 'h': fputs(PERSIST_USAGE, stdout); return 1;
		case ':': return fail(-2, "%s needs a value", argv[optind - 1]);
		default: return fail(-2, "unknown option %s", argv[optind - 1]);
		}
	}
	if (optind >= argc)
		return fail(-2, "name the device (%s)", "blktune persist DEV [TUNABLE[=VALUE]...]");
	c->dev_arg = argv[optind++];
	c->names = argv + optind;
	c->nnames = argc - optind;
	if (c->remove && c->nnames)
		return fail(-2, "--remove takes the device only");
	return 0;
}

/* One setting: the value asked (persist_check validates it, under the
 * rule's scheduler) or the one in force. */
static int setting(struct tunable_session *s, const char *dev, const char *arg, bool named,
		   struct persist_setting *out)
{
	char name[TUNABLE_NAME_MAX], msg[TUNABLE_MSG_MAX];
	const char *eq = strchr(arg, '=');
	struct tunable_info info;
	int err;

	snprintf(name, sizeof(name), "%.*s", eq ? (int)(eq - arg) : (int)strlen(arg), arg);
	if ((err = tunable_get(s, dev, name, &info, msg, sizeof(msg))) < 0) {
		if (named)
			fail(0, "%s: %s", name, msg);
		return err;
	}
	if (!persist_allowed(info.def)) {
		fail(0, "%s: not a queue setting a udev rule may write%s", name,
		     info.def && info.def->type == TUNABLE_TEXT ? " (blktune never writes it)" : "");
		return -EPERM;
	}
	snprintf(out->name, sizeof(out->name), "%s", name);
	if (snprintf(out->value, sizeof(out->value), "%s", eq ? eq + 1 : info.value) >= (int)sizeof(out->value)) {
		fail(0, "%s: a value longer than %zu bytes", name, sizeof(out->value) - 1);
		return -ENAMETOOLONG;
	}
	return 0;
}

/* The scheduler in force on dev ("" when it has none to read). */
static void in_force(struct tunable_session *s, const char *dev, char *out, size_t len)
{
	struct tunable_info info;
	char msg[TUNABLE_MSG_MAX];

	snprintf(out, len, "%s", tunable_get(s, dev, "scheduler", &info, msg, sizeof(msg)) < 0 ? "" : info.value);
}

/* The rule's settings: those asked added to the n the disk's rule holds
 * (or replacing theirs); a scheduler parameter brings the scheduler in
 * force, whose it is (persist_merge), and said so on stderr.
 * Asking for another scheduler along with the parameters of the one in
 * force is refused: they would not be there under it. Returns the exit
 * status (0 or 2). */
static int merge(const struct persist_setting *got, size_t ngot, const char *sched, struct persist_setting *set,
		 size_t *n)
{
	char note[512];
	int k = (int)*n;

	for (size_t i = 0; i < ngot; i++)
		for (size_t j = 0; j < ngot; j++)
			if (!strcmp(got[i].name, "scheduler") && strcmp(got[i].value, sched) &&
			    !strncmp(got[j].name, "iosched/", 8))
				return fail(2, "%s is a parameter of %s, the scheduler in force, not of %s: switch to %s "
					    "first (blktune --set DEV:scheduler=%s), then persist its parameters",
					    got[j].name, sched, got[i].value, got[i].value, got[i].value);
	for (size_t i = 0; i < ngot; i++) {
		if ((k = persist_merge(set, (size_t)k, PERSIST_MAX, &got[i], sched, note, sizeof(note))) == -ENOSPC)
			return fail(2, "at most %d settings with the scheduler", PERSIST_MAX);
		else if (k < 0)
			return fail(2, "%s: no scheduler in force", got[i].name);
		if (note[0])
			fail(0, "%s", note);
	}
	*n = (size_t)k;
	return 0;
}

static bool may_write(const struct persist_cli *c)
{
	return geteuid() == 0 || access(c->rules_dir, W_OK) == 0;
}

/* The settings of the rule blktune wrote for this disk before, into set
 * (*n of them; none without one): a later call adds to it. A file edited by
 * hand is never replaced. seen gets what the file held: it is replaced only
 * if it still holds that after the prompt. Returns the exit status (0, 1 or
 * 2). */
static int earlier(const struct persist_cli *c, const struct persist_id *id, const char *file,
		   struct persist_setting *set, size_t *n, struct persist_seen *seen)
{
	char why[512];
	int k;

	/* root's directory is safe to read for root only: the write is refused
	 * below, saying so, and the rule shown is what was asked */
	if (!may_write(c))
		return 0;
	k = persist_read(c->rules_dir, file, id, set, PERSIST_MAX, seen, why, sizeof(why));
	if (k == -EINVAL || k == -ENOSPC || k == -EEXIST)
		return fail(2, "%s", why);
	if (k < 0)
		return fail(1, "not written: %s", why);
	*n = (size_t)k;
	return 0;
}

static bool confirmed(const struct persist_cli *c, const char *path)
{
	char answer[16];

	if (c->yes)
		return true;
	if (!isatty(STDIN_FILENO)) {
		fail(0, "not written: stdin is not a terminal; add --yes to write %s", path);
		return false;
	}
	printf("Write %s? [y/N] ", path);
	fflush(stdout);
	return fgets(answer, sizeof(answer), stdin) && (answer[0] == 'y' || answer[0] == 'Y');
}

static int run(struct persist_cli *c, struct root *r)
{
	struct persist_setting set[PERSIST_MAX], got[PERSIST_MAX];
	struct persist_seen seen = { .exists = false };
	struct tunable_session *s;
	struct persist_id id;
	char why[512], file[PERSIST_NAME_MAX], path[4200], rule[4096], sched[TUNABLE_VALUE_MAX];
	size_t n = 0, ngot = 0;
	int err, status = 0;

	if ((err = source_names_resolve(r, c->dev_arg, c->dev, sizeof(c->dev))) < 0)
		return fail(2, "%s: %s", c->dev_arg, strerror(-err));
	if (tunable_check_device(r, c->dev, why, sizeof(why)) < 0)
		return fail(2, "%s", why);
	if ((err = persist_identity(r, c->dev, &id, why, sizeof(why))) < 0)
		return fail(1, "%s", why);
	persist_file_name(&id, file, sizeof(file));
	snprintf(path, sizeof(path), "%s/%s", c->rules_dir, file);
	if (c->remove) {
		if (persist_remove(c->rules_dir, file, &id, why, sizeof(why)) < 0)
			return fail(1, "%s", why);
		printf("%s\n", why);
		return 0;
	}
	if ((err = tunable_session_open(r, NULL, &s)) < 0)
		return fail(1, "%s", strerror(-err));
	if (c->nnames > PERSIST_MAX)
		status = fail(2, "at most %d tunables", PERSIST_MAX);
	for (int i = 0; !status && i < c->nnames; i++)
		if (setting(s, c->dev, c->names[i], true, &got[ngot]) < 0)
			status = 2;
		else
			ngot++;
	for (size_t i = 0; !status && !c->nnames && i < sizeof(default_set) / sizeof(default_set[0]); i++)
		if (setting(s, c->dev, default_set[i], false, &got[ngot]) == 0)
			ngot++;
	in_force(s, c->dev, sched, sizeof(sched));
	tunable_session_close(s);
	/* a scheduler asked for is one of the device's before merge() compares
	 * it; the rest is checked in the whole rule, under its scheduler */
	for (size_t i = 0; !status && i < ngot; i++)
		if (!strcmp(got[i].name, "scheduler") && persist_check(r, c->dev, &got[i], 1, sched, why, sizeof(why)) < 0)
			status = fail(2, "%s", why);
	if (!status)
		status = earlier(c, &id, file, set, &n, &seen);
	if (!status)
		status = merge(got, ngot, sched, set, &n);
	if (!status && persist_check(r, c->dev, set, n, sched, why, sizeof(why)) < 0)
		status = fail(2, "%s", why);
	if (!status && n == 0)
		status = fail(1, "%s has none of the queue settings a rule could set", c->dev);
	if (!status) {
		persist_sort(set, n);
		if ((err = persist_rule(&id, c->dev, set, n, rule, sizeof(rule))) == -ENOSPC)
			status = fail(1, "the rule would be longer than %zu bytes: name fewer tunables", sizeof(rule) - 1);
		else if (err < 0)
			status = fail(1, "a value holds a character a udev rule cannot quote");
	}
	if (!status) {
		/* a rule read under the name older blktune gave it moves */
		printf("%s", path);
		if (seen.legacy[0])
			printf(" (moved from %s/%s)", c->rules_dir, seen.legacy);
		printf(":\n%s", rule);
		if (!may_write(c))
			status = fail(1, "%s is root's: run it as root to write the rule above (sudo blktune persist ...)",
				      c->rules_dir);
		else if (!confirmed(c, path))
			status = 1;
		else if ((err = persist_write(c->rules_dir, file, rule, &seen, why, sizeof(why))) < 0)
			status = fail(err == -ESTALE ? 2 : 1, "not written: %s", why);
		else
			printf("written %s: udev applies it when %s appears (boot, hotplug, "
			       "udevadm trigger --action=change)\n", path, c->dev);
	}
	return status;
}

int cli_persist_main(int argc, char **argv)
{
	struct persist_cli c;
	struct root *r;
	int status, err;

	if ((status = parse(argc, argv, &c)) != 0)
		return status < 0 ? 2 : 0;
	if ((err = root_open(c.root_dir, &r)) < 0)
		return fail(2, "--root %s: %s", c.root_dir, strerror(-err));
	status = run(&c, r);
	root_close(r);
	return status;
}
