#include "view.h"

#include <curses.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "keymap.h"
#include "persist.h"
#include "view-ab.h"

int view_wrap(int y, int width, int maxlines, const char *text)
{
	int lines = 0;

	while (*text && lines < maxlines && width > 4) {
		int n = (int)strlen(text), cut = n;

		if (n > width) {
			cut = width;
			while (cut > 0 && text[cut] != ' ')
				cut--;
			if (cut == 0)
				cut = width;
		}
		if (y >= 0) {
			if (lines + 1 == maxlines && n > width)
				mvprintw(y + lines, 0, "%.*s...", width - 3, text);
			else
				mvprintw(y + lines, 0, "%.*s", cut, text);
		}
		lines++;
		text += cut;
		while (*text == ' ')
			text++;
	}
	return lines;
}

int view_init(bool no_color, bool *color)
{
	if (!initscr())
		return -1;
	cbreak();
	noecho();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	curs_set(0);
	/* Esc is a key of ours: don't wait a second for an escape sequence. */
	set_escdelay(25);
	/* a click selects a row or sorts by a column; no drag, no report of moves */
	mousemask(BUTTON1_CLICKED | BUTTON1_PRESSED, NULL);
	mouseinterval(0);
	*color = false;
	if (!no_color && !getenv("NO_COLOR") && has_colors()) {
		start_color();
		use_default_colors();
		init_pair(VC_HEADER, COLOR_BLACK, COLOR_CYAN);
		init_pair(VC_SELECTED, COLOR_BLACK, COLOR_YELLOW);
		init_pair(VC_STATUS, COLOR_WHITE, COLOR_BLUE);
		init_pair(VC_TITLE, COLOR_CYAN, -1);
		init_pair(VC_GOOD, COLOR_GREEN, -1);
		init_pair(VC_BAD, COLOR_RED, -1);
		init_pair(VC_DIM, COLOR_BLUE, -1);
		init_pair(VC_CHANGED, COLOR_MAGENTA, -1);
		*color = true;
	}
	return 0;
}

void view_end(void)
{
	endwin();
}

int view_attr(const struct ui *u, enum view_color c)
{
	static const int mono[VC_COUNT] = {
		[VC_NORMAL] = A_NORMAL, [VC_HEADER] = A_REVERSE, [VC_SELECTED] = A_REVERSE | A_BOLD,
		[VC_STATUS] = A_REVERSE, [VC_TITLE] = A_BOLD, [VC_GOOD] = A_BOLD,
		[VC_BAD] = A_BOLD | A_UNDERLINE, [VC_DIM] = A_DIM, [VC_CHANGED] = A_BOLD,
	};

	if (!u->color || c == VC_NORMAL)
		return mono[c];
	return COLOR_PAIR(c) | (c == VC_TITLE || c == VC_CHANGED ? A_BOLD : 0);
}

/* The rule about to be written, wrapped over the lines above the status
 * line, so the person reads what y writes. */
static void draw_persist(struct ui *u, int y, int width)
{
	const char *rule = strstr(u->persist_rule, "ACTION");
	int len = rule ? (int)strcspn(rule, "\n") : 0, lines = width > 0 ? (len + width - 1) / width : 0;

	if (lines > y)
		lines = y;
	for (int i = 0; i < lines; i++) {
		mvhline(y - lines + i, 0, ' ', width);
		mvprintw(y - lines + i, 0, "%.*s", width, rule + i * width);
	}
	/* what the rule changed besides the row (the scheduler), above it */
	if (u->persist_note[0] && y - lines > 0) {
		mvhline(y - lines - 1, 0, ' ', width);
		mvprintw(y - lines - 1, 0, "%.*s", width, u->persist_note);
	}
	mvprintw(y, 0, "%.*s", width, "y writes the rule above, any other key cancels: ");
	printw("%.*s/%s", width / 3, persist_rules_dir(), u->persist_file);
}

/* "loop0 read_ahead_kb = 512_  (Enter sets, Esc cancels)": a value too long
 * for the line (a CPU list) shows its end, where the typing is, after "<". */
