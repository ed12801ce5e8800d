#include "tui.h"

#include <curses.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "persist.h"
#include "action.h"
#include "action-replay.h"
#include "cli-tunable.h"
#include "format.h"
#include "journal.h"
#include "keymap.h"
#include "loop.h"
#include "source-replay.h"
#include "view.h"

static void resize(void)
{
	struct winsize ws;

	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row && ws.ws_col)
		resizeterm(ws.ws_row, ws.ws_col);
}

/* A one-letter question: quit with changed tunables, or an old journal. */
static unsigned choice_key(struct ui *u, int key)
{
	if (u->prompt == UI_PROMPT_QUIT) {
		if (key == 'r' || key == 'R') {
			action_exit_restore(u);
			u->quit = true;
		} else if (key == 'k' || key == 'K') {
			action_keep(u);
			u->keep_on_exit = true;
			u->quit = true;
		} else if (key == 27 || key == 'c') {
			ui_status(u, "not quitting");
		} else {
			return ACT_REDRAW; /* keep asking */
		}
	} else if (u->prompt == UI_PROMPT_PERSIST) {
		if (key == 'y' || key == 'Y') {
			char why[512];

			if (persist_write(persist_rules_dir(), u->persist_file, u->persist_rule, &u->persist_seen, why,
					  sizeof(why)) < 0)
				ui_status(u, "not written: %s", why);
			else
				ui_status(u, "written %s/%s: udev sets %s when the disk appears%s%s%s", persist_rules_dir(),
					  u->persist_file, u->persist_what, u->persist_note[0] ? " (" : "",
					  u->persist_note, u->persist_note[0] ? ")" : "");
		} else {
			ui_status(u, "not persisted");
		}
	} else if (u->prompt == UI_PROMPT_JOURNAL) {
		if (key == 'y' || key == 'Y' || key == '\n' || key == KEY_ENTER) {
			u->prompt = UI_PROMPT_NONE;
			return action_restore_all(u);
		} else if (key == 'n' || key == 'N' || key == 27) {
			ui_status(u, "journal left as it is: blktune --restore or U restores it later");
		} else {
			return ACT_REDRAW;
		}
	}
	u->prompt = UI_PROMPT_NONE;
	return ACT_REDRAW;
}

/* Text input (name filter, a tunable's value): Enter applies, Esc cancels. */
static unsigned prompt_key(struct ui *u, int key)
{
	size_t len = strlen(u->input);

	if (u->prompt == UI_PROMPT_QUIT || u->prompt == UI_PROMPT_JOURNAL || u->prompt == UI_PROMPT_PERSIST)
		return choice_key(u, key);
	if (key == 27) {
		u->prompt = UI_PROMPT_NONE;
		return ACT_REDRAW;
	}
	if (key == '\n' || key == KEY_ENTER) {
		enum ui_prompt p = u->prompt;
		u->prompt = UI_PROMPT_NONE;
		if (p == UI_PROMPT_VALUE)
			return action_tunable_set_input(u);
		if (p == UI_PROMPT_INTERVAL)
			return keymap_interval_input(u);
		if (p == UI_PROMPT_TIME)
			return action_replay_jump_input(u);
		snprintf(u->app->filter.name, sizeof(u->app->filter.name), "%s", u->input);
		ui_status(u, u->input[0] ? "showing devices matching \"%s\"" : "filter cleared", u->input);
		return ACT_ROWS;
	}
	/* This prompt writes kernel settings: typing replaces the value shown
	 * (asked for 3, it must not write 12803); editing keys as in readline. */
	if (u->input_fresh && key >= 32 && key < 127) {
		u->input[0] = '\0';
		len = 0;
	}
	u->input_fresh = false;
	if (key == 21) { /* Ctrl-U: the whole line */
		u->input[0] = '\0';
	} else if (key == 23) { /* Ctrl-W: the word before the cursor */
		while (len > 0 && u->input[len - 1] == ' ')
			len--;
		while (len > 0 && u->input[len - 1] != ' ')
			len--;
		u->input[len] = '\0';
	} else if ((key == KEY_BACKSPACE || key == 127 || key == 8) && len > 0) {
		u->input[len - 1] = '\0';
	} else if (key >= 32 && key < 127 && len + 1 < sizeof(u->input) &&
		   (u->prompt == UI_PROMPT_VALUE || (key != ' ' && len + 1 < sizeof(u->app->filter.name)))) {
		u->input[len] = (char)key;
		u->input[len + 1] = '\0';
	}
	return ACT_REDRAW;
}

