#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "format.h"
#include "view.h"

/* The tunables panel: every tunable of the selected device with its value
 * now, at start, its range, and the help and layer note of the selected one. */
void view_tunables_draw(struct ui *u, int y, int height, int width)
{
	const char *why = NULL;
	bool ro = !tunable_session_writable(u->ts, &why);

	if (ui_replay(u)) {
		ro = true;
		why = "a replay: the values recorded at the time shown, and the first recorded as AT START";
	}
	const struct tunable_info *cur = u->tun_sel < u->ntun ? &u->tun[u->tun_sel] : NULL;
	char help[1024], layer[TUNABLE_MSG_MAX + 64];
	int help_h, layer_h, list_h, line;

	/* the selected tunable's help and layer note, wrapped, not cut; its
	 * range too when the RANGE column cuts it (a scheduler's choices at
	 * 80 columns) */
	{
		char range[sizeof(cur->range)] = "";
		bool cut = cur && (int)strlen(cur->range) > width - 62;

		if (cut)
			format_sanitize(cur->range, range, sizeof(range));
		snprintf(help, sizeof(help), "%s%s%s%s", cut ? "range: " : "", range, cut ? ". " : "",
			 cur && cur->def ? cur->def->help : "");
	}
	help_h = view_wrap(-1, width, 5, help);

	snprintf(layer, sizeof(layer), "layer: %s%s%s",
		 cur && cur->def ? tunable_table_layer_name(cur->def->layer) : "-",
		 cur && cur->note[0] ? "; " : "", cur ? cur->note : "");
	layer_h = view_wrap(-1, width, 3, layer);
	list_h = height - 3 - help_h - layer_h;

	attrset(view_attr(u, VC_TITLE));
	mvprintw(y, 0, "tunables of %s", u->tun_dev[0] ? u->tun_dev : "-");
	attrset(A_NORMAL);
	if (ro) {
		char msg[TUNABLE_MSG_MAX + 16];
		int ro_h;

		/* the refusal (another blktune holds the journal) in full */
		snprintf(msg, sizeof(msg), "read-only: %s", why);
		if (getcurx(stdscr) + 3 + (int)strlen(msg) <= width) {
			printw("   %s", msg);
		} else {
			ro_h = view_wrap(y + 1, width, 3, msg);
			y += ro_h;
			height -= ro_h;
			list_h -= ro_h;
		}
	}
	else if (tunable_session_changes(u->ts))
		printw("   %zu changed (u undo, U restore all, K keep)", tunable_session_changes(u->ts));
	attrset(view_attr(u, VC_HEADER));
	mvhline(y + 1, 0, ' ', width);
	mvprintw(y + 1, 0, "%-26s %-14s %-14s %s", "TUNABLE", "NOW", "AT START", "RANGE OR CHOICES");
	attrset(A_NORMAL);
	if (u->ntun == 0) {
		mvprintw(y + 2, 0, "%.*s", width, u->tun_msg[0] ? u->tun_msg : "no tunables");
		return;
	}
	if (list_h < 1)
		list_h = 1;
	if (u->tun_sel < u->tun_top)
		u->tun_top = u->tun_sel;
	if (u->tun_sel >= u->tun_top + list_h)
		u->tun_top = u->tun_sel - list_h + 1;
	for (int r = 0; r < list_h && u->tun_top + r < u->ntun; r++) {
		const struct tunable_info *t = &u->tun[u->tun_top + r];
		bool sel = u->tun_top + r == u->tun_sel;
		bool diff = strcmp(t->value, t->start) != 0;
		char value[TUNABLE_VALUE_MAX], start[TUNABLE_VALUE_MAX], range[sizeof(t->range)];

		/* Values and choices are sysfs text: never terminal controls. */
		format_sanitize(t->value, value, sizeof(value));
		format_sanitize(t->start, start, sizeof(start));
		format_sanitize(t->range, range, sizeof(range));
		attrset(sel ? view_attr(u, VC_SELECTED) : (diff ? view_attr(u, VC_TITLE) : (int)A_NORMAL));
		if (sel)
			mvhline(y + 2 + r, 0, ' ', width);
		mvprintw(y + 2 + r, 0, "%-26.26s %-14.14s %-14.14s %.*s%s", t->name, value, start,
			 width > 62 ? width - 62 : 0, range,
			 t->writable || (t->def && t->def->type == TUNABLE_TEXT) ? "" : "  (read-only)");
	}
	attrset(A_NORMAL);
	line = y + 2 + list_h;
	if (cur) {
		mvhline(line, 0, ACS_HLINE, width);
		view_wrap(line + 1, width, help_h, help);
		view_wrap(line + 1 + help_h, width, layer_h, layer);
	}
}