static void draw_value_prompt(const struct ui *u, int y, int width)
{
	static const char help[] = "  (Enter sets, Esc cancels)";
	int head = (int)(strlen(u->prompt_dev) + strlen(u->prompt_tun)) + 4, len = (int)strlen(u->input);
	int room = width - head - 1; /* the cursor mark */

	mvprintw(y, 0, "%s %s = ", u->prompt_dev, u->prompt_tun);
	if (len <= room - (int)strlen(help))
		printw("%s_%s", u->input, help);
	else if (len <= room)
		printw("%s_", u->input);
	else if (room > 1)
		printw("<%s_", u->input + len - (room - 1));
}

static void draw_status(struct ui *u, int y, int width)
{
	attrset(view_attr(u, VC_STATUS));
	mvhline(y, 0, ' ', width);
	if (u->prompt == UI_PROMPT_FILTER)
		mvprintw(y, 0, "filter: %s_  (Enter applies, Esc cancels)", u->input);
	else if (u->prompt == UI_PROMPT_VALUE)
		draw_value_prompt(u, y, width);
	else if (u->prompt == UI_PROMPT_INTERVAL)
		mvprintw(y, 0, "interval in seconds, 0.1 to 60: %s_  (Enter sets, Esc cancels)", u->input);
	else if (u->prompt == UI_PROMPT_TIME)
		mvprintw(y, 0, "jump to the time HH:MM or HH:MM:SS: %s_  (Enter jumps, Esc cancels)", u->input);
	else if (u->prompt == UI_PROMPT_QUIT)
		mvprintw(y, 0, "%zu tunable change(s): r restore and quit, k keep and quit, Esc stay",
			 tunable_session_changes(u->ts));
	else if (u->prompt == UI_PROMPT_PERSIST)
		draw_persist(u, y, width);
	else if (u->prompt == UI_PROMPT_JOURNAL)
		mvprintw(y, 0, "%.*s", width, "y restores them now, n leaves them (blktune --restore later)");
	else if (u->status[0]) {
		/* Messages quote values read back from sysfs. */
		char msg[sizeof(u->status)];
		int lines;
		format_sanitize(u->status, msg, sizeof(msg));
		/* A message longer than the line is wrapped upwards over the
		 * lines above it, never cut: it may be why a change failed. */
		lines = view_wrap(-1, width, 4, msg);
		for (int i = 1; i < lines; i++)
			mvhline(y - i, 0, ' ', width);
		view_wrap(y - lines + 1, width, lines, msg);
	}
	else
		mvprintw(y, 0, "%.*s", width,
			 ui_replay(u) ? "? help  q quit  t/T interval back/forward  J jump to a time  n/N next/prev change  E A/B around it  space play"
				      : "? help  q quit  space pause  +/- interval  </> sort  / filter  d detail  i idle");
	attrset(A_NORMAL);
}

/* The start-of-session question, a box over the table: it must not read
 * like one more status message, and it answers only to y and n (r, the
 * table's own key, is no answer). */
static void draw_journal_offer(struct ui *u, int h, int w)
{
	char lines[5][96];
	int n = 0, bw = 0, bh, top, left;

	snprintf(lines[n++], sizeof(lines[0]), "An earlier blktune left %d tunable(s) changed", u->journal_pending);
	snprintf(lines[n++], sizeof(lines[0]), "(it ended without restoring them).");
	snprintf(lines[n++], sizeof(lines[0]), " ");
	snprintf(lines[n++], sizeof(lines[0]), "y, Enter  restore the originals now");
	snprintf(lines[n++], sizeof(lines[0]), "n, Esc    leave them (blktune --restore later)");
	for (int i = 0; i < n; i++)
		if ((int)strlen(lines[i]) > bw)
			bw = (int)strlen(lines[i]);
	bw += 4;
	bh = n + 2;
	if (bw > w)
		bw = w;
	top = (h - bh) / 2 > 0 ? (h - bh) / 2 : 0;
	left = (w - bw) / 2;
	attrset(view_attr(u, VC_STATUS));
	for (int i = 0; i < bh && top + i < h - 1; i++)
		mvhline(top + i, left, ' ', bw);
	mvaddch(top, left, ACS_ULCORNER);
	mvhline(top, left + 1, ACS_HLINE, bw - 2);
	mvaddch(top, left + bw - 1, ACS_URCORNER);
	mvaddch(top + bh - 1, left, ACS_LLCORNER);
	mvhline(top + bh - 1, left + 1, ACS_HLINE, bw - 2);
	mvaddch(top + bh - 1, left + bw - 1, ACS_LRCORNER);
	mvvline(top + 1, left, ACS_VLINE, bh - 2);
	mvvline(top + 1, left + bw - 1, ACS_VLINE, bh - 2);
	mvprintw(top, left + 2, "%.*s", bw - 4, " restore? ");
	for (int i = 0; i < n; i++)
		mvprintw(top + 1 + i, left + 2, "%.*s", bw - 4, lines[i]);
	attrset(A_NORMAL);
}

