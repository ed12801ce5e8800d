#include "sweep-opts.h"

#include <errno.h>
#include <stddef.h>
#include <math.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "safe-file.h"
#include "sweep-figure.h"
#include "tunable-table.h"

enum arg { ARG_NONE, ARG_NEEDED, ARG_OPTIONAL };

/* One row per option; handlers return NULL or why the value is bad. */
struct sweep_opt_def {
	const char *name;
	enum arg arg;
	const char *meta, *help;
	const char *(*set)(struct sweep_opts *o, char *val);
	size_t str;      /* without set: offset of the const char * that takes the value */
};

#define STR(field) NULL, offsetof(struct sweep_opts, field)

/* Plain decimal only ("10", "0.5"; whole: digits only), in [lo, hi]:
 * strtod alone takes blanks, signs, hex, exponents, inf and nan. */
static bool number(const char *s, bool whole, double lo, double hi, double *out)
{
	size_t n = strspn(s, "0123456789"), f;

	if (!n)
		return false;
	if (s[n] == '.' && !whole) {
		if (!(f = strspn(s + n + 1, "0123456789")))
			return false;
		n += 1 + f;
	}
	if (s[n])
		return false;
	errno = 0;
	*out = strtod(s, NULL);
	return !errno && isfinite(*out) && *out >= lo && *out <= hi;
}

static const char *set_run(struct sweep_opts *o, char *v)
{
	if (!*v)
		return "--run wants a command";
	o->run = v;
	return NULL;
}

static const char *set_duration(struct sweep_opts *o, char *v)
{
	return number(v, false, 0, 86400, &o->duration) ? NULL : "--duration wants seconds, 0 to 86400";
}

static const char *set_repeat(struct sweep_opts *o, char *v)
{
	double d;

	if (!number(v, true, 1, SWEEP_REPEAT_MAX, &d))
		return "--repeat wants a count from 1 to 100";
	o->repeat = (long)d;
	return NULL;
}

static const char *set_shuffle(struct sweep_opts *o, char *v)
{
	char *end;

	o->shuffle = true;
	if (!v)
		return NULL;
	/* digits only: strtoull takes " -1" as 2^64 - 1 */
	if (!*v || v[strspn(v, "0123456789")])
		return "--shuffle=SEED wants a whole number, 0 to 18446744073709551615";
	errno = 0;
	o->seed = strtoull(v, &end, 10);
	if (errno)
		return "--shuffle=SEED wants a whole number, 0 to 18446744073709551615";
	o->seed_given = true;
	return NULL;
}

static const char *set_settle(struct sweep_opts *o, char *v)
{
	return number(v, false, 0, 3600, &o->settle) ? NULL : "--settle wants seconds, 0 to 3600";
}

