#include "tui.h"

#include <curses.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "keymap.h"
#include "loop.h"
#include "view.h"

static void resize(void)
{
	struct winsize ws;

	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row && ws.ws_col)
		resizeterm(ws.ws_row, ws.ws_col);
}

/* Text input of the name filter: applies on Enter, Esc restores. */
static unsigned prompt_key(struct ui *u, int key)
{
	size_t len = strlen(u->input);

	if (key == 27) {
		u->prompt = UI_PROMPT_NONE;
		return ACT_REDRAW;
	}
	if (key == '\n' || key == KEY_ENTER) {
		u->prompt = UI_PROMPT_NONE;
		snprintf(u->app->filter.name, sizeof(u->app->filter.name), "%s", u->input);
		ui_status(u, u->input[0] ? "showing devices matching \"%s\"" : "filter cleared", u->input);
		return ACT_ROWS;
	}
	if ((key == KEY_BACKSPACE || key == 127 || key == 8) && len > 0) {
		u->input[len - 1] = '\0';
	} else if (key > 32 && key < 127 && len + 1 < sizeof(u->input) &&
		   len + 1 < sizeof(u->app->filter.name)) {
		u->input[len] = (char)key;
		u->input[len + 1] = '\0';
	}
	return ACT_REDRAW;
}

static unsigned handle_keys(struct ui *u)
{
	unsigned flags = 0;
	int key;

	while ((key = getch()) != ERR) {
		if (key == KEY_RESIZE) {
			flags |= ACT_REDRAW;
			continue;
		}
		if (u->prompt != UI_PROMPT_NONE) {
			flags |= prompt_key(u, key);
			continue;
		}
		u->status[0] = '\0';
		flags |= keymap_dispatch(u, key);
		if (u->quit)
			break;
	}
	return flags;
}

int tui_run(struct app *a)
{
	struct ui u;
	int err, signo;

	memset(&u, 0, sizeof(u));
	u.app = a;
	u.detail = true;
	if ((err = app_refresh(a)) < 0)
		return err;
	if ((err = loop_new(a->opt.interval, true, &u.loop)) < 0)
		return err;
	if (view_init(a->opt.no_color, &u.color) < 0) {
		loop_free(u.loop);
		return -ENOTTY;
	}
	ui_status(&u, "first interval: figures appear after %.1f s; ? for help", a->opt.interval);
	view_draw(&u);
	while (!u.quit) {
		unsigned flags = 0;
		int ev = loop_wait(u.loop, &signo);

		if (ev < 0) {
			err = ev;
			break;
		}
		switch (ev) {
		case LOOP_TICK:
			if ((err = app_refresh(a)) < 0) {
				u.quit = true;
				break;
			}
			if (*sampler_error(a->sampler))
				ui_status(&u, "%s", sampler_error(a->sampler));
			else if (!strncmp(u.status, "first interval", 14))
				u.status[0] = '\0';
			flags |= ACT_REDRAW;
			break;
		case LOOP_INPUT:
			flags |= handle_keys(&u);
			break;
		case LOOP_SIGNAL:
			if (signo == SIGWINCH) {
				/* Redraw at the new size from the data we have: no sample. */
				resize();
				flags |= ACT_REDRAW;
			} else {
				u.quit = true;
			}
			break;
		}
		if (flags & ACT_ROWS) {
			app_rows(a);
			ui_sync_selection(&u);
		}
		if (!u.quit && flags)
			view_draw(&u);
	}
	view_end();
	loop_free(u.loop);
	return err;
}