/* A click on the table: on a row selects it, on a column's header sorts by
 * it (again: the other way). Geometry from the last draw. */
static unsigned mouse_click(struct ui *u)
{
	MEVENT ev;
	int i;

	if (getmouse(&ev) != OK || u->prompt != UI_PROMPT_NONE || u->table_y < 0 || ev.y < u->table_y ||
	    ev.y > u->table_y + u->table_rows)
		return 0;
	if (ev.y > u->table_y) {
		if (u->top_row + ev.y - u->table_y - 1 >= (int)u->app->nrows)
			return 0;
		ui_select_row(u, u->top_row + ev.y - u->table_y - 1);
		return ACT_REDRAW;
	}
	for (i = 0; i < u->ntable_x && ev.x >= u->table_x[i + 1]; i++)
		;
	if (i == u->ntable_x)
		return 0;
	if (u->app->filter.sort_column == u->table_col[i]) {
		u->app->filter.sort_reverse = !u->app->filter.sort_reverse;
	} else {
		u->app->filter.sort_column = u->table_col[i];
		u->app->filter.sort_reverse = columns[u->table_col[i]].type == COL_NUM;
	}
	ui_status(u, "sorted by %s%s", columns[u->table_col[i]].header,
		  u->app->filter.sort_reverse ? " (descending)" : " (ascending)");
	return ACT_ROWS;
}

/* Esc [ or Esc O in one read is a key the terminal sent as a sequence that
 * curses does not know (Ctrl-Alt-arrow, a function key of another
 * terminal): read it to its end, so that none of its bytes runs as a key
 * ("[" halves read_ahead_kb) or cancels a prompt. Returns true when the
 * bytes after Esc were such a sequence. */
static bool unknown_sequence(void)
{
	int c = getch(), n = 0;

	if (c != '[' && c != 'O') {
		if (c != ERR)
			ungetch(c);
		return false;
	}
	if (c == 'O') { /* SS3: one final byte */
		getch();
		return true;
	}
	/* CSI: parameter and intermediate bytes (0x20-0x3f), then a final one */
	while ((c = getch()) != ERR && c >= 0x20 && c <= 0x3f && ++n < 32)
		;
	return true;
}

static unsigned handle_keys(struct ui *u)
{
	unsigned flags = 0;
	int key;

	while ((key = getch()) != ERR) {
		if (key == 27 && unknown_sequence()) {
			ui_status(u, "a key this terminal sends as an unknown sequence: ignored");
			flags |= ACT_REDRAW;
			continue;
		}
		if (key == KEY_RESIZE) {
			flags |= ACT_REDRAW;
			continue;
		}
		if (key == KEY_MOUSE) {
			flags |= mouse_click(u);
			continue;
		}
		if (u->prompt != UI_PROMPT_NONE) {
			flags |= prompt_key(u, key);
			if (u->quit) /* keys typed behind the quit answer are not run */
				break;
			continue;
		}
		u->status[0] = '\0';
		/* Esc with a key right behind it is how a terminal sends Alt-key.
		 * No Alt binding exists: an unbound key there is named Alt-x;
		 * a bound one is Esc then that key, typed quickly. */
		if (key == 27) {
			int next = getch();
			if (next != ERR && next != 27 && !keymap_bound(u, next)) {
				flags |= keymap_unbound(u, next, true);
				continue;
			}
			if (next != ERR)
				ungetch(next);
		}
		flags |= keymap_dispatch(u, key);
		if (u->quit)
			break;
	}
	return flags;
}