static const char *set_metric(struct sweep_opts *o, char *v)
{
	char *eq = strchr(v, '=');
	regex_t re;

	if (o->nmetrics == SWEEP_METRICS_MAX)
		return "at most 8 --metric options";
	if (!eq || eq == v || !eq[1] || (size_t)(eq - v) >= SWEEP_METRIC_NAME_MAX)
		return "--metric wants NAME=REGEX (NAME up to 31 characters)";
	for (const char *p = v; p < eq; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.", *p))
			return "--metric NAME: letters, digits, '_', '-' and '.' only";
	if (regcomp(&re, eq + 1, REG_EXTENDED) != 0)
		return "--metric REGEX is not a valid extended regular expression";
	regfree(&re);
	for (size_t i = 0; i < o->nmetrics; i++)
		if (!strncmp(o->metric[i].name, v, (size_t)(eq - v)) && !o->metric[i].name[eq - v])
			return "--metric NAME given twice";
	snprintf(o->metric[o->nmetrics].name, SWEEP_METRIC_NAME_MAX, "%.*s", (int)(eq - v), v);
	o->metric[o->nmetrics++].regex = eq + 1;
	return NULL;
}

static const char *set_drop(struct sweep_opts *o, char *v)
{
	o->drop_caches = true;
	return NULL;
}

static const char *set_interval(struct sweep_opts *o, char *v)
{
	return number(v, false, APP_INTERVAL_MIN, APP_INTERVAL_MAX, &o->interval) ? NULL
		: "-d wants an interval from 0.1 to 60 seconds";
}

static const struct sweep_opt_def opts[] = {
	{ "--run", ARG_NEEDED, "CMD", "run CMD (sh -c) for each value and repeat, in a cgroup of its own;\n"
	  "                        the window is its lifetime", set_run, 0 },
	{ "--duration", ARG_NEEDED, "S", "sample S seconds per run (default 10), or CMD's time limit", set_duration, 0 },
	{ "--repeat", ARG_NEEDED, "N", "runs per value, interleaved v1..vn vn..v1 (default 1)", set_repeat, 0 },
	{ "--shuffle", ARG_OPTIONAL, "SEED", "random order in each round instead (the seed is printed)", set_shuffle, 0 },
	{ "--settle", ARG_NEEDED, "S", "wait S seconds after each change before the run (default 1)", set_settle, 0 },
	{ "--baseline", ARG_NEEDED, "V", "verdicts against value V (default: the original value if swept,\n"
	  "                        else the first)", STR(baseline) },
	{ "--metric", ARG_NEEDED, "NAME=REGEX", "the last number matching REGEX in CMD's output (repeatable)",
	  set_metric, 0 },
	{ "--plot", ARG_NEEDED, "FIGURE", "the figure plotted and judged (better/worse if its direction\n"
	  "                        is known, else higher/lower; default mb_s)", STR(plot) },
	{ "--report", ARG_NEEDED, "FILE", "write the plain-text report (as blktune report DIR prints)", STR(report) },
	{ "--csv", ARG_NEEDED, "FILE", "a copy of the runs' CSV (always saved as DIR/sweep.csv)", STR(csv) },
	{ "--dir", ARG_NEEDED, "DIR", "snapshots, CSV, sweep.info and command output go here", STR(dir) },
	{ "--drop-caches", ARG_NONE, NULL, "write 3 to /proc/sys/vm/drop_caches before each run", set_drop, 0 },
	{ "-d", ARG_NEEDED, "S", "sampling interval, 0.1 to 60 s (default 1)", set_interval, 0 },
};

void sweep_opts_usage(FILE *f)
{
	fprintf(f, "usage: blktune sweep DEV TUNABLE=V1,V2,... [options]\n"
		   "       blktune report DIR\n");
	for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
		char head[64];

		if (opts[i].arg == ARG_NEEDED)
			snprintf(head, sizeof(head), "%s %s", opts[i].name, opts[i].meta);
		else if (opts[i].arg == ARG_OPTIONAL)
			snprintf(head, sizeof(head), "%s[=%s]", opts[i].name, opts[i].meta);
		else
			snprintf(head, sizeof(head), "%s", opts[i].name);
		fprintf(f, "  %-21s %s\n", head, opts[i].help);
	}
	fprintf(f, "FIGURE: ");
	sweep_figure_list(f);
	fprintf(f, ", or metric:NAME\n");
}

/* A value as the tunable takes it: the number of a numeric tunable
 * ("0128" is 128), a CPU list in order; else as given. */
static void value_key(const char *name, const char *v, char *key, size_t len)
{
	const struct tunable_def *def = tunable_table_find(name);
	struct tunable_limits lim;
	char msg[TUNABLE_MSG_MAX];

	if (def) {
		tunable_table_limits(def, &lim);
		if (tunable_table_validate(def, &lim, v, key, len, msg, sizeof(msg)) == 0)
			return;
	}
	snprintf(key, len, "%s", v);
}

/* Why v repeats a value already in o, or NULL. */
static const char *same_value(const struct sweep_opts *o, const char *v)
{
	static char why[2 * TUNABLE_VALUE_MAX + 64];
	char a[TUNABLE_VALUE_MAX], b[TUNABLE_VALUE_MAX];

	value_key(o->name, v, a, sizeof(a));
	for (size_t k = 0; k < o->nvalues; k++) {
		value_key(o->name, o->values[k], b, sizeof(b));
		if (!strcmp(a, b)) {
			snprintf(why, sizeof(why), "values %.*s and %.*s are the same setting", TUNABLE_VALUE_MAX,
				 o->values[k], TUNABLE_VALUE_MAX, v);
			return why;
		}
	}
	return NULL;
}

static int bad(FILE *err, const char *why, const char *what)
{
	fprintf(err, "blktune sweep: %s%s%s (blktune sweep --help lists the options)\n", what ? what : "",
		what ? ": " : "", why);
	return 2;
}

static const struct sweep_opt_def *find(const char *a, char **val)
{
	for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
		size_t n = strlen(opts[i].name);

		if (strncmp(a, opts[i].name, n))
			continue;
		if (!a[n]) {
			*val = NULL;
			return &opts[i];
		}
		if (a[n] == '=' && opts[i].arg != ARG_NONE) {
			*val = (char *)a + n + 1;
			return &opts[i];
		}
	}
	return NULL;
}

