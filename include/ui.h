/* ui: the state of the interactive front end (what is selected, sorted,
 * filtered, shown). Keys change it through actions; views only read it. */
#ifndef BLKTUNE_UI_H
#define BLKTUNE_UI_H

#include <stdbool.h>

#include "app.h"
#include "column-layout.h"
#include "columns.h"
#include "loop.h"
#include "persist.h"
#include "ab.h"
#include "tunable.h"

/* Modes are bits so a key binding can name the modes it works in. */
enum ui_mode {
	UI_TABLE = 1,
	UI_HELP = 2,
	UI_TUNABLES = 4,
	UI_CPUS = 8,
	UI_AB = 16,
	UI_CGROUPS = 32,
	UI_COLUMNS = 64,  /* the columns panel (f) */
	UI_PROCS = 128,
};
#define UI_ALL_MODES 0xffu

/* Pages of the detail pane (Tab cycles). */
enum ui_detail_page {
	UI_DETAIL_FIGURES,  /* every diskstats figure, limits, sparklines */
	UI_DETAIL_SIZES,    /* traced request sizes and latency histograms */
	UI_DETAIL_SPLIT,    /* traced queue vs device time per operation */
	UI_DETAIL_CPUS,     /* traced per-CPU issues and completions */
	UI_DETAIL_RA,       /* readahead mode figures */
	UI_DETAIL_PAGES
};

/* What an action asks the main loop to do. */
#define ACT_REDRAW 1u
#define ACT_ROWS 2u     /* filter or sort changed: rebuild rows, no sample */

enum ui_prompt {
	UI_PROMPT_NONE,
	UI_PROMPT_FILTER,  /* name filter text */
	UI_PROMPT_VALUE,   /* an exact value for the selected tunable */
	UI_PROMPT_QUIT,    /* tunables changed: restore, keep or cancel */
	UI_PROMPT_JOURNAL, /* an earlier session left originals: restore or leave */
	UI_PROMPT_PERSIST, /* write the udev rule in persist_rule: y or not */
	UI_PROMPT_INTERVAL, /* an exact interval in seconds (s) */
	UI_PROMPT_TIME,    /* a replay: the time to jump to (J) */
};

/* What restores and keeps did during the session, printed after endwin so
 * that it stays on the terminal. */
struct ui_exit_log {
	char *text;
	size_t len;
	unsigned lines, dropped;
	unsigned restored, failed, kept;
};

struct ui {
	struct app *app;
	struct loop *loop;
	enum ui_mode mode;
	bool paused, detail, color, quit;
	bool utf8;        /* the locale's charset is UTF-8: block characters, µ */
	int exit_status;
	/* selection follows the device, not the row number */
	dev_t sel_dev;
	char sel_name[SAMPLE_NAME_MAX];
	int sel_row, top_row;
	int hscroll;      /* table columns scrolled off to the left (after DEVICE) */
	struct column_layout layout; /* the table's columns after DEVICE (-o, f, config) */
	int help_top;
	int colp_sel, colp_top; /* the columns panel's selected and first shown row */
	enum ui_prompt prompt;
	/* the value prompt's device and tunable, fixed when it opens */
	char prompt_dev[SAMPLE_NAME_MAX], prompt_tun[TUNABLE_NAME_MAX];
	char input[TUNABLE_VALUE_MAX]; /* a CPU list of hundreds of CPUs fits */
	bool input_fresh; /* input is the pre-filled value: typing replaces it */
	char status[512];
	int table_rows;   /* rows the table had room for at the last draw */
	/* where the last draw put the table, for mouse clicks: its header line
	 * (-1: not shown) and each column's first x */
	int table_y, ntable_x, table_x[COLUMN_COUNT + 1], table_col[COLUMN_COUNT];
	enum column_unit unit; /* of the table's throughput columns (m cycles) */
	int detail_page;  /* enum ui_detail_page */
	int cpu_top;      /* first CPU row shown in the CPU view */
	int cg_top;       /* first row shown in the cgroup view */
	int proc_top;     /* first row shown in the process view */
	pid_t proc_sel_pid; /* the process selected there (follows the process, not the row) */
	char cpu_dev[SAMPLE_NAME_MAX]; /* the device whose IRQs the CPU view watches */
	struct ab ab;     /* A/B snapshots and their comparison */
	int ab_top;       /* lines of the A/B view scrolled off */
	/* tunables: the session (journal, undo) and the panel's rows, read by
	 * actions (never by views) and refreshed every few seconds */
	struct tunable_session *ts;
	bool keep_on_exit;   /* the person chose to keep changes: no restore */
	bool exit_restored;  /* a signal restored everything on the way out */
	int journal_pending; /* originals left by an earlier session, at start (at exit: left) */
	bool journal_changed; /* this session changed some of them again */
	struct ui_exit_log exit_log;
	struct tunable_info *tun;
	int ntun, tun_sel, tun_top;
	char tun_dev[SAMPLE_NAME_MAX];
	/* the last tunable changed: the panel opens on its row on that device */
	char tun_last_dev[SAMPLE_NAME_MAX], tun_last_name[TUNABLE_NAME_MAX];
	char tun_msg[TUNABLE_MSG_MAX]; /* why the list is empty or read-only */
	double tun_read_t;
	/* p in the tunables panel: the rule shown for confirmation */
	char persist_file[PERSIST_NAME_MAX];
	char persist_rule[4096];
	struct persist_seen persist_seen; /* the rule file p read: written over only if still so */
	char persist_what[192]; /* "loop3 read_ahead_kb=1024 (loop /srv/a.img)" */
	char persist_note[320]; /* what persist_merge changed besides the row: "scheduler kyber added..." */
};

/* Status line message (printf-like). */
void ui_status(struct ui *u, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Keep sel_row/top_row consistent with the selected device after rows change. */
void ui_sync_selection(struct ui *u);
/* The selected device's metrics, or NULL. */
const struct disk_metrics *ui_selected(const struct ui *u);
/* i moved into 0..n-1 (0 when n is 0): where a cursor may stand in a list of n. */
static inline int ui_clamp_index(int i, int n)
{
	if (i >= n)
		i = n - 1;
	return i < 0 ? 0 : i;
}

/* Whether the front end replays a recording (-r FILE). */
bool ui_replay(const struct ui *u);
/* Select the row at index row (clamped). */
void ui_select_row(struct ui *u, int row);

#endif
