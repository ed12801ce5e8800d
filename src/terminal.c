#include "terminal.h"

#include <curses.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <term.h>
#include <unistd.h>

int terminal_check(char *why, size_t len)
{
	const char *term = getenv("TERM");
	char *cup;
	int err = 0;

	if (!term || !*term) {
		snprintf(why, len, "TERM is not set");
		return -ENOTTY;
	}
	if (setupterm(term, STDOUT_FILENO, &err) != OK) {
		snprintf(why, len, "TERM=%s is not a terminal terminfo knows", term);
		return -ENOTTY;
	}
	cup = tigetstr("cup");
	del_curterm(cur_term);
	if (cup == NULL || cup == (char *)-1) {
		snprintf(why, len, "TERM=%s cannot move the cursor", term);
		return -ENOTTY;
	}
	return 0;
}
