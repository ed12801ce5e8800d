/* blktune: live block-device statistics and queue tuning. main() parses the
 * options and picks a front end; only main decides the exit status. */
#include <errno.h>
#include <getopt.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app.h"
#include "batch.h"
#include "bpf-helper.h"
#include "cli-persist.h"
#include "cli-snapshot.h"
#include "cli-tunable.h"
#include "sweep.h"
#include "terminal.h"
#include "sweep-report.h"
#include "column-layout.h"
#include "config.h"
#include "doc.h"
#include "exporter.h"
#include "names.h"
#include "tui.h"

#define BLKTUNE_VERSION "0.1"

enum { OPT_JSON = 256, OPT_ROOT, OPT_NO_COLOR, OPT_PARTITIONS, OPT_SET, OPT_RESTORE,
       OPT_JOURNAL_DIR, OPT_NO_TRACE, OPT_LIST, OPT_READAHEAD, OPT_AB_WINDOW, OPT_SINCE_BOOT, OPT_LISTEN, OPT_TEXTFILE, OPT_HELP,
       OPT_CGROUPS, OPT_TOP_PROCESSES, OPT_TRACE_PROCESSES };

static const struct option long_opts[] = {
	{ "batch", no_argument, NULL, 'b' },
	{ "delay", required_argument, NULL, 'd' },
	{ "iterations", required_argument, NULL, 'n' },
	{ "device", required_argument, NULL, 'p' },
	{ "columns", required_argument, NULL, 'o' },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "partitions", no_argument, NULL, OPT_PARTITIONS },
	{ "root", required_argument, NULL, OPT_ROOT },
	{ "no-color", no_argument, NULL, OPT_NO_COLOR },
	{ "no-trace", no_argument, NULL, OPT_NO_TRACE },
	{ "readahead", no_argument, NULL, OPT_READAHEAD },
	{ "cgroups", no_argument, NULL, OPT_CGROUPS },
	{ "top-processes", no_argument, NULL, OPT_TOP_PROCESSES },
	{ "trace-processes", no_argument, NULL, OPT_TRACE_PROCESSES },
	{ "ab-window", required_argument, NULL, OPT_AB_WINDOW },
	{ "set", required_argument, NULL, OPT_SET },
	{ "restore", no_argument, NULL, OPT_RESTORE },
	{ "journal-dir", required_argument, NULL, OPT_JOURNAL_DIR },
	{ "list", required_argument, NULL, OPT_LIST },
	{ "since-boot", no_argument, NULL, OPT_SINCE_BOOT },
	{ "listen", required_argument, NULL, OPT_LISTEN },
	{ "textfile", required_argument, NULL, OPT_TEXTFILE },
	{ "omit-idle", no_argument, NULL, 'z' },
	{ "human", no_argument, NULL, 'h' },
	{ "persistent-names", required_argument, NULL, 'j' },
	{ "help", no_argument, NULL, OPT_HELP },
	{ "version", no_argument, NULL, 'V' },
	{ "write", required_argument, NULL, 'w' },
	{ "read", required_argument, NULL, 'r' },
	{ NULL, 0, NULL, 0 },
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: blktune [options]\n"
		"       blktune sweep DEV TUNABLE=V1,V2,... [sweep options]   (blktune sweep --help)\n"
		"       blktune report DIR    the plain-text report of a sweep's directory\n"
		"       blktune diff A.snap B.snap [--json]   |   blktune show FILE\n"
		"  -b, --batch            print reports on stdout instead of the full-screen view\n"
		"  -d, --delay SECONDS    interval between samples, 0.1 to 60 (default 1)\n"
		"  -n, --iterations N     stop after N reports (full screen: refreshes, restoring changed tunables)\n"
		"  -p, --device DEV       only this device (repeatable): a kernel name (sda, dm-3), a mapper\n"
		"                         name (vg0-data), a /dev/ path (/dev/mapper/X, /dev/disk/by-id/X)\n"
		"                         or, with -j, a persistent name\n"
		"  -o, --columns LIST     full screen: the table's columns after DEVICE, in this order\n"
		"                         (r/s,w/s,rMB/s,...; blktune --list columns; f changes them)\n"
		"  -j, --persistent-names TYPE  show and accept /dev/disk/by-TYPE names, as iostat -j\n"
		"                         (TYPE: ID, LABEL, PATH, UUID, PARTUUID)\n"
		"  -z, --omit-idle        batch: leave out devices with no I/O in the interval (iostat -z);\n"
		"                         full screen: start with idle devices hidden (i)\n"
		"  -h, --human            batch text: sizes with k/M/G units in iostat -h's layout\n"
		"      --since-boot       one report of averages since boot (as iostat -x without an\n"
		"                         interval), text or --json, then exit\n"
		"      --json             batch: one JSON object per line per interval\n"
		"      --cgroups          batch JSON: per cgroup and device, read/write bytes and I/Os\n"
		"                         (cgroup v2 io.stat, else v1 blkio) in \"cgroups\"\n"
		"      --top-processes    batch JSON: per process, read/write B/s from /proc/PID/io in\n"
		"                         \"processes\" (those with I/O in the interval, most first)\n"
		"      --trace-processes  trace which process submits each block request (a BPF mode of\n"
		"                         its own): per process and device, requests and latency, in the\n"
		"                         process view (o), detail pane and --top-processes JSON; per\n"
		"                         cgroup and device in the cgroup view (C) and --cgroups JSON\n"
		"      --listen ADDR:PORT serve Prometheus metrics on http://ADDR:PORT/metrics while\n"
		"                         running (e.g. 127.0.0.1:9101, [::1]:9101)\n"
		"      --textfile DIR     write DIR/blktune.prom each interval (node_exporter's\n"
		"                         textfile collector), replaced atomically\n"
		"  -w, --write FILE       record every interval to FILE (a new file; as atop -w)\n"
		"  -r, --read FILE        replay a recording: full screen with t/T, J to step and jump in\n"
		"                         time (as atop -r); with -b, what batch printed live\n"
		"      --partitions       include partitions\n"
		"      --root DIR         read proc/ and sys/ below DIR (a captured tree; debugging aid)\n"
		"      --no-color         monochrome (also when NO_COLOR is set)\n"
		"      --no-trace         do not load the BPF tracer (traced columns show n/a)\n"
		"      --readahead        start with the readahead mode on (batch: JSON gains \"readahead\")\n"
		"      --ab-window SECONDS  A/B snapshots cover at most this long (default 30, 1 to 3600)\n"
		"      --set DEV:TUNABLE=VALUE  change a tunable (validated, journaled, read back),\n"
		"                         print what the kernel set, exit (repeatable)\n"
		"      --restore          put back every original value in the journal and exit\n"
		"      --journal-dir DIR  where the tunables journal lives (default /run/blktune)\n"
		"      --list WHAT        print the keys, columns or tunables and exit\n"
		"                         (WHAT: keys, columns, tunables; add :man for roff)\n"
		"      --help             this text (-h is --human, as in iostat)\n"
		"  -V, --version          print the version\n");
}

