#include <curses.h>

#include "columns.h"
#include "keymap.h"
#include "view.h"

void view_help_draw(struct ui *u, int y, int height, int width)
{
	int line = 0, total = keymap_count + keymap_nsections * 2 + COLUMN_COUNT + 4;

	if (u->help_top > total - height)
		u->help_top = total - height > 0 ? total - height : 0;
#define PUT(...)                                                            \
	do {                                                                \
		if (line >= u->help_top && line - u->help_top < height)    \
			mvprintw(y + line - u->help_top, 0, __VA_ARGS__);   \
		line++;                                                     \
	} while (0)
	for (int s = 0; s < keymap_nsections; s++) {
		attrset(view_attr(u, VC_TITLE));
		PUT("%s%s", keymap_sections[s].title, s ? "" : " (? or Esc closes help; j/k scroll it)");
		attrset(A_NORMAL);
		for (int i = 0; i < keymap_count; i++)
			if (keymap_section_of(&keymap[i]) == s)
				PUT("  %-12s %.*s", keymap[i].label, width - 15, keymap[i].help);
		PUT(" ");
	}
	attrset(view_attr(u, VC_TITLE));
	PUT("Columns (iostat -x formulas over /proc/diskstats, per interval)");
	attrset(A_NORMAL);
	for (int i = 0; i < COLUMN_COUNT; i++)
		PUT("  %-9s %.*s", columns[i].header, width - 12, columns[i].formula);
#undef PUT
}
