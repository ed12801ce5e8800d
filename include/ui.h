/* ui: the state of the interactive front end (what is selected, sorted,
 * filtered, shown). Keys change it through actions; views only read it. */
#ifndef BLKTUNE_UI_H
#define BLKTUNE_UI_H

#include <stdbool.h>

#include "app.h"
#include "loop.h"

enum ui_mode {
	UI_TABLE,
	UI_HELP,
};

enum ui_prompt {
	UI_PROMPT_NONE,
	UI_PROMPT_FILTER,
};

struct ui {
	struct app *app;
	struct loop *loop;
	enum ui_mode mode;
	bool paused, detail, color, quit;
	int exit_status;
	/* selection follows the device, not the row number */
	dev_t sel_dev;
	char sel_name[SAMPLE_NAME_MAX];
	int sel_row, top_row;
	int hscroll;      /* table columns scrolled off to the left (after DEVICE) */
	int help_top;
	enum ui_prompt prompt;
	char input[64];
	char status[256];
	int table_rows;   /* rows the table had room for at the last draw */
};

/* Status line message (printf-like). */
void ui_status(struct ui *u, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Keep sel_row/top_row consistent with the selected device after rows change. */
void ui_sync_selection(struct ui *u);
/* The selected device's metrics, or NULL. */
const struct disk_metrics *ui_selected(const struct ui *u);
/* Select the row at index row (clamped). */
void ui_select_row(struct ui *u, int row);

#endif
