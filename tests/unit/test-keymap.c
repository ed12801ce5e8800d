/* keymap: the names keys are said by on the status line. */
#include <curses.h>
#include <errno.h>
#include <stdio.h>

#include "keymap.h"
#include "unit.h"

/* A modified cursor key (ncurses gives it a code past KEY_MAX and a
 * terminfo name) is said as a person types it, not "code 568". */
START_TEST(modified_keys_named)
{
	static const struct {
		const char *cap;
		bool alt;
		const char *want;
	} ok[] = {
		{ "kRIT5", false, "Ctrl-Right" },    { "kLFT2", false, "Shift-Left" },  { "kUP3", false, "Alt-Up" },
		{ "kDN4", false, "Shift-Alt-Down" }, { "kHOM6", false, "Ctrl-Shift-Home" },
		{ "kEND7", false, "Ctrl-Alt-End" },  { "kPRV5", false, "Ctrl-PgUp" },   { "kNXT5", false, "Ctrl-PgDn" },
		{ "kDC5", false, "Ctrl-Delete" },    { "kIC2", false, "Shift-Insert" }, { "kRIT5", true, "Alt-Ctrl-Right" },
	};
	static const char *const bad[] = { "kRIT", "kRIT1", "kRIT8", "kRIT55", "kRI5", "kDX5", "kxIN", "", "kUP" };
	char buf[64];

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		ck_assert_int_eq(keymap_modified_name(ok[i].cap, ok[i].alt, buf, sizeof(buf)), 0);
		ck_assert_str_eq(buf, ok[i].want);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(keymap_modified_name(bad[i], false, buf, sizeof(buf)) == -ENOENT, "took %s", bad[i]);
	ck_assert_int_eq(keymap_modified_name(NULL, false, buf, sizeof(buf)), -ENOENT);
	/* keys with names of their own keep them */
	keymap_key_name(KEY_F(29), false, buf, sizeof(buf));
	ck_assert_str_eq(buf, "Ctrl-F5");
	keymap_key_name(1, true, buf, sizeof(buf));
	ck_assert_str_eq(buf, "Alt-Ctrl-A");
	keymap_key_name(KEY_SRIGHT, false, buf, sizeof(buf));
	ck_assert_str_eq(buf, "Shift-Right");
}
END_TEST

UNIT_SUITE(keymap_suite)
static Suite *keymap_suite(void)
{
	Suite *s = suite_create("keymap");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, modified_keys_named);
	suite_add_tcase(s, tc);
	return s;
}
