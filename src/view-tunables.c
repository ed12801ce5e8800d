#include <curses.h>
#include <string.h>

#include "view.h"

/* The tunables panel: every tunable of the selected device with its value
 * now, at start, its range, and the help and layer note of the selected one. */
void view_tunables_draw(struct ui *u, int y, int height, int width)
{
	const char *why = NULL;
	bool ro = !tunable_session_writable(u->ts, &why);
	int list_h = height - 5, line;

	attrset(view_attr(u, VC_TITLE));
	mvprintw(y, 0, "tunables of %s", u->tun_dev[0] ? u->tun_dev : "-");
	attrset(A_NORMAL);
	if (ro)
		printw("   read-only: %s", why);
	else if (tunable_session_changes(u->ts))
		printw("   %zu changed (u undo, U restore all, K keep)", tunable_session_changes(u->ts));
	attrset(view_attr(u, VC_HEADER));
	mvhline(y + 1, 0, ' ', width);
	mvprintw(y + 1, 0, "%-24s %-14s %-14s %s", "TUNABLE", "NOW", "AT START", "RANGE OR CHOICES");
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

		attrset(sel ? view_attr(u, VC_SELECTED) : (diff ? view_attr(u, VC_TITLE) : (int)A_NORMAL));
		if (sel)
			mvhline(y + 2 + r, 0, ' ', width);
		mvprintw(y + 2 + r, 0, "%-24.24s %-14.14s %-14.14s %.*s%s", t->name, t->value, t->start,
			 width > 60 ? width - 60 : 0, t->range, t->writable ? "" : "  (read-only)");
	}
	attrset(A_NORMAL);
	line = y + 2 + list_h;
	if (u->tun_sel < u->ntun) {
		const struct tunable_info *t = &u->tun[u->tun_sel];
		mvhline(line, 0, ACS_HLINE, width);
		mvprintw(line + 1, 0, "%.*s", width, t->def ? t->def->help : "");
		mvprintw(line + 2, 0, "layer: %s%s%.*s", t->def ? tunable_table_layer_name(t->def->layer) : "-",
			 t->note[0] ? "; " : "", width - 20, t->note);
	}
}