/* SIGTERM, SIGHUP (a dropped ssh session), SIGQUIT: put the originals back
 * unless the person chose keep, then leave. SIGINT is the q key. */
static unsigned on_signal(struct ui *u, int signo)
{
	if (signo == SIGWINCH) {
		/* Redraw at the new size from the data we have: no sample. */
		resize();
		return ACT_REDRAW;
	}
	if (signo == SIGINT && u->prompt != UI_PROMPT_QUIT)
		return keymap_dispatch(u, 'q');
	u->exit_restored = action_exit_restore(u) == 0 && tunable_session_changes(u->ts) == 0;
	u->quit = true;
	return 0;
}

/* The -n count is reached: leave, restoring changed tunables unless the
 * person chose to keep them (the exit report lists what was restored). */
static void tui_count_done(struct ui *u)
{
	if (tunable_session_changes(u->ts) > 0 && !u->keep_on_exit) {
		u->exit_restored = action_exit_restore(u) == 0 && tunable_session_changes(u->ts) == 0;
		ui_status(u, "-n %ld refreshes done: changed tunables restored", u->app->opt.count);
	}
	u->quit = true;
}

int tui_run(struct app *a)
{
	struct ui u;
	int err, signo;
	long refreshes = 0;
	bool report, unrestored;

	memset(&u, 0, sizeof(u));
	u.app = a;
	u.mode = UI_TABLE;
	u.unit = COLUMN_UNIT_MB;
	column_layout_default(&u.layout);
	if (a->opt.columns)
		column_layout_parse(a->opt.columns, &u.layout, NULL, 0); /* main checked it */
	u.utf8 = format_locale_utf8();
	ab_init(&u.ab);
	if ((err = tunable_session_open(a->root, a->opt.journal_dir, &u.ts)) < 0)
		return err;
	/* -n in a replay: its first N intervals, those -r -b -n N prints;
	 * playing stops at the last of them as at the recording's end. */
	if (ui_replay(&u) && a->opt.count > 0)
		source_replay_limit(sampler_replay(a->sampler), (size_t)a->opt.count);
	if ((err = app_refresh(a)) < 0) {
		tunable_session_close(u.ts);
		return err;
	}
	if ((err = loop_new(a->opt.interval, true, &u.loop)) < 0)
		return err;
	if (view_init(a->opt.no_color, &u.color) < 0) {
		loop_free(u.loop);
		tunable_session_close(u.ts);
		return -ENOTTY;
	}
	/* The detail pane starts open only where the table keeps room beside
	 * it (30 lines under the header): at 80x24 the devices come first. */
	u.detail = LINES - 4 >= 30;
	/* Something to read at once: averages since boot (iostat -x's first
	 * report) until the first interval has passed. */
	if (ui_replay(&u))
		action_replay_start(&u);
	else if (app_since_boot(a) == 0)
		ui_status(&u, "first interval: averages since boot until %.1f s have passed; ? for help",
			  a->opt.interval);
	else
		ui_status(&u, "first interval: figures appear after %.1f s (%s); ? for help", a->opt.interval,
			  a->error);
	if (root_is_live(a->root) && !ui_replay(&u)) {
		char why[256];

		u.journal_pending = cli_tunable_journal_pending(a->opt.journal_dir, why, sizeof(why));
		if (u.journal_pending > 0)
			u.prompt = UI_PROMPT_JOURNAL;
		else if (u.journal_pending < 0 && tunable_session_writable(u.ts, NULL))
			ui_status(&u, "%s", why); /* an unsafe journal directory, said before any change */
	}
	view_draw(&u);
	sampler_frame_drawn(a->sampler); /* the tracer loads behind it, not beside it */
	while (!u.quit) {
		unsigned flags = 0;
		int ev = loop_wait(u.loop, &signo);

		if (ev < 0) {
			err = ev;
			break;
		}
		switch (ev) {
		case LOOP_TICK:
			if (ui_replay(&u)) {
				flags |= action_replay_tick(&u);
				break;
			}
			if ((err = app_refresh(a)) < 0) {
				u.quit = true;
				break;
			}
			/* The rows were sorted afresh: the selection follows its
			 * device (keys act on what is selected, not on a row). */
			ui_sync_selection(&u);
			/* -n: top's count of refreshes, then out as q with restore would. */
			if (a->opt.count && ++refreshes >= a->opt.count) {
				tui_count_done(&u);
				break;
			}
			if (*sampler_error(a->sampler))
				ui_status(&u, "%s", sampler_error(a->sampler));
			else if (*a->export_error)
				ui_status(&u, "%s", a->export_error);
			else if (!strncmp(u.status, "first interval", 14))
				u.status[0] = '\0';
			if (u.mode == UI_TUNABLES && a->cur.t - u.tun_read_t >= ACTION_PANEL_REREAD_S)
				action_tunables_reload(&u);
			flags |= ACT_REDRAW;
			break;
		case LOOP_INPUT:
			flags |= handle_keys(&u);
			break;
		case LOOP_SIGNAL:
			flags |= on_signal(&u, signo);
			break;
		}
		if (flags & ACT_ROWS) {
			app_rows(a);
			ui_sync_selection(&u);
		}
		/* Per-CPU, per-cgroup and per-process sampling cost: only while
		 * their view is shown (or its option asks for them). */
		if (u.mode != UI_CPUS && a->cpu_view && u.mode != UI_HELP)
			app_cpu_view(a, false, NULL);
		if (u.mode != UI_CGROUPS && a->cgroup_view && u.mode != UI_HELP && !a->opt.cgroups)
			app_cgroup_view(a, false);
		if (u.mode != UI_PROCS && a->proc_view && u.mode != UI_HELP && !a->opt.top_processes &&
		    !a->opt.trace_processes)
			app_proc_view(a, false);
		/* The CPU view and the panel follow the selected device. */
		if (u.mode == UI_CPUS && ui_selected(&u) && strcmp(ui_selected(&u)->name, u.cpu_dev)) {
			snprintf(u.cpu_dev, sizeof(u.cpu_dev), "%s", ui_selected(&u)->name);
			app_cpu_view(a, true, u.cpu_dev);
		}
		if (u.mode == UI_TUNABLES && ui_selected(&u) && strcmp(ui_selected(&u)->name, u.tun_dev))
			action_tunables_reload(&u);
		if (!u.quit && flags)
			view_draw(&u);
	}
	view_end();
	loop_free(u.loop);
	/* What is left of the earlier journal now (this session may have
	 * changed and restored some of its tunables again). */
	if (u.journal_pending > 0) {
		int left = tunable_session_left(u.ts);

		if (left >= 0) {
			u.journal_changed = left != u.journal_pending;
			u.journal_pending = left;
		}
	}
	report = u.exit_log.lines || u.exit_log.dropped || u.journal_pending > 0;
	/* Anything not restored (at quit, or from an earlier journal at
	 * start) is exit status 1, as --restore's: the report says what. */
	unrestored = u.exit_log.failed > 0;
	action_exit_report(&u, stderr);
	if (tunable_session_changes(u.ts) > 0 && !u.keep_on_exit) {
		fprintf(stderr, "blktune: %zu tunable change(s) could not be restored; blktune --restore retries\n",
			tunable_session_changes(u.ts));
		unrestored = true;
	} else if (!report && u.status[0] && (u.keep_on_exit || u.exit_restored))
		fprintf(stderr, "blktune: %s\n", u.status);
	/* Changed and put back by hand (u, or [ after ]): no original left to
	 * offer at the next start. */
	if (!u.keep_on_exit && tunable_session_changes(u.ts) == 0 && tunable_session_tidy(u.ts) < 0)
		fprintf(stderr, "blktune: the journal in %s could not be tidied: the next start offers to restore "
				"values that are already back\n", journal_dir(a->opt.journal_dir));
	tunable_session_close(u.ts);
	ab_free(&u.ab);
	free(u.tun);
	return err < 0 ? err : unrestored ? TUI_UNRESTORED : 0;
}