/* A bad command line: one line on stderr and exit status 2. */
__attribute__((format(printf, 1, 2))) static int bad(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "blktune: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (blktune --help lists the options)\n");
	return 2;
}

/* What main does besides running a front end. */
struct cli {
	bool delay_given, color_given; /* over the config file's */
	const char *sets[APP_MAX_DEVS];
	size_t nsets;
	bool restore;
	const char *journal_dir;
};

static int parse_args(int argc, char **argv, struct app_options *o, struct cli *cli, int *done)
{
	int c;

	*done = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":bd:n:p:j:o:zhVw:r:", long_opts, NULL)) != -1) {
		char *end;
		switch (c) {
		case 'b':
			o->batch = true;
			break;
		case 'd':
			cli->delay_given = true;
			errno = 0;
			o->interval = strtod(optarg, &end);
			if (errno || end == optarg || *end || !isfinite(o->interval) ||
			    o->interval < APP_INTERVAL_MIN - 1e-9 || o->interval > APP_INTERVAL_MAX)
				return bad("-d %s: the interval must be a number of seconds from 0.1 to 60", optarg);
			break;
		case 'n':
			errno = 0;
			o->count = strtol(optarg, &end, 10);
			if (errno || end == optarg || *end || o->count < 1)
				return bad("-n %s: the count must be a whole number of at least 1", optarg);
			break;
		case 'p':
			if (o->ndevs == APP_MAX_DEVS)
				return bad("-p %s: at most 64 devices", optarg);
			if (names_check_arg(optarg) < 0)
				return bad("-p '%s': give a device name (sda, vg0-data) or a /dev/ path", optarg);
			o->devs[o->ndevs++] = optarg;
			break;
		case 'o': {
			struct column_layout l;
			char why[160];
			if (column_layout_parse(optarg, &l, why, sizeof(why)) < 0)
				return bad("-o %s: %s", optarg, why);
			o->columns = optarg;
			break;
		}
		case 'w':
			o->record = optarg;
			break;
		case 'r':
			o->replay = optarg;
			break;
		case OPT_JSON:
			o->json = true;
			break;
		case OPT_PARTITIONS:
			o->partitions = true;
			break;
		case OPT_ROOT:
			o->root_dir = optarg;
			break;
		case OPT_NO_COLOR:
			cli->color_given = true;
			o->no_color = true;
			break;
		case OPT_NO_TRACE:
			o->no_trace = true;
			break;
		case OPT_READAHEAD:
			o->readahead = true;
			break;
		case OPT_CGROUPS:
			o->cgroups = true;
			break;
		case OPT_TOP_PROCESSES:
			o->top_processes = true;
			break;
		case OPT_TRACE_PROCESSES:
			o->trace_processes = true;
			break;
		case OPT_AB_WINDOW:
			errno = 0;
			o->ab_window = strtod(optarg, &end);
			if (errno || end == optarg || *end || !isfinite(o->ab_window) || o->ab_window < 1 ||
			    o->ab_window > 3600)
				return bad("--ab-window %s: give seconds from 1 to 3600", optarg);
			break;
		case OPT_SET:
			if (cli->nsets == APP_MAX_DEVS)
				return bad("--set %s: at most 64 changes at once", optarg);
			cli->sets[cli->nsets++] = optarg;
			break;
		case OPT_RESTORE:
			cli->restore = true;
			break;
		case OPT_JOURNAL_DIR:
			cli->journal_dir = optarg;
			o->journal_dir = optarg;
			break;
		case OPT_LIST: {
			char what[16];
			const char *colon = strchr(optarg, ':');
			snprintf(what, sizeof(what), "%.*s", colon ? (int)(colon - optarg) : (int)strlen(optarg), optarg);
			if ((colon && strcmp(colon, ":man")) || doc_print(stdout, what, colon != NULL) < 0)
				return bad("--list %s: give keys, columns or tunables, optionally with :man", optarg);
			*done = 1;
			return 0;
		}
		case 'j': {
			int t = names_type_parse(optarg);
			if (t < 0)
				return bad("-j %s: give ID, LABEL, PATH, UUID or PARTUUID", optarg);
			o->names = (enum names_type)t;
			break;
		}
		case 'z':
			o->omit_zero = true;
			break;
		case 'h':
			o->human = true;
			break;
		case OPT_SINCE_BOOT:
			o->since_boot = o->batch = true;
			break;
		case OPT_LISTEN: {
			char host[128];
			unsigned port;
			if (exporter_parse_listen(optarg, host, sizeof(host), &port) < 0)
				return bad("--listen %s: want ADDR:PORT (port 1-65535), e.g. 127.0.0.1:9101 or [::1]:9101",
					   optarg);
			o->listen = optarg;
			break;
		}
		case OPT_TEXTFILE:
			o->textfile = optarg;
			break;
		case OPT_HELP:
			usage(stdout);
			*done = 1;
			return 0;
		case 'V':
			printf("blktune %s\n", BLKTUNE_VERSION);
			*done = 1;
			return 0;
		case ':':
			return bad("option %s needs a value", argv[optind - 1]);
		default:
			return bad("unknown option %s", argv[optind - 1]);
		}
	}
	if (optind < argc)
		return bad("unexpected argument '%s'", argv[optind]);
	if (o->columns && o->batch)
		return bad("%s chooses the full-screen table's columns; batch output has iostat's", "-o");
	if (o->json && !o->batch)
		return bad("%s only applies with -b", "--json");
	if (o->trace_processes && o->batch && !o->top_processes && !o->cgroups)
		return bad("%s in batch mode needs --json --top-processes or --cgroups (its figures are the process "
			   "and cgroup views')",
			   "--trace-processes");
	if (o->trace_processes && o->no_trace)
		return bad("%s traces: not with --no-trace", "--trace-processes");
	if (o->top_processes && !o->json)
		return bad("%s only applies with -b --json (the full-screen view's o key shows processes)",
			   "--top-processes");
	if (o->cgroups && !o->json)
		return bad("%s only applies with -b --json (the full-screen view's C key shows cgroups)", "--cgroups");
	if (o->human && !o->batch)
		return bad("%s only applies with -b (the full-screen view's m key picks kB, MB or GB)", "-h");
	if (o->human && o->json)
		return bad("%s: JSON figures have no units; choose one", "-h with --json");
	if (o->since_boot && o->count)
		return bad("%s prints one report: -n does not apply", "--since-boot");
	if (o->since_boot && o->readahead)
		return bad("%s: readahead figures need an interval, not the time since boot", "--readahead");
	if (o->record && o->replay)
		return bad("%s: replay one recording or write one, not both", "-w with -r");
	if (o->replay && o->since_boot)
		return bad("%s: a recording has intervals, not the time since boot", "--since-boot with -r");
	if (o->replay && (o->readahead || o->listen || o->textfile || o->no_trace))
		return bad("%s: a replay shows what was recorded", "-r with --readahead, --listen, --textfile or --no-trace");
	if (o->replay && (cli->nsets || cli->restore))
		return bad("%s: a replay changes no tunable", "-r with --set or --restore");
	if (cli->restore && cli->nsets)
		return bad("%s: choose --set or --restore", "--restore");
	return 0;
}