/* How many of the max lines just above line y are blank. */
static int blank_lines_above(int y, int max, int width)
{
	int n = 0;

	for (; n < max; n++)
		for (int x = 0; x < width; x++)
			if ((mvinch(y - 1 - n, x) & A_CHARTEXT) != ' ')
				return n;
	return n;
}

void view_draw(struct ui *u)
{
	int h = LINES, w = COLS, y;

	u->table_y = -1;
	erase();
	if (h < 5 || w < 20) {
		mvprintw(0, 0, "%.*s", w, "blktune: window too small");
		refresh();
		return;
	}
	y = view_header_draw(u, 0, w);
	if (u->mode == UI_HELP) {
		view_help_draw(u, y, h - y - 1, w);
	} else if (u->mode == UI_AB) {
		struct ab_view_state st = { &u->ab, u, ui_selected(u) ? ui_selected(u)->name : NULL, u->ab_top };
		int lines = view_ab_lines(&st);
		if (u->ab_top > lines - (h - y - 1))
			u->ab_top = st.top = lines - (h - y - 1) > 0 ? lines - (h - y - 1) : 0;
		view_ab_draw(&st, y, h - y - 1, w);
	} else if (u->mode == UI_CPUS) {
		view_cpus_draw(u, y, h - y - 1, w);
	} else if (u->mode == UI_CGROUPS) {
		view_cgroup_draw(u, y, h - y - 1, w);
	} else if (u->mode == UI_COLUMNS) {
		view_columns_draw(u, y, h - y - 1, w);
	} else if (u->mode == UI_PROCS) {
		view_procs_draw(u, y, h - y - 1, w);
	} else if (u->mode == UI_TUNABLES) {
		/* a few device rows stay in view, so the effect shows at once */
		int table_h = (h - y - 1) / 3;
		if (table_h < 3)
			table_h = 3;
		view_table_draw(u, y, table_h, w);
		view_tunables_draw(u, y + table_h, h - 1 - y - table_h, w);
	} else {
		int avail = h - y - 1, detail_h = 0, spare = 0;
		if (u->detail && avail >= 14)
			/* at 80 columns the figures wrap: the pane may take all
			 * but a few table rows; lines it leaves blank go back */
			detail_h = avail >= 30 ? 15 : avail - 6;
		if (detail_h) {
			static void (*const page[UI_DETAIL_PAGES])(struct ui *, int, int, int) = {
				[UI_DETAIL_FIGURES] = view_detail_draw,
				[UI_DETAIL_SIZES] = view_trace_sizes_draw,
				[UI_DETAIL_SPLIT] = view_trace_split_draw,
				[UI_DETAIL_CPUS] = view_trace_cpus_draw,
				[UI_DETAIL_RA] = view_readahead_draw,
			};
			page[u->detail_page](u, h - 1 - detail_h, detail_h, w);
			/* Pinned to the bottom: the page's unused lines go to the
			 * table, above it, not below it. */
			spare = blank_lines_above(h - 1, detail_h - 1, w);
			if (spare) {
				move(h - 1 - detail_h, 0);
				insdelln(spare);
			}
		}
		view_table_draw(u, y, avail - detail_h + spare, w);
	}
	if (u->prompt == UI_PROMPT_JOURNAL)
		draw_journal_offer(u, h, w);
	draw_status(u, h - 1, w);
	refresh();
}