int sweep_opts_parse(int argc, char **argv, struct sweep_opts *o, FILE *out, FILE *err)
{
	const char *dev = NULL, *sp = NULL, *why;
	char *eq;

	memset(o, 0, sizeof(*o));
	o->interval = 1;
	o->repeat = 1;
	o->duration = -1;
	o->settle = SWEEP_SETTLE_DEFAULT;
	for (int i = 1; i < argc; i++) {
		const struct sweep_opt_def *d;
		char *a = argv[i], *val;

		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			sweep_opts_usage(out);
			return 1;
		}
		if (a[0] != '-' || !a[1]) {
			if (!dev)
				dev = a;
			else if (!sp)
				sp = a;
			else
				return bad(err, "too many arguments", a);
			continue;
		}
		if (!(d = find(a, &val)))
			return bad(err, "unknown option", a);
		if (d->arg == ARG_NEEDED && !val) {
			if (i + 1 >= argc)
				return bad(err, "needs a value", a);
			val = argv[++i];
		}
		if (!d->set)
			*(const char **)(void *)((char *)o + d->str) = val;
		else if ((why = d->set(o, val)))
			return bad(err, why, NULL);
	}
	if (!dev || !sp)
		return bad(err, "needs a device and TUNABLE=VALUES", NULL);
	if (!strncmp(dev, "/dev/", 5))
		dev += 5;
	if (!*dev || strchr(dev, '/') || strlen(dev) >= sizeof(o->dev))
		return bad(err, "not a device name", dev);
	snprintf(o->dev, sizeof(o->dev), "%s", dev);
	if (strlen(sp) >= sizeof(o->spec))
		return bad(err, "values too long", NULL);
	snprintf(o->spec, sizeof(o->spec), "%s", sp);
	if (!(eq = strchr(o->spec, '=')) || eq == o->spec || !eq[1] || (size_t)(eq - o->spec) >= sizeof(o->name))
		return bad(err, "expected TUNABLE=V1,V2,...", sp);
	*eq = '\0';
	snprintf(o->name, sizeof(o->name), "%s", o->spec);
	for (char *v = eq + 1, *comma;; v = comma + 1) {
		if ((comma = strchr(v, ',')))
			*comma = '\0';
		if (!*v)
			return bad(err, "an empty value (two commas in a row, or one at an end)", sp);
		if (o->nvalues == SWEEP_VALUES_MAX)
			return bad(err, "more than 64 values", NULL);
		if ((why = same_value(o, v)))
			return bad(err, why, NULL);
		o->values[o->nvalues++] = v;
		if (!comma)
			break;
	}
	if ((size_t)o->repeat * o->nvalues > SWEEP_RUNS_MAX)
		return bad(err, "values x repeats above 512", NULL);
	if (o->duration < 0)
		o->duration = o->run ? 0 : SWEEP_DURATION_DEFAULT;
	if (!o->run && o->duration < o->interval)
		return bad(err, "--duration must cover at least one interval", NULL);
	if (o->baseline) {
		size_t k = 0;
		while (k < o->nvalues && strcmp(o->values[k], o->baseline))
			k++;
		if (k == o->nvalues)
			return bad(err, "--baseline must be one of the swept values", o->baseline);
	}
	if (o->nmetrics && !o->run)
		return bad(err, "--metric needs --run", NULL);
	if (o->plot && sweep_figure_lookup(o->plot, o->metric, o->nmetrics) < 0)
		return bad(err, "--plot: not a figure (blktune sweep --help lists them)", o->plot);
	if (o->dir) {
		/* Root writes snapshots and output there: the journal's rules. */
		char unsafe[512];
		if (safe_dir_check(o->dir, true, unsafe, sizeof(unsafe)) < 0) {
			fprintf(err, "blktune sweep: --dir %s\n", unsafe);
			return 2;
		}
	}
	return 0;
}

/* splitmix64: the same order from the same seed on every machine. */
static uint64_t next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void sweep_opts_order(const struct sweep_opts *o, size_t *order, size_t n)
{
	uint64_t s = o->seed;
	size_t nv = o->nvalues;

	for (size_t k = 0; k < n; k++) {
		size_t round = k / nv, i = k % nv;
		order[k] = o->shuffle || round % 2 == 0 ? i : nv - 1 - i;
	}
	if (!o->shuffle)
		return;
	for (size_t r = 0; r * nv < n; r++)
		for (size_t i = nv - 1; i > 0; i--) {
			size_t j = (size_t)(next(&s) % (i + 1)), t = order[r * nv + i];
			order[r * nv + i] = order[r * nv + j];
			order[r * nv + j] = t;
		}
}