int main(int argc, char **argv)
{
	struct app_options o;
	struct cli cli = { 0 };
	struct app a;
	int err, done;
	char why[512], conf_cols[1024];
	struct config conf = { 0 };

	/* Started by bpf-loader to load a BPF object: nothing else. */
	if ((err = bpf_helper_main(argc, argv)) >= 0)
		return err;
	/* The user's locale for characters (UTF-8 box drawing, µs), never for
	 * numbers: every file and stream blktune writes or reads (JSON, CSV,
	 * snapshots, journal, Prometheus, fio's JSON, the options) uses a '.'
	 * decimal point, so a comma locale must not turn 1.5 into "1,5" on
	 * output or into 1 on input. */
	setlocale(LC_ALL, "");
	setlocale(LC_NUMERIC, "C");
	/* Subcommands have options of their own. */
	if (argc > 1 && (!strcmp(argv[1], "diff") || !strcmp(argv[1], "show")))
		return cli_snapshot_main(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "sweep"))
		return sweep_main(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "persist"))
		return cli_persist_main(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "report"))
		return sweep_report_main(argc - 1, argv + 1);
	app_options_default(&o);
	o.version = BLKTUNE_VERSION;
	if ((err = parse_args(argc, argv, &o, &cli, &done)) != 0 || done)
		return err;
	if (cli.nsets)
		return cli_tunable_set(o.root_dir, cli.journal_dir, cli.sets, cli.nsets, stdout, stderr);
	if (cli.restore)
		return cli_tunable_restore(o.root_dir, cli.journal_dir, stdout, stderr);
	o.history = o.frame_first = !o.batch;
	if (!o.batch && !isatty(STDIN_FILENO)) {
		fprintf(stderr, "blktune: the full-screen view needs a terminal; use -b for batch output\n");
		return 2;
	}
	if (!o.batch && terminal_check(why, sizeof(why)) < 0) {
		fprintf(stderr, "blktune: %s: the full-screen view cannot be drawn; use -b for batch output\n", why);
		return 2;
	}
	/* The full screen's saved settings (W), under the command line's. */
	if (!o.batch) {
		err = config_load(&conf, why, sizeof(why));
		if (err < 0 && err != -ENOENT) {
			fprintf(stderr, "blktune: config %s\n", why);
			return 2;
		}
		if (conf.has_interval && !cli.delay_given)
			o.interval = conf.interval;
		if (conf.has_color && !cli.color_given)
			o.no_color = !conf.color;
		if (conf.has_columns && !o.columns) {
			column_layout_text(&conf.columns, conf_cols, sizeof(conf_cols));
			o.columns = conf_cols;
		}
	}
	if ((err = app_open(&a, &o)) < 0) {
		bool usage = a.bad_arg;
		fprintf(stderr, "blktune: %s\n", a.error[0] ? a.error : strerror(-err));
		app_close(&a);
		return usage ? 2 : 1;
	}
	if (conf.has_sort) {
		a.filter.sort_column = conf.sort_column;
		a.filter.sort_reverse = conf.sort_reverse;
	}
	/* Without -b, -z starts the TUI with idle devices hidden (its i key). */
	if (!o.batch && o.omit_zero) {
		a.filter.omit_zero = false;
		a.filter.hide_idle = true;
	}
	err = o.batch ? batch_run(&a) : tui_run(&a);
	if (err < 0 && err != -EPIPE)
		fprintf(stderr, "blktune: %s\n", a.error[0] ? a.error : strerror(-err));
	app_close(&a);
	/* TUI_UNRESTORED: the exit report said what was not restored. */
	return (err < 0 && err != -EPIPE) || err == TUI_UNRESTORED ? 1 : 0;
}
